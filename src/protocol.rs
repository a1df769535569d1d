//! The messages between the page and its search workers. Plain data (serialised with
//! bincode by gloo-worker), so the types must not need self-describing formats.

use engine::mcts::{Proof, SearchInfo};
use othello::{Move, Position, Variant};
use serde::{Deserialize, Serialize};

/// What a worker should search with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EngineKind {
    /// MCTS guided by the network loaded for the board.
    Network,
    /// The classic alpha-beta player: the fallback when no network is available.
    AlphaBeta,
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
    pub budget: WireBudget,
    pub engine: EngineKind,
    pub seed: u64,
    /// Root noise, so root-parallel workers grow different trees from the same position.
    pub noise: bool,
}

impl SearchRequest {
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
    Search(SearchRequest),
    /// Ends the search with this id early; it still answers with `Done`.
    Stop {
        id: u64,
    },
    /// Makes the worker panic: lets the tests check that a dead worker is replaced.
    Crash,
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
}

/// One root move as a worker sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveStat {
    pub mv: Move,
    pub visits: u32,
    pub prior: f32,
    /// Mean value for the side to move, in [-1, 1].
    pub q: f32,
    /// 1 proven win, 0 proven draw, -1 proven loss (for the side to move).
    pub proof: Option<i8>,
}

/// A snapshot of one worker's search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub engine: EngineKind,
    pub moves: Vec<MoveStat>,
    pub pv: Vec<Move>,
    /// Root value for the side to move, in [-1, 1].
    pub value: f32,
    /// Simulations this search has run so far (over all its slices).
    pub simulations: u64,
    pub elapsed_ms: f64,
    /// The move this worker would play now.
    pub best: Option<Move>,
}

fn proof_code(proof: Option<Proof>) -> Option<i8> {
    proof.map(|p| match p {
        Proof::Win => 1,
        Proof::Draw => 0,
        Proof::Loss => -1,
    })
}

impl Report {
    /// `simulations` and `elapsed_ms` are the totals of the whole search, which the worker
    /// runs in slices (each a call to `Mcts::search`).
    pub fn from_info(info: &SearchInfo, simulations: u64, elapsed_ms: f64) -> Report {
        Report {
            engine: EngineKind::Network,
            moves: info
                .moves
                .iter()
                .map(|m| MoveStat {
                    mv: m.mv,
                    visits: m.visits,
                    prior: m.prior,
                    q: m.q,
                    proof: proof_code(m.proof),
                })
                .collect(),
            pv: info.pv.clone(),
            value: info.value,
            simulations,
            elapsed_ms,
            best: info.best_move(),
        }
    }

    /// A report for a move chosen without a tree (alpha-beta): one move, no shares.
    pub fn single(mv: Move, elapsed_ms: f64) -> Report {
        Report {
            engine: EngineKind::AlphaBeta,
            moves: vec![MoveStat {
                mv,
                visits: 1,
                prior: 1.0,
                q: 0.0,
                proof: None,
            }],
            pv: vec![mv],
            value: 0.0,
            simulations: 0,
            elapsed_ms,
            best: Some(mv),
        }
    }

    pub fn root_visits(&self) -> u64 {
        self.moves.iter().map(|m| m.visits as u64).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::mcts::{MctsConfig, MoveInfo};
    use engine::{HeuristicEvaluator, Mcts};
    use othello::BoardSize;

    #[test]
    fn a_report_keeps_the_search_visits_and_the_best_move() {
        let pos = Position::start(BoardSize::Six, Variant::Standard);
        let mut mcts = Mcts::new(HeuristicEvaluator::new(3, 1), MctsConfig::default());
        let info = mcts
            .search(&pos, &engine::Budget::simulations(60), &mut |_| true)
            .expect("the heuristic evaluator does not fail");
        let report = Report::from_info(&info, 60, 12.0);
        assert_eq!(report.moves.len(), 4);
        assert_eq!(report.best, info.best_move());
        assert_eq!(
            report.root_visits(),
            info.moves.iter().map(|m| m.visits as u64).sum::<u64>()
        );
        assert_eq!(report.simulations, 60);
    }

    #[test]
    fn proofs_keep_their_sign() {
        let info = SearchInfo {
            moves: vec![MoveInfo {
                mv: Move::Pass,
                visits: 3,
                prior: 1.0,
                q: 1.0,
                proof: Some(Proof::Loss),
            }],
            pv: vec![],
            value: -1.0,
            proof: None,
            simulations: 3,
            root_visits: 3,
            elapsed: std::time::Duration::ZERO,
        };
        assert_eq!(Report::from_info(&info, 3, 0.0).moves[0].proof, Some(-1));
    }

    #[test]
    fn messages_survive_bincode_like_round_trips_through_json() {
        let req = Input::Search(SearchRequest {
            id: 7,
            board: Position::start(BoardSize::Eight, Variant::Reversed).to_board_text(),
            variant: Variant::Reversed,
            budget: WireBudget {
                simulations: Some(100),
                millis: None,
            },
            engine: EngineKind::Network,
            seed: 1,
            noise: true,
        });
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
    }
}
