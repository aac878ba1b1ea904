//! `tagstream-perf --hostile`: the hostile inputs of issues 5 and 25 at full size against the
//! corpus, in one process, and a document fed one byte at a time; with `--xml`, issue 26's hostile
//! XML against the XML corpus, for the XML5 tokenizer ([`XML`]). See README.md ("Hostile inputs").
//!
//! The inputs are the corpus (the reference), every case of `benches/common/hostile.rs` (included
//! as `crate::hostile`) and the byte-at-a-time documents: the corpus pages in name order,
//! concatenated and cut to 1, 5 and 10 MB. The race's own tagstream subjects run them, so every
//! token goes into the same checksum (spans and raw names, nothing decoded): `tagstream` and
//! `tagstream-errors` the corpus and the cases, `tagstream-chunks` with 1-byte chunks the
//! byte-at-a-time documents. Beside them, unless `--no-peers`, the race's peers ([`PEERS`]) run the
//! corpus and every case at both sizes, each judged against its own corpus speed. Each pass runs
//! all of them once, in an order shuffled anew each pass; one warm-up pass and then N timed, on
//! this thread's CPU clock; the report gives the medians.

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;

use crate::corpus::Corpus;
use crate::hostile::{CASES, Case, XML_CASES};
use crate::report::{self, Machine, fmt_speed, group, mbps, median};
use crate::subjects::{Dialect, Outcome, Subject};
use tagstream::{Options, Tokenizer, xml5};

/// Each of the issues' cases must run at this fraction of the corpus throughput or more.
const GOAL: f64 = 0.25;

/// Sizes of the byte-at-a-time documents; the largest is the one the issue names.
const BYTEWISE_SIZES: [usize; 3] = [1_000_000, 5_000_000, 10_000_000];

/// Each case also runs at full size divided by this (default mode only), to show how its time per
/// byte grows with its size.
const SMALLER: usize = 10;

/// The byte-at-a-time case is linear when no size's ns/byte exceeds the smallest's by more than
/// this factor (timing noise on a shared machine stays well inside it).
const FLAT: f64 = 1.25;

/// The race's peers measured beside tagstream: `lol_html` (element and text handlers: it runs its
/// own tree-builder feedback simulator), `lol_html-bare`, html5ever's tokenizer and html5gum.
const PEERS: [&str; 4] = ["lol_html", "lol_html-bare", "html5ever", "html5gum"];

/// What a hostile run measures: the dialect, its cases and subjects, and the peers beside them.
pub struct Setup {
    dialect: Dialect,
    cases: &'static [Case],
    /// The subjects of [`Mode::Default`], [`Mode::Errors`] and [`Mode::Bytewise`].
    subjects: [&'static str; 3],
    peers: &'static [&'static str],
    /// The issues that name the cases, for the report.
    issues: &'static str,
    /// What they ask of each case, for the report.
    asks: &'static str,
    /// The feeding call of the byte-at-a-time documents, for the report.
    feed: &'static str,
}

/// HTML: issues 5 and 25, against the race's HTML peers.
pub const HTML: Setup = Setup {
    dialect: Dialect::Html,
    cases: CASES,
    subjects: ["tagstream", "tagstream-errors", "tagstream-chunks"],
    peers: &PEERS,
    issues: "issues 5 and 25",
    asks: "ask for ≥ 25%",
    feed: "Tokenizer::feed",
};

/// XML5: issue 26's hostile XML, against the XML corpus (no peers: quick-xml stops at the first
/// error, and xml5ever's speed on them is in the XML race's notes).
pub const XML: Setup = Setup {
    dialect: Dialect::Xml,
    cases: XML_CASES,
    subjects: [
        "tagstream-xml5",
        "tagstream-xml5-errors",
        "tagstream-xml5-chunks",
    ],
    peers: &[],
    issues: "issue 26",
    asks: "asks for linear time (\"ns/byte ÷ at 1/10 size\" about 1); the ≥ 25% columns are \
           the HTML issues' bar, shown for comparison",
    feed: "xml5::Tokenizer::feed",
};

/// A peer's time per byte at full size over its time at 1/[`SMALLER`] above this is called out
/// as not linear (short inputs time noisily, and caches move the ratio by less than this).
const NOT_LINEAR: f64 = 2.0;

/// How an input is tokenized, and by which subject of the race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Default,
    Errors,
    Bytewise,
    /// A peer of the race, by its subject name (one of [`PEERS`]).
    Peer(&'static str),
}

impl Mode {
    /// The race's subject that runs this mode.
    fn name(self, setup: &Setup) -> &'static str {
        match self {
            Mode::Default => setup.subjects[0],
            Mode::Errors => setup.subjects[1],
            Mode::Bytewise => setup.subjects[2],
            Mode::Peer(name) => name,
        }
    }

    fn subject(self, setup: &Setup, input: &Corpus) -> Box<dyn Subject> {
        // The chunk size (1 byte) matters only to the chunks subject.
        let name = self.name(setup);
        setup
            .dialect
            .make(name, input, 1)
            .expect("a subject of the race")
    }
}

/// What the inputs are: the corpus, a hostile case at full size divided by `divisor`, or a
/// byte-at-a-time document.
enum Source {
    Corpus,
    Case { case: &'static Case, divisor: usize },
    Bytewise,
}

/// One input in one mode, and its timings.
struct Run {
    input: usize,
    mode: Mode,
    subject: Box<dyn Subject>,
    /// Tokens the subject consumes (counted in an extra, untimed pass); for a peer, the tokens
    /// tagstream makes of the same input in default mode.
    tokens: u64,
    cpu: Vec<f64>,
    outcome: Outcome,
    consistent: bool,
}

impl Run {
    fn mbps(&self, inputs: &[(Source, Corpus)]) -> f64 {
        mbps(inputs[self.input].1.bytes, median(&self.cpu))
    }

    /// Nanoseconds per token (see `tokens`).
    fn ns_per_token(&self) -> f64 {
        median(&self.cpu) * 1e9 / self.tokens.max(1) as f64
    }
}

/// Run the hostile benchmark, with the peers unless `peers` is false, and print (and, with
/// `write`, save) its report.
pub fn run(
    setup: &Setup,
    corpus: Corpus,
    passes: usize,
    peers: bool,
    results: &Path,
    write: bool,
) -> Result<(), String> {
    let machine = Machine::detect();
    let inputs = inputs(setup, corpus);
    let mut runs = runs(setup, &inputs, peers);
    let load_before = report::load_average();
    let started = std::time::Instant::now();
    time_passes(&mut runs, &inputs, passes);
    let load = (load_before, report::load_average());
    eprintln!(
        "timed passes took {:.0} s of wall-clock time",
        started.elapsed().as_secs_f64()
    );
    let markdown = markdown(setup, &machine, &inputs, &runs, passes, load);
    println!("{markdown}");
    if write {
        std::fs::create_dir_all(results).map_err(|e| format!("{}: {e}", results.display()))?;
        let (date, _) = report::today();
        let dialect = match setup.dialect {
            Dialect::Html => "",
            Dialect::Xml => "-xml",
        };
        let path = results.join(format!("{date}-{}-hostile{dialect}.md", machine.slug()));
        std::fs::write(&path, &markdown).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

/// The corpus first, then every case at full and at a tenth of full size, then the byte-at-a-time
/// documents.
fn inputs(setup: &Setup, corpus: Corpus) -> Vec<(Source, Corpus)> {
    eprintln!("generating the hostile inputs at full size...");
    let joined: Vec<u8> = corpus
        .pages
        .iter()
        .flat_map(|p| &p.bytes)
        .copied()
        .collect();
    let mut inputs = vec![(Source::Corpus, corpus)];
    for case in setup.cases {
        for divisor in [1, SMALLER] {
            let document = Corpus::document(case.name, case.input(divisor));
            inputs.push((Source::Case { case, divisor }, document));
        }
    }
    for size in BYTEWISE_SIZES {
        let document = joined.iter().copied().cycle().take(size).collect();
        inputs.push((Source::Bytewise, Corpus::document("bytewise", document)));
    }
    inputs
}

/// Every input in the modes it is measured in, with its token count: the peers (with `peers`) on
/// the corpus and the cases at both sizes.
fn runs(setup: &Setup, inputs: &[(Source, Corpus)], peers: bool) -> Vec<Run> {
    eprintln!("counting tokens...");
    let mut runs = Vec::new();
    for (i, (source, input)) in inputs.iter().enumerate() {
        let mut modes = match source {
            Source::Corpus | Source::Case { divisor: 1, .. } => vec![Mode::Default, Mode::Errors],
            Source::Case { .. } => vec![Mode::Default],
            Source::Bytewise => vec![Mode::Bytewise],
        };
        if peers && !matches!(source, Source::Bytewise) {
            modes.extend(setup.peers.iter().copied().map(Mode::Peer));
        }
        for mode in modes {
            runs.push(Run {
                input: i,
                mode,
                subject: mode.subject(setup, input),
                tokens: count_tokens(setup, mode, input),
                cpu: Vec::new(),
                outcome: Outcome::default(),
                consistent: true,
            });
        }
    }
    runs
}

/// [`count_tokens`] for either tokenizer (the two types share the calls, not a trait).
macro_rules! count_pages {
    ($tokenizer:ident, $mode:expr, $input:expr) => {{
        let mut count = 0;
        for page in &$input.pages {
            if $mode == Mode::Bytewise {
                $tokenizer.reset();
                for byte in page.bytes.chunks(1) {
                    count += $tokenizer.feed(byte).count() as u64;
                }
                count += $tokenizer.finish().count() as u64;
            } else {
                count += $tokenizer.tokenize(&page.bytes).count() as u64;
            }
        }
        count
    }};
}

/// The tokens `mode`'s subject gets from `input` (feeding one byte at a time splits text); for a
/// peer, tagstream's in default mode.
fn count_tokens(setup: &Setup, mode: Mode, input: &Corpus) -> u64 {
    let options = Options::new().errors(mode == Mode::Errors);
    match setup.dialect {
        Dialect::Html => {
            let mut tokenizer = Tokenizer::new(options);
            count_pages!(tokenizer, mode, input)
        }
        Dialect::Xml => {
            let mut tokenizer = xml5::Tokenizer::new(options);
            count_pages!(tokenizer, mode, input)
        }
    }
}

/// One warm-up pass and `passes` timed ones, each running every input in every mode once, in an
/// order shuffled anew each pass (as the race does, see `pass_order`).
fn time_passes(runs: &mut [Run], inputs: &[(Source, Corpus)], passes: usize) {
    for pass in 0..=passes {
        let start = crate::thread_cpu_seconds();
        for i in crate::pass_order(pass, runs.len()) {
            let run = &mut runs[i];
            let input = &inputs[run.input].1;
            let before = crate::thread_cpu_seconds();
            let out = black_box(run.subject.run(black_box(input)));
            let seconds = crate::thread_cpu_seconds() - before;
            if pass == 0 {
                run.outcome = out;
            } else {
                run.consistent &= run.outcome == out;
                run.cpu.push(seconds);
            }
        }
        let label = if pass == 0 { "warm-up" } else { "pass" };
        eprintln!(
            "{label} {pass}/{passes}: {:.1} s of CPU time",
            crate::thread_cpu_seconds() - start
        );
    }
}

/// The run of input `input` in `mode`.
fn find(runs: &[Run], input: usize, mode: Mode) -> &Run {
    runs.iter()
        .find(|r| r.input == input && r.mode == mode)
        .expect("every input runs in its modes")
}

/// `MB/s | ratio | met?` of `run` against the corpus speed `reference`; a miss is in bold only
/// for a case that issue 5 or 25 names (`from_issue`).
fn against(run: &Run, inputs: &[(Source, Corpus)], reference: f64, from_issue: bool) -> String {
    let speed = run.mbps(inputs);
    let ratio = speed / reference;
    let met = match (ratio >= GOAL, from_issue) {
        (true, _) => "yes",
        (false, true) => "**no**",
        (false, false) => "no",
    };
    let changed = if run.consistent { "" } else { " (CHANGED!)" };
    format!("{}{changed} | {} | {met}", fmt_speed(speed), percent(ratio))
}

/// Nanoseconds per byte of `run`.
fn ns_per_byte(run: &Run, inputs: &[(Source, Corpus)]) -> f64 {
    median(&run.cpu) * 1e9 / inputs[run.input].1.bytes as f64
}

/// How much more time per byte `case` takes in `mode` at full size than at 1/[`SMALLER`] (the
/// default mode and the peers run both sizes).
fn growth(case: &Case, mode: Mode, inputs: &[(Source, Corpus)], runs: &[Run]) -> f64 {
    let ns = |wanted: usize| {
        let run = runs.iter().find(|r| {
            r.mode == mode
                && matches!(inputs[r.input].0, Source::Case { case: c, divisor } if c.name == case.name && divisor == wanted)
        });
        ns_per_byte(run.expect("every case runs at both sizes"), inputs)
    };
    ns(1) / ns(SMALLER)
}

/// The table of the corpus and the cases at full size.
fn cases_table(inputs: &[(Source, Corpus)], runs: &[Run]) -> String {
    let default_ref = find(runs, 0, Mode::Default).mbps(inputs);
    let errors_ref = find(runs, 0, Mode::Errors).mbps(inputs);
    let mut t = String::from(
        "| case | size | bytes | tokens | bytes/token | default MB/s | of corpus | ≥ 25%? | ns/byte \
         ÷ at 1/10 size | errors MB/s | of corpus | ≥ 25%? | parse errors |\n\
         |---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---:|\n",
    );
    for (i, (source, input)) in inputs.iter().enumerate() {
        let (name, size, growth, from_issue) = match source {
            Source::Corpus => (
                "**corpus** (reference)".to_owned(),
                format!("{} pages", input.pages.len()),
                "–".to_owned(),
                true,
            ),
            Source::Case { case, divisor: 1 } => (
                case_label(case),
                format!("{} {}", group(case.full as u64), case.unit),
                format!("{:.2}", growth(case, Mode::Default, inputs, runs)),
                case.from_issue,
            ),
            _ => continue,
        };
        let (default, errors) = (find(runs, i, Mode::Default), find(runs, i, Mode::Errors));
        let _ = writeln!(
            t,
            "| {name} | {size} | {} | {} | {} | {} | {growth} | {} | {} |",
            group(input.bytes as u64),
            group(default.tokens),
            bytes_per_token(input.bytes, default.tokens),
            against(default, inputs, default_ref, from_issue),
            against(errors, inputs, errors_ref, from_issue),
            group(errors.outcome.errors)
        );
    }
    t
}

/// Bytes per token, to one decimal where that matters.
fn bytes_per_token(bytes: usize, tokens: u64) -> String {
    let per = bytes as f64 / tokens.max(1) as f64;
    if per < 100.0 {
        format!("{per:.1}")
    } else {
        group(per.round() as u64)
    }
}

/// A case's row name: the issues' cases by name, ours marked.
fn case_label(case: &Case) -> String {
    if case.from_issue {
        case.name.to_owned()
    } else {
        format!("{} (ours)", case.name)
    }
}

/// The byte-at-a-time table, and whether its ns/byte stayed flat.
fn bytewise_table(inputs: &[(Source, Corpus)], runs: &[Run]) -> (String, bool) {
    let default_ref = find(runs, 0, Mode::Default).mbps(inputs);
    let mut t = String::from(
        "| corpus pages joined | bytes | tokens | MB/s | ns/byte | ns/byte ÷ smallest's | of corpus \
         (whole) |\n|---|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut first_ns = None;
    let mut flat = true;
    for run in runs.iter().filter(|r| r.mode == Mode::Bytewise) {
        let input = &inputs[run.input].1;
        let ns = ns_per_byte(run, inputs);
        let growth = ns / *first_ns.get_or_insert(ns);
        flat &= growth <= FLAT;
        let speed = run.mbps(inputs);
        let _ = writeln!(
            t,
            "| {} MB{} | {} | {} | {} | {ns:.2} | {growth:.2} | {:.0}% |",
            input.bytes / 1_000_000,
            if run.consistent { "" } else { " (CHANGED!)" },
            group(input.bytes as u64),
            group(run.tokens),
            fmt_speed(speed),
            speed / default_ref * 100.0
        );
    }
    (t, flat)
}

/// The cases that miss the goal in either mode, of the issues' (`from_issue`) or of ours.
fn misses(inputs: &[(Source, Corpus)], runs: &[Run], from_issue: bool) -> String {
    let mut missed = Vec::new();
    for mode in [Mode::Default, Mode::Errors] {
        let reference = find(runs, 0, mode).mbps(inputs);
        for run in runs.iter().filter(|r| r.mode == mode) {
            if let Source::Case { case, divisor: 1 } = inputs[run.input].0
                && case.from_issue == from_issue
                && run.mbps(inputs) / reference < GOAL
            {
                missed.push(format!("{} ({mode:?})", case.name).to_lowercase());
            }
        }
    }
    if missed.is_empty() {
        "none".to_owned()
    } else {
        missed.join(", ")
    }
}

/// The report (Markdown).
fn markdown(
    setup: &Setup,
    machine: &Machine,
    inputs: &[(Source, Corpus)],
    runs: &[Run],
    passes: usize,
    load: (String, String),
) -> String {
    let (date, time) = report::today();
    let corpus = &inputs[0].1;
    let mut s = format!(
        "# tagstream hostile inputs ({}): {date} on {}\n\n## Setup\n\n",
        setup.issues, machine.cpu
    );
    let _ = writeln!(
        s,
        "- **Machine:** {}, {} logical cores ({}), {}\n- **Compiler:** {}; `{}` profile (lto = \
         \"fat\", codegen-units = 1, generic x86-64)\n- **tagstream:** {}\n- **Date:** {date} \
         {time}; 1-minute load average {} before the passes, {} after",
        machine.cpu,
        machine.cores,
        machine.simd,
        machine.kernel,
        machine.rustc,
        env!("PERF_PROFILE"),
        report::tagstream_git(),
        load.0,
        load.1
    );
    let _ = writeln!(
        s,
        "- **Reference:** the corpus `{}`, {} files, {} bytes, each page its own document\n- \
         **Method:** `tagstream-perf --hostile`, in one process; every input in every mode once a \
         pass, in an order shuffled anew each pass, 1 warm-up pass + {passes} timed passes; each \
         figure is the median pass on this thread's CPU clock (MB = 10^6 bytes). Each input is \
         one whole document (`tokenize`), consumed by the race's `{}` subject (default: \
         spans and raw names into a checksum, nothing decoded) and `{}` (the same \
         with `Options::errors(true)` and the default `Options::max_errors`: past 65,536 errors \
         in a document, errors are counted by code, not stored; \"parse errors\" counts both); \
         \"of corpus\" is the case's MB/s over the corpus's in the same mode; {} \
         {}.",
        corpus.origin,
        corpus.pages.len(),
        group(corpus.bytes as u64),
        setup.subjects[0],
        setup.subjects[1],
        setup.issues,
        setup.asks
    );
    if runs.iter().any(|r| matches!(r.mode, Mode::Peer(_))) {
        let lock = crate::manifest_dir().join("Cargo.lock");
        let crates: Vec<String> = report::crate_versions(&lock, Dialect::Html)
            .into_iter()
            .filter(|(name, _)| name != "tagstream")
            .map(|(name, version)| format!("{name} {version}"))
            .collect();
        let _ = writeln!(
            s,
            "- **Peers:** {} (perf/Cargo.lock), run as the race runs them, in the same passes \
             (see \"Peers on the same inputs\"; `--no-peers` leaves them out)",
            crates.join(", ")
        );
    }
    let _ = writeln!(s, "\n## Hostile inputs\n\n{}", cases_table(inputs, runs));
    let _ = writeln!(
        s,
        "\"ns/byte ÷ at 1/10 size\" is the case's time per byte at full size over its time per \
         byte at a tenth of that size (default mode): about 1 when the time is linear in the \
         size, 10 if it were quadratic; cache effects (a working set that outgrows a cache \
         level) move it too.\n\nThe cases of {} below 25% of the corpus throughput: {}.\n",
        setup.issues,
        misses(inputs, runs, true),
    );
    if setup.cases.iter().any(|case| !case.from_issue) {
        let _ = writeln!(
            s,
            "The cases marked (ours) are not in {}' lists: stress cases for the tree-builder \
             simulator, and `end-tags`, plain `</y>` tokens with nothing open, as a reference. \
             Each token costs the iterator and the lexer a roughly fixed amount of work, so a \
             case's share of the corpus throughput falls with its bytes per token (the corpus \
             row gives its average): `end-tags` shows where 4-byte tokens land with almost no \
             simulator work. Ours below 25%: {}.\n",
            setup.issues,
            misses(inputs, runs, false)
        );
    }
    let (table, flat) = bytewise_table(inputs, runs);
    let _ = writeln!(
        s,
        "## One byte at a time\n\nThe corpus pages in name order, joined and cut to each size, \
         fed through `{}` one byte at a time and then `finish` (the race's \
         `{}` subject with 1-byte chunks; text comes out split at every byte, \
         hence the token counts). It must only stay linear: ns/byte flat across \
         sizes.\n\n{table}\nLinear (no size above {FLAT}× the smallest's ns/byte): {}.\n",
        setup.feed,
        setup.subjects[2],
        if flat { "yes" } else { "**no**" }
    );
    if runs.iter().any(|r| matches!(r.mode, Mode::Peer(_))) {
        s.push_str(&peers_section(setup, inputs, runs));
    }
    s.push_str(&cases_section(inputs, runs));
    s
}

/// What each case is, and its checksums (the same in both modes: errors are counted apart).
fn cases_section(inputs: &[(Source, Corpus)], runs: &[Run]) -> String {
    let mut s = String::from("## Cases (`benches/common/hostile.rs`)\n\n");
    for (i, (source, _)) in inputs.iter().enumerate() {
        if let Source::Case { case, divisor: 1 } = source {
            let (default, errors) = (find(runs, i, Mode::Default), find(runs, i, Mode::Errors));
            let same = default.outcome.checksum == errors.outcome.checksum;
            let _ = writeln!(
                s,
                "- **{}**: {}. Mostly in: {}. Checksum {}{}.",
                case.name,
                case.what,
                case.state,
                group(default.outcome.checksum),
                if same {
                    ""
                } else {
                    " (DIFFERENT with errors on: a bug)"
                }
            );
        }
    }
    s
}

/// The subjects that ran the corpus, in the order of the peers' tables: ours, then the peers.
fn compared(runs: &[Run]) -> Vec<Mode> {
    runs.iter()
        .filter(|r| r.input == 0)
        .map(|r| r.mode)
        .collect()
}

/// The cases at full size, with the index of their input.
fn full_cases(inputs: &[(Source, Corpus)]) -> impl Iterator<Item = (usize, &'static Case)> + '_ {
    inputs
        .iter()
        .enumerate()
        .filter_map(|(i, (source, _))| match source {
            Source::Case { case, divisor: 1 } => Some((i, *case)),
            _ => None,
        })
}

/// `run`'s MB/s over the MB/s of its own subject on the corpus.
fn share(run: &Run, inputs: &[(Source, Corpus)], runs: &[Run]) -> f64 {
    run.mbps(inputs) / find(runs, 0, run.mode).mbps(inputs)
}

/// " (CHANGED!)" when a run's outcome moved between passes.
fn changed(run: &Run) -> &'static str {
    if run.consistent { "" } else { " (CHANGED!)" }
}

/// A table header: `first` columns, then one right-aligned column per subject of `modes`.
fn header(setup: &Setup, first: &[&str], modes: &[Mode]) -> String {
    let names: Vec<&str> = modes.iter().map(|m| m.name(setup)).collect();
    format!(
        "| {} | {} |\n|---|{}\n",
        first.join(" | "),
        names.join(" | "),
        "---:|".repeat(first.len() - 1 + modes.len())
    )
}

/// What the peers are, their table, the cases where they and tagstream part, and the ns per
/// token of our dense-token cases.
fn peers_section(setup: &Setup, inputs: &[(Source, Corpus)], runs: &[Run]) -> String {
    let mut s = String::from(
        "## Peers on the same inputs\n\nThe race's peers ran the corpus and every case at full \
         size in the same passes, shuffled among tagstream's runs: `lol_html` (`HtmlRewriter` with \
         `element!(\"*\")` and `text!(\"*\")` handlers, strict mode off: it matches every element \
         and runs its own tree-builder feedback simulator, the closest to tagstream's work on the \
         (ours) cases), `lol_html-bare` (no handlers: it only scans for what it would rewrite and \
         hands out no tokens), `html5ever` (its tokenizer with a token sink; no tree builder, so \
         no foreign-content feedback at all) and `html5gum` (its callback emitter; none either). \
         Each cell is the subject's MB/s on the case over its own MB/s on the corpus (the corpus \
         row), with its MB/s in parentheses; in bold below 25%. The shares say how far each \
         tokenizer's speed falls from its own corpus speed on a case; the MB/s, how fast it \
         is.\n\n",
    );
    s.push_str(&peers_table(setup, inputs, runs));
    let _ = writeln!(s, "\n{}", peers_notes(setup, inputs, runs));
    let _ = writeln!(s, "{}", against_peers(setup, inputs, runs));
    let _ = writeln!(
        s,
        "### Time per token, (ours) cases\n\nThese cases are bound by the cost per token. \
         ns/token is the median pass's time over tagstream's token count for the input in default \
         mode (the same with errors on), for every subject (the peers' own token counts differ: html5ever hands out \
         character runs and EOF differently, lol_html-bare makes no tokens); the corpus row is the \
         average token of real pages.\n\n{}",
        per_token_table(setup, inputs, runs)
    );
    s
}

/// Each subject's share of its corpus speed on every case at full size.
fn peers_table(setup: &Setup, inputs: &[(Source, Corpus)], runs: &[Run]) -> String {
    let modes = compared(runs);
    let mut t = header(setup, &["case", "bytes/token"], &modes);
    let corpus = find(runs, 0, Mode::Default);
    let _ = write!(
        t,
        "| **corpus** (reference) | {} |",
        bytes_per_token(inputs[0].1.bytes, corpus.tokens)
    );
    for &mode in &modes {
        let run = find(runs, 0, mode);
        let _ = write!(t, " {} MB/s{} |", fmt_speed(run.mbps(inputs)), changed(run));
    }
    t.push('\n');
    for (i, case) in full_cases(inputs) {
        let tokens = find(runs, i, Mode::Default).tokens;
        let _ = write!(
            t,
            "| {} | {} |",
            case_label(case),
            bytes_per_token(inputs[i].1.bytes, tokens)
        );
        for &mode in &modes {
            let run = find(runs, i, mode);
            let ratio = share(run, inputs, runs);
            let cell = format!("{} ({})", percent(ratio), fmt_speed(run.mbps(inputs)));
            let cell = if ratio < GOAL {
                format!("**{cell}**")
            } else {
                cell
            };
            let _ = write!(t, " {cell}{} |", changed(run));
        }
        t.push('\n');
    }
    t
}

/// What a reader must know to trust the peers' table: the `&str` peers' lossy inputs, lol_html's
/// bail-outs, and the peers whose time per byte grows with the size.
fn peers_notes(setup: &Setup, inputs: &[(Source, Corpus)], runs: &[Run]) -> String {
    let mut lossy = Vec::new();
    for (source, input) in inputs {
        if input.non_utf8 == 0
            || !matches!(source, Source::Corpus | Source::Case { divisor: 1, .. })
        {
            continue;
        }
        let converted: usize = input.pages.iter().map(|p| p.as_str().len()).sum();
        let name = match source {
            Source::Case { case, .. } => case.name.to_owned(),
            _ => "the corpus".to_owned(),
        };
        lossy.push(format!(
            "{name} ({} of its {} documents: {} bytes as UTF-8, {} as given)",
            input.non_utf8,
            input.pages.len(),
            group(converted as u64),
            group(input.bytes as u64)
        ));
    }
    let bailed: Vec<String> = runs
        .iter()
        .filter(|r| matches!(r.mode, Mode::Peer(n) if n.starts_with("lol_html")))
        .filter(|r| r.outcome.errors > 0)
        .map(|r| format!("{} on {}", r.mode.name(setup), inputs[r.input].1.origin))
        .collect();
    let mut growing = Vec::new();
    for (_, case) in full_cases(inputs) {
        for mode in compared(runs) {
            if let Mode::Peer(name) = mode {
                let g = growth(case, mode, inputs, runs);
                if g > NOT_LINEAR {
                    growing.push(format!("{name} on {} ({g:.1})", case.name));
                }
            }
        }
    }
    let none = |v: Vec<String>| {
        if v.is_empty() {
            "none".to_owned()
        } else {
            v.join("; ")
        }
    };
    format!(
        "MB/s are over the input's bytes as given. html5ever and html5gum take `&str`: where the \
         input is not UTF-8 they get a lossy copy (U+FFFD for each invalid sequence), here: {}. \
         lol_html bailed out (the rewriter returned an error) on: {}. The peers also ran every \
         case at a tenth of its size; their time per byte at full size over that at a tenth \
         exceeds {NOT_LINEAR} (not linear) for: {}.\n",
        none(lossy),
        none(bailed),
        none(growing)
    )
}

/// The cases where tagstream misses 25% of its corpus speed, with how each peer fares on them,
/// and the cases where only peers miss.
fn against_peers(setup: &Setup, inputs: &[(Source, Corpus)], runs: &[Run]) -> String {
    let peers: Vec<Mode> = compared(runs)
        .into_iter()
        .filter(|m| matches!(m, Mode::Peer(_)))
        .collect();
    let pct = |run: &Run| percent(share(run, inputs, runs));
    let (mut ours, mut theirs) = (String::new(), Vec::new());
    for (i, case) in full_cases(inputs) {
        let (held, missed): (Vec<&Run>, Vec<&Run>) = peers
            .iter()
            .map(|&m| find(runs, i, m))
            .partition(|r| share(r, inputs, runs) >= GOAL);
        let list = |v: &[&Run]| {
            if v.is_empty() {
                "none".to_owned()
            } else {
                let named: Vec<String> = v
                    .iter()
                    .map(|r| format!("{} {}", r.mode.name(setup), pct(r)))
                    .collect();
                named.join(", ")
            }
        };
        let (default, errors) = (find(runs, i, Mode::Default), find(runs, i, Mode::Errors));
        if share(default, inputs, runs) < GOAL || share(errors, inputs, runs) < GOAL {
            let _ = writeln!(
                ours,
                "- {}: tagstream {} (default), {} (errors); peers at 25% or more: {}; below: {}.",
                case_label(case),
                pct(default),
                pct(errors),
                list(&held),
                list(&missed)
            );
        } else if !missed.is_empty() {
            theirs.push(format!("{} ({})", case_label(case), list(&missed)));
        }
    }
    if ours.is_empty() {
        ours = "- none.\n".to_owned();
    }
    let theirs = if theirs.is_empty() {
        "none".to_owned()
    } else {
        theirs.join("; ")
    };
    format!(
        "Where tagstream is below 25% of its corpus speed in either mode, the peers on the same \
         input, each against its own corpus:\n\n{ours}\nWhere tagstream holds 25% in both modes \
         and a peer does not: {theirs}.\n"
    )
}

/// ns per token of every subject on the corpus and on our (dense-token) cases.
fn per_token_table(setup: &Setup, inputs: &[(Source, Corpus)], runs: &[Run]) -> String {
    let modes = compared(runs);
    let mut t = header(setup, &["input", "tokens", "bytes/token"], &modes);
    let ours = full_cases(inputs).filter(|(_, case)| !case.from_issue);
    let rows = std::iter::once((0, "**corpus** (reference)".to_owned()))
        .chain(ours.map(|(i, case)| (i, case_label(case))));
    for (i, label) in rows {
        let tokens = find(runs, i, Mode::Default).tokens;
        let _ = write!(
            t,
            "| {label} | {} | {} |",
            group(tokens),
            bytes_per_token(inputs[i].1.bytes, tokens)
        );
        for &mode in &modes {
            let run = find(runs, i, mode);
            let _ = write!(t, " {:.1}{} |", run.ns_per_token(), changed(run));
        }
        t.push('\n');
    }
    t
}

/// A share as a percentage: whole points, to a tenth below 10% (where "0%" would hide it) and
/// where whole points would round across the goal (24.6% is not "25%").
fn percent(ratio: f64) -> String {
    let points = ratio * 100.0;
    let across_goal = (points.round() >= GOAL * 100.0) != (ratio >= GOAL);
    if points < 10.0 || across_goal {
        format!("{points:.1}%")
    } else {
        format!("{points:.0}%")
    }
}

#[cfg(test)]
mod tests {
    use super::percent;

    #[test]
    fn percentages_do_not_round_across_the_goal() {
        assert_eq!(percent(0.246), "24.6%");
        assert_eq!(percent(0.2549), "25%");
        assert_eq!(percent(0.25), "25%");
        assert_eq!(percent(0.5), "50%");
    }

    #[test]
    fn small_percentages_keep_a_tenth() {
        assert_eq!(percent(0.003), "0.3%");
        assert_eq!(percent(0.094), "9.4%");
        assert_eq!(percent(0.13), "13%");
    }
}
