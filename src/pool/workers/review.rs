//! A game's review in the pool: its moves go to one worker, one message each and in
//! order, each answer reported as a `PoolEvent::Reviewed` before the next move is sent.

use super::{now, random_seed, Pool, SEARCH_TIMEOUT_MS};
use crate::pool::PoolEvent;
use crate::protocol::{Input, ReviewRequest, WireBudget};
use engine::PlayerSpec;
use othello::Position;

/// A game's review under way: its moves go to one worker one at a time, in order, so it
/// can be cancelled between moves and never holds a worker for long.
pub(super) struct ReviewJob {
    pub(super) id: u64,
    /// Each move with the position it was played from.
    moves: Vec<(Position, othello::Move)>,
    /// The move in the worker now.
    next: usize,
    pub(super) slot: usize,
    player: PlayerSpec,
    budget: WireBudget,
    seed: u64,
    pub(super) sent: f64,
}

impl ReviewJob {
    fn request(&self) -> Option<ReviewRequest> {
        let (pos, played) = self.moves.get(self.next)?;
        Some(ReviewRequest {
            id: self.id,
            index: self.next,
            board: pos.to_board_text(),
            variant: pos.variant(),
            played: *played,
            player: self.player.clone(),
            budget: self.budget,
            seed: self.seed,
        })
    }

    /// How long its worker may stay silent on a move: a move's review can be two searches
    /// (the position, then the one after a move the search left alone) and a budgeted
    /// solve, at a few hundred simulations a second on a slow, busy device.
    pub(super) fn timeout_ms(&self) -> f64 {
        let sims = self.budget.simulations.unwrap_or(0) as f64;
        let millis = self.budget.millis.unwrap_or(0) as f64;
        SEARCH_TIMEOUT_MS + 2.0 * (sims * 3.0 + millis)
    }
}

impl Pool {
    /// Reviews `moves` (each with the position it was played from) with `player` at
    /// `budget` a position, replacing any review under way; returns the review's id. The
    /// last worker takes it: where there are several, the first ones keep searching for
    /// the game (a Casual or Instinct search runs on the first alone).
    pub fn review(
        &mut self,
        moves: Vec<(Position, othello::Move)>,
        player: PlayerSpec,
        budget: WireBudget,
    ) -> u64 {
        self.cancel_review();
        let id = self.next_id;
        self.next_id += 1;
        let job = ReviewJob {
            id,
            moves,
            next: 0,
            slot: self.slots.len() - 1,
            player,
            budget,
            seed: random_seed(),
            sent: now(),
        };
        // An empty game ends at once: said to no one, since nothing was asked of a worker.
        let _ = self.send_review(job);
        id
    }

    /// Sends the review's next move to its worker, or ends it when none is left.
    pub(super) fn send_review(&mut self, mut job: ReviewJob) -> Option<PoolEvent> {
        let Some(request) = job.request() else {
            return Some(PoolEvent::ReviewEnded {
                id: job.id,
                error: None,
            });
        };
        let t = now();
        job.sent = t;
        let slot = &mut self.slots[job.slot];
        slot.last_heard = slot.last_heard.max(t);
        slot.bridge.send(Input::Review(Box::new(request)));
        self.review = Some(job);
        None
    }

    /// Drops the review under way: the move in the worker now is answered and ignored.
    pub fn cancel_review(&mut self) {
        self.review = None;
    }

    pub fn reviewing(&self) -> Option<u64> {
        self.review.as_ref().map(|r| r.id)
    }

    pub(super) fn on_reviewed(
        &mut self,
        id: u64,
        index: usize,
        review: crate::review::ReviewedMove,
    ) -> Vec<PoolEvent> {
        let Some(mut job) = self.review.take() else {
            return vec![];
        };
        if job.id != id || job.next != index {
            self.review = Some(job);
            return vec![];
        }
        let position = job.moves[index].0.hash();
        let total = job.moves.len();
        job.next += 1;
        let mut events = vec![PoolEvent::Reviewed {
            id,
            position,
            review,
            done: job.next,
            total,
        }];
        events.extend(self.send_review(job));
        events
    }
}
