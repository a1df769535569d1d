//! [`Mcts`]: the search driver paired with an evaluator of its own, for every caller with
//! one tree (the agent, NBoard's hints, `othello bench`). A search can run in slices (the
//! page's worker runs one slice between two looks at its messages): the tree, the
//! simulation count and the root's noise carry over, so slicing never changes what is
//! searched.

use super::clock::{can_stop_early, is_unsure, GameClock, SolveReach, UNSTABLE_EXTENSION};
use super::config::MctsConfig;
use super::driver::{BookPlay, SearchDriver};
use super::tree::{ExactSolver, SearchTree};
use crate::agent::{Budget, Thinking};
use crate::book::BookMove;
use crate::clock_source::Instant;
use crate::evaluator::{EvalError, Evaluator};
use crate::report::{Proof, SearchInfo};
use crate::solver::Solver;
use othello::Position;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

#[derive(Debug)]
pub struct Mcts<E: Evaluator> {
    driver: SearchDriver,
    evaluator: E,
    /// The game's clock when the config gives one (`game_time`), made on the first move.
    clock: Option<GameClock>,
    /// The last evaluator failure, when the agent had to fall back to a plain legal move
    /// (`player.rs`).
    pub(super) last_error: Option<String>,
}

impl<E: Evaluator> Mcts<E> {
    pub fn new(evaluator: E, config: MctsConfig) -> Mcts<E> {
        Mcts {
            driver: SearchDriver::new(config),
            evaluator,
            clock: None,
            last_error: None,
        }
    }

    /// Solve root positions with at most `empties` empty squares exactly (0: never), and
    /// try a budgeted solve a few empties beyond.
    pub fn with_exact_root(mut self, empties: u32) -> Mcts<E> {
        self.config_mut().root_solve.exact_empties = Some(empties);
        self
    }

    /// Why the agent last played a plain legal move instead of its search's: the
    /// evaluator failed.
    pub fn last_error(&self) -> Option<&str> {
        self.last_error.as_deref()
    }

    /// Plays the book's moves where it has them (the root decision's second rule).
    pub fn with_book(mut self, book: BookPlay) -> Mcts<E> {
        self.driver = self.driver.with_book(book);
        self
    }

    /// Every move the book knows in `pos`, best first, when the agent has a book and `pos`
    /// is in it (NBoard's hints, which list the book's values rather than search).
    pub fn book_moves(&self, pos: &Position) -> Option<Vec<BookMove>> {
        self.driver.book()?.book.moves(pos)
    }

    /// Positions with at most `empties` empty squares get their value from `solver` and
    /// count as proven.
    pub fn with_exact_solver(mut self, empties: u32, solver: ExactSolver) -> Mcts<E> {
        self.driver = self.driver.with_exact_solver(empties, solver);
        self
    }

    pub fn config(&self) -> &MctsConfig {
        self.driver.config()
    }

    pub fn config_mut(&mut self) -> &mut MctsConfig {
        self.driver.config_mut()
    }

    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    pub fn tree(&self) -> &SearchTree {
        self.driver.tree()
    }

    /// Set it from anywhere (another thread, a message handler) to end the running search
    /// after its current batch.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.driver.stop_flag()
    }

    /// Drops the tree and winds the game's clock back to its start (a new game).
    pub fn clear(&mut self) {
        self.driver.clear();
        if let Some(clock) = &mut self.clock {
            clock.reset();
        }
    }

    /// The game's clock, when the agent plays on one.
    pub fn game_clock(&self) -> Option<GameClock> {
        let total = self.config().game_time?;
        Some(self.clock.unwrap_or_else(|| GameClock::new(total)))
    }

    /// Makes `pos` the root without searching, keeping the subtree that leads to it.
    pub fn follow(&mut self, pos: &Position) {
        self.driver.follow(pos);
    }

    /// Where the root solve reaches on `pos`'s board (see [`SearchDriver::solve_reach`]).
    pub fn solve_reach(&self, pos: &Position) -> SolveReach {
        self.driver.solve_reach(pos)
    }

    /// Whether `pos` is within the always-solved endgame of the root decision.
    pub fn solves_exactly(&self, pos: &Position) -> bool {
        self.driver.solves_exactly(pos)
    }

    /// The root solver (one table for every solve of this search's games).
    pub fn solver(&mut self) -> &mut Solver {
        self.driver.solver()
    }

    /// The driver, for the agent's entries into its root rule (`player.rs`): callers
    /// outside the search ask the agent ([`Agent::root_rule`](crate::Agent::root_rule)),
    /// one way in.
    pub(super) fn driver_mut(&mut self) -> &mut SearchDriver {
        &mut self.driver
    }

    /// One slice of a move's thinking, all four stages of the driver: the first slice
    /// makes the root decision and begins the search, every slice advances it for about
    /// `slice` (or to the thinking's deadline), and each reports what it knows.
    pub fn think_more(
        &mut self,
        thinking: &mut Thinking,
        slice: Duration,
    ) -> Result<SearchInfo, EvalError> {
        self.think_slice(thinking, slice, true)
    }

    /// A whole move's thinking, all four stages of the driver (the agent's, without its
    /// [`Agent`](crate::Agent) wrapper): `progress` is called every `progress_interval`
    /// with a snapshot, and may return `false` to stop early.
    pub fn think(
        &mut self,
        pos: &Position,
        budget: &Budget,
        progress: &mut dyn FnMut(&SearchInfo) -> bool,
    ) -> Result<SearchInfo, EvalError> {
        self.think_through(pos, budget, true, progress)
    }

    /// The search without the root decision, so that every move gets the search's view
    /// even where one is forced or the solver could settle the root: NBoard's hints, which
    /// list moves and not only the best, `othello bench`, which times the search, and the
    /// search's own tests.
    pub fn search(
        &mut self,
        pos: &Position,
        budget: &Budget,
        progress: &mut dyn FnMut(&SearchInfo) -> bool,
    ) -> Result<SearchInfo, EvalError> {
        self.think_through(pos, budget, false, progress)
    }

    fn think_through(
        &mut self,
        pos: &Position,
        budget: &Budget,
        decide: bool,
        progress: &mut dyn FnMut(&SearchInfo) -> bool,
    ) -> Result<SearchInfo, EvalError> {
        let mut thinking = Thinking::new(*pos, *budget);
        let slice = self.config().progress_interval;
        loop {
            let info = self.think_slice(&mut thinking, slice, decide)?;
            if thinking.is_done() || !progress(&info) {
                return Ok(info);
            }
        }
    }

    fn think_slice(
        &mut self,
        thinking: &mut Thinking,
        slice: Duration,
        decide: bool,
    ) -> Result<SearchInfo, EvalError> {
        let was_done = thinking.is_done();
        let info = self.slice_of_thinking(thinking, slice, decide)?;
        if thinking.is_done() && !was_done {
            if let Some(clock) = &mut self.clock {
                // A move settled at the root (forced, book, solved) ran no search.
                let searched = info.solved.is_none() && info.book.is_none() && info.simulations > 0;
                let deadline = thinking.budget.time.filter(|_| searched);
                clock.charge(thinking.elapsed(), deadline);
            }
        }
        Ok(info)
    }

    /// The move's time on the game's clock, when there is one: its share of what is left,
    /// or the budget's own time if that is shorter.
    fn take_time_from_clock(&mut self, thinking: &mut Thinking) {
        let Some(total) = self.config().game_time else {
            return;
        };
        let reach = self.driver.solve_reach(&thinking.position);
        let clock = self.clock.get_or_insert_with(|| GameClock::new(total));
        let share = clock.move_time(&thinking.position, reach);
        let time = thinking.budget.time.map_or(share, |own| own.min(share));
        thinking.budget.time = Some(time);
    }

    fn slice_of_thinking(
        &mut self,
        thinking: &mut Thinking,
        slice: Duration,
        decide: bool,
    ) -> Result<SearchInfo, EvalError> {
        let pos = thinking.position;
        if thinking.start() {
            self.take_time_from_clock(thinking);
            if decide {
                let time_left = thinking.time_left();
                if let Some(decision) = self.driver.decide_root(&pos, &thinking.budget, time_left) {
                    thinking.finish();
                    return Ok(decision.into_info(thinking.elapsed()));
                }
            }
            // A budgeted solve that ran out spent part of a time budget: the deadline
            // counts from the start of the thinking, so the search gets what is left.
            let limit = self.driver.simulation_limit(&thinking.budget);
            let planned = (limit != u64::MAX).then_some(limit);
            self.driver.begin(&pos, planned, true);
        }
        // A root proof in slices (the page's worker) takes each slice but for one round of
        // the search, which keeps a move to report and to play on a Stop; the time is the
        // proof's as when it ran first, and the search has the rest once it is over.
        let proving = decide && !thinking.is_done() && self.driver.proving();
        if proving {
            if let Some(decision) = self.driver.prove_more() {
                thinking.finish();
                return Ok(decision.into_info(thinking.elapsed()));
            }
        }
        let max_sims = self.driver.simulation_limit(&thinking.budget);
        let deadline = thinking.deadline();
        let slice_end = if proving {
            Instant::now()
        } else {
            Instant::now() + slice
        };
        let until = deadline.map_or(slice_end, |d| d.min(slice_end));
        if !thinking.is_done() {
            self.driver
                .advance(&mut self.evaluator, max_sims, Some(until))?;
        }
        thinking.simulations = self.driver.simulations();
        let info = self.driver.report(thinking.elapsed());
        let out_of_time = deadline.is_some_and(|d| Instant::now() >= d)
            && !(decide && self.search_on_when_unsure(thinking, &info));
        let settled = decide && self.may_stop_early(thinking, &info);
        // A proof in slices drew its budget from the search's simulations too: the move
        // waits for it once they are run (a time budget's deadline ends both).
        let searched =
            self.driver.finished(max_sims) && !(decide && self.driver.waits_for_proof(max_sims));
        if searched || out_of_time || settled {
            thinking.finish();
            // What a proof cut short by the move's end has proven still counts, as for a
            // whole proof cut short by its nodes: a proven win or draw is played.
            if let Some(decision) = decide.then(|| self.driver.end_proof()).flatten() {
                return Ok(decision.into_info(thinking.elapsed()));
            }
        }
        Ok(info)
    }

    /// At the end of a timed search's time (on a game's clock, or anywhere with
    /// `extend=1`): lengthens it once when its most visited move does not have the best
    /// value (see [`is_unsure`]), and says whether it did. Moves proven lost are no candidates, and a Gumbel root or a proof decides
    /// by its own rule.
    pub(super) fn search_on_when_unsure(&self, thinking: &mut Thinking, info: &SearchInfo) -> bool {
        if !self.config().extends_when_unsure() || info.chosen.is_some() {
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
        is_unsure(&candidates) && thinking.extend_time(by)
    }

    /// Whether a timed search's best move is settled (see [`can_stop_early`]): only the
    /// agent's, since hints and benches want the whole search.
    fn may_stop_early(&self, thinking: &Thinking, info: &SearchInfo) -> bool {
        let Some(left) = thinking.time_left() else {
            return false;
        };
        // A Gumbel root's choice is not its most visited move.
        if !self.config().stops_early() || info.chosen.is_some() {
            return false;
        }
        let visits: Vec<u32> = info.moves.iter().map(|m| m.visits).collect();
        can_stop_early(&visits, info.simulations, thinking.elapsed(), left)
    }
}
