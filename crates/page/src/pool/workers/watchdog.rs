//! Starting a worker, and the watchdog that replaces one that died or went silent while it
//! had work: the replacement gets the networks, the part of the search, the review's move
//! and the news of the puzzle solves the old one held.

use super::{now, Pool, Slot};
use crate::pool::remote::SearchWorker;
use crate::pool::PoolEvent;
use gloo_worker::Spawnable;
use std::cell::RefCell;
use std::rc::Rc;

/// Building a network (tract optimises the graph) can take a while on a slow machine.
const LOAD_TIMEOUT_MS: f64 = 30000.0;
/// How often the watchdog looks.
const WATCH_MS: u32 = 500;

/// Looks at the workers every [`WATCH_MS`] for as long as the page lives.
pub(super) fn watch(pool: &Rc<RefCell<Pool>>) {
    let watched = Rc::downgrade(pool);
    gloo_timers::callback::Interval::new(WATCH_MS, move || {
        if let Some(pool) = watched.upgrade() {
            let events = pool.borrow_mut().check_workers();
            Pool::emit(&pool, events);
        }
    })
    .forget();
}

impl Pool {
    /// Starts worker `index` (its `generation`th start), whose messages reach
    /// [`Pool::on_output`] while it is the one in its slot.
    pub(super) fn spawn(&self, index: usize, generation: u32) -> Slot {
        let me = self.me.clone();
        let bridge = SearchWorker::spawner()
            .as_module(false)
            .with_loader(true)
            .callback(move |out| {
                let Some(pool) = me.upgrade() else {
                    return;
                };
                let events = pool.borrow_mut().on_output(index, generation, out);
                Pool::emit(&pool, events);
            })
            // Our own loader (www/worker-loader.js): gloo-worker's and Trunk's generated
            // ones call wasm-bindgen's init with a bare URL, which it warns about as
            // deprecated.
            .spawn(self.build.script());
        Slot {
            bridge,
            generation,
            last_heard: now(),
            silent_loads: 0,
            loading_since: None,
        }
    }

    /// Replaces workers that have been silent too long while they had work.
    fn check_workers(&mut self) -> Vec<PoolEvent> {
        let t = now();
        let mut events = Vec::new();
        for index in 0..self.slots.len() {
            if self.stale(index, t) {
                events.push(PoolEvent::WorkerRestarted { index });
                events.extend(self.restart(index, t));
            }
        }
        events
    }

    /// Whether worker `index` has been silent too long in a search, a review's move or a
    /// network's load.
    fn stale(&self, index: usize, t: f64) -> bool {
        let slot = &self.slots[index];
        let review_timeout = self
            .review
            .as_ref()
            .and_then(|r| r.sent_to(index).map(|sent| (r.timeout_ms(), sent)));
        let stale_review = review_timeout.is_some_and(|(limit, sent)| {
            slot.loading_since.is_none() && t - slot.last_heard.max(sent) > limit
        });
        let timeout = self.search_timeout() + self.puzzle_grace(index);
        let stale_search = (self.searches_on(index)
            && slot.loading_since.is_none()
            && t - slot.last_heard > timeout)
            || stale_review;
        let stale_load = slot
            .loading_since
            .is_some_and(|since| t - since.max(slot.last_heard) > LOAD_TIMEOUT_MS);
        stale_search || stale_load
    }

    /// A fresh worker in slot `index`, given what the old one held; what the review says
    /// if the move it held has silenced too many workers.
    fn restart(&mut self, index: usize, t: f64) -> Vec<PoolEvent> {
        let generation = self.slots[index].generation + 1;
        let mut fresh = self.spawn(index, generation);
        self.send_networks(&mut fresh, t);
        // The old bridge is dropped here, which asks the old worker to close.
        self.slots[index] = fresh;
        self.resume_search(index, t);
        let stopped = self.resend_review(index);
        self.fail_puzzles_of(index);
        stopped
    }
}
