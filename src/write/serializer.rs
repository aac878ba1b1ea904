//! [`Serializer`]: tokens in, HTML out, in three stages that each see every token: the token
//! checks and transforms here ([`SerializerOptions::inject_meta_charset`] holds back the head's
//! tokens after them, in `meta`), then optional-tag omission (one tag held back until the next
//! token decides it) and the writer, which escapes by context into a buffer that goes to the
//! output in large writes (both in `output`). The HTML tokenizer's data text and start tags travel
//! as the tokens themselves ([`Item::Data`], [`AttrList::Token`]): the writer takes their bytes
//! from the input where decoding and escaping would leave them as they are, as most are, and
//! decodes the rest.

use std::borrow::Cow;
use std::io::Write;

mod meta;
mod output;

use super::check::{self, RawScan, is_raw};
use super::elements::{is_void, preserves_whitespace, text_state_after};
use super::error::{Location, Place, Refusal, WriteError};
use super::optional::Next;
use super::options::SerializerOptions;
use crate::{StartTag, Text, TextKind};
use meta::{Meta, declare_charset};
use output::{BUFFER_CAPACITY, Pending};

/// The namespace of an element, which decides whether `/>` means something (foreign elements)
/// and whether its text is raw text (HTML elements only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Namespace {
    /// An HTML element.
    #[default]
    Html,
    /// An SVG element (foreign).
    Svg,
    /// A MathML element (foreign).
    MathMl,
}

/// A DOCTYPE to write: `<!DOCTYPE name PUBLIC "public id" "system id">`.
///
/// ```
/// use tagstream::write::{Doctype, Serializer, SerializerOptions};
/// let mut out = Vec::new();
/// let mut s = Serializer::new(&mut out, SerializerOptions::new());
/// s.doctype(&Doctype::html()).unwrap();
/// s.finish().unwrap();
/// assert_eq!(out, b"<!DOCTYPE html>");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Doctype<'a> {
    /// The name (`html`); `None` writes `<!DOCTYPE>`, which a tokenizer reads with force-quirks on.
    pub name: Option<&'a str>,
    /// The public identifier.
    pub public_id: Option<&'a str>,
    /// The system identifier.
    pub system_id: Option<&'a str>,
    /// Write it so that a tokenizer sets the force-quirks flag: the last identifier's closing
    /// quote is left out, or `PUBLIC` is written without an identifier.
    pub force_quirks: bool,
}

impl Doctype<'static> {
    /// `<!DOCTYPE html>`.
    pub fn html() -> Doctype<'static> {
        Doctype {
            name: Some("html"),
            ..Doctype::default()
        }
    }
}

/// Where what the serializer is writing comes from: what it may take on trust rather than check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Origin {
    /// The caller's parts ([`Serializer::start_tag`], [`Serializer::text`], …): all checked.
    Caller,
    /// A token from the XML5 tokenizer ([`Serializer::write_token`]): a tag where the tracked
    /// context says raw text means the context was foreign content, not an error; and
    /// attribute values hold no U+0000, which decoding replaced. Its names keep their case and
    /// their repeats, and are checked.
    XmlToken,
    /// A token from the HTML tokenizer: as [`Origin::XmlToken`], and besides, its tag and
    /// attribute names read back as themselves (the tokenizer's states end them where a writer
    /// would have to refuse them) and its attributes hold no repeat (the tokenizer drops them).
    HtmlToken,
}

impl Origin {
    /// A token from a tokenizer (HTML's or another).
    pub(super) fn is_token(self) -> bool {
        self != Origin::Caller
    }
}

/// One token on its way through the stages, its strings checked (and fixed, if lossy).
#[derive(Clone, Copy)]
enum Item<'a> {
    Start {
        name: &'a str,
        attributes: AttrList<'a>,
        self_closing: bool,
        namespace: Namespace,
    },
    End(&'a str),
    Text(&'a str, TextKind),
    /// Data text from the HTML tokenizer, in data, as the input has it: the writer decodes and
    /// escapes it in one pass ([`Serializer::writes_data_as_is`]).
    Data(Text<'a>),
    Comment(&'a str),
    Doctype(Doctype<'a>),
    Pi(&'a str, &'a str),
}

/// A start tag's attributes on their way through the stages.
#[derive(Clone, Copy)]
enum AttrList<'a> {
    /// (name, value) pairs, checked.
    Pairs(&'a [(&'a str, &'a str)]),
    /// A tag from the HTML tokenizer, whose names read back as themselves and do not repeat: the
    /// writer takes each value as written when it decodes to itself and needs no quotes.
    Token(&'a StartTag<'a>),
}

impl AttrList<'_> {
    fn is_empty(&self) -> bool {
        match self {
            AttrList::Pairs(pairs) => pairs.is_empty(),
            AttrList::Token(tag) => tag.attributes().len() == 0,
        }
    }
}

/// Writes tokens as HTML (HTML Standard §13.1 "Writing HTML documents"); see the
/// [module docs](super).
///
/// ```
/// use tagstream::write::{Serializer, SerializerOptions};
///
/// let mut out = Vec::new();
/// let mut s = Serializer::new(&mut out, SerializerOptions::new());
/// s.start_tag("p", &[("title", "a \"b\"")]).unwrap();
/// s.text("1 < 2 & 3").unwrap();
/// s.end_tag("p").unwrap();
/// s.start_tag("script", &[]).unwrap();
/// s.text("if (a < b) {}").unwrap();
/// assert!(s.text("</script>").is_err());
/// s.end_tag("script").unwrap();
/// s.finish().unwrap();
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "<p title='a \"b\"'>1 &lt; 2 &amp; 3</p><script>if (a < b) {}</script>"
/// );
/// ```
pub struct Serializer<W: Write> {
    out: W,
    buf: Vec<u8>,
    options: SerializerOptions,
    /// The index the next token gets, and where the current one is.
    index: u64,
    at: Location,
    /// Where what is being written comes from, which decides what is taken on trust.
    pub(super) origin: Origin,
    /// The text state the output is in, and the element that put it there.
    context: TextKind,
    context_element: String,
    /// Where the current raw text element's text has left the tokenizer.
    raw: RawScan,
    /// The name of the last start tag (the element raw text given by state belongs to).
    last_start_tag: String,
    /// [`SerializerOptions::strip_whitespace`]: the depth inside whitespace-keeping elements, and
    /// whether the last text written ended in a collapsed space.
    preserve: u32,
    collapsed_space: bool,
    meta: Meta,
    pending: Option<Pending>,
    /// The last start tag written eats a leading newline ([`SerializerOptions::pre_newline`]).
    newline_eater: bool,
    /// Something has been written (a U+FEFF first would be taken for a byte order mark).
    started: bool,
    /// The allocation a token's attribute list is gathered in, kept empty from tag to tag
    /// ([`Serializer::write_token`]).
    pub(super) spare_attributes: Vec<(&'static str, &'static str)>,
}

impl<W: Write> Serializer<W> {
    /// A serializer writing to `out`.
    pub fn new(out: W, options: SerializerOptions) -> Serializer<W> {
        let meta = if options.inject_meta_charset.is_some() {
            Meta::BeforeHead
        } else {
            Meta::Off
        };
        Serializer {
            out,
            buf: Vec::with_capacity(BUFFER_CAPACITY),
            options,
            index: 0,
            at: Location::Index(0),
            origin: Origin::Caller,
            context: TextKind::Data,
            context_element: String::new(),
            raw: RawScan::default(),
            last_start_tag: String::new(),
            preserve: 0,
            collapsed_space: false,
            meta,
            pending: None,
            newline_eater: false,
            started: false,
            spare_attributes: Vec::new(),
        }
    }

    /// The text state the next text lands in, as the serializer tracks it from the tags written.
    pub fn text_state(&self) -> TextKind {
        self.context
    }

    /// The output.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// The output, after [`finish`](Self::finish) (what was not finished is lost).
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Where the token being written is: `offset` if known, else its index.
    pub(super) fn locate(&mut self, offset: Option<usize>) {
        self.at = offset.map_or(Location::Index(self.index), Location::Offset);
        self.index += 1;
    }

    fn refuse(&self, refusal: Refusal) -> WriteError {
        WriteError::Refused {
            refusal,
            at: self.at,
        }
    }

    /// `Err` unless lossy, where the caller writes the fixed form.
    fn refuse_unless_lossy(&self, result: Result<(), Refusal>) -> Result<(), WriteError> {
        match result {
            Err(r) if !self.options.lossy => Err(self.refuse(r)),
            _ => Ok(()),
        }
    }

    /// An HTML start tag, not self-closing.
    pub fn start_tag(&mut self, name: &str, attributes: &[(&str, &str)]) -> Result<(), WriteError> {
        self.start_tag_in(Namespace::Html, name, attributes, false)
    }

    /// A start tag in `namespace` with `attributes` as (name, value) pairs, written in that order
    /// (sorted with [`SerializerOptions::alphabetical_attributes`]). Names are written as given
    /// (ASCII case is not significant to a tokenizer); a namespaced attribute of a foreign element
    /// is given by its qualified name (`xlink:href`, §13.1.2.3).
    pub fn start_tag_in(
        &mut self,
        namespace: Namespace,
        name: &str,
        attributes: &[(&str, &str)],
        self_closing: bool,
    ) -> Result<(), WriteError> {
        self.locate(None);
        self.start(namespace, name, attributes, self_closing)
    }

    pub(super) fn start(
        &mut self,
        namespace: Namespace,
        name: &str,
        attributes: &[(&str, &str)],
        self_closing: bool,
    ) -> Result<(), WriteError> {
        if self.origin == Origin::HtmlToken {
            debug_assert!(self.check_names(name, attributes).is_ok());
        } else {
            self.check_names(name, attributes)?;
        }
        self.check_markup_allowed(None)?;
        let prepared;
        let views: Vec<(&str, &str)>;
        let attributes = if self.rewrites_attributes(name) {
            prepared = self.prepare_attributes(name, attributes);
            views = prepared.iter().map(|(n, v)| (*n, v.as_ref())).collect();
            &views
        } else {
            attributes
        };
        self.open(namespace, name, AttrList::Pairs(attributes), self_closing)
    }

    /// A start tag from the HTML tokenizer, named `name`, whose attributes are written as they
    /// are (see [`rewrites_attributes`](Self::rewrites_attributes)): [`start`](Self::start)
    /// without the list of pairs.
    pub(super) fn start_from_token(
        &mut self,
        name: &str,
        tag: &StartTag<'_>,
    ) -> Result<(), WriteError> {
        debug_assert!(self.origin == Origin::HtmlToken && !self.rewrites_attributes(name));
        self.check_markup_allowed(None)?;
        let attributes = AttrList::Token(tag);
        self.open(Namespace::Html, name, attributes, tag.self_closing())
    }

    /// Whether a start tag named `name` has its attributes changed before they are written
    /// ([`prepare_attributes`](Self::prepare_attributes)).
    pub(super) fn rewrites_attributes(&self, name: &str) -> bool {
        let o = &self.options;
        o.lossy
            || o.alphabetical_attributes
            || (o.inject_meta_charset.is_some() && name.eq_ignore_ascii_case("meta"))
    }

    /// A start tag, checked, on to the later stages.
    fn open(
        &mut self,
        namespace: Namespace,
        name: &str,
        attributes: AttrList<'_>,
        self_closing: bool,
    ) -> Result<(), WriteError> {
        self.enter(namespace, name, self_closing);
        self.emit(Item::Start {
            name,
            attributes,
            self_closing,
            namespace,
        })
    }

    /// The names of a start tag and its attributes read back as themselves, its attributes hold no
    /// repeated name and (unless from a tokenizer, whose values never hold one: decoding replaces
    /// it with U+FFFD) no U+0000.
    pub(super) fn check_names(
        &self,
        name: &str,
        attributes: &[(&str, &str)],
    ) -> Result<(), WriteError> {
        check::check_tag_name(name).map_err(|r| self.refuse(r))?;
        for (n, v) in attributes {
            check::check_attribute_name(n).map_err(|r| self.refuse(r))?;
            if !self.origin.is_token() {
                self.refuse_unless_lossy(check::check_nul(v, Place::AttributeValue))?;
            }
        }
        if let Some(i) = check::first_duplicate(attributes) {
            let duplicate = Refusal::DuplicateAttribute(attributes[i].0.to_owned());
            self.refuse_unless_lossy(Err(duplicate))?;
        }
        Ok(())
    }

    /// The attributes as written: repeats dropped and U+0000 replaced (lossy), sorted, and the
    /// charset of a `<meta>` replaced ([`SerializerOptions::inject_meta_charset`]).
    fn prepare_attributes<'t>(
        &mut self,
        element: &str,
        attributes: &[(&'t str, &'t str)],
    ) -> Vec<(&'t str, Cow<'t, str>)> {
        let mut prepared: Vec<(&str, Cow<'_, str>)> = Vec::with_capacity(attributes.len());
        let mut seen = std::collections::HashSet::new();
        for (n, v) in attributes {
            // Lossy: a repeat is dropped, U+0000 replaced (else both were refused).
            if !self.options.lossy {
                prepared.push((n, Cow::Borrowed(v)));
            } else if seen.insert(n.to_ascii_lowercase()) {
                prepared.push((n, check::fix_chars(v, true)));
            }
        }
        if self.options.alphabetical_attributes {
            prepared.sort_by(|a, b| a.0.cmp(b.0));
        }
        if element.eq_ignore_ascii_case("meta")
            && let Some(encoding) = &self.options.inject_meta_charset
            && declare_charset(&mut prepared, encoding)
        {
            match self.meta {
                Meta::InHead { .. } => self.flush_head(false),
                Meta::BeforeHead => self.meta = Meta::Off,
                Meta::Off => {}
            }
        }
        prepared
    }

    /// Track what a start tag does to the text state and whitespace stripping.
    fn enter(&mut self, namespace: Namespace, name: &str, self_closing: bool) {
        self.last_start_tag.clear();
        self.last_start_tag.push_str(name);
        if namespace == Namespace::Html
            && let Some(kind) = text_state_after(name, self.options.scripting)
        {
            self.context = kind;
            self.context_element.clear();
            self.context_element.push_str(name);
            self.raw = RawScan::default();
        }
        if self.options.strip_whitespace {
            self.count_preserving(namespace, name, self_closing);
        }
        self.collapsed_space = false;
    }

    /// [`SerializerOptions::strip_whitespace`]: the depth inside whitespace-keeping elements (all
    /// that the depth is read for).
    fn count_preserving(&mut self, namespace: Namespace, name: &str, self_closing: bool) {
        let preserving = if namespace == Namespace::Html {
            (self.preserve > 0 || preserves_whitespace(name)) && !is_void(name)
        } else {
            !self_closing && self.preserve > 0
        };
        if preserving {
            self.preserve += 1;
        }
    }

    /// Markup (a tag, other than `end_tag` closing the raw text element; a comment, DOCTYPE or
    /// processing instruction) cannot go inside raw text, RCDATA or PLAINTEXT: it would read back
    /// as text. Tokens from a tokenizer prove the tracking wrong instead (the element was
    /// foreign), and the context goes back to data.
    fn check_markup_allowed(&mut self, end_tag: Option<&str>) -> Result<(), WriteError> {
        if self.context == TextKind::Data || self.context == TextKind::Cdata {
            return Ok(());
        }
        let closes = self.context != TextKind::Plaintext
            && end_tag.is_some_and(|n| n.eq_ignore_ascii_case(&self.context_element));
        if closes {
            return Ok(());
        }
        if self.origin.is_token() {
            self.context = TextKind::Data;
            return Ok(());
        }
        let element = self.context_element.clone();
        self.refuse_unless_lossy(Err(Refusal::MarkupInText { element }))
    }

    /// An end tag.
    pub fn end_tag(&mut self, name: &str) -> Result<(), WriteError> {
        self.locate(None);
        self.end(name)
    }

    pub(super) fn end(&mut self, name: &str) -> Result<(), WriteError> {
        if self.origin == Origin::HtmlToken {
            debug_assert!(check::check_tag_name(name).is_ok());
        } else {
            check::check_tag_name(name).map_err(|r| self.refuse(r))?;
        }
        self.check_markup_allowed(Some(name))?;
        if self.context == TextKind::ScriptData && !self.raw.closes() {
            let not_closable = Err(Refusal::ScriptNotClosable);
            self.refuse_unless_lossy(not_closable)?;
        }
        if self.context != TextKind::Plaintext {
            self.context = TextKind::Data;
        }
        self.preserve = self.preserve.saturating_sub(1);
        self.collapsed_space = false;
        self.emit(Item::End(name))
    }

    /// Text, in the state the serializer tracks from the tags written ([`text_state`]): escaped
    /// in data and RCDATA, written as it is in raw text (refused if it would end the element).
    ///
    /// [`text_state`]: Self::text_state
    pub fn text(&mut self, text: &str) -> Result<(), WriteError> {
        self.locate(None);
        self.text_of_kind(text, self.context)
    }

    /// Text in the given tokenizer state, for callers that know it better than the serializer's
    /// tracking (a [`Text`]'s [`kind`](crate::Text::kind), say): the tracked state
    /// becomes `kind`. [`TextKind::Cdata`] writes a CDATA section ([`cdata`](Self::cdata)).
    pub fn text_in(&mut self, text: &str, kind: TextKind) -> Result<(), WriteError> {
        self.locate(None);
        self.text_of_kind(text, kind)
    }

    pub(super) fn text_of_kind(&mut self, text: &str, kind: TextKind) -> Result<(), WriteError> {
        if self.writes_data_as_is(kind) {
            if text.is_empty() {
                return Ok(());
            }
            return self.emit(Item::Text(text, kind));
        }
        self.text_in_state(text, kind)
    }

    /// HTML data text from a tokenizer, not empty, where [`writes_data_as_is`] says: on as the
    /// input has it.
    ///
    /// [`writes_data_as_is`]: Self::writes_data_as_is
    pub(super) fn emit_data(&mut self, text: Text<'_>) -> Result<(), WriteError> {
        self.emit(Item::Data(text))
    }

    /// Whether text of `kind` goes on as it is: data text in data, as most text is, has nothing
    /// to check (U+0000 and CR are written, CR escaped) and no state to change.
    pub(super) fn writes_data_as_is(&self, kind: TextKind) -> bool {
        kind == TextKind::Data && self.context == TextKind::Data && !self.options.strip_whitespace
    }

    /// [`text_of_kind`](Self::text_of_kind) for text that may change the state or need a check.
    /// Out of line, as the comment, DOCTYPE and processing instruction paths are: inlined into
    /// [`write_token`](Self::write_token)'s match, their registers and stack made every token pay
    /// for a longer entry (callgrind, corpus: 20.16 -> 19.48 instructions/byte).
    #[inline(never)]
    fn text_in_state(&mut self, text: &str, kind: TextKind) -> Result<(), WriteError> {
        if kind == TextKind::Cdata {
            return self.cdata_section(text);
        }
        if text.is_empty() {
            return Ok(());
        }
        let switched = kind != self.context;
        let (fixed, after) = self.checked_text(text, kind, switched)?;
        if switched {
            self.context = kind;
            self.context_element.clone_from(&self.last_start_tag);
        }
        self.raw = after;
        let text = if self.options.strip_whitespace && self.preserve == 0 && !is_raw(kind) {
            self.collapse_whitespace(&fixed)
        } else {
            fixed
        };
        if text.is_empty() {
            return Ok(());
        }
        self.emit(Item::Text(&text, kind))
    }

    /// `text` as it can be written in state `kind` (refused, or fixed if lossy), and where it
    /// leaves the raw text element's end tag scan. `switched`: the text starts a new state, whose
    /// element is the last start tag's.
    fn checked_text<'t>(
        &self,
        text: &'t str,
        kind: TextKind,
        switched: bool,
    ) -> Result<(Cow<'t, str>, RawScan), WriteError> {
        let (element, scan) = if switched {
            (&self.last_start_tag, RawScan::default())
        } else {
            (&self.context_element, self.raw)
        };
        let place = Place::Text(kind);
        let raw = is_raw(kind);
        let literal = raw && kind != TextKind::Plaintext && !self.options.escape_rcdata;
        let script = kind == TextKind::ScriptData;
        let compat = self.options.html5lib_compat;
        // U+0000 or CR, which data keeps (escaped) but the other states change.
        let special =
            kind != TextKind::Data && memchr::memchr2(0, b'\r', text.as_bytes()).is_some();
        if special && (raw || kind == TextKind::Rcdata) {
            self.refuse_unless_lossy(check::check_nul(text, place))?;
        }
        if special && raw && !compat {
            self.refuse_unless_lossy(check::check_cr(text, place))?;
        }
        let mut after = scan;
        let ends_element = literal && after.scan(text, element, script).is_err();
        if ends_element {
            let refusal = Refusal::EndTagInRawText {
                element: element.clone(),
            };
            self.refuse_unless_lossy(Err(refusal))?;
        }
        let fixed = if special {
            check::fix_chars(text, compat || !raw)
        } else {
            Cow::Borrowed(text)
        };
        if ends_element || (literal && matches!(fixed, Cow::Owned(_))) {
            let (fixed, after) = check::fix_raw_text(&fixed, scan, element, script);
            return Ok((fixed, after));
        }
        Ok((fixed, after))
    }

    /// [`SerializerOptions::strip_whitespace`]: each run of ASCII whitespace as one space, also
    /// across adjacent texts.
    fn collapse_whitespace<'t>(&mut self, text: &'t str) -> Cow<'t, str> {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            if c.is_ascii() && check::is_space(c as u8) {
                if !self.collapsed_space {
                    out.push(' ');
                    self.collapsed_space = true;
                }
            } else {
                out.push(c);
                self.collapsed_space = false;
            }
        }
        Cow::Owned(out)
    }

    /// A CDATA section (`<![CDATA[text]]>`), which the tokenizer reads only in foreign content.
    pub fn cdata(&mut self, text: &str) -> Result<(), WriteError> {
        self.locate(None);
        self.cdata_section(text)
    }

    fn cdata_section(&mut self, text: &str) -> Result<(), WriteError> {
        self.refuse_unless_lossy(check::check_cdata(text))?;
        let compat = self.options.html5lib_compat;
        if !compat {
            self.refuse_unless_lossy(check::check_cr(text, Place::Text(TextKind::Cdata)))?;
        }
        self.check_markup_allowed(None)?;
        let text = if compat || !text.contains('\r') {
            Cow::Borrowed(text)
        } else {
            Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
        };
        self.collapsed_space = false;
        self.emit(Item::Text(&text, TextKind::Cdata))
    }

    /// A comment (`<!--text-->`), refused if its text breaks a rule of §13.1.6 (see
    /// [`Refusal::Comment`]).
    pub fn comment(&mut self, text: &str) -> Result<(), WriteError> {
        self.locate(None);
        self.comment_token(text)
    }

    /// A comment, out of line (see [`text_in_state`](Self::text_in_state)).
    #[inline(never)]
    pub(super) fn comment_token(&mut self, text: &str) -> Result<(), WriteError> {
        let shape = check::check_comment(text);
        let well_formed = shape.is_ok();
        self.refuse_unless_lossy(shape)?;
        // U+0000 or CR, looked for once: most comments have neither.
        let special = memchr::memchr2(0, b'\r', text.as_bytes()).is_some();
        if special {
            self.refuse_unless_lossy(check::check_nul(text, Place::Comment))?;
            if !self.options.html5lib_compat {
                self.refuse_unless_lossy(check::check_cr(text, Place::Comment))?;
            }
        }
        self.check_markup_allowed(None)?;
        let fixed = if special {
            check::fix_chars(text, self.options.html5lib_compat)
        } else {
            Cow::Borrowed(text)
        };
        // Replacing U+0000 and CR makes no `-->`, `--!>` or leading `>` (nor takes one away).
        let fixed = if well_formed {
            fixed
        } else {
            Cow::Owned(check::fix_comment(&fixed).into_owned())
        };
        self.collapsed_space = false;
        self.emit(Item::Comment(&fixed))
    }

    /// A DOCTYPE.
    pub fn doctype(&mut self, doctype: &Doctype<'_>) -> Result<(), WriteError> {
        self.locate(None);
        self.doctype_token(doctype)
    }

    /// A DOCTYPE, out of line (see [`text_in_state`](Self::text_in_state)).
    #[inline(never)]
    pub(super) fn doctype_token(&mut self, d: &Doctype<'_>) -> Result<(), WriteError> {
        let cr_ok = self.options.html5lib_compat;
        match d.name {
            Some(name) => {
                check::check_doctype_name(name).map_err(|r| self.refuse(r))?;
                self.refuse_unless_lossy(check::check_nul(name, Place::Doctype))?;
            }
            None if d.public_id.is_some() || d.system_id.is_some() => {
                let what = "without a name cannot have identifiers";
                return Err(self.refuse(Refusal::Doctype { what }));
            }
            None if !d.force_quirks => {
                let what = "without a name always has force-quirks on";
                self.refuse_unless_lossy(Err(Refusal::Doctype { what }))?;
            }
            None => {}
        }
        for id in [d.public_id, d.system_id].into_iter().flatten() {
            self.refuse_unless_lossy(check::doctype_quote(id).map(drop))?;
            self.refuse_unless_lossy(check::check_nul(id, Place::Doctype))?;
            if !cr_ok {
                self.refuse_unless_lossy(check::check_cr(id, Place::Doctype))?;
            }
        }
        self.check_markup_allowed(None)?;
        let fix = |s: Option<&str>| {
            s.map(|s| check::fix_doctype_id(&check::fix_chars(s, cr_ok)).into_owned())
        };
        let (public_id, system_id) = (fix(d.public_id), fix(d.system_id));
        let name = d.name.map(|n| check::fix_chars(n, true).into_owned());
        self.collapsed_space = false;
        self.emit(Item::Doctype(Doctype {
            name: name.as_deref(),
            public_id: public_id.as_deref(),
            system_id: system_id.as_deref(),
            force_quirks: d.force_quirks,
        }))
    }

    /// A processing instruction, `<?target data?>` (HTML Standard since 2026).
    pub fn processing_instruction(&mut self, target: &str, data: &str) -> Result<(), WriteError> {
        self.locate(None);
        self.pi(target, data)
    }

    /// A processing instruction, out of line (see [`text_in_state`](Self::text_in_state)).
    #[inline(never)]
    pub(super) fn pi(&mut self, target: &str, data: &str) -> Result<(), WriteError> {
        check::check_processing_instruction(target, data).map_err(|r| self.refuse(r))?;
        self.check_markup_allowed(None)?;
        self.collapsed_space = false;
        self.emit(Item::Pi(target, data))
    }

    /// Write what is held back (an optional tag waiting for its next token, the head waiting for
    /// its charset declaration) and flush the output. The serializer can go on afterwards, as if
    /// the stream had ended here.
    pub fn finish(&mut self) -> Result<(), WriteError> {
        if let Meta::InHead { .. } = self.meta {
            self.flush_head(true);
        }
        self.settle_pending(Next::Eof);
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        self.out.flush()?;
        Ok(())
    }
}
