//! What several of the page's test modules build alike: one worker's small search, the
//! agent's move in a game, and a game that ends in passes.

use crate::merge::Merged;
use engine::report::MoveInfo;
use othello::{BoardSize, GameState, Move};
use protocol::{EngineKind, SearchStat};

fn mv(text: &str) -> Move {
    Move::parse(text, BoardSize::Eight).expect("a move")
}

/// A search of ten simulations, all on `best`.
pub fn merged(best: &str) -> Merged {
    Merged {
        search: SearchStat {
            engine: EngineKind::Network,
            pv: vec![mv(best)],
            value: 0.2,
            score: None,
            simulations: 10,
            elapsed_ms: 5.0,
            solved: None,
            book: None,
            proof: None,
        },
        moves: vec![MoveInfo {
            mv: mv(best),
            visits: 10,
            prior: 1.0,
            target: 1.0,
            q: 0.2,
            proof: None,
            bounds: None,
            score: None,
        }],
        per_worker_rate: vec![2000.0],
        chosen: None,
    }
}

/// The game after the agent's `text`, played where it is to move (the rules crate's own
/// `play_agent`, below the page's reducer, so that the reducer's tests may use it too).
pub fn agent(state: &GameState, text: &str) -> GameState {
    let mut next = state.clone();
    next.play_agent(mv(text))
        .expect("the agent to move, and a legal move");
    next
}

/// A random 60-disc game from f5f6 whose transcript leaves implied Black's six passes at
/// the end (66 moves in all).
pub fn game_ending_in_passes() -> othello::Game {
    let start = othello::Position::start(BoardSize::Eight, othello::Variant::Standard);
    othello::Game::from_transcript(
        "f5f6d3c3e6f4g7c2e3d7d2d6g6h8c8c4c5h7f3e1c6f2g1c7g4g3d1c1b7h5f7a8b1a1b5e7f8a5a7b6b4\
         a6h4b8e2g2h6b3b2g8a3d8h2e8g5a2f1h3a4h1",
        start,
    )
    .expect("legal")
}
