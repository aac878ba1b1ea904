//! The gzip members of a `.warc.gz` file inflated in parallel, results in file order: how one
//! archive (or many) keeps every thread busy, inflating included.
//!
//! Where a member ends is known only once it is inflated, so the members cannot be found ahead
//! of time; but every member starts with the gzip magic bytes (`1f 8b 08`), and finding those is
//! cheap. [`Candidates`] reads the file once, serially, for every place they occur whose first
//! inflated bytes are `WARC/` (a probe of a few hundred bytes), and hands each on as a
//! [`Member`]: a place a member may start. Any thread then inflates it ([`Member::read`],
//! reading the file at that offset) and parses its records. A few candidates are not members
//! (a gzipped WARC record stored as is inside a member, or chance); the probe already tells apart
//! the usual false one, a gzipped HTTP body stored as is (wget and Heritrix keep them). The
//! consumer, taking the results in file order, keeps a [`Chain`]: a candidate is a member when it
//! starts where the last member ended (or later: the bytes between are reported as broken), and
//! is dropped when it lies inside the last member.
//!
//! Bounded work: a member is read before the chain confirms it only up to the next candidate (at
//! most [`MAX_AHEAD`] past its start); a member longer than that (one holding a candidate, a huge
//! member) stops there and is read again, whole, once the chain confirms it
//! ([`MemberRead::TooLong`]). So each byte of the file is inflated at most twice, however many
//! candidates are false.
//!
//! Bounded memory: a member read ahead is held inflated up to [`MAX_HELD`] bytes; one read again
//! is streamed, a record at a time ([`MemberStream`]), so that one gzip member for a whole
//! file (`gzip crawl.warc`) is read in the memory of its largest record, not of the file.
//!
//! Bytes where the serial reader ([`crate::Archive`]) would report a broken member are reported
//! at the same offsets; within a damaged stretch, where the serial reader tries every gzip magic
//! after a broken member, only probable members are tried here.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::sync::Arc;

use flate2::{Decompress, FlushDecompress};

use crate::archive::broken;
use crate::record::{Counted, Entry, Skipped};

mod stream;
pub(crate) use stream::MemberRecords;
pub use stream::MemberStream;

/// The start of a gzip member: magic bytes and the deflate method.
pub(crate) const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b, 0x08];
/// How far past its start a member is read before the chain confirms it, at most.
pub const MAX_AHEAD: u64 = 4 << 20;
/// The most inflated bytes of a member [`Member::read`] holds (a few megabytes of deflate can
/// inflate a thousandfold); a longer member is streamed.
pub const MAX_HELD: u64 = 64 << 20;
/// Why bytes between members are skipped: what the serial reader's gzip decoder says there.
const NO_HEADER: &str = "invalid gzip header";
/// The bytes read to tell whether a candidate may hold records: enough for a gzip header and
/// the start of a deflate block.
const PROBE: usize = 1024;
/// The bytes [`Candidates`] reads at a time.
const BLOCK: usize = 1 << 20;

/// A place in a `.warc.gz` file where a gzip member may start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    /// Its offset in the file.
    pub start: u64,
    /// How far it is read before the chain confirms it: the next candidate, or
    /// [`MAX_AHEAD`] past `start`; `None`: to the end of the file.
    pub limit: Option<u64>,
}

/// What reading a [`Member`] gave.
#[derive(Debug)]
pub enum MemberRead {
    /// The member: where it ends (`None`: it is broken, and its one entry says why), and its
    /// entries: its `response` records and what was malformed in it.
    Read {
        end: Option<u64>,
        entries: Vec<Entry>,
    },
    /// The member goes on past [`Member::limit`], or inflates to more than [`MAX_HELD`]
    /// bytes: to be read with [`Member::stream`] if the chain confirms it.
    TooLong,
}

impl Member {
    /// Inflate the member starting here in `file` and parse its records, as
    /// [`Member::stream`] does, holding them: a member that inflates to more than [`MAX_HELD`]
    /// bytes, or goes on past its limit, is [`MemberRead::TooLong`], to be streamed.
    pub fn read(&self, file: &File) -> MemberRead {
        let compressed = Counted::new(BufReader::new(FileAt::new(file, self.start, self.limit)));
        let mut records = MemberRecords::new(self.start, compressed);
        if !records.held_whole() {
            return MemberRead::TooLong;
        }
        let entries = records.by_ref().collect();
        let end = records.end().flatten();
        if end.is_none() && records.into_compressed().inner.get_ref().reached {
            return MemberRead::TooLong;
        }
        MemberRead::Read { end, entries }
    }
}

/// A file read from an offset, up to a limit (then as if it ended there).
pub(crate) struct FileAt<'a> {
    file: &'a File,
    pos: u64,
    limit: Option<u64>,
    /// The limit was reached.
    reached: bool,
}

impl<'a> FileAt<'a> {
    pub(crate) fn new(file: &'a File, pos: u64, limit: Option<u64>) -> FileAt<'a> {
        FileAt {
            file,
            pos,
            limit,
            reached: false,
        }
    }
}

/// Tells whether the gzip member that may start at an offset may hold WARC records: its first
/// inflated bytes, after any CR and LF, are (the start of) `WARC/`. Most false candidates, a
/// gzipped HTTP body stored as is inside a member (as wget and Heritrix keep them), are told
/// apart here, so that they neither cost a job nor cut the member around them short. One raw
/// inflater, reset for each candidate: this runs on the one thread that finds the candidates.
struct Probe {
    inflater: Decompress,
    buf: Vec<u8>,
}

impl Probe {
    fn new() -> Probe {
        Probe {
            inflater: Decompress::new(false),
            buf: vec![0; PROBE],
        }
    }

    /// Whether a member at `at` in `file` may hold records; when it cannot tell (the file
    /// cannot be read there, a gzip header longer than the probe), yes: the job will say.
    fn may_hold_records(&mut self, file: &File, at: u64) -> bool {
        const WARC: &[u8] = b"WARC/";
        let Ok(n) = read_full(&mut FileAt::new(file, at, None), &mut self.buf) else {
            return true;
        };
        let Some(deflate) = deflate_start(&self.buf[..n]) else {
            return true;
        };
        self.inflater.reset(false);
        let mut first = [0; 16];
        let inflated =
            self.inflater
                .decompress(&self.buf[deflate..n], &mut first, FlushDecompress::None);
        let out = usize::try_from(self.inflater.total_out()).map_or(0, |n| n.min(first.len()));
        let start = first[..out]
            .iter()
            .position(|b| !matches!(b, b'\r' | b'\n'));
        let text = start.map_or(&[][..], |i| &first[i..out]);
        (inflated.is_ok() || out > 0) && (text.starts_with(WARC) || WARC.starts_with(text))
    }
}

/// Where the deflate data starts after the gzip header (RFC 1952, 2.3) at the start of
/// `member`, if the header is all there.
fn deflate_start(member: &[u8]) -> Option<usize> {
    const FHCRC: u8 = 0x02;
    const FEXTRA: u8 = 0x04;
    const FNAME: u8 = 0x08;
    const FCOMMENT: u8 = 0x10;
    let flags = *member.get(3)?;
    let mut at = 10;
    if flags & FEXTRA != 0 {
        let len = member.get(at..at + 2)?;
        at += 2 + usize::from(u16::from_le_bytes([len[0], len[1]]));
    }
    for field in [FNAME, FCOMMENT] {
        if flags & field != 0 {
            at += memchr::memchr(0, member.get(at..)?)? + 1;
        }
    }
    if flags & FHCRC != 0 {
        at += 2;
    }
    (at <= member.len()).then_some(at)
}

impl Read for FileAt<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let room = self
            .limit
            .map_or(buf.len() as u64, |limit| limit.saturating_sub(self.pos));
        if room == 0 {
            self.reached = true;
            return Ok(0);
        }
        let want = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let n = read_at(self.file, &mut buf[..want], self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

/// Read at `offset` without moving the file's cursor (threads share the file).
#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

/// Read at `offset` (Windows moves the cursor, which no one else uses).
#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

/// The places in a `.warc.gz` file where a gzip member may start, in file order (an iterator
/// of [`Member`]): every occurrence of the gzip magic bytes. The file is read once, a block at
/// a time, and each candidate is handed on once the next one (or the end of the file, or
/// [`MAX_AHEAD`]) is known; an I/O error ends it.
pub struct Candidates {
    file: Arc<File>,
    /// The file's bytes examined so far.
    scanned: u64,
    /// The last bytes of the previous block, where a magic may begin.
    tail: Vec<u8>,
    found: VecDeque<u64>,
    ended: bool,
    block: Vec<u8>,
    probe: Probe,
}

impl Candidates {
    /// The candidates of `file` (read at offsets, its cursor left alone: the file may be
    /// shared with the threads that read the members).
    pub fn new(file: Arc<File>) -> Candidates {
        Candidates {
            file,
            scanned: 0,
            tail: Vec::new(),
            found: VecDeque::new(),
            ended: false,
            block: vec![0; BLOCK],
            probe: Probe::new(),
        }
    }

    /// The next candidate.
    pub fn next_member(&mut self) -> io::Result<Option<Member>> {
        let ahead = |found: &VecDeque<u64>, scanned: u64| match found.front() {
            Some(&start) => found.len() > 1 || scanned >= start + MAX_AHEAD,
            None => false,
        };
        while !self.ended && !ahead(&self.found, self.scanned) {
            self.scan_block()?;
        }
        let Some(start) = self.found.pop_front() else {
            return Ok(None);
        };
        let next = self.found.front().copied().unwrap_or(u64::MAX);
        let limit = next.min(start + MAX_AHEAD);
        let limit = (limit < self.scanned || !self.ended).then_some(limit);
        Ok(Some(Member { start, limit }))
    }

    /// Read the next block and note the candidates in it.
    fn scan_block(&mut self) -> io::Result<()> {
        let mut at = FileAt::new(&self.file, self.scanned, None);
        let n = read_full(&mut at, &mut self.block)?;
        self.ended = n < self.block.len();
        let from = self.scanned - self.tail.len() as u64;
        let mut window = std::mem::take(&mut self.tail);
        window.extend_from_slice(&self.block[..n]);
        let found = memchr::memmem::find_iter(&window, GZIP_MAGIC).map(|i| from + i as u64);
        let (file, probe) = (&self.file, &mut self.probe);
        self.found
            .extend(found.filter(|&at| probe.may_hold_records(file, at)));
        self.scanned += n as u64;
        let keep = window.len().min(GZIP_MAGIC.len() - 1);
        self.tail = window.split_off(window.len() - keep);
        Ok(())
    }
}

impl Iterator for Candidates {
    type Item = io::Result<Member>;

    fn next(&mut self) -> Option<io::Result<Member>> {
        self.next_member().transpose()
    }
}

/// The members of one archive as the consumer confirms them, in file order (see the module's
/// documentation).
#[derive(Debug, Default)]
pub struct Chain {
    /// Where the next member must start: the end of the last one read.
    next: u64,
    /// After a broken member: the next candidate is taken, wherever it is.
    resync: bool,
}

impl Chain {
    /// Whether the candidate at `start` is a member's start, not a place inside the last
    /// member.
    pub fn starts_member(&self, start: u64) -> bool {
        self.resync || start >= self.next
    }

    /// Take the member at `start` (one [`Chain::starts_member`] confirmed), which ends at `end`
    /// (`None`: broken); a skip for the bytes before it that no member holds.
    pub fn settle(&mut self, start: u64, end: Option<u64>) -> Option<Skipped> {
        let gap = self.gap_before(start);
        self.ended(end);
        gap
    }

    /// [`Chain::settle`] in two steps, for a member read as a stream (whose end is known only
    /// after its entries): the skip for the bytes before the member at `start`, if any…
    pub fn gap_before(&self, start: u64) -> Option<Skipped> {
        (!self.resync && start > self.next).then(|| broken(self.next, NO_HEADER))
    }

    /// …and, once it is read, where it ended (`None`: broken).
    pub fn ended(&mut self, end: Option<u64>) {
        match end {
            Some(end) => (self.next, self.resync) = (end, false),
            None => self.resync = true,
        }
    }

    /// At the end of a file of `len` bytes: a skip for the bytes after the last member that no
    /// member holds.
    pub fn finish(self, len: u64) -> Option<Skipped> {
        (!self.resync && len > self.next).then(|| broken(self.next, NO_HEADER))
    }
}

/// The offset of the next gzip header at or after `from`, if any.
pub(crate) fn next_magic(file: &mut File, from: u64) -> io::Result<Option<u64>> {
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

#[cfg(test)]
mod tests;
