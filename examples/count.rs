//! Count the tokens of a document streamed from standard input in 64 KiB chunks, with memory
//! limits set: the shape of a crawler's loop, and what `perf/rss.sh` measures peak memory with.
//!
//! ```sh
//! cargo run --release --example count < datasets/samples/article.html
//! ```
//!
//! Prints bytes and tokens by kind; stops with exit status 2 if the document runs into a limit.

use std::io::{self, Read};
use std::process::ExitCode;

use tagstream::{Options, Token, Tokenizer};

/// Bytes read and fed at a time.
const CHUNK: usize = 64 * 1024;
/// The longest unfinished token carried from one chunk to the next.
const MAX_CARRY: usize = 1 << 20;
/// The most the arena (attribute lists, decoded strings) may hold between two feeds.
const MAX_ARENA: usize = 4 << 20;

/// Tokens seen, by kind: start tags, end tags, text, comments, DOCTYPEs, processing instructions.
#[derive(Default, Debug)]
struct Counts([u64; 6]);

impl Counts {
    fn add(&mut self, token: &Token<'_>) {
        let i = match token {
            Token::StartTag(_) => 0,
            Token::EndTag(_) => 1,
            Token::Text(_) => 2,
            Token::Comment(_) => 3,
            Token::Doctype(_) => 4,
            Token::ProcessingInstruction(_) => 5,
            // Only a tokenizer with `Options::lossless` hands these out.
            Token::Raw(_) => return,
        };
        self.0[i] += 1;
    }
}

fn main() -> ExitCode {
    let options = Options::new().max_carry(MAX_CARRY).max_arena(MAX_ARENA);
    let mut tokenizer = Tokenizer::new(options);
    let mut counts = Counts::default();
    let mut buf = vec![0; CHUNK];
    let mut stdin = io::stdin().lock();
    let mut bytes = 0u64;
    loop {
        let n = match stdin.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                eprintln!("count: cannot read standard input: {e}");
                return ExitCode::from(1);
            }
        };
        bytes += n as u64;
        tokenizer.feed(&buf[..n]).for_each(|t| counts.add(&t));
    }
    tokenizer.finish().for_each(|t| counts.add(&t));
    let [start, end, text, comment, doctype, pi] = counts.0;
    println!(
        "bytes {bytes} start_tags {start} end_tags {end} text {text} comments {comment} \
         doctypes {doctype} processing_instructions {pi}"
    );
    match tokenizer.limit_error() {
        Some(error) => {
            eprintln!("count: {error}");
            ExitCode::from(2)
        }
        None => ExitCode::SUCCESS,
    }
}
