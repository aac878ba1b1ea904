//! The members of a `.warc.gz` read in parallel give what the serial reader gives, whatever
//! candidates are false: a stored block holding a gzipped body, bytes between members, a broken,
//! a truncated, a huge member, one member for the whole file, a gzipped WARC record stored in
//! a member.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use flate2::Compression;
use flate2::write::GzEncoder;

use super::{BLOCK, Candidates, Chain, GZIP_MAGIC, MAX_AHEAD, MAX_HELD, MemberRead};
use crate::testutil::response_record;
use crate::{Archive, Entry};

fn gzip(bytes: &[u8], level: Compression) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), level);
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn record(uri: &str, body: &[u8]) -> Vec<u8> {
    response_record(uri, "text/html", body)
}

fn file_of(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tagstream-warc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// An entry as (offset, target URI or why it was skipped, without the decoder's own words in
/// parentheses: bytes that are no member are "invalid gzip header" to the chain, whatever the
/// decoder would say reading them).
fn shape(entry: Entry) -> (Option<u64>, String) {
    match entry {
        Entry::Response(response) => (Some(response.offset()), response.uri().unwrap().to_owned()),
        Entry::Skipped(skipped) => {
            let why = skipped.reason.split(" (").next().unwrap().to_owned();
            (skipped.offset, why)
        }
    }
}

/// What the members of the file at `path` give, read as the CLI reads them (each member up to
/// its limit, confirmed in order by a chain, streamed when too long), and how many were
/// streamed.
fn by_members(path: &Path) -> (Vec<(Option<u64>, String)>, usize) {
    let file = File::open(path).unwrap();
    let len = file.metadata().unwrap().len();
    let mut chain = Chain::default();
    let (mut entries, mut again) = (Vec::new(), 0);
    for member in Candidates::new(Arc::new(File::open(path).unwrap())) {
        let member = member.unwrap();
        if !chain.starts_member(member.start) {
            continue;
        }
        match member.read(&file) {
            MemberRead::TooLong => {
                again += 1;
                entries.extend(chain.gap_before(member.start).map(Entry::Skipped));
                let mut stream = member.stream(&file);
                entries.extend(&mut stream);
                chain.ended(stream.end().expect("every entry taken"));
            }
            MemberRead::Read {
                end,
                entries: found,
            } => {
                entries.extend(chain.settle(member.start, end).map(Entry::Skipped));
                entries.extend(found);
            }
        }
    }
    entries.extend(chain.finish(len).map(Entry::Skipped));
    (entries.into_iter().map(shape).collect(), again)
}

fn serially(path: &Path) -> Vec<(Option<u64>, String)> {
    Archive::new(path).map(shape).collect()
}

/// Incompressible bytes of a given length (stored, not deflated, by gzip).
fn noise(len: usize, seed: u32) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

#[test]
fn false_candidates_inside_members_are_dropped_and_the_rest_read_as_serially() {
    // A body that is itself gzip, stored as is: its magic bytes are a false candidate.
    let inner = gzip(&noise(5000, 7), Compression::best());
    let broken = {
        let mut broken = gzip(
            &record("https://d.example/", &noise(3000, 3)),
            Compression::default(),
        );
        let middle = broken.len() / 2;
        broken[middle..middle + 8]
            .iter_mut()
            .for_each(|b| *b ^= 0x5a);
        broken
    };
    let truncated = gzip(
        &record("https://f.example/", b"<p>f"),
        Compression::default(),
    );
    let members = [
        gzip(
            &record("https://a.example/", b"<a href=/a>"),
            Compression::default(),
        ),
        gzip(&record("https://b.example/", &inner), Compression::none()),
        b"garbage between members".to_vec(),
        gzip(
            &record("https://c.example/", b"<p>c"),
            Compression::default(),
        ),
        broken,
        gzip(
            &record("https://e.example/", b"<p>e"),
            Compression::default(),
        ),
        truncated[..truncated.len() - 12].to_vec(),
    ];
    let bytes = members.concat();
    assert!(memchr::memmem::find_iter(&bytes, GZIP_MAGIC).count() > 6);
    let path = file_of("false.warc.gz", &bytes);
    let (entries, again) = by_members(&path);
    // The gzipped body is told apart from a member: the member holding it is read at once.
    assert_eq!(again, 0);
    assert_eq!(entries, serially(&path));
    let found: Vec<&str> = entries.iter().map(|(_, what)| what.as_str()).collect();
    assert_eq!(
        found,
        [
            "https://a.example/",
            "https://b.example/",
            "broken gzip member",
            "https://c.example/",
            "broken gzip member",
            "https://e.example/",
            "broken gzip member",
        ]
    );
    // Bytes after the last member that no member holds are reported too.
    let mut trailing = members[..2].concat();
    let last = trailing.len() as u64;
    trailing.extend_from_slice(b"\0\0\0");
    let path = file_of("trailing.warc.gz", &trailing);
    let (entries, _) = by_members(&path);
    assert_eq!(entries, serially(&path));
    assert_eq!(entries.last().unwrap().0, Some(last));
}

#[test]
fn a_member_past_its_limit_is_read_again_whole() {
    // One member for the whole file, longer than MAX_AHEAD compressed.
    let records: Vec<Vec<u8>> = (0..3)
        .map(|i| {
            let body = noise(MAX_AHEAD as usize / 2, i + 1);
            record(&format!("https://w.example/{i}"), &body)
        })
        .collect();
    let whole = gzip(&records.concat(), Compression::none());
    let path = file_of("whole.warc.gz", &whole);
    let (entries, again) = by_members(&path);
    assert_eq!(entries, serially(&path));
    assert_eq!(entries.len(), 3);
    assert!(again >= 1);
    // A gzipped WARC record as a body, stored as is: a candidate that looks like a member, cuts
    // the member holding it short, and is dropped once that member is read again.
    let inner = gzip(
        &record("https://inner.example/", b"<p>in"),
        Compression::best(),
    );
    let archive = [
        gzip(
            &record("https://outer.example/", &inner),
            Compression::none(),
        ),
        gzip(
            &record("https://next.example/", b"<p>next"),
            Compression::default(),
        ),
    ]
    .concat();
    let path = file_of("inner.warc.gz", &archive);
    let (entries, again) = by_members(&path);
    assert_eq!(entries, serially(&path));
    let uris: Vec<&str> = entries.iter().map(|(_, uri)| uri.as_str()).collect();
    assert_eq!(uris, ["https://outer.example/", "https://next.example/"]);
    assert_eq!(again, 1);
}

#[test]
fn a_broken_member_gives_only_its_break_unless_longer_than_what_is_held() {
    // Members held whole: a break is all a broken one gives, even with whole records before it
    // (one member for a whole file past MAX_AHEAD, cut short in its third record).
    let records: Vec<Vec<u8>> = (0..3)
        .map(|i| {
            let body = noise(MAX_AHEAD as usize / 2, i + 11);
            record(&format!("https://c.example/{i}"), &body)
        })
        .collect();
    let whole = gzip(&records.concat(), Compression::none());
    let cut = &whole[..whole.len() - MAX_AHEAD as usize / 4];
    let path = file_of("cut.warc.gz", cut);
    let (entries, streamed) = by_members(&path);
    assert_eq!(entries, serially(&path));
    assert_eq!(streamed, 1);
    let uris: Vec<&str> = entries.iter().map(|(_, uri)| uri.as_str()).collect();
    assert_eq!(uris, ["broken gzip member"]);
    // Longer than MAX_HELD inflated: the records inflated before the break come out first.
    let quarter = MAX_HELD as usize * 3 / 8;
    let records: Vec<Vec<u8>> = (0..4)
        .map(|i| record(&format!("https://l.example/{i}"), &vec![b' '; quarter]))
        .collect();
    let whole = gzip(&records.concat(), Compression::best());
    let cut = &whole[..whole.len() * 7 / 8];
    let path = file_of("long-cut.warc.gz", cut);
    let (entries, _) = by_members(&path);
    assert_eq!(entries, serially(&path));
    let uris: Vec<&str> = entries.iter().map(|(_, uri)| uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "https://l.example/0",
            "https://l.example/1",
            "https://l.example/2",
            "broken gzip member"
        ]
    );
}

#[test]
fn a_member_that_inflates_past_what_is_held_is_streamed() {
    // A few hundred kilobytes that inflate to more than MAX_HELD: read ahead, it is too long
    // to hold; streamed, it is one record, then a second member after it.
    let bomb = record("https://z.example/", &vec![b' '; MAX_HELD as usize + 1]);
    let archive = [
        gzip(&bomb, Compression::best()),
        gzip(
            &record("https://after.example/", b"<p>"),
            Compression::default(),
        ),
    ]
    .concat();
    assert!(archive.len() < MAX_AHEAD as usize);
    let path = file_of("bomb.warc.gz", &archive);
    let (entries, streamed) = by_members(&path);
    assert_eq!(entries, serially(&path));
    assert_eq!(streamed, 1);
    let uris: Vec<&str> = entries.iter().map(|(_, uri)| uri.as_str()).collect();
    assert_eq!(uris, ["https://z.example/", "https://after.example/"]);
}

#[test]
fn candidates_straddling_blocks_are_found_once() {
    for at in [BLOCK - 2, BLOCK - 1, BLOCK, 2 * BLOCK - 100] {
        let member = gzip(b"WARC/1.0\r\n", Compression::default());
        let mut bytes = vec![0; 2 * BLOCK + 10];
        bytes[at..at + member.len()].copy_from_slice(&member);
        bytes[5..5 + member.len()].copy_from_slice(&member);
        // The magic bytes alone are no candidate: no member starts there.
        bytes[100..103].copy_from_slice(GZIP_MAGIC);
        let path = file_of("straddle.bin", &bytes);
        let starts: Vec<u64> = Candidates::new(Arc::new(File::open(&path).unwrap()))
            .map(|member| member.unwrap().start)
            .collect();
        assert_eq!(starts, [5, at as u64], "a member at {at}");
    }
}
