//! Self-play whose evaluator makes its priors apart (`Evaluator::split_priors`) asks for
//! them only below the nodes its searches descend through: the same games and samples.
//! Where the priors come with the children's values (`Evaluator::split_priors_with_values`)
//! the drivers take those, and in batches of one play the same games again.

use super::*;
use engine::pattern::{
    PatternDef, PatternEvaluator, PatternRunError, PatternRunner, PatternSet, PatternTables, Priors,
};
use engine::Evaluation;

/// A pattern network of fixed pseudo-random weights: each row's outputs are functions of
/// a weighted sum of its inputs.
struct Hashed;

impl PatternRunner for Hashed {
    fn run_pattern(
        &mut self,
        pattern: usize,
        rows: &[f32],
        count: usize,
    ) -> Result<Vec<f32>, PatternRunError> {
        let width = rows.len() / count.max(1);
        let mut out = Vec::with_capacity(2 * count);
        for row in rows.chunks(width) {
            let sum: f32 = row
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let w = ((i * 2_654_435_761 + pattern * 40_503) % 1000) as f32;
                    v * (w / 1000.0 - 0.5)
                })
                .sum();
            out.push((sum * 0.7).sin());
            out.push((sum * 1.3).cos() * 0.5);
        }
        Ok(out)
    }
}

fn pattern_evaluator() -> PatternEvaluator {
    let defs: Vec<PatternDef> = ["a1 b1 c1 a2 b2 c2 a3 b3", "a2 b2 c2 d2 e2 f2"]
        .iter()
        .enumerate()
        .map(|(i, squares)| PatternDef {
            name: format!("p{i}"),
            squares: squares.split(' ').map(str::to_owned).collect(),
        })
        .collect();
    let set = PatternSet::new(BoardSize::Six, Some(4), Some(&defs)).expect("valid set");
    let tables = PatternTables::build(set, &mut Hashed).expect("tables");
    PatternEvaluator::new(Arc::new(tables), Priors::default(), "test")
}

/// The pattern evaluator with every evaluation's priors, as self-play had them before.
struct Eager(PatternEvaluator);

impl Evaluator for Eager {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        self.0.evaluate(positions)
    }

    fn describe(&self) -> String {
        self.0.describe()
    }
}

/// The pattern evaluator with its priors made apart, but not the children's values.
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

#[test]
fn self_play_with_its_priors_made_apart_plays_and_records_what_it_does_with_them_eager() {
    let evaluator = pattern_evaluator();
    let split =
        || -> Result<Box<dyn Evaluator>, EvalError> { Ok(Box::new(PriorsOnly(evaluator.clone()))) };
    plays_as_eager(&split, MctsConfig::default());
}

#[test]
fn self_play_that_takes_the_children_s_values_from_their_priors_plays_the_same_games() {
    let evaluator = pattern_evaluator();
    let valued = || -> Result<Box<dyn Evaluator>, EvalError> { Ok(Box::new(evaluator.clone())) };
    // In a batch of one: larger batches back such leaves up as they are collected.
    let mcts = MctsConfig {
        batch_size: 1,
        ..MctsConfig::default()
    };
    plays_as_eager(&valued, mcts);
}

/// Self-play with `split`'s evaluators plays and records what it does with
/// [`pattern_evaluator`]'s priors eager, over a few configurations built on `mcts`.
fn plays_as_eager(split: MakeEvaluator, mcts: MctsConfig) {
    let evaluator = pattern_evaluator();
    let eager =
        || -> Result<Box<dyn Evaluator>, EvalError> { Ok(Box::new(Eager(evaluator.clone()))) };
    let mut base = SelfPlayConfig::new(BoardSize::Six, Variant::Standard, 4, 48, mcts.clone(), 5);
    base.threads = 2;
    base.games_per_thread = 2;
    let configs = [
        base.clone(),
        SelfPlayConfig {
            explored_share: Some(0.1),
            ..base.clone()
        },
        SelfPlayConfig {
            mcts: MctsConfig {
                gumbel: Some(engine::mcts::GumbelRoot::new(4)),
                ..mcts
            },
            ..base.clone()
        },
    ];
    for (c, config) in configs.iter().enumerate() {
        // Against a milestone too, its evaluator split or not alike.
        for opponent in [false, true] {
            let (a, b) = if opponent {
                (
                    run_selfplay(config, split, Some(split), &|_| {}),
                    run_selfplay(config, &eager, Some(&eager), &|_| {}),
                )
            } else {
                (
                    run_selfplay(config, split, None, &|_| {}),
                    run_selfplay(config, &eager, None, &|_| {}),
                )
            };
            let (a, b) = (a.expect("plays"), b.expect("plays"));
            assert_eq!(a.len(), b.len());
            for (x, y) in a.iter().zip(&b) {
                let what = format!("config {c}, opponent {opponent}, game {}", x.index);
                assert_eq!(
                    (x.index, x.start, x.end, &x.moves, x.outcome),
                    (y.index, y.start, y.end, &y.moves, y.outcome),
                    "{what}"
                );
                assert_eq!(x.samples.len(), y.samples.len(), "{what}");
                for (s, t) in x.samples.iter().zip(&y.samples) {
                    assert_eq!(
                        (&s.planes, &s.policy, s.side, s.searched, s.search),
                        (&t.planes, &t.policy, t.side, t.searched, t.search),
                        "{what}"
                    );
                }
            }
        }
    }
}
