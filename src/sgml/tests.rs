//! The SGML machine read through windows as a streaming driver hands them out: at every split
//! point the events are those of the whole input (data may be split at a seam: adjacent data
//! events are joined before comparing).

use bumpalo::Bump;

use super::event::{Channel, Event, LexemeKind, Pending};
use super::machine::Machine;
use crate::span::{Span, Window};
use crate::testutil::{random_bytes, splits};

/// `(channel, [(kind, span)])` of each event, data events that touch joined.
fn shape(events: &[Event]) -> Vec<(Channel, Vec<(LexemeKind, Span)>)> {
    let mut out: Vec<(Channel, Vec<(LexemeKind, Span)>)> = Vec::new();
    for event in events {
        let lexemes: Vec<_> = event
            .lexemes()
            .iter()
            .map(|l| (l.kind(), l.span()))
            .collect();
        if let ([(LexemeKind::Data, span)], Some((Channel::Primary, last))) =
            (&lexemes[..], out.last_mut())
            && let [(LexemeKind::Data, previous)] = &mut last[..]
            && previous.end == span.start
            && event.channel() == Channel::Primary
        {
            previous.end = span.end;
            continue;
        }
        out.push((event.channel(), lexemes));
    }
    out
}

/// The events of `input` fed as `chunks`: each window runs from where the machine stands to the
/// end of what was fed, as the driver's carry would hold it.
fn through_windows<'t>(input: &'t [u8], chunks: &[&[u8]], arena: &'t Bump) -> Vec<Event<'t>> {
    let mut machine = Machine::default();
    let mut out = Pending::default();
    let mut fed = 0;
    for (i, chunk) in chunks.iter().enumerate() {
        fed += chunk.len();
        let eof = i + 1 == chunks.len();
        loop {
            let pos = machine.pos;
            let window = Window {
                bytes: &input[pos..fed],
                base: pos,
                eof,
            };
            if !machine.step(&window, &mut out) {
                break;
            }
        }
    }
    let mut events = Vec::new();
    while let Some((index, _)) = out.pop() {
        let (channel, lexemes) = out.event(index);
        events.push(Event::new(channel, lexemes, input, 0, false, arena));
    }
    events
}

fn assert_chunk_invariant(input: &[u8]) {
    let arena = Bump::new();
    let whole = shape(&through_windows(input, &[input], &arena));
    for chunks in splits(input) {
        let got = shape(&through_windows(input, &chunks, &arena));
        let lens: Vec<_> = chunks.iter().map(|c| c.len()).collect();
        assert_eq!(
            got,
            whole,
            "{:?} cut {lens:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn examples_are_chunk_invariant() {
    for input in [
        &b"<xX val1 val2 aTTr3=\".76meters\">"[..],
        b"<!Doctype Foo --my document type-- System \"abc\">",
        b"<tag xxx=yyy ?>xxx <![IGNORE[ a<b>c]]> zzz",
        b"another way to escape < and &: <<!>xxx &<!>abc;",
        b"<!---- ---- ----> <!-- comment -- -> <!- xxx -> <!-!>",
        b"<x ATTR =\"val\" val> <xxx<yyy> </yyy</xxx> <> </>",
        b"&#38\r\n&amp\r&#200,xxx &#SPACE; &#2000000; &#20.7 a &#-xx &100",
        b"<!doctype doc [ <!element doc - - ANY> ]> <!doctype d %stuff;>",
        b"<?page break> <a href=\"http://foo/bar/> ...",
        b"<!-- x",
    ] {
        assert_chunk_invariant(input);
    }
}

#[test]
fn random_markup_is_chunk_invariant() {
    let mut rng = 28;
    for _ in 0..crate::testutil::cases(300, 10) {
        let len = (crate::testutil::xorshift(&mut rng) % 24) as usize;
        let input = random_bytes(&mut rng, b"<>!?-&#;=\"' \n\r[]%/aZ09._", len);
        assert_chunk_invariant(&input);
    }
}
