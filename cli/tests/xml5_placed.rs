//! `tagstream tokens --dialect xml5 --tree`, run as a user would: each token's line as without
//! `--tree`, plus where the tree stage put it (namespace and depth, or why it was dropped), the
//! tree stage's errors among the tokenizer's, entities, chunking and encodings.

#[path = "common/binary.rs"]
mod binary;

use serde_json::{Value, json};

use binary::{json_lines, merge_text_by, stdout_ok, tagstream};

const TREE: [&str; 4] = ["tokens", "--dialect", "xml5", "--tree"];

/// `args` after `tokens --dialect xml5 --tree`.
fn tree_args<'a>(args: &[&'a str]) -> Vec<&'a str> {
    [&TREE[..], args].concat()
}

/// Each line's type, name or text, and place: (namespace, depth, dropped).
fn places(lines: &[Value]) -> Vec<(String, Value, Value, Value)> {
    lines
        .iter()
        .map(|l| {
            let what = match l["type"].as_str().unwrap() {
                "start_tag" => format!("<{}>", l["name"].as_str().unwrap()),
                "end_tag" => format!("</{}>", l["name"].as_str().unwrap()),
                "text" => format!("{:?}", l["text"].as_str().unwrap()),
                "error" => format!("error {}", l["code"].as_str().unwrap()),
                other => other.to_owned(),
            };
            (
                what,
                l["namespace"].clone(),
                l["depth"].clone(),
                l["dropped"].clone(),
            )
        })
        .collect()
}

/// One expected place: what, namespace, depth, dropped.
fn at(what: &str, ns: Value, depth: Value, dropped: Value) -> (String, Value, Value, Value) {
    (what.to_owned(), ns, depth, dropped)
}

fn kept(what: &str, ns: Option<&str>, depth: u64) -> (String, Value, Value, Value) {
    at(what, json!(ns), json!(depth), Value::Null)
}

fn dropped(what: &str, why: &str) -> (String, Value, Value, Value) {
    at(what, Value::Null, Value::Null, json!(why))
}

fn error(code: &str) -> (String, Value, Value, Value) {
    at(
        &format!("error {code}"),
        Value::Null,
        Value::Null,
        Value::Null,
    )
}

#[test]
fn exact_lines() {
    let input = b"<r xmlns='urn:r'>t<a/></x></r>";
    let expected = [
        r#"{"type":"start_tag","name":"r","attributes":[{"name":"xmlns","value":"urn:r","raw":"xmlns='urn:r'","span":[3,16]}],"self_closing":false,"span":[0,17],"namespace":"urn:r","depth":1}"#,
        r#"{"type":"text","kind":"data","text":"t","span":[17,18],"namespace":"urn:r","depth":1}"#,
        r#"{"type":"start_tag","name":"a","attributes":[],"self_closing":true,"span":[18,22],"namespace":"urn:r","depth":2}"#,
        r#"{"type":"end_tag","name":"x","span":[22,26],"namespace":null,"depth":null,"dropped":"unmatched-end-tag"}"#,
        r#"{"type":"end_tag","name":"r","span":[26,30],"namespace":"urn:r","depth":1}"#,
    ];
    let stdout = stdout_ok(&TREE, input);
    assert_eq!(stdout.lines().collect::<Vec<_>>(), expected);
}

/// Every place a token can have: kept at its element (or the document), or dropped, and why.
#[test]
fn each_token_is_placed_or_dropped_with_a_reason() {
    let input = concat!(
        "<?xml version='1.0'?> </early><!DOCTYPE r>\n",
        "<r><!--in--><a><b><c>x</a><?pi d?></><!DOCTYPE late></r>\n",
        "<!--out--><after/>tail"
    );
    let lines = json_lines(&stdout_ok(&tree_args(&["--errors"]), input.as_bytes()));
    let no = None;
    assert_eq!(
        places(&lines),
        [
            kept("processing_instruction", no, 0),
            dropped("\" \"", "before-root"),
            dropped("</early>", "before-root"),
            error("content-before-root-element"),
            kept("doctype", no, 0),
            dropped("\"\\n\"", "before-root"),
            kept("<r>", no, 1),
            kept("comment", no, 1),
            kept("<a>", no, 2),
            kept("<b>", no, 3),
            kept("<c>", no, 4),
            kept("\"x\"", no, 4),
            // Ends c and b (implied), then a, the element it names.
            kept("</a>", no, 2),
            error("mismatched-end-tag"),
            kept("processing_instruction", no, 1),
            // The short end tag ends the current element, r.
            kept("</>", no, 1),
            dropped("doctype", "misplaced-doctype"),
            error("misplaced-doctype"),
            dropped("</r>", "after-root"),
            error("content-after-root-element"),
            dropped("\"\\n\"", "after-root"),
            kept("comment", no, 0),
            dropped("<after>", "after-root"),
            error("content-after-root-element"),
            dropped("\"tail\"", "after-root"),
            error("content-after-root-element"),
        ]
    );
}

#[test]
fn namespaces_default_prefixed_undeclared_and_unbound() {
    let input = concat!(
        "<r xmlns='urn:d' xmlns:p='urn:p'>",
        "<p:a>1</p:a><b xmlns=''>2<q:c/></b><p:d xmlns:p=''/>",
        "</r>"
    );
    let lines = json_lines(&stdout_ok(&tree_args(&["--errors"]), input.as_bytes()));
    let (d, p) = (Some("urn:d"), Some("urn:p"));
    assert_eq!(
        places(&lines),
        [
            kept("<r>", d, 1),
            kept("<p:a>", p, 2),
            kept("\"1\"", p, 2),
            kept("</p:a>", p, 2),
            kept("<b>", None, 2),
            kept("\"2\"", None, 2),
            // An unbound prefix: no namespace, an error.
            kept("<q:c>", None, 3),
            error("unbound-prefix"),
            kept("</b>", None, 2),
            // xmlns:p='' undeclares p: p:d is in no namespace, with an error.
            kept("<p:d>", None, 2),
            error("unbound-prefix"),
            kept("</r>", d, 1),
        ]
    );
}

/// A replacement text's tokens are not in the input: not printed; the text with the reference
/// is, once, and an element a replacement text leaves open holds what follows.
#[test]
fn entities_expand_without_lines_of_their_own() {
    let input = concat!(
        "<!DOCTYPE r [<!ENTITY e \"<b xmlns='urn:b'>in</b>\"><!ENTITY open \"<o>\">]>",
        "<r>a&e;z&nope;<s>&open;after</s></r>"
    );
    let lines = json_lines(&stdout_ok(&tree_args(&["--errors"]), input.as_bytes()));
    let tokens: Vec<_> = places(&lines)
        .into_iter()
        .filter(|(what, ..)| !what.starts_with("error unknown-named"))
        .collect();
    assert_eq!(
        tokens,
        [
            kept("doctype", None, 0),
            kept("<r>", None, 1),
            kept("\"a&e;z&nope;\"", None, 1),
            error("undeclared-entity"),
            kept("<s>", None, 2),
            kept("\"&open;after\"", None, 2),
            // The replacement text opened <o>: the end tag of s ends it (implied), then s.
            kept("</s>", None, 2),
            error("mismatched-end-tag"),
            kept("</r>", None, 1),
        ]
    );
    let undeclared = lines
        .iter()
        .find(|l| l["code"] == "undeclared-entity")
        .unwrap();
    assert_eq!(undeclared["offset"], input.find("&nope;").unwrap());
}

#[test]
fn tree_errors_only_with_errors() {
    let lines = json_lines(&stdout_ok(&TREE, b"<r><q:a/></x></r>"));
    assert!(lines.iter().all(|l| l["type"] != "error"), "{lines:?}");
    let lines = json_lines(&stdout_ok(&tree_args(&["--errors"]), b"<r><q:a/></x></r>"));
    let unbound = lines
        .iter()
        .find(|l| l["code"] == "unbound-prefix")
        .unwrap();
    assert_eq!(
        unbound,
        &json!({"type": "error", "code": "unbound-prefix", "offset": 3, "line": 1, "col": 4})
    );
    let last = lines.last().unwrap();
    assert_eq!(
        (&last["type"], &last["name"]),
        (&json!("end_tag"), &json!("r"))
    );
}

#[test]
fn the_end_of_input_ends_open_elements_with_an_error_last() {
    let lines = json_lines(&stdout_ok(&tree_args(&["--errors"]), b"<r><a>x"));
    assert_eq!(
        places(&lines),
        [
            kept("<r>", None, 1),
            kept("<a>", None, 2),
            kept("\"x\"", None, 2),
            error("eof-with-open-elements"),
        ]
    );
    assert_eq!(lines[3]["offset"], 7);
}

/// Without the place, every line is the one `tokens --dialect xml5` prints, and the tree stage's
/// errors are the only lines added: in every chunk size and encoding.
#[test]
fn lines_are_those_without_tree_plus_places() {
    let windows_1252: &[u8] =
        b"<?xml version='1.0' encoding='windows-1252'?><r a='caf\xE9'>\xE9t\xE9<q:x/></r>";
    let utf16: Vec<u8> = "\u{FEFF}<r xmlns='urn:x'>d\u{e9}j\u{e0} \u{1F600}<a/></b></r>"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let utf8 = "\u{FEFF}<r>caf\u{e9}<![CDATA[x]]>&amp;</r>".as_bytes();
    for input in [windows_1252, &utf16, utf8] {
        for size in ["1", "3", "65536"] {
            for extra in [&["--errors"][..], &["--errors", "--lossless"]] {
                let args = [&["--chunk-size", size][..], extra].concat();
                let plain = stdout_ok(&[&TREE[..3], &args].concat(), input);
                let placed = json_lines(&stdout_ok(&tree_args(&args), input));
                let without: Vec<Value> = placed
                    .into_iter()
                    .filter(|l| !is_tree_error(l))
                    .map(|mut l| {
                        let object = l.as_object_mut().unwrap();
                        for key in ["namespace", "depth", "dropped"] {
                            object.remove(key);
                        }
                        l
                    })
                    .collect();
                assert_eq!(without, json_lines(&plain), "{size} {extra:?} {input:?}");
            }
        }
    }
}

fn is_tree_error(line: &Value) -> bool {
    let tree_codes = [
        "unbound-prefix",
        "unmatched-end-tag",
        "mismatched-end-tag",
        "eof-with-open-elements",
    ];
    line["type"] == "error" && tree_codes.contains(&line["code"].as_str().unwrap())
}

/// Chunked, the places are the same (text may be cut at a seam: its pieces share the place).
#[test]
fn places_are_the_same_in_any_chunk_size() {
    let input = concat!(
        "<!DOCTYPE r [<!ENTITY e \"<b>in</b>\">]>\n<r xmlns='urn:r' xmlns:p='urn:p'>",
        "some text &e; &amp; more<p:a x='&e;'>deeper text</p:a></x><!--c--></r> tail"
    );
    let run = |size: &str| {
        let lines = json_lines(&stdout_ok(
            &tree_args(&["--errors", "--chunk-size", size]),
            input.as_bytes(),
        ));
        let (errors, tokens): (Vec<Value>, Vec<Value>) =
            lines.into_iter().partition(|l| l["type"] == "error");
        (merge_text(&tokens), errors)
    };
    let whole = run("65536");
    assert!(whole.0.iter().any(|l| l["dropped"] == "unmatched-end-tag"));
    for size in ["1", "3"] {
        assert_eq!(run(size), whole, "--chunk-size {size}");
    }
}

/// Adjacent text lines with one kind and one place joined.
fn merge_text(tokens: &[Value]) -> Vec<Value> {
    merge_text_by(tokens, |a, b| {
        ["kind", "namespace", "depth", "dropped"]
            .iter()
            .all(|k| a[k] == b[k])
    })
}

/// Spans and error offsets count the input's bytes, whatever its encoding.
#[test]
fn spans_and_offsets_are_in_input_bytes() {
    let utf16: Vec<u8> = "\u{FEFF}<r>\u{e9}</x></r>"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let lines = json_lines(&stdout_ok(&tree_args(&["--errors"]), &utf16));
    assert_eq!(lines[1]["span"], json!([8, 10]));
    assert_eq!(
        (&lines[2]["span"], &lines[2]["dropped"]),
        (&json!([10, 18]), &json!("unmatched-end-tag"))
    );
    assert_eq!(
        (&lines[3]["code"], &lines[3]["offset"]),
        (&json!("unmatched-end-tag"), &json!(10))
    );
    let latin = b"<r>\xE9\xE9<p:a/></r>";
    let lines = json_lines(&stdout_ok(
        &tree_args(&["--errors", "--encoding", "windows-1252"]),
        latin,
    ));
    assert_eq!(lines[2]["span"], json!([5, 11]));
    assert_eq!(
        (&lines[3]["code"], &lines[3]["offset"]),
        (&json!("unbound-prefix"), &json!(5))
    );
}

#[test]
fn lossless_raw_lines_are_dropped_as_raw() {
    let lines = json_lines(&stdout_ok(
        &tree_args(&["--lossless"]),
        b"\xEF\xBB\xBF<r><![CDATA[x]]></r>",
    ));
    let raw: Vec<_> = lines.iter().filter(|l| l["type"] == "raw").collect();
    assert!(!raw.is_empty());
    assert!(
        raw.iter()
            .all(|l| l["dropped"] == "raw" && l["depth"].is_null()),
        "{raw:?}"
    );
}

#[test]
fn tree_goes_with_xml5_and_without_xml5lib() {
    for (args, needle) in [
        (&["tokens", "--tree"][..], "--dialect"),
        (&["tokens", "--dialect", "html", "--tree"], "--dialect"),
        (
            &["tokens", "--dialect", "xml5", "--tree", "--xml5lib"],
            "--xml5lib",
        ),
    ] {
        let out = tagstream(args, b"<a/>");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

/// Past the depth limit (4096 open elements) the stage takes no token: every token from the
/// start tag that would go deeper on is still printed, dropped by the limit.
#[test]
fn past_the_depth_limit_tokens_are_dropped_not_lost() {
    let depth = 4100;
    let input = format!("{}x{}", "<a>".repeat(depth), "</a>".repeat(depth));
    for size in ["7", "65536"] {
        let lines = json_lines(&stdout_ok(
            &tree_args(&["--chunk-size", size]),
            input.as_bytes(),
        ));
        let tokens: Vec<&Value> = lines.iter().filter(|l| l["type"] != "text").collect();
        assert_eq!(tokens.len(), 2 * depth, "--chunk-size {size}");
        assert_eq!(tokens[4095]["depth"], 4096);
        for token in &tokens[4096..] {
            assert_eq!(token["dropped"], "depth-limit", "{token}");
        }
        let text: String = lines
            .iter()
            .filter(|l| l["type"] == "text")
            .map(|l| l["text"].as_str().unwrap())
            .collect();
        assert_eq!(text, "x");
    }
}
