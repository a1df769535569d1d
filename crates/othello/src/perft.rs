//! perft: the number of move sequences of a given length, the standard check of a move
//! generator. A pass counts as a ply; a game that ends early counts as one leaf.

use crate::bitboard::{flips, legal_moves};
use crate::Position;

/// Leaf count at `depth` plies from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mask = pos.size().mask();
    perft_raw(pos.player().0, pos.opponent().0, mask, depth)
}

fn perft_raw(player: u64, opponent: u64, mask: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(player, opponent, mask);
    if moves == 0 {
        // A pass (one leaf if it is the last ply) or the end of the game (one leaf).
        if depth == 1 || legal_moves(opponent, player, mask) == 0 {
            return 1;
        }
        return perft_raw(opponent, player, mask, depth - 1);
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut total = 0;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let flipped = flips(player, opponent, sq);
        let next_player = opponent & !flipped;
        let next_opponent = player | flipped | (1u64 << sq);
        total += if depth == 2 {
            // Bulk count the last ply: a child with no placement is one leaf (pass or end).
            let child_moves = legal_moves(next_player, next_opponent, mask);
            (child_moves.count_ones() as u64).max(1)
        } else {
            perft_raw(next_player, next_opponent, mask, depth - 1)
        };
    }
    total
}
