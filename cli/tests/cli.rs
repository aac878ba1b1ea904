//! The `tagstream` binary, run as a user would: arguments, stdin, stdout, stderr and exit status.

#[path = "common/binary.rs"]
mod binary;

use serde_json::{Value, json};

use binary::{json_lines, merge_text, repository, stdout_ok, tagstream};

const ARTICLE: &str = "datasets/samples/article.html";

fn span(value: &Value) -> (u64, u64) {
    let pair = value["span"].as_array().expect("span array");
    assert_eq!(pair.len(), 2, "span {pair:?}");
    (
        pair[0].as_u64().expect("span start"),
        pair[1].as_u64().expect("span end"),
    )
}

#[test]
fn tokens_on_a_file_gives_json_lines_with_increasing_spans() {
    let len = std::fs::metadata(repository().join(ARTICLE))
        .expect("article sample")
        .len();
    let tokens = json_lines(&stdout_ok(&["tokens", ARTICLE], b""));
    assert!(tokens.len() > 10, "only {} tokens", tokens.len());
    assert_eq!(tokens[0]["type"], "doctype");
    assert_eq!(tokens[0]["name"], "html");
    let mut previous_end = 0;
    for token in &tokens {
        let (start, end) = span(token);
        assert!(
            start >= previous_end && start < end && end <= len,
            "{token}"
        );
        for attribute in token["attributes"].as_array().into_iter().flatten() {
            let (a, b) = span(attribute);
            assert!(start < a && a < b && b < end, "{attribute} in {token}");
        }
        previous_end = end;
    }
    assert_eq!(previous_end, len, "the last token ends the file");
}

#[test]
fn tokens_are_the_same_in_small_chunks() {
    let whole = json_lines(&stdout_ok(&["tokens", ARTICLE], b""));
    let chunked = json_lines(&stdout_ok(&["tokens", "--chunk-size", "7", ARTICLE], b""));
    assert_eq!(merge_text(&whole), merge_text(&chunked));
}

#[test]
fn tokens_from_stdin_exact_lines() {
    let input = br#"<a href="/x?a=1&amp;b=2" id=q>Fish &amp; chips</a><!-- note -->"#;
    let expected = [
        r#"{"type":"start_tag","name":"a","attributes":[{"name":"href","value":"/x?a=1&b=2","raw":"href=\"/x?a=1&amp;b=2\"","span":[3,24]},{"name":"id","value":"q","raw":"id=q","span":[25,29]}],"self_closing":false,"span":[0,30]}"#,
        r#"{"type":"text","kind":"data","text":"Fish & chips","span":[30,46]}"#,
        r#"{"type":"end_tag","name":"a","span":[46,50]}"#,
        r#"{"type":"comment","data":" note ","span":[50,63]}"#,
    ];
    let stdout = stdout_ok(&["tokens", "-"], input);
    assert_eq!(stdout.lines().collect::<Vec<_>>(), expected);
    assert_eq!(stdout_ok(&["tokens"], input), stdout, "FILE defaults to -");
}

#[test]
fn tokens_doctype_and_errors() {
    let stdout = stdout_ok(&["tokens", "--errors"], b"<!DOCTYPE html>\n<b x=1 x=2>");
    let expected = [
        r#"{"type":"doctype","name":"html","public_id":null,"system_id":null,"force_quirks":false,"span":[0,15]}"#,
        r#"{"type":"text","kind":"data","text":"\n","span":[15,16]}"#,
        r#"{"type":"start_tag","name":"b","attributes":[{"name":"x","value":"1","raw":"x=1","span":[19,22]}],"self_closing":false,"span":[16,27]}"#,
        r#"{"type":"error","code":"duplicate-attribute","offset":24,"line":2,"col":9}"#,
    ];
    assert_eq!(stdout.lines().collect::<Vec<_>>(), expected);
    let quiet = stdout_ok(&["tokens"], b"<!DOCTYPE html>\n<b x=1 x=2>");
    assert_eq!(quiet.lines().collect::<Vec<_>>(), expected[..3]);
}

#[test]
fn html5lib_mode_exact_output() {
    let expected =
        r#"{"output":[["StartTag","a",{"b":"c"}],["Character","x&y"],["EndTag","a"]],"errors":[]}"#;
    let input = b"<a b='c'>x&amp;y</a>";
    assert_eq!(
        stdout_ok(&["tokens", "--html5lib"], input).trim_end(),
        expected
    );
    let one_byte = stdout_ok(&["tokens", "--html5lib", "--chunk-size", "1"], input);
    assert_eq!(one_byte.trim_end(), expected);
}

/// One token with more errors than the tokenizer's default cap: --html5lib lists the first
/// 65,536 and counts the rest in "errors_dropped"; fed in chunks, every error is listed.
#[test]
fn html5lib_mode_counts_the_errors_past_the_cap() {
    let storm = [&b"x"[..], &[0; 70_000]].concat();
    let whole: Value = serde_json::from_str(&stdout_ok(&["tokens", "--html5lib"], &storm)).unwrap();
    assert_eq!(whole["errors"].as_array().map(Vec::len), Some(65_536));
    assert_eq!(whole["errors_dropped"], 70_000 - 65_536);
    let args = ["tokens", "--html5lib", "--chunk-size", "4096"];
    let chunked: Value = serde_json::from_str(&stdout_ok(&args, &storm)).unwrap();
    assert_eq!(chunked["errors"].as_array().map(Vec::len), Some(70_000));
    assert_eq!(chunked.get("errors_dropped"), None);
}

#[test]
fn html5lib_mode_self_closing_doctype_and_errors() {
    let stdout = stdout_ok(
        &["tokens", "--html5lib"],
        b"<!doctype HTML><br/><p z=1 a=2 z=3>",
    );
    let expected = json!({
        "output": [
            ["DOCTYPE", "html", null, null, true],
            ["StartTag", "br", {}, true],
            ["StartTag", "p", {"z": "1", "a": "2"}],
        ],
        "errors": [{"code": "duplicate-attribute", "line": 1, "col": 33}],
    });
    assert_eq!(serde_json::from_str::<Value>(&stdout).unwrap(), expected);
    assert!(
        stdout.contains(r#"{"z":"1","a":"2"}"#),
        "attributes in source order: {stdout}"
    );
}

#[test]
fn html5lib_mode_initial_state_and_last_start_tag() {
    let args = [
        "tokens",
        "--html5lib",
        "--state",
        "RCDATA state",
        "--last-start-tag",
        "title",
    ];
    let stdout = stdout_ok(&args, b"a</title>b");
    assert_eq!(
        stdout.trim_end(),
        r#"{"output":[["Character","a"],["EndTag","title"],["Character","b"]],"errors":[]}"#
    );
    // Without the last start tag, `</title>` is not an appropriate end tag: it stays text.
    let stdout = stdout_ok(
        &["tokens", "--html5lib", "--state", "RCDATA state"],
        b"a</title>b",
    );
    assert_eq!(
        stdout.trim_end(),
        r#"{"output":[["Character","a</title>b"]],"errors":[]}"#
    );
}

#[test]
fn legacy_pi_versus_default() {
    let input = b"<?xml-stylesheet a?><?php x?>";
    let default = stdout_ok(&["tokens", "--html5lib"], input);
    assert_eq!(
        serde_json::from_str::<Value>(&default).unwrap(),
        json!({
            "output": [["Comment", "?xml-stylesheet a?"], ["ProcessingInstruction", "php", "x"]],
            "errors": [{"code": "disallowed-processing-instruction-target", "line": 1, "col": 17}],
        })
    );
    let legacy = stdout_ok(&["tokens", "--html5lib", "--legacy-pi"], input);
    assert_eq!(
        serde_json::from_str::<Value>(&legacy).unwrap(),
        json!({
            "output": [["Comment", "?xml-stylesheet a?"], ["Comment", "?php x?"]],
            "errors": [
                {"code": "unexpected-question-mark-instead-of-tag-name", "line": 1, "col": 2},
                {"code": "unexpected-question-mark-instead-of-tag-name", "line": 1, "col": 22},
            ],
        })
    );
    let lines = json_lines(&stdout_ok(&["tokens"], input));
    let types: Vec<&Value> = lines.iter().map(|t| &t["type"]).collect();
    assert_eq!(types, ["comment", "processing_instruction"]);
    assert_eq!(
        (&lines[1]["target"], &lines[1]["data"]),
        (&json!("php"), &json!("x"))
    );
    let lines = json_lines(&stdout_ok(&["tokens", "--legacy-pi"], input));
    let types: Vec<&Value> = lines.iter().map(|t| &t["type"]).collect();
    assert_eq!(types, ["comment", "comment"]);
}

#[test]
fn missing_file_is_an_error_naming_it() {
    let out = tagstream(&["tokens", "no/such/file.html"], b"");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no/such/file.html"), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
}

#[test]
fn unknown_state_is_an_error_listing_the_states() {
    let out = tagstream(&["tokens", "--html5lib", "--state", "Bogus state"], b"x");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Bogus state"), "stderr: {stderr}");
    assert!(stderr.contains("\"Script data state\""), "stderr: {stderr}");
}

#[test]
fn zero_chunk_size_is_an_error() {
    let out = tagstream(&["tokens", "--chunk-size", "0"], b"x");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("chunk size"));
}

#[test]
fn help_describes_the_commands() {
    let help = stdout_ok(&["--help"], b"");
    assert!(help.contains("tokens"), "{help}");
    let help = stdout_ok(&["tokens", "--help"], b"");
    for option in [
        "--errors",
        "--html5lib",
        "--legacy-pi",
        "--state",
        "--last-start-tag",
        "--chunk-size",
    ] {
        assert!(help.contains(option), "{option} missing from {help}");
    }
}

#[test]
fn tokens_simulate_by_default_and_no_simulate_turns_it_off() {
    let input = b"<script>a<b></script><svg><![CDATA[c]]></svg>";
    let on = json_lines(&stdout_ok(&["tokens"], input));
    let kinds: Vec<(&str, &str)> = on
        .iter()
        .map(|t| {
            (
                t["type"].as_str().unwrap(),
                t["kind"].as_str().or(t["name"].as_str()).unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("start_tag", "script"),
            ("text", "script_data"),
            ("end_tag", "script"),
            ("start_tag", "svg"),
            ("text", "cdata"),
            ("end_tag", "svg"),
        ]
    );
    let off = json_lines(&stdout_ok(&["tokens", "--no-simulate"], input));
    assert_eq!(off[1]["kind"], "data");
    assert_eq!(off[2]["type"], "start_tag", "{off:?}");
    assert!(
        off.iter().any(|t| t["type"] == "comment"),
        "CDATA is a bogus comment without the simulator: {off:?}"
    );
}

#[test]
fn tokens_report_ambiguity_and_take_scripting() {
    let lines = json_lines(&stdout_ok(&["tokens"], b"<svg><path></div>"));
    assert_eq!(lines[2]["ambiguity"], "ForeignEndTag");
    assert!(lines[0].get("ambiguity").is_none());
    let input = b"<noscript><p></noscript>";
    let off = json_lines(&stdout_ok(&["tokens"], input));
    assert_eq!(off[1]["type"], "start_tag");
    let on = json_lines(&stdout_ok(&["tokens", "--scripting"], input));
    assert_eq!(on[1]["kind"], "rawtext");
}

#[test]
fn html5lib_mode_simulate_is_off_by_default() {
    let input = b"<title>a<b></title><svg><path></div>";
    let bare = stdout_ok(&["tokens", "--html5lib"], input);
    assert_eq!(
        serde_json::from_str::<Value>(&bare).unwrap()["output"][2],
        json!(["StartTag", "b", {}])
    );
    let simulated = stdout_ok(&["tokens", "--html5lib", "--simulate"], input);
    let simulated: Value = serde_json::from_str(&simulated).unwrap();
    assert_eq!(simulated["output"][1], json!(["Character", "a<b>"]));
    assert_eq!(simulated["ambiguous"], json!([[5, "ForeignEndTag"]]));
    assert_eq!(simulated["errors"], json!([]));
    // Chunked feeding gives the same simulated stream.
    let chunked = stdout_ok(
        &["tokens", "--html5lib", "--simulate", "--chunk-size", "1"],
        input,
    );
    assert_eq!(serde_json::from_str::<Value>(&chunked).unwrap(), simulated);
}

#[test]
fn simulate_and_no_simulate_conflict() {
    let out = tagstream(&["tokens", "--simulate", "--no-simulate"], b"");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot be used with"), "{stderr}");
}

#[test]
fn tokens_decode_a_named_encoding_with_spans_in_input_bytes() {
    // Shift_JIS "<p title=日本>本</p>": 日 = 93 FA, 本 = 96 7B.
    let input = b"<p title=\x93\xFA\x96\x7B>\x96\x7B</p>";
    let stdout = stdout_ok(
        &["tokens", "--encoding", "Shift_JIS", "--chunk-size", "1"],
        input,
    );
    let expected = [
        r#"{"type":"start_tag","name":"p","attributes":[{"name":"title","value":"日本","raw":"title=日本","span":[3,13]}],"self_closing":false,"span":[0,14]}"#,
        r#"{"type":"text","kind":"data","text":"本","span":[14,16]}"#,
        r#"{"type":"end_tag","name":"p","span":[16,20]}"#,
    ];
    assert_eq!(stdout.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn tokens_sniff_a_meta_and_default_to_windows_1252() {
    let meta = stdout_ok(&["tokens"], b"<meta charset=windows-1251><p>\xCF\xF0\xE8");
    assert_eq!(json_lines(&meta)[2]["text"], "При");
    let plain = json_lines(&stdout_ok(&["tokens"], b"<p>caf\xE9"));
    assert_eq!(
        (&plain[1]["text"], &plain[1]["span"]),
        (&json!("café"), &json!([3, 7]))
    );
    let utf8 = stdout_ok(
        &["tokens", "--default-encoding", "utf-8"],
        "<p>café".as_bytes(),
    );
    assert_eq!(json_lines(&utf8)[1]["text"], "café");
}

#[test]
fn tokens_detect_utf8_unless_a_default_is_forced() {
    let utf8 = "<p>Grüße</p>".as_bytes();
    for args in [&["tokens"][..], &["tokens", "--default-encoding", "auto"]] {
        let lines = json_lines(&stdout_ok(args, utf8));
        assert_eq!(
            (&lines[1]["text"], &lines[1]["span"]),
            (&json!("Grüße"), &json!([3, 10]))
        );
    }
    let legacy = json_lines(&stdout_ok(&["tokens"], b"<p>Gr\xFC\xDFe</p>"));
    assert_eq!(
        (&legacy[1]["text"], &legacy[1]["span"]),
        (&json!("Grüße"), &json!([3, 8])),
        "invalid UTF-8 stays windows-1252"
    );
    let forced = stdout_ok(&["tokens", "--default-encoding", "windows-1252"], utf8);
    assert_eq!(json_lines(&forced)[1]["text"], "GrÃ¼ÃŸe");
    // What is read before deciding decides: all of it when it is held back for sniffing...
    let chunked = stdout_ok(&["tokens", "--chunk-size", "1"], utf8);
    assert_eq!(json_lines(&chunked)[1]["text"], "Grüße");
    // ...but not what comes after the first 1024 bytes and the chunk that completes them.
    let mut late = format!("<!--{}-->", "x".repeat(1100)).into_bytes();
    late.extend_from_slice(utf8);
    let lines = json_lines(&stdout_ok(&["tokens", "--chunk-size", "1024"], &late));
    assert_eq!(lines[2]["text"], "GrÃ¼ÃŸe");
    let lines = json_lines(&stdout_ok(&["tokens"], &late));
    assert_eq!(lines[2]["text"], "Grüße", "in the first 64 KiB");
}

#[test]
fn tokens_reject_an_unknown_default_encoding() {
    let out = tagstream(&["tokens", "--default-encoding", "utf-9"], b"<p>");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("utf-9") && stderr.contains("auto"),
        "{stderr}"
    );
}

#[test]
fn tokens_report_a_late_meta_as_an_encoding_change() {
    let mut input = format!("<!--{}-->", "x".repeat(1100)).into_bytes();
    let meta_at = input.len();
    input.extend_from_slice(b"<meta charset=koi8-r><p>\xF0");
    let lines = json_lines(&stdout_ok(&["tokens"], &input));
    let change = json!({
        "type": "encoding_changed",
        "from": "windows-1252",
        "to": "KOI8-R",
        "span": [meta_at, meta_at + 21],
    });
    assert_eq!(lines[2], change, "right after the <meta>");
    assert_eq!(lines[4]["text"], "ð", "decoding goes on with windows-1252");
    let certain = stdout_ok(&["tokens", "--encoding", "koi8-r"], &input);
    assert!(!certain.contains("encoding_changed"));
    assert_eq!(json_lines(&certain)[3]["text"], "П");
}

#[test]
fn tokens_reject_an_unknown_encoding_label() {
    let out = tagstream(&["tokens", "--encoding", "latin-9000"], b"<p>");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("latin-9000") && stderr.contains("Encoding Standard"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn help_texts_stand_on_their_own() {
    for command in ["", "tokens", "links", "text", "stats"] {
        let args: Vec<&str> = [command, "--help"]
            .into_iter()
            .filter(|a| !a.is_empty())
            .collect();
        let help = stdout_ok(&args, b"");
        assert!(help.contains("Usage: tagstream"), "{args:?}: {help}");
        assert!(
            !help.contains("README"),
            "{args:?} points to a file a binary user does not have: {help}"
        );
        assert!(help.contains("Exit status:"), "{args:?}: {help}");
    }
}

#[test]
fn tokens_lossless_lines_cover_every_input_byte() {
    let input = "\u{FEFF}a</>b<svg><![CDATA[c]]></svg><p class=x".as_bytes();
    for chunk in ["1", "5", "65536"] {
        let lines = json_lines(&stdout_ok(
            &["tokens", "--lossless", "--chunk-size", chunk],
            input,
        ));
        let mut at = 0;
        for line in &lines {
            let (start, end) = span(line);
            assert_eq!(start, at, "chunk size {chunk}: {line}");
            at = end;
        }
        assert_eq!(at, input.len() as u64, "chunk size {chunk}");
        let raws: Vec<&str> = lines
            .iter()
            .filter(|l| l["type"] == "raw")
            .map(|l| l["raw"].as_str().unwrap())
            .collect();
        assert_eq!(raws, ["\u{FEFF}", "</>", "<![CDATA[", "]]>", "<p class=x"]);
    }
}
