//! Bytes in any encoding: the HTML Standard's encoding sniffing, and streaming transcoding to the
//! UTF-8 the tokenizer reads (feature `encoding`, on by default).
//!
//! Data reaches the tokenizer in one of two ways:
//!
//! - **UTF-8** (by BOM, transport label, `<meta>` or default): the caller's bytes go to
//!   [`Tokenizer::feed`](crate::Tokenizer::feed) untouched, minus a BOM: no copy, no transcoding,
//!   only the tokenizer's own UTF-8 validation.
//! - **Anything else**: [encoding_rs](https://docs.rs/encoding_rs) decodes each chunk into a
//!   buffer the [`Transcoder`] owns, and that buffer is fed; spans then count bytes of the decoded
//!   UTF-8, and [`Transcoder::map_offsets`] maps them back to the original bytes on request.
//!
//! Which encoding: [`sniff`] runs the standard's *encoding sniffing algorithm*
//! (<https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm>): a BOM,
//! else the transport layer's label (say, the HTTP `Content-Type` charset), else the [`prescan()`]
//! of the first 1024 bytes for a `<meta>` declaration, else the caller's default (windows-1252 in
//! the standard's table for most locales). Labels resolve through the Encoding Standard's table
//! (encoding_rs's [`Encoding::for_label`]). When the encoding came from the prescan or the
//! default, it is only *tentative*: a `<meta>` the tokenizer meets later may declare another one,
//! and the [`Transcoder`] reports that as an [`EncodingChange`], as a browser does before it
//! reparses. [`decode_document`] is the one-call form for documents already in memory.
//!
//! The standard lets a user agent *autodetect* the encoding before it falls back to the default.
//! tagstream offers one conservative detector, opt-in so that [`sniff`] stays the standard's
//! algorithm: [`detect_utf8`], which takes bytes that are valid UTF-8 with some non-ASCII in them
//! for UTF-8 ([`Transcoder::detect_utf8`] applies it, as [`SniffSource::Detected`]).
//!
//! ```
//! use tagstream::encoding::{SniffSource, Transcoder};
//! use tagstream::{Options, Token};
//!
//! // "café" in windows-1252, arriving in two chunks: too short to sniff before the end.
//! let mut transcoder = Transcoder::new(Options::default());
//! let mut text = String::new();
//! let mut collect = |token: Token<'_>| {
//!     if let Token::Text(t) = token {
//!         text.push_str(t.text());
//!     }
//! };
//! for chunk in [&b"<p>caf"[..], b"\xE9</p>"] {
//!     transcoder.feed(chunk).for_each(&mut collect);
//! }
//! transcoder.finish().for_each(&mut collect);
//! assert_eq!(text, "café");
//! let sniffed = transcoder.sniffed().unwrap();
//! assert_eq!((sniffed.encoding.name(), sniffed.source), ("windows-1252", SniffSource::Default));
//! ```

mod offsets;
mod prescan;
mod tokenize;
mod transcoder;

use std::borrow::Cow;

pub use encoding_rs::Encoding;
pub use offsets::{MappedPieces, OffsetMap, mapped_pieces};
pub use prescan::prescan;
pub use tokenize::Tokenize;
pub use transcoder::{DecodedTokens, EncodingChange, Transcoder};

/// How many bytes the prescan reads, as the standard encourages, and how many a streaming
/// [`Transcoder`] waits for before it decides.
pub const PRESCAN_LEN: usize = 1024;

/// How sure the choice of encoding is (the standard's *confidence*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confidence {
    /// From a BOM or the transport layer (or after a `<meta>` confirmed or changed it): final.
    Certain,
    /// From the prescan or the default: a `<meta>` met while tokenizing may change it.
    Tentative,
}

/// Which step of the sniffing algorithm chose the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SniffSource {
    /// A byte order mark (UTF-8, UTF-16LE or UTF-16BE).
    Bom,
    /// The label the caller passed (from `Content-Type`, say).
    Transport,
    /// The prescan of the first 1024 bytes: a `<meta>` (or an XML declaration).
    Meta,
    /// None of the above, and the bytes looked like UTF-8 to [`detect_utf8`] (only when asked for,
    /// with [`Transcoder::detect_utf8`]); tentative, like the default it stands in for.
    Detected,
    /// None of the above: the caller's default.
    Default,
}

/// The result of [`sniff`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sniffed {
    pub encoding: &'static Encoding,
    pub confidence: Confidence,
    pub source: SniffSource,
    /// Length of the byte order mark at the start (0, 2 or 3); those bytes are not content.
    pub bom_len: usize,
}

/// The encoding sniffing algorithm of the HTML Standard, on the start of a document.
///
/// `bytes`: the start of the document (at least the first 1024 bytes if there are that many; more
/// are ignored). `transport_label`: the charset the transport layer gives, if any; a label the
/// Encoding Standard does not know is ignored, as the standard says. `default`: the encoding when
/// nothing else decides (the standard suggests windows-1252 for most locales).
///
/// ```
/// use tagstream::encoding::{sniff, Confidence, SniffSource};
/// use encoding_rs::{UTF_16LE, WINDOWS_1252};
///
/// let bom = sniff(b"\xFF\xFE<\0p\0>\0", Some("iso-8859-2"), WINDOWS_1252);
/// assert_eq!((bom.encoding, bom.confidence, bom.bom_len), (UTF_16LE, Confidence::Certain, 2));
///
/// let http = sniff(b"<meta charset=koi8-r>", Some(" Shift_JIS "), WINDOWS_1252);
/// assert_eq!((http.encoding.name(), http.source), ("Shift_JIS", SniffSource::Transport));
///
/// let meta = sniff(b"<meta charset=koi8-r>", Some("no-such-label"), WINDOWS_1252);
/// assert_eq!((meta.encoding.name(), meta.confidence), ("KOI8-R", Confidence::Tentative));
///
/// let fallback = sniff(b"<p>plain", None, WINDOWS_1252);
/// assert_eq!((fallback.encoding, fallback.source), (WINDOWS_1252, SniffSource::Default));
/// ```
pub fn sniff(bytes: &[u8], transport_label: Option<&str>, default: &'static Encoding) -> Sniffed {
    let transport = transport_label.and_then(|label| Encoding::for_label(label.as_bytes()));
    sniff_with(bytes, transport, default)
}

/// [`sniff`] with the transport label already resolved.
fn sniff_with(
    bytes: &[u8],
    transport: Option<&'static Encoding>,
    default: &'static Encoding,
) -> Sniffed {
    let decided = |encoding, confidence, source, bom_len| Sniffed {
        encoding,
        confidence,
        source,
        bom_len,
    };
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        return decided(encoding, Confidence::Certain, SniffSource::Bom, bom_len);
    }
    if let Some(encoding) = transport {
        return decided(encoding, Confidence::Certain, SniffSource::Transport, 0);
    }
    match prescan(&bytes[..bytes.len().min(PRESCAN_LEN)]) {
        Some(encoding) => decided(encoding, Confidence::Tentative, SniffSource::Meta, 0),
        None => decided(default, Confidence::Tentative, SniffSource::Default, 0),
    }
}

/// Which encoding an XML document is in (XML 1.0 §4.3.3 and Appendix F; RFC 7303 §3 for the
/// transport label): a BOM, else the transport layer's label, else the XML declaration's
/// `encoding` (also a UTF-16 `<?xml` without a BOM), else UTF-8. Always
/// [`Confidence::Certain`]: nothing later in an XML document can change it. A declaration read
/// in an ASCII-compatible encoding that names UTF-16 is read as UTF-8, as HTML's prescan does.
///
/// ```
/// use tagstream::encoding::{sniff_xml, SniffSource};
///
/// let declared = sniff_xml(b"<?xml version='1.0' encoding='Shift_JIS'?><a/>", None);
/// assert_eq!((declared.encoding.name(), declared.source), ("Shift_JIS", SniffSource::Meta));
///
/// let bom = sniff_xml(b"\xFF\xFE<\0a\0/\0>\0", None);
/// assert_eq!((bom.encoding.name(), bom.bom_len), ("UTF-16LE", 2));
///
/// let labelled = sniff_xml(b"<?xml version='1.0' encoding='koi8-r'?>", Some("windows-1251"));
/// assert_eq!(labelled.encoding.name(), "windows-1251");
///
/// assert_eq!(sniff_xml(b"<svg/>", None).encoding.name(), "UTF-8");
/// ```
pub fn sniff_xml(bytes: &[u8], transport_label: Option<&str>) -> Sniffed {
    let transport = transport_label.and_then(|label| Encoding::for_label(label.as_bytes()));
    sniff_xml_with(bytes, transport, encoding_rs::UTF_8)
}

/// [`sniff_xml`] with the transport label resolved, and `default` in place of UTF-8.
fn sniff_xml_with(
    bytes: &[u8],
    transport: Option<&'static Encoding>,
    default: &'static Encoding,
) -> Sniffed {
    let certain = |encoding, source, bom_len| Sniffed {
        encoding,
        confidence: Confidence::Certain,
        source,
        bom_len,
    };
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        return certain(encoding, SniffSource::Bom, bom_len);
    }
    if let Some(encoding) = transport {
        return certain(encoding, SniffSource::Transport, 0);
    }
    let prefix = &bytes[..bytes.len().min(PRESCAN_LEN)];
    match prescan::utf16_xml_declaration(prefix).or_else(|| prescan::xml_encoding(prefix)) {
        Some(encoding) => certain(encoding, SniffSource::Meta, 0),
        None => certain(default, SniffSource::Default, 0),
    }
}

/// Whether the first bytes of an XML document already decide [`sniff_xml`]: they can no longer
/// become a BOM or an XML declaration, or hold a whole declaration. (What a [`Transcoder`] for
/// XML5 waits for before it decodes, with at most [`PRESCAN_LEN`] bytes.)
///
/// ```
/// use tagstream::encoding::xml_sniff_decided;
/// assert!(xml_sniff_decided(b"<r"));
/// assert!(!xml_sniff_decided(b"<?xml version='1.0'"));
/// assert!(xml_sniff_decided(b"<?xml version='1.0'?>"));
/// ```
pub fn xml_sniff_decided(start: &[u8]) -> bool {
    const OPENINGS: [&[u8]; 6] = [
        b"\xEF\xBB\xBF",
        b"\xFE\xFF",
        b"\xFF\xFE",
        b"<?xml",
        b"<\0?\0x\0",
        b"\0<\0?\0x",
    ];
    let open = |opening: &[u8]| {
        let n = opening.len().min(start.len());
        start[..n] == opening[..n]
    };
    match OPENINGS.iter().position(|o| open(o)) {
        None => true,
        Some(3) => start.len() > 5 && start.contains(&b'>'),
        Some(i) => start.len() >= OPENINGS[i].len(),
    }
}

/// Whether `bytes` (the start of a document) look like UTF-8: valid UTF-8 with at least one
/// non-ASCII byte. A sequence cut short by the end of `bytes` counts as valid, since the window
/// may end inside a character (the [`Transcoder`], when it decides at the end of the document,
/// counts it as invalid).
///
/// This is the *autodetection* step the HTML Standard leaves to the user agent, between the
/// prescan and the default: conservative, because text in a legacy encoding is rarely valid UTF-8
/// once it has non-ASCII bytes, and ASCII alone says nothing (every ASCII-compatible default
/// decodes it the same). [`sniff`] does not call it; [`Transcoder::detect_utf8`] does, and a
/// caller with the whole document can do the same:
///
/// ```
/// use tagstream::encoding::{detect_utf8, sniff, SniffSource};
/// use encoding_rs::{UTF_8, WINDOWS_1252};
///
/// assert!(detect_utf8("<p>café".as_bytes()));
/// assert!(detect_utf8(b"<p>caf\xC3")); // cut inside "é"
/// assert!(!detect_utf8(b"<p>caf\xE9</p>")); // windows-1252: invalid UTF-8
/// assert!(!detect_utf8(b"<p>cafe")); // ASCII: nothing to go by
///
/// let page = "<p>naïve".as_bytes();
/// let sniffed = sniff(page, None, WINDOWS_1252);
/// let encoding = match sniffed.source {
///     SniffSource::Default if detect_utf8(page) => UTF_8,
///     _ => sniffed.encoding,
/// };
/// assert_eq!(encoding, UTF_8);
/// ```
pub fn detect_utf8(bytes: &[u8]) -> bool {
    looks_like_utf8(bytes, false)
}

/// [`detect_utf8`]; when `whole` (`bytes` is the whole document), a sequence cut by its end is
/// invalid.
fn looks_like_utf8(bytes: &[u8], whole: bool) -> bool {
    match simdutf8::compat::from_utf8(bytes) {
        Ok(text) => !text.is_ascii(),
        // No error length: the bytes end inside a sequence, whose lead byte is not ASCII.
        Err(e) => !whole && e.error_len().is_none(),
    }
}

/// A whole document in memory, sniffed and decoded to UTF-8 (without its BOM) in one call, for
/// [`Tokenizer::tokenize`](crate::Tokenizer::tokenize).
///
/// Borrowed when the document is UTF-8 (its bytes as they are: the tokenizer deals with invalid
/// sequences) or when it is ASCII in an ASCII-compatible encoding. This does not tokenize, so it
/// cannot see a `<meta>` beyond the first 1024 bytes; the [`Transcoder`] reports those.
///
/// ```
/// use std::borrow::Cow;
/// use tagstream::encoding::decode_document;
/// use encoding_rs::WINDOWS_1252;
///
/// let (html, sniffed) = decode_document(b"<p>\x82\xA0</p>", Some("Shift_JIS"), WINDOWS_1252);
/// assert_eq!((&*html, sniffed.encoding.name()), ("<p>あ</p>".as_bytes(), "Shift_JIS"));
///
/// let (html, _) = decode_document(b"\xEF\xBB\xBF<p>", None, WINDOWS_1252);
/// assert!(matches!(html, Cow::Borrowed(b"<p>")));
/// ```
pub fn decode_document<'a>(
    bytes: &'a [u8],
    transport_label: Option<&str>,
    default: &'static Encoding,
) -> (Cow<'a, [u8]>, Sniffed) {
    let sniffed = sniff(bytes, transport_label, default);
    let body = &bytes[sniffed.bom_len..];
    if sniffed.encoding == encoding_rs::UTF_8 {
        return (Cow::Borrowed(body), sniffed);
    }
    let decoded = match sniffed.encoding.decode_without_bom_handling(body).0 {
        Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
        Cow::Owned(text) => Cow::Owned(text.into_bytes()),
    };
    (decoded, sniffed)
}
