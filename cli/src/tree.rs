//! `tagstream tree --dialect xml5`: an XML document's tree through
//! [`tagstream::xml5::tree`] (the XML5 draft's tree construction, namespaces resolved), printed
//! in the xml5lib-tests tree format; with `--xml5lib`, exactly the suite's `#document` block.
//!
//! The input's encoding is decided as XML says ([`sniff_xml`]: a byte order mark, else
//! `--encoding`, else the XML declaration's, else UTF-8); other encodings than UTF-8 are decoded
//! chunk by chunk ([`Utf8Input`], which `tokens --dialect xml5 --tree` uses too) before the
//! parser, which reads UTF-8.
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
use tagstream::encoding::{
    Encoding, OffsetMap, PRESCAN_LEN, mapped_pieces, sniff_xml, xml_sniff_decided,
};
use tagstream::xml5::tree::{Document, Parser, TreeBuilder, TreeOptions, xml5lib_tree};
use tagstream::{Options, Span};

use crate::cli::encoding::parse_encoding;
use crate::{CliError, Dialect, each_chunk, input_name, open_input, parse_chunk_size, read_all};

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
        let chunk_size = args.chunk_size.unwrap_or(64 * 1024);
        let mut utf8 = Utf8Input::new(args.encoding);
        each_chunk(&mut input, &name, chunk_size, |chunk, last| {
            utf8.push(chunk, last, |text, _| {
                parser.feed(text).for_each_event(|e| builder.push(&e));
            });
            Ok(())
        })?;
    }
    parser.finish().for_each_event(|e| builder.push(&e));
    let document = builder.finish(&mut parser);
    if args.xml5lib {
        writeln!(out, "#document")?;
    }
    write!(out, "{}", xml5lib_tree(&document))?;
    if args.errors {
        print_errors(&document);
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

/// The document's parse errors, the tokenizer's and the tree stage's, in input order (the
/// tokenizer's first at one offset), to standard error.
fn print_errors(document: &Document) {
    let mut lines: Vec<(usize, String)> = document
        .parse_errors()
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

/// The input turned into UTF-8 for the parser, chunk by chunk, fed as a [`Transcoder`] for XML5
/// feeds its tokenizer (so that tokens are cut at the same places): the first bytes are held
/// until they decide the encoding ([`sniff_xml`], as soon as a BOM, `--encoding` or
/// [`xml_sniff_decided`] settle it, else at [`PRESCAN_LEN`] bytes); UTF-8 then passes through as
/// it is (the parser drops its byte order mark, and its offsets are the input's), any other
/// encoding goes through an `encoding_rs` decoder, malformed bytes becoming U+FFFD, each
/// chunk's UTF-8 fed at once. With [`Utf8Input::map_offsets`], decoded offsets are mapped
/// back to the input's bytes ([`OffsetMap`]).
///
/// [`Transcoder`]: tagstream::encoding::Transcoder
pub(crate) struct Utf8Input {
    /// `--encoding`: wins over all but a byte order mark.
    known: Option<&'static Encoding>,
    /// Bytes held while the encoding is undecided.
    head: Vec<u8>,
    state: Decoding,
    /// The decoder's output for one chunk.
    out: Vec<u8>,
    /// Record an [`OffsetMap`] for decoded input.
    mapping: bool,
    /// The last byte decoded was ASCII (ASCII runs after it are decoded at once when mapping).
    after_ascii: bool,
}

/// Where [`Utf8Input`] stands.
enum Decoding {
    Sniffing,
    Utf8,
    Other(Decoder, Option<OffsetMap>),
}

/// How the offsets of the UTF-8 a [`Utf8Input`] fed relate to the input's.
pub(crate) struct Original<'a>(Option<&'a OffsetMap>);

impl Original<'_> {
    /// The input offset of UTF-8 offset `offset` (itself for UTF-8 input, or where the map no
    /// longer knows it).
    pub(crate) fn offset(&self, offset: usize) -> usize {
        self.0
            .and_then(|map| map.original(offset))
            .unwrap_or(offset)
    }

    /// `span` in the input's offsets.
    pub(crate) fn span(&self, span: Span) -> Span {
        Span {
            start: self.offset(span.start),
            end: self.offset(span.end),
        }
    }
}

impl Utf8Input {
    pub(crate) fn new(known: Option<&'static Encoding>) -> Utf8Input {
        Utf8Input {
            known,
            head: Vec::new(),
            state: Decoding::Sniffing,
            out: Vec::new(),
            mapping: false,
            after_ascii: true,
        }
    }

    /// Map decoded offsets back to the input's (off by default: it costs a decoder call per
    /// non-ASCII byte).
    pub(crate) fn map_offsets(self) -> Utf8Input {
        Utf8Input {
            mapping: true,
            ..self
        }
    }

    /// How the offsets of the UTF-8 fed so far map to the input's.
    pub(crate) fn original(&self) -> Original<'_> {
        match &self.state {
            Decoding::Other(_, map) => Original(map.as_ref()),
            _ => Original(None),
        }
    }

    /// Forget the map before UTF-8 offset `offset` (nothing will be asked before it).
    pub(crate) fn forget_before(&mut self, offset: usize) {
        if let Decoding::Other(_, Some(map)) = &mut self.state {
            map.forget_before(offset);
        }
    }

    /// Hand `feed` the UTF-8 of `chunk` (of what has been held with it, the first time the
    /// encoding is known), with how its offsets map; `last` says that no chunk follows.
    pub(crate) fn push(&mut self, chunk: &[u8], last: bool, mut feed: impl FnMut(&[u8], Original)) {
        if let Decoding::Sniffing = self.state {
            self.head.extend_from_slice(chunk);
            if !last && !self.decided() {
                return;
            }
            let head = std::mem::take(&mut self.head);
            let bom_len = self.decide(&head);
            return self.convert(&head[bom_len..], last, &mut feed);
        }
        self.convert(chunk, last, &mut feed)
    }

    /// Whether the held bytes decide the encoding (as a [`Transcoder`] for XML5 decides).
    ///
    /// [`Transcoder`]: tagstream::encoding::Transcoder
    fn decided(&self) -> bool {
        let start = &self.head[..self.head.len().min(3)];
        let may_be_bom = start.len() < 3
            && [&b"\xEF\xBB\xBF"[..], b"\xFE\xFF", b"\xFF\xFE"]
                .iter()
                .any(|bom| bom.starts_with(start));
        self.head.len() >= PRESCAN_LEN
            || Encoding::for_bom(&self.head).is_some()
            || (self.known.is_some() && !may_be_bom)
            || xml_sniff_decided(&self.head)
    }

    /// Decide the encoding from the held bytes `head`: UTF-8 (which keeps its BOM for the
    /// parser), or a decoder; the length of the BOM the decoder must not see.
    fn decide(&mut self, head: &[u8]) -> usize {
        let label = self.known.map(Encoding::name);
        let sniffed = sniff_xml(head, label);
        if sniffed.encoding == UTF_8 {
            self.state = Decoding::Utf8;
            return 0;
        }
        let decoder = sniffed.encoding.new_decoder_without_bom_handling();
        let map = self.mapping.then(|| OffsetMap::new(sniffed.bom_len));
        self.state = Decoding::Other(decoder, map);
        sniffed.bom_len.min(head.len())
    }

    fn convert(&mut self, bytes: &[u8], last: bool, feed: &mut impl FnMut(&[u8], Original)) {
        let Decoding::Other(decoder, map) = &mut self.state else {
            return feed(bytes, Original(None));
        };
        self.out.clear();
        match map {
            Some(map) => decode_mapped(decoder, map, bytes, &mut self.after_ascii, &mut self.out),
            None => decode(decoder, bytes, false, &mut self.out),
        }
        if last {
            let before = self.out.len();
            decode(decoder, &[], true, &mut self.out);
            if let Some(map) = map {
                map.record(&[], &self.out[before..]);
            }
        }
        feed(&self.out, Original(map.as_ref()));
    }
}

/// Decode `bytes` into `out` piece by piece ([`mapped_pieces`], as the
/// [`Transcoder`](tagstream::encoding::Transcoder) does with `map_offsets`), recording each
/// piece in `map`.
fn decode_mapped(
    decoder: &mut Decoder,
    map: &mut OffsetMap,
    bytes: &[u8],
    after_ascii: &mut bool,
    out: &mut Vec<u8>,
) {
    let ascii_compatible = decoder.encoding().is_ascii_compatible();
    let mut pieces = mapped_pieces(bytes, ascii_compatible, *after_ascii);
    for piece in pieces.by_ref() {
        let before = out.len();
        decode(decoder, piece, false, out);
        map.record(piece, &out[before..]);
    }
    *after_ascii = pieces.after_ascii();
}

/// Decode all of `bytes`, appending to `out`.
fn decode(decoder: &mut Decoder, mut bytes: &[u8], last: bool, out: &mut Vec<u8>) {
    loop {
        let room = decoder
            .max_utf8_buffer_length(bytes.len())
            .unwrap_or(bytes.len() + 16);
        let used = out.len();
        out.resize(used + room.max(4), 0);
        let (result, read, written, _) = decoder.decode_to_utf8(bytes, &mut out[used..], last);
        out.truncate(used + written);
        bytes = &bytes[read..];
        if result == CoderResult::InputEmpty {
            return;
        }
    }
}
