mod common;

use common::ReferenceBoard;
use othello::{Bitboard, BoardSize, Color, Game, IllegalReason, Move, Position, Square, Variant};
use proptest::prelude::*;

fn start(size: BoardSize) -> Position {
    Position::start(size, Variant::Standard)
}

fn sq(text: &str) -> Square {
    Square::parse(text, BoardSize::Eight).expect("a valid square")
}

/// Reference squares in the order the bitboard iterates them (a1, b1, .. row by row).
fn squares_of(moves: &[(usize, usize)]) -> Vec<Square> {
    let mut squares: Vec<Square> = moves
        .iter()
        .map(|&(c, r)| Square::new(c as u8, r as u8).expect("on board"))
        .collect();
    squares.sort();
    squares
}

/// Plays a random game, checking every step against the reference implementation:
/// the same legal moves, the same flips for every empty square, the same passes, the
/// same end and result.
fn check_random_game(size: BoardSize, choices: &[u16]) -> Result<(), TestCaseError> {
    let mut pos = start(size);
    let mut reference = ReferenceBoard::from_position(&pos);
    let mut step = 0;
    loop {
        prop_assert_eq!(&ReferenceBoard::from_position(&pos), &reference);
        let moves: Vec<Square> = pos.legal_moves().collect();
        prop_assert_eq!(&moves, &squares_of(&reference.moves()));
        for empty in pos.empty() {
            let flipped: Vec<Square> = pos.flips(Move::Place(empty)).collect();
            let expected = reference.flips(
                empty.column() as usize,
                empty.row() as usize,
                reference.to_move,
            );
            prop_assert_eq!(flipped, squares_of(&expected), "flips at {}", empty);
        }
        prop_assert_eq!(pos.must_pass(), reference.must_pass());
        prop_assert_eq!(pos.is_game_over(), reference.game_over());
        if pos.is_game_over() {
            let outcome = pos.outcome().expect("the game is over");
            prop_assert_eq!(outcome.black_discs, reference.count(1));
            prop_assert_eq!(outcome.white_discs, reference.count(-1));
            prop_assert_eq!(outcome.margin_for(Color::Black), reference.black_margin());
            prop_assert_eq!(outcome.margin_for(Color::White), -reference.black_margin());
            prop_assert!(pos.legal_move_list().is_empty());
            return Ok(());
        }
        let list = pos.legal_move_list();
        let mv = list[choices[step % choices.len()] as usize % list.len()];
        match mv {
            Move::Pass => reference.pass(),
            Move::Place(s) => reference.play(s.column() as usize, s.row() as usize),
        }
        pos = pos.play(mv).expect("a listed move is legal");
        step += 1;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_8x8_games_follow_the_reference_rules(choices in prop::collection::vec(any::<u16>(), 1..80)) {
        check_random_game(BoardSize::Eight, &choices)?;
    }

    #[test]
    fn random_6x6_games_follow_the_reference_rules(choices in prop::collection::vec(any::<u16>(), 1..50)) {
        check_random_game(BoardSize::Six, &choices)?;
    }

    #[test]
    fn random_4x4_games_follow_the_reference_rules(choices in prop::collection::vec(any::<u16>(), 1..20)) {
        check_random_game(BoardSize::Four, &choices)?;
    }
}

#[test]
fn the_8x8_start_has_white_on_d4_and_e5_and_black_on_d5_and_e4() {
    let pos = start(BoardSize::Eight);
    assert_eq!(pos.white(), Bitboard::from_iter([sq("d4"), sq("e5")]));
    assert_eq!(pos.black(), Bitboard::from_iter([sq("d5"), sq("e4")]));
    assert_eq!(pos.side_to_move(), Color::Black);
    let moves: Vec<String> = pos.legal_moves().map(|s| s.to_string()).collect();
    assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
}

#[test]
fn the_6x6_start_has_white_on_c3_and_d4() {
    let pos = start(BoardSize::Six);
    assert_eq!(
        pos.to_board_text(),
        "--------------OX----XO-------------- X"
    );
}

#[test]
fn a_move_that_flips_nothing_is_illegal() {
    let pos = start(BoardSize::Eight);
    let err = pos.play(Move::Place(sq("a1"))).unwrap_err();
    assert_eq!(err.reason, IllegalReason::FlipsNothing);
    assert_eq!(err.to_string(), "illegal move a1: it flips no disc");
}

#[test]
fn a_move_on_an_occupied_square_is_illegal() {
    let err = start(BoardSize::Eight)
        .play(Move::Place(sq("d4")))
        .unwrap_err();
    assert_eq!(err.reason, IllegalReason::Occupied);
}

#[test]
fn a_move_off_a_small_board_is_illegal() {
    let err = start(BoardSize::Six)
        .play(Move::Place(sq("g7")))
        .unwrap_err();
    assert_eq!(err.reason, IllegalReason::OffBoard);
}

#[test]
fn a_pass_is_illegal_while_a_placement_exists() {
    let err = start(BoardSize::Eight).play(Move::Pass).unwrap_err();
    assert_eq!(err.reason, IllegalReason::PassWithMovesLeft);
}

#[test]
fn a_pass_is_the_only_move_when_no_placement_exists() {
    // White to move, with only a1 (black) beside b1 (white): White cannot place, Black can (c1).
    let pos = Position::from_board_text(&format!("XO{} O", "-".repeat(62)), Variant::Standard)
        .expect("valid board text");
    assert!(pos.legal_moves().is_empty());
    assert!(pos.must_pass());
    assert!(!pos.is_game_over());
    assert_eq!(pos.legal_move_list(), vec![Move::Pass]);
    let after = pos.play(Move::Pass).expect("pass is legal");
    assert_eq!(after.side_to_move(), Color::Black);
    assert_eq!(after.legal_move_list(), vec![Move::Place(sq("c1"))]);
}

#[test]
fn the_game_ends_when_neither_side_can_place() {
    let pos = Position::from_board_text(&format!("XX{} O", "-".repeat(62)), Variant::Standard)
        .expect("valid board text");
    assert!(pos.is_game_over());
    let err = pos.play(Move::Pass).unwrap_err();
    assert_eq!(err.reason, IllegalReason::GameOver);
    let outcome = pos.outcome().expect("over");
    assert_eq!(outcome.winner(), Some(Color::Black));
    // Two discs to none, and the 62 empties go to the winner.
    assert_eq!(outcome.margin_for(Color::Black), 64);
    assert_eq!(outcome.margin_for(Color::White), -64);
    // The score as WOF counts it, the empties the winner's, and the board's as it stands
    // (issue 68: "60-2 (margin 60: …)" were not WOF's counts).
    assert_eq!(
        outcome.to_string(),
        "Black wins 64-0 (margin 64: 2-0 on the board, the 62 empty squares counted for the \
         winner)"
    );
}

#[test]
fn in_the_reversed_variant_fewer_discs_win_and_empties_go_to_the_winner() {
    let pos = Position::from_board_text(&format!("XX{}O O", "-".repeat(61)), Variant::Reversed)
        .expect("valid board text");
    // Black on a1 and b1, White on h8: no disc can outflank another.
    assert!(pos.is_game_over());
    let outcome = pos.outcome().expect("over");
    assert_eq!(outcome.winner(), Some(Color::White));
    assert_eq!(outcome.margin_for(Color::White), 1 + 61);
    assert_eq!(
        outcome.to_string(),
        "White wins with fewer discs, 1 to 63 (margin 62: 1 to 2 on the board, the 61 empty \
         squares counted for the loser, since fewer discs win)"
    );
    let standard = pos.with_variant(Variant::Standard).outcome().expect("over");
    assert_eq!(standard.winner(), Some(Color::Black));
}

#[test]
fn a_drawn_game_has_no_winner_and_zero_margin() {
    let board = format!("XX{}OO{}", "-".repeat(54), "-".repeat(6));
    let pos = Position::from_board_text(&format!("{board} X"), Variant::Standard).expect("valid");
    assert!(pos.is_game_over());
    let outcome = pos.outcome().expect("over");
    assert_eq!(outcome.winner(), None);
    assert_eq!(outcome.margin_for(Color::Black), 0);
    assert_eq!(
        outcome.to_string(),
        "draw 32-32 (2-2 on the board, the 60 empty squares shared)"
    );
    // A reversed game won without empties: the winner first, and in words why its count is
    // the smaller (issue 68: "White wins 9-55").
    let full = format!("{}{}", "X".repeat(55), "O".repeat(9));
    let pos = Position::from_board_text(&format!("{full} X"), Variant::Reversed).expect("valid");
    assert_eq!(
        pos.outcome().expect("over").to_string(),
        "White wins with fewer discs, 9 to 55 (margin 46)"
    );
}

/// J. Feinstein's perfect line for 6x6, in which White wins 20-16.
const FEINSTEIN_6X6: &str = "c2b4c5d2e4e3d1c1b1d5d6f4b3b2f3f2e2b6a4c6a6a2b5a5e6e5a3a1f5f6e1f1";

#[test]
fn feinsteins_6x6_perfect_line_replays_legally_and_white_wins_20_16() {
    let game = Game::from_transcript(FEINSTEIN_6X6, start(BoardSize::Six)).expect("legal line");
    let outcome = game.position().outcome().expect("the line ends the game");
    assert_eq!((outcome.black_discs, outcome.white_discs), (16, 20));
    assert_eq!(outcome.winner(), Some(Color::White));
    // Black passes once near the end; the parser inserted it.
    assert_eq!(game.moves().iter().filter(|m| **m == Move::Pass).count(), 1);
    assert_eq!(game.moves().len(), 33);
}

#[test]
fn playing_returns_a_new_position_and_leaves_the_old_one_alone() {
    let pos = start(BoardSize::Eight);
    let copy = pos;
    let next = pos.play(Move::Place(sq("f5"))).expect("legal");
    assert_eq!(pos, copy);
    assert_ne!(next, pos);
    assert_eq!(next.black().count(), 4);
    assert_eq!(next.white().count(), 1);
}

#[test]
fn equal_positions_hash_equal_and_different_ones_differ() {
    // Two move orders that transpose into one position.
    let a = Game::from_transcript("f5f6e6f4", start(BoardSize::Eight)).expect("legal");
    let b = Game::from_transcript("e6f6f5f4", start(BoardSize::Eight)).expect("legal");
    let c = Game::from_transcript("f5f4e3f6", start(BoardSize::Eight)).expect("legal");
    assert_eq!(a.position(), b.position());
    assert_eq!(a.position().hash(), b.position().hash());
    assert_ne!(a.position().hash(), c.position().hash());
    assert_ne!(
        start(BoardSize::Eight).hash(),
        start(BoardSize::Eight)
            .with_side_to_move(Color::White)
            .hash()
    );
    assert_ne!(
        start(BoardSize::Eight).hash(),
        Position::start(BoardSize::Eight, Variant::Reversed).hash()
    );
}

#[test]
fn hashes_of_distinct_positions_rarely_collide() {
    use std::collections::{HashMap, HashSet};
    // Every position within 6 plies of the start.
    let mut seen: HashMap<u64, Position> = HashMap::new();
    let mut frontier: HashSet<Position> = [start(BoardSize::Eight)].into();
    for _ in 0..6 {
        let mut next = HashSet::new();
        for pos in frontier {
            for mv in pos.legal_move_list() {
                next.insert(pos.play(mv).expect("legal"));
            }
        }
        for pos in &next {
            if let Some(other) = seen.insert(pos.hash(), *pos) {
                assert_eq!(other, *pos, "hash collision");
            }
        }
        frontier = next;
    }
    assert!(seen.len() > 5000);
}
