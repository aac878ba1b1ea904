//! XML5 documents in any encoding (issue 26): a BOM, the transport label, else the XML
//! declaration's `encoding`, else UTF-8 ([`sniff_xml`]); the [`Transcoder`] for XML5 decodes them
//! chunk by chunk, and the tokens are the same for every chunking as for the UTF-8 document.

use encoding_rs::{Encoding, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};
use tagstream::encoding::{Confidence, SniffSource, Transcoder, sniff_xml};
use tagstream::{Options, Token};

/// Each token as a line: kind, decoded name or data, attributes.
fn describe(token: &Token<'_>) -> String {
    match token {
        Token::StartTag(t) => {
            let attributes: Vec<String> = t
                .attributes()
                .map(|a| format!("{}={}", a.name(), a.value()))
                .collect();
            format!("<{} {}>", t.name(), attributes.join(" "))
        }
        Token::EndTag(t) => format!("</{}>", t.name()),
        Token::Text(t) => format!("text {:?}", t.text()),
        Token::Comment(c) => format!("comment {:?}", c.data()),
        Token::ProcessingInstruction(p) => format!("pi {} {:?}", p.target(), p.data()),
        Token::Doctype(d) => format!("doctype {:?}", d.name()),
        Token::Raw(r) => format!("raw {:?}", r.raw()),
    }
}

/// Token lines, with adjacent text merged into one line.
#[derive(Default)]
struct Lines {
    out: Vec<String>,
    text: String,
}

impl Lines {
    fn take(&mut self, token: Token<'_>) {
        match token {
            Token::Text(t) => self.text.push_str(t.text()),
            other => {
                self.flush();
                self.out.push(describe(&other));
            }
        }
    }

    fn flush(&mut self) {
        if !self.text.is_empty() {
            let text = std::mem::take(&mut self.text);
            self.out.push(format!("text {text:?}"));
        }
    }

    fn done(mut self) -> Vec<String> {
        self.flush();
        self.out
    }
}

/// Tokens of `bytes` through an XML5 transcoder, fed in pieces of `size` bytes (`None`: whole),
/// and what was sniffed.
fn transcode(
    bytes: &[u8],
    label: Option<&str>,
    size: Option<usize>,
) -> (Vec<String>, SniffSource, &'static Encoding) {
    let mut transcoder = Transcoder::xml5(Options::default());
    if let Some(label) = label {
        transcoder = transcoder.transport_label(label);
    }
    let mut lines = Lines::default();
    match size {
        None => transcoder.tokenize(bytes).for_each(|t| lines.take(t)),
        Some(size) => {
            for piece in bytes.chunks(size) {
                transcoder.feed(piece).for_each(|t| lines.take(t));
            }
            transcoder.finish().for_each(|t| lines.take(t));
        }
    }
    let sniffed = transcoder.sniffed().expect("decided at the end");
    assert_eq!(
        sniffed.confidence,
        Confidence::Certain,
        "XML's encoding is certain"
    );
    (lines.done(), sniffed.source, sniffed.encoding)
}

/// The UTF-8 document's tokens (the reference), from the tokenizer itself: no sniffing (the
/// document may declare another encoding than the UTF-8 it is in here).
fn reference(utf8: &str) -> Vec<String> {
    let mut tokenizer = tagstream::xml5::Tokenizer::default();
    let mut lines = Lines::default();
    tokenizer
        .tokenize(utf8.as_bytes())
        .for_each(|t| lines.take(t));
    lines.done()
}

fn encode(text: &str, encoding: &'static Encoding) -> Vec<u8> {
    if encoding == UTF_16LE || encoding == UTF_16BE {
        let units = text.encode_utf16();
        return units
            .flat_map(|u| {
                if encoding == UTF_16LE {
                    u.to_le_bytes()
                } else {
                    u.to_be_bytes()
                }
            })
            .collect();
    }
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable, "{text:?} in {}", encoding.name());
    bytes.into_owned()
}

/// Whole, one byte at a time, and in pieces of 7 and 1000 bytes: the reference's tokens, and
/// the expected sniffing.
fn check(
    bytes: &[u8],
    label: Option<&str>,
    utf8: &str,
    source: SniffSource,
    encoding: &'static Encoding,
) {
    let want = reference(utf8);
    for size in [None, Some(1), Some(7), Some(1000)] {
        let (got, got_source, got_encoding) = transcode(bytes, label, size);
        assert_eq!(got, want, "pieces of {size:?}");
        assert_eq!(
            (got_source, got_encoding),
            (source, encoding),
            "pieces of {size:?}"
        );
    }
}

const BODY: &str = "<r a='café'>Grüße, 日本 &amp; ü<x/>€</r>";

#[test]
fn the_declaration_decides_in_a_single_byte_encoding() {
    let utf8 = "<?xml version='1.0' encoding='windows-1252'?>\n<r a='café'>Grüße €</r>";
    let bytes = encode(utf8, WINDOWS_1252);
    check(&bytes, None, utf8, SniffSource::Meta, WINDOWS_1252);
}

#[test]
fn the_declaration_decides_in_shift_jis() {
    let utf8 = "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><r a='日本'>日本語のテキスト</r>";
    let bytes = encode(utf8, SHIFT_JIS);
    check(&bytes, None, utf8, SniffSource::Meta, SHIFT_JIS);
}

#[test]
fn a_bom_decides_utf16_either_way_and_utf8() {
    let utf8 = format!("<?xml version='1.0' encoding='utf-16'?>{BODY}");
    for (encoding, bom) in [(UTF_16LE, &b"\xFF\xFE"[..]), (UTF_16BE, b"\xFE\xFF")] {
        let mut bytes = bom.to_vec();
        bytes.extend(encode(&utf8, encoding));
        check(&bytes, None, &utf8, SniffSource::Bom, encoding);
    }
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(BODY.as_bytes());
    check(&bytes, None, BODY, SniffSource::Bom, UTF_8);
}

#[test]
fn a_utf16_declaration_without_a_bom_is_found() {
    let utf8 = format!("<?xml version='1.0' encoding='utf-16'?>{BODY}");
    check(
        &encode(&utf8, UTF_16LE),
        None,
        &utf8,
        SniffSource::Meta,
        UTF_16LE,
    );
    check(
        &encode(&utf8, UTF_16BE),
        None,
        &utf8,
        SniffSource::Meta,
        UTF_16BE,
    );
}

#[test]
fn without_a_declaration_it_is_utf8() {
    check(BODY.as_bytes(), None, BODY, SniffSource::Default, UTF_8);
    let declared = format!("<?xml version='1.0'?>{BODY}");
    check(
        declared.as_bytes(),
        None,
        &declared,
        SniffSource::Default,
        UTF_8,
    );
}

#[test]
fn the_transport_label_wins_over_the_declaration() {
    let utf8 = "<?xml version='1.0' encoding='koi8-r'?><r>Grüße</r>";
    let bytes = encode(utf8, WINDOWS_1252);
    check(
        &bytes,
        Some("windows-1252"),
        utf8,
        SniffSource::Transport,
        WINDOWS_1252,
    );
}

#[test]
fn sniffing_reads_only_a_declaration_at_the_very_start() {
    let late = b" <?xml version='1.0' encoding='windows-1252'?><r/>";
    assert_eq!(sniff_xml(late, None).encoding, UTF_8);
    let ascii_utf16 = b"<?xml version='1.0' encoding='utf-16'?><r/>";
    assert_eq!(
        sniff_xml(ascii_utf16, None).encoding,
        UTF_8,
        "read as the ASCII it is"
    );
    let unknown = b"<?xml version='1.0' encoding='no-such-encoding'?><r/>";
    assert_eq!(sniff_xml(unknown, None).source, SniffSource::Default);
}
