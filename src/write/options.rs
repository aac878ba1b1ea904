//! How a [`Serializer`](super::Serializer) writes: [`SerializerOptions`], a superset of html5lib's
//! serializer options.

/// When attribute values are quoted ([`SerializerOptions::quote_attr_values`]); html5lib's three
/// settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QuoteAttrValues {
    /// Always quoted.
    Always,
    /// Quoted when the unquoted attribute value syntax (§13.1.2.3) cannot hold the value: it is
    /// empty, or holds ASCII whitespace, `"`, `'`, `=`, `` ` `` or a literal `<`; a value holding
    /// `>` is quoted too (it is escaped as `&gt;` either way; html5lib-tests expects the quotes).
    #[default]
    Spec,
    /// As [`Spec`](Self::Spec), and also for every control character, `/`, U+00A0 and the Unicode
    /// space separators: html5lib's "legacy" setting, for consumers that split on them.
    Legacy,
}

/// The quote character for attribute values ([`SerializerOptions::quote_char`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Quote {
    /// `"`, escaped as `&quot;` inside the value.
    #[default]
    Double,
    /// `'`, escaped as `&#39;` inside the value.
    Single,
}

impl Quote {
    pub(crate) fn byte(self) -> u8 {
        match self {
            Quote::Double => b'"',
            Quote::Single => b'\'',
        }
    }
}

/// How a [`Serializer`](super::Serializer) writes. [`SerializerOptions::new`] is lossless: what it
/// writes tokenizes back to the tokens it was given (see the [module docs](super) for the exact
/// promise); the options marked "changes the tokens" trade that for shorter or more conventional
/// output.
///
/// ```
/// use tagstream::write::{Quote, QuoteAttrValues, SerializerOptions};
/// let options = SerializerOptions::new()
///     .quote_attr_values(QuoteAttrValues::Always)
///     .quote_char(Quote::Single)
///     .omit_optional_tags(true);
/// # let _ = options;
/// ```
#[derive(Clone, Debug)]
pub struct SerializerOptions {
    pub(crate) quote_attr_values: QuoteAttrValues,
    pub(crate) quote_char: Quote,
    pub(crate) use_best_quote_char: bool,
    pub(crate) minimize_boolean_attributes: bool,
    pub(crate) use_trailing_solidus: bool,
    pub(crate) space_before_trailing_solidus: bool,
    pub(crate) escape_lt_in_attrs: bool,
    pub(crate) escape_rcdata: bool,
    pub(crate) omit_optional_tags: bool,
    pub(crate) strip_whitespace: bool,
    pub(crate) inject_meta_charset: Option<String>,
    pub(crate) alphabetical_attributes: bool,
    pub(crate) keep_self_closing: bool,
    pub(crate) pre_newline: bool,
    pub(crate) scripting: bool,
    pub(crate) html5lib_compat: bool,
    pub(crate) lossy: bool,
}

impl Default for SerializerOptions {
    fn default() -> SerializerOptions {
        SerializerOptions {
            quote_attr_values: QuoteAttrValues::Spec,
            quote_char: Quote::Double,
            use_best_quote_char: true,
            minimize_boolean_attributes: false,
            use_trailing_solidus: false,
            space_before_trailing_solidus: true,
            escape_lt_in_attrs: true,
            escape_rcdata: false,
            omit_optional_tags: false,
            strip_whitespace: false,
            inject_meta_charset: None,
            alphabetical_attributes: false,
            keep_self_closing: true,
            pre_newline: false,
            scripting: false,
            html5lib_compat: false,
            lossy: false,
        }
    }
}

impl SerializerOptions {
    /// The lossless defaults: values quoted as [`QuoteAttrValues::Spec`] says, with `"` unless
    /// `'` needs fewer escapes, nothing omitted, minimized or stripped.
    pub fn new() -> SerializerOptions {
        SerializerOptions::default()
    }

    /// When to quote attribute values (default [`QuoteAttrValues::Spec`]).
    pub fn quote_attr_values(mut self, when: QuoteAttrValues) -> SerializerOptions {
        self.quote_attr_values = when;
        self
    }

    /// The quote character (default `"`). Setting it also turns
    /// [`use_best_quote_char`](Self::use_best_quote_char) off, as in html5lib.
    pub fn quote_char(mut self, quote: Quote) -> SerializerOptions {
        self.quote_char = quote;
        self.use_best_quote_char = false;
        self
    }

    /// Quote a value holding only one kind of quote with the other kind, so that it needs no
    /// escape (default on).
    pub fn use_best_quote_char(mut self, on: bool) -> SerializerOptions {
        self.use_best_quote_char = on;
        self
    }

    /// Write a boolean attribute (the HTML Standard's list, by element) whose value is empty or
    /// its own name in the empty attribute syntax: `<input disabled>` (default off). Changes the
    /// tokens: `disabled=disabled` reads back as `disabled=""`.
    pub fn minimize_boolean_attributes(mut self, on: bool) -> SerializerOptions {
        self.minimize_boolean_attributes = on;
        self
    }

    /// End void elements' start tags with `/>` (default off). Changes the tokens: they read back
    /// self-closing.
    pub fn use_trailing_solidus(mut self, on: bool) -> SerializerOptions {
        self.use_trailing_solidus = on;
        self
    }

    /// Write a space before a trailing `/` (default on). Without it the space is still written
    /// after an unquoted value, which would otherwise take the `/` in.
    pub fn space_before_trailing_solidus(mut self, on: bool) -> SerializerOptions {
        self.space_before_trailing_solidus = on;
        self
    }

    /// Escape `<` and `>` in attribute values as `&lt;` and `&gt;` (default on, as the HTML
    /// Standard's fragment serializing algorithm does since 2025); off writes them literally,
    /// which forces quotes.
    pub fn escape_lt_in_attrs(mut self, on: bool) -> SerializerOptions {
        self.escape_lt_in_attrs = on;
        self
    }

    /// Escape `&`, `<` and `>` in raw text elements (`script`, `style`, …) as in other text
    /// (default off). Changes the tokens: raw text has no character references, so the escapes
    /// read back as written.
    pub fn escape_rcdata(mut self, on: bool) -> SerializerOptions {
        self.escape_rcdata = on;
        self
    }

    /// Omit start and end tags as §13.1.2.4 "Optional tags" allows (default off). The decision
    /// for a tag waits for the next token (or [`Serializer::finish`](super::Serializer::finish)).
    /// Changes the tokens, not the tree a parser builds from them (for conforming documents).
    pub fn omit_optional_tags(mut self, on: bool) -> SerializerOptions {
        self.omit_optional_tags = on;
        self
    }

    /// Collapse each run of ASCII whitespace in text to one space, except in `pre`, `textarea`,
    /// `listing` and the raw text elements (default off). Changes the tokens.
    pub fn strip_whitespace(mut self, on: bool) -> SerializerOptions {
        self.strip_whitespace = on;
        self
    }

    /// Declare `encoding` in the `head` (default none): a `<meta charset>` or an `http-equiv`
    /// content type `<meta>` gets it as its value, and a `head` with neither gets
    /// `<meta charset=ENCODING>` first thing. Tokens after `<head>` are held back until the head
    /// ends, a declaration is found, or 1024 bytes of them have come (the HTML Standard wants the
    /// declaration within the first 1024 bytes), whichever is first. Changes the tokens.
    pub fn inject_meta_charset(mut self, encoding: Option<&str>) -> SerializerOptions {
        self.inject_meta_charset = encoding.map(str::to_owned);
        self
    }

    /// Write each start tag's attributes sorted by name (default off).
    pub fn alphabetical_attributes(mut self, on: bool) -> SerializerOptions {
        self.alphabetical_attributes = on;
        self
    }

    /// Write `/` before `>` on every start tag given as self-closing (default on): the flag is part
    /// of the token. Off: only on foreign elements, the only place where it means something
    /// (§13.1.2.1). Off changes the tokens.
    pub fn keep_self_closing(mut self, on: bool) -> SerializerOptions {
        self.keep_self_closing = on;
        self
    }

    /// The text given is a document tree's (after tree construction), not a tokenizer's (default
    /// off): text right after a `pre`, `textarea` or `listing` start tag that begins with a newline
    /// gets one more, which the parser drops (§13.1.2.5).
    pub fn pre_newline(mut self, on: bool) -> SerializerOptions {
        self.pre_newline = on;
        self
    }

    /// The scripting flag of the parser that will read the output (default off, as the
    /// tokenizer's [`Options::scripting`](crate::Options::scripting)): on, `noscript` holds raw
    /// text.
    pub fn scripting(mut self, on: bool) -> SerializerOptions {
        self.scripting = on;
        self
    }

    /// Write what html5lib's serializer writes where it differs from today's HTML Standard
    /// (default off): its optional-tag lists (a `p` end tag is omitted before `datagrid` and
    /// `dir`, not before `details`, `figcaption`, `figure`, `hgroup`, `main`, `search`; `html` and
    /// `body` end tags and the `html` start tag are kept before whitespace; a `tfoot` end tag is
    /// omitted before `tbody`), its boolean attributes (whatever their value), and carriage
    /// returns written as they are (they read back as line feeds; the default writes `&#13;`
    /// where references work and refuses them elsewhere).
    pub fn html5lib_compat(mut self, on: bool) -> SerializerOptions {
        self.html5lib_compat = on;
        self
    }

    /// Write tokens that cannot be written so that they read back unchanged, changed as little as
    /// possible, instead of returning a [`WriteError`](super::WriteError) (default off):
    ///
    /// - a comment: a space breaks each `-->`, `--!>` and `<!--` (`-- >`, `--! >`, `<!- -`), a
    ///   leading `>` or `->` and a trailing `<!-`;
    /// - raw text holding its element's end tag: `<\/` instead of `</` (what scripts and style
    ///   sheets read as the same text);
    /// - a CDATA section holding `]]>`: split into two sections (the text survives);
    /// - a DOCTYPE identifier holding both quotes: its `"` become `'`; holding `>`: dropped; a
    ///   DOCTYPE without a name and without force-quirks: `<!DOCTYPE>`, which sets it;
    /// - U+0000 where the tokenizer would read U+FFFD: U+FFFD; a carriage return where it would
    ///   read a line feed: a line feed;
    /// - a repeated attribute name: the repeat is dropped (as the tokenizer drops it);
    /// - a tag, comment, CDATA section, DOCTYPE or processing instruction inside raw text, RCDATA
    ///   or PLAINTEXT: written anyway (it reads back as text); a script end tag after `<!-- <script>` left open: written
    ///   anyway (it does not end the script).
    ///
    /// Names that cannot be written (a tag name not starting with an ASCII letter, …) are refused
    /// whatever this says.
    pub fn lossy(mut self, on: bool) -> SerializerOptions {
        self.lossy = on;
        self
    }
}
