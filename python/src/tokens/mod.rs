//! Tokens: `tagstream.tokens` for a whole document and `tagstream.Tokenizer` for a stream fed
//! chunk by chunk, in the HTML, XML5 or SGML dialect. The tokenizer runs with the GIL released
//! and records each item (token, parse error, SGML event) of a call in one [`Batch`], which
//! copies the input once and only the strings the tokenizer decoded besides (`batch`); the call
//! then returns a single Python object, a [`Tokens`] sequence over the batch (`sequence`),
//! whose items become Python objects (`items`, `sgml`) when indexed or iterated to, and their
//! fields Python values when read. Bytes are read as UTF-8 (invalid sequences decode to
//! U+FFFD); spans are byte offsets in the whole stream.

mod batch;
mod items;
mod names;
mod sequence;
mod sgml;

use std::sync::Mutex;

use pyo3::exceptions::{PyException, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use tagstream::sgml::SgmlOptions;
use tagstream::{Limit, Options, xml5};

use crate::input::Document;
use batch::{Batch, Builder};
pub(crate) use items::{ParseError, Token};
pub(crate) use sequence::{Tokens, TokensIterator};
pub(crate) use sgml::{Event, Lexeme};

pyo3::create_exception!(
    tagstream,
    LimitError,
    PyException,
    "A memory limit (max_carry, max_arena) stopped the tokenizer: the attributes `limit` \
     (\"carry\" or \"arena\"), `max`, `needed` and `offset` (of the first token not produced) \
     say which and where."
);

/// Record every token of one call in `$builder`, each followed by the errors it brought.
macro_rules! collect_tokens {
    ($tokens:expr, $builder:expr) => {{
        let (mut tokens, builder) = ($tokens, $builder);
        while let Some(token) = tokens.next() {
            builder.token(&token);
            tokens.drain_errors().for_each(|e| builder.error(&e));
        }
        tokens.drain_errors().for_each(|e| builder.error(&e));
    }};
}

/// Record every SGML event of one call in `builder`, a problem's with its line and column.
fn collect_events(mut events: tagstream::sgml::Events<'_>, builder: &mut Builder<'_>) {
    while let Some(event) = events.next() {
        let position = match event.problem() {
            Some(_) => events.position(event.span().start),
            None => None,
        };
        builder.event(&event, position.map(|at| (at.line, at.col)));
    }
}

/// A tokenizer of one of the dialects (boxed: one per `Tokenizer` object, moved only when made).
enum Machine {
    Html(Box<tagstream::Tokenizer>),
    Xml5(Box<xml5::Tokenizer>),
    Sgml(Box<tagstream::sgml::Tokenizer>),
}

/// What one call asks of the machine.
#[derive(Clone, Copy)]
enum Step<'a> {
    Whole(&'a [u8]),
    Feed(&'a [u8]),
    Finish,
}

impl Machine {
    /// Run `step`: the batch of the items it produces, or the limit that stopped it.
    fn run(&mut self, step: Step<'_>) -> Result<Batch, tagstream::LimitError> {
        let input = match step {
            Step::Whole(bytes) | Step::Feed(bytes) => bytes,
            Step::Finish => &[],
        };
        let mut builder = Builder::new(input);
        let b = &mut builder;
        match (&mut *self, step) {
            (Machine::Html(t), Step::Whole(input)) => collect_tokens!(t.tokenize(input), b),
            (Machine::Html(t), Step::Feed(chunk)) => collect_tokens!(t.feed(chunk), b),
            (Machine::Html(t), Step::Finish) => collect_tokens!(t.finish(), b),
            (Machine::Xml5(t), Step::Whole(input)) => collect_tokens!(t.tokenize(input), b),
            (Machine::Xml5(t), Step::Feed(chunk)) => collect_tokens!(t.feed(chunk), b),
            (Machine::Xml5(t), Step::Finish) => collect_tokens!(t.finish(), b),
            (Machine::Sgml(t), Step::Whole(input)) => collect_events(t.tokenize(input), b),
            (Machine::Sgml(t), Step::Feed(chunk)) => collect_events(t.feed(chunk), b),
            (Machine::Sgml(t), Step::Finish) => collect_events(t.finish(), b),
        }
        let limit = match self {
            Machine::Html(t) => t.limit_error(),
            Machine::Xml5(t) => t.limit_error(),
            Machine::Sgml(t) => t.limit_error(),
        };
        limit.map_or(Ok(builder.finish()), Err)
    }
}

/// The options of `tokens` and `Tokenizer`.
#[derive(Clone, Copy)]
struct Settings<'a> {
    dialect: &'a str,
    errors: bool,
    simulate: bool,
    lossless: bool,
    scripting: bool,
    normalize: bool,
    max_carry: Option<usize>,
    max_arena: Option<usize>,
}

impl Settings<'_> {
    /// A `ValueError` for the first option `dialect` does not take, if one is set.
    fn refuse(&self, dialect: &str, why: &str, options: &[(&str, bool)]) -> PyResult<()> {
        match options.iter().find(|(_, set)| *set) {
            Some((option, _)) => Err(PyValueError::new_err(format!(
                "{option} does not go with dialect=\"{dialect}\": {why}"
            ))),
            None => Ok(()),
        }
    }

    /// The tokenizer these options make, or a `ValueError` for options its dialect does not
    /// take: XML5 has no tree-builder simulator and no scripting; SGML's events are lossless
    /// and carry their problems themselves; `normalize` (the note's) is SGML's only.
    fn machine(&self) -> PyResult<Machine> {
        let mut options = Options::new().errors(self.errors).lossless(self.lossless);
        if let Some(bytes) = self.max_carry {
            options = options.max_carry(bytes);
        }
        if let Some(bytes) = self.max_arena {
            options = options.max_arena(bytes);
        }
        let normalize = [("normalize=True", self.normalize)];
        match self.dialect {
            "html" => {
                self.refuse("html", "it is the SGML note's", &normalize)?;
                let options = options.simulate(self.simulate).scripting(self.scripting);
                Ok(Machine::Html(Box::new(tagstream::Tokenizer::new(options))))
            }
            "xml5" => {
                let html_only = [
                    ("simulate=False", !self.simulate),
                    ("scripting=True", self.scripting),
                ];
                let why = "XML5 has no tree-builder simulator";
                self.refuse("xml5", why, &html_only)?;
                self.refuse("xml5", "it is the SGML note's", &normalize)?;
                Ok(Machine::Xml5(Box::new(xml5::Tokenizer::new(options))))
            }
            "sgml" => {
                let html_only = [
                    ("simulate=False", !self.simulate),
                    ("scripting=True", self.scripting),
                    ("errors=True", self.errors),
                    ("lossless=True", self.lossless),
                ];
                let why = "problems are events of their own, and the events are lossless";
                self.refuse("sgml", why, &html_only)?;
                // As the CLI lexes: every byte in a lexeme (a byte order mark too), and the
                // line and column of each problem.
                let options = options.strip_bom(false).track_positions(true);
                let sgml = SgmlOptions {
                    normalize: self.normalize,
                };
                let tokenizer = tagstream::sgml::Tokenizer::new(options, sgml);
                Ok(Machine::Sgml(Box::new(tokenizer)))
            }
            other => Err(PyValueError::new_err(format!(
                "dialect must be \"html\", \"xml5\" or \"sgml\", not {other:?}"
            ))),
        }
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

/// Every token of a whole document (bytes, bytearray, memoryview or str; bytes read as UTF-8),
/// as a `Tokens` sequence of `Token`, with each token's `ParseError`s after it when `errors`;
/// with `dialect="sgml"`, of the SGML lexer's `Event`s.
///
/// `simulate`: the tree-builder simulator switches text states as a browser's tree builder
/// would (HTML only). `dialect`: "html", "xml5" or "sgml". `lossless`: bytes that belong to no
/// token come as tokens of kind "raw", so the spans cover the input (SGML's events always
/// do). `max_arena`: a cap in bytes on the decoded strings, past which `LimitError` is raised.
/// `normalize` (SGML only): the note's normalization, names but entity names lowercased.
#[pyfunction]
#[pyo3(signature = (html, errors=false, simulate=true, dialect="html", lossless=false, scripting=false, max_arena=None, normalize=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn tokens(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    errors: bool,
    simulate: bool,
    dialect: &str,
    lossless: bool,
    scripting: bool,
    max_arena: Option<usize>,
    normalize: bool,
) -> PyResult<Tokens> {
    // A tokenizer of one call: the options made and the batch returned as `Tokenizer` does.
    let tokenizer = Tokenizer::new(
        errors, simulate, dialect, lossless, scripting, None, max_arena, normalize,
    )?;
    let document = Document::of(html)?;
    tokenizer.run(py, Step::Whole(document.bytes()))
}

/// A streaming tokenizer: `feed(chunk)` returns the tokens (and errors, or SGML events) the
/// chunk completes, `finish()` those the end of input completes; a feed after `finish()` starts
/// a new document. Tokens are the same however the input is cut (SGML data may come in more
/// events).
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
    #[pyo3(signature = (errors=false, simulate=true, dialect="html", lossless=false, scripting=false, max_carry=None, max_arena=None, normalize=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        errors: bool,
        simulate: bool,
        dialect: &str,
        lossless: bool,
        scripting: bool,
        max_carry: Option<usize>,
        max_arena: Option<usize>,
        normalize: bool,
    ) -> PyResult<Tokenizer> {
        let settings = Settings {
            dialect,
            errors,
            simulate,
            lossless,
            scripting,
            normalize,
            max_carry,
            max_arena,
        };
        Ok(Tokenizer {
            machine: Mutex::new(settings.machine()?),
        })
    }

    /// The tokens and errors (or events) `chunk` (bytes, bytearray, memoryview or str)
    /// completes.
    fn feed(&self, chunk: &Bound<'_, PyAny>) -> PyResult<Tokens> {
        let document = Document::of(chunk)?;
        self.run(chunk.py(), Step::Feed(document.bytes()))
    }

    /// The end of the input: the tokens and errors (or events) still pending.
    fn finish(&self, py: Python<'_>) -> PyResult<Tokens> {
        self.run(py, Step::Finish)
    }
}

impl Tokenizer {
    fn run(&self, py: Python<'_>, step: Step<'_>) -> PyResult<Tokens> {
        let batch = py.detach(|| {
            let mut machine = self.machine.lock().map_err(|_| ())?;
            Ok(machine.run(step))
        });
        let batch = batch.map_err(|()| {
            PyRuntimeError::new_err("the tokenizer was poisoned by a panic in another thread")
        })?;
        Ok(Tokens::new(batch.map_err(|limit| limit_error(py, limit))?))
    }
}
