//! What Puzzle mode asks of a worker's exact solver (docs/puzzles.md, "Puzzle mode"), and
//! its answers. The page holds the puzzles and the player's ratings; a worker only solves,
//! so a solve of a puzzle's 16 empties never stalls the page.

use othello::{Move, Position, Variant};
use serde::{Deserialize, Serialize};

/// What to solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PuzzleAsk {
    /// Perfect play from the position to the end of the game: the line after a right
    /// answer, the refutation of a wrong one (its first move), the solver's reply when the
    /// player plays a puzzle out.
    Line,
    /// Whether the position is a puzzle by the shipped sets' rules (`engine::puzzles::
    /// prove_puzzle`): a player's own mistake, kept only when proven.
    Prove,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleRequest {
    /// Chosen by the page; the answer carries it.
    pub id: u64,
    /// The position in board text (OBF).
    pub board: String,
    pub variant: Variant,
    pub ask: PuzzleAsk,
    /// The most positions one solve may visit (each move's, for `Prove`): past it the
    /// answer is `OutOfReach`, so the worker is never busy for long.
    pub max_nodes: u64,
}

impl PuzzleRequest {
    pub fn position(&self) -> Result<Position, String> {
        Position::from_board_text(&self.board, self.variant).map_err(|e| e.to_string())
    }
}

/// A position proven to be a puzzle, as it travels (the page keeps it with the player's
/// own puzzles): names as `othello puzzles list` prints them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundPuzzle {
    pub answer: Move,
    pub kind: String,
    pub themes: Vec<String>,
    pub margin: i8,
    pub runner_up: i8,
    pub rating: u16,
}

impl FoundPuzzle {
    pub fn of(puzzle: &engine::puzzles::Puzzle) -> FoundPuzzle {
        FoundPuzzle {
            answer: puzzle.answer,
            kind: puzzle.kind.name().to_owned(),
            themes: puzzle.themes.iter().map(|t| t.name().to_owned()).collect(),
            margin: puzzle.margin,
            runner_up: puzzle.runner_up,
            rating: puzzle.rating,
        }
    }
}

/// A worker's answer to a [`PuzzleRequest`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PuzzleReply {
    /// Each move of perfect play with its exact final margin for the side that plays it.
    Line(Vec<(Move, i32)>),
    /// Every move solved: the puzzle, or `None` when no move stands out enough.
    Proven(Option<FoundPuzzle>),
    /// A solve did not fit `max_nodes`.
    OutOfReach,
    /// Not a position (bad board text).
    Failed(String),
}
