//! In-process A/B timing of the simulator's cost over the corpus, passes interleaved so that the
//! machine's load hits every variant alike: `cargo run --release --example ab -- [PASSES]`.
//!
//! - `manual`: simulator off, text states switched by hand after script/style/… start tags (what
//!   perf/'s `tagstream` subject did before the simulator existed);
//! - `simulated`: the default (simulator on), nothing by hand;
//! - `both`: simulator on and the switching by hand too (perf/'s subject as it stands).
//!
//! - `none`: simulator off, no switching at all (the tokenizer alone, as `benches/` ran before the
//!   simulator: script contents come out as markup).
//!
//! Each pass tokenizes every page, consuming spans and raw names as perf/'s default subject does.
//! `ab 1 VARIANT` runs one pass of one variant, for
//! `valgrind --tool=callgrind --toggle-collect='ab::pass'`.

use std::time::Instant;

use tagstream::{Options, TextKind, Token, Tokenizer};
use tagstream_differential::{corpus_dir, corpus_pages};

fn switch_for(raw: &[u8]) -> Option<TextKind> {
    let mut lower = [0u8; 16];
    let n = raw.len();
    if n > 16 {
        return None;
    }
    for (o, b) in lower.iter_mut().zip(raw) {
        *o = b.to_ascii_lowercase();
    }
    Some(match &lower[..n] {
        b"script" => TextKind::ScriptData,
        b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => TextKind::Rawtext,
        b"textarea" | b"title" => TextKind::Rcdata,
        b"plaintext" => TextKind::Plaintext,
        _ => return None,
    })
}

#[inline(never)]
fn pass(tokenizer: &mut Tokenizer, pages: &[(String, Vec<u8>)], by_hand: bool) -> u64 {
    let mut sum = 0u64;
    for (_, page) in pages {
        let mut tokens = tokenizer.tokenize(page);
        while let Some(token) = tokens.next() {
            match token {
                Token::StartTag(tag) => {
                    let name = tag.raw_name();
                    sum += name.len() as u64 + tag.attributes().len() as u64;
                    if by_hand && let Some(k) = switch_for(name) {
                        tokens.set_text_state(k);
                    }
                }
                Token::EndTag(tag) => sum += tag.raw_name().len() as u64,
                other => sum += other.span().len() as u64,
            }
        }
    }
    sum
}

fn main() {
    let passes: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(15);
    let pages = corpus_pages(&corpus_dir()).expect("corpus (datasets/fetch-corpus.sh)");
    let bytes: usize = pages.iter().map(|(_, p)| p.len()).sum();
    let all = [
        ("manual", false, true),
        ("simulated", true, false),
        ("both", true, true),
        ("none", false, false),
    ];
    let only = std::env::args().nth(2);
    let variants: Vec<_> = all
        .into_iter()
        .filter(|v| only.as_deref().is_none_or(|o| o == v.0))
        .collect();
    let mut tokenizers: Vec<Tokenizer> = variants
        .iter()
        .map(|&(_, sim, _)| Tokenizer::new(Options::new().simulate(sim)))
        .collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); variants.len()];
    let mut sums = vec![0; variants.len()];
    let warm_up = usize::from(only.is_none());
    for p in 1 - warm_up..=passes {
        for k in 0..variants.len() {
            let i = (k + p) % variants.len();
            let wall = Instant::now();
            sums[i] = pass(&mut tokenizers[i], &pages, variants[i].2);
            let t = wall.elapsed().as_secs_f64();
            if p > 0 {
                times[i].push(t);
            }
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let base = median(&mut times[0].clone());
    println!(
        "{} pages, {bytes} bytes, {passes} interleaved passes (median):",
        pages.len()
    );
    for (i, &(name, _, _)) in variants.iter().enumerate() {
        let m = median(&mut times[i]);
        println!(
            "  {name:<10} {:7.1} MB/s  {:+.1}% time vs manual  (checksum {})",
            bytes as f64 / m / 1e6,
            (m / base - 1.0) * 100.0,
            sums[i]
        );
    }
}
