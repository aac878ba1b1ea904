//! Entity expansion in the tree stage: references to the internal subset's general entities
//! ([`super::super::subset`]) expanded in text and in attribute values, with the limits of
//! [`TreeOptions`](super::TreeOptions).
//!
//! Only documents whose internal subset declares a general entity (or parsed with
//! [`html_entities`](super::TreeOptions::html_entities) off) come here: for the others the
//! stage hands text tokens on as the tokenizer made them.
//!
//! In text, a text token of the document with an `&` is held and cut at each reference the
//! stage resolves itself: the pieces between go out as text (decoded as the tokenizer's text
//! is), a declared entity's replacement text is walked token by token as if it stood there
//! (a *level*: its tokens, tokenized once at the DOCTYPE, go through the tree stage like the
//! document's), and a text token of a replacement text is cut the same way, one level deeper.
//! In an attribute value, the value is decoded piece by piece into the stage's string, a
//! replacement text included in it (its references expanded in turn, a `<` kept with an
//! error).
//!
//! Which name means what: a declared entity first, then the five predefined ones, then HTML's
//! named references (unless turned off); anything else stays as written with an
//! `undeclared-entity` error. Each expansion is admitted against the depth limit (the levels
//! and attribute frames open) and the byte limit (replacement text bytes expanded in the
//! document); a reference already being expanded is recursion. A reference not admitted
//! stays as written.

use memchr::memchr;

use crate::refs::entities::{NamedMatch, match_named};
use crate::span::{Span, TextKind};
use crate::token::{
    Comment, Doctype, EndTag, ProcessingInstruction, Source, StartTag, Text, Token,
};
use crate::xml5::machine::MAX_DECLARED_NAME;

use super::super::subset::{Entities, Entity, PREDEFINED, Piece, Skip};
use super::{EntityError, EntityLimit, Events, Phase, Ready, Stage, TreeErrorCode};

/// An entity expansion in progress in text: the entity, its next token, and the text token
/// of it being cut (its span, kind, and where cutting goes on).
#[derive(Clone, Copy, Debug)]
pub(super) struct Level {
    entity: usize,
    next: usize,
    end: usize,
    split: Option<(Span, TextKind, usize)>,
}

/// An attribute value, or a replacement text included in it, being expanded: its entity
/// (`None` for the value as written), its bytes, and how far it is done.
#[derive(Clone, Copy, Debug)]
pub(super) struct AttrFrame {
    entity: Option<usize>,
    span: Span,
    from: usize,
}

/// What one step of expansion gave.
pub(super) enum Step<'t> {
    /// An event.
    Ready(Ready),
    /// Nothing to hand out yet: step again.
    Again,
    /// A token for the stage (from a replacement text, a piece of a text, or the document).
    Token(Token<'t>),
    /// No expansion in progress, and the document's tokens of this feed are out.
    Exhausted,
}

/// What a reference found in text or a value stands for.
#[derive(Clone, Copy, Debug)]
enum Action {
    /// A declared entity: expand it.
    Expand(usize),
    /// Keep it as written, with this error if any.
    Verbatim(Option<TreeErrorCode>),
}

/// What the bytes at an `&` are.
enum Class {
    /// A reference the stage resolves, ending before this offset.
    Found(usize, Action),
    /// Left to the tokenizer's decoding (a numeric, predefined or HTML reference, or no
    /// reference); look on from this offset, after reporting this error if any.
    Skip(usize, Option<TreeErrorCode>),
}

/// The expanded attribute values of the current start tag, by attribute.
pub(super) struct Values<'s> {
    spans: std::slice::Iter<'s, Option<(usize, usize)>>,
    text: &'s str,
}

impl<'s> Values<'s> {
    /// The next attribute's expanded value, `None` when it was not expanded.
    pub(super) fn next(&mut self) -> Option<&'s str> {
        let (start, end) = self.spans.next().copied().flatten()?;
        Some(&self.text[start..end])
    }
}

impl Stage {
    /// Back to no entity, at the start of a document.
    pub(super) fn reset_entities(&mut self) {
        self.pull.set_entities(!self.html_entities);
        self.levels.clear();
        self.origin = None;
        self.expanded = 0;
        self.entity_error = None;
        self.values.clear();
        self.value_spans.clear();
        self.attr_frames.clear();
        self.tail.clear();
        self.tail_complete = false;
    }

    /// The current start tag's expanded values, if any attribute has one.
    pub(super) fn expanded_values(&self) -> Option<Values<'_>> {
        (!self.value_spans.is_empty()).then(|| Values {
            spans: self.value_spans.iter(),
            text: &self.values,
        })
    }

    /// Whether a replacement text of `len` bytes may be expanded `depth` expansions deep, for
    /// the reference at `at`; if so it is counted. The first refusal is the [`EntityError`].
    fn admit(
        &mut self,
        depth: usize,
        len: usize,
        at: usize,
        tokens: &mut super::Tokens<'_>,
    ) -> bool {
        if self.entity_error.is_some() {
            return false;
        }
        let cost = len.max(1);
        let limit = if depth >= self.max_entity_depth {
            Some((EntityLimit::Depth, self.max_entity_depth))
        } else if self.expanded.saturating_add(cost) > self.max_entity_bytes {
            Some((EntityLimit::Bytes, self.max_entity_bytes))
        } else {
            None
        };
        let Some((limit, max)) = limit else {
            self.expanded += cost;
            return true;
        };
        let offset = self.origin.map_or(at, |origin| origin.start);
        self.entity_error = Some(EntityError { limit, max, offset });
        self.report(TreeErrorCode::EntityExpansionLimit, at, tokens);
        false
    }

    /// Whether `entity` is being expanded already (in text or in the value).
    fn expanding(&self, entity: usize) -> bool {
        self.levels.iter().any(|l| l.entity == entity)
            || self.attr_frames.iter().any(|f| f.entity == Some(entity))
    }
}

impl<'t> Events<'t> {
    /// Read the internal subset of the document's DOCTYPE: its entities, and an error for each
    /// declaration skipped.
    #[inline(never)]
    pub(super) fn read_subset(&mut self, doctype: Doctype<'t>) {
        let (Some(subset), Some(span)) = (
            doctype.raw_internal_subset(),
            doctype.internal_subset_span(),
        ) else {
            return;
        };
        let mut entities = std::mem::take(&mut *self.spare);
        entities.read(subset);
        for &(skip, at) in &entities.skipped {
            let code = match skip {
                Skip::ParameterEntity => TreeErrorCode::ParameterEntityNotRead,
                Skip::ExternalEntity => TreeErrorCode::ExternalEntityNotFetched,
                Skip::Declaration => TreeErrorCode::DeclarationSkipped,
                Skip::Malformed => TreeErrorCode::MalformedDeclaration,
            };
            self.stage.report(code, span.start + at, &mut self.tokens);
        }
        if !entities.is_empty() {
            self.stage.pull.set_entities(true);
            self.tokens.declare_names(entities.names());
        }
        // Only the document's first DOCTYPE comes here, and the cell is emptied with the
        // document: it is always empty, and `set` cannot give the table back.
        if let Err(entities) = self.entities.set(entities) {
            *self.spare = entities;
        }
    }

    /// Before the stage sees `token`: hold a text token of the document that may have a
    /// reference to cut at (then true), expand a start tag's attribute values.
    ///
    /// A chunk seam may cut a reference the tokenizer does not know (`&proj` | `ect;`): the
    /// name begun at the end of a held text that ends at the seam is kept back (copied) and
    /// joined to the text token that starts the next chunk; a next chunk that starts with `<`
    /// lets it go as text first ([`Events::resume`]). Should anything else follow it, it goes
    /// first all the same (the token waits in `stashed`).
    #[inline(never)]
    pub(super) fn hold(&mut self, token: Token<'t>) -> bool {
        let tail = !self.stage.tail.is_empty();
        match token {
            Token::Text(text)
                if self.stage.phase == Phase::Main
                    && text.kind() != TextKind::Cdata
                    && (tail || memchr(b'&', text.raw()).is_some()) =>
            {
                let text = self.join_tail(text);
                let text = self.keep_tail(text);
                self.held = Some((text, text.span().start));
                true
            }
            _ if tail => {
                self.stashed = Some(token);
                self.held = Some(self.flush_tail());
                true
            }
            Token::StartTag(tag) => {
                self.expand_values(tag);
                false
            }
            _ => false,
        }
    }

    /// At the start of a feed whose chunk starts with `first`: the bytes kept back go first,
    /// as text, unless the chunk's first token continues them (text, which any byte but `<`
    /// starts).
    pub(super) fn resume(mut self, first: Option<u8>) -> Events<'t> {
        let tail = &self.stage.tail;
        if !tail.is_empty() && (self.stage.tail_complete || first == Some(b'<')) {
            self.held = Some(self.flush_tail());
        }
        self
    }

    /// The events were dropped before the held text was done: what is left of it is kept
    /// back (before a name kept back from it, if any) for the next feed to hand out first.
    pub(super) fn keep_rest(&mut self) {
        let Some((text, at)) = self.held.take() else {
            return;
        };
        let rest = &text.raw()[at - text.span().start..];
        if rest.is_empty() {
            return;
        }
        let tail = std::mem::take(&mut self.stage.tail);
        self.stage.tail_complete = tail.is_empty();
        self.stage.tail.extend_from_slice(rest);
        self.stage.tail.extend_from_slice(&tail);
        self.stage.tail_start = at;
    }

    /// At the end of the input: the name kept back goes as text. Whether there was one.
    #[inline(never)]
    pub(super) fn end_tail(&mut self) -> bool {
        if self.stage.tail.is_empty() {
            return false;
        }
        self.held = Some(self.flush_tail());
        true
    }

    /// The bytes kept back, as a text of their own (in the feed's arena).
    fn flush_tail(&mut self) -> (Text<'t>, usize) {
        let start = self.stage.tail_start;
        let bytes = self.arena.alloc_slice_copy(&self.stage.tail);
        self.stage.tail.clear();
        self.stage.tail_complete = false;
        let src = self
            .arena
            .alloc(Source::new(bytes, start, self.arena, true));
        let span = Span {
            start,
            end: start + bytes.len(),
        };
        let kind = TextKind::Data;
        (Text { src, span, kind }, start)
    }

    /// `text` with the bytes kept back before it, if they are just before it (in the feed's
    /// arena); else those go first, as text, and `text` waits.
    fn join_tail(&mut self, text: Text<'t>) -> Text<'t> {
        let start = self.stage.tail_start;
        if self.stage.tail.is_empty() || start + self.stage.tail.len() != text.span().start {
            return text;
        }
        let mut bytes = bumpalo::collections::Vec::with_capacity_in(
            self.stage.tail.len() + text.raw().len(),
            self.arena,
        );
        bytes.extend_from_slice_copy(&self.stage.tail);
        bytes.extend_from_slice_copy(text.raw());
        self.stage.tail.clear();
        let bytes = bytes.into_bump_slice();
        let src = self
            .arena
            .alloc(Source::new(bytes, start, self.arena, true));
        let span = Span {
            start,
            end: text.span().end,
        };
        Text { src, span, ..text }
    }

    /// `text` without a name begun at its end (`&`, then name bytes to the end), which is kept
    /// back for the next text token.
    fn keep_tail(&mut self, text: Text<'t>) -> Text<'t> {
        let raw = text.raw();
        let window = raw.len().saturating_sub(MAX_DECLARED_NAME + 1);
        let Some(amp) = memchr::memrchr(b'&', &raw[window..]).map(|i| window + i) else {
            return text;
        };
        // At the seam: where the tokenizer stopped reading, which is short of the chunk's end
        // by a character cut there (the name may go on in it).
        let end = text.span().end;
        let at_seam = end == self.stage.fed || end == self.stage.read_to();
        if !at_seam || !raw[amp + 1..].iter().all(|&b| is_name_byte(b)) {
            return text;
        }
        self.stage.tail.extend_from_slice(&raw[amp..]);
        self.stage.tail_start = text.span().start + amp;
        let span = Span {
            start: text.span().start,
            end: text.span().start + amp,
        };
        Text { span, ..text }
    }

    /// One step: the innermost level's next token, the next piece of the held text, the
    /// token that waited for it, or the document's next token (held, if it is a text to cut).
    /// Without entities (the stage's loop comes here to record), the next token, recorded.
    #[inline(never)]
    pub(super) fn expansion_step(&mut self) -> Step<'t> {
        if !self.stage.pull.entities() {
            return self.recorded_step();
        }
        if let Some(&level) = self.stage.levels.last() {
            return self.level_step(level);
        }
        if let Some((text, at)) = self.held.take() {
            let (step, rest) = self.split_step(text, at);
            self.held = rest.map(|at| (text, at));
            return step;
        }
        let next = self.stashed.take().or_else(|| self.pull());
        match next {
            Some(token) if self.hold(token) => Step::Again,
            Some(token) => Step::Token(token),
            None => Step::Exhausted,
        }
    }

    /// The source over the replacement texts, made once per feed in its arena.
    fn table_source(&mut self, entities: &'t Entities) -> &'t Source<'t> {
        if let Some(source) = self.source {
            return source;
        }
        let arena = self.arena;
        let source = &*arena.alloc(Source::new(entities.text.as_bytes(), 0, arena, true));
        self.source = Some(source);
        source
    }

    fn level_step(&mut self, level: Level) -> Step<'t> {
        let index = self.stage.levels.len() - 1;
        let Some(entities) = self.entities.get() else {
            self.stage.levels.clear();
            return Step::Again;
        };
        let src = self.table_source(entities);
        if let Some((span, kind, at)) = level.split {
            let (step, rest) = self.split_step(Text { src, span, kind }, at);
            self.stage.levels[index].split = rest.map(|at| (span, kind, at));
            return step;
        }
        if level.next == level.end {
            self.stage.levels.pop();
            if self.stage.levels.is_empty() {
                self.stage.origin = None;
            }
            return Step::Again;
        }
        self.stage.levels[index].next += 1;
        match entities.pieces[level.next] {
            Piece::Text { span, kind }
                if kind != TextKind::Cdata && memchr(b'&', src.raw(span)).is_some() =>
            {
                self.stage.levels[index].split = Some((span, kind, span.start));
                Step::Again
            }
            piece => match piece_token(piece, src, entities) {
                Ok(token) => {
                    if let Token::StartTag(tag) = token {
                        self.expand_values(tag);
                    }
                    Step::Token(token)
                }
                Err(doctype) => {
                    let code = TreeErrorCode::MisplacedDoctype;
                    self.stage.report(code, doctype.start, &mut self.tokens);
                    Step::Again
                }
            },
        }
    }

    /// The next piece of `text` from stream offset `at`, and where it goes on after (`None`:
    /// it is done).
    fn split_step(&mut self, text: Text<'t>, at: usize) -> (Step<'t>, Option<usize>) {
        let raw = text.raw();
        let base = text.span().start;
        let from = at - base;
        // Outside the root element (a replacement text ended it) the rest is dropped whole,
        // references and all, as the document's text there is.
        let found = match self.stage.phase {
            Phase::Main => self.next_reference(raw, from, base),
            _ => None,
        };
        let Some((amp, end, action)) = found else {
            let step = if from < raw.len() {
                self.piece(text, at, base + raw.len(), false)
            } else {
                Step::Again
            };
            return (step, None);
        };
        if amp > from {
            return (self.piece(text, at, base + amp, false), Some(base + amp));
        }
        let reference = Span {
            start: base + amp,
            end: base + end,
        };
        let step = match action {
            Action::Expand(entity) if self.enter_level(entity, reference) => Step::Again,
            Action::Expand(_) => self.piece(text, reference.start, reference.end, true),
            Action::Verbatim(code) => {
                if let Some(code) = code {
                    self.stage.report(code, reference.start, &mut self.tokens);
                }
                self.piece(text, reference.start, reference.end, true)
            }
        };
        (step, Some(reference.end))
    }

    /// The bytes `start..end` of `text` as text for the stage (which drops it outside the
    /// root element); `verbatim`: a reference kept as written, text in the main phase.
    fn piece(&mut self, text: Text<'t>, start: usize, end: usize, verbatim: bool) -> Step<'t> {
        let piece = Text {
            span: Span { start, end },
            ..text
        };
        if verbatim && self.stage.phase == Phase::Main {
            self.slots.text = Some((piece, true));
            Step::Ready(Ready::Text)
        } else {
            Step::Token(Token::Text(piece))
        }
    }

    /// Start expanding `entity` in text for the reference at `reference`, if admitted.
    fn enter_level(&mut self, entity: usize, reference: Span) -> bool {
        let depth = self.stage.levels.len();
        let Some((_, declared)) = self.admit_expansion(entity, reference, depth) else {
            return false;
        };
        if self.stage.levels.is_empty() {
            self.stage.origin = Some(reference);
        }
        self.stage.levels.push(Level {
            entity,
            next: declared.pieces.0,
            end: declared.pieces.1,
            split: None,
        });
        true
    }

    /// The table and the declared `entity`, if its expansion `depth` expansions deep for the
    /// reference at `reference` is admitted: there is a table, `entity` is not being expanded
    /// already (recursion, reported) and the limits allow it ([`Stage::admit`], which counts it).
    fn admit_expansion(
        &mut self,
        entity: usize,
        reference: Span,
        depth: usize,
    ) -> Option<(&'t Entities, Entity)> {
        let entities = self.entities.get()?;
        if self.stage.expanding(entity) {
            let code = TreeErrorCode::RecursiveEntityReference;
            self.stage.report(code, reference.start, &mut self.tokens);
            return None;
        }
        let declared = entities.entity(entity);
        let len = declared.text.end - declared.text.start;
        let admitted = self
            .stage
            .admit(depth, len, reference.start, &mut self.tokens);
        admitted.then_some((entities, declared))
    }

    /// The first reference in `raw[from..]` the stage resolves itself: its `&`, its end, and
    /// what to do; the references passed over are left to the tokenizer's decoding (after an
    /// error for an undeclared name, at `base` + its offset).
    fn next_reference(
        &mut self,
        raw: &[u8],
        from: usize,
        base: usize,
    ) -> Option<(usize, usize, Action)> {
        let mut i = from;
        while let Some(k) = memchr(b'&', &raw[i..]) {
            let amp = i + k;
            match self.classify(raw, amp) {
                Class::Found(end, action) => return Some((amp, end, action)),
                Class::Skip(next, code) => {
                    if let Some(code) = code {
                        self.stage.report(code, base + amp, &mut self.tokens);
                    }
                    i = next;
                }
            }
        }
        None
    }

    /// What the `&` at `raw[amp]` starts, by the resolution order: a declared entity, a
    /// predefined one, an HTML name (when on), else undeclared.
    fn classify(&self, raw: &[u8], amp: usize) -> Class {
        let after = &raw[amp + 1..];
        let len = after.iter().take_while(|&&b| is_name_byte(b)).count();
        if len == 0 || !after[0].is_ascii_alphabetic() && after[0] < 0x80 && after[0] != b'_' {
            return Class::Skip(amp + 1, None);
        }
        if len > MAX_DECLARED_NAME {
            // No such name is declared, and a seam may cut it where it is not looked for:
            // passed over, with no error, however the input is cut.
            return Class::Skip(amp + 1 + len, None);
        }
        let name = &after[..len];
        let html = self.stage.html_entities;
        if after.get(len) != Some(&b';') {
            // No `;`: not an XML reference; HTML's table still knows names without one.
            return match match_named(after, true) {
                NamedMatch::Found { len, .. } if !html => {
                    Class::Found(amp + 1 + len, Action::Verbatim(None))
                }
                _ => Class::Skip(amp + 1 + len, None),
            };
        }
        let end = amp + len + 2;
        if let Some(entity) = self.entities.get().and_then(|e| e.lookup(name)) {
            return Class::Found(end, Action::Expand(entity));
        }
        if PREDEFINED.contains(&name) {
            return Class::Skip(end, None);
        }
        let undeclared = Some(TreeErrorCode::UndeclaredEntity);
        let in_html = matches!(match_named(&after[..=len], true), NamedMatch::Found { len: l, .. } if l == len + 1);
        match (in_html, html) {
            (true, true) => Class::Skip(end, None),
            (false, true) => Class::Skip(end, undeclared),
            (_, false) => Class::Found(end, Action::Verbatim(undeclared)),
        }
    }

    /// Expand the entities in the attribute values of `tag` into the stage's string (those
    /// without an `&` are left to the tokenizer's decoding).
    pub(super) fn expand_values(&mut self, tag: StartTag<'t>) {
        self.stage.values.clear();
        self.stage.value_spans.clear();
        if !tag
            .attributes()
            .any(|a| memchr(b'&', a.raw_value()).is_some())
        {
            return;
        }
        for attribute in tag.attributes() {
            let span = attribute.value_span();
            let expanded = memchr(b'&', attribute.raw_value()).map(|_| {
                let start = self.stage.values.len();
                self.expand_value(tag.src, span);
                (start, self.stage.values.len())
            });
            self.stage.value_spans.push(expanded);
        }
    }

    /// The value at `span` of `src`, expanded, appended to the stage's string.
    fn expand_value(&mut self, src: &'t Source<'t>, span: Span) {
        let table = self.entities.get();
        self.stage.attr_frames.clear();
        self.stage.attr_frames.push(AttrFrame {
            entity: None,
            span,
            from: 0,
        });
        while let Some(&frame) = self.stage.attr_frames.last() {
            let src = match (frame.entity, table) {
                (Some(_), Some(table)) => self.table_source(table),
                _ => src,
            };
            let raw = src.raw(frame.span);
            let base = frame.span.start;
            let found = self.next_reference(raw, frame.from, base);
            let (upto, next) = found.map_or((raw.len(), raw.len()), |(amp, end, _)| (amp, end));
            let piece = Span {
                start: base + frame.from,
                end: base + upto,
            };
            let decoded = src.decode_attribute_value(piece);
            self.stage.values.push_str(decoded);
            let top = self.stage.attr_frames.len() - 1;
            self.stage.attr_frames[top].from = next;
            let Some((amp, end, action)) = found else {
                self.stage.attr_frames.pop();
                if self.stage.attr_frames.len() == 1 && self.stage.levels.is_empty() {
                    // Back in the value as written: its errors are at their own offsets.
                    self.stage.origin = None;
                }
                continue;
            };
            let reference = Span {
                start: base + amp,
                end: base + end,
            };
            let entered = match action {
                Action::Expand(entity) => self.enter_frame(entity, reference),
                Action::Verbatim(code) => {
                    if let Some(code) = code {
                        self.stage.report(code, reference.start, &mut self.tokens);
                    }
                    false
                }
            };
            if !entered {
                let written = String::from_utf8_lossy(&raw[amp..end]);
                self.stage.values.push_str(&written);
            }
        }
        if self.stage.levels.is_empty() {
            self.stage.origin = None;
        }
    }

    /// Start including `entity` in an attribute value for the reference at `reference`, if
    /// admitted.
    fn enter_frame(&mut self, entity: usize, reference: Span) -> bool {
        let depth = self.stage.levels.len() + self.stage.attr_frames.len() - 1;
        let Some((entities, declared)) = self.admit_expansion(entity, reference, depth) else {
            return false;
        };
        if self.stage.origin.is_none() {
            self.stage.origin = Some(reference);
        }
        let text = &entities.text.as_bytes()[declared.text.start..declared.text.end];
        if memchr(b'<', text).is_some() {
            let code = TreeErrorCode::LessThanInAttributeEntity;
            self.stage.report(code, reference.start, &mut self.tokens);
        }
        self.stage.attr_frames.push(AttrFrame {
            entity: Some(entity),
            span: declared.text,
            from: 0,
        });
        true
    }
}

/// A token of a replacement text, over the source of all of them; for a DOCTYPE (misplaced in
/// content, dropped), its span.
fn piece_token<'t>(
    piece: Piece,
    src: &'t Source<'t>,
    entities: &'t Entities,
) -> Result<Token<'t>, Span> {
    Ok(match piece {
        Piece::Text { span, kind } => Token::Text(Text { src, span, kind }),
        Piece::Start {
            span,
            name,
            attrs,
            self_closing,
        } => Token::StartTag(StartTag {
            src,
            span,
            name,
            attrs: &entities.attrs[attrs.0..attrs.1],
            self_closing,
        }),
        Piece::End { span, name } => Token::EndTag(EndTag { src, span, name }),
        Piece::Comment { span, data } => Token::Comment(Comment { src, span, data }),
        Piece::Pi { span, target, data } => Token::ProcessingInstruction(ProcessingInstruction {
            src,
            span,
            target,
            data,
        }),
        Piece::Doctype { span } => return Err(span),
    })
}

/// A byte of an entity name as the stage reads one: ASCII letters and digits, `_`, `-`, `.`,
/// `:`, and any byte of a non-ASCII character (XML's `NameChar`, loosely).
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':') || b >= 0x80
}
