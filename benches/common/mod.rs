//! What both benches share: where the inputs come from and how every token is consumed.
//!
//! Each bench binary compiles this module separately and uses part of it.
#![allow(dead_code)]

pub mod hostile;

use std::path::{Path, PathBuf};

use tagstream::{Options, Token, Tokenizer};

/// What the fetched corpus must hold (see `datasets/README.md`).
pub const CORPUS_FILES: usize = 258;
pub const CORPUS_BYTES: u64 = 24_580_483;

/// Chunk size of the streaming benches.
pub const CHUNK: usize = 4096;

/// The crate root, where relative paths are resolved from (as the tests and `fetch-corpus.sh` do).
fn crate_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The corpus folder: `$TAGSTREAM_CORPUS` (relative to the crate root) or `datasets/corpus`.
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("TAGSTREAM_CORPUS") {
        Some(dir) if !dir.is_empty() => crate_root().join(dir),
        _ => crate_root().join("datasets/corpus"),
    }
}

/// The `*.html` files of `dir`, sorted by name; `None` when there are none.
fn html_files(dir: &Path) -> Option<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "html") && p.is_file())
        .collect();
    files.sort();
    (!files.is_empty()).then_some(files)
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every corpus page, in file-name order, or `None` (after saying why on stderr) when the corpus is
/// not there. A corpus that is there but not the expected one is used with a warning.
pub fn corpus() -> Option<Vec<Vec<u8>>> {
    let dir = corpus_dir();
    let Some(files) = html_files(&dir) else {
        eprintln!(
            "tagstream benches: no corpus at {} — skipping the corpus benches; \
             run datasets/fetch-corpus.sh to fetch it (or set TAGSTREAM_CORPUS)",
            dir.display()
        );
        return None;
    };
    let pages: Vec<Vec<u8>> = files.iter().map(|p| read(p)).collect();
    let bytes = total_bytes(&pages);
    if pages.len() != CORPUS_FILES || bytes != CORPUS_BYTES {
        eprintln!(
            "tagstream benches: WARNING: {} holds {} pages, {bytes} bytes; the corpus has \
             {CORPUS_FILES} pages, {CORPUS_BYTES} bytes (check it with \
             datasets/fetch-corpus.sh --verify-only). Numbers are not comparable.",
            dir.display(),
            pages.len()
        );
    }
    Some(pages)
}

/// One corpus page by file name, if the corpus has it.
pub fn corpus_page(name: &str) -> Option<Vec<u8>> {
    let path = corpus_dir().join(name);
    path.is_file().then(|| read(&path))
}

/// The committed samples, `datasets/samples/*.html`, in file-name order.
pub fn samples() -> Vec<(String, Vec<u8>)> {
    let dir = crate_root().join("datasets/samples");
    html_files(&dir)
        .unwrap_or_else(|| panic!("no samples in {}", dir.display()))
        .iter()
        .map(|p| (file_name(p), read(p)))
        .collect()
}

/// One committed sample by file name.
pub fn sample(name: &str) -> Vec<u8> {
    read(&crate_root().join("datasets/samples").join(name))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

pub fn total_bytes<T: AsRef<[u8]>>(pages: &[T]) -> u64 {
    pages.iter().map(|p| p.as_ref().len() as u64).sum()
}

// ---- consuming tokens ---------------------------------------------------------------------------

/// How the benches use each token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Spans and raw names only: nothing is decoded.
    Default,
    /// Every name, attribute value and text decoded.
    Decode,
    /// Like `Default`, with `Options::errors(true)`; the errors go into the checksum too.
    Errors,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Default, Mode::Decode, Mode::Errors];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Default => "default",
            Mode::Decode => "decode",
            Mode::Errors => "errors",
        }
    }

    pub fn tokenizer(self) -> Tokenizer {
        Tokenizer::new(Options::new().errors(self == Mode::Errors))
    }
}

#[inline]
fn mix(h: u64, v: u64) -> u64 {
    (h ^ v).wrapping_mul(0x0100_0000_01b3)
}

#[inline]
fn bytes(h: u64, b: &[u8]) -> u64 {
    mix(
        h,
        b.len() as u64 ^ (u64::from(b.first().copied().unwrap_or(0)) << 32),
    )
}

#[inline]
fn text(h: u64, s: &str) -> u64 {
    bytes(h, s.as_bytes())
}

#[inline]
fn opt(h: u64, s: Option<&str>) -> u64 {
    s.map_or(mix(h, 1), |s| text(h, s))
}

/// Use every part of a token through its spans and raw bytes, decoding nothing.
#[inline]
pub fn spans(mut h: u64, token: &Token<'_>) -> u64 {
    match token {
        Token::StartTag(tag) => {
            h = bytes(h, tag.raw_name());
            h = mix(h, u64::from(tag.self_closing()));
            for attr in tag.attributes() {
                h = bytes(h, attr.raw_name());
                let value = attr.value_span();
                h = mix(h, ((value.start as u64) << 20) ^ value.len() as u64);
            }
        }
        Token::EndTag(tag) => h = bytes(h, tag.raw_name()),
        Token::Text(t) => h = mix(h, t.span().len() as u64),
        Token::Comment(c) => h = mix(h, c.data_span().len() as u64),
        Token::Doctype(d) => {
            h = mix(h, d.name_span().map_or(1, |s| s.len() as u64));
            h = mix(h, u64::from(d.force_quirks()));
        }
        Token::ProcessingInstruction(pi) => {
            h = mix(h, pi.target_span().len() as u64);
            h = mix(h, pi.data_span().len() as u64);
        }
        Token::Raw(r) => h = mix(h, r.span().len() as u64),
    }
    mix(h, token.span().end as u64)
}

/// Use every part of a token decoded: names, attribute names and values, text, comment data.
#[inline]
pub fn decoded(mut h: u64, token: &Token<'_>) -> u64 {
    match token {
        Token::StartTag(tag) => {
            h = text(h, tag.name());
            h = mix(h, u64::from(tag.self_closing()));
            for attr in tag.attributes() {
                h = text(h, attr.name());
                h = text(h, attr.value());
            }
        }
        Token::EndTag(tag) => h = text(h, tag.name()),
        Token::Text(t) => h = text(h, t.text()),
        Token::Comment(c) => h = text(h, c.data()),
        Token::Doctype(d) => {
            h = opt(h, d.name());
            h = opt(h, d.public_id());
            h = opt(h, d.system_id());
            h = mix(h, u64::from(d.force_quirks()));
        }
        Token::ProcessingInstruction(pi) => {
            h = text(h, pi.target());
            h = text(h, pi.data());
        }
        Token::Raw(r) => h = bytes(h, r.raw()),
    }
    mix(h, token.span().end as u64)
}

#[inline]
fn consume(mode: Mode, h: u64, token: &Token<'_>) -> u64 {
    match mode {
        Mode::Decode => decoded(h, token),
        Mode::Default | Mode::Errors => spans(h, token),
    }
}

/// Fold the parse errors reported so far into the checksum.
fn errors(mut h: u64, tokenizer: &Tokenizer) -> u64 {
    for e in tokenizer.errors() {
        h = mix(h, e.offset as u64);
    }
    mix(h, tokenizer.errors().len() as u64)
}

/// Tokenize `page` as one whole document and consume every token (and error).
pub fn whole(mode: Mode, tokenizer: &mut Tokenizer, page: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325;
    for token in tokenizer.tokenize(page) {
        h = consume(mode, h, &token);
    }
    errors(h, tokenizer)
}

/// Stream `page` as one document in `chunk`-byte chunks (`feed`, then `finish`) and consume every
/// token (and error).
pub fn chunked(mode: Mode, tokenizer: &mut Tokenizer, page: &[u8], chunk: usize) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325;
    tokenizer.reset();
    for piece in page.chunks(chunk) {
        for token in tokenizer.feed(piece) {
            h = consume(mode, h, &token);
        }
    }
    for token in tokenizer.finish() {
        h = consume(mode, h, &token);
    }
    errors(h, tokenizer)
}
