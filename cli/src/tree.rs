//! `tagstream tree --dialect xml5`: an XML document's tree through
//! [`tagstream::xml5::tree`] (the XML5 draft's tree construction, namespaces resolved), printed
//! in the xml5lib-tests tree format; with `--xml5lib`, exactly the suite's `#document` block.
//!
//! The input's encoding is decided as XML says ([`sniff_xml`]: a byte order mark, else
//! `--encoding`, else the XML declaration's, else UTF-8); other encodings than UTF-8 are decoded
//! chunk by chunk ([`Utf8Input`]) before the parser, which reads UTF-8.
//!
//! A document that reaches a limit (`--max-depth`, the tokenizer's memory limit, or the
//! entity expansion limits of [`TreeOptions`]: a billion laughs) has its tree printed as far
//! as it goes, and the command fails with exit status 1, saying which limit and where.
//!
//! ```text
//! $ printf '<r xmlns="urn:r"><a x="1">t</a></r>' | tagstream tree --dialect xml5
//! | <{urn:r}r>
//! |   {http://www.w3.org/2000/xmlns/}xmlns="urn:r"
//! |   <{urn:r}a>
//! |     x="1"
//! |     "t"
//! ```

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use encoding_rs::{CoderResult, Decoder, UTF_8};
use tagstream::Options;
use tagstream::encoding::{Encoding, PRESCAN_LEN, sniff_xml};
use tagstream::xml5::tree::{Document, Parser, TreeBuilder, TreeOptions, xml5lib_tree};

use crate::cli::encoding::parse_encoding;
use crate::{CliError, Dialect, input_name, open_input, parse_chunk_size, read_all, read_chunk};

/// The arguments of `tree`.
#[derive(Args, Debug)]
pub(crate) struct TreeArgs {
    /// The XML file to read, or `-` for standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    input: PathBuf,

    /// The markup language: only `xml5` has a tree here (the XML5 draft's tree construction).
    #[arg(long, value_enum, value_name = "DIALECT")]
    dialect: Dialect,

    /// Print exactly an xml5lib-tests `#document` block (the `#document` line, then the tree),
    /// for external runners: the whole input is read, then fed to the parser whole or
    /// --chunk-size bytes at a time.
    #[arg(long)]
    xml5lib: bool,

    /// Also print the parse errors, tokenizer's and tree stage's, to standard error as
    /// `line:col: code` lines.
    #[arg(long)]
    errors: bool,

    /// At most this many elements open at once: deeper input stops the tree there, with an
    /// error message and exit status 1 (the tree so far is printed).
    #[arg(long, value_name = "N", default_value_t = TreeOptions::DEFAULT_MAX_DEPTH)]
    max_depth: usize,

    /// Bytes fed to the parser at a time [default: 65536; with --xml5lib, the whole input].
    #[arg(long, value_name = "N", value_parser = parse_chunk_size)]
    chunk_size: Option<usize>,

    /// The input's encoding, as a WHATWG Encoding Standard label (utf-8, shift_jis,
    /// windows-1252, utf-16le, ...) [default: sniffed]. Only a byte order mark wins over it;
    /// without it, the XML declaration's `encoding` decides, else UTF-8. Not with --xml5lib,
    /// which reads UTF-8 as the suite is written.
    #[arg(long, value_name = "LABEL", value_parser = parse_encoding, conflicts_with = "xml5lib")]
    encoding: Option<&'static Encoding>,
}

impl TreeArgs {
    /// The `--dialect` asked for.
    pub(crate) fn dialect(&self) -> Dialect {
        self.dialect
    }
}

/// The `tree` subcommand.
pub(crate) fn tree(args: &TreeArgs, out: &mut impl Write) -> Result<(), CliError> {
    let name = input_name(&args.input);
    let mut input = open_input(&args.input).map_err(|source| CliError::Input {
        name: name.clone(),
        source,
    })?;
    let options = Options::new().errors(args.errors);
    let mut parser = Parser::new(options, TreeOptions::new().max_depth(args.max_depth));
    let mut builder = TreeBuilder::new();
    if args.xml5lib {
        let bytes = read_all(&mut input, &name)?;
        let chunk_size = args.chunk_size.unwrap_or(bytes.len().max(1));
        for chunk in bytes.chunks(chunk_size) {
            parser.feed(chunk).for_each_event(|e| builder.push(&e));
        }
    } else {
        let mut buf = vec![0; args.chunk_size.unwrap_or(64 * 1024)];
        let mut utf8 = Utf8Input::new(args.encoding);
        loop {
            let n = read_chunk(&mut input, &mut buf).map_err(|source| CliError::Input {
                name: name.clone(),
                source,
            })?;
            let last = n < buf.len();
            utf8.push(&buf[..n], last, |text| {
                parser.feed(text).for_each_event(|e| builder.push(&e));
            });
            if last {
                break;
            }
        }
    }
    parser.finish().for_each_event(|e| builder.push(&e));
    let tokenizer_errors = parser.tokenizer().errors().to_vec();
    let document = builder.finish(&mut parser);
    if args.xml5lib {
        writeln!(out, "#document")?;
    }
    write!(out, "{}", xml5lib_tree(&document))?;
    if args.errors {
        print_errors(&tokenizer_errors, &document);
    }
    stopped_at(&document).map_or(Ok(()), |why| {
        Err(CliError::Refused(format!("{name}: {why}")))
    })
}

/// The limit the document stopped at, if any: the tree printed is whole up to it (the depth
/// limit, the tokenizer's memory limit), or has references left as written after it (the
/// entity expansion limit); the command then fails, saying which.
fn stopped_at(document: &Document) -> Option<String> {
    let depth = document.depth_error().map(|e| e.to_string());
    let memory = document.limit_error().map(|e| e.to_string());
    depth
        .or(memory)
        .or_else(|| document.entity_error().map(|e| e.to_string()))
}

/// The parse errors, in input order, to standard error.
fn print_errors(tokenizer: &[tagstream::ParseError], document: &Document) {
    let mut lines: Vec<(usize, String)> = tokenizer
        .iter()
        .map(|e| (e.offset, e.to_string()))
        .collect();
    lines.extend(document.errors().iter().map(|e| (e.offset, e.to_string())));
    lines.sort_by_key(|(offset, _)| *offset);
    let mut stderr = std::io::stderr().lock();
    for (_, line) in lines {
        let _ = writeln!(stderr, "{line}");
    }
}

/// The input turned into UTF-8 for the parser, chunk by chunk: the first bytes are held until
/// they decide the encoding ([`sniff_xml`] on at most [`PRESCAN_LEN`] bytes); UTF-8 then passes
/// through as it is (the parser drops its byte order mark), any other encoding goes through an
/// `encoding_rs` decoder, malformed bytes becoming U+FFFD.
struct Utf8Input {
    /// `--encoding`: wins over all but a byte order mark.
    known: Option<&'static Encoding>,
    /// Bytes held while the encoding is undecided.
    head: Vec<u8>,
    state: Decoding,
    /// The decoder's output for one call.
    out: Vec<u8>,
}

/// Where [`Utf8Input`] stands.
enum Decoding {
    Sniffing,
    Utf8,
    Other(Decoder),
}

impl Utf8Input {
    fn new(known: Option<&'static Encoding>) -> Utf8Input {
        Utf8Input {
            known,
            head: Vec::new(),
            state: Decoding::Sniffing,
            out: vec![0; 64 * 1024],
        }
    }

    /// Hand `feed` the UTF-8 of `chunk` (of what has been held with it, the first time the
    /// encoding is known); `last` says that no chunk follows.
    fn push(&mut self, chunk: &[u8], last: bool, mut feed: impl FnMut(&[u8])) {
        if let Decoding::Sniffing = self.state {
            self.head.extend_from_slice(chunk);
            if self.head.len() < PRESCAN_LEN && !last {
                return;
            }
            self.state = self.decide();
            let head = std::mem::take(&mut self.head);
            return self.convert(&head, last, &mut feed);
        }
        self.convert(chunk, last, &mut feed)
    }

    /// The encoding the held bytes decide, as a decoder unless it is UTF-8.
    fn decide(&self) -> Decoding {
        let label = self.known.map(Encoding::name);
        match sniff_xml(&self.head, label).encoding {
            encoding if encoding == UTF_8 => Decoding::Utf8,
            encoding => Decoding::Other(encoding.new_decoder_with_bom_removal()),
        }
    }

    fn convert(&mut self, bytes: &[u8], last: bool, feed: &mut impl FnMut(&[u8])) {
        match &mut self.state {
            Decoding::Other(decoder) => decode(decoder, bytes, last, &mut self.out, feed),
            Decoding::Utf8 | Decoding::Sniffing => feed(bytes),
        }
    }
}

/// Decode all of `bytes` into `out`, handing each filled part to `feed`.
fn decode(
    decoder: &mut Decoder,
    mut bytes: &[u8],
    last: bool,
    out: &mut [u8],
    feed: &mut impl FnMut(&[u8]),
) {
    loop {
        let (result, read, written, _) = decoder.decode_to_utf8(bytes, out, last);
        feed(&out[..written]);
        bytes = &bytes[read..];
        if result == CoderResult::InputEmpty {
            return;
        }
    }
}
