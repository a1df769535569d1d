//! The time policy's own tests: a game's clock shared out over its moves, the early stop
//! and the extension as rules on numbers and on a search's report. The policy inside the
//! agent, on a virtual clock, is `mcts/timed_search_tests.rs`'s (a child of `mcts`, since
//! the agent is built over the driver, which keeps the policy).

use super::*;
use crate::report::MoveInfo;
use othello::{BoardSize, Variant};

/// 8x8's defaults: solved from 16 empties, tried from 20.
const REACH: SolveReach = SolveReach {
    exact: 16,
    tried: 20,
    proved: 24,
};

/// A game played by the first legal move until `empties` remain, or it ends.
fn position_with_empties(empties: u32) -> Position {
    let mut pos = Position::start(BoardSize::Eight, Variant::Standard);
    while pos.empty_count() > empties {
        let Some(&mv) = pos.legal_move_list().first() else {
            break;
        };
        pos = pos.play(mv).expect("a listed move is legal");
    }
    pos
}

#[test]
fn a_game_s_shares_never_spend_more_than_its_clock_and_leave_little_unused() {
    // Every own move takes its whole share, as a search that never stops early does.
    for total_ms in [200u64, 2_000, 15_000, 120_000] {
        let mut clock = GameClock::new(Duration::from_millis(total_ms));
        let mut empties = 60;
        while empties > 0 {
            let pos = position_with_empties(empties);
            let share = clock.move_time(&pos, REACH);
            assert!(
                share <= clock.left().max(MINIMUM_MOVE_TIME),
                "{total_ms} ms at {empties}"
            );
            clock.charge(share, Some(share));
            empties = pos.empty_count().saturating_sub(2);
        }
        let reserve = RESERVE_PER_MOVE.saturating_mul(30);
        assert!(
            clock.left() <= reserve + Duration::from_millis(total_ms / 5),
            "{total_ms} ms: {:?} unused",
            clock.left()
        );
    }
}

#[test]
fn the_late_midgame_gets_more_time_a_move_than_the_opening() {
    let mut clock = GameClock::new(Duration::from_secs(15));
    let mut spent_at = Vec::new();
    let mut empties = 60;
    while empties > 0 {
        let pos = position_with_empties(empties);
        let share = clock.move_time(&pos, REACH);
        spent_at.push((pos.empty_count(), share));
        clock.charge(share, Some(share));
        empties = pos.empty_count().saturating_sub(2);
    }
    let mean = |range: std::ops::RangeInclusive<u32>| {
        let shares: Vec<f64> = spent_at
            .iter()
            .filter(|(e, _)| range.contains(e))
            .map(|(_, s)| s.as_secs_f64())
            .collect();
        shares.iter().sum::<f64>() / shares.len() as f64
    };
    let opening = mean(45..=60);
    let late_midgame = mean(22..=34);
    let solved = mean(0..=16);
    assert!(
        late_midgame > 1.5 * opening,
        "{late_midgame} against {opening}"
    );
    assert!(solved < opening / 3.0, "{solved} against {opening}");
}

#[test]
fn time_a_move_leaves_unused_goes_to_the_moves_after_it() {
    let pos = position_with_empties(40);
    let clock = GameClock::new(Duration::from_secs(10));
    let mut thrifty = clock;
    thrifty.charge(Duration::from_millis(100), None);
    let mut spendthrift = clock;
    spendthrift.charge(Duration::from_secs(2), None);
    assert!(thrifty.move_time(&pos, REACH) > spendthrift.move_time(&pos, REACH));
}

#[test]
fn searches_that_stop_early_get_longer_deadlines_and_the_clock_is_still_spent() {
    // Every search stops at 40% of its deadline, as early stops do.
    let mut clock = GameClock::new(Duration::from_secs(15));
    let fresh = clock.move_time(&position_with_empties(58), REACH);
    let mut empties = 60;
    while empties > 0 {
        let pos = position_with_empties(empties);
        let deadline = clock.move_time(&pos, REACH);
        clock.charge(deadline.mul_f64(0.4), Some(deadline));
        empties = pos.empty_count().saturating_sub(2);
    }
    assert!(clock.use_ratio() < 0.5, "{}", clock.use_ratio());
    // Without the stretch 60% of the clock would be left; with it, far less.
    assert!(
        clock.left() < Duration::from_secs(5),
        "{:?} left",
        clock.left()
    );
    let mut stretched = clock;
    stretched.left = Duration::from_secs(15);
    assert!(stretched.move_time(&position_with_empties(58), REACH) > fresh * 2);
    // A forced move's few milliseconds do not count as a search's use.
    let mut forced = GameClock::new(Duration::from_secs(15));
    forced.charge(Duration::from_millis(1), None);
    assert_eq!(forced.use_ratio(), 1.0);
    forced.reset();
    assert_eq!(forced, GameClock::new(Duration::from_secs(15)));
}

#[test]
fn a_spent_clock_still_gives_a_move_its_minimum() {
    let mut clock = GameClock::new(Duration::from_secs(1));
    clock.charge(Duration::from_secs(5), None);
    assert_eq!(clock.left(), Duration::ZERO);
    assert_eq!(
        clock.move_time(&position_with_empties(30), REACH),
        MINIMUM_MOVE_TIME
    );
    clock.reset();
    assert_eq!(clock.left(), Duration::from_secs(1));
}

#[test]
fn a_search_stops_once_no_move_can_overtake_the_leader() {
    // 1,000 simulations in 0.1 s: 10,000 a second, so 0.05 s left is 376 more at the
    // pruning factor.
    let elapsed = Duration::from_millis(100);
    let left = Duration::from_millis(50);
    assert!(can_stop_early(&[700, 300, 0], 1_000, elapsed, left));
    assert!(!can_stop_early(&[600, 300, 100], 1_000, elapsed, left));
    // The same lead with more time left is not enough.
    assert!(!can_stop_early(&[700, 300, 0], 1_000, elapsed, left * 4));
}

#[test]
fn a_search_does_not_stop_before_its_counts_mean_something() {
    let elapsed = Duration::from_millis(10);
    assert!(!can_stop_early(&[40, 0], 40, elapsed, Duration::ZERO));
    assert!(!can_stop_early(
        &[100, 0],
        100,
        Duration::ZERO,
        Duration::ZERO
    ));
    assert!(can_stop_early(&[100, 0], 100, elapsed, Duration::ZERO));
}

#[test]
fn a_search_is_unsure_when_a_well_visited_move_has_a_better_value_than_the_leader() {
    assert!(is_unsure(&[(600, 0.10), (300, 0.20), (100, 0.5)]));
    // The better value of a move with few visits is noise.
    assert!(!is_unsure(&[(600, 0.10), (100, 0.50), (50, 0.9)]));
    assert!(!is_unsure(&[(600, 0.30), (300, 0.20)]));
    assert!(!is_unsure(&[(600, 0.30)]));
    assert!(!is_unsure(&[]));
    assert!(!is_unsure(&[(0, 0.0), (0, 0.5)]));
}

#[test]
fn an_extension_is_the_search_s_time_again_within_the_largest_share() {
    let clock = GameClock::new(Duration::from_secs(10));
    let time = Duration::from_millis(300);
    assert_eq!(clock.extension(time), time.mul_f64(UNSTABLE_EXTENSION));
    // Near the end of the clock the cap leaves less, and a move already at the cap
    // gets nothing more.
    let mut late = clock;
    late.charge(Duration::from_millis(9_000), None);
    let cap = late
        .left()
        .saturating_sub(RESERVE_PER_MOVE)
        .mul_f64(MAXIMUM_SHARE);
    assert_eq!(late.extension(time), cap - time);
    assert_eq!(late.extension(cap), Duration::ZERO);
    assert_eq!(late.extension(cap * 2), Duration::ZERO);
}

#[test]
fn smaller_boards_scale_the_stages() {
    // 6x6: 36 squares, so the late midgame is about 12 to 19 empties.
    let reach = SolveReach {
        exact: 10,
        tried: 12,
        proved: 14,
    };
    assert_eq!(move_weight(16, 36, reach), 1.6);
    assert_eq!(move_weight(30, 36, reach), 0.6);
    assert_eq!(move_weight(12, 36, reach), 0.4);
    assert_eq!(move_weight(10, 36, reach), 0.1);
}

fn start() -> Position {
    Position::start(BoardSize::Eight, Variant::Standard)
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

fn config_with(extend: Option<bool>, game_time: Option<Duration>) -> MctsConfig {
    MctsConfig {
        extend,
        game_time,
        ..MctsConfig::default()
    }
}

#[test]
fn an_unsure_search_runs_on_once_for_its_time_again() {
    let time = Duration::from_millis(300);
    let unsure = report_of(&[(600, 0.1, None), (300, 0.2, None)]);
    let config = config_with(Some(true), None);
    let policy = TimePolicy::default();
    let mut thinking = Thinking::new(start(), Budget::time(time));
    assert!(policy.search_on_when_unsure(&config, &mut thinking, &unsure));
    assert_eq!(
        thinking.budget.time,
        Some(time + time.mul_f64(UNSTABLE_EXTENSION))
    );
    // Once a move only.
    assert!(!policy.search_on_when_unsure(&config, &mut thinking, &unsure));

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
        assert!(!policy.search_on_when_unsure(&config, &mut sure, &report));
    }
    assert_eq!(sure.budget.time, Some(time));
    // No time budget, nothing to lengthen.
    let mut counted = Thinking::new(start(), Budget::simulations(800));
    assert!(!policy.search_on_when_unsure(&config, &mut counted, &unsure));
}

#[test]
fn searching_on_is_the_game_clock_s_default_and_a_switch_elsewhere() {
    let unsure = report_of(&[(600, 0.1, None), (300, 0.2, None)]);
    let runs_on = |extend, game_time| {
        let mut thinking = Thinking::new(start(), Budget::time(Duration::from_millis(300)));
        TimePolicy::default().search_on_when_unsure(
            &config_with(extend, game_time),
            &mut thinking,
            &unsure,
        )
    };
    let clock = Some(Duration::from_secs(15));
    assert!(runs_on(None, clock));
    assert!(!runs_on(Some(false), clock));
    assert!(!runs_on(None, None));
    assert!(runs_on(Some(true), None));
}
