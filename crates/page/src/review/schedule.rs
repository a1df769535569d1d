//! Which move of a review goes to which worker, and when: the order the player chose (from
//! the first move, or newest first), one move per worker at a time, every worker of the
//! pool taking part. Plain data, so the pool's bookkeeping is tested without a browser.

use serde::{Deserialize, Serialize};

/// The order a review values the moves in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReviewOrder {
    /// From the first move: each worker's search of the position after a move it valued
    /// can serve its next one.
    #[default]
    FirstToLast,
    /// The last move first: the end of the game, where it was decided, is read first.
    NewestFirst,
}

impl ReviewOrder {
    pub const ALL: [ReviewOrder; 2] = [ReviewOrder::FirstToLast, ReviewOrder::NewestFirst];

    pub fn key(self) -> &'static str {
        match self {
            ReviewOrder::FirstToLast => "first",
            ReviewOrder::NewestFirst => "newest",
        }
    }

    pub fn from_key(key: &str) -> Option<ReviewOrder> {
        ReviewOrder::ALL.into_iter().find(|o| o.key() == key)
    }

    pub fn label(self) -> &'static str {
        match self {
            ReviewOrder::FirstToLast => "from the first move",
            ReviewOrder::NewestFirst => "newest first",
        }
    }
}

/// A review's moves on their way through the workers: each free worker takes the next move
/// in the order, and answers are counted whatever order they arrive in.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// Move indices (0-based) in the order they go out.
    order: Vec<usize>,
    /// How many of `order` have gone out.
    sent: usize,
    /// Each busy worker with the move it is valuing.
    in_flight: Vec<(usize, usize)>,
    done: usize,
    /// Each move whose worker went silent, with how many times.
    silences: Vec<(usize, u32)>,
}

/// How many workers in turn one move may leave silent before the review stops at it: a
/// device so slow that its move outlasts three watchdogs (each allowing the slowest solve
/// ten times over) would otherwise be sent the same move for ever.
pub const SILENCES_BEFORE_STOP: u32 = 3;

/// What becomes of a move whose worker went silent and was replaced.
#[derive(Debug, PartialEq, Eq)]
pub enum Silenced {
    /// The worker held no move of the review.
    Idle,
    /// Move `index` goes to the worker that replaced it.
    SendAgain(usize),
    /// Move `index` silenced [`SILENCES_BEFORE_STOP`] workers: the review stops there.
    Stop(usize),
}

impl Schedule {
    pub fn new(moves: usize, order: ReviewOrder) -> Schedule {
        let order = match order {
            ReviewOrder::FirstToLast => (0..moves).collect(),
            ReviewOrder::NewestFirst => (0..moves).rev().collect(),
        };
        Schedule {
            order,
            sent: 0,
            in_flight: Vec::new(),
            done: 0,
            silences: Vec::new(),
        }
    }

    /// The next move for worker `slot`, which is then busy with it; `None` when the worker
    /// is busy already or every move has gone out.
    pub fn take(&mut self, slot: usize) -> Option<usize> {
        if self.busy(slot).is_some() {
            return None;
        }
        let index = *self.order.get(self.sent)?;
        self.sent += 1;
        self.in_flight.push((slot, index));
        Some(index)
    }

    /// The move worker `slot` is valuing, if any (sent again to a worker that replaces it).
    pub fn busy(&self, slot: usize) -> Option<usize> {
        self.in_flight
            .iter()
            .find(|&&(s, _)| s == slot)
            .map(|&(_, i)| i)
    }

    /// Worker `slot`'s answer for move `index`: true when it was the one awaited (it then
    /// counts as done and the worker is free), false for a stale one.
    pub fn answered(&mut self, slot: usize, index: usize) -> bool {
        let before = self.in_flight.len();
        self.in_flight.retain(|&(s, i)| !(s == slot && i == index));
        let awaited = self.in_flight.len() < before;
        self.done += usize::from(awaited);
        awaited
    }

    /// Worker `slot` went silent and was replaced: its move goes to the new worker, unless
    /// that move has now silenced [`SILENCES_BEFORE_STOP`] workers.
    pub fn silenced(&mut self, slot: usize) -> Silenced {
        let Some(index) = self.busy(slot) else {
            return Silenced::Idle;
        };
        let count = match self.silences.iter_mut().find(|(i, _)| *i == index) {
            Some((_, count)) => {
                *count += 1;
                *count
            }
            None => {
                self.silences.push((index, 1));
                1
            }
        };
        if count >= SILENCES_BEFORE_STOP {
            Silenced::Stop(index)
        } else {
            Silenced::SendAgain(index)
        }
    }

    pub fn done(&self) -> usize {
        self.done
    }

    pub fn total(&self) -> usize {
        self.order.len()
    }

    pub fn finished(&self) -> bool {
        self.done == self.order.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_that_silences_three_workers_stops_the_review() {
        let mut s = Schedule::new(3, ReviewOrder::FirstToLast);
        assert_eq!(s.silenced(0), Silenced::Idle, "worker 0 holds nothing yet");
        assert_eq!((s.take(0), s.take(1)), (Some(0), Some(1)));
        assert_eq!(s.silenced(0), Silenced::SendAgain(0));
        // Another move's silences are its own.
        assert_eq!(s.silenced(1), Silenced::SendAgain(1));
        assert_eq!(s.silenced(0), Silenced::SendAgain(0));
        assert_eq!(s.silenced(0), Silenced::Stop(0));
        // A move answered after silences frees its worker as any other.
        assert!(s.answered(1, 1));
        assert_eq!(s.take(1), Some(2));
        assert_eq!(s.silenced(1), Silenced::SendAgain(2));
    }

    #[test]
    fn newest_first_sends_the_last_move_first() {
        let mut s = Schedule::new(3, ReviewOrder::NewestFirst);
        assert_eq!(
            [s.take(0), s.take(1), s.take(2)],
            [Some(2), Some(1), Some(0)]
        );
        let mut s = Schedule::new(3, ReviewOrder::FirstToLast);
        assert_eq!(s.take(0), Some(0));
        assert_eq!(
            ReviewOrder::from_key("newest"),
            Some(ReviewOrder::NewestFirst)
        );
    }

    #[test]
    fn every_worker_takes_one_move_at_a_time_until_all_are_answered() {
        let mut s = Schedule::new(4, ReviewOrder::FirstToLast);
        assert_eq!((s.take(0), s.take(1)), (Some(0), Some(1)));
        assert_eq!(s.take(0), None, "worker 0 is busy");
        // Answers come in any order; a stale one (another worker's move) is not counted.
        assert!(!s.answered(0, 1));
        assert!(s.answered(1, 1));
        assert_eq!(s.take(1), Some(2));
        assert!(s.answered(0, 0));
        assert!(!s.answered(0, 0), "counted once");
        assert_eq!((s.take(0), s.take(0)), (Some(3), None));
        assert_eq!(s.busy(0), Some(3));
        assert!(s.answered(1, 2) && s.answered(0, 3));
        assert!(s.finished() && s.done() == 4 && s.total() == 4);
        assert_eq!(s.take(2), None);
        assert!(Schedule::new(0, ReviewOrder::NewestFirst).finished());
    }
}
