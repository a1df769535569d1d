//! The worker's search without the browser: networks loaded by name, agents built from the
//! request's player spec by the engine's builder (as the arena and the CLI build theirs),
//! and their thinking run slice by slice. The worker binary is a message loop around it;
//! the tests drive it directly.

use engine::mcts::RootSolve;
use engine::network::{runs_per_second, table_sums_per_second, ModelError, Network};
use engine::{Agent, ModelSource, PlayerKind, PlayerSpec, Thinking};
use othello::{BoardSize, Position, Variant};
use protocol::{EngineKind, Output, Report, SearchRequest, PAGE_BOOK};
use std::time::Duration;

mod hint;
mod review;
mod warm_up;

use hint::solve_every_move;

/// The worker runs a budgeted root proof beside its search in slices of this many solver
/// nodes: about 0.1 s in Chromium on this project's test machine (9-11 M nodes/s,
/// `solver-speed.measure.mjs`, docs/solver.md), about as long as one of the search's
/// slices. Between slices it reports, takes a Stop and answers the page's watchdog (a
/// worker silent for 4 s is replaced), so a proof's budget needs no cap. Natively, in
/// slices of a million nodes, FFO #40-#44 took 0.99-1.07 times the nodes of one whole
/// proof (docs/solver.md).
pub const WORKER_SOLVE_SLICE_NODES: u64 = 1_000_000;
/// A review's move is one message, whose solve cannot be sliced: its budgeted solve is
/// capped at about 2 s of the solver in Chromium on this project's test machine, which
/// leaves the watchdog's 4 s room for a device about twice slower.
pub const WORKER_MAX_REVIEW_SOLVE_NODES: u64 = 20_000_000;
/// The solver's share of a time budget in wasm: the native share (8,000 nodes a
/// millisecond, about half a budget at 15 M nodes/s) scaled by the wasm solver's speed
/// against the native one, 0.68-0.76 in Chromium on 2026-11-26 (10.4 M nodes/s against
/// 15.2 M in the same run, `solver-speed.measure.mjs`, docs/solver.md). At 8,000 it spent
/// about 1.4-1.6 times the share of the move's time its budget stood for.
pub const WORKER_SOLVE_NODES_PER_MS: u64 = 5_500;

/// The deepest alpha-beta bench a page may ask for: deeper, one pass over the positions
/// may outlast the pool's patience with a silent worker.
const MAX_BENCH_DEPTH: u32 = 8;
/// The root-solve settings of a worker's searching agent: proofs in slices. The rest are
/// the engine's defaults, the solver's table included: 2^18 entries (6 MiB) suit a
/// worker, and the same table as natively means the same choice between moves of equal
/// margin.
pub fn worker_root_solve(settings: RootSolve) -> RootSolve {
    RootSolve {
        slice_nodes: Some(WORKER_SOLVE_SLICE_NODES),
        nodes_per_ms: WORKER_SOLVE_NODES_PER_MS,
        ..settings
    }
}

/// The root-solve settings of a worker's reviewing agent: a searching agent's, but one
/// message a move, so a capped proof in one go.
pub fn worker_review_solve(settings: RootSolve) -> RootSolve {
    RootSolve {
        slice_nodes: None,
        max_nodes: Some(WORKER_MAX_REVIEW_SOLVE_NODES),
        ..worker_root_solve(settings)
    }
}

/// Why a network was refused, first in a player's words, then the runtime's own (which a
/// bug report needs), except for a file tract cannot parse: that is not an ONNX network at
/// all, which is the whole cause.
pub fn explain_model_error(error: &ModelError) -> String {
    match error {
        // Protobuf's complaint ("ModelProto.metadata_props: invalid wire type") says
        // nothing to a player that "not an ONNX network" does not.
        ModelError::Load(details) if looks_unparsable(details) => {
            "this file is not an ONNX network".to_owned()
        }
        ModelError::Load(details) => {
            format!("this ONNX file is not a network the page can run (details: {details})")
        }
        ModelError::Contract(details) => format!(
            "this network does not have the inputs and outputs of an Othello network for \
             its board (details: {details})"
        ),
        ModelError::Card(e) => format!("its model card is not valid (details: {e})"),
        other => other.to_string(),
    }
}

/// Protobuf decoding errors: the bytes are no ONNX model.
fn looks_unparsable(details: &str) -> bool {
    [
        "wire type",
        "decode",
        "ModelProto",
        "protobuf",
        "unexpected end",
        "buffer underflow",
    ]
    .iter()
    .any(|needle| details.contains(needle))
}

/// A network the worker holds, under the name the page gave it.
#[derive(Debug)]
pub struct Loaded {
    pub name: String,
    pub network: Network,
    pub size: BoardSize,
    pub variant: Variant,
}

/// The worker's networks, as the builder's source: `model=` names one of them.
#[derive(Debug, Default)]
pub struct Networks(Vec<Loaded>);

/// The 8x8 standard book, grown by `othello book` (docs/book.md), in the worker's binary so
/// that the book costs no request of its own and can never be missing; read on first use.
fn page_book() -> Result<std::sync::Arc<engine::book::Book>, engine::book::BookError> {
    use engine::book::{Book, BookError};
    use std::sync::{Arc, OnceLock};
    static BOOK: OnceLock<Result<Arc<Book>, BookError>> = OnceLock::new();
    BOOK.get_or_init(|| Book::from_bytes(include_bytes!("../../../books/8x8.book")).map(Arc::new))
        .clone()
}

impl ModelSource for Networks {
    fn book(
        &self,
        name: &str,
    ) -> Result<std::sync::Arc<engine::book::Book>, engine::book::BookError> {
        if name == PAGE_BOOK {
            page_book()
        } else {
            Err(engine::book::BookError::NotLoaded(name.to_owned()))
        }
    }

    fn network(&self, model: &str) -> Result<Network, ModelError> {
        self.0
            .iter()
            .find(|l| l.name == model)
            .map(|l| l.network.clone())
            .ok_or_else(|| ModelError::NotLoaded(model.to_owned()))
    }
}

#[derive(Debug)]
struct Job {
    id: u64,
    engine: EngineKind,
    /// Which agent of [`Searcher::agents`] thinks.
    agent: PlayerSpec,
    thinking: Thinking,
    stop: bool,
    last: Option<Report>,
    /// The position searched, and whether to solve every move once the root is solved
    /// (a hint's request).
    position: othello::Position,
    every_move: bool,
}

#[derive(Debug, Default)]
pub struct Searcher {
    networks: Networks,
    /// Agents by spec, kept between searches so a tree grown for one move serves the next
    /// (the arena's agents keep theirs for a whole game).
    agents: Vec<(PlayerSpec, Box<dyn Agent>)>,
    job: Option<Job>,
    /// The game review under way, if any (`review.rs`).
    reviewing: Option<review::Reviewing>,
    /// The warm-up after a network is loaded, while nothing else runs (`warm_up.rs`).
    warming: Option<warm_up::WarmingUp>,
}

impl Searcher {
    pub fn new() -> Searcher {
        Searcher::default()
    }

    /// Installs a network under `name`, replacing any for the same board and variant (and
    /// the agents built on it).
    pub fn add_network(&mut self, name: String, network: Network) -> Result<&Loaded, String> {
        let card = network.card();
        let size = card.board().map_err(|e| e.to_string())?;
        let variant = card.variant().map_err(|e| e.to_string())?;
        let replaced: Vec<String> = self
            .networks
            .0
            .iter()
            .filter(|l| (l.size, l.variant) == (size, variant) || l.name == name)
            .map(|l| l.name.clone())
            .collect();
        self.networks.0.retain(|l| !replaced.contains(&l.name));
        self.agents
            .retain(|(spec, _)| spec.model.as_ref().is_none_or(|m| !replaced.contains(m)));
        self.networks.0.push(Loaded {
            name,
            network,
            size,
            variant,
        });
        Ok(&self.networks.0[self.networks.0.len() - 1])
    }

    /// Checks and installs an ONNX network with its card (tract).
    pub fn load_model(&mut self, name: String, onnx: &[u8], card: &str) -> Result<&Loaded, String> {
        use engine::network::{ModelCard, Runtime};
        let card = ModelCard::from_json(card).map_err(|e| explain_model_error(&e.into()))?;
        let network = engine::tract::Tract
            .load(onnx, card)
            .map_err(|e| explain_model_error(&e))?;
        self.add_network(name, network)
    }

    /// Positions a second through the named network alone, `batch` start positions a run,
    /// over about `time` after one warm-up run (which may prepare the runtime's plan).
    pub fn bench_network(&self, model: &str, batch: usize, time: Duration) -> Result<f64, String> {
        let bench = || -> Result<f64, ModelError> {
            let network = self.networks.network(model)?;
            let card = network.card();
            let start = othello::Position::start(card.board()?, card.variant()?);
            if let Some(tables) = network.pattern_tables() {
                // The start and the positions after its moves, so that no single read is
                // all the cache sees.
                let mut positions = vec![start];
                positions.extend(
                    start
                        .legal_move_list()
                        .into_iter()
                        .map(|m| start.play_unchecked(m)),
                );
                return Ok(table_sums_per_second(&tables, &positions, time));
            }
            Ok(runs_per_second(&network, &[start], batch, time)? * batch as f64)
        };
        bench().map_err(|e| e.to_string())
    }

    /// Alpha-beta nodes a second over the named pattern network's tables, `depth` plies
    /// from each of the engine's bench positions, for about `time`
    /// (`engine::midgame::benchmark`).
    pub fn bench_alphabeta(&self, model: &str, depth: u32, time: Duration) -> Result<f64, String> {
        use engine::midgame::benchmark::{midgame_positions, nodes_per_second, BENCH_POSITIONS};
        if !(1..=MAX_BENCH_DEPTH).contains(&depth) {
            return Err(format!(
                "an alpha-beta bench searches 1 to {MAX_BENCH_DEPTH} plies deep, not {depth}"
            ));
        }
        let network = self.networks.network(model).map_err(|e| e.to_string())?;
        let card = network.card();
        let size = card.board().map_err(|e| e.to_string())?;
        let tables = network.pattern_tables().ok_or_else(|| {
            format!(
                "'{model}' is no pattern network: alpha-beta searches a pattern network's tables"
            )
        })?;
        Ok(nodes_per_second(
            tables,
            &midgame_positions(size, BENCH_POSITIONS),
            depth,
            time,
        ))
    }

    /// Milliseconds to build every stage of the named pattern network's tables that no
    /// search has built yet.
    pub fn bench_tables(&self, model: &str) -> Result<f64, String> {
        let network = self.networks.network(model).map_err(|e| e.to_string())?;
        let tables = network
            .pattern_tables()
            .ok_or_else(|| format!("'{model}' is no pattern network: it has no tables to build"))?;
        let clock = web_time::Instant::now();
        tables.build_every_stage();
        Ok(clock.elapsed().as_secs_f64() * 1e3)
    }

    /// `player` without a budget of its own (the request's budget rules; one in the spec
    /// would only confuse), checked against the position's board, rules and networks.
    fn budgetless_spec(
        &self,
        player: &PlayerSpec,
        position: &Position,
    ) -> Result<PlayerSpec, String> {
        let spec = PlayerSpec {
            sims: None,
            time_ms: None,
            depth: None,
            ..player.clone()
        };
        spec.check_game(position.size(), position.variant(), &self.networks)
            .map_err(|e| e.to_string())?;
        Ok(spec)
    }

    /// Starts thinking about the request's position, replacing any search under way.
    pub fn start(&mut self, request: SearchRequest) -> Result<(), String> {
        self.job = None;
        let position = request.position()?;
        if position.is_game_over() {
            return Err("the game is over: nothing to search".to_owned());
        }
        let spec = self.budgetless_spec(&request.player, &position)?;
        if !self.agents.iter().any(|(s, _)| *s == spec) {
            let agent = build_agent(&spec, request.seed, &self.networks, worker_root_solve)?;
            self.agents.push((spec.clone(), agent));
        }
        let budget = request.budget.to_budget();
        self.job = Some(Job {
            id: request.id,
            engine: EngineKind::of(&spec),
            agent: spec,
            thinking: Thinking::new(position, budget),
            stop: false,
            last: None,
            position,
            every_move: request.every_move,
        });
        Ok(())
    }

    /// Asks the search with this id to end; it answers with `Done` at the next step.
    pub fn stop(&mut self, id: u64) {
        if let Some(job) = self.job.as_mut().filter(|j| j.id == id) {
            job.stop = true;
        }
    }

    pub fn searching(&self) -> Option<u64> {
        self.job.as_ref().map(|j| j.id)
    }

    /// Thinks for about `slice` and says what came of it: `Progress` while the agent
    /// thinks on, `Done` once it has decided (or was stopped), `Failed` if it could not
    /// think. `None` when there is no search.
    pub fn step(&mut self, slice: Duration) -> Option<Output> {
        let job = self.job.as_mut()?;
        let id = job.id;
        if job.stop {
            if let Some(report) = job.last.take() {
                self.job = None;
                return Some(Output::Done { id, report });
            }
        }
        let Some((_, agent)) = self.agents.iter_mut().find(|(s, _)| *s == job.agent) else {
            self.job = None;
            return Some(Output::Failed {
                id,
                error: "the agent is gone (its network was replaced)".to_owned(),
            });
        };
        match agent.think_more(&mut job.thinking, slice) {
            Ok(info) => {
                let mut report = Report::from_info(&info, job.engine);
                if job.thinking.is_done() || job.stop {
                    if job.every_move {
                        solve_every_move(&mut report, &job.position, agent.as_mut());
                    }
                    self.job = None;
                    Some(Output::Done { id, report })
                } else {
                    job.last = Some(report.clone());
                    Some(Output::Progress { id, report })
                }
            }
            Err(e) => {
                // A broken network: drop the agent so a retry builds it afresh.
                let spec = job.agent.clone();
                self.agents.retain(|(s, _)| *s != spec);
                self.job = None;
                Some(Output::Failed {
                    id,
                    error: e.to_string(),
                })
            }
        }
    }

    /// Runs a whole search in slices of `slice` and returns its last report.
    #[cfg(test)]
    fn run(&mut self, request: SearchRequest, slice: Duration) -> Result<Report, String> {
        self.start(request)?;
        loop {
            match self.step(slice) {
                Some(Output::Progress { .. }) => {}
                Some(Output::Done { report, .. }) => return Ok(report),
                Some(Output::Failed { error, .. }) => return Err(error),
                other => return Err(format!("unexpected {other:?}")),
            }
        }
    }
}

/// The agent for a spec: the engine's builder, with the root solve a worker can afford
/// (`root_solve`: [`worker_root_solve`] or [`worker_review_solve`]).
fn build_agent(
    spec: &PlayerSpec,
    seed: u64,
    networks: &Networks,
    root_solve: fn(RootSolve) -> RootSolve,
) -> Result<Box<dyn Agent>, String> {
    if spec.kind == PlayerKind::Mcts {
        let mut player = spec
            .mcts_player(seed, networks)
            .map_err(|e| e.to_string())?;
        let config = player.driver_mut().config_mut();
        config.root_solve = root_solve(config.root_solve.clone());
        return Ok(Box::new(player));
    }
    let (agent, _) = spec.build(seed, networks).map_err(|e| e.to_string())?;
    Ok(agent)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use engine::{Budget, NoModels, Solver};
    use othello::{Game, Position};
    use protocol::WireBudget;

    /// A search request with a budget in simulations (also for the submodules' tests).
    pub(super) fn request(
        id: u64,
        pos: &Position,
        player: &str,
        sims: u64,
        seed: u64,
    ) -> SearchRequest {
        SearchRequest {
            id,
            board: pos.to_board_text(),
            variant: pos.variant(),
            player: player.parse().expect("a spec"),
            budget: WireBudget {
                simulations: Some(sims),
                millis: None,
            },
            seed,
            every_move: false,
        }
    }

    /// A 6x6 position of a random game (seed 4) with at most `empties` empty squares and
    /// at least `choices` legal moves: an endgame the solver settles (also for the
    /// submodules' tests).
    pub(crate) fn endgame(empties: u32, choices: usize) -> Position {
        let mut rng = engine::Rng::new(4);
        let mut pos = Position::start(BoardSize::Six, Variant::Standard);
        while pos.empty_count() > empties || pos.legal_move_list().len() < choices {
            let moves = pos.legal_move_list();
            pos = pos
                .play(*rng.choose(&moves).expect("a move"))
                .expect("legal");
            assert!(!pos.is_game_over());
        }
        pos
    }

    fn midgame() -> Position {
        *Game::from_transcript(
            "f5d6c3d3c4f4f6f3e6e7",
            Position::start(BoardSize::Eight, Variant::Standard),
        )
        .expect("a legal opening")
        .position()
    }

    #[test]
    fn the_worker_plays_the_move_the_arena_player_of_the_same_spec_plays() {
        let pos = midgame();
        for (spec, seed) in [
            ("mcts:noise=0.3", 1),
            ("mcts:playouts=2,c=2", 5),
            ("uct", 9),
        ] {
            let mut searcher = Searcher::new();
            // Slices of a millisecond: many slices, the same search.
            let report = searcher
                .run(request(1, &pos, spec, 300, seed), Duration::from_millis(1))
                .expect("searches");
            let spec: PlayerSpec = spec.parse().expect("a spec");
            let (mut agent, _) = spec.build(seed, &NoModels).expect("builds");
            let mv = agent.select_move(&pos, &Budget::simulations(300));
            assert_eq!(report.best, Some(mv), "{spec}");
            if spec.kind == PlayerKind::Mcts {
                assert_eq!(report.search.simulations, 300, "{spec}");
            }
        }
    }

    #[test]
    fn near_the_end_the_worker_plays_the_solvers_move() {
        let pos = endgame(14, 2);
        let report = Searcher::new()
            .run(request(2, &pos, "mcts", 20, 1), Duration::from_millis(50))
            .expect("searches");
        let solution = Solver::new().solve(&pos);
        let solved = report.search.solved.expect("solved at 14 empties");
        assert_eq!(solved.margin, solution.margin);
        assert_eq!(report.best, Some(solved.best));
        let after = pos.play(solved.best).expect("legal");
        assert_eq!(-Solver::new().solve(&after).margin, solution.margin);
    }

    #[test]
    fn the_page_book_answers_the_opening_at_once_and_a_missing_book_leaves_the_search() {
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let book = page_book().expect("the shipped book reads");
        book.check_game(BoardSize::Eight, Variant::Standard)
            .expect("an 8x8 standard book");
        for seed in 0..4 {
            let spec = format!("mcts:book={PAGE_BOOK},book_random=1");
            let report = Searcher::new()
                .run(
                    request(5, &start, &spec, 400, seed),
                    Duration::from_millis(50),
                )
                .expect("answers");
            let from_book = report
                .search
                .book
                .clone()
                .expect("the start is in the book");
            assert_eq!(report.search.simulations, 0);
            assert_eq!(report.best, Some(from_book.best));
            assert!(start.is_legal(from_book.best));
            let best = from_book.moves.iter().map(|m| m.1).fold(f32::MIN, f32::max);
            assert!(best - from_book.value <= 1.0, "{from_book:?}");
        }
        let report = Searcher::new()
            .run(
                request(6, &start, "mcts:book=other", 50, 1),
                Duration::from_millis(50),
            )
            .expect("searches without a book");
        assert_eq!((report.search.book, report.search.simulations), (None, 50));
    }

    /// FFO #40 (20 empties, +38): within the budgeted solve's reach, and more than one
    /// of the worker's proof slices. The worker reports the search between slices, and a
    /// Stop meanwhile answers with the search's move; left alone, the proof plays.
    #[test]
    fn a_root_proof_runs_in_slices_beside_the_search_and_a_stop_answers_with_the_search() {
        let pos = Position::from_board_text(
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
            Variant::Standard,
        )
        .expect("FFO #40");
        let timed = |id| SearchRequest {
            budget: WireBudget {
                simulations: None,
                millis: Some(600_000),
            },
            ..request(id, &pos, "mcts", 1, 1)
        };
        let mut searcher = Searcher::new();
        searcher.start(timed(7)).expect("starts");
        let Some(Output::Progress { id: 7, report }) = searcher.step(Duration::from_millis(5))
        else {
            panic!("the first slice of the proof settles nothing");
        };
        assert!(report.search.simulations > 0 && report.search.solved.is_none());
        searcher.stop(7);
        match searcher.step(Duration::from_millis(5)) {
            Some(Output::Done { id: 7, report }) => {
                assert!(report.search.solved.is_none());
                assert!(pos.is_legal(report.best.expect("the search's move")));
            }
            other => panic!("expected Done, got {other:?}"),
        }
        searcher.start(timed(8)).expect("starts");
        let report = loop {
            match searcher.step(Duration::from_millis(5)) {
                Some(Output::Progress { .. }) => {}
                Some(Output::Done { report, .. }) => break report,
                other => panic!("unexpected {other:?}"),
            }
        };
        let solved = report.search.solved.expect("the proof settles the move");
        assert_eq!((solved.margin, solved.exact), (38, true));
        assert_eq!(report.best, Some(solved.best));
    }

    #[test]
    fn a_stopped_search_answers_done_with_what_it_has() {
        let pos = midgame();
        let mut searcher = Searcher::new();
        searcher
            .start(request(3, &pos, "mcts", 1_000_000, 1))
            .expect("starts");
        assert!(matches!(
            searcher.step(Duration::from_millis(5)),
            Some(Output::Progress { id: 3, .. })
        ));
        searcher.stop(3);
        match searcher.step(Duration::from_millis(5)) {
            Some(Output::Done { id: 3, report }) => assert!(report.search.simulations > 0),
            other => panic!("expected Done, got {other:?}"),
        }
        assert_eq!(searcher.step(Duration::from_millis(5)), None);
    }

    #[test]
    fn a_refused_network_is_explained_in_a_players_words() {
        let garbage = ModelError::Load(
            "ModelProto.metadata_props: invalid wire type: EndGroup (expected LengthDelimited)"
                .into(),
        );
        let text = explain_model_error(&garbage);
        assert_eq!(text, "this file is not an ONNX network");
        let shapes = explain_model_error(&ModelError::Contract("policy has 37 logits".into()));
        assert!(
            shapes.contains("does not have the inputs and outputs"),
            "{shapes}"
        );
    }

    #[test]
    fn a_spec_naming_a_network_the_worker_lacks_is_refused_with_its_name() {
        let error = Searcher::new()
            .start(request(4, &midgame(), "mcts:model=az-9x9", 10, 1))
            .expect_err("no such network");
        assert!(error.contains("az-9x9"), "{error}");
        let over = Position::from_board_text(&format!("{} X", "X".repeat(64)), Variant::Standard)
            .expect("a full board");
        assert!(Searcher::new()
            .start(request(5, &over, "mcts", 10, 1))
            .is_err());
    }

    /// A network that checks its input's size and counts the positions it was given.
    struct Counting {
        card: engine::network::ModelCard,
        positions: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    }

    struct CountingRunner(std::sync::Arc<std::sync::atomic::AtomicUsize>);

    impl engine::network::PlaneRunner for CountingRunner {
        fn run_planes(
            &mut self,
            planes: &[f32],
            batch: usize,
        ) -> Result<engine::network::Outputs, ModelError> {
            if planes.len() != batch * 4 * 36 {
                return Err(ModelError::Run(format!("{} values", planes.len())));
            }
            self.0
                .fetch_add(batch, std::sync::atomic::Ordering::Relaxed);
            Ok(engine::network::Outputs {
                policy: vec![0.0; batch * 37],
                value: vec![0.0; batch],
                score: None,
            })
        }
    }

    impl engine::network::Model for Counting {
        fn card(&self) -> &engine::network::ModelCard {
            &self.card
        }

        fn runtime_name(&self) -> &'static str {
            "counting"
        }

        fn runner(&self) -> Result<Box<dyn engine::network::PlaneRunner>, ModelError> {
            Ok(Box::new(CountingRunner(self.positions.clone())))
        }
    }

    /// A searcher with a 6x6 network named "counting" that counts the positions it runs
    /// (also for the submodules' tests).
    pub(super) fn counting_searcher() -> (Searcher, std::sync::Arc<std::sync::atomic::AtomicUsize>)
    {
        let positions = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let card = engine::network::ModelCard::from_json(
            r#"{"name": "counting", "board_size": 6, "variant": "standard", "planes": 4}"#,
        )
        .expect("a valid card");
        let mut searcher = Searcher::new();
        searcher
            .add_network(
                "counting".into(),
                std::sync::Arc::new(Counting {
                    card,
                    positions: positions.clone(),
                }),
            )
            .expect("installs");
        (searcher, positions)
    }

    #[test]
    fn the_network_bench_counts_the_positions_it_ran() {
        let (searcher, positions) = counting_searcher();
        let clock = std::time::Instant::now();
        let rate = searcher
            .bench_network("counting", 8, Duration::from_millis(30))
            .expect("runs");
        let elapsed = clock.elapsed().as_secs_f64();
        let ran = positions.load(std::sync::atomic::Ordering::Relaxed);
        // The warm-up run is not counted, and the rate is over the timed runs only.
        assert!(ran >= 16 && ran.is_multiple_of(8), "{ran}");
        assert!(
            rate >= (ran - 8) as f64 / elapsed,
            "{rate} positions/s, {ran} in {elapsed} s"
        );
        assert!(searcher
            .bench_network("counting", 0, Duration::from_millis(1))
            .is_err());
        let missing = searcher
            .bench_network("az-9x9", 1, Duration::from_millis(1))
            .expect_err("not loaded");
        assert!(missing.contains("az-9x9"), "{missing}");
    }

    #[test]
    fn a_pattern_network_is_benched_through_its_tables() {
        let dir =
            std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/tests/data"));
        let onnx = std::fs::read(dir.join("pattern-test-8x8.onnx")).expect("fixture");
        let card = std::fs::read_to_string(dir.join("pattern-test-8x8.json")).expect("card");
        let mut searcher = Searcher::new();
        searcher
            .load_model("patterns".into(), &onnx, &card)
            .expect("loads");
        // Loading builds no stage of its tables; the tables bench builds them all.
        let network = searcher.networks.network("patterns").expect("loaded");
        let tables = network.pattern_tables().expect("tables");
        assert_eq!(tables.built_stages(), 0);
        let ms = searcher.bench_tables("patterns").expect("built");
        assert!(ms >= 0.0, "{ms}");
        assert_eq!(tables.built_stages(), tables.set().stages as usize);
        // Its plane runner refuses planes: the bench reads the tables instead, any batch.
        for batch in [1, 8] {
            let rate = searcher
                .bench_network("patterns", batch, Duration::from_millis(20))
                .expect("benched");
            assert!(rate > 0.0, "{rate}");
        }
        // Alpha-beta over its tables, at the page's leaf depth and deeper.
        for depth in [2, 4] {
            let nodes = searcher
                .bench_alphabeta("patterns", depth, Duration::from_millis(20))
                .expect("benched");
            assert!(nodes > 0.0, "{nodes}");
        }
        for depth in [0, MAX_BENCH_DEPTH + 1] {
            let refused = searcher
                .bench_alphabeta("patterns", depth, Duration::from_millis(1))
                .expect_err("out of range");
            assert!(refused.contains("1 to 8 plies"), "{refused}");
        }
    }

    #[test]
    fn the_alpha_beta_bench_needs_a_pattern_network() {
        let (searcher, _) = counting_searcher();
        let refused = searcher
            .bench_alphabeta("counting", 2, Duration::from_millis(1))
            .expect_err("no tables");
        assert!(
            refused.contains("'counting' is no pattern network"),
            "{refused}"
        );
        let refused = searcher.bench_tables("counting").expect_err("no tables");
        assert!(
            refused.contains("'counting' is no pattern network"),
            "{refused}"
        );
        let missing = searcher
            .bench_alphabeta("az-9x9", 2, Duration::from_millis(1))
            .expect_err("not loaded");
        assert!(missing.contains("az-9x9"), "{missing}");
    }
}
