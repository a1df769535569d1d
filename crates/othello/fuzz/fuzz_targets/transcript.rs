//! Any text either fails to replay or replays to a game whose own transcripts (with and
//! without passes) replay to the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::{BoardSize, Game, Position, Variant};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for size in [BoardSize::Six, BoardSize::Eight] {
        let start = Position::start(size, Variant::Standard);
        if let Ok(game) = Game::from_transcript(text, start) {
            for with_passes in [true, false] {
                let again = Game::from_transcript(&game.transcript(with_passes), start);
                assert_eq!(again.as_ref(), Ok(&game));
            }
        }
    }
});
