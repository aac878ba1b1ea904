//! `Tokens`, what `tokens()`, `Tokenizer.feed()` and `Tokenizer.finish()` return: the items of
//! one call (tokens and parse errors, or SGML events) as a read-only sequence over their
//! [`Batch`]. The call builds no Python object but this one: an item becomes a Python object
//! when it is indexed or iterated to, and its fields when they are read. It behaves as the
//! list it stands for: `len`, indexing (a slice is a view of the same batch), iteration,
//! `in`, `index`, `count`, equality with another `Tokens` or a list of equal items, a list's
//! `repr`, `+` (a list), and it pickles as a list.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use pyo3::IntoPyObjectExt;
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PySlice};

use super::batch::{Batch, Item};
use super::items::{ParseError, Token};
use super::sgml::Event;
use crate::Reduced;

/// The items of one call, or a slice of them.
#[pyclass(frozen, sequence, module = "tagstream")]
#[derive(Clone)]
pub(crate) struct Tokens {
    batch: Arc<Batch>,
    /// The item at index `i` is the batch's item at `start + i * step`, for `i` below `len`.
    start: usize,
    step: isize,
    len: usize,
}

/// The batch's item at `position` as a Python object.
fn item<'py>(py: Python<'py>, batch: &Arc<Batch>, position: usize) -> PyResult<Bound<'py, PyAny>> {
    Ok(match batch.items()[position] {
        Item::Token(at) => Bound::new(py, Token::new(batch, at))?.into_any(),
        Item::Error(at) => Bound::new(py, ParseError::from(batch.error(at)))?.into_any(),
        Item::Event(at) => Bound::new(py, Event::new(batch, at))?.into_any(),
    })
}

impl Tokens {
    /// All the items of `batch`.
    pub(crate) fn new(batch: Batch) -> Tokens {
        let len = batch.items().len();
        Tokens {
            batch: Arc::new(batch),
            start: 0,
            step: 1,
            len,
        }
    }

    /// The item at index `i` (below `len`).
    fn item<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyAny>> {
        let position = self.start as isize + i as isize * self.step;
        item(py, &self.batch, position as usize)
    }

    /// The items as Python objects, in order.
    fn objects<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        (0..self.len).map(|i| self.item(py, i)).collect()
    }

    /// The slice of the items `slice` selects, a view of the same batch.
    fn slice(&self, slice: &Bound<'_, PySlice>) -> PyResult<Tokens> {
        let at = slice.indices(self.len as isize)?;
        let first = if at.slicelength > 0 {
            self.start as isize + at.start * self.step
        } else {
            0
        };
        Ok(Tokens {
            batch: Arc::clone(&self.batch),
            start: first as usize,
            // Below two items the step is never used (and multiplying could overflow).
            step: if at.slicelength > 1 {
                self.step * at.step
            } else {
                1
            },
            len: at.slicelength,
        })
    }

    /// Whether the items equal `others`, one by one.
    fn equals(&self, py: Python<'_>, others: &[Bound<'_, PyAny>]) -> PyResult<bool> {
        if self.len != others.len() {
            return Ok(false);
        }
        for (i, other) in others.iter().enumerate() {
            if !self.item(py, i)?.eq(other)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The items of `other` (a `Tokens` or a list), or None for anything else.
    fn others<'py>(other: &Bound<'py, PyAny>) -> PyResult<Option<Vec<Bound<'py, PyAny>>>> {
        if let Ok(tokens) = other.cast::<Tokens>() {
            return tokens.get().objects(other.py()).map(Some);
        }
        Ok(other
            .cast::<PyList>()
            .ok()
            .map(|list| list.iter().collect()))
    }
}

#[pymethods]
impl Tokens {
    fn __len__(&self) -> usize {
        self.len
    }

    /// An item (`IndexError` past the end; negative indices count from it), or a slice.
    fn __getitem__<'py>(&self, index: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = index.py();
        if let Ok(slice) = index.cast::<PySlice>() {
            return Bound::new(py, self.slice(slice)?).map(Bound::into_any);
        }
        let i: isize = index.extract()?;
        let len = self.len as isize;
        let i = if i < 0 { i + len } else { i };
        if !(0..len).contains(&i) {
            return Err(PyIndexError::new_err("Tokens index out of range"));
        }
        self.item(py, i as usize)
    }

    fn __iter__(&self) -> TokensIterator {
        TokensIterator {
            tokens: self.clone(),
            next: AtomicUsize::new(0),
        }
    }

    /// Equal to a `Tokens` or a list of equal items, in order.
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Some(others) = Tokens::others(other)? else {
            return Ok(py.NotImplemented());
        };
        let wanted = match op {
            CompareOp::Eq => true,
            CompareOp::Ne => false,
            _ => return Ok(py.NotImplemented()),
        };
        (self.equals(py, &others)? == wanted).into_py_any(py)
    }

    /// A list of the items, then `other`'s (a `Tokens` or a list).
    fn __add__<'py>(&self, other: &Bound<'py, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        match Tokens::others(other)? {
            Some(others) => {
                let mut items = self.objects(py)?;
                items.extend(others);
                PyList::new(py, items)?.into_py_any(py)
            }
            None => Ok(py.NotImplemented()),
        }
    }

    /// A list of `other`'s items (a list), then these.
    fn __radd__<'py>(&self, other: &Bound<'py, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        match Tokens::others(other)? {
            Some(mut items) => {
                items.extend(self.objects(py)?);
                PyList::new(py, items)?.into_py_any(py)
            }
            None => Ok(py.NotImplemented()),
        }
    }

    /// The index of the first item equal to `value` (`ValueError` if none is).
    fn index(&self, value: &Bound<'_, PyAny>) -> PyResult<usize> {
        for i in 0..self.len {
            if self.item(value.py(), i)?.eq(value)? {
                return Ok(i);
            }
        }
        Err(PyValueError::new_err(format!(
            "{} is not in Tokens",
            value.repr()?
        )))
    }

    /// How many items equal `value`.
    fn count(&self, value: &Bound<'_, PyAny>) -> PyResult<usize> {
        let mut count = 0;
        for i in 0..self.len {
            count += usize::from(self.item(value.py(), i)?.eq(value)?);
        }
        Ok(count)
    }

    /// Pickled as a list of its items.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Reduced<'py, (Vec<Bound<'py, PyAny>>,)>> {
        Ok((py.get_type::<PyList>(), (self.objects(py)?,)))
    }

    /// As a list's.
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut reprs = Vec::with_capacity(self.len);
        for i in 0..self.len {
            reprs.push(self.item(py, i)?.repr()?.to_string());
        }
        Ok(format!("[{}]", reprs.join(", ")))
    }
}

/// An iterator over a [`Tokens`].
#[pyclass(frozen, module = "tagstream")]
pub(crate) struct TokensIterator {
    tokens: Tokens,
    /// The index of the next item.
    next: AtomicUsize,
}

#[pymethods]
impl TokensIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        if i >= self.tokens.len {
            // Stay at the end, however often asked.
            self.next.store(self.tokens.len, Ordering::Relaxed);
            return Ok(None);
        }
        self.tokens.item(py, i).map(Some)
    }

    /// How many items are left.
    fn __length_hint__(&self) -> usize {
        let next = self.next.load(Ordering::Relaxed);
        self.tokens.len.saturating_sub(next)
    }
}
