//! A search in the workers: the plan's jobs sent out (`levels::SearchPlan` decides who
//! takes part, with what budget and seed), their reports merged into one (`merge`) and
//! sent to the page at most every [`EMIT_INTERVAL_MS`], and a part restarted with what is
//! left of it when its worker is replaced.

use super::{now, random_seed, Pool, SEARCH_TIMEOUT_MS};
use crate::levels::{alphabeta_millis, question, SearchPlan, WorkerJob};
use crate::merge::merge;
use crate::pool::{PoolEvent, Purpose};
use engine::PlayerSpec;
use othello::Position;
use protocol::{EngineKind, Input, Report, SearchRequest, WireBudget};

/// The view is redrawn at most this often while workers report.
const EMIT_INTERVAL_MS: f64 = 90.0;

/// The plan's job for one worker, and what came of it.
struct Part {
    slot: usize,
    job: WorkerJob,
    report: Option<Report>,
    done: bool,
}

/// The search under way, as the workers hold it.
pub(super) struct Job {
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

impl Job {
    fn request(&self, part: &Part) -> SearchRequest {
        SearchRequest {
            id: self.id,
            board: self.position.to_board_text(),
            variant: self.position.variant(),
            player: part.job.spec.clone(),
            budget: part.job.budget,
            seed: part.job.seed,
            // An analysis the solver settled gives every move its margin, as a hint does
            // (the twelfth look: "?" on every other move under "finished").
            every_move: matches!(self.purpose, Purpose::Hint | Purpose::Analysis),
        }
    }

    /// Asks the workers whose parts are still running to stop and answer.
    fn stop_parts(&self, pool: &Pool) {
        for part in self.parts.iter().filter(|p| !p.done) {
            pool.slots[part.slot]
                .bridge
                .send(Input::Stop { id: self.id });
        }
    }
}

impl Pool {
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
        let id = self.take_id();
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
            slot.bridge.send(Input::Search(Box::new(job.request(part))));
        }
        self.job = Some(job);
    }

    /// Asks every worker still searching to stop and answer with what it has (a person's
    /// Stop): the search ends now and its results stand, unlike [`Pool::stop`], which
    /// drops them. A worker answers a Stop between two slices, a root proof's included.
    pub fn finish_now(&mut self) {
        if let Some(job) = self.job.as_ref() {
            job.stop_parts(self);
        }
    }

    /// Ends the running search, if any; its results are dropped.
    pub fn stop(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop_parts(self);
        }
    }

    /// Ends the running search, dropping its results, unless it is a hint for the position
    /// `hash` (a hint for the position on the board may keep running when the game wants
    /// nothing searched); says whether a search ended.
    pub fn stop_unless_hint(&mut self, hash: u64) -> bool {
        let ends = self
            .job
            .as_ref()
            .is_some_and(|j| !(j.purpose == Purpose::Hint && j.hash == hash));
        if ends {
            self.stop();
        }
        ends
    }

    /// Worker `index` reported on search `id`: the merged reports go to the page now and
    /// then, and at the end.
    pub(super) fn on_report(
        &mut self,
        index: usize,
        id: u64,
        report: Report,
        done: bool,
    ) -> Vec<PoolEvent> {
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

    /// Search `id` could not run: the page hears why, and the other parts, which would
    /// fail alike, stop.
    pub(super) fn on_failed(&mut self, id: u64, error: String) -> Vec<PoolEvent> {
        let Some(job) = self.job.as_ref().filter(|j| j.id == id) else {
            return vec![];
        };
        let event = PoolEvent::Failed {
            purpose: job.purpose,
            position: job.hash,
            size: job.position.size(),
            variant: job.position.variant(),
            error,
        };
        self.stop();
        vec![event]
    }

    /// Whether worker `index` has a part of the search still running.
    pub(super) fn searches_on(&self, index: usize) -> bool {
        self.job
            .as_ref()
            .is_some_and(|j| j.parts.iter().any(|p| p.slot == index && !p.done))
    }

    /// How long worker `index` may be silent in a search before it is replaced.
    pub(super) fn search_timeout(&self) -> f64 {
        // Alpha-beta says nothing until it has its move.
        match &self.job {
            Some(job) if job.plan.engine == EngineKind::AlphaBeta => {
                let budget = job
                    .parts
                    .first()
                    .map_or(WireBudget::default(), |p| p.job.budget);
                SEARCH_TIMEOUT_MS + alphabeta_millis(budget) as f64
            }
            _ => SEARCH_TIMEOUT_MS,
        }
    }

    /// Gives the worker that replaced worker `index` what is left of its part (what the
    /// dead worker found is lost with its tree).
    pub(super) fn resume_search(&mut self, index: usize, t: f64) {
        let Some(job) = self.job.as_mut() else {
            return;
        };
        let resumed = job.plan.resumed(index, t - job.started);
        let part = job.parts.iter().position(|p| p.slot == index && !p.done);
        if let (Some(i), Some(resumed)) = (part, resumed) {
            let part = &mut job.parts[i];
            part.job = resumed;
            part.report = None;
            let request = job.request(&job.parts[i]);
            self.slots[index]
                .bridge
                .send(Input::Search(Box::new(request)));
        }
    }
}
