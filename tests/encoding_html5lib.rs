//! The html5lib-tests encoding suite, data-driven: for every case of every `encoding/*.dat` file,
//! the encoding a browser ends up with must be the expected one.
//!
//! "Ends up with" is the sniffing result (BOM, then the prescan of the first 1024 bytes, then the
//! windows-1252 default the suite assumes), changed by a `<meta>` the tokenizer meets while the
//! encoding is tentative ([`EncodingChange`]): several cases put their `<meta>` after a comment
//! longer than 1024 bytes. Each case runs whole, fed one byte at a time, and split in two at
//! every offset up to 1,100 bytes (across the 1024-byte sniffing boundary) and in its last 64.
//!
//! No case is excluded. `tests1.dat` #54 is the one scripted case (`document.write` of a
//! `<meta>`), and it passes without scripting: the prescan reads the `<meta>` inside the script
//! text, as browsers' prescans do.
//!
//! The suite is the copy vendored in `tests/data/html5lib-tests` (`HTML5LIB_TESTS_DIR` overrides it);
//! a missing suite fails the run.

#[path = "common/html5lib_suite.rs"]
mod html5lib_suite;

use std::path::{Path, PathBuf};

use encoding_rs::{Encoding, WINDOWS_1252};
use html5lib_suite::html5lib_suite;
use libtest_mimic::{Arguments, Failed, Trial};
use tagstream::Options;
use tagstream::encoding::{EncodingChange, Transcoder};

/// How many cases the suite holds (tests1.dat 59, tests2.dat 22, test-yahoo-jp.dat 1).
const CASES: usize = 82;

#[derive(Clone)]
struct Case {
    name: String,
    data: Vec<u8>,
    expected: &'static Encoding,
}

fn main() {
    let args = Arguments::from_args();
    let dir = html5lib_suite(&args, "encoding", "html5lib-tests encoding suite");
    let cases = load_cases(&dir.join("encoding"));
    let count = cases.len();
    let mut trials: Vec<Trial> = cases
        .into_iter()
        .map(|case| Trial::test(case.name.clone(), move || check(&case)))
        .collect();
    trials.push(Trial::test("suite counts", move || {
        if count == CASES {
            Ok(())
        } else {
            Err(format!("expected {CASES} cases, found {count}").into())
        }
    }));
    libtest_mimic::run(&args, trials).exit();
}

fn load_cases(dir: &Path) -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read encoding dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).expect("read .dat file");
        cases.extend(parse_dat(&file, &bytes));
    }
    cases
}

/// `#data\n<bytes>#encoding\n<label>\n` blocks; the data's last newline belongs to the format.
fn parse_dat(file: &str, bytes: &[u8]) -> Vec<Case> {
    let mut cases = Vec::new();
    for (index, block) in split(bytes, b"#data\n").into_iter().skip(1).enumerate() {
        let at = find(block, b"#encoding\n").expect("#encoding section");
        let data = block[..at].strip_suffix(b"\n").unwrap_or(&block[..at]);
        let label = String::from_utf8_lossy(&block[at + b"#encoding\n".len()..]);
        let label = label.lines().next().unwrap_or("").trim();
        let expected = Encoding::for_label(label.as_bytes()).expect("known expected label");
        let first_line =
            String::from_utf8_lossy(data.split(|&b| b == b'\n').nth(1).unwrap_or(data));
        let summary: String = first_line.chars().take(50).collect();
        cases.push(Case {
            name: format!("{file} #{index}: {summary}"),
            data: data.to_vec(),
            expected,
        });
    }
    cases
}

fn split<'a>(bytes: &'a [u8], separator: &[u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    let mut rest = bytes;
    while let Some(at) = find(rest, separator) {
        parts.push(&rest[..at]);
        rest = &rest[at + separator.len()..];
    }
    parts.push(rest);
    parts
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The encoding the document ends up with when fed in chunks ending at `splits`.
fn final_encoding(data: &[u8], splits: &[usize]) -> &'static Encoding {
    let mut transcoder = Transcoder::new(Options::default()).default_encoding(WINDOWS_1252);
    let mut change: Option<EncodingChange> = None;
    let mut start = 0;
    for &end in splits.iter().chain([&data.len()]) {
        let mut tokens = transcoder.feed(&data[start..end]);
        while tokens.next().is_some() {
            change = change.or(tokens.encoding_change());
        }
        start = end;
    }
    let mut tokens = transcoder.finish();
    while tokens.next().is_some() {
        change = change.or(tokens.encoding_change());
    }
    drop(tokens);
    assert_eq!(
        change,
        transcoder.encoding_change(),
        "the event is also kept"
    );
    let sniffed = transcoder.sniffed().expect("decided at the end");
    change.map_or(sniffed.encoding, |c| c.to)
}

fn check(case: &Case) -> Result<(), Failed> {
    let len = case.data.len();
    let one_byte: Vec<usize> = (1..len).collect();
    let mut runs: Vec<(String, Vec<usize>)> = vec![
        ("whole".into(), vec![]),
        ("one byte at a time".into(), one_byte),
    ];
    let near_end = len.saturating_sub(64).max(1100)..len;
    let two_way = (1..len.min(1100)).chain(near_end);
    runs.extend(two_way.map(|at| (format!("split at {at}"), vec![at])));
    for (how, splits) in runs {
        let got = final_encoding(&case.data, &splits);
        if got != case.expected {
            return Err(format!(
                "{how}: expected {}, got {}",
                case.expected.name(),
                got.name()
            )
            .into());
        }
    }
    Ok(())
}
