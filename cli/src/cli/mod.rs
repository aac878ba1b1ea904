//! The crawler commands, `links`, `text` and `stats`: each reads its inputs (files,
//! directories, standard input, WARC archives, record by record; see [`inputs`]) in parallel
//! (see [`ordered`]: results in order, a bounded window of jobs in flight), decodes and
//! tokenizes every HTML document (see [`encoding`]: sniffed, UTF-8 detected, read again once
//! when a `<meta>` changes the encoding; a long plain document is streamed, see [`stream`]), and
//! writes its results in input order: JSON lines by default, plain text with `--plain`. A
//! progress bar (on a terminal) and a summary go to stderr, as does a line for everything skipped.
//!
//! Exit status: 0 when every input was read, 3 when something was skipped (an unreadable file, a
//! broken gzip member, a malformed WARC record, an HTTP body that cannot be decoded), 1 when the
//! output could not be written, 2 for bad arguments.

pub(crate) mod encoding;
pub(crate) mod inputs;
pub(crate) mod links;
mod ordered;
pub(crate) mod output;
pub(crate) mod stats;
mod stream;
pub(crate) mod text;

/// What `links`, `text` and `stats --help` say after their options: how every crawler command
/// reads its inputs and reports.
pub(crate) const CRAWLING: &str = "\
Inputs: files, directories (their .html, .htm, .xhtml, .warc and .warc.gz files, recursively, in \
name order), `-` for standard input, and WARC archives (.warc, or .warc.gz with one gzip member \
per record, as Common Crawl writes them, or one for the whole file): only their `response` records with an HTML \
Content-Type are read, their bodies with any Transfer-Encoding (chunked) and Content-Encoding \
(gzip, deflate, br) undone, as wget and Heritrix keep them. Lines from a WARC record also carry \"offset\" (of the record, or of its \
gzip member) and \"page\" (its WARC-Target-URI).

Output is in input order whatever --jobs, written as each input, or WARC record, is done. A file \
or standard input longer than 4 MiB is read in chunks, in bounded memory; the gzip members of a \
.warc.gz file are inflated and processed in parallel (a member longer than 4 MiB compressed \
or 64 MiB inflated, such as one for the whole file, is read as it inflates, its records \
processed in parallel as they come), and the records of another archive (a .warc, or a .warc.gz read through a pipe) read \
one at a time and processed in parallel, a few per thread at once, in bounded memory too. On standard error: a progress bar \
on a terminal, a line for each thing skipped (an unreadable file, a file or standard input that \
fails while it is read, with the byte offset reached: nothing of that document is written; one \
with a tag, comment or DOCTYPE longer than --max-token, at its start, likewise; a malformed WARC \
record, a broken or truncated gzip member, an HTTP body that cannot be decoded, an HTML response \
longer than 256 MiB; the run goes on after each), a note for \
standard input (or a pipe) whose encoding a <meta> changes too late to read it again (see \
--encoding), and a summary (inputs, documents, MB, MB/s, skipped) unless --quiet.

Exit status: 0 when everything was read, 3 when something was skipped, 1 when the output could \
not be written (a full disk, or standard output closed with >&-), 2 for bad arguments.";

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::num::NonZero;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use tagstream::Options;

use encoding::{Done, EncodingArgs, Page, Reading};
use inputs::{Document, Input, Job, Jobs, Skip};
use stream::Broken;
use tagstream_warc::{Chain, Entry, Member, MemberRead};

/// Exit status when the run finished but skipped something.
const EXIT_SKIPPED: u8 = 3;
/// Jobs in flight (taken and not yet written) per thread: enough that a slow one seldom leaves
/// a thread idle, few enough that memory stays a few records' worth per thread.
const JOBS_PER_THREAD: usize = 4;

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

    /// How many threads process inputs, or the records of a WARC archive, at once [default:
    /// the number of CPUs].
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

/// What one job gave.
struct Outcome<'a, T> {
    out: Vec<u8>,
    /// Inputs it finished (a plain input, the end of an archive).
    inputs: u64,
    documents: u64,
    bytes: u64,
    skips: Vec<Skip>,
    notes: Vec<String>,
    totals: T,
    /// For a member job: what the chain needs to confirm it (see [`Members::confirm`]).
    member: Option<MemberDone<'a>>,
    /// For the end of an archive read by members: its name and length.
    archive_end: Option<(&'a Path, u64)>,
}

impl<T: Default> Default for Outcome<'_, T> {
    fn default() -> Self {
        Outcome {
            out: Vec::new(),
            inputs: 0,
            documents: 0,
            bytes: 0,
            skips: Vec::new(),
            notes: Vec::new(),
            totals: T::default(),
            member: None,
            archive_end: None,
        }
    }
}

/// A member job done: where the member is, and where it ends.
struct MemberDone<'a> {
    path: &'a Path,
    file: Arc<File>,
    member: Member,
    /// `Some(end)` as [`MemberRead::Read`] gives it; `None`: [`MemberRead::TooLong`].
    end: Option<Option<u64>>,
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
    let written = run.process_all(threads(args.jobs), &inputs, command);
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

/// The threads `--jobs` asks for, or one per CPU.
fn threads(jobs: Option<u16>) -> usize {
    let cpus = || thread::available_parallelism().map_or(1, NonZero::get);
    jobs.map_or_else(cpus, usize::from)
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
    /// Process the jobs of the inputs on `threads` threads, writing each one's output on this
    /// thread as soon as every job before it is written, and flushing it: output streams, a job
    /// at a time.
    fn process_all<C: Command>(
        &mut self,
        threads: usize,
        inputs: &[Input],
        command: &C,
    ) -> io::Result<()> {
        let mut out = BufWriter::new(output::stdout());
        let mut totals = C::Totals::default();
        let mut members = Members::default();
        let window = threads * JOBS_PER_THREAD;
        let work = |job| process(command, job);
        let write = |outcome: Outcome<C::Totals>| -> io::Result<()> {
            let mut write_out = |outcome: Outcome<C::Totals>| -> io::Result<()> {
                out.write_all(&outcome.out)?;
                out.flush()?;
                self.account(&outcome);
                command.merge(&mut totals, outcome.totals);
                Ok(())
            };
            match members.confirm(outcome) {
                Confirmed::Dropped => Ok(()),
                Confirmed::Write(outcome) => write_out(outcome),
                Confirmed::Stream(before, done) => {
                    write_out(before)?;
                    members.stream(command, done, threads, write_out)
                }
            }
        };
        ordered::map_in_order(threads, window, Jobs::new(inputs), work, write)?;
        command.finish(&totals, &mut out)?;
        out.flush()
    }

    fn account<T>(&mut self, outcome: &Outcome<'_, T>) {
        self.documents += outcome.documents;
        self.bytes += outcome.bytes;
        outcome.skips.iter().for_each(|skip| self.report(skip));
        for note in &outcome.notes {
            self.progress
                .suspend(|| eprintln!("tagstream: note: {note}"));
        }
        self.progress.inc(outcome.inputs);
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

/// The members of the archive being written, as the consumer confirms them: a member job's
/// output is written when its candidate starts a member, dropped when it lies inside the last
/// one (see [`tagstream_warc::members`]).
#[derive(Default)]
struct Members {
    chain: Chain,
}

/// What becomes of a job's outcome once the chain has seen it.
enum Confirmed<'a, T> {
    /// Its candidate lies inside the last member: nothing is written.
    Dropped,
    /// Written as it is.
    Write(Outcome<'a, T>),
    /// A member too long to have been read ahead: what to write before it (a gap before it,
    /// if any), then the member, streamed ([`Members::stream`]).
    Stream(Outcome<'a, T>, MemberDone<'a>),
}

impl Members {
    /// What to do with `outcome` (see [`Confirmed`]).
    fn confirm<'a, T: Default>(&mut self, mut outcome: Outcome<'a, T>) -> Confirmed<'a, T> {
        let Some(done) = outcome.member.take() else {
            // The end of an input: an archive's chain ends there.
            if outcome.inputs == 1 {
                let chain = std::mem::take(&mut self.chain);
                let end = outcome.archive_end.take();
                let gap = end.and_then(|(path, len)| Some((path, chain.finish(len)?)));
                let gap = gap.map(|(path, gap)| Skip::of(&inputs::name(path), gap));
                outcome.skips.extend(gap);
            }
            return Confirmed::Write(outcome);
        };
        let start = done.member.start;
        if !self.chain.starts_member(start) {
            return Confirmed::Dropped;
        }
        match done.end {
            Some(end) => {
                if let Some(gap) = self.chain.settle(start, end) {
                    outcome
                        .skips
                        .insert(0, Skip::of(&inputs::name(done.path), gap));
                }
                Confirmed::Write(outcome)
            }
            None => {
                let mut before = Outcome::default();
                let gap = self.chain.gap_before(start);
                before
                    .skips
                    .extend(gap.map(|gap| Skip::of(&inputs::name(done.path), gap)));
                Confirmed::Stream(before, done)
            }
        }
    }

    /// Read the confirmed member `done` as it inflates, its records processed on `threads`
    /// threads and each one's outcome handed to `write` in order as soon as it is done: a member
    /// too long to read ahead (one for a whole file) is inflated on one thread, in the memory of
    /// a window of records, and its records still use every thread.
    fn stream<C: Command>(
        &mut self,
        command: &C,
        done: MemberDone<'_>,
        threads: usize,
        write: impl FnMut(Outcome<'_, C::Totals>) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut entries = done.member.stream(&done.file);
        let work = |entry| {
            let mut outcome = Outcome::default();
            outcome.add_entries(command, done.path, [entry]);
            outcome
        };
        let window = threads * JOBS_PER_THREAD;
        ordered::map_in_order(threads, window, &mut entries, work, write)?;
        self.chain.ended(entries.end().flatten());
        Ok(())
    }
}

/// Every document of one job through `command`.
fn process<'a, C: Command>(command: &C, job: Job<'a>) -> Outcome<'a, C::Totals> {
    let mut outcome = Outcome::default();
    match job {
        Job::Plain(input) => {
            let skips = inputs::read(input, &mut |document| outcome.add(command, document));
            outcome.skips.extend(skips);
            outcome.inputs = 1;
        }
        Job::Record(path, response) => {
            let name = inputs::name(path);
            let mut each = |document: Document<'_>| outcome.add(command, document);
            let read = inputs::read_response(&response, &name, &mut each);
            outcome.skips.extend(read.err());
        }
        Job::Member(path, file, member) => {
            let end = match member.read(&file) {
                MemberRead::Read { end, entries } => {
                    outcome.add_entries(command, path, entries);
                    Some(end)
                }
                MemberRead::TooLong => None,
            };
            outcome.member = Some(MemberDone {
                path,
                file,
                member,
                end,
            });
        }
        Job::Skipped(skip) => outcome.skips.push(skip),
        Job::ArchiveEnd(end) => {
            outcome.inputs = 1;
            outcome.archive_end = end;
        }
    }
    outcome
}

impl<T> Outcome<'_, T> {
    /// Read the entries of a member of the archive at `path` through `command`.
    fn add_entries<C: Command<Totals = T>>(
        &mut self,
        command: &C,
        path: &Path,
        entries: impl IntoIterator<Item = Entry>,
    ) {
        let name = inputs::name(path);
        for entry in entries {
            match entry {
                Entry::Response(response) => {
                    let mut each = |document: Document<'_>| self.add(command, document);
                    let read = inputs::read_response(&response, &name, &mut each);
                    self.skips.extend(read.err());
                }
                Entry::Skipped(skipped) => self.skips.push(Skip::of(&name, skipped)),
            }
        }
    }

    /// Read `document` through `command`, counting it, or what was skipped.
    fn add<C: Command<Totals = T>>(&mut self, command: &C, mut document: Document<'_>) {
        match command.document(&mut document, &mut self.totals, &mut self.out) {
            Ok(done) => {
                self.documents += 1;
                self.bytes += done.bytes;
                let note = done.note.map(|note| format!("{}: {note}", document.input));
                self.notes.extend(note);
            }
            Err(broken) => self.skips.push(broken.skip(document.input)),
        }
    }
}
