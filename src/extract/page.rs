//! One page from its bytes to its links or text, its encoding decided as a browser decides it:
//! what the CLI's `links` and `text` do for each document they read, and what the Python
//! bindings call per record (features `extract` and `encoding`).
//!
//! The bytes go through a [`Transcoder`] set up by [`Sniffing`] (BOM, transport label, `<meta>`
//! prescan, UTF-8 detection, default), and its tokens into a [`Page`]: a [`LinkPage`] or a
//! [`TextExtractor`]. When a `<meta>` later in the document declares another encoding than the
//! tentative one, [`read`] drops the page and reads the document again, once, in the declared
//! encoding, as a browser reparses. [`links`] and [`text`] do all of it for a document in memory.
//!
//! ```
//! use tagstream::extract::page::{self, Sniffing};
//! use tagstream::extract::{TextOptions, Url};
//!
//! // windows-1252, declared late: the first pass read it as UTF-8 would not do.
//! let html = b"<p>caf\xE9</p><meta charset=windows-1252><a href='?q=\xE9'>";
//! let page_url = Url::parse("https://example.com/").unwrap();
//! let found = page::links(html, Some(&page_url), false, &Sniffing::new());
//! assert_eq!(found.encoding.name(), "windows-1252");
//! assert_eq!(found.links[0].resolved.as_ref().unwrap().as_str(), "https://example.com/?q=%E9");
//! assert_eq!(found.spans[0].map(|s| &html[s.range()]), Some(&b"?q=\xE9"[..]));
//! let text = page::text(html, TextOptions::new(), &Sniffing::new());
//! assert_eq!(text.page.text, "café");
//! ```

use crate::encoding::{DecodedTokens, Encoding, EncodingChange, Transcoder};
use crate::{Options, Span, Token};

use super::{Link, LinkExtractor, PageText, TextExtractor, TextOptions, Url};

/// How a page's encoding is decided, besides a byte order mark (which always wins): the CLI's
/// `--encoding` and `--default-encoding`, and a WARC record's HTTP charset.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sniffing<'a> {
    /// The transport layer's charset label (an HTTP `Content-Type` charset): certain when the
    /// Encoding Standard knows the label, ignored otherwise.
    pub transport_label: Option<&'a str>,
    /// An encoding known for certain; wins over the transport label.
    pub known: Option<&'static Encoding>,
    /// The encoding when nothing else decides; `None`: UTF-8 when the bytes are valid UTF-8 with
    /// some non-ASCII in them, else windows-1252.
    pub default: Option<&'static Encoding>,
}

impl<'a> Sniffing<'a> {
    /// The HTML Standard's sniffing with UTF-8 detection before the windows-1252 default.
    pub fn new() -> Sniffing<'a> {
        Sniffing::default()
    }

    /// A transcoder for one page that sniffs this way, spans mapped back to the input's bytes
    /// when `map_offsets` (see [`Transcoder::map_offsets`]).
    pub fn transcoder(&self, options: Options, map_offsets: bool) -> Transcoder {
        let mut transcoder = Transcoder::new(options).map_offsets(map_offsets);
        transcoder = match self.default {
            None => transcoder.detect_utf8(true),
            Some(encoding) => transcoder.default_encoding(encoding),
        };
        if let Some(label) = self.transport_label {
            transcoder = transcoder.transport_label(label);
        }
        match self.known {
            Some(encoding) => transcoder.known_encoding(encoding),
            None => transcoder,
        }
    }
}

/// What is built from a page's tokens.
pub trait Page {
    /// Whether it maps spans back to the input's bytes (the transcoder then records how; that
    /// costs a decoder call per non-ASCII byte of a decoded document).
    const MAPS_SPANS: bool = false;

    /// Take the next token. `tokens` maps its spans back to the input's bytes
    /// ([`DecodedTokens::original_span`], with [`Page::MAPS_SPANS`]): now, as a stream forgets
    /// the map of what its tokenizer no longer holds at every feed.
    fn push(&mut self, token: &Token<'_>, tokens: &DecodedTokens<'_>);

    /// The tokens of one chunk of a stream are over: a text token may go on in the next one.
    fn seam(&mut self) {}
}

impl Page for TextExtractor {
    fn push(&mut self, token: &Token<'_>, _: &DecodedTokens<'_>) {
        TextExtractor::push(self, token);
    }
}

/// The links of one page, with their spans in the page's bytes as read: a [`LinkExtractor`]
/// told the page's encoding (for the queries of its links) once it is sniffed.
#[derive(Debug)]
pub struct LinkPage {
    extractor: LinkExtractor,
    /// Streaming: the span of every link found, in order, mapped back to the input's bytes as
    /// soon as it is found ([`LinkExtractor::just_found`]), as a stream forgets the map of what
    /// its tokenizer let go of (the extractor hands the links out only at the end: their base
    /// URL may come later). `None` for a page held whole, whose map is kept to the end.
    spans: Option<Vec<Option<Span>>>,
}

impl LinkPage {
    /// The links of the page at `page_url`, read whole or, when `streamed`, chunk by chunk.
    pub fn new(page_url: Option<Url>, streamed: bool) -> LinkPage {
        LinkPage {
            extractor: LinkExtractor::new(page_url),
            spans: streamed.then(Vec::new),
        }
    }

    /// The end of the page read by `transcoder`: its links, and the span of each in the page's
    /// bytes as read (`None` where the map does not reach).
    pub fn finish(self, transcoder: &Transcoder) -> (Vec<Link>, Vec<Option<Span>>) {
        let links = self.extractor.finish();
        let spans = self.spans.unwrap_or_else(|| {
            let map = |link: &Link| transcoder.original_span(link.span);
            links.iter().map(map).collect()
        });
        (links, spans)
    }
}

impl Page for LinkPage {
    const MAPS_SPANS: bool = true;

    fn push(&mut self, token: &Token<'_>, tokens: &DecodedTokens<'_>) {
        if let (Token::StartTag(_), Some(encoding)) = (token, tokens.encoding()) {
            self.extractor.set_encoding(encoding);
        }
        self.extractor.push(token);
        if let Some(spans) = &mut self.spans {
            let found = self.extractor.just_found().iter();
            spans.extend(found.map(|link| tokens.original_span(link.span)));
        }
    }
}

/// A page read by [`read`].
pub struct Reading<P> {
    /// What the tokens were pushed into (on the pass that counted).
    pub page: P,
    /// The transcoder of that pass: its offset map (see [`Transcoder::original_span`]), the
    /// encoding it [sniffed](Transcoder::sniffed) and its tokenizer's parse errors.
    pub transcoder: Transcoder,
}

/// Tokenize the whole document `html` into a page made by `start`, with a transcoder from
/// `transcoder_for` (given the encoding to take as certain, on a second pass). When a `<meta>`
/// changes the tentative encoding, the page is dropped and the document read again, once, with
/// the declared encoding as certain: what a browser shows.
pub fn read<P: Page>(
    html: &[u8],
    transcoder_for: impl Fn(Option<&'static Encoding>) -> Transcoder,
    start: impl Fn() -> P,
) -> Reading<P> {
    let mut transcoder = transcoder_for(None);
    let mut page = start();
    if let Some(change) = push_tokens(transcoder.tokenize(html), &mut page, true) {
        transcoder = transcoder_for(Some(change.to));
        page = start();
        // The encoding is certain now: no `<meta>` can change it again.
        push_tokens(transcoder.tokenize(html), &mut page, true);
    }
    Reading { page, transcoder }
}

/// Push `tokens` into `page`, up to a `<meta>` that changes the encoding when `stop_at_change`
/// (that change is returned), else to the end.
pub fn push_tokens<P: Page>(
    mut tokens: DecodedTokens<'_>,
    page: &mut P,
    stop_at_change: bool,
) -> Option<EncodingChange> {
    while let Some(token) = tokens.next() {
        page.push(&token, &tokens);
        if stop_at_change && let Some(change) = tokens.encoding_change() {
            return Some(change);
        }
    }
    None
}

/// [`read`] with a transcoder that sniffs as `sniffing` says.
fn read_sniffed<P: Page>(
    html: &[u8],
    options: Options,
    sniffing: &Sniffing<'_>,
    start: impl Fn() -> P,
) -> Reading<P> {
    let transcoder_for = |certain: Option<&'static Encoding>| {
        let transcoder = sniffing.transcoder(options.clone(), P::MAPS_SPANS);
        match certain {
            Some(encoding) => transcoder.known_encoding(encoding),
            None => transcoder,
        }
    };
    read(html, transcoder_for, start)
}

/// The encoding a transcoder read its document in.
fn encoding_of(transcoder: &Transcoder) -> &'static Encoding {
    // A whole document is always sniffed by its end; the default stands in otherwise.
    transcoder
        .sniffed()
        .map_or(encoding_rs::WINDOWS_1252, |sniffed| sniffed.encoding)
}

/// The links of a page, as [`links`] finds them.
#[derive(Clone, Debug)]
pub struct PageLinks {
    /// Every link, in document order, resolved.
    pub links: Vec<Link>,
    /// The span of each link's URL in the page's bytes as read (before decoding).
    pub spans: Vec<Option<Span>>,
    /// The encoding the page was read in.
    pub encoding: &'static Encoding,
}

/// Every link of the page `html` (bytes in any encoding, sniffed as `sniffing` says), resolved
/// against `page_url` and the page's `<base href>`; `scripting` as
/// [`Options::scripting`](crate::Options::scripting). What `tagstream links` prints.
pub fn links(
    html: &[u8],
    page_url: Option<&Url>,
    scripting: bool,
    sniffing: &Sniffing<'_>,
) -> PageLinks {
    let options = Options::new().scripting(scripting);
    let read = read_sniffed(html, options, sniffing, || {
        LinkPage::new(page_url.cloned(), false)
    });
    let (links, spans) = read.page.finish(&read.transcoder);
    PageLinks {
        links,
        spans,
        encoding: encoding_of(&read.transcoder),
    }
}

/// The text of a page, as [`text`] finds it.
#[derive(Clone, Debug)]
pub struct DecodedText {
    /// Its title, description and visible text.
    pub page: PageText,
    /// The encoding the page was read in.
    pub encoding: &'static Encoding,
}

/// The visible text, title and description of the page `html` (bytes in any encoding, sniffed
/// as `sniffing` says). What `tagstream text` prints.
pub fn text(html: &[u8], options: TextOptions, sniffing: &Sniffing<'_>) -> DecodedText {
    let read = read_sniffed(html, options.tokenizer_options(), sniffing, || {
        TextExtractor::new(options)
    });
    DecodedText {
        encoding: encoding_of(&read.transcoder),
        page: read.page.finish(),
    }
}
