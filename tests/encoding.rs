//! Documents in real encodings through `tagstream::encoding::Transcoder`, fed in chunks that split
//! characters: the tokens must be those of the same document converted to UTF-8 beforehand (with
//! encoding_rs, or by hand for UTF-16), spans must map back to the original bytes, UTF-8 must pass
//! through without a copy, and a `<meta>` that changes a tentative encoding must be reported.

use encoding_rs::{
    EUC_KR, Encoding, GB18030, GBK, ISO_2022_JP, REPLACEMENT, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE,
    WINDOWS_1251, WINDOWS_1252, X_USER_DEFINED,
};
use tagstream::encoding::{
    Confidence, DecodedTokens, EncodingChange, SniffSource, Transcoder, decode_document,
    detect_utf8, sniff,
};
use tagstream::html5lib::{Html5libToken, push};
use tagstream::{Options, Span, Token, Tokenizer};

/// A document that puts `t` in every place text can be: title, attribute values (quoted,
/// unquoted), text with a character reference, comment, processing instruction, script.
fn document(t: &str, meta: &str) -> String {
    format!(
        "<!DOCTYPE html><html><head>{meta}<title>{t}</title></head>\n<body>\
         <p class=\"{t}\" id='{t}' data-x={t}>{t} &amp; {t}<b>{t}</b></p>\
         <!-- {t} --><?note {t}?><script>var s = \"{t}\";</script>{t}</body></html>"
    )
}

/// The text of each test, in its encoding.
const SAMPLES: &[(&Encoding, &str)] = &[
    (SHIFT_JIS, "日本語のテキスト、ｶﾀｶﾅと①"),
    (GBK, "中文测试，简体字与标点"),
    (EUC_KR, "한국어 테스트 문장"),
    (WINDOWS_1251, "Привет, мир — ёлка"),
    (UTF_16LE, "UTF-16 日本 한국 😀 é"),
    (UTF_16BE, "UTF-16 中文 😀 ё"),
];

/// `text` in `encoding` (encoding_rs has no UTF-16 encoder: that is done by hand).
fn encode(text: &str, encoding: &'static Encoding) -> Vec<u8> {
    let units = text.encode_utf16();
    if encoding == UTF_16LE {
        return units.flat_map(u16::to_le_bytes).collect();
    }
    if encoding == UTF_16BE {
        return units.flat_map(u16::to_be_bytes).collect();
    }
    let (bytes, used, lossy) = encoding.encode(text);
    assert!(
        used == encoding && !lossy,
        "{} cannot encode {text:?}",
        encoding.name()
    );
    bytes.into_owned()
}

/// Tokens of one feed, html5lib-shaped (text merged), each checked against its original bytes.
fn take(
    tokens: DecodedTokens<'_>,
    original: &[u8],
    encoding: &'static Encoding,
    out: &mut Vec<Html5libToken>,
) {
    let mut tokens = tokens;
    while let Some(token) = tokens.next() {
        if let Some(span) = tokens.original_span(token.span()) {
            let bytes = &original[span.start..span.end];
            let (text, _) = encoding.decode_without_bom_handling(bytes);
            assert_eq!(
                text.as_bytes(),
                token.raw(),
                "{}: {:?} maps to {span:?}",
                encoding.name(),
                token.span()
            );
        }
        push(out, token);
    }
}

/// The tokens a transcoder gives for `original` fed in chunks ending at `splits`.
fn transcode(
    mut transcoder: Transcoder,
    original: &[u8],
    splits: &[usize],
    encoding: &'static Encoding,
) -> Vec<Html5libToken> {
    let mut out = Vec::new();
    let mut start = 0;
    for &end in splits.iter().chain([&original.len()]) {
        take(
            transcoder.feed(&original[start..end]),
            original,
            encoding,
            &mut out,
        );
        start = end;
    }
    take(transcoder.finish(), original, encoding, &mut out);
    out
}

fn reference(utf8: &str) -> Vec<Html5libToken> {
    let mut out = Vec::new();
    for token in Tokenizer::default().tokenize(utf8.as_bytes()) {
        push(&mut out, token);
    }
    out
}

/// Every way of splitting `len` bytes in two, one byte at a time, and a few three-way splits.
fn chunkings(len: usize) -> Vec<Vec<usize>> {
    let mut all: Vec<Vec<usize>> = vec![vec![], (1..len).collect()];
    all.extend((1..len).map(|at| vec![at]));
    all.extend((1..len / 2).step_by(7).map(|at| vec![at, len - at]));
    all
}

#[test]
fn multibyte_encodings_split_everywhere_from_a_transport_label() {
    for &(encoding, text) in SAMPLES {
        let utf8 = document(text, "");
        let original = encode(&utf8, encoding);
        let expected = reference(&utf8);
        for splits in chunkings(original.len()) {
            let transcoder = Transcoder::new(Options::default())
                .transport_label(encoding.name())
                .map_offsets(true);
            let got = transcode(transcoder, &original, &splits, encoding);
            assert_eq!(got, expected, "{} split at {splits:?}", encoding.name());
        }
    }
}

#[test]
fn multibyte_encodings_found_by_the_prescan_or_a_bom() {
    for &(encoding, text) in SAMPLES {
        let (original, utf8) = if encoding == UTF_16LE || encoding == UTF_16BE {
            let utf8 = document(text, "");
            let bom = encode("\u{FEFF}", encoding);
            ([bom, encode(&utf8, encoding)].concat(), utf8)
        } else {
            let meta = format!("<meta charset={}>", encoding.name());
            let utf8 = document(text, &meta);
            (encode(&utf8, encoding), utf8)
        };
        let expected = reference(&utf8);
        for splits in chunkings(original.len()) {
            let transcoder = Transcoder::new(Options::default()).map_offsets(true);
            let got = transcode(transcoder, &original, &splits, encoding);
            assert_eq!(got, expected, "{} split at {splits:?}", encoding.name());
        }
        let sniffed = sniff(&original, None, WINDOWS_1252);
        assert_eq!(sniffed.encoding, encoding);
    }
}

#[test]
fn offsets_of_a_shift_jis_document_map_to_its_bytes() {
    // "<p>" 3 bytes, then 日 (93 FA) and 本 (96 7B, an ASCII trail byte), then "</p>".
    let original = b"<p>\x93\xFA\x96\x7B</p>";
    let mut transcoder = Transcoder::new(Options::default())
        .known_encoding(SHIFT_JIS)
        .map_offsets(true);
    let mut spans = Vec::new();
    for chunk in original.chunks(1) {
        let mut tokens = transcoder.feed(chunk);
        while let Some(token) = tokens.next() {
            spans.push((token.span(), tokens.original_span(token.span())));
        }
    }
    let mut tokens = transcoder.finish();
    while let Some(token) = tokens.next() {
        spans.push((token.span(), tokens.original_span(token.span())));
    }
    let span = |start, end| Some(Span { start, end });
    assert_eq!(
        spans.first(),
        Some(&(Span { start: 0, end: 3 }, span(0, 3)))
    );
    assert_eq!(
        spans.last(),
        Some(&(Span { start: 9, end: 13 }, span(7, 11)))
    );
    let text: Vec<Span> = spans[1..spans.len() - 1]
        .iter()
        .map(|s| s.1.unwrap())
        .collect();
    assert_eq!((text[0].start, text[text.len() - 1].end), (3, 7));
    for pair in text.windows(2) {
        assert_eq!(
            pair[0].end, pair[1].start,
            "text split at a character: {text:?}"
        );
    }
}

#[test]
fn offsets_are_not_mapped_unless_asked_for_decoded_input() {
    let mut transcoder = Transcoder::new(Options::default()).known_encoding(WINDOWS_1251);
    let mut tokens = transcoder.feed(b"<p>\xCF</p>");
    let token = tokens.next().expect("a token");
    assert_eq!(tokens.original_span(token.span()), None);
}

#[test]
fn utf8_passes_through_without_a_copy() {
    let html = "\u{FEFF}<meta charset=utf-8><p title=é>naïve</p>".as_bytes();
    let mut transcoder = Transcoder::new(Options::default());
    let mut count = 0;
    let mut tokens = transcoder.feed(html);
    while let Some(token) = tokens.next() {
        // The BOM decides at once, so the chunk itself is fed: tokens point into `html`.
        let raw = token.raw().as_ptr_range();
        assert!(
            html.as_ptr_range().contains(&raw.start),
            "{token:?} was copied"
        );
        let original = tokens
            .original_span(token.span())
            .expect("UTF-8 always maps");
        assert_eq!(&html[original.start..original.end], token.raw());
        count += 1;
    }
    drop(tokens);
    assert!(count >= 3, "{count}");
    let sniffed = transcoder.sniffed().unwrap();
    assert_eq!((sniffed.encoding, sniffed.bom_len), (UTF_8, 3));
}

#[test]
fn utf8_from_the_prescan_is_fed_as_it_is() {
    let mut html = b"<meta charset=utf-8><p>".to_vec();
    html.resize(2000, b'x');
    let mut transcoder = Transcoder::new(Options::default());
    let mut tokens = transcoder.feed(&html);
    let first = tokens.next().expect("meta");
    assert!(html.as_ptr_range().contains(&first.raw().as_ptr()));
    assert_eq!(tokens.encoding_change(), None);
    drop(tokens);
    let sniffed = transcoder.sniffed().unwrap();
    assert_eq!(
        (sniffed.source, sniffed.confidence),
        (SniffSource::Meta, Confidence::Certain)
    );
}

#[test]
fn ascii_in_a_legacy_encoding_passes_through_without_a_copy() {
    let html = b"<meta charset=windows-1252><p title=x>plain ASCII</p><a href=y>";
    for map in [false, true] {
        let mut transcoder = Transcoder::new(Options::default()).map_offsets(map);
        let mut tokens = transcoder.tokenize(html);
        while let Some(token) = tokens.next() {
            let raw = token.raw().as_ptr_range();
            assert!(
                html.as_ptr_range().contains(&raw.start),
                "{token:?} was copied"
            );
            if map {
                let original = tokens.original_span(token.span()).expect("mapping is on");
                assert_eq!(&html[original.start..original.end], token.raw());
            }
        }
        drop(tokens);
        assert_eq!(transcoder.sniffed().unwrap().encoding, WINDOWS_1252);
    }
}

#[test]
fn ascii_after_part_of_a_character_is_decoded_with_it() {
    // Shift_JIS 0x93 0x41 is one character whose second byte is ASCII `A`; GB18030's four-byte
    // sequences have ASCII digits second and fourth. A chunk of ASCII after the first bytes must
    // reach the decoder, not pass through.
    for (encoding, bytes) in [
        (SHIFT_JIS, &b"<p>\x93A<b>x</b>"[..]),
        (GB18030, &b"<p>\x810\x810<b>x</b>"[..]),
    ] {
        let build = || {
            Transcoder::new(Options::default())
                .known_encoding(encoding)
                .map_offsets(true)
        };
        let whole = run_checked(build(), bytes, &[]);
        for at in 1..bytes.len() {
            assert_eq!(
                run_checked(build(), bytes, &[at]),
                whole,
                "{} split at {at}",
                encoding.name()
            );
        }
    }
}

/// A windows-1251 document whose `<meta>` comes after 1024 bytes of comment.
fn late_meta(meta: &str) -> (Vec<u8>, String) {
    let padding = "x".repeat(1100);
    let utf8 = format!("<!-- {padding} -->{meta}<p>Привет</p>");
    (encode(&utf8, WINDOWS_1251), utf8)
}

/// Feed `bytes` whole; the changes seen, in order, and the transcoder.
fn changes(mut transcoder: Transcoder, bytes: &[u8]) -> (Vec<EncodingChange>, Transcoder) {
    let mut seen = Vec::new();
    for feed in [Some(bytes), None] {
        let mut tokens = match feed {
            Some(bytes) => transcoder.feed(bytes),
            None => transcoder.finish(),
        };
        while tokens.next().is_some() {
            seen.extend(tokens.encoding_change());
        }
    }
    (seen, transcoder)
}

#[test]
fn a_late_meta_changes_a_tentative_encoding() {
    let (original, utf8) =
        late_meta("<meta http-equiv=content-type content='text/html; charset=windows-1251'>");
    let transcoder = Transcoder::new(Options::default()).map_offsets(true);
    let (seen, transcoder) = changes(transcoder, &original);
    assert_eq!(seen.len(), 1, "{seen:?}");
    let change = seen[0];
    assert_eq!((change.from, change.to), (WINDOWS_1252, WINDOWS_1251));
    assert_eq!(transcoder.encoding_change(), Some(change));
    let meta = change.original_span.expect("mapped");
    assert!(original[meta.start..meta.end].starts_with(b"<meta http-equiv"));
    assert_eq!(
        transcoder.sniffed().unwrap().confidence,
        Confidence::Certain
    );
    // Starting over as a browser does gives the UTF-8 tokens.
    let again = Transcoder::new(Options::default()).known_encoding(change.to);
    assert_eq!(
        transcode(again, &original, &[], WINDOWS_1251),
        reference(&utf8)
    );
}

#[test]
fn a_meta_confirming_the_encoding_makes_it_certain() {
    let (original, _) = late_meta("<meta charset=x-cp1252><meta charset=windows-1251>");
    let (seen, transcoder) = changes(Transcoder::new(Options::default()), &original);
    assert_eq!(seen, [], "the first meta made windows-1252 certain");
    assert_eq!(
        transcoder.sniffed().unwrap().confidence,
        Confidence::Certain
    );
}

#[test]
fn change_the_encoding_rules() {
    let (utf16, _) = late_meta("<meta charset=utf-16be>");
    let (seen, _) = changes(Transcoder::new(Options::default()), &utf16);
    assert_eq!(
        seen.iter().map(|c| c.to).collect::<Vec<_>>(),
        [UTF_8],
        "UTF-16 means UTF-8"
    );

    let (user_defined, _) = late_meta("<meta charset=x-user-defined><meta charset=koi8-r>");
    let (seen, _) = changes(Transcoder::new(Options::default()), &user_defined);
    assert_eq!(
        seen,
        [],
        "x-user-defined means windows-1252, the current one"
    );

    let (unknown, _) = late_meta("<meta charset=no-such-thing><meta charset=koi8-r>");
    let (seen, _) = changes(Transcoder::new(Options::default()), &unknown);
    assert_eq!(
        seen.iter().map(|c| c.to.name()).collect::<Vec<_>>(),
        ["KOI8-R"]
    );

    let (certain, _) = late_meta("<meta charset=koi8-r>");
    let transport = Transcoder::new(Options::default()).transport_label("windows-1251");
    assert_eq!(changes(transport, &certain).0, [], "transport is certain");

    let utf16 = encode("<meta charset=koi8-r><p>x", UTF_16LE);
    let prescanned = [encode("<?xml version='1.0'?>", UTF_16LE), utf16].concat();
    let (seen, transcoder) = changes(Transcoder::new(Options::default()), &prescanned);
    let sniffed = transcoder.sniffed().unwrap();
    assert_eq!((seen, sniffed.encoding), (vec![], UTF_16LE), "UTF-16 stays");
    assert_eq!(sniffed.confidence, Confidence::Certain);
}

#[test]
fn sniffing_waits_for_1024_bytes_then_decides() {
    let mut html = b"<meta charset=koi8-r><p>".to_vec();
    html.resize(1100, b'a');
    let mut transcoder = Transcoder::new(Options::default());
    assert_eq!(transcoder.feed(&html[..1000]).count(), 0, "held back");
    assert_eq!(transcoder.sniffed(), None);
    assert!(transcoder.feed(&html[1000..]).count() > 0);
    assert_eq!(transcoder.sniffed().unwrap().encoding.name(), "KOI8-R");
    // A transport encoding decides at once (3 bytes rule a BOM out).
    let mut transcoder = Transcoder::new(Options::default()).transport_label("koi8-r");
    drop(transcoder.feed(b"<p>"));
    assert_eq!(transcoder.sniffed().unwrap().source, SniffSource::Transport);
}

#[test]
fn decode_document_in_one_call() {
    let original = encode(&document("日本語", "<meta charset=shift_jis>"), SHIFT_JIS);
    let (decoded, sniffed) = decode_document(&original, None, WINDOWS_1252);
    assert_eq!(sniffed.encoding, SHIFT_JIS);
    assert_eq!(
        decoded,
        document("日本語", "<meta charset=shift_jis>").as_bytes()
    );
}

#[test]
fn detect_utf8_wants_valid_utf8_with_non_ascii() {
    assert!(
        detect_utf8("<p>naïve café</p>".as_bytes()),
        "valid, non-ASCII"
    );
    assert!(
        !detect_utf8(b"<p>na\xEFve caf\xE9</p>"),
        "windows-1252: invalid"
    );
    assert!(
        !detect_utf8(b"<p>naive cafe</p>"),
        "ASCII: nothing to go by"
    );
    assert!(!detect_utf8(b""));
    let cut = &"<p>日本".as_bytes()[..7];
    assert!(detect_utf8(cut), "a sequence cut at the window's end");
    assert!(
        !detect_utf8(b"<p>\xE6\x97<"),
        "a sequence cut before more bytes"
    );
}

/// The encoding and sniffing source a transcoder chose after `chunks`, and the text it decoded.
fn sniff_and_text(
    mut transcoder: Transcoder,
    chunks: &[&[u8]],
) -> (&'static str, SniffSource, String) {
    let mut text = String::new();
    let mut collect = |token: Token<'_>| {
        if let Token::Text(t) = token {
            text.push_str(t.text());
        }
    };
    for chunk in chunks {
        transcoder.feed(chunk).for_each(&mut collect);
    }
    transcoder.finish().for_each(&mut collect);
    let sniffed = transcoder.sniffed().expect("decided at the end");
    (sniffed.encoding.name(), sniffed.source, text)
}

#[test]
fn detection_takes_valid_utf8_for_utf8_and_leaves_the_rest_to_the_default() {
    let detecting = || Transcoder::new(Options::default()).detect_utf8(true);
    let utf8 = "<p>naïve café</p>".as_bytes();
    let mut transcoder = detecting();
    drop(transcoder.tokenize(utf8));
    let sniffed = transcoder.sniffed().unwrap();
    assert_eq!(
        (sniffed.source, sniffed.confidence),
        (SniffSource::Detected, Confidence::Tentative)
    );
    let found = sniff_and_text(detecting(), &[utf8]);
    assert_eq!(
        found,
        ("UTF-8", SniffSource::Detected, "naïve café".to_owned())
    );
    let legacy = b"<p>na\xEFve caf\xE9</p>";
    let found = sniff_and_text(detecting(), &[legacy]);
    assert_eq!(
        found,
        (
            "windows-1252",
            SniffSource::Default,
            "naïve café".to_owned()
        )
    );
    let ascii = sniff_and_text(detecting(), &[b"<p>cafe</p>"]);
    assert_eq!((ascii.0, ascii.1), ("windows-1252", SniffSource::Default));
    // Off by default: the standard's algorithm.
    let standard = sniff_and_text(Transcoder::new(Options::default()), &[utf8]);
    assert_eq!(
        (standard.0, standard.1),
        ("windows-1252", SniffSource::Default)
    );
    assert_eq!(sniff(utf8, None, WINDOWS_1252).encoding, WINDOWS_1252);
}

#[test]
fn detection_comes_after_bom_transport_and_meta() {
    let detecting = || Transcoder::new(Options::default()).detect_utf8(true);
    let meta = "<meta charset=windows-1251><p>é".as_bytes();
    assert_eq!(sniff_and_text(detecting(), &[meta]).1, SniffSource::Meta);
    let transport = detecting().transport_label("koi8-r");
    let (encoding, source, _) = sniff_and_text(transport, &["<p>é".as_bytes()]);
    assert_eq!((encoding, source), ("KOI8-R", SniffSource::Transport));
}

#[test]
fn detection_sees_the_whole_deciding_chunk_and_a_cut_at_its_end() {
    let detecting = || Transcoder::new(Options::default()).detect_utf8(true);
    // Non-ASCII only after the first 1024 bytes, in the chunk that decides.
    let mut late = format!("<!--{}-->", "x".repeat(1100)).into_bytes();
    late.extend_from_slice("<p>日本</p>".as_bytes());
    let (encoding, _, text) = sniff_and_text(detecting(), &[&late[..10], &late[10..]]);
    assert_eq!((encoding, text.as_str()), ("UTF-8", "日本"));
    // The deciding chunk ends inside "日": still UTF-8.
    let mut cut = b"<p>".to_vec();
    cut.resize(1022, b'a');
    cut.extend_from_slice("日本</p>".as_bytes());
    let found = sniff_and_text(detecting(), &[&cut[..1024], &cut[1024..]]);
    assert_eq!((found.0, found.1), ("UTF-8", SniffSource::Detected));
    assert!(found.2.ends_with("a日本"), "{}", found.2);
}

#[test]
fn tokenize_a_whole_document_and_map_spans_afterwards() {
    let original = encode(&document("日本語", ""), SHIFT_JIS);
    let mut transcoder = Transcoder::new(Options::default())
        .transport_label("shift_jis")
        .map_offsets(true);
    let tokens: Vec<(Span, Vec<u8>)> = transcoder
        .tokenize(&original)
        .map(|token| (token.span(), token.raw().to_vec()))
        .collect();
    assert!(tokens.len() > 10);
    for (span, raw) in tokens {
        let at = transcoder
            .original_span(span)
            .expect("mapped after the iterator");
        let decoded = SHIFT_JIS
            .decode_without_bom_handling(&original[at.start..at.end])
            .0;
        assert_eq!(decoded.as_bytes(), raw);
    }
    // Again from the start, for another document.
    let again: Vec<_> = transcoder.tokenize(b"<p>x").map(|t| t.span()).collect();
    assert_eq!(again.len(), 2);
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Random bytes (often markup-like), in random encodings and chunkings: no panic, the same tokens
/// whatever the chunking, and original spans that are ordered and inside the input.
#[test]
fn random_bytes_any_encoding_any_chunking() {
    let encodings = [
        SHIFT_JIS,
        GB18030,
        EUC_KR,
        ISO_2022_JP,
        UTF_16BE,
        UTF_16LE,
        UTF_8,
        REPLACEMENT,
        X_USER_DEFINED,
        WINDOWS_1251,
    ];
    let pieces: &[&[u8]] = &[
        b"<",
        b">",
        b"<meta charset=",
        b"shift_jis",
        b"utf-16",
        b"\"",
        b"'",
        b"=",
        b" ",
        b"<!--",
        b"-->",
        b"\xEF\xBB\xBF",
        b"\xFF\xFE",
        b"\x1B$B",
        b"\x1B(B",
        b"&amp;",
        b"\x81",
        b"\x30",
        b"\xE3\x81",
        b"\xFE",
        b"\0",
        b"<?xml encoding='euc-kr'?>",
        b"http-equiv=content-type ",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..400 {
        let mut input = Vec::new();
        for _ in 0..rng.below(80) {
            if rng.below(3) == 0 {
                input.push(rng.next() as u8);
            } else {
                input.extend_from_slice(pieces[rng.below(pieces.len())]);
            }
        }
        let encoding = encodings[rng.below(encodings.len())];
        let build = |transport: bool| {
            let t = Transcoder::new(Options::default()).map_offsets(true);
            if transport {
                t.known_encoding(encoding)
            } else {
                t
            }
        };
        let transport = rng.below(2) == 0;
        let whole = run_checked(build(transport), &input, &[]);
        let mut splits: Vec<usize> = (0..rng.below(6))
            .map(|_| rng.below(input.len() + 1))
            .collect();
        splits.sort();
        assert_eq!(
            run_checked(build(transport), &input, &splits),
            whole,
            "{input:?} at {splits:?}"
        );
        let one_byte: Vec<usize> = (1..input.len()).collect();
        assert_eq!(
            run_checked(build(transport), &input, &one_byte),
            whole,
            "{input:?} bytewise"
        );
    }
}

/// Tokens for `input` fed at `splits`, checking that original spans are ordered and in bounds.
fn run_checked(mut transcoder: Transcoder, input: &[u8], splits: &[usize]) -> Vec<Html5libToken> {
    let mut out = Vec::new();
    let mut previous_end = 0;
    let mut check = |tokens: DecodedTokens<'_>, out: &mut Vec<Html5libToken>| {
        let mut tokens = tokens;
        while let Some(token) = tokens.next() {
            let span: Option<Span> = tokens.original_span(token.span());
            let span = span.expect("mapping is on");
            assert!(
                previous_end <= span.start && span.start <= span.end && span.end <= input.len(),
                "{input:?} at {splits:?}: {token:?} at {span:?} after {previous_end}"
            );
            previous_end = span.end;
            push(out, token);
        }
    };
    let mut start = 0;
    for &end in splits.iter().chain([&input.len()]) {
        check(transcoder.feed(&input[start..end]), &mut out);
        start = end;
    }
    check(transcoder.finish(), &mut out);
    out
}
