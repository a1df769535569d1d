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
