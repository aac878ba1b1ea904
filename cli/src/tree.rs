//! `tagstream tree --dialect xml5`: an XML document's tree through
//! [`tagstream::xml5::tree`] (the XML5 draft's tree construction, namespaces resolved), printed
//! in the xml5lib-tests tree format; with `--xml5lib`, exactly the suite's `#document` block.
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
use tagstream::Options;
use tagstream::xml5::tree::{Document, Parser, TreeBuilder, TreeOptions, xml5lib_tree};

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
}

impl TreeArgs {
    /// The `--dialect` asked for.
    pub(crate) fn dialect(&self) -> Dialect {
        self.dialect
    }
}

/// The `tree` subcommand. The input is read as UTF-8.
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
        loop {
            let n = read_chunk(&mut input, &mut buf).map_err(|source| CliError::Input {
                name: name.clone(),
                source,
            })?;
            parser.feed(&buf[..n]).for_each_event(|e| builder.push(&e));
            if n < buf.len() {
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
    match document.depth_error() {
        Some(error) => Err(CliError::Refused(format!("{name}: {error}"))),
        None => Ok(()),
    }
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
