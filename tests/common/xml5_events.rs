//! The XML5 tree stage's events as lines of text, for tests that compare them: one line per
//! event, adjacent text joined.
//!
//! Each test binary compiles this module separately and uses part of it.

use tagstream::xml5::tree::{Event, Events};

/// One line per event: `+{ns}name@depth [attributes]`, `-name@depth Cause`, `"text"`, `#comment`,
/// `?target`, `!doctype`.
pub fn describe(event: &Event<'_, '_>) -> String {
    let ns = |ns: Option<&str>| ns.map_or(String::new(), |ns| format!("{{{ns}}}"));
    match event {
        Event::Start(start) => {
            let name = start.name();
            let attributes: Vec<String> = start
                .attributes()
                .map(|a| format!("{}{}={}", ns(a.name().namespace), a.name(), a.value()))
                .collect();
            let attributes = if attributes.is_empty() {
                String::new()
            } else {
                format!(" [{}]", attributes.join(" "))
            };
            format!(
                "+{}{name}@{}{attributes}",
                ns(name.namespace),
                start.depth()
            )
        }
        Event::End(end) => format!("-{}@{} {:?}", end.name(), end.depth(), end.cause()),
        Event::Text(text) => format!("\"{}\"", text.text()),
        Event::Comment(comment) => format!("#{}", comment.data()),
        Event::ProcessingInstruction(pi) => format!("?{}", pi.target()),
        Event::Doctype(doctype) => format!("!{}", doctype.name().unwrap_or("")),
    }
}

/// The events described, appended to `out`, adjacent text merged (chunks cut text where they
/// fall: the text node is the same).
pub fn collect(events: Events<'_>, out: &mut Vec<String>) {
    events.for_each_event(|e| push_merged(&e, out));
}

/// `event` described at the end of `out`, text joined to text before it.
pub fn push_merged(event: &Event<'_, '_>, out: &mut Vec<String>) {
    if let (Event::Text(text), Some(last)) = (event, out.last_mut())
        && let Some(before) = last.strip_prefix('"').and_then(|l| l.strip_suffix('"'))
    {
        *last = format!("\"{before}{}\"", text.text());
        return;
    }
    out.push(describe(event));
}
