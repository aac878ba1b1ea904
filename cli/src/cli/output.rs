//! Standard output, as every command writes it: when the process started with it closed
//! (`>&-`), every write fails, as it fails on `/dev/full`, instead of going nowhere.
//!
//! The Rust runtime opens `/dev/null` read-write on a standard descriptor it finds closed (so
//! that no file opened later takes its number), and writes to it succeed. That `/dev/null` is
//! told from one the shell opens (`>/dev/null`, write-only) by its access mode, read from
//! `/proc/self/fdinfo/1` (Linux; elsewhere a closed standard output is not told apart). A
//! `/dev/null` opened read-write by the caller itself (`1<>/dev/null`) counts as closed too.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

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

/// Whether descriptor 1 is the read-write `/dev/null` the runtime opens on a closed standard
/// output.
fn closed_at_start() -> bool {
    let is_dev_null =
        fs::read_link("/proc/self/fd/1").is_ok_and(|path| path == Path::new("/dev/null"));
    is_dev_null && fs::read_to_string("/proc/self/fdinfo/1").is_ok_and(|info| is_read_write(&info))
}

/// Whether the `flags:` line (octal) of an fdinfo file has the access mode `O_RDWR`.
fn is_read_write(fdinfo: &str) -> bool {
    const ACCESS_MODE: u32 = 0o3;
    const READ_WRITE: u32 = 0o2;
    fdinfo
        .lines()
        .find_map(|line| line.strip_prefix("flags:"))
        .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
        .is_some_and(|flags| flags & ACCESS_MODE == READ_WRITE)
}

#[cfg(test)]
mod tests {
    use super::is_read_write;

    #[test]
    fn the_access_mode_is_read_from_the_octal_flags() {
        let fdinfo = |flags: &str| format!("pos:\t0\nflags:\t{flags}\nmnt_id:\t24\n");
        assert!(is_read_write(&fdinfo("0100002")));
        assert!(is_read_write(&fdinfo("02")));
        assert!(!is_read_write(&fdinfo("0100001")), "write-only: >/dev/null");
        assert!(!is_read_write(&fdinfo("0")), "read-only");
        assert!(!is_read_write("pos:\t0\n"), "no flags line");
    }
}
