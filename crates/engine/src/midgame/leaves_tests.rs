//! MCTS over alpha-beta leaves with the priors made apart plays the search it played with
//! them made at every leaf.

use super::*;
use crate::mcts::{GumbelRoot, Mcts, MctsConfig};
use crate::pattern::{random_tables, Priors};
use crate::{Agent, Budget};
use othello::{BoardSize, Move, Variant};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The leaves' evaluator with every evaluation's priors, as before the split.
struct Eager(AlphaBetaLeaves);

impl Evaluator for Eager {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        self.0.evaluate(positions)
    }

    fn describe(&self) -> String {
        self.0.describe()
    }
}

/// The leaves as the search gets them, counting the evaluations that came without priors
/// (the split's), so that the test sees the split happen.
struct Split(AlphaBetaLeaves, Arc<AtomicUsize>);

impl Evaluator for Split {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        let evaluations = self.0.evaluate(positions)?;
        let bare = evaluations.iter().filter(|e| e.priors.is_empty()).count();
        self.1.fetch_add(bare, Ordering::Relaxed);
        Ok(evaluations)
    }

    fn describe(&self) -> String {
        self.0.describe()
    }

    fn split_priors(&mut self) -> Option<PriorSource> {
        self.0.split_priors()
    }
}

fn leaves() -> AlphaBetaLeaves {
    let patterns = [
        "a1 b1 c1 d1 a2 b2 c2 d2",
        "a1 b2 c3 d4 e5 f6 g7 h8",
        "a2 b2 c2 d2 e2 f2 g2 h2",
    ];
    let tables = Arc::new(random_tables(BoardSize::Eight, 10, &patterns, 11));
    AlphaBetaLeaves::new(PatternEvaluator::new(tables, Priors::default(), "test"), 2)
}

#[test]
fn leaves_with_their_priors_made_apart_play_the_search_with_them_eager() {
    let configs = [
        MctsConfig::default(),
        MctsConfig {
            gumbel: Some(GumbelRoot::new(4)),
            ..MctsConfig::default()
        },
    ];
    for config in configs {
        let bare = Arc::new(AtomicUsize::new(0));
        let mut split = Mcts::new(Split(leaves(), bare.clone()), config.clone());
        let mut eager = Mcts::new(Eager(leaves()), config);
        let mut pos = Position::start(BoardSize::Eight, Variant::Standard);
        // The opening and middle game, where every leaf is an alpha-beta search (the
        // solver takes the leaves near the end in both alike).
        for _ in 0..24 {
            if pos.is_game_over() {
                break;
            }
            let budget = Budget::simulations(150);
            let a = split.search(&pos, &budget, &mut |_| true).expect("search");
            let b = eager.search(&pos, &budget, &mut |_| true).expect("search");
            assert_eq!(
                (&a.moves, &a.pv, a.value, a.score, a.simulations),
                (&b.moves, &b.pv, b.value, b.score, b.simulations),
                "{}",
                pos.to_board_text()
            );
            let mv = split.select_move(&pos, &budget);
            assert_eq!(mv, eager.select_move(&pos, &budget));
            pos = pos.play_unchecked(mv);
        }
        assert!(
            bare.load(Ordering::Relaxed) > 0,
            "the search never split the priors off"
        );
    }
}

#[test]
fn split_leaves_carry_values_only_and_the_source_gives_the_eager_priors() {
    let mut split = leaves();
    let mut eager = leaves();
    let mut source = split
        .split_priors()
        .expect("a pattern network's priors split off");
    let pos = Position::start(BoardSize::Eight, Variant::Standard)
        .play_unchecked(Move::parse("f5", BoardSize::Eight).expect("a move"));
    let got = split.evaluate(&[pos]).expect("evaluates");
    let want = eager.evaluate(&[pos]).expect("evaluates");
    assert!(got[0].priors.is_empty());
    assert_eq!(got[0].value, want[0].value);
    let mut priors = Vec::new();
    source(&pos, &mut priors);
    assert_eq!(priors, want[0].priors);
}
