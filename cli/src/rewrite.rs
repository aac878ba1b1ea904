//! `tagstream rewrite` and `tagstream serialize`: a document written back out, byte for byte
//! except where asked ([`tagstream::write::Rewriter`]), or normalized from its tokens
//! ([`tagstream::write::Serializer`]).

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use tagstream::encoding::{DecodedTokens, Transcoder};
use tagstream::extract::{LinkExtractor, Url};
use tagstream::write::{
    Encode, Markup, Quote, QuoteAttrValues, Rewrite, Rewriter, Serializer, SerializerOptions,
    WriteError,
};
use tagstream::{Options, Token};

use crate::cli::encoding::{EncodingArgs, Fallback};
use crate::{CliError, Dialect, input_name, open_input, parse_chunk_size, read_chunk};

/// Arguments of `tagstream rewrite`.
#[derive(Args, Debug)]
pub(crate) struct RewriteArgs {
    /// The document to read, or `-` for standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    input: PathBuf,

    /// The markup language: `html` or `xml5`. With xml5, `--default-encoding auto` is XML's own
    /// default, UTF-8 (a BOM or the XML declaration decides first); a label replaces it.
    #[arg(long, value_enum, value_name = "DIALECT", default_value_t = Dialect::Html)]
    dialect: Dialect,

    /// Leave out every comment.
    #[arg(long)]
    strip_comments: bool,

    /// Leave out every element with this name, with its content (repeatable). Raw text elements
    /// (script, style, title, …) end where the tokenizer ends them; other elements at their end
    /// tag, counting the elements of the same name inside them.
    #[arg(long, value_name = "NAME")]
    remove_element: Vec<String>,

    /// Resolve every URL attribute `tagstream links` knows against this URL and the
    /// document's `<base href>` (from where it appears on), and write it absolute. Everything else
    /// is left as it is. HTML only.
    #[arg(long, value_name = "BASE")]
    absolutize_links: Option<Url>,

    /// Bytes read and rewritten at a time [default: 65536].
    #[arg(long, value_name = "N", value_parser = parse_chunk_size)]
    chunk_size: Option<usize>,

    #[command(flatten)]
    encoding: EncodingArgs,
}

/// Arguments of `tagstream serialize`.
#[derive(Args, Debug)]
pub(crate) struct SerializeArgs {
    /// The HTML document to read, or `-` for standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    input: PathBuf,

    /// Leave out the start and end tags the HTML Standard lets a document omit (§13.1.2.4).
    #[arg(long)]
    omit_optional_tags: bool,

    /// When to quote attribute values: `spec` (when the unquoted syntax cannot hold the value),
    /// `always`, or `legacy` (html5lib's wider rule).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = QuoteWhen::Spec)]
    quote_attr_values: QuoteWhen,

    /// The quote character: `double` or `single`.
    #[arg(long, value_enum, value_name = "QUOTE", default_value_t = QuoteChar::Double)]
    quote_char: QuoteChar,

    /// Use the other quote character for a value that holds only the preferred one.
    #[arg(long)]
    use_best_quote_char: bool,

    /// Write boolean attributes (`checked`, `disabled`, …) as their name alone.
    #[arg(long)]
    minimize_boolean_attributes: bool,

    /// Write `/` before the `>` of void elements.
    #[arg(long)]
    use_trailing_solidus: bool,

    /// With --use-trailing-solidus: a space before the `/`.
    #[arg(long)]
    space_before_trailing_solidus: bool,

    /// Escape `<` in attribute values.
    #[arg(long)]
    escape_lt_in_attrs: bool,

    /// Escape `&`, `<` and `>` in RCDATA (title, textarea).
    #[arg(long)]
    escape_rcdata: bool,

    /// Collapse whitespace in text outside pre, textarea and raw text elements.
    #[arg(long)]
    strip_whitespace: bool,

    /// Declare this encoding in a `<meta charset>` in the head (the output is UTF-8 bytes).
    #[arg(long, value_name = "LABEL")]
    inject_meta_charset: Option<String>,

    /// Write each start tag's attributes in alphabetical order.
    #[arg(long)]
    alphabetical_attributes: bool,

    /// Write tokens that would not read back as themselves changed (as the library's
    /// `SerializerOptions::lossy` says) instead of stopping with an error.
    #[arg(long)]
    lossy: bool,

    /// Follow html5lib-tests' serializer where today's standard differs.
    #[arg(long)]
    html5lib_compat: bool,

    /// Bytes read at a time [default: 65536].
    #[arg(long, value_name = "N", value_parser = parse_chunk_size)]
    chunk_size: Option<usize>,

    #[command(flatten)]
    encoding: EncodingArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum QuoteWhen {
    Spec,
    Always,
    Legacy,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum QuoteChar {
    Double,
    Single,
}

/// Why a rewrite or serialization stopped.
fn write_error(e: WriteError) -> CliError {
    match e {
        WriteError::Io(e) => CliError::Output(e),
        refused => CliError::Refused(refused.to_string()),
    }
}

/// `tagstream rewrite`.
pub(crate) fn rewrite(args: &RewriteArgs, out: impl Write) -> Result<(), CliError> {
    let name = input_name(&args.input);
    let mut input = open_input(&args.input).map_err(|source| CliError::Input {
        name: name.clone(),
        source,
    })?;
    let mut edits = Edits {
        strip: args.remove_element.clone(),
        links: args
            .absolutize_links
            .clone()
            .map(|base| LinkExtractor::new(Some(base))),
    };
    let options = Options::new().lossless(true);
    let mut rewriter = Rewriter::new(out).strip_comments(args.strip_comments);
    let mut chunks = Chunks {
        input: &mut *input,
        name: &name,
        buf: vec![0; args.chunk_size.unwrap_or(64 * 1024)],
    };
    // Decoded from the input's encoding; the rewriter writes the input's own bytes back.
    match args.dialect {
        Dialect::Html => {
            let mut tokenizer = args.encoding.transcoder(options, None, true);
            while let Some(chunk) = chunks.next()? {
                edits.apply(rewriter.rewrite(tokenizer.feed(chunk)))?;
            }
            edits.apply(rewriter.rewrite(tokenizer.finish()))?;
        }
        Dialect::Xml5 => {
            let mut tokenizer = Transcoder::xml5(options).map_offsets(true);
            if let Some(encoding) = args.encoding.encoding {
                tokenizer = tokenizer.known_encoding(encoding);
            }
            if let Fallback::Label(encoding) = args.encoding.default_encoding {
                tokenizer = tokenizer.default_encoding(encoding);
            }
            while let Some(chunk) = chunks.next()? {
                edits.apply(rewriter.rewrite(tokenizer.feed(chunk)))?;
            }
            edits.apply(rewriter.rewrite(tokenizer.finish()))?;
        }
    }
    rewriter.finish().map_err(write_error)?;
    Ok(())
}

/// The input in chunks of a fixed size.
struct Chunks<'a> {
    input: &'a mut dyn Read,
    name: &'a str,
    buf: Vec<u8>,
}

impl Chunks<'_> {
    /// The next chunk, `None` at the end of the input.
    fn next(&mut self) -> Result<Option<&[u8]>, CliError> {
        let n = read_chunk(self.input, &mut self.buf).map_err(|source| CliError::Input {
            name: self.name.to_owned(),
            source,
        })?;
        Ok((n > 0).then(|| &self.buf[..n]))
    }
}

/// What `rewrite`'s options ask of each token.
struct Edits {
    /// Elements to remove, by name.
    strip: Vec<String>,
    /// With --absolutize-links: what finds the links and knows the base URL so far.
    links: Option<LinkExtractor>,
}

impl Edits {
    /// Decide every token of one feed.
    fn apply<'t, W: Write, T: Markup<'t>>(
        &mut self,
        mut rewrite: Rewrite<'_, 't, W, T>,
    ) -> Result<(), CliError> {
        // The link finder follows every token; element removal looks at start tags; with
        // neither, every token is passed without being handed out.
        let every = self.links.is_some();
        let tags = !self.strip.is_empty();
        let wanted = |token: &Token<'t>| every || (tags && matches!(token, Token::StartTag(_)));
        while let Some(token) = rewrite.next_where(wanted).map_err(write_error)? {
            if let Token::StartTag(tag) = token
                && self.strip.iter().any(|n| n == tag.name())
            {
                // Its links are never seen: the element is not in the output.
                rewrite.remove_element().map_err(write_error)?;
            } else if let Some(links) = &mut self.links {
                rewrite.absolutize_links(links).map_err(write_error)?;
            }
        }
        Ok(())
    }
}

/// `tagstream serialize`.
pub(crate) fn serialize(args: &SerializeArgs, out: impl Write) -> Result<(), CliError> {
    let name = input_name(&args.input);
    let mut input = open_input(&args.input).map_err(|source| CliError::Input {
        name: name.clone(),
        source,
    })?;
    let mut tokenizer = args.encoding.transcoder(Options::default(), None, false);
    let mut chunks = Chunks {
        input: &mut *input,
        name: &name,
        buf: vec![0; args.chunk_size.unwrap_or(64 * 1024)],
    };
    let mut writing = Writing {
        waiting: Some((out, serializer_options(args))),
        serializer: None,
    };
    while let Some(chunk) = chunks.next()? {
        writing.write(tokenizer.feed(chunk))?;
    }
    writing.write(tokenizer.finish())?;
    if let Some(mut serializer) = writing.serializer {
        serializer.finish().map_err(write_error)?;
        let encoded = serializer.into_inner();
        encoded
            .into_inner()
            .map_err(|e| write_error(WriteError::Io(e)))?;
    }
    Ok(())
}

/// `serialize`'s output: the output and options while the input's encoding is not decided yet
/// (no token comes before), then the serializer writing in it.
struct Writing<W: Write> {
    waiting: Option<(W, SerializerOptions)>,
    serializer: Option<Serializer<Encode<W>>>,
}

impl<W: Write> Writing<W> {
    /// Write the tokens of one feed.
    fn write(&mut self, mut tokens: DecodedTokens<'_>) -> Result<(), CliError> {
        if let Some(encoding) = tokens.encoding()
            && let Some((mut out, options)) = self.waiting.take()
        {
            // UTF-16 is only read as UTF-16 after its byte order mark (or when named).
            let bom: &[u8] = match encoding.name() {
                "UTF-16LE" => b"\xFF\xFE",
                "UTF-16BE" => b"\xFE\xFF",
                _ => b"",
            };
            out.write_all(bom)
                .map_err(|e| write_error(WriteError::Io(e)))?;
            self.serializer = Some(Serializer::new(Encode::new(out, encoding), options));
        }
        let Some(serializer) = &mut self.serializer else {
            return Ok(());
        };
        for token in &mut tokens {
            serializer.write_token(&token).map_err(write_error)?;
        }
        Ok(())
    }
}

fn serializer_options(args: &SerializeArgs) -> SerializerOptions {
    SerializerOptions::new()
        .omit_optional_tags(args.omit_optional_tags)
        .quote_attr_values(match args.quote_attr_values {
            QuoteWhen::Spec => QuoteAttrValues::Spec,
            QuoteWhen::Always => QuoteAttrValues::Always,
            QuoteWhen::Legacy => QuoteAttrValues::Legacy,
        })
        .quote_char(match args.quote_char {
            QuoteChar::Double => Quote::Double,
            QuoteChar::Single => Quote::Single,
        })
        .use_best_quote_char(args.use_best_quote_char)
        .minimize_boolean_attributes(args.minimize_boolean_attributes)
        .use_trailing_solidus(args.use_trailing_solidus)
        .space_before_trailing_solidus(args.space_before_trailing_solidus)
        .escape_lt_in_attrs(args.escape_lt_in_attrs)
        .escape_rcdata(args.escape_rcdata)
        .strip_whitespace(args.strip_whitespace)
        .inject_meta_charset(args.inject_meta_charset.as_deref())
        .alphabetical_attributes(args.alphabetical_attributes)
        .lossy(args.lossy)
        .html5lib_compat(args.html5lib_compat)
}
