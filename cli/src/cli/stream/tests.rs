//! A streamed document gives what the whole document gives, for `stats`, `links` and `text`:
//! chunk seams anywhere (inside UTF-8 and Shift_JIS characters too), a `<meta>` that changes the
//! encoding before or past the first chunk of a file or of standard input, and a read that fails.

use std::io::{self, Cursor, Read};

use clap::Parser;
use tagstream::encoding::Encoding;

use super::super::Command;
use super::super::inputs::{Body, Document};
use super::super::links::{Links, LinksArgs};
use super::super::stats::{Stats, StatsArgs};
use super::super::text::{Text, TextArgs};
use super::{Broken, Limits, Source, Stream};

/// One set of command-line arguments, parsed as the command would.
#[derive(Parser)]
struct Arguments<T: clap::Args> {
    #[command(flatten)]
    args: T,
}

fn parse<T: clap::Args>(argv: &[&str]) -> T {
    let argv = [&["tagstream"][..], argv].concat();
    Arguments::<T>::try_parse_from(argv).unwrap().args
}

/// How a test reads its document.
#[derive(Clone, Copy, Debug)]
enum How {
    Whole,
    File(Limits),
    Stdin(Limits),
}

/// What `command` wrote for `html` read as `how` says, and its note; `Err` when reading failed.
fn run<C: Command>(
    command: &C,
    source: Source,
    how: How,
) -> Result<(String, Option<String>), Broken> {
    let mut out = Vec::new();
    let mut totals = C::Totals::default();
    let document = |body| Document {
        input: "doc",
        offset: None,
        url: None,
        body,
        charset: None,
    };
    let done = match how {
        How::Whole => {
            let mut html = Vec::new();
            let mut source = source;
            reader(&mut source).read_to_end(&mut html).unwrap();
            command.document(&mut document(Body::Whole(&html)), &mut totals, &mut out)?
        }
        How::File(limits) | How::Stdin(limits) => {
            let mut stream = Stream::start(source, limits, 0)?;
            assert!(
                stream.whole().is_none(),
                "the document must be longer than {limits:?}"
            );
            let done = command.document(
                &mut document(Body::Stream(&mut stream)),
                &mut totals,
                &mut out,
            )?;
            assert_eq!(done.bytes, stream.read());
            done
        }
    };
    Ok((String::from_utf8(out).unwrap(), done.note))
}

fn reader(source: &mut Source) -> &mut dyn Read {
    match source {
        Source::Seekable(file) => file,
        Source::Forward(input) => input,
    }
}

/// `html` as `how` reads it: a file can seek, standard input cannot.
fn source(html: &[u8], how: How) -> Source {
    let bytes = Cursor::new(html.to_vec());
    match how {
        How::Stdin(_) => Source::Forward(Box::new(bytes)),
        How::Whole | How::File(_) => Source::Seekable(Box::new(bytes)),
    }
}

/// What `stats`, `links` and `text` (with `argv`, JSON lines) write for `html`, and their notes.
fn outputs(argv: &[&str], html: &[u8], how: How) -> Vec<(String, Option<String>)> {
    let stats_args: StatsArgs = parse(argv);
    let links_args: LinksArgs = parse(&[argv, &["--base", "https://example.com/a/"]].concat());
    let text_args: TextArgs = parse(&[argv, &["--blocks"]].concat());
    let outputs = [
        run(&Stats::new(&stats_args), source(html, how), how),
        run(&Links::new(&links_args), source(html, how), how),
        run(&Text::new(&text_args), source(html, how), how),
    ];
    outputs.into_iter().map(|output| output.unwrap()).collect()
}

/// Chunk sizes that put seams everywhere, inside characters, tags and references.
const CHUNKS: [usize; 7] = [1, 2, 3, 5, 7, 64, 1000];

/// A first chunk past the 1024 bytes the encoding is sniffed on.
const WHOLE: usize = 1100;

fn file(chunk: usize) -> How {
    How::File(Limits {
        whole: WHOLE,
        chunk,
    })
}

fn stdin(whole: usize, chunk: usize) -> How {
    How::Stdin(Limits { whole, chunk })
}

/// A page with some of everything, non-ASCII throughout, parse errors (NUL, a duplicate
/// attribute, an end tag with attributes) and a `<base href>` half-way.
fn page() -> String {
    let block = "<p title=\"日本語 – ü\" a=1 a=2>Grüße &amp; naïve café 日本\0 x</p x=1>\
        <a href=\"/wiki/日本?q=é&amp;x\">l</a><img srcset=\"a.png 1x, b-ü.png 2x\">\
        <!-- ç --><script>if (a<b) {'é'}</script><textarea>&lt;ü\0</textarea>\n";
    format!(
        "{}<base href=\"/base/\">{}",
        block.repeat(20),
        block.repeat(20)
    )
}

fn encode(label: &str, text: &str) -> Vec<u8> {
    let encoding = Encoding::for_label(label.as_bytes()).unwrap();
    encoding.encode(text).0.into_owned()
}

/// Whole and streamed with every chunk size, `html` gives the same output, which is not empty.
fn assert_streams_as_whole(argv: &[&str], html: &[u8]) {
    let whole = outputs(argv, html, How::Whole);
    assert!(
        whole
            .iter()
            .all(|(out, note)| out.len() > 100 && note.is_none()),
        "{whole:?}"
    );
    for chunk in CHUNKS {
        assert_eq!(
            outputs(argv, html, file(chunk)),
            whole,
            "{argv:?}, chunks of {chunk}"
        );
        assert_eq!(
            outputs(argv, html, stdin(WHOLE, chunk)),
            whole,
            "{argv:?}, chunks of {chunk}"
        );
    }
}

#[test]
fn utf8_streams_as_whole() {
    let page = page();
    assert_streams_as_whole(&[], page.as_bytes());
    assert_streams_as_whole(&["--encoding", "utf-8"], page.as_bytes());
}

#[test]
fn shift_jis_and_windows_1252_stream_as_whole() {
    let page = page().replace(['ü', 'é', 'ç', 'ß', 'ï', '–'], "");
    let declared = encode("shift_jis", &format!("<meta charset=shift_jis>{page}"));
    assert_streams_as_whole(&[], &declared);
    assert_streams_as_whole(&["--encoding", "shift_jis"], &encode("shift_jis", &page));
    let latin = "<p>Grüße, naïve café &eacute;\0 <a href=/ü>x</a>".repeat(100);
    assert_streams_as_whole(&[], &encode("windows-1252", &latin));
}

/// A windows-1251 page whose `<meta charset>` comes after `before` bytes of comment.
fn late_meta_page(before: usize) -> Vec<u8> {
    let mut page = format!("<!--{}-->", "-".repeat(before)).into_bytes();
    let body = "<p>Привет мир <a href=/мир>мир</a>\n".repeat(200);
    page.extend(encode(
        "windows-1251",
        &format!("<meta charset=windows-1251>{body}"),
    ));
    page
}

#[test]
fn a_late_meta_reads_a_file_again_from_the_start() {
    let page = late_meta_page(2 * WHOLE);
    let whole = outputs(&[], &page, How::Whole);
    assert!(whole[2].0.contains("Привет мир"), "{whole:?}");
    for chunk in CHUNKS {
        assert_eq!(outputs(&[], &page, file(chunk)), whole, "chunks of {chunk}");
    }
}

#[test]
fn a_late_meta_in_the_first_chunk_of_stdin_replays_it() {
    let page = late_meta_page(WHOLE);
    let whole = outputs(&[], &page, How::Whole);
    for chunk in CHUNKS {
        assert_eq!(
            outputs(&[], &page, stdin(2 * WHOLE, chunk)),
            whole,
            "chunks of {chunk}"
        );
    }
}

#[test]
fn a_late_meta_past_the_first_chunk_of_stdin_keeps_the_first_encoding_with_a_note() {
    let page = late_meta_page(2 * WHOLE);
    let kept = outputs(&["--encoding", "windows-1252"], &page, How::Whole);
    assert!(!kept[2].0.contains("Привет"), "{kept:?}");
    for chunk in CHUNKS {
        let streamed = outputs(&[], &page, stdin(WHOLE, chunk));
        for ((out, note), (expected, _)) in streamed.iter().zip(&kept) {
            assert_eq!(out, expected, "chunks of {chunk}");
            let note = note.as_deref().unwrap_or_default();
            assert!(
                note.contains("declares windows-1251") && note.contains("as windows-1252"),
                "{note}"
            );
        }
    }
}

/// Standard input that gives `bytes`, then fails.
struct Failing(Cursor<Vec<u8>>);

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.0.read(buf)? {
            0 => Err(io::Error::other("disk on fire")),
            n => Ok(n),
        }
    }
}

#[test]
fn a_read_that_fails_skips_the_document_at_its_offset_and_writes_nothing() {
    let page = page().into_bytes();
    let failing = || Source::Forward(Box::new(Failing(Cursor::new(page.clone()))));
    let args: StatsArgs = parse(&[]);
    let Err(broken) = run(&Stats::new(&args), failing(), stdin(WHOLE, 64)) else {
        panic!("the read failed");
    };
    let skip = broken.skip("doc").to_string();
    assert_eq!(
        skip,
        format!("doc at offset {}: read error: disk on fire", page.len())
    );
    // In the first chunk: the same skip, before anything is read into a page.
    let in_first = Stream::start(
        failing(),
        Limits {
            whole: page.len(),
            chunk: 64,
        },
        0,
    );
    let skip = in_first.err().unwrap().skip("doc").to_string();
    assert_eq!(
        skip,
        format!("doc at offset {}: read error: disk on fire", page.len())
    );
}

#[test]
fn a_document_of_the_limit_is_whole_and_one_byte_more_streams() {
    let limits = Limits {
        whole: 10,
        chunk: 3,
    };
    let start =
        |len: usize| Stream::start(source(&vec![b'x'; len], How::Whole), limits, 0).unwrap();
    assert_eq!(start(10).whole(), Some(&[b'x'; 10][..]));
    assert_eq!(start(11).whole(), None);
}

#[test]
fn a_token_longer_than_max_token_skips_the_document_where_it_starts() {
    // An unterminated comment of 2 MiB after the first chunk: carried whole until it ends, it
    // passes `--max-token 1`.
    let mut html = page().into_bytes();
    let start = html.len();
    html.extend_from_slice(b"<!--");
    html.resize(start + (2 << 20), b'-');
    for how in [file(64 << 10), stdin(WHOLE, 64 << 10)] {
        let args: StatsArgs = parse(&["--max-token", "1"]);
        let Err(broken) = run(&Stats::new(&args), source(&html, how), how) else {
            panic!("{how:?}: the comment passes the limit");
        };
        assert_eq!(
            broken.skip("doc").to_string(),
            format!(
                "doc at offset {start}: a token longer than --max-token (1 MiB) starts here: not \
                 read past it (it needs {} bytes held at once)",
                1 << 20 | 1
            ),
            "{how:?}"
        );
        // Under the default limit the same document reads to its end.
        let args: StatsArgs = parse(&[]);
        assert!(
            run(&Stats::new(&args), source(&html, how), how).is_ok(),
            "{how:?}"
        );
    }
}

#[test]
fn a_token_too_long_in_decoded_text_is_placed_in_that_text() {
    // ASCII only: `auto` reads it as windows-1252, decoded without an offset map for `stats`.
    let mut html = b"<p>plain</p>".repeat(100);
    let start = html.len();
    html.extend_from_slice(b"<!--");
    html.resize(start + (2 << 20), b'-');
    let args: StatsArgs = parse(&["--max-token", "1"]);
    let how = file(64 << 10);
    let Err(broken) = run(&Stats::new(&args), source(&html, how), how) else {
        panic!("the comment passes the limit");
    };
    assert_eq!(
        broken.skip("doc").to_string(),
        format!(
            "doc: a token longer than --max-token (1 MiB) starts at byte {start} of the text \
             decoded to UTF-8: not read past it (it needs {} bytes held at once)",
            1 << 20 | 1
        )
    );
}
