//! Where the character reference unit tests find the conformance data: the copy vendored in `tests/data/`
//! (see its README), or the folder or file an environment variable names instead. The integration
//! tests follow the same rule in `tests/common/data.rs`.

use std::path::{Path, PathBuf};

/// `$var` when it is set (a relative path is taken from the crate root), else `tests/data/{vendored}`.
pub(crate) fn data_path(var: &str, vendored: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    match std::env::var_os(var) {
        Some(path) => root.join(path),
        None => root.join("tests/data").join(vendored),
    }
}

/// The text of `path` (found through [`data_path`] with `var`); a missing or unreadable file fails
/// the test with its path and the variable that chose it.
pub(crate) fn read_data(path: &Path, var: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| {
        let from = match std::env::var_os(var) {
            Some(_) => format!("from ${var}"),
            None => format!("the copy vendored in tests/data; ${var} overrides it"),
        };
        panic!("reading {}: {e} ({from})", path.display())
    })
}
