//! Nothing here: the comparison is `tests/differential_xml.rs` (see README.md).
