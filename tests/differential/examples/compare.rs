//! Compare one document: `cargo run --example compare -- [--scripting] 'HTML'` (or `-` for stdin).
//! Prints tagstream's tokens (with the simulator's ambiguity flags), html5ever's, and html5ever's
//! tree.

#[path = "../tests/common/mod.rs"]
mod common;

use std::io::Read;

use tagstream_differential::{prepare, tagstream_tokens};

fn main() {
    let mut scripting = false;
    let mut input = None;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--scripting" => scripting = true,
            "-" => {
                let mut s = Vec::new();
                std::io::stdin().read_to_end(&mut s).expect("stdin");
                input = Some(s);
            }
            _ => input = Some(arg.into_bytes()),
        }
    }
    let input = prepare(&input.expect("an HTML argument, or - for stdin"));
    let ours = tagstream_tokens(&input, scripting, None);
    let theirs = common::html5ever(&input, scripting);
    let n = ours.tokens.len().max(theirs.tokens.len());
    for i in 0..n {
        let a = ours.tokens.get(i).map_or(String::new(), |t| t.to_string());
        let b = theirs
            .tokens
            .get(i)
            .map_or(String::new(), |t| t.to_string());
        let flag = ours
            .ambiguous
            .iter()
            .find(|(j, _)| *j == i)
            .map_or(String::new(), |(_, why)| format!("  [{why:?}]"));
        let mark = if a == b { " " } else { "≠" };
        println!("{i:3} {mark} {a:<40} | {b}{flag}");
    }
    println!("\nhtml5ever's tree:\n{}", theirs.tree);
}
