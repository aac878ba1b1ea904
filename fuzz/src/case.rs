//! One fuzz input, decoded: the options and the run plan from a short header, then the document.
//!
//! Every target reads the same layout, so one corpus file means the same thing to all of them (a
//! target ignores the fields it has no use for). Each header byte is read through `arbitrary`'s
//! `Unstructured`, which yields 0 for bytes past the end, so any byte string is a valid case and
//! the all-zero header is "default options, whole document, one byte at a time".
//!
//! | byte | meaning |
//! | --- | --- |
//! | 0 | flags: `1` errors, `2` legacy processing instructions, `4` CDATA allowed, `8` feedback (switch the text state after `script`, `style`, `title`, … start tags, as a tree builder does), `16` the tree-builder simulator (`Options::simulate`), `32` track positions, `64` scripting (`Options::scripting`, for the simulator), `128` memory limits (see byte 4) |
//! | 1 | initial state, mod 6: data, RCDATA, RAWTEXT, script data, PLAINTEXT, CDATA section |
//! | 2 | last start tag: an index into [`LAST_START_TAGS`] (mod its length; 0 is none) |
//! | 3 | switch plan: 0 none; else after every `(b & 7) + 1`-th non-text token apply [`Switch`] `(b >> 3) % 8` |
//! | 4 | low nibble, pause: 0 none; else pull at most that many tokens from each iterator, then drop it and resume with empty feeds (`chunks` only). High nibble, with flag `128`: the memory limits, see [`Limits::from_nibble`] (`chunks` and `tokenize` only) |
//! | 5 | `n`, mod 9: how many chunk lengths follow |
//! | 6.. | `n` chunk lengths, used in turn and cycled (`chunks` only): 0 is an empty feed, 1–127 that many bytes, 128–255 `(b - 127) * 64` bytes; no lengths means one byte at a time |
//! | rest | the document |
//!
//! `fuzz/seed.sh` writes seeds in this layout (a six-byte header, then the document).

use std::fmt;

use arbitrary::{Arbitrary, Unstructured};
use tagstream::{Options, TextKind};

/// Values byte 2 picks from: the names a tree builder sets, plus misuses (empty, uppercase,
/// non-ASCII, long) that must not make the tokenizer panic.
pub const LAST_START_TAGS: &[Option<&str>] = &[
    None,
    Some("script"),
    Some("style"),
    Some("title"),
    Some("textarea"),
    Some("xmp"),
    Some("iframe"),
    Some("noembed"),
    Some("noframes"),
    Some("plaintext"),
    Some("a"),
    Some("svg"),
    Some(""),
    Some("SCRIPT"),
    Some("sc\u{0}ript"),
    Some("t\u{e9}t\u{e9}"),
    Some("averyveryveryveryverylongtagnamethatgoesonandon"),
];

/// The text states, in the order bytes 1 and 3 count them.
pub const STATES: [TextKind; 6] = [
    TextKind::Data,
    TextKind::Rcdata,
    TextKind::Rawtext,
    TextKind::ScriptData,
    TextKind::Plaintext,
    TextKind::Cdata,
];

/// What the switch plan does between two tokens (tree-builder feedback at arbitrary points).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switch {
    /// Set the last start tag to `tag`, then switch to `state`.
    State { state: TextKind, tag: &'static str },
    /// Flip whether CDATA sections are allowed.
    ToggleCdata,
    /// Set the last start tag only.
    LastStartTag(&'static str),
}

impl Switch {
    fn from_index(i: u8) -> Switch {
        let state = |state, tag| Switch::State { state, tag };
        match i % 8 {
            0 => state(TextKind::Data, "p"),
            1 => state(TextKind::Rcdata, "title"),
            2 => state(TextKind::Rawtext, "style"),
            3 => state(TextKind::ScriptData, "script"),
            4 => state(TextKind::Plaintext, "plaintext"),
            5 => state(TextKind::Cdata, "svg"),
            6 => Switch::ToggleCdata,
            _ => Switch::LastStartTag("textarea"),
        }
    }
}

/// The memory limits a case sets (`Options::max_carry`, `Options::max_arena`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub carry: usize,
    pub arena: usize,
}

impl Limits {
    /// The limits byte 4's high nibble `k` picks: `max_carry` is `8 << 2 * (k & 3)` (8, 32, 128
    /// or 512 bytes) and `max_arena` is `512 << 2 * (k >> 2)` (512 bytes to 32 KiB), two
    /// independent choices so that either can be the one that trips. Fuzz inputs are short: the
    /// small values trip on most of them (a carried tag or comment of more than 8 bytes; the
    /// arena's first 448-byte chunk outgrown), the large ones on few. An arena limit under 448
    /// bytes would always stop the stream before its first token, hiding the carry limit.
    pub fn from_nibble(k: u8) -> Limits {
        Limits {
            carry: 8 << (2 * (k & 3)),
            arena: 512 << (2 * ((k >> 2) & 3)),
        }
    }
}

/// Options and plan decoded from the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub errors: bool,
    pub legacy_pi: bool,
    pub cdata_allowed: bool,
    /// Switch text states after script/style/title/… start tags (a naive tree builder).
    pub feedback: bool,
    /// The built-in tree-builder simulator (`Options::simulate`; the library's default is on, a
    /// case's is off unless flag 16 says so, so that the all-zero header is the bare tokenizer).
    pub simulate: bool,
    /// The simulator's scripting flag (`Options::scripting`).
    pub scripting: bool,
    pub track_positions: bool,
    pub initial_state: TextKind,
    pub last_start_tag: Option<&'static str>,
    /// After every `.0`-th non-text token, apply `.1`.
    pub switch: Option<(usize, Switch)>,
    /// Pull at most this many tokens per iterator, then pause (drop it) and resume.
    pub pause: Option<usize>,
    /// Memory limits for the runs that test them ([`Config::limited_options`]); the other runs,
    /// the references, have none.
    pub limits: Option<Limits>,
    /// Chunk lengths, cycled; 0 is an empty feed. Empty means one byte at a time.
    pub chunks: Vec<usize>,
}

impl Config {
    /// The library options this config asks for, without memory limits (what reference runs use).
    pub fn options(&self) -> Options {
        let mut options = Options::new()
            .errors(self.errors)
            .legacy_processing_instructions(self.legacy_pi)
            .cdata_allowed(self.cdata_allowed)
            .track_positions(self.track_positions)
            .validate_utf8(self.track_positions)
            .initial_state(self.initial_state);
        if let Some(tag) = self.last_start_tag {
            options = options.last_start_tag(tag);
        }
        // The built-in tree-builder simulator (src/html/simulator.rs): flag bits 16 and 64.
        options.simulate(self.simulate).scripting(self.scripting)
    }

    /// [`Config::options`] with the case's memory limits, if it has any.
    pub fn limited_options(&self) -> Options {
        let options = self.options();
        match self.limits {
            Some(l) => options.max_carry(l.carry).max_arena(l.arena),
            None => options,
        }
    }

    /// Whether `Tokenizer::is_valid_utf8` answers (the harness turns UTF-8 validation on with
    /// positions tracking, to cover both).
    pub fn validates_utf8(&self) -> bool {
        self.errors || self.track_positions
    }

    /// Whether the tokenizer keeps line/column information while streaming.
    pub fn positions_while_streaming(&self) -> bool {
        self.errors || self.track_positions
    }
}

/// A decoded fuzz input.
#[derive(Clone, PartialEq, Eq)]
pub struct Case {
    pub config: Config,
    pub data: Vec<u8>,
}

impl Case {
    /// Decode any byte string (see the module docs for the layout).
    pub fn parse(bytes: &[u8]) -> Case {
        let mut u = Unstructured::new(bytes);
        // Reading a u8 never fails: past the end it is 0.
        let mut byte = || u8::arbitrary(&mut u).unwrap_or(0);
        let flags = byte();
        let state = byte();
        let last = byte();
        let switch = byte();
        let pause = byte();
        let n = byte() % 9;
        let chunks = (0..n)
            .map(|_| match byte() {
                b @ 0..=127 => usize::from(b),
                b => (usize::from(b) - 127) * 64,
            })
            .collect();
        let config = Config {
            errors: flags & 1 != 0,
            legacy_pi: flags & 2 != 0,
            cdata_allowed: flags & 4 != 0,
            feedback: flags & 8 != 0,
            simulate: flags & 16 != 0,
            track_positions: flags & 32 != 0,
            scripting: flags & 64 != 0,
            initial_state: STATES[usize::from(state) % STATES.len()],
            last_start_tag: LAST_START_TAGS[usize::from(last) % LAST_START_TAGS.len()],
            switch: (switch != 0)
                .then(|| (usize::from(switch & 7) + 1, Switch::from_index(switch >> 3))),
            pause: (pause & 15 != 0).then_some(usize::from(pause & 15)),
            limits: (flags & 128 != 0).then(|| Limits::from_nibble(pause >> 4)),
            chunks,
        };
        let data = u.take_rest().to_vec();
        Case { config, data }
    }

    /// The chunks the `chunks` target feeds, as (start, end) pairs covering the document in order
    /// (empty pairs are empty feeds).
    pub fn cuts(&self) -> Vec<(usize, usize)> {
        let len = self.data.len();
        let lengths: &[usize] = if self.config.chunks.is_empty() {
            &[1]
        } else {
            &self.config.chunks
        };
        let mut cuts = Vec::new();
        let mut start = 0;
        let mut empties = 0;
        for &step in lengths.iter().cycle() {
            if start >= len {
                break;
            }
            if step == 0 {
                empties += 1;
                if empties > lengths.len() {
                    // Only empty feeds: feed the rest at once.
                    cuts.push((start, len));
                    break;
                }
                cuts.push((start, start));
                continue;
            }
            empties = 0;
            let end = (start + step).min(len);
            cuts.push((start, end));
            start = end;
        }
        cuts
    }
}

impl<'a> Arbitrary<'a> for Case {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Case> {
        let rest = u.bytes(u.len())?;
        Ok(Case::parse(rest))
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> arbitrary::Result<Case> {
        Ok(Case::parse(u.take_rest()))
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Case")
            .field("config", &self.config)
            .field("data", &String::from_utf8_lossy(&self.data))
            .field("bytes", &crate::check::Bytes(&self.data))
            .finish()
    }
}
