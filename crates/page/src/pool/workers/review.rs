//! A game's review in the pool: its moves go to every worker, one move a worker at a time,
//! in the order the player chose (`review::Schedule`), each answer reported as a
//! `PoolEvent::Reviewed` and followed by that worker's next move.

use super::{now, Pool, SEARCH_TIMEOUT_MS};
use crate::pool::PoolEvent;
use crate::review::{stopped_at, ReviewOrder, Schedule, Silenced, SILENCES_BEFORE_STOP};
use engine::PlayerSpec;
use othello::Position;
use protocol::{Input, ReviewRequest, WireBudget};

/// What a review's exact solves may add to a move's silence: the review solves from
/// `engine::review::review_exact_empties` (20 on 8x8), and its slowest move, the first
/// solve of a game's ending with an empty table, took 1.7 s in Chromium on the test machine
/// (docs/review.md); ten times that lets a device ten times slower finish, where a worker
/// replaced at 4 s would be sent the same move again and again and the review would never
/// end.
const REVIEW_SOLVE_MS: f64 = 17_000.0;

/// A game's review under way. A worker holds one move at a time, so it can be cancelled
/// between moves and a search for the game never waits behind more than one move.
pub(super) struct ReviewJob {
    pub(super) id: u64,
    /// Each move with the position it was played from.
    moves: Vec<(Position, othello::Move)>,
    schedule: Schedule,
    player: PlayerSpec,
    budget: WireBudget,
    seed: u64,
    /// The orientation each move is searched in (`engine::review::frames_of`).
    frames: Vec<u8>,
    /// When each busy worker got its move.
    sent: Vec<(usize, f64)>,
}

impl ReviewJob {
    fn request(&self, index: usize) -> Option<ReviewRequest> {
        let (pos, played) = self.moves.get(index)?;
        Some(ReviewRequest {
            id: self.id,
            index,
            board: pos.to_board_text(),
            variant: pos.variant(),
            played: *played,
            player: self.player.clone(),
            budget: self.budget,
            seed: self.seed,
            frame: self.frames.get(index).copied().unwrap_or(0),
        })
    }

    /// When worker `slot` got the move it is valuing, if it has one.
    pub(super) fn sent_to(&self, slot: usize) -> Option<f64> {
        self.schedule.busy(slot)?;
        self.sent.iter().find(|(s, _)| *s == slot).map(|(_, t)| *t)
    }

    /// How long its worker may stay silent on a move: a move's review can be two searches
    /// (the position, then the one after a move the search left alone) at a few hundred
    /// simulations a second on a slow, busy device, and an exact solve from the review's
    /// reach ([`REVIEW_SOLVE_MS`]).
    pub(super) fn timeout_ms(&self) -> f64 {
        let sims = self.budget.simulations.unwrap_or(0) as f64;
        let millis = self.budget.millis.unwrap_or(0) as f64;
        SEARCH_TIMEOUT_MS + REVIEW_SOLVE_MS + 2.0 * (sims * 3.0 + millis)
    }
}

/// The seed of a game's review, from its moves: a review of the same game at the same
/// budget is the same review whichever worker takes which move (the thirteenth look saw two
/// reviews of one record differ by a few marks), as `othello review` is the same each run.
fn game_seed(moves: &[(Position, othello::Move)]) -> u64 {
    moves.iter().fold(0x5eed, |seed, (pos, _)| {
        engine::rng::splitmix64(seed ^ pos.hash())
    })
}

impl Pool {
    /// Reviews `moves` (each with the position it was played from) with `player` at
    /// `budget` a position, in `order`, on every worker, replacing any review under way;
    /// returns the review's id.
    pub fn review(
        &mut self,
        moves: Vec<(Position, othello::Move)>,
        player: PlayerSpec,
        budget: WireBudget,
        order: ReviewOrder,
    ) -> u64 {
        self.cancel_review();
        let id = self.take_id();
        let job = ReviewJob {
            id,
            schedule: Schedule::new(moves.len(), order),
            frames: engine::review::frames_of(&moves),
            seed: game_seed(&moves),
            moves,
            player,
            budget,
            sent: Vec::new(),
        };
        // An empty game ends at once: said to no one, since nothing was asked of a worker.
        let _ = self.feed_review(job);
        id
    }

    /// Gives every free worker the review's next move, or ends the review once every move
    /// is answered.
    pub(super) fn feed_review(&mut self, mut job: ReviewJob) -> Option<PoolEvent> {
        if job.schedule.finished() {
            return Some(PoolEvent::ReviewEnded {
                id: job.id,
                error: None,
            });
        }
        let t = now();
        for slot in 0..self.slots.len() {
            let Some(request) = job.schedule.take(slot).and_then(|i| job.request(i)) else {
                continue;
            };
            job.sent.retain(|(s, _)| *s != slot);
            job.sent.push((slot, t));
            let worker = &mut self.slots[slot];
            worker.last_heard = worker.last_heard.max(t);
            worker.bridge.send(Input::Review(Box::new(request)));
        }
        self.review = Some(job);
        None
    }

    /// Sends worker `slot`'s move again, to the worker that replaced it (a fresh reviewer:
    /// the move is valued all the same), or stops the review at a move that has silenced
    /// [`SILENCES_BEFORE_STOP`] workers, saying so.
    pub(super) fn resend_review(&mut self, slot: usize) -> Vec<PoolEvent> {
        let Some(job) = self.review.as_mut() else {
            return vec![];
        };
        let index = match job.schedule.silenced(slot) {
            Silenced::Idle => return vec![],
            Silenced::SendAgain(index) => index,
            Silenced::Stop(_) => {
                let (id, seconds) = (job.id, (job.timeout_ms() / 1000.0).round());
                let why = format!(
                    "{SILENCES_BEFORE_STOP} workers in turn went silent on it for over \
                     {seconds} s each, so this device may be too slow for this budget"
                );
                return self.on_review_failed(slot, id, why);
            }
        };
        let Some(request) = job.request(index) else {
            return vec![];
        };
        let t = now();
        job.sent.retain(|(s, _)| *s != slot);
        job.sent.push((slot, t));
        self.slots[slot]
            .bridge
            .send(Input::Review(Box::new(request)));
        vec![]
    }

    /// Drops the review under way: the moves in the workers now are answered and ignored.
    pub fn cancel_review(&mut self) {
        self.review = None;
    }

    /// Review `id` could not value the move worker `slot` held: it ends, with why and where
    /// (the move, by its number and side, so the player knows what stopped it).
    pub(super) fn on_review_failed(
        &mut self,
        slot: usize,
        id: u64,
        error: String,
    ) -> Vec<PoolEvent> {
        let Some(job) = self.review.as_ref().filter(|job| job.id == id) else {
            return vec![];
        };
        let played: Vec<othello::Move> = job.moves.iter().map(|(_, mv)| *mv).collect();
        let index = job.schedule.busy(slot);
        let side = index
            .and_then(|i| job.moves.get(i))
            .map_or(othello::Color::Black, |(pos, _)| pos.side_to_move());
        let error = stopped_at(&played, index, side, &error);
        self.review = None;
        vec![PoolEvent::ReviewEnded {
            id,
            error: Some(error),
        }]
    }

    pub(super) fn on_reviewed(
        &mut self,
        slot: usize,
        id: u64,
        index: usize,
        review: protocol::ReviewedMove,
    ) -> Vec<PoolEvent> {
        let Some(mut job) = self.review.take() else {
            return vec![];
        };
        if job.id != id || !job.schedule.answered(slot, index) {
            self.review = Some(job);
            return vec![];
        }
        let position = job.moves[index].0.hash();
        let mut events = vec![PoolEvent::Reviewed {
            id,
            position,
            review,
            done: job.schedule.done(),
            total: job.schedule.total(),
        }];
        events.extend(self.feed_review(job));
        events
    }
}
