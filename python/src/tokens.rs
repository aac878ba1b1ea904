//! Tokens: `tagstream.tokens` for a whole document and `tagstream.Tokenizer` for a stream fed
//! chunk by chunk, HTML or XML5. The tokenizer runs with the GIL released and copies each token
//! into an owned [`Token`] (tokens borrow the chunk, which the next feed replaces); the Python
//! objects are made after. Bytes are read as UTF-8 (invalid sequences decode to U+FFFD); spans
//! are byte offsets in the whole stream.

use std::sync::Mutex;

use pyo3::exceptions::{PyException, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
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

/// One token, or with `lossless=True` a run of bytes that belongs to no token (kind "raw").
#[pyclass(frozen, get_all, eq, module = "tagstream")]
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Token {
    /// "start_tag", "end_tag", "text", "comment", "doctype", "processing_instruction" or "raw".
    kind: Name,
    /// The tag name, DOCTYPE name or processing instruction target; None for the others.
    name: Option<String>,
    /// A start tag's attributes as (name, value) pairs, values decoded, in source order.
    attributes: Vec<(String, String)>,
    /// The decoded text of a text token, a comment's data, a processing instruction's data.
    text: Option<String>,
    /// A text token's state: "data", "rcdata", "rawtext", "script_data", "plaintext", "cdata".
    text_kind: Option<Name>,
    /// A start tag's self-closing flag.
    self_closing: bool,
    /// A DOCTYPE's public and system identifiers and force-quirks flag.
    public_id: Option<String>,
    system_id: Option<String>,
    force_quirks: bool,
    /// The token's bytes as written.
    raw: Vec<u8>,
    /// Byte offsets (start, end) in the whole input.
    span: (usize, usize),
}

#[pymethods]
impl Token {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        kind: String,
        name: Option<String>,
        attributes: Vec<(String, String)>,
        text: Option<String>,
        text_kind: Option<String>,
        self_closing: bool,
        public_id: Option<String>,
        system_id: Option<String>,
        force_quirks: bool,
        raw: Vec<u8>,
        span: (usize, usize),
    ) -> Token {
        Token {
            kind: kind.into(),
            name,
            attributes,
            text,
            text_kind: text_kind.map(Name::from),
            self_closing,
            public_id,
            system_id,
            force_quirks,
            raw,
            span,
        }
    }

    /// Pickled as its fields.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(
        Bound<'py, pyo3::types::PyType>,
        Bound<'py, pyo3::types::PyTuple>,
    )> {
        let t = slf.get().clone();
        let raw = pyo3::types::PyBytes::new(slf.py(), &t.raw);
        let fields = (
            t.kind,
            t.name,
            t.attributes,
            t.text,
            t.text_kind,
            t.self_closing,
            t.public_id,
            t.system_id,
            t.force_quirks,
            raw,
            t.span,
        );
        Ok((slf.get_type(), fields.into_pyobject(slf.py())?))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        match &*self.kind {
            "start_tag" => crate::fields_repr!(
                py,
                "Token",
                self {
                    kind,
                    name,
                    attributes,
                    self_closing,
                    span
                }
            ),
            "end_tag" => crate::fields_repr!(py, "Token", self { kind, name, span }),
            "text" => crate::fields_repr!(
                py,
                "Token",
                self {
                    kind,
                    text,
                    text_kind,
                    span
                }
            ),
            "doctype" => crate::fields_repr!(
                py,
                "Token",
                self {
                    kind,
                    name,
                    public_id,
                    system_id,
                    force_quirks,
                    span
                }
            ),
            "processing_instruction" => crate::fields_repr!(
                py,
                "Token",
                self {
                    kind,
                    name,
                    text,
                    span
                }
            ),
            "comment" => crate::fields_repr!(py, "Token", self { kind, text, span }),
            _ => crate::fields_repr!(py, "Token", self { kind, raw, span }),
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

/// What a feed produces, in order.
enum Item {
    Token(Token),
    Error(ParseError),
}

fn text_kind(kind: TextKind) -> &'static str {
    match kind {
        TextKind::Data => "data",
        TextKind::Rcdata => "rcdata",
        TextKind::Rawtext => "rawtext",
        TextKind::ScriptData => "script_data",
        TextKind::Plaintext => "plaintext",
        TextKind::Cdata => "cdata",
    }
}

/// `token`, owned.
fn owned(token: &tagstream::Token<'_>) -> Token {
    use tagstream::Token as T;
    let span = token.span();
    let base = Token {
        raw: token.raw().to_vec(),
        span: (span.start, span.end),
        ..Token::default()
    };
    match token {
        T::StartTag(tag) => Token {
            kind: "start_tag".into(),
            name: Some(tag.name().to_owned()),
            attributes: tag
                .attributes()
                .map(|a| (a.name().to_owned(), a.value().to_owned()))
                .collect(),
            self_closing: tag.self_closing(),
            ..base
        },
        T::EndTag(tag) => Token {
            kind: "end_tag".into(),
            name: Some(tag.name().to_owned()),
            ..base
        },
        T::Text(text) => Token {
            kind: "text".into(),
            text: Some(text.text().to_owned()),
            text_kind: Some(text_kind(text.kind()).into()),
            ..base
        },
        T::Comment(comment) => Token {
            kind: "comment".into(),
            text: Some(comment.data().to_owned()),
            ..base
        },
        T::Doctype(doctype) => Token {
            kind: "doctype".into(),
            name: doctype.name().map(str::to_owned),
            public_id: doctype.public_id().map(str::to_owned),
            system_id: doctype.system_id().map(str::to_owned),
            force_quirks: doctype.force_quirks(),
            ..base
        },
        T::ProcessingInstruction(pi) => Token {
            kind: "processing_instruction".into(),
            name: Some(pi.target().to_owned()),
            text: Some(pi.data().to_owned()),
            ..base
        },
        T::Raw(_) => Token {
            kind: "raw".into(),
            ..base
        },
    }
}

fn owned_error(error: &tagstream::ParseError) -> ParseError {
    ParseError {
        code: error.code.as_str().into(),
        offset: error.offset,
        line: error.position.line,
        column: error.position.col,
    }
}

/// Copy out every token of one feed, each followed by the errors it brought.
macro_rules! collect_items {
    ($tokens:expr) => {{
        let mut tokens = $tokens;
        let mut items = Vec::new();
        while let Some(token) = tokens.next() {
            items.push(Item::Token(owned(&token)));
            items.extend(tokens.drain_errors().map(|e| Item::Error(owned_error(&e))));
        }
        items.extend(tokens.drain_errors().map(|e| Item::Error(owned_error(&e))));
        items
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
    fn run(&mut self, step: Step<'_>) -> Result<Vec<Item>, tagstream::LimitError> {
        let items = match (&mut *self, step) {
            (Machine::Html(t), Step::Whole(input)) => collect_items!(t.tokenize(input)),
            (Machine::Html(t), Step::Feed(chunk)) => collect_items!(t.feed(chunk)),
            (Machine::Html(t), Step::Finish) => collect_items!(t.finish()),
            (Machine::Xml5(t), Step::Whole(input)) => collect_items!(t.tokenize(input)),
            (Machine::Xml5(t), Step::Feed(chunk)) => collect_items!(t.feed(chunk)),
            (Machine::Xml5(t), Step::Finish) => collect_items!(t.finish()),
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

/// The items as a Python list.
fn to_list(py: Python<'_>, items: Vec<Item>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for item in items {
        match item {
            Item::Token(token) => list.append(Py::new(py, token)?)?,
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
