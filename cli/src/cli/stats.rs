//! `tagstream stats`: per page, the tokens by kind, the bytes and the parse errors by code; at
//! the end, the totals and the tokenizer's throughput.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;
use tagstream::encoding::DecodedTokens;
use tagstream::{ErrorCode, Options, TextKind, Token};

use super::encoding::{Done, Page};
use super::inputs::Document;
use super::stream::Broken;
use super::{Command, InputArgs, Origin, json_line, mb};

/// Arguments of `tagstream stats`.
#[derive(Args, Debug)]
pub(crate) struct StatsArgs {
    #[command(flatten)]
    pub(crate) inputs: InputArgs,
}

/// Tokens by kind.
#[derive(Clone, Copy, Debug, Default, Serialize)]
struct TokenCounts {
    doctype: u64,
    start_tag: u64,
    end_tag: u64,
    text: u64,
    comment: u64,
    processing_instruction: u64,
}

impl TokenCounts {
    fn count(&mut self, token: &Token<'_>) {
        let counter = match token {
            Token::Doctype(_) => &mut self.doctype,
            Token::StartTag(_) => &mut self.start_tag,
            Token::EndTag(_) => &mut self.end_tag,
            Token::Text(_) => &mut self.text,
            Token::Comment(_) => &mut self.comment,
            Token::ProcessingInstruction(_) => &mut self.processing_instruction,
            // Only a lossless tokenizer hands these out, and `stats` runs none.
            Token::Raw(_) => return,
        };
        *counter += 1;
    }

    fn add(&mut self, other: &TokenCounts) {
        self.doctype += other.doctype;
        self.start_tag += other.start_tag;
        self.end_tag += other.end_tag;
        self.text += other.text;
        self.comment += other.comment;
        self.processing_instruction += other.processing_instruction;
    }

    fn sum(&self) -> u64 {
        self.doctype
            + self.start_tag
            + self.end_tag
            + self.text
            + self.comment
            + self.processing_instruction
    }
}

/// The tokens of one document, counted as the whole document gives them: a text token that a
/// stream's chunk seam cut in two counts once.
#[derive(Default)]
struct Counter {
    counts: TokenCounts,
    /// The end and kind of the last token handed out, when it was text.
    last_text: Option<(usize, TextKind)>,
    /// A seam came after that token.
    after_seam: bool,
}

impl Page for Counter {
    fn push(&mut self, token: &Token<'_>, _: &DecodedTokens<'_>) {
        let this_text = match token {
            Token::Text(text) => Some((text.span(), text.kind())),
            _ => None,
        };
        let goes_on = self.after_seam
            && this_text
                .zip(self.last_text)
                .is_some_and(|((span, kind), (end, last))| span.start == end && kind == last);
        if !goes_on {
            self.counts.count(token);
        }
        self.last_text = this_text.map(|(span, kind)| (span.end, kind));
        self.after_seam = false;
    }

    fn seam(&mut self) {
        self.after_seam = true;
    }
}

/// Parse errors by code.
type ErrorCounts = BTreeMap<&'static str, u64>;

/// Whether a count is zero (such fields are left out of the JSON lines).
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What the statistics of some documents add up to.
#[derive(Debug, Default)]
pub(crate) struct Totals {
    documents: u64,
    bytes: u64,
    tokens: TokenCounts,
    errors: ErrorCounts,
    /// Of `errors`, those past `Options::max_errors` in one token: counted by the tokenizer, not
    /// stored (their positions are unknown).
    errors_dropped: u64,
    /// Time spent decoding and tokenizing (for a streamed document, reading its chunks too),
    /// summed over the threads.
    tokenizing: Duration,
}

impl Totals {
    fn add(&mut self, other: &Totals) {
        self.documents += other.documents;
        self.bytes += other.bytes;
        self.tokens.add(&other.tokens);
        for (code, n) in &other.errors {
            *self.errors.entry(code).or_default() += n;
        }
        self.errors_dropped += other.errors_dropped;
        self.tokenizing += other.tokenizing;
    }

    /// Megabytes per second of decoding and tokenizing, per thread.
    fn mb_per_s(&self) -> f64 {
        mb(self.bytes) / self.tokenizing.as_secs_f64().max(1e-9)
    }
}

/// One page's statistics as a JSON line.
#[derive(Serialize)]
struct StatsLine<'a> {
    #[serde(flatten)]
    origin: Origin<'a>,
    bytes: u64,
    tokens: TokenCounts,
    errors: &'a ErrorCounts,
    #[serde(skip_serializing_if = "is_zero")]
    errors_dropped: u64,
}

/// The closing JSON line.
#[derive(Serialize)]
struct TotalLine<'a> {
    total: TotalFields<'a>,
}

#[derive(Serialize)]
struct TotalFields<'a> {
    documents: u64,
    bytes: u64,
    tokens: TokenCounts,
    errors: &'a ErrorCounts,
    #[serde(skip_serializing_if = "is_zero")]
    errors_dropped: u64,
    /// Decoding and tokenizer throughput per thread; the only field that changes from run to run.
    mb_per_s: f64,
}

/// The `stats` command.
pub(crate) struct Stats<'a> {
    args: &'a StatsArgs,
}

impl<'a> Stats<'a> {
    pub(crate) fn new(args: &'a StatsArgs) -> Stats<'a> {
        Stats { args }
    }

    /// Read `document` and count.
    fn measure(&self, document: &mut Document<'_>) -> Result<(Totals, Done), Broken> {
        let started = Instant::now();
        let read = self
            .args
            .inputs
            .read(&self.options(), document, Counter::default)?;
        let tokenizing = started.elapsed();
        // Stored errors (at most `Options::max_errors`, memory stays flat) and those counted past
        // the cap: together every error, by code.
        let tokenizer = read.transcoder.tokenizer();
        let mut by_code = [0u64; ErrorCode::ALL.len()];
        for error in tokenizer.errors() {
            by_code[error.code as usize] += 1;
        }
        let dropped = tokenizer.dropped_errors();
        for (code, n) in dropped.iter() {
            by_code[code as usize] += n;
        }
        let errors = ErrorCode::ALL
            .iter()
            .zip(by_code)
            .filter(|&(_, n)| n > 0)
            .map(|(code, n)| (code.as_str(), n))
            .collect();
        let totals = Totals {
            documents: 1,
            bytes: read.done.bytes,
            tokens: read.page.counts,
            errors,
            errors_dropped: dropped.total(),
            tokenizing,
        };
        Ok((totals, read.done))
    }
}

impl Command for Stats<'_> {
    type Totals = Totals;

    fn options(&self) -> Options {
        Options::new()
            .errors(true)
            .scripting(self.args.inputs.scripting)
    }

    fn document(
        &self,
        document: &mut Document<'_>,
        totals: &mut Totals,
        out: &mut Vec<u8>,
    ) -> Result<Done, Broken> {
        let (page, done) = self.measure(document)?;
        if self.args.inputs.plain {
            let at = document.offset.map(|o| format!("@{o}")).unwrap_or_default();
            let errors: u64 = page.errors.values().sum();
            let line = format!(
                "{}{at}\t{} bytes\t{} tokens\t{errors} errors\n",
                document.input,
                page.bytes,
                page.tokens.sum()
            );
            out.extend_from_slice(line.as_bytes());
        } else {
            let line = StatsLine {
                origin: Origin::of(document),
                bytes: page.bytes,
                tokens: page.tokens,
                errors: &page.errors,
                errors_dropped: page.errors_dropped,
            };
            json_line(out, &line);
        }
        totals.add(&page);
        Ok(done)
    }

    fn merge(&self, into: &mut Totals, from: Totals) {
        into.add(&from);
    }

    fn finish(&self, totals: &Totals, out: &mut dyn Write) -> io::Result<()> {
        if self.args.inputs.plain {
            let errors: u64 = totals.errors.values().sum();
            return writeln!(
                out,
                "total\t{} documents\t{} bytes\t{} tokens\t{errors} errors\t{:.1} MB/s",
                totals.documents,
                totals.bytes,
                totals.tokens.sum(),
                totals.mb_per_s()
            );
        }
        let mut line = Vec::new();
        let total = TotalFields {
            documents: totals.documents,
            bytes: totals.bytes,
            tokens: totals.tokens,
            errors: &totals.errors,
            errors_dropped: totals.errors_dropped,
            mb_per_s: (totals.mb_per_s() * 10.0).round() / 10.0,
        };
        json_line(&mut line, &TotalLine { total });
        out.write_all(&line)
    }
}
