//! WARC archives (ISO 28500) as crawlers write them: `.warc`, and `.warc.gz` with one gzip
//! member per record (as Common Crawl writes them) or one for the whole file. What is read is
//! each `response` record holding an HTTP message ([`Response`]); its HTML document, body with
//! any transfer and content coding undone and with the `charset` of its HTTP `Content-Type`, is
//! [`Response::html`] (see [`http`]). What cannot be read (a malformed record, a broken gzip
//! member, a body that cannot be decoded, an HTML response longer than [`MAX_RESPONSE`]) is
//! reported with its offset and skipped, and reading goes on after it. Memory holds a record at
//! a time, each at most [`MAX_RESPONSE`] bytes, however long the archive or its records.
//!
//! Two ways to read an archive:
//!
//! - [`Archive`]: serially, one entry at a time, from a path or any reader (a pipe, a Python
//!   file object);
//! - [`members`]: the gzip members of a `.warc.gz` file inflated on any number of threads, the
//!   results put back in file order by a [`Chain`] (what the `tagstream` CLI does with `-j`).
//!
//! The reader is our own (flate2 for the gzip members) rather than the `warc` crate: we need the
//! file offset of every record and gzip member to report what is skipped, and to go on after a
//! malformed record or a broken member, which the crate's iterators do not give.
//!
//! ```no_run
//! use tagstream_warc::{Archive, Entry};
//!
//! for entry in Archive::new("crawl.warc.gz".as_ref()) {
//!     match entry {
//!         Entry::Response(response) => match response.html() {
//!             Ok(Some(html)) => println!("{:?}: {} bytes", response.uri(), html.body.len()),
//!             Ok(None) => {} // not HTML
//!             Err(why) => eprintln!("skipped at {}: {why}", response.offset()),
//!         },
//!         Entry::Skipped(skipped) => eprintln!("skipped at {:?}: {}", skipped.offset, skipped.reason),
//!     }
//! }
//! ```

mod archive;
pub mod http;
pub mod members;
mod record;
#[cfg(test)]
mod testutil;

pub use archive::{Archive, is_gzip};
pub use http::{HttpError, MAX_RESPONSE};
pub use members::{Candidates, Chain, Member, MemberRead, MemberStream};
pub use record::{Entry, HEAD_PEEK, Html, Response, Skipped};
