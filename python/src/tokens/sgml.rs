//! `Event` and `Lexeme`, the items of the SGML dialect (`dialect="sgml"`): the lexical mode of
//! the W3C Note "A Lexical Analyzer for HTML and Basic SGML", as `tagstream tokens --dialect
//! sgml` prints it. An event is one of the note's callbacks: a channel ("primary": data, tags,
//! references; "auxiliary": declarations, comments, processing instructions; "problem": one
//! error or limitation, with its code and the line and column of its offending text) and its
//! lexemes, each with its kind, span, bytes as written and text. Like tokens, they are records
//! in their call's [`Batch`], read when a field is.

use std::borrow::Cow;
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tagstream::sgml::{Channel, LexemeKind, Problem};

use super::batch::{Batch, Builder, EventRecord, LexemeRecord};
use super::names::{Interned, Named};
use crate::Reduced;

/// The channels' names.
const CHANNELS: [&str; 3] = {
    let mut names = [""; 3];
    let mut i = 0;
    while i < names.len() {
        names[i] = Channel::ALL[i].as_str();
        i += 1;
    }
    names
};

/// The lexeme kinds' names.
const LEXEME_KINDS: [&str; LexemeKind::ALL.len()] = {
    let mut names = [""; LexemeKind::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = LexemeKind::ALL[i].as_str();
        i += 1;
    }
    names
};

static CHANNEL_NAMES: Interned = Interned::new(&CHANNELS);
static LEXEME_KIND_NAMES: Interned = Interned::new(&LEXEME_KINDS);

/// Where `item` is in `all` (which has every value).
fn index_in<T: PartialEq>(all: &[T], item: T) -> usize {
    all.iter()
        .position(|known| *known == item)
        .unwrap_or_default()
}

/// The one of `all` whose `name` is `wanted`, or a `ValueError` listing `names`.
fn named<T: Copy>(
    all: &[T],
    name: impl Fn(T) -> &'static str,
    wanted: &str,
    what: &str,
) -> PyResult<T> {
    let found = all.iter().copied().find(|item| name(*item) == wanted);
    found.ok_or_else(|| {
        let names: Vec<_> = all.iter().map(|item| name(*item)).collect();
        PyValueError::new_err(format!("{wanted:?} is not {what}: {names:?}"))
    })
}

/// One lexeme of an SGML event.
#[pyclass(frozen, eq, module = "tagstream")]
pub(crate) struct Lexeme {
    batch: Arc<Batch>,
    /// In [`Batch::lexeme`].
    at: usize,
}

/// A lexeme's values, in the order of its constructor's parameters.
type LexemeValues<'a> = (&'static str, (usize, usize), Cow<'a, str>, &'a [u8]);

/// A lexeme's values.
fn lexeme_values<'b>(batch: &'b Batch, record: &LexemeRecord) -> LexemeValues<'b> {
    (
        record.kind.as_str(),
        record.span,
        batch.str(&record.text),
        batch.bytes(&record.raw),
    )
}

impl Lexeme {
    fn record(&self) -> &LexemeRecord {
        self.batch.lexeme(self.at)
    }

    fn values(&self) -> LexemeValues<'_> {
        lexeme_values(&self.batch, self.record())
    }
}

impl PartialEq for Lexeme {
    fn eq(&self, other: &Lexeme) -> bool {
        self.values() == other.values()
    }
}

#[pymethods]
impl Lexeme {
    #[new]
    fn py_new(kind: &str, span: (usize, usize), text: &str, raw: &[u8]) -> PyResult<Lexeme> {
        let kind = named(LexemeKind::ALL, LexemeKind::as_str, kind, "a lexeme kind")?;
        let mut builder = Builder::new(&[]);
        let at = builder.lexeme(kind, span, raw, text);
        Ok(Lexeme {
            batch: Arc::new(builder.finish()),
            at,
        })
    }

    /// The note's `SGML_*` type in lowercase ("data", "start", "end", "tagc", "attrname",
    /// "name", "number", "nmtoken", "literal", "geref", "numcharref", "refc", "pi",
    /// "markup_decl", "comment", "mdc", "error", "limitation"), or ours: "s" (white space in a
    /// tag or declaration), "vi" (`=`), "dsc" (`]` or `]]` after a skipped subset).
    #[getter]
    fn kind(&self) -> Named {
        Named(
            &LEXEME_KIND_NAMES,
            index_in(LexemeKind::ALL, self.record().kind),
        )
    }

    /// Byte offsets (start, end) in the whole input (empty for a problem's message).
    #[getter]
    fn span(&self) -> (usize, usize) {
        self.record().span
    }

    /// Its text: the source (invalid UTF-8 as U+FFFD), names lowercased with `normalize=True`;
    /// a problem's message.
    #[getter]
    fn text(&self) -> Cow<'_, str> {
        self.batch.str(&self.record().text)
    }

    /// Its bytes as written (quotes included for a literal; empty for a message).
    #[getter]
    fn raw(&self) -> &[u8] {
        self.batch.bytes(&self.record().raw)
    }

    /// Pickled as its values.
    fn __reduce__<'a, 'py>(slf: &'a Bound<'py, Self>) -> Reduced<'py, LexemeValues<'a>> {
        (slf.get_type(), slf.get().values())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        crate::fields_repr!(py, "Lexeme", self.{ kind, text, raw, span })
    }
}

/// One event of the SGML lexer: a channel and its lexemes.
#[pyclass(frozen, eq, module = "tagstream")]
pub(crate) struct Event {
    batch: Arc<Batch>,
    /// In [`Batch::event`].
    at: usize,
}

impl Event {
    pub(crate) fn new(batch: &Arc<Batch>, at: usize) -> Event {
        Event {
            batch: Arc::clone(batch),
            at,
        }
    }

    fn record(&self) -> &EventRecord {
        self.batch.event(self.at)
    }

    fn lexeme_values(&self) -> Vec<LexemeValues<'_>> {
        let lexemes = self.batch.lexemes(&self.record().lexemes);
        let values = |record| lexeme_values(&self.batch, record);
        lexemes.iter().map(values).collect()
    }
}

impl PartialEq for Event {
    fn eq(&self, other: &Event) -> bool {
        let (mine, theirs) = (self.record(), other.record());
        (mine.channel, mine.problem, mine.position)
            == (theirs.channel, theirs.problem, theirs.position)
            && self.lexeme_values() == other.lexeme_values()
    }
}

/// An event's values, in the order of its constructor's parameters.
type EventValues = (
    &'static str,
    Vec<Lexeme>,
    Option<&'static str>,
    Option<u64>,
    Option<u64>,
);

#[pymethods]
impl Event {
    #[new]
    #[pyo3(signature = (channel, lexemes, code=None, line=None, column=None))]
    fn py_new(
        channel: &str,
        lexemes: Vec<PyRef<'_, Lexeme>>,
        code: Option<&str>,
        line: Option<u64>,
        column: Option<u64>,
    ) -> PyResult<Event> {
        let channel = named(Channel::ALL, Channel::as_str, channel, "a channel")?;
        let problem = code
            .map(|code| named(Problem::ALL, Problem::code, code, "a problem code"))
            .transpose()?;
        if problem.is_some() != (channel == Channel::Problem) {
            return Err(PyValueError::new_err(
                "an event has a code when, and only when, its channel is \"problem\"",
            ));
        }
        let position = match (line, column) {
            (Some(line), Some(column)) => Some((line, column)),
            (None, None) => None,
            _ => {
                return Err(PyValueError::new_err(
                    "give both line and column, or neither",
                ));
            }
        };
        let mut builder = Builder::new(&[]);
        for lexeme in &lexemes {
            let record = lexeme.record();
            builder.lexeme(record.kind, record.span, lexeme.raw(), &lexeme.text());
        }
        let at = builder.push_event(EventRecord {
            channel,
            lexemes: 0..lexemes.len(),
            problem,
            position,
        });
        Ok(Event {
            batch: Arc::new(builder.finish()),
            at,
        })
    }

    /// "primary" (data, tags, references), "auxiliary" (markup and comment declarations,
    /// processing instructions) or "problem" (one error or limitation).
    #[getter]
    fn channel(&self) -> Named {
        Named(
            &CHANNEL_NAMES,
            index_in(Channel::ALL, self.record().channel),
        )
    }

    /// Its lexemes, in order. A problem's are its message (kind "error" or "limitation") and
    /// its offending text (kind "data").
    #[getter]
    fn lexemes(&self) -> Vec<Lexeme> {
        let lexeme = |at| Lexeme {
            batch: Arc::clone(&self.batch),
            at,
        };
        self.record().lexemes.clone().map(lexeme).collect()
    }

    /// A problem's code ("bad-character-in-tag", "marked-section", ...); None for the others.
    #[getter]
    fn code(&self) -> Option<&'static str> {
        self.record().problem.map(Problem::code)
    }

    /// The line (1-based) where a problem's offending text starts; None for the others.
    #[getter]
    fn line(&self) -> Option<u64> {
        self.record().position.map(|(line, _)| line)
    }

    /// The column (1-based, in UTF-16 code units) where a problem's offending text starts.
    #[getter]
    fn column(&self) -> Option<u64> {
        self.record().position.map(|(_, column)| column)
    }

    /// Byte offsets (start, end) of its bytes in the whole input: from its first lexeme's start
    /// to its last one's end.
    #[getter]
    fn span(&self) -> (usize, usize) {
        let lexemes = self.batch.lexemes(&self.record().lexemes);
        match (lexemes.first(), lexemes.last()) {
            (Some(first), Some(last)) => (first.span.0, last.span.1),
            _ => (0, 0),
        }
    }

    /// Pickled as its values.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, EventValues> {
        let event = slf.get();
        let values = (
            event.record().channel.as_str(),
            event.lexemes(),
            event.code(),
            event.line(),
            event.column(),
        );
        (slf.get_type(), values)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        match self.record().problem {
            Some(_) => crate::fields_repr!(
                py,
                "Event",
                self.{ channel, code, line, column, lexemes }
            ),
            None => crate::fields_repr!(py, "Event", self.{ channel, lexemes }),
        }
    }
}
