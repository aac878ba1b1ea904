//! The benchmark corpus: every `*.html` file of a folder, sorted by name, each its own document.

use std::fs;
use std::path::{Path, PathBuf};

/// One page, held in memory for the whole run.
pub struct Page {
    pub bytes: Vec<u8>,
    /// A lossy UTF-8 copy, only for the rare page that is not valid UTF-8 (the peers that take
    /// `&str` get this; tagstream and lol_html always get the bytes).
    lossy: Option<String>,
}

impl Page {
    /// A page of `bytes`, with the lossy copy the `&str` peers need when they are not UTF-8.
    fn new(bytes: Vec<u8>) -> Page {
        let lossy = match std::str::from_utf8(&bytes) {
            Ok(_) => None,
            Err(_) => Some(String::from_utf8_lossy(&bytes).into_owned()),
        };
        Page { bytes, lossy }
    }

    /// The page as `&str` (lossy only when the bytes are not UTF-8).
    pub fn as_str(&self) -> &str {
        match &self.lossy {
            Some(s) => s,
            None => std::str::from_utf8(&self.bytes).expect("checked at load"),
        }
    }
}

pub struct Corpus {
    /// The folder the pages come from (`hostile:NAME` for a generated document).
    pub dir: PathBuf,
    pub pages: Vec<Page>,
    pub bytes: usize,
    /// Pages that were not valid UTF-8 (given to `&str` peers as a lossy copy).
    pub non_utf8: usize,
    /// `--corpus-limit`, when it cut the corpus short.
    pub limit: Option<usize>,
    /// How many `*.html` files the folder holds in all.
    pub available: usize,
}

impl Corpus {
    pub fn load(dir: &Path, limit: Option<usize>) -> Result<Corpus, String> {
        let missing = || {
            format!(
                "no corpus at {}: fetch it first with `datasets/fetch-corpus.sh` (run from the \
                 repository root; it needs npm), or point --corpus at a folder of *.html pages",
                dir.display()
            )
        };
        let entries = fs::read_dir(dir).map_err(|_| missing())?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "html"))
            .collect();
        if paths.is_empty() {
            return Err(missing());
        }
        paths.sort();
        let available = paths.len();
        if let Some(n) = limit {
            paths.truncate(n.max(1));
        }
        let mut pages = Vec::with_capacity(paths.len());
        let mut bytes = 0;
        let mut non_utf8 = 0;
        for path in paths {
            let data = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let page = Page::new(data);
            non_utf8 += usize::from(page.lossy.is_some());
            bytes += page.bytes.len();
            pages.push(page);
        }
        let limit = limit.filter(|_| pages.len() < available);
        Ok(Corpus {
            dir: fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned()),
            pages,
            bytes,
            non_utf8,
            limit,
            available,
        })
    }

    /// One generated document as a corpus of one page (the hostile inputs, the byte-at-a-time
    /// document), so that the race's subjects run it unchanged; `name` labels it.
    pub fn document(name: &str, bytes: Vec<u8>) -> Corpus {
        let page = Page::new(bytes);
        Corpus {
            dir: PathBuf::from(format!("hostile:{name}")),
            bytes: page.bytes.len(),
            non_utf8: usize::from(page.lossy.is_some()),
            pages: vec![page],
            limit: None,
            available: 1,
        }
    }
}
