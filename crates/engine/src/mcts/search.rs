//! The search loop: a tree paired with an evaluator, run batch by batch until a budget,
//! a deadline, a proof or the stop flag ends it. A search can run in slices (the page's
//! worker runs one slice between two looks at its messages): the tree, the simulation
//! count and the root's noise carry over, so slicing never changes what is searched.

use super::config::MctsConfig;
use super::info::SearchInfo;
use super::tree::{ExactSolver, SearchTree};
use crate::evaluator::{EvalError, Evaluator};
use crate::Budget;
use othello::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use web_time::Instant;

pub struct Mcts<E: Evaluator> {
    tree: SearchTree,
    evaluator: E,
    stop: Arc<AtomicBool>,
}

impl<E: Evaluator> Mcts<E> {
    pub fn new(evaluator: E, config: MctsConfig) -> Mcts<E> {
        Mcts {
            tree: SearchTree::new(config),
            evaluator,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Positions with at most `empties` empty squares get their value from `solver` and
    /// count as proven.
    pub fn with_exact_solver(mut self, empties: u32, solver: ExactSolver) -> Mcts<E> {
        self.tree.set_exact_solver(empties, solver);
        self
    }

    pub fn config(&self) -> &MctsConfig {
        self.tree.config()
    }

    pub fn config_mut(&mut self) -> &mut MctsConfig {
        self.tree.config_mut()
    }

    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    pub fn tree(&self) -> &SearchTree {
        &self.tree
    }

    /// Set it from anywhere (another thread, a message handler) to end the running search
    /// after its current batch.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    pub fn tree_size(&self) -> usize {
        self.tree.tree_size()
    }

    /// Drops the tree (a new game).
    pub fn clear(&mut self) {
        self.tree.clear();
    }

    pub fn set_root(&mut self, pos: &Position) {
        self.tree.set_root(pos);
    }

    /// The simulations a budget allows: its own, none when only time limits it, else the
    /// configured default.
    pub fn simulation_limit(&self, budget: &Budget) -> u64 {
        match (budget.simulations, budget.time) {
            (Some(sims), _) => sims,
            (None, Some(_)) => u64::MAX,
            (None, None) => self.tree.config.default_simulations,
        }
    }

    /// The start of a search of `planned` simulations (`None`: a time budget): makes `pos`
    /// the root (keeping the subtree that leads to it, except for a Gumbel root, which
    /// plans its visits from zero as mctx does; the evaluation cache keeps the re-expansion
    /// free), gives the root its first evaluation and its noise, and clears the stop flag.
    /// Returns the simulations that took (0 or 1).
    pub fn begin(&mut self, pos: &Position, planned: Option<u64>) -> Result<u64, EvalError> {
        self.stop.store(false, Ordering::Relaxed);
        if self.tree.config.gumbel.is_some() && planned.is_some() {
            self.tree.clear();
        }
        self.tree.set_root(pos);
        let mut sims = 0;
        if self.tree.root_is_leaf() && !pos.is_game_over() {
            sims += self.run_batch(1)?;
        }
        self.tree.add_root_noise();
        self.tree.plan_root(planned.map(|n| n.saturating_sub(sims)));
        Ok(sims)
    }

    /// Whether the search has nothing left to do: the budget is spent, the root is proven
    /// or the stop flag is set.
    pub fn finished(&self, simulations: u64, max_simulations: u64) -> bool {
        simulations >= max_simulations
            || self.tree.root_is_proven()
            || self.stop.load(Ordering::Relaxed)
    }

    /// Runs batches (at least one) until `simulations` reaches `max_simulations`, the clock
    /// passes `until`, or [`Mcts::finished`].
    pub fn advance(
        &mut self,
        simulations: &mut u64,
        max_simulations: u64,
        until: Option<Instant>,
    ) -> Result<(), EvalError> {
        let batch_size = self.tree.config.batch_size.max(1) as u64;
        loop {
            if self.finished(*simulations, max_simulations) {
                return Ok(());
            }
            let want = (max_simulations - *simulations).min(batch_size) as usize;
            *simulations += self.run_batch(want)?;
            if until.is_some_and(|t| Instant::now() >= t) {
                return Ok(());
            }
        }
    }

    /// Searches `pos` within `budget` and returns what it found. `progress` is called every
    /// `progress_interval` with a snapshot, and may return `false` to stop early.
    pub fn search(
        &mut self,
        pos: &Position,
        budget: &Budget,
        progress: &mut dyn FnMut(&SearchInfo) -> bool,
    ) -> Result<SearchInfo, EvalError> {
        let clock = Instant::now();
        let deadline = budget.time.map(|t| clock + t);
        let max_sims = self.simulation_limit(budget);
        let planned = (max_sims != u64::MAX).then_some(max_sims);
        let mut sims = self.begin(pos, planned)?;
        loop {
            let slice_end = Instant::now() + self.tree.config.progress_interval;
            let until = deadline.map_or(slice_end, |d| d.min(slice_end));
            self.advance(&mut sims, max_sims, Some(until))?;
            let info = self.tree.info(sims, clock.elapsed());
            let out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
            if self.finished(sims, max_sims) || out_of_time || !progress(&info) {
                return Ok(info);
            }
        }
    }

    /// One round: collects up to `want` leaves, evaluates those that need the evaluator in
    /// one call, and backs every result up. Returns the simulations completed.
    fn run_batch(&mut self, want: usize) -> Result<u64, EvalError> {
        let batch = self.tree.collect(want);
        let evaluations = if batch.positions.is_empty() {
            Ok(Vec::new())
        } else {
            self.evaluator.evaluate(&batch.positions)
        };
        self.tree.complete(batch, evaluations)
    }
}
