use othello::{Bitboard, BoardSize, Game, Move, Position, Square, Symmetry, Variant};
use std::collections::HashSet;

/// The eight maps of (column, row) on an n x n board, written out by hand.
fn reference_map(index: usize, col: u8, row: u8, n: u8) -> (u8, u8) {
    let l = n - 1;
    match index {
        0 => (col, row),
        1 => (row, col),
        2 => (col, l - row),
        3 => (row, l - col),
        4 => (l - col, row),
        5 => (l - row, col),
        6 => (l - col, l - row),
        7 => (l - row, l - col),
        _ => unreachable!(),
    }
}

#[test]
fn each_symmetry_maps_squares_as_written_out_by_hand() {
    for size in BoardSize::ALL {
        for sym in Symmetry::ALL {
            for sq in Square::all(size) {
                let (c, r) = reference_map(sym.index(), sq.column(), sq.row(), size.n());
                assert_eq!(sym.square(sq, size), Square::new(c, r).expect("on board"));
            }
        }
    }
}

#[test]
fn bitboard_symmetries_agree_with_square_symmetries() {
    for size in BoardSize::ALL {
        let squares: Vec<Square> = Square::all(size).collect();
        // A few irregular subsets of the board.
        for seed in 1u64..40 {
            let subset: Bitboard = squares
                .iter()
                .copied()
                .filter(|sq| {
                    (seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (sq.index() % 61)) & 1 == 1
                })
                .collect();
            for sym in Symmetry::ALL {
                let expected: Bitboard = subset.map(|sq| sym.square(sq, size)).collect();
                assert_eq!(
                    sym.bitboard(subset, size),
                    expected,
                    "{size} {}",
                    sym.name()
                );
            }
        }
    }
}

#[test]
fn the_eight_symmetries_are_distinct_and_each_has_its_inverse() {
    let size = BoardSize::Eight;
    let b2 = Square::parse("b2", size).expect("valid");
    let c1 = Square::parse("c1", size).expect("valid");
    let images: HashSet<(Square, Square)> = Symmetry::ALL
        .iter()
        .map(|s| (s.square(b2, size), s.square(c1, size)))
        .collect();
    assert_eq!(images.len(), 8);
    for sym in Symmetry::ALL {
        for sq in Square::all(size) {
            assert_eq!(sym.inverse().square(sym.square(sq, size), size), sq);
        }
    }
}

#[test]
fn the_start_position_is_fixed_by_the_diagonal_symmetries_only() {
    for size in [BoardSize::Six, BoardSize::Eight] {
        let start = Position::start(size, Variant::Standard);
        let fixing: Vec<&str> = Symmetry::ALL
            .iter()
            .filter(|s| s.position(&start) == start)
            .map(|s| s.name())
            .collect();
        assert_eq!(
            fixing,
            ["identity", "transpose", "rotate 180", "anti-transpose"]
        );
    }
}

#[test]
fn playing_a_mapped_move_in_a_mapped_position_gives_the_mapped_result() {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let game = Game::from_transcript("f5f6e6f4e3c5c4", start).expect("legal");
    let pos = game.position();
    for sym in Symmetry::ALL {
        let mapped = sym.position(pos);
        let expected: Vec<Move> = {
            let mut moves: Vec<Move> = pos
                .legal_move_list()
                .into_iter()
                .map(|m| sym.apply_move(m, pos.size()))
                .collect();
            moves.sort();
            moves
        };
        assert_eq!(mapped.legal_move_list(), expected);
        for mv in pos.legal_move_list() {
            let after = pos.play(mv).expect("legal");
            let mapped_after = mapped.play(sym.apply_move(mv, pos.size())).expect("legal");
            assert_eq!(sym.position(&after), mapped_after);
        }
    }
}
