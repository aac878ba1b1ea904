//! `tagstream._native`, the extension module of the `tagstream` Python package: the per-record
//! API (`page`: links and text of one document, as the CLI reports them), tokens (`tokens`:
//! HTML, XML5 or SGML, a whole document or a stream fed chunk by chunk), and WARC archives
//! (`warc`: their records, and the links or text of a whole archive). Every call reads its input
//! where Python keeps it (`input`), does its work in Rust with the GIL released, and only then
//! makes Python objects (for tokens, one sequence whose items are made when read).

mod input;
mod page;
mod tokens;
mod warc;

use std::borrow::Cow;

use pyo3::prelude::*;

/// A name field: one of the library's static names, or a string Python gave (unpickling).
pub(crate) type Name = Cow<'static, str>;

/// What `__reduce__` returns for pickling: the class, and the arguments of its constructor.
pub(crate) type Reduced<'py, Args> = (Bound<'py, pyo3::types::PyType>, Args);

/// `Name(field=..., ...)` for a `__repr__`: the named fields of `self` (or, with `self.{...}`,
/// its getters' values), each shown as Python's `repr` shows it.
macro_rules! fields_repr {
    ($py:expr, $name:literal, $self:ident { $($field:ident),* }) => {{
        use pyo3::IntoPyObjectExt;
        let fields: Vec<String> = vec![$(
            format!("{}={}", stringify!($field), (&$self.$field).into_bound_py_any($py)?.repr()?)
        ),*];
        Ok::<String, PyErr>(format!("{}({})", $name, fields.join(", ")))
    }};
    // Fields read through getter methods.
    ($py:expr, $name:literal, $self:ident.{ $($field:ident),* }) => {{
        use pyo3::IntoPyObjectExt;
        let fields: Vec<String> = vec![$(
            format!("{}={}", stringify!($field), $self.$field().into_bound_py_any($py)?.repr()?)
        ),*];
        Ok::<String, PyErr>(format!("{}({})", $name, fields.join(", ")))
    }};
}
pub(crate) use fields_repr;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(page::links, m)?)?;
    m.add_function(wrap_pyfunction!(page::text, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::tokens, m)?)?;
    // tagstream.warc's, under names of their own here (python/tagstream/warc.py).
    let warc_records = wrap_pyfunction!(warc::records, m)?;
    m.add("warc_records", warc_records)?;
    m.add("warc_links", wrap_pyfunction!(warc::links, m)?)?;
    m.add("warc_text", wrap_pyfunction!(warc::text, m)?)?;
    m.add_class::<warc::Record>()?;
    m.add_class::<warc::Records>()?;
    m.add_class::<warc::Pages>()?;
    m.add_class::<page::Link>()?;
    m.add_class::<page::Links>()?;
    m.add_class::<page::Text>()?;
    m.add_class::<tokens::Tokens>()?;
    m.add_class::<tokens::TokensIterator>()?;
    m.add_class::<tokens::Token>()?;
    m.add_class::<tokens::ParseError>()?;
    m.add_class::<tokens::Event>()?;
    m.add_class::<tokens::Lexeme>()?;
    m.add_class::<tokens::Tokenizer>()?;
    m.add("LimitError", m.py().get_type::<tokens::LimitError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
