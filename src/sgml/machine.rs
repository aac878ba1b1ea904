//! The SGML note's states: data, tags and attributes, markup and comment declarations, marked
//! sections, references, processing instructions. Each step lexes one construct from a window of
//! the stream into events; a window that ends before the construct is decided (and is not the end
//! of input) makes the step stop where it began, to be run again with more bytes.

use crate::input::incomplete_tail_len;
use crate::scan::{find1, find2, leading_sgml_name_chars};
use crate::span::{Span, Window};

use super::class::{DIGIT, LETTER, NAME_CHAR, SPACE, is};
use super::event::{Channel, LexRecord, LexemeKind as K, Pending, Problem};

/// How the SGML lexer reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SgmlOptions {
    /// The note's `SGML_lexNorm`: lowercase names other than entity names in [`Lexeme::text`](super::Lexeme::text).
    pub normalize: bool,
}

/// The window ended before the construct was decided: run the step again with more input.
struct NeedMore;

type Step<T> = Result<T, NeedMore>;

/// The largest character number a numeric character reference may have: Unicode's.
const MAX_CHAR: u32 = 0x10FFFF;

/// One step's reading: the window, the position, the lexemes of the construct being lexed, and
/// the events found so far (problems go out before the construct they are found in).
struct Cursor<'c, 't> {
    b: &'c Window<'t>,
    pos: usize,
    out: &'c mut Pending,
}

impl<'t> Cursor<'_, 't> {
    /// The byte `k` past the position: `Ok(None)` at the end of input.
    #[inline]
    fn peek_at(&self, k: usize) -> Step<Option<u8>> {
        match self.b.bytes.get(self.pos + k - self.b.base) {
            Some(&c) => Ok(Some(c)),
            None if self.b.eof => Ok(None),
            None => Err(NeedMore),
        }
    }

    #[inline]
    fn peek(&self) -> Step<Option<u8>> {
        self.peek_at(0)
    }

    /// The bytes of `from..to`.
    fn raw(&self, from: usize, to: usize) -> &'t [u8] {
        self.b.slice(Span {
            start: from,
            end: to,
        })
    }

    fn lexeme(&self, kind: K, from: usize, to: usize) -> LexRecord {
        let span = Span {
            start: from,
            end: to,
        };
        LexRecord::new(kind, span)
    }

    /// Add the lexeme `kind` from `from` to the position.
    fn push(&mut self, kind: K, from: usize) {
        let lexeme = self.lexeme(kind, from, self.pos);
        self.out.add(lexeme);
    }

    /// Advance past bytes of the classes `mask`.
    fn skip_class(&mut self, mask: u8) -> Step<()> {
        self.skip_while(|c| is(c, mask))
    }

    /// Advance past name characters ([`NAME_CHAR`]), a block at a time.
    fn skip_name(&mut self) -> Step<()> {
        let rest = self.b.rest(self.pos);
        let n = leading_sgml_name_chars(rest);
        self.pos += n;
        if n == rest.len() && !self.b.eof {
            return Err(NeedMore);
        }
        Ok(())
    }

    /// Advance past the bytes `keep` holds for.
    #[inline]
    fn skip_while(&mut self, keep: impl Fn(u8) -> bool) -> Step<()> {
        let rest = self.b.rest(self.pos);
        match rest.iter().position(|&c| !keep(c)) {
            Some(n) => {
                self.pos += n;
                Ok(())
            }
            None if self.b.eof => {
                self.pos += rest.len();
                Ok(())
            }
            None => Err(NeedMore),
        }
    }

    /// Add white space from the position as an `S` lexeme, if there is any.
    fn space(&mut self) -> Step<()> {
        let from = self.pos;
        self.skip_class(SPACE)?;
        if self.pos > from {
            self.push(K::S, from);
        }
        Ok(())
    }

    /// Report `problem` with the offending text `from..to`, as an event of its own.
    fn report(&mut self, problem: Problem, from: usize, to: usize) {
        let data = self.lexeme(K::Data, from, to);
        let message = LexRecord::problem(problem, from);
        self.out.push(Channel::Problem, &[message, data]);
    }

    /// Report `problem` whose offending text runs from `from` to the position.
    fn report_to_here(&mut self, problem: Problem, from: usize) {
        self.report(problem, from, self.pos);
    }

    /// Hand out the construct's lexemes as an event of `channel`.
    fn emit(&mut self, channel: Channel) {
        self.out.push_construct(channel);
    }

    /// A literal from its opening quote at the position, quotes included, to the end of input
    /// if it is never closed. Returns where it starts and whether it is closed; `then` reports
    /// or adds it, before an unclosed one is reported (problems go out in input order).
    fn literal(&mut self, then: impl FnOnce(&mut Self, usize)) -> Step<()> {
        let from = self.pos;
        let quote = self.b.bytes[from - self.b.base];
        let closed = match find1(quote, self.b.rest(from + 1)) {
            Some(i) => {
                self.pos = from + 1 + i + 1;
                true
            }
            None if self.b.eof => {
                self.pos = self.b.end();
                false
            }
            None => return Err(NeedMore),
        };
        then(self, from);
        if !closed {
            self.report(Problem::EofInLiteral, self.pos, self.pos);
        }
        Ok(())
    }

    /// A comment `--…--` from its first `-` at the position (to the end of input if it is never
    /// closed: reported).
    fn comment(&mut self) -> Step<()> {
        let from = self.pos;
        let mut at = from + 2;
        loop {
            match find1(b'-', self.b.rest(at)) {
                Some(i) if self.b.at(at + i + 1) == Some(b'-') => {
                    self.pos = at + i + 2;
                    break;
                }
                Some(i) if at + i + 1 < self.b.end() => at += i + 1,
                _ if self.b.eof => {
                    self.pos = self.b.end();
                    self.push(K::Comment, from);
                    self.report(Problem::EofInComment, self.pos, self.pos);
                    return Ok(());
                }
                _ => return Err(NeedMore),
            }
        }
        self.push(K::Comment, from);
        Ok(())
    }

    /// The record end or `;` that ends a reference, as a `Refc` lexeme, if one follows.
    fn refc(&mut self) -> Step<()> {
        let from = self.pos;
        match self.peek()? {
            Some(b';' | b'\n') => self.pos += 1,
            Some(b'\r') => {
                self.pos += if self.peek_at(1)? == Some(b'\n') {
                    2
                } else {
                    1
                };
            }
            _ => return Ok(()),
        }
        self.push(K::Refc, from);
        Ok(())
    }
}

/// What the byte after `<` or `&` makes of it: markup, or data.
fn starts_markup(b: &Window, at: usize) -> Step<bool> {
    let byte = |k: usize| match b.bytes.get(at + k - b.base) {
        Some(&c) => Ok(Some(c)),
        None if b.eof => Ok(None),
        None => Err(NeedMore),
    };
    let letter = |c: Option<u8>| c.is_some_and(|c| is(c, LETTER));
    Ok(match (byte(0)?, byte(1)?) {
        (Some(b'<'), Some(b'?' | b'>')) => true,
        (Some(b'<'), Some(b'/')) => matches!(byte(2)?, Some(b'>')) || letter(byte(2)?),
        (Some(b'<'), Some(b'!')) => match byte(2)? {
            Some(b'>' | b'[') => true,
            Some(b'-') => byte(3)? == Some(b'-'),
            c => letter(c),
        },
        (Some(b'<'), c) => letter(c),
        (Some(b'&'), Some(b'#')) => byte(2)?.is_some_and(|c| is(c, LETTER | DIGIT)),
        (Some(b'&'), c) => letter(c),
        _ => false,
    })
}

/// The SGML lexer: the note's states over windows of a stream.
#[derive(Debug, Default)]
pub(crate) struct Machine {
    pub(super) options: SgmlOptions,
    /// The stream offset the next step starts at: the machine needs nothing before it (a
    /// driver's retention point).
    pub(super) pos: usize,
}

impl Machine {
    /// Lex the next construct of `b` into `out`. `false` when nothing more can be lexed from
    /// `b`: it is read to its end, or what is left of it is undecided (the machine then starts
    /// there again with a window that holds more).
    pub(crate) fn step(&mut self, b: &Window, out: &mut Pending) -> bool {
        if self.pos >= b.end() {
            return false;
        }
        let mark = out.mark();
        let mut cursor = Cursor {
            b,
            pos: self.pos,
            out,
        };
        match construct(&mut cursor) {
            Ok(()) => {
                self.pos = cursor.pos;
                true
            }
            Err(NeedMore) => {
                out.truncate(mark);
                false
            }
        }
    }
}

/// One construct from the cursor's position: data up to the next markup, or that markup.
fn construct(c: &mut Cursor) -> Step<()> {
    match c.peek()? {
        Some(b'<' | b'&') if starts_markup(c.b, c.pos)? => markup(c),
        _ => data(c),
    }
}

/// Data: up to the next `<` or `&` that starts markup (record ends included, verbatim). Where
/// the window ends before that is decided, the data so far goes out.
fn data(c: &mut Cursor) -> Step<()> {
    let from = c.pos;
    let mut at = from + 1;
    loop {
        let Some(i) = find2(b'<', b'&', c.b.rest(at)) else {
            return data_to_window_end(c, from);
        };
        match starts_markup(c.b, at + i) {
            Ok(false) => at += i + 1,
            Ok(true) => {
                c.pos = at + i;
                break;
            }
            Err(NeedMore) if at + i > from => {
                c.pos = at + i;
                break;
            }
            Err(NeedMore) => return Err(NeedMore),
        }
    }
    c.push(K::Data, from);
    c.emit(Channel::Primary);
    Ok(())
}

/// Data that runs to the window's end: all of it at the end of input, else up to the last
/// whole character (a seam does not split a character's bytes between two data events).
fn data_to_window_end(c: &mut Cursor, from: usize) -> Step<()> {
    let rest = c.b.rest(from);
    let cut = if c.b.eof {
        0
    } else {
        incomplete_tail_len(rest)
    };
    if cut == rest.len() {
        return Err(NeedMore);
    }
    c.pos = c.b.end() - cut;
    c.push(K::Data, from);
    c.emit(Channel::Primary);
    Ok(())
}

/// Markup at a `<` or `&` that [`starts_markup`].
fn markup(c: &mut Cursor) -> Step<()> {
    match (c.peek_at(0)?, c.peek_at(1)?) {
        (Some(b'&'), Some(b'#')) => char_ref(c),
        (Some(b'&'), _) => entity_ref(c),
        (_, Some(b'?')) => pi(c),
        (_, Some(b'!')) => declaration(c),
        (_, Some(b'>')) => empty_tag(c, 2, Problem::EmptyStartTag),
        (_, Some(b'/')) if c.peek_at(2)? == Some(b'>') => empty_tag(c, 3, Problem::EmptyEndTag),
        (_, Some(b'/')) => tag(c, 2, K::End),
        _ => tag(c, 1, K::Start),
    }
}

/// `<>` or `</>`: a limitation.
fn empty_tag(c: &mut Cursor, len: usize, problem: Problem) -> Step<()> {
    let from = c.pos;
    c.pos += len;
    c.report_to_here(problem, from);
    Ok(())
}

/// A start tag (`<name`, `kind` [`K::Start`]) or an end tag (`</name`), its attributes, its `>`.
fn tag(c: &mut Cursor, open: usize, kind: K) -> Step<()> {
    let from = c.pos;
    c.pos += open;
    c.skip_name()?;
    c.push(kind, from);
    let end_tag = kind == K::End;
    loop {
        match c.peek()? {
            None => {
                c.report(Problem::EofInTag, c.pos, c.pos);
                break;
            }
            Some(b'>') => {
                c.pos += 1;
                c.push(K::Tagc, c.pos - 1);
                break;
            }
            Some(b'<') => {
                c.report(Problem::UnclosedTag, c.pos, c.pos);
                break;
            }
            Some(b) if is(b, SPACE) => c.space()?,
            Some(b) if !end_tag && is(b, NAME_CHAR) => attribute(c)?,
            Some(b'"' | b'\'') if !end_tag => {
                c.literal(|c, start| c.report_to_here(Problem::LiteralWithoutName, start))?
            }
            Some(_) => bad_in_tag(c, end_tag)?,
        }
    }
    c.emit(Channel::Primary);
    Ok(())
}

/// Characters that cannot continue a tag: one error for the run of them.
fn bad_in_tag(c: &mut Cursor, end_tag: bool) -> Step<()> {
    let from = c.pos;
    c.pos += 1;
    c.skip_while(|b| {
        let stops = is(b, SPACE) || matches!(b, b'>' | b'<');
        let starts_part = !end_tag && (is(b, NAME_CHAR) || matches!(b, b'"' | b'\''));
        !(stops || starts_part)
    })?;
    c.report_to_here(Problem::BadCharacterInTag, from);
    Ok(())
}

/// An attribute specification from its first name character: `name = value`, or a value alone
/// (its name omitted).
fn attribute(c: &mut Cursor) -> Step<()> {
    let from = c.pos;
    c.skip_name()?;
    let token = c.pos;
    let mut after = token;
    while c
        .b
        .bytes
        .get(after - c.b.base)
        .is_some_and(|&b| is(b, SPACE))
    {
        after += 1;
    }
    let next = match c.b.bytes.get(after - c.b.base) {
        Some(&b) => Some(b),
        None if c.b.eof => None,
        None => return Err(NeedMore),
    };
    if next != Some(b'=') {
        let name = c.lexeme(K::AttrName, from, from);
        c.out.add(name);
        let starts_name = is(c.b.bytes[from - c.b.base], LETTER);
        c.push(if starts_name { K::Name } else { K::Nmtoken }, from);
        return Ok(());
    }
    c.push(K::AttrName, from);
    c.space()?;
    c.pos += 1;
    c.push(K::Vi, c.pos - 1);
    c.space()?;
    match c.peek()? {
        Some(b'"' | b'\'') => c.literal(|c, start| c.push(K::Literal, start))?,
        Some(b) if is(b, NAME_CHAR) => {
            let start = c.pos;
            c.skip_name()?;
            c.push(K::Nmtoken, start);
        }
        _ => c.report(Problem::MissingAttributeValue, c.pos, c.pos),
    }
    Ok(())
}

/// `<!`: a comment declaration (`<!--`, `<!>`), a marked section (`<![`), or a markup
/// declaration (`<!name`).
fn declaration(c: &mut Cursor) -> Step<()> {
    let from = c.pos;
    match c.peek_at(2)? {
        Some(b'[') => return marked_section(c),
        Some(b'-' | b'>') => {
            c.pos += 2;
            c.push(K::MarkupDecl, from);
            return comment_declaration(c);
        }
        _ => {}
    }
    c.pos += 2;
    c.skip_name()?;
    c.push(K::MarkupDecl, from);
    let keyword = &c.b.rest(from)[2..c.pos - from];
    if keyword.eq_ignore_ascii_case(b"usemap") || keyword.eq_ignore_ascii_case(b"shortref") {
        c.report(Problem::ShortReferenceDeclaration, from, from);
    }
    parameters(c)
}

/// A declaration's parameters, to its `>`.
fn parameters(c: &mut Cursor) -> Step<()> {
    loop {
        let at = c.pos;
        match c.peek()? {
            None => {
                c.report(Problem::EofInDeclaration, at, at);
                break;
            }
            Some(b'>') => {
                c.pos += 1;
                c.push(K::Tagc, at);
                break;
            }
            Some(b) if is(b, SPACE) => c.space()?,
            Some(b'-') if c.peek_at(1)? == Some(b'-') => c.comment()?,
            Some(b'"' | b'\'') => c.literal(|c, start| c.push(K::Literal, start))?,
            Some(b) if is(b, LETTER) => {
                c.skip_name()?;
                c.push(K::Name, at);
            }
            Some(b) if is(b, DIGIT) => {
                c.skip_name()?;
                let digits = c.raw(at, c.pos).iter().all(u8::is_ascii_digit);
                c.push(if digits { K::Number } else { K::Nmtoken }, at);
            }
            Some(b'[') => declaration_subset(c)?,
            Some(b'%') if c.peek_at(1)?.is_some_and(|b| is(b, LETTER)) => {
                c.pos += 1;
                c.skip_name()?;
                if c.peek()? == Some(b';') {
                    c.pos += 1;
                }
                c.report_to_here(Problem::ParameterEntityReference, at);
            }
            Some(_) => {
                c.pos += 1;
                c.skip_while(|b| {
                    !(is(b, SPACE | NAME_CHAR) || matches!(b, b'>' | b'"' | b'\'' | b'[' | b'%'))
                })?;
                c.report_to_here(Problem::BadCharacterInDeclaration, at);
            }
        }
    }
    c.emit(Channel::Auxiliary);
    Ok(())
}

/// `[`: a declaration subset, skipped to its `]` (a limitation); the `]` is the declaration's.
fn declaration_subset(c: &mut Cursor) -> Step<()> {
    let from = c.pos;
    skip_subset(c)?;
    c.report_to_here(Problem::DeclarationSubset, from);
    if c.peek()? == Some(b']') {
        c.pos += 1;
        c.push(K::Dsc, c.pos - 1);
    }
    Ok(())
}

/// Advance to the next `]`, or to the end of input.
fn skip_subset(c: &mut Cursor) -> Step<()> {
    match find1(b']', c.b.rest(c.pos)) {
        Some(i) => c.pos += i,
        None if c.b.eof => c.pos = c.b.end(),
        None => return Err(NeedMore),
    }
    Ok(())
}

/// `<![`: a marked section, a limitation; its content is skipped as a declaration subset, and
/// its `]]` and `>` end that problem's event.
fn marked_section(c: &mut Cursor) -> Step<()> {
    let from = c.pos;
    c.pos += 3;
    c.report_to_here(Problem::MarkedSection, from);
    let content = c.pos;
    skip_subset(c)?;
    let end = c.pos;
    c.out
        .add(LexRecord::problem(Problem::DeclarationSubset, content));
    c.push(K::Data, content);
    if c.peek()? == Some(b']') {
        c.pos += if c.peek_at(1)? == Some(b']') { 2 } else { 1 };
        c.push(K::Dsc, end);
        if c.peek()? == Some(b'>') {
            c.pos += 1;
            c.push(K::Mdc, c.pos - 1);
        }
    }
    c.emit(Channel::Problem);
    Ok(())
}

/// After `<!`: zero or more comments, white space between them, and `>`.
fn comment_declaration(c: &mut Cursor) -> Step<()> {
    loop {
        let at = c.pos;
        match c.peek()? {
            None => {
                c.report(Problem::EofInDeclaration, at, at);
                break;
            }
            Some(b'>') => {
                c.pos += 1;
                c.push(K::Mdc, at);
                break;
            }
            Some(b) if is(b, SPACE) => c.space()?,
            Some(b'-') if c.peek_at(1)? == Some(b'-') => c.comment()?,
            Some(_) => {
                c.pos += 1;
                c.skip_while(|b| !(is(b, SPACE) || matches!(b, b'>' | b'-')))?;
                c.report_to_here(Problem::BadCharacterInCommentDeclaration, at);
            }
        }
    }
    c.emit(Channel::Auxiliary);
    Ok(())
}

/// `<?…>`, whole.
fn pi(c: &mut Cursor) -> Step<()> {
    let from = c.pos;
    match find1(b'>', c.b.rest(from + 2)) {
        Some(i) => c.pos = from + 2 + i + 1,
        None if c.b.eof => {
            c.pos = c.b.end();
            c.report(Problem::EofInPi, c.pos, c.pos);
        }
        None => return Err(NeedMore),
    }
    c.push(K::Pi, from);
    c.emit(Channel::Auxiliary);
    Ok(())
}

/// `&name`, and its `;` or record end.
fn entity_ref(c: &mut Cursor) -> Step<()> {
    let from = c.pos;
    c.pos += 1;
    c.skip_name()?;
    c.push(K::GeRef, from);
    c.refc()?;
    c.emit(Channel::Primary);
    Ok(())
}

/// `&#999` and its `;` or record end; `&#name` is a limitation, a number followed by a name
/// character or past [`MAX_CHAR`] an error.
fn char_ref(c: &mut Cursor) -> Step<()> {
    let from = c.pos;
    c.pos += 2;
    if c.peek()?.is_some_and(|b| is(b, LETTER)) {
        c.skip_name()?;
        c.refc()?;
        c.out.discard_construct();
        c.report_to_here(Problem::NamedCharacterReference, from);
        return Ok(());
    }
    c.skip_class(DIGIT)?;
    let digits = c.raw(from + 2, c.pos);
    if c.peek()?.is_some_and(|b| is(b, NAME_CHAR)) {
        c.skip_name()?;
        c.report_to_here(Problem::BadCharacterInReference, from);
        return Ok(());
    }
    let number = digits.iter().try_fold(0u32, |n, &d| {
        n.checked_mul(10)?.checked_add(u32::from(d - b'0'))
    });
    c.push(K::NumCharRef, from);
    c.refc()?;
    if number.is_none_or(|n| n > MAX_CHAR) {
        c.out.discard_construct();
        c.report_to_here(Problem::CharacterNumberOutOfRange, from);
        return Ok(());
    }
    c.emit(Channel::Primary);
    Ok(())
}
