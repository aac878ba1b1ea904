//! [`SerializerOptions::inject_meta_charset`]: the head's tokens held back until its charset
//! declaration is found (and rewritten), the head ends, or 1024 bytes have come; then the head goes
//! on, with `<meta charset>` first if no declaration was found.
//!
//! [`SerializerOptions::inject_meta_charset`]: crate::write::SerializerOptions::inject_meta_charset

use std::borrow::Cow;
use std::io::Write;

use super::output::FLUSH_AT;
use super::{AttrList, Doctype, Item, Namespace, Serializer, WriteError};
use crate::TextKind;

/// An [`Item`] held back while the head waits for its charset declaration.
pub(super) enum Held {
    Start {
        name: String,
        attributes: Vec<(String, String)>,
        self_closing: bool,
        namespace: Namespace,
    },
    End(String),
    Text(String, TextKind),
    Comment(String),
    Doctype {
        name: Option<String>,
        public_id: Option<String>,
        system_id: Option<String>,
        force_quirks: bool,
    },
    Pi(String, String),
}

impl Held {
    fn from_item(item: Item<'_>) -> Held {
        match item {
            Item::Start {
                name,
                attributes,
                self_closing,
                namespace,
            } => Held::Start {
                name: name.to_owned(),
                attributes: match attributes {
                    AttrList::Pairs(pairs) => pairs
                        .iter()
                        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                        .collect(),
                    AttrList::Token(tag) => tag
                        .attributes()
                        .map(|a| (a.name().to_owned(), a.value().to_owned()))
                        .collect(),
                },
                self_closing,
                namespace,
            },
            Item::End(name) => Held::End(name.to_owned()),
            Item::Text(text, kind) => Held::Text(text.to_owned(), kind),
            Item::Data(text) => Held::Text(text.text().to_owned(), TextKind::Data),
            Item::Comment(text) => Held::Comment(text.to_owned()),
            Item::Doctype(d) => Held::Doctype {
                name: d.name.map(str::to_owned),
                public_id: d.public_id.map(str::to_owned),
                system_id: d.system_id.map(str::to_owned),
                force_quirks: d.force_quirks,
            },
            Item::Pi(target, data) => Held::Pi(target.to_owned(), data.to_owned()),
        }
    }

    /// The bytes this item holds (for the 1024-byte bound).
    fn size(&self) -> usize {
        match self {
            Held::Start {
                name, attributes, ..
            } => {
                name.len()
                    + attributes
                        .iter()
                        .map(|(n, v)| n.len() + v.len() + 2)
                        .sum::<usize>()
            }
            Held::End(s) | Held::Text(s, _) | Held::Comment(s) => s.len(),
            Held::Doctype {
                name,
                public_id,
                system_id,
                ..
            } => [name, public_id, system_id]
                .iter()
                .map(|s| s.as_ref().map_or(0, String::len))
                .sum(),
            Held::Pi(t, d) => t.len() + d.len(),
        }
    }
}

/// Where the charset declaration is: not asked for or done, before the head, or in it.
pub(super) enum Meta {
    /// Not asked for, or done.
    Off,
    /// Waiting for `<head>`.
    BeforeHead,
    /// Holding the head's tokens back (the first is `<head>`).
    InHead { held: Vec<Held>, bytes: usize },
}

/// How many bytes of the head are held back at most before the charset declaration is injected.
const META_WINDOW: usize = 1024;

impl<W: Write> Serializer<W> {
    /// The end of stage 1: `item` on to the optional-tag stage, or held back with the head; the
    /// buffer written out once it holds [`FLUSH_AT`] bytes. Inlined where each kind of item is
    /// made, so that without a charset to inject the item goes straight on, its kind known.
    #[inline(always)]
    pub(super) fn emit(&mut self, item: Item<'_>) -> Result<(), WriteError> {
        if let Meta::Off = self.meta {
            self.omit_stage(item);
        } else {
            self.meta_stage(item);
        }
        if self.buf.len() >= FLUSH_AT {
            self.write_buffer()?;
        }
        Ok(())
    }

    /// Write the buffer to the output.
    fn write_buffer(&mut self) -> Result<(), WriteError> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    /// [`emit`](Self::emit) while a charset declaration is to be injected.
    fn meta_stage(&mut self, item: Item<'_>) {
        match &mut self.meta {
            Meta::Off => self.omit_stage(item),
            Meta::BeforeHead => {
                if let Item::Start {
                    name,
                    namespace: Namespace::Html,
                    ..
                } = item
                    && name.eq_ignore_ascii_case("head")
                {
                    let held = vec![Held::from_item(item)];
                    self.meta = Meta::InHead { held, bytes: 0 };
                } else {
                    self.omit_stage(item);
                }
            }
            Meta::InHead { held, bytes } => {
                let ends_head = match item {
                    Item::End(name) => name.eq_ignore_ascii_case("head"),
                    Item::Start { name, .. } => name.eq_ignore_ascii_case("body"),
                    _ => false,
                };
                if ends_head {
                    self.flush_head(true);
                    self.omit_stage(item);
                } else {
                    let h = Held::from_item(item);
                    *bytes += h.size();
                    held.push(h);
                    if *bytes > META_WINDOW {
                        self.flush_head(true);
                    }
                }
            }
        }
    }

    /// Send the held-back head on, with `<meta charset>` first if `inject`; the injection is done.
    pub(super) fn flush_head(&mut self, inject: bool) {
        let Meta::InHead { held, .. } = std::mem::replace(&mut self.meta, Meta::Off) else {
            return;
        };
        let mut held = held.into_iter();
        if let Some(head) = held.next() {
            with_item(&head, |item| self.omit_stage(item));
        }
        if inject && let Some(encoding) = self.options.inject_meta_charset.clone() {
            self.omit_stage(Item::Start {
                name: "meta",
                attributes: AttrList::Pairs(&[("charset", &encoding)]),
                self_closing: false,
                namespace: Namespace::Html,
            });
        }
        for h in held {
            with_item(&h, |item| self.omit_stage(item));
        }
    }
}

/// Call `f` with `held` as an [`Item`].
fn with_item<R>(held: &Held, f: impl FnOnce(Item<'_>) -> R) -> R {
    match held {
        Held::Start {
            name,
            attributes,
            self_closing,
            namespace,
        } => {
            let views: Vec<(&str, &str)> = attributes
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_str()))
                .collect();
            f(Item::Start {
                name,
                attributes: AttrList::Pairs(&views),
                self_closing: *self_closing,
                namespace: *namespace,
            })
        }
        Held::End(name) => f(Item::End(name)),
        Held::Text(text, kind) => f(Item::Text(text, *kind)),
        Held::Comment(text) => f(Item::Comment(text)),
        Held::Doctype {
            name,
            public_id,
            system_id,
            force_quirks,
        } => f(Item::Doctype(Doctype {
            name: name.as_deref(),
            public_id: public_id.as_deref(),
            system_id: system_id.as_deref(),
            force_quirks: *force_quirks,
        })),
        Held::Pi(target, data) => f(Item::Pi(target, data)),
    }
}

/// The charset declaration on a `<meta>`'s attributes: a `charset` gets
/// `encoding`; else an `http-equiv` of `content-type` makes `content` `text/html;
/// charset=ENCODING`. Whether the meta declares the encoding now.
pub(super) fn declare_charset(attributes: &mut [(&str, Cow<'_, str>)], encoding: &str) -> bool {
    if let Some((_, value)) = attributes
        .iter_mut()
        .find(|(n, _)| n.eq_ignore_ascii_case("charset"))
    {
        *value = Cow::Owned(encoding.to_owned());
        return true;
    }
    let content_type = attributes.iter().any(|(n, v)| {
        n.eq_ignore_ascii_case("http-equiv") && v.eq_ignore_ascii_case("content-type")
    });
    match attributes
        .iter_mut()
        .find(|(n, _)| n.eq_ignore_ascii_case("content"))
    {
        Some((_, value)) if content_type => {
            *value = Cow::Owned(format!("text/html; charset={encoding}"));
            true
        }
        _ => false,
    }
}
