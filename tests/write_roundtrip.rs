//! Round trip through the serializer: tokenize (simulator on, html5lib shapes) → serialize with the
//! default options → tokenize again gives the same tokens, whenever the serializer accepted every
//! token; and serializing the output again gives the same bytes.
//!
//! Inputs: the samples in `datasets/samples/`, hostile snippets below, and every page of the
//! corpus (`datasets/corpus`, or `$TAGSTREAM_CORPUS`; fetched by `datasets/fetch-corpus.sh`, and
//! its trials are ignored when it is missing). A page whose tokens the serializer refuses passes
//! (the refusal is the promise kept); `round trip summary` prints how many pages were refused and
//! why, and fails if any page in `datasets/samples/` was.

use std::path::{Path, PathBuf};

use libtest_mimic::{Arguments, Failed, Trial};
use tagstream::html5lib::{Html5libToken, run};
use tagstream::write::{Doctype, Namespace, Refusal, Serializer, SerializerOptions, WriteError};
use tagstream::{Options, Tokenizer};

/// Inputs that stress the escaping and the text states; each must be accepted and round-trip.
const SNIPPETS: &[&str] = &[
    "<p title=\"a&quot;b'c\" data-x='&lt;&gt;' e=\"\">x &amp;amp; &lt;y&gt; &nbsp;\u{A0}</p>",
    "<textarea>\n&lt;/textarea&gt; a&amp;b</textarea><title>&lt;b&gt;</title>",
    "<script>if (a<b && c>d) {}</script><style>p > a { }</style><xmp><b>&amp;</xmp>",
    "<svg><style>a&lt;b</style><![CDATA[x<y]]><path d=M0/></svg><math><ms><![CDATA[&]]></ms></math>",
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\" 'x\"y'><!DOCTYPE><!DOCTYPE html bogus>",
    "<!doctype html system 'abc'><!DOCTYPE a PUBLIC \"x\"><!DOCTYPE b PUBLIC \"x",
    "<!-- a <!- b -- c --!- d --><!----><!---x--><!x><?php echo 1 ?><?pi data?x?>",
    "a&#13;b<a href='&#13;'>&#0;</a>\0<title>\0</title><br/><div/><p a=1 A=2 b>",
    "<plaintext><b>&amp;</b>",
    "<a href=x/>x</a><img src=a alt><input value=\"`=<>\">",
    "<table><tr><td>1<td>2</table><select><option>a<option>b</select>",
    "<noscript><p>x</p></noscript><iframe><b></iframe><noembed>&amp;</noembed>",
    "text at the end with an unfinished tag <div class=x",
    "<script><!-- <script> </script> --></script>",
    "\u{FEFF}<p>bom</p><pre>\n\nx</pre><textarea>\nx</textarea><listing>\ny</listing>",
    "<template><tr><td>x</template><svg><foreignObject><p>x</p></foreignObject><title>a&lt;</title></svg>",
    "<table><caption>x</caption><colgroup><col></colgroup></table><math><mi>x<mglyph/></mi></math>",
];

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    let samples = files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/samples"));
    for path in samples.clone() {
        let name = format!("sample {}", path.file_name().unwrap().to_string_lossy());
        trials.push(Trial::test(name, move || {
            round_trip(&std::fs::read(&path).unwrap()).map(drop)
        }));
    }
    for (i, snippet) in SNIPPETS.iter().enumerate() {
        trials.push(Trial::test(
            format!("snippet {i}"),
            move || match round_trip(snippet.as_bytes())? {
                None => Ok(()),
                Some(refusal) => Err(format!("refused: {refusal}").into()),
            },
        ));
    }
    let corpus = corpus_dir();
    let pages = files(&corpus);
    if pages.is_empty() {
        let name = format!(
            "corpus ({} missing: run datasets/fetch-corpus.sh)",
            corpus.display()
        );
        trials.push(Trial::test(name, || Ok(())).with_ignored_flag(true));
    }
    for path in pages.clone() {
        let name = format!("corpus {}", path.file_name().unwrap().to_string_lossy());
        trials.push(Trial::test(name, move || {
            round_trip(&std::fs::read(&path).unwrap()).map(drop)
        }));
    }
    trials.push(Trial::test("random inputs", random_inputs));
    trials.push(Trial::test("random calls", random_calls));
    trials.push(Trial::test("round trip summary", move || {
        summary(&samples, &pages)
    }));
    libtest_mimic::run(&args, trials).exit();
}

/// Fragments the random inputs are made of: the markup the serializer's rules are about.
const FRAGMENTS: &[&str] = &[
    "<",
    ">",
    "</",
    "/>",
    "<!--",
    "-->",
    "--!>",
    "<!-",
    "-",
    "!",
    "?",
    "<?",
    "<!",
    "&",
    "&amp;",
    "&lt;",
    "&#13;",
    "&#0;",
    "&nbsp;",
    "\u{A0}",
    "\0",
    "\r",
    "\n",
    " ",
    "\t",
    "'",
    "\"",
    "=",
    "`",
    "a",
    "b",
    "p",
    "li",
    "td",
    "tr",
    "x-y",
    "script",
    "style",
    "title",
    "textarea",
    "plaintext",
    "xmp",
    "svg",
    "math",
    "mi",
    "foreignObject",
    "desc",
    "template",
    "pre",
    "<![CDATA[",
    "]]>",
    "]",
    "DOCTYPE",
    "PUBLIC",
    "SYSTEM",
    "html",
    "table",
    "select",
    "option",
    "noscript",
    "iframe",
    "<script>",
    "</script>",
    "<svg>",
    "</svg>",
    "<math>",
    "<title>",
    "</title>",
    "<!DOCTYPE ",
    "<a href=",
    "<p class='",
    "é",
    "\u{FEFF}",
];

/// Inputs made of [`FRAGMENTS`] by a fixed pseudo-random sequence: each must round-trip or be
/// refused, and the serializer must not panic, lossy or not.
fn random_inputs() -> Result<(), Failed> {
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..3000 {
        let len = next() % 40;
        let input: String = (0..len)
            .map(|_| FRAGMENTS[(next() % FRAGMENTS.len() as u64) as usize])
            .collect();
        match round_trip(input.as_bytes()) {
            Ok(None) => accepted += 1,
            Ok(Some(_)) => refused += 1,
            Err(e) => return Err(format!("{input:?}: {}", e.message().unwrap_or_default()).into()),
        }
        lossy_reads_back(input.as_bytes())?;
    }
    eprintln!("random inputs: {accepted} round-trip, {refused} refused");
    Ok(())
}

/// The lossy serializer writes every token, and its output serializes again to itself.
fn lossy_reads_back(input: &[u8]) -> Result<(), Failed> {
    let write = |input: &[u8]| {
        let mut out = Vec::new();
        let mut serializer = Serializer::new(&mut out, SerializerOptions::new().lossy(true));
        let mut tokenizer = Tokenizer::new(tokenizer_options());
        for token in tokenizer.tokenize(input) {
            if let Err(e) = serializer.write_token(&token) {
                return Err(format!("lossy refused {e}"));
            }
        }
        serializer.finish().map_err(|e| e.to_string())?;
        drop(serializer);
        Ok(out)
    };
    let once = write(input).map_err(|e| format!("{:?}: {e}", String::from_utf8_lossy(input)))?;
    let twice = write(&once).map_err(|e| format!("{:?}: {e}", String::from_utf8_lossy(&once)))?;
    if once != twice {
        return Err(format!(
            "lossy output of {:?} changes when written again:\n  {:?}\n  {:?}",
            String::from_utf8_lossy(input),
            String::from_utf8_lossy(&once),
            String::from_utf8_lossy(&twice)
        )
        .into());
    }
    Ok(())
}

/// A fixed pseudo-random sequence (xorshift).
fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// Strings for the random calls: names and text, valid or not. No `svg`, `math` or `frameset`:
/// the serializer follows text states from HTML start tags alone (see the module docs).
const STRINGS: &[&str] = &[
    "",
    "a",
    "B",
    "p",
    "li",
    "td",
    "1x",
    "a b",
    "a/b",
    "x>",
    "=x",
    "\"q",
    "script",
    "style",
    "title",
    "textarea",
    "plaintext",
    "xmp",
    "noscript",
    "pre",
    "meta",
    "br",
    "html",
    "head",
    "body",
    "</",
    "</script",
    "</script>",
    "</title ",
    "<!--",
    "-->",
    "--!>",
    "<!-",
    ">",
    "->",
    "-",
    "]]>",
    "&",
    "&amp;",
    "<b>",
    "\0",
    "\r",
    "\r\n",
    "\n",
    " ",
    "'",
    "\"",
    "'\"",
    "x y",
    "é\u{A0}",
    "?",
    "xml",
    "<script ",
    "<!-- <script>",
    "\u{FEFF}",
];

/// Random calls of the serializer's methods with [`STRINGS`]: what it accepts must read back as
/// the tokens it was given (names lowercased, adjacent text merged).
fn random_calls() -> Result<(), Failed> {
    let mut next = xorshift(0x2545_F491_4F6C_DD1D);
    let mut pick = move || STRINGS[(next() % STRINGS.len() as u64) as usize];
    let (mut accepted, mut refused) = (0, 0);
    for round in 0..3000 {
        let mut out = Vec::new();
        let mut serializer = Serializer::new(&mut out, SerializerOptions::new());
        let mut expected = Vec::new();
        for _ in 0..(round % 30) {
            let (token, result) = match pick().len() % 7 {
                0 | 1 => {
                    let (name, n, v) = (pick(), pick(), pick());
                    let self_closing = v.len() % 2 == 0;
                    let attributes = if n.len() % 3 == 0 {
                        vec![]
                    } else {
                        vec![(n, v)]
                    };
                    let token = Html5libToken::StartTag {
                        name: name.to_ascii_lowercase(),
                        attributes: attributes
                            .iter()
                            .map(|(n, v)| (n.to_ascii_lowercase(), (*v).to_owned()))
                            .collect(),
                        self_closing,
                    };
                    let result =
                        serializer.start_tag_in(Namespace::Html, name, &attributes, self_closing);
                    (token, result)
                }
                2 => {
                    let name = pick();
                    let token = Html5libToken::EndTag {
                        name: name.to_ascii_lowercase(),
                    };
                    (token, serializer.end_tag(name))
                }
                3 => {
                    let text = format!("{}{}", pick(), pick());
                    (
                        Html5libToken::Character(text.clone()),
                        serializer.text(&text),
                    )
                }
                4 => {
                    let text = pick();
                    (
                        Html5libToken::Comment(text.into()),
                        serializer.comment(text),
                    )
                }
                5 => {
                    let (name, public_id) = (pick(), pick());
                    let d = Doctype {
                        name: Some(name).filter(|n| !n.is_empty()),
                        public_id: Some(public_id).filter(|_| name.len() % 2 == 0),
                        system_id: None,
                        force_quirks: public_id.len() % 2 == 1,
                    };
                    let token = Html5libToken::Doctype {
                        name: d.name.map(str::to_ascii_lowercase),
                        public_id: d.public_id.map(Into::into),
                        system_id: None,
                        correctness: !d.force_quirks,
                    };
                    (token, serializer.doctype(&d))
                }
                _ => {
                    let (target, data) = (pick(), pick());
                    let token = Html5libToken::ProcessingInstruction {
                        target: target.into(),
                        data: data.into(),
                    };
                    (token, serializer.processing_instruction(target, data))
                }
            };
            match result {
                Ok(()) => {
                    accepted += 1;
                    push_merged(&mut expected, token);
                }
                Err(WriteError::Refused { .. }) => refused += 1,
                Err(e) => return Err(e.to_string().into()),
            }
        }
        serializer.finish().map_err(|e| e.to_string())?;
        drop(serializer);
        let got = tokens(&out);
        if got != expected {
            return Err(format!(
                "{:?}\n  read back: {got:?}\n  given:     {expected:?}",
                String::from_utf8_lossy(&out)
            )
            .into());
        }
    }
    eprintln!("random calls: {accepted} accepted, {refused} refused");
    Ok(())
}

/// Append `token`, merging text into a preceding character token and dropping empty text.
fn push_merged(tokens: &mut Vec<Html5libToken>, token: Html5libToken) {
    match (tokens.last_mut(), token) {
        (_, Html5libToken::Character(t)) if t.is_empty() => {}
        (Some(Html5libToken::Character(prev)), Html5libToken::Character(t)) => prev.push_str(&t),
        (_, token) => tokens.push(token),
    }
}

/// `$TAGSTREAM_CORPUS` (relative to the crate root), else `datasets/corpus`.
fn corpus_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    match std::env::var_os("TAGSTREAM_CORPUS") {
        Some(dir) => root.join(dir),
        None => root.join("datasets/corpus"),
    }
}

/// The `*.html` files in `dir` (none if it is missing), sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    files.sort();
    files
}

/// The tokenizer options for both runs: the defaults (simulator on), keeping a leading U+FEFF
/// as html5lib shapes do.
fn tokenizer_options() -> Options {
    Options::new().strip_bom(false)
}

/// `input`'s tokens written by a default serializer, or the first refusal.
fn serialize(input: &[u8]) -> Result<Vec<u8>, WriteError> {
    let mut out = Vec::new();
    let mut serializer = Serializer::new(&mut out, SerializerOptions::new());
    let mut tokenizer = Tokenizer::new(tokenizer_options());
    for token in tokenizer.tokenize(input) {
        serializer.write_token(&token)?;
    }
    serializer.finish()?;
    drop(serializer);
    Ok(out)
}

fn tokens(input: &[u8]) -> Vec<Html5libToken> {
    run(input, &tokenizer_options(), None).output
}

/// `Ok(None)` when `input` round-trips, `Ok(Some(refusal))` when the serializer refused a token,
/// `Err` when the output reads back differently or serializes differently a second time.
fn round_trip(input: &[u8]) -> Result<Option<Refusal>, Failed> {
    let output = match serialize(input) {
        Ok(output) => output,
        Err(WriteError::Refused { refusal, .. }) => return Ok(Some(refusal)),
        Err(e) => return Err(e.to_string().into()),
    };
    let (before, after) = (tokens(input), tokens(&output));
    if let Some(i) = (0..before.len().max(after.len())).find(|&i| before.get(i) != after.get(i)) {
        return Err(format!(
            "token #{i} differs:\n  input:  {:?}\n  output: {:?}",
            before.get(i),
            after.get(i)
        )
        .into());
    }
    let again = serialize(&output).map_err(|e| format!("second serialization refused: {e}"))?;
    if again != output {
        let at = again
            .iter()
            .zip(&output)
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        return Err(format!("second serialization differs at byte {at}").into());
    }
    Ok(None)
}

/// Count the pages that round-trip and the refused ones by reason; the samples must all
/// round-trip.
fn summary(samples: &[PathBuf], pages: &[PathBuf]) -> Result<(), Failed> {
    for sample in samples {
        if let Some(refusal) = round_trip(&std::fs::read(sample).unwrap())? {
            return Err(format!("{} refused: {refusal}", sample.display()).into());
        }
    }
    let mut refused: Vec<(String, String)> = Vec::new();
    let mut failed = 0;
    for page in pages {
        match round_trip(&std::fs::read(page).unwrap()) {
            Ok(None) => {}
            Ok(Some(refusal)) => refused.push((
                page.file_name().unwrap().to_string_lossy().into_owned(),
                refusal.to_string(),
            )),
            Err(_) => failed += 1,
        }
    }
    eprintln!(
        "round trip: {} samples; corpus {} pages: {} round-trip, {} refused, {} differ",
        samples.len(),
        pages.len(),
        pages.len() - refused.len() - failed,
        refused.len(),
        failed
    );
    for (page, why) in &refused {
        eprintln!("  refused {page}: {why}");
    }
    Ok(())
}
