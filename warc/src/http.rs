//! The HTTP response messages of WARC `response` records, as crawlers keep them: header values
//! are bytes in no encoding HTTP promises (read as Latin-1 where text is needed, so that no byte
//! makes a message unreadable), and the body is the one on the wire, which wget and Heritrix keep
//! with its `Transfer-Encoding: chunked` and its `Content-Encoding` (gzip, deflate, br): both are
//! undone here, and a body that cannot be is an error, never garbage handed on.

use std::borrow::Cow;
use std::fmt;
use std::io::Read;

use flate2::bufread::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

/// The most a body may decode to: a small compressed body can claim far more than any page.
const MAX_DECODED: u64 = 256 << 20;

/// The longest HTTP response message a WARC `response` record may hold to be read: a longer
/// HTML response (a page no browser would finish, or a record built to exhaust memory) is
/// passed over as it is read, only its head kept, and
/// [`Response::html`](crate::Response::html) says so ([`HttpError::TooLong`]).
pub const MAX_RESPONSE: u64 = 256 << 20;

/// Why the HTTP message of a `response` record gives no document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HttpError {
    /// No status line, or no end of headers.
    Malformed,
    /// A transfer or content coding that cannot be undone, and why.
    Body(String),
    /// An HTML response whose HTTP message is this many bytes, longer than
    /// [`MAX_RESPONSE`]: passed over, not held.
    TooLong(u64),
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HttpError::Malformed => {
                f.write_str("malformed HTTP response in a WARC response record")
            }
            HttpError::Body(why) => write!(f, "HTTP body not decoded: {why}"),
            HttpError::TooLong(length) => write!(
                f,
                "HTML response of {} MiB, longer than the {} MiB read: passed over",
                length >> 20,
                MAX_RESPONSE >> 20
            ),
        }
    }
}

impl std::error::Error for HttpError {}

/// An HTTP response message, split.
pub struct HttpResponse<'a> {
    /// The status line, without its line end.
    status: &'a [u8],
    /// The header lines after the status line.
    head: &'a [u8],
    /// The body as it is in the record.
    wire: &'a [u8],
}

impl<'a> HttpResponse<'a> {
    /// The header lines and body of an HTTP response message; `None` when it has no status
    /// line or no end of headers.
    pub fn parse(block: &'a [u8]) -> Option<HttpResponse<'a>> {
        if !block.starts_with(b"HTTP/") {
            return None;
        }
        let end = memchr::memmem::find(block, b"\r\n\r\n").map(|i| (i, i + 4));
        let end = end.or_else(|| memchr::memmem::find(block, b"\n\n").map(|i| (i, i + 2)))?;
        let status_end = memchr::memchr(b'\n', &block[..end.0]).map_or(end.0, |i| i + 1);
        let status = &block[..status_end.min(end.0)];
        Some(HttpResponse {
            status: status.trim_ascii_end(),
            head: &block[status_end..end.0],
            wire: &block[end.1..],
        })
    }

    /// The status line ("HTTP/1.1 200 OK"), as Latin-1.
    pub fn status_line(&self) -> String {
        latin1(self.status)
    }

    /// The header fields in order, name and value trimmed, as bytes (a line without a colon is
    /// left out).
    pub fn headers(&self) -> impl Iterator<Item = (&'a [u8], &'a [u8])> + use<'a> {
        self.head.split(|&b| b == b'\n').filter_map(|line| {
            let colon = memchr::memchr(b':', line)?;
            Some((line[..colon].trim_ascii(), line[colon + 1..].trim_ascii()))
        })
    }

    /// The value of the first header named `name` (ASCII case-insensitive), trimmed, as
    /// Latin-1.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers()
            .find(|(field, _)| field.eq_ignore_ascii_case(name.as_bytes()))
            .map(|(_, value)| latin1(value))
    }

    /// The body with its transfer codings, then its content codings, undone (the reverse of
    /// the order the server applied them in); why not, when it cannot be.
    pub fn body(&self) -> Result<Cow<'a, [u8]>, String> {
        let mut body = Cow::Borrowed(self.wire);
        for header in ["Transfer-Encoding", "Content-Encoding"] {
            let codings = self.header(header).unwrap_or_default();
            for coding in codings.rsplit(',').map(str::trim) {
                body = undo(coding, &body)
                    .map_err(|why| format!("{header} {coding}: {why}"))?
                    .map_or(body, Cow::Owned);
            }
        }
        Ok(body)
    }
}

/// Bytes as Latin-1 text: each byte the code point of its value.
pub fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// `body` with `coding` undone; `None` when it leaves the body as it is.
fn undo(coding: &str, body: &[u8]) -> Result<Option<Vec<u8>>, String> {
    let decoder: Box<dyn Read + '_> = match coding.to_ascii_lowercase().as_str() {
        "" | "identity" => return Ok(None),
        "chunked" => return dechunk(body),
        "gzip" | "x-gzip" => Box::new(MultiGzDecoder::new(body)),
        "deflate" if is_zlib(body) => Box::new(ZlibDecoder::new(body)),
        // Many servers send `deflate` without its zlib wrapper.
        "deflate" => Box::new(DeflateDecoder::new(body)),
        "br" => Box::new(brotli::Decompressor::new(body, 4096)),
        _ => return Err("unknown coding".to_owned()),
    };
    let mut decoded = Vec::with_capacity(body.len() * 4);
    decoder
        .take(MAX_DECODED + 1)
        .read_to_end(&mut decoded)
        .map_err(|e| e.to_string())?;
    if decoded.len() as u64 > MAX_DECODED {
        return Err(format!("decodes to more than {} MiB", MAX_DECODED >> 20));
    }
    Ok(Some(decoded))
}

/// Whether `body` starts with a zlib header (RFC 1950: deflate, and a check that divides by 31).
fn is_zlib(body: &[u8]) -> bool {
    match body {
        [cmf, flg, ..] => cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0,
        _ => false,
    }
}

/// The data of a chunked body (RFC 9112, 7.1), its chunk extensions and trailers dropped. A
/// body whose first line is no chunk size was de-chunked by the archive's writer, which kept the
/// header: `None`, it is read as it is. A body that ends right after a chunk ends there.
fn dechunk(body: &[u8]) -> Result<Option<Vec<u8>>, String> {
    if split_line(body)
        .and_then(|(line, _)| chunk_size(line))
        .is_none()
    {
        return Ok(None);
    }
    let mut data = Vec::with_capacity(body.len());
    let mut rest = body;
    while !rest.is_empty() {
        let (line, after) = split_line(rest).ok_or("a chunk size line without its end")?;
        let size = chunk_size(line).ok_or_else(|| format!("not a chunk size: {}", latin1(line)))?;
        if size == 0 {
            break;
        }
        let chunk = after
            .get(..size)
            .ok_or_else(|| format!("a chunk of {size} bytes with {} left", after.len()))?;
        data.extend_from_slice(chunk);
        let after = &after[size..];
        rest = after
            .strip_prefix(b"\r\n")
            .or_else(|| after.strip_prefix(b"\n"))
            .ok_or("no line end after a chunk")?;
    }
    Ok(Some(data))
}

/// The line at the start of `bytes` without its line end, and what follows it.
fn split_line(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let end = memchr::memchr(b'\n', bytes)?;
    let line = &bytes[..end];
    Some((line.strip_suffix(b"\r").unwrap_or(line), &bytes[end + 1..]))
}

/// The size a chunk size line gives (hexadecimal digits, then any extension after `;`).
fn chunk_size(line: &[u8]) -> Option<usize> {
    let digits = line.split(|&b| b == b';').next()?.trim_ascii();
    let hex = !digits.is_empty() && digits.iter().all(u8::is_ascii_hexdigit);
    let digits = std::str::from_utf8(digits).ok().filter(|_| hex)?;
    usize::from_str_radix(digits, 16).ok()
}

#[cfg(test)]
mod tests;
