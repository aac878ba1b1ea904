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
