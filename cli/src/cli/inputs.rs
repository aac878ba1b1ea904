//! What the crawler commands read: files, directories (recursively), standard input and WARC
//! archives, each turned into the HTML documents it holds, handed out as jobs ([`Jobs`]): a
//! plain input is one job; a `.warc.gz` file one job per place a gzip member may start, which
//! the worker inflates (see [`tagstream_warc::members`]: inflating is spread over the threads
//! too); another archive (a `.warc`, a `.warc.gz` read through a pipe) one job per record,
//! read serially.

use std::fmt;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::slice;
use std::sync::Arc;

use tagstream_warc::{Archive, Candidates, Entry, HttpError, Member, Response, Skipped};

use super::stream::{LIMITS, Source, Stream};

/// One input named on the command line or found in a directory.
#[derive(Debug)]
pub(crate) enum Input {
    /// One document.
    Plain(Plain),
    /// A WARC archive, gzip-compressed when its name ends in `.gz`.
    Warc(PathBuf),
}

/// An input that is one document.
#[derive(Debug)]
pub(crate) enum Plain {
    Stdin,
    File(PathBuf),
}

impl Plain {
    /// How the input is named in the output: `-` or the path as given.
    fn name(&self) -> String {
        match self {
            Plain::Stdin => "-".to_owned(),
            Plain::File(path) => path.display().to_string(),
        }
    }
}

/// One HTML document to process.
pub(crate) struct Document<'a> {
    /// The input it comes from: `-` for standard input, else its path as given.
    pub(crate) input: &'a str,
    /// For a WARC record: where the record starts in the file (for `.warc.gz`, where its gzip
    /// member starts, as Common Crawl's indexes give it).
    pub(crate) offset: Option<u64>,
    /// For a WARC record: its `WARC-Target-URI`.
    pub(crate) url: Option<&'a str>,
    /// The document's bytes as read, in whatever encoding.
    pub(crate) body: Body<'a>,
    /// For a WARC record: the `charset` of its HTTP `Content-Type`, if any.
    pub(crate) charset: Option<&'a str>,
}

/// A document's bytes: held whole (a WARC record, a short file), or a plain file or standard
/// input too long for that, read chunk by chunk.
pub(crate) enum Body<'a> {
    Whole(&'a [u8]),
    Stream(&'a mut Stream),
}

/// Something that was not read, and why; the run goes on without it.
#[derive(Debug)]
pub(crate) struct Skip {
    pub(crate) input: String,
    pub(crate) offset: Option<u64>,
    pub(crate) reason: String,
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(offset) => write!(f, "{} at offset {offset}: {}", self.input, self.reason),
            None => write!(f, "{}: {}", self.input, self.reason),
        }
    }
}

impl Skip {
    /// What the WARC reader skipped in the archive `input`.
    pub(crate) fn of(input: &str, skipped: Skipped) -> Skip {
        Skip::new(input, skipped.offset, skipped.reason)
    }

    pub(crate) fn new(input: &str, offset: Option<u64>, reason: impl fmt::Display) -> Skip {
        Skip {
            input: input.to_owned(),
            offset,
            reason: reason.to_string(),
        }
    }
}

/// The inputs `paths` name, in order: directories are replaced by the HTML and WARC files below
/// them (sorted by name, symbolic links to directories not followed); explicitly named files are
/// taken whatever their name. Paths that cannot be listed are skipped.
pub(crate) fn expand(paths: &[PathBuf]) -> (Vec<Input>, Vec<Skip>) {
    let mut inputs = Vec::new();
    let mut skips = Vec::new();
    for path in paths {
        if path == Path::new("-") {
            inputs.push(Input::Plain(Plain::Stdin));
        } else if path.is_dir() {
            walk(path, &mut inputs, &mut skips);
        } else {
            inputs.push(classify(path.clone()));
        }
    }
    (inputs, skips)
}

/// A WARC archive or an HTML file, by its name.
fn classify(path: PathBuf) -> Input {
    let name = path.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".warc") || name.ends_with(".warc.gz") {
        Input::Warc(path)
    } else {
        Input::Plain(Plain::File(path))
    }
}

/// Whether a file found in a directory is one to read.
fn is_wanted(path: &Path) -> bool {
    let name = path.to_string_lossy().to_ascii_lowercase();
    [".html", ".htm", ".xhtml", ".warc", ".warc.gz"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

fn walk(dir: &Path, inputs: &mut Vec<Input>, skips: &mut Vec<Skip>) {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return skips.push(Skip::new(&dir.display().to_string(), None, e)),
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let path = entry.path();
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir {
            walk(&path, inputs, skips);
        } else if path.is_file() && is_wanted(&path) {
            inputs.push(classify(path));
        }
    }
}

/// One piece of work for a crawler command, as [`Jobs`] hands them out in input order.
pub(crate) enum Job<'a> {
    /// Standard input or an HTML file: read by the worker that takes it (see [`read`]).
    Plain(&'a Plain),
    /// A `response` record of the WARC archive at this path: its HTTP message is decoded by the
    /// worker that takes it (see [`read_response`]).
    Record(&'a Path, Response),
    /// A place a gzip member may start in the `.warc.gz` file at this path (open in the
    /// `File`): inflated, its records read and decoded, by the worker that takes it.
    Member(&'a Path, Arc<File>, Member),
    /// Something of an archive that could not be read.
    Skipped(Skip),
    /// The end of an archive; for one read by members, its path and length (bytes after the
    /// last member are reported).
    ArchiveEnd(Option<(&'a Path, u64)>),
}

/// The jobs of some inputs, in order: one for each plain input, one for each place a member
/// may start in a `.warc.gz` file, one for each HTTP response record of another archive, read
/// as they are taken (finding the members, or reading an archive, is serial; the work on each is
/// not).
pub(crate) struct Jobs<'a> {
    inputs: slice::Iter<'a, Input>,
    /// The archive being read, and its path.
    archive: Option<(&'a Path, Reading)>,
}

/// How an archive is read.
enum Reading {
    /// Serially, record by record.
    Records(Archive),
    /// A `.warc.gz` file, member by member: the file the workers read, the candidates, and
    /// the file's length.
    Members(Arc<File>, Candidates, u64),
    /// Ended by an I/O error, reported.
    Failed,
}

impl<'a> Jobs<'a> {
    pub(crate) fn new(inputs: &'a [Input]) -> Jobs<'a> {
        Jobs {
            inputs: inputs.iter(),
            archive: None,
        }
    }
}

impl<'a> Iterator for Jobs<'a> {
    type Item = Job<'a>;

    fn next(&mut self) -> Option<Job<'a>> {
        if let Some((path, reading)) = &mut self.archive {
            let path = *path;
            let job = match reading {
                Reading::Records(archive) => archive.next().map(|entry| match entry {
                    Entry::Response(response) => Job::Record(path, response),
                    Entry::Skipped(skipped) => Job::Skipped(Skip::of(&name(path), skipped)),
                }),
                Reading::Members(file, candidates, len) => match candidates.next_member() {
                    Ok(Some(member)) => Some(Job::Member(path, Arc::clone(file), member)),
                    Ok(None) => {
                        let len = *len;
                        self.archive = None;
                        return Some(Job::ArchiveEnd(Some((path, len))));
                    }
                    // The members found so far are read; what follows is not.
                    Err(e) => {
                        self.archive = Some((path, Reading::Failed));
                        return Some(Job::Skipped(Skip::new(&name(path), None, e)));
                    }
                },
                Reading::Failed => None,
            };
            return Some(job.unwrap_or_else(|| {
                self.archive = None;
                Job::ArchiveEnd(None)
            }));
        }
        match self.inputs.next()? {
            Input::Plain(plain) => Some(Job::Plain(plain)),
            Input::Warc(path) => {
                self.archive = Some((path, Reading::of(path)));
                self.next()
            }
        }
    }
}

impl Reading {
    /// A `.warc.gz` regular file by members, anything else record by record (an archive that
    /// cannot be opened too: its first entry says why).
    fn of(path: &Path) -> Reading {
        let gzip = path.to_string_lossy().to_ascii_lowercase().ends_with(".gz");
        // A named pipe is not opened here: it could be opened only once.
        let members = || -> io::Result<Option<Reading>> {
            let metadata = fs::metadata(path)?;
            if !metadata.is_file() {
                return Ok(None);
            }
            let file = Arc::new(File::open(path)?);
            let candidates = Candidates::new(Arc::clone(&file));
            Ok(Some(Reading::Members(file, candidates, metadata.len())))
        };
        match gzip.then(members) {
            Some(Ok(Some(reading))) => reading,
            _ => Reading::Records(Archive::new(path)),
        }
    }
}

/// How an archive is named in the output and on stderr: its path as given.
pub(crate) fn name(path: &Path) -> String {
    path.display().to_string()
}

/// Hand the HTML document of the `response` record of the archive `input` to `each`; nothing
/// for a response that is not HTML; a skip for a malformed HTTP message or a body that cannot
/// be decoded.
pub(crate) fn read_response(
    response: &Response,
    input: &str,
    each: &mut dyn FnMut(Document<'_>),
) -> Result<(), Skip> {
    let offset = response.offset();
    let skip = |why: HttpError| Skip::new(input, Some(offset), why);
    let Some(html) = response.html().map_err(skip)? else {
        return Ok(());
    };
    each(Document {
        input,
        offset: Some(offset),
        url: response.uri(),
        body: Body::Whole(&html.body),
        charset: html.charset.as_deref(),
    });
    Ok(())
}

/// Hand the document of `input` to `each`; returns what had to be skipped (a document that
/// fails while it is being read is skipped by the command that reads it).
pub(crate) fn read(input: &Plain, each: &mut dyn FnMut(Document<'_>)) -> Vec<Skip> {
    let name = input.name();
    let source = match input {
        Plain::Stdin => Ok((Source::Forward(Box::new(io::stdin().lock())), 0)),
        Plain::File(path) => open(path),
    };
    let (source, size) = match source {
        Ok(source) => source,
        Err(e) => return vec![Skip::new(&name, None, e)],
    };
    let mut stream = match Stream::start(source, LIMITS, size) {
        Ok(stream) => stream,
        Err(broken) => return vec![broken.skip(&name)],
    };
    let body = match stream.whole() {
        Some(html) => Body::Whole(html),
        None => Body::Stream(&mut stream),
    };
    each(Document {
        input: &name,
        offset: None,
        url: None,
        body,
        charset: None,
    });
    Vec::new()
}

/// A file to read, and its size as far as it is known. Only a regular file can be read again
/// from the start; a named pipe, say, is read once, as standard input is.
fn open(path: &Path) -> io::Result<(Source, u64)> {
    let file = File::open(path)?;
    let metadata = file.metadata()?;
    let source = if metadata.is_file() {
        Source::Seekable(Box::new(file))
    } else {
        Source::Forward(Box::new(file))
    };
    Ok((source, metadata.len()))
}
