//! The per-record API: `tagstream.links` and `tagstream.text` for one document, what the CLI's
//! `links` and `text` print for it (the same fields), computed by the library's
//! [`tagstream::extract::page`] with the GIL released, then turned into Python objects.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tagstream::encoding::Encoding;
use tagstream::extract::page::{self, DecodedText, PageLinks, Sniffing};
use tagstream::extract::{TextOptions, Url};

use crate::input::Document;
use crate::{Name, Reduced};

/// The fields of a [`Link`], in order.
type LinkFields = (
    Name,
    Name,
    String,
    Option<String>,
    Option<(usize, usize)>,
    bool,
);

/// One link of a page: a line of `tagstream links`.
#[pyclass(frozen, get_all, eq, module = "tagstream")]
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Link {
    /// The element, as the DOM spells it ("a", "img", "feImage", …).
    element: Name,
    /// The attribute ("href", "src", "srcset", "xlink:href", …).
    attribute: Name,
    /// The URL as written, character references resolved, whitespace trimmed.
    url: String,
    /// The URL resolved against the page URL and `<base href>`; None when it does not resolve.
    resolved: Option<String>,
    /// Byte offsets (start, end) of the URL in the document as given (before decoding).
    span: Option<(usize, usize)>,
    /// Inside `<template>` contents.
    in_template: bool,
}

#[pymethods]
impl Link {
    #[new]
    fn new(
        element: String,
        attribute: String,
        url: String,
        resolved: Option<String>,
        span: Option<(usize, usize)>,
        in_template: bool,
    ) -> Link {
        Link {
            element: element.into(),
            attribute: attribute.into(),
            url,
            resolved,
            span,
            in_template,
        }
    }

    /// Pickled as its fields (Spark and multiprocessing send results between processes).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, LinkFields> {
        let link = slf.get().clone();
        let fields = (
            link.element,
            link.attribute,
            link.url,
            link.resolved,
            link.span,
            link.in_template,
        );
        (slf.get_type(), fields)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        crate::fields_repr!(
            py,
            "Link",
            self {
                element,
                attribute,
                url,
                resolved,
                span,
                in_template
            }
        )
    }
}

/// The links of one page, in document order, and the encoding it was read in.
#[pyclass(frozen, module = "tagstream")]
pub(crate) struct Links {
    links: Vec<Py<Link>>,
    /// The encoding's name, as the Encoding Standard spells it ("UTF-8", "windows-1252", …).
    #[pyo3(get)]
    encoding: Name,
}

#[pymethods]
impl Links {
    #[new]
    fn new(links: Vec<Py<Link>>, encoding: String) -> Links {
        Links {
            links,
            encoding: encoding.into(),
        }
    }

    /// Pickled as its links and encoding.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (Vec<Py<Link>>, Name)> {
        let this = slf.get();
        let links = this.links(slf.py());
        (slf.get_type(), (links, this.encoding.clone()))
    }

    /// The links as a list.
    #[getter]
    fn links(&self, py: Python<'_>) -> Vec<Py<Link>> {
        self.links.iter().map(|link| link.clone_ref(py)).collect()
    }

    fn __len__(&self) -> usize {
        self.links.len()
    }

    fn __getitem__(&self, py: Python<'_>, index: isize) -> PyResult<Py<Link>> {
        let len = self.links.len() as isize;
        let at = if index < 0 { index + len } else { index };
        if !(0..len).contains(&at) {
            return Err(pyo3::exceptions::PyIndexError::new_err(
                "link index out of range",
            ));
        }
        Ok(self.links[at as usize].clone_ref(py))
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let list = pyo3::types::PyList::new(py, self.links(py))?;
        Ok(list.try_iter()?.into_any().unbind())
    }

    fn __repr__(&self) -> String {
        format!(
            "<Links: {} links, encoding {}>",
            self.links.len(),
            self.encoding
        )
    }
}

/// The text of one page: a line of `tagstream text`, and the encoding it was read in.
#[pyclass(frozen, get_all, eq, module = "tagstream")]
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Text {
    /// The first `<title>`'s text, whitespace collapsed; None without one.
    title: Option<String>,
    /// The first `<meta name=description>`'s content, collapsed; None without one.
    description: Option<String>,
    /// The visible text.
    text: String,
    /// The encoding's name ("UTF-8", "windows-1252", …).
    encoding: Name,
}

#[pymethods]
impl Text {
    #[new]
    fn new(
        title: Option<String>,
        description: Option<String>,
        text: String,
        encoding: String,
    ) -> Text {
        Text {
            title,
            description,
            text,
            encoding: encoding.into(),
        }
    }

    /// Pickled as its fields.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> Reduced<'py, (Option<String>, Option<String>, String, Name)> {
        let text = slf.get().clone();
        let fields = (text.title, text.description, text.text, text.encoding);
        (slf.get_type(), fields)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        crate::fields_repr!(
            py,
            "Text",
            self {
                title,
                description,
                text,
                encoding
            }
        )
    }
}

/// `default_encoding`: None or "auto" for UTF-8 detection, else a label that must be known.
pub(crate) fn default_encoding(label: Option<&str>) -> PyResult<Option<&'static Encoding>> {
    match label {
        None => Ok(None),
        Some(label) if label.eq_ignore_ascii_case("auto") => Ok(None),
        Some(label) => Encoding::for_label_no_replacement(label.as_bytes())
            .map(Some)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "default_encoding: {label:?} is neither \"auto\" nor a label of the WHATWG \
                     Encoding Standard"
                ))
            }),
    }
}

/// The links of one HTML document, resolved, as `tagstream links` reports them.
///
/// `html`: bytes, bytearray, memoryview or str. `base_url`: the page's URL, which relative
/// links (and `<base href>`) resolve against (one that does not parse is left out, as the CLI
/// leaves out a WARC record's). `encoding`: the transport layer's charset (an HTTP
/// Content-Type charset): certain when the Encoding Standard knows the label, ignored otherwise;
/// without it the encoding is sniffed (BOM, `<meta>`, UTF-8 detection, windows-1252), and a
/// late `<meta>` that changes it makes the page be read again, as a browser does.
/// `default_encoding`: the encoding when sniffing finds none ("auto": UTF-8 if the bytes look
/// like it, else windows-1252). `scripting`: read `<noscript>` as a browser with scripts on.
#[pyfunction]
#[pyo3(signature = (html, base_url=None, encoding=None, scripting=false, default_encoding=None))]
pub(crate) fn links(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    base_url: Option<&str>,
    encoding: Option<&str>,
    scripting: bool,
    default_encoding: Option<&str>,
) -> PyResult<Links> {
    let document = Document::of(html)?;
    let bytes = document.bytes();
    let sniffing = Sniffing {
        transport_label: encoding,
        known: None,
        default: self::default_encoding(default_encoding)?,
    };
    let found = py.detach(|| {
        let page_url = base_url.and_then(|url| Url::parse(url).ok());
        page::links(bytes, page_url.as_ref(), scripting, &sniffing)
    });
    links_object(py, found)
}

/// The Python [`Links`] of what [`page::links`] found.
pub(crate) fn links_object(py: Python<'_>, found: PageLinks) -> PyResult<Links> {
    let links = found
        .links
        .into_iter()
        .zip(found.spans)
        .map(|(link, span)| {
            let link = Link {
                element: link.element.into(),
                attribute: link.attribute.into(),
                url: link.url,
                resolved: link.resolved.map(String::from),
                span: span.map(|span| (span.start, span.end)),
                in_template: link.in_template,
            };
            Py::new(py, link)
        })
        .collect::<PyResult<_>>()?;
    Ok(Links {
        links,
        encoding: found.encoding.name().into(),
    })
}

/// The visible text, title and meta description of one HTML document, as `tagstream text`
/// reports them.
///
/// `blocks`: a newline at block boundaries (paragraphs, headings, list items, table rows, `<br>`)
/// instead of a space. `html`, `encoding`, `default_encoding` and `scripting` as for `links`.
#[pyfunction]
#[pyo3(signature = (html, blocks=false, encoding=None, scripting=false, default_encoding=None))]
pub(crate) fn text(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    blocks: bool,
    encoding: Option<&str>,
    scripting: bool,
    default_encoding: Option<&str>,
) -> PyResult<Text> {
    let document = Document::of(html)?;
    let bytes = document.bytes();
    let sniffing = Sniffing {
        transport_label: encoding,
        known: None,
        default: self::default_encoding(default_encoding)?,
    };
    let options = TextOptions::new().blocks(blocks).scripting(scripting);
    let found = py.detach(|| page::text(bytes, options, &sniffing));
    Ok(text_object(found))
}

/// The Python [`Text`] of what [`page::text`] found.
pub(crate) fn text_object(found: DecodedText) -> Text {
    Text {
        title: found.page.title,
        description: found.page.description,
        text: found.page.text,
        encoding: found.encoding.name().into(),
    }
}
