//! Reference code shared by the crate's unit tests: slow, obviously correct, and only
//! for small searches.

use othello::Position;

/// Exact margin for the side to move by plain minimax over the rules (a handful of
/// empties only).
pub(crate) fn minimax(pos: &Position) -> i32 {
    match pos.outcome() {
        Some(outcome) => outcome.margin_for(pos.side_to_move()),
        None => pos
            .legal_move_list()
            .into_iter()
            .map(|mv| -minimax(&pos.play_unchecked(mv)))
            .max()
            .unwrap_or(0),
    }
}
