//! `tagstream links`: every URL each page references (see [`tagstream::extract::LinkExtractor`]).

use clap::Args;
use serde::Serialize;
use tagstream::extract::{Link, LinkExtractor, Url};
use tagstream::{Options, Tokenizer};

use super::inputs::Document;
use super::{Command, InputArgs, Origin, json_line};

/// Arguments of `tagstream links`.
#[derive(Args, Debug)]
pub(crate) struct LinksArgs {
    #[command(flatten)]
    pub(crate) inputs: InputArgs,

    /// The page URL relative links resolve against (a WARC record's WARC-Target-URI takes its
    /// place); without it, only absolute URLs and those under an absolute <base href> resolve.
    #[arg(long, value_name = "URL")]
    base: Option<Url>,
}

/// One link as a JSON line.
#[derive(Serialize)]
struct LinkLine<'a> {
    #[serde(flatten)]
    origin: Origin<'a>,
    element: &'a str,
    attribute: &'a str,
    url: &'a str,
    resolved: Option<&'a str>,
    span: [usize; 2],
    in_template: bool,
}

/// The `links` command.
pub(crate) struct Links<'a> {
    args: &'a LinksArgs,
}

impl<'a> Links<'a> {
    pub(crate) fn new(args: &'a LinksArgs) -> Links<'a> {
        Links { args }
    }

    fn write(&self, document: &Document<'_>, link: &Link, out: &mut Vec<u8>) {
        let resolved = link.resolved.as_ref().map(Url::as_str);
        if self.args.inputs.plain {
            out.extend_from_slice(resolved.unwrap_or(&link.url).as_bytes());
            out.push(b'\n');
            return;
        }
        let line = LinkLine {
            origin: Origin::of(document),
            element: link.element,
            attribute: link.attribute,
            url: &link.url,
            resolved,
            span: [link.span.start, link.span.end],
            in_template: link.in_template,
        };
        json_line(out, &line);
    }
}

impl Command for Links<'_> {
    type Totals = ();

    fn options(&self) -> Options {
        Options::new().scripting(self.args.inputs.scripting)
    }

    fn document(
        &self,
        tokenizer: &mut Tokenizer,
        document: &Document<'_>,
        _: &mut (),
        out: &mut Vec<u8>,
    ) {
        let record_url = document.url.and_then(|url| Url::parse(url).ok());
        let mut extractor = LinkExtractor::new(record_url.or_else(|| self.args.base.clone()));
        for token in tokenizer.tokenize(document.html) {
            extractor.push(&token);
        }
        for link in extractor.finish() {
            self.write(document, &link, out);
        }
    }
}
