//! What a [`Transcoder`](super::Transcoder) asks of the tokenizer it feeds: the tokenizer's
//! streaming calls, and the dialect's rule for deciding the encoding (HTML: the HTML Standard's
//! sniffing, with `<meta>` able to change a tentative choice; XML: a BOM, the transport label, the
//! XML declaration, else UTF-8, all certain).

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

use super::{PRESCAN_LEN, Sniffed, sniff_with, sniff_xml_with, xml_sniff_decided};
use crate::Token;
use crate::options::Options;

mod sealed {
    /// Only this crate's tokenizers are [`Tokenize`](super::Tokenize).
    pub trait Sealed {}
}

/// A tokenizer a [`Transcoder`](super::Transcoder) can feed: [`crate::Tokenizer`] (HTML, the
/// default) or [`crate::xml5::Tokenizer`]. Sealed: its members are the transcoder's business.
pub trait Tokenize: sealed::Sealed + Sized {
    /// The tokens of one feed.
    #[doc(hidden)]
    type Tokens<'t>: Iterator<Item = Token<'t>>
    where
        Self: 't;

    /// The encoding when nothing else decides.
    #[doc(hidden)]
    const DEFAULT_ENCODING: &'static Encoding;

    #[doc(hidden)]
    fn with_options(options: Options) -> Self;
    #[doc(hidden)]
    fn reset(&mut self);
    #[doc(hidden)]
    fn feed<'t>(&'t mut self, chunk: &'t [u8]) -> Self::Tokens<'t>;
    #[doc(hidden)]
    fn feed_last<'t>(&'t mut self, chunk: &'t [u8]) -> Self::Tokens<'t>;
    #[doc(hidden)]
    fn retained_from(&self) -> usize;

    /// The dialect's sniffing on the document's first bytes (at most [`PRESCAN_LEN`]).
    #[doc(hidden)]
    fn sniff(
        prefix: &[u8],
        transport: Option<&'static Encoding>,
        default: &'static Encoding,
    ) -> Sniffed;

    /// Whether `start` (the first bytes held back, fewer than [`PRESCAN_LEN`]) already decide
    /// the encoding, before a BOM or transport label is looked at.
    #[doc(hidden)]
    fn decided_early(start: &[u8]) -> bool;
}

impl sealed::Sealed for crate::Tokenizer {}

impl Tokenize for crate::Tokenizer {
    type Tokens<'t> = crate::Tokens<'t>;

    const DEFAULT_ENCODING: &'static Encoding = WINDOWS_1252;

    fn with_options(options: Options) -> Self {
        crate::Tokenizer::new(options)
    }

    fn reset(&mut self) {
        crate::Tokenizer::reset(self);
    }

    fn feed<'t>(&'t mut self, chunk: &'t [u8]) -> crate::Tokens<'t> {
        crate::Tokenizer::feed(self, chunk)
    }

    fn feed_last<'t>(&'t mut self, chunk: &'t [u8]) -> crate::Tokens<'t> {
        crate::Tokenizer::feed_last(self, chunk)
    }

    fn retained_from(&self) -> usize {
        crate::Tokenizer::retained_from(self)
    }

    fn sniff(
        prefix: &[u8],
        transport: Option<&'static Encoding>,
        default: &'static Encoding,
    ) -> Sniffed {
        sniff_with(prefix, transport, default)
    }

    /// The prescan reads up to 1024 bytes: nothing shorter decides.
    fn decided_early(start: &[u8]) -> bool {
        start.len() >= PRESCAN_LEN
    }
}

impl sealed::Sealed for crate::xml5::Tokenizer {}

impl Tokenize for crate::xml5::Tokenizer {
    type Tokens<'t> = crate::xml5::Tokens<'t>;

    const DEFAULT_ENCODING: &'static Encoding = UTF_8;

    fn with_options(options: Options) -> Self {
        crate::xml5::Tokenizer::new(options)
    }

    fn reset(&mut self) {
        crate::xml5::Tokenizer::reset(self);
    }

    fn feed<'t>(&'t mut self, chunk: &'t [u8]) -> crate::xml5::Tokens<'t> {
        crate::xml5::Tokenizer::feed(self, chunk)
    }

    fn feed_last<'t>(&'t mut self, chunk: &'t [u8]) -> crate::xml5::Tokens<'t> {
        crate::xml5::Tokenizer::feed_last(self, chunk)
    }

    fn retained_from(&self) -> usize {
        crate::xml5::Tokenizer::retained_from(self)
    }

    fn sniff(
        prefix: &[u8],
        transport: Option<&'static Encoding>,
        default: &'static Encoding,
    ) -> Sniffed {
        sniff_xml_with(prefix, transport, default)
    }

    /// Decided once the start can no longer be a BOM or an XML declaration, or holds a whole
    /// declaration.
    fn decided_early(start: &[u8]) -> bool {
        xml_sniff_decided(start)
    }
}
