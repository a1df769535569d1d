//! Multi-ProbCut (M. Buro, "Experiments with Multi-ProbCut and a New High-Quality
//! Evaluation Function for Othello", 1997; Edax `search_probcut`, Egaroucid
//! `multi_probcut.hpp`): a shallow search predicts the deep one's value, and a node whose
//! prediction lies far enough outside the window is cut without the deep search. How far
//! is enough comes from how far the two searches' values differ, measured on our own
//! searches (`othello bench probcut`, docs/midgame.md).

use super::{Midgame, StaticEval, UNIT};

/// Below this depth no probable cut is tried: the deep search is cheap enough.
const MIN_DEPTH: u32 = 3;

/// Multi-ProbCut's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCut {
    /// How many standard deviations of the shallow search's error a cut needs (1.5: the
    /// cut is wrong about 7% of the time it is tried at the window's edge).
    pub confidence: f32,
}

impl Default for ProbCut {
    fn default() -> Self {
        ProbCut { confidence: 1.5 }
    }
}

/// The shallow search's depth for a deep one of `depth`: about half, of the same parity
/// (Egaroucid's rule), since the evaluation's bias differs between odd and even depths.
pub(super) fn shallow_depth(depth: u32) -> u32 {
    ((depth / 2) & !1) + (depth & 1)
}

/// The standard deviation, in value units, of the deep search's value around the shallow
/// one's, for a deep search of `depth` with `empties` empty squares: linear in both, a fit
/// to our own searches (docs/midgame.md, "Multi-ProbCut").
pub(super) fn sigma(depth: u32, empties: u32) -> i32 {
    let discs = SIGMA_BASE + SIGMA_PER_DEPTH * depth as f32 + SIGMA_PER_EMPTY * empties as f32;
    (discs.max(1.0) * UNIT as f32) as i32
}

const SIGMA_BASE: f32 = 1.5;
const SIGMA_PER_DEPTH: f32 = 0.25;
const SIGMA_PER_EMPTY: f32 = 0.05;

impl<E: StaticEval> Midgame<E> {
    /// Whether the search under way may cut probably (not inside a probable cut's own
    /// shallow search, which must be exact at its depth).
    #[inline(always)]
    pub(super) fn selective(&self) -> bool {
        self.config.probcut.is_some() && !self.probing
    }

    /// A node's probable value outside (alpha, beta), when a shallow search shows it with
    /// the confidence asked for: beta for a probable fail high, alpha for a fail low.
    pub(super) fn probable_cut(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let probcut = self.config.probcut?;
        if depth < MIN_DEPTH || self.probing {
            return None;
        }
        let empties = (self.board.mask & !(p | o)).count_ones();
        let shallow = shallow_depth(depth);
        let margin = (probcut.confidence * sigma(depth, empties) as f32) as i32;
        // The static value decides which side is worth a shallow search (Egaroucid's
        // `error_0`: the margin less four discs, at least one).
        self.nodes += 1;
        let now = self.eval.evaluate(p, o);
        let near = (margin - 4 * UNIT).max(UNIT);
        let (high, low) = (beta + margin, alpha - margin);
        self.probing = true;
        let cut = if now >= beta + near
            && high < super::INF
            && self.pvs(p, o, shallow, high - 1, high, false) >= high
        {
            Some(beta)
        } else if now <= alpha - near
            && low > -super::INF
            && self.pvs(p, o, shallow, low, low + 1, false) <= low
        {
            Some(alpha)
        } else {
            None
        };
        self.probing = false;
        cut
    }
}
