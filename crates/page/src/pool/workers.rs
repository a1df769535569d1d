//! The workers themselves, one child module a job: starting them and replacing one that
//! died or went silent (`watchdog`), the networks they hold (`models`), a search plan's
//! jobs and their merged reports (`search`), Puzzle mode's solves (`puzzle`), a game's
//! review (`review`) and the tests' benchmark and crash (`bench`). This module holds the
//! pool they share and routes each worker's messages to the job they answer.
//!
//! Worker messages arrive as browser events; the pool turns them into [`PoolEvent`]s for
//! the page, always after releasing its own borrow (the page may call back into it).

use super::remote::SearchWorker;
use super::PoolEvent;
use crate::simd::WorkerBuild;
use gloo_worker::WorkerBridge;
use protocol::Output;
use std::cell::RefCell;
use std::rc::{Rc, Weak};

mod bench;
mod models;
mod puzzle;
mod review;
mod search;
mod watchdog;

pub use bench::{BenchAnswer, LoneAnswer};
pub use puzzle::PuzzleAnswer;

use models::{NetworkFiles, PendingLoad};
use review::ReviewJob;
use search::Job;

/// A searching worker that has not reported for this long is replaced.
const SEARCH_TIMEOUT_MS: f64 = 4000.0;

struct Slot {
    bridge: WorkerBridge<SearchWorker>,
    generation: u32,
    last_heard: f64,
    /// Loads of models resent after a restart: their answers are not news for the view.
    silent_loads: usize,
    loading_since: Option<f64>,
}

pub struct Pool {
    slots: Vec<Slot>,
    /// The networks every worker holds, resent to a replacement worker.
    networks: Vec<NetworkFiles>,
    pending: Vec<PendingLoad>,
    /// The workers' parts of the search under way. What is searched, as the page knows
    /// it, is the view's (`View::searching`); this is only whom to ask and what came back.
    job: Option<Job>,
    next_id: u64,
    on_event: Rc<dyn Fn(PoolEvent)>,
    me: Weak<RefCell<Pool>>,
    /// Who hears the answer to the network benchmark under way.
    bench: Option<BenchAnswer>,
    /// A browser test's search of its own under way (its id, and who hears its end).
    lone: Option<(u64, LoneAnswer)>,
    /// The worker build this browser runs (relaxed SIMD where it has it).
    build: WorkerBuild,
    review: Option<ReviewJob>,
    /// The puzzle solves asked (their ids, and who hears each answer), answered in order
    /// by the one worker they go to.
    puzzles: Vec<(u64, PuzzleAnswer)>,
}

/// A summary: the workers and the callbacks have no useful text.
impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("workers", &self.slots.len())
            .field("networks", &self.networks.len())
            .field("searching", &self.job.is_some())
            .finish_non_exhaustive()
    }
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

impl Pool {
    /// Starts `workers` workers and their watchdog; `on_event` hears everything the page
    /// needs.
    pub fn new(workers: usize, on_event: impl Fn(PoolEvent) + 'static) -> Rc<RefCell<Pool>> {
        let pool = Rc::new(RefCell::new(Pool {
            slots: Vec::new(),
            networks: Vec::new(),
            pending: Vec::new(),
            job: None,
            next_id: 1,
            on_event: Rc::new(on_event),
            me: Weak::new(),
            bench: None,
            lone: None,
            build: WorkerBuild::detect(),
            review: None,
            puzzles: Vec::new(),
        }));
        {
            let mut p = pool.borrow_mut();
            p.me = Rc::downgrade(&pool);
            for index in 0..workers.max(1) {
                let slot = p.spawn(index, 0);
                p.slots.push(slot);
            }
        }
        watchdog::watch(&pool);
        pool
    }

    pub fn worker_count(&self) -> usize {
        self.slots.len()
    }

    pub fn worker_build(&self) -> WorkerBuild {
        self.build
    }

    /// A new id for a request to the workers (a search, a review, a solve).
    fn take_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Hands worker `index`'s message to the job it answers.
    fn on_output(&mut self, index: usize, generation: u32, out: Output) -> Vec<PoolEvent> {
        let Some(slot) = self.slots.get_mut(index) else {
            return vec![];
        };
        if slot.generation != generation {
            return vec![];
        }
        slot.last_heard = now();
        match out {
            Output::ModelLoaded { name, .. } => self.on_load(index, name, None),
            Output::ModelRejected { name, error } => self.on_load(index, name, Some(error)),
            Output::Benched { result, .. }
            | Output::BenchedAlphaBeta { result, .. }
            | Output::BenchedTables { result, .. } => {
                self.on_benched(result);
                vec![]
            }
            Output::Reviewed {
                id,
                index: move_index,
                review,
            } => self.on_reviewed(index, id, move_index, review),
            Output::ReviewFailed { id, error } => self.on_review_failed(index, id, error),
            Output::Puzzle { id, reply } => {
                self.on_puzzle(id, reply);
                vec![]
            }
            Output::Progress { id, .. } if self.is_lone(id) => vec![],
            Output::Done { id, report } if self.is_lone(id) => {
                self.on_lone(Ok(report));
                vec![]
            }
            Output::Failed { id, error } if self.is_lone(id) => {
                self.on_lone(Err(error));
                vec![]
            }
            Output::Progress { id, report } => self.on_report(index, id, report, false),
            Output::Done { id, report } => self.on_report(index, id, report, true),
            Output::Failed { id, error } => self.on_failed(id, error),
        }
    }

    /// Sends the page the events a change made, once the pool is no longer borrowed.
    fn emit(pool: &Rc<RefCell<Pool>>, events: Vec<PoolEvent>) {
        let emit = pool.borrow().on_event.clone();
        for event in events {
            emit(event);
        }
    }
}

/// A seed from the browser's random source (`crypto.getRandomValues`, via getrandom), so
/// that two searches of one position grow different noisy trees.
pub fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    // Without a random source the searches are merely repeatable.
    let _ = getrandom::fill(&mut bytes);
    u64::from_le_bytes(bytes)
}
