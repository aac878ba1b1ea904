//! A plain document (a file or standard input) in bounded memory: read whole when it is short
//! (at most [`Limits::whole`] bytes, exactly as a WARC record is), streamed otherwise: its first
//! `whole + 1` bytes as the first chunk (so that UTF-8 detection sees all of them), then chunks of
//! [`Limits::chunk`] bytes. When a `<meta>` changes the encoding, a file is read again from its
//! first byte; standard input (or a pipe) is replayed only while its first chunk is still held,
//! and past it keeps the first encoding, with a note.

use std::io::{self, Read, Seek, SeekFrom};

use tagstream::LimitError;
use tagstream::encoding::{Encoding, EncodingChange, Transcoder};

use super::encoding::{Done, Page, Reading, push_tokens};
use super::inputs::Skip;

/// How much of a plain document is held at once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// The longest document read whole, and the size of a stream's first chunk (plus one byte).
    pub(crate) whole: usize,
    /// The size of a stream's later chunks.
    pub(crate) chunk: usize,
}

/// The limits of the crawler commands. 4 MiB whole: ten times the longest page of
/// datasets/corpus (396 KB), so real pages keep the exact whole-document path; and what one job
/// holds at most stays small (under 64 MiB with --jobs 1 on the storms of perf/rss.sh --errors),
/// whether the document is whole or streamed: its first chunk, the transcoder's output for it (up
/// to three times as many bytes for a single-byte encoding such as windows-1252, the `auto`
/// default for ASCII), the tokenizer's unfinished token carried between chunks, and its capped
/// parse errors (6 MiB at most). 1 MiB chunks: few enough feeds that their cost does not show,
/// small beside the first chunk.
pub(crate) const LIMITS: Limits = Limits {
    whole: 4 << 20,
    chunk: 1 << 20,
};

/// Where a plain document's bytes come from.
pub(crate) enum Source {
    /// A regular file: it can be read again from the start.
    Seekable(Box<dyn ReadSeek>),
    /// Standard input, or a file that is a pipe or a device: read once.
    Forward(Box<dyn Read>),
}

/// A source that can go back to its start.
pub(crate) trait ReadSeek: Read + Seek {}

impl<T: Read + Seek> ReadSeek for T {}

/// A document that could not be read to its end: a read that failed after `offset` bytes, or a
/// token longer than `--max-token` that starts at `offset`.
#[derive(Debug)]
pub(crate) struct Broken {
    pub(crate) offset: Option<u64>,
    pub(crate) why: Why,
}

/// Why a document could not be read to its end.
#[derive(Debug)]
pub(crate) enum Why {
    Read(io::Error),
    /// The tokenizer stopped at its carry limit (`Options::max_carry`); the broken document's
    /// offset is unknown when its bytes were decoded without an offset map, and the limit's
    /// offset counts bytes of the decoded text.
    TokenTooLong(LimitError),
}

impl Broken {
    /// A read that failed after `offset` bytes.
    fn read(offset: u64, error: io::Error) -> Broken {
        Broken {
            offset: Some(offset),
            why: Why::Read(error),
        }
    }

    /// The document is skipped: what it gave so far is dropped.
    pub(crate) fn skip(self, input: &str) -> Skip {
        let reason = match self.why {
            Why::Read(error) => format!("read error: {error}"),
            Why::TokenTooLong(limit) => {
                let here = match self.offset {
                    Some(_) => "here".to_owned(),
                    None => format!("at byte {} of the text decoded to UTF-8", limit.offset),
                };
                format!(
                    "a token longer than --max-token ({} MiB) starts {here}: not read past it \
                     (it needs {} bytes held at once)",
                    limit.max >> 20,
                    limit.needed
                )
            }
        };
        Skip::new(input, self.offset, reason)
    }
}

/// A plain document being read: the bytes of the last read and how far it got.
pub(crate) struct Stream {
    source: Source,
    limits: Limits,
    /// The first chunk (after [`Stream::start`]) or the last chunk read.
    buf: Vec<u8>,
    /// Bytes read from the document's start (since the last rewind).
    read: u64,
    /// `buf` holds the first chunk, and the source is right after it.
    at_first_chunk: bool,
}

impl Stream {
    /// Read the first chunk of `source`: all of it when it is at most `limits.whole` bytes.
    /// `size_hint` is the file's size, when known, to allocate no more than needed.
    pub(crate) fn start(source: Source, limits: Limits, size_hint: u64) -> Result<Stream, Broken> {
        let capacity = size_hint.min(limits.whole as u64 + 1) as usize;
        let mut stream = Stream {
            source,
            limits,
            buf: Vec::with_capacity(capacity),
            read: 0,
            at_first_chunk: true,
        };
        stream.fill(limits.whole + 1)?;
        Ok(stream)
    }

    /// The whole document, when it ended within the first chunk.
    pub(crate) fn whole(&self) -> Option<&[u8]> {
        (self.at_first_chunk && self.buf.len() <= self.limits.whole).then_some(&self.buf[..])
    }

    /// Bytes read since the document's start.
    pub(crate) fn read(&self) -> u64 {
        self.read
    }

    /// Replace `buf` with up to `limit` more bytes (none at the end of the document).
    fn fill(&mut self, limit: usize) -> Result<(), Broken> {
        self.buf.clear();
        let reader: &mut dyn Read = match &mut self.source {
            Source::Seekable(file) => file,
            Source::Forward(input) => input,
        };
        let result = reader.take(limit as u64).read_to_end(&mut self.buf);
        self.read += self.buf.len() as u64;
        result
            .map(drop)
            .map_err(|error| Broken::read(self.read, error))
    }

    /// Whether the document can start over from its first byte.
    fn can_restart(&self) -> bool {
        self.at_first_chunk || matches!(self.source, Source::Seekable(_))
    }

    /// Back to the first chunk: still held, or read again from the start of the file.
    fn restart(&mut self) -> Result<(), Broken> {
        let rewound = match &mut self.source {
            _ if self.at_first_chunk => return Ok(()),
            Source::Seekable(file) => file.seek(SeekFrom::Start(0)).map(drop),
            Source::Forward(_) => Err(io::Error::other("a pipe cannot be read again")),
        };
        rewound.map_err(|error| Broken::read(self.read, error))?;
        self.read = 0;
        self.at_first_chunk = true;
        self.fill(self.limits.whole + 1)
    }

    /// Feed the document from its first chunk on to `transcoder`, its tokens into `page`, up to
    /// its end, or up to a `<meta>` that changes the encoding when the document can start over
    /// (that change is returned).
    fn pass<P: Page>(
        &mut self,
        transcoder: &mut Transcoder,
        page: &mut P,
    ) -> Result<Option<EncodingChange>, Broken> {
        if let Some(change) = push_tokens(transcoder.feed(&self.buf), page, true) {
            return Ok(Some(change));
        }
        loop {
            page.seam();
            self.at_first_chunk = false;
            self.fill(self.limits.chunk)?;
            let tokens = if self.buf.is_empty() {
                transcoder.finish()
            } else {
                transcoder.feed(&self.buf)
            };
            let change = push_tokens(tokens, page, self.can_restart());
            if change.is_some() || self.buf.is_empty() {
                return Ok(change);
            }
        }
    }
}

/// Read the document in `stream` into a page made by `start`, with the transcoder `transcoder_for`
/// makes (given the encoding known for certain, if any). When a `<meta>` changes the encoding,
/// the page is dropped and the document read again, once, in the declared encoding, when it can
/// be: otherwise the first encoding is kept, and the returned note says so.
pub(crate) fn read<P: Page>(
    stream: &mut Stream,
    transcoder_for: impl Fn(Option<&'static Encoding>) -> Transcoder,
    start: impl Fn() -> P,
) -> Result<Reading<P>, Broken> {
    let mut transcoder = transcoder_for(None);
    let mut page = start();
    if let Some(change) = stream.pass(&mut transcoder, &mut page)? {
        stream.restart()?;
        transcoder = transcoder_for(Some(change.to));
        page = start();
        // The encoding is certain now: no `<meta>` can change it again.
        stream.pass(&mut transcoder, &mut page)?;
    }
    // A change that did not stop the pass: the stream could not start over.
    let kept = transcoder.encoding_change();
    let done = Done {
        bytes: stream.read(),
        note: kept.map(|change| kept_note(change, stream.limits)),
    };
    Ok(Reading {
        page,
        transcoder,
        done,
    })
}

/// What standard input (or a pipe) gets when a `<meta>` past its first chunk changes the
/// encoding.
fn kept_note(change: EncodingChange, limits: Limits) -> String {
    format!(
        "a <meta> declares {} past the first {} bytes, too late to read this input again \
         (not a regular file): read as {} throughout",
        change.to.name(),
        limits.whole + 1,
        change.from.name(),
    )
}

#[cfg(test)]
mod tests;
