//! Writing HTML in a document's own encoding: [`Encode`], a writer that takes the UTF-8 the
//! serializer and the rewriter make and writes it in another encoding, as the HTML Standard's
//! encoders do — characters the encoding cannot hold as numeric character references (`&#26085;`),
//! UTF-16 as UTF-16 (whose "output encoding" for forms is UTF-8, not what a file needs).

use std::io::{self, Write};

use encoding_rs::{CoderResult, Encoder, Encoding, UTF_8, UTF_16BE, UTF_16LE};

/// A [`Write`] that encodes the UTF-8 written to it in `encoding` before writing it to `W`.
/// A character cut between two writes is held until the rest comes; bytes that are not UTF-8
/// are written as U+FFFD.
///
/// ```
/// use std::io::Write;
/// use tagstream::encoding::Encoding;
/// use tagstream::write::Encode;
///
/// let windows_1252 = Encoding::for_label(b"windows-1252").unwrap();
/// let mut out = Encode::new(Vec::new(), windows_1252);
/// out.write_all("café 日".as_bytes())?;
/// assert_eq!(out.into_inner()?, b"caf\xE9 &#26085;");
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Encode<W: Write> {
    out: W,
    encoding: &'static Encoding,
    encoder: Option<Encoder>,
    /// The start of a character cut off at the end of the last write.
    cut: Vec<u8>,
    /// The encoded bytes of one write.
    encoded: Vec<u8>,
}

impl<W: Write> Encode<W> {
    /// A writer encoding in `encoding` to `out` (UTF-8: as it is).
    pub fn new(out: W, encoding: &'static Encoding) -> Encode<W> {
        Encode {
            out,
            encoding,
            encoder: encoder_for(encoding),
            cut: Vec::new(),
            encoded: Vec::new(),
        }
    }

    /// The encoding written.
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The output, after writing what a stateful encoding needs to end (ISO-2022-JP's return
    /// to ASCII) and a character left cut as U+FFFD.
    pub fn into_inner(mut self) -> io::Result<W> {
        let cut = std::mem::take(&mut self.cut);
        self.write_str(&String::from_utf8_lossy(&cut), true)?;
        self.out.flush()?;
        Ok(self.out)
    }

    /// Encode `text` and write it (`last`: nothing follows).
    fn write_str(&mut self, text: &str, last: bool) -> io::Result<()> {
        self.encoded.clear();
        encode_str(
            self.encoding,
            self.encoder.as_mut(),
            text,
            last,
            &mut self.encoded,
        );
        self.out.write_all(&self.encoded)
    }
}

impl<W: Write> Write for Encode<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut held = std::mem::take(&mut self.cut);
        held.extend_from_slice(bytes);
        let (text, cut) = split_utf8(&held);
        let text = String::from_utf8_lossy(text).into_owned();
        self.cut = cut.to_vec();
        self.write_str(&text, false)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// `bytes` up to the start of a character cut off at its end, and that start.
fn split_utf8(bytes: &[u8]) -> (&[u8], &[u8]) {
    let tail = bytes.len().saturating_sub(3);
    let cut = (tail..bytes.len()).find(|&i| {
        let width = match bytes[i] {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => return false,
        };
        i + width > bytes.len()
    });
    bytes.split_at(cut.unwrap_or(bytes.len()))
}

/// Append `text` in `encoding` to `out` (`encoder`: the encoder for it, `None` for UTF-8 and
/// UTF-16; `last`: nothing follows, a stateful encoding returns to ASCII).
pub(crate) fn encode_str(
    encoding: &'static Encoding,
    encoder: Option<&mut Encoder>,
    text: &str,
    last: bool,
    out: &mut Vec<u8>,
) {
    if encoding == UTF_16LE || encoding == UTF_16BE {
        for unit in text.encode_utf16() {
            let bytes = if encoding == UTF_16LE {
                unit.to_le_bytes()
            } else {
                unit.to_be_bytes()
            };
            out.extend_from_slice(&bytes);
        }
        return;
    }
    let Some(encoder) = encoder else {
        out.extend_from_slice(text.as_bytes());
        return;
    };
    let mut rest = text;
    loop {
        // Room for a few characters as references; the loop asks for more if needed.
        out.reserve(rest.len() * 2 + 16);
        let (result, read, _) = encoder.encode_from_utf8_to_vec(rest, out, last);
        rest = &rest[read..];
        if result == CoderResult::InputEmpty {
            return;
        }
    }
}

/// An encoder for `encoding` as [`encode_str`] takes it.
pub(crate) fn encoder_for(encoding: &'static Encoding) -> Option<Encoder> {
    let utf16 = encoding == UTF_16LE || encoding == UTF_16BE;
    (encoding != UTF_8 && !utf16).then(|| encoding.output_encoding().new_encoder())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(label: &str, pieces: &[&[u8]]) -> Vec<u8> {
        let encoding = Encoding::for_label(label.as_bytes()).expect("a label");
        let mut out = Encode::new(Vec::new(), encoding);
        for piece in pieces {
            out.write_all(piece).expect("a Vec");
        }
        out.into_inner().expect("a Vec")
    }

    #[test]
    fn characters_cut_between_writes_are_encoded_whole() {
        let text = "é日本".as_bytes();
        for cut in 0..=text.len() {
            let (a, b) = text.split_at(cut);
            assert_eq!(
                encoded("shift_jis", &[a, b]),
                b"&#233;\x93\xFA\x96\x7B",
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn stateful_and_wide_encodings() {
        assert_eq!(
            encoded("iso-2022-jp", &["日x".as_bytes()]),
            b"\x1B$BF|\x1B(Bx"
        );
        assert_eq!(encoded("utf-16be", &["<é".as_bytes()]), b"\x00<\x00\xE9");
        assert_eq!(encoded("utf-8", &[b"caf\xC3", b"\xA9"]), "café".as_bytes());
        // A cut character the input never finishes, and bytes that are not UTF-8.
        assert_eq!(
            encoded("windows-1252", &[b"a\xFF", b"b\xE6"]),
            b"a&#65533;b&#65533;"
        );
    }
}
