//! XOT-style start positions: the 200 balanced 8x8 openings of `openings/xot-8x8.txt`
//! (8 plies each, judged near even by our own search; the file says how it was made), the
//! same list `othello arena --openings xot` plays. Embedded, so the page needs no fetch.

use othello::{BoardSize, Game, Position, Variant};

const XOT_8X8: &str = include_str!("../openings/xot-8x8.txt");

/// The openings' transcripts, in the file's order (comments and blank lines left out).
pub fn xot_openings() -> Vec<&'static str> {
    othello::transcript_lines(XOT_8X8)
        .map(|(_, transcript)| transcript)
        .collect()
}

/// The opening `seed` picks (any seed: it wraps around the list), played from the
/// standard 8x8 start, with its number in the list (1-based). The list is for standard
/// 8x8 Othello only: there is none for 6x6 or the reversed rules.
pub fn xot_game(seed: u64) -> Result<(usize, Game), String> {
    let list = xot_openings();
    if list.is_empty() {
        return Err("the opening list is empty".to_owned());
    }
    let index = (seed % list.len() as u64) as usize;
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    Game::from_transcript(list[index], start)
        .map(|game| (index + 1, game))
        .map_err(|e| format!("opening {} is not legal: {e}", index + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_opening_is_a_legal_eight_ply_game_and_the_seed_picks_one() {
        let list = xot_openings();
        assert_eq!(list.len(), 200);
        for seed in 0..list.len() as u64 {
            let (number, game) = xot_game(seed).expect("a legal opening");
            assert_eq!(number, seed as usize + 1);
            assert_eq!(game.moves().len(), 8);
            assert!(!game.position().is_game_over());
        }
        assert_eq!(xot_game(200).expect("wraps").0, 1);
        assert_eq!(
            xot_game(0).expect("first").1.transcript(false),
            "f5f4f3g4g3g6h4f2"
        );
    }
}
