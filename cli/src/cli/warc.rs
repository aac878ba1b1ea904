//! WARC archives (ISO 28500): `.warc`, and `.warc.gz` with one gzip member per record as Common
//! Crawl writes them. Only `response` records whose HTTP `Content-Type` is HTML become documents,
//! their bodies with any transfer and content coding undone (see `super::http`), with the
//! `charset` of that `Content-Type` for the commands to decode with (see `super::encoding`). A
//! body that cannot be decoded is skipped, as a malformed record is.
//!
//! The reader is our own (flate2 for the gzip members) rather than the `warc` crate: we need the
//! file offset of every record and gzip member to report what is skipped, and to go on after a
//! malformed record or a broken member, which the crate's iterators do not give. A malformed
//! record is skipped up to the next member (`.warc.gz`) or the next line starting with `WARC/`
//! (`.warc`); a broken gzip member up to the next gzip header in the file.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use flate2::bufread::GzDecoder;

use super::http::HttpResponse;
use super::inputs::{Body, Document, Skip};

/// The longest header line read; a longer one makes the record malformed.
const MAX_LINE: u64 = 64 * 1024;
/// The start of a gzip member: magic bytes and the deflate method.
const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b, 0x08];

/// Hand every HTML response in the archive at `path` to `each`; returns what was skipped.
pub(crate) fn read(path: &Path, name: &str, each: &mut dyn FnMut(Document<'_>)) -> Vec<Skip> {
    let mut skips = Vec::new();
    let gzip = path.to_string_lossy().to_ascii_lowercase().ends_with(".gz");
    let mut archive = Archive {
        name,
        each,
        skips: &mut skips,
    };
    let result = File::open(path).and_then(|file| {
        if gzip {
            archive.read_members(file)
        } else {
            archive.read_records(&mut Counted::new(BufReader::new(file)), None)
        }
    });
    if let Err(e) = result {
        skips.push(Skip::new(name, None, e));
    }
    skips
}

/// A `BufRead` that counts the bytes consumed.
struct Counted<R> {
    inner: R,
    pos: u64,
}

impl<R> Counted<R> {
    fn new(inner: R) -> Counted<R> {
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

/// One archive being read: where its documents and skips go.
struct Archive<'a> {
    name: &'a str,
    each: &'a mut dyn FnMut(Document<'_>),
    skips: &'a mut Vec<Skip>,
}

/// The parts of a WARC record that matter here.
struct Record {
    /// Offset of the record in the (decompressed) stream it was read from.
    offset: u64,
    warc_type: String,
    uri: Option<String>,
    content_type: String,
    block: Vec<u8>,
}

impl Archive<'_> {
    /// `.warc.gz`: every gzip member on its own, its records reported at the member's offset.
    fn read_members(&mut self, file: File) -> io::Result<()> {
        let mut reader = Counted::new(BufReader::new(file));
        while !reader.fill_buf()?.is_empty() {
            let offset = reader.pos;
            let mut member = Vec::new();
            match GzDecoder::new(&mut reader).read_to_end(&mut member) {
                Ok(_) => self.read_records(&mut Counted::new(&member[..]), Some(offset))?,
                Err(e) => {
                    let why = format!("broken gzip member ({e}); skipped to the next member");
                    self.skip(offset, why);
                    let Some(next) = next_member(reader.inner.get_mut(), offset + 1)? else {
                        return Ok(());
                    };
                    reader.inner.seek(SeekFrom::Start(next))?;
                    reader.pos = next;
                }
            }
        }
        Ok(())
    }

    /// Read the records of `reader` (a plain `.warc`, or one decompressed member at
    /// `member_offset`).
    fn read_records(
        &mut self,
        reader: &mut Counted<impl BufRead>,
        member: Option<u64>,
    ) -> io::Result<()> {
        loop {
            match next_record(reader) {
                Ok(Some(record)) => self.record(&record, member),
                Ok(None) => return Ok(()),
                Err(Malformed { offset, why }) => {
                    match member {
                        Some(at) => {
                            self.skip(at, format!("malformed WARC record at byte {offset} of the gzip member: {why}"));
                            return Ok(());
                        }
                        None => self.skip(offset, format!("malformed WARC record: {why}")),
                    }
                    skip_to_next_record(reader)?;
                }
            }
        }
    }

    fn skip(&mut self, offset: u64, why: String) {
        self.skips.push(Skip::new(self.name, Some(offset), why));
    }

    /// Hand the record on if it is an HTML response.
    fn record(&mut self, record: &Record, member: Option<u64>) {
        let is_http_response = record.warc_type.eq_ignore_ascii_case("response")
            && record
                .content_type
                .to_ascii_lowercase()
                .starts_with("application/http");
        if !is_http_response {
            return;
        }
        let offset = member.unwrap_or(record.offset);
        let Some(response) = HttpResponse::parse(&record.block) else {
            return self.skip(
                offset,
                "malformed HTTP response in a WARC response record".to_owned(),
            );
        };
        let content_type = response.header("content-type").unwrap_or_default();
        if !is_html(&content_type) {
            return;
        }
        let body = match response.body() {
            Ok(body) => body,
            Err(why) => return self.skip(offset, format!("HTTP body not decoded: {why}")),
        };
        (self.each)(Document {
            input: self.name,
            offset: Some(offset),
            url: record.uri.as_deref(),
            body: Body::Whole(&body),
            charset: charset(&content_type),
        });
    }
}

/// Why a record could not be read, and where it starts.
struct Malformed {
    offset: u64,
    why: String,
}

/// The next record, or `None` at the end of the stream.
fn next_record(reader: &mut Counted<impl BufRead>) -> Result<Option<Record>, Malformed> {
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
        offset,
        warc_type: String::new(),
        uri: None,
        content_type: String::new(),
        block: Vec::new(),
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
    reader
        .by_ref()
        .take(length)
        .read_to_end(&mut record.block)
        .map_err(io_error(offset))?;
    if (record.block.len() as u64) < length {
        let why = format!(
            "truncated: {} of {length} bytes of content",
            record.block.len()
        );
        return Err(Malformed { offset, why });
    }
    Ok(Some(record))
}

/// One header line without its line end; `None` at the end of the stream.
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
fn skip_to_next_record(reader: &mut Counted<impl BufRead>) -> io::Result<()> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() || buf.starts_with(b"WARC/") {
            return Ok(());
        }
        let mut discard = Vec::new();
        reader.read_until(b'\n', &mut discard)?;
    }
}

/// The offset of the next gzip header at or after `from`, if any.
fn next_member(file: &mut File, from: u64) -> io::Result<Option<u64>> {
    let mut buf = vec![0; 64 * 1024];
    let mut at = from;
    loop {
        file.seek(SeekFrom::Start(at))?;
        let n = read_full(file, &mut buf)?;
        if let Some(i) = memchr::memmem::find(&buf[..n], GZIP_MAGIC) {
            return Ok(Some(at + i as u64));
        }
        if n < buf.len() {
            return Ok(None);
        }
        // The magic may straddle the window's end: look again from its last bytes.
        at += (n - GZIP_MAGIC.len() + 1) as u64;
    }
}

fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
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
