//! html5ever 0.40's tokenizer as a reference, in the same html5lib token shapes.
//!
//! The sink plays the same naive tree builder as the harness's feedback (switch to RCDATA, RAWTEXT,
//! script data or PLAINTEXT after the same start tags) and answers html5ever's CDATA question with
//! the case's `cdata_allowed`. html5ever emits U+0000 in the data state as `NullCharacterToken`;
//! it is merged into the text as U+0000, which is what tagstream's `Text::text` carries.

use std::cell::{Cell, RefCell};

use html5ever::TokenizerResult;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::{RawKind, State};
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use tagstream::TextKind;
use tagstream::html5lib::Html5libToken;

use crate::case::Config;
use crate::drive::text_state_after;

struct Sink {
    out: RefCell<Vec<Html5libToken>>,
    feedback: bool,
    cdata: Cell<bool>,
}

impl Sink {
    fn text(&self, s: &str) {
        // html5ever can emit an empty character token (CDATA section state at EOF); it means nothing.
        if s.is_empty() {
            return;
        }
        let mut out = self.out.borrow_mut();
        if let Some(Html5libToken::Character(prev)) = out.last_mut() {
            prev.push_str(s);
        } else {
            out.push(Html5libToken::Character(s.to_owned()));
        }
    }
}

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let shaped = match token {
            Token::CharacterTokens(t) => {
                self.text(&t);
                return TokenSinkResult::Continue;
            }
            Token::NullCharacterToken => {
                self.text("\0");
                return TokenSinkResult::Continue;
            }
            Token::ParseError(_) | Token::EOFToken => return TokenSinkResult::Continue,
            Token::CommentToken(c) => Html5libToken::Comment(c.to_string()),
            Token::DoctypeToken(d) => Html5libToken::Doctype {
                name: d.name.map(|s| s.to_string()),
                public_id: d.public_id.map(|s| s.to_string()),
                system_id: d.system_id.map(|s| s.to_string()),
                correctness: !d.force_quirks,
            },
            Token::TagToken(tag) => match tag.kind {
                TagKind::EndTag => Html5libToken::EndTag {
                    name: tag.name.to_string(),
                },
                TagKind::StartTag => {
                    let switch = self.feedback.then(|| text_state_after(&tag.name)).flatten();
                    self.out.borrow_mut().push(Html5libToken::StartTag {
                        name: tag.name.to_string(),
                        attributes: tag
                            .attrs
                            .iter()
                            .map(|a| (a.name.local.to_string(), a.value.to_string()))
                            .collect(),
                        self_closing: tag.self_closing,
                    });
                    return match switch {
                        Some(TextKind::ScriptData) => TokenSinkResult::RawData(RawKind::ScriptData),
                        Some(TextKind::Rawtext) => TokenSinkResult::RawData(RawKind::Rawtext),
                        Some(TextKind::Rcdata) => TokenSinkResult::RawData(RawKind::Rcdata),
                        Some(TextKind::Plaintext) => TokenSinkResult::Plaintext,
                        _ => TokenSinkResult::Continue,
                    };
                }
            },
        };
        self.out.borrow_mut().push(shaped);
        TokenSinkResult::Continue
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.cdata.get()
    }
}

/// html5ever's tokens for `input` under `config` (initial state, last start tag, CDATA allowed,
/// feedback; the rest has no html5ever counterpart and is ignored).
pub fn html5ever_tokens(input: &str, config: &Config) -> Vec<Html5libToken> {
    let initial_state = match config.initial_state {
        TextKind::Data => None,
        TextKind::Rcdata => Some(State::RawData(RawKind::Rcdata)),
        TextKind::Rawtext => Some(State::RawData(RawKind::Rawtext)),
        TextKind::ScriptData => Some(State::RawData(RawKind::ScriptData)),
        TextKind::Plaintext => Some(State::Plaintext),
        TextKind::Cdata => Some(State::CdataSection),
    };
    let opts = TokenizerOpts {
        // One leading U+FEFF is stripped, as the decoder does and tagstream's `Options::strip_bom`
        // (on in the harness) does; html5ever's other U+FEFF bug (at every chunk start) cannot
        // show, as the input is pushed in one piece.
        discard_bom: true,
        initial_state,
        last_start_tag_name: config.last_start_tag.map(str::to_owned),
        ..TokenizerOpts::default()
    };
    let sink = Sink {
        out: RefCell::new(Vec::new()),
        feedback: config.feedback,
        cdata: Cell::new(config.cdata_allowed),
    };
    let tokenizer = Tokenizer::new(sink, opts);
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from_slice(input));
    // The sink never asks for scripts or encodings, so only Done comes back; loop to be sure.
    loop {
        let done = matches!(tokenizer.feed(&queue), TokenizerResult::Done);
        if done || queue.is_empty() {
            break;
        }
    }
    tokenizer.end();
    tokenizer.sink.out.take()
}
