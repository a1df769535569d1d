mod common;

use common::ReferenceBoard;
use othello::{perft, perft_hashed, BoardSize, Game, Position, Symmetry, Variant};

/// Published by Aart Bik; reproduced by Edax and Egaroucid.
const PERFT_8X8: [u64; 13] = [
    4,
    12,
    56,
    244,
    1396,
    8200,
    55092,
    390216,
    3005288,
    24571284,
    212258800,
    1939886636,
    18429641748,
];

fn start(size: BoardSize) -> Position {
    Position::start(size, Variant::Standard)
}

#[test]
fn perft_from_the_8x8_start_matches_the_published_counts_to_depth_10() {
    for depth in 1..=10 {
        assert_eq!(
            perft(&start(BoardSize::Eight), depth),
            PERFT_8X8[depth as usize - 1],
            "depth {depth}"
        );
    }
}

#[test]
#[ignore = "takes a few seconds in release, minutes in debug"]
fn perft_11_from_the_8x8_start_matches_the_published_count() {
    assert_eq!(perft(&start(BoardSize::Eight), 11), PERFT_8X8[10]);
}

#[test]
fn perft_agrees_with_the_reference_on_every_board_size() {
    for (size, depth) in [
        (BoardSize::Eight, 6),
        (BoardSize::Six, 7),
        (BoardSize::Four, 20),
    ] {
        let pos = start(size);
        let reference = ReferenceBoard::from_position(&pos).perft(depth);
        for d in 1..=depth {
            let expected = ReferenceBoard::from_position(&pos).perft(d);
            assert_eq!(perft(&pos, d), expected, "{size} depth {d}");
        }
        assert!(reference > 0);
    }
}

#[test]
fn perft_of_depth_zero_is_one_leaf() {
    assert_eq!(perft(&start(BoardSize::Eight), 0), 1);
}

#[test]
fn a_4x4_game_tree_is_finite_so_deep_perft_stops_growing() {
    // Every 4x4 game ends within 12 placements plus passes; past that depth each line has
    // ended and counts once, so perft stays constant.
    let pos = start(BoardSize::Four);
    assert_eq!(perft(&pos, 30), perft(&pos, 40));
}

#[test]
fn every_symmetry_of_a_position_has_the_same_perft() {
    let pos = *othello::Game::from_transcript("f5f6e6f4", start(BoardSize::Eight))
        .expect("legal")
        .position();
    let expected = perft(&pos, 5);
    for sym in Symmetry::ALL {
        assert_eq!(perft(&sym.position(&pos), 5), expected, "{}", sym.name());
    }
}

/// The hashed count (symmetry classes in a table) against the plain one: from the start
/// of every board, from positions after a few moves (where the symmetric first moves no
/// longer coincide), with a table big enough and one so small that slots are overwritten
/// all the time.
#[test]
fn the_hashed_perft_counts_exactly_what_the_plain_one_does() {
    for (size, depth) in [
        (BoardSize::Eight, 9),
        (BoardSize::Six, 10),
        (BoardSize::Four, 16),
    ] {
        let pos = start(size);
        for d in [0, 1, 3, 4, 5, depth] {
            let expected = perft(&pos, d);
            assert_eq!(perft_hashed(&pos, d, 16), expected, "{size} depth {d}");
            assert_eq!(
                perft_hashed(&pos, d, 4),
                expected,
                "{size} depth {d}, tiny table"
            );
        }
    }
    for transcript in ["f5f6e6f4", "f5d6c3d3c4f4", "c4e3f6e6f5"] {
        let pos = *Game::from_transcript(transcript, start(BoardSize::Eight))
            .expect("legal")
            .position();
        assert_eq!(perft_hashed(&pos, 7, 12), perft(&pos, 7), "{transcript}");
    }
    assert_eq!(
        perft_hashed(&start(BoardSize::Eight), 10, 18),
        PERFT_8X8[9],
        "published count"
    );
}
