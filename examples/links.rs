//! Print every link of an HTML page read from a `std::io::Read` in chunks, resolved against a page
//! URL: `cargo run --example links -- https://example.com/dir/ < page.html`.
//!
//! The page never has to fit in memory: each chunk is fed to the tokenizer, every token goes
//! into a `LinkExtractor`, and links are printed as soon as their resolution is final (at once
//! after a `<base href>`, otherwise at the end of the page).

use std::io::{self, Read, Write};

use tagstream::Tokenizer;
use tagstream::extract::{Link, LinkExtractor, Url};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let page = std::env::args()
        .nth(1)
        .map(|u| Url::parse(&u))
        .transpose()?;
    let mut extractor = LinkExtractor::new(page);
    let mut tokenizer = Tokenizer::default();
    let mut input = io::stdin().lock();
    let mut out = io::stdout().lock();
    let mut chunk = vec![0; 16 * 1024];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        for token in tokenizer.feed(&chunk[..n]) {
            extractor.push(&token);
        }
        for link in extractor.drain_ready() {
            print_link(&mut out, &link)?;
        }
    }
    for token in tokenizer.finish() {
        extractor.push(&token);
    }
    for link in extractor.finish() {
        print_link(&mut out, &link)?;
    }
    Ok(())
}

/// `resolved-or-as-written <TAB> element[attribute] <TAB> start..end`
fn print_link(out: &mut impl Write, link: &Link) -> io::Result<()> {
    let url = link
        .resolved
        .as_ref()
        .map_or(link.url.as_str(), Url::as_str);
    let span = link.span;
    let (element, attribute) = (link.element, link.attribute);
    writeln!(
        out,
        "{url}\t{element}[{attribute}]\t{}..{}",
        span.start, span.end
    )
}
