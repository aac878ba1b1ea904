//! The vocabulary of a resumable state machine, shared by the dialects' lexers: what a state
//! function tells its run loop, and the lookahead for a keyword that a window may cut off.

use crate::span::Window;

/// What a state function tells the driver loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Keep going: the state or position changed.
    Continue,
    /// A record is ready in the lexer's output slot.
    Emit,
    /// The window ended before the state could decide; feed more bytes.
    NeedMore,
}

/// Whether the window at `pos` starts with `word` (ASCII case-insensitively when `fold`): `Some(true)`
/// or `Some(false)` once decided, `None` when the window ends first and more input may come.
pub(crate) fn lookahead(b: &Window, pos: usize, word: &[u8], fold: bool) -> Option<bool> {
    let rest = b.rest(pos);
    let n = rest.len().min(word.len());
    let same = if fold {
        rest[..n].eq_ignore_ascii_case(&word[..n])
    } else {
        rest[..n] == word[..n]
    };
    if !same {
        Some(false)
    } else if n == word.len() {
        Some(true)
    } else if b.eof {
        Some(false)
    } else {
        None
    }
}
