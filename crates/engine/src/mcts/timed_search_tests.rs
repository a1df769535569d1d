//! The time policy inside the agent: a timed search that stops once its best move is
//! settled, and a game's clock charged move by move and wound back for a new game. The
//! searches run on a virtual clock that each evaluated position moves on by a millisecond
//! (`clock_source::virtual_time`), so their time is a count of evaluations and the verdicts
//! do not depend on the machine's speed or load. The policy's own rules are tested beside
//! it (`time_policy_tests.rs`).

use super::time_policy::{GameClock, MINIMUM_SIMULATIONS_TO_STOP};
use super::{Mcts, MctsConfig};
use crate::clock_source::virtual_time::{self, Ticking};
use crate::evaluator::{EvalError, Evaluation, Evaluator};
use crate::report::SearchInfo;
use crate::{Agent, Budget};
use othello::{BoardSize, Position, Variant};
use std::time::Duration;

/// Puts nearly all of every position's prior on its first legal move, with even values,
/// so the search's visits pile onto one root move.
struct FirstMoveEvaluator;

impl Evaluator for FirstMoveEvaluator {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        Ok(positions
            .iter()
            .map(|p| {
                let n = p.legal_move_list().len();
                let rest = 0.03 / n as f32;
                let mut priors = vec![rest; n];
                if let Some(first) = priors.first_mut() {
                    *first = 0.97 + rest;
                }
                Evaluation {
                    priors,
                    value: 0.0,
                    score: None,
                }
            })
            .collect())
    }

    fn describe(&self) -> String {
        "first move".into()
    }
}

type TimedAgent = Mcts<Ticking<FirstMoveEvaluator>>;

/// The agent, its evaluations a millisecond each on the virtual clock.
fn timed_agent(early_stop: bool, game_time: Option<Duration>) -> TimedAgent {
    let config = MctsConfig {
        early_stop: Some(early_stop),
        game_time,
        ..MctsConfig::default()
    };
    let evaluator = Ticking {
        inner: FirstMoveEvaluator,
        per_position: Duration::from_millis(1),
    };
    Mcts::new(evaluator, config)
}

fn start() -> Position {
    Position::start(BoardSize::Eight, Variant::Standard)
}

/// The agent's move on the virtual clock.
fn think(agent: &mut TimedAgent, pos: &Position, budget: &Budget) -> SearchInfo {
    virtual_time::run(|| agent.think(pos, budget, &mut |_| true))
        .expect("the evaluator never fails")
}

#[test]
fn a_timed_search_stops_once_no_move_can_overtake_its_best() {
    let budget = Budget::time(Duration::from_secs(3));
    let mut agent = timed_agent(true, None);
    let info = think(&mut agent, &start(), &budget);
    // With most visits on one move, it is out of reach well before the time is up (at
    // about half of it); a search that ran to its deadline would report at least 3 s.
    assert!(
        info.elapsed < Duration::from_secs(3),
        "ran {:?}",
        info.elapsed
    );
    // The move played is the leader that could not be caught.
    assert_eq!(info.best_move(), Some(info.moves[0].mv));
    assert!(info.moves[0].visits > info.moves[1].visits);
    assert!(info.simulations >= MINIMUM_SIMULATIONS_TO_STOP);
}

#[test]
fn a_search_in_simulations_runs_them_all_whatever_the_lead() {
    let mut agent = timed_agent(true, None);
    let info = think(&mut agent, &start(), &Budget::simulations(3_000));
    assert_eq!(info.simulations, 3_000);
}

#[test]
fn the_game_s_clock_is_charged_for_each_move_and_wound_back_for_a_new_game() {
    let total = Duration::from_millis(600);
    let mut agent = timed_agent(true, Some(total));
    let budget = Budget::time(total);
    let left = |agent: &mut TimedAgent| agent.driver().game_clock().expect("a clock").left();
    assert_eq!(left(&mut agent), total);
    let mut pos = start();
    for _ in 0..3 {
        let clock = agent.driver().game_clock().expect("a clock");
        let deadline = clock.move_time(&pos, agent.driver().solve_reach(&pos));
        let info = think(&mut agent, &pos, &budget);
        let after = left(&mut agent);
        assert!(after < clock.left(), "a searched move costs time");
        // The search keeps to its deadline (a batch may run past it by a little).
        let spent = clock.left() - after;
        assert!(
            spent < deadline + Duration::from_millis(100),
            "{spent:?} for {deadline:?}"
        );
        let mv = info.best_move().expect("a move");
        pos = pos.play(mv).expect("the agent plays legal moves");
        // The opponent's reply, on its own clock.
        let reply = pos.legal_move_list()[0];
        pos = pos.play(reply).expect("a listed move is legal");
    }
    agent.new_game();
    assert_eq!(agent.driver().game_clock(), Some(GameClock::new(total)));
}
