//! A search whose evaluator makes its priors apart (`Evaluator::split_priors`) asks for
//! them only below the nodes it descends through: the same search, fewer nodes. One whose
//! priors come with the children's values (`Evaluator::split_priors_with_values`) takes
//! those: the same search again, fewer evaluator calls.

use super::*;
use crate::evaluator::{EvalError, Evaluation, Evaluator, PriorSource};
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

/// The evaluator with its priors made apart, but not the children's values.
struct PriorsOnly(PatternEvaluator);

impl Evaluator for PriorsOnly {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        self.0.evaluate(positions)
    }

    fn describe(&self) -> String {
        self.0.describe()
    }

    fn split_priors(&mut self) -> Option<PriorSource> {
        self.0.split_priors()
    }
}

/// An evaluator that counts the positions it is asked for.
struct Counted<E>(E, u64);

impl<E: Evaluator> Evaluator for Counted<E> {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        self.1 += positions.len() as u64;
        self.0.evaluate(positions)
    }

    fn describe(&self) -> String {
        self.0.describe()
    }

    fn split_priors(&mut self) -> Option<PriorSource> {
        self.0.split_priors()
    }

    fn split_priors_with_values(&mut self) -> Option<Box<dyn crate::evaluator::ValuedPriors>> {
        self.0.split_priors_with_values()
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
        let mut split = Mcts::new(PriorsOnly(evaluator.clone()), config.clone());
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

#[test]
fn a_search_that_takes_the_children_s_values_from_their_priors_is_the_same_search() {
    let patterns = [
        "a1 b1 c1 a2 b2 c2 a3 b3 c3",
        "a2 b2 c2 d2 e2 f2",
        "a1 b2 c3 d4 e5 f6",
    ];
    let tables = Arc::new(random_tables(BoardSize::Six, 8, &patterns, 11));
    let evaluator = PatternEvaluator::new(tables, Priors::default(), "test");
    let configs = [
        MctsConfig {
            batch_size: 1,
            ..MctsConfig::default()
        },
        MctsConfig {
            batch_size: 1,
            dirichlet_alpha: 0.5,
            seed: 3,
            score_utility: 0.3,
            ..MctsConfig::default()
        },
        MctsConfig {
            batch_size: 1,
            gumbel: Some(GumbelRoot::new(4)),
            ..MctsConfig::default()
        },
    ];
    for config in configs {
        let mut valued = Mcts::new(Counted(evaluator.clone(), 0), config.clone());
        let mut split = Mcts::new(Counted(PriorsOnly(evaluator.clone()), 0), config);
        // A whole game, each search keeping the subtree of the one before (whose root was
        // a child valued by its parent's priors, which a root must not keep).
        let mut pos = Position::start(BoardSize::Six, Variant::Standard);
        while !pos.is_game_over() {
            let budget = Budget::simulations(300);
            let a = valued.search(&pos, &budget, &mut |_| true).expect("search");
            let b = split.search(&pos, &budget, &mut |_| true).expect("search");
            assert_eq!(
                (&a.moves, &a.pv, a.value, a.score, a.simulations),
                (&b.moves, &b.pv, b.value, b.score, b.simulations),
                "{}",
                pos.to_board_text()
            );
            let mv = valued.select_move(&pos, &budget);
            assert_eq!(mv, split.select_move(&pos, &budget));
            pos = pos.play_unchecked(mv);
        }
        // The children's values came from their parents' priors, not from the evaluator.
        let (few, many) = (valued.evaluator().1, split.evaluator().1);
        assert!(few * 4 < many, "{few} evaluations against {many}");
    }
}
