//! Python strings made once for the names a field takes from a fixed table (a token's `kind`,
//! a text's `text_kind`, an SGML event's `channel`, a lexeme's `kind`), so that reading such a
//! field makes no new string: iterating over tokens and reading their kind is the common loop.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;

/// The interned Python strings of a table of names.
pub(crate) struct Interned {
    names: &'static [&'static str],
    strings: PyOnceLock<Vec<Py<PyString>>>,
}

impl Interned {
    pub(crate) const fn new(names: &'static [&'static str]) -> Interned {
        Interned {
            names,
            strings: PyOnceLock::new(),
        }
    }

    /// The table's name at `index`, as a Python string.
    pub(crate) fn get<'py>(&self, py: Python<'py>, index: usize) -> Bound<'py, PyString> {
        let strings = self.strings.get_or_init(py, || {
            let intern = |name: &&str| PyString::intern(py, name).unbind();
            self.names.iter().map(intern).collect()
        });
        strings[index].bind(py).clone()
    }
}

/// A name of a table (its index there), as a getter returns it: it becomes the table's Python
/// string.
pub(crate) struct Named(pub(crate) &'static Interned, pub(crate) usize);

impl<'py> IntoPyObject<'py> for Named {
    type Target = PyString;
    type Output = Bound<'py, PyString>;
    type Error = std::convert::Infallible;

    fn into_pyobject(self, py: Python<'py>) -> Result<Bound<'py, PyString>, Self::Error> {
        Ok(self.0.get(py, self.1))
    }
}
