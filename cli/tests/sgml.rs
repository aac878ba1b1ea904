//! `tagstream tokens --dialect sgml`, run as a user would: the note's three worked examples in its
//! listing format (as the library writes it), the JSON lines (kinds, spans, text and raw, problems with their code and
//! position), the lines' spans tiling the input, the same events in small chunks, and the
//! dialect checks.

#[path = "common/binary.rs"]
mod binary;

use serde_json::{Value, json};
use tagstream::Options;
use tagstream::sgml::{SgmlOptions, Tokenizer, write_listing};

use binary::{json_lines, repository, stdout_ok, tagstream};

const LISTING: &[&str] = &[
    "tokens",
    "--dialect",
    "sgml",
    "--normalize",
    "--sgml-listing",
];

/// The note's three worked examples ("The API to the Lexical Analyzer" and "Errors and
/// Limitations"), whose listings tests/sgml.rs holds against the note's text: the binary prints
/// what the library's `write_listing` writes.
#[test]
fn worked_examples_as_listing() {
    let examples: [&[u8]; 3] = [
        b"<xX val1 val2 aTTr3=\".76meters\">",
        b"<!Doctype Foo --my document type-- System \"abc\">",
        b"<tag xxx=yyy ?>xxx <![IGNORE[ a<b>c]]> zzz",
    ];
    for input in examples {
        let mut tokenizer = Tokenizer::new(
            Options::new().strip_bom(false),
            SgmlOptions { normalize: true },
        );
        let mut expected = String::new();
        tokenizer
            .tokenize(input)
            .for_each(|event| write_listing(&event, &mut expected));
        assert!(expected.contains("Tag Close: `>'"), "{expected}");
        assert_eq!(stdout_ok(LISTING, input), expected);
    }
}

#[test]
fn json_lines_exact() {
    let input = b"<P Id=x>&amp;\n<!-- c --><?pi>";
    let expected = [
        r#"{"channel":"primary","lexemes":[{"kind":"start","span":[0,2],"text":"<p","raw":"<P"},{"kind":"s","span":[2,3],"text":" "},{"kind":"attrname","span":[3,5],"text":"id","raw":"Id"},{"kind":"vi","span":[5,6],"text":"="},{"kind":"nmtoken","span":[6,7],"text":"x"},{"kind":"tagc","span":[7,8],"text":">"}]}"#,
        r#"{"channel":"primary","lexemes":[{"kind":"geref","span":[8,12],"text":"&amp"},{"kind":"refc","span":[12,13],"text":";"}]}"#,
        r#"{"channel":"primary","lexemes":[{"kind":"data","span":[13,14],"text":"\n"}]}"#,
        r#"{"channel":"auxiliary","lexemes":[{"kind":"markup_decl","span":[14,16],"text":"<!"},{"kind":"comment","span":[16,23],"text":"-- c --"},{"kind":"mdc","span":[23,24],"text":">"}]}"#,
        r#"{"channel":"auxiliary","lexemes":[{"kind":"pi","span":[24,29],"text":"<?pi>"}]}"#,
    ];
    let stdout = stdout_ok(&["tokens", "--dialect", "sgml", "--normalize"], input);
    assert_eq!(stdout.lines().collect::<Vec<_>>(), expected);
}

/// Without --normalize every text is its source, so no lexeme but a message has "raw".
#[test]
fn without_normalize_text_is_the_source() {
    let lines = json_lines(&stdout_ok(&["tokens", "--dialect", "sgml"], b"<P Id=x>"));
    let lexemes = lines[0]["lexemes"].as_array().unwrap();
    assert_eq!(lexemes[0]["text"], "<P");
    assert!(
        lexemes.iter().all(|l| l.get("raw").is_none()),
        "{lexemes:?}"
    );
}

#[test]
fn problems_have_code_message_position_and_offending_text() {
    let input = b"<p>\n<x ?>&#SPACE;";
    let lines = json_lines(&stdout_ok(&["tokens", "--dialect", "sgml"], input));
    let problems: Vec<&Value> = lines.iter().filter(|l| l["channel"] == "problem").collect();
    assert_eq!(problems.len(), 2, "{lines:?}");
    let error = problems[0];
    assert_eq!(
        (&error["code"], &error["line"], &error["col"]),
        (&json!("bad-character-in-tag"), &json!(2), &json!(4))
    );
    assert_eq!(
        error["lexemes"],
        json!([
            {"kind": "error", "span": [7, 7], "text": "bad character in tag", "raw": ""},
            {"kind": "data", "span": [7, 8], "text": "?"}
        ])
    );
    let limitation = problems[1];
    assert_eq!(limitation["code"], "named-character-reference");
    assert_eq!(limitation["lexemes"][0]["kind"], "limitation");
    assert_eq!(limitation["lexemes"][1]["text"], "&#SPACE;");
}

/// Every lexeme of every line as (kind, span, text), adjacent data events merged: a chunk seam
/// may split data into two events, and nothing else.
fn shape(lines: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for line in lines {
        let lexemes = line["lexemes"].as_array().unwrap();
        let is_data = |l: &Value| line["channel"] == "primary" && l["kind"] == "data";
        if let ([lexeme], Some(last)) = (&lexemes[..], out.last_mut())
            && is_data(lexeme)
            && last["channel"] == "primary"
            && last["lexemes"].as_array().unwrap().len() == 1
            && last["lexemes"][0]["kind"] == "data"
        {
            let merged = &mut last["lexemes"][0];
            merged["span"][1] = lexeme["span"][1].clone();
            let text = format!(
                "{}{}",
                merged["text"].as_str().unwrap(),
                lexeme["text"].as_str().unwrap()
            );
            merged["text"] = json!(text);
            continue;
        }
        out.push(line.clone());
    }
    out
}

/// The spans of all lexemes tile the input (sorted), and the events do not depend on the chunk size.
#[test]
fn lines_tile_the_input_and_are_the_same_in_small_chunks() {
    let input = std::fs::read(repository().join("datasets/samples/edge.html")).unwrap();
    let args = ["tokens", "--dialect", "sgml", "datasets/samples/edge.html"];
    let whole = json_lines(&stdout_ok(&args, b""));
    // Sorted by span: the problems found in a tag or declaration go out before it.
    let span = |l: &Value| {
        (
            l["span"][0].as_u64().unwrap(),
            l["span"][1].as_u64().unwrap(),
        )
    };
    let mut spans: Vec<(u64, u64)> = (whole.iter())
        .flat_map(|l| l["lexemes"].as_array().unwrap())
        .map(span)
        .collect();
    spans.sort();
    let mut at = 0;
    for (start, end) in spans {
        assert_eq!(start, at, "{start}..{end}");
        at = end;
    }
    assert_eq!(at, input.len() as u64);
    for size in ["1", "7", "100"] {
        let chunked = json_lines(&stdout_ok(
            &[&args[..], &["--chunk-size", size]].concat(),
            b"",
        ));
        assert_eq!(shape(&chunked), shape(&whole), "--chunk-size {size}");
    }
}

#[test]
fn options_of_other_dialects_are_refused() {
    let cases: &[(&[&str], &str)] = &[
        (&["--dialect", "sgml", "--errors"], "--errors"),
        (&["--dialect", "sgml", "--lossless"], "--lossless"),
        (&["--dialect", "sgml", "--encoding", "utf-8"], "--encoding"),
        (&["--dialect", "sgml", "--no-simulate"], "--no-simulate"),
        (&["--dialect", "sgml", "--xml5lib"], "--xml5lib"),
        (&["--dialect", "html", "--normalize"], "--normalize"),
        (&["--dialect", "xml5", "--sgml-listing"], "--sgml-listing"),
        (&["--sgml-listing"], "--sgml-listing"),
    ];
    for (args, flag) in cases {
        let out = tagstream(&[&["tokens"][..], args].concat(), b"<a>");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
    }
}

#[test]
fn help_describes_the_sgml_mode() {
    let help = stdout_ok(&["tokens", "--help"], b"");
    for text in [
        "sgml",
        "--normalize",
        "--sgml-listing",
        "markup_decl",
        "\"raw\"",
    ] {
        assert!(help.contains(text), "{text} missing from {help}");
    }
}
