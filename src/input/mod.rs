//! The raw input stream, below tokenization: UTF-8 validity, lossy decoding, line and column
//! numbers, and the HTML Standard's input-stream checks.
//!
//! The tokenizer reads bytes fed in chunks of any size (down to one byte) and names places in them
//! by absolute stream offset (counted from the first byte ever fed). Everything here works on that
//! model: each piece carries across chunk seams the little it needs (a code point cut in two, a
//! CR whose LF may follow) and never keeps the bytes themselves.
//!
//! - [`Utf8Stream`]: is everything fed so far valid UTF-8? (Decides whether text can be handed
//!   out as borrowed `&str` slices.)
//! - [`valid_str`] and [`push_lossy`]: a byte span as text, borrowed when it is valid UTF-8,
//!   otherwise with each invalid sequence replaced by U+FFFD as the WHATWG UTF-8 decoder does.
//! - [`LineCounter`]: byte offset to [`Position`](crate::error::Position) (line, and column in
//!   UTF-16 code units, as html5lib-tests counts them), computed lazily when an error needs one.
//! - [`InputChecker`]: the `control-character-in-input-stream` and `noncharacter-in-input-stream`
//!   errors of "Preprocessing the input stream".
//!
//! All of them agree on how bytes decode: the WHATWG Encoding Standard's UTF-8 decoder, one U+FFFD
//! per maximal invalid subpart (the practice std's `utf8_chunks` follows too). Bulk work goes
//! through simdutf8 and memchr; the byte-by-byte decoder is only the exact path for invalid input
//! and for code points cut by chunk seams.

mod checks;
mod decoder;
mod lines;
mod utf8;

pub(crate) use checks::InputChecker;
pub(crate) use decoder::incomplete_tail_len;
pub(crate) use lines::LineCounter;
pub(crate) use utf8::{Utf8Stream, push_lossy, valid_str};
