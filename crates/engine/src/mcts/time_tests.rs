//! The time policy inside the agent: a timed search that stops once its best move is
//! settled, and a game's clock charged move by move and wound back for a new game. The
//! searches run on a virtual clock that each evaluated position moves on by a millisecond
//! (`clock_source::virtual_time`), so their time is a count of evaluations and the verdicts
//! do not depend on the machine's speed or load.

use super::*;
use crate::clock_source::virtual_time::{self, Ticking};
use crate::evaluator::{EvalError, Evaluation, Evaluator};
use crate::report::{MoveInfo, Proof, SearchInfo};
use crate::{Agent, Budget, Thinking};
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
    assert!(info.simulations >= clock::MINIMUM_SIMULATIONS_TO_STOP);
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
    let left = |agent: &mut TimedAgent| agent.game_clock().expect("a clock").left();
    assert_eq!(left(&mut agent), total);
    let mut pos = start();
    for _ in 0..3 {
        let clock = agent.game_clock().expect("a clock");
        let deadline = clock.move_time(&pos, agent.solve_reach(&pos));
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
    assert_eq!(agent.game_clock(), Some(GameClock::new(total)));
}

/// A search's report at the end of its time: the root moves' visits, values and proofs.
fn report_of(moves: &[(u32, f32, Option<Proof>)]) -> SearchInfo {
    let pos = start();
    let legal = pos.legal_move_list();
    let mut info = SearchInfo::decided(legal[0], Duration::from_millis(300));
    info.moves = moves
        .iter()
        .zip(legal)
        .map(|(&(visits, q, proof), mv)| MoveInfo {
            mv,
            visits,
            prior: 0.25,
            q,
            proof,
            bounds: None,
            target: 0.0,
            score: None,
        })
        .collect();
    info
}

fn mcts_with(extend: Option<bool>, game_time: Option<Duration>) -> Mcts<FirstMoveEvaluator> {
    let config = MctsConfig {
        extend,
        game_time,
        ..MctsConfig::default()
    };
    Mcts::new(FirstMoveEvaluator, config)
}

#[test]
fn an_unsure_search_runs_on_once_for_its_time_again() {
    let time = Duration::from_millis(300);
    let unsure = report_of(&[(600, 0.1, None), (300, 0.2, None)]);
    let mcts = mcts_with(Some(true), None);
    let mut thinking = Thinking::new(start(), Budget::time(time));
    assert!(mcts.search_on_when_unsure(&mut thinking, &unsure));
    assert_eq!(
        thinking.budget.time,
        Some(time + time.mul_f64(clock::UNSTABLE_EXTENSION))
    );
    // Once a move only.
    assert!(!mcts.search_on_when_unsure(&mut thinking, &unsure));

    // A leader with the best value, a challenger proven lost, or a Gumbel root's own
    // choice: nothing to make up its mind about.
    let mut sure = Thinking::new(start(), Budget::time(time));
    for report in [
        report_of(&[(600, 0.3, None), (300, 0.2, None)]),
        report_of(&[(600, 0.1, None), (300, 0.2, Some(Proof::Loss))]),
        SearchInfo {
            chosen: Some(unsure.moves[0].mv),
            ..unsure.clone()
        },
    ] {
        assert!(!mcts.search_on_when_unsure(&mut sure, &report));
    }
    assert_eq!(sure.budget.time, Some(time));
    // No time budget, nothing to lengthen.
    let mut counted = Thinking::new(start(), Budget::simulations(800));
    assert!(!mcts.search_on_when_unsure(&mut counted, &unsure));
}

#[test]
fn searching_on_is_the_game_clock_s_default_and_a_switch_elsewhere() {
    let unsure = report_of(&[(600, 0.1, None), (300, 0.2, None)]);
    let runs_on = |extend, game_time| {
        let mut thinking = Thinking::new(start(), Budget::time(Duration::from_millis(300)));
        mcts_with(extend, game_time).search_on_when_unsure(&mut thinking, &unsure)
    };
    let clock = Some(Duration::from_secs(15));
    assert!(runs_on(None, clock));
    assert!(!runs_on(Some(false), clock));
    assert!(!runs_on(None, None));
    assert!(runs_on(Some(true), None));
}
