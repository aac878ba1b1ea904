//! Every byte handed out ([`Options::lossless`](crate::Options::lossless)): the bytes that belong
//! to no token come out as [`Token::Raw`] items in their place, so that a writer reproduces the
//! input by copying raw bytes.
//!
//! The driver does this for every dialect without knowing why bytes were left out (`</>`, the
//! delimiters of a CDATA section, a tag cut off by the end of input, a stripped byte order mark…):
//! it remembers how far the items it handed out reach (`covered`), and hands out what lies between
//! that and the next token, or the end of what the feed has settled, as raw items first. A token
//! found after such a gap waits in `queued` while the raw item goes out.
//!
//! The bytes of a gap stay readable until the consumer has them: they lie in the window the
//! machine reads, in a window it left in this feed (`left`), in the byte order mark, or in what
//! the last feed owed ([`Owed`]). Where a feed would let go of bytes not handed out yet — a pause
//! (the iterator dropped early) or the end of a window that went wholly into the carry — it copies
//! them, with the token the consumer had not received yet, into [`Owed`], and the next feed hands
//! them out before anything else.
//!
//! Most of the time the check costs nothing: the lanes (the direct ways through text and plain
//! tags) hand out tokens that start where the last one ended, so once the items reach where the
//! machine goes on and nothing waits, the iterator reads on unchecked, as without lossless
//! (`plain`). Only the state functions drop bytes: when the lanes leave a token to them, the
//! driver takes the machine's retention as how far the items reach, checks their token, and the
//! next call is checked again ([`Pull::next_lossless`]).
//!
//! Off (the default), none of this runs: the hot path tests one flag (`plain`) that it tests
//! anyway, and the cold ones a second.

use crate::dialect::{Dialect, Lexer};
use crate::span::{AttrRecord, DoctypeRecord, Span, TextKind};
use crate::token::{
    Comment, Doctype, EndTag, ProcessingInstruction, Raw, Source, StartTag, Text, Token,
};

use super::{BOM, Phase, Pull};

/// What a lossless stream owes its consumer at the start of a feed: bytes from `base` on that no
/// item has handed out yet, and the token among them the consumer had not received.
#[derive(Default)]
pub(super) struct Owed {
    /// The stream offset of `bytes[0]`.
    pub(super) base: usize,
    pub(super) bytes: Vec<u8>,
    pub(super) token: Option<Deferred>,
}

impl Owed {
    pub(super) fn clear(&mut self) {
        self.bytes.clear();
        self.token = None;
    }
}

/// A token the consumer had not received when its feed let go of the bytes: its parts as stream
/// offsets, rebuilt over [`Owed::bytes`] in the next feed.
pub(super) enum Deferred {
    Doctype(Span, DoctypeRecord),
    StartTag {
        span: Span,
        name: Span,
        attrs: Vec<AttrRecord>,
        self_closing: bool,
    },
    EndTag(Span, Span),
    Comment(Span, Span),
    Text(Span, TextKind),
    Pi(Span, Span, Span),
    Raw(Span),
}

impl Deferred {
    fn of(token: &Token<'_>) -> Deferred {
        match *token {
            Token::Doctype(t) => Deferred::Doctype(t.span, *t.parts),
            Token::StartTag(t) => Deferred::StartTag {
                span: t.span,
                name: t.name,
                attrs: t.attrs.to_vec(),
                self_closing: t.self_closing,
            },
            Token::EndTag(t) => Deferred::EndTag(t.span, t.name),
            Token::Comment(t) => Deferred::Comment(t.span, t.data),
            Token::Text(t) => Deferred::Text(t.span, t.kind),
            Token::ProcessingInstruction(t) => Deferred::Pi(t.span, t.target, t.data),
            Token::Raw(t) => Deferred::Raw(t.span),
        }
    }

    /// The token again, borrowing `src` (which holds its bytes) and its arena.
    fn rebuild<'t>(&self, src: &'t Source<'t>) -> Token<'t> {
        match self {
            Deferred::Doctype(span, parts) => Token::Doctype(Doctype {
                src,
                span: *span,
                parts: src.arena.alloc(*parts),
            }),
            Deferred::StartTag {
                span,
                name,
                attrs,
                self_closing,
            } => Token::StartTag(StartTag {
                src,
                span: *span,
                name: *name,
                attrs: src.arena.alloc_slice_copy(attrs),
                self_closing: *self_closing,
            }),
            Deferred::EndTag(span, name) => Token::EndTag(EndTag {
                src,
                span: *span,
                name: *name,
            }),
            Deferred::Comment(span, data) => Token::Comment(Comment {
                src,
                span: *span,
                data: *data,
            }),
            Deferred::Text(span, kind) => Token::Text(Text {
                src,
                span: *span,
                kind: *kind,
            }),
            Deferred::Pi(span, target, data) => {
                Token::ProcessingInstruction(ProcessingInstruction {
                    src,
                    span: *span,
                    target: *target,
                    data: *data,
                })
            }
            Deferred::Raw(span) => Token::Raw(Raw { src, span: *span }),
        }
    }
}

/// `src`'s end as a stream offset.
fn end(src: &Source<'_>) -> usize {
    src.base + src.bytes.len()
}

impl<'t, D: Dialect> Pull<'t, D> {
    /// `token`, read from a ready window with nothing queued, if it starts where the last item
    /// ended (the common case, inlined into the iterator); otherwise the raw item for the gap
    /// before it, or the end of the feed's.
    #[inline(always)]
    pub(super) fn covering(&mut self, token: Option<Token<'t>>) -> Option<Token<'t>> {
        match token {
            Some(t) if t.span().start == *self.covered => {
                *self.covered = t.span().end;
                token
            }
            _ => self.uncovered(token),
        }
    }

    /// [`Pull::covering`] when a gap lies before `token`, or the feed has no more tokens.
    #[inline(never)]
    fn uncovered(&mut self, token: Option<Token<'t>>) -> Option<Token<'t>> {
        match token {
            Some(token) => {
                self.queued = Some(token);
                self.next_after_gap()
            }
            None => self.raw_at_end_of_feed(),
        }
    }

    /// The next item of a lossless stream, checked: what the last feed owed, a raw item for a
    /// gap, or the next token. When the items then reach where the machine goes on and nothing
    /// waits, the iterator reads on unchecked (`plain`) until something happens off the lanes.
    #[inline(never)]
    pub(super) fn next_lossless(&mut self) -> Option<Token<'t>> {
        let item = if self.queued.is_some() {
            self.next_after_gap()
        } else {
            let token = self.next_lexed();
            self.covering(token)
        };
        self.plain = self.ready
            && self.queued.is_none()
            && self.limit_error.is_none()
            && self.machine.retention() == *self.covered;
        item
    }

    /// The state functions' next token while the iterator read unchecked: the items handed out
    /// since the last check were the lanes' tokens, which leave no gaps, so they reach where the
    /// machine goes on from. The state functions may drop bytes (`</>`, a CDATA section's
    /// delimiters…): their token is checked, and the next call is again.
    #[cold]
    #[inline(never)]
    pub(super) fn lossless_state_functions_token(
        &mut self,
        src: &'t Source<'t>,
    ) -> Option<Token<'t>> {
        *self.covered = self.machine.retention();
        // Checked from here on (nothing the state functions do sets it again: under lossless
        // only `next_lossless` does).
        self.plain = false;
        let token = self.lex_in_state_functions(src);
        self.covering(token)
    }

    /// [`Pull::next_lossless`] when a gap lies before the queued token.
    #[inline(never)]
    fn next_after_gap(&mut self) -> Option<Token<'t>> {
        loop {
            if let Some(token) = self.queued {
                let start = token.span().start;
                if *self.covered < start
                    && let Some(raw) = self.raw_up_to(start)
                {
                    return Some(raw);
                }
                self.queued = None;
                *self.covered = token.span().end.max(*self.covered);
                return Some(token);
            }
            match self.next_lexed() {
                Some(token) => self.queued = Some(token),
                None => return self.raw_at_end_of_feed(),
            }
        }
    }

    /// The bytes from `covered` towards `to` that one buffer holds, as a raw item. (`None` would
    /// be a bug: the bytes are held until handed out. The fuzz target, built with debug
    /// assertions, checks it; a release build goes on without them rather than panic.)
    fn raw_up_to(&mut self, to: usize) -> Option<Token<'t>> {
        let from = *self.covered;
        let Some(src) = self.source_holding(from) else {
            debug_assert!(false, "lossless: the bytes from {from} are not held");
            *self.covered = to;
            return None;
        };
        let span = Span {
            start: from,
            end: to.min(end(src)),
        };
        *self.covered = span.end;
        Some(Token::Raw(Raw { src, span }))
    }

    /// At the end of a feed: the settled bytes no token took (all of them at the end of input),
    /// as a raw item, or `None` when there are none (or they wait in the carry: the next feed
    /// owes them).
    fn raw_at_end_of_feed(&mut self) -> Option<Token<'t>> {
        if self.limit_error.is_some() {
            return None;
        }
        let settled = if self.machine.is_done() {
            self.held.chunk_base + self.held.chunk.len()
        } else {
            self.machine.retention()
        };
        let from = *self.covered;
        if from < settled && self.source_holding(from).is_some() {
            return self.raw_up_to(settled);
        }
        None
    }

    /// A buffer that holds the byte at stream offset `at` for as long as the feed's tokens live.
    fn source_holding(&mut self, at: usize) -> Option<&'t Source<'t>> {
        if let Some(bom) = self.side.bom()
            && at < bom.end
        {
            let src: &'t Source<'t> = self.arena.alloc(Source::new(BOM, 0, self.arena, D::XML));
            return Some(src);
        }
        let candidates = [
            self.owed_src,
            Some(self.window),
            self.frozen_src,
            self.left,
            Some(self.chunk_src),
        ];
        candidates
            .into_iter()
            .flatten()
            .find(|src| src.base <= at && at < end(src))
    }

    /// The feed is about to let go of the bytes before `until`: copy those not handed out yet,
    /// and the token the consumer has not received, into what the next feed owes (which then
    /// counts them as handed out: the next feed starts again from them).
    pub(super) fn owe_before(&mut self, until: usize) {
        let until = match self.queued {
            Some(token) => until.max(token.span().end),
            None => until,
        };
        let from = *self.covered;
        if self.owe.bytes.is_empty() {
            self.owe.base = from;
        }
        if let Some(token) = self.queued.take() {
            self.owe.token = Some(Deferred::of(&token));
        }
        let mut at = from;
        while at < until {
            let piece = match self.source_holding(at) {
                Some(src) => &src.bytes[at - src.base..],
                // The carried buffer, still growing: read, not borrowed.
                None => {
                    let held = self.held.window(Phase::Frozen);
                    match at.checked_sub(held.base).and_then(|i| held.bytes.get(i..)) {
                        Some(rest) if !rest.is_empty() => rest,
                        _ => {
                            debug_assert!(false, "lossless: the bytes from {at} are not held");
                            break;
                        }
                    }
                }
            };
            let take = piece.len().min(until - at);
            self.owe.bytes.extend_from_slice(&piece[..take]);
            at += take;
        }
        *self.covered = until.max(from);
    }

    /// At the start of a feed: what the last one owed, as the source its items borrow, with the
    /// token the consumer had not received queued.
    pub(super) fn take_owed(&mut self, owed: &'t Owed) {
        if owed.bytes.is_empty() && owed.token.is_none() {
            return;
        }
        let src: &'t Source<'t> =
            self.arena
                .alloc(Source::new(&owed.bytes, owed.base, self.arena, D::XML));
        self.owed_src = Some(src);
        self.queued = owed.token.as_ref().map(|token| token.rebuild(src));
        *self.covered = owed.base;
    }
}
