//! A search whose evaluator makes its priors apart (`Evaluator::split_priors`) asks for
//! them only below the nodes it descends through: the same search, fewer nodes.

use super::*;
use crate::evaluator::{EvalError, Evaluation, Evaluator};
use crate::pattern::{random_tables, PatternEvaluator, Priors};
use crate::{Agent, Budget};
use othello::{BoardSize, Position, Variant};
use std::sync::Arc;

/// The evaluator with every evaluation's priors, as a search with no prior source has
/// them.
struct Eager(PatternEvaluator);

impl Evaluator for Eager {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        self.0.evaluate(positions)
    }

    fn describe(&self) -> String {
        self.0.describe()
    }
}

#[test]
fn a_search_with_its_priors_made_apart_is_the_search_with_them_eager() {
    let patterns = [
        "a1 b1 c1 a2 b2 c2 a3 b3 c3",
        "a2 b2 c2 d2 e2 f2",
        "a1 b2 c3 d4 e5 f6",
    ];
    let tables = Arc::new(random_tables(BoardSize::Six, 8, &patterns, 7));
    let evaluator = PatternEvaluator::new(tables, Priors::default(), "test");
    let configs = [
        MctsConfig::default(),
        MctsConfig {
            batch_size: 1,
            dirichlet_alpha: 0.5,
            seed: 3,
            ..MctsConfig::default()
        },
        MctsConfig {
            gumbel: Some(GumbelRoot::new(4)),
            ..MctsConfig::default()
        },
    ];
    let mut fewer = false;
    for config in configs {
        let mut split = Mcts::new(evaluator.clone(), config.clone());
        let mut eager = Mcts::new(Eager(evaluator.clone()), config);
        // A whole game, each search keeping the subtree of the one before.
        let mut pos = Position::start(BoardSize::Six, Variant::Standard);
        while !pos.is_game_over() {
            let budget = Budget::simulations(300);
            let a = split.search(&pos, &budget, &mut |_| true).expect("search");
            let b = eager.search(&pos, &budget, &mut |_| true).expect("search");
            assert_eq!(
                (&a.moves, &a.pv, a.value, a.score, a.simulations),
                (&b.moves, &b.pv, b.value, b.score, b.simulations),
                "{}",
                pos.to_board_text()
            );
            // The leaves never descended below have no children in the split search.
            let nodes = |tree: &SearchTree| tree.nodes.len();
            let (few, many) = (nodes(split.driver().tree()), nodes(eager.driver().tree()));
            assert!(few <= many, "{few} nodes against {many}");
            fewer |= few < many;
            let mv = split.select_move(&pos, &budget);
            assert_eq!(mv, eager.select_move(&pos, &budget));
            pos = pos.play_unchecked(mv);
        }
    }
    assert!(fewer, "the split search never left a leaf childless");
}
