//! Standard output, as every command writes it: when the process started with it closed
//! (`>&-`), every write fails, as it fails on `/dev/full`, instead of going nowhere.
//!
//! The Rust runtime opens `/dev/null` on a standard descriptor it finds closed (so that no file
//! opened later takes its number), and writes to it succeed. That `/dev/null` cannot be told
//! from one the caller opened (Python's `subprocess.DEVNULL` opens it read-write too), so
//! descriptor 1 is looked at before the runtime starts: a function in the executable's
//! `.init_array`, which the loader runs before `main`, notes whether `/proc/self/fd/1` exists
//! (Linux; elsewhere, or without `/proc`, standard output counts as open).

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Standard output, or, when it was closed at start, a writer whose every write fails.
pub(crate) enum Stdout {
    Open(io::StdoutLock<'static>),
    Closed,
}

/// Standard output, locked (see [`Stdout`]).
pub(crate) fn stdout() -> Stdout {
    if closed_at_start() {
        Stdout::Closed
    } else {
        Stdout::Open(io::stdout().lock())
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stdout::Open(out) => out.write(buf),
            Stdout::Closed => Err(io::Error::other("standard output is closed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stdout::Open(out) => out.flush(),
            Stdout::Closed => Ok(()),
        }
    }
}

/// Whether descriptor 1 was closed when the process started (see the module docs).
fn closed_at_start() -> bool {
    CLOSED_AT_START.load(Ordering::Relaxed)
}

/// Set before `main` by [`look_at_stdout`].
static CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Runs before `main`, from the executable's `.init_array` (the loader's constructors).
// SAFETY: a constructor runs before the Rust runtime is set up; this one only reads two paths
// under /proc with std::fs (no thread, no stdio, no runtime state) and stores an atomic.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static LOOK_AT_STDOUT: extern "C" fn() = look_at_stdout;

#[cfg(target_os = "linux")]
extern "C" fn look_at_stdout() {
    let proc_fds = Path::new("/proc/self/fd");
    let closed = proc_fds.is_dir() && fs::symlink_metadata(proc_fds.join("1")).is_err();
    CLOSED_AT_START.store(closed, Ordering::Relaxed);
}
