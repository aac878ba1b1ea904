//! The xml5lib-tests tree-construction suite, data-driven: every case of `test1.dat` and
//! `namespace.dat` must give exactly the expected `#document` block, attributes compared as a
//! set (each element's attribute lines sorted on both sides). Each case runs three ways: the
//! whole input at once, fed one byte at a time, and split in two at every offset.
//!
//! The suite is the copy vendored in `tests/data/xml5lib-tests` (`XML5LIB_TESTS_DIR` overrides
//! it); a missing suite fails the run. `namespace.dat` is upstream head's (a6d626e), whose trees
//! list namespace declarations as attributes in the XMLNS namespace, as this tree keeps them.

#[path = "common/data.rs"]
mod data;

use libtest_mimic::{Arguments, Failed, Trial};
use tagstream::Options;
use tagstream::xml5::tree::{Document, TreeOptions, xml5lib_tree};

/// The files and how many cases each has.
const FILES: &[(&str, usize)] = &[("test1.dat", 21), ("namespace.dat", 15)];

struct Case {
    name: String,
    input: String,
    document: String,
}

fn main() {
    let args = Arguments::from_args();
    const VAR: &str = "XML5LIB_TESTS_DIR";
    let dir = data::data_dir(VAR, "xml5lib-tests").join("tree-construction");
    let mut trials = Vec::new();
    for &(file, count) in FILES {
        let path = dir.join(file);
        let Ok(text) = std::fs::read_to_string(&path) else {
            let msg = data::missing(&path, VAR, "xml5lib-tests");
            trials.push(Trial::test(format!("{file} present"), move || {
                Err(msg.into())
            }));
            continue;
        };
        let cases = parse_dat(file, &text);
        let found = cases.len();
        trials.push(Trial::test(format!("{file}: case count"), move || {
            if found == count {
                Ok(())
            } else {
                Err(format!("{found} cases, expected {count}").into())
            }
        }));
        for case in cases {
            trials.push(Trial::test(case.name.clone(), move || check(&case)));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}

/// The cases of a `.dat` file: `#data` lines (the last newline removed) and the `#document`
/// lines up to the next `#data` (blank lines between cases dropped).
fn parse_dat(file: &str, text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for (i, block) in text.split("#data\n").skip(1).enumerate() {
        let (input, document) = block
            .split_once("\n#document\n")
            .expect("#document section");
        let document: String = document
            .lines()
            .filter(|line| line.starts_with('|'))
            .map(|line| format!("{line}\n"))
            .collect();
        cases.push(Case {
            name: format!("{file} #{i}: {}", input.escape_debug()),
            input: input.to_owned(),
            document,
        });
    }
    cases
}

/// The block with each element's attribute lines sorted: attributes compare as a set. An
/// attribute line is one that starts, after `| ` and the indent, with neither `<` nor `"`.
fn normalized(document: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut run_start = 0;
    for line in document.lines() {
        let body = line.trim_start_matches("| ").trim_start();
        let attribute = !body.starts_with('<') && !body.starts_with('"');
        if !attribute {
            lines[run_start..].sort();
            run_start = lines.len() + 1;
        }
        lines.push(line.to_owned());
    }
    let from = run_start.min(lines.len());
    lines[from..].sort();
    lines
}

fn check(case: &Case) -> Result<(), Failed> {
    let input = case.input.as_bytes();
    let expected = normalized(&case.document);
    let options = || Options::new().errors(true);
    let mut failures = Vec::new();
    let mut compare = |how: String, doc: Document| {
        let got = xml5lib_tree(&doc);
        if normalized(&got) != expected {
            failures.push(format!("{how}:\n{got}"));
        }
    };
    compare(
        "whole".into(),
        Document::parse_with(input, options(), TreeOptions::new()),
    );
    let bytes = Document::parse_chunks(input.chunks(1), options(), TreeOptions::new());
    compare("byte by byte".into(), bytes);
    for at in 0..=input.len() {
        let chunks = [&input[..at], &input[at..]];
        let split = Document::parse_chunks(chunks, options(), TreeOptions::new());
        compare(format!("split at {at}"), split);
    }
    if failures.is_empty() {
        return Ok(());
    }
    let first = &failures[0];
    Err(format!(
        "{} of {} runs differ; expected:\n{}first: {first}",
        failures.len(),
        input.len() + 3,
        case.document
    )
    .into())
}

#[test]
fn attribute_runs_sort_within_their_element() {
    let block = "| <a>\n|   z=\"1\"\n|   b=\"2\"\n|   <c>\n|     y=\"\"\n|     x=\"\"\n";
    assert_eq!(
        normalized(block),
        [
            "| <a>",
            "|   b=\"2\"",
            "|   z=\"1\"",
            "|   <c>",
            "|     x=\"\"",
            "|     y=\"\""
        ]
    );
}
