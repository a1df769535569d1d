//! Positions for tests (the `test-support` feature, which the workspace's crates turn on
//! for their tests only): random play from the start. The caller brings the generator, as
//! `pick`, so each crate keeps its own seeded streams and the rules crate needs none.

use crate::{BoardSize, Position, Variant};

/// Where random play from the start stops, unless the game ends first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// After this many moves (a pass counts as one).
    AfterPlies(usize),
    /// Once at most this many squares are empty.
    AtEmpties(u32),
}

/// The position that random play from the start of `size` and `variant` reaches at
/// `stop`, or where the game ended before it (a finished position: callers that need a
/// move to play check [`Position::is_game_over`]). Each move is the `pick(n)`-th of the
/// position's `n` legal moves in [`Position::legal_move_list`]'s order (a forced pass is
/// the one move); `pick` is not called once the game is over, so a seeded generator's
/// stream goes exactly as far as the moves it chose.
///
/// ```
/// use othello::testing::{random_position, Stop};
/// use othello::{BoardSize, Variant};
///
/// let first = |_: usize| 0;
/// let pos = random_position(BoardSize::Six, Variant::Standard, Stop::AtEmpties(20), first);
/// assert_eq!(pos.empty_count(), 20);
/// ```
///
/// # Panics
///
/// When `pick(n)` is not below `n`.
pub fn random_position(
    size: BoardSize,
    variant: Variant,
    stop: Stop,
    mut pick: impl FnMut(usize) -> usize,
) -> Position {
    let mut pos = Position::start(size, variant);
    let mut plies = 0;
    while !pos.is_game_over() {
        let done = match stop {
            Stop::AfterPlies(most) => plies >= most,
            Stop::AtEmpties(empties) => pos.empty_count() <= empties,
        };
        if done {
            break;
        }
        let moves = pos.legal_move_list();
        let index = pick(moves.len());
        let Some(&mv) = moves.get(index) else {
            panic!("pick({}) gave {index}", moves.len());
        };
        pos = pos.play_unchecked(mv);
        plies += 1;
    }
    pos
}

/// The exact margin for the side to move by plain minimax straight from the rules: the
/// slow, obviously correct reference the solvers are checked against (a handful of empties
/// only).
pub fn minimax(pos: &Position) -> i32 {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_play_stops_at_its_plies_or_empties_or_the_game_s_end() {
        let last = |n: usize| n - 1;
        // No pass this early on 8x8: each ply fills a square.
        let eight = BoardSize::Eight;
        let after = random_position(eight, Variant::Standard, Stop::AfterPlies(3), last);
        assert_eq!(after.empty_count(), eight.squares() - 4 - 3);
        let at = random_position(eight, Variant::Standard, Stop::AtEmpties(50), last);
        assert_eq!(at.empty_count(), 50);
        let four = BoardSize::Four;
        let end = random_position(four, Variant::Standard, Stop::AfterPlies(100), last);
        assert!(end.is_game_over());
    }
}
