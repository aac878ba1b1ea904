//! The crawler commands (`links`, `text`, `stats`) run as a user would: files, directories,
//! stdin and WARC archives the test writes itself, output order, skips and exit codes.

#[path = "common/binary.rs"]
mod binary;

use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::{Value, json};

use binary::{json_lines, stdout_ok, tagstream};

const LINKS: &str = "datasets/samples/links.html";
const TEXT: &str = "datasets/samples/text.html";

/// A fresh directory under the target directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn links_of_the_sample_with_a_base_url() {
    let stdout = stdout_ok(
        &[
            "links",
            "-q",
            "--base",
            "https://example.com/site/page.html",
            LINKS,
        ],
        b"",
    );
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 24);
    assert_eq!(
        lines[4],
        json!({
            "input": LINKS, "element": "a", "attribute": "href",
            "url": "/search?q=fish&chips&copy=2",
            "resolved": "https://cdn.example/search?q=fish&chips&copy=2",
            "span": [502, 533], "in_template": false,
        })
    );
    let urls: Vec<&str> = lines.iter().map(|l| l["url"].as_str().unwrap()).collect();
    for not_a_link in [
        "/in-script",
        "/in-script.png",
        "/in-style",
        "/in-comment",
        "/in-iframe",
        "/in-cdata",
        "/in-textarea",
    ] {
        assert!(!urls.contains(&not_a_link), "{not_a_link} reported");
    }
    let plain = stdout_ok(
        &[
            "links",
            "-q",
            "--plain",
            "--base",
            "https://example.com/site/page.html",
            LINKS,
        ],
        b"",
    );
    let resolved: Vec<&str> = lines
        .iter()
        .map(|l| l["resolved"].as_str().unwrap())
        .collect();
    assert_eq!(plain.lines().collect::<Vec<_>>(), resolved);
}

#[test]
fn links_from_stdin_without_a_base_keep_relative_urls_unresolved() {
    let stdout = stdout_ok(
        &["links", "-q", "--plain"],
        b"<a href=x.html>x</a><img srcset='https://a.example/i,1.png 2x'>",
    );
    assert_eq!(stdout, "x.html\nhttps://a.example/i,1.png\n");
    let line = &json_lines(&stdout_ok(&["links", "-q", "-"], b"<a href=x.html>x</a>"))[0];
    assert_eq!(
        (&line["input"], &line["resolved"]),
        (&json!("-"), &Value::Null)
    );
}

#[test]
fn text_of_the_sample() {
    let lines = json_lines(&stdout_ok(&["text", "-q", TEXT], b""));
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["title"], "Fish & Chips");
    assert_eq!(lines[0]["description"], "The best fish in town.");
    assert_eq!(
        lines[0]["text"],
        "Menu Cod & chips, £8. Haddock on\u{a0}Fridays. Salt Vinegar Enable JavaScript Mon Closed \
         Tue 12–22 Fish & <chips> Your order keep this"
    );
    let blocks = stdout_ok(
        &["text", "-q", "--plain", "--blocks", "--scripting", TEXT],
        b"",
    );
    assert_eq!(
        blocks,
        "Menu\nCod & chips, £8.\nHaddock on\u{a0}Fridays.\nSalt\nVinegar\nMon Closed\nTue 12–22\n\
         Fish & <chips> Your order\nkeep this\n\n"
    );
}

#[test]
fn stats_counts_tokens_and_errors() {
    let lines = json_lines(&stdout_ok(
        &["stats", "-q", "-"],
        b"<!DOCTYPE html><p a=1 a=2>x<!--c--></p>&amp",
    ));
    assert_eq!(
        lines[0],
        json!({
            "input": "-", "bytes": 43,
            "tokens": {"doctype": 1, "start_tag": 1, "end_tag": 1, "text": 2, "comment": 1, "processing_instruction": 0},
            "errors": {"duplicate-attribute": 1, "missing-semicolon-after-character-reference": 1},
        })
    );
    let total = &lines[1]["total"];
    assert_eq!(
        (&total["documents"], &total["bytes"]),
        (&json!(1), &json!(43))
    );
    // A number, rounded to 0.1 MB/s: 43 bytes on a loaded machine may round to 0.0.
    assert!(
        total["mb_per_s"].as_f64().is_some_and(|v| v >= 0.0),
        "{total}"
    );
}

/// Past the tokenizer's default cap of 65,536 stored errors (one text token of 70,000 NULs), the
/// counts by code stay exact and `errors_dropped` says how many were counted without a position.
#[test]
fn stats_counts_every_error_of_a_storm_past_the_cap() {
    let storm = [&b"x"[..], &[0; 70_000], b"\x01"].concat();
    let lines = json_lines(&stdout_ok(&["stats", "-q", "-"], &storm));
    let errors = json!({
        "unexpected-null-character": 70_000, "control-character-in-input-stream": 1,
    });
    assert_eq!(lines[0]["errors"], errors);
    assert_eq!(lines[0]["errors_dropped"], 70_001 - 65_536);
    assert_eq!(lines[1]["total"]["errors"], errors);
    assert_eq!(lines[1]["total"]["errors_dropped"], 70_001 - 65_536);
}

#[test]
fn directories_are_read_recursively_in_name_order_and_output_keeps_input_order() {
    let dir = scratch("directories");
    std::fs::create_dir_all(dir.join("b/c")).unwrap();
    let pages = [
        ("a.html", "<a href=1>"),
        ("b/c/d.htm", "<a href=2>"),
        ("b/e.html", "<a href=3>"),
        ("z.html", "<a href=4>"),
    ];
    for (name, html) in pages {
        std::fs::write(dir.join(name), html).unwrap();
    }
    std::fs::write(dir.join("notes.txt"), "<a href=no>").unwrap();
    let dir_arg = dir.to_str().unwrap();
    for jobs in ["1", "2", "4"] {
        let stdout = stdout_ok(
            &[
                "links", "-q", "--plain", "-j", jobs, dir_arg, LINKS, dir_arg,
            ],
            b"",
        );
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines[..4], ["1", "2", "3", "4"], "-j {jobs}");
        assert_eq!(lines[lines.len() - 4..], ["1", "2", "3", "4"], "-j {jobs}");
        assert_eq!(lines.len(), 8 + 24);
    }
}

#[test]
fn unreadable_inputs_are_skipped_with_exit_code_3() {
    let out = tagstream(&["links", "--plain", "no/such.html", "-"], b"<a href=ok>");
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ok\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("tagstream: skipped no/such.html: "),
        "{stderr}"
    );
    assert!(stderr.contains("2 inputs, 1 documents"), "{stderr}");
    assert!(stderr.contains("1 skipped"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn help_lists_the_crawler_commands_and_their_options() {
    let help = stdout_ok(&["--help"], b"");
    for command in ["links", "text", "stats"] {
        assert!(help.contains(command), "{command} missing from {help}");
        let help = stdout_ok(&[command, "--help"], b"");
        for option in [
            "--plain",
            "--jobs",
            "--quiet",
            "--scripting",
            "--encoding",
            "--default-encoding",
        ] {
            assert!(
                help.contains(option),
                "{option} missing from {command} --help"
            );
        }
    }
    assert!(stdout_ok(&["links", "--help"], b"").contains("--base"));
    assert!(stdout_ok(&["text", "--help"], b"").contains("--blocks"));
}

#[test]
fn jobs_must_be_positive() {
    let out = tagstream(&["links", "-j", "0", LINKS], b"");
    assert_eq!(out.status.code(), Some(2));
}

// ---- Encodings -------------------------------------------------------------------------------

/// The `text` of one document read from stdin with `args`.
fn text_of(args: &[&str], html: &[u8]) -> Value {
    let args = [&["text", "-q"][..], args, &["-"]].concat();
    json_lines(&stdout_ok(&args, html))[0]["text"].clone()
}

#[test]
fn crawler_commands_detect_utf8_and_keep_windows_1252_otherwise() {
    let utf8 = "<p>Grüße, naïve café".as_bytes();
    assert_eq!(text_of(&[], utf8), "Grüße, naïve café");
    assert_eq!(
        text_of(&[], b"<p>Gr\xFC\xDFe, na\xEFve caf\xE9"),
        "Grüße, naïve café"
    );
    assert_eq!(
        text_of(&["--default-encoding", "windows-1252"], utf8),
        "GrÃ¼ÃŸe, naÃ¯ve cafÃ©"
    );
    assert_eq!(
        text_of(&["--default-encoding", "koi8-r"], b"<p>\xF0\xD2\xC9"),
        "При"
    );
    assert_eq!(
        text_of(&["--encoding", "windows-1251"], b"<p>\xCF\xF0\xE8"),
        "При"
    );
    // Non-ASCII far from the start still counts: the whole document is looked at.
    let mut late = format!("<!--{}-->", "x".repeat(70_000)).into_bytes();
    late.extend_from_slice(utf8);
    assert_eq!(text_of(&[], &late), "Grüße, naïve café");
}

#[test]
fn crawler_commands_reject_unknown_labels() {
    for command in ["links", "text", "stats"] {
        for option in ["--encoding", "--default-encoding"] {
            let out = tagstream(&[command, option, "latin-9000", "-"], b"<p>");
            assert_eq!(out.status.code(), Some(2), "{command} {option}");
            assert!(out.stdout.is_empty());
        }
    }
}

#[test]
fn link_spans_are_byte_offsets_in_the_input() {
    let html =
        b"<meta charset=shift_jis><p>\x93\xFA\x96\x7B</p><a href='/\x93\xFA'>x</a><img src=i.png>";
    let lines = json_lines(&stdout_ok(&["links", "-q", "-"], html));
    let written: Vec<&[u8]> = lines
        .iter()
        .map(|line| {
            let span = &line["span"];
            let (start, end) = (span[0].as_u64().unwrap(), span[1].as_u64().unwrap());
            &html[start as usize..end as usize]
        })
        .collect();
    assert_eq!(written, [&b"/\x93\xFA"[..], b"i.png"]);
    assert_eq!(lines[0]["url"], "/日");
}

/// A windows-1251 page whose `<meta charset>` comes too late for the 1024-byte prescan.
fn late_meta_page() -> Vec<u8> {
    let mut page = format!("<!--{}-->", "-".repeat(1100)).into_bytes();
    page.extend_from_slice(
        b"<meta charset=windows-1251><p>\xCF\xF0\xE8\xE2\xE5\xF2 <a href=/x>\xEC\xE8\xF0</a>",
    );
    page
}

#[test]
fn a_late_meta_makes_the_crawler_commands_read_the_page_again() {
    let page = late_meta_page();
    assert_eq!(text_of(&[], &page), "Привет мир");
    let link = &json_lines(&stdout_ok(&["links", "-q", "-"], &page))[0];
    let at = page.windows(3).position(|w| w == b"/x>").unwrap();
    assert_eq!(link["span"], json!([at, at + 2]));
    let stats = &json_lines(&stdout_ok(&["stats", "-q", "-"], &page))[0];
    assert_eq!(stats["tokens"]["start_tag"], 3, "counted once: {stats}");
    assert_eq!(stats["bytes"], page.len());
    // With the encoding given, the <meta> is not looked at.
    let given = text_of(&["--encoding", "windows-1252"], &page);
    assert_eq!(given, "Ïðèâåò ìèð");
}

#[test]
fn past_4_mib_a_late_meta_reads_a_file_again_and_leaves_stdin_in_its_first_encoding_with_a_note() {
    // Longer than the 4 MiB read whole: streamed, the <meta> past the first chunk.
    let mut page = format!("<!--{}-->", "-".repeat(5 << 20)).into_bytes();
    page.extend_from_slice(b"<meta charset=windows-1251><p>\xCF\xF0\xE8\xE2\xE5\xF2");
    let path = scratch("late_meta_past_4_mib").join("page.html");
    std::fs::write(&path, &page).unwrap();
    let from_file = json_lines(&stdout_ok(&["text", "-q", path.to_str().unwrap()], b""));
    assert_eq!(from_file[0]["text"], "Привет");
    let out = tagstream(&["text", "-"], &page);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(json_lines(&stdout)[0]["text"], "Ïðèâåò");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let note = "tagstream: note: -: a <meta> declares windows-1251 past the first 4194305 bytes, \
                too late to read this input again (not a regular file): read as windows-1252 \
                throughout\n";
    assert!(stderr.starts_with(note), "{stderr}");
    assert!(
        stderr.contains(&format!("1 documents, {:.2} MB", page.len() as f64 / 1e6)),
        "{stderr}"
    );
}

// ---- WARC archives ---------------------------------------------------------------------------

/// A WARC record with these headers and block.
fn warc_record(warc_type: &str, uri: &str, content_type: &str, block: &[u8]) -> Vec<u8> {
    let mut record = format!(
        "WARC/1.1\r\nWARC-Type: {warc_type}\r\nWARC-Target-URI: {uri}\r\n\
         WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000000>\r\n\
         Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    record.extend_from_slice(block);
    record.extend_from_slice(b"\r\n\r\n");
    record
}

fn http_response(content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut block =
        format!("HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nServer: test\r\n\r\n")
            .into_bytes();
    block.extend_from_slice(body);
    block
}

const HTTP_RESPONSE: &str = "application/http; msgtype=response";

/// The records of the test archive, in order; the fourth is malformed (no Content-Length).
fn archive_records() -> Vec<Vec<u8>> {
    let latin1 = http_response(
        "text/html; charset=ISO-8859-1",
        b"<title>Caf\xe9</title><a href='../menu.html'>Men\xfc</a>",
    );
    let utf8 = http_response("text/html", "<p>Grüße <img src=/i.png>".as_bytes());
    vec![
        warc_record("warcinfo", "", "application/warc-fields", b"software: test\r\n"),
        warc_record("request", "https://a.example/x/", "application/http; msgtype=request", b"GET /x/ HTTP/1.1\r\n\r\n"),
        warc_record("response", "https://a.example/x/page.html", HTTP_RESPONSE, &latin1),
        b"WARC/1.1\r\nWARC-Type: response\r\nContent-Type: application/http\r\n\r\n<a href=/lost>\r\n\r\n".to_vec(),
        warc_record("response", "https://b.example/data.json", HTTP_RESPONSE, &http_response("application/json", b"{\"a\":\"<a href=/no>\"}")),
        warc_record("response", "<https://c.example/>", HTTP_RESPONSE, &utf8),
    ]
}

/// Each record gzipped as its own member, as Common Crawl writes them.
fn gzip_member(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// Flip eight bytes in the middle of a gzip member: its inflating fails there (or its CRC does).
fn break_in_the_middle(member: &mut [u8]) {
    let middle = member.len() / 2;
    member[middle - 4..middle + 4]
        .iter_mut()
        .for_each(|b| *b ^= 0x5a);
}

/// Start offsets of `parts` laid end to end.
fn offsets(parts: &[Vec<u8>]) -> Vec<u64> {
    parts
        .iter()
        .scan(0, |at, part| {
            let start = *at;
            *at += part.len() as u64;
            Some(start)
        })
        .collect()
}

/// `(offset, page, link as written, resolved)` of each `links` line.
fn link_rows(stdout: &str) -> Vec<(u64, String, String, String)> {
    json_lines(stdout)
        .iter()
        .map(|l| {
            let field = |name: &str| l[name].as_str().unwrap().to_owned();
            (
                l["offset"].as_u64().unwrap(),
                field("page"),
                field("url"),
                field("resolved"),
            )
        })
        .collect()
}

fn row(offset: u64, page: &str, url: &str, resolved: &str) -> (u64, String, String, String) {
    (offset, page.to_owned(), url.to_owned(), resolved.to_owned())
}

/// The two links of the archive's HTML records (`archive_records`), in records at `first` and
/// `second`.
fn archive_links(first: u64, second: u64) -> [(u64, String, String, String); 2] {
    [
        row(
            first,
            "https://a.example/x/page.html",
            "../menu.html",
            "https://a.example/menu.html",
        ),
        row(
            second,
            "https://c.example/",
            "/i.png",
            "https://c.example/i.png",
        ),
    ]
}

#[test]
fn warc_archive_end_to_end() {
    let records = archive_records();
    let at = offsets(&records);
    let path = scratch("warc").join("crawl.warc");
    std::fs::write(&path, records.concat()).unwrap();
    let path = path.to_str().unwrap();
    let out = tagstream(&["links", path], b"");
    assert_eq!(out.status.code(), Some(3), "a record was skipped");
    assert_eq!(
        link_rows(&String::from_utf8(out.stdout).unwrap()),
        archive_links(at[2], at[5])
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    let skip = format!(
        "tagstream: skipped {path} at offset {}: malformed WARC record: missing or invalid Content-Length\n",
        at[3]
    );
    assert!(stderr.starts_with(&skip), "{stderr}");
    assert!(stderr.contains("1 inputs, 2 documents"), "{stderr}");

    let text =
        json_lines(&String::from_utf8(tagstream(&["text", "-q", path], b"").stdout).unwrap());
    assert_eq!(
        (&text[0]["title"], &text[0]["text"]),
        (&json!("Café"), &json!("Menü")),
        "ISO-8859-1 decoded"
    );
    assert_eq!(text[1]["text"], "Grüße");
}

#[test]
fn warc_records_are_sniffed_after_their_http_charset() {
    let body = b"<meta charset=windows-1251><p>\xCF\xF0\xE8";
    let records = [
        ("text/html", "При"),                        // the <meta>
        ("text/html; charset=koi8-r", "оПХ"),        // the HTTP charset wins
        ("text/html; charset=no-such-label", "При"), // an unknown label is ignored
    ];
    let archive: Vec<u8> = records
        .iter()
        .flat_map(|(content_type, _)| {
            warc_record(
                "response",
                "https://e.example/",
                HTTP_RESPONSE,
                &http_response(content_type, body),
            )
        })
        .collect();
    let path = scratch("warc-charset").join("crawl.warc");
    std::fs::write(&path, archive).unwrap();
    let lines = json_lines(&stdout_ok(&["text", "-q", path.to_str().unwrap()], b""));
    let texts: Vec<&str> = lines.iter().map(|l| l["text"].as_str().unwrap()).collect();
    let expected: Vec<&str> = records.iter().map(|(_, text)| *text).collect();
    assert_eq!(texts, expected);
}

#[test]
fn warc_gz_with_a_member_per_record_a_broken_and_a_truncated_member() {
    let records = archive_records();
    let mut members: Vec<Vec<u8>> = records.iter().map(|r| gzip_member(r)).collect();
    let lost = warc_record(
        "response",
        "https://d.example/",
        HTTP_RESPONSE,
        &http_response("text/html", b"<a href=/lost>"),
    );
    let mut broken = gzip_member(&lost);
    break_in_the_middle(&mut broken);
    members.insert(4, broken);
    let truncated = gzip_member(&lost);
    members.push(truncated[..truncated.len() - 12].to_vec());
    let at = offsets(&members);
    let path = scratch("warc-gz").join("crawl.warc.gz");
    std::fs::write(&path, members.concat()).unwrap();
    let path = path.to_str().unwrap();

    let out = tagstream(&["links", path], b"");
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        link_rows(&String::from_utf8(out.stdout).unwrap()),
        archive_links(at[2], at[6])
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    let skips: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("tagstream: skipped"))
        .collect();
    assert_eq!(skips.len(), 3, "{stderr}");
    let expected = [
        (
            at[3],
            "malformed WARC record at byte 0 of the gzip member: missing or invalid Content-Length",
        ),
        (at[4], "broken gzip member"),
        (at[7], "broken gzip member"),
    ];
    for (line, (offset, why)) in skips.iter().zip(expected) {
        let start = format!("tagstream: skipped {path} at offset {offset}: {why}");
        assert!(line.starts_with(&start), "{line} should start with {start}");
    }
}

#[test]
fn one_gzip_member_for_a_whole_warc_is_streamed_with_the_same_output() {
    // Longer compressed than the 4 MiB read ahead of a member: the member is read as it
    // inflates, its records processed on every thread and written in order; they are reported
    // at its offset, 0.
    let mut x = 0x9E37_79B9_u32;
    let noise: Vec<u8> = (0..5 << 20)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect();
    let mut records = archive_records();
    records.remove(3); // malformed: it would end the member's records
    let filler = http_response("application/octet-stream", &noise);
    records.insert(
        3,
        warc_record("response", "https://big.example/", HTTP_RESPONSE, &filler),
    );
    let whole = gzip_member(&records.concat());
    assert!(whole.len() > 4 << 20);
    let path = scratch("warc-whole-gz").join("whole.warc.gz");
    std::fs::write(&path, &whole).unwrap();
    let path = path.to_str().unwrap();
    for jobs in ["1", "2", "5"] {
        let stdout = stdout_ok(&["links", "-q", "-j", jobs, path], b"");
        assert_eq!(link_rows(&stdout), archive_links(0, 0), "-j {jobs}");
    }
}

/// A WARC file of `response` records with these HTTP messages, all for `uri`.
fn warc_of_responses(test: &str, uri: &str, messages: &[Vec<u8>]) -> PathBuf {
    let archive: Vec<u8> = messages
        .iter()
        .flat_map(|message| warc_record("response", uri, HTTP_RESPONSE, message))
        .collect();
    let path = scratch(test).join("crawl.warc");
    std::fs::write(&path, archive).unwrap();
    path
}

#[test]
fn non_utf8_bytes_in_http_headers_keep_the_record_and_a_latin1_charset_label_is_read() {
    let message = |content_type: &[u8]| {
        let mut m =
            b"HTTP/1.1 200 OK\r\nContent-Disposition: inline; filename=\"caf\xe9.html\"\r\n\
            Content-Type: "
                .to_vec();
        m.extend_from_slice(content_type);
        m.extend_from_slice(b"\r\nX-Note: \xff\xfe\r\n\r\n<title>Caf\xe9</title><a href=/m>m</a>");
        m
    };
    let path = warc_of_responses(
        "warc-latin1-headers",
        "https://f.example/",
        &[
            message(b"text/html; charset=ISO-8859-1"),
            // A label with a byte no label has is no label: the page is sniffed as usual.
            message(b"text/html; charset=\"latin1\xa0\""),
        ],
    );
    let out = tagstream(&["text", "-q", path.to_str().unwrap()], b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&String::from_utf8(out.stdout).unwrap());
    let titles: Vec<&str> = lines.iter().map(|l| l["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Café", "Café"]);
}

/// An HTTP response with these extra headers and the body as sent on the wire.
fn raw_response(headers: &str, wire_body: &[u8]) -> Vec<u8> {
    let mut m = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n{headers}\r\n").into_bytes();
    m.extend_from_slice(wire_body);
    m
}

/// `body` in chunked transfer coding, cut after each of `cuts` (byte counts), the first chunk
/// with an extension, and a trailer.
fn chunked(body: &[u8], cuts: &[usize]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &end) in cuts.iter().chain([&body.len()]).enumerate() {
        let extension = if i == 0 { ";name=value" } else { "" };
        out.extend_from_slice(format!("{:X}{extension}\r\n", end - start).as_bytes());
        out.extend_from_slice(&body[start..end]);
        out.extend_from_slice(b"\r\n");
        start = end;
    }
    out.extend_from_slice(b"0\r\nX-Trailer: t\r\n\r\n");
    out
}

fn zlib(body: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(body).unwrap();
    encoder.finish().unwrap()
}

fn brotli(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
    encoder.write_all(body).unwrap();
    drop(encoder);
    out
}

#[test]
fn raw_transfers_are_undone_chunked_gzip_deflate_br_and_what_cannot_be_is_reported() {
    let page = |name: &str| format!("<p>{name}</p><a href=\"/{name}-link\">x</a>").into_bytes();
    // The chunk boundary cuts the link in the middle: "/chunked-" | "link".
    let cut = page("chunked");
    let at = memchr_str(&cut, "link\"");
    let messages = [
        raw_response("Transfer-Encoding: chunked\r\n", &chunked(&cut, &[5, at])),
        raw_response("Content-Encoding: gzip\r\n", &gzip_member(&page("gzip"))),
        raw_response("Content-Encoding: deflate\r\n", &zlib(&page("deflate"))),
        raw_response("Content-Encoding: br\r\n", &brotli(&page("br"))),
        raw_response(
            "Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n",
            &chunked(&gzip_member(&page("both")), &[7]),
        ),
        // Damaged: a gzip body cut short, an unknown coding, a chunk size past the end.
        raw_response(
            "Content-Encoding: gzip\r\n",
            &gzip_member(&page("lost"))[..20],
        ),
        raw_response("Content-Encoding: compress\r\n", &page("lost")),
        raw_response("Transfer-Encoding: chunked\r\n", b"FFFF\r\n<a href=/lost>"),
        // A body the writer already de-chunked, its header kept: read as it is.
        raw_response("Transfer-Encoding: chunked\r\n", &page("unchunked")),
    ];
    let records: Vec<Vec<u8>> = messages
        .iter()
        .map(|m| warc_record("response", "https://g.example/", HTTP_RESPONSE, m))
        .collect();
    let at = offsets(&records);
    let path = scratch("warc-raw").join("crawl.warc");
    std::fs::write(&path, records.concat()).unwrap();
    let path = path.to_str().unwrap();

    let out = tagstream(&["links", "--plain", path], b"");
    assert_eq!(out.status.code(), Some(3), "records were skipped");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "https://g.example/chunked-link\nhttps://g.example/gzip-link\n\
         https://g.example/deflate-link\nhttps://g.example/br-link\nhttps://g.example/both-link\n\
         https://g.example/unchunked-link\n"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    let skips: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("tagstream: skipped"))
        .collect();
    let expected = [
        (at[5], "HTTP body not decoded: Content-Encoding gzip:"),
        (
            at[6],
            "HTTP body not decoded: Content-Encoding compress: unknown coding",
        ),
        (at[7], "HTTP body not decoded: Transfer-Encoding chunked:"),
    ];
    assert_eq!(skips.len(), expected.len(), "{stderr}");
    for (line, (offset, why)) in skips.iter().zip(expected) {
        let start = format!("tagstream: skipped {path} at offset {offset}: {why}");
        assert!(line.starts_with(&start), "{line} should start with {start}");
    }
    let text =
        json_lines(&String::from_utf8(tagstream(&["text", "-q", path], b"").stdout).unwrap());
    let texts: Vec<&str> = text.iter().map(|l| l["text"].as_str().unwrap()).collect();
    assert_eq!(
        texts,
        [
            "chunked x",
            "gzip x",
            "deflate x",
            "br x",
            "both x",
            "unchunked x"
        ]
    );
}

fn memchr_str(haystack: &[u8], needle: &str) -> usize {
    haystack
        .windows(needle.len())
        .position(|w| w == needle.as_bytes())
        .unwrap()
}

/// Run the binary with `args` and its standard output closed (`>&-`), through `sh`.
fn with_stdout_closed(args: &[&str]) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" >&-")
        .arg(env!("CARGO_BIN_EXE_tagstream"))
        .args(args)
        .current_dir(binary::repository())
        .output()
        .expect("run tagstream through sh")
}

#[test]
fn a_closed_or_full_stdout_is_exit_1_with_a_message_and_dev_null_is_not() {
    for command in ["links", "text", "stats", "tokens"] {
        let closed = with_stdout_closed(&[command, LINKS]);
        let stderr = String::from_utf8_lossy(&closed.stderr);
        assert_eq!(closed.status.code(), Some(1), "{command} >&-: {stderr}");
        assert!(
            stderr.contains("tagstream: cannot write output: standard output is closed"),
            "{command} >&-: {stderr}"
        );
        let full = std::process::Command::new(env!("CARGO_BIN_EXE_tagstream"))
            .args([command, LINKS])
            .current_dir(binary::repository())
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&full.stderr);
        assert_eq!(
            full.status.code(),
            Some(1),
            "{command} >/dev/full: {stderr}"
        );
        assert!(
            stderr.contains("tagstream: cannot write output: No space left on device"),
            "{command} >/dev/full: {stderr}"
        );
        let null = std::process::Command::new(env!("CARGO_BIN_EXE_tagstream"))
            .args([command, LINKS])
            .current_dir(binary::repository())
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert_eq!(null.code(), Some(0), "{command} >/dev/null");
        // Opened read-write by the caller, as Python's subprocess.DEVNULL opens it.
        let read_write = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/null")
            .unwrap();
        let null = std::process::Command::new(env!("CARGO_BIN_EXE_tagstream"))
            .args([command, LINKS])
            .current_dir(binary::repository())
            .stdout(read_write)
            .status()
            .unwrap();
        assert_eq!(null.code(), Some(0), "{command} 1<>/dev/null");
    }
}

#[test]
fn a_link_query_is_percent_encoded_in_the_document_encoding_and_its_path_in_utf8() {
    let links = |html: &[u8]| {
        stdout_ok(
            &[
                "links",
                "-q",
                "--plain",
                "--base",
                "https://h.example/",
                "-",
            ],
            html,
        )
    };
    // windows-1252: no charset, no <meta>, not UTF-8. The <base> goes first: links after it are
    // resolved as they are found, those before it at the end.
    assert_eq!(
        links(b"<a href='/caf\xe9?q=\xe9'>a</a><base href=/d/><a href='x?q=\xe9&r=\xe8'>b</a>"),
        "https://h.example/caf%C3%A9?q=%E9\nhttps://h.example/d/\nhttps://h.example/d/x?q=%E9&r=%E8\n"
    );
    // A <meta> that changes the encoding: the query follows the page read again.
    assert_eq!(
        links(b"<meta charset=iso-8859-7><a href='?q=\xe1'>a</a>"),
        "https://h.example/?q=%E1\n"
    );
    assert_eq!(
        links("<meta charset=utf-8><a href='?q=é'>a</a>".as_bytes()),
        "https://h.example/?q=%C3%A9\n"
    );
    // Only special schemes take the override.
    assert_eq!(links(b"<a href='foo:x?q=\xe9'>a</a>"), "foo:x?q=%C3%A9\n");
}

/// A page whose links depend on the namespace of their element.
const NAMESPACED: &[u8] = b"<svg><base href=/svg-base/><script src=/no.js href=/s.js></script>\
    <a xlink:href=/x><text>x</text></a><image href=/new.png xlink:href=/old.png/>\
    <foreignObject><img src=/fo.png></foreignObject></svg><math><mi href=/mi>i</mi></math>\
    <a href=rel>r</a>";

#[test]
fn links_follow_the_namespace_whole_and_streamed_with_their_spans() {
    // Past 4 MiB the page is streamed: spans are mapped as links are found.
    let padding = b"<p>padding</p>".repeat((5 << 20) / 14);
    for prefix in [&b""[..], &padding] {
        let html = [prefix, NAMESPACED].concat();
        let args = ["links", "-q", "--base", "https://example.com/d/p.html", "-"];
        let lines = json_lines(&stdout_ok(&args, &html));
        let rows: Vec<(&str, &str, &str, &str)> = lines
            .iter()
            .map(|l| {
                let span = &l["span"];
                let (start, end) = (span[0].as_u64().unwrap(), span[1].as_u64().unwrap());
                let written = std::str::from_utf8(&html[start as usize..end as usize]).unwrap();
                assert_eq!(written, l["url"], "{l}");
                let text = |key: &str| l[key].as_str().unwrap();
                (
                    text("element"),
                    text("attribute"),
                    text("url"),
                    text("resolved"),
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                ("script", "href", "/s.js", "https://example.com/s.js"),
                ("a", "xlink:href", "/x", "https://example.com/x"),
                ("image", "href", "/new.png", "https://example.com/new.png"),
                ("img", "src", "/fo.png", "https://example.com/fo.png"),
                ("mi", "href", "/mi", "https://example.com/mi"),
                ("a", "href", "rel", "https://example.com/d/rel"),
            ],
            "{} bytes before",
            prefix.len()
        );
    }
}

#[test]
fn text_drops_nul_and_separates_adjacent_controls() {
    let html = b"<p>a\0b</p><button>All Methods</button><button>Instance Methods</button>\
        <b>c</b><i>d</i><svg><text>e\0f</text></svg>";
    assert_eq!(
        text_of(&[], html),
        "ab All Methods Instance Methods cd e\u{FFFD}f"
    );
}

// ---- WARC records in parallel, output streamed in order ----------------------------------------

/// The records of a larger archive: `n` HTML responses, the one numbered `i` linking to `/r{i}`,
/// with a request before each, a JSON response after every fifth and a malformed record (no
/// Content-Length) after every seventh.
fn many_records(n: usize) -> Vec<Vec<u8>> {
    let mut records = Vec::new();
    for i in 0..n {
        let uri = format!("https://m.example/{i}");
        let request = b"GET / HTTP/1.1\r\n\r\n";
        records.push(warc_record(
            "request",
            &uri,
            "application/http; msgtype=request",
            request,
        ));
        let page = format!("<title>{i}</title><p>page {i} <a href=/r{i}>r</a>");
        let html = http_response("text/html", page.as_bytes());
        records.push(warc_record("response", &uri, HTTP_RESPONSE, &html));
        if i % 5 == 4 {
            let json = http_response("application/json", b"{\"a\":\"<a href=/no>\"}");
            records.push(warc_record("response", &uri, HTTP_RESPONSE, &json));
        }
        if i % 7 == 6 {
            records.push(b"WARC/1.1\r\nWARC-Type: response\r\n\r\n<a href=/lost>\r\n\r\n".to_vec());
        }
    }
    records
}

/// The resolved links of `many_records(n)`, in order.
fn many_links(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("https://m.example/r{i}")).collect()
}

/// Standard output, the `skipped` lines of standard error and the exit code of `links --plain`.
fn links_run(args: &[&str]) -> (String, Vec<String>, Option<i32>) {
    let out = tagstream(&[&["links", "--plain"][..], args].concat(), b"");
    let stderr = String::from_utf8(out.stderr).unwrap();
    let skips = stderr
        .lines()
        .filter(|l| l.starts_with("tagstream: skipped"))
        .map(str::to_owned)
        .collect();
    (
        String::from_utf8(out.stdout).unwrap(),
        skips,
        out.status.code(),
    )
}

#[test]
fn the_records_of_one_archive_come_out_in_order_and_alike_for_every_jobs() {
    // The last record is a page's (60 is neither 4 mod 5 nor 6 mod 7).
    let n = 61;
    let records = many_records(n);
    let dir = scratch("warc-jobs");
    let plain = dir.join("crawl.warc");
    std::fs::write(&plain, records.concat()).unwrap();
    // .warc.gz: a member per record, page 30's broken, the last one (page 60's) truncated.
    let mut members: Vec<Vec<u8>> = records.iter().map(|r| gzip_member(r)).collect();
    let page_30 = records
        .iter()
        .position(|r| r.windows(10).any(|w| w == b"href=/r30>"))
        .unwrap();
    let broken = &mut members[page_30];
    break_in_the_middle(broken);
    let last = members.last_mut().unwrap();
    last.truncate(last.len() - 12);
    let gz = dir.join("crawl.warc.gz");
    std::fs::write(&gz, members.concat()).unwrap();
    let (plain, gz) = (plain.to_str().unwrap(), gz.to_str().unwrap());

    let (stdout, skips, code) = links_run(&["-j", "1", plain]);
    assert_eq!(stdout.lines().collect::<Vec<_>>(), many_links(n));
    assert_eq!((skips.len(), code), (n / 7, Some(3)), "{skips:?}");
    let (stdout, skips, code) = links_run(&["-j", "1", gz]);
    let mut links = many_links(n);
    links.retain(|link| !link.ends_with("/r30") && !link.ends_with("/r60"));
    assert_eq!(stdout.lines().collect::<Vec<_>>(), links);
    assert_eq!((skips.len(), code), (n / 7 + 2, Some(3)), "{skips:?}");
    for inputs in [&[plain][..], &[gz], &[gz, LINKS, plain, "-", gz]] {
        let one = links_run(&[&["-j", "1"][..], inputs].concat());
        for jobs in ["2", "4"] {
            let many = links_run(&[&["-j", jobs][..], inputs].concat());
            assert_eq!(many, one, "-j {jobs} against -j 1 on {inputs:?}");
        }
    }
}

/// Read lines from `stdout` on a thread of their own, handing each to the channel.
fn lines_of(stdout: std::process::ChildStdout) -> std::sync::mpsc::Receiver<String> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
            if sender.send(line.unwrap()).is_err() {
                return;
            }
        }
    });
    receiver
}

/// Output streams: through a named pipe, the links of the first records of an archive come out
/// while the rest is not yet written.
#[test]
fn an_archive_read_through_a_pipe_has_its_first_links_written_before_it_ends() {
    let n = 40;
    let records = many_records(n);
    let dir = scratch("warc-fifo");
    for (name, jobs) in [("crawl.warc", "1"), ("crawl.warc.gz", "2")] {
        let fifo = dir.join(name);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success(), "mkfifo {}", fifo.display());
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tagstream"))
            .args(["links", "-q", "--plain", "-j", jobs, fifo.to_str().unwrap()])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let lines = lines_of(child.stdout.take().unwrap());
        let mut pipe = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        let gz = name.ends_with(".gz");
        let encoded = |record: &Vec<u8>| {
            if gz {
                gzip_member(record)
            } else {
                record.clone()
            }
        };
        // The first three records: a request and two responses.
        for record in &records[..3] {
            pipe.write_all(&encoded(record)).unwrap();
        }
        // A guard against a hang, not a measure: the line comes at once when output streams.
        let first = lines.recv_timeout(std::time::Duration::from_secs(60));
        assert_eq!(
            first.as_deref(),
            Ok("https://m.example/r0"),
            "{name}: no output before the archive ends"
        );
        for record in &records[3..] {
            pipe.write_all(&encoded(record)).unwrap();
        }
        drop(pipe);
        let rest: Vec<String> = lines.iter().collect();
        assert_eq!(
            [&[first.unwrap()][..], &rest].concat(),
            many_links(n),
            "{name}"
        );
        assert_eq!(
            child.wait().unwrap().code(),
            Some(3),
            "{name}: malformed records"
        );
    }
}

/// A `.warc.gz` file is read by members (inflated on every thread), a pipe serially: the same
/// links and the same skips, whatever `-j`, with false member starts (a gzipped body stored as is
/// in a member), bytes between members, a broken and a truncated member.
#[test]
fn a_warc_gz_read_by_members_gives_what_the_serial_reader_gives() {
    let n = 30;
    let records = many_records(n);
    let mut members: Vec<Vec<u8>> = records.iter().map(|r| gzip_member(r)).collect();
    // A response whose gzip body holds the gzip magic, in a member that stores it as is.
    let body = gzip_member(b"<a href=/stored>stored</a>");
    let stored = raw_response(
        "Content-Type: text/html\r\nContent-Encoding: gzip\r\n",
        &body,
    );
    let stored = warc_record("response", "https://s.example/", HTTP_RESPONSE, &stored);
    let mut encoder = GzEncoder::new(Vec::new(), Compression::none());
    encoder.write_all(&stored).unwrap();
    members.insert(3, encoder.finish().unwrap());
    members.insert(6, b"between members".to_vec());
    let broken = &mut members[10];
    break_in_the_middle(broken);
    let last = members.last_mut().unwrap();
    last.truncate(last.len() - 12);
    let archive = members.concat();
    // More magic bytes than members (one of `members` is no member).
    assert!(memchr_count(&archive, &[0x1f, 0x8b, 0x08]) > members.len() - 1);
    let dir = scratch("warc-members");
    let file = dir.join("crawl.warc.gz");
    std::fs::write(&file, &archive).unwrap();

    let fifo = dir.join("pipe.warc.gz");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success(), "mkfifo {}", fifo.display());
    let writer = {
        let (fifo, archive) = (fifo.clone(), archive.clone());
        std::thread::spawn(move || std::fs::write(fifo, archive).unwrap())
    };
    let (stdout, skips, code) = links_run(&["-j", "2", fifo.to_str().unwrap()]);
    writer.join().unwrap();
    let serial = (
        stdout,
        skips.join("\n").replace("pipe.warc.gz", "crawl.warc.gz"),
        code,
    );
    assert!(
        serial.0.contains("https://s.example/stored"),
        "{}",
        serial.0
    );
    assert_eq!(serial.1.lines().count(), n / 7 + 3, "{}", serial.1);
    for jobs in ["1", "2", "4"] {
        let (stdout, skips, code) = links_run(&["-j", jobs, file.to_str().unwrap()]);
        assert_eq!((stdout, skips.join("\n"), code), serial, "-j {jobs}");
    }
}

fn memchr_count(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| *w == needle)
        .count()
}
