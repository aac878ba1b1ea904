//! How a tokenizer behaves: [`Options`], for every dialect (parse errors, positions, UTF-8
//! validation, the byte order mark, memory limits) and for HTML (initial state, last start tag,
//! CDATA, legacy processing instructions, the tree-builder simulator).

use crate::span::TextKind;

/// How a [`Tokenizer`](crate::Tokenizer) (or an [`xml5::Tokenizer`](crate::xml5::Tokenizer))
/// behaves. XML5 reads the general fields (errors, `max_errors`, positions, UTF-8 validation, the
/// byte order mark, the memory limits) and ignores the options marked "HTML only".
///
/// ```
/// use tagstream::{Options, TextKind};
/// let options = Options::new().errors(true).initial_state(TextKind::Rcdata).last_start_tag("title");
/// # let _ = options;
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    pub(crate) errors: bool,
    pub(crate) max_errors: usize,
    pub(crate) track_positions: bool,
    pub(crate) validate_utf8: bool,
    pub(crate) strip_bom: bool,
    pub(crate) lossless: bool,
    pub(crate) limits: Limits,
    /// What only the HTML dialect reads.
    pub(crate) html: HtmlOptions,
}

/// The options only the HTML dialect reads (set through [`Options`]' builder methods).
#[derive(Clone, Debug)]
pub(crate) struct HtmlOptions {
    pub(crate) legacy_pi: bool,
    pub(crate) initial_state: TextKind,
    pub(crate) last_start_tag: Option<String>,
    pub(crate) cdata_allowed: bool,
    // --- tree-builder simulator (src/html/simulator.rs) ---
    pub(crate) simulate: bool,
    pub(crate) scripting: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            errors: false,
            max_errors: Options::DEFAULT_MAX_ERRORS,
            track_positions: false,
            validate_utf8: false,
            strip_bom: true,
            lossless: false,
            limits: Limits::NONE,
            html: HtmlOptions {
                legacy_pi: false,
                initial_state: TextKind::Data,
                last_start_tag: None,
                cdata_allowed: false,
                simulate: true,
                scripting: false,
            },
        }
    }
}

impl Options {
    /// The defaults: errors off, today's processing-instruction rule, data state, the tree-builder
    /// simulator on with scripting off.
    pub fn new() -> Options {
        Options::default()
    }

    /// Detect parse errors, with codes and positions (off by default; off costs nothing). They
    /// are kept until taken ([`Tokenizer::take_errors`](crate::Tokenizer::take_errors), [`Tokens::drain_errors`](crate::Tokens::drain_errors)…), at most
    /// [`Options::max_errors`] at a time.
    pub fn errors(mut self, on: bool) -> Options {
        self.errors = on;
        self
    }

    /// The default of [`Options::max_errors`]: 65,536 errors, 2 MiB of stored [`ParseError`](crate::ParseError)s.
    pub const DEFAULT_MAX_ERRORS: usize = 1 << 16;

    /// With errors on, store at most `n` parse errors at a time (reported and not yet taken);
    /// past it, errors are counted by code, not stored: see [`Tokenizer::dropped_errors`](crate::Tokenizer::dropped_errors).
    /// Taking errors ([`Tokenizer::take_errors`](crate::Tokenizer::take_errors), [`Tokens::drain_errors`](crate::Tokens::drain_errors)…) frees room, so a
    /// consumer that drains them after every token sees every error, unless one token alone
    /// brings more than `n`. Without taking any, the stored errors are the stream's first `n`.
    ///
    /// Memory: each of the tokenizer's four error queues (the machine's errors since the last
    /// token, input-stream errors ahead of it, errors waiting for a character cut by a chunk
    /// seam, the stored ones) holds at most `n` errors of 16 or 32 bytes, 96 bytes per error in
    /// all (capacities grow by doubling: up to twice that when `n` is not a power of two). By
    /// default ([`Options::DEFAULT_MAX_ERRORS`]) that is at most 6 MiB, however hostile the
    /// input. `usize::MAX` lifts the cap (memory then grows with the errors not taken).
    ///
    /// ```
    /// use tagstream::{Options, Tokenizer};
    /// let mut tokenizer = Tokenizer::new(Options::new().errors(true).max_errors(10));
    /// let nuls = vec![0; 1000];
    /// let mut seen = 0;
    /// for chunk in nuls.chunks(8) {
    ///     tokenizer.feed(chunk).for_each(drop);
    ///     seen += tokenizer.drain_errors().count();
    /// }
    /// tokenizer.finish().for_each(drop);
    /// seen += tokenizer.drain_errors().count();
    /// assert_eq!((seen, tokenizer.dropped_errors().total()), (1000, 0));
    /// ```
    pub fn max_errors(mut self, n: usize) -> Options {
        self.max_errors = n;
        self
    }

    /// HTML only. Use the pre-2026 rule: `<?` starts a bogus comment with
    /// `unexpected-question-mark-instead-of-tag-name` instead of a processing instruction.
    pub fn legacy_processing_instructions(mut self, on: bool) -> Options {
        self.html.legacy_pi = on;
        self
    }

    /// HTML only. The text state to start in (html5lib-tests' `initialStates`). Default: data.
    pub fn initial_state(mut self, state: TextKind) -> Options {
        self.html.initial_state = state;
        self
    }

    /// HTML only. Treat `name` as the last start tag emitted (decides which end tag closes RCDATA, RAWTEXT and
    /// script data).
    pub fn last_start_tag(mut self, name: &str) -> Options {
        self.html.last_start_tag = Some(name.to_owned());
        self
    }

    /// HTML only. Whether `<![CDATA[` opens a CDATA section at the start (the adjusted current node is foreign).
    /// With the simulator on, it changes this itself when SVG or MathML content opens or closes.
    pub fn cdata_allowed(mut self, on: bool) -> Options {
        self.html.cdata_allowed = on;
        self
    }

    /// Keep what is needed to turn any offset still in the buffers into a line and column while
    /// streaming (always on with `errors`; whole documents can always do it).
    pub fn track_positions(mut self, on: bool) -> Options {
        self.track_positions = on;
        self
    }

    /// Check that the input is valid UTF-8 as it is fed, for [`Tokenizer::is_valid_utf8`](crate::Tokenizer::is_valid_utf8) (off by
    /// default, as tokens do not need it: invalid sequences decode to U+FFFD either way; always on
    /// with [`Options::errors`]). It is one SIMD pass over the input, about 6% of the default
    /// mode's time.
    pub fn validate_utf8(mut self, on: bool) -> Options {
        self.validate_utf8 = on;
        self
    }

    /// Strip a UTF-8 byte order mark (`EF BB BF`) at the start of the stream, as the Encoding
    /// Standard's decoder does (on by default). Exactly one, at stream offset 0 only: a U+FEFF
    /// anywhere else, at the start of a later chunk too, is text. Its bytes belong to no token;
    /// [`Tokenizer::bom`](crate::Tokenizer::bom) (and [`Tokens::bom`](crate::Tokens::bom)) tells where they were, for a writer that copies
    /// the input. Turn it off for input that was decoded already (the
    /// [`Transcoder`](crate::encoding::Transcoder) strips the BOM itself when it sniffs).
    ///
    /// ```
    /// use tagstream::{Options, Span, Token, Tokenizer};
    /// let mut tokenizer = Tokenizer::default();
    /// let texts: Vec<_> = tokenizer
    ///     .tokenize(b"\xEF\xBB\xBFhi")
    ///     .map(|token| token.span())
    ///     .collect();
    /// assert_eq!(texts, [Span { start: 3, end: 5 }]);
    /// assert_eq!(tokenizer.bom(), Some(Span { start: 0, end: 3 }));
    ///
    /// let mut kept = Tokenizer::new(Options::new().strip_bom(false));
    /// let Some(Token::Text(text)) = kept.tokenize(b"\xEF\xBB\xBFhi").next() else { panic!() };
    /// assert_eq!(text.text(), "\u{FEFF}hi");
    /// ```
    pub fn strip_bom(mut self, on: bool) -> Options {
        self.strip_bom = on;
        self
    }

    /// Hand out every byte of the input (off by default; off costs nothing): the bytes that
    /// belong to no token — a byte order mark [`Options::strip_bom`] strips, the `<![CDATA[` and
    /// `]]>` around CDATA text, `</>`, a tag cut off by the end of input, anything else the
    /// standard drops — come out as [`Token::Raw`](crate::Token::Raw) items in their place, so
    /// that the raw bytes of everything the iterator yields, concatenated, are the input, for any
    /// chunking and any pauses. What a writer needs to copy a document through. (Bytes after a
    /// memory limit stopped the stream are not handed out.)
    ///
    /// ```
    /// use tagstream::{Options, Tokenizer};
    /// let input = b"\xEF\xBB\xBF<svg><![CDATA[x]]></></svg><p";
    /// let mut tokenizer = Tokenizer::new(Options::new().lossless(true));
    /// let copy: Vec<u8> = tokenizer.tokenize(input).flat_map(|t| t.raw().to_vec()).collect();
    /// assert_eq!(copy, input);
    /// ```
    pub fn lossless(mut self, on: bool) -> Options {
        self.lossless = on;
        self
    }

    /// Cap the bytes of an unfinished token carried from one chunk to the next (no cap by default).
    /// A token that needs more stops the stream with a [`LimitError`](crate::LimitError) instead of being copied:
    /// see [`Tokenizer::limit_error`](crate::Tokenizer::limit_error). Bytes kept because the consumer paused (dropped the
    /// iterator early) do not count.
    pub fn max_carry(mut self, bytes: usize) -> Options {
        self.limits.carry = bytes;
        self
    }

    /// Cap the arena that holds attribute lists and decoded strings until the next feed (no cap by
    /// default). It is checked before each token is produced, so it can be passed by what one
    /// token and the accessors called on it allocated; then the stream stops with a
    /// [`LimitError`](crate::LimitError) (see [`Tokenizer::limit_error`](crate::Tokenizer::limit_error)). With whole documents, which use one arena
    /// for the whole input, this bounds memory that grows with the document.
    pub fn max_arena(mut self, bytes: usize) -> Options {
        self.limits.arena = bytes;
        self
    }

    /// HTML only. Run the tree-builder simulator (on by default): after each token it switches the text
    /// state, and allows or forbids CDATA sections, as the HTML Standard's tree builder would
    /// (see [`crate::simulator`]). Off, the tokenizer is the standard's tokenizer alone (what
    /// html5lib-tests' tokenizer suite specifies), and only [`Tokens::set_text_state`](crate::Tokens::set_text_state) and
    /// [`Tokens::set_cdata_allowed`](crate::Tokens::set_cdata_allowed) switch.
    pub fn simulate(mut self, on: bool) -> Options {
        self.html.simulate = on;
        self
    }

    /// HTML only. The tree builder's scripting flag, for the simulator (off by default, as for a parser
    /// without a script engine, like `DOMParser`): on, `<noscript>` holds RAWTEXT; off, markup.
    pub fn scripting(mut self, on: bool) -> Options {
        self.html.scripting = on;
        self
    }
}

/// The memory limits of [`Options::max_carry`] and [`Options::max_arena`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub(crate) carry: usize,
    pub(crate) arena: usize,
}

impl Limits {
    const NONE: Limits = Limits {
        carry: usize::MAX,
        arena: usize::MAX,
    };
}
