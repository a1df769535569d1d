//! The MCTS agent: near the end it hands the root to the exact solver (always within a few
//! empties, and a few more when a solve fits in its budget); otherwise it searches, slice by
//! slice, and plays the best move.

use super::config::{default_budgeted_extra_empties, default_exact_root_empties};
use super::info::{SearchInfo, Solved};
use super::search::Mcts;
use crate::agent::{Agent, Budget, Thinking};
use crate::evaluator::{EvalError, Evaluator};
use crate::solver::Solver;
use othello::{Move, Position};
use std::time::Duration;
use web_time::Instant;

pub struct MctsPlayer<E: Evaluator> {
    mcts: Mcts<E>,
    /// Made on the first solve, so games that never get there pay nothing for its table.
    solver: Option<Solver>,
    /// The last evaluator failure, if the agent had to fall back to a plain move.
    pub last_error: Option<String>,
}

impl<E: Evaluator> MctsPlayer<E> {
    pub fn new(mcts: Mcts<E>) -> MctsPlayer<E> {
        MctsPlayer {
            mcts,
            solver: None,
            last_error: None,
        }
    }

    /// Solve root positions with at most `empties` empty squares exactly (0: never), and
    /// try a budgeted solve a few empties beyond.
    pub fn with_exact_root(mut self, empties: u32) -> MctsPlayer<E> {
        self.mcts.config_mut().root_solve.exact_empties = Some(empties);
        self
    }

    pub fn mcts(&mut self) -> &mut Mcts<E> {
        &mut self.mcts
    }

    /// The exact solver's verdict when the position is within reach: always at the exact
    /// depth, and a few empties beyond when a solve fits in the budget's share of nodes.
    fn solve_root(&mut self, thinking: &Thinking) -> Option<Solved> {
        let pos = &thinking.position;
        let settings = &self.mcts.config().root_solve;
        let size = pos.size();
        let limit = settings
            .exact_empties
            .unwrap_or_else(|| default_exact_root_empties(size));
        let extra = settings
            .extra_empties
            .unwrap_or_else(|| default_budgeted_extra_empties(size));
        let empties = pos.empty_count();
        if limit == 0 || empties > limit + extra {
            return None;
        }
        let nodes = if empties <= limit {
            None
        } else {
            // The tighter of the budget's shares when it has both; no solve without either.
            let by_sims = thinking
                .budget
                .simulations
                .map(|s| s.saturating_mul(settings.nodes_per_simulation));
            let by_time = thinking
                .time_left()
                .map(|t| (t.as_millis() as u64).saturating_mul(settings.nodes_per_ms));
            let nodes = by_sims.into_iter().chain(by_time).min()?;
            Some(settings.max_nodes.map_or(nodes, |cap| nodes.min(cap)))
        };
        let bits = settings.table_bits;
        let solver = self
            .solver
            .get_or_insert_with(|| Solver::with_table_bits(bits));
        let clock = Instant::now();
        let solution = match nodes {
            None => solver.solve(pos),
            Some(nodes) => solver.solve_within(pos, nodes)?,
        };
        Some(Solved {
            best: solution.best?,
            margin: solution.margin,
            nodes: solution.nodes,
            micros: clock.elapsed().as_micros() as u64,
        })
    }
}

impl<E: Evaluator + Send> Agent for MctsPlayer<E> {
    fn name(&self) -> String {
        format!("mcts ({})", self.mcts.evaluator().describe())
    }

    fn select_move(&mut self, pos: &Position, budget: &Budget) -> Move {
        let fallback = pos.legal_move_list().first().copied().unwrap_or(Move::Pass);
        match self.think(pos, budget, &mut |_| true) {
            Ok(info) => info.best_move().unwrap_or(fallback),
            Err(e) => {
                // A broken evaluator must not stop the game: play a legal move and say why.
                self.last_error = Some(e.to_string());
                fallback
            }
        }
    }

    fn new_game(&mut self) {
        self.mcts.clear();
    }

    fn report_interval(&self) -> Duration {
        self.mcts.config().progress_interval
    }

    fn think_more(
        &mut self,
        thinking: &mut Thinking,
        slice: Duration,
    ) -> Result<SearchInfo, EvalError> {
        let pos = thinking.position;
        if thinking.start() {
            // With one legal move (a pass included) there is nothing to think about.
            if let [only] = pos.legal_move_list()[..] {
                thinking.finish();
                return Ok(SearchInfo::decided(only, thinking.elapsed()));
            }
            if let Some(solved) = self.solve_root(thinking) {
                thinking.finish();
                return Ok(SearchInfo::from_solved(solved, thinking.elapsed()));
            }
            // A budgeted solve that ran out spent part of a time budget: the deadline
            // counts from the start of the thinking, so the search gets what is left.
            let planned = thinking.budget.simulations;
            thinking.simulations += self.mcts.begin(&pos, planned)?;
        }
        let max_sims = self.mcts.simulation_limit(&thinking.budget);
        let slice_end = Instant::now() + slice;
        let deadline = thinking.deadline();
        let until = deadline.map_or(slice_end, |d| d.min(slice_end));
        if !thinking.is_done() {
            self.mcts
                .advance(&mut thinking.simulations, max_sims, Some(until))?;
        }
        let info = self
            .mcts
            .tree()
            .info(thinking.simulations, thinking.elapsed());
        let out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
        if self.mcts.finished(thinking.simulations, max_sims) || out_of_time {
            thinking.finish();
        }
        Ok(info)
    }
}
