//! Running the `tagstream` binary as a user would, for the CLI tests (`tests/cli.rs`,
//! `tests/crawl.rs`, …): arguments, standard input, and the output as text or JSON lines.
//!
//! Each test binary compiles this module separately and uses part of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

/// The repository root, where the runs start: the samples the tests read are in its `datasets/`.
pub fn repository() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Run the binary with `args` in the repository root, writing `stdin` to its standard input.
pub fn tagstream(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tagstream"))
        .args(args)
        .current_dir(repository())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tagstream");
    let mut pipe = child.stdin.take().expect("stdin pipe");
    // The child may exit without reading (bad arguments); a broken pipe is fine then.
    let _ = pipe.write_all(stdin);
    drop(pipe);
    child.wait_with_output().expect("run tagstream")
}

/// Standard output of a run that exits with status 0.
pub fn stdout_ok(args: &[&str], stdin: &[u8]) -> String {
    let out = tagstream(args, stdin);
    assert_eq!(
        out.status.code(),
        Some(0),
        "tagstream {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Each output line as JSON.
pub fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// Token lines with adjacent text lines of one kind joined (chunk seams may split text).
pub fn merge_text(tokens: &[Value]) -> Vec<Value> {
    merge_text_by(tokens, |a, b| a["kind"] == b["kind"])
}

/// Token lines with adjacent text lines joined where `same` says the two belong together.
pub fn merge_text_by(tokens: &[Value], same: impl Fn(&Value, &Value) -> bool) -> Vec<Value> {
    let mut merged: Vec<Value> = Vec::new();
    for token in tokens {
        if let Some(prev) = merged.last_mut()
            && prev["type"] == "text"
            && token["type"] == "text"
            && same(prev, token)
        {
            let text = format!(
                "{}{}",
                prev["text"].as_str().unwrap(),
                token["text"].as_str().unwrap()
            );
            prev["text"] = json!(text);
            prev["span"][1] = token["span"][1].clone();
            continue;
        }
        merged.push(token.clone());
    }
    merged
}
