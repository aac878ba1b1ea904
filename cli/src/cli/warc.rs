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
//!
//! Reading is split in two so that the records of one archive can be worked on in parallel:
//! an [`Archive`] reads the file (and decompresses its members) one record at a time, in order,
//! and hands on each HTTP `response` record as a [`Response`]; [`Response::read`], on whichever
//! thread takes the record, decodes its HTTP message.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read, Seek, SeekFrom};
use std::mem;
use std::path::{Path, PathBuf};

use flate2::bufread::GzDecoder;

use super::http::HttpResponse;
use super::inputs::{Body, Document, Skip};

/// The longest header line read; a longer one makes the record malformed.
const MAX_LINE: u64 = 64 * 1024;
/// The start of a gzip member: magic bytes and the deflate method.
const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b, 0x08];

/// What an archive holds, in file order.
pub(crate) enum Entry {
    /// A `response` record with an HTTP message.
    Response(Response),
    /// A malformed record, a broken gzip member, or the I/O error that ends the archive.
    Skipped(Skip),
}

/// The WARC archive at a path, read one entry at a time (an iterator of [`Entry`]); opened by
/// the first `next`.
pub(crate) struct Archive {
    /// The archive's name in the output and on stderr.
    name: String,
    reader: Reader,
}

/// Where the reading of an archive is.
enum Reader {
    Unopened(PathBuf),
    Plain(PlainWarc),
    Gzip(GzipWarc),
    /// Past the end, or past an I/O error.
    Done,
}

/// A `.warc`: records one after another.
struct PlainWarc {
    file: Counted<BufReader<File>>,
    /// After a malformed record: skip to the next line starting with `WARC/` before reading on.
    resync: bool,
}

/// A `.warc.gz`: gzip members, each decompressed whole and its records reported at the
/// member's offset.
struct GzipWarc {
    file: Counted<BufReader<File>>,
    /// The member whose records are being read, and its offset in the file.
    member: Option<(u64, Counted<Cursor<Vec<u8>>>)>,
    /// After a broken member at this offset: skip to the next gzip header before reading on.
    broken: Option<u64>,
}

impl Archive {
    /// The archive at `path`, gzip-compressed when its name ends in `.gz`.
    pub(crate) fn new(path: &Path) -> Archive {
        Archive {
            name: path.display().to_string(),
            reader: Reader::Unopened(path.to_owned()),
        }
    }

    /// The next entry; an I/O error ends the archive.
    fn next_entry(&mut self) -> io::Result<Option<Entry>> {
        loop {
            match &mut self.reader {
                Reader::Unopened(path) => self.reader = Reader::open(path)?,
                Reader::Plain(warc) => return warc.next_entry(&self.name),
                Reader::Gzip(warc) => return warc.next_entry(&self.name),
                Reader::Done => return Ok(None),
            }
        }
    }
}

impl Iterator for Archive {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        self.next_entry().unwrap_or_else(|e| {
            self.reader = Reader::Done;
            Some(Entry::Skipped(Skip::new(&self.name, None, e)))
        })
    }
}

impl Reader {
    fn open(path: &Path) -> io::Result<Reader> {
        let gzip = path.to_string_lossy().to_ascii_lowercase().ends_with(".gz");
        let file = Counted::new(BufReader::new(File::open(path)?));
        Ok(if gzip {
            Reader::Gzip(GzipWarc {
                file,
                member: None,
                broken: None,
            })
        } else {
            Reader::Plain(PlainWarc {
                file,
                resync: false,
            })
        })
    }
}

/// A skip of the archive `name` at `offset`.
fn skipped(name: &str, offset: u64, why: String) -> Entry {
    Entry::Skipped(Skip::new(name, Some(offset), why))
}

impl PlainWarc {
    fn next_entry(&mut self, name: &str) -> io::Result<Option<Entry>> {
        if mem::take(&mut self.resync) {
            skip_to_next_record(&mut self.file)?;
        }
        loop {
            match next_record(&mut self.file) {
                Ok(Some(record)) => {
                    let offset = record.offset;
                    if let Some(response) = Response::of(record, offset) {
                        return Ok(Some(Entry::Response(response)));
                    }
                }
                Ok(None) => return Ok(None),
                Err(Malformed { offset, why }) => {
                    self.resync = true;
                    let why = format!("malformed WARC record: {why}");
                    return Ok(Some(skipped(name, offset, why)));
                }
            }
        }
    }
}

impl GzipWarc {
    fn next_entry(&mut self, name: &str) -> io::Result<Option<Entry>> {
        loop {
            if let Some(at) = self.broken.take() {
                let Some(next) = next_member(self.file.inner.get_mut(), at + 1)? else {
                    return Ok(None);
                };
                self.file.inner.seek(SeekFrom::Start(next))?;
                self.file.pos = next;
            }
            if let Some((offset, records)) = &mut self.member {
                let offset = *offset;
                match next_record(records) {
                    Ok(Some(record)) => {
                        if let Some(response) = Response::of(record, offset) {
                            return Ok(Some(Entry::Response(response)));
                        }
                    }
                    Ok(None) => self.member = None,
                    Err(Malformed { offset: at, why }) => {
                        self.member = None;
                        let why =
                            format!("malformed WARC record at byte {at} of the gzip member: {why}");
                        return Ok(Some(skipped(name, offset, why)));
                    }
                }
                continue;
            }
            if self.file.fill_buf()?.is_empty() {
                return Ok(None);
            }
            let offset = self.file.pos;
            let mut member = Vec::new();
            match GzDecoder::new(&mut self.file).read_to_end(&mut member) {
                Ok(_) => self.member = Some((offset, Counted::new(Cursor::new(member)))),
                Err(e) => {
                    self.broken = Some(offset);
                    let why = format!("broken gzip member ({e}); skipped to the next member");
                    return Ok(Some(skipped(name, offset, why)));
                }
            }
        }
    }
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

/// The parts of a WARC record that matter here.
struct Record {
    /// Offset of the record in the (decompressed) stream it was read from.
    offset: u64,
    warc_type: String,
    uri: Option<String>,
    content_type: String,
    block: Vec<u8>,
}

/// A WARC `response` record holding an HTTP message, as read from the archive; what it holds
/// is decoded by [`Response::read`].
pub(crate) struct Response {
    /// Where the record starts in the file (for `.warc.gz`, its gzip member).
    offset: u64,
    uri: Option<String>,
    /// The HTTP message.
    block: Vec<u8>,
}

impl Response {
    /// The record at `offset` if it is a `response` holding an HTTP message.
    fn of(record: Record, offset: u64) -> Option<Response> {
        let is_http_response = record.warc_type.eq_ignore_ascii_case("response")
            && record
                .content_type
                .to_ascii_lowercase()
                .starts_with("application/http");
        is_http_response.then_some(Response {
            offset,
            uri: record.uri,
            block: record.block,
        })
    }

    /// Hand the HTML document of the archive `input` this record holds to `each`, its body
    /// with any transfer and content coding undone; nothing for a response that is not HTML;
    /// a skip for a malformed HTTP message or a body that cannot be decoded.
    pub(crate) fn read(&self, input: &str, each: &mut dyn FnMut(Document<'_>)) -> Result<(), Skip> {
        let skip = |why: String| Skip::new(input, Some(self.offset), why);
        let Some(response) = HttpResponse::parse(&self.block) else {
            let why = "malformed HTTP response in a WARC response record";
            return Err(skip(why.to_owned()));
        };
        let content_type = response.header("content-type").unwrap_or_default();
        if !is_html(&content_type) {
            return Ok(());
        }
        let body = response
            .body()
            .map_err(|why| skip(format!("HTTP body not decoded: {why}")))?;
        each(Document {
            input,
            offset: Some(self.offset),
            url: self.uri.as_deref(),
            body: Body::Whole(&body),
            charset: charset(&content_type),
        });
        Ok(())
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
