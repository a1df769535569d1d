//! The time policy: how a game's clock is shared out over the agent's moves, and when a
//! search with a time budget may stop before its time is up. One policy for every front end
//! that gives the agent time: the arena and `play` (`time_game=`, `time=`), NBoard and the
//! page's timed levels.
//!
//! - **Sharing a game's clock** follows Egaroucid's `calc_time_limit_ply`
//!   (src/engine/time_management.hpp): keep a few milliseconds a move in reserve, and
//!   divide what is left among the moves still to search. Where Egaroucid divides it evenly
//!   among the moves before its exact-solve horizon, the share here is weighted by how many
//!   empties a move has ([`move_weight`]): the late midgame (34 to 22 empties on 8x8), where
//!   our games are lost, gets the most, the opening (where a book often plays) less, and
//!   the endgame the exact solver settles almost nothing. A move that takes less than its
//!   share (a forced move, a book move, a solve, an early stop) leaves the rest to the
//!   moves after it.
//! - **Stopping early** is lc0's smart pruning (`SmartPruningStopper` in
//!   src/search/classic/stoppers/stoppers.cc) and Leela Zero's `have_alternate_moves`: once
//!   the most visited root move leads the second by more visits than the search can still
//!   run in its time (at the rate it has run so far), no other move can overtake it, and
//!   the time left is worth more to a later move. Only on a game's clock by default: with
//!   a time per move the time saved is lost, and with it the subtree the search would have
//!   grown for the next move (`MctsConfig::early_stop`).
//! - **Searching on when unsure** is Baier and Winands' UNST ("Time Management for Monte
//!   Carlo Tree Search", IEEE TCIAIG 8(3), 2016): when a search's time is up and its most
//!   visited root move is not the one whose value is best (among moves visited enough for
//!   their values to mean something), the search has not made up its mind, and it runs
//!   once more for [`UNSTABLE_EXTENSION`] of its time, drawn from the later moves' shares.
//!   Only on a game's clock, where the time it borrows is its own (`MctsConfig::extend`).

use othello::Position;
use std::time::Duration;

/// Kept back for every own move still to come, so that the clock never runs out however
/// long the moves' overheads (a network's first call, the report) take: Egaroucid keeps
/// 10 ms a move.
pub const RESERVE_PER_MOVE: Duration = Duration::from_millis(10);

/// The least a search is given, when the clock is all but spent.
pub const MINIMUM_MOVE_TIME: Duration = Duration::from_millis(5);

/// No move takes more than this share of what is left of the game's time.
const MAXIMUM_SHARE: f64 = 0.4;

/// lc0's default `smart-pruning-factor`: the search's remaining simulations are taken as
/// this many times fewer than its rate so far promises, so a stop is never premature.
pub const SMART_PRUNING_FACTOR: f64 = 1.33;

/// A search stops early only once it has run this many simulations, so that the visit
/// counts it compares mean something.
pub const MINIMUM_SIMULATIONS_TO_STOP: u64 = 64;

/// An unsure search runs on for this part of its time once (Baier and Winands' UNST-L; they
/// found an extension of about the search's own time best in Go).
pub const UNSTABLE_EXTENSION: f64 = 1.0;

/// A move challenges the most visited one only with at least this share of its visits:
/// the values of rarely visited moves are mostly noise.
pub const CHALLENGER_VISIT_SHARE: f64 = 0.25;

/// Where the root solve reaches: it always solves at `exact` empties and fewer, tries a
/// solve within a node budget up to `tried` empties, and with a time budget, a proof of
/// the result up to `proved` (`MctsConfig::root_solve`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveReach {
    pub exact: u32,
    pub tried: u32,
    pub proved: u32,
}

/// How much of the game's time a move with `empties` empty squares gets, against the others
/// (on 8x8; smaller boards scale the thresholds by their squares): the late midgame the
/// most, the opening less, and the endgame the root solve takes a token, since the solver's
/// time does not depend on it (where it only tries, a little more, for the search that
/// follows a solve that does not fit). Time kept for moves that then take less is spent by
/// none, so the endgame's weights are small.
pub fn move_weight(empties: u32, squares: u32, reach: SolveReach) -> f64 {
    if empties <= reach.exact {
        return 0.1;
    }
    if empties <= reach.tried {
        return 0.4;
    }
    // The thresholds are 8x8's (64 squares), scaled to the board.
    let at = |eight_by_eight: u32| eight_by_eight * squares / 64;
    if empties > at(44) {
        0.6
    } else if empties > at(34) {
        1.0
    } else if empties >= at(22) {
        1.6
    } else {
        1.0
    }
}

/// The time for the move in `pos` out of `left` of the game's time: its weight's share of
/// the weights of this and every later own move (one in two plies), less the reserve,
/// never more than [`MAXIMUM_SHARE`] of what is left and never less than
/// [`MINIMUM_MOVE_TIME`].
pub fn move_time(pos: &Position, left: Duration, reach: SolveReach) -> Duration {
    let empties = pos.empty_count();
    let squares = pos.size().squares();
    let own_moves = empties.div_ceil(2).max(1);
    let reserve = RESERVE_PER_MOVE.saturating_mul(own_moves);
    let spendable = left.saturating_sub(reserve).as_secs_f64();
    let weights: f64 = (0..own_moves)
        .map(|k| move_weight(empties.saturating_sub(2 * k), squares, reach))
        .sum();
    let share = spendable * move_weight(empties, squares, reach) / weights;
    let capped = share.min(spendable * MAXIMUM_SHARE);
    Duration::from_secs_f64(capped.max(0.0)).max(MINIMUM_MOVE_TIME)
}

/// A game's clock for one side: the time it started with, what is left of it, and how much
/// of their time its searches have used.
///
/// A search that stops early (above) uses only part of its time, and what it leaves goes
/// to later moves, in the end to the solved endgame, which needs none of it. So the
/// deadline a search gets is its share divided by the part of their deadlines this game's
/// searches have used so far, as lc0's time manager scales its allocation by the time its
/// moves have really taken: the searches then spend about their shares, and the clock
/// about its whole time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameClock {
    total: Duration,
    left: Duration,
    /// The moving average of spent / deadline over this game's searches.
    use_ratio: f64,
}

/// The least part of its deadline a search is assumed to use: deadlines stay within
/// [`MAXIMUM_SHARE`] anyway, and this bounds how far one game's early stops stretch them.
const MINIMUM_USE_RATIO: f64 = 0.3;

/// How much one search moves the average use: about the last five count.
const USE_RATIO_WEIGHT: f64 = 0.2;

impl GameClock {
    pub fn new(total: Duration) -> GameClock {
        GameClock {
            total,
            left: total,
            use_ratio: 1.0,
        }
    }

    pub fn left(&self) -> Duration {
        self.left
    }

    /// The part of their deadlines this game's searches have used (1 before any).
    pub fn use_ratio(&self) -> f64 {
        self.use_ratio
    }

    /// A new game: the whole time again.
    pub fn reset(&mut self) {
        *self = GameClock::new(self.total);
    }

    /// The deadline of a search of the move in `pos`: its share ([`move_time`]) over the
    /// part of their deadlines searches use, never more than [`MAXIMUM_SHARE`] of what is
    /// left.
    pub fn move_time(&self, pos: &Position, reach: SolveReach) -> Duration {
        let share = move_time(pos, self.left, reach);
        let cap = self.largest_move_time();
        share
            .div_f64(self.use_ratio)
            .min(cap.max(share))
            .max(MINIMUM_MOVE_TIME)
    }

    /// How much longer an unsure search given `time` may run: [`UNSTABLE_EXTENSION`] of
    /// it, within the share no move may exceed ([`MAXIMUM_SHARE`] of what is left).
    pub fn extension(&self, time: Duration) -> Duration {
        time.mul_f64(UNSTABLE_EXTENSION)
            .min(self.largest_move_time().saturating_sub(time))
    }

    /// The most a move may take: [`MAXIMUM_SHARE`] of what is left, less a move's reserve.
    fn largest_move_time(&self) -> Duration {
        self.left
            .saturating_sub(RESERVE_PER_MOVE)
            .mul_f64(MAXIMUM_SHARE)
    }

    /// A move took `spent`: a search given `deadline`, or a move settled without one
    /// (forced, from the book, solved), which says nothing of how searches use their time.
    pub fn charge(&mut self, spent: Duration, deadline: Option<Duration>) {
        self.left = self.left.saturating_sub(spent);
        if let Some(deadline) = deadline.filter(|d| !d.is_zero()) {
            let used = (spent.as_secs_f64() / deadline.as_secs_f64()).min(1.0);
            self.use_ratio = (self.use_ratio * (1.0 - USE_RATIO_WEIGHT) + used * USE_RATIO_WEIGHT)
                .max(MINIMUM_USE_RATIO);
        }
    }
}

/// Whether a search with a time budget can stop now: `visits` are the root moves' visit
/// counts, `simulations` what this search has run in `elapsed`, `left` its time still to
/// run. True once the leader is out of reach of every other move in the simulations the
/// search can still run ([`SMART_PRUNING_FACTOR`]), or when there is only one move.
pub fn can_stop_early(visits: &[u32], simulations: u64, elapsed: Duration, left: Duration) -> bool {
    if simulations < MINIMUM_SIMULATIONS_TO_STOP || elapsed.is_zero() {
        return false;
    }
    let (mut first, mut second) = (0u32, 0u32);
    for &v in visits {
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    let rate = simulations as f64 / elapsed.as_secs_f64();
    let still_to_run = rate * left.as_secs_f64() / SMART_PRUNING_FACTOR;
    f64::from(first - second) > still_to_run
}

/// Whether a search has not made up its mind (UNST): `moves` are the root moves' visit
/// counts and values (for the side to move), with the moves proven lost left out. True
/// when a move with at least [`CHALLENGER_VISIT_SHARE`] of the most visited move's visits
/// has a better value than it.
pub fn is_unsure(moves: &[(u32, f32)]) -> bool {
    let Some(&(leader_visits, leader_value)) = moves.iter().max_by_key(|(visits, _)| *visits)
    else {
        return false;
    };
    let enough = f64::from(leader_visits) * CHALLENGER_VISIT_SHARE;
    leader_visits > 0
        && moves
            .iter()
            .any(|&(visits, value)| f64::from(visits) >= enough && value > leader_value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::{BoardSize, Position, Variant};

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
}
