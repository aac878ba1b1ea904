//! XML5 tree construction: the draft's tree stage (spec/002 §1.4) with Namespaces in XML 1.0,
//! streaming, and a small document tree built from it.
//!
//! - [`Parser`] runs the XML5 tokenizer and the tree stage: feed it chunks, read [`Event`]s —
//!   each element's start ([`Start`]: its name with its namespace resolved, its depth, its
//!   attributes with theirs) and end ([`End`], with its [`EndCause`]: its end tag, a mismatched
//!   end tag that popped up to an element it was inside, a short end tag `</>`, an empty tag,
//!   the end of the input), text, comments, processing instructions and the DOCTYPE. Nothing
//!   after the root element but comments, processing instructions and whitespace is kept; the
//!   rest is dropped with a [`TreeError`].
//! - [`Events::recording`] also hands back the input's tokens as the stage takes them
//!   ([`Pulled`]), for a tool that shows each token with where the stage put it (`tagstream
//!   tokens --dialect xml5 --tree`); off, it costs nothing.
//! - [`Document`] (built by [`TreeBuilder`] from the events) holds the tree in two vectors and a
//!   string, and the parse errors of both the tokenizer and the tree stage; [`xml5lib_tree`]
//!   writes it in the xml5lib-tests tree format.
//!
//! ## The tree stage
//!
//! The draft's phases, followed where it speaks and, where it is silent, the way
//! xml5lib-tests' `tree-construction` cases want:
//!
//! | phase | token | what happens |
//! |---|---|---|
//! | start | start tag | the root element opens; main phase |
//! | start | empty tag | the root element opens and ends; end phase |
//! | start | comment, processing instruction | kept, in the document |
//! | start | the first DOCTYPE | kept (the suite keeps it; the draft says "anything else: ignore") |
//! | start | whitespace as written (not a character reference) | dropped silently (XML's `Misc`) |
//! | start | other text, end tag, another DOCTYPE | dropped, `content-before-root-element` / `misplaced-doctype` |
//! | start | end of input | `missing-root-element` |
//! | main | text, comment, processing instruction | kept, in the current element |
//! | main | start tag / empty tag | an element opens (and, empty, ends) |
//! | main | end tag naming the current element | it ends |
//! | main | end tag naming an element further down | `mismatched-end-tag`; the elements above it end ([`EndCause::Implied`]), then it |
//! | main | end tag naming no open element | dropped, `unmatched-end-tag` |
//! | main | short end tag `</>` | the current element ends |
//! | main | DOCTYPE | dropped, `misplaced-doctype` |
//! | main | end of input | `eof-with-open-elements`; every open element ends |
//! | end | comment, processing instruction | kept, in the document |
//! | end | whitespace as written | dropped silently |
//! | end | anything else | dropped, `content-after-root-element` |
//!
//! The XML declaration is a processing instruction to the tokenizer and stays one here (target
//! `xml`), so that nothing of the input is lost.
//!
//! ## Entities
//!
//! The first DOCTYPE's internal subset is read for its general internal entities
//! (`<!ENTITY name "value">`; what else is skipped and reported, and how a replacement text is
//! made: `subset.rs`). In the main phase a reference `&name;` in text or in an attribute value
//! resolves, in this order:
//!
//! 1. an entity the subset declares (the first declaration of a name): its replacement text,
//!    expanded;
//! 2. one of XML's five predefined entities (`lt`, `gt`, `amp`, `apos`, `quot`; declaring them
//!    changes nothing);
//! 3. with [`TreeOptions::html_entities`] (the default, as xml5lib-tests expects), HTML's named
//!    character references;
//! 4. anything else stays as written, with `undeclared-entity`.
//!
//! Entity names are at most 256 bytes, as far as a reference cut by a chunk seam is looked
//! for: a longer declaration is skipped (`declaration-skipped`) and a reference with a longer
//! name is text, with no error from the stage, so that cutting the input changes nothing.
//!
//! In text, a replacement text is tokenized as XML5 content (once, at the DOCTYPE) and its
//! tokens go through the tree stage as if written where the reference is: `<!ENTITY kappname
//! "<application>Konsole</application>">` gives an element, its tags may end elements opened
//! outside it (XML would call that not well-formed; XML5 takes tags as they come), its comments
//! and PIs are kept. References in it are expanded in turn. Events from a replacement text report
//! their errors, and [`End::span`] and [`CharData::span`], at the reference in the document.
//! In an attribute value, a replacement text is part of the value, its references expanded in
//! turn; a `<` in it is kept as a character, with `less-than-in-attribute-entity` (XML 1.0
//! §3.1's "No < in Attribute Values" is a well-formedness error; XML5 keeps data). Namespace
//! declarations see the expanded value (`xmlns="&ns;"`). References in CDATA sections,
//! comments and PIs are not references; before and after the root element text is dropped
//! whole, references and all.
//!
//! Limits, per document: expansions nested at most [`TreeOptions::max_entity_depth`] deep
//! (default 16) and at most [`TreeOptions::max_entity_bytes`] of replacement text expanded in
//! all (default 4 MiB; each expansion counts at least one byte). The reference that would pass
//! one stays as written, with `entity-expansion-limit` and an [`EntityError`]
//! ([`Parser::entity_error`]); expansion stops there for the rest of the document, which goes
//! on. A billion laughs or a quadratic blowup so stops within the byte limit, in time
//! proportional to it. A reference inside its own expansion (`a` → `b` → `a`) stays as written,
//! with `recursive-entity-reference`.
//!
//! Documents without a subset (and `html_entities` on) pay nothing for this: their text and
//! attribute values are the tokenizer's, untouched. With one, a text token holding an `&` is
//! cut at the references the stage resolves itself (those the tokenizer resolves, numeric,
//! predefined and HTML ones, are left to its decoding); a name a chunk seam cuts (`&proj` |
//! `ect;`) is kept back, copied, until the next text token. The declared names are handed to
//! the tokenizer at the DOCTYPE, so that with errors on it does not report a reference to one
//! as an unknown named character reference (nor `&notice;` as HTML's `&not` missing its
//! semicolon).
//!
//! ## Namespaces
//!
//! Resolved at each start tag, Namespaces in XML 1.0 with its 1.1 undeclaring: the tag's own
//! declarations (`xmlns="uri"`, `xmlns:p="uri"`) apply to it and to its attributes and last until
//! it ends (an empty tag's end at once); `xmlns=""` and `xmlns:p=""` undeclare. `xml` is always
//! bound to [`XML_NAMESPACE`]. An unprefixed element is in the default namespace, an unprefixed
//! attribute in none. Declarations stay attributes, in [`XMLNS_NAMESPACE`], as xml5lib-tests'
//! `namespace.dat` lists them. Errors keep data: a prefix bound to nothing leaves the name as
//! written, in no namespace (`unbound-prefix`); a forbidden declaration (`xmlns:xmlns`, `xml`
//! to another URI, a prefix to the `xml` or `xmlns` namespace) is not applied and stays an
//! attribute in no namespace (`reserved-namespace-declaration`); a name with a stray colon is
//! kept whole, in no namespace (`invalid-qualified-name`); of two attributes with one expanded
//! name, the second is dropped (`duplicate-expanded-attribute`).
//!
//! ## Why an adaptor, not a `Feedback` stage
//!
//! HTML's simulator sits on the feedback seam because HTML's tree builder switches the lexer
//! (RCDATA after `<title>`, CDATA only in foreign content). XML5's tokenizer needs no switch:
//! its states do not depend on the tree. And the seam hands tokens through one at a time,
//! while the tree stage must say more than a token: one end tag can end several elements, an
//! empty tag is a start and an end, and every name carries a namespace the token does not
//! have. So the stage is an adaptor over [`Tokens`](super::Tokens): it pulls tokens and hands
//! out events, several per token when needed, and the lexer runs exactly as without it (XML5
//! keeps its `NoStage` on the seam, `src/feedback.rs`).
//!
//! An event borrows the stage (names and namespace URIs live there, not in the token), so
//! events come from [`Events::next_event`], one at a time, rather than from an [`Iterator`].
//!
//! ## Memory and time
//!
//! Between tokens the stage holds the open elements (names, namespaces, scope marks), the
//! namespace bindings in scope, the current tag's attribute slots (and expanded values), the
//! entity table of the internal subset with the expansions in progress (at most
//! [`TreeOptions::max_entity_depth`]) and the errors not taken: nothing that grows with the
//! document but with its nesting and its DOCTYPE, and [`TreeOptions::max_depth`] bounds that (a
//! [`DepthError`] stops the stream). Decoding a replacement text's pieces allocates in an arena
//! emptied at every feed, bounded by [`TreeOptions::max_entity_bytes`]. In steady state no
//! token allocates: the stage's vectors and strings keep their capacity. A prefix lookup is a
//! hash probe (none when the prefix is the one looked up last); an end tag is matched against
//! the current element on its raw bytes first (decoded only when they differ); one that does
//! not name the current element walks at most the 16 outermost open elements, and probes a
//! count of the deeper ones' name hashes, so a deep stack and many stray end tags stay linear;
//! repeated expanded attribute names are found by sorting.

mod dom;
mod format;
mod names;
mod stage;
mod subset;

pub use dom::{Children, Descendants, Document, Element, Node, NodeId, NodeKind, TreeBuilder};
pub use format::xml5lib_tree;
pub use names::{QName, XML_NAMESPACE, XMLNS_NAMESPACE};
pub use stage::{
    CharData, DepthError, End, EndCause, EntityError, EntityLimit, Event, Events, NsAttribute,
    NsAttributes, Parser, Pulled, Start, TreeError, TreeErrorCode, TreeOptions,
};
