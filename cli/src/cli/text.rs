//! `tagstream text`: the visible text, title and description of each page (see
//! [`tagstream::extract::TextExtractor`]).

use clap::Args;
use serde::Serialize;
use tagstream::Options;
use tagstream::extract::{TextExtractor, TextOptions};

use super::encoding::Done;
use super::inputs::Document;
use super::stream::Broken;
use super::{Command, InputArgs, Origin, json_line};

/// Arguments of `tagstream text`.
#[derive(Args, Debug)]
pub(crate) struct TextArgs {
    #[command(flatten)]
    pub(crate) inputs: InputArgs,

    /// Put a newline at block boundaries (paragraphs, headings, list items, table rows, <br>)
    /// instead of a space.
    #[arg(long)]
    blocks: bool,
}

/// One page's text as a JSON line.
#[derive(Serialize)]
struct TextLine<'a> {
    #[serde(flatten)]
    origin: Origin<'a>,
    title: Option<&'a str>,
    description: Option<&'a str>,
    text: &'a str,
}

/// The `text` command.
pub(crate) struct Text<'a> {
    args: &'a TextArgs,
}

impl<'a> Text<'a> {
    pub(crate) fn new(args: &'a TextArgs) -> Text<'a> {
        Text { args }
    }

    fn text_options(&self) -> TextOptions {
        TextOptions::new()
            .blocks(self.args.blocks)
            .scripting(self.args.inputs.scripting)
    }
}

impl Command for Text<'_> {
    type Totals = ();

    fn options(&self) -> Options {
        self.text_options().tokenizer_options()
    }

    fn document(
        &self,
        document: &mut Document<'_>,
        _: &mut (),
        out: &mut Vec<u8>,
    ) -> Result<Done, Broken> {
        let read = self.args.inputs.read(&self.options(), document, || {
            TextExtractor::new(self.text_options())
        })?;
        let page = read.page.finish();
        if self.args.inputs.plain {
            // The text, then an empty line: documents stay apart even with --blocks.
            out.extend_from_slice(page.text.as_bytes());
            out.extend_from_slice(b"\n\n");
            return Ok(read.done);
        }
        let line = TextLine {
            origin: Origin::of(document),
            title: page.title.as_deref(),
            description: page.description.as_deref(),
            text: &page.text,
        };
        json_line(out, &line);
        Ok(read.done)
    }
}
