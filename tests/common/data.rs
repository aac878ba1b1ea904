//! Where the integration tests find the conformance data: the copy vendored in `tests/data/` (see
//! its README), or the folder an environment variable names instead (`HTML5LIB_TESTS_DIR`,
//! `WPT_PARSING_DIR`, `XML5LIB_TESTS_DIR`). Missing data fails the test, it is never skipped: the
//! vendored copy is part of the checkout. The unit tests in `src/html/machine/` follow the same rule in
//! `src/refs/testdata.rs`.
//!
//! Each test binary compiles this module separately and uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `$var` when it is set (a relative path is taken from the crate root), else `tests/data/{vendored}`.
pub fn data_dir(var: &str, vendored: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    match std::env::var_os(var) {
        Some(dir) => root.join(dir),
        None => root.join("tests/data").join(vendored),
    }
}

/// `file` in [`data_dir`]`(var, vendored)`; panics, naming the path and where it came from, when
/// the file is not there.
pub fn data_file(var: &str, vendored: &str, file: &str) -> PathBuf {
    let path = data_dir(var, vendored).join(file);
    if !path.is_file() {
        panic!("{}", missing(&path, var, vendored));
    }
    path
}

/// Why `path`, found through [`data_dir`]`(var, vendored)`, is an error when it is missing.
pub fn missing(path: &Path, var: &str, vendored: &str) -> String {
    match std::env::var_os(var) {
        Some(_) => format!("{} not found (from ${var})", path.display()),
        None => format!(
            "{} not found: the copy vendored in tests/data/{vendored} is incomplete (restore it \
             from git, or set ${var} to another copy)",
            path.display()
        ),
    }
}
