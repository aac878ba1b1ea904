//! The HTML dialect: WHATWG HTML §13.2.5's tokenizer states and fast lanes ([`machine`]), the
//! dialect's face on the shared driver ([`dialect`]), the public [`Tokenizer`](crate::Tokenizer)
//! and its switches between tokens, the tree-builder simulator that makes them, and the
//! html5lib-tests shapes.

pub(crate) mod dialect;
pub mod html5lib;
pub(crate) mod machine;
pub mod simulator;
pub(crate) mod tokenizer;
