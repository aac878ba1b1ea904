//! The rewriter over a [`Transcoder`]: tokens decoded from any encoding, the input's own bytes
//! written back. With no change the output is the input byte for byte (a byte order mark,
//! invalid bytes and multi-byte characters cut by a chunk seam included), for every chunking;
//! what the rewrite makes is written in the document's encoding, characters it cannot hold as
//! numeric character references.

#![cfg(feature = "encoding")]

mod common;

use common::{Rng, even_cuts, proptest_cases, random_cuts};
use tagstream::encoding::Transcoder;
use tagstream::write::{Rewriter, WriteError};
use tagstream::{Options, Token};

/// Rewrite `input` fed in `cuts` through a transcoder (transport label `label`), editing each
/// start tag with `edit`.
fn rewrite(
    input: &[u8],
    cuts: &[usize],
    label: Option<&str>,
    edit: &mut dyn FnMut(&mut EditStep<'_>) -> Result<(), WriteError>,
) -> Result<Vec<u8>, WriteError> {
    let mut transcoder = Transcoder::new(Options::new().lossless(true)).map_offsets(true);
    if let Some(label) = label {
        transcoder = transcoder.transport_label(label);
    }
    let mut rewriter = Rewriter::new(Vec::new());
    let mut start = 0;
    for end in cuts.iter().copied().chain(std::iter::once(input.len())) {
        run(&mut rewriter, transcoder.feed(&input[start..end]), edit)?;
        start = end;
    }
    run(&mut rewriter, transcoder.finish(), edit)?;
    rewriter.finish()
}

/// A start tag and what may be done about it.
struct EditStep<'e> {
    name: String,
    set: &'e mut Vec<(String, String)>,
    insert_after: &'e mut Option<String>,
}

fn run(
    rewriter: &mut Rewriter<Vec<u8>>,
    tokens: tagstream::encoding::DecodedTokens<'_>,
    edit: &mut dyn FnMut(&mut EditStep<'_>) -> Result<(), WriteError>,
) -> Result<(), WriteError> {
    let mut rewrite = rewriter.rewrite(tokens);
    while let Some(token) = rewrite.next()? {
        let Token::StartTag(tag) = token else {
            continue;
        };
        let (mut set, mut insert_after) = (Vec::new(), None);
        edit(&mut EditStep {
            name: tag.name().to_owned(),
            set: &mut set,
            insert_after: &mut insert_after,
        })?;
        if !set.is_empty() {
            let mut tag_edit = rewrite.edit()?;
            for (name, value) in &set {
                tag_edit.set_attribute(name, value);
            }
            tag_edit.apply()?;
        }
        if let Some(text) = insert_after {
            rewrite.insert_after_text(&text)?;
        }
    }
    Ok(())
}

/// Inputs in other encodings, each with the transport label it needs (if any).
fn documents() -> Vec<(&'static str, Vec<u8>, Option<&'static str>)> {
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in "<p title=\"日本\">x</p><!-- é -->".encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    vec![
        (
            "windows-1252 from <meta>",
            b"<meta charset=windows-1252><p class=\xE9t\xE9>caf\xE9 &amp; cr\xE8me</p>\x80\x81"
                .to_vec(),
            None,
        ),
        (
            "Shift_JIS from the transport",
            b"<p title=\x93\xFA\x96\x7B>\x93\xFA\x96\x7B\x8C\xEA<br></p><![CDATA[\x93\xFA]]></>"
                .to_vec(),
            Some("shift_jis"),
        ),
        (
            "Shift_JIS with invalid bytes",
            b"<p>\x93\xFA\xFF\x81<a href=\x82>x\x93".to_vec(),
            Some("shift_jis"),
        ),
        ("UTF-16LE with its BOM", utf16, None),
        (
            "UTF-8 with its BOM",
            "\u{FEFF}<p>été</p><div class=x".as_bytes().to_vec(),
            None,
        ),
        (
            "ISO-2022-JP",
            b"<p>\x1B$BF|K\\\x1B(B</p><b>x</b>".to_vec(),
            Some("iso-2022-jp"),
        ),
        (
            "EUC-KR, long enough to sniff from the <meta> after 1024 bytes",
            [
                b"<!-- ".as_slice(),
                &[b'-'; 1100],
                b" --><meta charset=euc-kr><p>\xC7\xD1\xB1\xDB</p>",
            ]
            .concat(),
            None,
        ),
    ]
}

#[test]
fn no_change_writes_the_input_back_byte_for_byte_under_any_chunking() {
    let mut rng = Rng::new(0xe7c0);
    for (name, input, label) in documents() {
        let mut chunkings = vec![
            Vec::new(),
            even_cuts(input.len(), 1),
            even_cuts(input.len(), 3),
        ];
        chunkings.extend((0..proptest_cases(8, 1)).map(|_| random_cuts(&mut rng, input.len())));
        for cuts in &chunkings {
            let out = rewrite(&input, cuts, label, &mut |_| Ok(())).expect(name);
            assert!(
                out == input,
                "{name}, cut at {cuts:?}: the output differs from the input"
            );
        }
    }
}

#[test]
fn edits_are_written_in_the_documents_encoding() {
    // windows-1252: é is one byte; 日 is not in it and becomes a reference.
    let input = b"<meta charset=windows-1252><p class=\xE9>caf\xE9</p>";
    let out = rewrite(input, &[20], None, &mut |step| {
        if step.name == "p" {
            step.set.push(("title".into(), "é 日".into()));
            *step.insert_after = Some("— ü".into());
        }
        Ok(())
    })
    .expect("rewrite");
    assert_eq!(
        out,
        b"<meta charset=windows-1252><p class=\xE9 title=\"\xE9 &#26085;\">\x97 \xFCcaf\xE9</p>"
    );

    // Shift_JIS: the inserted text is Shift_JIS; the untouched bytes are the input's.
    let input = b"<p>\x93\xFA</p>";
    let out = rewrite(input, &[], Some("shift_jis"), &mut |step| {
        *step.insert_after = Some("本".into());
        Ok(())
    })
    .expect("rewrite");
    assert_eq!(out, b"<p>\x96\x7B\x93\xFA</p>");

    // UTF-16: what is written is UTF-16 too.
    let mut input = vec![0xFF, 0xFE];
    for unit in "<b>x</b>".encode_utf16() {
        input.extend_from_slice(&unit.to_le_bytes());
    }
    let out = rewrite(&input, &[5], None, &mut |step| {
        *step.insert_after = Some("é".into());
        Ok(())
    })
    .expect("rewrite");
    let mut expected = vec![0xFF, 0xFE];
    for unit in "<b>éx</b>".encode_utf16() {
        expected.extend_from_slice(&unit.to_le_bytes());
    }
    assert_eq!(out, expected);
}

#[test]
fn a_transcoder_without_its_offset_map_is_a_typed_error() {
    let input = b"<meta charset=windows-1252><p>caf\xE9</p>";
    let mut transcoder = Transcoder::new(Options::new().lossless(true));
    let mut rewriter = Rewriter::new(Vec::new());
    let result = (|| {
        let mut rewrite = rewriter.rewrite(transcoder.feed_last(input));
        while rewrite.next()?.is_some() {}
        Ok::<(), WriteError>(())
    })();
    assert!(
        matches!(result, Err(WriteError::Unmapped { .. })),
        "{result:?}"
    );
}

#[test]
fn corpus_pages_through_the_transcoder_come_back_byte_for_byte() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("datasets/corpus");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("datasets/corpus not fetched: skipped");
        return;
    };
    let mut rng = Rng::new(0xe7c1);
    let mut pages = 0;
    for entry in entries.take(common::native_or_miri(usize::MAX, 0)) {
        let input = std::fs::read(entry.expect("entry").path()).expect("page");
        for cuts in [
            even_cuts(input.len(), 4096),
            random_cuts(&mut rng, input.len()),
        ] {
            let out = rewrite(&input, &cuts, None, &mut |_| Ok(())).expect("rewrite");
            assert!(out == input, "a corpus page differs after the rewrite");
        }
        // The same page read as windows-1252 (every byte a character), written back.
        let out = rewrite(&input, &[], Some("windows-1252"), &mut |_| Ok(())).expect("rewrite");
        assert!(out == input, "a corpus page read as windows-1252 differs");
        pages += 1;
    }
    eprintln!("{pages} corpus pages");
}
