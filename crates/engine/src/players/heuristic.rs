//! One-ply player on a square-value table (van der Ree & Wiering's for 8x8).

use super::simple::{best_by, forced_move};
use crate::squares::square_table;
use crate::{Agent, Budget, Rng};
use othello::{Bitboard, Move, Position, Variant};

pub(crate) fn table_sum(table: &[i32; 64], discs: Bitboard) -> i32 {
    discs.map(|sq| table[usize::from(sq.index())]).sum()
}

/// Plays the move after which (own table sum - opponent table sum) is highest; ties at
/// random. In the reversed game the table counts against its owner: corners and edges
/// hold discs for good, which is what the side that wants few discs must avoid.
#[derive(Debug)]
pub struct HeuristicPlayer {
    rng: Rng,
}

impl HeuristicPlayer {
    pub fn new(seed: u64) -> HeuristicPlayer {
        HeuristicPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Agent for HeuristicPlayer {
    fn name(&self) -> String {
        "heuristic".into()
    }

    fn select_move(&mut self, pos: &Position, _budget: &Budget) -> Move {
        if let Some(mv) = forced_move(pos) {
            return mv;
        }
        let table = square_table(pos.size());
        let sign = match pos.variant() {
            Variant::Standard => 1,
            Variant::Reversed => -1,
        };
        best_by(pos, &mut self.rng, |p, mv| {
            let after = p.play_unchecked(mv);
            // After the move the mover is the opponent of the side to move.
            let own = table_sum(&table, after.opponent());
            let other = table_sum(&table, after.player());
            i64::from(sign * (own - other))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::{BoardSize, Square};

    #[test]
    fn the_heuristic_player_takes_a_corner_over_an_inner_square() {
        // Black to move: a1 (corner, via b2) or a move elsewhere in the centre.
        let text = [
            "--------", "-O------", "--X-----", "---OX---", "---XO---", "--------", "--------",
            "--------",
        ]
        .concat();
        let pos = Position::from_board_text(&format!("{text} X"), Variant::Standard)
            .expect("valid board text");
        let a1 = Move::Place(Square::parse("a1", BoardSize::Eight).expect("square"));
        assert!(pos.is_legal(a1));
        assert!(pos.legal_moves().count() > 1);
        for seed in 0..10 {
            assert_eq!(
                HeuristicPlayer::new(seed).select_move(&pos, &Budget::default()),
                a1
            );
        }
    }
}
