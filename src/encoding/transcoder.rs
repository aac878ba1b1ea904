//! The streaming layer between bytes in any encoding and the [`Tokenizer`]: it holds back the
//! first bytes until it can sniff (1024 bytes, a BOM, a transport label or the end of input),
//! then passes UTF-8 through and decodes everything else chunk by chunk, and watches the
//! tokenizer's `<meta>` start tags while the encoding is tentative.

use std::ops::{Deref, DerefMut};

use encoding_rs::{CoderResult, Decoder, Encoding, UTF_8, UTF_16BE, UTF_16LE};

use super::offsets::{OffsetMap, Offsets, mapped_pieces};
use super::prescan::{declared_by_meta, extract_from_content};
use super::tokenize::Tokenize;
use super::{Confidence, PRESCAN_LEN, SniffSource, Sniffed, looks_like_utf8};
use crate::Tokenizer;
use crate::options::Options;
use crate::span::Span;
use crate::token::{StartTag, Token};

/// A `<meta>` declared another encoding while the current one was tentative: the standard's
/// "change the encoding", which makes a browser start over with `to` (with confidence certain).
///
/// The [`Transcoder`] goes on decoding with `from`, so the tokens after the event are still those
/// of the old encoding; a caller that wants the browser's result starts again with
/// [`Transcoder::known_encoding`]`(to)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodingChange {
    /// The encoding the document was being decoded with.
    pub from: &'static Encoding,
    /// The encoding the `<meta>` declares (UTF-16 read as UTF-8, x-user-defined as windows-1252).
    pub to: &'static Encoding,
    /// The `<meta>` start tag, in decoded offsets.
    pub span: Span,
    /// The `<meta>` start tag in the original bytes, when offsets are known there (see
    /// [`DecodedTokens::original_span`]).
    pub original_span: Option<Span>,
}

/// The encoding in use, and how sure it is; while it is tentative, `<meta>` tags may change it.
struct Watch {
    sniffed: Option<Sniffed>,
    confidence: Confidence,
    change: Option<EncodingChange>,
}

impl Watch {
    /// The standard's rules for a `<meta>` start tag in the tree builder's "in head" mode (also
    /// reached from "in body"), then "change the encoding"
    /// (<https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing>).
    fn meta(&mut self, tag: &StartTag<'_>, offsets: &Offsets) -> Option<EncodingChange> {
        let current = self.sniffed?.encoding;
        let declared = declared_encoding(tag)?;
        self.confidence = Confidence::Certain;
        if current == UTF_16BE || current == UTF_16LE {
            return None;
        }
        let to = declared_by_meta(declared);
        if to == current {
            return None;
        }
        let change = EncodingChange {
            from: current,
            to,
            span: tag.span(),
            original_span: original_span(offsets, tag.span()),
        };
        self.change = Some(change);
        Some(change)
    }
}

/// The encoding a `<meta>` declares: its `charset`, else an `http-equiv="Content-Type"` with a
/// `content` that names one.
fn declared_encoding(tag: &StartTag<'_>) -> Option<&'static Encoding> {
    let from_charset = tag
        .attribute("charset")
        .and_then(|a| Encoding::for_label(a.value().as_bytes()));
    from_charset.or_else(|| {
        let pragma = tag.attribute("http-equiv")?;
        if !pragma.value().eq_ignore_ascii_case("content-type") {
            return None;
        }
        extract_from_content(tag.attribute("content")?.value().as_bytes())
    })
}

/// How the next chunk reaches the tokenizer.
enum Route {
    /// Still sniffing: nothing to feed yet.
    Held,
    /// UTF-8: the chunk itself, from this offset (past a BOM).
    Chunk(usize),
    /// The decoded (or, once, the held-back plus new) bytes in `Transcoder::out`.
    Buffer,
}

/// A growable output buffer; `bytes[..used]` is this feed's.
#[derive(Default)]
struct Output {
    bytes: Vec<u8>,
    used: usize,
}

impl Output {
    /// Room for `room` more bytes after the used ones.
    fn spare(&mut self, room: usize) -> &mut [u8] {
        let needed = self.used + room.max(16);
        if self.bytes.len() < needed {
            self.bytes.resize(needed, 0);
        }
        &mut self.bytes[self.used..]
    }
}

/// A [`Tokenizer`] for bytes in any encoding, fed in chunks: sniffs, then passes UTF-8 through
/// and decodes everything else with encoding_rs; reports a `<meta>` that changes a tentative
/// encoding ([`EncodingChange`]).
///
/// Tokens borrow the decoded bytes (or, for UTF-8, the chunk) until the next feed, exactly as
/// with [`Tokenizer::feed`]; their spans count bytes of the UTF-8 the tokenizer read, which
/// [`DecodedTokens::original_span`] maps back to the input when [`map_offsets`] is on (always, for
/// UTF-8). Until the encoding is decided (the first 1024 bytes, unless a BOM or a transport
/// encoding decides earlier), the bytes are held back and feeds yield nothing; they are copied once
/// into the first buffer fed.
///
/// ```
/// use tagstream::encoding::{Confidence, Transcoder};
/// use tagstream::{Options, Token};
///
/// // Shift_JIS from the HTTP header: "<p title=…>日本</p>", split inside a character.
/// let bytes = b"<p title=\x93\xFA>\x93\xFA\x96\x7B</p>";
/// let mut transcoder = Transcoder::new(Options::default())
///     .transport_label("shift_jis")
///     .map_offsets(true);
/// let mut seen = Vec::new();
/// for chunk in [&bytes[..14], &bytes[14..]] {
///     let mut tokens = transcoder.feed(chunk);
///     while let Some(token) = tokens.next() {
///         if let Token::Text(text) = &token {
///             let original = tokens.original_span(text.span()).unwrap();
///             seen.push((text.text().to_owned(), original.start, original.end));
///         }
///     }
/// }
/// transcoder.finish().for_each(drop);
/// assert_eq!(seen, [("日".to_owned(), 12, 14), ("本".to_owned(), 14, 16)]);
/// assert_eq!(transcoder.sniffed().unwrap().confidence, Confidence::Certain);
/// ```
///
/// [`map_offsets`]: Transcoder::map_offsets
pub struct Transcoder<T: Tokenize = Tokenizer> {
    tokenizer: T,
    transport: Option<&'static Encoding>,
    default: &'static Encoding,
    /// Try [`detect_utf8`](super::detect_utf8) before falling back to `default`.
    detect_utf8: bool,
    map_offsets: bool,
    /// Bytes held back until the encoding is decided.
    head: Vec<u8>,
    /// BOM bytes still to drop from the input.
    skip: usize,
    /// `None` while sniffing or for UTF-8.
    decoder: Option<Decoder>,
    /// The last byte given to the decoder was ASCII (offset mapping decodes ASCII runs at once).
    after_ascii: bool,
    /// The decoder has been given bytes (a multi-byte decoder may then hold part of a character).
    decoder_fed: bool,
    out: Output,
    offsets: Offsets,
    watch: Watch,
    /// `finish` was called: the decoder is done, later feeds only resume a pause.
    finished: bool,
}

impl Transcoder {
    /// For HTML: sniffs with no transport label, no UTF-8 detection and windows-1252 as the
    /// default; see the builder methods.
    pub fn new(options: Options) -> Transcoder {
        Transcoder::for_tokenizer(options)
    }
}

impl Transcoder<crate::xml5::Tokenizer> {
    /// For XML5 ([`crate::xml5::Tokenizer`]): a BOM, the transport label, else the XML
    /// declaration's `encoding` decide ([`sniff_xml`](super::sniff_xml)), else UTF-8; all
    /// certain, so no encoding change ever comes.
    ///
    /// ```
    /// use tagstream::encoding::{SniffSource, Transcoder};
    /// use tagstream::{Options, Token};
    ///
    /// let doc = b"<?xml version='1.0' encoding='windows-1252'?><p>caf\xE9</p>";
    /// let mut transcoder = Transcoder::xml5(Options::default());
    /// let text: String = transcoder
    ///     .tokenize(doc)
    ///     .filter_map(|token| match token {
    ///         Token::Text(t) => Some(t.text().to_owned()),
    ///         _ => None,
    ///     })
    ///     .collect();
    /// assert_eq!(text, "café");
    /// assert_eq!(transcoder.sniffed().unwrap().source, SniffSource::Meta);
    /// ```
    pub fn xml5(options: Options) -> Transcoder<crate::xml5::Tokenizer> {
        Transcoder::for_tokenizer(options)
    }
}

impl<T: Tokenize> Transcoder<T> {
    /// For the dialect of `T`, with its default encoding (windows-1252 for HTML, UTF-8 for XML).
    pub fn for_tokenizer(options: Options) -> Transcoder<T> {
        Transcoder {
            // The BOM is the sniffer's: what the tokenizer reads is decoded text.
            tokenizer: T::with_options(options.strip_bom(false)),
            transport: None,
            default: T::DEFAULT_ENCODING,
            detect_utf8: false,
            map_offsets: false,
            head: Vec::new(),
            skip: 0,
            decoder: None,
            after_ascii: true,
            decoder_fed: false,
            out: Output::default(),
            offsets: Offsets::Off,
            watch: Watch {
                sniffed: None,
                confidence: Confidence::Tentative,
                change: None,
            },
            finished: false,
        }
    }

    /// The transport layer's charset label (say, from `Content-Type`): when the Encoding Standard
    /// knows it, it decides with confidence certain (after a BOM); otherwise it is ignored.
    pub fn transport_label(self, label: &str) -> Self {
        let encoding = Encoding::for_label(label.as_bytes());
        Self {
            transport: encoding.or(self.transport),
            ..self
        }
    }

    /// An encoding known for certain, as from the transport layer (a BOM still wins): for example
    /// the [`EncodingChange::to`] of a first pass.
    pub fn known_encoding(self, encoding: &'static Encoding) -> Self {
        Self {
            transport: Some(encoding),
            ..self
        }
    }

    /// The encoding when neither BOM, transport nor prescan decides (default: windows-1252).
    pub fn default_encoding(self, encoding: &'static Encoding) -> Self {
        Self {
            default: encoding,
            ..self
        }
    }

    /// Before falling back to the default encoding, take the document for UTF-8 when its bytes
    /// available at that point (the held-back ones and the whole chunk that let the encoding be
    /// decided: at least the first 1024 bytes, or the whole document with
    /// [`feed_last`](Transcoder::feed_last) or [`tokenize`](Transcoder::tokenize)) are valid
    /// UTF-8 with some non-ASCII ([`detect_utf8`](super::detect_utf8); a sequence cut by the end
    /// of those bytes counts as valid unless they are the whole document).
    /// Off by default, which is the standard's algorithm without the autodetection it allows; the
    /// result is tentative, reported as [`SniffSource::Detected`].
    ///
    /// ```
    /// use tagstream::encoding::{SniffSource, Transcoder};
    /// use tagstream::{Options, Token};
    ///
    /// let mut transcoder = Transcoder::new(Options::default()).detect_utf8(true);
    /// let text: String = transcoder
    ///     .tokenize("<p>naïve café".as_bytes())
    ///     .filter_map(|token| match token {
    ///         Token::Text(text) => Some(text.text().to_owned()),
    ///         _ => None,
    ///     })
    ///     .collect();
    /// assert_eq!(text, "naïve café");
    /// assert_eq!(transcoder.sniffed().unwrap().source, SniffSource::Detected);
    /// ```
    pub fn detect_utf8(self, on: bool) -> Self {
        Self {
            detect_utf8: on,
            ..self
        }
    }

    /// Record how decoded offsets map back to the original bytes (off by default: it costs a
    /// decoder call per non-ASCII byte). UTF-8 input maps for free either way.
    pub fn map_offsets(self, on: bool) -> Self {
        Self {
            map_offsets: on,
            ..self
        }
    }

    /// Start over with a new document, keeping the configuration and allocations.
    pub fn reset(&mut self) {
        self.tokenizer.reset();
        self.head.clear();
        self.skip = 0;
        self.decoder = None;
        self.after_ascii = true;
        self.decoder_fed = false;
        self.offsets = Offsets::Off;
        self.watch = Watch {
            sniffed: None,
            confidence: Confidence::Tentative,
            change: None,
        };
        self.finished = false;
    }

    /// A whole document at once (as [`Tokenizer::tokenize`]): starts over, decides the encoding
    /// from the whole document, and yields all its tokens. The offset map is kept until the next
    /// call, so [`Transcoder::original_span`] maps every span of the document, also after the
    /// iterator is gone.
    ///
    /// ```
    /// use tagstream::encoding::Transcoder;
    /// use tagstream::{Options, Token};
    ///
    /// // windows-1252 from the <meta>: "é" is one byte in the input, two in the tokens' UTF-8.
    /// let html = b"<meta charset=windows-1252><p>\xE9t\xE9</p><a href=x>";
    /// let mut transcoder = Transcoder::new(Options::default()).map_offsets(true);
    /// let spans: Vec<_> = transcoder.tokenize(html).map(|token| token.span()).collect();
    /// let link = transcoder.original_span(spans[4]).unwrap();
    /// assert_eq!(&html[link.start..link.end], b"<a href=x>");
    /// ```
    pub fn tokenize<'t>(&'t mut self, document: &'t [u8]) -> DecodedTokens<'t, T> {
        self.reset();
        self.feed_last(document)
    }

    /// Feed the last chunk and end the document in one go ([`feed`](Transcoder::feed) then
    /// [`finish`](Transcoder::finish) as one iterator), so that an encoding still open is decided
    /// knowing that the document ends with `chunk`.
    pub fn feed_last<'t>(&'t mut self, chunk: &'t [u8]) -> DecodedTokens<'t, T> {
        self.start(chunk, true)
    }

    /// Feed the next chunk of the document; the iterator yields the tokens it completes.
    pub fn feed<'t>(&'t mut self, chunk: &'t [u8]) -> DecodedTokens<'t, T> {
        self.start(chunk, false)
    }

    /// The document is over: decides the encoding if that is still open, and yields the tokens
    /// still pending.
    pub fn finish(&mut self) -> DecodedTokens<'_, T> {
        self.start(&[], true)
    }

    /// What the sniffing decided (`None` until it has: the first 1024 bytes, a BOM or a transport
    /// encoding, or the end of input).
    pub fn sniffed(&self) -> Option<Sniffed> {
        self.watch.sniffed.map(|sniffed| Sniffed {
            confidence: self.watch.confidence,
            ..sniffed
        })
    }

    /// The `<meta>` that changed the tentative encoding, if one did.
    pub fn encoding_change(&self) -> Option<EncodingChange> {
        self.watch.change
    }

    /// The tokenizer (for its errors and state between feeds).
    pub fn tokenizer(&self) -> &T {
        &self.tokenizer
    }

    /// A decoded span in original byte offsets; see [`DecodedTokens::original_span`].
    pub fn original_span(&self, span: Span) -> Option<Span> {
        original_span(&self.offsets, span)
    }

    fn start<'t>(&'t mut self, chunk: &'t [u8], eof: bool) -> DecodedTokens<'t, T> {
        if let Offsets::Runs(runs) = &mut self.offsets {
            runs.forget_before(self.tokenizer.retained_from());
        }
        let bytes: &'t [u8] = match self.route(chunk, eof) {
            Route::Held => &[],
            Route::Chunk(from) => &chunk[from..],
            Route::Buffer => &self.out.bytes[..self.out.used],
        };
        let tokens = if eof {
            self.tokenizer.feed_last(bytes)
        } else {
            self.tokenizer.feed(bytes)
        };
        DecodedTokens {
            tokens,
            watch: &mut self.watch,
            offsets: &self.offsets,
            change: None,
            input: chunk,
        }
    }

    /// Decide the encoding when possible, then decode or pass through.
    fn route(&mut self, chunk: &[u8], eof: bool) -> Route {
        if self.finished {
            return Route::Held;
        }
        self.finished = eof;
        if self.watch.sniffed.is_none() {
            if !eof && !self.can_decide(chunk) {
                self.head.extend_from_slice(chunk);
                return Route::Held;
            }
            self.decide(chunk, eof);
        }
        if self.decoder.is_some() {
            if self.passes_through(chunk) {
                self.pass_through(chunk);
                return Route::Chunk(0);
            }
            self.decode(chunk, eof);
            return Route::Buffer;
        }
        let from_chunk = self.skip.min(chunk.len());
        self.skip -= from_chunk;
        if self.head.is_empty() {
            return Route::Chunk(from_chunk);
        }
        // The held-back bytes and this chunk, once, in one buffer.
        self.out.used = 0;
        let total = self.head.len() + chunk.len() - from_chunk;
        self.out.spare(total)[..self.head.len()].copy_from_slice(&self.head);
        self.out.bytes[self.head.len()..total].copy_from_slice(&chunk[from_chunk..]);
        self.out.used = total;
        self.head.clear();
        Route::Buffer
    }

    /// Enough is known to sniff: 1024 bytes, a BOM, or a transport encoding and bytes enough to
    /// rule a BOM out.
    fn can_decide(&self, chunk: &[u8]) -> bool {
        if self.head.len() + chunk.len() >= PRESCAN_LEN {
            return true;
        }
        let start = self.first_bytes(chunk, PRESCAN_LEN);
        Encoding::for_bom(&start).is_some()
            || (self.transport.is_some() && !may_start_bom(&start[..start.len().min(3)]))
            || T::decided_early(&start)
    }

    /// The first `n` bytes of the held-back bytes followed by `chunk`.
    fn first_bytes(&self, chunk: &[u8], n: usize) -> Vec<u8> {
        self.head.iter().chain(chunk).take(n).copied().collect()
    }

    /// Sniff over the first 1024 bytes of the held-back bytes and `chunk` (the last one at `eof`).
    fn decide(&mut self, chunk: &[u8], eof: bool) {
        let prefix = if self.head.is_empty() {
            std::borrow::Cow::Borrowed(&chunk[..chunk.len().min(PRESCAN_LEN)])
        } else {
            std::borrow::Cow::Owned(self.first_bytes(chunk, PRESCAN_LEN))
        };
        let mut sniffed = T::sniff(&prefix, self.transport, self.default);
        if self.detect_utf8
            && sniffed.source == SniffSource::Default
            && self.looks_like_utf8(chunk, eof)
        {
            sniffed.encoding = UTF_8;
            sniffed.source = SniffSource::Detected;
        }
        self.watch.sniffed = Some(sniffed);
        self.watch.confidence = sniffed.confidence;
        let from_head = sniffed.bom_len.min(self.head.len());
        self.head.drain(..from_head);
        self.skip = sniffed.bom_len - from_head;
        if sniffed.encoding == UTF_8 {
            self.offsets = Offsets::Shift(sniffed.bom_len);
        } else {
            self.decoder = Some(sniffed.encoding.new_decoder_without_bom_handling());
            if self.map_offsets {
                self.offsets = Offsets::Runs(OffsetMap::new(sniffed.bom_len));
            }
        }
    }

    /// UTF-8 detection over the held-back bytes and all of `chunk` (the document's end at `eof`).
    fn looks_like_utf8(&self, chunk: &[u8], eof: bool) -> bool {
        if self.head.is_empty() {
            return looks_like_utf8(chunk, eof);
        }
        let mut window = Vec::with_capacity(self.head.len() + chunk.len());
        window.extend_from_slice(&self.head);
        window.extend_from_slice(chunk);
        looks_like_utf8(&window, eof)
    }

    /// Whether `chunk` can go to the tokenizer as it is, without a decoder call: it is all ASCII,
    /// the encoding reads ASCII as ASCII, nothing is held back, and the decoder holds no part of a
    /// character (it is single-byte, or has not been given a byte yet). A legacy-encoded page
    /// that is plain ASCII, common in crawls, is then read in place, as UTF-8 is.
    fn passes_through(&self, chunk: &[u8]) -> bool {
        let Some(encoding) = self.decoder.as_ref().map(Decoder::encoding) else {
            return false;
        };
        self.head.is_empty()
            && self.skip == 0
            && encoding.is_ascii_compatible()
            && (encoding.is_single_byte() || !self.decoder_fed)
            && Encoding::ascii_valid_up_to(chunk) == chunk.len()
    }

    /// `chunk` passes through (see [`passes_through`](Self::passes_through)): its bytes are their
    /// own decoding.
    fn pass_through(&mut self, chunk: &[u8]) {
        if let Offsets::Runs(runs) = &mut self.offsets {
            runs.record_ascii(chunk.len());
        }
        if !chunk.is_empty() {
            self.after_ascii = true;
        }
    }

    /// Decode the held-back bytes and `chunk` into `out` (ending the decoder at `eof`).
    fn decode(&mut self, chunk: &[u8], eof: bool) {
        self.out.used = 0;
        let head = std::mem::take(&mut self.head);
        self.decode_part(&head);
        self.head = head;
        self.head.clear();
        let from_chunk = self.skip.min(chunk.len());
        self.skip -= from_chunk;
        self.decode_part(&chunk[from_chunk..]);
        if eof {
            let before = self.out.used;
            self.decode_call(&[], true);
            if let Offsets::Runs(runs) = &mut self.offsets {
                runs.record(&[], &self.out.bytes[before..self.out.used]);
            }
        }
    }

    fn decode_part(&mut self, bytes: &[u8]) {
        if matches!(self.offsets, Offsets::Runs(_)) {
            self.decode_mapped(bytes);
        } else {
            self.decode_call(bytes, false);
        }
    }

    /// Decode piece by piece ([`mapped_pieces`]), recording each piece's widths.
    fn decode_mapped(&mut self, bytes: &[u8]) {
        let ascii_compatible = self
            .decoder
            .as_ref()
            .is_some_and(|d| d.encoding().is_ascii_compatible());
        let mut pieces = mapped_pieces(bytes, ascii_compatible, self.after_ascii);
        for piece in pieces.by_ref() {
            let before = self.out.used;
            self.decode_call(piece, false);
            if let Offsets::Runs(runs) = &mut self.offsets {
                runs.record(piece, &self.out.bytes[before..self.out.used]);
            }
        }
        self.after_ascii = pieces.after_ascii();
    }

    /// One decoder call over all of `bytes` (growing `out` as needed).
    fn decode_call(&mut self, bytes: &[u8], last: bool) {
        let Some(decoder) = self.decoder.as_mut() else {
            return;
        };
        self.decoder_fed |= !bytes.is_empty();
        let mut read = 0;
        loop {
            let rest = &bytes[read..];
            let room = decoder
                .max_utf8_buffer_length(rest.len())
                .unwrap_or(rest.len());
            let (result, r, w, _) = decoder.decode_to_utf8(rest, self.out.spare(room), last);
            read += r;
            self.out.used += w;
            if result == CoderResult::InputEmpty {
                return;
            }
        }
    }
}

/// Whether `start` (at most 3 bytes) may be the beginning of a BOM still.
fn may_start_bom(start: &[u8]) -> bool {
    start.len() < 3
        && [&b"\xEF\xBB\xBF"[..], b"\xFE\xFF", b"\xFF\xFE"]
            .iter()
            .any(|bom| bom.starts_with(start))
}

/// A decoded span in original byte offsets, when they are known.
fn original_span(offsets: &Offsets, span: Span) -> Option<Span> {
    Some(Span {
        start: offsets.original(span.start)?,
        end: offsets.original(span.end)?,
    })
}

/// The tokens of one fed chunk: the tokenizer's [`Tokens`](crate::Tokens) (reachable through `Deref`, for errors, positions
/// and tree-builder feedback) that also watches `<meta>` start tags and maps spans back to the
/// original bytes.
pub struct DecodedTokens<'t, T: Tokenize + 't = Tokenizer> {
    tokens: T::Tokens<'t>,
    watch: &'t mut Watch,
    offsets: &'t Offsets,
    change: Option<EncodingChange>,
    /// The chunk fed, as it came (what a rewriter writes back for the tokens it passes).
    input: &'t [u8],
}

impl<'t, T: Tokenize> DecodedTokens<'t, T> {
    /// The encoding the tokens are decoded from (`None` before sniffing has decided, which
    /// no token comes before).
    pub fn encoding(&self) -> Option<&'static Encoding> {
        self.watch.sniffed.map(|sniffed| sniffed.encoding)
    }

    /// The encoding change the token just handed out caused, if it did (a `<meta>` declaring
    /// another encoding while the current one was tentative).
    pub fn encoding_change(&self) -> Option<EncodingChange> {
        self.change
    }

    /// `span` (decoded offsets, as tokens report them) in offsets of the original input: always
    /// for UTF-8, and with [`Transcoder::map_offsets`] for other encodings. `None` otherwise, and
    /// for offsets before what the tokenizer still holds.
    pub fn original_span(&self, span: Span) -> Option<Span> {
        original_span(self.offsets, span)
    }

    /// The chunk this feed was given, as it came.
    pub(crate) fn input(&self) -> &'t [u8] {
        self.input
    }

    /// A decoded offset in offsets of the original input (see [`DecodedTokens::original_span`]).
    pub(crate) fn original_offset(&self, offset: usize) -> Option<usize> {
        self.offsets.original(offset)
    }
}

impl<'t, T: Tokenize> Iterator for DecodedTokens<'t, T> {
    type Item = Token<'t>;

    #[inline]
    fn next(&mut self) -> Option<Token<'t>> {
        // The token goes back as it came (no unwrapping and rewrapping: no copy).
        let next = self.tokens.next();
        self.change = None;
        if self.watch.confidence == Confidence::Tentative
            && let Some(Token::StartTag(tag)) = &next
            && tag.raw_name().eq_ignore_ascii_case(b"meta")
        {
            self.change = self.watch.meta(tag, self.offsets);
        }
        next
    }
}

impl<'t, T: Tokenize> Deref for DecodedTokens<'t, T> {
    type Target = T::Tokens<'t>;

    fn deref(&self) -> &T::Tokens<'t> {
        &self.tokens
    }
}

impl<'t, T: Tokenize> DerefMut for DecodedTokens<'t, T> {
    fn deref_mut(&mut self) -> &mut T::Tokens<'t> {
        &mut self.tokens
    }
}
