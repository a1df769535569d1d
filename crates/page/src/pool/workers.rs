//! The workers themselves: the pool that sends them a search plan's jobs and merges their
//! reports, the networks they hold, and a watchdog that replaces a worker that died or
//! went silent.
//!
//! Worker messages arrive as browser events; the pool turns them into [`PoolEvent`]s for
//! the view, always after releasing its own borrow (the view may call back into it).

use super::remote::SearchWorker;
use super::{PoolEvent, Purpose};
use crate::levels::{alphabeta_millis, question, SearchPlan, WorkerJob};
use crate::merge::merge;
use crate::simd::WorkerBuild;
use engine::PlayerSpec;
use gloo_worker::{Spawnable, WorkerBridge};
use othello::{BoardSize, Position, Variant};
use protocol::{
    EngineKind, Input, Output, PuzzleAsk, PuzzleReply, PuzzleRequest, Report, SearchRequest,
    WireBudget,
};
use std::cell::RefCell;
use std::rc::{Rc, Weak};

mod review;

use review::ReviewJob;

/// A searching worker that has not reported for this long is replaced.
const SEARCH_TIMEOUT_MS: f64 = 4000.0;
/// How much longer the worker with puzzle solves queued may stay silent in a search.
const PUZZLE_TIMEOUT_MS: f64 = 60000.0;
/// Building a network (tract optimises the graph) can take a while on a slow machine.
const LOAD_TIMEOUT_MS: f64 = 30000.0;
/// The view is redrawn at most this often while workers report.
const EMIT_INTERVAL_MS: f64 = 90.0;

struct Slot {
    bridge: WorkerBridge<SearchWorker>,
    generation: u32,
    last_heard: f64,
    /// Loads of models resent after a restart: their answers are not news for the view.
    silent_loads: usize,
    loading_since: Option<f64>,
}

#[derive(Clone)]
struct NetworkFiles {
    name: String,
    size: BoardSize,
    variant: Variant,
    onnx: Rc<Vec<u8>>,
    card: String,
}

struct PendingLoad {
    files: NetworkFiles,
    answers: usize,
    error: Option<String>,
}

/// The plan's job for one worker, and what came of it.
struct Part {
    slot: usize,
    job: WorkerJob,
    report: Option<Report>,
    done: bool,
}

struct Job {
    id: u64,
    purpose: Purpose,
    position: Position,
    hash: u64,
    /// Kept to restart a part with what is left of it.
    plan: SearchPlan,
    parts: Vec<Part>,
    started: f64,
    last_emit: f64,
}

/// Hears a network benchmark's positions a second, or why it could not run.
pub type BenchAnswer = Box<dyn FnOnce(Result<f64, String>)>;

/// Hears what a puzzle's solve found.
pub type PuzzleAnswer = Box<dyn FnOnce(PuzzleReply)>;

pub struct Pool {
    slots: Vec<Slot>,
    /// The networks every worker holds, resent to a replacement worker.
    networks: Vec<NetworkFiles>,
    pending: Vec<PendingLoad>,
    job: Option<Job>,
    next_id: u64,
    on_event: Rc<dyn Fn(PoolEvent)>,
    me: Weak<RefCell<Pool>>,
    /// Who hears the answer to the network benchmark under way.
    bench: Option<BenchAnswer>,
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
            .field("searching", &self.job.as_ref().map(|job| job.id))
            .finish_non_exhaustive()
    }
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

impl Pool {
    /// Starts `workers` workers; `on_event` hears everything the view needs.
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
        let watched = Rc::downgrade(&pool);
        // The watchdog lives as long as the page.
        gloo_timers::callback::Interval::new(500, move || {
            if let Some(pool) = watched.upgrade() {
                let events = pool.borrow_mut().check_workers();
                let emit = pool.borrow().on_event.clone();
                for event in events {
                    emit(event);
                }
            }
        })
        .forget();
        pool
    }

    pub fn worker_count(&self) -> usize {
        self.slots.len()
    }

    pub fn worker_build(&self) -> WorkerBuild {
        self.build
    }

    fn spawn(&self, index: usize, generation: u32) -> Slot {
        let me = self.me.clone();
        let bridge = SearchWorker::spawner()
            .as_module(false)
            .with_loader(true)
            .callback(move |out| {
                let Some(pool) = me.upgrade() else {
                    return;
                };
                let events = pool.borrow_mut().on_output(index, generation, out);
                let emit = pool.borrow().on_event.clone();
                for event in events {
                    emit(event);
                }
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

    /// Sends a network to every worker; the answer comes as `ModelLoaded` or
    /// `ModelRejected`.
    pub fn load_model(
        &mut self,
        name: String,
        size: BoardSize,
        variant: Variant,
        onnx: Rc<Vec<u8>>,
        card: String,
    ) {
        let files = NetworkFiles {
            name: name.clone(),
            size,
            variant,
            onnx,
            card,
        };
        let t = now();
        for slot in &mut self.slots {
            slot.loading_since.get_or_insert(t);
            slot.bridge.send(Input::LoadModel {
                name: name.clone(),
                onnx: files.onnx.as_ref().clone(),
                card: files.card.clone(),
            });
        }
        self.pending.retain(|p| p.files.name != name);
        self.pending.push(PendingLoad {
            files,
            answers: 0,
            error: None,
        });
    }

    /// Starts a search of `position` by `player` (a spec the engine's builder builds in
    /// each worker), replacing any running one.
    pub fn search(
        &mut self,
        purpose: Purpose,
        position: &Position,
        budget: WireBudget,
        player: PlayerSpec,
    ) {
        self.stop();
        let id = self.next_id;
        self.next_id += 1;
        // A hint and analysis ask for the best move; only the agent's own move is a
        // player's, which plays a proven win at once.
        let player = match purpose {
            Purpose::Move => player,
            Purpose::Hint | Purpose::Analysis => question(&player),
        };
        let plan = SearchPlan::new(
            &player,
            budget,
            position.size(),
            self.slots.len(),
            random_seed(),
        );
        let parts: Vec<Part> = plan
            .jobs
            .iter()
            .enumerate()
            .map(|(slot, job)| Part {
                slot,
                job: job.clone(),
                report: None,
                done: false,
            })
            .collect();
        let t = now();
        let job = Job {
            id,
            purpose,
            position: *position,
            hash: position.hash(),
            plan,
            parts,
            started: t,
            last_emit: 0.0,
        };
        for part in &job.parts {
            let slot = &mut self.slots[part.slot];
            slot.last_heard = slot.last_heard.max(t);
            slot.bridge
                .send(Input::Search(Box::new(request(&job, part))));
        }
        self.job = Some(job);
    }

    /// Asks every worker still searching to stop and answer with what it has (a person's
    /// Stop): the search ends now and its results stand, unlike [`Pool::stop`], which
    /// drops them. A worker answers a Stop between two slices, a root proof's included.
    pub fn finish_now(&mut self) {
        if let Some(job) = self.job.as_ref() {
            for part in job.parts.iter().filter(|p| !p.done) {
                self.slots[part.slot]
                    .bridge
                    .send(Input::Stop { id: job.id });
            }
        }
    }

    /// Ends the running search, if any; its results are dropped.
    pub fn stop(&mut self) {
        if let Some(job) = self.job.take() {
            for part in job.parts.iter().filter(|p| !p.done) {
                self.slots[part.slot]
                    .bridge
                    .send(Input::Stop { id: job.id });
            }
        }
    }

    pub fn searching(&self) -> Option<(Purpose, u64)> {
        self.job.as_ref().map(|j| (j.purpose, j.hash))
    }

    /// Asks worker `index` to run `model` alone on batches of `batch` for about `millis`;
    /// `done` gets its positions a second, or why not (the browser tests' tract figure).
    pub fn bench_network(
        &mut self,
        index: usize,
        model: String,
        batch: u32,
        millis: u32,
        done: BenchAnswer,
    ) {
        let Some(slot) = self.slots.get(index) else {
            done(Err(format!("there is no worker {index}")));
            return;
        };
        slot.bridge.send(Input::BenchNetwork {
            model,
            batch,
            millis,
        });
        self.bench = Some(done);
    }

    /// Asks the last worker (the one a search plan gives work last) to solve `position`
    /// for Puzzle mode; `done` hears the answer. It is called while the pool is borrowed,
    /// so it may dispatch to the page's reducers but not ask the pool again.
    pub fn solve_puzzle(
        &mut self,
        position: &Position,
        ask: PuzzleAsk,
        max_nodes: u64,
        done: PuzzleAnswer,
    ) {
        let Some(slot) = self.slots.last() else {
            done(PuzzleReply::Failed(
                "no search worker is running".to_owned(),
            ));
            return;
        };
        let id = self.next_id;
        self.next_id += 1;
        slot.bridge.send(Input::Puzzle(Box::new(PuzzleRequest {
            id,
            board: position.to_board_text(),
            variant: position.variant(),
            ask,
            max_nodes,
        })));
        self.puzzles.push((id, done));
    }

    /// Makes one worker panic (for the restart test).
    pub fn crash_worker(&mut self, index: usize) {
        if let Some(slot) = self.slots.get(index) {
            slot.bridge.send(Input::Crash);
        }
    }

    fn on_output(&mut self, index: usize, generation: u32, out: Output) -> Vec<PoolEvent> {
        let Some(slot) = self.slots.get_mut(index) else {
            return vec![];
        };
        if slot.generation != generation {
            return vec![];
        }
        slot.last_heard = now();
        match out {
            Output::ModelLoaded { name, .. } | Output::ModelRejected { name, .. }
                if slot.silent_loads > 0 =>
            {
                let _ = name;
                slot.silent_loads -= 1;
                if slot.silent_loads == 0 {
                    slot.loading_since = None;
                }
                vec![]
            }
            Output::ModelLoaded { name, .. } => {
                slot.loading_since = None;
                self.answer_load(name, None)
            }
            Output::ModelRejected { name, error } => {
                slot.loading_since = None;
                self.answer_load(name, Some(error))
            }
            Output::Benched { result, .. } => {
                if let Some(done) = self.bench.take() {
                    done(result);
                }
                vec![]
            }
            Output::Reviewed {
                id,
                index: move_index,
                review,
            } => self.on_reviewed(index, id, move_index, review),
            Output::ReviewFailed { id, error } => match self.review.take() {
                Some(job) if job.id == id => vec![PoolEvent::ReviewEnded {
                    id,
                    error: Some(error),
                }],
                other => {
                    self.review = other;
                    vec![]
                }
            },
            Output::Puzzle { id, reply } => {
                if let Some(i) = self.puzzles.iter().position(|(asked, _)| *asked == id) {
                    let (_, done) = self.puzzles.remove(i);
                    done(reply);
                }
                vec![]
            }
            Output::Progress { id, report } => self.on_report(index, id, report, false),
            Output::Done { id, report } => self.on_report(index, id, report, true),
            Output::Failed { id, error } => match self.job.take() {
                Some(job) if job.id == id => {
                    let event = PoolEvent::Failed {
                        purpose: job.purpose,
                        position: job.hash,
                        size: job.position.size(),
                        variant: job.position.variant(),
                        error,
                    };
                    // The other parts would fail alike; stop them.
                    self.job = Some(job);
                    self.stop();
                    vec![event]
                }
                other => {
                    self.job = other;
                    vec![]
                }
            },
        }
    }

    fn answer_load(&mut self, name: String, error: Option<String>) -> Vec<PoolEvent> {
        let workers = self.slots.len();
        let Some(i) = self.pending.iter().position(|p| p.files.name == name) else {
            return vec![];
        };
        let pending = &mut self.pending[i];
        pending.answers += 1;
        if pending.error.is_none() {
            pending.error = error;
        }
        if pending.answers < workers {
            return vec![];
        }
        let pending = self.pending.remove(i);
        match pending.error {
            Some(error) => vec![PoolEvent::ModelRejected { name, error }],
            None => {
                let files = pending.files;
                self.networks
                    .retain(|n| !(n.size == files.size && n.variant == files.variant));
                let event = PoolEvent::ModelLoaded {
                    name,
                    size: files.size,
                    variant: files.variant,
                };
                self.networks.push(files);
                vec![event]
            }
        }
    }

    fn on_report(&mut self, index: usize, id: u64, report: Report, done: bool) -> Vec<PoolEvent> {
        let Some(job) = self.job.as_mut().filter(|j| j.id == id) else {
            return vec![];
        };
        let Some(part) = job.parts.iter_mut().find(|p| p.slot == index) else {
            return vec![];
        };
        let settled = done && report.search.solved.is_some();
        part.report = Some(report);
        part.done |= done;
        if settled {
            // A worker that settled the root (a solve, or the first worker's proof of the
            // whole root) has decided the move, which the merge plays whatever the other
            // trees say: the others stop and answer now instead of at the end of their
            // time.
            for other in job.parts.iter().filter(|p| !p.done) {
                self.slots[other.slot].bridge.send(Input::Stop { id });
            }
        }
        let all_done = job.parts.iter().all(|p| p.done);
        let t = now();
        if !all_done && t - job.last_emit < EMIT_INTERVAL_MS {
            return vec![];
        }
        job.last_emit = t;
        let Some(merged) = merge(job.parts.iter().filter_map(|p| p.report.as_ref())) else {
            return vec![];
        };
        let (purpose, position) = (job.purpose, job.hash);
        if all_done {
            self.job = None;
            vec![PoolEvent::Done {
                purpose,
                position,
                merged,
            }]
        } else {
            vec![PoolEvent::Progress {
                purpose,
                position,
                merged,
            }]
        }
    }

    /// How long worker `index` may be silent in a search before it is replaced.
    fn search_timeout(&self, index: usize) -> f64 {
        // Alpha-beta says nothing until it has its move.
        let timeout = match &self.job {
            Some(job) if job.plan.engine == EngineKind::AlphaBeta => {
                let budget = job
                    .parts
                    .first()
                    .map_or(WireBudget::default(), |p| p.job.budget);
                SEARCH_TIMEOUT_MS + alphabeta_millis(budget) as f64
            }
            _ => SEARCH_TIMEOUT_MS,
        };
        // A worker proving a player's mistakes answers each at once but may be busy for
        // seconds with them before it hears a search: not silent, working.
        if self.puzzles.is_empty() || index + 1 != self.slots.len() {
            timeout
        } else {
            timeout + PUZZLE_TIMEOUT_MS
        }
    }

    /// The puzzle solves a replaced worker held die with it: each asker hears so, and
    /// none waits on.
    fn fail_puzzles_of(&mut self, index: usize) {
        if index + 1 == self.slots.len() {
            for (_, done) in std::mem::take(&mut self.puzzles) {
                done(PuzzleReply::Failed("the worker was restarted".to_owned()));
            }
        }
    }

    /// Replaces workers that have been silent too long while they had work.
    fn check_workers(&mut self) -> Vec<PoolEvent> {
        let t = now();
        let mut events = Vec::new();
        for index in 0..self.slots.len() {
            let slot = &self.slots[index];
            let searching = self
                .job
                .as_ref()
                .is_some_and(|j| j.parts.iter().any(|p| p.slot == index && !p.done));
            let timeout = self.search_timeout(index);
            let review_timeout = self
                .review
                .as_ref()
                .and_then(|r| r.sent_to(index).map(|sent| (r.timeout_ms(), sent)));
            let stale_review = review_timeout.is_some_and(|(limit, sent)| {
                slot.loading_since.is_none() && t - slot.last_heard.max(sent) > limit
            });
            let stale_search =
                (searching && slot.loading_since.is_none() && t - slot.last_heard > timeout)
                    || stale_review;
            let stale_load = slot
                .loading_since
                .is_some_and(|since| t - since.max(slot.last_heard) > LOAD_TIMEOUT_MS);
            if !(stale_search || stale_load) {
                continue;
            }
            let generation = slot.generation + 1;
            let mut fresh = self.spawn(index, generation);
            for files in &self.networks {
                fresh.silent_loads += 1;
                fresh.loading_since.get_or_insert(t);
                fresh.bridge.send(Input::LoadModel {
                    name: files.name.clone(),
                    onnx: files.onnx.as_ref().clone(),
                    card: files.card.clone(),
                });
            }
            // Loads still in flight go to the new worker too; its answer stands in for the
            // one the old worker will never give.
            for pending in &self.pending {
                fresh.loading_since.get_or_insert(t);
                fresh.bridge.send(Input::LoadModel {
                    name: pending.files.name.clone(),
                    onnx: pending.files.onnx.as_ref().clone(),
                    card: pending.files.card.clone(),
                });
            }
            // The old bridge is dropped here, which asks the old worker to close.
            self.slots[index] = fresh;
            if let Some(job) = self.job.as_mut() {
                let resumed = job.plan.resumed(index, t - job.started);
                let part = job.parts.iter().position(|p| p.slot == index && !p.done);
                if let (Some(i), Some(resumed)) = (part, resumed) {
                    let part = &mut job.parts[i];
                    part.job = resumed;
                    // What the dead worker found is lost with its tree.
                    part.report = None;
                    let request = request(job, &job.parts[i]);
                    self.slots[index]
                        .bridge
                        .send(Input::Search(Box::new(request)));
                }
            }
            self.resend_review(index);
            self.fail_puzzles_of(index);
            events.push(PoolEvent::WorkerRestarted { index });
        }
        events
    }
}

fn request(job: &Job, part: &Part) -> SearchRequest {
    SearchRequest {
        id: job.id,
        board: job.position.to_board_text(),
        variant: job.position.variant(),
        player: part.job.spec.clone(),
        budget: part.job.budget,
        seed: part.job.seed,
        every_move: job.purpose == Purpose::Hint,
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
