//! Character references, shared by every dialect that has them (HTML, and XML5, which uses HTML's
//! table and numeric rules): the WHATWG states that resolve one reference ([`charref`]) over the
//! named-reference table ([`entities`], generated into `entities_table.rs` by
//! `tools/gen_entities.py`). Pure functions over byte slices: no state between calls.

pub(crate) mod charref;
pub(crate) mod entities;
mod entities_table;
#[cfg(test)]
mod testdata;
