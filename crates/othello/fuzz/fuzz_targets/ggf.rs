//! Any text either fails to read as GGF or reads to records whose own written form reads
//! back to the same records; nothing panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::ggf::{read_games, GgfGame};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(record) = text.parse::<GgfGame>() {
        let again = record.to_string().parse::<GgfGame>();
        assert_eq!(again.as_ref(), Ok(&record));
        let _ = record.game().position().legal_move_list();
    }
    if let Ok(records) = read_games(text) {
        let written: String = records.iter().map(|r| format!("{r}\n")).collect();
        assert_eq!(read_games(&written).as_ref(), Ok(&records));
    }
});
