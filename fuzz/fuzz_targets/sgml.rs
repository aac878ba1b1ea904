//! cargo fuzz target `sgml`: see `tagstream_fuzz::sgml` (fuzz/src/sgml.rs) for what it checks and
//! `tagstream_fuzz::case` for how an input decodes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tagstream_fuzz::Case;

fuzz_target!(|case: Case| tagstream_fuzz::sgml::sgml(&case));
