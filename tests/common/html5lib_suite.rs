//! Finding html5lib-tests for the data-driven runners (`tests/html5lib.rs`,
//! `tests/encoding_html5lib.rs`), which run under libtest-mimic.

#[path = "data.rs"]
mod data;

use std::path::PathBuf;

use libtest_mimic::{Arguments, Trial};

/// The html5lib-tests folder (vendored in `tests/data/html5lib-tests`, or `$HTML5LIB_TESTS_DIR`)
/// when it holds the folder `part`. Otherwise the test binary ends here with one failed trial,
/// `what` present, that says what is missing.
pub fn html5lib_suite(args: &Arguments, part: &str, what: &str) -> PathBuf {
    const VAR: &str = "HTML5LIB_TESTS_DIR";
    let dir = data::data_dir(VAR, "html5lib-tests");
    if dir.join(part).is_dir() {
        return dir;
    }
    let msg = data::missing(&dir.join(part), VAR, "html5lib-tests");
    eprintln!("{msg}");
    let trial = Trial::test(format!("{what} present"), move || Err(msg.into()));
    libtest_mimic::run(args, vec![trial]).exit()
}
