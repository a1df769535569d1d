//! [`Mcts`] is the MCTS agent: a search driver paired with an evaluator of its own, for
//! every caller with one tree (the agent's callers, NBoard's hints, `othello bench`), and
//! behind the [`Agent`] interface, with a plain legal move when the evaluator fails. No
//! wrapper type: the search with its evaluator is the agent, as KataGo's one `Search` is
//! what its bot drives.
//!
//! One layer, one job: a move's thinking is the driver's
//! ([`SearchDriver::think_more`], its four stages under its time policy), which `Mcts`
//! calls once a slice with its evaluator; what else a caller wants of the search (its
//! settings, tree, stop flag, book, root solver, game's clock) it asks the driver for,
//! through [`Mcts::driver`], rather than through methods of `Mcts` that pass it on.

use super::config::MctsConfig;
use super::driver::SearchDriver;
use crate::agent::{Agent, Budget, RootRule, Thinking};
use crate::evaluator::{EvalError, Evaluator};
use crate::report::SearchInfo;
use crate::solver::Solver;
use othello::{Move, Position};
use std::time::Duration;

#[derive(Debug)]
pub struct Mcts<E: Evaluator> {
    driver: SearchDriver,
    evaluator: E,
    /// The last evaluator failure, when the agent had to fall back to a plain legal move.
    last_error: Option<String>,
}

impl<E: Evaluator> Mcts<E> {
    pub fn new(evaluator: E, config: MctsConfig) -> Mcts<E> {
        Mcts::with_driver(SearchDriver::new(config), evaluator)
    }

    /// `evaluator` searching with `driver`, for a driver built with more than its config (a
    /// book, an exact solver inside the tree). Where the evaluator makes its priors apart
    /// ([`Evaluator::split_priors`]), the search asks for them only where it needs them, and
    /// where they come with the children's values, takes those too.
    pub fn with_driver(mut driver: SearchDriver, mut evaluator: E) -> Mcts<E> {
        if let Some(source) = evaluator.split_priors_with_values() {
            driver.set_valued_priors(source);
        } else if let Some(source) = evaluator.split_priors() {
            driver.set_prior_source(source);
        }
        Mcts {
            driver,
            evaluator,
            last_error: None,
        }
    }

    /// The search driver: the settings, the tree, the stop flag, the book, the root
    /// solver and the game's clock are its.
    pub fn driver(&self) -> &SearchDriver {
        &self.driver
    }

    pub fn driver_mut(&mut self) -> &mut SearchDriver {
        &mut self.driver
    }

    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// Why the agent last played a plain legal move instead of its search's: the
    /// evaluator failed.
    pub fn last_error(&self) -> Option<&str> {
        self.last_error.as_deref()
    }

    /// One slice of a move's thinking, all four stages of the driver
    /// ([`SearchDriver::think_more`]).
    pub fn think_more(
        &mut self,
        thinking: &mut Thinking,
        slice: Duration,
    ) -> Result<SearchInfo, EvalError> {
        self.driver
            .think_more(&mut self.evaluator, thinking, slice, true)
    }

    /// A whole move's thinking, all four stages of the driver (the agent's, without its
    /// [`Agent`] wrapper): `progress` is called every `progress_interval` with a snapshot,
    /// and may return `false` to stop early.
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
        let slice = self.driver.config().progress_interval;
        loop {
            let info = self
                .driver
                .think_more(&mut self.evaluator, &mut thinking, slice, decide)?;
            if thinking.is_done() || !progress(&info) {
                return Ok(info);
            }
        }
    }
}

impl<E: Evaluator + Send> Agent for Mcts<E> {
    fn name(&self) -> String {
        format!("mcts ({})", self.evaluator.describe())
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
        self.driver.clear();
    }

    fn restart(&mut self, salt: u64) {
        self.driver.restart(salt);
        self.evaluator.reseed(salt);
    }

    fn report_interval(&self) -> Duration {
        self.driver.config().progress_interval
    }

    fn root_rule(&mut self, pos: &Position) -> Option<RootRule<'_>> {
        Some(self.driver.root_rule(pos))
    }

    fn root_solver(&mut self) -> Option<&mut Solver> {
        Some(self.driver.solver())
    }

    fn exact_root_margins(&mut self, pos: &Position) -> Option<Vec<(Move, i32)>> {
        self.driver.exact_root_margins(pos)
    }

    fn think_more(
        &mut self,
        thinking: &mut Thinking,
        slice: Duration,
    ) -> Result<SearchInfo, EvalError> {
        Mcts::think_more(self, thinking, slice)
    }
}
