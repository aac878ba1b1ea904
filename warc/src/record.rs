//! One WARC record at a time from a decompressed stream: its header lines (bytes, read as
//! Latin-1 where text is needed), and its block when it is an HTTP `response` ([`Response`]).
//! Both readers, the serial [`crate::Archive`] and the member jobs of [`crate::members`], read
//! records with [`next_record`].

use std::borrow::Cow;
use std::io::{self, BufRead, Read};

use crate::http::{HttpError, HttpResponse, MAX_RESPONSE};

/// The longest header line read; a longer one makes the record malformed.
const MAX_LINE: u64 = 64 * 1024;
/// How much of an HTTP response is read before its head decides whether the rest is held.
pub const HEAD_PEEK: u64 = 64 * 1024;

/// Something of an archive that could not be read, and where: the offset of the record (or of
/// its gzip member), `None` when the file itself could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub offset: Option<u64>,
    pub reason: String,
}

/// What an archive holds, in file order.
#[derive(Debug)]
pub enum Entry {
    /// A `response` record with an HTTP message.
    Response(Response),
    /// A malformed record, a broken gzip member, or the I/O error that ends the archive.
    Skipped(Skipped),
}

/// A `BufRead` that counts the bytes consumed.
pub(crate) struct Counted<R> {
    pub(crate) inner: R,
    pub(crate) pos: u64,
}

impl<R> Counted<R> {
    pub(crate) fn new(inner: R) -> Counted<R> {
        Counted { inner, pos: 0 }
    }
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.pos += amount as u64;
        self.inner.consume(amount);
    }
}

/// The parts of a WARC record that matter here.
pub(crate) struct Record {
    warc_type: String,
    uri: Option<String>,
    content_type: String,
    /// The content block: of a `response` holding an HTTP message only, the one kind read
    /// (another record's, a video's `resource` say, is passed over, not held).
    block: Vec<u8>,
    /// The block's length, when it is longer than [`MAX_RESPONSE`] (`block` then holds its
    /// first [`HEAD_PEEK`] bytes only).
    too_long: Option<u64>,
}

impl Record {
    /// A `response` record holding an HTTP message.
    fn is_http_response(&self) -> bool {
        self.warc_type.eq_ignore_ascii_case("response")
            && self
                .content_type
                .to_ascii_lowercase()
                .starts_with("application/http")
    }
}

/// A WARC `response` record holding an HTTP message, as read from the archive; what it holds
/// is decoded by [`Response::html`] (on whichever thread takes the record). A response whose
/// HTTP head says its `Content-Type` is not HTML (a video, a PDF) is held only up to its first
/// [`HEAD_PEEK`] bytes, which hold the head: its body is passed over as it is read.
#[derive(Debug)]
pub struct Response {
    offset: u64,
    uri: Option<String>,
    block: Vec<u8>,
    too_long: Option<u64>,
}

/// The HTML document of a `response` record: its body with any transfer and content coding
/// undone, and the `charset` of its HTTP `Content-Type` (the transport layer's encoding label).
pub struct Html<'a> {
    /// The body, decoded.
    pub body: Cow<'a, [u8]>,
    /// The `charset` of the HTTP `Content-Type`, without quotes.
    pub charset: Option<String>,
}

impl Response {
    /// The record if it is a `response` holding an HTTP message.
    pub(crate) fn of(record: Record, offset: u64) -> Option<Response> {
        record.is_http_response().then_some(Response {
            offset,
            uri: record.uri,
            block: record.block,
            too_long: record.too_long,
        })
    }

    /// Where the record starts in the file (for `.warc.gz`, where its gzip member starts, as
    /// Common Crawl's indexes give it).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Its `WARC-Target-URI`, without angle brackets.
    pub fn uri(&self) -> Option<&str> {
        self.uri.as_deref()
    }

    /// The HTTP message (status line, headers, body as on the wire); of one longer than
    /// [`MAX_RESPONSE`], its first [`HEAD_PEEK`] bytes.
    pub fn block(&self) -> &[u8] {
        &self.block
    }

    /// The HTTP message split; why not, when it has no status line or no end of headers.
    pub fn http(&self) -> Result<HttpResponse<'_>, HttpError> {
        HttpResponse::parse(&self.block).ok_or(HttpError::Malformed)
    }

    /// The HTML document the record holds, its body decoded; `None` for a response whose
    /// `Content-Type` is not HTML; why not, for a malformed HTTP message, a body that cannot
    /// be decoded, or a message longer than [`MAX_RESPONSE`] (the reasons the CLI reports when
    /// it skips one).
    pub fn html(&self) -> Result<Option<Html<'_>>, HttpError> {
        let response = self.http()?;
        let content_type = response.header("content-type").unwrap_or_default();
        if !is_html(&content_type) {
            return Ok(None);
        }
        if let Some(length) = self.too_long {
            return Err(HttpError::TooLong(length));
        }
        let body = response.body().map_err(HttpError::Body)?;
        Ok(Some(Html {
            body,
            charset: charset(&content_type).map(str::to_owned),
        }))
    }
}

/// Why a record could not be read, and where it starts.
pub(crate) struct Malformed {
    pub(crate) offset: u64,
    pub(crate) why: String,
}

/// The next record and its offset, or `None` at the end of the stream.
pub(crate) fn next_record(
    reader: &mut Counted<impl BufRead>,
) -> Result<Option<(u64, Record)>, Malformed> {
    let io_error = |offset| {
        move |e: io::Error| Malformed {
            offset,
            why: e.to_string(),
        }
    };
    skip_blank_lines(reader).map_err(io_error(reader.pos))?;
    let offset = reader.pos;
    let malformed = |why: &str| Malformed {
        offset,
        why: why.to_owned(),
    };
    let Some(version) = line(reader).map_err(io_error(offset))? else {
        return Ok(None);
    };
    if !version.starts_with("WARC/") {
        return Err(malformed("expected a WARC/1.x version line"));
    }
    let mut record = Record {
        warc_type: String::new(),
        uri: None,
        content_type: String::new(),
        block: Vec::new(),
        too_long: None,
    };
    let mut length = None;
    loop {
        let header = line(reader)
            .map_err(io_error(offset))?
            .ok_or_else(|| malformed("end of file in the header"))?;
        if header.is_empty() {
            break;
        }
        let (name, value) = header
            .split_once(':')
            .ok_or_else(|| malformed("a header line without a colon"))?;
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "warc-type" => record.warc_type = value.to_owned(),
            "warc-target-uri" => record.uri = Some(value.trim_matches(['<', '>']).to_owned()),
            "content-type" => record.content_type = value.to_owned(),
            "content-length" => length = value.parse::<u64>().ok(),
            _ => {}
        }
    }
    let length = length.ok_or_else(|| malformed("missing or invalid Content-Length"))?;
    let mut block = reader.by_ref().take(length);
    let read = if record.is_http_response() {
        record.too_long = (length > MAX_RESPONSE).then_some(length);
        read_response(&mut block, &mut record.block, record.too_long.is_none())
    } else {
        io::copy(&mut block, &mut io::sink())
    };
    let read = read.map_err(io_error(offset))?;
    if read < length {
        let why = format!("truncated: {read} of {length} bytes of content");
        return Err(Malformed { offset, why });
    }
    Ok(Some((offset, record)))
}

/// Read the block of an HTTP response into `into`: whole unless its head, within the first
/// [`HEAD_PEEK`] bytes, gives a `Content-Type` that is not HTML, or `hold` is false (the block
/// is longer than [`MAX_RESPONSE`]), when the rest is passed over. Returns how many bytes the
/// block had.
fn read_response(block: &mut impl Read, into: &mut Vec<u8>, hold: bool) -> io::Result<u64> {
    let peeked = block.by_ref().take(HEAD_PEEK).read_to_end(into)? as u64;
    let content_type = HttpResponse::parse(into).and_then(|http| http.header("content-type"));
    if !hold || content_type.is_some_and(|value| !is_html(&value)) {
        return Ok(peeked + io::copy(block, &mut io::sink())?);
    }
    Ok(peeked + block.read_to_end(into)? as u64)
}

/// One header line without its line end (UTF-8, an invalid byte replaced: a
/// `WARC-Target-URI` may be an IRI); `None` at the end of the stream.
fn line(reader: &mut Counted<impl BufRead>) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    reader
        .by_ref()
        .take(MAX_LINE)
        .read_until(b'\n', &mut bytes)?;
    if bytes.is_empty() {
        return Ok(None);
    }
    if bytes.last() != Some(&b'\n') && bytes.len() as u64 == MAX_LINE {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "header line too long",
        ));
    }
    let text = String::from_utf8_lossy(&bytes);
    Ok(Some(text.trim_end_matches(['\r', '\n']).to_owned()))
}

/// Skip the CR and LF bytes between records.
fn skip_blank_lines(reader: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buf = reader.fill_buf()?;
        let blank = buf
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        if blank == 0 {
            return Ok(());
        }
        reader.consume(blank);
    }
}

/// After a malformed record in a plain `.warc`: skip lines up to one that starts a record.
pub(crate) fn skip_to_next_record(reader: &mut Counted<impl BufRead>) -> io::Result<()> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() || buf.starts_with(b"WARC/") {
            return Ok(());
        }
        let mut discard = Vec::new();
        reader.read_until(b'\n', &mut discard)?;
    }
}

/// Whether a `Content-Type` value names HTML (`text/html` or `application/xhtml+xml`).
fn is_html(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("text/html")
        || essence.eq_ignore_ascii_case("application/xhtml+xml")
}

/// The `charset` parameter of a `Content-Type` value, without quotes.
fn charset(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches('"'))
    })
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;
    use crate::Archive;
    use crate::testutil::response_record as record;

    fn responses(entries: &[Entry]) -> Vec<&Response> {
        entries
            .iter()
            .map(|e| match e {
                Entry::Response(r) => r,
                Entry::Skipped(s) => panic!("skipped: {}", s.reason),
            })
            .collect()
    }

    #[test]
    fn an_html_response_longer_than_max_response_is_passed_over_and_the_next_is_read() {
        let http_head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
        let length = http_head.len() as u64 + MAX_RESPONSE;
        let warc_head = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://big.example/\r\n\
             Content-Type: application/http; msgtype=response\r\nContent-Length: {length}\r\n\r\n"
        );
        let big = Cursor::new(warc_head.into_bytes())
            .chain(&http_head[..])
            .chain(io::repeat(b'p').take(MAX_RESPONSE))
            .chain(&b"\r\n\r\n"[..]);
        let next = record("https://h.example/", "text/html", b"<a href=x>");
        let stream = big.chain(Cursor::new(next));
        let entries: Vec<Entry> = Archive::from_reader(stream, false).collect();
        let responses = responses(&entries);
        assert_eq!(responses.len(), 2);
        assert_eq!(responses[0].block.len() as u64, HEAD_PEEK);
        assert_eq!(responses[0].html().err(), Some(HttpError::TooLong(length)));
        let why = HttpError::TooLong(length).to_string();
        assert_eq!(
            why,
            "HTML response of 256 MiB, longer than the 256 MiB read: passed over"
        );
        let html = responses[1].html().unwrap().unwrap();
        assert_eq!(&html.body[..], b"<a href=x>");
    }

    #[test]
    fn a_response_that_is_not_html_is_held_up_to_its_head_and_the_next_is_whole() {
        let video = vec![0xAB; 3 * HEAD_PEEK as usize];
        let page = vec![b'p'; 2 * HEAD_PEEK as usize];
        let warc = [
            record("https://v.example/", "video/mp4", &video),
            record("https://h.example/", "text/html", &page),
            record("https://u.example/", "", &page),
        ]
        .concat();
        let entries: Vec<Entry> = Archive::from_reader(Cursor::new(warc), false).collect();
        let responses = responses(&entries);
        assert_eq!(responses.len(), 3);
        assert_eq!(responses[0].block.len() as u64, HEAD_PEEK);
        assert!(responses[0].html().unwrap().is_none());
        let html = responses[1].html().unwrap().unwrap();
        assert_eq!(html.body.len(), page.len());
        // No Content-Type: held whole, for what decides on it later.
        assert!(responses[2].block.len() > page.len());
    }
}
