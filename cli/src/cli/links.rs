//! `tagstream links`: every URL each page references (see [`tagstream::extract::LinkExtractor`]),
//! with its span in the page's bytes as read, whatever their encoding.

use clap::Args;
use serde::Serialize;
use tagstream::extract::page::LinkPage;
use tagstream::extract::{Link, Url};
use tagstream::{Options, Span};

use super::encoding::Done;
use super::inputs::{Body, Document};
use super::stream::Broken;
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
    /// Byte offsets in the document as read (before decoding).
    span: Option<[usize; 2]>,
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

    /// Write `link`, found at `span` in the document's bytes.
    fn write(&self, document: &Document<'_>, link: &Link, span: Option<Span>, out: &mut Vec<u8>) {
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
            span: span.map(|span| [span.start, span.end]),
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
        document: &mut Document<'_>,
        _: &mut (),
        out: &mut Vec<u8>,
    ) -> Result<Done, Broken> {
        let record_url = document.url.and_then(|url| Url::parse(url).ok());
        let page_url = record_url.or_else(|| self.args.base.clone());
        let streamed = matches!(document.body, Body::Stream(_));
        let read = self.args.inputs.read(&self.options(), document, || {
            LinkPage::new(page_url.clone(), streamed)
        })?;
        let (links, spans) = read.page.finish(&read.transcoder);
        for (link, span) in links.iter().zip(spans) {
            self.write(document, link, span, out);
        }
        Ok(read.done)
    }
}
