//! The pull API: a [`Tokenizer`](crate::Tokenizer) turns a whole document, or a stream fed in chunks, into a std
//! `Iterator` of [`Token`]s that borrow the input.
//!
//! Streaming works like this. The machine reads each chunk in place. At the end of a chunk, the text it
//! has seen is emitted (up to a point where cutting cannot change its decoding) and only the bytes of
//! the unfinished token are copied aside (the *carry*). On the next feed the machine first reads the
//! carry, extended with just enough of the new chunk to finish that token (growing the copy by
//! doubling), then switches to reading the new chunk in place. A plain tag the seam cuts off is not
//! read at all until then: the carry is extended up to the new chunk's first `>`, and the direct
//! lane lexes the whole tag at once (a tag or comment that the new chunk does not end either is
//! carried on, unread, to the next). Memory is therefore bounded by the chunk size plus the longest
//! unfinished token, and the tokens do not depend on the chunking (text may be split into more
//! tokens at seams; concatenated it is the same).
//!
//! Dropping the iterator early pauses: what was not consumed is kept in the carry, and the next
//! [`Tokenizer::feed`](crate::Tokenizer::feed) (an empty one is fine) resumes exactly there.

mod lossless;

use std::collections::VecDeque;

use bumpalo::Bump;

use crate::dialect::{Dialect, Lexer};
use crate::error::{DroppedErrors, ErrorCode, Limit, LimitError, ParseError, Position};
use crate::feedback::Feedback;
use crate::input::{InputChecker, LineCounter, Utf8Stream};
use crate::options::{Limits, Options};
use crate::span::{AttrRecord, Kind, Lexeme, Record, Span, TextKind, Window};
use crate::token::{
    Comment, Doctype, EndTag, ProcessingInstruction, Source, StartTag, Text, Token,
};

use lossless::Owed;

/// Input-side bookkeeping: UTF-8 validity, input-stream errors, lines and columns, and the errors
/// reported so far.
///
/// Errors are reported in stream order. The machine's errors get their positions at once (while
/// their bytes are at hand) but wait in `held` until the input checker has decided every character
/// up to them, so that an input-stream error for a character split across chunks still comes first.
///
/// Every queue holds at most [`Options::max_errors`] errors (see there); what does not fit is
/// counted in `dropped`. The input checker reads the windows the machine reads, only as far as
/// its queue has room: input-stream errors are found shortly ahead of the machine, not for a whole
/// chunk at once.
struct Side {
    errors_on: bool,
    /// Whether `utf8` is fed ([`Options::validate_utf8`] or errors on).
    validate_utf8: bool,
    track_positions: bool,
    /// [`Options::max_errors`].
    max_errors: usize,
    utf8: Utf8Stream,
    checker: InputChecker,
    lines: LineCounter,
    /// Input-stream errors found and not reported yet, at most `max_errors` (at least one).
    input_errors: VecDeque<(usize, ErrorCode)>,
    /// Stream offset one past the last byte the input checker has read.
    checked: usize,
    /// Nothing waits to be reported (`held` and `input_errors` are empty) and the checker has
    /// read up to this offset: a window that ends there needs no call for its tokens without
    /// machine errors.
    quiet_to: usize,
    held: VecDeque<ParseError>,
    /// Offsets before this were let go of: positions are no longer known for them.
    floor: usize,
    /// Stream offset one past the last byte fed.
    fed: usize,
    /// The end of input has been fed.
    eof: bool,
    /// The input checker has read the whole input: nothing is undecided any more.
    ended: bool,
    /// A byte order mark was stripped from the start of the stream ([`Options::strip_bom`]).
    bom_stripped: bool,
    errors: Vec<ParseError>,
    /// The errors that did not fit in a queue (the machine counts its own).
    dropped: DroppedErrors,
}

/// The error `code` at `offset` in `b`, with its line and column from `lines`.
#[inline]
fn located(lines: &mut LineCounter, code: ErrorCode, offset: usize, b: &Window) -> ParseError {
    ParseError {
        code,
        offset,
        position: lines.position(b.bytes, b.base, offset),
    }
}

impl Side {
    fn new(options: &Options) -> Side {
        Side {
            errors_on: options.errors,
            validate_utf8: options.errors || options.validate_utf8,
            track_positions: options.errors || options.track_positions,
            max_errors: options.max_errors,
            utf8: Utf8Stream::default(),
            checker: InputChecker::default(),
            lines: LineCounter::default(),
            input_errors: VecDeque::new(),
            checked: 0,
            quiet_to: 0,
            held: VecDeque::new(),
            floor: 0,
            fed: 0,
            eof: false,
            ended: false,
            bom_stripped: false,
            errors: Vec::new(),
            dropped: DroppedErrors::default(),
        }
    }

    /// Back to the start of a stream, keeping allocations.
    fn reset(&mut self) {
        self.utf8 = Utf8Stream::default();
        self.checker = InputChecker::default();
        self.lines = LineCounter::default();
        self.input_errors.clear();
        self.checked = 0;
        self.quiet_to = 0;
        self.held.clear();
        self.floor = 0;
        self.fed = 0;
        self.eof = false;
        self.ended = false;
        self.bom_stripped = false;
        self.errors.clear();
        self.dropped = DroppedErrors::default();
    }

    /// The stream's text starts after a byte order mark of `len` bytes: line 1, column 1 is there.
    fn strip_bom(&mut self, len: usize) {
        self.lines = LineCounter::starting_at(len);
        self.fed = len;
        // The input checker never sees the mark's bytes (no error can be in them): it starts
        // after them, or it would wait for them forever.
        self.checked = len;
        self.bom_stripped = true;
    }

    /// Where the stripped byte order mark was, if one was.
    fn bom(&self) -> Option<Span> {
        self.bom_stripped.then_some(Span {
            start: 0,
            end: BOM.len(),
        })
    }

    /// A new chunk at `base` enters the stream.
    #[inline]
    fn accept(&mut self, chunk: &[u8], base: usize, eof: bool) {
        self.fed = base + chunk.len();
        if self.validate_utf8 {
            self.utf8.feed(chunk);
        }
        if eof {
            if self.validate_utf8 {
                self.utf8.finish();
            }
            self.eof = true;
            self.end_check_at_end_of_input();
        }
    }

    /// Take the machine's new errors and report, in stream order, those that can be: input-stream
    /// errors of the characters the machine has consumed, and machine errors before the first
    /// character the input checker has not decided yet (at equal offsets the input-stream error of
    /// the character comes first, whatever the chunking).
    #[inline(always)]
    fn collect<L: Lexer>(&mut self, machine: &mut L, b: &Window) {
        // Most tokens have no error to report: that is found out without a call.
        if self.errors_on && !(machine.errors().is_empty() && b.end() <= self.quiet_to) {
            self.collect_errors(machine, b);
        }
    }

    #[inline(never)]
    fn collect_errors<L: Lexer>(&mut self, machine: &mut L, b: &Window) {
        self.check_input(b);
        let decided = self.decided();
        let mut rest = &machine.errors().list[..];
        if self.held.is_empty() && self.input_errors.is_empty() {
            // The common case: straight out, in order, up to the first error that must wait, in
            // one `extend` (no capacity check per error), as many as there is room for.
            let now = rest
                .iter()
                .take_while(|&&(offset, _)| offset < decided)
                .count();
            let stored = now.min(self.room());
            let Side { errors, lines, .. } = self;
            let located = rest[..stored]
                .iter()
                .map(|&(offset, code)| located(lines, code, offset, b));
            errors.extend(located);
            for &(_, code) in &rest[stored..now] {
                self.dropped.add(code, 1);
            }
            rest = &rest[now..];
        }
        for &(offset, code) in rest {
            if self.may_report_now(offset, decided) {
                self.report(code, offset, b);
            } else if self.held.len() < self.max_errors {
                self.held
                    .push_back(located(&mut self.lines, code, offset, b));
            } else {
                // Behind `max_errors` held errors, which are reported first.
                self.dropped.add(code, 1);
            }
        }
        machine.errors_mut().list.clear();
        self.report_in_order(machine, decided, b);
        while self.checked < b.end() && self.input_errors.len() < self.input_cap() {
            // Reporting made room for more input-stream errors: read on.
            self.check_input(b);
            let decided = self.decided();
            self.report_in_order(machine, decided, b);
        }
        let quiet = self.held.is_empty() && self.input_errors.is_empty();
        self.quiet_to = if quiet { self.checked } else { 0 };
    }

    /// How many more errors can be stored.
    fn room(&self) -> usize {
        self.max_errors.saturating_sub(self.errors.len())
    }

    /// How many input-stream errors may wait to be reported (one at least, to be counted).
    fn input_cap(&self) -> usize {
        self.max_errors.max(1)
    }

    /// Run the input checker over `b` from where it stopped, until its queue is full.
    fn check_input(&mut self, b: &Window) {
        let from = self.checked.max(b.base);
        if from < b.end() {
            let cap = self.input_cap();
            let bytes = &b.bytes[from - b.base..];
            let read = self.checker.feed(bytes, from, &mut self.input_errors, cap);
            self.checked = from + read;
        }
        self.end_check_at_end_of_input();
    }

    /// Once the checker has read the last byte of input, nothing is undecided any more.
    fn end_check_at_end_of_input(&mut self) {
        if self.eof && self.checked == self.fed && !self.ended {
            self.checker.finish();
            self.ended = true;
        }
    }

    /// The first offset whose character the input checker has not decided yet.
    fn decided(&self) -> usize {
        match self.checker.undecided_from() {
            _ if self.ended => usize::MAX,
            Some(offset) => offset,
            None => self.checked,
        }
    }

    /// Whether a machine error at `offset` can skip the `held` queue (the common case): nothing
    /// waits before it, its character is decided, and no input-stream error comes first.
    #[inline]
    fn may_report_now(&self, offset: usize, decided: usize) -> bool {
        self.held.is_empty()
            && offset < decided
            && self.input_errors.front().is_none_or(|&(i, _)| i > offset)
    }

    /// Report the queued errors that can be, in stream order.
    fn report_in_order<L: Lexer>(&mut self, machine: &L, decided: usize, b: &Window) {
        let consumed = if machine.is_done() {
            usize::MAX
        } else {
            machine.pos()
        };
        loop {
            let input = self.input_errors.front().map(|e| e.0);
            let held = self
                .held
                .front()
                .filter(|e| e.offset < decided)
                .map(|e| e.offset);
            match (input, held) {
                (Some(i), Some(h)) if i <= h => self.report_input_error(b),
                (Some(i), None) if i < consumed => self.report_input_error(b),
                (_, Some(_)) => {
                    let error = self.held.pop_front().expect("front");
                    self.store(error);
                }
                _ => break,
            }
        }
    }

    /// Report the first queued input-stream error.
    fn report_input_error(&mut self, b: &Window) {
        if let Some((offset, code)) = self.input_errors.pop_front() {
            self.report(code, offset, b);
        }
    }

    /// Report the error `code` at `offset` in `b`: stored with its position if there is room,
    /// counted otherwise.
    #[inline]
    fn report(&mut self, code: ErrorCode, offset: usize, b: &Window) {
        if self.errors.len() < self.max_errors {
            self.errors.push(located(&mut self.lines, code, offset, b));
        } else {
            self.dropped.add(code, 1);
        }
    }

    /// Report an error that has its position already.
    fn store(&mut self, error: ParseError) {
        if self.errors.len() < self.max_errors {
            self.errors.push(error);
        } else {
            self.dropped.add(error.code, 1);
        }
    }

    /// The errors dropped so far, the machine's included.
    fn dropped<L: Lexer>(&self, machine: &L) -> DroppedErrors {
        let mut dropped = self.dropped;
        dropped.add_all(&machine.errors().dropped);
        dropped
    }

    /// Bytes before `from` are about to be dropped.
    #[inline]
    fn forget_before(&mut self, b: &Window, from: usize) {
        if self.track_positions {
            self.lines.advance_to(b.bytes, b.base, from);
            self.floor = from;
        } else {
            self.floor = usize::MAX;
        }
    }
}

/// The streaming driver for one dialect: what [`Tokenizer`](crate::Tokenizer) is for HTML.
pub(crate) struct Stream<D: Dialect> {
    options: Options,
    machine: D::Lexer,
    arena: Bump,
    /// The buffer the current feed reads before the chunk: the previous carry, extended.
    frozen: Vec<u8>,
    /// Bytes kept for the next feed, described by `carried`.
    carry: Vec<u8>,
    carried: Carried,
    /// Stream offset of the next chunk.
    fed: usize,
    side: Side,
    /// What is known of a byte order mark at the start of the stream.
    bom: Bom,
    finished: bool,
    /// The memory limit the stream stopped at, if any: it stays stopped until a new stream.
    limit_error: Option<LimitError>,
    simulator: D::Stage,
    /// [`Options::lossless`]: how far the items handed out reach (see [`lossless`]).
    covered: usize,
    /// What this feed leaves for the next one to hand out first, and what the last one left.
    owed: Owed,
    owed_in: Owed,
}

impl<D: Dialect> Stream<D> {
    /// [`Tokenizer::new`](crate::Tokenizer::new), for any dialect.
    pub(crate) fn new(options: Options) -> Stream<D> {
        let mut stream = Stream {
            machine: D::lexer(&options),
            arena: Bump::new(),
            frozen: Vec::new(),
            carry: Vec::new(),
            carried: Carried::default(),
            fed: 0,
            side: Side::new(&options),
            bom: Bom::Decided,
            finished: false,
            limit_error: None,
            simulator: D::stage(&options),
            covered: 0,
            owed: Owed::default(),
            owed_in: Owed::default(),
            options,
        };
        stream.reset();
        stream
    }

    /// [`Tokenizer::reset`](crate::Tokenizer::reset), for any dialect.
    pub(crate) fn reset(&mut self) {
        self.machine.reset(&self.options);
        self.frozen.clear();
        self.carry.clear();
        self.carried = Carried::default();
        self.fed = 0;
        self.side.reset();
        self.bom = if self.options.strip_bom {
            Bom::Undecided { held: 0 }
        } else {
            Bom::Decided
        };
        self.finished = false;
        if self.limit_error.take().is_some()
            && self.arena.allocated_bytes() > self.options.limits.arena
        {
            // A stream that ran into the arena limit leaves its largest chunk behind: let it go.
            self.arena = Bump::new();
        }
        self.simulator.reset();
        self.covered = 0;
        self.owed.clear();
        self.owed_in.clear();
    }

    /// [`Tokenizer::tokenize`](crate::Tokenizer::tokenize), for any dialect.
    pub(crate) fn tokenize<'t>(&'t mut self, input: &'t [u8]) -> Pull<'t, D> {
        self.reset();
        self.start(input, true)
    }

    /// [`Tokenizer::feed`](crate::Tokenizer::feed), for any dialect.
    #[inline]
    pub(crate) fn feed<'t>(&'t mut self, chunk: &'t [u8]) -> Pull<'t, D> {
        if self.finished {
            self.reset();
        }
        self.start(chunk, false)
    }

    /// [`Tokenizer::finish`](crate::Tokenizer::finish), for any dialect.
    pub(crate) fn finish(&mut self) -> Pull<'_, D> {
        self.start(&[], true)
    }

    /// [`Tokenizer::bom`](crate::Tokenizer::bom), for any dialect.
    pub(crate) fn bom(&self) -> Option<Span> {
        self.side.bom()
    }

    /// Feed the last chunk and end the stream in one go ([`feed`](crate::Tokenizer::feed) then
    /// [`finish`](crate::Tokenizer::finish), as one iterator).
    #[cfg(feature = "encoding")]
    pub(crate) fn feed_last<'t>(&'t mut self, chunk: &'t [u8]) -> Pull<'t, D> {
        self.start(chunk, true)
    }

    /// The first stream offset the tokenizer still holds (what it carries into the next feed):
    /// no token of a later feed starts before it.
    #[cfg(feature = "encoding")]
    pub(crate) fn retained_from(&self) -> usize {
        self.carried.base
    }

    /// [`Tokenizer::errors`](crate::Tokenizer::errors), for any dialect.
    pub(crate) fn errors(&self) -> &[ParseError] {
        &self.side.errors
    }

    /// [`Tokenizer::take_errors`](crate::Tokenizer::take_errors), for any dialect.
    pub(crate) fn take_errors(&mut self) -> Vec<ParseError> {
        std::mem::take(&mut self.side.errors)
    }

    /// [`Tokenizer::drain_errors`](crate::Tokenizer::drain_errors), for any dialect.
    pub(crate) fn drain_errors(&mut self) -> std::vec::Drain<'_, ParseError> {
        self.side.errors.drain(..)
    }

    /// [`Tokenizer::dropped_errors`](crate::Tokenizer::dropped_errors), for any dialect.
    pub(crate) fn dropped_errors(&self) -> DroppedErrors {
        self.side.dropped(&self.machine)
    }

    /// [`Tokenizer::limit_error`](crate::Tokenizer::limit_error), for any dialect.
    pub(crate) fn limit_error(&self) -> Option<LimitError> {
        self.limit_error
    }

    /// [`Tokenizer::is_valid_utf8`](crate::Tokenizer::is_valid_utf8), for any dialect.
    pub(crate) fn is_valid_utf8(&self) -> Option<bool> {
        self.side.validate_utf8.then(|| self.side.utf8.is_valid())
    }

    #[inline(always)]
    fn start<'t>(&'t mut self, chunk: &'t [u8], eof: bool) -> Pull<'t, D> {
        self.arena.reset();
        // After `finish`, the stream is over: later calls only resume what a pause left behind.
        let chunk = if self.finished { &[][..] } else { chunk };
        let eof = eof || self.finished;
        let chunk = match self.bom {
            Bom::Decided => chunk,
            Bom::Undecided { .. } => self.look_for_bom(chunk, eof),
        };
        let chunk_base = self.fed;
        self.fed += chunk.len();
        let done = self.machine.is_done() || self.limit_error.is_some();
        if !done && !self.finished {
            self.side.accept(chunk, chunk_base, eof);
        }
        self.finished = eof;
        std::mem::swap(&mut self.frozen, &mut self.carry);
        self.carry.clear();
        let frozen_base = self.carried.base;
        let nothing_carried = self.frozen.is_empty();
        let phase = if done {
            Phase::Done
        } else if nothing_carried {
            Phase::Chunk
        } else {
            Phase::Extending
        };
        let chunk_src: &'t Source<'t> =
            self.arena
                .alloc(Source::new(chunk, chunk_base, &self.arena, D::XML));
        let lossless = self.options.lossless;
        if lossless {
            std::mem::swap(&mut self.owed, &mut self.owed_in);
            self.owed.clear();
        }
        let mut pull = Pull {
            machine: &mut self.machine,
            side: &mut self.side,
            arena: &self.arena,
            held: Held {
                frozen: Frozen::Extending(&mut self.frozen),
                frozen_base,
                copied: 0,
                chunk,
                chunk_base,
                eof,
            },
            carry: &mut self.carry,
            carried: &mut self.carried,
            last_window: nothing_carried.then_some(chunk_src),
            chunk_src,
            frozen_src: None,
            phase,
            // The chunk is the window from the start: the first call need not prepare it.
            plain: phase == Phase::Chunk && self.options.limits.arena == usize::MAX && !lossless,
            ready: phase == Phase::Chunk && self.options.limits.arena == usize::MAX,
            window: chunk_src,
            window_buf: Window {
                bytes: chunk_src.bytes,
                base: chunk_src.base,
                eof,
            },
            limits: self.options.limits,
            limit_error: &mut self.limit_error,
            forget: None,
            sim: &mut self.simulator,
            lossless,
            covered: &mut self.covered,
            queued: None,
            owe: &mut self.owed,
            owed_src: None,
            left: None,
        };
        if lossless {
            pull.take_owed(&self.owed_in);
        }
        pull
    }
}

impl<D: Dialect> Stream<D> {
    /// At the start of the stream, before the machine reads anything: strip a leading byte order
    /// mark, hold the first bytes back while they may still be one, or hand those held back to
    /// the machine once they are not. Returns the part of `chunk` the machine reads now.
    #[cold]
    #[inline(never)]
    fn look_for_bom<'c>(&mut self, chunk: &'c [u8], eof: bool) -> &'c [u8] {
        let Bom::Undecided { held } = self.bom else {
            return chunk;
        };
        let take = chunk.len().min(BOM.len() - held);
        let so_far = chunk[..take] == BOM[held..held + take];
        if so_far && held + take == BOM.len() {
            self.bom = Bom::Decided;
            self.machine.start_at(BOM.len());
            self.side.strip_bom(BOM.len());
            self.fed = BOM.len();
            return &chunk[take..];
        }
        if so_far && !eof {
            // Nothing reaches the machine yet: the stream is still a prefix of a BOM.
            self.bom = Bom::Undecided { held: held + take };
            return &[];
        }
        self.bom = Bom::Decided;
        if held > 0 {
            // The bytes held back are text after all: the machine reads them first, as it reads
            // bytes a pause kept unread.
            self.carry.clear();
            self.carry.extend_from_slice(&BOM[..held]);
            self.carried = Carried {
                base: 0,
                unread: true,
            };
            self.side.accept(&BOM[..held], 0, false);
            self.fed = held;
        }
        chunk
    }
}

/// The UTF-8 byte order mark, which the Encoding Standard's decoder strips from the start of a
/// stream ([`Options::strip_bom`]).
const BOM: &[u8; 3] = b"\xEF\xBB\xBF";

/// What a [`Tokenizer`](crate::Tokenizer) knows of a byte order mark at the start of its stream.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bom {
    /// The bytes fed so far, `held` of them, all held back from the machine, may still be the
    /// start of one.
    Undecided { held: usize },
    /// Stripped, not there, or not looked for: nothing more to do ([`Side::bom`] tells which).
    Decided,
}

/// How many bytes past a cut tag's `>` go into the fixed window it is lexed in
/// ([`Pull::extend_to_cut_tag_end`]): the lane tests 16 bytes at a time, and within 16 bytes of
/// a window's end it reads byte by byte. With this much room, the tag is lexed as fast as in the
/// chunk itself (a tag ending its window took twice the instructions).
const CUT_TAG_SLACK: usize = 32;

/// What [`Pull::extend_to_cut_tag_end`] did with a cut tag or comment.
enum CutTagEnd {
    /// The chunk holds its end: the fixed window holds the whole token.
    Extended,
    /// The chunk holds no end for it.
    Beyond,
    /// Not looked for (the last chunk, or the carry limit near).
    Unknown,
}

/// The carried buffer: growing (nothing borrows it yet) or fixed (tokens may borrow it).
enum Frozen<'t> {
    Extending(&'t mut Vec<u8>),
    Fixed(&'t [u8]),
}

/// Where the machine reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// The carried buffer, extended from the chunk until the unfinished token is done.
    Extending,
    /// The carried buffer, fixed (the rest of the chunk was appended to it).
    Frozen,
    /// The chunk, in place.
    Chunk,
    Done,
}

/// The bytes one feed can read: the carried buffer and the chunk.
struct Held<'t> {
    frozen: Frozen<'t>,
    frozen_base: usize,
    /// How many bytes of the chunk were appended to the carried buffer.
    copied: usize,
    chunk: &'t [u8],
    chunk_base: usize,
    eof: bool,
}

impl<'t> Held<'t> {
    /// The buffer the machine reads in `phase`.
    fn window(&self, phase: Phase) -> Window<'_> {
        let eof = self.eof && self.copied == self.chunk.len();
        match (&self.frozen, phase) {
            (_, Phase::Chunk) => Window {
                bytes: self.chunk,
                base: self.chunk_base,
                eof: self.eof,
            },
            (Frozen::Extending(v), _) => Window {
                bytes: v,
                base: self.frozen_base,
                eof,
            },
            (Frozen::Fixed(v), _) => Window {
                bytes: v,
                base: self.frozen_base,
                eof,
            },
        }
    }

    /// Fix the carried buffer so that tokens may borrow it.
    fn freeze(&mut self) -> &'t [u8] {
        let frozen = std::mem::replace(&mut self.frozen, Frozen::Fixed(&[]));
        let fixed: &'t [u8] = match frozen {
            Frozen::Extending(v) => {
                let v: &'t Vec<u8> = v;
                v
            }
            Frozen::Fixed(v) => v,
        };
        self.frozen = Frozen::Fixed(fixed);
        fixed
    }

    /// Copy the stream bytes from `from` to the end of what this feed holds into `carry`.
    fn keep(&self, from: usize, carry: &mut Vec<u8>) {
        carry.clear();
        if from < self.chunk_base + self.copied {
            let held = match &self.frozen {
                Frozen::Extending(v) => &v[..],
                Frozen::Fixed(v) => v,
            };
            carry.extend_from_slice(&held[from - self.frozen_base..]);
            carry.extend_from_slice(&self.chunk[self.copied..]);
        } else {
            carry.extend_from_slice(&self.chunk[from - self.chunk_base..]);
        }
    }
}

/// What the bytes kept for the next feed are.
#[derive(Clone, Copy, Default)]
struct Carried {
    /// The stream offset of the first one.
    base: usize,
    /// Some of them were kept unread, the iterator being dropped before it had read them
    /// ([`Pull::pause`]): when they are a tag or comment a seam cut off, its end may lie among
    /// them, not only in the next chunk.
    unread: bool,
}

impl Carried {
    /// Bytes from `base` on, all read.
    fn read_from(base: usize) -> Carried {
        Carried {
            base,
            unread: false,
        }
    }
}

/// The pull iterator over one document or one fed chunk, for one dialect: what [`Tokens`](crate::Tokens) is for
/// HTML.
pub(crate) struct Pull<'t, D: Dialect> {
    machine: &'t mut D::Lexer,
    side: &'t mut Side,
    arena: &'t Bump,
    held: Held<'t>,
    carry: &'t mut Vec<u8>,
    carried: &'t mut Carried,
    phase: Phase,
    /// Nothing to check before reading `window` (see [`Pull::prepare_window`]): the phase is
    /// [`Phase::Chunk`] or [`Phase::Frozen`], nothing waits to be forgotten, and there is no
    /// arena limit. Cleared by every change of phase and by [`Pull::forget_later`]. With
    /// [`Options::lossless`], also: the items handed out reach where the machine goes on, and
    /// nothing waits to go out (set by [`Pull::next_lossless`], see [`lossless`]).
    plain: bool,
    /// `plain` but for [`Options::lossless`]'s own conditions: the window is ready to read.
    ready: bool,
    /// The window the machine reads in [`Phase::Chunk`] or [`Phase::Frozen`], once `plain` is set.
    window: &'t Source<'t>,
    /// `window` as the machine reads it (kept here so that the lanes read it in place).
    window_buf: Window<'t>,
    /// The buffer the last token came from, for [`Tokens::position`](crate::Tokens::position).
    last_window: Option<&'t Source<'t>>,
    /// The chunk's description in the arena, shared by the tokens that borrow the chunk.
    chunk_src: &'t Source<'t>,
    /// The carried buffer's, once it is fixed.
    frozen_src: Option<&'t Source<'t>>,
    limits: Limits,
    /// Where the stream stopped at a memory limit (the tokenizer's).
    limit_error: &'t mut Option<LimitError>,
    /// Positions to let go of at the next call (see [`Pull::forget_later`]).
    forget: Option<(&'t Source<'t>, usize)>,
    /// The dialect's tree stage (see [`crate::feedback`]).
    sim: &'t mut D::Stage,
    /// [`Options::lossless`], and its state (see [`lossless`]): how far the items handed out
    /// reach, the token waiting behind a raw item, what this feed owes the next, the bytes the
    /// last feed owed, and the fixed window this feed left for a copy.
    lossless: bool,
    covered: &'t mut usize,
    queued: Option<Token<'t>>,
    owe: &'t mut Owed,
    owed_src: Option<&'t Source<'t>>,
    left: Option<&'t Source<'t>>,
}

impl<'t, D: Dialect> Pull<'t, D> {
    /// The feedback stage, and the lexer it may switch (see [`crate::feedback`]).
    #[inline(always)]
    fn stage(&mut self) -> (&mut D::Stage, &mut D::Lexer) {
        (&mut *self.sim, &mut *self.machine)
    }

    /// [`Tokens::errors`](crate::Tokens::errors), for any dialect.
    pub(crate) fn errors(&self) -> &[ParseError] {
        &self.side.errors
    }

    /// [`Tokens::bom`](crate::Tokens::bom), for any dialect.
    pub(crate) fn bom(&self) -> Option<Span> {
        self.side.bom()
    }

    /// [`Tokens::take_errors`](crate::Tokens::take_errors), for any dialect.
    pub(crate) fn take_errors(&mut self) -> Vec<ParseError> {
        std::mem::take(&mut self.side.errors)
    }

    /// [`Tokens::drain_errors`](crate::Tokens::drain_errors), for any dialect.
    pub(crate) fn drain_errors(&mut self) -> std::vec::Drain<'_, ParseError> {
        self.side.errors.drain(..)
    }

    /// [`Tokens::dropped_errors`](crate::Tokens::dropped_errors), for any dialect.
    pub(crate) fn dropped_errors(&self) -> DroppedErrors {
        self.side.dropped(self.machine)
    }

    /// [`Tokens::position`](crate::Tokens::position), for any dialect.
    pub(crate) fn position(&mut self, offset: usize) -> Option<Position> {
        let Source { bytes, base, .. } = *self.last_window?;
        let end = base + bytes.len();
        let at_end_of_input = offset == end && self.held.eof && end == self.side.fed;
        let held = offset >= self.side.floor.max(base) && (offset < end || at_end_of_input);
        held.then(|| self.side.lines.position(bytes, base, offset))
    }

    /// Run the machine over the carried buffer, appending the chunk bit by bit, until it emits a
    /// record, finishes, or has taken the whole chunk.
    fn run_extending(&mut self) -> Option<Record> {
        loop {
            let b = self.held.window(self.phase);
            let b = Window {
                bytes: b.bytes,
                base: b.base,
                eof: b.eof,
            };
            let record = self.machine.run(&b);
            self.side.collect(self.machine, &b);
            if record.is_some()
                || self.machine.is_done()
                || self.held.copied == self.held.chunk.len()
            {
                return record;
            }
            let carried = b.bytes.len();
            let room = self.limits.carry.saturating_sub(carried);
            if room == 0 {
                // Text carried only because its end was undecided (a CR, a possible character
                // reference or end tag) may have run on into decided text: that goes out first,
                // and only what is still undecided counts against the limit.
                let record = self.machine.flush_text_at_seam(&b);
                if record.is_some() {
                    return record;
                }
                let (needed, offset) = (carried + 1, self.held.frozen_base);
                self.stop_at_limit(Limit::Carry, needed, offset);
                return None;
            }
            let Frozen::Extending(v) = &mut self.held.frozen else {
                unreachable!("extending")
            };
            let step = (self.held.chunk.len() - self.held.copied)
                .min(self.held.copied.max(256))
                .min(room);
            v.extend_from_slice(&self.held.chunk[self.held.copied..self.held.copied + step]);
            self.held.copied += step;
        }
    }

    /// The carried bytes are a tag or comment the last seam cut off, from its `<`
    /// ([`Lexer::resume_cut_token`]): append the chunk up to where it ends ([`Lexer::cut_token_end`]),
    /// and [`CUT_TAG_SLACK`] bytes more, and read that as a fixed window, where the lane lexes the
    /// whole token in one go. Whatever it does not finish there (a `>` inside a quoted value ended
    /// the copy early) is left for [`Pull::leave_frozen`]. [`CutTagEnd::Beyond`]: the chunk
    /// holds no end for it; [`CutTagEnd::Unknown`]: this is the last chunk, or the carry limit is
    /// near; in both cases nothing was appended.
    fn extend_to_cut_tag_end(&mut self) -> CutTagEnd {
        if self.held.eof || self.held.copied != 0 {
            return CutTagEnd::Unknown;
        }
        let chunk = self.held.chunk;
        let Frozen::Extending(v) = &mut self.held.frozen else {
            return CutTagEnd::Unknown;
        };
        let Some(k) = D::Lexer::cut_token_end(v, chunk) else {
            return CutTagEnd::Beyond;
        };
        if v.len() + k + 1 > self.limits.carry {
            return CutTagEnd::Unknown;
        }
        let copied = chunk.len().min(k + 1 + CUT_TAG_SLACK);
        v.extend_from_slice(&chunk[..copied]);
        self.held.copied = copied;
        self.set_phase(Phase::Frozen);
        CutTagEnd::Extended
    }

    /// The carried bytes are a tag or comment the last seam cut off, and the chunk holds no end
    /// for it ([`CutTagEnd::Beyond`]): carry the whole chunk on with it, unread, and wait for the
    /// next one again. The state functions would only have read the chunk to its end, with no
    /// token to hand out (for a long comment, at every seam it spans). `false`: the token may not
    /// be a tag (`<` at the last seam, then no letter), or the carry limit is near: the state
    /// functions read on.
    fn carry_cut_tag_on(&mut self) -> bool {
        let chunk = self.held.chunk;
        let Frozen::Extending(v) = &mut self.held.frozen else {
            return false;
        };
        let tag = match &v[..] {
            [b'<', b'!', b'-', b'-', ..] => true,
            [b'<', b'/', c, ..] | [b'<', c, ..] => c.is_ascii_alphabetic(),
            _ => false,
        };
        if !tag || v.len() + chunk.len() > self.limits.carry {
            return false;
        }
        self.carry_all();
        self.machine.wait_for_cut_token_again();
        self.set_phase(Phase::Done);
        true
    }

    /// Keep the carried buffer, while it is still growing, and the rest of the chunk, unread, for
    /// the next feed.
    fn carry_all(&mut self) {
        let Frozen::Extending(v) = &mut self.held.frozen else {
            return;
        };
        v.extend_from_slice(&self.held.chunk[self.held.copied..]);
        std::mem::swap(*v, self.carry);
        self.carried.base = self.held.frozen_base;
        self.held.copied = self.held.chunk.len();
    }

    /// Hand out the tag the last seam cut off, now whole in the fixed carried buffer. When the
    /// machine has read past the seam (the usual case) and a lane reads on from there (the data
    /// lane, or the raw lane when the simulator switched to a text state at a `<script>`,
    /// `<style>`, `<title>`…), switch to the chunk at once instead of reading the buffer's rest
    /// to [`Pull::leave_frozen`]: that read the copied bytes after the tag twice, and took
    /// the cold way through the state functions at the copy's end.
    fn lex_cut_tag(&mut self) -> Option<Token<'t>> {
        // What `prepare` would do for the fixed buffer, done here, where it is known.
        let src = self.frozen_source();
        self.read_window(src);
        let token = self.next_again();
        if let Some(src) = self.frozen_src
            && self.phase == Phase::Frozen
            && self.held.copied < self.held.chunk.len()
            && (self.machine.lane_open() || self.machine.raw_lane_open())
            && self.machine.pos() >= self.held.chunk_base
        {
            self.read_on_after(src);
        }
        token
    }

    /// The end of a fixed window that holds only the start of the chunk
    /// ([`Pull::extend_to_cut_tag_end`]): read on from the chunk in place when nothing
    /// unfinished lies before it, or else from a copy of the unfinished bytes and the rest of the
    /// chunk, in the arena.
    #[cold]
    #[inline(never)]
    fn leave_frozen(&mut self, src: &'t Source<'t>) -> Option<Token<'t>> {
        self.read_on_after(src);
        self.next_again()
    }

    /// The machine has read the fixed window `src`, which holds only the start of the chunk: read
    /// on from the chunk in place when nothing unfinished lies before it, or else from a copy of
    /// the unfinished bytes and the rest of the chunk, in the arena.
    fn read_on_after(&mut self, src: &'t Source<'t>) {
        // Attributes the lane recorded unchecked name bytes of this window.
        self.machine.settle_before_seam(&src.window());
        // A tag cut off by this window's end is whole in what follows.
        self.machine.resume_cut_token();
        let retention = self.machine.retention();
        self.machine.keep_at_seam_inline(&src.window());
        self.forget_later(src, retention);
        if retention >= self.held.chunk_base {
            self.read_chunk_in_place();
        } else {
            let rest = &src.bytes[retention - src.base..];
            let more = &self.held.chunk[self.held.copied..];
            // Built in place: a zero-filled slice copied over wrote every byte twice.
            let mut joined =
                bumpalo::collections::Vec::with_capacity_in(rest.len() + more.len(), self.arena);
            joined.extend_from_slice(rest);
            joined.extend_from_slice(more);
            let bytes: &'t [u8] = joined.into_bump_slice();
            self.held.frozen = Frozen::Fixed(bytes);
            self.held.frozen_base = retention;
            self.held.copied = self.held.chunk.len();
            self.left = self.frozen_src;
            self.frozen_src =
                Some(
                    self.arena
                        .alloc(Source::new(bytes, retention, self.arena, D::XML)),
                );
            // The machine reads the new copy from the next call on.
            self.set_phase(Phase::Frozen);
        }
    }

    /// The first record of this feed came out of the carried buffer: decide where to read next.
    fn leave_extending(&mut self) {
        let retention = self.machine.retention();
        if self.held.chunk.is_empty() || retention < self.held.chunk_base {
            if let Frozen::Extending(v) = &mut self.held.frozen {
                v.extend_from_slice(&self.held.chunk[self.held.copied..]);
            }
            self.held.copied = self.held.chunk.len();
            self.set_phase(Phase::Frozen);
        } else {
            let src = self.frozen_source();
            self.machine.keep_at_seam(&src.window());
            // The token about to be handed out lies before `retention`: its positions are let go
            // of only when the next token is asked for.
            self.forget_later(src, retention);
            self.set_phase(Phase::Chunk);
        }
    }

    /// The first token of a feed that starts with carried bytes: out of line, so that it does not
    /// share the frame of [`Iterator::next`]'s hot path.
    #[inline(never)]
    fn next_extending(&mut self) -> Option<Token<'t>> {
        if self.machine.resume_cut_token() {
            match self.extend_to_cut_tag_end() {
                CutTagEnd::Extended => return self.lex_cut_tag(),
                // Bytes a pause kept unread may hold the token's end, which `cut_token_end`
                // does not look for: the state functions read them.
                CutTagEnd::Beyond if !self.carried.unread && self.carry_cut_tag_on() => {
                    return None;
                }
                CutTagEnd::Beyond | CutTagEnd::Unknown => {}
            }
        }
        self.run_extending_token()
    }

    /// The first token of a feed that starts with carried bytes other than a cut tag (or one whose
    /// end the chunk does not hold): the state functions extend the carried buffer until it is
    /// done. Out of line, so that the cut tag's way through [`Pull::next_extending`] is short.
    #[cold]
    #[inline(never)]
    fn run_extending_token(&mut self) -> Option<Token<'t>> {
        match self.run_extending() {
            Some(record) => {
                self.leave_extending();
                let src = self.frozen_source();
                Some(self.token(record, src))
            }
            None if self.machine.is_done() || self.limit_error.is_some() => {
                if self.lossless {
                    // What the machine dropped at the end of input goes out from here.
                    self.frozen_source();
                }
                self.set_phase(Phase::Done);
                None
            }
            None => self.end_of_carried_window(),
        }
    }

    /// The whole chunk went into the carried buffer and no token finished: emit what text can be
    /// emitted and keep the rest for the next feed (in place when nothing borrows it).
    fn end_of_carried_window(&mut self) -> Option<Token<'t>> {
        self.set_phase(Phase::Done);
        let b = self.held.window(self.phase);
        let b = Window {
            bytes: b.bytes,
            base: b.base,
            eof: false,
        };
        let record = self.machine.flush_text_at_seam(&b);
        let retention = self.machine.retention();
        self.machine.keep_at_seam(&b);
        if record.is_none() {
            self.side.forget_before(&b, retention);
        }
        if self.over_carry_limit(b.end() - retention, retention) {
            let src = self.frozen_source();
            self.forget_later(src, retention);
            return record.map(|r| self.token(r, src));
        }
        let Some(record) = record else {
            if self.lossless {
                self.owe_before(retention);
            }
            let Frozen::Extending(v) = &mut self.held.frozen else {
                unreachable!("extending")
            };
            v.drain(..retention - self.held.frozen_base);
            std::mem::swap(*v, self.carry);
            *self.carried = Carried::read_from(retention);
            return None;
        };
        let src = self.frozen_source();
        self.forget_later(src, retention);
        self.keep(retention);
        Some(self.token(record, src))
    }

    /// Let go of the positions before `from` in `src` once the token being handed out is done with
    /// (at the next call or when the iterator is dropped), so that [`Tokens::position`](crate::Tokens::position) still
    /// answers for it. Without [`Options::track_positions`] that is done at once.
    fn forget_later(&mut self, src: &'t Source<'t>, from: usize) {
        if self.side.track_positions {
            self.forget = Some((src, from));
            self.plain = false;
            self.ready = false;
        } else {
            // Untracked positions are known only up to the first seam: nothing to put off.
            self.side.forget_before(&src.window(), from);
        }
    }

    /// Do what [`Pull::forget_later`] put off.
    #[cold]
    #[inline(never)]
    fn forget_now(&mut self) {
        if let Some((src, from)) = self.forget.take() {
            self.side.forget_before(&src.window(), from);
        }
    }

    /// Keep the stream bytes from `from` on for the next feed, as read by the machine
    /// ([`Pull::pause`] marks them unread).
    fn keep(&mut self, from: usize) {
        self.held.keep(from, self.carry);
        *self.carried = Carried::read_from(from);
    }

    /// Read on from the chunk in place, from the next call on: what [`Pull::prepare_window`] would
    /// do, done at once.
    fn read_chunk_in_place(&mut self) {
        self.set_phase(Phase::Chunk);
        self.read_window(self.chunk_src);
    }

    /// Read `src` from the next call on, in the current phase, without [`Pull::prepare_window`]
    /// unless something is still to be done before the read.
    fn read_window(&mut self, src: &'t Source<'t>) {
        self.window = src;
        self.window_buf = self.buf(src);
        self.ready = self.forget.is_none() && self.limits.arena == usize::MAX;
        self.plain = self.ready && !self.lossless;
    }

    /// Change phase; [`Pull::prepare_window`] runs before the next read.
    fn set_phase(&mut self, phase: Phase) {
        self.phase = phase;
        self.plain = false;
        self.ready = false;
    }

    /// What [`Iterator::next`] checks before reading the window, done when something changed
    /// and remembered in `plain` until something changes again. `Some`: the answer does not come
    /// from the window.
    #[inline]
    fn prepare_window(&mut self) -> Option<Option<Token<'t>>> {
        if self.limits.arena != usize::MAX && self.arena.allocated_bytes() > self.limits.arena {
            return Some(self.arena_limit());
        }
        if self.forget.is_some() {
            self.forget_now();
        }
        self.window = match self.phase {
            Phase::Done => return Some(None),
            Phase::Extending => return Some(self.next_extending()),
            Phase::Chunk => self.chunk_src,
            Phase::Frozen => self.frozen_source(),
        };
        self.window_buf = self.buf(self.window);
        self.ready = self.limits.arena == usize::MAX;
        self.plain = self.ready && !self.lossless;
        None
    }

    /// `src` as the machine's window.
    #[inline(always)]
    fn buf(&self, src: &'t Source<'t>) -> Window<'t> {
        Window {
            bytes: src.bytes,
            base: src.base,
            eof: self.held.eof,
        }
    }

    #[inline(never)]
    fn next_in_window(&mut self) -> Option<Token<'t>> {
        self.lex_in_window()
    }

    /// [`Pull::next_in_window`]'s work: called there, or inlined into the consumer's loop when
    /// the dialect says so ([`Dialect::INLINE_LEXING`]).
    #[inline(always)]
    fn lex_in_window(&mut self) -> Option<Token<'t>> {
        let src = self.window;
        if !self.machine.errors_on() {
            if self.machine.lane_open() {
                match self.machine.lex_lane(&self.window_buf) {
                    Lexeme::Elsewhere => {}
                    lexeme => return self.lane_token(lexeme, src),
                }
            } else if self.machine.raw_lane_open()
                && let Some(token) = self.raw_lane_token(src)
            {
                return Some(token);
            }
        }
        self.state_functions_token(src)
    }

    /// The next token from the state functions (the lanes left it to them): out of line, so that
    /// the lanes' hot path does not share its frame.
    #[inline(never)]
    fn state_functions_token(&mut self, src: &'t Source<'t>) -> Option<Token<'t>> {
        if self.lossless && self.plain {
            return self.lossless_state_functions_token(src);
        }
        self.lex_in_state_functions(src)
    }

    /// [`Pull::state_functions_token`]'s work: run the state functions to the next token.
    #[inline(always)]
    fn lex_in_state_functions(&mut self, src: &'t Source<'t>) -> Option<Token<'t>> {
        let b = self.buf(src);
        if self.machine.waits_for_next_chunk(&b) {
            // What `run` would have done before it found nothing to read.
            self.machine.settle_before_seam(&b);
            return self.end_of_window(src);
        }
        let record = self.machine.run(&b);
        self.side.collect(self.machine, &b);
        match record {
            Some(record) => Some(self.token(record, src)),
            None => self.end_of_window(src),
        }
    }

    /// The carried buffer, fixed, as the source its tokens borrow.
    fn frozen_source(&mut self) -> &'t Source<'t> {
        if let Some(src) = self.frozen_src {
            return src;
        }
        let src: &'t Source<'t> = self.arena.alloc(Source::new(
            self.held.freeze(),
            self.held.frozen_base,
            self.arena,
            D::XML,
        ));
        self.frozen_src = Some(src);
        src
    }

    /// Turn a lexeme of the direct lane into a token borrowing `src`. Each token is built where it
    /// is returned; the simulator looks at the few it wants.
    #[inline(always)]
    fn lane_token(&mut self, lexeme: Lexeme, src: &'t Source<'t>) -> Option<Token<'t>> {
        self.last_window = Some(src);
        let (bytes, base) = (src.bytes, src.base);
        // Each arm decides whether the simulator looks before it builds the token, so that the
        // common case writes the token once, where it is returned: built in a temporary and
        // copied out, it was read back in 16-byte pieces right after being written in 8-byte
        // ones, a store-forwarding stall that perf put at a tenth of the time.
        match lexeme {
            Lexeme::Text(span) => {
                let kind = TextKind::Data;
                if self.sim.wants(Kind::Text(kind), span, bytes, base) {
                    let (sim, target) = self.stage();
                    return sim.text(Text { src, span, kind }, target);
                }
                Some(Token::Text(Text { src, span, kind }))
            }
            Lexeme::StartTag {
                span,
                name,
                self_closing,
            } => {
                let attrs = attributes(src, self.machine);
                let tag = StartTag {
                    src,
                    span,
                    name,
                    attrs,
                    self_closing,
                };
                if self
                    .sim
                    .wants(Kind::StartTag { self_closing }, name, bytes, base)
                {
                    let (sim, target) = self.stage();
                    return sim.start_tag(tag, target);
                }
                Some(Token::StartTag(tag))
            }
            Lexeme::EndTag { span, name } => {
                if self.sim.wants(Kind::EndTag, name, bytes, base) && !self.sim.lets_pass(name) {
                    let (sim, target) = self.stage();
                    return sim.end_tag(EndTag { src, span, name }, target);
                }
                Some(Token::EndTag(EndTag { src, span, name }))
            }
            Lexeme::Comment { span, data } => {
                let comment = Token::Comment(Comment { src, span, data });
                if self.sim.wants(Kind::Comment, data, bytes, base) {
                    let (sim, target) = self.stage();
                    sim.token(&comment, target);
                }
                Some(comment)
            }
            Lexeme::RawText(..) | Lexeme::Elsewhere => {
                unreachable!("the data lane hands out only its tokens")
            }
        }
    }

    /// The raw lane ([`Lexer::lex_raw_lane`]): RCDATA, RAWTEXT or script data text up to its
    /// end tag, or the end tag, as a token borrowing `src`. `None`: the state functions go on.
    #[inline(never)]
    fn raw_lane_token(&mut self, src: &'t Source<'t>) -> Option<Token<'t>> {
        let (token, kind, part) = match self.machine.lex_raw_lane(&self.buf(src)) {
            Lexeme::RawText(span, kind) => (
                Token::Text(Text { src, span, kind }),
                Kind::Text(kind),
                span,
            ),
            Lexeme::EndTag { span, name } => (
                Token::EndTag(EndTag { src, span, name }),
                Kind::EndTag,
                name,
            ),
            _ => return None,
        };
        self.last_window = Some(src);
        if self.sim.wants(kind, part, src.bytes, src.base) {
            let (sim, target) = self.stage();
            sim.token(&token, target);
        }
        Some(token)
    }

    /// The machine has read the whole window: at the end of input it is done; otherwise emit what
    /// text can be emitted and keep the unfinished rest for the next feed.
    #[cold]
    #[inline(never)]
    fn end_of_window(&mut self, src: &'t Source<'t>) -> Option<Token<'t>> {
        if self.phase == Phase::Frozen && self.held.copied < self.held.chunk.len() {
            return self.leave_frozen(src);
        }
        let b = &Window {
            bytes: src.bytes,
            base: src.base,
            eof: self.held.eof,
        };
        self.set_phase(Phase::Done);
        if self.machine.is_done() {
            return None;
        }
        let record = self.machine.flush_text_at_seam(b);
        let retention = self.machine.retention();
        self.machine.keep_at_seam_inline(b);
        self.carry.clear();
        if !self.over_carry_limit(b.end() - retention, retention) {
            self.carry.extend_from_slice(b.rest(retention));
            *self.carried = Carried::read_from(retention);
        }
        match record {
            Some(record) => {
                self.forget_later(src, retention);
                self.flushed_text_token(record, src)
            }
            // No token is handed out now: the last one's positions can go at once.
            None => {
                self.side.forget_before(b, retention);
                None
            }
        }
    }

    /// The text record [`Lexer::flush_text_at_seam`] made, as a token borrowing `src`: built as
    /// text directly, not through [`make_token`]'s `match` on the kind, a jump table that the
    /// seams took cold.
    fn flushed_text_token(&mut self, record: Record, src: &'t Source<'t>) -> Option<Token<'t>> {
        let Kind::Text(kind) = record.kind else {
            return Some(self.token(record, src));
        };
        self.last_window = Some(src);
        let text = Text {
            src,
            span: record.span,
            kind,
        };
        if self
            .sim
            .wants(record.kind, record.part, src.bytes, src.base)
        {
            let (sim, target) = self.stage();
            return sim.text(text, target);
        }
        Some(Token::Text(text))
    }

    /// Whether carrying `needed` bytes from stream offset `offset` on would pass
    /// [`Options::max_carry`]; if so, the stream stops there.
    fn over_carry_limit(&mut self, needed: usize, offset: usize) -> bool {
        let over = needed > self.limits.carry;
        if over {
            self.stop_at_limit(Limit::Carry, needed, offset);
        }
        over
    }

    /// Stop the stream at a memory limit: no token from `offset` on.
    #[cold]
    fn stop_at_limit(&mut self, limit: Limit, needed: usize, offset: usize) {
        let max = match limit {
            Limit::Carry => self.limits.carry,
            Limit::Arena => self.limits.arena,
        };
        *self.limit_error = Some(LimitError {
            limit,
            max,
            needed,
            offset,
        });
        self.set_phase(Phase::Done);
    }

    /// The arena has grown past [`Options::max_arena`]: stop before the next token.
    #[cold]
    #[inline(never)]
    fn arena_limit(&mut self) -> Option<Token<'t>> {
        if self.phase != Phase::Done {
            let (needed, offset) = (self.arena.allocated_bytes(), self.machine.retention());
            self.stop_at_limit(Limit::Arena, needed, offset);
        }
        None
    }

    /// Turn a record into a token borrowing `src`.
    #[inline]
    fn token(&mut self, record: Record, src: &'t Source<'t>) -> Token<'t> {
        self.last_window = Some(src);
        // Tree-builder feedback (src/simulator.rs) before the token is handed out: every token
        // leaves through here or through `lane_token`, and the record tells cheaply which ones
        // the simulator needs.
        let simulate = self
            .sim
            .wants_record(record.kind, record.part, src.bytes, src.base);
        let token = make_token(record, src, self.machine);
        if simulate {
            let (sim, target) = self.stage();
            sim.token(&token, target);
        }
        token
    }
}

#[inline]
fn make_token<'t, L: Lexer>(record: Record, src: &'t Source<'t>, machine: &L) -> Token<'t> {
    let Record {
        kind,
        span,
        part,
        data,
        ..
    } = record;
    match kind {
        Kind::Text(kind) => Token::Text(Text { src, span, kind }),
        Kind::StartTag { self_closing } => Token::StartTag(StartTag {
            src,
            span,
            name: part,
            attrs: attributes(src, machine),
            self_closing,
        }),
        Kind::EndTag => Token::EndTag(EndTag {
            src,
            span,
            name: part,
        }),
        Kind::Comment => Token::Comment(Comment {
            src,
            span,
            data: part,
        }),
        Kind::Doctype => Token::Doctype(Doctype {
            src,
            span,
            parts: src.arena.alloc(*machine.doctype()),
        }),
        Kind::Pi => Token::ProcessingInstruction(ProcessingInstruction {
            src,
            span,
            target: part,
            data,
        }),
    }
}

/// The attributes of the start tag just lexed, copied into the arena.
#[inline(always)]
fn attributes<'t, L: Lexer>(src: &'t Source<'t>, machine: &L) -> &'t [AttrRecord] {
    let arena = src.arena;
    // Most tags have one or two attributes: copied as arrays of known size, they are a few
    // stores instead of a call to `memcpy`.
    match *machine.attrs() {
        [] => &[],
        [a] => arena.alloc([a]),
        [a, b] => arena.alloc([a, b]),
        ref list => arena.alloc_slice_copy(list),
    }
}

impl<'t, D: Dialect> Pull<'t, D> {
    /// The next token: the dialect's public iterator's `next`. Inlined there (and from there into
    /// the caller's loop), with [`Pull::next_in_window`] left a function of its own that has the
    /// lanes inlined: of the shapes tried for HTML, the fewest instructions (callgrind on the
    /// corpus, 7.65 instructions/byte; `next_in_window` inlined as well, 8.66 to 8.80; the public
    /// `next` kept out of line, 7.85). XML5 takes the other shape ([`Dialect::INLINE_LEXING`]):
    /// the XML race's decoding tokenizer 14.51 -> 13.82.
    #[inline(always)]
    pub(crate) fn next_token(&mut self) -> Option<Token<'t>> {
        if !self.plain {
            if self.lossless {
                return self.next_lossless();
            }
            if let Some(answer) = self.prepare_window() {
                return answer;
            }
        }
        if D::INLINE_LEXING {
            self.lex_in_window()
        } else {
            self.next_in_window()
        }
    }

    /// [`Pull::next_token`] from one of the driver's own cold paths (after a cut tag, at the end
    /// of a fixed window), out of line.
    #[inline(never)]
    fn next_again(&mut self) -> Option<Token<'t>> {
        self.next_lexed()
    }

    /// The next token the machine lexes (without [`Options::lossless`]'s raw items).
    #[inline(always)]
    fn next_lexed(&mut self) -> Option<Token<'t>> {
        if !self.ready
            && let Some(answer) = self.prepare_window()
        {
            return answer;
        }
        self.next_in_window()
    }
}

impl<D: Dialect> Drop for Pull<'_, D> {
    /// Pause: keep every byte the machine has not finished with for the next feed. At the end of
    /// a feed read to the end (the common case) there is nothing to keep.
    fn drop(&mut self) {
        if self.forget.is_some() {
            self.forget_now();
        }
        if self.phase != Phase::Done || self.lossless {
            self.pause();
        }
    }
}

impl<D: Dialect> Pull<'_, D> {
    /// Keep what the machine has not finished with, the iterator being dropped before the end of
    /// the feed.
    #[cold]
    #[inline(never)]
    fn pause(&mut self) {
        if self.lossless && self.limit_error.is_none() {
            if self.plain {
                // Read unchecked since the last check: the lanes' tokens reach this far.
                *self.covered = self.machine.retention();
            }
            let until = if self.machine.is_done() {
                self.held.chunk_base + self.held.chunk.len()
            } else {
                self.machine.retention()
            };
            self.owe_before(until);
        }
        match self.phase {
            Phase::Done => return,
            Phase::Extending => self.carry_all(),
            Phase::Frozen | Phase::Chunk => {
                let retention = self.machine.retention();
                let b = self.held.window(self.phase);
                let b = Window {
                    bytes: b.bytes,
                    base: b.base,
                    eof: false,
                };
                // Attributes the lane recorded unchecked name bytes of this window.
                self.machine.settle_before_seam(&b);
                self.machine.keep_at_seam(&b);
                self.side.forget_before(&b, retention);
                self.keep(retention);
            }
        }
        // What the iterator had not read yet is among the kept bytes.
        self.carried.unread = true;
    }
}

impl<D: Dialect> Stream<D> {
    /// The lexer, for a dialect's switches between feeds.
    pub(crate) fn lexer_mut(&mut self) -> &mut D::Lexer {
        &mut self.machine
    }

    /// The tree stage, for what a dialect's stage tells.
    pub(crate) fn stage(&self) -> &D::Stage {
        &self.simulator
    }
}

impl<'t, D: Dialect> Pull<'t, D> {
    /// The lexer, for a dialect's switches between tokens, and the window the last token came
    /// from (its bytes may still be needed).
    pub(crate) fn lexer_after_token(&mut self) -> (&mut D::Lexer, Option<Window<'t>>) {
        (&mut *self.machine, self.last_window.map(Source::window))
    }

    /// The tree stage, for what a dialect's stage tells.
    pub(crate) fn stage_ref(&self) -> &D::Stage {
        self.sim
    }

    /// The lexer, for what a dialect's iterator tells of its state.
    pub(crate) fn lexer_ref(&self) -> &D::Lexer {
        self.machine
    }

    /// The lexer, for what a dialect's iterator tells it mid-stream.
    pub(crate) fn lexer_mut(&mut self) -> &mut D::Lexer {
        self.machine
    }
}
