//! How every command that reads HTML decides its encoding: the `--encoding` and
//! `--default-encoding` options (shared by `tokens`, `links`, `text` and `stats`), the
//! [`Transcoder`] they configure (the library's [`Sniffing`]), and, for the crawler commands,
//! reading a document (held whole: [`page::read`], or streamed: see [`stream`]) into a [`Page`],
//! with one restart when a `<meta>` changes the encoding.

use clap::Args;
use tagstream::encoding::{Encoding, Transcoder};
use tagstream::extract::page::{self, Sniffing};
pub(crate) use tagstream::extract::page::{Page, push_tokens};
use tagstream::{Options, Span};

use super::inputs::Body;
use super::stream::{self, Broken, Why};

/// `--encoding` and `--default-encoding`.
#[derive(Args, Clone, Copy, Debug)]
pub(crate) struct EncodingArgs {
    /// The input's encoding, as a WHATWG Encoding Standard label (utf-8, shift_jis, gbk,
    /// windows-1251, utf-16le, ...) [default: sniffed].
    ///
    /// Certain, as an HTTP charset would be (only a BOM wins over it; for WARC records it also
    /// wins over their HTTP charset). Without it, the encoding is
    /// sniffed as the HTML Standard says: BOM, HTTP charset (WARC records), a <meta> in the first
    /// 1024 bytes, then --default-encoding. A later <meta> that declares another encoding makes
    /// `tokens` print {"type":"encoding_changed","from","to","span"} (decoding goes on with the
    /// first one), and makes `links`, `text` and `stats` read that document again, once, in the
    /// declared encoding, as a browser does. Standard input (or a named pipe) longer than 4 MiB
    /// cannot be read again: when the <meta> comes past its first 4 MiB, it is decoded with the
    /// first encoding throughout, and a note says so on stderr.
    #[arg(
        long,
        value_name = "LABEL",
        value_parser = parse_encoding,
        help_heading = "Encoding"
    )]
    pub(crate) encoding: Option<&'static Encoding>,

    /// The encoding when sniffing finds none: a label, or `auto` for UTF-8 if the input looks
    /// like it, else windows-1252.
    ///
    /// `auto`: UTF-8 when the bytes read before deciding
    /// are valid UTF-8 with some non-ASCII in them, else windows-1252 (the HTML Standard's default
    /// for most locales, which reads ASCII as ASCII). `tokens` decides on the first 1024 bytes and
    /// the whole chunk that completes them (--chunk-size); `links`, `text` and `stats` on the
    /// whole document, or its first 4 MiB when it is longer. A label forces that encoding,
    /// without the UTF-8 detection.
    #[arg(
        long,
        value_name = "LABEL",
        value_parser = parse_fallback,
        default_value = "auto",
        help_heading = "Encoding"
    )]
    pub(crate) default_encoding: Fallback,
}

/// What `--default-encoding` asks for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Fallback {
    /// Detect UTF-8, else windows-1252.
    Auto,
    /// This encoding, no detection.
    Label(&'static Encoding),
}

/// `--encoding`: a label of the Encoding Standard.
pub(crate) fn parse_encoding(label: &str) -> Result<&'static Encoding, String> {
    Encoding::for_label_no_replacement(label.as_bytes()).ok_or_else(|| {
        "not an encoding label of the WHATWG Encoding Standard \
         (https://encoding.spec.whatwg.org/#names-and-labels)"
            .to_owned()
    })
}

/// `--default-encoding`: `auto` or a label of the Encoding Standard.
fn parse_fallback(label: &str) -> Result<Fallback, String> {
    if label.eq_ignore_ascii_case("auto") {
        return Ok(Fallback::Auto);
    }
    parse_encoding(label)
        .map(Fallback::Label)
        .map_err(|why| format!("neither `auto` nor {why}"))
}

/// One document read by [`EncodingArgs::read`].
pub(crate) struct Reading<P> {
    /// What the tokens were pushed into (on the pass that counted).
    pub(crate) page: P,
    /// The transcoder of that pass: its offset map (see [`Transcoder::original_span`]) and its
    /// tokenizer's parse errors.
    pub(crate) transcoder: Transcoder,
    /// How it was read.
    pub(crate) done: Done,
}

/// How a document was read, besides its tokens.
pub(crate) struct Done {
    /// The bytes read (on the pass that counted: the document's length).
    pub(crate) bytes: u64,
    /// Something to tell on stderr: a `<meta>` that changed the encoding too late to read
    /// standard input (or a pipe) again.
    pub(crate) note: Option<String>,
}

impl EncodingArgs {
    /// A transcoder for one input, spans mapped back to the input's bytes when `map_offsets`;
    /// `transport_label` is its HTTP charset, if it has one.
    pub(crate) fn transcoder(
        &self,
        options: Options,
        transport_label: Option<&str>,
        map_offsets: bool,
    ) -> Transcoder {
        let default = match self.default_encoding {
            Fallback::Auto => None,
            Fallback::Label(encoding) => Some(encoding),
        };
        let sniffing = Sniffing {
            transport_label,
            known: self.encoding,
            default,
        };
        sniffing.transcoder(options, map_offsets)
    }

    /// Tokenize the document `body` into a page made by `start`. When a `<meta>` changes the
    /// tentative encoding, the page is dropped and the document read again, once, with the
    /// declared encoding as certain: what a browser shows (standard input past its first chunk
    /// excepted: see [`stream::read`]).
    pub(crate) fn read<P: Page>(
        &self,
        options: &Options,
        body: &mut Body<'_>,
        transport_label: Option<&str>,
        start: impl Fn() -> P,
    ) -> Result<Reading<P>, Broken> {
        let transcoder_for = |certain: Option<&'static Encoding>| {
            let transcoder = self.transcoder(options.clone(), transport_label, P::MAPS_SPANS);
            match certain {
                Some(encoding) => transcoder.known_encoding(encoding),
                None => transcoder,
            }
        };
        match body {
            Body::Whole(html) => Ok(read_whole(html, transcoder_for, start)),
            Body::Stream(stream) => {
                stream::read(stream, transcoder_for, start).and_then(read_to_end)
            }
        }
    }
}

/// A streamed document the tokenizer read to its end, or where it stopped at its carry limit (a
/// token longer than `Options::max_carry`; a document held whole carries nothing).
fn read_to_end<P>(reading: Reading<P>) -> Result<Reading<P>, Broken> {
    match reading.transcoder.tokenizer().limit_error() {
        None => Ok(reading),
        Some(limit) => {
            let at = reading.transcoder.original_span(Span::empty(limit.offset));
            Err(Broken {
                offset: at.map(|span| span.start as u64),
                why: Why::TokenTooLong(limit),
            })
        }
    }
}

/// [`EncodingArgs::read`] for a document held whole.
fn read_whole<P: Page>(
    html: &[u8],
    transcoder_for: impl Fn(Option<&'static Encoding>) -> Transcoder,
    start: impl Fn() -> P,
) -> Reading<P> {
    let page::Reading { page, transcoder } = page::read(html, transcoder_for, start);
    let done = Done {
        bytes: html.len() as u64,
        note: None,
    };
    Reading {
        page,
        transcoder,
        done,
    }
}
