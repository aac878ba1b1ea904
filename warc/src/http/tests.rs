//! Header values as bytes and the codings undone, case by case (the WARC path end to end is in
//! tests/crawl.rs).

use std::io::Write;

use flate2::Compression;
use flate2::write::{DeflateEncoder, GzEncoder};

use super::{HttpResponse, chunk_size, undo};

fn response(message: &[u8]) -> HttpResponse<'_> {
    HttpResponse::parse(message).expect("an HTTP response")
}

#[test]
fn header_values_are_latin1_and_names_case_insensitive() {
    let message = b"HTTP/1.1 200 OK\r\nX-Name: caf\xe9 \r\nCONTENT-type:text/html\r\n\r\nbody";
    let r = response(message);
    assert_eq!(r.header("x-name").as_deref(), Some("café"));
    assert_eq!(r.header("Content-Type").as_deref(), Some("text/html"));
    assert_eq!(r.header("missing"), None);
    assert_eq!(r.body().unwrap().as_ref(), b"body");
    // Only the status line: no headers.
    assert_eq!(
        response(b"HTTP/1.0 200 OK\n\nx").header("HTTP/1.0 200 OK"),
        None
    );
}

#[test]
fn deflate_with_or_without_its_zlib_wrapper_and_x_gzip() {
    let mut raw = DeflateEncoder::new(Vec::new(), Compression::default());
    raw.write_all(b"<p>raw").unwrap();
    assert_eq!(
        undo("deflate", &raw.finish().unwrap()).unwrap().unwrap(),
        b"<p>raw"
    );
    let mut gzip = GzEncoder::new(Vec::new(), Compression::default());
    gzip.write_all(b"<p>x-gzip").unwrap();
    assert_eq!(
        undo("X-Gzip", &gzip.finish().unwrap()).unwrap().unwrap(),
        b"<p>x-gzip"
    );
    assert_eq!(undo("identity", b"<p>").unwrap(), None);
}

#[test]
fn chunk_sizes_hex_with_extensions_and_nothing_else() {
    assert_eq!(chunk_size(b"1A"), Some(26));
    assert_eq!(chunk_size(b"1a ; name=\"v;w\""), Some(26));
    assert_eq!(chunk_size(b"0"), Some(0));
    for not_a_size in [&b""[..], b"<p>", b"-1", b"+1", b"1 2", b"FFFFFFFFFFFFFFFFF"] {
        assert_eq!(chunk_size(not_a_size), None, "{not_a_size:?}");
    }
}

#[test]
fn a_chunked_body_cut_short_or_without_line_ends_is_an_error() {
    for broken in [&b"5\r\nab"[..], b"2\r\nabc\r\n0\r\n", b"2\r\nab\r\nzz\r\n"] {
        assert!(undo("chunked", broken).is_err(), "{broken:?}");
    }
    // Ending right after a chunk, without the last chunk: its data is all there.
    assert_eq!(undo("chunked", b"2\r\nab\r\n").unwrap().unwrap(), b"ab");
}
