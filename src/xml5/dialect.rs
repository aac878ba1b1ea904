//! The XML5 dialect on the shared driver: the draft's state machine ([`super::machine`]) as its
//! [`Lexer`], a feedback stage that looks at nothing ([`NoStage`], until the namespace and tree stage), and
//! XML5's seam rules.

use crate::dialect::{Dialect, Lexer};
use crate::error::FoundErrors;
use crate::feedback::NoStage;
use crate::lex::cut_tag_end;
use crate::options::Options;
use crate::span::{AttrRecord, DoctypeRecord, Lexeme, Record, Window};

use super::machine::Machine;

/// The XML5 dialect.
pub(crate) struct Xml5;

impl Dialect for Xml5 {
    type Lexer = Machine;
    type Stage = NoStage<Machine>;
    const XML: bool = true;
    const INLINE_LEXING: bool = true;

    fn lexer(options: &Options) -> Machine {
        Machine::new(options.errors, options.max_errors)
    }

    fn stage(_: &Options) -> NoStage<Machine> {
        NoStage::default()
    }
}

/// XML5 has one fast lane (see `lane.rs`), which waits at a tag a seam cuts off for the next
/// chunk to bring its end, as HTML's does; any other token a seam cuts is carried and read on by
/// the state functions.
impl Lexer for Machine {
    fn reset(&mut self, _: &Options) {
        Machine::reset(self);
    }

    fn start_at(&mut self, offset: usize) {
        Machine::start_at(self, offset);
    }

    #[inline(always)]
    fn errors_on(&self) -> bool {
        self.errors_on
    }

    #[inline(always)]
    fn errors(&self) -> &FoundErrors {
        &self.errors
    }

    #[inline(always)]
    fn errors_mut(&mut self) -> &mut FoundErrors {
        &mut self.errors
    }

    #[inline(always)]
    fn run(&mut self, b: &Window) -> Option<Record> {
        Machine::run(self, b)
    }

    #[inline(always)]
    fn is_done(&self) -> bool {
        Machine::is_done(self)
    }

    #[inline(always)]
    fn pos(&self) -> usize {
        self.pos
    }

    #[inline(always)]
    fn retention(&self) -> usize {
        self.text_start
    }

    #[inline(always)]
    fn attrs(&self) -> &[AttrRecord] {
        &self.attrs
    }

    #[inline(always)]
    fn doctype(&self) -> &DoctypeRecord {
        &self.doctype
    }

    fn flush_text_at_seam(&mut self, b: &Window) -> Option<Record> {
        Machine::flush_text_at_seam(self, b)
    }

    fn keep_at_seam(&mut self, _: &Window) {}

    fn keep_at_seam_inline(&mut self, _: &Window) {}

    #[inline(always)]
    fn waits_for_next_chunk(&mut self, b: &Window) -> bool {
        Machine::waits_for_next_chunk(self, b)
    }

    fn settle_before_seam(&mut self, _: &Window) {}

    #[inline(always)]
    fn resume_cut_token(&mut self) -> bool {
        self.resume_cut_tag()
    }

    #[inline(always)]
    fn wait_for_cut_token_again(&mut self) {
        self.wait_for_cut_tag_again();
    }

    /// The first `>`: the lane waits only at tags (see `lane.rs`).
    fn cut_token_end(_: &[u8], chunk: &[u8]) -> Option<usize> {
        cut_tag_end(chunk)
    }

    #[inline(always)]
    fn lane_open(&self) -> bool {
        Machine::lane_open(self)
    }

    #[inline(always)]
    fn lex_lane(&mut self, b: &Window) -> Lexeme {
        Machine::lex_lane(self, b)
    }

    #[inline(always)]
    fn raw_lane_open(&self) -> bool {
        false
    }

    fn lex_raw_lane(&mut self, _: &Window) -> Lexeme {
        Lexeme::Elsewhere
    }
}
