//! `tagstream rewrite` and `tagstream serialize`, run as a user would.

#[path = "common/binary.rs"]
mod binary;

use binary::{repository, stdout_ok, tagstream};

/// Raw stdout of a successful run.
fn bytes_ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = tagstream(args, stdin);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn rewrite_with_no_option_is_the_input_byte_for_byte() {
    let hostile: &[u8] =
        b"\xEF\xBB\xBFa</>b<svg><![CDATA[x]]></svg>\r\n\0\xFF<title>t</><p class=x";
    for chunk in ["1", "7", "65536"] {
        assert_eq!(
            bytes_ok(&["rewrite", "--chunk-size", chunk], hostile),
            hostile
        );
        assert_eq!(
            bytes_ok(
                &["rewrite", "--dialect", "xml5", "--chunk-size", chunk],
                hostile
            ),
            hostile
        );
    }
    for entry in std::fs::read_dir(repository().join("datasets/samples")).unwrap() {
        let path = entry.unwrap().path();
        let input = std::fs::read(&path).unwrap();
        let path = path.to_str().unwrap();
        assert!(bytes_ok(&["rewrite", path], b"") == input, "{path}");
    }
}

#[test]
fn rewrite_writes_the_input_back_in_its_own_encoding() {
    let windows_1252: &[u8] =
        b"<meta charset=windows-1252><p class=\xE9>caf\xE9<script>\x80</script><!-- \xFF --></p>";
    let shift_jis: &[u8] = b"<p title=\x93\xFA>\x93\xFA\x96\x7B<b>\x8C\xEA</b></p>";
    let mut utf16 = vec![0xFE, 0xFF];
    for unit in "<p>日本<!-- é --></p>".encode_utf16() {
        utf16.extend_from_slice(&unit.to_be_bytes());
    }
    for chunk in ["1", "5", "65536"] {
        let args = ["rewrite", "--chunk-size", chunk];
        assert_eq!(bytes_ok(&args, windows_1252), windows_1252);
        assert_eq!(bytes_ok(&args, &utf16), utf16);
        let named = ["rewrite", "--chunk-size", chunk, "--encoding", "shift_jis"];
        assert_eq!(bytes_ok(&named, shift_jis), shift_jis);
    }
    assert_eq!(
        bytes_ok(
            &["rewrite", "--remove-element", "script", "--strip-comments"],
            windows_1252
        ),
        b"<meta charset=windows-1252><p class=\xE9>caf\xE9</p>"
    );
    assert_eq!(
        bytes_ok(
            &[
                "rewrite",
                "--encoding",
                "shift_jis",
                "--remove-element",
                "b"
            ],
            shift_jis
        ),
        b"<p title=\x93\xFA>\x93\xFA\x96\x7B</p>"
    );
}

#[test]
fn rewrite_xml5_takes_a_default_encoding_label_and_keeps_utf8_for_auto() {
    // An element named `é` in windows-1252: without a declaration XML reads UTF-8, where the
    // byte is invalid and the name is U+FFFD.
    let latin1: &[u8] = b"<r><\xE9>x</\xE9>y</r>";
    let remove = ["rewrite", "--dialect", "xml5", "--remove-element", "\u{E9}"];
    assert_eq!(bytes_ok(&remove, latin1), latin1);
    let labelled = [&remove[..], &["--default-encoding", "windows-1252"]].concat();
    assert_eq!(bytes_ok(&labelled, latin1), b"<r>y</r>");
    let auto = [&remove[..], &["--default-encoding", "auto"]].concat();
    assert_eq!(bytes_ok(&auto, latin1), latin1);
}

#[test]
fn serialize_writes_in_the_inputs_encoding() {
    let windows_1252: &[u8] = b"<meta charset=windows-1252><P CLASS=\xE9>caf\xE9 &#x65E5;";
    let expected: &[u8] = b"<meta charset=windows-1252><p class=\xE9>caf\xE9 &#26085;";
    for chunk in ["1", "65536"] {
        assert_eq!(
            bytes_ok(&["serialize", "--chunk-size", chunk], windows_1252),
            expected
        );
    }
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in "<P>日本".encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    let mut expected = vec![0xFF, 0xFE];
    for unit in "<p>日本".encode_utf16() {
        expected.extend_from_slice(&unit.to_le_bytes());
    }
    assert_eq!(bytes_ok(&["serialize"], &utf16), expected);
    assert_eq!(
        bytes_ok(
            &["serialize", "--encoding", "iso-2022-jp"],
            b"<b>\x1B$BF|\x1B(B</b>"
        ),
        b"<b>\x1B$BF|\x1B(B</b>"
    );
}

#[test]
fn rewrite_strips_removes_and_absolutizes_only_what_it_is_asked() {
    let input = b"<p id=1>a<!-- c --><script>x</p></script><a  href='../b?q=1&amp;r' title=t>b</a>\
        <svg><a href=s /></svg><base href=/root/><img src=i.png>";
    let out = stdout_ok(
        &[
            "rewrite",
            "--strip-comments",
            "--remove-element",
            "script",
            "--absolutize-links",
            "https://example.com/x/y",
        ],
        input,
    );
    assert_eq!(
        out,
        "<p id=1>a<a  href='https://example.com/b?q=1&amp;r' title=t>b</a>\
         <svg><a href=https://example.com/x/s /></svg><base href=https://example.com/root/>\
         <img src=https://example.com/root/i.png>"
    );
}

#[test]
fn serialize_normalizes_and_reads_back() {
    let out = stdout_ok(
        &["serialize", "--omit-optional-tags"],
        b"<HTML><BODY><UL><LI CLASS='a b'>x &amp; y<LI>z</UL><BR/>",
    );
    assert_eq!(out, "<ul><li class=\"a b\">x &amp; y<li>z</ul><br/>");
    let out = tagstream(&["serialize"], b"<svg><![CDATA[a]]]]><![CDATA[>b]]></svg>");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
