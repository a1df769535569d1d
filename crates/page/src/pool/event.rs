//! What the pool tells the page, and what a search is for. Plain data, so the view that
//! consumes them is tested without a browser.

use crate::merge::Merged;
use othello::{BoardSize, Variant};
use protocol::ReviewedMove;

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The agent's move: played when the search ends.
    Move,
    /// A suggestion for the person.
    Hint,
    /// Analysis mode: shown, never played.
    Analysis,
}

/// What the worker pool tells the view.
#[derive(Clone, Debug, PartialEq)]
pub enum PoolEvent {
    Progress {
        purpose: Purpose,
        position: u64,
        merged: Merged,
    },
    Done {
        purpose: Purpose,
        position: u64,
        merged: Merged,
    },
    /// The search could not run; `size` and `variant` name the board, so the view can
    /// retire a network that fails.
    Failed {
        purpose: Purpose,
        position: u64,
        size: BoardSize,
        variant: Variant,
        error: String,
    },
    ModelLoaded {
        name: String,
        size: BoardSize,
        variant: Variant,
    },
    ModelRejected {
        name: String,
        error: String,
    },
    WorkerRestarted {
        index: usize,
    },
    /// A move of the review under way is reviewed: the move played from the position with
    /// hash `position`, the `done`th of `total`.
    Reviewed {
        id: u64,
        position: u64,
        review: ReviewedMove,
        done: usize,
        total: usize,
    },
    /// The review stopped: every move is reviewed (`error: None`), or one could not be.
    ReviewEnded {
        id: u64,
        error: Option<String>,
    },
}
