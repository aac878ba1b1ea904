//! `--check-absolutize`: the two absolutizing subjects do the same work. For every page,
//! `tagstream-absolutize`'s output and `lol_html-absolutize`'s must read back (tagstream's
//! tokenizer, simulator on with the scripting flag as both rewriters read, html5lib shapes:
//! token kinds, names, decoded attribute values, text) as the same tokens. Counts the attributes each changed (against the page's own
//! tokens) and prints every difference; exits 1 on any.

use std::process::ExitCode;

use tagstream::extract::{LinkExtractor, Url};
use tagstream::html5lib::{Html5libToken, run};
use tagstream::{Options, Tokenizer};

use crate::corpus::Corpus;
use crate::lol_absolutize::LolAbsolutizer;
use crate::write_subjects::{BASE, rewrite_options, rewrite_page};

/// How many differences of one page are printed.
const SHOWN: usize = 5;

/// What the check found over the corpus.
#[derive(Default)]
struct Tally {
    pages: usize,
    agreeing_pages: usize,
    /// Attributes the input has on the start tags of the agreeing pages.
    attributes: usize,
    /// Attributes whose value the two rewrote (the same way, on the agreeing pages).
    rewritten: usize,
    /// Attributes that differ between the two outputs.
    differing: usize,
}

pub fn run_check(corpus: &Corpus) -> ExitCode {
    let page_url = Url::parse(BASE).expect("base");
    let lol = LolAbsolutizer::new();
    let mut tokenizer = Tokenizer::new(rewrite_options(true));
    let mut tally = Tally::default();
    for page in &corpus.pages {
        tally.pages += 1;
        let links = LinkExtractor::new(Some(page_url.clone()));
        let ours = match rewrite_page(&mut tokenizer, &page.bytes, Some(links), Vec::new()) {
            Ok(out) => out,
            Err(e) => {
                println!("{}: tagstream refused: {e}", page.name);
                tally.differing += 1;
                continue;
            }
        };
        let mut theirs = Vec::new();
        if !lol.rewrite(&page.bytes, &page_url, |c| theirs.extend_from_slice(c)) {
            println!("{}: lol_html bailed out", page.name);
            tally.differing += 1;
            continue;
        }
        compare(&page.name, &page.bytes, &ours, &theirs, &mut tally);
    }
    println!(
        "absolutize check ({BASE}): {} of {} pages read back as the same tokens; on them {} of \
         {} start-tag attributes rewritten, the same by both; {} attributes differ",
        tally.agreeing_pages, tally.pages, tally.rewritten, tally.attributes, tally.differing
    );
    if tally.agreeing_pages == tally.pages {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The tokens of `html` as the check compares them.
fn tokens(html: &[u8]) -> Vec<Html5libToken> {
    run(html, &Options::new().scripting(true), None).output
}

/// Compare the two outputs of one page, count into `tally` and print what differs.
fn compare(name: &str, input: &[u8], ours: &[u8], theirs: &[u8], tally: &mut Tally) {
    let (input, ours, theirs) = (tokens(input), tokens(ours), tokens(theirs));
    if ours == theirs {
        tally.agreeing_pages += 1;
        for (before, after) in input.iter().zip(&ours) {
            let (total, changed) = changed_attributes(before, after);
            tally.attributes += total;
            tally.rewritten += changed;
        }
        return;
    }
    let mut shown = 0;
    if ours.len() != theirs.len() {
        println!(
            "{name}: {} tokens from tagstream, {} from lol_html",
            ours.len(),
            theirs.len()
        );
        shown += 1;
    }
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        if a == b {
            continue;
        }
        tally.differing += differing_attributes(a, b).max(1);
        if shown < SHOWN {
            println!("{name}: token {i}\n  tagstream: {a:?}\n  lol_html:  {b:?}");
            shown += 1;
        }
    }
}

/// The attributes of a start tag before and after rewriting, and how many changed value.
fn changed_attributes(before: &Html5libToken, after: &Html5libToken) -> (usize, usize) {
    match (before, after) {
        (
            Html5libToken::StartTag { attributes: a, .. },
            Html5libToken::StartTag { attributes: b, .. },
        ) => (a.len(), a.iter().zip(b).filter(|(x, y)| x != y).count()),
        _ => (0, 0),
    }
}

/// How many attributes of two start tags differ (0 when they are not both start tags).
fn differing_attributes(a: &Html5libToken, b: &Html5libToken) -> usize {
    changed_attributes(a, b).1
}
