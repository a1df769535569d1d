//! perft: the number of move sequences of a given length, the standard check of a move
//! generator. A pass counts as a ply; a game that ends early counts as one leaf.

use crate::bitboard::{flips, legal_moves};
use crate::{Bitboard, BoardSize, Position, Symmetry};

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

/// Subtrees this deep or deeper go through the table; below, counting is cheaper than
/// a lookup (the eight symmetric images cost more than a few plies of moves).
const TABLE_MIN_DEPTH: u32 = 4;

/// [`perft`] with a transposition table over symmetry classes, as Edax's `count games`
/// (its perft.c): a position is stored under the smallest of its eight images, so the
/// four symmetric first moves of the game, and every transposition of move order,
/// are counted once. `table_bits` sets 2^bits entries of 32 bytes; the count is exact
/// whatever the size (a slot holds the whole position, so a lookup never confuses two).
pub fn perft_hashed(pos: &Position, depth: u32, table_bits: u32) -> u64 {
    let mut counter = HashedPerft {
        table: vec![Slot::default(); 1 << table_bits.clamp(4, 30)],
        shift: 64 - table_bits.clamp(4, 30),
        mask: pos.size().mask(),
        size: pos.size(),
    };
    counter.count(pos.player().0, pos.opponent().0, depth)
}

#[derive(Clone, Copy, Default)]
struct Slot {
    player: u64,
    opponent: u64,
    /// 0: empty (depth 0 is never stored).
    depth: u32,
    count: u64,
}

struct HashedPerft {
    table: Vec<Slot>,
    shift: u32,
    mask: u64,
    size: BoardSize,
}

impl HashedPerft {
    fn count(&mut self, player: u64, opponent: u64, depth: u32) -> u64 {
        if depth < TABLE_MIN_DEPTH {
            return perft_raw(player, opponent, self.mask, depth);
        }
        let (key_player, key_opponent) = self.canonical(player, opponent);
        let index = (key_player ^ key_opponent.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            >> self.shift;
        let slot = self.table[index as usize];
        if slot.depth == depth && slot.player == key_player && slot.opponent == key_opponent {
            return slot.count;
        }
        let moves = legal_moves(player, opponent, self.mask);
        let total = if moves == 0 {
            if legal_moves(opponent, player, self.mask) == 0 {
                1
            } else {
                self.count(opponent, player, depth - 1)
            }
        } else {
            let mut total = 0;
            let mut rest = moves;
            while rest != 0 {
                let sq = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                let flipped = flips(player, opponent, sq);
                total += self.count(
                    opponent & !flipped,
                    player | flipped | (1u64 << sq),
                    depth - 1,
                );
            }
            total
        };
        self.table[index as usize] = Slot {
            player: key_player,
            opponent: key_opponent,
            depth,
            count: total,
        };
        total
    }

    /// The smallest of the position's eight images: equal for every symmetric copy.
    fn canonical(&self, player: u64, opponent: u64) -> (u64, u64) {
        Symmetry::ALL
            .iter()
            .map(|sym| {
                (
                    sym.bitboard(Bitboard(player), self.size).0,
                    sym.bitboard(Bitboard(opponent), self.size).0,
                )
            })
            .min()
            .unwrap_or((player, opponent))
    }
}
