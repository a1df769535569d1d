//! Square and move parsing never panics, and what parses prints back to the same thing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::{BoardSize, Move};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for size in BoardSize::ALL {
        if let Ok(mv) = Move::parse(text, size) {
            assert_eq!(Move::parse(&mv.to_string(), size), Ok(mv));
        }
    }
});
