//! MCTS whose leaves are valued by a shallow alpha-beta search over a pattern network's
//! value: the tree, its visit counts and the page's heat map stay MCTS's, while each new
//! leaf's value is the minimax of the network's values a few plies below it (H. Baier and
//! M. Winands, "MCTS-Minimax Hybrids with State Evaluations", JAIR 2018: minimax at the
//! leaves, in Othello among other games stronger than plain MCTS with the same
//! evaluation). The move priors stay the pattern evaluator's (its children's values), made
//! apart when the search asks for them ([`Evaluator::split_priors`]): a leaf search costs
//! dozens of table sums, the priors one a child, and most leaves never need theirs.

use super::{Midgame, MidgameConfig, PatternEval, PatternOutput, LOGIT_UNITS};
use crate::evaluator::{EvalError, Evaluation, Evaluator, PriorSource};
use crate::pattern::PatternEvaluator;
use othello::Position;

/// An evaluator of the search's interface whose values come from an alpha-beta search of
/// `depth` plies (a pass is not one) below each position.
#[derive(Debug)]
pub struct AlphaBetaLeaves {
    priors: PatternEvaluator,
    search: Midgame<PatternEval>,
    depth: u32,
}

impl AlphaBetaLeaves {
    pub fn new(priors: PatternEvaluator, depth: u32) -> AlphaBetaLeaves {
        let eval = PatternEval::new(
            priors.shared_tables(),
            PatternOutput::ValueLogit,
            priors.name(),
        );
        let config = MidgameConfig {
            table_bits: crate::table_sizes::LEAF_SEARCH_TABLE_BITS,
            ..MidgameConfig::default()
        };
        AlphaBetaLeaves {
            priors,
            search: Midgame::new(eval, config),
            depth,
        }
    }

    /// Positions the leaves' searches have visited.
    pub fn nodes(&self) -> u64 {
        self.search.nodes()
    }
}

impl Evaluator for AlphaBetaLeaves {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        let mut evaluations = self.priors.evaluate(positions)?;
        for (pos, evaluation) in positions.iter().zip(&mut evaluations) {
            let logit = self.search.value(pos, self.depth) as f32 / LOGIT_UNITS;
            evaluation.value = logit.tanh();
        }
        Ok(evaluations)
    }

    fn preferred_batch(&self) -> Option<usize> {
        Some(1)
    }

    /// The priors evaluator's own split: from then on its evaluations (and so these)
    /// carry values only, and the search asks the source for priors where it descends.
    fn split_priors(&mut self) -> Option<PriorSource> {
        self.priors.split_priors()
    }

    /// The leaves' table is forgotten: what earlier searches stored there (deeper
    /// searches' bounds) would value this search's leaves otherwise than a fresh start.
    fn reseed(&mut self, salt: u64) {
        let _ = salt;
        self.search.clear_search_table();
    }

    fn describe(&self) -> String {
        format!(
            "{}, each leaf valued by alpha-beta {} plies deep",
            self.priors.describe(),
            self.depth
        )
    }
}
