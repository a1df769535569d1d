//! Stable discs and the stability cutoff: an upper bound on the final margin from the
//! discs the other side can never lose, as Edax's search.c uses it (`search_SC_NWS`).

use super::{Solver, FILE_A, FILE_H, RANK_1, RANK_8};
use othello::Variant;

/// The lowest alpha at which the stability cutoff is worth computing on 8x8, by empties,
/// for null-window and for wider searches: below it the opponent would need more stable
/// discs than such positions have. Edax's tuned `NWS_STABILITY_THRESHOLD` and
/// `PVS_STABILITY_THRESHOLD` (search.c); 99 never tries.
const NWS_STABILITY_THRESHOLD: [i8; 64] = [
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46,
    48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64,
    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];
const PVS_STABILITY_THRESHOLD: [i8; 64] = [
    99, 99, 99, 99, -2, 0, 2, 4, 6, 8, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40,
    40, 42, 42, 44, 44, 46, 46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 99,
    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];

impl Solver {
    /// Discs of `own` that no sequence of moves can flip: on every line through them
    /// the line is full or a neighbour along it is the board's edge or another such
    /// disc. Conservative (misses some stable discs), never wrong.
    pub(super) fn stable(&self, own: u64, opponent: u64) -> u64 {
        // Squares off a smaller board count as filled: the 8x8 line through a square
        // is then full exactly when the board's own line is.
        let filled = own | opponent | !self.mask;
        let full = [
            full_lines(filled, 1, FILE_H, FILE_A),
            full_lines(filled, 8, RANK_8, RANK_1),
            full_lines(filled, 9, FILE_H | RANK_8, FILE_A | RANK_1),
            full_lines(filled, 7, FILE_A | RANK_8, FILE_H | RANK_1),
        ];
        let off = !self.mask;
        let mut stable = 0u64;
        loop {
            let s = stable | off;
            let h = full[0] | (s << 1) & !FILE_A | FILE_A | (s >> 1) & !FILE_H | FILE_H;
            let v = full[1] | (s << 8) | RANK_1 | (s >> 8) | RANK_8;
            let d = full[2]
                | (s << 9) & !FILE_A
                | FILE_A
                | RANK_1
                | (s >> 9) & !FILE_H
                | FILE_H
                | RANK_8;
            let a = full[3]
                | (s << 7) & !FILE_H
                | FILE_H
                | RANK_1
                | (s >> 7) & !FILE_A
                | FILE_A
                | RANK_8;
            let next = own & h & v & d & a;
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }

    /// An upper bound on `p`'s final margin from stable discs, when it can fail low at
    /// `alpha`. Standard: the opponent keeps its stable discs, so at best
    /// `squares - 2 * stable(o)`. Reversed: `p` keeps its own, the same bound with
    /// `stable(p)` (a win by `o - p + empties` is `squares - 2 * p` at the end).
    ///
    /// `null_window`: the search is (alpha, alpha + 1), where cutoffs are likelier and
    /// Edax tries them from a lower alpha on.
    #[inline]
    pub(super) fn stability_cutoff(
        &self,
        p: u64,
        o: u64,
        alpha: i32,
        n: u32,
        null_window: bool,
    ) -> Option<i32> {
        if self.squares == 64 {
            let thresholds = if null_window {
                &NWS_STABILITY_THRESHOLD
            } else {
                &PVS_STABILITY_THRESHOLD
            };
            if alpha < i32::from(thresholds[n as usize]) {
                return None;
            }
        }
        let (keeper, other) = match self.variant {
            Variant::Standard => (o, p),
            Variant::Reversed => (p, o),
        };
        // Even if every disc of `keeper` were stable the bound could not reach alpha.
        if self.squares - 2 * keeper.count_ones() as i32 > alpha {
            return None;
        }
        let bound = self.squares - 2 * self.stable(keeper, other).count_ones() as i32;
        (bound <= alpha).then_some(bound)
    }
}

/// Squares whose whole line in one direction is filled: `shift` steps to the next
/// square up the line, `last_up` and `last_down` are the squares with no neighbour
/// that way. Seven rounds reach the far end of any line.
#[inline(always)]
fn full_lines(filled: u64, shift: u32, last_up: u64, last_down: u64) -> u64 {
    let mut full = filled;
    for _ in 0..7 {
        full &= ((full >> shift) | last_up) & ((full << shift) | last_down);
    }
    full
}
