//! The crawler commands, `links`, `text` and `stats`: each reads its inputs (files,
//! directories, standard input, WARC archives; see [`inputs`]) in parallel with rayon, decodes and
//! tokenizes every HTML document (see [`encoding`]: sniffed, UTF-8 detected, read again once
//! when a `<meta>` changes the encoding; a long plain document is streamed, see [`stream`]), and
//! writes its results in input order: JSON lines by default, plain text with `--plain`. A
//! progress bar (on a terminal) and a summary go to stderr, as does a line for everything skipped.
//!
//! Exit status: 0 when every input was read, 3 when something was skipped (an unreadable file, a
//! broken gzip member, a malformed WARC record, an HTTP body that cannot be decoded), 1 when the
//! output could not be written, 2 for bad arguments.

pub(crate) mod encoding;
mod http;
pub(crate) mod inputs;
pub(crate) mod links;
pub(crate) mod output;
pub(crate) mod stats;
mod stream;
pub(crate) mod text;
mod warc;

/// What `links`, `text` and `stats --help` say after their options: how every crawler command
/// reads its inputs and reports.
pub(crate) const CRAWLING: &str = "\
Inputs: files, directories (their .html, .htm, .xhtml, .warc and .warc.gz files, recursively, in \
name order), `-` for standard input, and WARC archives (.warc, or .warc.gz with one gzip member \
per record, as Common Crawl writes them): only their `response` records with an HTML \
Content-Type are read, their bodies with any Transfer-Encoding (chunked) and Content-Encoding \
(gzip, deflate, br) undone, as wget and Heritrix keep them. Lines from a WARC record also carry \"offset\" (of the record, or of its \
gzip member) and \"page\" (its WARC-Target-URI).

Output is in input order whatever --jobs. A file or standard input longer than 4 MiB is read in \
chunks, in bounded memory (WARC records are read one at a time). On standard error: a progress bar \
on a terminal, a line for each thing skipped (an unreadable file, a file or standard input that \
fails while it is read, with the byte offset reached: nothing of that document is written; one \
with a tag, comment or DOCTYPE longer than --max-token, at its start, likewise; a malformed WARC \
record, a broken or truncated gzip member, an HTTP body that cannot be decoded; the run goes on after each), a note for \
standard input (or a pipe) whose encoding a <meta> changes too late to read it again (see \
--encoding), and a summary (inputs, documents, MB, MB/s, skipped) unless --quiet.

Exit status: 0 when everything was read, 3 when something was skipped, 1 when the output could \
not be written (a full disk, or standard output closed with >&-), 2 for bad arguments.";

use std::collections::BTreeMap;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::iter::{ParallelBridge, ParallelIterator};
use serde::Serialize;
use tagstream::Options;

use encoding::{Done, EncodingArgs, Page, Reading};
use inputs::{Document, Input, Skip};
use stream::Broken;

/// Exit status when the run finished but skipped something.
const EXIT_SKIPPED: u8 = 3;

/// The arguments every crawler command takes.
#[derive(Args, Debug)]
pub(crate) struct InputArgs {
    /// Files, directories (their .html, .htm, .xhtml, .warc and .warc.gz files, recursively) or
    /// `-` for standard input. Files named *.warc or *.warc.gz are read as WARC archives: their
    /// HTML `response` records, with their HTTP charset as the transport encoding.
    #[arg(value_name = "PATH", default_value = "-")]
    paths: Vec<PathBuf>,

    /// Print plain text instead of JSON lines.
    #[arg(long)]
    plain: bool,

    /// How many inputs to process at once [default: the number of CPUs].
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,

    /// No progress bar and no summary (what is skipped is still reported).
    #[arg(short, long)]
    quiet: bool,

    /// Tokenize as a browser with scripting on: `<noscript>` contents are raw text.
    #[arg(long)]
    scripting: bool,

    /// The longest tag, comment or DOCTYPE a document streamed in chunks (longer than 4 MiB)
    /// may hold, in MiB: such a token is held whole until it ends, so this bounds memory on
    /// input that never ends one. The document stops there and is skipped (exit status 3).
    /// Text is never held: it is handed out as it comes.
    #[arg(long, value_name = "MIB", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..))]
    max_token: u32,

    #[command(flatten)]
    encoding: EncodingArgs,
}

impl InputArgs {
    /// Decode and tokenize `document` with `options` as the encoding options say, pushing its
    /// tokens into a page made by `start` (see [`EncodingArgs::read`]).
    pub(crate) fn read<P: Page>(
        &self,
        options: &Options,
        document: &mut Document<'_>,
        start: impl Fn() -> P,
    ) -> Result<Reading<P>, Broken> {
        let charset = document.charset;
        let options = options.clone().max_carry((self.max_token as usize) << 20);
        self.encoding
            .read(&options, &mut document.body, charset, start)
    }
}

/// What a crawler command does with each document.
pub(crate) trait Command: Sync {
    /// What the command adds up over all documents (for a closing line).
    type Totals: Default + Send;

    /// The tokenizer options it needs.
    fn options(&self) -> Options;

    /// Read `document` (with [`InputArgs::read`]) and write its results to `out`; returns how it
    /// was read, or, when reading it failed, nothing written.
    fn document(
        &self,
        document: &mut Document<'_>,
        totals: &mut Self::Totals,
        out: &mut Vec<u8>,
    ) -> Result<Done, Broken>;

    /// Add one input's totals into the run's.
    fn merge(&self, _into: &mut Self::Totals, _from: Self::Totals) {}

    /// Write what comes after the last document.
    fn finish(&self, _totals: &Self::Totals, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

/// Where a document comes from, first in every JSON line.
#[derive(Serialize)]
pub(crate) struct Origin<'a> {
    input: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    offset: Option<u64>,
    /// The page URL (a WARC record's), beside the link's own `url`.
    #[serde(skip_serializing_if = "Option::is_none")]
    page: Option<&'a str>,
}

impl<'a> Origin<'a> {
    pub(crate) fn of(document: &Document<'a>) -> Origin<'a> {
        Origin {
            input: document.input,
            offset: document.offset,
            page: document.url,
        }
    }
}

/// Write `value` as one JSON line.
pub(crate) fn json_line(out: &mut Vec<u8>, value: &impl Serialize) {
    serde_json::to_writer(&mut *out, value).expect("serializing to memory cannot fail");
    out.push(b'\n');
}

/// What one input gave.
struct Outcome<T> {
    out: Vec<u8>,
    documents: u64,
    bytes: u64,
    skips: Vec<Skip>,
    notes: Vec<String>,
    totals: T,
}

/// Run `command` over the inputs and write its output in input order.
pub(crate) fn run<C: Command>(args: &InputArgs, command: &C) -> ExitCode {
    let started = Instant::now();
    let (inputs, skips) = inputs::expand(&args.paths);
    let progress = progress_bar(inputs.len(), args.quiet);
    let mut run = Run {
        progress,
        skipped: 0,
        documents: 0,
        bytes: 0,
    };
    skips.iter().for_each(|skip| run.report(skip));
    let written = match pool(args.jobs) {
        Ok(pool) => run.process_all(&pool, &inputs, command),
        Err(e) => Err(io::Error::other(e)),
    };
    run.progress.finish_and_clear();
    if !args.quiet {
        run.summary(inputs.len(), started.elapsed());
    }
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            eprintln!("tagstream: cannot write output: {e}");
            ExitCode::FAILURE
        }
        _ if run.skipped > 0 => ExitCode::from(EXIT_SKIPPED),
        _ => ExitCode::SUCCESS,
    }
}

fn pool(jobs: Option<u16>) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    let threads = jobs.map_or(0, usize::from);
    rayon::ThreadPoolBuilder::new().num_threads(threads).build()
}

/// A progress bar on stderr when it is a terminal (and not `--quiet`), counting inputs.
fn progress_bar(inputs: usize, quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let style = ProgressStyle::with_template("{bar:40} {pos}/{len} inputs, {msg} [{elapsed}]")
        .expect("a valid template");
    ProgressBar::new(inputs as u64).with_style(style)
}

/// The state of one run on the writing side.
struct Run {
    progress: ProgressBar,
    skipped: u64,
    documents: u64,
    bytes: u64,
}

impl Run {
    /// Process the inputs in parallel on `pool`, writing each input's output on this thread as
    /// soon as every input before it is written. Inputs are taken in order (`par_bridge`), so
    /// few outcomes wait for an earlier one.
    fn process_all<C: Command>(
        &mut self,
        pool: &rayon::ThreadPool,
        inputs: &[Input],
        command: &C,
    ) -> io::Result<()> {
        let (sender, receiver) = mpsc::channel();
        let stop = AtomicBool::new(false);
        let mut out = BufWriter::new(output::stdout());
        let mut totals = C::Totals::default();
        let written = std::thread::scope(|scope| {
            let stop = &stop;
            scope.spawn(move || {
                pool.install(|| {
                    let work = inputs.iter().enumerate().par_bridge();
                    work.for_each_with(sender, |sender, (i, input)| {
                        if !stop.load(Ordering::Relaxed) {
                            let _ = sender.send((i, process(command, input)));
                        }
                    });
                });
            });
            let written = self.write_in_order(receiver, command, &mut totals, &mut out);
            if written.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
            written
        });
        written?;
        command.finish(&totals, &mut out)?;
        out.flush()
    }

    /// Write outcomes in input order as they arrive.
    fn write_in_order<C: Command>(
        &mut self,
        receiver: mpsc::Receiver<(usize, Outcome<C::Totals>)>,
        command: &C,
        totals: &mut C::Totals,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        for (i, outcome) in receiver {
            waiting.insert(i, outcome);
            while let Some(outcome) = waiting.remove(&next) {
                next += 1;
                out.write_all(&outcome.out)?;
                self.account(&outcome);
                command.merge(totals, outcome.totals);
            }
        }
        Ok(())
    }

    fn account<T>(&mut self, outcome: &Outcome<T>) {
        self.documents += outcome.documents;
        self.bytes += outcome.bytes;
        outcome.skips.iter().for_each(|skip| self.report(skip));
        for note in &outcome.notes {
            self.progress
                .suspend(|| eprintln!("tagstream: note: {note}"));
        }
        self.progress.inc(1);
        self.progress
            .set_message(format!("{:.1} MB", mb(self.bytes)));
    }

    fn report(&mut self, skip: &Skip) {
        self.skipped += 1;
        self.progress
            .suspend(|| eprintln!("tagstream: skipped {skip}"));
    }

    fn summary(&self, inputs: usize, elapsed: Duration) {
        let seconds = elapsed.as_secs_f64();
        eprintln!(
            "tagstream: {inputs} inputs, {} documents, {:.2} MB in {seconds:.3} s ({:.1} MB/s), {} skipped",
            self.documents,
            mb(self.bytes),
            mb(self.bytes) / seconds.max(1e-9),
            self.skipped,
        );
    }
}

/// Megabytes (10^6 bytes).
pub(crate) fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// Every document of one input through `command`.
fn process<C: Command>(command: &C, input: &Input) -> Outcome<C::Totals> {
    let mut outcome = Outcome {
        out: Vec::new(),
        documents: 0,
        bytes: 0,
        skips: Vec::new(),
        notes: Vec::new(),
        totals: C::Totals::default(),
    };
    let mut each = |mut document: Document<'_>| {
        let totals = &mut outcome.totals;
        match command.document(&mut document, totals, &mut outcome.out) {
            Ok(done) => {
                outcome.documents += 1;
                outcome.bytes += done.bytes;
                let note = done.note.map(|note| format!("{}: {note}", document.input));
                outcome.notes.extend(note);
            }
            Err(broken) => outcome.skips.push(broken.skip(document.input)),
        }
    };
    let skips = inputs::read(input, &mut each);
    outcome.skips.extend(skips);
    outcome
}
