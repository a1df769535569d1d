//! What several of the page's test modules build alike: one worker's small search, and the
//! agent's move in a game.

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
