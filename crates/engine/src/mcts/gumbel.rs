//! Gumbel AlphaZero at the root (Danihelka, Guez, Schrittwieser and Silver, "Policy
//! improvement by planning with Gumbel", ICLR 2022), after DeepMind's reference
//! implementation (mctx: `policies.py`, `qtransforms.py`, `seq_halving.py`).
//!
//! The root samples the top m moves by `g + logit` (g ~ Gumbel(0, 1), or 0 when playing
//! rather than exploring) and spends the simulations on them by sequential halving: every
//! phase visits each remaining move equally, then keeps the better half by
//! `g + logit + sigma(completed q)`. The move played is the best survivor by that score; the
//! policy target is `softmax(logit + sigma(completed q))` over every legal move, where a move
//! never visited takes the mixed value `v_mix` (the network's value, blended with the
//! visited moves' q). `sigma(q) = (c_visit + max visits) * c_scale * q` on min-max rescaled q.
//! Below the root the search stays PUCT.

/// The visit count a root move must have to be simulated next, for each simulation of a
/// search of `simulations` over `considered` moves (mctx's
/// `get_sequence_of_considered_visits`): each phase gives every remaining move
/// `max(1, n / (log2(m) * remaining))` more visits, then halves the moves (to no fewer
/// than two).
pub(super) fn considered_visits(considered: usize, simulations: usize) -> Vec<u32> {
    if considered <= 1 {
        return (0..simulations as u32).collect();
    }
    let log2 = (considered as f64).log2().ceil() as usize;
    let mut sequence = Vec::with_capacity(simulations);
    let mut visits = vec![0u32; considered];
    let mut remaining = considered;
    while sequence.len() < simulations {
        let extra = (simulations / (log2 * remaining)).max(1);
        for _ in 0..extra {
            sequence.extend_from_slice(&visits[..remaining]);
            for v in &mut visits[..remaining] {
                *v += 1;
            }
        }
        remaining = (remaining / 2).max(2);
    }
    sequence.truncate(simulations);
    sequence
}

/// A root move as the Gumbel scores see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct RootMove {
    /// The network's log-probability (any constant offset cancels out).
    pub logit: f32,
    /// The Gumbel noise drawn for it (0 when playing without exploration).
    pub gumbel: f32,
    /// Visits, in-flight simulations included.
    pub visits: u32,
    /// Mean value for the side to move at the root, when visited.
    pub q: Option<f32>,
}

/// `sigma(completed q)` of every move (mctx's `qtransform_completed_by_mix_value`):
/// unvisited moves take the mixed value, all are rescaled to [0, 1] by their range, then
/// scaled by `(c_visit + max visits) * c_scale`.
pub(super) fn sigma_completed_q(
    moves: &[RootMove],
    raw_value: f32,
    c_visit: f32,
    c_scale: f32,
) -> Vec<f32> {
    let total: u32 = moves.iter().map(|m| m.visits).sum();
    let priors = softmax(moves.iter().map(|m| m.logit));
    let visited_prior: f32 = moves
        .iter()
        .zip(&priors)
        .filter(|(m, _)| m.q.is_some())
        .map(|(_, p)| p.max(f32::MIN_POSITIVE))
        .sum();
    let weighted_q: f32 = moves
        .iter()
        .zip(&priors)
        .filter_map(|(m, p)| m.q.map(|q| p.max(f32::MIN_POSITIVE) * q / visited_prior))
        .sum();
    let mixed = (raw_value + total as f32 * weighted_q) / (total as f32 + 1.0);
    let completed: Vec<f32> = moves.iter().map(|m| m.q.unwrap_or(mixed)).collect();
    let low = completed.iter().copied().fold(f32::INFINITY, f32::min);
    let high = completed.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let max_visits = moves.iter().map(|m| m.visits).max().unwrap_or(0) as f32;
    let scale = (c_visit + max_visits) * c_scale;
    completed
        .iter()
        .map(|q| scale * (q - low) / (high - low).max(1e-8))
        .collect()
}

/// The move to simulate next: the best by `g + logit + sigma` among the moves whose visits
/// equal `considered_visit` (mctx's `score_considered`).
pub(super) fn select(moves: &[RootMove], sigma: &[f32], considered_visit: u32) -> Option<usize> {
    let top = moves
        .iter()
        .map(|m| m.logit)
        .fold(f32::NEG_INFINITY, f32::max);
    moves
        .iter()
        .zip(sigma)
        .enumerate()
        .filter(|(_, (m, _))| m.visits == considered_visit)
        .map(|(i, (m, s))| (i, (m.gumbel + m.logit - top + s).max(-1e9)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// The move to play after the search: the best score among the most visited moves.
pub(super) fn choose(moves: &[RootMove], sigma: &[f32]) -> Option<usize> {
    let most = moves.iter().map(|m| m.visits).max()?;
    select(moves, sigma, most)
}

/// The policy training target: `softmax(logit + sigma(completed q))` over every move.
pub(super) fn improved_policy(moves: &[RootMove], sigma: &[f32]) -> Vec<f32> {
    softmax(moves.iter().zip(sigma).map(|(m, s)| m.logit + s))
}

fn softmax(logits: impl Iterator<Item = f32>) -> Vec<f32> {
    let logits: Vec<f32> = logits.collect();
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exps: Vec<f32> = logits.iter().map(|l| (l - max).exp()).collect();
    let sum: f32 = exps.iter().sum();
    exps.iter()
        .map(|e| e / sum.max(f32::MIN_POSITIVE))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_halving_visits_as_mctx_does() {
        // mctx's own test: 4 actions, 18 simulations.
        assert_eq!(
            considered_visits(4, 18),
            [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
        );
        assert_eq!(considered_visits(1, 4), [0, 1, 2, 3]);
        // 16 moves, 64 simulations (four phases of 16): one round of 16, two of the best
        // 8, four of the best 4, eight of the best 2.
        let seq = considered_visits(16, 64);
        assert_eq!(seq.len(), 64);
        assert_eq!(&seq[..16], &[0; 16]);
        assert_eq!(&seq[16..32], &[[1; 8], [2; 8]].concat()[..]);
        assert_eq!(&seq[32..36], &[3; 4]);
        assert_eq!(&seq[48..50], &[7, 7]);
    }

    fn mv(logit: f32, visits: u32, q: Option<f32>) -> RootMove {
        RootMove {
            logit,
            gumbel: 0.0,
            visits,
            q,
        }
    }

    #[test]
    fn unvisited_moves_take_the_mixed_value_and_q_is_rescaled() {
        let moves = [
            mv(0.0, 3, Some(0.5)),
            mv(0.0, 1, Some(-0.5)),
            mv(0.0, 0, None),
        ];
        let sigma = sigma_completed_q(&moves, 0.1, 50.0, 0.1);
        // Equal priors: weighted q = 0, so v_mix = (0.1 + 4 * 0) / 5 = 0.02, which rescales
        // to (0.02 + 0.5) / 1.0 of the range; the scale is (50 + 3) * 0.1.
        assert!((sigma[0] - 5.3).abs() < 1e-5);
        assert!(sigma[1].abs() < 1e-6);
        assert!((sigma[2] - 5.3 * 0.52).abs() < 1e-4, "{sigma:?}");
    }

    #[test]
    fn the_policy_target_moves_weight_to_moves_that_searched_well() {
        let moves = [mv(1.0, 20, Some(-0.4)), mv(0.0, 20, Some(0.6))];
        let sigma = sigma_completed_q(&moves, 0.0, 50.0, 0.1);
        let target = improved_policy(&moves, &sigma);
        assert!(target[1] > 0.9, "{target:?}");
        assert_eq!(choose(&moves, &sigma), Some(1));
        // Only moves with the considered visit count compete.
        assert_eq!(
            select(
                &[mv(5.0, 3, Some(0.9)), mv(0.0, 2, Some(0.0))],
                &[0.0, 0.0],
                2
            ),
            Some(1)
        );
    }
}
