//! The search worker: a message loop around [`Searcher`], off the page's thread.
//!
//! A worker is single-threaded, so a search that ran to the end of its budget in one go
//! would not hear `Stop` or a newer request until it finished. It runs in slices of about
//! 100 ms instead (the agent's own `think_more`, which keeps its tree between slices),
//! reporting after each one and yielding to the event loop in between.
//!
//! The page never links this crate: it spawns the worker's script by URL and speaks to it
//! through `protocol::SearchWorkerMessages`, which has this worker's messages.

use crate::puzzle::PuzzleSolver;
use crate::search::Searcher;
use gloo_worker::{HandlerId, Worker, WorkerScope};
use protocol::{Input, Output};
use std::time::Duration;

/// How long one slice of search runs before the worker reports and looks at its messages.
const SLICE: Duration = Duration::from_millis(100);

#[derive(Debug)]
pub struct SearchWorker {
    searcher: Searcher,
    puzzles: PuzzleSolver,
    /// Who asked for the search under way.
    asker: Option<HandlerId>,
}

#[derive(Debug)]
pub enum Msg {
    Continue(u64),
    /// One more slice of the warm-up after a network was loaded.
    WarmUp,
}

/// The warm-up's slices: short, so that a search asked meanwhile starts at once.
const WARM_UP_SLICE: Duration = Duration::from_millis(50);

impl SearchWorker {
    fn load_model(&mut self, name: String, onnx: &[u8], card: &str) -> Output {
        let loaded = self.searcher.load_model(name.clone(), onnx, card).map(|l| {
            let parameters = l.network.card().parameters;
            (l.size, l.variant, parameters)
        });
        match loaded {
            Ok((size, variant, parameters)) => Output::ModelLoaded {
                name,
                board_size: size.n(),
                variant,
                parameters,
            },
            Err(error) => Output::ModelRejected { name, error },
        }
    }

    /// Runs one slice of the current search and reports; schedules the next slice unless
    /// the search is finished.
    fn step(&mut self, scope: &WorkerScope<Self>) {
        let (Some(to), Some(id)) = (self.asker, self.searcher.searching()) else {
            return;
        };
        let Some(out) = self.searcher.step(SLICE) else {
            return;
        };
        let more = matches!(out, Output::Progress { .. });
        scope.respond(to, out);
        if more {
            scope.send_future(async move {
                // A zero timeout: lets queued messages (Stop, a new search) in first.
                gloo_timers::future::TimeoutFuture::new(0).await;
                Msg::Continue(id)
            });
        }
    }
}

/// The next warm-up slice, after the messages already queued (a search comes first).
fn warm_up_later(scope: &WorkerScope<SearchWorker>) {
    scope.send_future(async {
        gloo_timers::future::TimeoutFuture::new(0).await;
        Msg::WarmUp
    });
}

impl Worker for SearchWorker {
    type Message = Msg;
    type Input = Input;
    type Output = Output;

    fn create(_scope: &WorkerScope<Self>) -> SearchWorker {
        SearchWorker {
            searcher: Searcher::new(),
            puzzles: PuzzleSolver::default(),
            asker: None,
        }
    }

    fn update(&mut self, scope: &WorkerScope<Self>, msg: Msg) {
        match msg {
            Msg::Continue(id) => {
                if self.searcher.searching() == Some(id) {
                    self.step(scope);
                }
            }
            Msg::WarmUp => {
                if self.searcher.warm_up_more(WARM_UP_SLICE) {
                    warm_up_later(scope);
                }
            }
        }
    }

    fn received(&mut self, scope: &WorkerScope<Self>, msg: Input, who: HandlerId) {
        match msg {
            Input::LoadModel { name, onnx, card } => {
                let out = self.load_model(name, &onnx, &card);
                if let Output::ModelLoaded { name, .. } = &out {
                    // While the player looks at the board, not during the first move.
                    self.searcher.begin_warm_up(name);
                    warm_up_later(scope);
                }
                scope.respond(who, out);
            }
            Input::Search(request) => {
                let id = request.id;
                match self.searcher.start(*request) {
                    Ok(()) => {
                        self.asker = Some(who);
                        self.step(scope);
                    }
                    Err(error) => scope.respond(who, Output::Failed { id, error }),
                }
            }
            Input::Stop { id } => self.searcher.stop(id),
            // One move at a time, at once: a move's review is one search (or a solve) of
            // the review's budget, and the page sends the next move only when this one is
            // answered, so a cancelled review stops after the move under way.
            Input::Review(request) => {
                let (id, index) = (request.id, request.index);
                let out = match self.searcher.review(&request) {
                    Ok(review) => Output::Reviewed { id, index, review },
                    Err(error) => Output::ReviewFailed { id, error },
                };
                scope.respond(who, out);
            }
            // At once, like a review's move: the request's node budget bounds the solve.
            Input::Puzzle(request) => {
                let reply = self.puzzles.answer(&request);
                scope.respond(
                    who,
                    Output::Puzzle {
                        id: request.id,
                        reply,
                    },
                );
            }
            Input::Crash => panic!("the page asked this worker to crash (a test of restarts)"),
            Input::BenchNetwork {
                model,
                batch,
                millis,
            } => {
                let time = Duration::from_millis(u64::from(millis));
                let result = self.searcher.bench_network(&model, batch as usize, time);
                scope.respond(
                    who,
                    Output::Benched {
                        model,
                        batch,
                        result,
                    },
                );
            }
            Input::BenchAlphaBeta {
                model,
                depth,
                millis,
            } => {
                let time = Duration::from_millis(u64::from(millis));
                let result = self.searcher.bench_alphabeta(&model, depth, time);
                scope.respond(
                    who,
                    Output::BenchedAlphaBeta {
                        model,
                        depth,
                        result,
                    },
                );
            }
            Input::BenchTables { model } => {
                let result = self.searcher.bench_tables(&model);
                scope.respond(who, Output::BenchedTables { model, result });
            }
        }
    }
}
