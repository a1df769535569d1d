//! The MCTS agent: the search driver's four stages ([`Mcts::think_more`]) behind the
//! [`Agent`] interface, with a plain legal move when the evaluator fails.

use super::search::Mcts;
use crate::agent::{Agent, Budget, RootRule, Thinking};
use crate::evaluator::{EvalError, Evaluator};
use crate::report::SearchInfo;
use othello::{Move, Position};
use std::time::Duration;

#[derive(Debug)]
pub struct MctsPlayer<E: Evaluator> {
    mcts: Mcts<E>,
    /// The last evaluator failure, if the agent had to fall back to a plain move.
    pub last_error: Option<String>,
}

impl<E: Evaluator> MctsPlayer<E> {
    pub fn new(mcts: Mcts<E>) -> MctsPlayer<E> {
        MctsPlayer {
            mcts,
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

    fn root_rule(&mut self, pos: &Position) -> Option<RootRule<'_>> {
        Some(self.mcts.root_rule(pos))
    }

    fn exact_root_margins(&mut self, pos: &Position) -> Option<Vec<(Move, i32)>> {
        self.mcts.driver_mut().exact_root_margins(pos)
    }

    fn think_more(
        &mut self,
        thinking: &mut Thinking,
        slice: Duration,
    ) -> Result<SearchInfo, EvalError> {
        self.mcts.think_more(thinking, slice)
    }
}
