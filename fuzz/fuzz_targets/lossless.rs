//! cargo fuzz target `lossless`: see `tagstream_fuzz::lossless` (fuzz/src/lossless.rs) for what it
//! checks and `tagstream_fuzz::case` for how an input decodes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tagstream_fuzz::Case;

fuzz_target!(|case: Case| tagstream_fuzz::lossless::lossless(&case));
