//! Parse errors under a cap (`Options::max_errors`): stored plus dropped errors are exactly the
//! errors an uncapped run reports, under any chunking; without taking, the stored ones are the
//! stream's first; a consumer that drains between tokens sees every error; the default cap holds.
//! Memory with errors on is measured in tests/errors_memory.rs.

mod common;

use std::collections::BTreeMap;

use common::{Rng, random_cuts};
use tagstream::{DroppedErrors, ErrorCode, Options, ParseError, Tokenizer};

/// How often to take the errors while running.
#[derive(Clone, Copy, Debug)]
enum Take {
    /// Only at the end.
    AtEnd,
    /// After every token and at the end of every feed.
    EveryToken,
}

/// Run `input` fed in chunks ending at `cuts` (whole with `tokenize` when `None`) with `options`,
/// taking errors as `take` says; returns the errors taken and the count of dropped ones.
fn run(
    input: &[u8],
    options: &Options,
    cuts: Option<&[usize]>,
    take: Take,
) -> (Vec<ParseError>, DroppedErrors) {
    let mut tokenizer = Tokenizer::new(options.clone());
    let mut taken = Vec::new();
    let consume = |mut tokens: tagstream::Tokens<'_>, taken: &mut Vec<ParseError>| {
        while tokens.next().is_some() {
            if let Take::EveryToken = take {
                taken.extend(tokens.drain_errors());
            }
        }
        if let Take::EveryToken = take {
            taken.extend(tokens.drain_errors());
        }
    };
    match cuts {
        None => consume(tokenizer.tokenize(input), &mut taken),
        Some(cuts) => {
            let mut start = 0;
            for &end in cuts.iter().chain([&input.len()]) {
                consume(tokenizer.feed(&input[start..end]), &mut taken);
                start = end;
            }
            consume(tokenizer.finish(), &mut taken);
        }
    }
    taken.extend(tokenizer.drain_errors());
    (taken, tokenizer.dropped_errors())
}

/// The errors of `input`, uncapped, whole.
fn uncapped(input: &[u8]) -> Vec<ParseError> {
    let options = Options::new().errors(true).max_errors(usize::MAX);
    let (errors, dropped) = run(input, &options, None, Take::AtEnd);
    assert_eq!(dropped.total(), 0);
    errors
}

fn by_code(errors: &[ParseError]) -> BTreeMap<ErrorCode, u64> {
    let mut counts = BTreeMap::new();
    for e in errors {
        *counts.entry(e.code).or_default() += 1;
    }
    counts
}

/// Error storms and mixtures: every kind of queue (the machine's, input-stream errors, errors
/// held for a character cut by a seam, duplicate attributes merged back in order).
fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let mut mixed = Vec::new();
    for i in 0..300 {
        mixed.extend_from_slice(match i % 6 {
            0 => b"<a b=1 b=2 \x01c>".as_slice(),
            1 => b"x\0\x02\xEF\xB7\x90&#0;y",
            2 => b"<p\0\0 a a='\0'>",
            3 => b"</q x/>\x7F",
            4 => b"<!-- -- \0 --!>&notit;",
            _ => b"\xF4\x8F\xBF\xBF<?x \0?>",
        });
    }
    let mut unterminated = Vec::new();
    for _ in 0..500 {
        unterminated.extend_from_slice(b"<a b=1 ");
    }
    let mut attrs = b"<a".to_vec();
    for i in 0..400 {
        attrs.extend_from_slice(if i % 3 == 0 { b" a=\0" } else { b" a=1" });
    }
    attrs.push(b'>');
    vec![
        ("nul-text", vec![0; 2000]),
        ("nul-tag-name", [&b"<a"[..], &[0; 2000], b">x"].concat()),
        ("controls", b"\x01\x02 <b>\x03".repeat(400)),
        ("mixed", mixed),
        ("unterminated", unterminated),
        ("attrs", attrs),
    ]
}

fn chunkings(len: usize, seed: u64) -> Vec<Option<Vec<usize>>> {
    let mut rng = Rng::new(seed);
    let mut all = vec![None];
    for size in [1, 2, 3, 7, 64, 1000] {
        all.push(Some((size..len).step_by(size).collect()));
    }
    for _ in 0..3 {
        all.push(Some(random_cuts(&mut rng, len)));
    }
    all
}

#[test]
fn stored_and_dropped_add_up_to_every_error_under_every_chunking() {
    for (name, input) in inputs() {
        let all = uncapped(&input);
        assert!(all.len() > 100, "{name}: only {} errors", all.len());
        for cap in [0, 1, 5, 100, all.len() - 1, all.len(), usize::MAX] {
            let options = Options::new().errors(true).max_errors(cap);
            for cuts in chunkings(input.len(), cap as u64) {
                let (stored, dropped) = run(&input, &options, cuts.as_deref(), Take::AtEnd);
                let what = format!("{name}, cap {cap}, cuts {:?}", cuts.as_ref().map(Vec::len));
                // Without taking, the stored errors are the stream's first.
                assert_eq!(stored, all[..cap.min(all.len())], "{what}");
                assert_eq!(
                    stored.len() as u64 + dropped.total(),
                    all.len() as u64,
                    "{what}"
                );
                let mut counts = by_code(&stored);
                for (code, n) in dropped.iter() {
                    *counts.entry(code).or_default() += n;
                }
                assert_eq!(counts, by_code(&all), "{what}: counts by code");
            }
        }
    }
}

#[test]
fn draining_between_tokens_sees_every_error_with_a_small_cap() {
    for (name, input) in inputs() {
        if matches!(name, "nul-text" | "nul-tag-name" | "unterminated" | "attrs") {
            continue; // one token brings them all: more than a small cap, by design
        }
        let all = uncapped(&input);
        let options = Options::new().errors(true).max_errors(8);
        for cuts in chunkings(input.len(), 7) {
            let (taken, dropped) = run(&input, &options, cuts.as_deref(), Take::EveryToken);
            let what = format!("{name}, cuts {:?}", cuts.as_ref().map(Vec::len));
            assert_eq!(taken, all, "{what}");
            assert_eq!(dropped.total(), 0, "{what}");
        }
    }
}

#[test]
fn input_stream_errors_are_found_as_the_tokens_come_not_for_the_whole_chunk() {
    // 20,000 control characters in 10,000 tokens, fed as one chunk, drained after every token
    // under a cap of 2: every one is seen, none dropped.
    let input = b"<p>\x01\x02".repeat(5000);
    let all = uncapped(&input);
    assert_eq!(all.len(), 10_000);
    let options = Options::new().errors(true).max_errors(2);
    let (taken, dropped) = run(&input, &options, Some(&[]), Take::EveryToken);
    assert_eq!((taken, dropped.total()), (all, 0));
}

#[test]
fn draining_per_feed_sees_every_error_of_a_storm_fed_in_small_chunks() {
    let input = [vec![0; 5000], b"<a".to_vec(), vec![0; 5000], b">".to_vec()].concat();
    let all = uncapped(&input);
    assert_eq!(all.len(), 10_000);
    let options = Options::new().errors(true).max_errors(64);
    let mut tokenizer = Tokenizer::new(options);
    let mut taken = Vec::new();
    for chunk in input.chunks(32) {
        tokenizer.feed(chunk).for_each(drop);
        taken.extend(tokenizer.drain_errors());
    }
    tokenizer.finish().for_each(drop);
    taken.extend(tokenizer.drain_errors());
    assert_eq!((taken, tokenizer.dropped_errors().total()), (all, 0));
}

#[test]
fn the_default_cap_stores_the_first_65536() {
    let input = vec![0; 100_000];
    let mut tokenizer = Tokenizer::new(Options::new().errors(true));
    assert_eq!(tokenizer.tokenize(&input).count(), 1);
    assert_eq!(Options::DEFAULT_MAX_ERRORS, 65_536);
    let errors = tokenizer.errors();
    assert_eq!(errors.len(), Options::DEFAULT_MAX_ERRORS);
    assert!(errors.iter().enumerate().all(|(i, e)| e.offset == i));
    let dropped = tokenizer.dropped_errors();
    assert_eq!(dropped.total(), 100_000 - 65_536);
    assert_eq!(
        dropped.iter().collect::<Vec<_>>(),
        [(ErrorCode::UnexpectedNullCharacter, 100_000 - 65_536)]
    );
    // Taking makes room; a reset forgets the count.
    assert_eq!(tokenizer.take_errors().len(), 65_536);
    tokenizer.tokenize(b"<a b b>").for_each(drop);
    assert_eq!(tokenizer.errors().len(), 1);
    assert_eq!(tokenizer.dropped_errors().total(), 0);
}
