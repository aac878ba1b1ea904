//! The HTML dialect on the shared driver: WHATWG HTML §13.2.5's state machine
//! ([`super::machine`]) as its [`Lexer`], the tree-builder simulator ([`super::simulator`]) as its
//! feedback stage, and HTML's seam rule.

use super::machine::{Config, Machine};
use super::simulator::Simulator;
use crate::dialect::{Dialect, Lexer};
use crate::error::FoundErrors;
use crate::lex::cut_tag_end;
use crate::options::Options;
use crate::scan::find1;
use crate::span::{AttrRecord, DoctypeRecord, Lexeme, Record, Window};

/// The HTML dialect.
pub(crate) struct Html;

impl Dialect for Html {
    type Lexer = Machine;
    type Stage = Simulator;
    const XML: bool = false;
    const INLINE_LEXING: bool = false;

    fn lexer(options: &Options) -> Machine {
        Machine::new(Config {
            errors: options.errors,
            legacy_pi: options.html.legacy_pi,
            max_errors: options.max_errors,
        })
    }

    fn stage(options: &Options) -> Simulator {
        Simulator::new(options.html.simulate, options.html.scripting)
    }
}

impl Lexer for Machine {
    fn reset(&mut self, options: &Options) {
        Machine::reset(self);
        self.set_text_state(options.html.initial_state);
        if let Some(name) = &options.html.last_start_tag {
            self.set_last_start_tag(name.as_bytes());
        }
        self.set_cdata_allowed(options.html.cdata_allowed);
    }

    #[inline(always)]
    fn start_at(&mut self, offset: usize) {
        Machine::start_at(self, offset);
    }

    #[inline(always)]
    fn errors_on(&self) -> bool {
        self.config.errors
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
        Machine::retention(self)
    }

    #[inline(always)]
    fn attrs(&self) -> &[AttrRecord] {
        &self.attrs.list
    }

    #[inline(always)]
    fn doctype(&self) -> &DoctypeRecord {
        &self.doctype
    }

    #[inline(always)]
    fn flush_text_at_seam(&mut self, b: &Window) -> Option<Record> {
        Machine::flush_text_at_seam(self, b)
    }

    #[inline(always)]
    fn keep_at_seam(&mut self, b: &Window) {
        self.resolve_last_start_tag(b);
    }

    #[inline(always)]
    fn keep_at_seam_inline(&mut self, b: &Window) {
        self.resolve_last_start_tag_inline(b);
    }

    #[inline(always)]
    fn waits_for_next_chunk(&mut self, b: &Window) -> bool {
        Machine::waits_for_next_chunk(self, b)
    }

    #[inline(always)]
    fn settle_before_seam(&mut self, b: &Window) {
        self.settle_attributes(b);
    }

    #[inline(always)]
    fn resume_cut_token(&mut self) -> bool {
        self.resume_cut_tag()
    }

    #[inline(always)]
    fn wait_for_cut_token_again(&mut self) {
        self.wait_for_cut_tag_again();
    }

    /// The index of the first `>`, or for a comment, of the first `>` after `--` or `--!`
    /// (looking back into `carried` across the seam). Should a `>` inside a quoted value or a
    /// `<!--!>` mislead this, the lane finds the token unfinished and the fixed buffer's end is
    /// left as any window's.
    fn cut_token_end(carried: &[u8], chunk: &[u8]) -> Option<usize> {
        let mut k = cut_tag_end(chunk)?;
        if !carried.starts_with(b"<!--") {
            return Some(k);
        }
        // The byte `n` places before the `>`.
        let back = |k: usize, n: usize| match k.checked_sub(n) {
            Some(i) => chunk.get(i).copied(),
            None => carried.len().checked_sub(n - k).map(|i| carried[i]),
        };
        loop {
            let ends = match back(k, 1) {
                Some(b'-') => back(k, 2) == Some(b'-'),
                Some(b'!') => back(k, 2) == Some(b'-') && back(k, 3) == Some(b'-'),
                _ => false,
            };
            if ends {
                return Some(k);
            }
            k += 1 + find1(b'>', &chunk[k + 1..])?;
        }
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
        Machine::raw_lane_open(self)
    }

    #[inline(always)]
    fn lex_raw_lane(&mut self, b: &Window) -> Lexeme {
        Machine::lex_raw_lane(self, b)
    }
}
