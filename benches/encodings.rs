//! Throughput through `tagstream::encoding::Transcoder` (criterion): `cargo bench --bench encodings`.
//!
//! The corpus (UTF-8) is converted once, before measuring, to windows-1252 and to Shift_JIS with
//! encoding_rs. That is lossy: characters the target cannot encode become HTML numeric character
//! references (`&#…;`, encoding_rs's replacement when encoding), so the converted pages are a
//! little longer and have more `&`; throughput counts the bytes of the converted input. Every
//! bench streams each page in 4 KiB chunks with a reused transcoder (or tokenizer) and folds the
//! spans of every token into a checksum, as `throughput`'s `default` mode does:
//!
//! - `utf8/tokenizer`: the plain `Tokenizer` (the peer every other line is compared with);
//! - `utf8/transcoder`: the same bytes through the `Transcoder` told UTF-8 (pass-through);
//! - `windows-1252/transcoder`, `shift_jis/transcoder`: decoding with encoding_rs, then tokenizing;
//! - `shift_jis/transcoder-mapped`: the same with offset mapping on.
//!
//! Without the corpus (`datasets/fetch-corpus.sh`) it runs over the committed samples instead.

mod common;

use std::hint::black_box;
use std::time::Duration;

use common::CHUNK;
use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group,
    criterion_main, measurement::WallTime,
};
use encoding_rs::{Encoding, SHIFT_JIS, UTF_8, WINDOWS_1252};
use tagstream::encoding::Transcoder;
use tagstream::{Options, Tokenizer};

/// `pages` converted to `encoding` (lossy: numeric character references for what it lacks).
fn convert(pages: &[Vec<u8>], encoding: &'static Encoding) -> Vec<Vec<u8>> {
    pages
        .iter()
        .map(|page| {
            encoding
                .encode(&String::from_utf8_lossy(page))
                .0
                .into_owned()
        })
        .collect()
}

fn through_tokenizer(tokenizer: &mut Tokenizer, page: &[u8]) -> u64 {
    tokenizer.reset();
    let mut h = 0;
    for chunk in page.chunks(CHUNK) {
        h = tokenizer.feed(chunk).fold(h, |h, t| common::spans(h, &t));
    }
    tokenizer.finish().fold(h, |h, t| common::spans(h, &t))
}

fn through_transcoder(transcoder: &mut Transcoder, page: &[u8]) -> u64 {
    transcoder.reset();
    let mut h = 0;
    for chunk in page.chunks(CHUNK) {
        h = transcoder.feed(chunk).fold(h, |h, t| common::spans(h, &t));
    }
    transcoder.finish().fold(h, |h, t| common::spans(h, &t))
}

fn bench_pages<T>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: BenchmarkId,
    pages: &[Vec<u8>],
    mut subject: T,
    run: fn(&mut T, &[u8]) -> u64,
) {
    group.throughput(Throughput::Bytes(common::total_bytes(pages)));
    group.bench_function(id, |b| {
        b.iter(|| {
            pages.iter().fold(0u64, |sum, page| {
                sum.wrapping_add(run(&mut subject, black_box(page)))
            })
        });
    });
}

fn transcoder(encoding: &'static Encoding, map_offsets: bool) -> Transcoder {
    Transcoder::new(Options::new())
        .known_encoding(encoding)
        .map_offsets(map_offsets)
}

fn encodings(c: &mut Criterion) {
    let (pages, name) = match common::corpus() {
        Some(pages) => (pages, "corpus"),
        None => (
            common::samples().into_iter().map(|(_, p)| p).collect(),
            "samples",
        ),
    };
    let windows_1252 = convert(&pages, WINDOWS_1252);
    let shift_jis = convert(&pages, SHIFT_JIS);
    eprintln!(
        "encodings over the {name}: {} bytes UTF-8, {} windows-1252, {} Shift_JIS",
        common::total_bytes(&pages),
        common::total_bytes(&windows_1252),
        common::total_bytes(&shift_jis)
    );
    let mut group = c.benchmark_group(format!("encodings-{name}"));
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    let id = BenchmarkId::new;
    bench_pages(
        &mut group,
        id("utf8", "tokenizer"),
        &pages,
        Tokenizer::default(),
        through_tokenizer,
    );
    let utf8 = transcoder(UTF_8, false);
    bench_pages(
        &mut group,
        id("utf8", "transcoder"),
        &pages,
        utf8,
        through_transcoder,
    );
    let latin = transcoder(WINDOWS_1252, false);
    let id_latin = id("windows-1252", "transcoder");
    bench_pages(
        &mut group,
        id_latin,
        &windows_1252,
        latin,
        through_transcoder,
    );
    let sjis = transcoder(SHIFT_JIS, false);
    let id_sjis = id("shift_jis", "transcoder");
    bench_pages(&mut group, id_sjis, &shift_jis, sjis, through_transcoder);
    let mapped = transcoder(SHIFT_JIS, true);
    let id_mapped = id("shift_jis", "transcoder-mapped");
    bench_pages(
        &mut group,
        id_mapped,
        &shift_jis,
        mapped,
        through_transcoder,
    );
    group.finish();
}

criterion_group!(benches, encodings);
criterion_main!(benches);
