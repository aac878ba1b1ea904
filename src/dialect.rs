//! The seam between the shared streaming machinery and a markup dialect.
//!
//! The driver (the tokenizer module: carry-over between chunks, pause and resume, memory limits,
//! positions, parse-error ordering, the pull iterator) is written once, generic over a
//! [`Dialect`], and monomorphized: no dynamic dispatch on the hot path. A dialect brings its
//! lexer (states, byte classes, actions, fast lanes, the rules for where a chunk seam may cut a
//! token) as a [`Lexer`], and its tree stage as a [`Feedback`]. The public tokenizers are thin
//! types over the driver for one dialect each: [`crate::Tokenizer`] for HTML,
//! [`crate::xml5::Tokenizer`] for XML5.

use crate::error::FoundErrors;
use crate::feedback::Feedback;
use crate::options::Options;
use crate::span::{AttrRecord, DoctypeRecord, Lexeme, Record, Window};

/// A markup dialect: its lexer and its tree stage.
pub(crate) trait Dialect {
    /// The states and actions.
    type Lexer: Lexer;
    /// What watches the tokens between the lexer and the caller (see [`Feedback`]).
    type Stage: Feedback<Lexer = Self::Lexer>;

    /// Whether tokens decode by XML5's rules (see [`crate::token::Source::xml`]): names keep
    /// their case, NUL in text becomes U+FFFD. A constant, so HTML's paths pay nothing for it.
    const XML: bool;

    /// Whether a token's lexing ([`crate::tokenizer`]'s lanes) is inlined into the consumer's
    /// loop rather than called: XML5's consumers gain by it, HTML's lose (the comment on
    /// `Pull::next_token` has the numbers).
    const INLINE_LEXING: bool;

    /// A lexer configured by `options`, before its first stream.
    fn lexer(options: &Options) -> Self::Lexer;

    /// A tree stage configured by `options`, before its first stream.
    fn stage(options: &Options) -> Self::Stage;
}

/// What the driver asks of a dialect's state machine. The machine reads a [`Window`] of the
/// stream and makes [`Record`]s; it keeps all of its state between calls, so the next call goes
/// on exactly where the last one stopped, whatever the chunking.
pub(crate) trait Lexer {
    /// Back to the start of a stream in the state `options` ask for, keeping allocations.
    fn reset(&mut self, options: &Options);

    /// Start reading at stream offset `offset` (after a stripped byte order mark).
    fn start_at(&mut self, offset: usize);

    /// Whether parse errors are detected.
    fn errors_on(&self) -> bool;

    /// The errors found and not yet taken by the driver.
    fn errors(&self) -> &FoundErrors;

    /// [`Lexer::errors`], to take them.
    fn errors_mut(&mut self) -> &mut FoundErrors;

    /// Run the state functions over `b` to the next record, or `None` when `b` is read to its end
    /// (or the input is over).
    fn run(&mut self, b: &Window) -> Option<Record>;

    /// Whether the input is over and everything handed out.
    fn is_done(&self) -> bool;

    /// The stream offset the machine reads next.
    fn pos(&self) -> usize;

    /// The earliest stream offset the machine may still need.
    fn retention(&self) -> usize;

    /// The attributes of the start tag just recorded.
    fn attrs(&self) -> &[AttrRecord];

    /// The parts of the DOCTYPE just recorded.
    fn doctype(&self) -> &DoctypeRecord;

    /// At the end of a window that is not the last: the pending text that can go out now.
    fn flush_text_at_seam(&mut self, b: &Window) -> Option<Record>;

    /// At a seam: keep what the machine still needs of the window's bytes before it goes.
    fn keep_at_seam(&mut self, b: &Window);

    /// [`Lexer::keep_at_seam`], inlined where every seam runs it.
    fn keep_at_seam_inline(&mut self, b: &Window);

    /// Whether the state functions would read nothing more from `b` (see
    /// [`Lexer::settle_before_seam`]).
    fn waits_for_next_chunk(&mut self, b: &Window) -> bool;

    /// What `run` would have done before finding nothing more to read.
    fn settle_before_seam(&mut self, b: &Window);

    /// Whether the machine waits at the start of a token a seam cut off, to lex it whole once the
    /// next chunk brings its end; if so, it reads on from there.
    fn resume_cut_token(&mut self) -> bool;

    /// Wait at the cut token again: the chunk brought no end for it.
    fn wait_for_cut_token_again(&mut self);

    /// Where a token a seam cut off (its bytes so far: `carried`) may end in the next chunk: the
    /// index in `chunk` of the byte that may end it. A guess that only decides how much is copied:
    /// the machine lexes the token again and finds out.
    fn cut_token_end(carried: &[u8], chunk: &[u8]) -> Option<usize>;

    /// Whether the direct lane may lex the next token.
    fn lane_open(&self) -> bool;

    /// The direct lane: the next token lexed straight from `b`, or [`Lexeme::Elsewhere`].
    fn lex_lane(&mut self, b: &Window) -> Lexeme;

    /// Whether the raw-text lane may lex the next token.
    fn raw_lane_open(&self) -> bool;

    /// The raw-text lane, as [`Lexer::lex_lane`].
    fn lex_raw_lane(&mut self, b: &Window) -> Lexeme;
}
