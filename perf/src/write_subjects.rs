//! The writing subjects of the HTML race: tagstream's rewriter passing every byte through and
//! absolutizing links, lol_html doing the same with element handlers, and tagstream's
//! serializer. Each writes into a [`Count`] sink: the output is counted, not kept.

use std::io::{self, Write};

use tagstream::extract::{LinkExtractor, Url};
use tagstream::write::{Rewriter, Serializer, SerializerOptions, WriteError};
use tagstream::{Options, Tokenizer};

use crate::corpus::Corpus;
use crate::lol_absolutize::LolAbsolutizer;
use crate::subjects::{Outcome, Subject};

/// The page URL every page's links resolve against in the absolutizing subjects.
pub const BASE: &str = "https://example.com/dir/page.html";

/// Build a writing subject by name.
pub fn make(name: &str) -> Option<Box<dyn Subject>> {
    Some(match name {
        "tagstream-passthrough" => Box::new(TagstreamPassthrough),
        "tagstream-rewrite" => Box::new(TagstreamRewrite { absolutize: false }),
        "tagstream-absolutize" => Box::new(TagstreamRewrite { absolutize: true }),
        "lol_html-absolutize" => Box::new(LolAbsolutize(LolAbsolutizer::new())),
        "tagstream-serialize" => Box::new(TagstreamSerialize),
        _ => return None,
    })
}

/// A sink that counts what is written.
#[derive(Default)]
pub struct Count(pub u64);

impl Write for Count {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The rewriter wanting no token (`next_where` turning every token down): lol_html with no
/// handlers, in tagstream's terms.
struct TagstreamPassthrough;

impl Subject for TagstreamPassthrough {
    fn run(&mut self, corpus: &Corpus) -> Outcome {
        let mut tokenizer = Tokenizer::new(Options::new().lossless(true));
        let mut out = Outcome::default();
        for page in &corpus.pages {
            let mut rewriter = Rewriter::new(Count::default());
            let ok = rewriter
                .rewrite(tokenizer.tokenize(&page.bytes))
                .next_where(|_| false)
                .is_ok();
            match rewriter.finish() {
                Ok(count) if ok => out.checksum += count.0,
                _ => out.errors += 1,
            }
        }
        out
    }
}

struct TagstreamRewrite {
    absolutize: bool,
}

impl Subject for TagstreamRewrite {
    fn run(&mut self, corpus: &Corpus) -> Outcome {
        let mut tokenizer = Tokenizer::new(rewrite_options(self.absolutize));
        let base = Url::parse(BASE).ok();
        let mut out = Outcome::default();
        for page in &corpus.pages {
            let links = self.absolutize.then(|| LinkExtractor::new(base.clone()));
            match rewrite_page(&mut tokenizer, &page.bytes, links, Count::default()) {
                Ok(count) => out.checksum += count.0,
                Err(_) => out.errors += 1,
            }
        }
        out
    }
}

/// The tokenizer options of the rewriting subjects: lossless; absolutizing, with the scripting
/// flag on, so that `<noscript>` holds text as lol_html reads it (it has no scripting-off mode)
/// and both rewrite the same links.
pub fn rewrite_options(absolutize: bool) -> Options {
    Options::new().lossless(true).scripting(absolutize)
}

/// Rewrite `page` with tagstream into `out`, every token passed, and with `links` absolutized.
pub fn rewrite_page<W: Write>(
    tokenizer: &mut Tokenizer,
    page: &[u8],
    mut links: Option<LinkExtractor>,
    out: W,
) -> Result<W, WriteError> {
    let mut rewriter = Rewriter::new(out);
    let mut rewrite = rewriter.rewrite(tokenizer.tokenize(page));
    while rewrite.next()?.is_some() {
        if let Some(links) = &mut links {
            rewrite.absolutize_links(links)?;
        }
    }
    drop(rewrite);
    rewriter.finish()
}

struct TagstreamSerialize;

impl Subject for TagstreamSerialize {
    fn run(&mut self, corpus: &Corpus) -> Outcome {
        let mut tokenizer = Tokenizer::default();
        let mut out = Outcome::default();
        for page in &corpus.pages {
            let mut serializer = Serializer::new(Count::default(), SerializerOptions::new());
            let ok = tokenizer
                .tokenize(&page.bytes)
                .all(|token| serializer.write_token(&token).is_ok());
            match serializer.finish() {
                Ok(()) if ok => out.checksum += serializer.get_ref().0,
                _ => out.errors += 1,
            }
        }
        out
    }
}

struct LolAbsolutize(LolAbsolutizer);

impl Subject for LolAbsolutize {
    fn run(&mut self, corpus: &Corpus) -> Outcome {
        let page_url = Url::parse(BASE).expect("base");
        let mut out = Outcome::default();
        for page in &corpus.pages {
            let mut output = 0u64;
            let ok = self
                .0
                .rewrite(&page.bytes, &page_url, |c| output += c.len() as u64);
            out.checksum += output;
            out.errors += u64::from(!ok);
        }
        out
    }
}
