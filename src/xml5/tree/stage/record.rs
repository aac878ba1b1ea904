//! The opt-in record of the document's tokens ([`Events::recording`]): each token the stage
//! takes from the tokenizer, kept with the error counts that place its errors, for a caller
//! that shows the tokens alongside the events (`tagstream tokens --dialect xml5 --tree`).
//!
//! Off, it costs nothing: the test that sends each token the plain way (no entity expansion)
//! is the one it was without the record ([`Pull`]).

use crate::token::Token;

use super::Events;
use super::expand::Step;

/// A token of the document the stage took from the tokenizer, recorded by
/// [`Events::recording`], with where its parse errors stand: the tokenizer's errors found for
/// it are those held when it was taken ([`Pulled::errors`], counted since the last
/// [`Events::drain_errors`]), and the tree stage's errors about it are those reported after
/// [`Pulled::tree_errors`] and before the next token is taken.
///
/// Only the input's tokens are recorded, not those of entities' replacement texts.
#[derive(Clone, Copy, Debug)]
pub struct Pulled<'t> {
    /// The token, as the tokenizer made it (spans in the stream).
    pub token: Token<'t>,
    /// How many tokenizer errors were held just after the token was made.
    pub errors: usize,
    /// How many tree-stage errors were held just before the stage saw the token.
    pub tree_errors: usize,
}

impl<'t> Events<'t> {
    /// Record every token of the input the stage takes from the tokenizer, to be read with
    /// [`Events::take_pulled`] (off by default; off, nothing is kept). After the depth limit
    /// stopped the stream ([`DepthError`](super::DepthError)), the tokens left are recorded
    /// too, though the stage takes none of them. The record holds at most the tokens of one
    /// feed.
    ///
    /// Each event is made from the tokens taken since the one before, so taking them after
    /// every event pairs each with what the stage did with it: a start tag is the next
    /// [`Event::Start`](super::Event::Start) (or was dropped), an end tag the next
    /// [`Event::End`](super::Event::End)s (or was dropped), text, comments and processing
    /// instructions land in the element open when they were taken.
    ///
    /// ```
    /// use tagstream::{Options, Token};
    /// use tagstream::xml5::tree::{Event, Parser, TreeOptions};
    ///
    /// let mut parser = Parser::new(Options::new(), TreeOptions::new());
    /// let mut events = parser.parse(b"<r>a</x></r>").recording();
    /// let mut seen = Vec::new();
    /// while let Some(event) = events.next_event() {
    ///     let start = matches!(event, Event::Start(_));
    ///     for pulled in events.take_pulled() {
    ///         seen.push((pulled.token.span().start, start));
    ///     }
    /// }
    /// // `</x>` (at 4) names no open element: taken with `</r>`, before the end of `r`.
    /// assert_eq!(seen, [(0, true), (3, false), (4, false), (8, false)]);
    /// ```
    pub fn recording(self) -> Events<'t> {
        self.stage.pull.set_recording(true);
        self
    }

    /// The tokens recorded since the last call, in stream order (none unless
    /// [`Events::recording`]).
    pub fn take_pulled(&mut self) -> std::vec::Drain<'_, Pulled<'t>> {
        self.record.drain(..)
    }

    /// The tokenizer's next token, recorded when recording.
    #[inline(always)]
    pub(super) fn pull(&mut self) -> Option<Token<'t>> {
        let token = self.tokens.next();
        if self.stage.pull.recording() {
            self.record(token);
        }
        token
    }

    /// The next token, recorded, as a step of the stage's loop without entities (out of line,
    /// so that the loop compiles as it did without the record).
    #[cold]
    #[inline(never)]
    pub(super) fn recorded_step(&mut self) -> Step<'t> {
        match self.pull() {
            Some(token) => Step::Token(token),
            None => Step::Exhausted,
        }
    }

    /// The stream stopped at the depth limit: when recording, the feed's tokens left are
    /// recorded all the same (the stage takes none of them), so that the record still holds
    /// every token of the input.
    #[cold]
    #[inline(never)]
    pub(super) fn record_rest(&mut self) {
        if self.stage.pull.recording() {
            while self.pull().is_some() {}
        }
    }

    /// Keep `token` in the record (out of line: the stage's loop keeps only the test).
    #[cold]
    #[inline(never)]
    fn record(&mut self, token: Option<Token<'t>>) {
        if let Some(token) = token {
            self.record.push(Pulled {
                token,
                errors: self.tokens.errors().len(),
                tree_errors: self.stage.errors.len(),
            });
        }
    }
}

/// How the stage takes the document's tokens: plainly (one test per token), or through entity
/// expansion, or recording them, or both.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pull {
    bits: u8,
}

impl Pull {
    const ENTITIES: u8 = 1;
    const RECORDING: u8 = 2;

    pub(super) fn new(entities: bool) -> Pull {
        let mut pull = Pull { bits: 0 };
        pull.set_entities(entities);
        pull
    }

    /// Neither expanding entities nor recording.
    #[inline(always)]
    pub(super) fn plain(self) -> bool {
        self.bits == 0
    }

    /// Expanding entities.
    #[inline(always)]
    pub(super) fn entities(self) -> bool {
        self.bits & Pull::ENTITIES != 0
    }

    /// Recording the tokens taken.
    #[inline(always)]
    pub(super) fn recording(self) -> bool {
        self.bits & Pull::RECORDING != 0
    }

    pub(super) fn set_entities(&mut self, on: bool) {
        self.set(Pull::ENTITIES, on);
    }

    pub(super) fn set_recording(&mut self, on: bool) {
        self.set(Pull::RECORDING, on);
    }

    fn set(&mut self, bit: u8, on: bool) {
        match on {
            true => self.bits |= bit,
            false => self.bits &= !bit,
        }
    }
}
