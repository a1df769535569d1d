//! Any text either fails to parse or parses to a position whose own board text parses
//! back to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::{Position, Variant};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(pos) = Position::from_board_text(text, Variant::Standard) {
        let again = Position::from_board_text(&pos.to_board_text(), Variant::Standard);
        assert_eq!(again, Ok(pos));
        let _ = pos.legal_move_list();
    }
});
