//! A gzip member read record by record as it is inflated, in the memory of one record however
//! long the member: how the serial reader reads every member ([`crate::Archive`]), and how the
//! parallel one reads a member too long to hold ([`Member::stream`]), such as one gzip member
//! for a whole file (as `gzip crawl.warc` makes it).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Chain, Cursor, Read};

use flate2::bufread::GzDecoder;

use super::{FileAt, MAX_HELD, Member};
use crate::archive::{broken_member, malformed_in_member};
use crate::record::{Counted, Entry, Response, next_record};

/// The entries of the member starting at `start` in a compressed stream (an iterator of
/// [`Entry`]): its `response` records, and a malformed record (after which the rest of the
/// member is inflated unread) or a broken member. Once they are all out,
/// [`MemberRecords::end`] says where the member ended.
///
/// The first [`MAX_HELD`] inflated bytes are inflated at once: a member no longer than that
/// (nearly every member: one per record is the rule) is whole before its records are read, and
/// a broken one gives only its break, as if read whole. A longer one (one member for a whole
/// file) is read on as it inflates, in the memory of that much and a record: its records
/// inflated before a break come out before the break.
pub(crate) struct MemberRecords<B: BufRead> {
    start: u64,
    /// The compressed stream's count where the member starts.
    from: u64,
    /// The inflated member, counted (where a record is in it).
    records: Counted<BufReader<Inflating<B>>>,
    /// The member broke within what was inflated at once: its break is all it gives.
    broke_early: bool,
    /// The member ended within what was inflated at once.
    held_whole: bool,
    /// Where the member ends once read: `Some(end)`, or `None` for a broken member.
    end: Option<Option<u64>>,
}

/// A member's inflated bytes: what was inflated at once, then the inflater.
type Inflating<B> = Chain<Cursor<Vec<u8>>, Inflated<B>>;

/// The inflater over the compressed stream, keeping its first error: a record that fails to
/// parse because the member broke under it is told from a malformed record.
struct Inflated<B: BufRead> {
    decoder: GzDecoder<Counted<B>>,
    error: Option<io::Error>,
}

impl<B: BufRead> Read for Inflated<B> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.decoder.read(buf).inspect_err(|e| {
            if self.error.is_none() {
                self.error = Some(io::Error::new(e.kind(), e.to_string()));
            }
        })
    }
}

impl<B: BufRead> MemberRecords<B> {
    /// The member at file offset `start`, where `compressed` is.
    pub(crate) fn new(start: u64, compressed: Counted<B>) -> MemberRecords<B> {
        let from = compressed.pos;
        let mut inflated = Inflated {
            decoder: GzDecoder::new(compressed),
            error: None,
        };
        let mut held = Vec::new();
        let at_once = (&mut inflated).take(MAX_HELD + 1).read_to_end(&mut held);
        let broke_early = at_once.is_err();
        let held_whole = broke_early || held.len() as u64 <= MAX_HELD;
        MemberRecords {
            start,
            from,
            records: Counted::new(BufReader::new(Cursor::new(held).chain(inflated))),
            broke_early,
            held_whole,
            end: None,
        }
    }

    /// Whether the member ended (or broke) within the [`MAX_HELD`] bytes inflated at once.
    pub(crate) fn held_whole(&self) -> bool {
        self.held_whole
    }

    /// Where the member ends, once every entry is out: `Some(Some(end))`, or `Some(None)` for a
    /// broken member; `None` before.
    pub(crate) fn end(&self) -> Option<Option<u64>> {
        self.end
    }

    /// Where the member starts in the file.
    pub(crate) fn start(&self) -> u64 {
        self.start
    }

    /// The compressed stream, where the inflater left it: after the member, if it ended.
    pub(crate) fn into_compressed(self) -> Counted<B> {
        self.records
            .inner
            .into_inner()
            .into_inner()
            .1
            .decoder
            .into_inner()
    }

    /// The inflated bytes are all read: the member ends where its compressed bytes were
    /// consumed, or is broken if the inflater failed (its entry then).
    fn finish(&mut self) -> Option<Entry> {
        let inflated = self.records.inner.get_mut().get_mut().1;
        match inflated.error.take() {
            Some(e) => {
                self.end = Some(None);
                Some(broken_member(self.start, e))
            }
            None => {
                let consumed = inflated.decoder.get_ref().pos - self.from;
                self.end = Some(Some(self.start + consumed));
                None
            }
        }
    }

    /// After a malformed record: the rest of the member inflated unread, to find where it ends.
    /// An error on the way is kept by [`Inflated`], and [`MemberRecords::finish`] reports it.
    fn drain(&mut self) {
        let mut rest = [0; 8192];
        while matches!(self.records.read(&mut rest), Ok(1..)) {}
    }
}

impl<B: BufRead> Iterator for MemberRecords<B> {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        if self.end.is_some() {
            return None;
        }
        if self.broke_early {
            return self.finish();
        }
        loop {
            match next_record(&mut self.records) {
                Ok(Some((_, record))) => {
                    if let Some(response) = Response::of(record, self.start) {
                        return Some(Entry::Response(response));
                    }
                }
                Ok(None) => return self.finish(),
                Err(malformed) => {
                    // An inflater error (which may be what made the record look malformed)
                    // makes the member broken, and that is what is said.
                    self.drain();
                    let broken = self.finish();
                    return broken.or_else(|| Some(malformed_in_member(self.start, malformed)));
                }
            }
        }
    }
}

/// The entries of one member of a file, read as it is inflated ([`Member::stream`]; an
/// iterator of [`Entry`]), and, once they are all out, where it ends ([`MemberStream::end`]).
/// They are what [`Member::read`] gives.
pub struct MemberStream<'f>(MemberRecords<BufReader<FileAt<'f>>>);

impl Member {
    /// Inflate the member starting here in `file` to its end (its limit is not looked at),
    /// handing out its entries as they are read.
    pub fn stream(self, file: &File) -> MemberStream<'_> {
        let compressed = Counted::new(BufReader::new(FileAt::new(file, self.start, None)));
        MemberStream(MemberRecords::new(self.start, compressed))
    }
}

impl MemberStream<'_> {
    /// Where the member ends, once every entry is out: `Some(Some(end))`, or `Some(None)` for a
    /// broken member; `None` before.
    pub fn end(&self) -> Option<Option<u64>> {
        self.0.end()
    }
}

impl Iterator for MemberStream<'_> {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        self.0.next()
    }
}
