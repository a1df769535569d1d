//! What the browser tests ask of a worker besides the page's searches: the network alone
//! timed at a batch size (the tests' tract figure), alpha-beta over a pattern network's
//! tables timed at a depth, a search of its own (a match's move, `super::super::lone`),
//! and a crash (to see a dead worker replaced).

use super::Pool;
use protocol::{Input, Report, SearchRequest};

/// Hears a network benchmark's positions a second, or why it could not run.
pub type BenchAnswer = Box<dyn FnOnce(Result<f64, String>)>;

/// Hears a lone search's final report, or why it could not run.
pub type LoneAnswer = Box<dyn FnOnce(Result<Report, String>)>;

impl Pool {
    /// Asks worker `index` to run `model` alone on batches of `batch` for about `millis`;
    /// `done` gets its positions a second, or why not.
    pub fn bench_network(
        &mut self,
        index: usize,
        model: String,
        batch: u32,
        millis: u32,
        done: BenchAnswer,
    ) {
        self.send_bench(
            index,
            Input::BenchNetwork {
                model,
                batch,
                millis,
            },
            done,
        );
    }

    /// Asks worker `index` to search `model`'s tables alpha-beta `depth` plies deep from
    /// the engine's bench positions for about `millis`; `done` gets its nodes a second, or
    /// why not.
    pub fn bench_alphabeta(
        &mut self,
        index: usize,
        model: String,
        depth: u32,
        millis: u32,
        done: BenchAnswer,
    ) {
        self.send_bench(
            index,
            Input::BenchAlphaBeta {
                model,
                depth,
                millis,
            },
            done,
        );
    }

    /// Asks worker `index` to build every stage of `model`'s tables not built yet; `done`
    /// gets the milliseconds that took, or why not.
    pub fn bench_tables(&mut self, index: usize, model: String, done: BenchAnswer) {
        self.send_bench(index, Input::BenchTables { model }, done);
    }

    /// Sends worker `index` a bench and keeps `done` for its answer (one bench at a time).
    fn send_bench(&mut self, index: usize, bench: Input, done: BenchAnswer) {
        let Some(slot) = self.slots.get(index) else {
            done(Err(format!("there is no worker {index}")));
            return;
        };
        slot.bridge.send(bench);
        self.bench = Some(done);
    }

    pub(super) fn on_benched(&mut self, result: Result<f64, String>) {
        if let Some(done) = self.bench.take() {
            done(result);
        }
    }

    /// Sends worker `index` a search of its own, outside the page's (a browser test's match
    /// move: the page must not be searching meanwhile); `done` hears its final report. Its
    /// id is the pool's next, so the page's searches never answer it.
    pub fn search_alone(&mut self, index: usize, mut request: SearchRequest, done: LoneAnswer) {
        if index >= self.slots.len() {
            done(Err(format!("there is no worker {index}")));
            return;
        }
        request.id = self.take_id();
        let id = request.id;
        self.slots[index]
            .bridge
            .send(Input::Search(Box::new(request)));
        self.lone = Some((id, done));
    }

    /// Whether `id` is the lone search's.
    pub(super) fn is_lone(&self, id: u64) -> bool {
        self.lone.as_ref().is_some_and(|(lone, _)| *lone == id)
    }

    pub(super) fn on_lone(&mut self, result: Result<Report, String>) {
        if let Some((_, done)) = self.lone.take() {
            done(result);
        }
    }

    /// Makes one worker panic (for the restart test).
    pub fn crash_worker(&mut self, index: usize) {
        if let Some(slot) = self.slots.get(index) {
            slot.bridge.send(Input::Crash);
        }
    }
}
