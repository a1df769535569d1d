//! Reference code shared by the crate's unit tests: slow, obviously correct, and only
//! for small searches.

use crate::Rng;
pub(crate) use othello::testing::minimax;
use othello::testing::{random_position, Stop};
use othello::{BoardSize, Position, Variant};

/// The board and rules of a test's `case`-th position: 8x8 and 6x6, standard and
/// reversed, in turn.
pub(crate) fn board_and_rules(case: usize) -> (BoardSize, Variant) {
    [
        (BoardSize::Eight, Variant::Standard),
        (BoardSize::Six, Variant::Standard),
        (BoardSize::Eight, Variant::Reversed),
        (BoardSize::Six, Variant::Reversed),
    ][case % 4]
}

/// A position reached by random play with at most `empties` empty squares (the shared
/// `othello::testing::random_position`, on `rng`); `None` when the game ended first.
pub(crate) fn random_open_position(
    size: BoardSize,
    variant: Variant,
    empties: u32,
    rng: &mut Rng,
) -> Option<Position> {
    let pos = random_position(size, variant, Stop::AtEmpties(empties), |n| rng.below(n));
    (!pos.is_game_over()).then_some(pos)
}

/// A 6x6 position from random play down to `empties` empty squares, or `None` when the
/// game ended there or left only one move (nothing to choose).
pub(crate) fn random_6x6_choice(rng: &mut Rng, empties: u32) -> Option<Position> {
    let pos = random_position(
        BoardSize::Six,
        Variant::Standard,
        Stop::AtEmpties(empties),
        |n| rng.below(n),
    );
    (!pos.is_game_over() && pos.legal_move_list().len() >= 2).then_some(pos)
}

/// Asserts that `v`, a search's value in the window (`alpha`, `beta`), is a fail-soft
/// bound of the true margin `truth`: at or below alpha it bounds it from above, at or
/// above beta from below, and in between it is exact.
#[track_caller]
pub(crate) fn assert_fail_soft(v: i32, alpha: i32, beta: i32, truth: i32, what: &str) {
    if v <= alpha {
        assert!(
            truth <= v,
            "{what}: {v} in ({alpha}, {beta}), truth {truth}"
        );
    } else if v >= beta {
        assert!(
            truth >= v,
            "{what}: {v} in ({alpha}, {beta}), truth {truth}"
        );
    } else {
        assert_eq!(v, truth, "{what}: window ({alpha}, {beta})");
    }
}
