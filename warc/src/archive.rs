//! [`Archive`]: a WARC archive read serially, one entry at a time, from a path (a file, or a
//! named pipe) or from any reader (a Python file object). A malformed record is skipped up to the next member
//! (`.warc.gz`) or the next line starting with `WARC/` (`.warc`); a broken gzip member up to
//! the next gzip header: in a file, searched from the byte after the member's start; in a
//! stream, which cannot go back, from where the decoder stopped.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::mem;
use std::path::{Path, PathBuf};

use crate::members::{GZIP_MAGIC, MemberRecords, next_magic};
use crate::record::{
    Counted, Entry, Malformed, Response, Skipped, next_record, skip_to_next_record,
};

/// A WARC archive, read one entry at a time (an iterator of [`Entry`]); a path is opened by the
/// first `next`, and an I/O error ends the archive (its last entry, with no offset).
pub struct Archive {
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

/// What an archive is read from: a file can go back to resynchronize, a stream cannot.
enum Source {
    File(File),
    Stream(PushBack),
}

/// A stream that can be handed back a few bytes to read again.
struct PushBack {
    stream: Box<dyn Read + Send>,
    back: Vec<u8>,
    /// The stream has ended.
    ended: bool,
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::File(file) => file.read(buf),
            Source::Stream(stream) => stream.read(buf),
        }
    }
}

impl Seek for Source {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        match self {
            Source::File(file) => file.seek(to),
            Source::Stream(_) => Err(io::Error::other("a stream cannot seek")),
        }
    }
}

impl PushBack {
    fn new(stream: Box<dyn Read + Send>) -> PushBack {
        PushBack {
            stream,
            back: Vec::new(),
            ended: false,
        }
    }
}

impl Read for PushBack {
    /// The bytes handed back, then what one read of the stream gives.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let back = self.back.len().min(buf.len());
        buf[..back].copy_from_slice(&self.back[..back]);
        self.back.drain(..back);
        if back == buf.len() || self.ended {
            return Ok(back);
        }
        let n = self.stream.read(&mut buf[back..])?;
        self.ended = n == 0;
        Ok(back + n)
    }
}

/// A `.warc`: records one after another.
struct PlainWarc {
    file: Counted<BufReader<Source>>,
    /// After a malformed record: skip to the next line starting with `WARC/` before reading on.
    resync: bool,
}

/// A `.warc.gz`: gzip members, each read as it is inflated, its records reported at the
/// member's offset.
struct GzipWarc {
    place: Place,
    /// After a broken member at this offset: skip to the next gzip header before reading on.
    broken: Option<u64>,
}

/// Where a `.warc.gz` is read.
enum Place {
    /// Between members: the file.
    Between(Counted<BufReader<Source>>),
    /// In a member, over the file (boxed: the inflater's state is large, and moves with each
    /// entry).
    InMember(Box<MemberRecords<BufReader<Source>>>),
    /// Past the end of the file, or an I/O error.
    Ended,
}

impl Archive {
    /// The archive at `path`, gzip-compressed when its name ends in `.gz` (ASCII case
    /// insensitive), as the CLI decides.
    pub fn new(path: &Path) -> Archive {
        Archive {
            reader: Reader::Unopened(path.to_owned()),
        }
    }

    /// The archive `stream` holds, gzip-compressed or not (see [`is_gzip`]).
    pub fn from_reader(stream: impl Read + Send + 'static, gzip: bool) -> Archive {
        Archive {
            reader: Reader::of(Source::Stream(PushBack::new(Box::new(stream))), gzip),
        }
    }

    /// The next entry; an I/O error ends the archive.
    fn next_entry(&mut self) -> io::Result<Option<Entry>> {
        loop {
            match &mut self.reader {
                Reader::Unopened(path) => {
                    let gzip = path.to_string_lossy().to_ascii_lowercase().ends_with(".gz");
                    let file = File::open(path)?;
                    // A named pipe, say, cannot seek back: read it as a stream.
                    let source = if file.metadata()?.is_file() {
                        Source::File(file)
                    } else {
                        Source::Stream(PushBack::new(Box::new(file)))
                    };
                    self.reader = Reader::of(source, gzip);
                }
                Reader::Plain(warc) => return warc.next_entry(),
                Reader::Gzip(warc) => return warc.next_entry(),
                Reader::Done => return Ok(None),
            }
        }
    }
}

/// Whether `start`, the first bytes of an archive, start a gzip member.
pub fn is_gzip(start: &[u8]) -> bool {
    start.starts_with(&GZIP_MAGIC[..2])
}

impl Iterator for Archive {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        self.next_entry().unwrap_or_else(|e| {
            self.reader = Reader::Done;
            Some(Entry::Skipped(Skipped {
                offset: None,
                reason: e.to_string(),
            }))
        })
    }
}

impl Reader {
    fn of(source: Source, gzip: bool) -> Reader {
        let file = Counted::new(BufReader::new(source));
        if gzip {
            Reader::Gzip(GzipWarc {
                place: Place::Between(file),
                broken: None,
            })
        } else {
            Reader::Plain(PlainWarc {
                file,
                resync: false,
            })
        }
    }
}

/// A skip at `offset`.
pub(crate) fn skipped(offset: u64, reason: String) -> Entry {
    Entry::Skipped(Skipped {
        offset: Some(offset),
        reason,
    })
}

/// What a broken gzip member at `offset` skips.
pub(crate) fn broken(offset: u64, why: impl std::fmt::Display) -> Skipped {
    Skipped {
        offset: Some(offset),
        reason: format!("broken gzip member ({why}); skipped to the next member"),
    }
}

/// The entry of a malformed record in a gzip member at `member`.
pub(crate) fn malformed_in_member(member: u64, Malformed { offset, why }: Malformed) -> Entry {
    let why = format!("malformed WARC record at byte {offset} of the gzip member: {why}");
    skipped(member, why)
}

/// The entry of a broken gzip member at `offset`.
pub(crate) fn broken_member(offset: u64, why: impl std::fmt::Display) -> Entry {
    Entry::Skipped(broken(offset, why))
}

impl PlainWarc {
    fn next_entry(&mut self) -> io::Result<Option<Entry>> {
        if mem::take(&mut self.resync) {
            skip_to_next_record(&mut self.file)?;
        }
        loop {
            match next_record(&mut self.file) {
                Ok(Some((offset, record))) => {
                    if let Some(response) = Response::of(record, offset) {
                        return Ok(Some(Entry::Response(response)));
                    }
                }
                Ok(None) => return Ok(None),
                Err(Malformed { offset, why }) => {
                    self.resync = true;
                    return Ok(Some(skipped(
                        offset,
                        format!("malformed WARC record: {why}"),
                    )));
                }
            }
        }
    }
}

impl GzipWarc {
    fn next_entry(&mut self) -> io::Result<Option<Entry>> {
        loop {
            if let Some(at) = self.broken.take()
                && !self.resync(at)?
            {
                return Ok(None);
            }
            match mem::replace(&mut self.place, Place::Ended) {
                Place::InMember(mut records) => {
                    if let Some(entry) = records.next() {
                        self.place = Place::InMember(records);
                        return Ok(Some(entry));
                    }
                    if records.end() == Some(None) {
                        self.broken = Some(records.start());
                    }
                    self.place = Place::Between(records.into_compressed());
                }
                Place::Between(mut file) => {
                    // At the end (or an I/O error), the place stays `Ended`.
                    if file.fill_buf()?.is_empty() {
                        return Ok(None);
                    }
                    let offset = file.pos;
                    self.place = Place::InMember(Box::new(MemberRecords::new(offset, file)));
                }
                Place::Ended => return Ok(None),
            }
        }
    }

    /// The file, between members.
    fn file(&mut self) -> Option<&mut Counted<BufReader<Source>>> {
        match &mut self.place {
            Place::Between(file) => Some(file),
            _ => None,
        }
    }

    /// After a broken member at `at`: move to the next gzip header; `false` when there is none.
    fn resync(&mut self, at: u64) -> io::Result<bool> {
        let Some(file) = self.file() else {
            return Ok(false);
        };
        let next = match file.inner.get_mut() {
            Source::File(file) => next_magic(file, at + 1)?,
            Source::Stream(_) => return skip_to_magic(file),
        };
        let Some(next) = next else {
            return Ok(false);
        };
        file.inner.seek(SeekFrom::Start(next))?;
        file.pos = next;
        Ok(true)
    }
}

/// Consume a stream up to the next gzip header; `false` when it ends first.
fn skip_to_magic(reader: &mut Counted<BufReader<Source>>) -> io::Result<bool> {
    loop {
        let buf = reader.fill_buf()?;
        if let Some(i) = memchr::memmem::find(buf, GZIP_MAGIC) {
            reader.consume(i);
            return Ok(true);
        }
        // The magic may straddle the buffer's end: hand its last bytes back to the stream, to
        // be read again with what follows them.
        let keep = buf.len().min(GZIP_MAGIC.len() - 1);
        let tail = buf[buf.len() - keep..].to_vec();
        let len = buf.len();
        reader.consume(len);
        match reader.inner.get_mut() {
            Source::Stream(stream) if !stream.ended => stream.back = tail,
            _ => return Ok(false),
        }
        reader.pos -= keep as u64;
    }
}
