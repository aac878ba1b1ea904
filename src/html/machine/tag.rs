//! Tag states: tag name, the attribute states and self-closing start tag (HTML Standard §13.2.5.8,
//! 32–40), and the attribute list with its duplicate check.
//!
//! Attribute names and values are recorded as spans. The standard drops a repeated attribute name
//! (first wins); [`Attrs`] finds repeats by comparing names directly in small tags and, past eight
//! attributes, with a hash table keyed by the decoded (lowercased) name, in amortized O(1) per
//! attribute: a tag with 100,000 attributes costs 100,000 steps, not 10^10. In a large tag the names
//! are checked in batches ([`Machine::settle_attributes`]), so that the probes of a table larger
//! than the cache overlap instead of waiting for each other. The attribute states also run as one
//! loop over a run of attributes ([`Machine::attribute_run`]), with errors on or off.

use std::cell::Cell;

use super::{Flow, Machine, State, is_whitespace, skip_whitespace};
use crate::error::ErrorCode;
use crate::scan::{ByteSet, find_in_set, find_name_end, find1, find3, prefetch};
use crate::span::{AttrRecord, Record, Span, Window};
use crate::word::{FOLD, K0, K1, LOW_BYTES, fold_multiply, random_keys, word};

const WS: &[u8] = b"\t\n\x0C\r ";
/// Bytes that end a tag name run; with errors on, NUL stops the run too.
pub(super) const TAG_NAME_STOP: ByteSet = ByteSet::of(b"\t\n\x0C\r />");
const TAG_NAME_STOP_ERRORS: ByteSet = ByteSet::of(b"\t\n\x0C\r />\0");
/// Bytes that end an attribute name run (errors add the ones that raise
/// unexpected-character-in-attribute-name).
pub(super) const ATTR_NAME_STOP: ByteSet = ByteSet::of(b"\t\n\x0C\r />=");
const ATTR_NAME_STOP_ERRORS: ByteSet = ByteSet::of(b"\t\n\x0C\r />=\0\"'<");
/// Bytes that end an unquoted attribute value run.
pub(super) const UNQUOTED_STOP: ByteSet = ByteSet::of(b"\t\n\x0C\r >");
const UNQUOTED_STOP_ERRORS: ByteSet = ByteSet::of(b"\t\n\x0C\r >&\0\"'<=`");

/// Up to this many attributes with plain ASCII names, repeats are found by comparing names directly.
const LINEAR_LIMIT: usize = 8;
/// When the lane has dropped this many repeated attributes of one tag, it looks for a `>` ahead
/// once: with none in the window, the tag cannot end there, and the lane leaves it to the state
/// functions at once instead of reading all of it first (200,000 unterminated `<a b=1 `, one tag
/// whose attributes repeat, were read twice); at the end of input it drops the tag itself, as the
/// state functions would at the end of reading it. Counted on the repeats only, which real pages
/// rarely have, so that the lane's path for ordinary attributes does not change.
pub(crate) const LANE_LOOK_AHEAD: usize = 64;
/// The hash table's size when it comes into use, as a power of two (32 slots).
const FIRST_TABLE_BITS: u32 = 5;
/// How many names ahead [`Attrs::settle_unchecked`] asks for the slot a name probes first.
const PREFETCH_AHEAD: usize = 32;

/// The attributes of the tag in progress, and what finds repeated names.
///
/// Small tags whose names are plain ASCII (the common case) compare raw names case-insensitively.
/// Past [`LINEAR_LIMIT`] attributes, or at the first name with NUL or non-ASCII bytes, every kept
/// attribute goes into a hash table of [`Slot`]s under its index in `list`. A plain name (ASCII
/// without NUL) is hashed with ASCII case folded and compared ASCII case-insensitively; another is
/// hashed and compared decoded (a repeat or a rare collision decodes the kept name again). A plain
/// name never equals another one: it decodes to ASCII, they do not.
pub(crate) struct Attrs {
    /// Attributes kept so far, in source order.
    pub(crate) list: Vec<AttrRecord>,
    /// Whether `list` is still compared directly (the table is not in use).
    linear: bool,
    /// How many attributes of `list` have been checked for repeats. Past [`LINEAR_LIMIT`]
    /// attributes, plain names are recorded unchecked and their repeats dropped later, all in one
    /// pass ([`Machine::settle_attributes`], at the latest when the machine stops): checking each
    /// name as it comes makes every attribute of a large tag wait for a cache miss on the table,
    /// with a whole attribute's lexing between two of them, while one loop over the table lets
    /// the processor overlap them.
    settled: usize,
    /// With errors on, for each unchecked attribute: how many errors the machine had reported when
    /// its name was complete, which is where its duplicate-attribute error goes if it is a repeat.
    error_at: Vec<usize>,
    /// Filled by [`Attrs::settle_unchecked`] with errors on: for each repeat dropped, the offset of its
    /// name's end and its index among the unchecked attributes.
    repeats: Vec<(usize, usize)>,
    /// The decoded name a name that is not plain is hashed and compared as, and after it the kept
    /// name it is compared with.
    names: Vec<u8>,
    /// Open addressing with linear probing over [`Slot`]s. While the table is in use its first
    /// `1 << bits` slots are the table; every slot past them is empty (0), and so is every slot
    /// while it is not in use, so a tag that never needs it costs nothing to forget.
    table: Vec<u32>,
    /// While the table is in use, the hash of each checked attribute's name (by index in `list`),
    /// and while [`Attrs::settle_unchecked`] runs, of the unchecked ones after them: what places
    /// the keys again when the table grows.
    hashes: Vec<u32>,
    /// The table's size is `1 << bits`.
    bits: u32,
    /// The key of [`hash_name`], random for each tokenizer.
    seed: u64,
    /// The size the table starts at on the next tag that needs one (as `bits`): what the last such
    /// tag's attributes needed, so that a run of tags with many attributes does not grow it again
    /// each time, while forgetting it (clearing the slots in use) stays in proportion to the work of
    /// the tag that used them.
    next_bits: u32,
    /// Whether any attribute was started on this tag (kept or not).
    pub(crate) any: bool,
    /// The attribute in progress is a repeat and is not recorded.
    dropping: bool,
    /// How many repeats the lane dropped on this tag while comparing names directly (see
    /// [`Attrs::add_unchecked`]).
    lane_repeats: usize,
}

impl Default for Attrs {
    fn default() -> Attrs {
        Attrs {
            list: Vec::new(),
            linear: true,
            settled: 0,
            error_at: Vec::new(),
            repeats: Vec::new(),
            names: Vec::new(),
            table: Vec::new(),
            hashes: Vec::new(),
            bits: FIRST_TABLE_BITS,
            seed: random_keys::<1>()[0],
            next_bits: FIRST_TABLE_BITS,
            any: false,
            dropping: false,
            lane_repeats: 0,
        }
    }
}

/// A hash table slot, in 4 bytes for a table of `1 << bits` of them: 0 when empty, else the key (an
/// index in `list`) plus one in the low `bits` bits, and above it the rest of the name's 32-bit
/// hash, a tag that keeps most probes from comparing names. The hash's low `bits` bits are the
/// slot it belongs in (its home); the table finds them again in `Attrs::hashes` when it grows. A
/// table holds at most half as many keys as slots, so the key plus one fits (and a tag holds at
/// most 2^31 kept attributes: past that, its records alone would take 80 GB).
struct Slot;

impl Slot {
    /// The mask of the low `bits` bits of a slot or hash: a slot's key part, a hash's home.
    fn low(bits: u32) -> u32 {
        ((1u64 << bits) - 1) as u32
    }

    /// The key of a full slot.
    fn key(slot: u32, low: u32) -> usize {
        ((slot & low) - 1) as usize
    }

    /// The slot of `key` for a name with `hash`.
    fn pack(hash: u32, key: usize, low: u32) -> u32 {
        (hash & !low) | (key as u32 + 1)
    }
}

impl Attrs {
    /// Forget the previous tag's attributes (keeps allocations). Nothing to do when it had none.
    #[inline]
    pub(crate) fn clear(&mut self) {
        if self.any {
            self.reset();
        }
    }

    fn reset(&mut self) {
        self.any = false;
        self.dropping = false;
        self.lane_repeats = 0;
        if !self.linear {
            // Every slot the tag used is among the first `1 << bits`.
            self.table[..1 << self.bits].fill(0);
            self.next_bits = table_bits(self.list.len());
            self.hashes.clear();
            self.linear = true;
        }
        self.list.clear();
        self.settled = 0;
        self.error_at.clear();
    }

    /// The attribute whose name is at `span` in `b` is complete: keep it unless its decoded name
    /// repeats an earlier one. Returns `false` for a repeat.
    fn add(&mut self, span: Span, b: &Window) -> bool {
        debug_assert_eq!(self.settled, self.list.len());
        let name = b.slice(span);
        if self.linear {
            if self.list.len() < LINEAR_LIMIT && is_plain(name) {
                return self.add_linear(span, name, b);
            }
            self.start_table(b);
        }
        self.any = true;
        let (mut hash, plain) = hash_name(name, self.seed);
        if !plain {
            self.names.clear();
            push_decoded_name(&mut self.names, name);
            hash = hash_name(&self.names, self.seed).0;
        }
        let repeat = self.find_or_insert(name, plain, hash, b);
        self.keep_unless(repeat, span)
    }

    /// Record the attribute named at `span`, unchecked.
    #[inline]
    fn push_unchecked(&mut self, span: Span) {
        self.any = true;
        self.dropping = false;
        self.list.push(AttrRecord::without_value(span));
    }

    /// The lane's [`Attrs::add`], for a whole attribute (name and value) whose name is known to
    /// be ASCII without NUL: dropped if it repeats a kept name; past [`LINEAR_LIMIT`] attributes,
    /// recorded unchecked until [`Attrs::settle_unchecked`]. Returns whether the tag has just
    /// reached [`LANE_LOOK_AHEAD`] repeats dropped (see there).
    #[inline]
    pub(crate) fn add_unchecked(&mut self, record: AttrRecord, b: &Window) -> bool {
        self.any = true;
        if self.list.len() < LINEAR_LIMIT {
            if self.repeats_a_kept_name(b.slice(record.name), b) {
                return self.count_lane_repeat();
            }
            self.settled += 1;
        }
        self.list.push(record);
        false
    }

    /// One more repeat dropped by the lane: whether that makes [`LANE_LOOK_AHEAD`].
    #[cold]
    fn count_lane_repeat(&mut self) -> bool {
        self.lane_repeats += 1;
        self.lane_repeats == LANE_LOOK_AHEAD
    }

    /// Drop the repeats among the attributes recorded unchecked (with `errors`, note them in
    /// `repeats`): check them in source order against the table, and move the ones kept up over
    /// the repeats. The names are hashed first, in one pass over the input; the probes then form
    /// a short loop with no dependence from one to the next but the rare repeat, so the processor
    /// overlaps their cache misses.
    #[inline(never)]
    fn settle_unchecked(&mut self, b: &Window, errors: bool) {
        let (start, end) = (self.settled, self.list.len());
        if self.linear {
            self.next_bits = self.next_bits.max(table_bits(end));
            self.start_table(b);
        }
        while end > max_load(self.bits) {
            self.grow();
        }
        debug_assert_eq!(self.hashes.len(), start);
        let (seed, low) = (self.seed, Slot::low(self.bits));
        let Attrs {
            list,
            table,
            hashes,
            repeats,
            ..
        } = self;
        // Past the last name, the hashes the loop looks ahead at are 0 (slot 0 is asked for).
        hashes.resize(end + PREFETCH_AHEAD, 0);
        hash_names(&mut hashes[start..end], &list[start..end], b, seed);
        // Read ahead and moved up over repeats in the same loop.
        let hashes = Cell::from_mut(&mut hashes[..]).as_slice_of_cells();
        let (ahead, hashes) = (&hashes[PREFETCH_AHEAD..][..end], &hashes[..end]);
        let list = &mut list[..end];
        // The table's length is `low + 1`, so that `& low` keeps an index in it.
        let table = &mut table[..=low as usize];
        let mut kept = start;
        let mut repeat = false;
        for i in start..end {
            // The slot a later name probes first is asked for now: in a large table most probes
            // miss the cache, and this lets the misses overlap more than the loop alone does.
            prefetch(table, (ahead[i].get() & low) as usize);
            let hash = hashes[i].get();
            let mut at = hash & low;
            repeat = loop {
                let slot = table[at as usize];
                if slot == 0 {
                    table[at as usize] = Slot::pack(hash, kept, low);
                    break false;
                }
                if (slot ^ hash) & !low == 0 && same_plain_name(list, Slot::key(slot, low), i, b) {
                    break true;
                }
                at = (at + 1) & low;
            };
            if !repeat {
                if kept != i {
                    list[kept] = list[i];
                    hashes[kept].set(hash);
                }
                kept += 1;
            } else if errors {
                repeats.push((list[i].name.end, i - start));
            }
        }
        self.list.truncate(kept);
        self.hashes.truncate(kept);
        self.settled = kept;
        // The last one is the attribute in progress: its value goes nowhere if it was a repeat.
        self.dropping = repeat;
    }

    /// Small tags: compare the plain `name` at `span` with every kept name.
    #[inline]
    fn add_linear(&mut self, span: Span, name: &[u8], b: &Window) -> bool {
        self.any = true;
        let repeat = self.repeats_a_kept_name(name, b);
        self.keep_unless(repeat, span)
    }

    /// Whether the plain `name` is, up to ASCII case, the name of an attribute kept so far (all
    /// of them plain: the linear mode), compared one by one.
    #[inline(always)]
    fn repeats_a_kept_name(&self, name: &[u8], b: &Window) -> bool {
        self.list.iter().any(|a| same_name(b.slice(a.name), name))
    }

    /// Record the attribute named at `span` unless it is a `repeat`; returns whether it is kept.
    #[inline(always)]
    fn keep_unless(&mut self, repeat: bool, span: Span) -> bool {
        self.dropping = repeat;
        if !repeat {
            self.list.push(AttrRecord::without_value(span));
            self.settled += 1;
        }
        !repeat
    }

    /// Leave the linear mode: the checked names (all plain) go into a new table.
    #[cold]
    fn start_table(&mut self, b: &Window) {
        self.linear = false;
        self.bits = self.next_bits;
        // Not in use, the table is all empty: it only has to be large enough.
        self.empty_table(0);
        let seed = self.seed;
        let names = self.list[..self.settled].iter().map(|a| b.slice(a.name));
        self.hashes
            .extend(names.map(|name| hash_name(name, seed).0));
        self.place_all();
    }

    /// Make the table `1 << bits` slots at least and all empty, from one whose slots are empty
    /// past the first `used`. A larger table is a new one, which the allocator hands out zeroed,
    /// mostly as pages the system zeroes on first use: zeroing it here would only add a pass over
    /// memory that is about to be touched.
    fn empty_table(&mut self, used: usize) {
        if self.table.len() < 1 << self.bits {
            self.table = vec![0; 1 << self.bits];
        } else {
            self.table[..used].fill(0);
        }
    }

    /// Find the `name` (`plain`, or else already decoded into `names`), hashing to `hash`, among
    /// the kept names: `true` when it is there, else it is placed under the next key, the index in
    /// `list` of the attribute that the caller records next.
    #[inline]
    fn find_or_insert(&mut self, name: &[u8], plain: bool, hash: u32, b: &Window) -> bool {
        let key = self.list.len();
        if key + 1 > max_load(self.bits) {
            self.grow();
        }
        let low = Slot::low(self.bits);
        let mut at = hash & low;
        loop {
            let slot = self.table[at as usize];
            if slot == 0 {
                self.table[at as usize] = Slot::pack(hash, key, low);
                self.hashes.push(hash);
                return false;
            }
            if (slot ^ hash) & !low == 0 && self.is_name(Slot::key(slot, low), name, plain, b) {
                return true;
            }
            at = (at + 1) & low;
        }
    }

    /// Whether the kept attribute `key` is named `name` (`plain`, or else decoded in `names`).
    fn is_name(&mut self, key: usize, name: &[u8], plain: bool, b: &Window) -> bool {
        let kept = b.slice(self.list[key].name);
        if plain {
            // Not equal to a kept name that is not plain: that one has a byte no plain name has.
            return same_name(kept, name);
        }
        if is_plain(kept) {
            return false;
        }
        let decoded = self.names.len();
        push_decoded_name(&mut self.names, kept);
        let same = self.names[..decoded] == self.names[decoded..];
        self.names.truncate(decoded);
        same
    }

    /// Double the table, placing its keys again from their hashes.
    #[cold]
    fn grow(&mut self) {
        self.bits += 1;
        self.empty_table(1 << (self.bits - 1));
        self.place_all();
    }

    /// Put every key of `hashes` in the empty table, each in the first free place from its home on.
    fn place_all(&mut self) {
        let low = Slot::low(self.bits);
        for (key, &hash) in self.hashes.iter().enumerate() {
            let mut at = hash & low;
            while self.table[at as usize] != 0 {
                at = (at + 1) & low;
            }
            self.table[at as usize] = Slot::pack(hash, key, low);
        }
    }

    /// The value of the attribute in progress (if it is kept).
    pub(super) fn set_value(&mut self, value: Span, quote: u8) {
        if let Some(last) = self.list.last_mut().filter(|_| !self.dropping) {
            last.value = value;
            last.quote = quote;
        }
    }
}

/// Put the hash of each attribute's name of `list` (all plain) in `hashes`: a loop of its own,
/// which has the registers to itself.
#[inline(never)]
fn hash_names(hashes: &mut [u32], list: &[AttrRecord], b: &Window, seed: u64) {
    let (window, base) = (b.bytes, b.base);
    for (hash, a) in hashes.iter_mut().zip(list) {
        *hash = hash_in(window, a.name.start - base, a.name.len(), seed);
    }
}

/// Whether the kept attribute `key` has the plain name of `list[i]`. A repeat, or a rare collision
/// of two hashes: kept out of the probe loop.
#[cold]
#[inline(never)]
fn same_plain_name(list: &[AttrRecord], key: usize, i: usize, b: &Window) -> bool {
    // Not equal to a kept name that is not plain: that one has a byte no plain name has.
    same_name(b.slice(list[key].name), b.slice(list[i].name))
}

/// The most keys a table of `1 << bits` slots holds before it grows: half full.
#[inline(always)]
fn max_load(bits: u32) -> usize {
    1 << (bits - 1)
}

/// The size (as bits) of the smallest table that holds `keys` keys.
fn table_bits(keys: usize) -> u32 {
    let mut bits = FIRST_TABLE_BITS;
    while keys > max_load(bits) {
        bits += 1;
    }
    bits
}

/// Where the tag name state stops in `rest`: the first whitespace, `/` or `>` (or NUL, with
/// `errors`). Names are short and plain: a block of 16 bytes is looked at first for the end of a
/// plain name, and only a name with control or non-ASCII bytes is read on byte by byte.
#[inline(always)]
fn tag_name_stop(rest: &[u8], errors: bool) -> Option<usize> {
    let i = find_name_end(b'/', b'>', b'>', rest)?;
    tag_name_stop_from(rest, i, errors)
}

/// [`tag_name_stop`] from `rest[i]`, the first byte that is not a plain name byte.
#[inline(always)]
fn tag_name_stop_from(rest: &[u8], i: usize, errors: bool) -> Option<usize> {
    let stop = if errors {
        &TAG_NAME_STOP_ERRORS
    } else {
        &TAG_NAME_STOP
    };
    if stop.contains(rest[i]) {
        return Some(i);
    }
    find_in_set(stop, &rest[i + 1..]).map(|k| i + 1 + k)
}

/// Whether `name` decodes to itself up to ASCII case: ASCII without NUL.
#[inline]
fn is_plain(name: &[u8]) -> bool {
    name.iter().all(|&c| c.wrapping_sub(1) < 0x7F)
}

/// Whether two raw names are the same up to ASCII case: what `<[u8]>::eq_ignore_ascii_case`
/// does, written out so that it is inlined into the lane (the std call there cost 10.23 -> 10.70
/// instructions/byte on the corpus).
#[inline(always)]
fn same_name(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.eq_ignore_ascii_case(y))
}

/// An attribute name as the tree sees it: ASCII lowercased, NUL as U+FFFD, invalid UTF-8 as U+FFFD.
fn push_decoded_name(out: &mut Vec<u8>, raw: &[u8]) {
    if is_plain(raw) {
        out.extend(raw.iter().map(u8::to_ascii_lowercase));
        return;
    }
    for chunk in raw.utf8_chunks() {
        for &c in chunk.valid().as_bytes() {
            match c {
                0 => out.extend_from_slice("\u{FFFD}".as_bytes()),
                _ => out.push(c.to_ascii_lowercase()),
            }
        }
        if !chunk.invalid().is_empty() {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// [`hash_name`]'s hash of the `len` bytes of `window` from `start`; a name of up to 8 bytes is
/// read in one load when the window goes on for 8 bytes from its start (it usually does: the tag
/// goes on).
#[inline(always)]
fn hash_in(window: &[u8], start: usize, len: usize, seed: u64) -> u32 {
    if len.wrapping_sub(1) < 8 && start < window.len().saturating_sub(7) {
        let eight: [u8; 8] = window[start..start + 8].try_into().unwrap_or_default();
        // The name's bytes with ASCII case folded, zeros above: the bytes past it masked off.
        let word = (u64::from_le_bytes(eight) | FOLD) & LOW_BYTES[len];
        let h = seed ^ (len as u64).wrapping_mul(K0);
        return finish_hash(fold_multiply(h ^ word, K1));
    }
    hash_long_name(&window[start..start + len], seed)
}

/// [`hash_name`]'s hash of a name longer than 8 bytes (or at the window's end), out of the loops
/// that hash mostly short names, whose registers it would take.
#[cold]
#[inline(never)]
fn hash_long_name(name: &[u8], seed: u64) -> u32 {
    hash_name(name, seed).0
}

/// The 32-bit hash of a name from the state `h` its words were mixed into (each bit of `h` already
/// depends on all of them): the upper half of `h` times an odd constant, one more mixing step.
#[inline(always)]
fn finish_hash(h: u64) -> u32 {
    (h.wrapping_mul(K0) >> 32) as u32
}

/// Whether a word of `n` name bytes (zeros above) is all ASCII without NUL.
#[inline(always)]
fn word_is_plain(word: u64, n: usize) -> bool {
    // Bytes past the name become 1, so only the name's own zeros count.
    let padded = if n == 8 {
        word
    } else {
        word | (ONES << (8 * n))
    };
    let zero = padded.wrapping_sub(ONES) & !padded & HIGHS;
    (word & HIGHS) | zero == 0
}

/// A 32-bit hash of `name` with ASCII case folded, 8 bytes at a time, and whether the name is plain
/// (ASCII without NUL), found in the same pass. `seed` is random, so that a page cannot pick
/// names that all fall in one place of the table.
#[inline(always)]
fn hash_name(name: &[u8], seed: u64) -> (u32, bool) {
    let mut h = seed ^ (name.len() as u64).wrapping_mul(K0);
    let mut plain = true;
    let mut chunks = name.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        plain &= word_is_plain(word, 8);
        h = fold_multiply(h ^ (word | FOLD), K1);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let word = word(rest);
        plain &= word_is_plain(word, rest.len());
        let fold = FOLD >> (64 - 8 * rest.len());
        h = fold_multiply(h ^ (word | fold), K1);
    }
    (finish_hash(h), plain)
}

impl Machine {
    /// A start or end tag begins at `start` (its `<`): emit pending text first.
    #[inline(always)]
    pub(super) fn begin_tag(&mut self, start: usize, is_end_tag: bool) -> bool {
        let emitted = self.begin_token(start);
        self.tok.is_end_tag = is_end_tag;
        self.tok.name_start = start + 1 + usize::from(is_end_tag);
        self.attrs.clear();
        emitted
    }

    /// The tag ends with the `>` under the cursor: emit it.
    #[inline]
    pub(super) fn emit_tag(&mut self) -> Flow {
        let end = self.pos + 1;
        let span = Span {
            start: self.tok.start,
            end,
        };
        let name = Span {
            start: self.tok.name_start,
            end: self.tok.name_end,
        };
        if self.tok.is_end_tag {
            if self.attrs.any {
                self.error_here(ErrorCode::EndTagWithAttributes);
            }
            if self.tok.self_closing {
                self.error_here(ErrorCode::EndTagWithTrailingSolidus);
            }
            return self.emit_token(Record::end_tag(span, name), end);
        }
        let self_closing = self.tok.self_closing;
        self.emit_token(Record::start_tag(span, name, self_closing), end)
    }

    /// EOF inside a tag: eof-in-tag, and the tag is dropped.
    fn eof_in_tag(&mut self, b: &Window) -> Flow {
        self.error(ErrorCode::EofInTag, b.end());
        self.drop_token_at_eof(b)
    }

    /// §13.2.5.8 Tag name state, where the driver loop resumes it (as after the text before the
    /// tag was handed out).
    #[inline(never)]
    pub(super) fn tag_name_state(&mut self, b: &Window) -> Flow {
        self.tag_name(b)
    }

    /// §13.2.5.8 Tag name state, inlined into the states that lead to it: a plain name that ends
    /// within 16 bytes is read here; anything else goes to
    /// [`Machine::tag_name_state_in_general`]. The states it leads to are entered by calling them,
    /// not through the driver loop: a tag is one call from its name to its `>`.
    #[inline(always)]
    pub(super) fn tag_name(&mut self, b: &Window) -> Flow {
        let rest = b.rest(self.pos);
        let hit = rest
            .get(..16)
            .and_then(|block| find_name_end(b'/', b'>', b'>', block));
        match hit {
            Some(i) if TAG_NAME_STOP.contains(rest[i]) => self.tag_name_ends_at(b, i),
            _ => self.tag_name_state_in_general(b, hit),
        }
    }

    /// The tag name ends at whitespace, `/` or `>`, `i` bytes from the cursor.
    #[inline(always)]
    fn tag_name_ends_at(&mut self, b: &Window, i: usize) -> Flow {
        self.pos += i;
        self.tok.name_end = self.pos;
        match b.rest(self.pos)[0] {
            b'>' => self.emit_tag(),
            b'/' => {
                self.pos += 1;
                self.state = State::SelfClosingStartTag;
                self.self_closing_start_tag_state(b)
            }
            _ => {
                self.pos += 1;
                self.state = State::BeforeAttributeName;
                self.before_attribute_name_state(b)
            }
        }
    }

    /// §13.2.5.8 Tag name state, at any byte; `hit` is where [`find_name_end`] stopped in the
    /// window from the cursor, if it was called. NULs (errors on) are reported and stepped over
    /// in this loop, a run of them at once.
    #[inline(never)]
    fn tag_name_state_in_general(&mut self, b: &Window, hit: Option<usize>) -> Flow {
        let errors = self.config.errors;
        let mut stop = match hit {
            Some(i) => tag_name_stop_from(b.rest(self.pos), i, errors),
            None => tag_name_stop(b.rest(self.pos), errors),
        };
        loop {
            let Some(i) = stop else {
                self.pos = b.end();
                return if b.eof {
                    self.eof_in_tag(b)
                } else {
                    Flow::NeedMore
                };
            };
            if b.rest(self.pos)[i] != 0 {
                return self.tag_name_ends_at(b, i);
            }
            self.pos += i;
            self.step_over_nulls(b);
            stop = tag_name_stop(b.rest(self.pos), errors);
        }
    }

    /// §13.2.5.32 Before attribute name state.
    pub(super) fn before_attribute_name_state(&mut self, b: &Window) -> Flow {
        self.skip_whitespace(b);
        match self.current(b) {
            Err(flow) => flow,
            Ok(None | Some(b'/' | b'>')) => {
                self.state = State::AfterAttributeName;
                self.after_attribute_name_state(b)
            }
            Ok(Some(b'=')) => {
                self.error_here(ErrorCode::UnexpectedEqualsSignBeforeAttributeName);
                self.tok.data_start = self.pos;
                self.pos += 1;
                self.state = State::AttributeName;
                Flow::Continue
            }
            Ok(Some(_)) => self.attribute_run(b),
        }
    }

    /// §13.2.5.33–39 for a run of attributes, from a name that starts at the cursor: names, values
    /// and the whitespace between them in one loop, with the same transitions and actions as the
    /// state functions (a tag with many attributes does not go through the state dispatch four
    /// times for each). At anything else (a byte that raises an error or starts a character
    /// reference, the end of the tag or of the window) it leaves the machine in the state the
    /// state functions are in at that byte, to go on from exactly there.
    fn attribute_run(&mut self, b: &Window) -> Flow {
        let bytes = b.bytes;
        let errors = self.config.errors;
        let unquoted_stop = if errors {
            &UNQUOTED_STOP_ERRORS
        } else {
            &UNQUOTED_STOP
        };
        let mut i = self.pos - b.base;
        loop {
            // Attribute name, from a byte that is not whitespace, `/`, `>` or `=`.
            self.tok.data_start = b.base + i;
            let Some(end) = self.attribute_name_end(b, i) else {
                return self.resume_at(State::AttributeName, b, bytes.len());
            };
            let c = bytes[end];
            self.pos = b.base + end;
            self.finish_attribute_name(b);
            let mut j = end;
            if c != b'=' {
                // After attribute name.
                j = skip_whitespace(bytes, j);
                match bytes.get(j) {
                    Some(b'=') => {}
                    Some(b'/' | b'>') => return self.close_tag_at(b, j),
                    None => return self.resume_at(State::AfterAttributeName, b, j),
                    Some(_) => {
                        i = j;
                        continue;
                    }
                }
            }
            // Before attribute value.
            j = skip_whitespace(bytes, j + 1);
            i = match bytes.get(j) {
                Some(&quote @ (b'"' | b'\'')) => {
                    let start = j + 1;
                    self.tok.data_start = b.base + start;
                    let rest = &bytes[start..];
                    let hit = if errors {
                        find3(quote, b'&', 0, rest)
                    } else {
                        find1(quote, rest)
                    };
                    let k = hit.map_or(bytes.len(), |k| start + k);
                    if bytes.get(k) != Some(&quote) {
                        let state = if quote == b'"' {
                            State::AttributeValueDoubleQuoted
                        } else {
                            State::AttributeValueSingleQuoted
                        };
                        return self.resume_at(state, b, k);
                    }
                    let value = Span {
                        start: b.base + start,
                        end: b.base + k,
                    };
                    self.attrs.set_value(value, quote);
                    // After attribute value (quoted).
                    match bytes.get(k + 1) {
                        Some(&c) if is_whitespace(c) => k + 2,
                        _ => {
                            self.resume_at(State::AfterAttributeValueQuoted, b, k + 1);
                            return self.after_attribute_value_quoted_state(b);
                        }
                    }
                }
                Some(b'>') | None => return self.resume_at(State::BeforeAttributeValue, b, j),
                Some(_) => {
                    self.tok.data_start = b.base + j;
                    let k = find_in_set(unquoted_stop, &bytes[j..]).map_or(bytes.len(), |k| j + k);
                    let value = Span {
                        start: b.base + j,
                        end: b.base + k,
                    };
                    match bytes.get(k) {
                        Some(&c) if is_whitespace(c) => {
                            self.attrs.set_value(value, 0);
                            k + 1
                        }
                        Some(b'>') => {
                            self.attrs.set_value(value, 0);
                            self.pos = b.base + k;
                            return self.emit_tag();
                        }
                        _ => return self.resume_at(State::AttributeValueUnquoted, b, k),
                    }
                }
            };
            // Before attribute name.
            i = skip_whitespace(bytes, i);
            match bytes.get(i) {
                Some(b'/' | b'>') => return self.close_tag_at(b, i),
                Some(b'=') | None => return self.resume_at(State::BeforeAttributeName, b, i),
                Some(_) => {}
            }
        }
    }

    /// The `/` or `>` at window index `at`, where the before or after attribute name state reads
    /// it: `>` ends the tag, `/` leads to the self-closing start tag state.
    fn close_tag_at(&mut self, b: &Window, at: usize) -> Flow {
        self.pos = b.base + at;
        if b.bytes[at] == b'>' {
            return self.emit_tag();
        }
        self.pos += 1;
        self.state = State::SelfClosingStartTag;
        self.self_closing_start_tag_state(b)
    }

    /// Go on in `state` at window index `at`.
    fn resume_at(&mut self, state: State, b: &Window, at: usize) -> Flow {
        self.state = state;
        self.pos = b.base + at;
        Flow::Continue
    }

    /// Skip ASCII whitespace at the cursor.
    pub(super) fn skip_whitespace(&mut self, b: &Window) {
        self.pos = b.base + skip_whitespace(b.bytes, self.pos - b.base);
    }

    /// Leaving the attribute name state: the name is complete; check it against the others (now,
    /// or in [`Machine::settle_attributes`]).
    #[inline(always)]
    pub(super) fn finish_attribute_name(&mut self, b: &Window) {
        let span = Span {
            start: self.tok.data_start,
            end: self.pos,
        };
        let name = b.slice(span);
        if is_plain(name) {
            if self.attrs.list.len() >= LINEAR_LIMIT {
                // A large tag: recorded unchecked.
                if self.config.errors {
                    self.attrs.error_at.push(self.errors.list.len());
                }
                self.attrs.push_unchecked(span);
                return;
            }
            if self.attrs.linear {
                // A small tag (no unchecked attributes then): compare with the others at once.
                if !self.attrs.add_linear(span, name, b) {
                    self.error_here(ErrorCode::DuplicateAttribute);
                }
                return;
            }
        }
        self.finish_attribute_name_now(b, span);
    }

    /// [`Machine::finish_attribute_name`] for a name that is not plain, or once the table is in
    /// use: checked at once, after the unchecked ones.
    #[inline(never)]
    fn finish_attribute_name_now(&mut self, b: &Window, span: Span) {
        self.settle_attributes(b);
        if !self.attrs.add(span, b) {
            self.error_here(ErrorCode::DuplicateAttribute);
        }
    }

    /// Check the attributes recorded unchecked, before the tag is handed out, before the machine
    /// stops (its errors are then taken, in order), and before a name that is checked at once.
    #[inline]
    pub(crate) fn settle_attributes(&mut self, b: &Window) {
        if self.attrs.settled < self.attrs.list.len() {
            self.settle_attributes_now(b);
        }
    }

    #[inline(never)]
    fn settle_attributes_now(&mut self, b: &Window) {
        self.attrs.settle_unchecked(b, self.config.errors);
        if self.attrs.repeats.is_empty() {
            self.attrs.error_at.clear();
            return;
        }
        // Each repeat's error goes where it would have been reported: after the errors reported
        // before its name was complete. Merged from the back, in place; those that land past the
        // cap (or push others past it) are counted instead.
        let (repeats, error_at) = (&self.attrs.repeats, &self.attrs.error_at);
        let errors = &mut self.errors.list;
        let mut end = errors.len();
        errors.resize(end + repeats.len(), (0, ErrorCode::DuplicateAttribute));
        for (j, &(offset, i)) in repeats.iter().enumerate().rev() {
            let at = error_at[i];
            errors.copy_within(at..end, at + j + 1);
            errors[at + j] = (offset, ErrorCode::DuplicateAttribute);
            end = at;
        }
        self.errors.drop_past_cap();
        self.attrs.repeats.clear();
        self.attrs.error_at.clear();
    }

    /// §13.2.5.33 Attribute name state (the attribute's name starts at `tok.data_start`).
    pub(super) fn attribute_name_state(&mut self, b: &Window) -> Flow {
        let Some(end) = self.attribute_name_end(b, self.pos - b.base) else {
            self.pos = b.end();
            if !b.eof {
                return Flow::NeedMore;
            }
            self.finish_attribute_name(b);
            self.state = State::AfterAttributeName;
            return Flow::Continue;
        };
        self.pos = b.base + end;
        self.finish_attribute_name(b);
        if b.bytes[end] == b'=' {
            self.pos += 1;
            self.state = State::BeforeAttributeValue;
        } else {
            self.state = State::AfterAttributeName;
        }
        Flow::Continue
    }

    /// §13.2.5.33 Attribute name state from window index `from`: the index of the whitespace,
    /// `/`, `>` or `=` that ends the name, or `None` at the end of the window. On the way
    /// (errors on), a NUL is an unexpected-null-character and `"`, `'` or `<` an
    /// unexpected-character-in-attribute-name; both stay in the name (the NUL decodes to U+FFFD).
    #[inline]
    fn attribute_name_end(&mut self, b: &Window, from: usize) -> Option<usize> {
        let stop = if self.config.errors {
            &ATTR_NAME_STOP_ERRORS
        } else {
            &ATTR_NAME_STOP
        };
        let k = from + find_in_set(stop, &b.bytes[from..])?;
        match b.bytes[k] {
            0 | b'"' | b'\'' | b'<' => self.attribute_name_end_after_errors(b, k),
            _ => Some(k),
        }
    }

    /// [`Machine::attribute_name_end`] from the byte at window index `k`, which raises an error.
    #[cold]
    #[inline(never)]
    fn attribute_name_end_after_errors(&mut self, b: &Window, mut k: usize) -> Option<usize> {
        loop {
            let i = match b.bytes[k] {
                0 => {
                    self.pos = b.base + k;
                    self.step_over_nulls(b);
                    self.pos - b.base
                }
                b'"' | b'\'' | b'<' => {
                    self.error(ErrorCode::UnexpectedCharacterInAttributeName, b.base + k);
                    k + 1
                }
                _ => return Some(k),
            };
            k = i + find_in_set(&ATTR_NAME_STOP_ERRORS, &b.bytes[i..])?;
        }
    }

    /// §13.2.5.34 After attribute name state.
    pub(super) fn after_attribute_name_state(&mut self, b: &Window) -> Flow {
        self.skip_whitespace(b);
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_tag(b),
            Ok(Some(b'/')) => {
                self.pos += 1;
                self.state = State::SelfClosingStartTag;
                self.self_closing_start_tag_state(b)
            }
            Ok(Some(b'=')) => {
                self.pos += 1;
                self.state = State::BeforeAttributeValue;
                Flow::Continue
            }
            Ok(Some(b'>')) => self.emit_tag(),
            Ok(Some(_)) => {
                self.tok.data_start = self.pos;
                self.state = State::AttributeName;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.35 Before attribute value state.
    pub(super) fn before_attribute_value_state(&mut self, b: &Window) -> Flow {
        self.skip_whitespace(b);
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(q @ (b'"' | b'\''))) => {
                self.pos += 1;
                self.tok.data_start = self.pos;
                self.state = if q == b'"' {
                    State::AttributeValueDoubleQuoted
                } else {
                    State::AttributeValueSingleQuoted
                };
                Flow::Continue
            }
            Ok(Some(b'>')) => {
                self.error_here(ErrorCode::MissingAttributeValue);
                self.emit_tag()
            }
            Ok(_) => {
                self.tok.data_start = self.pos;
                self.state = State::AttributeValueUnquoted;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.36/37 Attribute value (double-quoted / single-quoted) states.
    pub(super) fn attribute_value_quoted_state(&mut self, b: &Window, quote: u8) -> Flow {
        let rest = b.rest(self.pos);
        let hit = if self.config.errors {
            find3(quote, b'&', 0, rest)
        } else {
            find1(quote, rest)
        };
        let Some(i) = hit else {
            self.pos = b.end();
            return if b.eof {
                self.eof_in_tag(b)
            } else {
                Flow::NeedMore
            };
        };
        self.pos += i;
        match rest[i] {
            b'&' => {
                self.begin_character_reference(self.state);
                return Flow::Continue;
            }
            0 => {
                self.step_over_nulls(b);
                return Flow::Continue;
            }
            _ => {
                let value = Span {
                    start: self.tok.data_start,
                    end: self.pos,
                };
                self.attrs.set_value(value, quote);
                self.state = State::AfterAttributeValueQuoted;
            }
        }
        self.pos += 1;
        Flow::Continue
    }

    /// §13.2.5.38 Attribute value (unquoted) state.
    pub(super) fn attribute_value_unquoted_state(&mut self, b: &Window) -> Flow {
        let stop = if self.config.errors {
            &UNQUOTED_STOP_ERRORS
        } else {
            &UNQUOTED_STOP
        };
        let rest = b.rest(self.pos);
        let Some(i) = find_in_set(stop, rest) else {
            self.pos = b.end();
            return if b.eof {
                self.eof_in_tag(b)
            } else {
                Flow::NeedMore
            };
        };
        self.pos += i;
        let c = rest[i];
        if WS.contains(&c) || c == b'>' {
            let value = Span {
                start: self.tok.data_start,
                end: self.pos,
            };
            self.attrs.set_value(value, 0);
            if c == b'>' {
                return self.emit_tag();
            }
            self.state = State::BeforeAttributeName;
        } else if c == b'&' {
            self.begin_character_reference(State::AttributeValueUnquoted);
            return Flow::Continue;
        } else if c == 0 {
            self.step_over_nulls(b);
            return Flow::Continue;
        } else {
            self.error_here(ErrorCode::UnexpectedCharacterInUnquotedAttributeValue);
        }
        self.pos += 1;
        Flow::Continue
    }

    /// §13.2.5.39 After attribute value (quoted) state.
    pub(super) fn after_attribute_value_quoted_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_tag(b),
            Ok(Some(c)) if is_whitespace(c) => {
                self.pos += 1;
                self.state = State::BeforeAttributeName;
                Flow::Continue
            }
            Ok(Some(b'/')) => {
                self.pos += 1;
                self.state = State::SelfClosingStartTag;
                Flow::Continue
            }
            Ok(Some(b'>')) => self.emit_tag(),
            Ok(Some(_)) => {
                self.error_here(ErrorCode::MissingWhitespaceBetweenAttributes);
                self.state = State::BeforeAttributeName;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.40 Self-closing start tag state.
    pub(super) fn self_closing_start_tag_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_tag(b),
            Ok(Some(b'>')) => {
                self.tok.self_closing = true;
                self.emit_tag()
            }
            Ok(Some(_)) => {
                self.error_here(ErrorCode::UnexpectedSolidusInTag);
                self.state = State::BeforeAttributeName;
                Flow::Continue
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Add each name of `names` (laid out in one buffer) and return which were kept.
    fn kept(attrs: &mut Attrs, names: &[&str]) -> Vec<bool> {
        let joined = names.concat();
        let b = Window {
            bytes: joined.as_bytes(),
            base: 0,
            eof: true,
        };
        let mut start = 0;
        names
            .iter()
            .map(|n| {
                let span = Span {
                    start,
                    end: start + n.len(),
                };
                start += n.len();
                attrs.add(span, &b)
            })
            .collect()
    }

    #[test]
    fn a_name_hashes_alike_read_whole_or_by_parts() {
        let window = b"aBcDeFgHiJkLmNoPqRsTuVwXyZ\0\xE9-0123456789";
        for seed in [0, 1, u64::MAX, 0x1234_5678_9ABC_DEF0] {
            for start in 0..window.len() {
                for end in start..=window.len() {
                    let name = &window[start..end];
                    let folded: Vec<u8> = name.iter().map(u8::to_ascii_lowercase).collect();
                    assert_eq!(
                        hash_in(window, start, end - start, seed),
                        hash_name(name, seed).0,
                        "{name:?}"
                    );
                    if name.iter().all(u8::is_ascii_alphabetic) {
                        assert_eq!(hash_name(name, seed).0, hash_name(&folded, seed).0);
                    }
                    assert_eq!(hash_name(name, seed).1, is_plain(name), "{name:?}");
                }
            }
        }
    }

    #[test]
    fn repeats_are_found_in_small_and_large_tags() {
        let mut attrs = Attrs::default();
        for round in 0..2 {
            attrs.clear();
            let mut names: Vec<String> = (0..1000).map(|i| format!("a{i}")).collect();
            names.extend(["A999".into(), "a0".into(), "b".into()]);
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let kept = kept(&mut attrs, &names);
            assert!(kept[..1000].iter().all(|&k| k), "round {round}");
            assert_eq!(kept[1000..], [false, false, true]);
            assert_eq!(attrs.list.len(), 1001);
        }
        attrs.clear();
        assert_eq!(
            kept(&mut attrs, &["x", "Y", "X", "y", "\0", "\u{FFFD}"]),
            [true, true, false, false, true, false]
        );
        attrs.clear();
        let names: Vec<String> = (0..20)
            .flat_map(|i| [format!("n{i}"), "N0".into()])
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let kept = kept(&mut attrs, &names);
        assert!(kept.iter().step_by(2).all(|&k| k));
        assert!(kept.iter().skip(3).step_by(2).all(|&k| !k));
    }

    #[test]
    fn names_that_are_not_plain_are_compared_decoded_as_the_table_grows() {
        let mut attrs = Attrs::default();
        for round in 0..2 {
            attrs.clear();
            // Decoded, `\0` is U+FFFD and `X` is `x`: each name of the second half repeats one
            // of the first, and no plain name repeats one that is not plain.
            let first = (0..600).map(|i| match i % 3 {
                0 => format!("\0x{i}"),
                1 => format!("\u{e9}{i}"),
                _ => format!("x{i}"),
            });
            let again = (0..600).map(|i| match i % 3 {
                0 => format!("\u{FFFD}X{i}"),
                1 => format!("\u{e9}{i}"),
                _ => format!("X{i}"),
            });
            let mut names: Vec<String> = first.chain(again).collect();
            names.extend(["\u{FFFD}x0".into(), "\u{C9}1".into(), "\u{FFFD}".into()]);
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let kept = kept(&mut attrs, &names);
            assert!(kept[..600].iter().all(|&k| k), "round {round}");
            assert!(kept[600..1201].iter().all(|&k| !k), "round {round}");
            assert_eq!(kept[1201..], [true, true], "round {round}");
            assert_eq!(attrs.list.len(), 602);
        }
    }
}
