//! The XOT-style balanced openings: 200 lines of 8 plies from the standard 8x8 start, each
//! judged near even by our own search (`data/xot-8x8.txt`; its header says how it was made).
//! Embedded here, beside the rules, because several front ends start games from it: the
//! arena (`othello arena --openings xot`), self-play (`othello selfplay --openings xot`)
//! and the page's "start from an XOT opening".

use crate::{transcript_lines, BoardSize};

const XOT_8X8: &str = include_str!("../data/xot-8x8.txt");

/// The list of a board as text (one transcript a line, `#` comments): standard 8x8 only,
/// `None` for the other boards.
pub fn xot_list(size: BoardSize) -> Option<&'static str> {
    (size == BoardSize::Eight).then_some(XOT_8X8)
}

/// The 8x8 list's transcripts, in the file's order (comments and blank lines left out).
pub fn xot_openings() -> Vec<&'static str> {
    transcript_lines(XOT_8X8)
        .map(|(_, transcript)| transcript)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Position, Variant};

    #[test]
    fn every_xot_line_is_eight_legal_plies_from_the_start() {
        let list = xot_openings();
        assert_eq!(list.len(), 200);
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        for line in list {
            let game = Game::from_transcript(line, start).expect("a legal line");
            assert_eq!(game.moves().len(), 8, "{line}");
        }
        assert!(xot_list(BoardSize::Six).is_none());
    }
}
