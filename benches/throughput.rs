//! Throughput in bytes per second (criterion): `cargo bench --bench throughput`.
//!
//! Every iteration tokenizes each page as its own document with one reused `Tokenizer`, either whole
//! (`tokenize`) or streamed in 4 KiB chunks (`feed`, then `finish`), and folds every token into a
//! checksum handed to `black_box`. Modes:
//!
//! - `default`: names through `raw_name()`, attribute and text spans; nothing decoded;
//! - `decode`: every tag and attribute name, attribute value, text and comment decoded;
//! - `errors`: like `default` with `Options::errors(true)`, the errors folded in too.
//!
//! Groups: `corpus` (the 258 real pages of `datasets/fetch-corpus.sh`; skipped with a message when
//! they are missing), `samples` (the committed `datasets/samples/*.html`) and `hostile` (the
//! hostile inputs of issue 5 from `common/hostile.rs`, at a tenth of their full size, each one
//! whole document in `default` and `errors` mode: compare their throughput with `corpus`), and
//! `hostile-xml5` (issue 26's hostile XML for the XML5 tokenizer, likewise).

mod common;

use std::hint::black_box;
use std::time::Duration;

use common::{CHUNK, Mode};
use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group,
    criterion_main, measurement::WallTime,
};
use tagstream::{Options, xml5};

/// The six benches (3 modes × whole/chunked) over `pages`, in one group.
fn modes(group: &mut BenchmarkGroup<'_, WallTime>, pages: &[Vec<u8>]) {
    group.throughput(Throughput::Bytes(common::total_bytes(pages)));
    for mode in Mode::ALL {
        let mut tokenizer = mode.tokenizer();
        group.bench_function(BenchmarkId::new(mode.name(), "whole"), |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for page in pages {
                    sum = sum.wrapping_add(common::whole(mode, &mut tokenizer, black_box(page)));
                }
                black_box(sum)
            });
        });
        group.bench_function(BenchmarkId::new(mode.name(), "chunked-4k"), |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for page in pages {
                    let page = black_box(page);
                    sum = sum.wrapping_add(common::chunked(mode, &mut tokenizer, page, CHUNK));
                }
                black_box(sum)
            });
        });
    }
}

/// The real-world corpus: ~24.6 MB per iteration, so few, flat samples.
fn corpus(c: &mut Criterion) {
    let Some(pages) = common::corpus() else {
        return;
    };
    eprintln!(
        "corpus: {} pages, {} bytes, from {}",
        pages.len(),
        common::total_bytes(&pages),
        common::corpus_dir().display()
    );
    let mut group = c.benchmark_group("corpus");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    modes(&mut group, &pages);
    group.finish();
}

/// The hostile inputs at a tenth of full size (at most 5 MB each): few samples, short runs.
fn hostile(c: &mut Criterion) {
    let mut group = c.benchmark_group("hostile");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for case in common::hostile::CASES {
        let input = case.input(10);
        group.throughput(Throughput::Bytes(input.len() as u64));
        for mode in [Mode::Default, Mode::Errors] {
            let mut tokenizer = mode.tokenizer();
            group.bench_function(BenchmarkId::new(mode.name(), case.name), |b| {
                b.iter(|| black_box(common::whole(mode, &mut tokenizer, black_box(&input))));
            });
        }
    }
    group.finish();
}

/// XML5's hostile inputs (issue 26) at a tenth of full size, errors off and on.
fn hostile_xml5(c: &mut Criterion) {
    let mut group = c.benchmark_group("hostile-xml5");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for case in common::hostile::XML_CASES {
        let input = case.input(10);
        group.throughput(Throughput::Bytes(input.len() as u64));
        for (name, errors) in [("default", false), ("errors", true)] {
            let mut tokenizer = xml5::Tokenizer::new(Options::new().errors(errors));
            group.bench_function(BenchmarkId::new(name, case.name), |b| {
                b.iter(|| {
                    let tokens = tokenizer.tokenize(black_box(&input));
                    black_box(tokens.fold(0, |h, token| common::spans(h, &token)))
                });
            });
        }
    }
    group.finish();
}

/// The committed samples (always there): a quick check that needs no download.
fn samples(c: &mut Criterion) {
    let pages: Vec<Vec<u8>> = common::samples().into_iter().map(|(_, p)| p).collect();
    let mut group = c.benchmark_group("samples");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    modes(&mut group, &pages);
    group.finish();
}

criterion_group!(benches, corpus, samples, hostile, hostile_xml5);
criterion_main!(benches);
