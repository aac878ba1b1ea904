//! Print the visible text of an HTML page read from a `std::io::Read` in chunks, one block per
//! line, then its title and meta description: `cargo run --example text < page.html`.
//!
//! The text is written out while the page streams in (`TextExtractor::take_text`), so memory
//! stays bounded by the chunk size and the longest unfinished token.

use std::io::{self, Read, Write};

use tagstream::Tokenizer;
use tagstream::extract::{TextExtractor, TextOptions};

fn main() -> io::Result<()> {
    let options = TextOptions::new().blocks(true);
    let mut extractor = TextExtractor::new(options);
    let mut tokenizer = Tokenizer::new(options.tokenizer_options());
    let mut input = io::stdin().lock();
    let mut out = io::stdout().lock();
    let mut chunk = vec![0; 16 * 1024];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        for token in tokenizer.feed(&chunk[..n]) {
            extractor.push(&token);
        }
        out.write_all(extractor.take_text().as_bytes())?;
    }
    for token in tokenizer.finish() {
        extractor.push(&token);
    }
    let page = extractor.finish();
    writeln!(out, "{}", page.text)?;
    writeln!(out, "title: {}", page.title.unwrap_or_default())?;
    writeln!(out, "description: {}", page.description.unwrap_or_default())
}
