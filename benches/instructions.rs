//! Instruction counts under Valgrind's Callgrind (gungraun, the former iai-callgrind):
//! `cargo bench --bench instructions`. Needs `valgrind` and `gungraun-runner` of the same version as
//! the `gungraun` dev-dependency (see the README's "Benchmarks" section).
//!
//! Inputs, each tokenized as one whole document by a tokenizer that has already tokenized it once
//! (reading the input, building it and that warm-up run are setup, not counted):
//!
//! - three real pages from the corpus, by fixed file name (when the corpus is missing, three
//!   committed samples stand in, and the table printed first says so);
//! - three pages generated here, deterministically, of exactly [`GENERATED_BYTES`] bytes each:
//!   tag-dense (short tags, little text), text-heavy (paragraphs of prose, few tags) and
//!   attribute-heavy (tags with many attributes, quoted and unquoted, with character references).
//!
//! Modes: `default` (spans and raw names, nothing decoded) and `errors` (`Options::errors(true)`).
//! The table of input sizes printed before the run gives instructions per byte: divide.

mod common;

use std::hint::black_box;

use common::Mode;
use gungraun::{LibraryBenchmarkConfig, library_benchmark, library_benchmark_group, main};
use tagstream::Tokenizer;

/// Size of each generated input: 200 KiB.
const GENERATED_BYTES: usize = 200 * 1024;

/// The corpus pages benchmarked (bench id, file name in the corpus, sample standing in without it).
const PAGES: [(&str, &str, &str); 3] = [
    (
        // The largest corpus page: 395,911 bytes, 3,889 tags.
        "page_large",
        "74e8bc94abea7c60f022d8d3f672f80e59e3e126735fae0b5ee5914ff2fce48e.html",
        "article.html",
    ),
    (
        // A BBC News article: 84,619 bytes, script-heavy (92 scripts).
        "page_news",
        "dedab30be4d82fdab5c4cdec17c6b4dc29552b51fe14fb000f6121347041e200.html",
        "scripts.html",
    ),
    (
        // A small article page: 24,546 bytes.
        "page_small",
        "d1f24dac5e97d7c977a1b6df94e2334a2fecdc384548433b800bfd080471fde2.html",
        "forms.html",
    ),
];

/// An input by bench id, and where it came from.
fn input(id: &str) -> (Vec<u8>, String) {
    match id {
        "tag_dense" => (tag_dense(), "generated".to_owned()),
        "text_heavy" => (text_heavy(), "generated".to_owned()),
        "attr_heavy" => (attr_heavy(), "generated".to_owned()),
        _ => {
            let &(_, file, sample) = PAGES
                .iter()
                .find(|p| p.0 == id)
                .unwrap_or_else(|| panic!("unknown input {id}"));
            match common::corpus_page(file) {
                Some(page) => (page, format!("corpus {file}")),
                None => (
                    common::sample(sample),
                    format!("NO CORPUS: sample {sample} instead of corpus {file}"),
                ),
            }
        }
    }
}

/// What a benchmark gets: the input and a tokenizer that has already tokenized it once, so that its
/// arena and buffers have their steady-state sizes (like the reused tokenizer of the throughput
/// benches).
struct Prepared {
    tokenizer: Tokenizer,
    input: Vec<u8>,
}

fn prepare(mode: Mode, id: &str) -> Prepared {
    let (input, _) = input(id);
    let mut tokenizer = mode.tokenizer();
    black_box(common::whole(mode, &mut tokenizer, &input));
    Prepared { tokenizer, input }
}

fn default_input(id: &str) -> Prepared {
    prepare(Mode::Default, id)
}

fn errors_input(id: &str) -> Prepared {
    prepare(Mode::Errors, id)
}

/// Tokenize and consume; the `Prepared` is handed back so that freeing it is not counted.
fn run(mode: Mode, mut p: Prepared) -> (u64, Prepared) {
    let sum = common::whole(mode, &mut p.tokenizer, black_box(&p.input));
    (black_box(sum), p)
}

#[library_benchmark]
#[bench::page_large(args = ("page_large"), setup = default_input)]
#[bench::page_news(args = ("page_news"), setup = default_input)]
#[bench::page_small(args = ("page_small"), setup = default_input)]
#[bench::tag_dense(args = ("tag_dense"), setup = default_input)]
#[bench::text_heavy(args = ("text_heavy"), setup = default_input)]
#[bench::attr_heavy(args = ("attr_heavy"), setup = default_input)]
fn default(p: Prepared) -> (u64, Prepared) {
    run(Mode::Default, p)
}

#[library_benchmark]
#[bench::page_large(args = ("page_large"), setup = errors_input)]
#[bench::page_news(args = ("page_news"), setup = errors_input)]
#[bench::page_small(args = ("page_small"), setup = errors_input)]
#[bench::tag_dense(args = ("tag_dense"), setup = errors_input)]
#[bench::text_heavy(args = ("text_heavy"), setup = errors_input)]
#[bench::attr_heavy(args = ("attr_heavy"), setup = errors_input)]
fn errors(p: Prepared) -> (u64, Prepared) {
    run(Mode::Errors, p)
}

library_benchmark_group!(
    name = tokenize,
    compare_by_id = true,
    benchmarks = [default, errors]
);

/// The configuration, after printing the inputs and their sizes. `main!` evaluates it once, in the
/// process `cargo bench` starts (the runner captures what the benchmark processes print), so this is
/// the place for a table the user sees before the counts.
fn config() -> LibraryBenchmarkConfig {
    println!("tagstream instruction benches; instructions per byte = Instructions / bytes:");
    let ids = PAGES
        .iter()
        .map(|p| p.0)
        .chain(["tag_dense", "text_heavy", "attr_heavy"]);
    for id in ids {
        let (bytes, from) = input(id);
        println!("  {id:<10} {:>7} bytes  {from}", bytes.len());
    }
    if common::corpus_page(PAGES[0].1).is_none() {
        println!(
            "  (no corpus at {}: samples stand in for the real pages; \
             run datasets/fetch-corpus.sh to fetch it)",
            common::corpus_dir().display()
        );
    }
    println!();
    let mut config = LibraryBenchmarkConfig::default();
    config.pass_through_env("TAGSTREAM_CORPUS");
    config
}

main!(
    config = config();
    library_benchmark_groups = tokenize
);

// ---- generated inputs ---------------------------------------------------------------------------

/// xorshift64*: small, fast, reproducible.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng((seed ^ 0x9E37_79B9_7F4A_7C15).wrapping_mul(0xBF58_476D_1CE4_E5B9) | 1)
    }

    fn below(&mut self, n: usize) -> usize {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const FOOTER: &str = "</body>\n</html>\n";

/// A page of exactly `GENERATED_BYTES`: a small head, then the pieces `piece` appends (it may open
/// elements by pushing their names on the stack, and close them by popping), for as long as they
/// fit, then the end tags of what is still open, newline padding (less than the smallest piece) and
/// the footer.
fn generate(
    title: &str,
    seed: u64,
    mut piece: impl FnMut(&mut Rng, &mut Vec<&'static str>, &mut Vec<u8>),
) -> Vec<u8> {
    let end_tags = |open: &[&str]| open.iter().map(|t| t.len() + 3).sum::<usize>();
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(GENERATED_BYTES);
    out.extend_from_slice(
        format!(
            "<!DOCTYPE html>\n<html lang=en>\n<head>\n<meta charset=utf-8>\n\
             <title>{title}</title>\n</head>\n<body>\n"
        )
        .as_bytes(),
    );
    let mut open: Vec<&'static str> = Vec::new();
    let mut buf = Vec::new();
    // Stop after 64 pieces in a row did not fit.
    let mut misses = 0;
    while misses < 64 {
        let mut next_open = open.clone();
        buf.clear();
        piece(&mut rng, &mut next_open, &mut buf);
        if out.len() + buf.len() + end_tags(&next_open) + FOOTER.len() <= GENERATED_BYTES {
            out.extend_from_slice(&buf);
            open = next_open;
            misses = 0;
        } else {
            misses += 1;
        }
    }
    while let Some(tag) = open.pop() {
        out.extend_from_slice(format!("</{tag}>").as_bytes());
    }
    out.resize(GENERATED_BYTES - FOOTER.len(), b'\n');
    out.extend_from_slice(FOOTER.as_bytes());
    out
}

const WORDS: &[&str] = &[
    "the",
    "of",
    "and",
    "a",
    "to",
    "in",
    "is",
    "was",
    "that",
    "for",
    "it",
    "with",
    "as",
    "on",
    "by",
    "bread",
    "kitchen",
    "river",
    "winter",
    "letter",
    "market",
    "morning",
    "window",
    "garden",
    "station",
    "harbour",
    "village",
    "evening",
    "history",
    "question",
    "answer",
    "light",
    "stone",
    "slowly",
    "quietly",
    "carefully",
    "never",
    "always",
    "often",
    "walked",
    "opened",
    "wrote",
    "remembered",
    "carried",
    "baked",
    "small",
    "old",
    "bright",
    "heavy",
    "distant",
    "familiar",
    "café",
    "naïve",
    "Zürich",
    "façade",
    "déjà",
    "Kraków",
    "São",
    "résumé",
];

/// Short tags, little text: nested containers, void elements, end tags, 0–3 characters of text.
fn tag_dense() -> Vec<u8> {
    const CONTAINERS: &[&str] = &[
        "div", "span", "a", "b", "i", "em", "li", "ul", "p", "td", "tr", "u", "small", "sup",
    ];
    const VOIDS: &[&str] = &["<br>", "<hr>", "<wbr>", "<br/>", "<img>", "<col>"];
    const TEXT: &[&str] = &["", "", "x", "ok", "1", "a b", "\n", "  "];
    generate("tag-dense", 1, |rng, open, out| {
        let roll = rng.below(10);
        if roll < 4 && open.len() < 16 {
            let tag = rng.pick(CONTAINERS);
            out.extend_from_slice(format!("<{tag}>").as_bytes());
            open.push(tag);
        } else if roll == 4 {
            out.extend_from_slice(rng.pick(VOIDS).as_bytes());
        } else if roll == 5 {
            out.extend_from_slice(b"<span class=x>");
        } else if roll < 8 {
            match open.pop() {
                Some(tag) => out.extend_from_slice(format!("</{tag}>").as_bytes()),
                None => out.extend_from_slice(b"<p>"),
            }
        } else {
            out.extend_from_slice(rng.pick(TEXT).as_bytes());
        }
    })
}

/// Paragraphs of prose (a few non-ASCII words), few tags: a heading now and then, and in one
/// sentence in twelve an emphasised word, a link or an `&amp;`.
fn text_heavy() -> Vec<u8> {
    let mut sentences_left = 0;
    generate("text-heavy", 2, move |rng, open, out| {
        if sentences_left == 0 {
            if let Some(tag) = open.pop() {
                out.extend_from_slice(format!("</{tag}>\n").as_bytes());
            }
            if rng.below(10) == 0 {
                // Only the nouns.
                let word = rng.pick(&WORDS[15..33]);
                out.extend_from_slice(format!("<h2>On the {word}</h2>\n").as_bytes());
            }
            out.extend_from_slice(b"<p>");
            open.push("p");
            sentences_left = 3 + rng.below(6);
            return;
        }
        sentences_left -= 1;
        let words = 8 + rng.below(14);
        let marked = if rng.below(12) == 0 {
            rng.below(words)
        } else {
            usize::MAX
        };
        for w in 0..words {
            let word = rng.pick(WORDS);
            let sep = if w == 0 { "" } else { " " };
            let piece = match (w == marked, rng.below(3)) {
                (true, 0) => format!("{sep}<em>{word}</em>"),
                (true, 1) => format!("{sep}<a href=\"/wiki/{word}\">{word}</a>"),
                (true, _) => format!("{sep}{word} &amp; {word}"),
                (false, _) if w == 0 => {
                    let mut chars = word.chars();
                    let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
                    format!("{}{}", first.unwrap_or_default(), chars.as_str())
                }
                (false, _) if w + 1 < words && rng.below(9) == 0 => format!("{sep}{word},"),
                (false, _) => format!("{sep}{word}"),
            };
            out.extend_from_slice(piece.as_bytes());
        }
        out.extend_from_slice(if rng.below(7) == 0 { b"?\n" } else { b". " });
    })
}

/// Tags with 4–12 distinct attributes each: double-quoted, single-quoted, unquoted and boolean,
/// some names in upper case, values with named, numeric and legacy (no `;`) character references
/// and an `&` that stays literal.
fn attr_heavy() -> Vec<u8> {
    const TAGS: &[&str] = &[
        "input", "a", "img", "div", "meta", "link", "button", "option",
    ];
    const ATTRS: &[&str] = &[
        "name=\"field-{n}\"",
        "id='f-{n}'",
        "class=\"btn btn-primary col-md-6 is-{n}\"",
        "data-index={n}",
        "value=\"Fish &amp; chips\"",
        "title='Caf&eacute; &lt;menu&gt; &#8212; open'",
        "href=\"/search?q=html&amp;page={n}&lang=en\"",
        "aria-label=\"Close &#x00D7;\"",
        "style=\"color:#333;margin:0 auto;font:12px/1.5 sans-serif\"",
        "disabled",
        "required",
        "hidden",
        "onclick=\"toggle(this, 'panel-{n}'); return false;\"",
        "DATA-ROLE=Panel",
        "srcset=\"a-{n}.png 1x, a-{n}@2x.png 2x\"",
        "alt=\"&quot;quoted&quot; &copy 2024\"",
        "TabIndex=0",
        "lang=de-CH",
        "width=640",
        "src=/img/{n}.jpg",
    ];
    let mut n = 0usize;
    let mut order: Vec<usize> = (0..ATTRS.len()).collect();
    generate("attribute-heavy", 3, move |rng, _, out| {
        n += 1;
        let tag = rng.pick(TAGS);
        out.push(b'<');
        out.extend_from_slice(tag.as_bytes());
        let count = 4 + rng.below(9);
        for i in 0..count {
            let j = i + rng.below(order.len() - i);
            order.swap(i, j);
            out.push(b' ');
            out.extend_from_slice(ATTRS[order[i]].replace("{n}", &n.to_string()).as_bytes());
        }
        out.extend_from_slice(if rng.below(5) == 0 { b"/>" } else { b">" });
        if matches!(tag, "a" | "div" | "button" | "option") {
            out.extend_from_slice(format!("item {n}</{tag}>").as_bytes());
        }
        out.push(b'\n');
    })
}
