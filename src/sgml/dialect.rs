//! The SGML dialect on the shared driver: the note's machine ([`super::machine`]) as a
//! [`Lexer`] whose records carry whole events.
//!
//! The driver builds [`Token`](crate::Token)s from [`Record`]s; SGML's item is an [`Event`](super::Event). Each
//! event therefore travels through the driver as a data-text record spanning the event's bytes,
//! and the machine keeps the event's lexemes ([`SgmlLexer::current`]) for the SGML iterator to
//! read right after the driver built the token: the text token gives it the bytes (in the chunk
//! or the carried buffer, wherever the event lies), the lexemes their kinds and spans. No lane,
//! no tree stage, no seam rule of the driver's is used: the machine stops at the start of any
//! construct a window ends in before it is decided, and the driver carries the bytes from there
//! ([`Lexer::retention`]) and hands them back with the next chunk.

use std::collections::VecDeque;

use crate::dialect::{Dialect, Lexer};
use crate::error::FoundErrors;
use crate::feedback::NoStage;
use crate::options::Options;
use crate::span::{AttrRecord, DoctypeRecord, Lexeme, Record, TextKind, Window};

use super::event::EventRecord;
use super::machine::{Machine, SgmlOptions};

/// The least a window must grow by before a construct it cut off is lexed again.
const CUT_READ_AGAIN: usize = 64;

/// The SGML dialect.
pub(crate) struct Sgml;

impl Dialect for Sgml {
    type Lexer = SgmlLexer;
    type Stage = NoStage<SgmlLexer>;
    const XML: bool = false;

    fn lexer(_: &Options) -> SgmlLexer {
        SgmlLexer::default()
    }

    fn stage(_: &Options) -> NoStage<SgmlLexer> {
        NoStage::default()
    }
}

/// The machine, the events it lexed and not handed out yet, and the one handed out last.
#[derive(Debug)]
pub(crate) struct SgmlLexer {
    machine: Machine,
    queue: VecDeque<EventRecord>,
    current: EventRecord,
    done: bool,
    /// The construct at this stream offset was cut off by a window that ended at the second
    /// offset: it is lexed again only from a window twice as long (or the last one).
    waiting: (usize, usize),
    /// Always empty: the note's problems are events.
    errors: FoundErrors,
    doctype: DoctypeRecord,
}

impl Default for SgmlLexer {
    fn default() -> SgmlLexer {
        SgmlLexer {
            machine: Machine::default(),
            queue: VecDeque::new(),
            current: EventRecord {
                channel: super::Channel::Primary,
                lexemes: Vec::new(),
            },
            done: false,
            waiting: (usize::MAX, 0),
            errors: FoundErrors::new(0),
            doctype: DoctypeRecord::default(),
        }
    }
}

impl SgmlLexer {
    /// Read as `options` say from the next stream on.
    pub(crate) fn set_options(&mut self, options: SgmlOptions) {
        self.machine.options = options;
    }

    /// The options read with.
    pub(crate) fn options(&self) -> SgmlOptions {
        self.machine.options
    }

    /// The event of the record `run` returned last.
    pub(crate) fn current(&self) -> &EventRecord {
        &self.current
    }
}

impl Lexer for SgmlLexer {
    fn reset(&mut self, _: &Options) {
        self.machine.pos = 0;
        self.queue.clear();
        self.done = false;
        self.waiting = (usize::MAX, 0);
    }

    fn start_at(&mut self, offset: usize) {
        self.machine.pos = offset;
    }

    fn errors_on(&self) -> bool {
        false
    }

    fn errors(&self) -> &FoundErrors {
        &self.errors
    }

    fn errors_mut(&mut self) -> &mut FoundErrors {
        &mut self.errors
    }

    /// The next event, lexing the next construct when none is waiting.
    ///
    /// A construct a window cut off is lexed again from its start: only once the window is
    /// twice as long (or the last), so that a long one fed in small chunks (a comment, a marked
    /// section, a tag with many attributes) is read a bounded number of times, not once a chunk.
    fn run(&mut self, b: &Window) -> Option<Record> {
        while self.queue.is_empty() {
            let pos = self.machine.pos;
            if !b.eof && (pos, true) == (self.waiting.0, b.end() < self.waiting.1) {
                return None;
            }
            if !self.machine.step(b, &mut self.queue) {
                self.done = b.eof && self.machine.pos >= b.end();
                if !b.eof && self.machine.pos < b.end() {
                    let read = b.end() - self.machine.pos;
                    self.waiting = (self.machine.pos, b.end() + read.max(CUT_READ_AGAIN));
                }
                return None;
            }
        }
        self.current = self.queue.pop_front()?;
        let span = self.current.span();
        Some(Record::text(span, TextKind::Data, span.end))
    }

    fn is_done(&self) -> bool {
        self.done
    }

    fn pos(&self) -> usize {
        self.machine.pos
    }

    /// Where the machine goes on, or the first event still waiting (a tag waits behind the
    /// problems found in it).
    fn retention(&self) -> usize {
        let waiting = self.queue.iter().map(|e| e.span().start).min();
        waiting.map_or(self.machine.pos, |start| start.min(self.machine.pos))
    }

    fn attrs(&self) -> &[AttrRecord] {
        &[]
    }

    fn doctype(&self) -> &DoctypeRecord {
        &self.doctype
    }

    /// Nothing: the machine hands out data up to a seam itself.
    fn flush_text_at_seam(&mut self, _: &Window) -> Option<Record> {
        None
    }

    fn keep_at_seam(&mut self, _: &Window) {}

    fn keep_at_seam_inline(&mut self, _: &Window) {}

    fn waits_for_next_chunk(&mut self, _: &Window) -> bool {
        false
    }

    fn settle_before_seam(&mut self, _: &Window) {}

    fn resume_cut_token(&mut self) -> bool {
        false
    }

    fn wait_for_cut_token_again(&mut self) {}

    fn cut_token_end(_: &[u8], _: &[u8]) -> Option<usize> {
        None
    }

    fn lane_open(&self) -> bool {
        false
    }

    fn lex_lane(&mut self, _: &Window) -> Lexeme {
        Lexeme::Elsewhere
    }

    fn raw_lane_open(&self) -> bool {
        false
    }

    fn lex_raw_lane(&mut self, _: &Window) -> Lexeme {
        Lexeme::Elsewhere
    }
}
