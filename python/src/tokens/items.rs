//! `Token` and `ParseError`, the items of the HTML and XML5 dialects. A token is its record and
//! the [`Batch`] it shares with the other tokens of its call: making one allocates nothing of
//! its own, and its fields become Python values only when read.

use std::borrow::Cow;
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::batch::{Batch, Builder, DoctypeParts, ErrorRecord, Kind, Parts, TEXT_KINDS};
use super::batch::{TokenRecord, text_kind_index, text_kind_named};
use super::names::{Interned, Named};
use crate::{Name, Reduced};

static KIND_NAMES: Interned = Interned::new(&Kind::NAMES);
static TEXT_KIND_NAMES: Interned = Interned::new(&TEXT_KINDS);

/// One token, or with `lossless=True` a run of bytes that belongs to no token (kind "raw").
#[pyclass(frozen, eq, module = "tagstream")]
pub(crate) struct Token {
    batch: Arc<Batch>,
    /// In [`Batch::token`].
    at: usize,
}

/// A token's values, in the order of its constructor's parameters.
type Values<'a> = (
    &'static str,
    Option<Cow<'a, str>>,
    Vec<(Cow<'a, str>, Cow<'a, str>)>,
    Option<Cow<'a, str>>,
    Option<&'static str>,
    bool,
    Option<Cow<'a, str>>,
    Option<Cow<'a, str>>,
    bool,
    &'a [u8],
    (usize, usize),
    Option<Cow<'a, str>>,
);

impl Token {
    pub(crate) fn new(batch: &Arc<Batch>, at: usize) -> Token {
        Token {
            batch: Arc::clone(batch),
            at,
        }
    }

    fn record(&self) -> &TokenRecord {
        self.batch.token(self.at)
    }

    fn values(&self) -> Values<'_> {
        let (record, batch) = (self.record(), &*self.batch);
        (
            record.kind().as_str(),
            record.name(batch),
            record.attributes(batch),
            record.text(batch),
            record.text_kind().map(|kind| kind.as_str()),
            record.self_closing(),
            record.public_id(batch),
            record.system_id(batch),
            record.force_quirks(),
            batch.bytes(&record.raw),
            record.span,
            record.internal_subset(batch),
        )
    }
}

impl PartialEq for Token {
    fn eq(&self, other: &Token) -> bool {
        self.values() == other.values()
    }
}

/// A `ValueError` for a field given to a token of a kind that has no such field.
fn misplaced(field: &str, kind: Kind) -> PyErr {
    PyValueError::new_err(format!("a {} token has no {field}", kind.as_str()))
}

/// `value`, which a token of `kind` must have.
fn required<T>(value: Option<T>, field: &str, kind: Kind) -> PyResult<T> {
    value.ok_or_else(|| PyValueError::new_err(format!("a {} token has a {field}", kind.as_str())))
}

/// The parts of a token of `kind` with these values, their strings in `builder`; a field the
/// kind has not, given, is a `ValueError` (it would be lost).
#[allow(clippy::too_many_arguments)]
fn parts(
    builder: &mut Builder<'_>,
    kind: Kind,
    name: Option<&str>,
    attributes: &[(String, String)],
    text: Option<&str>,
    text_kind: Option<&str>,
    self_closing: bool,
    ids: (Option<&str>, Option<&str>),
    force_quirks: bool,
    internal_subset: Option<&str>,
) -> PyResult<Parts> {
    let given = [
        ("name", name.is_some()),
        ("attributes", !attributes.is_empty()),
        ("text", text.is_some()),
        ("text_kind", text_kind.is_some()),
        ("self_closing", self_closing),
        ("public_id", ids.0.is_some()),
        ("system_id", ids.1.is_some()),
        ("force_quirks", force_quirks),
        ("internal_subset", internal_subset.is_some()),
    ];
    let fields: &[&str] = match kind {
        Kind::StartTag => &["name", "attributes", "self_closing"],
        Kind::EndTag => &["name"],
        Kind::Text => &["text", "text_kind"],
        Kind::Comment => &["text"],
        Kind::Doctype => &[
            "name",
            "public_id",
            "system_id",
            "force_quirks",
            "internal_subset",
        ],
        Kind::ProcessingInstruction => &["name", "text"],
        Kind::Raw => &[],
    };
    if let Some((field, _)) = given.iter().find(|(f, set)| *set && !fields.contains(f)) {
        return Err(misplaced(field, kind));
    }
    Ok(match kind {
        Kind::StartTag => Parts::StartTag {
            name: builder.string(required(name, "name", kind)?),
            attributes: builder
                .attributes(attributes.iter().map(|(n, v)| (n.as_str(), v.as_str()))),
            self_closing,
        },
        Kind::EndTag => Parts::EndTag {
            name: builder.string(required(name, "name", kind)?),
        },
        Kind::Text => {
            let text_kind = required(text_kind, "text_kind", kind)?;
            Parts::Text {
                text: builder.string(required(text, "text", kind)?),
                kind: text_kind_named(text_kind).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "{text_kind:?} is not a text kind: {TEXT_KINDS:?}"
                    ))
                })?,
            }
        }
        Kind::Comment => Parts::Comment {
            data: builder.string(required(text, "text", kind)?),
        },
        Kind::Doctype => Parts::Doctype(Box::new(DoctypeParts {
            name: name.map(|name| builder.string(name)),
            public_id: ids.0.map(|id| builder.string(id)),
            system_id: ids.1.map(|id| builder.string(id)),
            force_quirks,
            internal_subset: internal_subset.map(|subset| builder.string(subset)),
        })),
        Kind::ProcessingInstruction => Parts::ProcessingInstruction {
            target: builder.string(required(name, "name", kind)?),
            data: builder.string(required(text, "text", kind)?),
        },
        Kind::Raw => Parts::Raw,
    })
}

#[pymethods]
impl Token {
    #[new]
    #[pyo3(signature = (kind, name, attributes, text, text_kind, self_closing, public_id, system_id, force_quirks, raw, span, internal_subset=None))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        kind: &str,
        name: Option<&str>,
        attributes: Vec<(String, String)>,
        text: Option<&str>,
        text_kind: Option<&str>,
        self_closing: bool,
        public_id: Option<&str>,
        system_id: Option<&str>,
        force_quirks: bool,
        raw: &[u8],
        span: (usize, usize),
        internal_subset: Option<&str>,
    ) -> PyResult<Token> {
        let kind = Kind::named(kind).ok_or_else(|| {
            PyValueError::new_err(format!("{kind:?} is not a token kind: {:?}", Kind::NAMES))
        })?;
        let mut builder = Builder::new(&[]);
        let parts = parts(
            &mut builder,
            kind,
            name,
            &attributes,
            text,
            text_kind,
            self_closing,
            (public_id, system_id),
            force_quirks,
            internal_subset,
        )?;
        let raw = builder.raw(raw);
        let at = builder.push_token(TokenRecord { parts, raw, span });
        Ok(Token {
            batch: Arc::new(builder.finish()),
            at,
        })
    }

    /// "start_tag", "end_tag", "text", "comment", "doctype", "processing_instruction" or "raw".
    #[getter]
    fn kind(&self) -> Named {
        Named(&KIND_NAMES, self.record().kind() as usize)
    }

    /// The tag name, DOCTYPE name or processing instruction target; None for the others.
    #[getter]
    fn name(&self) -> Option<Cow<'_, str>> {
        self.record().name(&self.batch)
    }

    /// A start tag's attributes as (name, value) pairs, values decoded, in source order.
    #[getter]
    fn attributes(&self) -> Vec<(Cow<'_, str>, Cow<'_, str>)> {
        self.record().attributes(&self.batch)
    }

    /// The decoded text of a text token, a comment's data, a processing instruction's data.
    #[getter]
    fn text(&self) -> Option<Cow<'_, str>> {
        self.record().text(&self.batch)
    }

    /// A text token's state: "data", "rcdata", "rawtext", "script_data", "plaintext", "cdata".
    #[getter]
    fn text_kind(&self) -> Option<Named> {
        let kind = self.record().text_kind()?;
        Some(Named(&TEXT_KIND_NAMES, text_kind_index(kind)))
    }

    /// A start tag's self-closing flag.
    #[getter]
    fn self_closing(&self) -> bool {
        self.record().self_closing()
    }

    /// A DOCTYPE's public identifier.
    #[getter]
    fn public_id(&self) -> Option<Cow<'_, str>> {
        self.record().public_id(&self.batch)
    }

    /// A DOCTYPE's system identifier.
    #[getter]
    fn system_id(&self) -> Option<Cow<'_, str>> {
        self.record().system_id(&self.batch)
    }

    /// An XML5 DOCTYPE's internal subset as written, brackets included (its declarations are
    /// not read).
    #[getter]
    fn internal_subset(&self) -> Option<Cow<'_, str>> {
        self.record().internal_subset(&self.batch)
    }

    /// A DOCTYPE's force-quirks flag.
    #[getter]
    fn force_quirks(&self) -> bool {
        self.record().force_quirks()
    }

    /// The token's bytes as written.
    #[getter]
    fn raw(&self) -> &[u8] {
        self.batch.bytes(&self.record().raw)
    }

    /// Byte offsets (start, end) in the whole input.
    #[getter]
    fn span(&self) -> (usize, usize) {
        self.record().span
    }

    /// Pickled as its values.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, Bound<'py, PyTuple>>> {
        let values = slf.get().values().into_pyobject(slf.py())?;
        Ok((slf.get_type(), values))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        match self.record().kind() {
            Kind::StartTag => crate::fields_repr!(
                py,
                "Token",
                self.{ kind, name, attributes, self_closing, span }
            ),
            Kind::EndTag => crate::fields_repr!(py, "Token", self.{ kind, name, span }),
            Kind::Text => crate::fields_repr!(py, "Token", self.{ kind, text, text_kind, span }),
            Kind::Doctype => crate::fields_repr!(
                py,
                "Token",
                self.{ kind, name, public_id, system_id, force_quirks, span }
            ),
            Kind::ProcessingInstruction => {
                crate::fields_repr!(py, "Token", self.{ kind, name, text, span })
            }
            Kind::Comment => crate::fields_repr!(py, "Token", self.{ kind, text, span }),
            Kind::Raw => crate::fields_repr!(py, "Token", self.{ kind, raw, span }),
        }
    }
}

/// A parse error, reported after the token it came with: its code as the standard names it,
/// the byte offset where it was found, and that offset's line and column (1-based; columns in
/// UTF-16 code units).
#[pyclass(frozen, get_all, eq, module = "tagstream")]
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ParseError {
    code: Name,
    offset: usize,
    line: u64,
    column: u64,
}

impl From<&ErrorRecord> for ParseError {
    fn from(error: &ErrorRecord) -> ParseError {
        ParseError {
            code: error.code.into(),
            offset: error.offset,
            line: error.line,
            column: error.column,
        }
    }
}

#[pymethods]
impl ParseError {
    #[new]
    fn new(code: String, offset: usize, line: u64, column: u64) -> ParseError {
        ParseError {
            code: code.into(),
            offset,
            line,
            column,
        }
    }

    /// Pickled as its fields.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (Name, usize, u64, u64)> {
        let e = slf.get().clone();
        (slf.get_type(), (e.code, e.offset, e.line, e.column))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        crate::fields_repr!(
            py,
            "ParseError",
            self {
                code,
                offset,
                line,
                column
            }
        )
    }
}
