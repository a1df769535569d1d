//! [`Mcts`] is the MCTS agent: the search driver's four stages ([`Mcts::think_more`])
//! behind the [`Agent`] interface, with a plain legal move when the evaluator fails. No
//! wrapper type: the search with its evaluator is the agent, as KataGo's one `Search` is
//! what its bot drives.

use super::search::Mcts;
use crate::agent::{Agent, Budget, RootRule, Thinking};
use crate::evaluator::{EvalError, Evaluator};
use crate::report::SearchInfo;
use othello::{Move, Position};
use std::time::Duration;

impl<E: Evaluator + Send> Agent for Mcts<E> {
    fn name(&self) -> String {
        format!("mcts ({})", self.evaluator().describe())
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
        self.clear();
    }

    fn report_interval(&self) -> Duration {
        self.config().progress_interval
    }

    fn root_rule(&mut self, pos: &Position) -> Option<RootRule<'_>> {
        Some(self.driver_mut().root_rule(pos))
    }

    fn exact_root_margins(&mut self, pos: &Position) -> Option<Vec<(Move, i32)>> {
        self.driver_mut().exact_root_margins(pos)
    }

    fn think_more(
        &mut self,
        thinking: &mut Thinking,
        slice: Duration,
    ) -> Result<SearchInfo, EvalError> {
        Mcts::think_more(self, thinking, slice)
    }
}
