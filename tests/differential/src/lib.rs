//! The tagstream side of the differential test: the token stream of tagstream with its tree-builder
//! simulator, in a shape html5ever's tokens map onto, plus the inputs (html5lib-tests
//! tree-construction cases and the real-world corpus) and the comparison.
//!
//! The html5ever side lives in `tests/common/mod.rs` (html5ever is a dev-dependency only).

use std::fmt;
use std::path::{Path, PathBuf};

use tagstream::{Ambiguity, Options, Token, Tokenizer};

/// One token as both sides see it. Adjacent text is merged; end tags carry only their name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Doctype {
        name: Option<String>,
        public_id: Option<String>,
        system_id: Option<String>,
        force_quirks: bool,
    },
    StartTag {
        name: String,
        attributes: Vec<(String, String)>,
        self_closing: bool,
    },
    EndTag(String),
    Comment(String),
    Text(String),
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Doctype {
                name,
                public_id,
                system_id,
                force_quirks,
            } => write!(
                f,
                "<!DOCTYPE {name:?} {public_id:?} {system_id:?}{}>",
                if *force_quirks { " quirks" } else { "" }
            ),
            Tok::StartTag {
                name,
                attributes,
                self_closing,
            } => {
                write!(f, "<{name}")?;
                for (k, v) in attributes {
                    write!(f, " {k}={v:?}")?;
                }
                write!(f, "{}>", if *self_closing { "/" } else { "" })
            }
            Tok::EndTag(name) => write!(f, "</{name}>"),
            Tok::Comment(data) => write!(f, "<!--{data:?}-->"),
            Tok::Text(text) => write!(f, "{text:?}"),
        }
    }
}

/// Append `tok`, merging text into a preceding text token.
pub fn push(out: &mut Vec<Tok>, tok: Tok) {
    if let Tok::Text(more) = &tok {
        if more.is_empty() {
            return;
        }
        if let Some(Tok::Text(prev)) = out.last_mut() {
            prev.push_str(more);
            return;
        }
    }
    out.push(tok);
}

/// What tagstream with its simulator produced for one document.
#[derive(Clone, Debug, Default)]
pub struct Simulated {
    pub tokens: Vec<Tok>,
    /// The tokens the simulator was unsure about: (index in `tokens`, why).
    pub ambiguous: Vec<(usize, Ambiguity)>,
}

/// The input both sides see: a leading byte order mark is dropped (the decoder does that before
/// tokenization; html5ever's tokenizer drops it too, tagstream leaves decoding to its caller).
pub fn prepare(input: &[u8]) -> String {
    let text = String::from_utf8_lossy(input);
    text.strip_prefix('\u{FEFF}').unwrap_or(&text).to_owned()
}

/// The tagstream options of the comparison: simulator on (the default), `<?` as a bogus comment
/// (html5ever and the tree-construction tests predate processing instructions).
pub fn options(scripting: bool) -> Options {
    Options::new()
        .simulate(true)
        .scripting(scripting)
        .legacy_processing_instructions(true)
}

/// tagstream with its simulator over `input`, whole, or fed `chunk` bytes at a time.
pub fn tagstream_tokens(input: &str, scripting: bool, chunk: Option<usize>) -> Simulated {
    run_tagstream(options(scripting), input, chunk)
}

/// tagstream without the simulator (the tokenizer alone), whole: what the simulator adds.
pub fn bare_tokens(input: &str) -> Vec<Tok> {
    run_tagstream(options(false).simulate(false), input, None).tokens
}

fn run_tagstream(options: Options, input: &str, chunk: Option<usize>) -> Simulated {
    let mut tokenizer = Tokenizer::new(options);
    let mut out = Simulated::default();
    match chunk {
        None => collect(tokenizer.tokenize(input.as_bytes()), &mut out),
        Some(size) => {
            for piece in input.as_bytes().chunks(size.max(1)) {
                collect(tokenizer.feed(piece), &mut out);
            }
            collect(tokenizer.finish(), &mut out);
        }
    }
    assert_eq!(
        tokenizer.ambiguous_count(),
        out.ambiguous.len() as u64,
        "Tokenizer::ambiguous_count agrees with the per-token flags"
    );
    out
}

fn collect(mut tokens: tagstream::Tokens<'_>, out: &mut Simulated) {
    while let Some(token) = tokens.next() {
        let tok = match token {
            Token::Doctype(d) => Tok::Doctype {
                name: d.name().map(str::to_owned),
                public_id: d.public_id().map(str::to_owned),
                system_id: d.system_id().map(str::to_owned),
                force_quirks: d.force_quirks(),
            },
            Token::StartTag(t) => Tok::StartTag {
                name: t.name().to_owned(),
                attributes: t
                    .attributes()
                    .map(|a| (a.name().to_owned(), a.value().to_owned()))
                    .collect(),
                self_closing: t.self_closing(),
            },
            Token::EndTag(t) => Tok::EndTag(t.name().to_owned()),
            Token::Comment(c) => Tok::Comment(c.data().to_owned()),
            Token::Text(t) => Tok::Text(t.text().to_owned()),
            Token::ProcessingInstruction(pi) => {
                panic!("legacy mode makes no processing instructions: {pi:?}")
            }
            Token::Raw(raw) => panic!("the tokenizer is not lossless: {raw:?}"),
        };
        push(&mut out.tokens, tok);
        if let Some(why) = tokens.ambiguity() {
            out.ambiguous
                .push((out.tokens.len().saturating_sub(1), why));
        }
    }
}

/// How one document compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Same tokens, nothing flagged.
    Identical,
    /// The simulator flagged a token as ambiguous (the streams may or may not agree).
    Flagged { same: bool },
    /// Different token streams, nothing flagged: the first difference is at this index.
    Different { at: usize },
}

pub fn compare(ours: &Simulated, theirs: &[Tok]) -> Verdict {
    let same = ours.tokens == theirs;
    if !ours.ambiguous.is_empty() {
        return Verdict::Flagged { same };
    }
    if same {
        return Verdict::Identical;
    }
    let at = ours
        .tokens
        .iter()
        .zip(theirs)
        .position(|(a, b)| a != b)
        .unwrap_or(ours.tokens.len().min(theirs.len()));
    Verdict::Different { at }
}

// ---- inputs ---------------------------------------------------------------------------------------

/// One html5lib-tests tree-construction case.
#[derive(Clone, Debug)]
pub struct DatCase {
    /// `file.dat:line` of its `#data` line.
    pub name: String,
    pub data: String,
    pub fragment: bool,
    /// `#script-on` (`Some(true)`), `#script-off` (`Some(false)`), or neither.
    pub scripting: Option<bool>,
    /// The expected tree, as written after `#document`.
    pub document: String,
}

/// Parse a `.dat` file (see html5lib-tests' FORMAT.md).
pub fn parse_dat(file: &str, bytes: &[u8]) -> Vec<DatCase> {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.split('\n').collect();
    let mut cases = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i] != "#data" {
            i += 1;
            continue;
        }
        let start = i + 1;
        let mut case = DatCase {
            name: format!("{file}:{start}"),
            data: String::new(),
            fragment: false,
            scripting: None,
            document: String::new(),
        };
        let mut section = "#data";
        let mut body: Vec<&str> = Vec::new();
        let mut j = start;
        let marker = |l: &str| {
            matches!(
                l,
                "#errors"
                    | "#new-errors"
                    | "#document-fragment"
                    | "#script-on"
                    | "#script-off"
                    | "#document"
            )
        };
        loop {
            let end = j >= lines.len() || lines[j] == "#data";
            if end || marker(lines[j]) {
                match section {
                    "#data" => case.data = body.join("\n"),
                    "#document" => {
                        let mut doc = body.clone();
                        while doc.last() == Some(&"") {
                            doc.pop();
                        }
                        case.document = doc.join("\n");
                    }
                    _ => {}
                }
                if end {
                    break;
                }
                section = lines[j];
                match section {
                    "#document-fragment" => case.fragment = true,
                    "#script-on" => case.scripting = Some(true),
                    "#script-off" => case.scripting = Some(false),
                    _ => {}
                }
                body.clear();
            } else {
                body.push(lines[j]);
            }
            j += 1;
        }
        cases.push(case);
        i = j;
    }
    cases
}

/// `$HTML5LIB_TESTS_DIR`, or the copy vendored in the checkout's `tests/data/html5lib-tests`.
pub fn html5lib_dir() -> PathBuf {
    dir_from_env(
        "HTML5LIB_TESTS_DIR",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/html5lib-tests"
        ),
    )
}

/// `$TAGSTREAM_CORPUS`, or `datasets/corpus` of the checkout (relative paths from the checkout).
pub fn corpus_dir() -> PathBuf {
    dir_from_env(
        "TAGSTREAM_CORPUS",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../datasets/corpus"),
    )
}

fn dir_from_env(var: &str, default: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    match std::env::var_os(var) {
        Some(v) if Path::new(&v).is_relative() => root.join(v),
        Some(v) => PathBuf::from(v),
        None => PathBuf::from(default),
    }
}

/// The non-fragment cases of every `tree-construction/*.dat` (not `scripted/`), file by file.
pub fn tree_construction_cases(dir: &Path) -> std::io::Result<Vec<DatCase>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("tree-construction"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dat"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path)?;
        cases.extend(parse_dat(&file, &bytes).into_iter().filter(|c| !c.fragment));
    }
    Ok(cases)
}

/// Every `*.html` page of the corpus, sorted by name: (file name, bytes).
pub fn corpus_pages(dir: &Path) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut pages = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|x| x == "html") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            pages.push((name, std::fs::read(&path)?));
        }
    }
    pages.sort();
    Ok(pages)
}

// ---- generated documents ---------------------------------------------------------------------------

/// xorshift64*: a reproducible PRNG.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng((seed ^ 0x9E37_79B9_7F4A_7C15).wrapping_mul(0xBF58_476D_1CE4_E5B9) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

/// Pieces of tag soup around everything the simulator tracks: foreign content and its
/// integration points and breakouts, text-state elements, templates, tables, framesets, forms,
/// formatting elements and CDATA sections.
const PIECES: &[&str] = &[
    "<svg>",
    "</svg>",
    "<math>",
    "</math>",
    "<svg/>",
    "<math/>",
    "<foreignObject>",
    "</foreignObject>",
    "<desc>",
    "</desc>",
    "<title>",
    "</title>",
    "<mi>",
    "</mi>",
    "<mo>",
    "<mtext>",
    "</mtext>",
    "<annotation-xml>",
    "<annotation-xml encoding=\"text/html\">",
    "<annotation-xml encoding=application/xhtml+xml>",
    "</annotation-xml>",
    "<mglyph>",
    "<malignmark/>",
    "<path>",
    "<path/>",
    "</path>",
    "<g>",
    "</g>",
    "<script>",
    "</script>",
    "<style>",
    "</style>",
    "<textarea>",
    "</textarea>",
    "<xmp>",
    "</xmp>",
    "<iframe>",
    "</iframe>",
    "<noembed>",
    "</noembed>",
    "<noframes>",
    "</noframes>",
    "<noscript>",
    "</noscript>",
    "<template>",
    "</template>",
    "<table>",
    "</table>",
    "<tr>",
    "</tr>",
    "<td>",
    "</td>",
    "<th>",
    "<tbody>",
    "<caption>",
    "</caption>",
    "<col>",
    "<colgroup>",
    "<p>",
    "</p>",
    "<div>",
    "</div>",
    "<span>",
    "</span>",
    "<b>",
    "</b>",
    "<i>",
    "</i>",
    "<a>",
    "</a>",
    "<font color=red>",
    "<font>",
    "</font>",
    "<li>",
    "<ul>",
    "</ul>",
    "<select>",
    "</select>",
    "<option>",
    "<input>",
    "<input type=hidden>",
    "<br>",
    "</br>",
    "<img>",
    "<body>",
    "</body>",
    "<html>",
    "</html>",
    "<head>",
    "</head>",
    "<frameset>",
    "</frameset>",
    "<frame>",
    "<form>",
    "</form>",
    "<button>",
    "</button>",
    "<h1>",
    "</h1>",
    "<h2>",
    "<nobr>",
    "<object>",
    "</object>",
    "<pre>",
    "<dd>",
    "<dt>",
    "<meta>",
    "<link>",
    "<center>",
    "<ruby>",
    "<rt>",
    "<plaintext>",
    "<![CDATA[x<y>]]>",
    "<!-- c -->",
    "<!DOCTYPE html>",
    "x",
    " ",
    "\n",
    "a<b",
    "&amp;",
    "</x>",
    "<x>",
    "<svg:x>",
];

/// A random document of `PIECES`, as its pieces.
pub fn generate(rng: &mut Rng) -> Vec<&'static str> {
    let max: usize = std::env::var("DIFFERENTIAL_LEN")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    let len = 1 + rng.below(max);
    let mut doc = Vec::new();
    for _ in 0..len {
        let piece = PIECES[rng.below(PIECES.len())];
        // `<plaintext>` ends everything: keep it rare.
        if piece == "<plaintext>" && rng.below(8) != 0 {
            continue;
        }
        doc.push(piece);
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dat_sections() {
        let dat = b"#data\n<p>a\n\nb\n#errors\n(1,1): x\n#script-on\n#document\n| <html>\n|   \"a\n\nb\"\n\n#data\nx\n#errors\n#document-fragment\ntd\n#document\n| \"x\"\n";
        let cases = parse_dat("t.dat", dat);
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].data, "<p>a\n\nb");
        assert_eq!(cases[0].scripting, Some(true));
        assert_eq!(cases[0].document, "| <html>\n|   \"a\n\nb\"");
        assert!(!cases[0].fragment);
        assert_eq!(cases[1].name, "t.dat:14");
        assert!(cases[1].fragment);
        assert_eq!(cases[1].document, "| \"x\"");
    }

    #[test]
    fn text_merges() {
        let mut out = Vec::new();
        push(&mut out, Tok::Text("a".into()));
        push(&mut out, Tok::Text(String::new()));
        push(&mut out, Tok::Text("b".into()));
        assert_eq!(out, [Tok::Text("ab".into())]);
    }
}
