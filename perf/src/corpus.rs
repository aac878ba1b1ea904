//! The benchmark corpora, each file its own document: every `*.html` file of a folder, sorted by
//! name (the HTML race); or the XML corpus and the W3C XML conformance suite's `*.xml` files (the
//! XML race, `--xml`), and every file of that suite (the panic check, `--xml-panics`).

use std::fs;
use std::path::{Path, PathBuf};

/// One page, held in memory for the whole run.
pub struct Page {
    /// The file name (or the generated document's name), for reports.
    pub name: String,
    pub bytes: Vec<u8>,
    /// A lossy UTF-8 copy, only for the rare page that is not valid UTF-8 (the peers that take
    /// `&str` get this; tagstream and lol_html always get the bytes).
    lossy: Option<String>,
}

impl Page {
    /// A page of `bytes`, with the lossy copy the `&str` peers need when they are not UTF-8.
    fn new(name: String, bytes: Vec<u8>) -> Page {
        let lossy = match std::str::from_utf8(&bytes) {
            Ok(_) => None,
            Err(_) => Some(String::from_utf8_lossy(&bytes).into_owned()),
        };
        Page { name, bytes, lossy }
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
    /// Where the pages come from: a folder, two joined by ` + `, or `hostile:NAME` for a generated
    /// document.
    pub origin: String,
    pub pages: Vec<Page>,
    pub bytes: usize,
    /// Pages that were not valid UTF-8 (given to `&str` peers as a lossy copy).
    pub non_utf8: usize,
    /// `--corpus-limit`, when it cut the corpus short.
    pub limit: Option<usize>,
    /// How many files the folder (or folders) hold in all.
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
        let pages = read_pages(&paths)?;
        let (bytes, non_utf8) = sizes(&pages);
        let limit = limit.filter(|_| pages.len() < available);
        Ok(Corpus {
            origin: canonical(dir),
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
        let page = Page::new(name.to_owned(), bytes);
        Corpus {
            origin: format!("hostile:{name}"),
            bytes: page.bytes.len(),
            non_utf8: usize::from(page.lossy.is_some()),
            pages: vec![page],
            limit: None,
            available: 1,
        }
    }
}

impl Corpus {
    /// The XML race's corpus: every file below `xml_corpus` but its `SOURCES.txt`, then every
    /// `*.xml` file below `xmlconf` (test documents of every kind, their entities, expected
    /// outputs and catalogs), each list sorted by path; `limit` keeps the first N of the two.
    pub fn load_xml(
        xml_corpus: &Path,
        xmlconf: &Path,
        limit: Option<usize>,
    ) -> Result<Corpus, String> {
        let corpus_files: Vec<PathBuf> = files_below(xml_corpus, "datasets/fetch-xml-corpus.sh")?
            .into_iter()
            .filter(|p| {
                p.parent() != Some(xml_corpus) || p.file_name() != Some("SOURCES.txt".as_ref())
            })
            .collect();
        let suite_files: Vec<PathBuf> = files_below(xmlconf, "datasets/fetch-xml-corpus.sh")?
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == "xml"))
            .collect();
        let mut paths = corpus_files;
        paths.extend(suite_files);
        let available = paths.len();
        if let Some(n) = limit {
            paths.truncate(n.max(1));
        }
        let pages = read_pages(&paths)?;
        let (bytes, non_utf8) = sizes(&pages);
        Ok(Corpus {
            origin: format!("{} + {} (*.xml)", canonical(xml_corpus), canonical(xmlconf)),
            limit: limit.filter(|_| pages.len() < available),
            pages,
            bytes,
            non_utf8,
            available,
        })
    }

    /// Every file below `xmlconf` whatever its kind (`*.xml`, `*.dtd`, `*.ent`, the odd text or
    /// image file), sorted by path, with its path: what the panic check feeds every XML subject.
    pub fn xmlconf_files(xmlconf: &Path) -> Result<Vec<(PathBuf, Vec<u8>)>, String> {
        files_below(xmlconf, "datasets/fetch-xml-corpus.sh")?
            .into_iter()
            .map(|p| {
                let data = fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?;
                Ok((p, data))
            })
            .collect()
    }

    /// The pages for which `keep` holds, as a corpus of their own (copies: the race holds both).
    pub fn subset(&self, what: &str, keep: impl Fn(&Page) -> bool) -> Corpus {
        let pages: Vec<Page> = self
            .pages
            .iter()
            .filter(|p| keep(p))
            .map(|p| Page::new(p.name.clone(), p.bytes.clone()))
            .collect();
        let (bytes, non_utf8) = sizes(&pages);
        Corpus {
            origin: format!("{}, {what}", self.origin),
            pages,
            bytes,
            non_utf8,
            limit: self.limit,
            available: self.available,
        }
    }
}

/// A folder as its canonical path, for the report.
fn canonical(dir: &Path) -> String {
    fs::canonicalize(dir)
        .unwrap_or_else(|_| dir.to_owned())
        .display()
        .to_string()
}

/// Every file of `paths`, read into memory.
fn read_pages(paths: &[PathBuf]) -> Result<Vec<Page>, String> {
    paths
        .iter()
        .map(|path| {
            let data = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            Ok(Page::new(name, data))
        })
        .collect()
}

/// Total bytes, and how many pages are not UTF-8.
fn sizes(pages: &[Page]) -> (usize, usize) {
    let bytes = pages.iter().map(|p| p.bytes.len()).sum();
    let non_utf8 = pages.iter().filter(|p| p.lossy.is_some()).count();
    (bytes, non_utf8)
}

/// Every regular file below `dir` (symbolic links followed), sorted by path; an error naming
/// `fetch` (the script that makes the folder) when there is none.
fn files_below(dir: &Path, fetch: &str) -> Result<Vec<PathBuf>, String> {
    let missing = || {
        format!(
            "no files below {}: fetch them first with `{fetch}` (run from the repository root)",
            dir.display()
        )
    };
    if !dir.is_dir() {
        return Err(missing());
    }
    let mut files = Vec::new();
    let mut folders = vec![dir.to_owned()];
    while let Some(folder) = folders.pop() {
        let entries = fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        for entry in entries {
            let path = entry
                .map_err(|e| format!("{}: {e}", folder.display()))?
                .path();
            if path.is_dir() {
                folders.push(path);
            } else if path.is_file() {
                files.push(path);
            }
        }
    }
    if files.is_empty() {
        return Err(missing());
    }
    files.sort();
    Ok(files)
}
