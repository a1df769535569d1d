//! The time policy, all of it: how much of a budget or of a game's clock a move gets, and
//! when a search with a time budget may stop before its time is up or run on past it. One
//! policy for every front end that gives the agent time: the arena and `play`
//! (`time_game=`, `time=`), NBoard and the page's timed levels. [`TimePolicy`] applies it
//! to a move's thinking ([`Thinking`], which only records the move's state): the search
//! driver asks it for the move's time at the start, after each slice whether the time is
//! over, and charges it the move at the end (`driver/thinking.rs`).
//!
//! - **A budget's simulations**: all of a budget's own, none when only time limits it,
//!   else the configured default ([`TimePolicy::simulation_limit`]). The nodes a root
//!   solve may spend of a move's time are the root solve's rule
//!   ([`RootSolve::budgeted_nodes`](super::RootSolve::budgeted_nodes)).
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

use super::config::{MctsConfig, SolveReach};
use crate::agent::{Budget, Thinking};
use crate::clock_source::Instant;
use crate::report::{Proof, SearchInfo};
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

/// The time policy as an agent applies it to its moves, with the game's clock it shares
/// out when the config gives one. The search driver keeps one beside its tree, so that
/// the clock runs over the game as the tree does; a caller that drives the stages itself
/// with budgets in simulations (self-play) never asks it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimePolicy {
    /// The game's clock when the config gives one (`game_time`), made on the first move.
    clock: Option<GameClock>,
}

impl TimePolicy {
    /// The game's clock, when the config gives one: its whole time before the first move.
    pub fn game_clock(&self, config: &MctsConfig) -> Option<GameClock> {
        let total = config.game_time?;
        Some(self.clock.unwrap_or_else(|| GameClock::new(total)))
    }

    /// A new game: the clock's whole time again.
    pub fn new_game(&mut self) {
        if let Some(clock) = &mut self.clock {
            clock.reset();
        }
    }

    /// The simulations a budget allows: its own, none when only time limits it, else the
    /// configured default.
    pub fn simulation_limit(config: &MctsConfig, budget: &Budget) -> u64 {
        match (budget.simulations, budget.time) {
            (Some(sims), _) => sims,
            (None, Some(_)) => u64::MAX,
            (None, None) => config.default_simulations,
        }
    }

    /// A move's start: its time on the game's clock, when there is one: its share of what
    /// is left, or the budget's own time if that is shorter.
    pub fn allot(&mut self, config: &MctsConfig, thinking: &mut Thinking) {
        let Some(total) = config.game_time else {
            return;
        };
        let reach = config.root_solve.reach(thinking.position.size());
        let clock = self.clock.get_or_insert_with(|| GameClock::new(total));
        let share = clock.move_time(&thinking.position, reach);
        let time = thinking.budget.time.map_or(share, |own| own.min(share));
        thinking.budget.time = Some(time);
    }

    /// After a slice: whether the move's time is over. Its deadline has passed, unless the
    /// search is unsure and runs on once ([`is_unsure`]), or its best move is settled
    /// ([`can_stop_early`]). Both only when the agent decides the move (`decide`): hints
    /// and benches want the whole search.
    pub fn time_is_up(
        &self,
        config: &MctsConfig,
        thinking: &mut Thinking,
        info: &SearchInfo,
        decide: bool,
    ) -> bool {
        let out_of_time = thinking.deadline().is_some_and(|d| Instant::now() >= d)
            && !(decide && self.search_on_when_unsure(config, thinking, info));
        let settled = decide && may_stop_early(config, thinking, info);
        out_of_time || settled
    }

    /// A move's end, after `info`: the game's clock is charged its time, and a search's use
    /// of its deadline is counted; a move settled at the root (forced, book, solved) ran
    /// no search.
    pub fn charge(&mut self, thinking: &Thinking, info: &SearchInfo) {
        if let Some(clock) = &mut self.clock {
            let searched = info.solved.is_none() && info.book.is_none() && info.simulations > 0;
            let deadline = thinking.budget.time.filter(|_| searched);
            clock.charge(thinking.elapsed(), deadline);
        }
    }

    /// At the end of a timed search's time (on a game's clock, or anywhere with
    /// `extend=1`): lengthens it once when its most visited move does not have the best
    /// value (see [`is_unsure`]), and says whether it did. Moves proven lost are no
    /// candidates, and a Gumbel root or a proof decides by its own rule.
    fn search_on_when_unsure(
        &self,
        config: &MctsConfig,
        thinking: &mut Thinking,
        info: &SearchInfo,
    ) -> bool {
        if !config.extends_when_unsure() || info.chosen.is_some() || thinking.is_extended() {
            return false;
        }
        let Some(time) = thinking.budget.time else {
            return false;
        };
        // Without a game's clock (`extend=1` with a time per move) the move overruns.
        let by = self
            .clock
            .map_or(time.mul_f64(UNSTABLE_EXTENSION), |clock| {
                clock.extension(time)
            });
        let candidates: Vec<(u32, f32)> = info
            .moves
            .iter()
            .filter(|m| m.proof != Some(Proof::Loss))
            .map(|m| (m.visits, m.q))
            .collect();
        if by.is_zero() || !is_unsure(&candidates) {
            return false;
        }
        thinking.extend_time(by);
        true
    }
}

/// Whether a timed search's best move is settled (see [`can_stop_early`]).
fn may_stop_early(config: &MctsConfig, thinking: &Thinking, info: &SearchInfo) -> bool {
    let Some(left) = thinking.time_left() else {
        return false;
    };
    // A Gumbel root's choice is not its most visited move.
    if !config.stops_early() || info.chosen.is_some() {
        return false;
    }
    let visits: Vec<u32> = info.moves.iter().map(|m| m.visits).collect();
    can_stop_early(&visits, info.simulations, thinking.elapsed(), left)
}

#[cfg(test)]
#[path = "time_policy_tests.rs"]
mod tests;
