//! tagstream-perf: a side-by-side throughput race of tagstream against html5ever, html5gum and
//! lol_html on the real-world HTML corpus, and of its XML5 tokenizer against quick-xml and
//! xml5ever on the XML corpus (`--xml`). See README.md.

mod absolutize_check;
mod corpus;
#[path = "../../benches/common/hostile.rs"]
mod hostile;
mod hostile_run;
mod lol_absolutize;
mod report;
mod seams;
mod subjects;
mod write_subjects;
mod xml_panics;
mod xml_subjects;
mod xml_tree_subjects;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use corpus::Corpus;
use report::{AllFiles, Ipb, Machine, Race, Row};
use subjects::{Dialect, Outcome};

const USAGE: &str = "\
tagstream-perf: tokenizer race on the real-world corpus

USAGE:
    cargo run --release -- [OPTIONS]

OPTIONS:
    --passes N            timed passes per subject, after one warm-up pass (default 9;
                          5 with --hostile)
    --subjects A,B,...    subjects to run, in this order (default: all; see --list)
    --corpus DIR          folder of *.html pages (default ../datasets/corpus, or $TAGSTREAM_CORPUS)
    --corpus-limit N      only the first N pages (with --xml: files), sorted by name
    --xml                 the XML race instead: XML subjects (see --xml --list) over the XML
                          corpus and the W3C suite's *.xml files, timed on the files quick-xml
                          reads whole, then the others again on all files (writes
                          results/<date>-<cpu>-xml.md); with --callgrind: the files quick-xml
                          reads whole
    --xml-corpus DIR      the XML corpus (default ../datasets/xml-corpus, or $TAGSTREAM_XML_CORPUS)
    --xmlconf DIR         the W3C XML conformance suite (default ../datasets/xmlconf, or
                          $TAGSTREAM_XMLCONF)
    --xml-panics          not the race: every file of the W3C suite through every XML subject
                          (--subjects), each under catch_unwind; prints the panics, exits 1 on any
    --chunk-size N        chunk size for tagstream-chunks, lol_html-bare-chunks and
                          tagstream-xml5-chunks (default 4096)
    --ipb FILE            instructions/byte file to merge (default: newest results/callgrind-*.txt;
                          with --xml, results/xml-callgrind-*.txt)
    --no-ipb              do not merge instructions/byte
    --results DIR         where to write the report (default perf/results)
    --no-write            print only; write no report
    --hostile             not the race: the hostile inputs of issues 5 and 25 at full size
                          against the corpus, and a document fed one byte at a time (writes
                          results/<date>-<cpu>-hostile.md); with --xml, issue 26's hostile XML
                          against the XML corpus, for the XML5 tokenizer (no peers; writes
                          results/<date>-<cpu>-hostile-xml.md)
    --no-peers            with --hostile: leave out the peers (lol_html, lol_html-bare,
                          html5ever, html5gum), which otherwise run every input beside tagstream
    --seams               not the race: what a chunk seam costs, in ns, by where it falls (cuts
                          about every --chunk-size bytes; default 21 passes; prints only)
    --seam-plan N         not the race: cut the pages as --seams plan N (see --list-plans;
                          `whole`: the pages whole) and feed them once, print the seams and
                          checksum; for valgrind (see seams-callgrind.sh)
    --check-absolutize    not the race: check that tagstream-absolutize and lol_html-absolutize
                          write outputs that read back as the same tokens, page by page (prints
                          the attributes rewritten and every difference; exits 1 on any)
    --callgrind SUBJECT   load the corpus, run exactly one pass of SUBJECT (or `none`: only load),
                          print corpus size and checksum; for valgrind (see callgrind.sh)
    --case NAME           with --callgrind: a hostile case at full size instead of the corpus
                          (see --list-cases)
    --divisor N           with --case: the case at full size divided by N (default 1)
    --list                print the subject names, one a line
    --list-cases          print the hostile case names, one a line
    --list-plans          print the --seams plans, a number and a name a line
    -h, --help            this text
";

/// Files quick-xml reads whole: the XML race's set (the other subjects run all files as well).
const XML_RACE_SET: &str = "the files quick-xml reads whole";

struct Args {
    /// `None`: the default of the mode (9 for the race, 5 for --hostile).
    passes: Option<usize>,
    dialect: Dialect,
    /// `None`: every subject of the dialect.
    subjects: Option<Vec<String>>,
    corpus: PathBuf,
    xml_corpus: PathBuf,
    xmlconf: PathBuf,
    xml_panics: bool,
    corpus_limit: Option<usize>,
    chunk_size: usize,
    ipb: Option<PathBuf>,
    no_ipb: bool,
    results: PathBuf,
    write: bool,
    callgrind: Option<String>,
    check_absolutize: bool,
    hostile: bool,
    /// `--no-peers`: the hostile run without the peers.
    no_peers: bool,
    seams: bool,
    /// `--seam-plan`: `Some(None)` for `whole`, `Some(Some(n))` for plan n.
    seam_plan: Option<Option<usize>>,
    case: Option<String>,
    divisor: usize,
    list: bool,
    list_cases: bool,
    list_plans: bool,
}

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A dataset's folder: `$variable` if set (a relative path taken from the repository root, as the
/// tests take it), else `datasets/<folder>`.
fn dataset(variable: &str, folder: &str) -> PathBuf {
    match std::env::var_os(variable) {
        Some(p) => manifest_dir().join("..").join(p),
        None => manifest_dir().join("../datasets").join(folder),
    }
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        passes: None,
        dialect: Dialect::Html,
        subjects: None,
        corpus: dataset("TAGSTREAM_CORPUS", "corpus"),
        xml_corpus: dataset("TAGSTREAM_XML_CORPUS", "xml-corpus"),
        xmlconf: dataset("TAGSTREAM_XMLCONF", "xmlconf"),
        xml_panics: false,
        corpus_limit: None,
        chunk_size: 4096,
        ipb: None,
        no_ipb: false,
        results: manifest_dir().join("results"),
        write: true,
        callgrind: None,
        check_absolutize: false,
        hostile: false,
        no_peers: false,
        seams: false,
        seam_plan: None,
        case: None,
        divisor: 1,
        list: false,
        list_cases: false,
        list_plans: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let (key, inline) = match arg.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| format!("{key} needs a value"))
        };
        let number = |v: String, key: &str| {
            v.parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("{key}: expected a positive number, got {v:?}"))
        };
        match key.as_str() {
            "--passes" => args.passes = Some(number(value()?, &key)?),
            "--subjects" => {
                args.subjects = Some(
                    value()?
                        .split(',')
                        .map(|s| s.trim().to_owned())
                        .filter(|s| !s.is_empty())
                        .collect(),
                );
            }
            "--corpus" => args.corpus = PathBuf::from(value()?),
            "--xml" => args.dialect = Dialect::Xml,
            "--xml-corpus" => args.xml_corpus = PathBuf::from(value()?),
            "--xmlconf" => args.xmlconf = PathBuf::from(value()?),
            "--xml-panics" => {
                args.dialect = Dialect::Xml;
                args.xml_panics = true;
            }
            "--corpus-limit" => args.corpus_limit = Some(number(value()?, &key)?),
            "--chunk-size" => args.chunk_size = number(value()?, &key)?,
            "--ipb" => args.ipb = Some(PathBuf::from(value()?)),
            "--no-ipb" => args.no_ipb = true,
            "--results" => args.results = PathBuf::from(value()?),
            "--no-write" => args.write = false,
            "--callgrind" => args.callgrind = Some(value()?),
            "--check-absolutize" => args.check_absolutize = true,
            "--hostile" => args.hostile = true,
            "--no-peers" => args.no_peers = true,
            "--seams" => args.seams = true,
            "--seam-plan" => args.seam_plan = Some(seam_plan(&value()?)?),
            "--case" => args.case = Some(value()?),
            "--divisor" => args.divisor = number(value()?, &key)?,
            "--list" => args.list = true,
            "--list-cases" => args.list_cases = true,
            "--list-plans" => args.list_plans = true,
            "-h" | "--help" => {
                print!("{USAGE}");
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument {arg:?}\n\n{USAGE}")),
        }
    }
    let known = args.dialect.subjects();
    for s in args.subjects.iter().flatten() {
        if !known.iter().any(|(n, _)| n == s) {
            return Err(format!(
                "unknown subject {s:?}; the subjects are: {}",
                known.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    if let Some(s) = &args.callgrind
        && s != "none"
        && !known.iter().any(|(n, _)| n == s)
    {
        return Err(format!("--callgrind: unknown subject {s:?} (nor `none`)"));
    }
    if args.dialect == Dialect::Xml
        && (args.seams || args.seam_plan.is_some() || args.case.is_some())
    {
        return Err("--xml goes with none of --seams, --seam-plan and --case".to_owned());
    }
    if let Some(c) = &args.case {
        if args.callgrind.is_none() {
            return Err("--case goes with --callgrind".to_owned());
        }
        if !hostile::CASES.iter().any(|h| h.name == c) {
            return Err(format!("--case: unknown case {c:?} (see --list-cases)"));
        }
    }
    if args.no_peers && !args.hostile {
        return Err("--no-peers goes with --hostile".to_owned());
    }
    if args.seam_plan.is_some() && (args.callgrind.is_some() || args.hostile || args.seams) {
        return Err("--seam-plan goes with none of --callgrind, --hostile and --seams".to_owned());
    }
    if args.subjects.as_ref().is_some_and(Vec::is_empty) {
        return Err("--subjects: no subject given".to_owned());
    }
    Ok(args)
}

impl Args {
    /// The subjects asked for, or every subject of the dialect.
    fn subject_names(&self) -> Vec<String> {
        match &self.subjects {
            Some(names) => names.clone(),
            None => self
                .dialect
                .subjects()
                .iter()
                .map(|(n, _)| (*n).to_owned())
                .collect(),
        }
    }
}

/// The value of `--seam-plan`: `whole` (`None`) or a plan's number.
fn seam_plan(v: &str) -> Result<Option<usize>, String> {
    let plans = seams::plan_names().len();
    if v == "whole" {
        return Ok(None);
    }
    v.parse::<usize>()
        .ok()
        .filter(|&n| n < plans)
        .map(Some)
        .ok_or_else(|| {
            format!(
                "--seam-plan: expected a plan number from 0 to {} or `whole`, got {v:?} (see --list-plans)",
                plans - 1
            )
        })
}

/// The order of the `n` subjects in pass `pass`: a shuffle, seeded by the pass so that runs
/// repeat it. Whatever one subject leaves behind in the caches, the memory allocator and the
/// branch predictors meets the next one: a fixed rotation ran each subject right after the same
/// one in all but one pass in `n` (and the chunks target moved by a point or more with which
/// subjects those were); shuffled, each subject follows every other about equally often.
fn pass_order(pass: usize, n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    fastrand::Rng::with_seed(pass as u64).shuffle(&mut order);
    order
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.list {
        for (name, _) in args.dialect.subjects() {
            println!("{name}");
        }
        return ExitCode::SUCCESS;
    }
    if args.list_cases {
        for case in hostile::CASES {
            println!("{}", case.name);
        }
        return ExitCode::SUCCESS;
    }
    if args.list_plans {
        for (i, name) in seams::plan_names().enumerate() {
            println!("{i}\t{name}");
        }
        return ExitCode::SUCCESS;
    }
    if let Some(name) = &args.case {
        let case = hostile::CASES
            .iter()
            .find(|c| c.name == name)
            .expect("checked");
        let document = Corpus::document(case.name, case.input(args.divisor));
        return callgrind(
            args.callgrind.as_deref().expect("checked"),
            &document,
            &args,
        );
    }
    if args.xml_panics {
        return xml_panics::run(&args.xmlconf, &args.subject_names(), args.chunk_size);
    }
    if args.dialect == Dialect::Xml {
        return xml_mode(&args);
    }
    let corpus = match Corpus::load(&args.corpus, args.corpus_limit) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.check_absolutize {
        return absolutize_check::run_check(&corpus);
    }
    if args.hostile {
        return hostile_mode(corpus, &args);
    }
    if args.seams {
        seams::run_all(&corpus, args.passes.unwrap_or(21), args.chunk_size);
        return ExitCode::SUCCESS;
    }
    if let Some(plan) = args.seam_plan {
        return seam_plan_pass(&corpus, plan, args.chunk_size);
    }
    match &args.callgrind {
        Some(subject) => callgrind(subject, &corpus, &args),
        None => race(&corpus, &args),
    }
}

/// CPU time of this thread so far, in seconds: unlike the wall clock, it leaves out the time the
/// thread spent waiting for a core while other work ran on the machine.
fn thread_cpu_seconds() -> f64 {
    use nix::time::{ClockId, clock_gettime};
    match clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID) {
        Ok(ts) => ts.tv_sec() as f64 + ts.tv_nsec() as f64 * 1e-9,
        Err(_) => f64::NAN,
    }
}

/// One pass of one subject, nothing else: for `valgrind --tool=callgrind`.
fn callgrind(subject: &str, corpus: &Corpus, args: &Args) -> ExitCode {
    println!("tagstream: {}", report::tagstream_git());
    println!("dir: {}", corpus.origin);
    println!("files: {}", corpus.pages.len());
    println!("available: {}", corpus.available);
    println!("bytes: {}", corpus.bytes);
    if subject == "none" {
        println!("checksum: 0");
        return ExitCode::SUCCESS;
    }
    let Some(mut s) = args.dialect.make(subject, corpus, args.chunk_size) else {
        eprintln!("error: unknown subject {subject:?} (or `none`)");
        return ExitCode::from(2);
    };
    let out = black_box(s.run(black_box(corpus)));
    println!("checksum: {}", out.checksum);
    println!("errors: {}", out.errors);
    ExitCode::SUCCESS
}

/// One pass of one `--seams` plan (`None`: of the whole pages) after the set-up of `--seams`,
/// nothing else: for `valgrind --tool=callgrind` (see seams-callgrind.sh).
fn seam_plan_pass(corpus: &Corpus, plan: Option<usize>, chunk_size: usize) -> ExitCode {
    println!("tagstream: {}", report::tagstream_git());
    println!("dir: {}", corpus.origin);
    println!("files: {}", corpus.pages.len());
    println!("bytes: {}", corpus.bytes);
    match plan {
        Some(i) => println!(
            "plan: {i}\t{}",
            seams::plan_names().nth(i).expect("checked")
        ),
        None => println!("plan: whole"),
    }
    let (seams, checksum) = seams::run_one(corpus, plan, chunk_size);
    println!("seams: {seams}");
    println!("checksum: {checksum}");
    ExitCode::SUCCESS
}

fn hostile_mode(corpus: Corpus, args: &Args) -> ExitCode {
    if cfg!(debug_assertions) {
        eprintln!("warning: this is not an optimized build; use `cargo run --release`");
    }
    let passes = args.passes.unwrap_or(5);
    let setup = match args.dialect {
        Dialect::Html => &hostile_run::HTML,
        Dialect::Xml => &hostile_run::XML,
    };
    match hostile_run::run(
        setup,
        corpus,
        passes,
        !args.no_peers,
        &args.results,
        args.write,
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The XML race (`--xml`), or one callgrind pass over its set: the XML corpus and the W3C
/// suite's `*.xml` files, of which the race times every subject on those quick-xml reads whole
/// (quick-xml stops at the first error), and the subjects but quick-xml again on all files.
fn xml_mode(args: &Args) -> ExitCode {
    let all = match Corpus::load_xml(&args.xml_corpus, &args.xmlconf, args.corpus_limit) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.hostile {
        return hostile_mode(all, args);
    }
    let whole = all.subset(XML_RACE_SET, xml_subjects::quick_xml_reads_whole);
    if let Some(subject) = &args.callgrind {
        return callgrind(subject, &whole, args);
    }
    let passes = args.passes.unwrap_or(9);
    let names = args.subject_names();
    eprintln!(
        "XML files: {} ({} files, {} bytes); quick-xml reads {} of them whole ({} bytes)",
        all.origin,
        all.pages.len(),
        report::group(all.bytes as u64),
        whole.pages.len(),
        report::group(whole.bytes as u64),
    );
    let load_before = report::load_average();
    eprintln!("the race, on {XML_RACE_SET}:");
    let rows = run_passes(&whole, &names, args, passes);
    let others: Vec<String> = names
        .into_iter()
        .filter(|n| !n.starts_with("quick-xml"))
        .collect();
    let all_rows = if others.is_empty() {
        Vec::new()
    } else {
        eprintln!("all files (quick-xml left out: it stops at the first error):");
        run_passes(&all, &others, args, passes)
    };
    let load_after = report::load_average();
    let all_files = (!all_rows.is_empty()).then_some(AllFiles {
        corpus: &all,
        rows: all_rows,
    });
    report(&whole, args, rows, all_files, (load_before, load_after))
}

/// The HTML race.
fn race(corpus: &Corpus, args: &Args) -> ExitCode {
    let passes = args.passes.unwrap_or(9);
    eprintln!(
        "corpus: {} ({} files, {} bytes){}",
        corpus.origin,
        corpus.pages.len(),
        report::group(corpus.bytes as u64),
        corpus
            .limit
            .map_or(String::new(), |n| format!(", limited to the first {n}"))
    );
    eprintln!(
        "note: tagstream switches text states with its built-in tree-builder simulator (on by default)"
    );
    let load_before = report::load_average();
    let rows = run_passes(corpus, &args.subject_names(), args, passes);
    let load_after = report::load_average();
    report(corpus, args, rows, None, (load_before, load_after))
}

/// One warm-up pass and `passes` timed passes of every subject of `names` over `corpus`, in a
/// shuffled order each pass; the progress on stderr.
fn run_passes(corpus: &Corpus, names: &[String], args: &Args, passes: usize) -> Vec<Row> {
    if cfg!(debug_assertions) {
        eprintln!("warning: this is not an optimized build; use `cargo run --release`");
    }
    eprintln!("preparing {} subjects...", names.len());
    let mut rows: Vec<(Row, Box<dyn subjects::Subject>)> = names
        .iter()
        .map(|name| {
            let subject = args
                .dialect
                .make(name, corpus, args.chunk_size)
                .expect("checked");
            let row = Row {
                name: name.clone(),
                times: Vec::new(),
                cpu_times: Vec::new(),
                outcome: Outcome::default(),
                consistent: true,
            };
            (row, subject)
        })
        .collect();
    let n = rows.len();
    for pass in 0..=passes {
        let label = if pass == 0 {
            "warm-up".to_owned()
        } else {
            format!("pass {pass}/{passes}")
        };
        let mut line = format!("{label}:");
        for i in pass_order(pass, n) {
            let (row, subject) = &mut rows[i];
            let cpu_start = thread_cpu_seconds();
            let start = Instant::now();
            let out = black_box(subject.run(black_box(corpus)));
            let secs = start.elapsed().as_secs_f64();
            let cpu_secs = thread_cpu_seconds() - cpu_start;
            if pass == 0 {
                row.outcome = out;
            } else {
                row.consistent &= row.outcome == out;
                row.times.push(secs);
                row.cpu_times.push(cpu_secs);
            }
            line.push_str(&format!(
                " {} {}",
                row.name,
                report::fmt_speed(report::mbps(corpus.bytes, secs))
            ));
        }
        eprintln!("{line} (MB/s)");
    }
    rows.into_iter().map(|(row, _)| row).collect()
}

/// Print the race's report and write it (with its chart) to the results folder.
fn report(
    corpus: &Corpus,
    args: &Args,
    rows: Vec<Row>,
    all_files: Option<AllFiles<'_>>,
    load: (String, String),
) -> ExitCode {
    let machine = Machine::detect();
    let ipb_file = if args.no_ipb {
        None
    } else {
        args.ipb
            .clone()
            .or_else(|| Ipb::newest_in(&args.results, report::ipb_prefix(args.dialect)))
    };
    let ipb = match ipb_file.map(|f| Ipb::read(&f)) {
        Some(Ok(i)) => Some(i),
        Some(Err(e)) => {
            eprintln!("warning: instructions/byte not merged: {e}");
            None
        }
        None => None,
    };
    let (date, time) = report::today();
    let race = Race {
        machine: &machine,
        dialect: args.dialect,
        date,
        time,
        crates: report::crate_versions(&manifest_dir().join("Cargo.lock"), args.dialect),
        tagstream_git: report::tagstream_git(),
        corpus,
        passes: args.passes.unwrap_or(9),
        chunk_size: args.chunk_size,
        rows,
        all_files,
        ipb,
        profile: env!("PERF_PROFILE").to_owned(),
        load,
    };
    let stem = match args.dialect {
        Dialect::Html => format!("{}-{}", race.date, machine.slug()),
        Dialect::Xml => format!("{}-{}-xml", race.date, machine.slug()),
    };
    let markdown = race.markdown(&format!("{stem}.svg"));
    println!("{markdown}");
    if args.write {
        if let Err(e) = std::fs::create_dir_all(&args.results) {
            eprintln!("error: {}: {e}", args.results.display());
            return ExitCode::FAILURE;
        }
        let md = args.results.join(format!("{stem}.md"));
        let svg = args.results.join(format!("{stem}.svg"));
        for (path, text) in [(&md, &markdown), (&svg, &race.svg())] {
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
        eprintln!("wrote {} and {}", md.display(), svg.display());
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::pass_order;
    use std::collections::HashSet;

    #[test]
    fn every_pass_runs_each_subject_once() {
        for n in 1..=12 {
            for pass in 0..3 * n {
                let mut order = pass_order(pass, n);
                order.sort_unstable();
                assert_eq!(order, (0..n).collect::<Vec<_>>(), "n = {n}, pass {pass}");
            }
        }
    }

    #[test]
    fn each_subject_follows_many_others() {
        // The race's ten subjects over 41 passes (and the warm-up): each runs after at least six
        // of the nine others.
        let n = 10;
        let order: Vec<usize> = (0..=41).flat_map(|pass| pass_order(pass, n)).collect();
        for subject in 0..n {
            let before: HashSet<usize> = order
                .windows(2)
                .filter(|w| w[1] == subject)
                .map(|w| w[0])
                .collect();
            assert!(
                before.len() >= 6,
                "subject {subject} follows only {before:?}"
            );
        }
    }
}
