//! Puzzle mode's solves: each goes to the last worker (the one a search plan gives work
//! last), which answers them in order; a worker replaced with solves queued fails them.

use super::Pool;
use othello::Position;
use protocol::{Input, PuzzleAsk, PuzzleReply, PuzzleRequest};

/// How much longer the worker with puzzle solves queued may stay silent in a search.
const PUZZLE_TIMEOUT_MS: f64 = 60000.0;

/// Hears what a puzzle's solve found.
pub type PuzzleAnswer = Box<dyn FnOnce(PuzzleReply)>;

impl Pool {
    /// Asks the last worker to solve `position` for Puzzle mode; `done` hears the answer.
    /// It is called while the pool is borrowed, so it may dispatch to the page's reducers
    /// but not ask the pool again.
    pub fn solve_puzzle(
        &mut self,
        position: &Position,
        ask: PuzzleAsk,
        max_nodes: u64,
        done: PuzzleAnswer,
    ) {
        if self.slots.is_empty() {
            done(PuzzleReply::Failed(
                "no search worker is running".to_owned(),
            ));
            return;
        }
        let id = self.take_id();
        let request = Input::Puzzle(Box::new(PuzzleRequest {
            id,
            board: position.to_board_text(),
            variant: position.variant(),
            ask,
            max_nodes,
        }));
        if let Some(slot) = self.slots.last() {
            slot.bridge.send(request);
        }
        self.puzzles.push((id, done));
    }

    pub(super) fn on_puzzle(&mut self, id: u64, reply: PuzzleReply) {
        if let Some(i) = self.puzzles.iter().position(|(asked, _)| *asked == id) {
            let (_, done) = self.puzzles.remove(i);
            done(reply);
        }
    }

    /// How much longer than a search allows worker `index` may be silent: a worker proving
    /// a player's mistakes answers each at once but may be busy for seconds with them
    /// before it hears a search: not silent, working.
    pub(super) fn puzzle_grace(&self, index: usize) -> f64 {
        if self.puzzles.is_empty() || index + 1 != self.slots.len() {
            0.0
        } else {
            PUZZLE_TIMEOUT_MS
        }
    }

    /// The puzzle solves a replaced worker held die with it: each asker hears so, and
    /// none waits on.
    pub(super) fn fail_puzzles_of(&mut self, index: usize) {
        if index + 1 == self.slots.len() {
            for (_, done) in std::mem::take(&mut self.puzzles) {
                done(PuzzleReply::Failed("the worker was restarted".to_owned()));
            }
        }
    }
}
