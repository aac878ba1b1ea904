//! `tagstream links`: every URL each page references (see [`tagstream::extract::LinkExtractor`]),
//! with its span in the page's bytes as read, whatever their encoding.

use clap::Args;
use serde::Serialize;
use tagstream::encoding::DecodedTokens;
use tagstream::extract::{Link, LinkExtractor, Url};
use tagstream::{Options, Span, Token};

use super::encoding::{Done, Page};
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

/// The links of one document, and, when it is streamed, their spans in the document's bytes.
struct LinkPage {
    extractor: LinkExtractor,
    /// Streaming: the span of every link found, in order, mapped back to the input's bytes as
    /// soon as it is found ([`LinkExtractor::just_found`]), as a stream forgets the map of what
    /// its tokenizer let go of (the extractor hands the links out only at the end: their base
    /// URL may come later). `None` for a document held whole, whose map is kept to the end.
    spans: Option<Vec<Option<Span>>>,
}

impl Page for LinkPage {
    const MAPS_SPANS: bool = true;

    fn push(&mut self, token: &Token<'_>, tokens: &DecodedTokens<'_>) {
        if let (Token::StartTag(_), Some(encoding)) = (token, tokens.encoding()) {
            self.extractor.set_encoding(encoding);
        }
        self.extractor.push(token);
        if let Some(spans) = &mut self.spans {
            let found = self.extractor.just_found().iter();
            spans.extend(found.map(|link| tokens.original_span(link.span)));
        }
    }
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
        let read = self
            .args
            .inputs
            .read(&self.options(), document, || LinkPage {
                extractor: LinkExtractor::new(page_url.clone()),
                spans: streamed.then(Vec::new),
            })?;
        let LinkPage { extractor, spans } = read.page;
        let links = extractor.finish();
        let spans = spans.unwrap_or_else(|| {
            let map = |link: &Link| read.transcoder.original_span(link.span);
            links.iter().map(map).collect()
        });
        for (link, span) in links.iter().zip(spans) {
            self.write(document, link, span, out);
        }
        Ok(read.done)
    }
}
