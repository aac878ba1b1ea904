//! cargo fuzz target `xml5_tree`: see `tagstream_fuzz::xml5_tree` (fuzz/src/xml5_tree.rs) for what
//! it checks and `tagstream_fuzz::case` for how an input decodes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tagstream_fuzz::Case;

fuzz_target!(|case: Case| tagstream_fuzz::xml5_tree::xml5_tree(&case));
