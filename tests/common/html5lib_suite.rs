//! Finding html5lib-tests for the data-driven runners (`tests/html5lib.rs`,
//! `tests/encoding_html5lib.rs`), which run under libtest-mimic.

use std::path::{Path, PathBuf};

use libtest_mimic::{Arguments, Trial};

/// The html5lib-tests checkout (`$HTML5LIB_TESTS_DIR`, else `../shared/html5lib-tests`) when it
/// holds the folder `part`. Otherwise the test binary ends here with one trial, `what` present:
/// failed with `CI=true`, ignored elsewhere.
pub fn html5lib_suite(args: &Arguments, part: &str, what: &str) -> PathBuf {
    let dir = std::env::var_os("HTML5LIB_TESTS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/html5lib-tests"));
    if dir.join(part).is_dir() {
        return dir;
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let msg = "html5lib-tests not found: set HTML5LIB_TESTS_DIR to a checkout of \
               https://github.com/html5lib/html5lib-tests (see datasets/README.md)";
    eprintln!("{msg}");
    let trial = Trial::test(format!("{what} present"), move || {
        if ci { Err(msg.into()) } else { Ok(()) }
    });
    libtest_mimic::run(args, vec![trial.with_ignored_flag(!ci)]).exit()
}
