//! The writing subjects of the HTML race: tagstream's rewriter passing every byte through and
//! absolutizing links, lol_html doing the same with element handlers, and tagstream's
//! serializer. Each writes into a [`Count`] sink: the output is counted, not kept.

use std::io::{self, Write};

use lol_html::{HtmlRewriter, Settings, element};
use tagstream::extract::{LinkExtractor, Url};
use tagstream::write::{Rewriter, Serializer, SerializerOptions};
use tagstream::{Options, Tokenizer};

use crate::corpus::Corpus;
use crate::subjects::{Outcome, Subject};

/// The page URL every page's links resolve against in the absolutizing subjects.
pub const BASE: &str = "https://example.com/dir/page.html";

/// Build a writing subject by name.
pub fn make(name: &str) -> Option<Box<dyn Subject>> {
    Some(match name {
        "tagstream-passthrough" => Box::new(TagstreamPassthrough),
        "tagstream-rewrite" => Box::new(TagstreamRewrite { absolutize: false }),
        "tagstream-absolutize" => Box::new(TagstreamRewrite { absolutize: true }),
        "lol_html-absolutize" => Box::new(LolAbsolutize),
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
        let mut tokenizer = Tokenizer::new(Options::new().lossless(true));
        let base = Url::parse(BASE).ok();
        let mut out = Outcome::default();
        for page in &corpus.pages {
            let mut rewriter = Rewriter::new(Count::default());
            let ok = {
                let mut rewrite = rewriter.rewrite(tokenizer.tokenize(&page.bytes));
                let mut links = self.absolutize.then(|| LinkExtractor::new(base.clone()));
                loop {
                    match rewrite.next() {
                        Ok(Some(_)) => {}
                        Ok(None) => break true,
                        Err(_) => break false,
                    }
                    if let Some(links) = &mut links
                        && rewrite.absolutize_links(links).is_err()
                    {
                        break false;
                    }
                }
            };
            match rewriter.finish() {
                Ok(count) if ok => out.checksum += count.0,
                _ => out.errors += 1,
            }
        }
        out
    }
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

struct LolAbsolutize;

impl Subject for LolAbsolutize {
    fn run(&mut self, corpus: &Corpus) -> Outcome {
        let mut out = Outcome::default();
        for page in &corpus.pages {
            let mut output = 0u64;
            let ok = lol_absolutize(&page.bytes, |c| output += c.len() as u64);
            out.checksum += output;
            out.errors += u64::from(!ok);
        }
        out
    }
}

/// Rewrite `page` with lol_html, URL attributes resolved; the output goes to `sink`. `false`
/// when lol_html bailed out.
pub fn lol_absolutize(page: &[u8], sink: impl FnMut(&[u8])) -> bool {
    let page_url = Url::parse(BASE).expect("base");
    let base = std::cell::RefCell::new(page_url.clone());
    let seen_base = std::cell::Cell::new(false);
    let settings = Settings::new()
        .with_strict(false)
        .append_element_content_handler(element!("base[href]", |el| {
            if !seen_base.replace(true)
                && let Some(href) = el.get_attribute("href")
                && let Ok(url) = page_url.join(&href)
            {
                el.set_attribute("href", url.as_str())?;
                *base.borrow_mut() = url;
            }
            Ok(())
        }))
        .append_element_content_handler(element!(
            "[href]:not(base), [src], [action], [data], [poster]",
            |el| {
                for name in ["href", "src", "action", "data", "poster"] {
                    if let Some(value) = el.get_attribute(name)
                        && let Ok(url) = base.borrow().join(value.trim())
                    {
                        el.set_attribute(name, url.as_str())?;
                    }
                }
                Ok(())
            }
        ))
        .append_element_content_handler(element!("[srcset]", |el| {
            if let Some(value) = el.get_attribute("srcset") {
                let resolved: Vec<String> = value
                    .split(',')
                    .map(|candidate| {
                        let candidate = candidate.trim();
                        let (url, descriptor) =
                            candidate.split_once(' ').unwrap_or((candidate, ""));
                        match base.borrow().join(url) {
                            Ok(u) if descriptor.is_empty() => u.to_string(),
                            Ok(u) => format!("{u} {descriptor}"),
                            Err(_) => candidate.to_owned(),
                        }
                    })
                    .collect();
                el.set_attribute("srcset", &resolved.join(", "))?;
            }
            Ok(())
        }));
    let mut rewriter = HtmlRewriter::new(settings, sink);
    rewriter.write(page).is_ok() && rewriter.end().is_ok()
}
