//! cargo fuzz target `xml5`: see `tagstream_fuzz::xml5` (fuzz/src/xml5.rs) for what it checks and
//! `tagstream_fuzz::case` for how an input decodes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tagstream_fuzz::Case;

fuzz_target!(|case: Case| tagstream_fuzz::xml5::xml5(&case));
