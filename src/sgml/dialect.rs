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

use crate::dialect::{Dialect, Lexer};
use crate::error::FoundErrors;
use crate::feedback::NoStage;
use crate::options::Options;
use crate::span::{AttrRecord, DoctypeRecord, Lexeme, Record, TextKind, Window};

use super::event::{Channel, LexRecord, Pending};
use super::machine::{Machine, SgmlOptions};

/// A construct a window cut off this long or shorter is lexed again with every window.
const SHORT_CUT: usize = 64;

/// A construct a window cut off, and when to lex it again: while it is short ([`SHORT_CUT`]),
/// with every window, so that it goes out with the chunk that ends it; once longer, only from a
/// window twice as long (or the last). So a long one fed in small chunks (a comment, a marked
/// section, a tag with many attributes) is read a bounded number of times, not once a chunk,
/// and a short one at most [`SHORT_CUT`] times. The price: a long construct cut off by a chunk
/// much shorter than itself goes out a few chunks late.
#[derive(Clone, Copy, Debug)]
struct Cut {
    /// Where the construct starts.
    at: usize,
    /// How many bytes of it the window that cut it held.
    read: usize,
    /// Where that window ended.
    end: usize,
}

impl Cut {
    const NONE: Cut = Cut {
        at: usize::MAX,
        read: 0,
        end: 0,
    };

    /// Whether the construct at `pos` should wait for more than window `b` holds.
    fn waits(&self, pos: usize, b: &Window) -> bool {
        let short = self.read <= SHORT_CUT;
        !(b.eof || short || pos != self.at || b.end() >= self.end + self.read)
    }
}

/// The SGML dialect.
pub(crate) struct Sgml;

impl Dialect for Sgml {
    type Lexer = SgmlLexer;
    type Stage = NoStage<SgmlLexer>;
    const XML: bool = false;
    const INLINE_LEXING: bool = false;

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
    pending: Pending,
    /// The index in `pending` of the event handed out last.
    current: usize,
    done: bool,
    /// The construct the last window cut off.
    cut: Cut,
    /// Always empty: the note's problems are events.
    errors: FoundErrors,
    doctype: DoctypeRecord,
}

impl Default for SgmlLexer {
    fn default() -> SgmlLexer {
        SgmlLexer {
            machine: Machine::default(),
            pending: Pending::default(),
            current: 0,
            done: false,
            cut: Cut::NONE,
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
    pub(crate) fn current(&self) -> (Channel, &[LexRecord]) {
        self.pending.event(self.current)
    }
}

impl Lexer for SgmlLexer {
    fn reset(&mut self, _: &Options) {
        self.machine.pos = 0;
        self.pending.clear();
        self.done = false;
        self.cut = Cut::NONE;
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
    /// A construct a window cut off is lexed again from its start when [`Cut::waits`] no more.
    fn run(&mut self, b: &Window) -> Option<Record> {
        self.pending.clear_if_drained();
        while self.pending.is_drained() {
            let pos = self.machine.pos;
            if self.cut.waits(pos, b) {
                return None;
            }
            if !self.machine.step(b, &mut self.pending) {
                self.done = b.eof && self.machine.pos >= b.end();
                if !b.eof && self.machine.pos < b.end() {
                    self.cut = Cut {
                        at: self.machine.pos,
                        read: b.end() - self.machine.pos,
                        end: b.end(),
                    };
                }
                return None;
            }
        }
        let (current, span) = self.pending.pop()?;
        self.current = current;
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
        let waiting = self.pending.first_waiting();
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
