//! A move's thinking a slice at a time, for a caller with one tree and its own evaluator
//! (the agent, NBoard's hints, `othello bench`): the driver's four stages under its time
//! policy, in one call a slice. The page's worker runs one slice between two looks at its
//! messages; the tree, the simulation count and the root's noise carry over, so slicing
//! never changes what is searched.

use super::SearchDriver;
use crate::agent::Thinking;
use crate::clock_source::Instant;
use crate::evaluator::{EvalError, Evaluator};
use crate::mcts::time_policy::TimePolicy;
use crate::report::SearchInfo;
use std::time::Duration;

impl SearchDriver {
    /// One slice of a move's thinking with `evaluator`: the first slice gets the move its
    /// time from the time policy, makes the root decision (when `decide`: the agent's
    /// move; hints and benches search every move instead) and begins the search; every
    /// slice advances it for about `slice` (or to the thinking's deadline) and reports
    /// what it knows. The move ends when the search has run its budget, or the time policy
    /// says its time is over; the game's clock is charged then.
    pub fn think_more(
        &mut self,
        evaluator: &mut (impl Evaluator + ?Sized),
        thinking: &mut Thinking,
        slice: Duration,
        decide: bool,
    ) -> Result<SearchInfo, EvalError> {
        let was_done = thinking.is_done();
        let info = self.slice_of_thinking(evaluator, thinking, slice, decide)?;
        if thinking.is_done() && !was_done {
            self.time.charge(thinking, &info);
        }
        Ok(info)
    }

    /// The first slice's start: the move's time, then the root decision when `decide`
    /// (its move, when it settles the root), then the search's start.
    fn start_thinking(&mut self, thinking: &mut Thinking, decide: bool) -> Option<SearchInfo> {
        let pos = thinking.position;
        self.time.allot(self.tree.config(), thinking);
        if decide {
            let time_left = thinking.time_left();
            if let Some(decision) = self.decide_root(&pos, &thinking.budget, time_left) {
                thinking.finish();
                return Some(decision.into_info(thinking.elapsed()));
            }
        }
        // A budgeted solve that ran out spent part of a time budget: the deadline
        // counts from the start of the thinking, so the search gets what is left.
        let limit = TimePolicy::simulation_limit(self.config(), &thinking.budget);
        let planned = (limit != u64::MAX).then_some(limit);
        self.begin(&pos, planned, true);
        None
    }

    fn slice_of_thinking(
        &mut self,
        evaluator: &mut (impl Evaluator + ?Sized),
        thinking: &mut Thinking,
        slice: Duration,
        decide: bool,
    ) -> Result<SearchInfo, EvalError> {
        if thinking.start() {
            if let Some(decided) = self.start_thinking(thinking, decide) {
                return Ok(decided);
            }
        }
        // A root proof in slices (the page's worker) takes each slice but for one round of
        // the search, which keeps a move to report and to play on a Stop; the time is the
        // proof's as when it ran first, and the search has the rest once it is over.
        let proving = decide && !thinking.is_done() && self.proving();
        if proving {
            if let Some(decision) = self.prove_more() {
                thinking.finish();
                return Ok(decision.into_info(thinking.elapsed()));
            }
        }
        let max_sims = TimePolicy::simulation_limit(self.config(), &thinking.budget);
        let slice_end = if proving {
            Instant::now()
        } else {
            Instant::now() + slice
        };
        let until = thinking.deadline().map_or(slice_end, |d| d.min(slice_end));
        if !thinking.is_done() {
            self.advance(evaluator, max_sims, Some(until))?;
        }
        thinking.simulations = self.simulations();
        let info = self.report(thinking.elapsed());
        let time_is_up = self
            .time
            .time_is_up(self.tree.config(), thinking, &info, decide);
        // A proof in slices drew its budget from the search's simulations too: the move
        // waits for it once they are run (a time budget's deadline ends both).
        let searched = self.finished(max_sims) && !(decide && self.waits_for_proof(max_sims));
        if searched || time_is_up {
            thinking.finish();
            // What a proof cut short by the move's end has proven still counts, as for a
            // whole proof cut short by its nodes: a proven win or draw is played.
            if let Some(decision) = decide.then(|| self.end_proof()).flatten() {
                return Ok(decision.into_info(thinking.elapsed()));
            }
        }
        Ok(info)
    }
}
