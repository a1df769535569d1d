//! A small static evaluation and the shallow search over it that orders moves far from
//! the end, where a subtree is large enough to pay for looking a few plies ahead.
//!
//! Edax (`movelist_evaluate` in src/move.c) and Egaroucid (`move_list_evaluate_nws` in
//! src/engine/move_ordering.hpp, called from `nega_scout` above `MID_TO_END_DEPTH` = 13
//! empties in src/engine/midsearch_nws.hpp) both add the value of a shallow search of
//! each child to the mobility keys there, with their pattern evaluations. This solver
//! has none, so the leaves use hand-set terms of the kind those evaluations learn:
//! mobility, potential mobility, corners and the edge squares they hold, X-squares next
//! to an empty corner. Only the order of moves depends on it, never a value.

use super::Solver;
use othello::raw::{flips, legal_moves_unmasked};
use othello::Variant;

/// X-squares (diagonal neighbours of the corners) of the 8x8 board, and the corner
/// each belongs to, in the same order.
const X_SQUARES: [u64; 4] = [1 << 9, 1 << 14, 1 << 49, 1 << 54];
const X_CORNERS: [u64; 4] = [1, 1 << 7, 1 << 56, 1 << 63];

impl Solver {
    /// A rough value of the position for `p` to move, in eighths of a disc or so.
    /// `p_moves` are its legal moves (the caller has them).
    #[inline]
    pub(super) fn static_value(&self, p: u64, o: u64, p_moves: u64) -> i32 {
        let weighted = |b: u64| (b.count_ones() + (b & self.corners).count_ones()) as i32;
        let o_moves = legal_moves_unmasked(o, p) & self.mask;
        let mobility = weighted(p_moves) - weighted(o_moves);
        let potential = (self.potential_moves(p, o).count_ones() as i32)
            - (self.potential_moves(o, p).count_ones() as i32);
        let corners = self.corner_stability(p) - self.corner_stability(o);
        let empty = self.mask & !(p | o);
        let mut x_squares = 0;
        for (x, corner) in X_SQUARES.into_iter().zip(X_CORNERS) {
            if empty & corner != 0 {
                x_squares += i32::from(o & x != 0) - i32::from(p & x != 0);
            }
        }
        // Holding corners, edges next to them and the X-squares is material: in the
        // reversed game it counts the other way. Having moves is good in both.
        let material = 12 * corners + 6 * x_squares;
        let material = match self.variant {
            Variant::Standard => material,
            Variant::Reversed => -material,
        };
        8 * mobility + 2 * potential + material
    }

    /// Fail-hard negamax of `static_value` to `depth` plies within (alpha, beta), for `p`
    /// to move with its legal moves `moves` (non-zero).
    pub(super) fn shallow_value(
        &self,
        p: u64,
        o: u64,
        moves: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth == 0 {
            return self.static_value(p, o, moves).clamp(alpha, beta);
        }
        // Children fastest first (fewest replies), so that alpha-beta cuts early: the
        // deeper searches of this ordering cost as much as the solver's nodes otherwise.
        let mut children = [(0u32, 0u64, 0u64, 0u64); 32];
        let mut len = 0;
        let mut rest = moves;
        while rest != 0 && len < children.len() {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let f = flips(p, o, sq);
            let (np, no) = (o & !f, p | f | (1 << sq));
            let replies = legal_moves_unmasked(np, no) & self.mask;
            children[len] = (replies.count_ones(), np, no, replies);
            len += 1;
        }
        let children = &mut children[..len];
        if depth >= 2 {
            children.sort_unstable_by_key(|c| c.0);
        }
        for &(_, np, no, replies) in children.iter() {
            let v = if replies != 0 {
                -self.shallow_value(np, no, replies, depth - 1, -beta, -alpha)
            } else {
                let again = legal_moves_unmasked(no, np) & self.mask;
                if again == 0 {
                    // The game is over: the disc count, on the same scale.
                    let margin = self.final_score(no, np);
                    (16 * margin).clamp(alpha, beta)
                } else {
                    self.shallow_value(no, np, again, depth - 1, alpha, beta)
                }
            };
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    return beta;
                }
            }
        }
        alpha
    }
}
