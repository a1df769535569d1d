//! Move ordering for the deep search: Edax's fastest-first keys (move.c) and the fixed
//! array they are sorted in.

use super::{Solver, FILE_A, FILE_H};
use othello::raw::{flips, legal_moves_unmasked};

/// Move-ordering weights, Edax's (move.c): one reply fewer for the opponent outweighs
/// everything else; corner stability, potential mobility, the square's type and parity
/// only break ties. Keys are `ORDER_KEY_BASE - score`, smaller first.
const W_MOBILITY: i32 = 1 << 15;
const W_HASH: i32 = 1 << 15;
const W_CORNER_STABILITY: i32 = 1 << 11;
const W_POTENTIAL_MOBILITY: i32 = 1 << 5;
const ORDER_KEY_BASE: i64 = 1 << 40;

/// From this many empties on (`Solver::sort_empties`), moves are also ordered by a
/// shallow search of each child over a small evaluation (eval.rs), as Edax's
/// `movelist_evaluate` (src/move.c) and Egaroucid's `move_list_evaluate_nws`
/// (src/engine/move_ordering.hpp) do with theirs. `SORT_DEPTH` plies at first, one more
/// every `SORT_DEPTH_STEP` empties. Chosen by nodes and time on FFO #40-#47
/// (docs/solver.md): from 14 empties at depth 2, FFO #40-#44 and #47 take 166.6 M nodes
/// against 297.5 M, #46 54 M against 229 M. Starting lower or going deeper saves more
/// nodes but costs more time in the shallow searches than it saves.
pub(super) const SORT_EMPTIES: u32 = 14;
const SORT_DEPTH: u32 = 2;
const SORT_DEPTH_STEP: u32 = 4;
/// The deepest ordering search, reached at 30 empties: beyond the FFO range the formula
/// would go on growing (13 plies at 60 empties), and a budgeted solve of a position that
/// far from the end (`solve_within`, whose budget counts the solver's nodes, not these)
/// spent 42 s on 10,000 nodes.
const MAX_SORT_DEPTH: u32 = 6;
/// One unit of the evaluation (about an eighth of a disc) against one reply fewer for
/// the opponent (`W_MOBILITY`): 2^13 did better than 2^11 and 2^15.
const W_EVAL: i64 = 1 << 13;

/// Edax's square types for 8x8 ordering (J. C. Weill's values): corners best, X-squares
/// and C-squares worst.
#[rustfmt::skip]
pub(super) const SQUARE_VALUE_8X8: [u8; 64] = [
    18,  4, 16, 12, 12, 16,  4, 18,
     4,  2,  6,  8,  8,  6,  2,  4,
    16,  6, 14, 10, 10, 14,  6, 16,
    12,  8, 10,  0,  0, 10,  8, 12,
    12,  8, 10,  0,  0, 10,  8, 12,
    16,  6, 14, 10, 10, 14,  6, 16,
     4,  2,  6,  8,  8,  6,  2,  4,
    18,  4, 16, 12, 12, 16,  4, 18,
];

impl Solver {
    /// Legal moves sorted fastest first, by Edax's `movelist_evaluate_fast` (move.c):
    /// above all the opponent's weighted mobility (corners count double), then the
    /// mover's stable corners and their edge neighbours, the opponent's potential mobility,
    /// the square's type and parity. Finds cutoffs early and keeps the tree narrow.
    ///
    /// With `etc_beta` every child is also looked up in the table: one that the table
    /// proves at least `beta` for the mover ends the node (`Err` with that value), and one
    /// that is stored at all goes earlier, as in Edax's deep ordering (`W_HASH`): its
    /// subtree is partly searched already.
    ///
    /// The list is filled in place (`ordered`, empty on entry) rather than returned: a
    /// returned list is copied into the caller's frame, and in wasm that copy (and the
    /// zeroing of a fresh list) is a call into the engine for every node.
    pub(super) fn order(
        &self,
        p: u64,
        o: u64,
        moves: u64,
        n: u32,
        etc_beta: Option<i32>,
        ordered: &mut Ordered,
    ) -> Result<(), i32> {
        let empty = self.mask & !(p | o);
        let odd = self.odd_quadrants(empty);
        let parity_weight = if n < 12 { 8 } else { 4 };
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let f = flips(p, o, sq);
            let (np, no) = (o & !f, p | f | (1 << sq));
            let replies = legal_moves_unmasked(np, no) & self.mask;
            let weighted = |b: u64| (b.count_ones() + (b & self.corners).count_ones()) as i32;
            let mut score = (36 - weighted(replies)) * W_MOBILITY
                + self.corner_stability(no) * W_CORNER_STABILITY
                + (36 - weighted(self.potential_moves(np, no))) * W_POTENTIAL_MOBILITY
                + i32::from(self.square_value[sq as usize]);
            if odd & (1 << sq) != 0 {
                score += parity_weight;
            }
            if let Some(beta) = etc_beta {
                if let Some(e) = self.probe(np, no) {
                    let v = -i32::from(e.upper);
                    if v >= beta {
                        return Err(v);
                    }
                    score += W_HASH;
                }
            }
            ordered.push(ORDER_KEY_BASE - i64::from(score), sq);
        }
        ordered.sort();
        Ok(())
    }

    /// Edax's `get_corner_stability`: the mover's corners and the edge squares next to
    /// them that it also holds.
    #[inline(always)]
    pub(super) fn corner_stability(&self, own: u64) -> i32 {
        let c = own & self.corners;
        let next = (c << 1 | c >> 1) & self.corner_rows | (c << 8 | c >> 8) & self.corner_columns;
        ((next & own) | c).count_ones() as i32
    }

    /// Empty squares next to a disc of `other`: where `mover` may some day play.
    #[inline(always)]
    pub(super) fn potential_moves(&self, mover: u64, other: u64) -> u64 {
        let inner_columns = !(FILE_A | FILE_H);
        let d = other & inner_columns;
        let v = other;
        let spread = d << 1 | d >> 1 | v << 8 | v >> 8 | d << 7 | d >> 7 | d << 9 | d >> 9;
        spread & self.mask & !(mover | other)
    }

    #[inline(always)]
    pub(super) fn odd_quadrants(&self, empty: u64) -> u64 {
        let mut odd = 0;
        for q in self.quadrants {
            if (empty & q).count_ones() & 1 == 1 {
                odd |= q;
            }
        }
        odd
    }
}

/// Moves packed with their sort keys (key << 8 | square) in a fixed array: no
/// allocation, a small block to clear, and integer sorting. Flips are recomputed for
/// the moves actually searched, which after a cutoff is often only the first.
pub(super) struct Ordered {
    moves: [u64; 64],
    pub(super) len: usize,
}

impl Default for Ordered {
    fn default() -> Self {
        Ordered {
            moves: [0; 64],
            len: 0,
        }
    }
}

impl Ordered {
    /// `key` must be non-negative; smaller goes first. A move list is a subset of 64
    /// squares, so `len` stays below 64.
    #[inline(always)]
    pub(super) fn push(&mut self, key: i64, sq: u8) {
        self.moves[self.len] = (key.max(0) as u64) << 8 | u64::from(sq);
        self.len += 1;
    }

    #[inline(always)]
    pub(super) fn square(&self, i: usize) -> u8 {
        self.moves[i] as u8
    }

    /// Insertion sort: lists are short.
    pub(super) fn sort(&mut self) {
        self.sort_from(0);
    }

    /// Sorts the moves from `from` on, leaving those before in place.
    pub(super) fn sort_from(&mut self, from: usize) {
        for i in from + 1..self.len {
            let item = self.moves[i];
            let mut j = i;
            while j > from && self.moves[j - 1] > item {
                self.moves[j] = self.moves[j - 1];
                j -= 1;
            }
            self.moves[j] = item;
        }
    }

    /// Raises the score of the move at `i` by `score` (lowers its key; the keys stay
    /// far above any score added).
    #[inline(always)]
    pub(super) fn raise(&mut self, i: usize, score: i64) {
        self.moves[i] -= (score.max(0) as u64) << 8;
    }

    /// Moves `sq` (the table's best move) to the front, keeping the rest in order.
    /// Whether it was in the list.
    pub(super) fn promote(&mut self, sq: u8) -> bool {
        if let Some(i) = self.moves[..self.len].iter().position(|&m| m as u8 == sq) {
            self.moves[..=i].rotate_right(1);
            return true;
        }
        false
    }
}

/// Values of `shallow_value` lie well within this.
pub(super) const EVAL_BOUND: i32 = 4096;

impl Solver {
    /// How deep the shallow searches that order `moves` go, or `None` where only the fast
    /// keys count: near the end, off 8x8 (the evaluation knows its squares) and for a
    /// lone move.
    #[inline(always)]
    pub(super) fn sort_depth(&self, n: u32, moves: u64) -> Option<u32> {
        (self.squares == 64 && n >= self.sort_empties && moves & (moves - 1) != 0)
            .then(|| (SORT_DEPTH + (n - self.sort_empties) / SORT_DEPTH_STEP).min(MAX_SORT_DEPTH))
    }

    /// Adds the shallow search's value of each child to the keys of the moves from
    /// `from` on and sorts them again. The search calls it for the moves after the
    /// table's move only once that move has failed to cut (most often it cuts, and then
    /// the shallow searches would be wasted); the order is the one an eager sort gives.
    pub(super) fn refine(&self, p: u64, o: u64, ordered: &mut Ordered, from: usize, depth: u32) {
        for i in from..ordered.len {
            let sq = ordered.square(i);
            let f = flips(p, o, sq);
            let (np, no) = (o & !f, p | f | (1 << sq));
            let replies = legal_moves_unmasked(np, no) & self.mask;
            // The opponent's value after the move, a few plies deep: lower is better.
            let v = self.child_value(np, no, replies, depth);
            ordered.raise(i, i64::from(EVAL_BOUND - v) * W_EVAL);
        }
        ordered.sort_from(from);
    }

    /// The value of a child position for its side to move (`replies` its moves) by the
    /// shallow search, passes and game ends included.
    fn child_value(&self, p: u64, o: u64, replies: u64, depth: u32) -> i32 {
        if replies != 0 {
            return self.shallow_value(p, o, replies, depth, -EVAL_BOUND, EVAL_BOUND);
        }
        let again = legal_moves_unmasked(o, p) & self.mask;
        if again == 0 {
            return 16 * self.final_score(p, o);
        }
        -self.shallow_value(o, p, again, depth, -EVAL_BOUND, EVAL_BOUND)
    }
}
