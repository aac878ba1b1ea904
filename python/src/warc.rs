//! `tagstream.warc`: WARC archives, read by the same reader as the CLI's (the `tagstream-warc`
//! crate). `records` hands each HTML `response` record to Python, its body decoded;
//! `links` and `text` run over a whole archive in Rust, with the GIL released, and give for
//! each record what the CLI's `links` and `text` give. What cannot be read (a malformed record,
//! a broken gzip member, a body that cannot be decoded) is listed in `skipped`, with its offset,
//! as the CLI reports it on stderr; it is never raised.
//!
//! An archive is a path (`.warc.gz` by its name, as the CLI decides) or a binary file object
//! (gzip by its first bytes), read with its `read` method, the GIL taken for each call.

use std::io::{self, Cursor, Read};
use std::path::PathBuf;
use std::sync::Mutex;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use tagstream::extract::page::{self, Sniffing};
use tagstream::extract::{TextOptions, Url};
use tagstream_warc::{Archive, Entry, Html, Response, is_gzip};

use crate::Reduced;
use crate::page::{default_encoding, links_object, text_object};

/// What was skipped: the offset of the record or gzip member (`None`: the file itself could not
/// be read on), and why.
type Skip = (Option<u64>, String);

/// A record's result: its offset, its target URI, and what was found in it.
type Page<T> = (u64, Option<String>, T);

/// A binary file object, read through its `read` method.
struct PyFile(Py<PyAny>);

impl Read for PyFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let data = self.0.bind(py).call_method1("read", (buf.len(),))?;
            let data = data.cast::<PyBytes>().map_err(PyErr::from)?;
            let bytes = data.as_bytes();
            let n = bytes.len().min(buf.len());
            buf[..n].copy_from_slice(&bytes[..n]);
            Ok(n)
        })
        .map_err(|err: PyErr| io::Error::other(err.to_string()))
    }
}

/// The archive `source` names: a path (`str` or `os.PathLike`), or a binary file object. A
/// path that cannot be opened raises `OSError`; everything after is reported, not raised.
fn open(source: &Bound<'_, PyAny>) -> PyResult<Archive> {
    if source.hasattr("read")? && !source.is_instance_of::<PyString>() {
        let mut file = PyFile(source.clone().unbind());
        let mut first = [0; 2];
        let mut got = 0;
        while got < first.len() {
            match file.read(&mut first[got..])? {
                0 => break,
                n => got += n,
            }
        }
        let first = first[..got].to_vec();
        let gzip = is_gzip(&first);
        return Ok(Archive::from_reader(Cursor::new(first).chain(file), gzip));
    }
    let path: PathBuf = source.extract().map_err(|_| {
        PyTypeError::new_err("expected a path (str or os.PathLike) or a binary file object")
    })?;
    std::fs::File::open(&path)?;
    Ok(Archive::new(&path))
}

/// One HTML `response` record: where it is, its HTTP headers, and its body decoded.
#[pyclass(frozen, get_all, module = "tagstream.warc")]
pub(crate) struct Record {
    /// Where the record starts in the file (for `.warc.gz`, its gzip member), as the CLI's
    /// "offset".
    offset: u64,
    /// Its `WARC-Target-URI`, as the CLI's "page".
    uri: Option<String>,
    /// The HTTP status line ("HTTP/1.1 200 OK").
    status: String,
    /// The HTTP header fields in order, (name, value), their bytes read as Latin-1.
    headers: Vec<(String, String)>,
    /// The `charset` of the HTTP `Content-Type`: the `encoding` to pass to `tagstream.links`
    /// and `tagstream.text`, as the CLI does.
    charset: Option<String>,
    /// The HTML document: the HTTP body with its transfer and content codings undone.
    payload: Py<PyBytes>,
}

/// A record's fields, in the order of its constructor's parameters.
type RecordFields = (
    u64,
    Option<String>,
    String,
    Vec<(String, String)>,
    Option<String>,
    Py<PyBytes>,
);

#[pymethods]
impl Record {
    #[new]
    fn new(
        offset: u64,
        uri: Option<String>,
        status: String,
        headers: Vec<(String, String)>,
        charset: Option<String>,
        payload: Py<PyBytes>,
    ) -> Record {
        Record {
            offset,
            uri,
            status,
            headers,
            charset,
            payload,
        }
    }

    /// Pickled as its fields, so that Spark, Ray and multiprocessing can send records between
    /// workers.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, RecordFields> {
        let record = slf.get();
        let fields = (
            record.offset,
            record.uri.clone(),
            record.status.clone(),
            record.headers.clone(),
            record.charset.clone(),
            record.payload.clone_ref(slf.py()),
        );
        (slf.get_type(), fields)
    }

    /// Records are equal when all their fields are.
    fn __eq__(&self, py: Python<'_>, other: &Record) -> bool {
        (
            self.offset,
            &self.uri,
            &self.status,
            &self.headers,
            &self.charset,
        ) == (
            other.offset,
            &other.uri,
            &other.status,
            &other.headers,
            &other.charset,
        ) && self.payload.bind(py).as_bytes() == other.payload.bind(py).as_bytes()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "<Record at offset {}: {:?}, {} bytes>",
            self.offset,
            self.uri.as_deref().unwrap_or(""),
            self.payload.bind(py).as_bytes().len()
        )
    }
}

/// An HTML record read, before it becomes a Python [`Record`].
struct Found {
    offset: u64,
    uri: Option<String>,
    status: String,
    headers: Vec<(String, String)>,
    charset: Option<String>,
    body: Vec<u8>,
}

/// The next HTML record of `archive`, noting in `skipped` what could not be read on the way.
fn next_html(archive: &mut Archive, skipped: &mut Vec<Skip>) -> Option<Found> {
    loop {
        let response = match archive.next()? {
            Entry::Response(response) => response,
            Entry::Skipped(skip) => {
                skipped.push((skip.offset, skip.reason));
                continue;
            }
        };
        let html = match response.html() {
            Ok(Some(html)) => html,
            Ok(None) => continue,
            Err(why) => {
                skipped.push((Some(response.offset()), why.to_string()));
                continue;
            }
        };
        let http = response.http().ok()?;
        let latin1 = tagstream_warc::http::latin1;
        let headers = http.headers();
        return Some(Found {
            offset: response.offset(),
            uri: response.uri().map(str::to_owned),
            status: http.status_line(),
            headers: headers
                .map(|(name, value)| (latin1(name), latin1(value)))
                .collect(),
            charset: html.charset,
            body: html.body.into_owned(),
        });
    }
}

/// The HTML `response` records of an archive, an iterator of [`Record`]; what could not be
/// read is in `skipped` as the iteration goes.
#[pyclass(module = "tagstream.warc")]
pub(crate) struct Records {
    archive: Mutex<Archive>,
    skipped: Vec<Skip>,
}

#[pymethods]
impl Records {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Record>> {
        let archive = self.archive.get_mut().unwrap_or_else(|e| e.into_inner());
        let skipped = &mut self.skipped;
        let Some(found) = py.detach(|| next_html(archive, skipped)) else {
            return Ok(None);
        };
        Ok(Some(Record {
            offset: found.offset,
            uri: found.uri,
            status: found.status,
            headers: found.headers,
            charset: found.charset,
            payload: PyBytes::new(py, &found.body).unbind(),
        }))
    }

    /// What could not be read so far: (offset or None, why), in file order.
    #[getter]
    fn skipped(&self) -> Vec<Skip> {
        self.skipped.clone()
    }
}

/// The HTML `response` records of the archive `source` (a path or a binary file object), one
/// at a time: each a `Record`, its body decoded.
#[pyfunction]
pub(crate) fn records(source: &Bound<'_, PyAny>) -> PyResult<Records> {
    Ok(Records {
        archive: Mutex::new(open(source)?),
        skipped: Vec::new(),
    })
}

/// What `links` or `text` gave for a whole archive.
#[pyclass(frozen, module = "tagstream.warc")]
pub(crate) struct Pages {
    pages: Vec<Page<Py<PyAny>>>,
    skipped: Vec<Skip>,
}

#[pymethods]
impl Pages {
    /// (offset, uri, result) for each HTML record, in file order: its `Links` or `Text`.
    #[getter]
    fn pages(&self, py: Python<'_>) -> Vec<Page<Py<PyAny>>> {
        let page =
            |(offset, uri, found): &Page<Py<PyAny>>| (*offset, uri.clone(), found.clone_ref(py));
        self.pages.iter().map(page).collect()
    }

    /// What could not be read: (offset or None, why), in file order.
    #[getter]
    fn skipped(&self) -> Vec<Skip> {
        self.skipped.clone()
    }

    fn __len__(&self) -> usize {
        self.pages.len()
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let list = pyo3::types::PyList::new(py, self.pages(py))?;
        Ok(list.try_iter()?.into_any().unbind())
    }

    fn __repr__(&self) -> String {
        format!(
            "<Pages: {} pages, {} skipped>",
            self.pages.len(),
            self.skipped.len()
        )
    }
}

/// Every HTML record of `archive` through `read` (its body, charset and target URI), in
/// order, and what was skipped.
fn each_page<T: Send>(
    mut archive: Archive,
    read: impl Fn(&Html<'_>, &Response) -> T,
) -> (Vec<Page<T>>, Vec<Skip>) {
    let (mut pages, mut skipped) = (Vec::new(), Vec::new());
    for entry in &mut archive {
        let response = match entry {
            Entry::Response(response) => response,
            Entry::Skipped(skip) => {
                skipped.push((skip.offset, skip.reason));
                continue;
            }
        };
        match response.html() {
            Ok(Some(html)) => {
                let found = read(&html, &response);
                pages.push((response.offset(), response.uri().map(str::to_owned), found));
            }
            Ok(None) => {}
            Err(why) => skipped.push((Some(response.offset()), why.to_string())),
        }
    }
    (pages, skipped)
}

/// The sniffing of a record: its HTTP charset as the transport layer's label.
fn sniffing<'a>(
    html: &'a Html<'_>,
    default: Option<&'static tagstream::encoding::Encoding>,
) -> Sniffing<'a> {
    Sniffing {
        transport_label: html.charset.as_deref(),
        known: None,
        default,
    }
}

/// The links of every HTML record of the archive `source` (a path or a binary file object),
/// as `tagstream links` gives them: resolved against the record's `WARC-Target-URI`, the
/// encoding sniffed with its HTTP charset. Runs in Rust with the GIL released.
#[pyfunction]
#[pyo3(signature = (source, scripting=false, default_encoding=None))]
pub(crate) fn links(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    scripting: bool,
    default_encoding: Option<&str>,
) -> PyResult<Pages> {
    let archive = open(source)?;
    let default = self::default_encoding(default_encoding)?;
    let (found, skipped) = py.detach(|| {
        each_page(archive, |html, response| {
            let page_url = response.uri().and_then(|uri| Url::parse(uri).ok());
            let sniffing = sniffing(html, default);
            page::links(&html.body, page_url.as_ref(), scripting, &sniffing)
        })
    });
    let pages = found
        .into_iter()
        .map(|(offset, uri, found)| {
            let links = Py::new(py, links_object(py, found)?)?.into_any();
            Ok((offset, uri, links))
        })
        .collect::<PyResult<_>>()?;
    Ok(Pages { pages, skipped })
}

/// The text of every HTML record of the archive `source`, as `tagstream text` gives it; options
/// as for `tagstream.text`. Runs in Rust with the GIL released.
#[pyfunction]
#[pyo3(signature = (source, blocks=false, scripting=false, default_encoding=None))]
pub(crate) fn text(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    blocks: bool,
    scripting: bool,
    default_encoding: Option<&str>,
) -> PyResult<Pages> {
    let archive = open(source)?;
    let default = self::default_encoding(default_encoding)?;
    let options = TextOptions::new().blocks(blocks).scripting(scripting);
    let (found, skipped) = py.detach(|| {
        each_page(archive, |html, _| {
            page::text(&html.body, options, &sniffing(html, default))
        })
    });
    let pages = found
        .into_iter()
        .map(|(offset, uri, found)| Ok((offset, uri, Py::new(py, text_object(found))?.into_any())))
        .collect::<PyResult<_>>()?;
    Ok(Pages { pages, skipped })
}
