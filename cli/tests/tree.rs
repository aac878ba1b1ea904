//! `tagstream tree --dialect xml5`, run as a user would: the tree format on standard input and on
//! a file, `--xml5lib` giving the suite's `#document` blocks byte for byte (whole and in chunks),
//! errors on standard error, the depth limit, `--dialect html` refused, and input in other
//! encodings than UTF-8 decoded (declared, named by `--encoding`, or by a byte order mark).

#[path = "common/binary.rs"]
mod binary;

use binary::{repository, stdout_ok, tagstream};

#[test]
fn tree_exact_lines() {
    let input = b"<?xml version='1.0'?><!DOCTYPE r><r xmlns='urn:r' xmlns:p='urn:p' b='2' p:a='1'>\
        t<![CDATA[<c>]]><p:e/><!--c--></r><?after x?>";
    let expected = concat!(
        "| <?xml version='1.0'?>\n",
        "| <!DOCTYPE r>\n",
        "| <{urn:r}r>\n",
        "|   b=\"2\"\n",
        "|   {http://www.w3.org/2000/xmlns/}xmlns:p=\"urn:p\"\n",
        "|   {http://www.w3.org/2000/xmlns/}xmlns=\"urn:r\"\n",
        "|   {urn:p}p:a=\"1\"\n",
        "|   \"t<c>\"\n",
        "|   <{urn:p}p:e>\n",
        "|   <!-- c -->\n",
        "| <?after x?>\n",
    );
    for chunk in ["1", "7", "65536"] {
        let args = ["tree", "--dialect", "xml5", "--chunk-size", chunk];
        assert_eq!(stdout_ok(&args, input), expected, "--chunk-size {chunk}");
    }
}

#[test]
fn tree_reads_a_file() {
    let stdout = stdout_ok(
        &["tree", "--dialect", "xml5", "datasets/samples/feed.xml"],
        b"",
    );
    assert!(
        stdout.starts_with("| <?xml version=\"1.0\" encoding=\"utf-8\"?>\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n| <{http://www.w3.org/2005/Atom}feed>\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n|       <{http://www.w3.org/1999/xhtml}div>\n"),
        "{stdout}"
    );
}

/// Every case of the suite's tree-construction files through `--xml5lib`: the output is the
/// `#document` block as the file has it, byte for byte, whole and one byte at a time.
#[test]
fn xml5lib_suite_blocks_byte_for_byte() {
    let dir = repository().join("tests/data/xml5lib-tests/tree-construction");
    let mut count = 0;
    for file in ["test1.dat", "namespace.dat"] {
        let text = std::fs::read_to_string(dir.join(file)).expect("suite file");
        for block in text.split("#data\n").skip(1) {
            let (input, document) = block.split_once("\n#document\n").expect("#document");
            let lines: String = document
                .lines()
                .filter(|l| l.starts_with('|'))
                .map(|l| format!("{l}\n"))
                .collect();
            let expected = format!("#document\n{lines}");
            let args = ["tree", "--dialect", "xml5", "--xml5lib"];
            assert_eq!(
                stdout_ok(&args, input.as_bytes()),
                expected,
                "{file}: {input}"
            );
            let bytes = [&args[..], &["--chunk-size", "1"]].concat();
            assert_eq!(
                stdout_ok(&bytes, input.as_bytes()),
                expected,
                "{file}: {input}"
            );
            count += 1;
        }
    }
    assert_eq!(count, 36);
}

#[test]
fn errors_go_to_standard_error_in_input_order() {
    let out = tagstream(
        &["tree", "--dialect", "xml5", "--errors"],
        b"<a b=1 b=2><p:c></x>",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "1:9: duplicate-attribute\n1:12: unbound-prefix\n1:17: unmatched-end-tag\n1:21: eof-with-open-elements\n"
    );
    let quiet = tagstream(&["tree", "--dialect", "xml5"], b"<a b=1 b=2><p:c></x>");
    assert!(quiet.stderr.is_empty());
}

#[test]
fn deeper_than_max_depth_prints_the_tree_so_far_and_fails() {
    let out = tagstream(
        &["tree", "--dialect", "xml5", "--max-depth", "2"],
        b"<a><b><c/></b></a>",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "| <a>\n|   <b>\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("depth limit at byte 6"), "{stderr}");
}

#[test]
fn an_entity_built_to_explode_prints_the_tree_within_the_limit_and_fails() {
    let mut subset = String::from("<!ENTITY l0 'lol'>");
    for i in 1..10 {
        let refs = format!("&l{};", i - 1).repeat(10);
        subset.push_str(&format!("<!ENTITY l{i} '{refs}'>"));
    }
    let doc = format!("<!DOCTYPE r [{subset}]><r>&l9;</r>");
    let out = tagstream(&["tree", "--dialect", "xml5"], doc.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("| <!DOCTYPE r>\n| <r>\n|   \"lollol"),
        "{}",
        &stdout[..80]
    );
    assert!(stdout.len() < 5 << 20, "{} bytes", stdout.len());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("entity expansion limit at byte"),
        "{stderr}"
    );
}

#[test]
fn only_xml5_has_a_tree() {
    let out = tagstream(&["tree", "--dialect", "html"], b"<p>");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("only --dialect xml5"));
    let out = tagstream(&["tree"], b"<p>");
    assert_eq!(out.status.code(), Some(2), "--dialect is required");
}

#[test]
fn other_encodings_are_decoded_as_xml_says() {
    let cases: [(&[&str], &[u8], &str); 4] = [
        (
            &[],
            b"<?xml version='1.0' encoding='windows-1252'?><r a='\xE9'>caf\xE9</r>",
            "| <?xml version='1.0' encoding='windows-1252'?>\n| <r>\n|   a=\"é\"\n|   \"café\"\n",
        ),
        (
            &["--encoding", "latin1"],
            b"<r>caf\xE9</r>",
            "| <r>\n|   \"café\"\n",
        ),
        (
            // A byte order mark wins over --encoding.
            &["--encoding", "shift_jis"],
            b"\xFF\xFE<\0r\0>\0\xE9\0<\0/\0r\0>\0",
            "| <r>\n|   \"é\"\n",
        ),
        (
            // Without a declaration, UTF-8 (malformed bytes as U+FFFD).
            &[],
            b"\xEF\xBB\xBF<r>\xC3\xA9\xFF</r>",
            "| <r>\n|   \"é\u{FFFD}\"\n",
        ),
    ];
    for (options, input, expected) in cases {
        for chunk in ["1", "3", "65536"] {
            let mut args = vec!["tree", "--dialect", "xml5", "--chunk-size", chunk];
            args.extend_from_slice(options);
            assert_eq!(stdout_ok(&args, input), expected, "{args:?}");
        }
    }
}
