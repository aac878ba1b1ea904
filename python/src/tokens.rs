//! Tokens: `tagstream.tokens` for a whole document and `tagstream.Tokenizer` for a stream fed
//! chunk by chunk, HTML or XML5. The tokenizer runs with the GIL released and copies each token's
//! strings and bytes into one [`Batch`] per call (tokens borrow the chunk, which the next feed
//! replaces); the Python objects are made after, and their strings when a field is read. Bytes are read as UTF-8 (invalid sequences decode to U+FFFD); spans
//! are byte offsets in the whole stream.

use std::ops::Range;
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyException, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use tagstream::{Limit, Options, TextKind, xml5};

use crate::input::Document;
use crate::{Name, Reduced};

pyo3::create_exception!(
    tagstream,
    LimitError,
    PyException,
    "A memory limit (max_carry, max_arena) stopped the tokenizer: the attributes `limit` \
     (\"carry\" or \"arena\"), `max`, `needed` and `offset` (of the first token not produced) \
     say which and where."
);

/// The strings and bytes of the tokens of one call, which they share: a [`Token`] holds ranges
/// into it, so copying a token out of the tokenizer allocates nothing of its own, and a Python
/// string is made only when a field is read. (A token kept alive keeps its call's batch.)
#[derive(Debug, Default)]
struct Batch {
    /// Names, decoded text, identifiers, attribute names and values, one after the other.
    strings: String,
    /// The tokens' bytes as written, one after the other.
    raw: Vec<u8>,
    /// The attributes of the start tags: ranges of name and value in `strings`.
    attributes: Vec<(Range<usize>, Range<usize>)>,
}

impl Batch {
    /// A batch for the tokens of `len` input bytes: their raw bytes and decoded strings are
    /// about as many (reserving them spares copying both as they grow).
    fn for_input(len: usize) -> Batch {
        Batch {
            strings: String::with_capacity(len),
            raw: Vec::with_capacity(len),
            attributes: Vec::new(),
        }
    }

    fn push_str(&mut self, s: &str) -> Range<usize> {
        let start = self.strings.len();
        self.strings.push_str(s);
        start..self.strings.len()
    }

    fn push_raw(&mut self, raw: &[u8]) -> Range<usize> {
        let start = self.raw.len();
        self.raw.extend_from_slice(raw);
        start..self.raw.len()
    }

    fn push_attributes<'a>(
        &mut self,
        attributes: impl Iterator<Item = (&'a str, &'a str)>,
    ) -> Range<usize> {
        let start = self.attributes.len();
        for (name, value) in attributes {
            let name = self.push_str(name);
            let value = self.push_str(value);
            self.attributes.push((name, value));
        }
        start..self.attributes.len()
    }

    fn str(&self, range: &Range<usize>) -> &str {
        &self.strings[range.clone()]
    }

    /// `token`'s fields, its strings and bytes copied in.
    fn push(&mut self, token: &tagstream::Token<'_>) -> Fields {
        use tagstream::Token as T;
        let span = token.span();
        let base = Fields {
            raw: self.push_raw(token.raw()),
            span: (span.start, span.end),
            ..Fields::default()
        };
        match token {
            T::StartTag(tag) => Fields {
                kind: "start_tag",
                name: Some(self.push_str(tag.name())),
                attributes: self.push_attributes(tag.attributes().map(|a| (a.name(), a.value()))),
                self_closing: tag.self_closing(),
                ..base
            },
            T::EndTag(tag) => Fields {
                kind: "end_tag",
                name: Some(self.push_str(tag.name())),
                ..base
            },
            T::Text(text) => Fields {
                kind: "text",
                text: Some(self.push_str(text.text())),
                text_kind: Some(text.kind().as_str()),
                ..base
            },
            T::Comment(comment) => Fields {
                kind: "comment",
                text: Some(self.push_str(comment.data())),
                ..base
            },
            T::Doctype(doctype) => Fields {
                kind: "doctype",
                name: doctype.name().map(|name| self.push_str(name)),
                public_id: doctype.public_id().map(|id| self.push_str(id)),
                system_id: doctype.system_id().map(|id| self.push_str(id)),
                force_quirks: doctype.force_quirks(),
                ..base
            },
            T::ProcessingInstruction(pi) => Fields {
                kind: "processing_instruction",
                name: Some(self.push_str(pi.target())),
                text: Some(self.push_str(pi.data())),
                ..base
            },
            T::Raw(_) => Fields {
                kind: "raw",
                ..base
            },
        }
    }
}

/// The token kinds, as `Token.kind` names them.
const KINDS: &[&str] = &[
    "start_tag",
    "end_tag",
    "text",
    "comment",
    "doctype",
    "processing_instruction",
    "raw",
];

/// The text kinds, as `Token.text_kind` names them.
const TEXT_KINDS: &[&str] = &[
    TextKind::Data.as_str(),
    TextKind::Rcdata.as_str(),
    TextKind::Rawtext.as_str(),
    TextKind::ScriptData.as_str(),
    TextKind::Plaintext.as_str(),
    TextKind::Cdata.as_str(),
];

/// `name` as one of `names`, or a `ValueError` naming `what`.
fn known(names: &[&'static str], name: &str, what: &str) -> PyResult<&'static str> {
    names
        .iter()
        .find(|known| **known == name)
        .copied()
        .ok_or_else(|| PyValueError::new_err(format!("{name:?} is not a {what}: {names:?}")))
}

/// A token's fields: ranges into its [`Batch`].
#[derive(Clone, Debug, Default)]
struct Fields {
    kind: &'static str,
    name: Option<Range<usize>>,
    /// In [`Batch::attributes`].
    attributes: Range<usize>,
    text: Option<Range<usize>>,
    text_kind: Option<&'static str>,
    self_closing: bool,
    public_id: Option<Range<usize>>,
    system_id: Option<Range<usize>>,
    force_quirks: bool,
    /// In [`Batch::raw`].
    raw: Range<usize>,
    span: (usize, usize),
}

/// One token, or with `lossless=True` a run of bytes that belongs to no token (kind "raw").
#[pyclass(frozen, eq, module = "tagstream")]
pub(crate) struct Token {
    batch: Arc<Batch>,
    fields: Fields,
}

/// A token's values, in the order of its constructor's parameters.
type Values<'a> = (
    &'static str,
    Option<&'a str>,
    Vec<(&'a str, &'a str)>,
    Option<&'a str>,
    Option<&'static str>,
    bool,
    Option<&'a str>,
    Option<&'a str>,
    bool,
    &'a [u8],
    (usize, usize),
);

impl Token {
    fn values(&self) -> Values<'_> {
        (
            self.kind(),
            self.name(),
            self.attributes(),
            self.text(),
            self.text_kind(),
            self.self_closing(),
            self.public_id(),
            self.system_id(),
            self.force_quirks(),
            self.raw(),
            self.span(),
        )
    }

    fn string(&self, range: &Option<Range<usize>>) -> Option<&str> {
        range.as_ref().map(|range| self.batch.str(range))
    }
}

impl PartialEq for Token {
    fn eq(&self, other: &Token) -> bool {
        self.values() == other.values()
    }
}

#[pymethods]
impl Token {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
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
    ) -> PyResult<Token> {
        let mut batch = Batch::default();
        let attributes = attributes.iter().map(|(n, v)| (n.as_str(), v.as_str()));
        let fields = Fields {
            kind: known(KINDS, kind, "token kind")?,
            name: name.map(|name| batch.push_str(name)),
            attributes: batch.push_attributes(attributes),
            text: text.map(|text| batch.push_str(text)),
            text_kind: text_kind
                .map(|kind| known(TEXT_KINDS, kind, "text kind"))
                .transpose()?,
            self_closing,
            public_id: public_id.map(|id| batch.push_str(id)),
            system_id: system_id.map(|id| batch.push_str(id)),
            force_quirks,
            raw: batch.push_raw(raw),
            span,
        };
        Ok(Token {
            batch: Arc::new(batch),
            fields,
        })
    }

    /// "start_tag", "end_tag", "text", "comment", "doctype", "processing_instruction" or "raw".
    #[getter]
    fn kind(&self) -> &'static str {
        self.fields.kind
    }

    /// The tag name, DOCTYPE name or processing instruction target; None for the others.
    #[getter]
    fn name(&self) -> Option<&str> {
        self.string(&self.fields.name)
    }

    /// A start tag's attributes as (name, value) pairs, values decoded, in source order.
    #[getter]
    fn attributes(&self) -> Vec<(&str, &str)> {
        let attributes = &self.batch.attributes[self.fields.attributes.clone()];
        let pair = |(name, value): &(Range<usize>, Range<usize>)| {
            (self.batch.str(name), self.batch.str(value))
        };
        attributes.iter().map(pair).collect()
    }

    /// The decoded text of a text token, a comment's data, a processing instruction's data.
    #[getter]
    fn text(&self) -> Option<&str> {
        self.string(&self.fields.text)
    }

    /// A text token's state: "data", "rcdata", "rawtext", "script_data", "plaintext", "cdata".
    #[getter]
    fn text_kind(&self) -> Option<&'static str> {
        self.fields.text_kind
    }

    /// A start tag's self-closing flag.
    #[getter]
    fn self_closing(&self) -> bool {
        self.fields.self_closing
    }

    /// A DOCTYPE's public identifier.
    #[getter]
    fn public_id(&self) -> Option<&str> {
        self.string(&self.fields.public_id)
    }

    /// A DOCTYPE's system identifier.
    #[getter]
    fn system_id(&self) -> Option<&str> {
        self.string(&self.fields.system_id)
    }

    /// A DOCTYPE's force-quirks flag.
    #[getter]
    fn force_quirks(&self) -> bool {
        self.fields.force_quirks
    }

    /// The token's bytes as written.
    #[getter]
    fn raw(&self) -> &[u8] {
        &self.batch.raw[self.fields.raw.clone()]
    }

    /// Byte offsets (start, end) in the whole input.
    #[getter]
    fn span(&self) -> (usize, usize) {
        self.fields.span
    }

    /// Pickled as its values.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, Bound<'py, PyTuple>>> {
        let values = slf.get().values().into_pyobject(slf.py())?;
        Ok((slf.get_type(), values))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        match self.fields.kind {
            "start_tag" => crate::fields_repr!(
                py,
                "Token",
                self.{ kind, name, attributes, self_closing, span }
            ),
            "end_tag" => crate::fields_repr!(py, "Token", self.{ kind, name, span }),
            "text" => crate::fields_repr!(py, "Token", self.{ kind, text, text_kind, span }),
            "doctype" => crate::fields_repr!(
                py,
                "Token",
                self.{ kind, name, public_id, system_id, force_quirks, span }
            ),
            "processing_instruction" => {
                crate::fields_repr!(py, "Token", self.{ kind, name, text, span })
            }
            "comment" => crate::fields_repr!(py, "Token", self.{ kind, text, span }),
            _ => crate::fields_repr!(py, "Token", self.{ kind, raw, span }),
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

/// What a feed produces, in order: tokens' fields (in the feed's [`Batch`]) and errors.
enum Item {
    Token(Fields),
    Error(ParseError),
}

fn owned_error(error: &tagstream::ParseError) -> ParseError {
    ParseError {
        code: error.code.as_str().into(),
        offset: error.offset,
        line: error.position.line,
        column: error.position.col,
    }
}

/// Copy out every token of one feed into a [`Batch`], each followed by the errors it brought.
macro_rules! collect_items {
    ($tokens:expr, $len:expr) => {{
        let mut tokens = $tokens;
        let (mut batch, mut items) = (Batch::for_input($len), Vec::new());
        while let Some(token) = tokens.next() {
            items.push(Item::Token(batch.push(&token)));
            items.extend(tokens.drain_errors().map(|e| Item::Error(owned_error(&e))));
        }
        items.extend(tokens.drain_errors().map(|e| Item::Error(owned_error(&e))));
        (batch, items)
    }};
}

/// A tokenizer of either dialect (boxed: one per `Tokenizer` object, moved only when made).
enum Machine {
    Html(Box<tagstream::Tokenizer>),
    Xml5(Box<xml5::Tokenizer>),
}

/// What one call asks of the machine.
#[derive(Clone, Copy)]
enum Step<'a> {
    Whole(&'a [u8]),
    Feed(&'a [u8]),
    Finish,
}

impl Machine {
    /// Run `step`: the items it produces, or the limit that stopped it.
    fn run(&mut self, step: Step<'_>) -> Result<Output, tagstream::LimitError> {
        let items = match (&mut *self, step) {
            (Machine::Html(t), Step::Whole(input)) => {
                collect_items!(t.tokenize(input), input.len())
            }
            (Machine::Html(t), Step::Feed(chunk)) => collect_items!(t.feed(chunk), chunk.len()),
            (Machine::Html(t), Step::Finish) => collect_items!(t.finish(), 0),
            (Machine::Xml5(t), Step::Whole(input)) => {
                collect_items!(t.tokenize(input), input.len())
            }
            (Machine::Xml5(t), Step::Feed(chunk)) => collect_items!(t.feed(chunk), chunk.len()),
            (Machine::Xml5(t), Step::Finish) => collect_items!(t.finish(), 0),
        };
        let limit = match self {
            Machine::Html(t) => t.limit_error(),
            Machine::Xml5(t) => t.limit_error(),
        };
        limit.map_or(Ok(items), Err)
    }
}

/// The options, checked: `dialect` "html" or "xml5" (which has no simulator and no scripting).
#[allow(clippy::too_many_arguments)]
fn machine(
    dialect: &str,
    errors: bool,
    simulate: bool,
    scripting: bool,
    lossless: bool,
    max_carry: Option<usize>,
    max_arena: Option<usize>,
) -> PyResult<Machine> {
    let mut options = Options::new().errors(errors).lossless(lossless);
    if let Some(bytes) = max_carry {
        options = options.max_carry(bytes);
    }
    if let Some(bytes) = max_arena {
        options = options.max_arena(bytes);
    }
    match dialect {
        "html" => {
            let options = options.simulate(simulate).scripting(scripting);
            Ok(Machine::Html(Box::new(tagstream::Tokenizer::new(options))))
        }
        "xml5" if !simulate || scripting => Err(PyValueError::new_err(
            "simulate=False and scripting=True are HTML only: XML5 has no tree-builder simulator",
        )),
        "xml5" => Ok(Machine::Xml5(Box::new(xml5::Tokenizer::new(options)))),
        other => Err(PyValueError::new_err(format!(
            "dialect must be \"html\" or \"xml5\", not {other:?}"
        ))),
    }
}

/// The typed exception for a limit error.
fn limit_error(py: Python<'_>, limit: tagstream::LimitError) -> PyErr {
    let err = LimitError::new_err(limit.to_string());
    let value = err.value(py);
    let which = match limit.limit {
        Limit::Carry => "carry",
        Limit::Arena => "arena",
    };
    let set = [
        value.setattr("limit", which),
        value.setattr("max", limit.max),
        value.setattr("needed", limit.needed),
        value.setattr("offset", limit.offset),
    ];
    match set.into_iter().find_map(Result::err) {
        Some(failed) => failed,
        None => err,
    }
}

/// What one feed gives: the batch its tokens share, and the items.
type Output = (Batch, Vec<Item>);

/// The items as a Python list.
fn to_list(py: Python<'_>, (batch, items): Output) -> PyResult<Bound<'_, PyList>> {
    let batch = Arc::new(batch);
    let list = PyList::empty(py);
    for item in items {
        match item {
            Item::Token(fields) => {
                let batch = Arc::clone(&batch);
                list.append(Py::new(py, Token { batch, fields })?)?
            }
            Item::Error(error) => list.append(Py::new(py, error)?)?,
        }
    }
    Ok(list)
}

/// Every token of a whole document (bytes, bytearray, memoryview or str; bytes read as UTF-8),
/// as a list of `Token`, with each token's `ParseError`s after it when `errors`.
///
/// `simulate`: the tree-builder simulator switches text states as a browser's tree builder
/// would (HTML only). `dialect`: "html" or "xml5". `lossless`: bytes that belong to no token come
/// as tokens of kind "raw", so the spans cover the input. `max_arena`: a cap in bytes on the
/// decoded strings, past which `LimitError` is raised.
#[pyfunction]
#[pyo3(signature = (html, errors=false, simulate=true, dialect="html", lossless=false, scripting=false, max_arena=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn tokens<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    errors: bool,
    simulate: bool,
    dialect: &str,
    lossless: bool,
    scripting: bool,
    max_arena: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let mut machine = machine(
        dialect, errors, simulate, scripting, lossless, None, max_arena,
    )?;
    let document = Document::of(html)?;
    let bytes = document.bytes();
    let items = py.detach(|| machine.run(Step::Whole(bytes)));
    to_list(py, items.map_err(|limit| limit_error(py, limit))?)
}

/// A streaming tokenizer: `feed(chunk)` returns the tokens (and errors) the chunk completes,
/// `finish()` those the end of input completes; a feed after `finish()` starts a new document.
/// Tokens are the same however the input is cut.
///
/// Options as for `tokens`, and `max_carry`: a cap in bytes on an unfinished token held across
/// chunks (a tag or comment that never ends), past which `LimitError` is raised.
#[pyclass(frozen, module = "tagstream")]
pub(crate) struct Tokenizer {
    machine: Mutex<Machine>,
}

#[pymethods]
impl Tokenizer {
    #[new]
    #[pyo3(signature = (errors=false, simulate=true, dialect="html", lossless=false, scripting=false, max_carry=None, max_arena=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        errors: bool,
        simulate: bool,
        dialect: &str,
        lossless: bool,
        scripting: bool,
        max_carry: Option<usize>,
        max_arena: Option<usize>,
    ) -> PyResult<Tokenizer> {
        let machine = machine(
            dialect, errors, simulate, scripting, lossless, max_carry, max_arena,
        )?;
        Ok(Tokenizer {
            machine: Mutex::new(machine),
        })
    }

    /// The tokens and errors `chunk` (bytes, bytearray, memoryview or str) completes.
    fn feed<'py>(&self, chunk: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let document = Document::of(chunk)?;
        self.run(chunk.py(), Step::Feed(document.bytes()))
    }

    /// The end of the input: the tokens and errors still pending.
    fn finish<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.run(py, Step::Finish)
    }
}

impl Tokenizer {
    fn run<'py>(&self, py: Python<'py>, step: Step<'_>) -> PyResult<Bound<'py, PyList>> {
        let items = py.detach(|| {
            let mut machine = self.machine.lock().map_err(|_| ())?;
            Ok(machine.run(step))
        });
        let items = items.map_err(|()| {
            PyRuntimeError::new_err("the tokenizer was poisoned by a panic in another thread")
        })?;
        to_list(py, items.map_err(|limit| limit_error(py, limit))?)
    }
}
