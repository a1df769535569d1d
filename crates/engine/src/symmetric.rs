//! A network judged through the board's symmetries: each position is evaluated in `k` of
//! its eight orientations, in one batch, and the answers (priors mapped back to the
//! position's own moves, value and score) are averaged.
//!
//! AlphaGo Zero evaluated every position under one symmetry drawn at random (Silver et
//! al. 2017, "Methods: Search algorithm"), and KataGo does the same by default; averaging
//! all eight is the classic test-time ensemble. The shipped networks need it: measured by
//! `train.report`, their favourite move changes under a turn or a mirror of the board in
//! 40-48% of positions, though training augments every sample with a random symmetry.
//! `k = 1` spreads those errors over the tree at no cost; `k = 8` removes them at eight
//! evaluations a position (one batch, so less than eight times the time).

use crate::{EvalError, Evaluation, Evaluator, Rng};
use othello::{Position, Symmetry};

#[derive(Debug)]
pub struct SymmetricEvaluator<E> {
    inner: E,
    count: usize,
    seed: u64,
    rng: Rng,
}

impl<E: Evaluator> SymmetricEvaluator<E> {
    /// `count` orientations a position (1 to 8): all eight in order for 8, else that many
    /// different ones drawn at random for each evaluation.
    pub fn new(inner: E, count: usize, seed: u64) -> SymmetricEvaluator<E> {
        SymmetricEvaluator {
            inner,
            count: count.clamp(1, 8),
            seed,
            rng: Rng::new(seed),
        }
    }

    fn orientations(&mut self) -> Vec<Symmetry> {
        let mut all = Symmetry::ALL.to_vec();
        if self.count == all.len() {
            return all;
        }
        // A partial Fisher-Yates shuffle: the first `count` are a uniform draw.
        for i in 0..self.count {
            let j = i + self.rng.below(all.len() - i);
            all.swap(i, j);
        }
        all.truncate(self.count);
        all
    }
}

impl<E: Evaluator> Evaluator for SymmetricEvaluator<E> {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        let plans: Vec<Vec<Symmetry>> = positions.iter().map(|_| self.orientations()).collect();
        let batch: Vec<Position> = positions
            .iter()
            .zip(&plans)
            .flat_map(|(pos, syms)| syms.iter().map(move |s| s.position(pos)))
            .collect();
        let answers = self.inner.evaluate(&batch)?;
        // Each answer with the orientation it was asked in, in the batch's order.
        let mut asked = answers.into_iter().zip(&batch);
        let mut out = Vec::with_capacity(positions.len());
        for (pos, syms) in positions.iter().zip(&plans) {
            let moves = pos.legal_move_list();
            let mut priors = vec![0.0f32; moves.len()];
            let (mut value, mut score, mut scored) = (0.0f32, 0.0f32, 0usize);
            for sym in syms {
                let (answer, oriented) = asked
                    .next()
                    .ok_or_else(|| EvalError::Failed("the network answered too few".into()))?;
                let turned = oriented.legal_move_list();
                for (prior, mv) in priors.iter_mut().zip(&moves) {
                    let there = sym.apply_move(*mv, pos.size());
                    if let Some(k) = turned.iter().position(|m| *m == there) {
                        *prior += answer.priors.get(k).copied().unwrap_or(0.0);
                    }
                }
                value += answer.value;
                if let Some(s) = answer.score {
                    score += s;
                    scored += 1;
                }
            }
            let total: f32 = priors.iter().sum();
            if total > 0.0 {
                priors.iter_mut().for_each(|p| *p /= total);
            }
            let n = syms.len() as f32;
            out.push(Evaluation {
                priors,
                value: value / n,
                score: (scored == syms.len()).then(|| score / n),
            });
        }
        Ok(out)
    }

    fn describe(&self) -> String {
        format!("{} over {} symmetries", self.inner.describe(), self.count)
    }

    fn reseed(&mut self, salt: u64) {
        self.rng = Rng::new(crate::rng::splitmix64(self.seed ^ salt));
        self.inner.reseed(salt);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::{BoardSize, Move, Variant};

    /// Favours squares by their index and values positions by their black discs on the
    /// left half: nothing about it is symmetric.
    struct Lopsided;

    impl Evaluator for Lopsided {
        fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
            Ok(positions
                .iter()
                .map(|p| {
                    let moves = p.legal_move_list();
                    let weights: Vec<f32> = moves
                        .iter()
                        .map(|m| match m {
                            Move::Place(sq) => 1.0 + f32::from(sq.index()),
                            Move::Pass => 1.0,
                        })
                        .collect();
                    let total: f32 = weights.iter().sum();
                    let left = p.black().filter(|sq| sq.column() < 4).count() as f32;
                    Evaluation {
                        priors: weights.iter().map(|w| w / total).collect(),
                        value: (left / 64.0).min(1.0),
                        score: Some(left / 128.0),
                    }
                })
                .collect())
        }

        fn describe(&self) -> String {
            "lopsided".into()
        }
    }

    fn positions() -> Vec<Position> {
        let mut rng = Rng::new(5);
        let mut out = Vec::new();
        for size in [BoardSize::Eight, BoardSize::Six] {
            let mut pos = Position::start(size, Variant::Standard);
            while !pos.is_game_over() && out.len() < 40 {
                out.push(pos);
                let moves = pos.legal_move_list();
                let mv = moves[rng.below(moves.len())];
                pos = pos.play(mv).expect("a legal move");
            }
        }
        out
    }

    #[test]
    fn all_eight_orientations_give_the_same_answer_for_every_orientation_of_a_position() {
        let mut ensemble = SymmetricEvaluator::new(Lopsided, 8, 1);
        for pos in positions() {
            let here = ensemble.evaluate(&[pos]).expect("evaluates").remove(0);
            for sym in Symmetry::ALL {
                let turned = sym.position(&pos);
                let there = ensemble.evaluate(&[turned]).expect("evaluates").remove(0);
                assert!((here.value - there.value).abs() < 1e-5);
                let moves = turned.legal_move_list();
                for (mv, prior) in pos.legal_move_list().iter().zip(&here.priors) {
                    let k = moves
                        .iter()
                        .position(|m| *m == sym.apply_move(*mv, pos.size()))
                        .expect("a symmetry maps legal moves to legal moves");
                    assert!((prior - there.priors[k]).abs() < 1e-5, "{sym:?} {mv}");
                }
            }
        }
    }

    #[test]
    fn the_average_is_the_mean_of_the_eight_answers_mapped_back() {
        let mut ensemble = SymmetricEvaluator::new(Lopsided, 8, 1);
        for pos in positions().into_iter().step_by(7) {
            let got = ensemble.evaluate(&[pos]).expect("evaluates").remove(0);
            let moves = pos.legal_move_list();
            let mut want = vec![0.0f32; moves.len()];
            let mut value = 0.0;
            for sym in Symmetry::ALL {
                let turned = sym.position(&pos);
                let answer = Lopsided.evaluate(&[turned]).expect("evaluates").remove(0);
                value += answer.value / 8.0;
                for (i, mv) in moves.iter().enumerate() {
                    let there = sym.apply_move(*mv, pos.size());
                    let k = turned.legal_move_list().iter().position(|m| *m == there);
                    want[i] += answer.priors[k.expect("legal there")] / 8.0;
                }
            }
            assert!((got.value - value).abs() < 1e-6);
            for (g, w) in got.priors.iter().zip(&want) {
                assert!((g - w).abs() < 1e-6);
            }
            assert!((got.priors.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            assert!(got.score.is_some());
        }
    }

    #[test]
    fn a_random_orientation_is_one_of_the_eight_and_all_of_them_come_up() {
        let pos = positions()[12];
        let singles: Vec<f32> = Symmetry::ALL
            .iter()
            .map(|s| Lopsided.evaluate(&[s.position(&pos)]).expect("evaluates")[0].value)
            .collect();
        let mut one = SymmetricEvaluator::new(Lopsided, 1, 3);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let got = one.evaluate(&[pos]).expect("evaluates").remove(0);
            assert!((got.priors.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            let which = singles
                .iter()
                .position(|v| (v - got.value).abs() < 1e-7)
                .expect("the value of one orientation");
            seen.insert(singles[which].to_bits());
        }
        let distinct: std::collections::HashSet<u32> =
            singles.iter().map(|v| v.to_bits()).collect();
        assert_eq!(seen, distinct, "every orientation's value comes up");
        assert!(distinct.len() >= 2);
    }
}
