//! The messages between the page and its search workers. Plain data (serialised with
//! bincode by gloo-worker), so the types must not need self-describing formats.

use engine::report::{MoveInfo, Proof, SearchInfo};
use engine::{PlayerKind, PlayerSpec};
use othello::{Move, Position, Variant};
use serde::{Deserialize, Serialize};

mod puzzle;
mod reviewed;

pub use puzzle::{FoundPuzzle, PuzzleAsk, PuzzleReply, PuzzleRequest};
pub use reviewed::ReviewedMove;

/// The name the page's specs give the opening book the worker carries (`book=8x8`).
pub const PAGE_BOOK: &str = "8x8";

/// What kind of search a report comes from: the page draws a heat map only for a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EngineKind {
    /// MCTS guided by the network loaded for the board.
    Network,
    /// The classic alpha-beta player: the fallback when no network is available.
    AlphaBeta,
    /// The network without search (the policy or value player): one evaluation, no tree.
    Instinct,
}

impl EngineKind {
    /// The kind of search a player spec runs.
    pub fn of(spec: &PlayerSpec) -> EngineKind {
        match spec.kind {
            PlayerKind::Mcts => EngineKind::Network,
            PlayerKind::Policy | PlayerKind::Value => EngineKind::Instinct,
            _ => EngineKind::AlphaBeta,
        }
    }
}

/// A search budget as it travels: simulations, milliseconds, or both (first reached wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireBudget {
    pub simulations: Option<u64>,
    pub millis: Option<u64>,
}

impl WireBudget {
    pub fn to_budget(self) -> engine::Budget {
        engine::Budget {
            depth: None,
            simulations: self.simulations,
            time: self.millis.map(std::time::Duration::from_millis),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchRequest {
    /// Chosen by the page; every report carries it so stale ones can be dropped.
    pub id: u64,
    /// The position in board text (OBF).
    pub board: String,
    pub variant: Variant,
    /// Who thinks, as a player spec built by the engine's builder, as everywhere else; its
    /// `model` is the name of a network the worker has loaded. Root-parallel workers get
    /// one with root noise, so their trees differ.
    pub player: PlayerSpec,
    /// How long; it replaces the budget in the spec.
    pub budget: WireBudget,
    pub seed: u64,
    /// A hint's search: when the solver settles the root exactly within its sure reach,
    /// the worker solves every other legal move too, so each gets its exact margin.
    #[serde(default)]
    pub every_move: bool,
}

impl SearchRequest {
    pub fn position(&self) -> Result<Position, String> {
        Position::from_board_text(&self.board, self.variant).map_err(|e| e.to_string())
    }
}

/// One move of a game to review (`engine::review`, as `othello review` reviews it). The
/// page sends a game's moves one at a time and in order, so a review can be cancelled
/// between moves and the worker's reviewer reuses the search of the position after a move
/// for the next one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewRequest {
    /// The review's id: a new id starts a fresh reviewer (a fresh tree), as the CLI starts
    /// one per game.
    pub id: u64,
    /// The move's index in the game (0-based).
    pub index: usize,
    /// The position the move was played from, in board text (OBF).
    pub board: String,
    pub variant: Variant,
    pub played: Move,
    /// The reviewer: a search that values moves (mcts).
    pub player: PlayerSpec,
    pub budget: WireBudget,
    pub seed: u64,
    /// The orientation the move is searched in (`engine::review::frames_of`): a reviewer
    /// going through the game in order turns the game at its symmetric positions, and a
    /// worker given a move out of order must turn it the same way.
    #[serde(default)]
    pub frame: u8,
}

impl ReviewRequest {
    pub fn position(&self) -> Result<Position, String> {
        Position::from_board_text(&self.board, self.variant).map_err(|e| e.to_string())
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Input {
    /// Validates and installs a network for the board its card names; the previous one for
    /// that board stays when this one is rejected.
    LoadModel {
        name: String,
        onnx: Vec<u8>,
        card: String,
    },
    /// Boxed: a request (with its player spec) is several times larger than the others.
    Search(Box<SearchRequest>),
    /// Ends the search with this id early; it still answers with `Done`.
    Stop { id: u64 },
    /// Reviews one move of a game; answered by `Reviewed` or `ReviewFailed`.
    Review(Box<ReviewRequest>),
    /// Solves for Puzzle mode; answered by `Puzzle` at once (bounded by its node budget).
    Puzzle(Box<PuzzleRequest>),
    /// Makes the worker panic: lets the tests check that a dead worker is replaced.
    Crash,
    /// Runs the named network alone, `batch` positions a run, for about `millis`, and
    /// answers `Benched`: the browser tests' measure of tract in wasm (one batch size a
    /// message, so the worker is never silent long enough to be replaced).
    BenchNetwork {
        model: String,
        batch: u32,
        millis: u32,
    },
    /// Runs alpha-beta searches `depth` plies deep over the named pattern network's tables
    /// from the engine's bench positions for about `millis`, and answers `BenchedAlphaBeta`
    /// with nodes a second: the browser tests' figure beside the native `othello bench
    /// alphabeta`.
    BenchAlphaBeta {
        model: String,
        depth: u32,
        millis: u32,
    },
    /// Builds every stage of the named pattern network's tables not built yet (a search
    /// builds each when it first reaches it) and answers `BenchedTables` with the
    /// milliseconds that took: the browser tests' figure for the worker's table build.
    BenchTables { model: String },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Output {
    ModelLoaded {
        name: String,
        board_size: u8,
        variant: Variant,
        parameters: Option<u64>,
    },
    ModelRejected {
        name: String,
        error: String,
    },
    Progress {
        id: u64,
        report: Report,
    },
    Done {
        id: u64,
        report: Report,
    },
    /// The search could not run (no network for the board, a broken network, bad input).
    Failed {
        id: u64,
        error: String,
    },
    /// A move reviewed.
    Reviewed {
        id: u64,
        index: usize,
        review: ReviewedMove,
    },
    /// The move could not be reviewed (no network, an illegal move, a bad spec).
    ReviewFailed {
        id: u64,
        error: String,
    },
    /// What a puzzle's solve found.
    Puzzle {
        id: u64,
        reply: PuzzleReply,
    },
    /// Positions a second through the network, or why it could not run.
    Benched {
        model: String,
        batch: u32,
        result: Result<f64, String>,
    },
    /// Alpha-beta nodes a second over the network's tables, or why it could not run.
    BenchedAlphaBeta {
        model: String,
        depth: u32,
        result: Result<f64, String>,
    },
    /// Milliseconds to build the tables' stages not yet built, or why it could not.
    BenchedTables {
        model: String,
        result: Result<f64, String>,
    },
}

/// The exact solver's verdict on the root, as it travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolvedStat {
    pub best: Move,
    /// Final disc margin for the side to move with perfect play: exact, or when `exact` is
    /// false, the least a proven win (or draw) reaches.
    pub margin: i32,
    pub exact: bool,
    pub nodes: u64,
    pub micros: u64,
}

/// The opening book's move, as it travels: the move the worker's book chose and the value
/// of every move the book holds (in discs, for the side to move).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BookStat {
    pub best: Move,
    pub value: f32,
    pub moves: Vec<(Move, f32)>,
}

/// A search as a whole, beside its root moves' statistics: as one worker reports it
/// ([`Report`]) and as the page merges the workers' (`page::merge::Merged`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchStat {
    pub engine: EngineKind,
    pub pv: Vec<Move>,
    /// Root value for the side to move, in [-1, 1].
    pub value: f32,
    /// Expected final disc difference for the side to move, when the network has a score
    /// output (or the solver's exact margin).
    pub score: Option<f32>,
    /// Simulations this search has run so far (over all its slices).
    pub simulations: u64,
    pub elapsed_ms: f64,
    /// Set when the exact solver settled the root: its move is the one to play.
    pub solved: Option<SolvedStat>,
    /// Set when the move comes from the opening book: its move is the one to play.
    #[serde(default)]
    pub book: Option<BookStat>,
    /// The root's proven result for the side to move, when the search or the root solve
    /// proved it: a proven loss leaves the move to the search, which says so.
    #[serde(default)]
    pub proof: Option<Proof>,
}

/// A snapshot of one worker's search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub search: SearchStat,
    /// The root moves, as the engine reports them ([`MoveInfo`]: the one type of a move's
    /// statistics from the search to the heat map).
    pub moves: Vec<MoveInfo>,
    /// The move this worker would play now.
    pub best: Option<Move>,
}

impl Report {
    /// What an agent's thinking shows so far (totals over all its slices).
    pub fn from_info(info: &SearchInfo, engine: EngineKind) -> Report {
        Report {
            search: SearchStat::from_info(info, engine),
            moves: info.moves.clone(),
            best: info.best_move(),
        }
    }

    pub fn root_visits(&self) -> u64 {
        self.moves.iter().map(|m| m.visits as u64).sum()
    }
}

impl SearchStat {
    fn from_info(info: &SearchInfo, engine: EngineKind) -> SearchStat {
        SearchStat {
            engine,
            pv: info.pv.clone(),
            value: info.value,
            score: info.score,
            simulations: info.simulations,
            elapsed_ms: info.elapsed.as_secs_f64() * 1000.0,
            solved: info.solved.map(|s| SolvedStat {
                best: s.best,
                margin: s.margin,
                exact: s.is_exact(),
                nodes: s.nodes,
                micros: s.micros,
            }),
            proof: info.proof,
            book: info.book.as_ref().map(|book| BookStat {
                best: book.mv,
                value: book.value,
                moves: book
                    .moves
                    .iter()
                    .filter(|m| m.in_book)
                    .map(|m| (m.mv, m.value))
                    .collect(),
            }),
        }
    }
}

/// Sends panic messages to the browser console: without it a wasm panic says only
/// "unreachable executed". Here, below both rooms, as the one piece of browser glue the
/// page's and the worker's binaries share.
#[cfg(target_arch = "wasm32")]
pub fn panic_to_console() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&info.to_string().into());
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::mcts::MctsConfig;
    use engine::report::Solved;
    use engine::{Mcts, PlayoutEvaluator};
    use othello::BoardSize;

    #[test]
    fn a_report_keeps_the_search_visits_and_the_best_move() {
        let pos = Position::start(BoardSize::Six, Variant::Standard);
        let mut mcts = Mcts::new(PlayoutEvaluator::new(3, 1), MctsConfig::default());
        let info = mcts
            .search(&pos, &engine::Budget::simulations(60), &mut |_| true)
            .expect("the playout evaluator does not fail");
        let report = Report::from_info(&info, EngineKind::Network);
        assert_eq!(report.moves.len(), 4);
        assert_eq!(report.best, info.best_move());
        assert_eq!(
            report.root_visits(),
            info.moves.iter().map(|m| m.visits as u64).sum::<u64>()
        );
        assert_eq!(report.search.simulations, 60);
        assert_eq!(report.search.solved, None);
    }

    #[test]
    fn proofs_and_solves_keep_their_sign() {
        let mv = Move::parse("c4", BoardSize::Six).expect("a square");
        let mut info = SearchInfo::from_solved(
            Solved {
                best: mv,
                margin: -6,
                upper: -6,
                nodes: 1000,
                micros: 50,
            },
            std::time::Duration::ZERO,
        );
        let report = Report::from_info(&info, EngineKind::Network);
        assert_eq!(report.moves[0].proof, Some(Proof::Loss));
        assert_eq!(report.search.solved.map(|s| s.margin), Some(-6));
        assert_eq!(report.best, Some(mv));
        info.moves = vec![MoveInfo {
            mv: Move::Pass,
            visits: 3,
            prior: 1.0,
            q: 1.0,
            proof: Some(Proof::Win),
            bounds: None,
            target: 1.0,
            score: None,
        }];
        assert_eq!(
            Report::from_info(&info, EngineKind::Network).moves[0].proof,
            Some(Proof::Win)
        );
    }

    #[test]
    fn messages_survive_round_trips_through_json() {
        let req = Input::Search(Box::new(SearchRequest {
            id: 7,
            board: Position::start(BoardSize::Eight, Variant::Reversed).to_board_text(),
            variant: Variant::Reversed,
            player: "mcts:model=az-8x8,noise=0.3".parse().expect("a spec"),
            budget: WireBudget {
                simulations: Some(100),
                millis: None,
            },
            seed: 1,
            every_move: false,
        }));
        let text = serde_json::to_string(&req).expect("serialisable");
        let back: Input = serde_json::from_str(&text).expect("deserialisable");
        assert_eq!(back, req);
        let Input::Search(r) = back else {
            panic!("not a search")
        };
        assert_eq!(
            r.position().expect("valid board"),
            Position::start(BoardSize::Eight, Variant::Reversed)
        );
        assert_eq!(EngineKind::of(&r.player), EngineKind::Network);
    }
}
