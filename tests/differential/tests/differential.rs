//! tagstream + tree-builder simulator against html5ever's full tree builder.
//!
//! For every non-fragment case of html5lib-tests' tree-construction suite (not `scripted/`) and
//! every page of the real-world corpus, the tokens html5ever's `TreeBuilder` receives from its
//! tokenizer (which takes the tree builder's feedback) are compared with tagstream's tokens with
//! the simulator on: tag names, attributes, self-closing flags, comments, DOCTYPEs and merged text.
//! Each document is *identical*, *flagged* (the simulator marked a token ambiguous), or
//! *different*; a difference fails unless it is listed in [`KNOWN`] with its reason.
//!
//! Cases without `#script-on`/`#script-off` run with scripting off and on; the corpus too. The
//! simulator's tokens must also be the same when the input is fed in small chunks.
//!
//! Run `cargo test -- --nocapture` for the report; `DIFFERENTIAL_VERBOSE=1` shows every flagged
//! document too.

mod common;

use std::collections::BTreeMap;
use std::process::ExitCode;

use libtest_mimic::{Arguments, Failed, Trial};
use tagstream_differential::{
    Rng, Simulated, Tok, Verdict, bare_tokens, compare, corpus_dir, corpus_pages, generate,
    html5lib_dir, prepare, tagstream_tokens, tree_construction_cases,
};

/// html5ever 0.40's "has an element in scope" leaves out MathML `annotation-xml`.
///
/// The HTML Standard, "the stack of open elements": an element is in scope unless the walk from
/// the current node meets first one of applet, caption, html, table, td, th, marquee, object,
/// template, MathML mi, mo, mn, ms, mtext, **MathML annotation-xml**, SVG foreignObject, desc,
/// title. html5ever's `default_scope` (tree_builder/tag_sets.rs) is its HTML list plus the MathML
/// text and SVG HTML integration points only, so an end tag like `</font>` or `</h1>` in
/// `<font><math><annotation-xml></font>` closes the `math` (and its CDATA permission and text
/// states with it) where the standard ignores the end tag. Chromium follows the standard.
const D1: &str = "html5ever deviation: annotation-xml is not a scope boundary in html5ever";

/// html5ever 0.40's "special" category has only HTML elements.
///
/// The HTML Standard's special category includes MathML mi, mo, mn, ms, mtext, annotation-xml
/// and SVG foreignObject, desc, title; the "any other end tag" steps of "in body" stop (ignore
/// the token) at the first special element. html5ever's `special_tag` lists HTML names only, so
/// `<span><math><annotation-xml></span>` or `<mi><svg><title></mi>` (an HTML `mi`) close the
/// foreign content where the standard ignores the end tag. Chromium follows the standard.
const D2: &str = "html5ever deviation: SVG/MathML special elements are not special in html5ever";

/// html5ever 0.40's foreign-content breakout does not stop at an `annotation-xml` HTML
/// integration point.
///
/// The HTML Standard, rules for parsing tokens in foreign content, breakout start tags: "While
/// the current node is not a MathML text integration point, an HTML integration point, or an
/// element in the HTML namespace, pop elements from the stack of open elements." A MathML
/// `annotation-xml` whose start tag had `encoding="text/html"` (or `application/xhtml+xml`) is an
/// HTML integration point. html5ever's `unexpected_start_tag_in_foreign_content` stops only at
/// HTML elements and at the integration points known by name (mi … mtext, foreignObject, desc,
/// title), so it pops the `annotation-xml` and the `math` too, and a later `<![CDATA[` becomes a
/// bogus comment. Chromium follows the standard.
const D3: &str =
    "html5ever deviation: breakout pops through an annotation-xml HTML integration point";

/// One reproduction of each deviation, with the tree the standard gives (as Chromium 156 builds
/// it too): html5ever's tree must differ from it and its tokens from tagstream's.
const DEVIATIONS: &[(&str, &str, &str)] = &[
    (
        D1,
        "<p><font><math><annotation-xml><form></font><textarea><ul>",
        "| <html>\n|   <head>\n|   <body>\n|     <p>\n|       <font>\n|         <math math>\n|           <math annotation-xml>\n|             <math form>\n|               <math textarea>\n|     <ul>",
    ),
    (
        D2,
        "<span><math><annotation-xml></span><noembed><h2>",
        "| <html>\n|   <head>\n|   <body>\n|     <span>\n|       <math math>\n|         <math annotation-xml>\n|           <math noembed>\n|       <h2>",
    ),
    (
        D2,
        "<mi><svg><title></mi><![CDATA[x<y>]]>",
        "| <html>\n|   <head>\n|   <body>\n|     <mi>\n|       <svg svg>\n|         <svg title>\n|           \"x<y>\"",
    ),
    (
        D3,
        "<math><annotation-xml encoding=\"text/html\"><math><head><![CDATA[x<y>]]>",
        "| <html>\n|   <head>\n|   <body>\n|     <math math>\n|       <math annotation-xml>\n|         encoding=\"text/html\"\n|         <math math>\n|         \"x<y>\"",
    ),
];

/// Differences with a known cause: (document name, reason). Generated documents are named by
/// their smallest sub-document that still differs (found with other seeds and sizes than CI's;
/// see the crate's README).
const KNOWN: &[(&str, &str)] = &[
    (
        "<font><math><annotation-xml></font><textarea><annotation-xml encoding=\"text/html\">",
        D1,
    ),
    ("<a><math><annotation-xml></a><xmp></font>", D1),
    ("<a><math><annotation-xml></a><![CDATA[x<y>]]>", D1),
    (
        "<object><math><annotation-xml encoding=application/xhtml+xml><math></object><style><malignmark/>",
        D1,
    ),
    ("<h2><math><annotation-xml></h1><![CDATA[x<y>]]>", D1),
    ("<mi><svg><title></mi><![CDATA[x<y>]]>", D2),
    (
        "<foreignObject><math><mi><math></foreignObject><xmp><frame>",
        D2,
    ),
    (
        "<annotation-xml><math><mi><svg></annotation-xml><title><h2>",
        D2,
    ),
    ("<span><math><annotation-xml></span><noembed><h2>", D2),
    (
        "</head><noscript><math><annotation-xml></noscript><textarea>a<b",
        D2,
    ),
    (
        "<annotation-xml encoding=application/xhtml+xml><svg><title></annotation-xml><![CDATA[x<y>]]>",
        D2,
    ),
    ("<path><math><annotation-xml></path><![CDATA[x<y>]]>", D2),
    (
        "<annotation-xml><math><annotation-xml encoding=\"text/html\"><b><math></annotation-xml><iframe><mo>",
        D2,
    ),
    ("<a><math><annotation-xml></a><xmp></b>", D1),
    (
        "<font><math><annotation-xml></font><textarea><frameset>",
        D1,
    ),
    (
        "<foreignObject><math><annotation-xml encoding=\"text/html\"></foreignObject><![CDATA[x<y>]]>",
        D2,
    ),
    (
        "<math><annotation-xml encoding=\"text/html\"><math><head><![CDATA[x<y>]]>",
        D3,
    ),
    ("<a><math><annotation-xml></a><noscript></html>", D1),
    (
        "<object><math><annotation-xml></object><iframe><font color=red>",
        D1,
    ),
    ("<path/><math><annotation-xml></path><title><!-- c -->", D2),
    (
        "<math><annotation-xml encoding=\"text/html\"></br><![CDATA[x<y>]]>",
        D3,
    ),
    (
        "<math><annotation-xml encoding=application/xhtml+xml></br><![CDATA[x<y>]]>",
        D3,
    ),
];

/// One document run in one scripting mode.
struct Run {
    set: &'static str,
    name: String,
    scripting: bool,
    input: String,
    ours: Simulated,
    theirs: Vec<Tok>,
    verdict: Verdict,
    /// Whether html5ever's tree matches the case's expected tree (tree-construction only).
    tree_ok: Option<bool>,
    /// Chunked feeding gave other tokens or flags than the whole document.
    chunking: Option<String>,
    /// Whether tagstream without the simulator gives html5ever's tokens too.
    bare_same: bool,
}

fn run(
    set: &'static str,
    name: String,
    input: &[u8],
    scripting: bool,
    chunk: usize,
    expected_tree: Option<&str>,
) -> Run {
    let input = prepare(input);
    let ours = tagstream_tokens(&input, scripting, None);
    let fed = tagstream_tokens(&input, scripting, Some(chunk));
    let chunking = if fed.tokens != ours.tokens {
        Some(format!("fed in {chunk}-byte chunks, the tokens differ"))
    } else if fed.ambiguous.len() != ours.ambiguous.len() {
        Some(format!(
            "fed in {chunk}-byte chunks: {} ambiguous tokens, whole: {}",
            fed.ambiguous.len(),
            ours.ambiguous.len()
        ))
    } else {
        None
    };
    let parsed = common::html5ever(&input, scripting);
    let verdict = compare(&ours, &parsed.tokens);
    let bare_same = bare_tokens(&input) == parsed.tokens;
    Run {
        bare_same,
        set,
        name,
        scripting,
        input,
        ours,
        theirs: parsed.tokens,
        verdict,
        tree_ok: expected_tree.map(|t| t == parsed.tree),
        chunking,
    }
}

/// Drop pieces while the document still differs from html5ever without a flag.
fn shrink(mut pieces: Vec<&'static str>, scripting: bool) -> String {
    let differs = |doc: &[&str]| {
        let input = doc.concat();
        let ours = tagstream_tokens(&input, scripting, None);
        matches!(
            compare(&ours, &common::html5ever(&input, scripting).tokens),
            Verdict::Different { .. }
        )
    };
    loop {
        let before = pieces.len();
        let mut i = 0;
        while i < pieces.len() {
            let mut fewer = pieces.clone();
            fewer.remove(i);
            if differs(&fewer) {
                pieces = fewer;
            } else {
                i += 1;
            }
        }
        if pieces.len() == before {
            return pieces.concat();
        }
    }
}

fn known(run: &Run) -> Option<&'static str> {
    KNOWN
        .iter()
        .find(|(name, _)| *name == run.name)
        .map(|k| k.1)
}

fn short(s: &str, n: usize) -> String {
    let cut: String = s.chars().take(n).collect();
    if cut.len() < s.len() {
        format!("{cut:?}…")
    } else {
        format!("{cut:?}")
    }
}

/// The first difference of a run, with a little context.
fn describe(run: &Run) -> String {
    let at = match run.verdict {
        Verdict::Different { at } => at,
        _ => run
            .ours
            .tokens
            .iter()
            .zip(&run.theirs)
            .position(|(a, b)| a != b)
            .unwrap_or(run.ours.tokens.len().min(run.theirs.len())),
    };
    let show = |toks: &[Tok]| {
        toks.iter()
            .skip(at.saturating_sub(2))
            .take(5)
            .map(|t| short(&t.to_string(), 60))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let flags: Vec<String> = run
        .ours
        .ambiguous
        .iter()
        .take(3)
        .map(|(i, why)| format!("#{i} {why:?}"))
        .collect();
    format!(
        "{} [{}, scripting {}] input {}\n    first difference at token #{at}\n    tagstream: {}\n    html5ever: {}\n    flags: {}{}",
        run.name,
        run.set,
        if run.scripting { "on" } else { "off" },
        short(
            &run.input,
            if std::env::var_os("DIFFERENTIAL_FULL").is_some() {
                5000
            } else {
                100
            }
        ),
        show(&run.ours.tokens),
        show(&run.theirs),
        if flags.is_empty() {
            "none".to_owned()
        } else {
            flags.join(", ")
        },
        match run.tree_ok {
            Some(true) => "\n    html5ever's tree matches the expected tree",
            Some(false) => "\n    html5ever's tree differs from the expected tree",
            None => "",
        }
    )
}

#[derive(Default)]
struct Tally {
    runs: usize,
    identical: usize,
    flagged_same: usize,
    flagged_different: usize,
    different_known: usize,
    different: usize,
    ambiguous_tokens: usize,
    tokens: usize,
    bare_different: usize,
    tree_ok: usize,
    trees: usize,
    why: BTreeMap<String, usize>,
}

fn report(runs: &[Run], set: &str, scripting: bool) -> Tally {
    let mut t = Tally::default();
    for r in runs
        .iter()
        .filter(|r| r.set == set && r.scripting == scripting)
    {
        t.runs += 1;
        t.tokens += r.ours.tokens.len();
        t.ambiguous_tokens += r.ours.ambiguous.len();
        t.bare_different += usize::from(!r.bare_same);
        if let Some(ok) = r.tree_ok {
            t.trees += 1;
            t.tree_ok += usize::from(ok);
        }
        for (_, why) in &r.ours.ambiguous {
            *t.why.entry(format!("{why:?}")).or_default() += 1;
        }
        match r.verdict {
            Verdict::Identical => t.identical += 1,
            Verdict::Flagged { same: true } => t.flagged_same += 1,
            Verdict::Flagged { same: false } => t.flagged_different += 1,
            Verdict::Different { .. } if known(r).is_some() => t.different_known += 1,
            Verdict::Different { .. } => t.different += 1,
        }
    }
    let pct = |n: usize| 100.0 * n as f64 / t.runs.max(1) as f64;
    println!(
        "{set} (scripting {}): {} documents: {} identical ({:.1}%), {} flagged ambiguous ({:.1}%; {} of them with the same tokens anyway), {} different ({} with a known reason, {} unexplained)",
        if scripting { "on" } else { "off" },
        t.runs,
        t.identical,
        pct(t.identical),
        t.flagged_same + t.flagged_different,
        pct(t.flagged_same + t.flagged_different),
        t.flagged_same,
        t.different_known + t.different,
        t.different_known,
        t.different,
    );
    println!(
        "    ambiguous tokens: {} of {} ({:.4}%){}",
        t.ambiguous_tokens,
        t.tokens,
        100.0 * t.ambiguous_tokens as f64 / t.tokens.max(1) as f64,
        if t.why.is_empty() {
            String::new()
        } else {
            format!(": {:?}", t.why)
        }
    );
    println!(
        "    without the simulator (the tokenizer alone) {} of these documents differ from html5ever{}",
        t.bare_different,
        if t.trees > 0 {
            format!(
                "; html5ever's tree matches the expected tree in {} of {}",
                t.tree_ok, t.trees
            )
        } else {
            String::new()
        }
    );
    t
}

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let verbose = std::env::var_os("DIFFERENTIAL_VERBOSE").is_some();
    let mut runs = Vec::new();

    let dir = html5lib_dir();
    match tree_construction_cases(&dir) {
        Ok(cases) => {
            for case in &cases {
                let modes: &[bool] = match case.scripting {
                    Some(true) => &[true],
                    Some(false) => &[false],
                    None => &[false, true],
                };
                for &scripting in modes {
                    runs.push(run(
                        "tree-construction",
                        case.name.clone(),
                        case.data.as_bytes(),
                        scripting,
                        1,
                        Some(&case.document),
                    ));
                }
            }
        }
        Err(e) => panic!(
            "{}: {e} (the copy vendored in tests/data/html5lib-tests, or $HTML5LIB_TESTS_DIR)",
            dir.display()
        ),
    }

    let dir = corpus_dir();
    let mut corpus_missing = None;
    match corpus_pages(&dir) {
        Ok(pages) if !pages.is_empty() => {
            for (name, bytes) in &pages {
                for scripting in [false, true] {
                    runs.push(run("corpus", name.clone(), bytes, scripting, 4096, None));
                }
            }
        }
        other => {
            let why = match other {
                Err(e) => e.to_string(),
                Ok(_) => "no *.html pages".to_owned(),
            };
            let msg = format!(
                "{}: {why}: fetch the corpus with datasets/fetch-corpus.sh (or set TAGSTREAM_CORPUS)",
                dir.display()
            );
            if ci {
                panic!("{msg}");
            }
            eprintln!(
                "\n!!! the corpus set is SKIPPED (CI=true makes this a failure)\n!!! {msg}\n"
            );
            corpus_missing = Some(msg);
        }
    }

    // Random tag soup around everything the simulator tracks.
    let generated: usize = std::env::var("DIFFERENTIAL_GENERATED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let seed = std::env::var("DIFFERENTIAL_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2026);
    let mut rng = Rng::new(seed);
    for i in 0..generated {
        let pieces = generate(&mut rng);
        let scripting = i % 2 == 1;
        let mut r = run(
            "generated",
            pieces.concat(),
            pieces.concat().as_bytes(),
            scripting,
            1,
            None,
        );
        if matches!(r.verdict, Verdict::Different { .. }) {
            // Name it by its smallest sub-document that still differs, unflagged.
            r.name = shrink(pieces, scripting);
        }
        runs.push(r);
    }

    println!("\n== differential: tagstream + simulator vs html5ever's tree builder ==");
    for set in ["tree-construction", "corpus", "generated"] {
        for scripting in [false, true] {
            report(&runs, set, scripting);
        }
    }
    let mut shown = 0;
    for r in &runs {
        let unexplained = matches!(r.verdict, Verdict::Different { .. }) && known(r).is_none();
        let show = unexplained
            || verbose && !matches!(r.verdict, Verdict::Identical)
            || r.chunking.is_some();
        if show && shown < 200 {
            shown += 1;
            println!("\n{}", describe(r));
            if let Some(c) = &r.chunking {
                println!("    {c}");
            }
        } else if let (Verdict::Different { .. }, Some(reason)) = (&r.verdict, known(r))
            && verbose
        {
            println!("\n{}\n    known: {reason}", describe(r));
        }
    }
    if verbose {
        for r in runs
            .iter()
            .filter(|r| r.tree_ok == Some(false) && !r.scripting)
        {
            println!(
                "html5ever's tree differs from the expected tree: {} {}",
                r.name,
                short(&r.input, 80)
            );
        }
    }
    println!();

    let mut trials: Vec<Trial> = DEVIATIONS
        .iter()
        .map(|&(why, input, spec_tree)| {
            Trial::test(format!("html5ever-deviation::{input}"), move || {
                deviation(why, input, spec_tree)
            })
        })
        .collect();
    trials.extend(runs.into_iter().map(|r| {
        let name = format!(
            "{}::{}::scripting_{}",
            r.set,
            r.name,
            if r.scripting { "on" } else { "off" }
        );
        Trial::test(name, move || check(&r))
    }));
    // Shown as ignored in the summary, so that a run without the corpus does not look complete.
    if let Some(msg) = corpus_missing {
        trials.push(
            Trial::test("corpus set present", move || Err(msg.into())).with_ignored_flag(true),
        );
    }
    libtest_mimic::run(&args, trials).exit_code()
}

/// A documented html5ever deviation still shows: html5ever's tree is not the standard's, and
/// its tokens are not tagstream's (which nothing flags).
fn deviation(why: &str, input: &str, spec_tree: &str) -> Result<(), Failed> {
    for scripting in [false, true] {
        let parsed = common::html5ever(input, scripting);
        if parsed.tree == spec_tree {
            return Err(
                format!("{input}: html5ever now builds the standard's tree ({why})").into(),
            );
        }
        let ours = tagstream_tokens(input, scripting, None);
        if !matches!(compare(&ours, &parsed.tokens), Verdict::Different { .. }) {
            return Err(format!("{input}: no longer an unflagged difference ({why})").into());
        }
    }
    Ok(())
}

fn check(run: &Run) -> Result<(), Failed> {
    if let Some(c) = &run.chunking {
        return Err(format!("{}: {c}", run.name).into());
    }
    match run.verdict {
        Verdict::Different { .. } if known(run).is_none() => Err(describe(run).into()),
        _ => Ok(()),
    }
}
