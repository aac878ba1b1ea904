//! Where a rewrite's bytes go. Passed tokens are copied as they came; bytes the rewrite makes
//! (insertions, replacements, edited tags) are UTF-8. When the tokens were decoded from another
//! encoding by a [`Transcoder`](crate::encoding::Transcoder), the input is written back instead:
//! a passed run of tokens is copied from the bytes the transcoder was fed (found through its
//! offset map), the bytes before the first token (a byte order mark the decoder took) are
//! written first, and new bytes are encoded in the document's encoding, characters it cannot
//! hold as numeric character references (encoding_rs's HTML form; UTF-16 is written as UTF-16).
//!
//! The fed bytes are kept from the first one a token not yet passed over may stand for: the
//! tokenizer's carry, and a chunk, at most.

use std::io::{self, Write};

#[cfg(feature = "encoding")]
use encoding_rs::{Encoding, UTF_8};

#[cfg(feature = "encoding")]
use super::super::encode::{encode_str, encoder_for};

/// The output, and what writing the input back needs (see the module docs).
pub(super) struct Sink<W> {
    pub(super) out: W,
    #[cfg(feature = "encoding")]
    original: Original,
}

/// The input bytes not written or passed over yet, and the encoding new bytes are written in.
#[cfg(feature = "encoding")]
#[derive(Default)]
struct Original {
    /// Fed bytes from stream offset `base` on.
    bytes: Vec<u8>,
    base: usize,
    /// Whether the bytes before the first token are written.
    started: bool,
    /// The document's encoding, once the transcoder has decided it.
    encoding: Option<&'static Encoding>,
    /// New bytes, encoded.
    encoded: Vec<u8>,
}

impl<W: Write> Sink<W> {
    pub(super) fn new(out: W) -> Sink<W> {
        Sink {
            out,
            #[cfg(feature = "encoding")]
            original: Original::default(),
        }
    }

    /// Write bytes the rewrite made: as they are, or in the document's encoding when the
    /// input is written back.
    pub(super) fn write_new(&mut self, bytes: &[u8]) -> io::Result<()> {
        #[cfg(feature = "encoding")]
        if let Some(encoding) = self.original.encoding {
            return self.original.encode(encoding, bytes, &mut self.out);
        }
        self.out.write_all(bytes)
    }
}

#[cfg(feature = "encoding")]
impl<W: Write> Sink<W> {
    /// A feed of decoded tokens begins: keep its input, and note the encoding once decided.
    pub(super) fn fed(&mut self, input: &[u8], encoding: Option<&'static Encoding>) {
        let original = &mut self.original;
        original.bytes.extend_from_slice(input);
        original.encoding = encoding.filter(|&e| e != UTF_8);
    }

    /// Write the input bytes before the first token (from `first`, the first decoded byte's
    /// original offset), once.
    pub(super) fn start(&mut self, first: usize) -> io::Result<()> {
        if self.original.started {
            return Ok(());
        }
        self.original.started = true;
        self.write_original(0, first)
    }

    /// Write the input bytes `from..to` (original offsets).
    pub(super) fn write_original(&mut self, from: usize, to: usize) -> io::Result<()> {
        let original = &self.original;
        let held = from
            .checked_sub(original.base)
            .zip(to.checked_sub(original.base))
            .and_then(|(from, to)| original.bytes.get(from..to));
        match held {
            Some(bytes) => self.out.write_all(bytes),
            None => Err(io::Error::other(format!(
                "rewrite: the input bytes {from}..{to} are no longer held"
            ))),
        }
    }

    /// Nothing before original offset `offset` will be written: let it go.
    pub(super) fn done_before(&mut self, offset: usize) {
        let original = &mut self.original;
        let done = offset
            .saturating_sub(original.base)
            .min(original.bytes.len());
        original.bytes.drain(..done);
        original.base += done;
    }
}

#[cfg(feature = "encoding")]
impl Original {
    /// Write `utf8` in `encoding` to `out`, ending in the encoding's initial state (the input's
    /// bytes that follow are read from there).
    fn encode(
        &mut self,
        encoding: &'static Encoding,
        utf8: &[u8],
        out: &mut impl Write,
    ) -> io::Result<()> {
        // The rewriter makes its bytes from `&str`s and the tokens' UTF-8.
        let text = String::from_utf8_lossy(utf8);
        self.encoded.clear();
        let mut encoder = encoder_for(encoding);
        encode_str(encoding, encoder.as_mut(), &text, true, &mut self.encoded);
        out.write_all(&self.encoded)
    }
}
