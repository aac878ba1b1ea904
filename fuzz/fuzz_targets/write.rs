//! cargo fuzz target `write`: see `tagstream_fuzz::write` (fuzz/src/write.rs) for what it checks
//! and `tagstream_fuzz::case` for how an input decodes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tagstream_fuzz::Case;

fuzz_target!(|case: Case| tagstream_fuzz::write::write(&case));
