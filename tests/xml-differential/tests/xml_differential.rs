//! tagstream's XML5 tree against roxmltree on every well-formed document of the public XML
//! corpus and of the W3C XML conformance suite's well-formed, standalone XML 1.0 documents (see
//! the crate's docs and README). A document the oracle rejects is skipped and counted; every
//! other one is identical, or differs only in the kinds listed in [`KINDS`], each with the rule
//! that explains it; anything else fails the test.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tagstream_xml_differential::{
    Element, explain, first_difference, kinds, oracle_tree, tagstream_tree, xmlconf_documents,
};

/// Documents on which the oracle is wrong, by the W3C suite's own expected output: (test id,
/// what roxmltree does, and why that is not XML 1.0). Each must still differ (the test fails
/// when one no longer does, so the list stays true).
const ORACLE_ERRORS: &[(&str, &str)] = &[
    (
        "valid-sa-068",
        "`<!ENTITY e \"&#13;\">` then `<doc>&e;</doc>`: roxmltree gives a line feed; the replacement \
     text holds a carriage return (§4.5: character references are expanded in the literal), \
     and §2.11 normalizes line ends of the input, not of replacement text: the suite's \
     expected output, xmltest/valid/sa/out/068.xml, is `<doc>&#13;</doc>`",
    ),
    (
        "valid-sa-098",
        "`<?pi x` CR LF `y?>`: roxmltree keeps the CR LF in the PI's data; §2.11 passes every \
         line end to the application as a line feed, and the suite's expected output, \
         xmltest/valid/sa/out/098.xml, has `x` LF `y`",
    ),
];

/// The data folder: `$VAR` if set (a relative path from the repository root), else
/// `datasets/NAME` beside this crate's repository.
fn data_dir(var: &str, name: &str) -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    match std::env::var_os(var) {
        Some(dir) => repo.join(dir),
        None => repo.join("datasets").join(name),
    }
}

/// Every file below `dir`, sorted, but the corpus's `SOURCES.txt`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else if path.file_name().is_some_and(|n| n != "SOURCES.txt") {
            out.push(path);
        }
    }
}

/// The set is there, or (outside CI) skipped with a message saying how to fetch it.
fn present(dir: &Path) -> bool {
    if dir.is_dir() {
        return true;
    }
    let message = format!(
        "{} is missing: run datasets/fetch-xml-corpus.sh from the repository root",
        dir.display()
    );
    assert!(std::env::var_os("CI").is_none(), "{message}");
    eprintln!("skipped: {message}");
    false
}

/// What a set of documents came to.
#[derive(Default)]
struct Tally {
    identical: usize,
    /// Documents that differ only in explained kinds, by the kinds they needed.
    explained: BTreeMap<String, usize>,
    /// Per kind, the documents that needed it.
    by_kind: BTreeMap<&'static str, usize>,
    /// Skipped: the oracle rejects them (not well-formed for it), by its error's kind.
    rejected: BTreeMap<String, usize>,
    not_utf8: usize,
    /// Documents of [`ORACLE_ERRORS`] seen, and whether each differed as it should.
    oracle_errors: Vec<(&'static str, bool)>,
    unexplained: Vec<String>,
}

impl Tally {
    fn add(&mut self, name: &str, bytes: &[u8]) {
        let Ok(text) = std::str::from_utf8(bytes) else {
            // roxmltree reads UTF-8 only (these are UTF-16 and legacy-encoded documents).
            self.not_utf8 += 1;
            return;
        };
        let theirs = match oracle_tree(text) {
            Ok(tree) => tree,
            Err(e) => {
                let kind = format!("{e:?}");
                let kind = kind.split(['(', ' ']).next().unwrap_or("").to_owned();
                *self.rejected.entry(kind).or_default() += 1;
                return;
            }
        };
        if let Some((id, _)) = ORACLE_ERRORS.iter().find(|(id, _)| *id == name) {
            let differs =
                tagstream_tree(bytes).is_none_or(|ours| explain(text, ours, theirs).left.is_some());
            self.oracle_errors.push((id, differs));
            return;
        }
        let Some(ours) = tagstream_tree(bytes) else {
            self.unexplained
                .push(format!("{name}: tagstream found no root element"));
            return;
        };
        self.compare(name, text, ours, theirs);
    }

    fn compare(&mut self, name: &str, text: &str, ours: Element, theirs: Element) {
        if ours == theirs {
            self.identical += 1;
            return;
        }
        let explanation = explain(text, ours, theirs);
        match explanation.left {
            None => {
                let names: Vec<&str> = explanation.kinds.iter().map(|k| k.name).collect();
                for kind in &names {
                    *self.by_kind.entry(kind).or_default() += 1;
                }
                *self.explained.entry(names.join(" + ")).or_default() += 1;
            }
            Some((ours, theirs)) => {
                let difference = first_difference(&ours, &theirs);
                let mut line = format!("{name}: {difference:?}");
                line.truncate(1200);
                self.unexplained.push(line);
            }
        }
    }

    fn report(&self, set: &str) -> String {
        let compared =
            self.identical + self.explained.values().sum::<usize>() + self.unexplained.len();
        let mut s = format!(
            "{set}: {compared} documents compared: {} identical, {} differ in explained kinds \
             only, {} unexplained; skipped: {} not UTF-8, {} rejected by roxmltree {:?}\n",
            self.identical,
            self.explained.values().sum::<usize>(),
            self.unexplained.len(),
            self.not_utf8,
            self.rejected.values().sum::<usize>(),
            self.rejected,
        );
        for kind in kinds() {
            if let Some(n) = self.by_kind.get(kind.name) {
                s += &format!("  {n:>5} documents: {} ({})\n", kind.name, kind.rule);
            }
        }
        for (combination, n) in &self.explained {
            s += &format!("  {n:>5} documents needed exactly: {combination}\n");
        }
        for (id, differs) in &self.oracle_errors {
            let reason = ORACLE_ERRORS
                .iter()
                .find(|(i, _)| i == id)
                .map_or("", |(_, r)| r);
            let state = if *differs {
                "differs"
            } else {
                "NO LONGER DIFFERS: take it off ORACLE_ERRORS"
            };
            s += &format!("  oracle error, {id} ({state}): {reason}\n");
        }
        for line in &self.unexplained {
            s += &format!("  UNEXPLAINED {line}\n");
        }
        s
    }

    fn check(&self, set: &str) {
        let report = self.report(set);
        eprintln!("{report}");
        assert!(
            self.unexplained.is_empty(),
            "unexplained differences:\n{report}"
        );
        assert!(
            self.oracle_errors.iter().all(|(_, differs)| *differs),
            "{report}"
        );
        assert!(
            self.identical > 0,
            "{set}: nothing compared equal:\n{report}"
        );
    }
}

#[test]
fn xml_corpus() {
    let dir = data_dir("TAGSTREAM_XML_CORPUS", "xml-corpus");
    if !present(&dir) {
        return;
    }
    let mut paths = Vec::new();
    files(&dir, &mut paths);
    let mut tally = Tally::default();
    for path in &paths {
        let bytes = std::fs::read(path).expect("a readable file");
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        tally.add(&name, &bytes);
    }
    tally.check(&format!("XML corpus ({} files)", paths.len()));
}

#[test]
fn xmlconf_well_formed() {
    let dir = data_dir("TAGSTREAM_XMLCONF", "xmlconf");
    if !present(&dir) {
        return;
    }
    let documents = xmlconf_documents(&dir);
    let mut tally = Tally::default();
    for (id, path) in &documents {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        tally.add(id, &bytes);
    }
    tally.check(&format!(
        "W3C XML conformance suite, well-formed standalone XML 1.0 ({} documents)",
        documents.len()
    ));
}
