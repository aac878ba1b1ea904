//! A document's bytes as Python hands them over: `bytes` (borrowed), `str` (its UTF-8 encoding),
//! or any object with the buffer protocol (`bytearray`, `memoryview`, `mmap`, NumPy arrays of
//! bytes…), borrowed through a buffer view held until the call ends. The bytes are then read with
//! the GIL released, so only `&[u8]` crosses into [`Python::detach`].
//!
//! The buffer protocol is in the limited API from Python 3.11 only, and PyO3's `PyBuffer` with it;
//! this one-wheel-for-3.9+ module declares the two functions and the `Py_buffer` struct itself
//! (both unchanged since Python 3.0, and the stable ABI's since 3.11). That is the only `unsafe`
//! of the bindings.

use std::ffi::{c_char, c_int, c_void};
use std::ptr;

use pyo3::exceptions::PyTypeError;
use pyo3::ffi::{Py_ssize_t, PyObject};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// CPython's `Py_buffer`.
#[repr(C)]
struct RawView {
    buf: *mut c_void,
    obj: *mut PyObject,
    len: Py_ssize_t,
    itemsize: Py_ssize_t,
    readonly: c_int,
    ndim: c_int,
    format: *mut c_char,
    shape: *mut Py_ssize_t,
    strides: *mut Py_ssize_t,
    suboffsets: *mut Py_ssize_t,
    internal: *mut c_void,
}

unsafe extern "C" {
    fn PyObject_GetBuffer(obj: *mut PyObject, view: *mut RawView, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut RawView);
}

/// `PyBUF_SIMPLE`: one contiguous run of bytes, read-only access.
const PYBUF_SIMPLE: c_int = 0;

/// A buffer view of a Python object, released when dropped.
pub(crate) struct BufferView(RawView);

// SAFETY: the view is a plain C struct owned by this value; the exporter keeps the memory it
// points to alive and unresized until `PyBuffer_Release` (in `Drop`, with the GIL held: see
// `Document`), whatever thread reads it meanwhile.
unsafe impl Send for BufferView {}

impl BufferView {
    /// A simple (contiguous, byte) view of `object`, or the exporter's error (`TypeError` for an
    /// object without the buffer protocol, `BufferError` for a non-contiguous one).
    fn of(object: &Bound<'_, PyAny>) -> PyResult<BufferView> {
        let mut view = RawView {
            buf: ptr::null_mut(),
            obj: ptr::null_mut(),
            len: 0,
            itemsize: 0,
            readonly: 0,
            ndim: 0,
            format: ptr::null_mut(),
            shape: ptr::null_mut(),
            strides: ptr::null_mut(),
            suboffsets: ptr::null_mut(),
            internal: ptr::null_mut(),
        };
        // SAFETY: `object` is a live object (we hold the GIL through `Bound`) and `view` a
        // `Py_buffer` to fill; on failure the exporter sets an exception and fills nothing.
        let status = unsafe { PyObject_GetBuffer(object.as_ptr(), &mut view, PYBUF_SIMPLE) };
        if status != 0 {
            return Err(PyErr::fetch(object.py()));
        }
        Ok(BufferView(view))
    }

    fn as_slice(&self) -> &[u8] {
        if self.0.len <= 0 || self.0.buf.is_null() {
            return &[];
        }
        // SAFETY: a PyBUF_SIMPLE view is `len` contiguous bytes at `buf`, valid until released,
        // which happens only when `self` is dropped (the slice borrows `self`).
        unsafe { std::slice::from_raw_parts(self.0.buf.cast::<u8>(), self.0.len as usize) }
    }
}

impl Drop for BufferView {
    fn drop(&mut self) {
        // SAFETY: the view was filled by a successful `PyObject_GetBuffer` and is released once;
        // a `Document` is dropped with the GIL held (it lives in a `#[pyfunction]`'s frame).
        unsafe { PyBuffer_Release(&mut self.0) }
    }
}

/// The bytes of a document argument, borrowed for the call.
pub(crate) enum Document<'py> {
    Bytes(Bound<'py, PyBytes>),
    Buffer(BufferView),
}

impl<'py> Document<'py> {
    /// Read `html`: `bytes`, `str` (as UTF-8) or a buffer of bytes.
    pub(crate) fn of(html: &Bound<'py, PyAny>) -> PyResult<Document<'py>> {
        if let Ok(bytes) = html.cast::<PyBytes>() {
            return Ok(Document::Bytes(bytes.clone()));
        }
        if let Ok(text) = html.cast::<PyString>() {
            return Ok(Document::Bytes(text.encode_utf8()?));
        }
        match BufferView::of(html) {
            Ok(view) => Ok(Document::Buffer(view)),
            // No buffer protocol at all: say what is expected. A buffer that cannot be read as
            // one run of bytes keeps the exporter's `BufferError`.
            Err(err) if err.is_instance_of::<PyTypeError>(html.py()) => {
                let type_name = html
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_owned(), |name| name.to_string());
                Err(PyTypeError::new_err(format!(
                    "expected bytes, bytearray, memoryview (or another contiguous buffer) or \
                     str, not {type_name}"
                )))
            }
            Err(err) => Err(err),
        }
    }

    /// The bytes, valid while `self` is.
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Document::Bytes(bytes) => bytes.as_bytes(),
            Document::Buffer(view) => view.as_slice(),
        }
    }
}
