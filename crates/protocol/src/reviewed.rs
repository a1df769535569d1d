//! One move reviewed, as the worker answers a `Review` and the page saves it.

use engine::review::{Mark, MoveReview, Value};
use othello::{Color, Move};
use serde::{Deserialize, Serialize};

/// One move reviewed, as it travels from the worker and is saved with the game: the
/// engine's [`MoveReview`] in plain fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewedMove {
    pub side: Color,
    pub played: Move,
    /// The played move's value in discs for its side; `None` for a forced move.
    pub value: Option<f32>,
    pub value_exact: bool,
    pub best: Move,
    pub best_value: Option<f32>,
    pub best_exact: bool,
    /// Discs given away against the best move, never negative.
    pub loss: f32,
    /// The best line from the position, the best move first (empty for a forced move;
    /// absent in saves from before it).
    #[serde(default)]
    pub line: Vec<Move>,
    /// `best_value` is only a proven lower bound (the engine's
    /// [`MoveReview::best_is_bound`]); absent in saves from before it.
    #[serde(default)]
    pub best_is_bound: bool,
    /// `loss` was taken between the search's own estimates of the two moves, not between
    /// the values shown (the engine's [`MoveReview::loss_between_estimates`]); absent, so
    /// false, in saves from before it.
    #[serde(default)]
    pub loss_between_estimates: bool,
    /// `line` is the search's most visited path even where `best_exact` (the engine's
    /// [`MoveReview::line_searched`]); absent, so false, in saves from before it, whose
    /// exact rows had the solver's lines.
    #[serde(default)]
    pub line_searched: bool,
    /// `best` is the move a null-window solve proved to reach the bound, `line` that move
    /// then the solver's perfect play (the engine's [`MoveReview::line_from_window`]);
    /// absent, so false, in saves from before it.
    #[serde(default)]
    pub line_from_window: bool,
}

impl ReviewedMove {
    pub fn from_engine(r: &MoveReview) -> ReviewedMove {
        ReviewedMove {
            side: r.side,
            played: r.played,
            value: r.value.map(|v| v.discs),
            value_exact: r.value.is_some_and(|v| v.exact),
            best: r.best,
            best_value: r.best_value.map(|v| v.discs),
            best_exact: r.best_value.is_some_and(|v| v.exact),
            loss: r.loss,
            line: r.line.clone(),
            best_is_bound: r.best_is_bound,
            loss_between_estimates: r.loss_between_estimates,
            line_searched: r.line_searched,
            line_from_window: r.line_from_window,
        }
    }

    /// Back to the engine's type, for its summary.
    pub fn to_engine(&self) -> MoveReview {
        let value = |discs: Option<f32>, exact: bool| {
            discs.map(|d| {
                if exact {
                    Value::exact(d.round() as i32)
                } else {
                    Value::estimate(d)
                }
            })
        };
        MoveReview {
            side: self.side,
            played: self.played,
            value: value(self.value, self.value_exact),
            best: self.best,
            best_value: value(self.best_value, self.best_exact),
            loss: self.loss,
            mark: Mark::Best,
            line: self.line.clone(),
            best_is_bound: self.best_is_bound,
            loss_between_estimates: self.loss_between_estimates,
            line_searched: self.line_searched,
            line_from_window: self.line_from_window,
        }
        .graded()
    }

    /// The best line in standard notation, "c4 e3 f6"; empty for a forced move.
    pub fn line_text(&self) -> String {
        let moves: Vec<String> = self.line.iter().map(ToString::to_string).collect();
        moves.join(" ")
    }

    pub fn is_forced(&self) -> bool {
        self.value.is_none()
    }

    /// The mark, the engine's as the CLI gives it (near-best and uncertain apart from
    /// best); `None` for a forced move, which has none.
    pub fn mark(&self) -> Option<Mark> {
        (!self.is_forced()).then(|| self.to_engine().mark)
    }

    /// Whether the move's grade is not known: it would be marked best, but against a best
    /// value that is only a lower bound, which a better move may beat.
    pub fn grade_uncertain(&self) -> bool {
        self.mark() == Some(Mark::Uncertain)
    }
}
