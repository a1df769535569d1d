//! The search worker: runs MCTS (or the alpha-beta fallback) off the page's thread.
//!
//! A worker is single-threaded, so a search that ran to the end of its budget in one go
//! would not hear `Stop` or a newer request until it finished. It runs in slices of about
//! 100 ms instead (each a call to `Mcts::search`, which keeps its tree between calls),
//! reporting after each one and yielding to the event loop in between.
//!
//! tract is linked only when the `worker` feature is on (the worker binary). The page's
//! build compiles this module too, for the message types, but never runs it.

use crate::levels::alphabeta_millis;
use crate::protocol::{EngineKind, Input, Output, Report, SearchRequest};
use engine::players::AlphaBetaPlayer;
use engine::{Agent, Budget};
use gloo_worker::{HandlerId, Worker, WorkerScope};
use othello::{BoardSize, Position, Variant};
use std::time::Duration;
use web_time::Instant;

/// How long one slice of search runs before the worker reports and looks at its messages.
const SLICE: Duration = Duration::from_millis(100);

/// Positions with this many empty squares or fewer are solved exactly inside the search.
#[cfg(feature = "worker")]
const EXACT_EMPTIES: u32 = 8;

#[cfg(feature = "worker")]
type NetSearch = engine::Mcts<engine::onnx::OnnxEvaluator>;

/// Stands in for the network search in the page's build, which has no tract.
#[cfg(not(feature = "worker"))]
type NetSearch = engine::Mcts<engine::HeuristicEvaluator>;

struct Network {
    size: BoardSize,
    variant: Variant,
    parameters: Option<u64>,
    mcts: NetSearch,
}

struct Job {
    request: SearchRequest,
    position: Position,
    to: HandlerId,
    simulations: u64,
    clock: Instant,
    stop: bool,
    last: Option<Report>,
    slices: u32,
}

pub struct SearchWorker {
    networks: Vec<Network>,
    alphabeta: AlphaBetaPlayer,
    job: Option<Job>,
    /// Differs between workers, so root-parallel trees draw different noise.
    #[cfg_attr(not(feature = "worker"), allow(dead_code))]
    seed: u64,
}

pub enum Msg {
    Continue(u64),
}

fn random_seed() -> u64 {
    (js_sys::Math::random() * 9_007_199_254_740_992.0) as u64
}

impl SearchWorker {
    fn load_model(&mut self, name: String, onnx: &[u8], card: &str) -> Output {
        match self.build_network(onnx, card) {
            Ok(network) => {
                let out = Output::ModelLoaded {
                    name,
                    board_size: network.size.n(),
                    variant: network.variant,
                    parameters: network.parameters,
                };
                self.networks
                    .retain(|n| !(n.size == network.size && n.variant == network.variant));
                self.networks.push(network);
                out
            }
            Err(error) => Output::ModelRejected { name, error },
        }
    }

    #[cfg(feature = "worker")]
    fn build_network(&self, onnx: &[u8], card: &str) -> Result<Network, String> {
        use engine::model_card::ModelCard;
        use engine::onnx::{OnnxEvaluator, OnnxModel};
        let card = ModelCard::from_json(card).map_err(|e| e.to_string())?;
        let parameters = card.parameters;
        let model = OnnxModel::from_bytes(onnx, card).map_err(|e| e.to_string())?;
        let (size, variant) = (
            model.board_size(),
            model.card().variant().map_err(|e| e.to_string())?,
        );
        let config = engine::MctsConfig {
            seed: self.seed,
            // Reports come from the worker's slices, not from inside the search.
            progress_interval: Duration::from_secs(3600),
            ..engine::MctsConfig::default()
        };
        let mut solver = engine::Solver::with_table_bits(16);
        let mcts = engine::Mcts::new(OnnxEvaluator::new(std::sync::Arc::new(model)), config)
            .with_exact_solver(
                EXACT_EMPTIES,
                Box::new(move |pos: &Position| Some(solver.solve(pos).margin)),
            );
        Ok(Network {
            size,
            variant,
            parameters,
            mcts,
        })
    }

    #[cfg(not(feature = "worker"))]
    fn build_network(&self, _onnx: &[u8], _card: &str) -> Result<Network, String> {
        Err("this build of the worker has no network support".to_owned())
    }

    fn start(&mut self, scope: &WorkerScope<Self>, request: SearchRequest, to: HandlerId) {
        let id = request.id;
        match request.position() {
            Ok(position) if !position.is_game_over() => {
                self.job = Some(Job {
                    request,
                    position,
                    to,
                    simulations: 0,
                    clock: Instant::now(),
                    stop: false,
                    last: None,
                    slices: 0,
                });
                self.step(scope);
            }
            Ok(_) => scope.respond(
                to,
                Output::Failed {
                    id,
                    error: "the game is over: nothing to search".to_owned(),
                },
            ),
            Err(error) => scope.respond(to, Output::Failed { id, error }),
        }
    }

    /// Runs one slice of the current search, then reports; schedules the next slice
    /// unless the search is finished.
    fn step(&mut self, scope: &WorkerScope<Self>) {
        let Some(job) = self.job.as_mut() else {
            return;
        };
        let id = job.request.id;
        let budget = job.request.budget;
        if job.stop {
            if let Some(report) = job.last.take() {
                scope.respond(job.to, Output::Done { id, report });
                self.job = None;
                return;
            }
        }
        let outcome =
            match job.request.engine {
                EngineKind::AlphaBeta => {
                    let ms = alphabeta_millis(budget);
                    let mv = self
                        .alphabeta
                        .select_move(&job.position, &Budget::time(Duration::from_millis(ms)));
                    let elapsed = job.clock.elapsed().as_secs_f64() * 1000.0;
                    Ok((Report::single(mv, elapsed), true))
                }
                EngineKind::Network => {
                    let alphabeta = &mut self.alphabeta;
                    let Some(network) = self.networks.iter_mut().find(|n| {
                        n.size == job.position.size() && n.variant == job.position.variant()
                    }) else {
                        let error = format!(
                            "no network is loaded for {} {}",
                            job.position.size(),
                            job.position.variant()
                        );
                        scope.respond(job.to, Output::Failed { id, error });
                        self.job = None;
                        return;
                    };
                    // Noise once per search: every slice calls `search`, which mixes noise in.
                    network.mcts.config_mut().dirichlet_alpha =
                        if job.request.noise && job.slices == 0 {
                            0.3
                        } else {
                            0.0
                        };
                    let elapsed = job.clock.elapsed();
                    let time_left = budget
                        .millis
                        .map(|ms| Duration::from_millis(ms).saturating_sub(elapsed));
                    let sims_left = budget
                        .simulations
                        .map(|n| n.saturating_sub(job.simulations));
                    let slice = Budget {
                        depth: None,
                        simulations: Some(sims_left.unwrap_or(u64::MAX).max(1)),
                        time: Some(time_left.unwrap_or(SLICE).min(SLICE)),
                    };
                    network
                        .mcts
                        .search(&job.position, &slice, &mut |_| true)
                        .map(|info| {
                            job.simulations += info.simulations;
                            job.slices += 1;
                            let elapsed = job.clock.elapsed();
                            let finished = job.stop
                                || info.proof.is_some()
                                || info.moves.len() <= 1
                                || budget.simulations.is_some_and(|n| job.simulations >= n)
                                || budget
                                    .millis
                                    .is_some_and(|ms| elapsed >= Duration::from_millis(ms));
                            let elapsed_ms = elapsed.as_secs_f64() * 1000.0;
                            if info.moves.is_empty() {
                                // The exact solver proved the root before it was expanded,
                                // so the tree names no move: the alpha-beta player (which
                                // solves such endings exactly) picks it.
                                let mv = alphabeta.select_move(
                                    &job.position,
                                    &Budget::time(Duration::from_millis(200)),
                                );
                                return (Report::single(mv, elapsed_ms), true);
                            }
                            let report = Report::from_info(&info, job.simulations, elapsed_ms);
                            (report, finished)
                        })
                        .map_err(|e| e.to_string())
                }
            };
        match outcome {
            Ok((report, true)) => {
                scope.respond(job.to, Output::Done { id, report });
                self.job = None;
            }
            Ok((report, false)) => {
                job.last = Some(report.clone());
                scope.respond(job.to, Output::Progress { id, report });
                scope.send_future(async move {
                    // A zero timeout: lets queued messages (Stop, a new search) in first.
                    gloo_timers::future::TimeoutFuture::new(0).await;
                    Msg::Continue(id)
                });
            }
            Err(error) => {
                scope.respond(job.to, Output::Failed { id, error });
                self.job = None;
            }
        }
    }
}

impl Worker for SearchWorker {
    type Message = Msg;
    type Input = Input;
    type Output = Output;

    fn create(_scope: &WorkerScope<Self>) -> SearchWorker {
        let seed = random_seed();
        SearchWorker {
            networks: Vec::new(),
            alphabeta: AlphaBetaPlayer::new(seed),
            job: None,
            seed,
        }
    }

    fn update(&mut self, scope: &WorkerScope<Self>, msg: Msg) {
        match msg {
            Msg::Continue(id) => {
                if self.job.as_ref().is_some_and(|j| j.request.id == id) {
                    self.step(scope);
                }
            }
        }
    }

    fn received(&mut self, scope: &WorkerScope<Self>, msg: Input, who: HandlerId) {
        match msg {
            Input::LoadModel { name, onnx, card } => {
                let out = self.load_model(name, &onnx, &card);
                scope.respond(who, out);
            }
            Input::Search(request) => self.start(scope, request, who),
            Input::Stop { id } => {
                if let Some(job) = self.job.as_mut().filter(|j| j.request.id == id) {
                    job.stop = true;
                }
            }
            Input::Crash => panic!("the page asked this worker to crash (a test of restarts)"),
        }
    }
}
