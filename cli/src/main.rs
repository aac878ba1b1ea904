//! `tagstream`, the command-line front end of the tagstream HTML tokenizer.
//!
//! `tagstream tokens [FILE|-]` streams a document through
//! [`Transcoder::feed`](tagstream::encoding::Transcoder::feed) in fixed-size chunks and prints one
//! JSON object per token (and, with `--errors`, per parse error) per line, with the tree-builder
//! simulator on (`--no-simulate` turns it off). The input's encoding is sniffed as the
//! HTML Standard says (BOM, `<meta>` prescan, then UTF-8 if the first chunk is valid UTF-8 with
//! some non-ASCII, else windows-1252) unless `--encoding` names it (see `cli::encoding`); spans are
//! byte offsets in the input whatever the encoding.
//! `tagstream tokens --html5lib` prints the whole run in the html5lib-tests token shapes instead,
//! through [`tagstream::html5lib::run`], so conformance tools see exactly the library's tokenizer
//! (alone, unless `--simulate`).
//!
//! `tagstream tokens --dialect xml5` does the same for XML with [`tagstream::xml5::Tokenizer`]:
//! the same JSON lines, and with `--xml5lib` the xml5lib-tests shapes (see [`xml5`]); with
//! `--tree`, each line also says where the XML5 tree stage put the token: its element's
//! namespace and depth, or why it was dropped (see [`placed`]).
//! `tagstream tokens --dialect sgml` prints the lexemes of the W3C note's SGML lexical mode
//! with [`tagstream::sgml::Tokenizer`], one event a line, or in the note's listing format (see
//! [`sgml`]).
//!
//! `tagstream tree --dialect xml5` prints an XML document's tree, namespaces resolved, in the
//! xml5lib-tests tree format (see [`tree`]).
//!
//! `tagstream rewrite` copies a document through, changed only where asked, and `tagstream
//! serialize` writes its tokens back normalized (see [`rewrite`]).
//!
//! `tagstream links`, `text` and `stats` (the crawler commands: many inputs, WARC archives, in
//! parallel) live in `src/cli/`.
//!
//! Errors (unreadable input, bad arguments) go to stderr with a non-zero exit status.

mod cli;
mod placed;
mod rewrite;
mod sgml;
mod tree;
mod xml5;

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use cli::encoding::EncodingArgs;
use serde_json::{Value, json};
use tagstream::encoding::{DecodedTokens, EncodingChange, Tokenize, Transcoder};
use tagstream::html5lib::{self, Html5libToken};
use tagstream::{Ambiguity, Attribute, DroppedErrors, Options, ParseError, Span, TextKind, Token};

/// The state names `--state` accepts (html5lib-tests' `initialStates`).
const STATE_NAMES: &[&str] = &[
    "Data state",
    "PLAINTEXT state",
    "RCDATA state",
    "RAWTEXT state",
    "Script data state",
    "CDATA section state",
];

/// HTML documents as the WHATWG HTML Standard tokenizes them: their tokens, links, text and
/// statistics, printed as JSON lines.
///
/// `tokens` streams one document and prints every token with its byte span; `links`, `text` and
/// `stats` read many (files, directories, WARC archives) in parallel and print one result per link
/// or page. Input bytes may be in any encoding: it is sniffed as a browser does (byte order mark,
/// `<meta charset>`, a WARC record's HTTP charset) unless --encoding names it, and spans are byte
/// offsets in the input as read. The contents of script, style, textarea and the like are read as
/// raw text where a browser's tree builder would switch the tokenizer to it. `tagstream COMMAND
/// --help` says what each command prints.
///
/// Exit status: 0 on success, 1 when an input could not be read (`tokens`) or the output could not
/// be written, 2 for bad arguments, 3 when `links`, `text` or `stats` skipped something.
#[derive(Parser, Debug)]
#[command(name = "tagstream", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the tokens of an HTML (or, with --dialect xml5, XML; with --dialect sgml, SGML's
    /// lexemes) document as JSON, one per line.
    ///
    /// Each line is an object with a "type" (start_tag, end_tag, text, comment, doctype,
    /// processing_instruction, or error with --errors) and a "span": the token's absolute byte
    /// offsets [start, end) in the input. Names, values and text are decoded as the HTML Standard
    /// (or the XML5 draft) says; attributes also carry their raw source. The input is read in
    /// chunks, so it never has to fit in memory.
    #[command(
        after_long_help = "Exit status: 0 on success, 1 when the input could not be read \
        or the output could not be written, 2 for bad arguments (an unknown --encoding label or \
        --dialect too, or an option of one dialect given with the other)."
    )]
    Tokens(TokensArgs),

    /// Copy a document to standard output, byte for byte except where an option asks for a
    /// change.
    ///
    /// With no option the output is the input. --strip-comments, --remove-element and
    /// --absolutize-links change only the bytes they are about: an edited tag keeps its other
    /// attributes as written and a changed value its quotes. The input is read and written in
    /// chunks, so it never has to fit in memory. Its encoding is sniffed as for `tokens` (or
    /// named by --encoding): the output is the input's own bytes, and what a change writes is
    /// in the input's encoding (characters it cannot hold as numeric character references).
    #[command(
        after_long_help = "Exit status: 0 on success, 1 when the input could not be read or \
        the output could not be written, or a change could not be written so that it reads back \
        as itself (the message says which and where), 2 for bad arguments."
    )]
    Rewrite(rewrite::RewriteArgs),

    /// Write an HTML document's tokens back as HTML, normalized, following the HTML Standard's
    /// "Writing HTML documents" (§13.1).
    ///
    /// Names lowercased, attribute values quoted and escaped by the rules for each syntax,
    /// character references written only where needed, void elements without end tags, and,
    /// when asked, optional tags omitted. The output tokenizes back to the input's tokens; a
    /// token that cannot be written so (a comment holding "-->" written by a script, …) stops
    /// the command with an error unless --lossy. The input's encoding is sniffed as for `tokens`
    /// (or named by --encoding), and the output is written in it (characters it cannot hold as
    /// numeric character references).
    #[command(
        after_long_help = "Exit status: 0 on success, 1 when the input could not be read or \
        the output could not be written, or a token could not be written so that it reads back \
        as itself, 2 for bad arguments."
    )]
    Serialize(rewrite::SerializeArgs),

    /// Print the tree of an XML document (--dialect xml5) in the xml5lib-tests tree format.
    ///
    /// The XML5 draft's tree construction: any input gives a tree (misnested end tags close
    /// what they imply, content after the root element is dropped), with namespaces resolved
    /// as Namespaces in XML 1.0 says. One line per node, "| " and two spaces per level:
    /// `<{namespace}prefix:local>` for elements, their attributes one level deeper as
    /// `{namespace}prefix:local="value"` (sorted; namespace declarations among them, in the
    /// XMLNS namespace), text in double quotes, `<!-- data -->`, `<?target data?>` and
    /// `<!DOCTYPE name "public" "system">`. The input is read as UTF-8, in chunks.
    #[command(
        after_long_help = "Exit status: 0 on success, 1 when the input could not be read, the \
        output could not be written or the input nests deeper than --max-depth, 2 for bad \
        arguments (--dialect html: HTML has no tree here)."
    )]
    Tree(tree::TreeArgs),

    /// Print every URL each page references, resolved, as JSON lines.
    ///
    /// The links are the href of a, area, link and base; the src of img, script, iframe, embed,
    /// source, track, audio and video; each candidate in the srcset of img and source; the action
    /// of form, the data of object, and the URL in the content of `<meta http-equiv=refresh>`. They
    /// resolve against --base (or a WARC record's WARC-Target-URI) and the page's first
    /// `<base href>`, which applies to the links before it too. URLs inside comments, scripts,
    /// styles and other raw text are not links; those inside `<template>` contents are reported
    /// with "in_template": true.
    ///
    /// Each line: {"input", "element", "attribute", "url", "resolved", "span", "in_template"}:
    /// "url" as written (character references resolved), "resolved" null when it does not resolve,
    /// "span" the byte offsets [start, end) of the URL in the input as read (of the whole attribute
    /// value when it holds a character reference). With --plain: one URL per line, resolved when
    /// it resolves.
    #[command(after_long_help = cli::CRAWLING)]
    Links(cli::links::LinksArgs),

    /// Print the visible text, title and meta description of each page.
    ///
    /// The text is what a browser shows, whitespace collapsed: without script, style, template,
    /// the fallback of iframe, noembed and noframes, noscript (with --scripting) and comments.
    /// Each line: {"input", "title", "description", "text"}, title and description null when the
    /// page has none. With --plain: each page's text, then an empty line.
    #[command(after_long_help = cli::CRAWLING)]
    Text(cli::text::TextArgs),

    /// Count tokens by kind, bytes and parse errors by code, and measure MB/s.
    ///
    /// Each line: {"input", "bytes", "tokens": {kind: count}, "errors": {code: count}} for one
    /// page, then {"total": {...}} with the sums over all pages and "mb_per_s", the decoding and
    /// tokenizing throughput per thread (the only value that differs between two runs). With --plain: one
    /// tab-separated line per page and a "total" line.
    #[command(after_long_help = cli::CRAWLING)]
    Stats(cli::stats::StatsArgs),
}

#[derive(Args, Debug)]
struct TokensArgs {
    /// The HTML (or XML) file to read, or `-` for standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    input: PathBuf,

    /// The markup language: `html`, tokenized as the WHATWG HTML Standard says, `xml5`, as
    /// the XML5 draft says, or `sgml`, lexed as the W3C Note "A Lexical Analyzer for HTML and
    /// Basic SGML" says.
    ///
    /// With xml5, names keep their case; `<a/>` is a start tag with "self_closing": true; the
    /// short end tag `</>` is an end tag whose name is ""; a CDATA section is text of kind
    /// "cdata"; `<?target data?>` is a processing instruction (the XML declaration too). The
    /// encoding is a byte order mark's, else --encoding's, else the XML declaration's, else
    /// UTF-8; spans are byte offsets in the input. The options marked "HTML only" below are
    /// refused with xml5.
    ///
    /// With sgml, each line is one of the note's events: {"channel": "primary" (data, tags,
    /// references), "auxiliary" (declarations, comment declarations, processing instructions) or
    /// "problem" (an error or limitation: then also "code", "line" and "col" of its offending
    /// text), "lexemes": [{"kind", "span", "text"}, ...]}. Kinds: data, start, end, tagc,
    /// attrname (its text "" when the name is omitted), name, number, nmtoken, literal, geref,
    /// numcharref, refc, pi, markup_decl, comment, mdc, error and limitation (the text is the
    /// note's message, the span empty), and s (white space in markup), vi (`=`) and dsc (`]`,
    /// `]]`). A lexeme whose text differs from its source (a name lowercased by --normalize, a
    /// message, whose "raw" is "") also has "raw"; invalid UTF-8 is U+FFFD in "text". The bytes
    /// are lexed as they are (no decoding, a byte order mark is data): the spans of all lexemes
    /// tile the input. Only --normalize, --sgml-listing and --chunk-size go with sgml.
    #[arg(long, value_enum, value_name = "DIALECT", default_value_t = TokensDialect::Html)]
    dialect: TokensDialect,

    /// Also print parse errors as {"type":"error","code","offset","line","col"} lines, where they
    /// were reported. A token that brings more than 65,536 errors has the rest counted, not
    /// printed: a closing {"type":"errors_dropped","count","codes":{code: count}} line says so.
    #[arg(long)]
    errors: bool,

    /// Print one html5lib-tests object {"output": [...], "errors": [...]} for the whole input
    /// (adjacent text merged, parse errors always on) instead of one line per token. The input is
    /// read as UTF-8. A token with more than 65,536 errors has the rest counted in
    /// "errors_dropped", not listed.
    #[arg(long, conflicts_with_all = ["encoding", "default_encoding"])]
    html5lib: bool,

    /// With --dialect xml5: print one xml5lib-tests object {"output": [...]} for the whole input
    /// instead of one line per token: ["StartTag", name, {attributes}], ["EmptyTag", ...],
    /// ["EndTag", name], ["ShortTag", ""], ["PI", target, data], ["Comment", data],
    /// ["Character", data] (adjacent text merged), ["DOCTYPE", name, public id, system id], and
    /// "ParseError" before the token each parse error was found for (errors always on). A token
    /// with more than 65,536 errors has the rest counted in "errors_dropped", not listed. The
    /// input is read as UTF-8.
    #[arg(long, conflicts_with_all = ["encoding", "default_encoding"])]
    xml5lib: bool,

    /// With --dialect xml5: run the XML5 tree stage too (namespaces, the internal subset's
    /// entities) and add to each token's line where it put the token: "namespace" (the URI or
    /// null) and "depth" (the root element is 1) of the element a start or end tag opens or ends
    /// (an end tag that ends several by mismatch: the one it names), or that holds text, a
    /// comment or a processing instruction (depth 0, namespace null at document level). A token
    /// the stage drops has "namespace": null, "depth": null and "dropped": "before-root",
    /// "after-root", "unmatched-end-tag", "misplaced-doctype", "depth-limit" or "raw" (a
    /// --lossless raw line). Tokens of entities' replacement texts are not in the input and are
    /// not printed. With --errors, the tree stage's errors are error lines too, after the token
    /// they are about; those past the cap are counted in a closing
    /// {"type":"tree_errors_dropped","count"} line.
    #[arg(long, conflicts_with = "xml5lib")]
    tree: bool,

    /// Also print the bytes that belong to no token as {"type":"raw","raw","span"} lines, where
    /// they are (a byte order mark, the `<![CDATA[` and `]]>` around CDATA text, `</>`, a tag cut
    /// off by the end of input): the spans of all lines then cover the input, each byte once.
    #[arg(long, conflicts_with_all = ["html5lib", "xml5lib"])]
    lossless: bool,

    /// With --dialect sgml: the note's normalization (SGML_lexNorm), names other than entity
    /// names lowercased in "text" (the source in "raw").
    #[arg(long)]
    normalize: bool,

    /// With --dialect sgml: print the events in the note's listing format, one lexeme a line as
    /// its worked examples do ("Start Tag: `<xx'", "  Attr Name: `attr3'", "[Aux Markup]" before
    /// an auxiliary event, "!!Error!!: `bad character in tag'"…), white space and `=` left out.
    #[arg(long)]
    sgml_listing: bool,

    /// Turn the tree-builder simulator off: the tokenizer alone, which leaves the data state only
    /// by --state (the simulator is on by default, except with --html5lib). HTML only.
    #[arg(long, conflicts_with = "simulate")]
    no_simulate: bool,

    /// With --html5lib: run the tree-builder simulator too (off by default there, as the
    /// html5lib-tests tokenizer suite specifies the tokenizer alone), so the output is the token
    /// stream a tree builder would see, for comparison with another parser; the object then also
    /// has "ambiguous": [[index in output, reason], ...]. HTML only.
    #[arg(long)]
    simulate: bool,

    /// The scripting flag the simulator assumes: `<noscript>` holds RAWTEXT (off by default, as
    /// for a parser without a script engine). HTML only.
    #[arg(long)]
    scripting: bool,

    /// Use the pre-2026 rule for `<?`: a bogus comment and an
    /// unexpected-question-mark-instead-of-tag-name error instead of a processing instruction.
    /// HTML only.
    #[arg(long)]
    legacy_pi: bool,

    /// The state to start in, named as html5lib-tests names it: "Data state", "PLAINTEXT state",
    /// "RCDATA state", "RAWTEXT state", "Script data state" or "CDATA section state". HTML only.
    #[arg(long, value_name = "NAME", value_parser = parse_state)]
    state: Option<TextKind>,

    /// Act as if a start tag with this name was the last one emitted (decides which end tag closes
    /// RCDATA, RAWTEXT and script data). HTML only.
    #[arg(long, value_name = "NAME")]
    last_start_tag: Option<String>,

    /// Bytes fed to the tokenizer at a time [default: 65536; with --html5lib or --xml5lib, the
    /// whole input].
    #[arg(long, value_name = "N", value_parser = parse_chunk_size)]
    chunk_size: Option<usize>,

    #[command(flatten)]
    encoding: EncodingArgs,
}

/// The markup language `tokens` reads (`--dialect`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Dialect {
    /// The WHATWG HTML Standard.
    Html,
    /// The XML5 draft.
    Xml5,
}

/// The markup language `tokens` reads (`--dialect`): the [`Dialect`]s, and SGML's lexemes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TokensDialect {
    /// The WHATWG HTML Standard.
    Html,
    /// The XML5 draft.
    Xml5,
    /// The W3C note's lexical mode for HTML and basic SGML.
    Sgml,
}

/// The `tokens` options of HTML only: argument id, and the option as written.
const HTML_ONLY: &[(&str, &str)] = &[
    ("html5lib", "--html5lib"),
    ("no_simulate", "--no-simulate"),
    ("simulate", "--simulate"),
    ("scripting", "--scripting"),
    ("legacy_pi", "--legacy-pi"),
    ("state", "--state"),
    ("last_start_tag", "--last-start-tag"),
    ("default_encoding", "--default-encoding"),
];
/// The `tokens` options of XML5 only: argument id, and the option as written.
const XML5_ONLY: &[(&str, &str)] = &[("xml5lib", "--xml5lib"), ("tree", "--tree")];
/// The `tokens` options of SGML only.
const SGML_ONLY: &[(&str, &str)] = &[
    ("normalize", "--normalize"),
    ("sgml_listing", "--sgml-listing"),
];
/// The `tokens` options SGML does not have: its problems are always events, its events are
/// lossless, and it reads bytes as they are.
const NOT_SGML: &[(&str, &str)] = &[
    ("errors", "--errors"),
    ("lossless", "--lossless"),
    ("encoding", "--encoding"),
];

/// Exit with status 2 and `message`, as clap does for bad arguments, with the usage of `tokens`.
fn dialect_error(message: &str) -> ! {
    usage_error("tokens", message)
}

/// Exit with status 2 and `message`, as clap does for bad arguments, with the usage of
/// `subcommand`.
fn usage_error(subcommand: &str, message: &str) -> ! {
    let mut command = Cli::command();
    command.build();
    let error = match command.find_subcommand_mut(subcommand) {
        Some(tokens) => tokens.error(ErrorKind::ArgumentConflict, message),
        None => command.error(ErrorKind::ArgumentConflict, message),
    };
    error.exit()
}

/// Refuse an option the chosen dialect does not have (`matches`: the `tokens` arguments).
fn check_dialect(dialect: TokensDialect, matches: &ArgMatches) -> Result<(), String> {
    let foreign: &[(&[(&str, &str)], &str)] = match dialect {
        TokensDialect::Html => &[(XML5_ONLY, "--dialect xml5"), (SGML_ONLY, "--dialect sgml")],
        TokensDialect::Xml5 => &[(HTML_ONLY, "--dialect html"), (SGML_ONLY, "--dialect sgml")],
        TokensDialect::Sgml => &[
            (HTML_ONLY, "--dialect html"),
            (XML5_ONLY, "--dialect xml5"),
            (NOT_SGML, "--dialect html or xml5"),
        ],
    };
    let given =
        |(id, _): &&(&str, &str)| matches.value_source(id) == Some(ValueSource::CommandLine);
    for (options, other) in foreign {
        if let Some((_, flag)) = options.iter().find(given) {
            return Err(format!("{flag} goes with {other} only"));
        }
    }
    Ok(())
}

/// Why the CLI failed.
#[derive(Debug)]
enum CliError {
    /// The input could not be opened or read.
    Input { name: String, source: io::Error },
    /// Standard output could not be written.
    Output(io::Error),
    /// A change or token that cannot be written so that it reads back as itself.
    Refused(String),
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Input { name, source } => write!(f, "cannot read {name}: {source}"),
            CliError::Output(e) => write!(f, "cannot write output: {e}"),
            CliError::Refused(why) => write!(f, "{why}"),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Output(e)
    }
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        Command::Tokens(args) => {
            if let Some(Err(message)) = matches
                .subcommand_matches("tokens")
                .map(|m| check_dialect(args.dialect, m))
            {
                dialect_error(&message);
            }
            tokens(&args)
        }
        Command::Tree(args) => {
            if args.dialect() != Dialect::Xml5 {
                usage_error("tree", "tree: only --dialect xml5 builds a tree");
            }
            written(|out| tree::tree(&args, out))
        }
        Command::Rewrite(args) => written(|out| rewrite::rewrite(&args, out)),
        Command::Serialize(args) => written(|out| rewrite::serialize(&args, out)),
        Command::Links(args) => return cli::run(&args.inputs, &cli::links::Links::new(&args)),
        Command::Text(args) => return cli::run(&args.inputs, &cli::text::Text::new(&args)),
        Command::Stats(args) => return cli::run(&args.inputs, &cli::stats::Stats::new(&args)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`tagstream tokens big.html | head`): not an error of ours.
        Err(CliError::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tagstream: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Run a command that writes to standard output, buffered.
fn written(
    command: impl FnOnce(&mut BufWriter<cli::output::Stdout>) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let mut out = BufWriter::new(cli::output::stdout());
    command(&mut out)?;
    out.flush()?;
    Ok(())
}

/// `--state`: one of html5lib-tests' state names.
fn parse_state(name: &str) -> Result<TextKind, String> {
    html5lib::state_from_name(name).ok_or_else(|| {
        let valid: Vec<String> = STATE_NAMES.iter().map(|s| format!("\"{s}\"")).collect();
        format!("unknown state; expected one of {}", valid.join(", "))
    })
}

/// `--chunk-size`: a positive number of bytes.
fn parse_chunk_size(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("the chunk size must be at least 1".to_owned()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a number of bytes: {e}")),
    }
}

/// The `tokens` subcommand.
fn tokens(args: &TokensArgs) -> Result<(), CliError> {
    let name = input_name(&args.input);
    let mut input = open_input(&args.input).map_err(|source| CliError::Input {
        name: name.clone(),
        source,
    })?;
    let mut out = BufWriter::new(cli::output::stdout());
    let chunk_size = args.chunk_size.unwrap_or(64 * 1024);
    match args.dialect {
        TokensDialect::Html if args.html5lib => html5lib_mode(args, &mut input, &name, &mut out)?,
        TokensDialect::Html => stream_tokens(args, &mut input, &name, chunk_size, &mut out)?,
        TokensDialect::Xml5 if args.xml5lib => {
            let bytes = read_all(&mut input, &name)?;
            xml5::xml5lib_mode(&bytes, args.chunk_size, &mut out)?;
        }
        TokensDialect::Xml5 => {
            let stream = if args.tree {
                placed::stream_placed
            } else {
                xml5::stream_tokens
            };
            let flags = (args.errors, args.lossless);
            let encoding = args.encoding.encoding;
            stream(&mut input, &name, flags, encoding, chunk_size, &mut out)?;
        }
        TokensDialect::Sgml => {
            let sgml = sgml::SgmlArgs {
                normalize: args.normalize,
                listing: args.sgml_listing,
            };
            sgml::stream_events(&mut input, &name, sgml, chunk_size, &mut out)?;
        }
    }
    out.flush()?;
    Ok(())
}

/// How to name the input in messages.
fn input_name(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".to_owned()
    } else {
        format!("'{}'", path.display())
    }
}

fn open_input(path: &Path) -> io::Result<Box<dyn Read>> {
    if path == Path::new("-") {
        Ok(Box::new(io::stdin().lock()))
    } else {
        Ok(Box::new(File::open(path)?))
    }
}

/// The tokenizer options the arguments ask for.
fn options(args: &TokensArgs, errors: bool, simulate: bool) -> Options {
    let mut options = Options::new()
        .simulate(simulate)
        .scripting(args.scripting)
        .errors(errors)
        .lossless(args.lossless)
        .legacy_processing_instructions(args.legacy_pi)
        .initial_state(args.state.unwrap_or_default());
    if let Some(name) = &args.last_start_tag {
        options = options.last_start_tag(name);
    }
    options
}

/// Read `input` `chunk_size` bytes at a time, handing each chunk to `each` with whether it is
/// the last: the streaming commands' loop. A short read is the end of the input (the last chunk
/// may be empty); a read error is the input's, named `name`.
fn each_chunk(
    input: &mut dyn Read,
    name: &str,
    chunk_size: usize,
    mut each: impl FnMut(&[u8], bool) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let mut buf = vec![0; chunk_size];
    loop {
        let n = read_chunk(input, &mut buf).map_err(|source| CliError::Input {
            name: name.to_owned(),
            source,
        })?;
        let last = n < buf.len();
        each(&buf[..n], last)?;
        if last {
            return Ok(());
        }
    }
}

/// Fill `buf` from `input` as far as it goes; fewer bytes only at the end of the input.
fn read_chunk(input: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// The whole input, for the modes that print one object for it.
fn read_all(input: &mut dyn Read, name: &str) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|source| CliError::Input {
            name: name.to_owned(),
            source,
        })?;
    Ok(bytes)
}

/// Feed the input chunk by chunk, printing each token (and the errors it brought) as it comes.
fn stream_tokens(
    args: &TokensArgs,
    input: &mut dyn Read,
    name: &str,
    chunk_size: usize,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let options = options(args, args.errors, !args.no_simulate);
    let mut tokenizer = args.encoding.transcoder(options, None, true);
    let mut bom = Bom::new(args.lossless);
    each_chunk(input, name, chunk_size, |chunk, last| {
        Ok(print_tokens(
            feed(&mut tokenizer, chunk, last),
            &mut bom,
            out,
        )?)
    })?;
    Ok(print_dropped(&tokenizer.tokenizer().dropped_errors(), out)?)
}

/// The tokens of one chunk from `each_chunk`: the last ends the input, so that sniffing, if
/// still open, knows the input ends there.
fn feed<'t, T: Tokenize>(
    transcoder: &'t mut Transcoder<T>,
    chunk: &'t [u8],
    last: bool,
) -> DecodedTokens<'t, T> {
    if last {
        transcoder.feed_last(chunk)
    } else {
        transcoder.feed(chunk)
    }
}

/// Print every token of one feed, each followed by the parse errors reported while producing it
/// and the encoding change it caused; spans and offsets in bytes of the input.
fn print_tokens(
    mut tokens: DecodedTokens<'_>,
    bom: &mut Bom,
    out: &mut impl Write,
) -> io::Result<()> {
    while let Some(token) = tokens.next() {
        let original = |span: Span| tokens.original_span(span).unwrap_or(span);
        bom.print_before(original(token.span()), out)?;
        writeln!(out, "{}", token_json(&token, tokens.ambiguity(), &original))?;
        if let Some(change) = tokens.encoding_change() {
            writeln!(out, "{}", encoding_change_json(&change))?;
        }
        let errors = tokens.take_errors();
        print_errors(&errors, &tokens, out)?;
    }
    let errors = tokens.take_errors();
    print_errors(&errors, &tokens, out)
}

/// The closing line for errors counted but not printed, if there were any.
fn print_dropped(dropped: &DroppedErrors, out: &mut impl Write) -> io::Result<()> {
    if dropped.total() == 0 {
        return Ok(());
    }
    let codes = dropped
        .iter()
        .map(|(code, n)| (code.as_str().to_owned(), n.into()));
    let line = Object::new()
        .field("type", "errors_dropped")
        .field("count", dropped.total())
        .field("codes", Value::Object(codes.collect()))
        .finish();
    writeln!(out, "{line}")
}

fn encoding_change_json(change: &EncodingChange) -> String {
    Object::new()
        .field("type", "encoding_changed")
        .field("from", change.from.name())
        .field("to", change.to.name())
        .field(
            "span",
            span_json(change.original_span.unwrap_or(change.span)),
        )
        .finish()
}

fn print_errors(
    errors: &[ParseError],
    tokens: &DecodedTokens<'_>,
    out: &mut impl Write,
) -> io::Result<()> {
    for e in errors {
        let at = Span {
            start: e.offset,
            end: e.offset,
        };
        let offset = tokens.original_span(at).map_or(e.offset, |s| s.start);
        writeln!(out, "{}", error_json(e, offset))?;
    }
    Ok(())
}

/// One parse error in the `tokens --errors` line format, at `offset` in the input.
fn error_json(e: &ParseError, offset: usize) -> String {
    Object::new()
        .field("type", "error")
        .field("code", e.code.as_str())
        .field("offset", offset)
        .field("line", e.position.line)
        .field("col", e.position.col)
        .finish()
}

/// A JSON object whose keys keep the order they were added in (serde_json's `Map` sorts them).
struct Object(String);

impl Object {
    fn new() -> Object {
        Object(String::from("{"))
    }

    fn field(self, key: &str, value: impl Into<Value>) -> Object {
        let json = value.into().to_string();
        self.raw(key, &json)
    }

    /// Add `json`, already serialized.
    fn raw(mut self, key: &str, json: &str) -> Object {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        let _ = write!(self.0, "{}:{json}", Value::from(key));
        self
    }

    fn finish(mut self) -> String {
        self.0.push('}');
        self.0
    }
}

/// `[a, b, …]` from serialized items.
fn array(items: impl Iterator<Item = String>) -> String {
    format!("[{}]", items.collect::<Vec<_>>().join(","))
}

/// With `--lossless`: the byte order mark the decoder takes before the tokenizer sees anything,
/// printed as a raw line before the first token (at the original offset 0), so that the lines'
/// spans cover the input.
struct Bom {
    pending: bool,
}

impl Bom {
    fn new(lossless: bool) -> Bom {
        Bom { pending: lossless }
    }

    /// Before the first token, whose span in the input is `first`: the BOM's line, if the
    /// token does not start the input.
    fn print_before(&mut self, first: Span, out: &mut impl Write) -> io::Result<()> {
        if !std::mem::take(&mut self.pending) || first.start == 0 {
            return Ok(());
        }
        let line = Object::new()
            .field("type", "raw")
            .field("raw", "\u{FEFF}")
            .field(
                "span",
                span_json(Span {
                    start: 0,
                    end: first.start,
                }),
            )
            .finish();
        writeln!(out, "{line}")
    }
}

fn span_json(span: Span) -> Value {
    json!([span.start, span.end])
}

/// One token in the `tokens` line format, spans through `original`; "ambiguity" when the simulator
/// was unsure about it.
fn token_json(
    token: &Token<'_>,
    ambiguity: Option<Ambiguity>,
    original: &dyn Fn(Span) -> Span,
) -> String {
    let object = match token {
        Token::Doctype(d) => {
            let object = Object::new()
                .field("type", "doctype")
                .field("name", d.name())
                .field("public_id", d.public_id())
                .field("system_id", d.system_id())
                .field("force_quirks", d.force_quirks());
            // XML5's `[...]`, as written (HTML has none).
            match d.raw_internal_subset() {
                Some(raw) => object.field("internal_subset", String::from_utf8_lossy(raw).as_ref()),
                None => object,
            }
        }
        Token::StartTag(tag) => Object::new()
            .field("type", "start_tag")
            .field("name", tag.name())
            .raw(
                "attributes",
                &array(tag.attributes().map(|a| attribute_json(a, original))),
            )
            .field("self_closing", tag.self_closing()),
        Token::EndTag(tag) => Object::new()
            .field("type", "end_tag")
            .field("name", tag.name()),
        Token::Text(text) => Object::new()
            .field("type", "text")
            .field("kind", text.kind().as_str())
            .field("text", text.text()),
        Token::Comment(c) => Object::new()
            .field("type", "comment")
            .field("data", c.data()),
        Token::ProcessingInstruction(pi) => Object::new()
            .field("type", "processing_instruction")
            .field("target", pi.target())
            .field("data", pi.data()),
        Token::Raw(raw) => Object::new()
            .field("type", "raw")
            .field("raw", String::from_utf8_lossy(raw.raw()).as_ref()),
    };
    let object = object.field("span", span_json(original(token.span())));
    match ambiguity {
        Some(why) => object.field("ambiguity", format!("{why:?}")).finish(),
        None => object.finish(),
    }
}

fn attribute_json(attribute: Attribute<'_>, original: &dyn Fn(Span) -> Span) -> String {
    Object::new()
        .field("name", attribute.name())
        .field("value", attribute.value())
        .field("raw", String::from_utf8_lossy(attribute.raw()).as_ref())
        .field("span", span_json(original(attribute.span())))
        .finish()
}

/// `--html5lib`: the whole input through [`html5lib::run`], printed as one object.
fn html5lib_mode(
    args: &TokensArgs,
    input: &mut dyn Read,
    name: &str,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let bytes = read_all(input, name)?;
    let run = html5lib::run(&bytes, &options(args, true, args.simulate), args.chunk_size);
    let errors = run.errors.iter().map(|e| {
        Object::new()
            .field("code", e.code.as_str())
            .field("line", e.position.line)
            .field("col", e.position.col)
            .finish()
    });
    let mut result = Object::new()
        .raw("output", &array(run.output.iter().map(html5lib_token_json)))
        .raw("errors", &array(errors));
    if run.dropped.total() > 0 {
        // More errors in one token than the cap: counted, not listed.
        result = result.field("errors_dropped", run.dropped.total());
    }
    if args.simulate {
        let ambiguous = run
            .ambiguous
            .iter()
            .map(|(i, why)| json!([i, format!("{why:?}")]).to_string());
        result = result.raw("ambiguous", &array(ambiguous));
    }
    let result = result.finish();
    writeln!(out, "{result}")?;
    Ok(())
}

/// One token in html5lib-tests' shape; attributes keep their source order.
fn html5lib_token_json(token: &Html5libToken) -> String {
    match token {
        Html5libToken::Doctype {
            name,
            public_id,
            system_id,
            correctness,
        } => json!(["DOCTYPE", name, public_id, system_id, correctness]).to_string(),
        Html5libToken::StartTag {
            name,
            attributes,
            self_closing,
        } => {
            let attrs = attributes
                .iter()
                .fold(Object::new(), |o, (k, v)| o.field(k, v.as_str()))
                .finish();
            let closing = if *self_closing { ",true" } else { "" };
            format!(
                "[\"StartTag\",{},{attrs}{closing}]",
                Value::from(name.as_str())
            )
        }
        Html5libToken::EndTag { name } => json!(["EndTag", name]).to_string(),
        Html5libToken::Comment(data) => json!(["Comment", data]).to_string(),
        Html5libToken::Character(data) => json!(["Character", data]).to_string(),
        Html5libToken::ProcessingInstruction { target, data } => {
            json!(["ProcessingInstruction", target, data]).to_string()
        }
    }
}
