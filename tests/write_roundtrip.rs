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
use tagstream::write::{Refusal, Serializer, SerializerOptions, WriteError};
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
    trials.push(Trial::test("round trip summary", move || {
        summary(&samples, &pages)
    }));
    libtest_mimic::run(&args, trials).exit();
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
