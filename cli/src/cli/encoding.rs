//! How every command that reads HTML decides its encoding: the `--encoding` and
//! `--default-encoding` options (shared by `tokens`, `links`, `text` and `stats`), the
//! [`Transcoder`] they configure, and, for the crawler commands, reading a whole document with one
//! restart when a `<meta>` changes the encoding.

use clap::Args;
use tagstream::encoding::{Encoding, EncodingChange, Transcoder};
use tagstream::{Options, Token};

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
    /// declared encoding, as a browser does.
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
    /// whole document. A label forces that encoding, without the UTF-8 detection.
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
fn parse_encoding(label: &str) -> Result<&'static Encoding, String> {
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
pub(crate) struct Read<P> {
    /// What the tokens were pushed into (on the pass that counted).
    pub(crate) page: P,
    /// The transcoder of that pass: its offset map (see [`Transcoder::original_span`]) and its
    /// tokenizer's parse errors.
    pub(crate) transcoder: Transcoder,
}

impl EncodingArgs {
    /// A transcoder for one input, spans mapped back to the input's bytes; `transport_label` is
    /// its HTTP charset, if it has one.
    pub(crate) fn transcoder(&self, options: Options, transport_label: Option<&str>) -> Transcoder {
        let mut transcoder = Transcoder::new(options).map_offsets(true);
        transcoder = match self.default_encoding {
            Fallback::Auto => transcoder.detect_utf8(true),
            Fallback::Label(encoding) => transcoder.default_encoding(encoding),
        };
        if let Some(label) = transport_label {
            transcoder = transcoder.transport_label(label);
        }
        match self.encoding {
            Some(encoding) => transcoder.known_encoding(encoding),
            None => transcoder,
        }
    }

    /// Tokenize the whole document `html` into a page made by `start`, token by token with
    /// `push`. When a `<meta>` changes the tentative encoding, the page is dropped and the
    /// document read again, once, with the declared encoding as certain: what a browser shows.
    pub(crate) fn read<P>(
        &self,
        options: &Options,
        html: &[u8],
        transport_label: Option<&str>,
        start: impl Fn() -> P,
        mut push: impl FnMut(&mut P, &Token<'_>),
    ) -> Read<P> {
        let mut transcoder = self.transcoder(options.clone(), transport_label);
        let mut page = start();
        let Some(change) = read_until_change(&mut transcoder, html, &mut page, &mut push) else {
            return Read { page, transcoder };
        };
        let mut transcoder = self
            .transcoder(options.clone(), transport_label)
            .known_encoding(change.to);
        let mut page = start();
        // The encoding is certain now: no `<meta>` can change it again.
        read_until_change(&mut transcoder, html, &mut page, &mut push);
        Read { page, transcoder }
    }
}

/// Push the tokens of `html` into `page` until a `<meta>` changes the encoding (that change is
/// returned) or the document ends.
fn read_until_change<P>(
    transcoder: &mut Transcoder,
    html: &[u8],
    page: &mut P,
    push: &mut impl FnMut(&mut P, &Token<'_>),
) -> Option<EncodingChange> {
    let mut tokens = transcoder.tokenize(html);
    while let Some(token) = tokens.next() {
        push(page, &token);
        if let Some(change) = tokens.encoding_change() {
            return Some(change);
        }
    }
    None
}
