//! The tree-builder simulator: the tree-construction stage's feedback to the tokenizer, without a DOM.
//!
//! The HTML Standard's tokenizer does not decide its own text states: after `<script>` the tree
//! builder switches it to script data, after `<title>` to RCDATA, and `<![CDATA[` is a CDATA section
//! only while the *adjusted current node* is an SVG or MathML element. The simulator watches every
//! token [`Tokens`](crate::Tokens) hands out and gives the same feedback a tree builder would, from the little
//! state it needs ([`Options::simulate`](crate::Options::simulate), on by default):
//!
//! - the text states: `title`, `textarea` → RCDATA; `style`, `xmp`, `iframe`, `noembed`,
//!   `noframes` (and `noscript` with [`Options::scripting`](crate::Options::scripting)) → RAWTEXT;
//!   `script` → script data; `plaintext` → PLAINTEXT (the last start tag, which decides the
//!   appropriate end tag, is the one just emitted);
//! - a stack of the open SVG and MathML elements with the HTML integration points (SVG
//!   `foreignObject`, `desc`, `title`; MathML `annotation-xml` with an HTML or XHTML `encoding`),
//!   the MathML text integration points (`mi`, `mo`, `mn`, `ms`, `mtext`), the start tags that break
//!   out of foreign content (and `font` with `color`, `face` or `size`), self-closing foreign
//!   elements, end tags that close foreign elements, and the HTML elements open inside integration
//!   points; CDATA sections are allowed exactly while the adjusted current node is foreign;
//! - `<template>` (its contents, and the column-group mode in which a template ignores
//!   everything but `<col>`), and the frameset insertion modes, in which every text-state start
//!   tag but `<noframes>` is ignored.
//!
//! Where the right feedback depends on tree-builder state the simulator does not keep (which HTML
//! elements are open below SVG or MathML content, the table insertion modes, misnested HTML inside
//! an integration point), it does not guess silently: it makes its best guess and marks the token
//! with an [`Ambiguity`] ([`Tokens::ambiguity`](crate::Tokens::ambiguity), [`Tokens::ambiguous_count`](crate::Tokens::ambiguous_count)). None of these cases
//! arises in conforming documents.
//!
//! Every token pays a check of its record kind (tags: of their name's length and first two
//! bytes, against the few names that matter); the rest runs only for those names, inside
//! SVG/MathML and templates, and in the head of the document (until the body has started and
//! the frameset-ok flag is cleared).

use super::machine::{Machine, is_whitespace};
use crate::feedback::Feedback;
use crate::refs::charref::{CharRef, Replacement, character_reference};
use crate::scan::leading_space_or_nul;
use crate::span::Kind as RecordKind;
use crate::span::{Span, TextKind};
use crate::token::{EndTag, Source, StartTag, Text, Token};
use crate::word::{FOLD, K0, LOW_BYTES, fold_multiply, prefix_word, random_keys, word};

/// Why the simulator could not be sure of the tree builder's feedback for a token (see
/// [`Tokens::ambiguity`](crate::Tokens::ambiguity)). Its guess may be wrong from that token on: text states, CDATA
/// permission and foreign content may differ from what a full tree builder would do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Ambiguity {
    /// An end tag inside SVG or MathML content that names none of the open foreign elements: the
    /// tree builder hands it to the HTML elements below the foreign content, and whether it closes
    /// the foreign content depends on which of those are open (`<div><svg></div>` closes the
    /// `svg`; `<svg></div>` alone does not). The simulator guesses that an HTML element name
    /// closes the foreign content and any other name is ignored.
    ForeignEndTag,
    /// A table tag (`table`, `caption`, `colgroup`, `col`, `tbody`, `thead`, `tfoot`, `tr`, `td`,
    /// `th`) processed as HTML inside an integration point while a table may be open: the table
    /// insertion modes may close the cell, row or table around the foreign content, or ignore
    /// the tag.
    TableInForeignContent,
    /// Misnested HTML inside an integration point: formatting elements closed out of order (the
    /// tree builder may reopen them), the adoption agency algorithm, `<form>` (the form element
    /// pointer), or a `<table>` that closes a `<p>` only outside quirks mode.
    MisnestedHtmlInForeignContent,
    /// More than 512 elements open in what the simulator follows (SVG and MathML
    /// content, HTML inside integration points, templates): the start tag's element is not
    /// pushed, so that the simulator's state stays small whatever the input. End tags and text
    /// states inside such deep nesting are the simulator's guess.
    DeepNesting,
}

/// How many elements the simulator keeps open (see [`Ambiguity::DeepNesting`]): a bound on its
/// memory. No step walks the stack (an end tag in foreign content looking for an open element
/// of its name, a start tag in an integration point for a `p` in scope): each frame keeps what
/// such a walk would find ([`Nearest`], [`Frame::below_named`]), in [`Height`]s that fit 16
/// bits thanks to this bound. Only popping visits frames, each once.
pub(crate) const MAX_DEPTH: usize = 512;

// ---- what the simulator knows about a tag name -----------------------------------------------

/// Name properties (bit flags), from the HTML Standard's lists.
type Flags = u32;
const RCDATA: Flags = 1 << 0;
const RAWTEXT: Flags = 1 << 1;
const SCRIPT: Flags = 1 << 2;
const PLAINTEXT: Flags = 1 << 3;
/// `noscript`: RAWTEXT when scripting is on.
const NOSCRIPT: Flags = 1 << 4;
/// Start tags the "in head" (and "after head") insertion modes keep in the head.
const HEAD: Flags = 1 << 5;
/// Start tags that set the frameset-ok flag to "not ok" (`input` unless `type=hidden` aside).
const FS_KILL: Flags = 1 << 6;
/// Start tags that break out of foreign content.
const BREAKOUT: Flags = 1 << 7;
/// Void elements: never on the stack of open elements.
const VOID: Flags = 1 << 8;
/// The "special" category.
const SPECIAL: Flags = 1 << 9;
/// Elements that bound "has an element in scope".
const BOUNDARY: Flags = 1 << 10;
/// Formatting elements (the list of active formatting elements).
const FORMATTING: Flags = 1 << 11;
/// Start tags that close a `p` element in button scope first.
const CLOSES_P: Flags = 1 << 12;
/// `h1`–`h6`.
const HEADING: Flags = 1 << 13;
/// Tags whose handling depends on the table insertion modes.
const TABLE: Flags = 1 << 14;
/// End tags that close their element only when it is in scope.
const SCOPED_END: Flags = 1 << 15;
/// Start tags the "in template" insertion mode hands to the "in head" rules.
const TEMPLATE_HEAD: Flags = 1 << 16;
/// Elements popped by "generate implied end tags".
const IMPLIED_END: Flags = 1 << 17;
/// An HTML element name (for [`Ambiguity::ForeignEndTag`]'s guess).
const HTML: Flags = 1 << 18;
/// Start tags that foreign content looks at more closely: `font` (which breaks out with some
/// attributes), the integration points and `annotation-xml`.
const FOREIGN_CHECK: Flags = 1 << 19;

/// Start tags that the "in body" rules, as the simulator follows them inside an integration
/// point, do more with than insert an element ([`has_own_rules`]; set by [`known`]).
const OWN_RULES: Flags = 1 << 20;

/// Whether an end tag of `name` with flags `flags` has rules of its own in the insertion modes
/// before the steps for end tags inside an integration point ([`Simulator::html_end_tag`]):
/// `template`, `br`, `body`, `html`, and the table elements.
fn has_own_end_rules(name: Name, flags: Flags) -> bool {
    flags & TABLE != 0 || matches!(name, Name::Template | Name::Br | Name::Body | Name::Html)
}

/// Whether a start tag of `name` with flags `flags` has rules of its own in HTML content inside
/// an integration point ([`Simulator::html_start_tag`], [`Simulator::region_start_tag`]): the
/// tables, headings, void elements, text states and the head's elements (`html` and `head`
/// among them), and the names those steps look for.
const fn has_own_rules(name: Name, flags: Flags) -> bool {
    use Name as N;
    flags & (TABLE | HEADING | VOID | HEAD | RCDATA | RAWTEXT | SCRIPT | PLAINTEXT | NOSCRIPT) != 0
        || matches!(
            name,
            N::A | N::Body
                | N::Button
                | N::Dd
                | N::Dt
                | N::Form
                | N::Frameset
                | N::Input
                | N::Li
                | N::Math
                | N::Nobr
                | N::Optgroup
                | N::Option
                | N::Rb
                | N::Rp
                | N::Rt
                | N::Rtc
                | N::Select
                | N::Svg
                | N::Template
        )
}

/// The names the simulator needs by identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Name {
    Other,
    A,
    Address,
    AnnotationXml,
    Body,
    Br,
    Button,
    Col,
    Dd,
    Div,
    Dt,
    Font,
    Form,
    Frameset,
    Head,
    Html,
    Input,
    Li,
    Malignmark,
    Math,
    Mglyph,
    Nobr,
    Noframes,
    Ol,
    Optgroup,
    Option,
    P,
    Rb,
    Rp,
    Rt,
    Rtc,
    Select,
    Svg,
    Table,
    Template,
    Ul,
    // Foreign names of interest (integration points).
    Desc,
    ForeignObject,
    Title,
    Mi,
    Mo,
    Mn,
    Ms,
    Mtext,
}

impl Name {
    /// How many there are.
    const COUNT: usize = Name::Mtext as usize + 1;
}

/// The names the simulator knows, by identity and properties. A [`Name`] other than
/// [`Name::Other`] has exactly one spelling.
const GROUPS: &[(&[&[u8]], Name, Flags)] = {
    use Name as N;
    const BLOCK: Flags = SPECIAL | CLOSES_P | SCOPED_END | HTML;
    const FMT: Flags = FORMATTING | HTML;
    const FMT_BREAKOUT: Flags = FORMATTING | HTML | BREAKOUT;
    const VOID_SPECIAL: Flags = VOID | SPECIAL | HTML;
    const HEADING_FLAGS: Flags = SPECIAL | CLOSES_P | SCOPED_END | HEADING | BREAKOUT | HTML;
    const TABLE_PART: Flags = SPECIAL | TABLE | HTML;
    &[
        (&[b"a"], N::A, FMT),
        (
            &[
                b"abbr",
                b"audio",
                b"bdi",
                b"bdo",
                b"canvas",
                b"cite",
                b"data",
                b"datalist",
                b"del",
                b"dfn",
                b"ins",
                b"kbd",
                b"label",
                b"legend",
                b"map",
                b"mark",
                b"meter",
                b"output",
                b"picture",
                b"progress",
                b"q",
                b"samp",
                b"slot",
                b"time",
                b"video",
            ],
            N::Other,
            HTML,
        ),
        (&[b"address"], N::Address, BLOCK),
        (&[b"annotation-xml"], N::AnnotationXml, FOREIGN_CHECK),
        (
            &[b"applet", b"marquee", b"object"],
            N::Other,
            SPECIAL | BOUNDARY | FS_KILL | SCOPED_END | HTML,
        ),
        (
            &[b"area", b"keygen", b"wbr"],
            N::Other,
            VOID_SPECIAL | FS_KILL,
        ),
        (
            &[b"embed", b"img"],
            N::Other,
            VOID_SPECIAL | FS_KILL | BREAKOUT,
        ),
        (
            &[
                b"article",
                b"aside",
                b"details",
                b"dialog",
                b"dir",
                b"fieldset",
                b"figcaption",
                b"figure",
                b"footer",
                b"header",
                b"hgroup",
                b"main",
                b"nav",
                b"search",
                b"section",
                b"summary",
            ],
            N::Other,
            BLOCK,
        ),
        (
            &[
                b"b", b"big", b"code", b"em", b"i", b"s", b"small", b"strike", b"strong", b"tt",
                b"u",
            ],
            N::Other,
            FMT_BREAKOUT,
        ),
        (
            &[b"base", b"basefont", b"bgsound", b"link"],
            N::Other,
            VOID_SPECIAL | HEAD | TEMPLATE_HEAD,
        ),
        (
            &[b"blockquote", b"center", b"dl", b"menu"],
            N::Other,
            BLOCK | BREAKOUT,
        ),
        (
            &[b"body"],
            N::Body,
            SPECIAL | FS_KILL | BREAKOUT | SCOPED_END | HTML,
        ),
        (&[b"br"], N::Br, VOID_SPECIAL | FS_KILL | BREAKOUT),
        (
            &[b"button"],
            N::Button,
            SPECIAL | FS_KILL | SCOPED_END | HTML,
        ),
        (&[b"caption"], N::Other, TABLE_PART | BOUNDARY),
        (
            &[b"colgroup", b"tbody", b"tfoot", b"thead", b"tr"],
            N::Other,
            TABLE_PART,
        ),
        (&[b"col"], N::Col, TABLE_PART | VOID),
        (&[b"td", b"th"], N::Other, TABLE_PART | BOUNDARY),
        (&[b"dd"], N::Dd, BLOCK | FS_KILL | BREAKOUT | IMPLIED_END),
        (&[b"dt"], N::Dt, BLOCK | FS_KILL | BREAKOUT | IMPLIED_END),
        (&[b"desc"], N::Desc, FOREIGN_CHECK),
        (&[b"div"], N::Div, BLOCK | BREAKOUT),
        (&[b"font"], N::Font, FMT | FOREIGN_CHECK),
        (&[b"foreignobject"], N::ForeignObject, FOREIGN_CHECK),
        (&[b"form"], N::Form, BLOCK),
        (&[b"frame"], N::Other, VOID_SPECIAL),
        (&[b"frameset"], N::Frameset, SPECIAL | HTML),
        (
            &[b"h1", b"h2", b"h3", b"h4", b"h5", b"h6"],
            N::Other,
            HEADING_FLAGS,
        ),
        (&[b"head"], N::Head, SPECIAL | HEAD | BREAKOUT | HTML),
        (
            &[b"hr"],
            N::Other,
            VOID_SPECIAL | FS_KILL | BREAKOUT | CLOSES_P,
        ),
        (
            &[b"html"],
            N::Html,
            SPECIAL | BOUNDARY | HEAD | SCOPED_END | HTML,
        ),
        (&[b"iframe"], N::Other, SPECIAL | RAWTEXT | FS_KILL | HTML),
        (&[b"image"], N::Other, VOID | FS_KILL | HTML),
        (&[b"input"], N::Input, VOID_SPECIAL),
        (&[b"li"], N::Li, BLOCK | FS_KILL | BREAKOUT | IMPLIED_END),
        (&[b"listing", b"pre"], N::Other, BLOCK | FS_KILL | BREAKOUT),
        (&[b"malignmark"], N::Malignmark, 0),
        (&[b"math"], N::Math, 0),
        (
            &[b"meta"],
            N::Other,
            VOID_SPECIAL | HEAD | TEMPLATE_HEAD | BREAKOUT,
        ),
        (&[b"mglyph"], N::Mglyph, 0),
        (&[b"mi"], N::Mi, FOREIGN_CHECK),
        (&[b"mn"], N::Mn, FOREIGN_CHECK),
        (&[b"mo"], N::Mo, FOREIGN_CHECK),
        (&[b"ms"], N::Ms, FOREIGN_CHECK),
        (&[b"mtext"], N::Mtext, FOREIGN_CHECK),
        (&[b"nobr"], N::Nobr, FMT_BREAKOUT),
        (&[b"noembed"], N::Other, SPECIAL | RAWTEXT | HTML),
        (
            &[b"noframes"],
            N::Noframes,
            SPECIAL | RAWTEXT | HEAD | TEMPLATE_HEAD | HTML,
        ),
        (&[b"noscript"], N::Other, SPECIAL | NOSCRIPT | HEAD | HTML),
        (&[b"ol"], N::Ol, BLOCK | BREAKOUT),
        (&[b"optgroup"], N::Optgroup, HTML | IMPLIED_END),
        (&[b"option"], N::Option, HTML | IMPLIED_END),
        (&[b"p"], N::P, BLOCK | BREAKOUT | IMPLIED_END),
        (&[b"param", b"source", b"track"], N::Other, VOID_SPECIAL),
        (
            &[b"plaintext"],
            N::Other,
            SPECIAL | PLAINTEXT | CLOSES_P | HTML,
        ),
        (&[b"rb"], N::Rb, HTML | IMPLIED_END),
        (&[b"rp"], N::Rp, HTML | IMPLIED_END),
        (&[b"rt"], N::Rt, HTML | IMPLIED_END),
        (&[b"rtc"], N::Rtc, HTML | IMPLIED_END),
        (
            &[b"ruby", b"span", b"sub", b"sup", b"var"],
            N::Other,
            HTML | BREAKOUT,
        ),
        (
            &[b"script"],
            N::Other,
            SPECIAL | SCRIPT | HEAD | TEMPLATE_HEAD | HTML,
        ),
        // Customizable select: parsed "in body"; a scope boundary, closed by scope like a block.
        (
            &[b"select"],
            N::Select,
            SPECIAL | FS_KILL | BOUNDARY | SCOPED_END | HTML,
        ),
        (
            &[b"style"],
            N::Other,
            SPECIAL | RAWTEXT | HEAD | TEMPLATE_HEAD | HTML,
        ),
        (&[b"svg"], N::Svg, 0),
        (
            &[b"table"],
            N::Table,
            SPECIAL | BOUNDARY | FS_KILL | TABLE | BREAKOUT | HTML,
        ),
        (
            &[b"template"],
            N::Template,
            SPECIAL | BOUNDARY | HEAD | TEMPLATE_HEAD | HTML,
        ),
        (&[b"textarea"], N::Other, SPECIAL | RCDATA | FS_KILL | HTML),
        (
            &[b"title"],
            N::Title,
            SPECIAL | RCDATA | HEAD | TEMPLATE_HEAD | HTML | FOREIGN_CHECK,
        ),
        (&[b"ul"], N::Ul, BLOCK | BREAKOUT),
        (
            &[b"xmp"],
            N::Other,
            SPECIAL | RAWTEXT | FS_KILL | CLOSES_P | HTML,
        ),
    ]
};

/// One known name: its lowercase spelling (also as [`Words`], with the letters marked),
/// identity and properties.
#[derive(Clone, Copy)]
struct Known {
    spelling: &'static [u8],
    words: Words,
    /// `0x20` in each byte of `words` that is a letter: where a name may differ in case.
    letters: Words,
    name: Name,
    flags: Flags,
}

impl Known {
    /// Whether a name of length `len` whose bytes are `words` spells this one, in any case.
    #[inline(always)]
    fn spelled_by(&self, len: usize, words: Words) -> bool {
        len == self.spelling.len()
            && words[0] | self.letters[0] == self.words[0]
            && words[1] | self.letters[1] == self.words[1]
    }

    /// [`Known::spelled_by`] for a name of at most 8 bytes, whose first word is `lo` (the
    /// second is zero, as is that of any known name of its length).
    #[inline(always)]
    fn spelled_by_short(&self, len: usize, lo: u64) -> bool {
        len == self.spelling.len() && lo | self.letters[0] == self.words[0]
    }
}

/// A name of up to 16 bytes as two little-endian words, zero beyond its end.
type Words = [u64; 2];

/// The [`Words`] of the `len`-byte name at the start of `onwards` (the name and what follows it
/// in its window), or `None` when it is longer than any known name can be. Each word is one
/// load and a mask, except near the end of the window.
#[inline(always)]
fn words(onwards: &[u8], len: usize) -> Option<Words> {
    if len > 16 {
        return None;
    }
    let lo = prefix_word(onwards, len.min(8));
    let hi = if len > 8 {
        prefix_word(&onwards[8..], len - 8)
    } else {
        0
    };
    Some([lo, hi])
}

/// [`GROUPS`], one name per entry.
const KNOWN: [Known; known_count()] = known();

const fn known_count() -> usize {
    let (mut n, mut g) = (0, 0);
    while g < GROUPS.len() {
        n += GROUPS[g].0.len();
        g += 1;
    }
    n
}

const fn known() -> [Known; known_count()] {
    let mut out = [Known {
        spelling: b"",
        words: [0; 2],
        letters: [0; 2],
        name: Name::Other,
        flags: 0,
    }; known_count()];
    let (mut n, mut g) = (0, 0);
    while g < GROUPS.len() {
        let (spellings, name, flags) = GROUPS[g];
        let mut s = 0;
        while s < spellings.len() {
            let spelling = spellings[s];
            assert!(
                spelling.len() <= 16,
                "a known name longer than `Words` holds"
            );
            let (mut words, mut letters) = ([0; 2], [0; 2]);
            let mut i = 0;
            while i < spelling.len() {
                let b = spelling[i];
                assert!(!b.is_ascii_uppercase(), "known names are lowercase");
                words[i / 8] |= (b as u64) << (8 * (i % 8));
                if b.is_ascii_lowercase() {
                    letters[i / 8] |= 0x20 << (8 * (i % 8));
                }
                i += 1;
            }
            let own_rules = if has_own_rules(name, flags) {
                OWN_RULES
            } else {
                0
            };
            out[n] = Known {
                spelling,
                words,
                letters,
                name,
                flags: flags | own_rules,
            };
            n += 1;
            s += 1;
        }
        g += 1;
    }
    out
}

/// The bucket of a name of length `len` whose first eight bytes are `lo`, any case: one of
/// 1,024. The factor was found by search so that no two [`KNOWN`] names share a bucket;
/// [`buckets`] checks it.
const fn bucket(len: usize, lo: u64) -> usize {
    let key = (lo | 0x2020_2020_2020_2020) ^ len as u64;
    (key.wrapping_mul(0xd9ae_2f9b_59a0_dda3) >> 54) as usize
}

/// Where each bucket's name is in [`KNOWN`] (`u8::MAX`: none).
const BUCKETS: [u8; 1024] = buckets();

const fn buckets() -> [u8; 1024] {
    assert!(KNOWN.len() < u8::MAX as usize);
    let mut out = [u8::MAX; 1024];
    let mut i = 0;
    while i < KNOWN.len() {
        let known = KNOWN[i];
        let b = &mut out[bucket(known.spelling.len(), known.words[0])];
        assert!(
            *b == u8::MAX,
            "two known names in one bucket: find another factor for `bucket`"
        );
        *b = i as u8;
        i += 1;
    }
    out
}

/// The identity and properties of the `len`-byte tag name (any case) at the start of `onwards`
/// (the name and what follows it in its window): one bucket, one comparison of two words. A
/// name of up to 8 bytes with 8 bytes of window from its start, nearly every one, costs one
/// load and a mask, and one comparison of a word.
#[inline(always)]
fn classify(onwards: &[u8], len: usize) -> (Name, Flags) {
    match onwards.first_chunk::<8>() {
        Some(&eight) if (1..=8).contains(&len) => Short::new(eight, len).class(),
        _ => classify_words(onwards, len),
    }
}

/// [`classify`] for the tag name at `name` in `src`.
#[inline(always)]
fn classify_tag(src: &Source<'_>, name: Span) -> (Name, Flags) {
    match Short::of_tag(src, name) {
        Some(short) => short.class(),
        None => classify_words(name_onwards(src, name), name.len()),
    }
}

/// A name of up to 8 bytes (any case) as [`classify`] reads it: its length, and its bytes as a
/// little-endian word, zero beyond its end.
#[derive(Clone, Copy)]
struct Short {
    len: usize,
    lo: u64,
}

impl Short {
    /// The `len` first of `eight` bytes (`len` in 1..=8).
    #[inline(always)]
    fn new(eight: [u8; 8], len: usize) -> Short {
        let lo = u64::from_le_bytes(eight) & LOW_BYTES[len];
        Short { len, lo }
    }

    /// The tag name at `name` in `src` if it has at most 8 bytes, and 8 bytes of window from its
    /// start (nearly every name): one load at an offset checked once, and a mask.
    #[inline(always)]
    fn of_tag(src: &Source<'_>, name: Span) -> Option<Short> {
        let len = name.len();
        let at = name.start.wrapping_sub(src.base);
        let eight = src.bytes.get(at..at.wrapping_add(8))?;
        if len.wrapping_sub(1) >= 8 {
            return None;
        }
        Some(Short::new(eight.try_into().expect("eight bytes"), len))
    }

    /// Its [`bucket`].
    #[inline(always)]
    fn bucket(self) -> usize {
        bucket(self.len, self.lo)
    }

    /// [`classify`]'s answer for it.
    #[inline(always)]
    fn class(self) -> (Name, Flags) {
        self.class_in(self.bucket())
    }

    /// [`Short::class`] with its bucket.
    #[inline(always)]
    fn class_in(self, bucket: usize) -> (Name, Flags) {
        match KNOWN.get(usize::from(BUCKETS[bucket])) {
            Some(known) if known.spelled_by_short(self.len, self.lo) => (known.name, known.flags),
            _ => (Name::Other, 0),
        }
    }
}

/// The buckets of the known names that foreign content looks at before it pushes them:
/// those that break out of it ([`BREAKOUT`]) and [`FOREIGN_CHECK`]'s, a byte each (one
/// compare, where a bit each took a shift and a mask more). A name whose bucket is not marked
/// is neither (it is in no known name's bucket, or in one of another name's), so that a start
/// tag which pushes nothing needs no more of its name.
static FOREIGN_LOOKS: [bool; 1024] = {
    let mut out = [false; 1024];
    let mut i = 0;
    while i < KNOWN.len() {
        let known = KNOWN[i];
        if known.flags & (BREAKOUT | FOREIGN_CHECK) != 0 {
            out[bucket(known.spelling.len(), known.words[0])] = true;
        }
        i += 1;
    }
    out
};

/// Whether a name in `bucket` may be one that foreign content looks at ([`FOREIGN_LOOKS`]).
#[inline(always)]
fn foreign_looks_at(bucket: usize) -> bool {
    FOREIGN_LOOKS[bucket]
}

/// A start tag's name as a fast path leaves it to the rest of its path: classified, or not
/// yet read ([`Short::of_tag`] does not take it).
#[derive(Clone, Copy)]
enum Class {
    Read(Name, Flags),
    Unread,
}

/// What the fast part of a [`TagPath`] leaves of a start tag.
#[derive(Clone, Copy)]
enum Left {
    /// Nothing: the tag changes nothing but the last token's ambiguity flag.
    Nothing,
    /// Its element, of this name, to push (as [`Simulator::push_frame`] takes it), below
    /// [`MAX_DEPTH`], and nothing else.
    Push(Kind, Name, Flags),
    /// The rest of the path.
    Rest(Class),
}

/// [`classify`] for a name longer than 8 bytes or near the end of its window.
#[inline(always)]
fn classify_words(onwards: &[u8], len: usize) -> (Name, Flags) {
    let Some(words) = words(onwards, len) else {
        return (Name::Other, 0);
    };
    match KNOWN.get(usize::from(BUCKETS[bucket(len, words[0])])) {
        Some(known) if known.spelled_by(len, words) => (known.name, known.flags),
        _ => (Name::Other, 0),
    }
}

/// A tag name (at `name` in `src`) and what follows it in its window, for [`classify`].
fn name_onwards<'a>(src: &Source<'a>, name: Span) -> &'a [u8] {
    &src.bytes[name.start - src.base..]
}

/// The lowercase spelling of each [`Name`] but [`Name::Other`] (whose is empty), by `name as
/// usize`.
const SPELLINGS: [&[u8]; Name::COUNT] = spellings();

const fn spellings() -> [&'static [u8]; Name::COUNT] {
    let mut out: [&[u8]; Name::COUNT] = [b""; Name::COUNT];
    let mut i = 0;
    while i < KNOWN.len() {
        let known = KNOWN[i];
        if !matches!(known.name, Name::Other) {
            out[known.name as usize] = known.spelling;
        }
        i += 1;
    }
    out
}

/// Whether `raw` spells `lower` (which is lowercase) in any ASCII case.
fn eq(raw: &[u8], lower: &[u8]) -> bool {
    raw.len() == lower.len()
        && raw
            .iter()
            .zip(lower)
            .all(|(r, l)| r.to_ascii_lowercase() == *l)
}

/// What the common case needs to know about a start tag: data state, no foreign content, no
/// template, body started and frameset-ok cleared.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hot {
    None,
    Text(TextKind),
    Noscript,
    /// `svg`, `math`, `template`, `table`: the slow path.
    Slow,
}

/// Whether the name at `name` (in `bytes`, which start at stream offset `base`) has the length
/// and first two letters of one of [`hot`]'s names.
#[inline(always)]
fn hot_candidate(name: Span, bytes: &[u8], base: usize) -> bool {
    let len = name.len();
    if !(3..=9).contains(&len) {
        return false;
    }
    let at = name.start.wrapping_sub(base);
    let Some(&[a, b]) = bytes.get(at..at.wrapping_add(2)) else {
        return false;
    };
    matches!(
        (len, a | 0x20, b | 0x20),
        (3, b'x', b'm')
            | (3, b's', b'v')
            | (4, b'm', b'a')
            | (5, b's', b't')
            | (5, b't', b'i' | b'a')
            | (6, b's', b'c')
            | (6, b'i', b'f')
            | (7, b'n', b'o')
            | (8, b't', b'e')
            | (8, b'n', b'o')
            | (9, b'p', b'l')
    )
}

/// Whether an end tag's name at `name` could be `table`.
#[inline(always)]
fn table_candidate(name: Span, bytes: &[u8], base: usize) -> bool {
    let at = name.start.wrapping_sub(base);
    name.len() == 5
        && matches!(bytes.get(at..at.wrapping_add(2)), Some(&[a, b]) if a | 0x20 == b't' && b | 0x20 == b'a')
}

/// Whether an end tag in the head of a document (nothing open) changes nothing: any but
/// `</body>`, `</html>`, `</br>` and `</table>`, told apart by length.
#[inline(always)]
fn quick_end_tag(tag: &EndTag<'_>) -> bool {
    quick_end_tag_len(tag.name_span().len())
}

/// [`quick_end_tag`] for an end tag whose name is `len` bytes long.
#[inline(always)]
fn quick_end_tag_len(len: usize) -> bool {
    !matches!(len, 2 | 4 | 5)
}

/// Whether data text decodes to whitespace and NUL only (`Some`, with whether there is a NUL), or
/// has another character (`None`). Reads up to the first such character, decoding only the
/// character references before it: a long text costs no more than its leading whitespace.
fn whitespace_or_nul(raw: &[u8]) -> Option<bool> {
    let (mut i, mut nul) = leading_space_or_nul(raw);
    while let Some(&b) = raw.get(i) {
        match b {
            b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' => i += 1,
            0 => {
                nul = true;
                i += 1;
            }
            b'&' => i += whitespace_reference(&raw[i..])?,
            _ => return None,
        }
    }
    Some(nul)
}

/// Whether `raw` is ASCII whitespace only (no NUL, no character reference).
fn whitespace_only(raw: &[u8]) -> bool {
    let (i, nul) = leading_space_or_nul(raw);
    !nul && raw[i..].iter().all(|&b| is_whitespace(b))
}

/// The length of the character reference at the start of `s` if it decodes to whitespace only.
fn whitespace_reference(s: &[u8]) -> Option<usize> {
    let CharRef::Done(outcome) = character_reference(s, false, true) else {
        return None;
    };
    let is_space = |c: char| matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ');
    let all_space = match outcome.value? {
        Replacement::Named(text) => text.chars().all(is_space),
        Replacement::Char(c) => is_space(c),
    };
    all_space.then_some(outcome.len)
}

/// [`Hot`] from a raw tag name: one match on the length, then at most a few byte comparisons.
#[inline(always)]
fn hot(raw: &[u8]) -> Hot {
    let first = match raw.first() {
        Some(&b) => b | 0x20,
        None => return Hot::None,
    };
    let is = |lower: &[u8]| eq(raw, lower);
    match (raw.len(), first) {
        (3, b'x') if is(b"xmp") => Hot::Text(TextKind::Rawtext),
        (3, b's') if is(b"svg") => Hot::Slow,
        (4, b'm') if is(b"math") => Hot::Slow,
        (5, b's') if is(b"style") => Hot::Text(TextKind::Rawtext),
        (5, b't') if is(b"title") => Hot::Text(TextKind::Rcdata),
        (5, b't') if is(b"table") => Hot::Slow,
        (6, b's') if is(b"script") => Hot::Text(TextKind::ScriptData),
        (6, b'i') if is(b"iframe") => Hot::Text(TextKind::Rawtext),
        (7, b'n') if is(b"noembed") => Hot::Text(TextKind::Rawtext),
        (8, b't') if is(b"textarea") => Hot::Text(TextKind::Rcdata),
        (8, b't') if is(b"template") => Hot::Slow,
        (8, b'n') if is(b"noframes") => Hot::Text(TextKind::Rawtext),
        (8, b'n') if is(b"noscript") => Hot::Noscript,
        (9, b'p') if is(b"plaintext") => Hot::Text(TextKind::Plaintext),
        _ => Hot::None,
    }
}

/// The text state the tree builder switches the tokenizer to after an HTML start tag named
/// `name` (ASCII case-insensitively), or `None` when its content is markup: what the serializer
/// tracks from the tags it writes, from the simulator's own table.
pub(crate) fn text_state_after(name: &[u8], scripting: bool) -> Option<TextKind> {
    match hot(name) {
        Hot::Text(kind) => Some(kind),
        Hot::Noscript if scripting => Some(TextKind::Rawtext),
        Hot::None | Hot::Noscript | Hot::Slow => None,
    }
}

/// The text state a start tag processed as HTML switches to.
fn text_state(flags: Flags, scripting: bool) -> Option<TextKind> {
    if flags & (RCDATA | RAWTEXT | SCRIPT | PLAINTEXT | NOSCRIPT) == 0 {
        return None;
    }
    Some(if flags & RCDATA != 0 {
        TextKind::Rcdata
    } else if flags & RAWTEXT != 0 {
        TextKind::Rawtext
    } else if flags & SCRIPT != 0 {
        TextKind::ScriptData
    } else if flags & PLAINTEXT != 0 {
        TextKind::Plaintext
    } else if scripting {
        TextKind::Rawtext
    } else {
        return None;
    })
}

// ---- the state --------------------------------------------------------------------------------

/// Where the document is, as far as the frameset decision goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before the body element exists (the initial, "before html", "before head", "in head",
    /// "in head noscript" and "after head" insertion modes): `<frameset>` is always taken.
    Head,
    /// In the body with the frameset-ok flag still "ok": `<frameset>` replaces the body.
    BodyFramesetOk,
    /// In the body, frameset-ok "not ok": the steady state of nearly every document.
    Body,
    /// "In frameset", "after frameset", "after after frameset": every start tag but `frameset`,
    /// `frame` and `noframes` is ignored.
    Frameset,
}

/// A template's insertion mode, as far as it matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TemplateMode {
    /// "In template": the first start tag decides.
    Open,
    /// "In column group" with the template as current node: everything but `col` is ignored.
    ColumnGroup,
    /// Any other mode.
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An HTML element inside an integration point.
    Html,
    /// An HTML `template` element.
    Template(TemplateMode),
    Svg,
    MathMl,
}

/// Frame flags for foreign elements.
const F_HTML_IP: Flags = 1 << 24;
const F_TEXT_IP: Flags = 1 << 25;
/// On a template outside foreign content: an HTML element was opened in it, and may still be.
const F_HTML_OPEN: Flags = 1 << 26;

/// A frame's place on the stack as its height (index + 1), so that 0 can say "none": every
/// height fits, the stack being at most [`MAX_DEPTH`] frames.
type Height = u16;

/// One open element the simulator tracks: 28 bytes.
#[derive(Clone, Copy, Debug)]
struct Frame {
    kind: Kind,
    name: Name,
    /// [`classify`]'s flags for HTML elements; `SPECIAL | BOUNDARY` and `F_*` for foreign ones.
    flags: Flags,
    /// Where its lowercase name starts in `names` if it is a [`Name::Other`] (it ends where the
    /// next frame's starts); the others' are [`SPELLINGS`].
    start: u32,
    /// The next frame down with the same name (see [`Simulator::top_named`]; for a
    /// [`Name::Other`], once entered into [`OtherNames`]).
    below_named: Height,
    /// For a [`Name::Other`] entered into [`OtherNames`]: its name's slot there.
    slot: u16,
    /// What the walks down the stack from this frame would stop at.
    nearest: Nearest,
}

impl Frame {
    fn is_foreign(&self) -> bool {
        matches!(self.kind, Kind::Svg | Kind::MathMl)
    }

    /// Whether this is an SVG or MathML element that is neither an integration point nor
    /// `annotation-xml`: as current node, every start tag is foreign content's, and one that
    /// does not break out is pushed in its namespace.
    fn is_plain_foreign(&self) -> bool {
        self.is_foreign()
            && self.flags & (F_HTML_IP | F_TEXT_IP) == 0
            && self.name != Name::AnnotationXml
    }
}

/// The nearest frames at or below a frame (as [`Height`]s, 0: none) of the kinds that end the
/// simulator's walks down the stack of open elements: what "has an element in scope", the end
/// tag steps and the `li`/`dd`/`dt` loop would stop at, found without walking. Each is the
/// frame's own height when it is of that kind, else the frame below's, set once when the frame
/// is pushed: no entry depends on what changes later (a template's mode, [`F_HTML_OPEN`]).
#[derive(Clone, Copy, Debug, Default)]
struct Nearest {
    /// An HTML element or a template: the foreign elements above it are the ones open on top.
    non_foreign: Height,
    /// A template or a foreign element: the HTML elements above it are the ones open in the
    /// integration point on top.
    non_html: Height,
    /// A foreign element: the HTML elements above the topmost one are inside it.
    foreign: Height,
    /// A special element: an HTML one, an integration point (or `annotation-xml`), a template.
    special: Height,
    /// A scope boundary ("has an element in scope"): an HTML one, an integration point (or
    /// `annotation-xml`), a template.
    boundary: Height,
    /// An HTML `h1`–`h6` element.
    heading: Height,
    /// Where the `li`, `dd` and `dt` start tags stop looking for the element to close: a
    /// template, a foreign element, or a special HTML element but `address`, `div` and `p`.
    list_stop: Height,
}

impl Nearest {
    /// The entries of a frame pushed at `height` on a frame whose entries are `self`.
    fn above(self, height: Height, kind: Kind, name: Name, flags: Flags) -> Nearest {
        let html = kind == Kind::Html;
        let foreign = matches!(kind, Kind::Svg | Kind::MathMl);
        let at = |here: bool, below: Height| if here { height } else { below };
        let list_stop =
            !html || flags & SPECIAL != 0 && !matches!(name, Name::Address | Name::Div | Name::P);
        Nearest {
            non_foreign: at(!foreign, self.non_foreign),
            non_html: at(!html, self.non_html),
            foreign: at(foreign, self.foreign),
            special: at(flags & SPECIAL != 0, self.special),
            boundary: at(flags & BOUNDARY != 0, self.boundary),
            heading: at(html && flags & HEADING != 0, self.heading),
            list_stop: at(list_stop, self.list_stop),
        }
    }
}

/// The [`Name::Other`] names of the open frames, each with its topmost frame: a hash table of
/// [`Height`]s (0: empty), keyed by the name of the frame it holds, so that an end tag finds
/// the open element of its name, or that there is none, without a walk.
///
/// A name's slot is taken when its first frame is entered and freed when that frame is popped:
/// frames are entered bottom up and popped last in, first out, so names come and go that way
/// too, and a freed slot is always the last taken. No probe sequence ever crosses a slot freed
/// after it was made, so freeing is clearing, and a slot never moves (frames keep theirs).
///
/// Frames are entered when an end tag first needs the table ([`Simulator::enter_other_names`]),
/// not when they are pushed: most end tags close the current node, whose name is compared
/// directly, and most frames are popped before any other end tag comes. Each frame is entered
/// at most once.
#[derive(Debug, Default)]
struct OtherNames {
    /// [`OTHER_SLOTS`] heights once a name has come, empty before.
    slots: Vec<Height>,
    /// For each slot that holds a name, 16 more bits of its hash ([`other_name_slot`]): a probe
    /// compares the name only when they agree, so that passing other names costs a compare of
    /// two bytes each.
    prints: Vec<u16>,
    /// The frames up to this height are in the table (those named [`Name::Other`]).
    entered: Height,
    /// The keys of [`other_name_slot`], random for each simulator, so that a page cannot pick
    /// names that all fall in one place of the table.
    seeds: [u64; 2],
}

/// How many frames [`Simulator::topmost_named`] compares one by one before it looks a name up
/// in [`OtherNames`].
const SHORT_WALK: usize = 8;

/// The size of [`OtherNames`]: at least four times [`MAX_DEPTH`], which bounds the names it
/// holds, so that probe sequences stay short.
const OTHER_SLOTS: usize = (4 * MAX_DEPTH).next_power_of_two();
const _: () = assert!(OTHER_SLOTS.is_power_of_two() && MAX_DEPTH < Height::MAX as usize);

/// How many name lengths [`Simulator::other_lengths`] tells apart: the longer names share the
/// last count.
const OTHER_LENGTHS: usize = 32;

/// Where a name of `len` bytes is counted in [`Simulator::other_lengths`].
fn other_length(len: usize) -> usize {
    len.min(OTHER_LENGTHS - 1)
}

/// The slot where the search for `raw` (any case) in [`OtherNames`] starts, for the random
/// `seeds`, and its fingerprint ([`OtherNames::prints`]): a folded-multiply hash of its bytes
/// with ASCII case folded (a name of up to 16 bytes in one multiplication, as two words; a
/// longer one 8 bytes at a time), the slot from its top bits, the fingerprint from its bottom.
fn other_name_slot(raw: &[u8], seeds: [u64; 2]) -> (usize, u16) {
    let len = raw.len() as u64;
    let h = match words(raw, raw.len()) {
        Some([lo, hi]) => fold_multiply((lo | FOLD) ^ seeds[0], (hi | FOLD) ^ seeds[1] ^ len),
        None => raw.chunks(8).fold(seeds[0] ^ len, |h, chunk| {
            fold_multiply(h ^ (word(chunk) | FOLD), seeds[1])
        }),
    };
    let mixed = fold_multiply(h, K0);
    let slot = (mixed >> (64 - OTHER_SLOTS.trailing_zeros())) as usize;
    (slot, mixed as u16)
}

/// What to tell the tokenizer after a token: bit 7 set = change the CDATA permission to bit 6;
/// bits 0–2 = the text state to switch to plus one (0 = none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Switch(u8);

impl Switch {
    const NONE: Switch = Switch(0);
    const CDATA_CHANGE: u8 = 0x80;
    const CDATA_ON: u8 = 0x40;

    fn text_state_to(kind: TextKind) -> Switch {
        Switch(match kind {
            TextKind::Data => 1,
            TextKind::Rcdata => 2,
            TextKind::Rawtext => 3,
            TextKind::ScriptData => 4,
            TextKind::Plaintext => 5,
            TextKind::Cdata => 6,
        })
    }

    #[inline(always)]
    pub(crate) fn is_none(self) -> bool {
        self.0 == 0
    }

    fn text_state(self) -> Option<TextKind> {
        Some(match self.0 & 7 {
            1 => TextKind::Data,
            2 => TextKind::Rcdata,
            3 => TextKind::Rawtext,
            4 => TextKind::ScriptData,
            5 => TextKind::Plaintext,
            6 => TextKind::Cdata,
            _ => return None,
        })
    }

    fn cdata(self) -> Option<bool> {
        (self.0 & Self::CDATA_CHANGE != 0).then_some(self.0 & Self::CDATA_ON != 0)
    }
}

/// Which path [`Feedback::token`] takes (see [`Simulator::settle_mode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// [`Options::simulate`](crate::Options::simulate) is off.
    Off,
    /// The common state.
    Fast,
    /// Every token gets a look, tags on the [`TagPath`] (but the end tags that
    /// [`Simulator::lets_pass`]).
    Slow,
}

/// Which path a tag takes in [`Mode::Slow`] (see [`Simulator::settle_mode`]). The fast paths
/// clear the last token's ambiguity flag themselves, as [`Simulator::start_tag_general`] and
/// its siblings do, and leave the tags they do not handle to [`Simulator::start_tag`] and
/// [`Simulator::end_tag`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagPath {
    /// The current node is a plain foreign element ([`Frame::is_plain_foreign`]):
    /// [`Simulator::foreign_start_tag_fast`], [`Simulator::foreign_end_tag_fast`]. First, so
    /// that [`Feedback::start_tag`] tells it from the others with a test for zero.
    Foreign,
    /// [`Simulator::start_tag_general`], [`Simulator::end_tag_general`].
    General,
    /// The current node is an HTML element inside an integration point, in the body:
    /// [`Simulator::region_start_tag_fast`], [`Simulator::region_end_tag_fast`].
    Region,
}

/// The simulator's state; one per [`Tokenizer`](crate::Tokenizer), reset with it.
#[derive(Debug)]
pub(crate) struct Simulator {
    mode: Mode,
    /// In [`Mode::Slow`] with nothing open and the last token not ambiguous (only the phase
    /// keeps the simulator from the common state: the head, frameset-ok still "ok", or a
    /// frameset): the end tags [`quick_end_tag`] lets pass change nothing, so the simulator
    /// need not see them, and a page of stray end tags costs no call each.
    quiet: bool,
    /// In [`Mode::Slow`], where tags go.
    path: TagPath,
    /// With [`TagPath::Region`]: the flags of the start tags that
    /// [`Simulator::region_start_tag_fast`] leaves to the general path ([`OWN_RULES`], and
    /// [`FS_KILL`] with frameset-ok "ok", [`CLOSES_P`] with a `p` open).
    region_rules: Flags,
    scripting: bool,
    phase: Phase,
    frameset_ok: bool,
    /// The templates, foreign elements and HTML elements inside integration points that are open.
    stack: Vec<Frame>,
    /// The current node's [`Frame::nearest`] (all 0 when nothing is open): read by most steps,
    /// kept here so that they need not find the top frame.
    top: Nearest,
    /// The topmost frame of each [`Name`] but [`Name::Other`] (whose are in `others`); each
    /// frame links to the next one down with its name ([`Frame::below_named`]), so that a pop
    /// restores this. With [`Frame::nearest`], whether an element of a name is open where an
    /// end tag or a scope looks for it takes no walk.
    top_named: [Height; Name::COUNT],
    /// The topmost frame of each [`Name::Other`] name.
    others: OtherNames,
    /// How many frames named [`Name::Other`] are open, by the length of their name
    /// ([`other_length`]): an end tag whose name has a length no open element's has needs no
    /// look in `others`.
    other_lengths: [u16; OTHER_LENGTHS],
    /// The lowercase names of those that are [`Name::Other`].
    names: Vec<u8>,
    /// The lowest foreign frame (0: none): every frame below it is a template.
    first_foreign: Height,
    /// The `template` frames on `stack`, bottom to top: each one's bound on the open tables
    /// inside it outside foreign content (like `tables`).
    templates: Vec<u32>,
    /// `table` start tags minus `table` end tags outside foreign content and templates: an upper
    /// bound on the open tables there (zero means certainly none). Templates keep their own.
    tables: u32,
    /// Whether CDATA sections are allowed (the adjusted current node is foreign).
    cdata: bool,
    /// Why the last token was ambiguous.
    last: Option<Ambiguity>,
    count: u64,
}

impl Simulator {
    pub(crate) fn new(on: bool, scripting: bool) -> Simulator {
        Simulator {
            mode: if on { Mode::Slow } else { Mode::Off },
            quiet: on,
            path: TagPath::General,
            region_rules: OWN_RULES,
            scripting,
            phase: Phase::Head,
            frameset_ok: true,
            stack: Vec::new(),
            top: Nearest::default(),
            top_named: [0; Name::COUNT],
            others: OtherNames::default(),
            other_lengths: [0; OTHER_LENGTHS],
            names: Vec::new(),
            first_foreign: 0,
            templates: Vec::new(),
            tables: 0,
            cdata: false,
            last: None,
            count: 0,
        }
    }

    /// Take the last token's ambiguity flag (the next token clears it); whether there was none
    /// and nothing is open, so that the quick checks may answer for the token.
    #[inline(always)]
    fn take_quiet(&mut self) -> bool {
        self.last.take().is_none() && self.stack.is_empty()
    }

    /// A start tag outside the common state and off the fast [`TagPath`]s (or right after an
    /// ambiguous token).
    #[inline(never)]
    fn start_tag_general(&mut self, tag: &StartTag<'_>) -> Switch {
        if self.take_quiet()
            && let Some(feedback) = self.quick_start_tag(tag)
        {
            return feedback;
        }
        self.start_tag_slow(tag)
    }

    /// An end tag outside the common state and off the fast [`TagPath`]s.
    #[inline(never)]
    fn end_tag_general(&mut self, tag: &EndTag<'_>) -> Switch {
        if self.take_quiet() && quick_end_tag(tag) {
            return Switch::NONE;
        }
        self.end_tag_slow(tag)
    }

    /// Text outside the common state.
    #[inline(never)]
    fn text_general(&mut self, text: &Text<'_>) -> Switch {
        if self.take_quiet() && self.quick_text(text) {
            return Switch::NONE;
        }
        let feedback = self.text(text);
        self.settle_mode();
        feedback
    }

    /// A comment, DOCTYPE or processing instruction outside the common state: it changes
    /// nothing but the last token's ambiguity flag.
    #[inline(never)]
    fn other_general(&mut self) {
        if !self.take_quiet() {
            self.settle_mode();
        }
    }

    /// Whether text in the head of a document changes nothing: it is not data, or whitespace
    /// only, or the body has started.
    #[inline(always)]
    fn quick_text(&self, text: &Text<'_>) -> bool {
        !matches!(self.phase, Phase::Head | Phase::BodyFramesetOk)
            || !matches!(text.kind(), TextKind::Data | TextKind::Cdata)
            || whitespace_only(text.raw())
    }

    /// The start tags of the head that change nothing but the text state: those the head
    /// keeps. `None`: not that simple.
    #[inline(always)]
    fn quick_start_tag(&self, tag: &StartTag<'_>) -> Option<Switch> {
        if self.phase != Phase::Head {
            return None;
        }
        let raw = tag.raw_name();
        let kept = match raw.len() {
            4 => eq(raw, b"meta") || eq(raw, b"link") || eq(raw, b"base"),
            5 => eq(raw, b"title") || eq(raw, b"style"),
            6 => eq(raw, b"script"),
            _ => false,
        };
        kept.then(|| match hot(raw) {
            Hot::Text(kind) => Switch::text_state_to(kind),
            _ => Switch::NONE,
        })
    }

    #[inline(always)]
    fn start_tag_fast(&mut self, tag: &StartTag<'_>) -> Switch {
        match hot(tag.raw_name()) {
            Hot::None => Switch::NONE,
            Hot::Text(kind) => Switch::text_state_to(kind),
            Hot::Noscript if self.scripting => Switch::text_state_to(TextKind::Rawtext),
            Hot::Noscript => Switch::NONE,
            Hot::Slow => self.start_tag_slow(tag),
        }
    }

    #[inline(never)]
    fn start_tag_slow(&mut self, tag: &StartTag<'_>) -> Switch {
        let feedback = self.start_tag(tag);
        self.settle_mode();
        feedback
    }

    /// `</table>` keeps the count of open tables.
    #[inline(always)]
    fn end_tag_fast(&mut self, tag: &EndTag<'_>) -> Switch {
        if eq(tag.raw_name(), b"table") {
            self.tables = self.tables.saturating_sub(1);
        }
        Switch::NONE
    }

    /// The common state holds when nothing is open, the body has started with frameset-ok
    /// cleared, and the last token was not ambiguous (whose flag the next token clears);
    /// [`Simulator::quiet`] when only the phase is not the body's. The [`TagPath`] follows the
    /// current node.
    fn settle_mode(&mut self) {
        if self.mode == Mode::Off {
            return;
        }
        let settled = self.last.is_none() && self.stack.is_empty();
        let top = self.stack.last();
        let fast = settled && self.phase == Phase::Body;
        self.mode = if fast { Mode::Fast } else { Mode::Slow };
        self.quiet = settled && !fast;
        self.path = match top {
            None => TagPath::General,
            Some(top) if top.is_plain_foreign() => TagPath::Foreign,
            Some(top) if top.kind == Kind::Html => self.region_path(),
            Some(_) => TagPath::General,
        };
    }

    /// The path of start tags when the current node is an HTML element inside an integration
    /// point: [`TagPath::Region`] in the body or inside a template (where no tag changes the
    /// phase), with [`Simulator::region_rules`] for the phase.
    fn region_path(&mut self) -> TagPath {
        // A start tag in the body with frameset-ok "ok" clears it if it has `FS_KILL`.
        let phase_rules = match self.phase {
            _ if !self.templates.is_empty() => 0,
            Phase::Body => 0,
            Phase::BodyFramesetOk if self.frameset_ok => FS_KILL,
            _ => return TagPath::General,
        };
        let p_open = self.top_named[Name::P as usize] != 0;
        self.region_rules = OWN_RULES | phase_rules | if p_open { CLOSES_P } else { 0 };
        TagPath::Region
    }

    fn ambiguous(&mut self, why: Ambiguity) {
        if self.last.is_none() {
            self.count += 1;
        }
        self.last = Some(why);
    }

    /// Recompute the derived state; the feedback for a CDATA change plus `switch`.
    fn settle(&mut self, switch: Option<TextKind>) -> Switch {
        let cdata = self.stack.last().is_some_and(Frame::is_foreign);
        let mut feedback = switch.map_or(Switch::NONE, Switch::text_state_to);
        if cdata != self.cdata {
            self.cdata = cdata;
            feedback.0 |= Switch::CDATA_CHANGE | if cdata { Switch::CDATA_ON } else { 0 };
        }
        feedback
    }

    // ---- the stack --------------------------------------------------------------------------

    /// Push a frame, unless [`MAX_DEPTH`] frames are open.
    #[inline(always)]
    fn push(&mut self, kind: Kind, name: Name, flags: Flags, raw: &[u8]) {
        if self.stack.len() >= MAX_DEPTH {
            return self.too_deep();
        }
        self.push_frame(kind, name, flags, raw);
    }

    /// Push a frame (below [`MAX_DEPTH`]).
    #[inline(never)]
    fn push_frame(&mut self, kind: Kind, name: Name, flags: Flags, raw: &[u8]) {
        let height = self.stack.len() as Height + 1;
        let mut frame = Frame {
            kind,
            name,
            flags,
            start: self.names.len() as u32,
            below_named: 0,
            slot: 0,
            nearest: self.nearest().above(height, kind, name, flags),
        };
        if name == Name::Other {
            // Entered into `others` when an end tag needs it.
            self.store_name(raw);
            self.other_lengths[other_length(raw.len())] += 1;
        } else {
            frame.below_named = std::mem::replace(&mut self.top_named[name as usize], height);
        }
        if matches!(kind, Kind::Template(_)) {
            self.templates.push(0);
        }
        if frame.is_foreign() && self.first_foreign == 0 {
            self.first_foreign = height;
        }
        self.top = frame.nearest;
        self.stack.push(frame);
    }

    /// [`Simulator::push_frame`] for the element of `tag`: out of line, so that the fast paths
    /// that push go on to it with no work left.
    #[inline(never)]
    fn push_tag_frame(&mut self, kind: Kind, name: Name, flags: Flags, tag: &StartTag<'_>) {
        self.push_frame(kind, name, flags, tag.raw_name());
    }

    /// A push past [`MAX_DEPTH`]: the element stays out, and the token is marked.
    #[inline(always)]
    fn too_deep(&mut self) {
        self.ambiguous(Ambiguity::DeepNesting);
    }

    /// Keep `raw` lowercased at the end of `names`.
    fn store_name(&mut self, raw: &[u8]) {
        self.names.extend(raw.iter().map(u8::to_ascii_lowercase));
    }

    /// The slot of [`OtherNames`] that holds the name `raw` (any case), or the empty one it
    /// would take; and the name's fingerprint.
    fn other_slot(&self, raw: &[u8]) -> (usize, u16) {
        let (mut at, print) = other_name_slot(raw, self.others.seeds);
        loop {
            match self.others.slots[at] {
                0 => return (at, print),
                height
                    if self.others.prints[at] == print
                        && eq(raw, self.frame_name(usize::from(height) - 1)) =>
                {
                    return (at, print);
                }
                _ => at = (at + 1) % OTHER_SLOTS,
            }
        }
    }

    /// Enter the frames pushed since the last time into [`OtherNames`].
    #[inline(never)]
    fn enter_other_names(&mut self) {
        for i in usize::from(self.others.entered)..self.stack.len() {
            if self.stack[i].name == Name::Other {
                if self.others.slots.is_empty() {
                    self.others.slots = vec![0; OTHER_SLOTS];
                    self.others.prints = vec![0; OTHER_SLOTS];
                    self.others.seeds = random_keys();
                }
                let (slot, print) = self.other_slot(self.frame_name(i));
                let height = i as Height + 1;
                self.others.prints[slot] = print;
                self.stack[i].slot = slot as u16;
                self.stack[i].below_named = std::mem::replace(&mut self.others.slots[slot], height);
            }
        }
        self.others.entered = self.stack.len() as Height;
    }

    /// The topmost frame named `raw` (classified as `name`, which is exact for every name but
    /// [`Name::Other`]) if one is at or above `floor`; otherwise a lower one, or 0.
    #[inline(always)]
    fn topmost_named(&mut self, raw: &[u8], name: Name, floor: Height) -> Height {
        if name != Name::Other {
            return self.top_named[name as usize];
        }
        if self.other_lengths[other_length(raw.len())] == 0 {
            // No open element's name is that long.
            return 0;
        }
        self.topmost_other(raw, floor)
    }

    /// [`Simulator::topmost_named`] for a [`Name::Other`].
    #[inline(never)]
    fn topmost_other(&mut self, raw: &[u8], floor: Height) -> Height {
        let lowest = usize::from(floor).max(1);
        if (self.stack.len() + 1).saturating_sub(lowest) <= SHORT_WALK {
            // The common case of an end tag, without the table.
            for i in (lowest - 1..self.stack.len()).rev() {
                if self.stack[i].name == Name::Other && eq(raw, self.frame_name(i)) {
                    return i as Height + 1;
                }
            }
            return 0;
        }
        if usize::from(self.others.entered) < self.stack.len() {
            self.enter_other_names();
        }
        if self.others.slots.is_empty() {
            return 0;
        }
        self.others.slots[self.other_slot(raw).0]
    }

    /// [`Nearest`] of the current node (all 0 when nothing is open).
    #[inline(always)]
    fn nearest(&self) -> Nearest {
        self.top
    }

    /// The index of the frame at `height` if it is an HTML element at or above `stop`: found
    /// by a walk down from the current node that ends at `stop`.
    fn html_at(&self, height: Height, stop: Height) -> Option<usize> {
        let i = usize::from(height).checked_sub(1)?;
        (height >= stop && self.stack[i].kind == Kind::Html).then_some(i)
    }

    /// The topmost of the frames named `extra` above `stop` (a higher scope boundary).
    fn bound_by(&self, stop: Height, extra: &[Name]) -> Height {
        extra
            .iter()
            .fold(stop, |stop, &n| stop.max(self.top_named[n as usize]))
    }

    /// The breakout of the rules for parsing tokens in foreign content: pop elements until the
    /// current node is a MathML text integration point, an HTML integration point, or an HTML
    /// element.
    fn pop_foreign_content(&mut self) {
        while let Some(f) = self.stack.last()
            && f.is_foreign()
            && f.flags & (F_HTML_IP | F_TEXT_IP) == 0
        {
            let i = self.stack.len() - 1;
            self.truncate(i);
        }
    }

    /// Pop every frame from index `i` on.
    fn truncate(&mut self, i: usize) {
        while self.stack.len() > i {
            let entered = self.stack.len() <= usize::from(self.others.entered);
            let frame = self.stack.pop().expect("non-empty");
            match frame.name {
                Name::Other => {
                    // Its name is the last in `names`.
                    let len = self.names.len() - frame.start as usize;
                    self.other_lengths[other_length(len)] -= 1;
                    if entered {
                        self.others.slots[usize::from(frame.slot)] = frame.below_named;
                    }
                }
                name => self.top_named[name as usize] = frame.below_named,
            }
            if matches!(frame.kind, Kind::Template(_)) {
                self.templates.pop();
            }
            self.names.truncate(frame.start as usize);
        }
        self.top = self
            .stack
            .last()
            .map_or_else(Nearest::default, |f| f.nearest);
        if usize::from(self.first_foreign) > i {
            self.first_foreign = 0;
        }
        self.others.entered = self.others.entered.min(self.stack.len() as Height);
    }

    /// Pop every frame from index `i` on, as "pop until" does: HTML formatting elements popped
    /// above the target stay in the list of active formatting elements, and the tree builder may
    /// reopen them later, which the simulator does not follow.
    fn pop_to(&mut self, i: usize) {
        let misnested = self.stack[i + 1..]
            .iter()
            .any(|f| f.kind == Kind::Html && f.flags & FORMATTING != 0);
        if misnested {
            self.ambiguous(Ambiguity::MisnestedHtmlInForeignContent);
        }
        self.truncate(i);
    }

    /// The lowercase name of the frame at `i`.
    fn frame_name(&self, i: usize) -> &[u8] {
        match self.stack[i].name {
            Name::Other => {
                let end = self
                    .stack
                    .get(i + 1)
                    .map_or(self.names.len(), |f| f.start as usize);
                &self.names[self.stack[i].start as usize..end]
            }
            name => SPELLINGS[name as usize],
        }
    }

    /// Whether a foreign frame is open (the HTML frames above the topmost one are inside it).
    fn foreign_open(&self) -> bool {
        self.nearest().foreign != 0
    }

    /// Index of the HTML frame named `name` in scope inside the integration point on top
    /// (`extra` names bound the scope too), if any.
    fn in_scope(&self, name: Name, extra: &[Name]) -> Option<usize> {
        let near = self.nearest();
        let stop = self.bound_by(near.non_html.max(near.boundary), extra);
        self.html_at(self.top_named[name as usize], stop)
    }

    /// The open-table bound for the HTML content around the foreign content: the innermost
    /// template's below it, or the document's.
    fn outer_tables(&self) -> u32 {
        let first = match self.first_foreign {
            0 => self.stack.len(),
            height => usize::from(height) - 1,
        };
        // Below the first foreign frame, every frame is a template.
        first
            .checked_sub(1)
            .map_or(self.tables, |t| self.templates[t])
    }

    /// The open-table bound where the current node is, when nothing but templates is open:
    /// the innermost template's, or the document's.
    fn tables_here(&mut self) -> &mut u32 {
        self.templates.last_mut().unwrap_or(&mut self.tables)
    }

    /// Whether an HTML `table` is open inside the integration point on top.
    fn table_in_region(&self) -> bool {
        self.top_named[Name::Table as usize] > self.nearest().non_html
    }

    /// "Close a p element" if one is in button scope (the `p` and what is above it are popped).
    fn close_p(&mut self) {
        if let Some(i) = self.in_scope(Name::P, &[Name::Button]) {
            self.pop_to(i);
        }
    }

    // ---- start tags -------------------------------------------------------------------------

    fn start_tag(&mut self, tag: &StartTag<'_>) -> Switch {
        let (name, flags) = classify_tag(tag.src, tag.name);
        if let Some(kind) = self.foreign_rules_for(name) {
            return self.foreign_start_tag(tag, kind, name, flags);
        }
        self.html_start_tag(tag, name, flags)
    }

    /// The tree construction dispatcher for a start tag named `name`: the namespace of the
    /// current node when the rules for parsing tokens in foreign content take it, `None` when
    /// the insertion modes do.
    fn foreign_rules_for(&self, name: Name) -> Option<Kind> {
        let top = self.stack.last().filter(|top| top.is_foreign())?;
        let html_rules = top.flags & F_HTML_IP != 0
            || top.flags & F_TEXT_IP != 0 && !matches!(name, Name::Mglyph | Name::Malignmark)
            || top.name == Name::AnnotationXml && name == Name::Svg;
        (!html_rules).then_some(top.kind)
    }

    /// A start tag with [`TagPath::Foreign`]: the current node is a plain foreign element, so
    /// unless the tag breaks out or needs a closer look (`font`, integration points,
    /// `annotation-xml`: [`Simulator::foreign_start_tag_checked`]) it is pushed in the current
    /// node's namespace, and that state holds. This part, without a call, answers for the
    /// short names that it pushes or that push nothing (self-closing, or past [`MAX_DEPTH`]:
    /// then without reading [`KNOWN`] for those that foreign content does not look at,
    /// [`FOREIGN_LOOKS`]); the others go on to [`Simulator::foreign_start_tag_rest`] with their
    /// [`Class`].
    #[inline(always)]
    fn foreign_start_tag_fast(&mut self, tag: &StartTag<'_>) -> Left {
        // The last token's flag, if any (a fast path leaves it set without a settle).
        self.last = None;
        let Some(short) = Short::of_tag(tag.src, tag.name) else {
            return Left::Rest(Class::Unread);
        };
        let bucket = short.bucket();
        if foreign_looks_at(bucket) {
            let (name, flags) = short.class_in(bucket);
            return Left::Rest(Class::Read(name, flags));
        }
        if tag.self_closing() {
            return Left::Nothing;
        }
        if self.stack.len() >= MAX_DEPTH {
            self.too_deep();
            return Left::Nothing;
        }
        let (name, flags) = short.class_in(bucket);
        let Some(top) = self.stack.last() else {
            return Left::Rest(Class::Read(name, flags));
        };
        // No frame flags, and the CDATA permission stays on.
        Left::Push(top.kind, name, 0)
    }

    /// [`Simulator::foreign_start_tag_fast`] for a tag of a long name, or one that breaks out,
    /// needs a closer look, or pushes its element (without frame flags; the CDATA permission
    /// stays on).
    #[inline(never)]
    fn foreign_start_tag_rest(&mut self, tag: &StartTag<'_>, class: Class) -> Switch {
        let (name, flags) = match class {
            Class::Read(name, flags) => (name, flags),
            Class::Unread => classify_tag(tag.src, tag.name),
        };
        if flags & (BREAKOUT | FOREIGN_CHECK) != 0 {
            return self.foreign_start_tag_checked(tag, name, flags);
        }
        if tag.self_closing() {
            return Switch::NONE;
        }
        if self.stack.len() >= MAX_DEPTH {
            self.too_deep();
        } else {
            let top = self.stack.last().expect("foreign content is open");
            self.push_frame(top.kind, name, 0, tag.raw_name());
        }
        Switch::NONE
    }

    /// What [`Simulator::start_tag_general`] does with such a start tag, knowing what
    /// [`TagPath::Foreign`] says (the current node is foreign and no integration point).
    #[inline(never)]
    fn foreign_start_tag_checked(
        &mut self,
        tag: &StartTag<'_>,
        name: Name,
        flags: Flags,
    ) -> Switch {
        let kind = self.stack.last().expect("foreign content is open").kind;
        let feedback = self.foreign_start_tag(tag, kind, name, flags);
        self.settle_mode();
        feedback
    }

    /// A start tag with [`TagPath::Region`]: the current node is an HTML element inside an
    /// integration point, so unless the tag has rules of its own there ([`OWN_RULES`], a `p` to
    /// close, the frameset-ok flag to clear: [`Simulator::region_rules`]) it is pushed, and that
    /// state holds (with the CDATA permission off). This part, without a call, answers for the
    /// short names that it pushes (or not, past [`MAX_DEPTH`]); the others go on to
    /// [`Simulator::region_start_tag_rest`] with their [`Class`].
    #[inline(always)]
    fn region_start_tag_fast(&mut self, tag: &StartTag<'_>) -> Left {
        // The last token's flag, as in `foreign_start_tag_fast`.
        self.last = None;
        let Some(short) = Short::of_tag(tag.src, tag.name) else {
            return Left::Rest(Class::Unread);
        };
        let (name, flags) = short.class();
        if flags & self.region_rules != 0 || name == Name::P {
            return Left::Rest(Class::Read(name, flags));
        }
        if self.stack.len() >= MAX_DEPTH {
            self.too_deep();
            return Left::Nothing;
        }
        Left::Push(Kind::Html, name, flags)
    }

    /// [`Simulator::region_start_tag_fast`] for a tag of a long name, or one with rules of its
    /// own there, or one that pushes its element.
    #[inline(never)]
    fn region_start_tag_rest(&mut self, tag: &StartTag<'_>, class: Class) -> Switch {
        let (name, flags) = match class {
            Class::Read(name, flags) => (name, flags),
            Class::Unread => classify_tag(tag.src, tag.name),
        };
        if flags & self.region_rules != 0 {
            return self.region_start_tag_checked(tag, name, flags);
        }
        if name == Name::P {
            // Now a `p` to close.
            self.region_rules |= CLOSES_P;
        }
        self.push(Kind::Html, name, flags, tag.raw_name());
        Switch::NONE
    }

    /// What [`Simulator::start_tag_general`] does with such a start tag, knowing what
    /// [`TagPath::Region`] says (the current node is an HTML element): the insertion modes' rules,
    /// with the tag's class as read.
    #[inline(never)]
    fn region_start_tag_checked(&mut self, tag: &StartTag<'_>, name: Name, flags: Flags) -> Switch {
        let feedback = self.html_start_tag(tag, name, flags);
        self.settle_mode();
        feedback
    }

    /// "Any other start tag" and the breakout tags of the rules for parsing tokens in foreign
    /// content, with a current node in namespace `kind`.
    fn foreign_start_tag(
        &mut self,
        tag: &StartTag<'_>,
        kind: Kind,
        name: Name,
        flags: Flags,
    ) -> Switch {
        if breaks_out(tag, name, flags) {
            self.pop_foreign_content();
            return self.html_start_tag(tag, name, flags);
        }
        if !tag.self_closing() {
            self.push_foreign(kind, tag, name);
        }
        self.settle(None)
    }

    /// Push a foreign element in namespace `kind`, marking integration points.
    fn push_foreign(&mut self, kind: Kind, tag: &StartTag<'_>, name: Name) {
        let flags = match (kind, name) {
            (Kind::Svg, Name::ForeignObject | Name::Desc | Name::Title) => {
                F_HTML_IP | SPECIAL | BOUNDARY
            }
            (Kind::MathMl, Name::Mi | Name::Mo | Name::Mn | Name::Ms | Name::Mtext) => {
                F_TEXT_IP | SPECIAL | BOUNDARY
            }
            (Kind::MathMl, Name::AnnotationXml) => {
                let html = tag.attributes().any(|a| {
                    eq(a.raw_name(), b"encoding") && {
                        let v = a.value();
                        v.eq_ignore_ascii_case("text/html")
                            || v.eq_ignore_ascii_case("application/xhtml+xml")
                    }
                });
                SPECIAL | BOUNDARY | if html { F_HTML_IP } else { 0 }
            }
            _ => 0,
        };
        self.push(kind, name, flags, tag.raw_name());
    }

    /// A start tag processed by the insertion modes (HTML content).
    fn html_start_tag(&mut self, tag: &StartTag<'_>, name: Name, flags: Flags) -> Switch {
        let in_region = self.foreign_open();
        // The frameset decision (never inside a template, which clears frameset-ok anyway).
        if self.phase != Phase::Body && self.templates.is_empty() {
            if self.phase == Phase::Frameset {
                let switch = (name == Name::Noframes).then_some(TextKind::Rawtext);
                return self.settle(switch);
            }
            if name == Name::Template {
                self.frameset_ok = false;
            }
            if self.phase == Phase::Head && flags & HEAD == 0 {
                if name == Name::Frameset {
                    return self.enter_frameset();
                }
                self.phase = Phase::BodyFramesetOk;
            }
            if self.phase == Phase::BodyFramesetOk {
                if name == Name::Frameset && self.frameset_ok {
                    return self.enter_frameset();
                }
                let kills = flags & FS_KILL != 0
                    || name == Name::Input
                        && !tag.attributes().any(|a| {
                            eq(a.raw_name(), b"type") && eq(a.value().as_bytes(), b"hidden")
                        });
                if kills || !self.frameset_ok {
                    self.phase = Phase::Body;
                }
            }
        }
        // A template's first start tag decides its mode; in column-group mode all but `col` and
        // `template` is ignored.
        if let Some(top) = self.stack.last_mut()
            && let Kind::Template(mode) = &mut top.kind
        {
            match *mode {
                TemplateMode::Open if name == Name::Col => *mode = TemplateMode::ColumnGroup,
                TemplateMode::Open if flags & TEMPLATE_HEAD == 0 => *mode = TemplateMode::Other,
                TemplateMode::ColumnGroup if !matches!(name, Name::Col | Name::Template) => {
                    return self.settle(None);
                }
                _ => {}
            }
        }
        let switch = text_state(flags, self.scripting);
        match name {
            Name::Svg | Name::Math if !tag.self_closing() => {
                let kind = if name == Name::Svg {
                    Kind::Svg
                } else {
                    Kind::MathMl
                };
                self.push_foreign(kind, tag, name);
            }
            Name::Svg | Name::Math => {}
            Name::Template => self.push(
                Kind::Template(TemplateMode::Open),
                name,
                flags,
                tag.raw_name(),
            ),
            _ if in_region => self.region_start_tag(tag, name, flags),
            _ => {
                let table = name == Name::Table;
                let opens = switch.is_none() && flags & VOID == 0 && name != Name::Input;
                *self.tables_here() += u32::from(table);
                if opens && let Some(top) = self.stack.last_mut() {
                    top.flags |= F_HTML_OPEN;
                }
            }
        }
        self.settle(switch)
    }

    /// `<frameset>` taken: every element is popped but `html`.
    fn enter_frameset(&mut self) -> Switch {
        self.phase = Phase::Frameset;
        self.truncate(0);
        self.settle(None)
    }

    /// An HTML start tag inside an integration point: keep the HTML elements open there.
    fn region_start_tag(&mut self, tag: &StartTag<'_>, name: Name, flags: Flags) {
        if flags & TABLE != 0 {
            if self.table_in_region() {
                // The table insertion modes inside the integration point.
                self.ambiguous(Ambiguity::TableInForeignContent);
            } else if self.outer_tables() > 0 {
                // Maybe a table mode around the foreign content: it may be closed.
                self.ambiguous(Ambiguity::TableInForeignContent);
                if name != Name::Table {
                    self.truncate(0);
                    return;
                }
            } else if name != Name::Table {
                // "In body": a parse error, ignored.
                return;
            } else if self.in_scope(Name::P, &[Name::Button]).is_some() {
                // `<table>` closes a `p` only outside quirks mode.
                self.ambiguous(Ambiguity::MisnestedHtmlInForeignContent);
            }
        }
        if flags & CLOSES_P != 0 {
            self.close_p();
        }
        match name {
            Name::Li | Name::Dd | Name::Dt => {
                let same: &[Name] = if name == Name::Li {
                    &[Name::Li]
                } else {
                    &[Name::Dd, Name::Dt]
                };
                let topmost = self.bound_by(0, same);
                if let Some(i) = self.html_at(topmost, self.nearest().list_stop) {
                    self.pop_to(i);
                }
            }
            Name::Select => {
                if let Some(i) = self.in_scope(Name::Select, &[]) {
                    self.pop_to(i);
                    return;
                }
            }
            Name::Input => {
                if let Some(i) = self.in_scope(Name::Select, &[]) {
                    self.pop_to(i);
                }
            }
            Name::Option | Name::Optgroup
                if self.stack.last().is_some_and(|f| f.name == Name::Option) =>
            {
                let i = self.stack.len() - 1;
                self.truncate(i);
            }
            Name::Button => {
                if let Some(i) = self.in_scope(Name::Button, &[]) {
                    self.pop_to(i);
                }
            }
            Name::A | Name::Nobr => {
                // Open inside the topmost foreign element (above the bottom frame when there is
                // none).
                let topmost = self.top_named[name as usize];
                if topmost > self.nearest().foreign.max(1) {
                    let i = usize::from(topmost) - 1;
                    if i + 1 != self.stack.len() {
                        // The adoption agency algorithm.
                        self.ambiguous(Ambiguity::MisnestedHtmlInForeignContent);
                    }
                    self.truncate(i);
                }
            }
            Name::Form => self.ambiguous(Ambiguity::MisnestedHtmlInForeignContent),
            Name::Rb | Name::Rtc | Name::Rp | Name::Rt => {
                let keep_rtc = matches!(name, Name::Rp | Name::Rt);
                while let Some(f) = self.stack.last()
                    && f.kind == Kind::Html
                    && matches!(f.name, Name::Rb | Name::Rp | Name::Rt | Name::Rtc)
                    && !(keep_rtc && f.name == Name::Rtc)
                {
                    let i = self.stack.len() - 1;
                    self.truncate(i);
                }
            }
            _ if flags & HEADING != 0 => {
                if let Some(f) = self.stack.last()
                    && f.kind == Kind::Html
                    && f.flags & HEADING != 0
                {
                    let i = self.stack.len() - 1;
                    self.truncate(i);
                }
            }
            _ => {}
        }
        let void = flags & VOID != 0 || name == Name::Input;
        let ignored = matches!(
            name,
            Name::Body | Name::Frameset | Name::Svg | Name::Math | Name::Html | Name::Head
        );
        if !void && !ignored {
            self.push(Kind::Html, name, flags, tag.raw_name());
        }
    }

    // ---- end tags ---------------------------------------------------------------------------

    /// An end tag in [`Mode::Slow`] (after [`Simulator::settle_mode`]: [`Simulator::end_tag`]).
    #[inline(never)]
    fn end_tag_slow(&mut self, tag: &EndTag<'_>) -> Switch {
        let feedback = self.end_tag(tag);
        self.settle_mode();
        feedback
    }

    /// An end tag outside the common state.
    fn end_tag(&mut self, tag: &EndTag<'_>) -> Switch {
        let raw = tag.raw_name();
        let (name, flags) = classify_tag(tag.src, tag.name);
        if self.stack.last().is_some_and(Frame::is_foreign) {
            self.foreign_end_tag(raw, name, flags);
        } else {
            self.html_end_tag(raw, name, flags);
        }
        self.settle(None)
    }

    /// An end tag with [`TagPath::Foreign`] (the current node is a plain foreign element):
    /// "any other end tag" of foreign content closes the topmost foreign element of its name
    /// open on top of the stack; without one it goes to the insertion modes
    /// ([`Simulator::region_end_tag`]). End tags with rules of their own
    /// ([`has_own_end_rules`], `</br>` and `</p>`, headings) take the general path.
    #[inline(always)]
    fn foreign_end_tag_fast(&mut self, tag: &EndTag<'_>) -> Switch {
        // The last token's flag, as in `foreign_start_tag_fast`.
        self.last = None;
        let raw = tag.raw_name();
        let (name, flags) = classify(name_onwards(tag.src, tag.name), raw.len());
        // The insertion modes' steps before `region_end_tag` change nothing for such a name.
        let phase_kept = self.phase != Phase::BodyFramesetOk || self.frameset_ok;
        if has_own_end_rules(name, flags) || name == Name::P || flags & HEADING != 0 || !phase_kept
        {
            return self.end_tag_slow(tag);
        }
        let depth = self.stack.len();
        let run = self.nearest().non_foreign;
        let stop = self.end_tag_stop(name, flags);
        let candidate = self.topmost_named(raw, name, (run + 1).min(stop));
        if candidate > run {
            self.truncate(usize::from(candidate) - 1);
        } else if candidate == 0 && flags & (TABLE | HTML) == 0 {
            // What `region_end_tag` does for it, without a call: it pops nothing.
            self.end_tag_not_found(flags, stop);
            return Switch::NONE;
        } else {
            self.region_end_tag(name, flags, stop, candidate);
        }
        self.settle_if_popped(depth)
    }

    /// An end tag with [`TagPath::Region`] (the current node is an HTML element inside an
    /// integration point, in the body): the insertion modes' steps
    /// ([`Simulator::region_end_tag`]). End tags with rules of their own
    /// ([`has_own_end_rules`]) take the general path.
    #[inline(always)]
    fn region_end_tag_fast(&mut self, tag: &EndTag<'_>) -> Switch {
        // The last token's flag, as in `foreign_start_tag_fast`.
        self.last = None;
        let raw = tag.raw_name();
        let (name, flags) = classify(name_onwards(tag.src, tag.name), raw.len());
        if has_own_end_rules(name, flags) {
            return self.end_tag_slow(tag);
        }
        let depth = self.stack.len();
        let stop = self.end_tag_stop(name, flags);
        let candidate = self.end_tag_candidate(raw, name, flags, stop);
        if candidate == 0 && flags & (TABLE | HTML) == 0 {
            // As in `foreign_end_tag_fast`.
            self.end_tag_not_found(flags, stop);
            return Switch::NONE;
        }
        self.region_end_tag(name, flags, stop, candidate);
        self.settle_if_popped(depth)
    }

    /// After a fast path's end tag: nothing changed unless frames were popped from `depth`.
    fn settle_if_popped(&mut self, depth: usize) -> Switch {
        if self.stack.len() == depth {
            return Switch::NONE;
        }
        let feedback = self.settle(None);
        self.settle_mode();
        feedback
    }

    /// Where the steps for an end tag inside an integration point that stopped at `stop` (an
    /// [`Simulator::end_tag_stop`]) without finding their element leave the tracked frames:
    /// above the bottom of the stack, or above a template with untracked HTML elements open in
    /// it, both below the foreign content; `None` if a special element or scope boundary (an
    /// integration point among them) ended them.
    fn untracked_bottom(&self, stop: Height) -> Option<usize> {
        let Some(i) = usize::from(stop).checked_sub(1) else {
            return Some(0);
        };
        let f = &self.stack[i];
        (!f.is_foreign() && f.flags & F_HTML_OPEN != 0).then_some(i + 1)
    }

    /// "Any other end tag" (and `</br>`, `</p>`) in foreign content.
    fn foreign_end_tag(&mut self, raw: &[u8], name: Name, flags: Flags) {
        if matches!(name, Name::Br | Name::P) {
            self.pop_foreign_content();
            return self.html_end_tag(raw, name, flags);
        }
        if let Some(i) = self.open_foreign_named(raw, name) {
            return self.truncate(i);
        }
        self.html_end_tag(raw, name, flags);
    }

    /// The topmost frame of the foreign elements open on top of the stack whose name is `raw`
    /// (classified as `name`, which is exact for every name but [`Name::Other`]).
    fn open_foreign_named(&mut self, raw: &[u8], name: Name) -> Option<usize> {
        let run = self.nearest().non_foreign;
        let topmost = self.topmost_named(raw, name, run + 1);
        (topmost > run).then(|| usize::from(topmost) - 1)
    }

    /// Where the steps for an end tag inside an integration point (or foreign content) stop
    /// going down the stack unless they find their element first: at a special element for
    /// "any other end tag", at a scope boundary (or `button` for `</p>`, `ol` and `ul` for
    /// `</li>`) for the end tags closed by scope and the formatting ones. Integration points and
    /// templates are both; 0: nothing stops them.
    fn end_tag_stop(&self, name: Name, flags: Flags) -> Height {
        let near = self.nearest();
        if flags & (SCOPED_END | FORMATTING) == 0 {
            return near.special;
        }
        let extra: &[Name] = match name {
            Name::P => &[Name::Button],
            Name::Li => &[Name::Ol, Name::Ul],
            _ => &[],
        };
        self.bound_by(near.boundary, extra)
    }

    /// The element an end tag inside an integration point would close: the topmost of its name
    /// (any HTML `h1`–`h6` for those), if there is one at or above `stop`; the steps close it
    /// if it is an HTML element ([`Simulator::html_at`]). No foreign element above it has the
    /// name: the foreign-content rules looked there first.
    fn end_tag_candidate(&mut self, raw: &[u8], name: Name, flags: Flags, stop: Height) -> Height {
        if flags & HEADING != 0 {
            self.nearest().heading
        } else {
            self.topmost_named(raw, name, stop)
        }
    }

    /// An end tag processed by the insertion modes, with the stack as it is (the current node
    /// may be foreign when the foreign-content rules hand the token over).
    fn html_end_tag(&mut self, raw: &[u8], name: Name, flags: Flags) {
        let foreign = self.foreign_open();
        if self.phase != Phase::Body && self.templates.is_empty() {
            match (self.phase, name) {
                (Phase::Head, Name::Body) => self.phase = Phase::BodyFramesetOk,
                (Phase::Head, Name::Html) => self.phase = Phase::BodyFramesetOk,
                (Phase::Head | Phase::BodyFramesetOk, Name::Br) => self.phase = Phase::Body,
                _ => {}
            }
            if self.phase == Phase::BodyFramesetOk && !self.frameset_ok {
                self.phase = Phase::Body;
            }
        }
        if name == Name::Template {
            if !self.templates.is_empty() {
                let i = self
                    .stack
                    .iter()
                    .rposition(|f| matches!(f.kind, Kind::Template(_)))
                    .expect("a template frame");
                self.truncate(i);
            }
            return;
        }
        if !foreign {
            if name == Name::Table {
                let tables = self.tables_here();
                *tables = tables.saturating_sub(1);
            }
            return;
        }
        if matches!(name, Name::Br | Name::Body | Name::Html) {
            // `</br>` is `<br>`; `</body>` and `</html>` only change the insertion mode.
            return;
        }
        let stop = self.end_tag_stop(name, flags);
        let candidate = self.end_tag_candidate(raw, name, flags, stop);
        self.region_end_tag(name, flags, stop, candidate);
    }

    /// The steps of the insertion modes for an end tag inside an integration point (or foreign
    /// content), past the names with rules of their own ([`has_own_end_rules`]): close the
    /// `candidate` ([`Simulator::end_tag_candidate`]) if the steps reach it before they `stop`
    /// ([`Simulator::end_tag_stop`]).
    fn region_end_tag(&mut self, name: Name, flags: Flags, stop: Height, candidate: Height) {
        if flags & TABLE != 0 && (self.table_in_region() || self.outer_tables() > 0) {
            self.ambiguous(Ambiguity::TableInForeignContent);
        }
        match self.html_at(candidate, stop) {
            Some(i) => {
                if flags & FORMATTING != 0
                    && self.stack[i + 1..]
                        .iter()
                        .any(|f| f.flags & SPECIAL != 0 || f.is_foreign())
                {
                    // The adoption agency algorithm with a furthest block.
                    self.ambiguous(Ambiguity::MisnestedHtmlInForeignContent);
                }
                if name == Name::Form {
                    self.ambiguous(Ambiguity::MisnestedHtmlInForeignContent);
                }
                self.pop_to(i);
            }
            None => {
                if self.end_tag_not_found(flags, stop) && name == Name::Table {
                    let tables = self.tables_here();
                    *tables = tables.saturating_sub(1);
                }
            }
        }
    }

    /// [`Simulator::region_end_tag`] when the steps reach `stop` ([`Simulator::end_tag_stop`])
    /// without finding an element of the tag's name: if they go on to the HTML elements below
    /// the foreign content, which are not tracked, the simulator guesses that an HTML element
    /// name closes the foreign content ([`Ambiguity::ForeignEndTag`]). Whether it popped that.
    #[inline(always)]
    fn end_tag_not_found(&mut self, flags: Flags, stop: Height) -> bool {
        let Some(bottom) = self.untracked_bottom(stop) else {
            return false;
        };
        self.ambiguous(Ambiguity::ForeignEndTag);
        let closes = flags & HTML != 0;
        if closes {
            self.truncate(bottom);
        }
        closes
    }

    // ---- text ---------------------------------------------------------------------------------

    /// Text in the head or early body: non-whitespace characters start the body and clear the
    /// frameset-ok flag.
    fn text(&mut self, text: &Text<'_>) -> Switch {
        if !matches!(self.phase, Phase::Head | Phase::BodyFramesetOk)
            || !self.templates.is_empty()
            || !matches!(text.kind(), TextKind::Data | TextKind::Cdata)
        {
            return Switch::NONE;
        }
        let Some(nul) = whitespace_or_nul(text.raw()) else {
            self.phase = Phase::Body;
            return self.settle(None);
        };
        if nul && self.phase == Phase::Head {
            self.phase = if self.frameset_ok {
                Phase::BodyFramesetOk
            } else {
                Phase::Body
            };
        }
        self.settle(None)
    }
}

/// Whether a start tag that the rules for parsing tokens in foreign content take breaks out of
/// foreign content (and `font` with `color`, `face` or `size`).
fn breaks_out(tag: &StartTag<'_>, name: Name, flags: Flags) -> bool {
    flags & BREAKOUT != 0
        || name == Name::Font
            && tag.attributes().any(|a| {
                let n = a.raw_name();
                eq(n, b"color") || eq(n, b"face") || eq(n, b"size")
            })
}

// ---- the simulator as the iterator's feedback stage --------------------------------------------

impl Feedback for Simulator {
    type Lexer = Machine;

    fn reset(&mut self) {
        if self.mode != Mode::Off {
            self.mode = Mode::Slow;
            self.quiet = true;
        }
        self.path = TagPath::General;
        self.phase = Phase::Head;
        self.frameset_ok = true;
        self.truncate(0);
        self.templates.clear();
        self.tables = 0;
        self.cdata = false;
        self.last = None;
        self.count = 0;
    }

    /// Whether a token of `kind` whose name (of a tag) is `name` (its bytes at stream offset `base`
    /// in `bytes`) needs a look: in the common state only start tags whose name could be one of
    /// [`hot`]'s, and end tags that could be `</table>`. This runs for every token: a few
    /// instructions. (The end tags [`Simulator::quiet`] lets pass are told apart after, with
    /// [`Simulator::lets_pass`]: a test here made the direct lane's other tokens slower.)
    #[inline(always)]
    fn wants(&self, kind: RecordKind, name: Span, bytes: &[u8], base: usize) -> bool {
        let mode = self.mode;
        match kind {
            RecordKind::StartTag { .. } if mode == Mode::Fast => hot_candidate(name, bytes, base),
            RecordKind::EndTag if mode == Mode::Fast => table_candidate(name, bytes, base),
            _ => mode == Mode::Slow,
        }
    }

    /// [`Simulator::wants`] for a token built from the machine's records (the state functions'
    /// way; with errors on, every token's): not the end tags [`Simulator::quiet`] lets pass.
    #[inline(always)]
    fn wants_record(&self, kind: RecordKind, name: Span, bytes: &[u8], base: usize) -> bool {
        self.wants(kind, name, bytes, base) && !(kind == RecordKind::EndTag && self.lets_pass(name))
    }

    /// Whether the end tag whose name is at `name` is one that [`Simulator::quiet`] lets pass
    /// (asked once [`Simulator::wants`] it). The direct lane asks before it calls
    /// [`Feedback::end_tag`]: built for the call and copied back out at once, the tag
    /// was read in 16-byte pieces right after being written in 8-byte ones, a stall that cost
    /// a page of stray end tags a third of its speed.
    #[inline(always)]
    fn lets_pass(&self, name: Span) -> bool {
        self.quiet && quick_end_tag_len(name.len())
    }

    /// The [`TagPath::Foreign`] path's fast part runs inline, on the tag's fields where the
    /// direct lane has them, and the token is built once, where it is returned: a start tag in
    /// foreign content that pushes nothing (self-closing, or past [`MAX_DEPTH`]) takes no call.
    /// The rest of that path and the other paths go on with the tag to functions of their own,
    /// out of line, which build the token there.
    #[inline(always)]
    fn start_tag<'t>(&mut self, tag: StartTag<'t>, lexer: &mut Machine) -> Option<Token<'t>> {
        if self.path != TagPath::Foreign {
            return self.simulated_start_tag_off_foreign(tag, lexer);
        }
        match self.foreign_start_tag_fast(&tag) {
            Left::Nothing => Some(Token::StartTag(tag)),
            Left::Push(kind, name, flags) => self.simulated_push(tag, kind, name, flags),
            Left::Rest(class) => self.simulated_foreign_start_tag_rest(tag, class, lexer),
        }
    }

    /// Each [`TagPath`] goes on with the tag to a function of its own, which has the path's
    /// steps inline.
    #[inline(never)]
    fn end_tag<'t>(&mut self, tag: EndTag<'t>, lexer: &mut Machine) -> Option<Token<'t>> {
        match self.path {
            TagPath::Foreign => self.simulated_foreign_end_tag(tag, lexer),
            TagPath::General => self.simulated_general_end_tag(tag, lexer),
            TagPath::Region => self.simulated_region_end_tag(tag, lexer),
        }
    }

    #[inline(never)]
    fn text<'t>(&mut self, text: Text<'t>, lexer: &mut Machine) -> Option<Token<'t>> {
        self.simulate_text(&text, lexer);
        Some(Token::Text(text))
    }

    /// A start tag on the [`TagPath::Foreign`] path is told first and its common answers given
    /// here; the other tags on the [`TagPath::Foreign`] and [`TagPath::Region`] paths go on out
    /// of line, so that the rest (the head's tokens, in the common state the few [`hot`] ones)
    /// find a short function.
    #[inline(never)]
    fn token(&mut self, token: &Token<'_>, lexer: &mut Machine) {
        // Told apart from the rest with one test of the token's kind, not a switch on it.
        if self.path == TagPath::Foreign
            && let Token::StartTag(tag) = token
        {
            return self.simulate_foreign_start_tag(tag, lexer);
        }
        let on_path = self.path != TagPath::General;
        let switch = match token {
            Token::StartTag(tag) if on_path => return self.simulate_region_start_tag(tag, lexer),
            Token::EndTag(tag) if on_path => return self.simulate_end_tag_on_path(tag, lexer),
            Token::StartTag(tag) if self.mode == Mode::Fast => self.start_tag_fast(tag),
            Token::StartTag(tag) => self.start_tag_general(tag),
            Token::EndTag(tag) if self.mode == Mode::Fast => self.end_tag_fast(tag),
            Token::EndTag(tag) => self.end_tag_general(tag),
            Token::Text(text) => self.text_general(text),
            _ => return self.other_general(),
        };
        apply(lexer, switch, token.source());
    }
}

impl Simulator {
    /// [`Feedback::token`] for a start tag on the [`TagPath::Foreign`] path: its common
    /// answers without a call.
    #[inline(always)]
    fn simulate_foreign_start_tag(&mut self, tag: &StartTag<'_>, lexer: &mut Machine) {
        match self.foreign_start_tag_fast(tag) {
            Left::Nothing => {}
            Left::Push(kind, name, flags) => self.push_tag_frame(kind, name, flags, tag),
            Left::Rest(class) => self.simulate_foreign_start_tag_rest(tag, class, lexer),
        }
    }

    /// [`Feedback::token`] for a start tag on the [`TagPath::Region`] path: its common
    /// answers without a call.
    #[inline(never)]
    fn simulate_region_start_tag(&mut self, tag: &StartTag<'_>, lexer: &mut Machine) {
        match self.region_start_tag_fast(tag) {
            Left::Nothing => {}
            Left::Push(kind, name, flags) => self.push_tag_frame(kind, name, flags, tag),
            Left::Rest(class) => self.simulate_region_start_tag_rest(tag, class, lexer),
        }
    }

    /// [`Feedback::token`] for an end tag on a fast [`TagPath`].
    #[inline(never)]
    fn simulate_end_tag_on_path(&mut self, tag: &EndTag<'_>, lexer: &mut Machine) {
        let switch = if self.path == TagPath::Foreign {
            self.foreign_end_tag_fast(tag)
        } else {
            self.region_end_tag_fast(tag)
        };
        apply(lexer, switch, tag.src);
    }

    /// [`Feedback::start_tag`] off the [`TagPath::Foreign`] path.
    #[inline(never)]
    fn simulated_start_tag_off_foreign<'t>(
        &mut self,
        tag: StartTag<'t>,
        lexer: &mut Machine,
    ) -> Option<Token<'t>> {
        match self.path {
            TagPath::Region => self.simulated_region_start_tag(tag, lexer),
            _ => self.simulated_general_start_tag(tag, lexer),
        }
    }

    /// [`Feedback::start_tag`] when the fast part of its path leaves a push.
    #[inline(never)]
    fn simulated_push<'t>(
        &mut self,
        tag: StartTag<'t>,
        kind: Kind,
        name: Name,
        flags: Flags,
    ) -> Option<Token<'t>> {
        self.push_frame(kind, name, flags, tag.raw_name());
        Some(Token::StartTag(tag))
    }

    /// [`Feedback::start_tag`] past [`Simulator::foreign_start_tag_fast`].
    #[inline(never)]
    fn simulated_foreign_start_tag_rest<'t>(
        &mut self,
        tag: StartTag<'t>,
        class: Class,
        lexer: &mut Machine,
    ) -> Option<Token<'t>> {
        self.simulate_foreign_start_tag_rest(&tag, class, lexer);
        Some(Token::StartTag(tag))
    }

    /// [`Feedback::start_tag`] on the [`TagPath::Region`] path: its common answers without a
    /// call, the others on out of line with the tag.
    #[inline(never)]
    fn simulated_region_start_tag<'t>(
        &mut self,
        tag: StartTag<'t>,
        lexer: &mut Machine,
    ) -> Option<Token<'t>> {
        match self.region_start_tag_fast(&tag) {
            Left::Nothing => Some(Token::StartTag(tag)),
            Left::Push(kind, name, flags) => self.simulated_push(tag, kind, name, flags),
            Left::Rest(class) => self.simulated_region_start_tag_rest(tag, class, lexer),
        }
    }

    /// [`Simulator::simulated_region_start_tag`] past [`Simulator::region_start_tag_fast`].
    #[inline(never)]
    fn simulated_region_start_tag_rest<'t>(
        &mut self,
        tag: StartTag<'t>,
        class: Class,
        lexer: &mut Machine,
    ) -> Option<Token<'t>> {
        self.simulate_region_start_tag_rest(&tag, class, lexer);
        Some(Token::StartTag(tag))
    }

    /// [`Feedback::start_tag`] on the [`TagPath::General`] path, and in the common state.
    #[inline(never)]
    fn simulated_general_start_tag<'t>(
        &mut self,
        tag: StartTag<'t>,
        lexer: &mut Machine,
    ) -> Option<Token<'t>> {
        let switch = if self.mode == Mode::Fast {
            self.start_tag_fast(&tag)
        } else {
            self.start_tag_general(&tag)
        };
        apply(lexer, switch, tag.src);
        Some(Token::StartTag(tag))
    }

    /// [`Feedback::end_tag`] on the [`TagPath::Foreign`] path.
    #[inline(never)]
    fn simulated_foreign_end_tag<'t>(
        &mut self,
        tag: EndTag<'t>,
        lexer: &mut Machine,
    ) -> Option<Token<'t>> {
        let switch = self.foreign_end_tag_fast(&tag);
        apply(lexer, switch, tag.src);
        Some(Token::EndTag(tag))
    }

    /// [`Feedback::end_tag`] on the [`TagPath::Region`] path.
    #[inline(never)]
    fn simulated_region_end_tag<'t>(
        &mut self,
        tag: EndTag<'t>,
        lexer: &mut Machine,
    ) -> Option<Token<'t>> {
        let switch = self.region_end_tag_fast(&tag);
        apply(lexer, switch, tag.src);
        Some(Token::EndTag(tag))
    }

    /// [`Feedback::end_tag`] on the [`TagPath::General`] path, and in the common state.
    #[inline(never)]
    fn simulated_general_end_tag<'t>(
        &mut self,
        tag: EndTag<'t>,
        lexer: &mut Machine,
    ) -> Option<Token<'t>> {
        let switch = if self.mode == Mode::Fast {
            self.end_tag_fast(&tag)
        } else {
            self.end_tag_general(&tag)
        };
        apply(lexer, switch, tag.src);
        Some(Token::EndTag(tag))
    }

    /// [`Feedback::token`] for a start tag on the [`TagPath::Foreign`] path, past
    /// [`Simulator::foreign_start_tag_fast`].
    #[inline(never)]
    fn simulate_foreign_start_tag_rest(
        &mut self,
        tag: &StartTag<'_>,
        class: Class,
        lexer: &mut Machine,
    ) {
        let switch = self.foreign_start_tag_rest(tag, class);
        apply(lexer, switch, tag.src);
    }

    /// [`Feedback::token`] for a start tag on the [`TagPath::Region`] path, past
    /// [`Simulator::region_start_tag_fast`].
    #[inline(never)]
    fn simulate_region_start_tag_rest(
        &mut self,
        tag: &StartTag<'_>,
        class: Class,
        lexer: &mut Machine,
    ) {
        let switch = self.region_start_tag_rest(tag, class);
        apply(lexer, switch, tag.src);
    }

    /// [`Feedback::token`] for text (only ever outside the common state).
    #[inline(always)]
    fn simulate_text(&mut self, text: &Text<'_>, lexer: &mut Machine) {
        let switch = self.text_general(text);
        apply(lexer, switch, text.src);
    }

    /// Why the simulator was unsure about the last token, if it was (see
    /// [`Tokens::ambiguity`](crate::Tokens::ambiguity)).
    pub(crate) fn ambiguity(&self) -> Option<Ambiguity> {
        self.last
    }

    /// How many tokens of this document the simulator was unsure about so far.
    pub(crate) fn ambiguous_count(&self) -> u64 {
        self.count
    }
}

// ---- the simulator as an observer (for the extractors) ------------------------------------------

/// The namespace the tree builder puts an element in.
#[cfg(feature = "extract")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Namespace {
    #[default]
    Html,
    Svg,
    MathMl,
}

#[cfg(feature = "extract")]
impl Simulator {
    /// Follow `token` as [`Feedback::token`] does, with no lexer to switch: for a reader of
    /// tokens that a tokenizer (and its own simulator) already handed out, such as the
    /// extractors, which want to know where each token sits. The same paths, in the same
    /// states; the switches are dropped. For a start tag, the namespace the tree builder puts
    /// its element in (as the state was before the tag).
    #[inline]
    pub(crate) fn observe(&mut self, token: &Token<'_>) -> Option<Namespace> {
        match token {
            Token::StartTag(tag) => {
                let namespace = self.namespace_of(tag);
                self.observe_start_tag(tag);
                return Some(namespace);
            }
            Token::EndTag(tag) => self.observe_end_tag(tag),
            // The common state wants no other token.
            _ if self.mode == Mode::Fast => {}
            Token::Text(text) => {
                let _switch = self.text_general(text);
            }
            _ => self.other_general(),
        }
        None
    }

    /// [`Simulator::observe`] for an end tag: [`Feedback::token`]'s paths.
    fn observe_end_tag(&mut self, tag: &EndTag<'_>) {
        let _switch = match self.path {
            TagPath::Foreign => self.foreign_end_tag_fast(tag),
            TagPath::Region => self.region_end_tag_fast(tag),
            TagPath::General if self.mode == Mode::Fast => self.end_tag_fast(tag),
            TagPath::General => self.end_tag_general(tag),
        };
    }

    /// [`Simulator::observe`] for a start tag: [`Feedback::token`]'s paths.
    fn observe_start_tag(&mut self, tag: &StartTag<'_>) {
        let left = match self.path {
            TagPath::Foreign => self.foreign_start_tag_fast(tag),
            TagPath::Region => self.region_start_tag_fast(tag),
            TagPath::General => {
                let _switch = if self.mode == Mode::Fast {
                    self.start_tag_fast(tag)
                } else {
                    self.start_tag_general(tag)
                };
                return;
            }
        };
        let _switch = match left {
            Left::Nothing => Switch::NONE,
            Left::Push(kind, name, flags) => {
                self.push_tag_frame(kind, name, flags, tag);
                Switch::NONE
            }
            Left::Rest(class) if self.path == TagPath::Foreign => {
                self.foreign_start_tag_rest(tag, class)
            }
            Left::Rest(class) => self.region_start_tag_rest(tag, class),
        };
    }

    /// The namespace of the element of `tag`, were it the next token: the current node's when
    /// the rules for foreign content take the tag and it does not break out, else (the
    /// insertion modes) SVG for `svg`, MathML for `math`, HTML for the rest.
    fn namespace_of(&self, tag: &StartTag<'_>) -> Namespace {
        // Only a foreign current node needs the tag's class (most pages never have one).
        if self.stack.last().is_some_and(Frame::is_foreign) {
            let (name, flags) = classify_tag(tag.src, tag.name);
            match self.foreign_rules_for(name) {
                Some(Kind::Svg) if !breaks_out(tag, name, flags) => return Namespace::Svg,
                Some(Kind::MathMl) if !breaks_out(tag, name, flags) => return Namespace::MathMl,
                _ => {}
            }
        }
        let raw = tag.raw_name();
        match raw.len() {
            3 if eq(raw, b"svg") => Namespace::Svg,
            4 if eq(raw, b"math") => Namespace::MathMl,
            _ => Namespace::Html,
        }
    }

    /// Whether character tokens go to the rules for parsing tokens in foreign content (which
    /// turn U+0000 into U+FFFD) rather than to the insertion modes (which drop it): the current
    /// node is an SVG or MathML element and neither kind of integration point.
    pub(crate) fn text_in_foreign_content(&self) -> bool {
        self.stack
            .last()
            .is_some_and(|top| top.is_foreign() && top.flags & (F_HTML_IP | F_TEXT_IP) == 0)
    }

    /// Inside the contents of an HTML `template` element.
    pub(crate) fn in_template(&self) -> bool {
        !self.templates.is_empty()
    }
}

/// Apply `switch`, the simulator's answer to a token read from `src`, to `lexer` if there is
/// anything to apply: the test inline, the work out of line (most tokens change nothing).
#[inline(always)]
fn apply(lexer: &mut Machine, switch: Switch, src: &Source<'_>) {
    if !switch.is_none() {
        apply_switch(lexer, switch, src);
    }
}

#[cold]
#[inline(never)]
fn apply_switch(lexer: &mut Machine, switch: Switch, src: &Source<'_>) {
    if let Some(kind) = switch.text_state() {
        lexer.switch_text_state_after(kind, Some(&src.window()));
    }
    if let Some(allowed) = switch.cdata() {
        lexer.set_cdata_allowed(allowed);
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hot_names_agree_with_the_table() {
        for name in [
            "xmp",
            "svg",
            "math",
            "style",
            "title",
            "table",
            "script",
            "iframe",
            "noembed",
            "textarea",
            "template",
            "noframes",
            "noscript",
            "plaintext",
        ] {
            let (id, flags) = classify(name.as_bytes(), name.len());
            let want = match text_state(flags, false) {
                Some(kind) => Hot::Text(kind),
                None if name == "noscript" => Hot::Noscript,
                None => {
                    assert!(matches!(
                        id,
                        Name::Svg | Name::Math | Name::Template | Name::Table
                    ));
                    Hot::Slow
                }
            };
            assert!(hot(name.as_bytes()) == want, "{name}");
            assert!(hot(name.to_uppercase().as_bytes()) == want, "{name}");
            // The per-token filter lets every one of them through.
            for spelled in [name.to_owned(), name.to_uppercase()] {
                let bytes = format!("<{spelled}>");
                let span = Span {
                    start: 101,
                    end: 101 + name.len(),
                };
                assert!(hot_candidate(span, bytes.as_bytes(), 100), "{spelled}");
            }
        }
        for other in [
            "a", "div", "span", "scripts", "titl", "svgs", "mat", "x", "",
        ] {
            assert!(hot(other.as_bytes()) == Hot::None, "{other}");
        }
        let table = Span { start: 2, end: 7 };
        assert!(table_candidate(table, b"</TaBle>", 0));
        assert!(!table_candidate(table, b"</tbody>", 0));
    }

    #[test]
    fn known_names_classify_as_themselves() {
        for known in KNOWN {
            let want = (known.name, known.flags);
            let len = known.spelling.len();
            let upper = known.spelling.to_ascii_uppercase();
            for spelled in [known.spelling, &upper] {
                assert!(classify(spelled, len) == want);
                let mut onwards = spelled.to_vec();
                onwards.extend_from_slice(b" x=\"y\">text");
                assert!(classify(&onwards, len) == want);
            }
            if known.name != Name::Other {
                assert_eq!(SPELLINGS[known.name as usize], known.spelling);
            }
        }
        for (i, spelling) in SPELLINGS.iter().enumerate().skip(1) {
            assert!(!spelling.is_empty(), "name {i} has no spelling");
        }
        for other in [
            &b""[..],
            b"svgx",
            b"sv",
            b"h7",
            b"h\x11",
            b"\x13vg",
            b"tablE ",
            b"annotation-xmll",
            b"annotation\x0dxml",
            b"foreignobject\0",
            b"svg\0",
            b"P\0",
        ] {
            assert!(
                classify(other, other.len()) == (Name::Other, 0),
                "{other:?}"
            );
            // With the window going on: the one-word way for the short ones.
            let mut onwards = other.to_vec();
            onwards.extend_from_slice(b">svg text");
            assert!(
                classify(&onwards, other.len()) == (Name::Other, 0),
                "{other:?} in a window"
            );
        }
    }

    #[test]
    fn words_are_the_bytes_zero_padded() {
        let bytes: Vec<u8> = (0xa1..=0xc0).collect();
        for len in 0..=16 {
            let mut padded = [0; 16];
            padded[..len].copy_from_slice(&bytes[..len]);
            let want = [
                u64::from_le_bytes(padded[..8].try_into().unwrap()),
                u64::from_le_bytes(padded[8..].try_into().unwrap()),
            ];
            // The name alone, and followed by more of the window.
            for end in [len, len + 1, len + 8, bytes.len()] {
                assert_eq!(
                    words(&bytes[..end], len),
                    Some(want),
                    "{len} of {end} bytes"
                );
            }
        }
        assert_eq!(words(&bytes, 17), None);
    }

    #[test]
    fn feedback_round_trips() {
        for kind in [
            TextKind::Data,
            TextKind::Rcdata,
            TextKind::Rawtext,
            TextKind::ScriptData,
            TextKind::Plaintext,
            TextKind::Cdata,
        ] {
            assert_eq!(Switch::text_state_to(kind).text_state(), Some(kind));
            assert_eq!(Switch::text_state_to(kind).cdata(), None);
        }
        assert!(Switch::NONE.is_none());
        assert_eq!(Switch(Switch::CDATA_CHANGE).cdata(), Some(false));
    }
}
