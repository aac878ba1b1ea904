//! The no-panic check (`--xml-panics`): every file of the W3C XML conformance suite — test
//! documents valid, invalid and not well-formed, their DTDs and entities, the odd text or image
//! file — through every XML subject, one file at a time, each run under `catch_unwind`.

use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;

use crate::corpus::Corpus;
use crate::subjects::Dialect;

/// Where the panic hook leaves the last panic's message and place.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// One panic: subject, file, message.
struct Panic {
    subject: String,
    file: String,
    message: String,
}

/// Run the check over `xmlconf` with the XML subjects `names`; exit 1 if any panicked.
pub fn run(xmlconf: &Path, names: &[String], chunk_size: usize) -> ExitCode {
    let files = match Corpus::xmlconf_files(xmlconf) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let bytes: usize = files.iter().map(|(_, data)| data.len()).sum();
    println!(
        "W3C XML suite: {} files, {} bytes, below {}",
        files.len(),
        crate::report::group(bytes as u64),
        xmlconf.display()
    );
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".to_owned());
        *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!("{message}{place}"));
    }));
    let mut panics = Vec::new();
    for name in names {
        let before = panics.len();
        for (path, data) in &files {
            let document = Corpus::document(&path.display().to_string(), data.clone());
            let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
                let mut subject = Dialect::Xml
                    .make(name, &document, chunk_size)
                    .expect("a subject of the XML race");
                subject.run(&document)
            }));
            if outcome.is_err() {
                let message = LAST_PANIC
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .take()
                    .unwrap_or_default();
                panics.push(Panic {
                    subject: name.clone(),
                    file: relative(path, xmlconf),
                    message,
                });
            }
        }
        println!(
            "{name}: {} files, {} panics",
            files.len(),
            panics.len() - before
        );
    }
    panic::set_hook(default_hook);
    for p in &panics {
        println!("PANIC {} on {}: {}", p.subject, p.file, p.message);
    }
    if panics.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `path` below `root`, for the listing.
fn relative(path: &Path, root: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}
