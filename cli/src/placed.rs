//! `tagstream tokens --dialect xml5 --tree`: every token of the input printed as `tokens
//! --dialect xml5` prints it (the same JSON line, spans in the input's bytes, parse errors
//! interleaved the same way), plus where the XML5 tree stage ([`tagstream::xml5::tree`]) put it:
//!
//! - `"namespace"`: the namespace URI of the element concerned, or `null` (none, or at document
//!   level); `"depth"`: its depth, the root element being 1 (as [`Start::depth`](tagstream::xml5::tree::Start::depth)).
//! - A start tag (also an empty one): the element it opens. An end tag: the element it ends
//!   (an end tag that ends several elements by mismatch: the one it names; a short end tag
//!   `</>`: the current element). Text, comments, processing instructions: the element that
//!   contains them, depth 0 and namespace `null` at document level. A DOCTYPE kept: depth 0.
//! - A token the stage drops has `"namespace": null, "depth": null` and `"dropped"`, which says
//!   why: `"before-root"` (text, whitespace too, or an end tag before the root element),
//!   `"after-root"` (anything but comments and processing instructions after it),
//!   `"unmatched-end-tag"` (it names no open element), `"misplaced-doctype"` (a DOCTYPE after
//!   the first or inside the document), `"depth-limit"` (the start tag the depth limit, 4096
//!   open elements, stopped the stream at, and every token after it), `"raw"` (a `--lossless` raw line: bytes that make no token). Tokens
//!   that are kept have no `"dropped"`.
//! - Entities: the tree stage expands the internal subset's entities, whose replacement texts
//!   make tokens that are not in the input: those are not printed (a text token with a
//!   reference is printed once, as the tokenizer made it, placed where it stands; elements
//!   opened by a replacement text count in the depth of what follows them). The tokenizer is
//!   told the declared names, so a reference to one is no character-reference error here, as
//!   it is without `--tree` (and at a chunk seam near one, text may be cut elsewhere).
//! - With `--errors`, the tree stage's parse errors (codes of
//!   [`TreeErrorCode`](tagstream::xml5::tree::TreeErrorCode), e.g. `mismatched-end-tag`) are
//!   printed as error lines too, in the same shape, after the token they are about (those found
//!   in a replacement text: after the token with the reference), those at the end of input last;
//!   tree-stage errors past the cap are counted in a closing `{"type":"tree_errors_dropped",
//!   "count"}` line.
//!
//! The input is decoded as `tree` decodes it ([`Utf8Input`], which feeds the parser the way the
//! [`Transcoder`](tagstream::encoding::Transcoder) feeds the tokenizer without `--tree`, so
//! tokens are cut at the same places), its offsets mapped back to the input's bytes.
//!
//! ```text
//! $ printf '<r xmlns="urn:r">t<a/></x></r>' | tagstream tokens --dialect xml5 --tree
//! {"type":"start_tag","name":"r",...,"span":[0,17],"namespace":"urn:r","depth":1}
//! {"type":"text","kind":"data","text":"t","span":[17,18],"namespace":"urn:r","depth":1}
//! {"type":"start_tag","name":"a",...,"span":[18,22],"namespace":"urn:r","depth":2}
//! {"type":"end_tag","name":"x","span":[22,26],"namespace":null,"depth":null,"dropped":"unmatched-end-tag"}
//! {"type":"end_tag","name":"r","span":[26,30],"namespace":"urn:r","depth":1}
//! ```

use std::io::{Read, Write};

use serde_json::Value;
use tagstream::encoding::Encoding;
use tagstream::xml5::tree::{EndCause, Event, Events, Parser, Pulled, TreeError, TreeOptions};
use tagstream::{Options, ParseError, Span, Token};

use crate::tree::{Original, Utf8Input};
use crate::{Bom, CliError, Object, each_chunk, error_json, print_dropped, token_json};

/// Feed the input chunk by chunk through the tree parser, printing each token of the input with
/// its place (see the module docs) and, with `errors`, the parse errors.
pub(crate) fn stream_placed(
    input: &mut dyn Read,
    name: &str,
    (errors, lossless): (bool, bool),
    encoding: Option<&'static Encoding>,
    chunk_size: usize,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let options = Options::new().errors(errors).lossless(lossless);
    let mut parser = Parser::new(options, TreeOptions::new());
    let mut utf8 = Utf8Input::new(encoding).map_offsets();
    let mut placer = Placer::new(lossless);
    each_chunk(input, name, chunk_size, |chunk, last| {
        utf8.forget_before(placer.keep_from);
        let mut result = Ok(());
        utf8.push(chunk, last, |text, original| {
            if result.is_ok() {
                result = placer.print(parser.feed(text).recording(), &original, out);
            }
        });
        Ok(result?)
    })?;
    placer.print(parser.finish().recording(), &utf8.original(), out)?;
    print_dropped(&parser.tokenizer().dropped_errors(), out)?;
    let dropped = parser.dropped_errors();
    if dropped > 0 {
        let line = Object::new()
            .field("type", "tree_errors_dropped")
            .field("count", dropped)
            .finish();
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// What the printer keeps of an event once the event is gone.
enum Seen {
    /// An element starts: the span of its tag, its namespace and depth.
    Start(Span, Option<String>, usize),
    /// An element ends: the span of the token that ended it, why, its namespace.
    End(Span, EndCause, Option<String>),
    Doctype(Span),
    Other,
}

impl Seen {
    fn of(event: &Event<'_, '_>) -> Seen {
        let namespace = |ns: Option<&str>| ns.map(str::to_owned);
        match event {
            Event::Start(start) => Seen::Start(
                start.tag().span(),
                namespace(start.name().namespace),
                start.depth(),
            ),
            Event::End(end) => Seen::End(end.span(), end.cause(), namespace(end.name().namespace)),
            Event::Doctype(doctype) => Seen::Doctype(doctype.span()),
            _ => Seen::Other,
        }
    }
}

/// Where the stage put a token.
enum Place {
    /// In (or at) the element of this namespace and depth (0: the document).
    At(Option<String>, usize),
    /// Dropped, and why.
    Dropped(&'static str),
}

/// The printer's view of the tree: the open elements' namespaces (as the events open and end
/// them), and an end tag waiting for the end of the element it names.
struct Placer {
    open: Vec<Option<String>>,
    /// The root element has started.
    rooted: bool,
    /// The depth limit stopped the stream: the stage takes no token any more.
    stopped: bool,
    /// An end tag whose first end was implied: its line and its errors' lines, printed when
    /// the element it names ends.
    waiting: Option<(String, Span, Vec<String>)>,
    /// The UTF-8 offset before which no span will be mapped any more: the start of the token
    /// before the last one taken (a name at the end of a text can wait for the next text).
    keep_from: usize,
    last_start: usize,
    /// `--lossless`: the byte order mark's line before the first token.
    bom: Bom,
}

impl Placer {
    fn new(lossless: bool) -> Placer {
        Placer {
            open: Vec::new(),
            rooted: false,
            stopped: false,
            waiting: None,
            keep_from: 0,
            last_start: 0,
            bom: Bom::new(lossless),
        }
    }

    /// Print the tokens of one feed's events, each with its place, and the errors.
    fn print(
        &mut self,
        mut events: Events<'_>,
        original: &Original,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        loop {
            let seen = events.next_event().as_ref().map(Seen::of);
            let pulled: Vec<Pulled<'_>> = events.take_pulled().collect();
            let errors: Vec<ParseError> = events.drain_errors().collect();
            let tree_errors: Vec<TreeError> = events.drain_tree_errors().collect();
            let event = seen.as_ref().unwrap_or(&Seen::Other);
            self.print_batch(&pulled, event, (&errors, &tree_errors), original, out)?;
            match seen {
                Some(seen) => self.apply(&seen, out)?,
                None => return Ok(()),
            }
        }
    }

    /// The tokens taken for one event, each followed by the tokenizer's errors found for it
    /// and the tree stage's errors about it; then the errors found after the last one (at the
    /// end of input).
    fn print_batch(
        &mut self,
        pulled: &[Pulled<'_>],
        seen: &Seen,
        (errors, tree_errors): (&[ParseError], &[TreeError]),
        original: &Original,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        let tree_at = |i: usize| {
            let at = pulled.get(i).map_or(tree_errors.len(), |p| p.tree_errors);
            at.min(tree_errors.len())
        };
        let tree_lines = |from: usize, to: usize| -> Vec<String> {
            let errors = &tree_errors[from.min(to)..to];
            errors
                .iter()
                .map(|e| tree_error_json(e, original))
                .collect()
        };
        let error_lines = |errors: &[ParseError]| -> Vec<String> {
            let line = |e: &ParseError| error_json(e, original.offset(e.offset));
            errors.iter().map(line).collect()
        };
        // Tree errors found before the first token: about the text before it, being expanded.
        let mut lines = tree_lines(0, tree_at(0));
        let mut taken = 0;
        for (i, p) in pulled.iter().enumerate() {
            let upto = p.errors.min(errors.len()).max(taken);
            let mut own = error_lines(&errors[taken..upto]);
            taken = upto;
            own.extend(tree_lines(tree_at(i), tree_at(i + 1)));
            self.flush(&mut lines, out)?;
            lines = self.print_token(p, i + 1 == pulled.len(), seen, own, original, out)?;
        }
        lines.extend(error_lines(&errors[taken..]));
        self.flush(&mut lines, out)
    }

    /// Print one token taken (`last`: the last for the event `seen`) with its place, or keep
    /// it waiting with its errors' lines `own`; the lines still to print after it.
    fn print_token(
        &mut self,
        pulled: &Pulled<'_>,
        last: bool,
        seen: &Seen,
        own: Vec<String>,
        original: &Original,
        out: &mut impl Write,
    ) -> std::io::Result<Vec<String>> {
        let span = pulled.token.span();
        self.keep_from = self.last_start;
        self.last_start = span.start;
        let place = match last {
            true => self.place_last(&pulled.token, seen),
            false => Some(self.place(&pulled.token)),
        };
        let line = token_line(&pulled.token, original);
        let Some(place) = place else {
            self.waiting = Some((line, span, own));
            return Ok(Vec::new());
        };
        self.bom.print_before(original.span(span), out)?;
        writeln!(out, "{}", with_place(line, &place))?;
        Ok(own)
    }

    /// Print `lines`, or keep them after the end tag waiting for its element's end.
    fn flush(&mut self, lines: &mut Vec<String>, out: &mut impl Write) -> std::io::Result<()> {
        if let Some((_, _, own)) = &mut self.waiting {
            own.append(lines);
            return Ok(());
        }
        for line in lines.drain(..) {
            writeln!(out, "{line}")?;
        }
        Ok(())
    }

    /// The place of the last token taken for the event `seen`, which it may have made; `None`
    /// for an end tag whose own element ends later.
    fn place_last(&self, token: &Token<'_>, seen: &Seen) -> Option<Place> {
        let span = token.span();
        Some(match (token, seen) {
            (Token::StartTag(_), Seen::Start(at, ns, depth)) if *at == span => {
                Place::At(ns.clone(), *depth)
            }
            (Token::EndTag(_), Seen::End(at, cause, ns)) if *at == span => match cause {
                EndCause::Implied => return None,
                _ => Place::At(ns.clone(), self.open.len()),
            },
            (Token::Doctype(_), Seen::Doctype(at)) if *at == span => Place::At(None, 0),
            _ => self.place(token),
        })
    }

    /// The place of a token that made no event of its own: text, comments and processing
    /// instructions are where the stage stands; anything else was dropped.
    fn place(&self, token: &Token<'_>) -> Place {
        let outside = match self.rooted {
            false => "before-root",
            true => "after-root",
        };
        match token {
            _ if self.stopped => Place::Dropped("depth-limit"),
            Token::Comment(_) | Token::ProcessingInstruction(_) => self.here(),
            Token::Text(_) if !self.open.is_empty() => self.here(),
            Token::Raw(_) => Place::Dropped("raw"),
            Token::Doctype(_) => Place::Dropped("misplaced-doctype"),
            Token::StartTag(_) if !self.open.is_empty() || !self.rooted => {
                Place::Dropped("depth-limit")
            }
            Token::EndTag(_) if !self.open.is_empty() => Place::Dropped("unmatched-end-tag"),
            _ => Place::Dropped(outside),
        }
    }

    /// The current element's namespace and depth (the document's: none, 0).
    fn here(&self) -> Place {
        Place::At(self.open.last().cloned().flatten(), self.open.len())
    }

    /// The event's effect on the open elements; the end of the element an end tag waits for
    /// prints it.
    fn apply(&mut self, seen: &Seen, out: &mut impl Write) -> std::io::Result<()> {
        match seen {
            Seen::Start(_, ns, _) => {
                self.open.push(ns.clone());
                self.rooted = true;
            }
            Seen::End(span, cause, ns) => {
                let names = matches!(cause, EndCause::Written | EndCause::Short);
                if let Some((line, _, own)) = self.waiting.take_if(|w| names && w.1 == *span) {
                    writeln!(
                        out,
                        "{}",
                        with_place(line, &Place::At(ns.clone(), self.open.len()))
                    )?;
                    for line in own {
                        writeln!(out, "{line}")?;
                    }
                }
                self.open.pop();
                self.stopped |= *cause == EndCause::Stopped;
            }
            Seen::Doctype(_) | Seen::Other => {}
        }
        Ok(())
    }
}

/// The token's line as `tokens --dialect xml5` prints it, spans in the input's bytes.
fn token_line(token: &Token<'_>, original: &Original) -> String {
    token_json(token, None, &|span| original.span(span))
}

/// `line` (a JSON object) with the place's fields added at its end.
fn with_place(mut line: String, place: &Place) -> String {
    let (ns, depth, dropped) = match place {
        Place::At(ns, depth) => (
            ns.as_deref().map_or(Value::Null, Value::from),
            Value::from(*depth),
            None,
        ),
        Place::Dropped(why) => (Value::Null, Value::Null, Some(*why)),
    };
    line.pop();
    let mut fields = Object::new().field("namespace", ns).field("depth", depth);
    if let Some(why) = dropped {
        fields = fields.field("dropped", why);
    }
    line.push(',');
    line.push_str(&fields.finish()[1..]);
    line
}

/// A tree-stage error as an error line: `line` and `col` are `null` where the stage no longer
/// knew them.
fn tree_error_json(e: &TreeError, original: &Original) -> String {
    let (line, col) = match e.position {
        Some(p) => (Value::from(p.line), Value::from(p.col)),
        None => (Value::Null, Value::Null),
    };
    Object::new()
        .field("type", "error")
        .field("code", e.code.as_str())
        .field("offset", original.offset(e.offset))
        .field("line", line)
        .field("col", col)
        .finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_is_added_at_the_end_of_the_line() {
        let line = with_place("{\"a\":1}".to_owned(), &Place::At(Some("urn:x".into()), 2));
        assert_eq!(line, "{\"a\":1,\"namespace\":\"urn:x\",\"depth\":2}");
        let line = with_place("{\"a\":1}".to_owned(), &Place::Dropped("after-root"));
        assert_eq!(
            line,
            "{\"a\":1,\"namespace\":null,\"depth\":null,\"dropped\":\"after-root\"}"
        );
    }
}
