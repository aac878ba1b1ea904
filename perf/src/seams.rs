//! `--seams`: what a chunk seam costs, in time, by where it falls.
//!
//! The race gives one number for 4 KiB chunks; this tells it apart. Every page is fed in pieces
//! cut at about every `--chunk-size` bytes, but at a chosen kind of place: exactly every N bytes (the
//! race's chunks), at the end of a token before a tag, 5 bytes into a start tag, in the middle of
//! a text run, of script text, of a comment. Then the race's own seams, split by what they cut
//! (each plan keeps only the race's cuts inside one kind of token), and the race's seams inside
//! start tags moved to the tag's `<`, 5 bytes into it, or past its `>`: the same tags, cut at
//! another place. Each pass of a plan runs right after a pass over the whole pages, in one
//! process; its cost per seam is its extra time over that pass divided by its seams, and the
//! table gives the median over the passes. The machine's load moves single runs by tens of ns a
//! seam (more for the plans with few seams): compare runs, not one number. Nothing is written:
//! the numbers are for finding where seams spend their time, not for the report.
//!
//! `--seam-plan` ([`run_one`]) runs one plan once, for valgrind: `seams-callgrind.sh` counts what
//! its seams cost in instructions, cache misses and mispredicted branches.

use std::hint::black_box;
use std::time::Instant;

use tagstream::{Options, TextKind, Token, Tokenizer};

use crate::corpus::Corpus;
use crate::report::median;
use crate::subjects::{consume_spans, drain};

/// Where a plan cuts.
#[derive(Clone, Copy)]
enum Plan {
    /// Exactly every chunk size (the race's `tagstream-chunks`).
    Every,
    /// At the first place of a kind past each mark, the marks a chunk size apart.
    First(Place),
    /// The race's cuts that fall inside one kind of token (or between two tokens).
    RaceIn(Inside),
    /// The race's cuts that fall inside a start tag, moved to another place in that tag.
    RaceStartTagMoved(Moved),
}

/// A kind of place a [`Plan::First`] cuts at.
#[derive(Clone, Copy)]
enum Place {
    /// At the end of the first token past the mark that a tag follows.
    BeforeTag,
    /// 5 bytes into the first start tag of at least 20 bytes past the mark.
    InStartTag,
    /// In the middle of the first data-state text of at least 20 bytes past the mark.
    InText,
    /// In the middle of the first script text of at least 20 bytes past the mark.
    InScript,
    /// In the middle of the first comment of at least 20 bytes past the mark.
    InComment,
}

/// What a cut of the race falls inside.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Inside {
    /// No token: the cut is at a token's start.
    Between,
    DataText,
    /// RCDATA, RAWTEXT, script data, PLAINTEXT or CDATA text.
    OtherText,
    StartTag,
    EndTag,
    Comment,
    /// A DOCTYPE or a processing instruction.
    Other,
}

/// Where a [`Plan::RaceStartTagMoved`] moves a cut to.
#[derive(Clone, Copy)]
enum Moved {
    /// The tag's `<`.
    ToLt,
    /// 5 bytes into the tag (or where the race cut, if that is nearer).
    FiveIn,
    /// Past the tag's `>`.
    PastGt,
}

const PLANS: [(&str, Plan); 16] = [
    ("every N bytes (the race)", Plan::Every),
    ("token end before a tag", Plan::First(Place::BeforeTag)),
    ("5 bytes into a start tag", Plan::First(Place::InStartTag)),
    ("middle of text", Plan::First(Place::InText)),
    ("middle of script text", Plan::First(Place::InScript)),
    ("middle of a comment", Plan::First(Place::InComment)),
    ("race: between tokens", Plan::RaceIn(Inside::Between)),
    ("race: in data text", Plan::RaceIn(Inside::DataText)),
    ("race: in other text", Plan::RaceIn(Inside::OtherText)),
    ("race: in start tags", Plan::RaceIn(Inside::StartTag)),
    ("race: in end tags", Plan::RaceIn(Inside::EndTag)),
    ("race: in comments", Plan::RaceIn(Inside::Comment)),
    ("race: in others", Plan::RaceIn(Inside::Other)),
    (
        "its start tags, at `<`",
        Plan::RaceStartTagMoved(Moved::ToLt),
    ),
    (
        "its start tags, 5 in",
        Plan::RaceStartTagMoved(Moved::FiveIn),
    ),
    (
        "its start tags, past `>`",
        Plan::RaceStartTagMoved(Moved::PastGt),
    ),
];

/// A token's span and kind, and where a [`Plan::First`] may cut in it (`None`: nowhere).
struct Spot {
    start: usize,
    end: usize,
    inside: Inside,
    cut: [Option<usize>; 5],
}

/// The spots of a page, from tokenizing it whole.
fn spots(tokenizer: &mut Tokenizer, page: &[u8]) -> Vec<Spot> {
    let mut spots: Vec<Spot> = Vec::new();
    for token in tokenizer.tokenize(page) {
        let span = token.span();
        let (start, end) = (span.start, span.end);
        let long = end - start >= 20;
        let middle = long.then_some(start + (end - start) / 2);
        let tag = matches!(token, Token::StartTag(_) | Token::EndTag(_));
        if tag && let Some(before) = spots.last_mut() {
            before.cut[Place::BeforeTag as usize] = Some(before.end);
        }
        let inside = match &token {
            Token::Text(t) if t.kind() == TextKind::Data => Inside::DataText,
            Token::Text(_) => Inside::OtherText,
            Token::StartTag(_) => Inside::StartTag,
            Token::EndTag(_) => Inside::EndTag,
            Token::Comment(_) => Inside::Comment,
            _ => Inside::Other,
        };
        let mut cut = [None; 5];
        match &token {
            Token::StartTag(_) if long => cut[Place::InStartTag as usize] = Some(start + 5),
            Token::Text(t) if t.kind() == TextKind::Data => cut[Place::InText as usize] = middle,
            Token::Text(t) if t.kind() == TextKind::ScriptData => {
                cut[Place::InScript as usize] = middle;
            }
            Token::Comment(_) => cut[Place::InComment as usize] = middle,
            _ => {}
        }
        spots.push(Spot {
            start,
            end,
            inside,
            cut,
        });
    }
    spots
}

/// The offsets a plan cuts a page of `len` bytes at, in increasing order.
fn cuts(spots: &[Spot], len: usize, plan: Plan, size: usize) -> Vec<usize> {
    let race = (1..len.div_ceil(size)).map(|i| i * size);
    let mut cuts: Vec<usize> = match plan {
        Plan::Every => race.collect(),
        Plan::First(place) => first_places(spots, len, place, size),
        Plan::RaceIn(inside) => race
            .filter(|&at| spot_around(spots, at).map_or(Inside::Between, |s| s.inside) == inside)
            .collect(),
        Plan::RaceStartTagMoved(moved) => race
            .filter_map(|at| {
                let tag = spot_around(spots, at).filter(|s| s.inside == Inside::StartTag)?;
                let to = match moved {
                    Moved::ToLt => tag.start,
                    Moved::FiveIn => (tag.start + 5).min(at),
                    Moved::PastGt => tag.end,
                };
                (0 < to && to < len).then_some(to)
            })
            .collect(),
    };
    // Cuts moved into one tag longer than a chunk meet.
    cuts.dedup();
    cuts
}

/// The token that a cut at `at` falls inside (not at its start), if any.
fn spot_around(spots: &[Spot], at: usize) -> Option<&Spot> {
    let next = spots.partition_point(|s| s.end <= at);
    spots.get(next).filter(|s| s.start < at)
}

/// The first place of a kind past each mark, the marks a chunk size apart from the last cut.
fn first_places(spots: &[Spot], len: usize, place: Place, size: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut mark = size;
    for spot in spots {
        if let Some(at) = spot.cut[place as usize]
            && spot.start >= mark
            && at < len
        {
            cuts.push(at);
            mark = at + size;
        }
    }
    cuts
}

/// Feed each page in the pieces its cuts make, and finish it.
fn run(tokenizer: &mut Tokenizer, corpus: &Corpus, cuts: &[Vec<usize>]) -> u64 {
    let mut sum = 0;
    for (page, cuts) in corpus.pages.iter().zip(cuts) {
        tokenizer.reset();
        let mut from = 0;
        for &at in cuts.iter().chain(Some(&page.bytes.len())) {
            sum += drain(tokenizer.feed(&page.bytes[from..at]), &consume_spans);
            from = at;
        }
        sum += drain(tokenizer.finish(), &consume_spans);
    }
    sum
}

/// Every page whole.
fn whole(tokenizer: &mut Tokenizer, corpus: &Corpus) -> u64 {
    let mut sum = 0;
    for page in &corpus.pages {
        sum += drain(tokenizer.tokenize(&page.bytes), &consume_spans);
    }
    sum
}

fn seconds(f: impl FnOnce() -> u64) -> f64 {
    let start = Instant::now();
    black_box(f());
    start.elapsed().as_secs_f64()
}

/// The plans' names, in the order of the table (a plan's number is its index).
pub fn plan_names() -> impl ExactSizeIterator<Item = &'static str> {
    PLANS.iter().map(|&(name, _)| name)
}

/// One plan's cuts for every page.
fn plan_cuts(
    corpus: &Corpus,
    page_spots: &[Vec<Spot>],
    plan: Plan,
    size: usize,
) -> Vec<Vec<usize>> {
    corpus
        .pages
        .iter()
        .zip(page_spots)
        .map(|(page, spots)| cuts(spots, page.bytes.len(), plan, size))
        .collect()
}

/// The set-up of [`run_all`] and [`run_one`]: every plan's cuts for every page (from one whole
/// tokenization of each page), and the checksum of one more pass over the whole pages.
fn set_up(tokenizer: &mut Tokenizer, corpus: &Corpus, size: usize) -> (Vec<Vec<Vec<usize>>>, u64) {
    let page_spots: Vec<Vec<Spot>> = corpus
        .pages
        .iter()
        .map(|page| spots(tokenizer, &page.bytes))
        .collect();
    let plans = PLANS
        .iter()
        .map(|&(_, plan)| plan_cuts(corpus, &page_spots, plan, size))
        .collect();
    (plans, whole(tokenizer, corpus))
}

fn seam_count(cuts: &[Vec<usize>]) -> usize {
    cuts.iter().map(Vec::len).sum()
}

/// For valgrind (`seams-callgrind.sh`): the set-up of [`run_all`], then exactly one pass of plan
/// `plan` (its number in [`plan_names`]), or of the whole pages for `None`. Every plan's set-up
/// is the same (the cuts of all plans are built each time), so that a plan's counts less those
/// of `None` are its pass less a pass of the whole pages. Returns the plan's seams (0 for `None`)
/// and the pass's checksum.
pub fn run_one(corpus: &Corpus, plan: Option<usize>, size: usize) -> (usize, u64) {
    let mut tokenizer = Tokenizer::new(Options::new());
    let (plans, expected) = set_up(&mut tokenizer, corpus, size);
    let (seams, sum) = match plan {
        Some(i) => (
            seam_count(&plans[i]),
            run(&mut tokenizer, corpus, &plans[i]),
        ),
        None => (0, whole(&mut tokenizer, corpus)),
    };
    assert_eq!(sum, expected, "a plan's tokens add up to the whole pages'");
    (seams, sum)
}

/// Print, for each plan, its seams, its speed against the whole pages and its cost per seam.
pub fn run_all(corpus: &Corpus, passes: usize, size: usize) {
    let mut tokenizer = Tokenizer::new(Options::new());
    let (plans, expected) = set_up(&mut tokenizer, corpus, size);
    // Each plan's passes, each paired with a pass of the whole pages run just before it.
    let mut times = vec![Vec::new(); PLANS.len()];
    for pass in 0..=passes {
        for (plan, cuts) in plans.iter().enumerate() {
            let base = seconds(|| whole(&mut tokenizer, corpus));
            let mut sum = 0;
            let t = seconds(|| {
                sum = run(&mut tokenizer, corpus, cuts);
                sum
            });
            assert_eq!(sum, expected, "a plan's tokens add up to the whole pages'");
            // The first pass warms up.
            if pass > 0 {
                times[plan].push((base, t));
            }
        }
    }
    let bases: Vec<f64> = times.iter().flatten().map(|&(b, _)| b).collect();
    println!(
        "{passes} passes after a warm-up; whole pages: median {:.2} ms a pass",
        median(&bases) * 1e3
    );
    println!("| seams cut at | seams | speed vs whole (median pass) | ns a seam (median pass) |");
    println!("|---|---:|---:|---:|");
    for ((name, _), (cuts, times)) in PLANS.iter().zip(plans.iter().zip(&times)) {
        let seams = seam_count(cuts);
        let ratios: Vec<f64> = times.iter().map(|(b, t)| b / t).collect();
        let costs: Vec<f64> = times
            .iter()
            .map(|(b, t)| (t - b) / seams.max(1) as f64 * 1e9)
            .collect();
        // A plan with no seams (none of the race's falls in its kind of token) costs nothing.
        let cost = if seams == 0 {
            "–".to_owned()
        } else {
            format!("{:.0}", median(&costs))
        };
        println!(
            "| {name} | {seams} | {:.1}% | {cost} |",
            median(&ratios) * 100.0
        );
    }
}
