//! The exploration constant that grows with a node's visits (`MctsConfig::c_puct_log`,
//! KataGo's `cpuctExplorationLog`): its formula, and its effect on where a search spends
//! its visits.

use super::tests::uniform;
use super::*;
use crate::evaluator::{EvalError, Evaluation, Evaluator};
use crate::report::SearchInfo;
use crate::Budget;
use othello::{BoardSize, Position, Variant};

fn config(c_puct: f32, c_puct_log: f32) -> MctsConfig {
    MctsConfig {
        c_puct,
        c_puct_log,
        seed: 3,
        ..MctsConfig::default()
    }
}

#[test]
fn a_growing_constant_is_the_flat_one_raised_by_the_log_of_the_visits() {
    let flat = config(1.5, 0.0);
    let growing = config(1.0, 0.45);
    for visits in [0.0f32, 1.0, 7.0, 499.0, 500.0, 20_000.0, 1e6] {
        let n = visits.max(1.0);
        assert!((flat.exploration(visits) - 1.5 * n.sqrt()).abs() <= 1e-4 * n.sqrt());
        // KataGo's `cpuctExploration` (cpp/search/searchexplorehelpers.cpp) in f64.
        let c = 1.0 + 0.45 * ((f64::from(n) + 500.0) / 500.0).ln();
        let want = c * f64::from(n).sqrt();
        let got = f64::from(growing.exploration(visits));
        assert!(
            (got - want).abs() <= 1e-5 * want,
            "{visits}: {got} against {want}"
        );
    }
    // At the base's visits it has grown by ln 2 times its weight.
    let at_base = growing.exploration(C_PUCT_LOG_BASE) / C_PUCT_LOG_BASE.sqrt();
    assert!((at_base - (1.0 + 0.45 * std::f32::consts::LN_2)).abs() < 1e-5);
}

/// Uniform priors, and values that differ from position to position (a fixed function of
/// the position's hash), so that a greedier search piles its visits on fewer moves.
struct Uneven;

impl Evaluator for Uneven {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        Ok(positions
            .iter()
            .map(|p| uniform(p, (p.hash() % 1001) as f32 / 1000.0 - 0.5))
            .collect())
    }

    fn describe(&self) -> String {
        "uneven".into()
    }
}

fn root_visits(config: MctsConfig) -> Vec<u32> {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let pos = *othello::Game::from_transcript("f5d6c3d3c4f4", start)
        .expect("legal")
        .position();
    let info: SearchInfo = Mcts::new(Uneven, config)
        .search(&pos, &Budget::simulations(4_000), &mut |_: &SearchInfo| {
            true
        })
        .expect("search");
    info.moves.iter().map(|m| m.visits).collect()
}

#[test]
fn a_constant_that_grows_spreads_the_roots_visits_as_a_larger_flat_one_does() {
    let flat = root_visits(config(1.5, 0.0));
    let growing = root_visits(config(1.5, 1.0));
    let larger = root_visits(config(3.5, 0.0));
    let most = |visits: &[u32]| visits.iter().copied().max().unwrap_or(0);
    let least = |visits: &[u32]| visits.iter().copied().min().unwrap_or(0);
    // The root's 4,000 visits raise its constant by ln 9 = 2.2: the leader gets fewer of
    // them, the last move more, as with a flat constant raised about as much.
    assert!(most(&growing) < most(&flat), "{growing:?} against {flat:?}");
    assert!(
        least(&growing) > least(&flat),
        "{growing:?} against {flat:?}"
    );
    assert!(most(&larger) < most(&flat), "{larger:?} against {flat:?}");
    // A growth of 0 is the flat constant exactly.
    assert_eq!(root_visits(config(1.5, 0.0)), flat);
}
