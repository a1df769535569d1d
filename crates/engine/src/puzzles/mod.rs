//! Puzzles: positions with one right move, proven by the exact solver (docs/puzzles.md).
//!
//! A puzzle is a position, its answer and what kind of answer it is: the only move that
//! wins, the only move that keeps the draw, or the move whose margin is clearly the best.
//! Its themes say what the position is about (a corner that is a trap, parity, a forced
//! pass, ...), and its rating how hard weak players of ours found it. Finding and proving
//! puzzles in games is native work (`tools::puzzles`); the set's file is read here, so that
//! the page reads it with the same care as every other command, and a position is judged
//! here (`judge.rs`), so that the page's worker proves a player's own mistakes by the same
//! rules as the shipped sets.

mod format;
mod judge;

pub use format::{PuzzleFileError, PUZZLE_FORMAT_VERSION};
pub use judge::{
    classify, default_gap, judge, perfect_line, prove_puzzle, themes, Proving, Rater, Scores,
    BASE_RATING,
};

use othello::{BoardSize, Move, Position, Variant};
use std::fmt;

/// What kind of answer a puzzle has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PuzzleKind {
    /// The answer is the only move that wins.
    OnlyWin,
    /// The answer is the only move that does not lose (it draws).
    OnlyDraw,
    /// The answer's exact margin is ahead of every other move's by at least the set's gap.
    BestMargin,
}

impl PuzzleKind {
    pub const ALL: [PuzzleKind; 3] = [
        PuzzleKind::OnlyWin,
        PuzzleKind::OnlyDraw,
        PuzzleKind::BestMargin,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PuzzleKind::OnlyWin => "only-win",
            PuzzleKind::OnlyDraw => "only-draw",
            PuzzleKind::BestMargin => "best-margin",
        }
    }

    /// The kind `othello puzzles list` names so (`name`).
    pub fn from_name(name: &str) -> Option<PuzzleKind> {
        PuzzleKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Whether an answer's `margin` and the runner-up's can be this kind's on a board of
    /// `size`: the one check of a puzzle's margins, for a shipped file's entries and a
    /// player's stored puzzles alike.
    pub fn fits(self, margin: i8, runner_up: i8, size: BoardSize) -> bool {
        let squares = i32::try_from(size.squares()).unwrap_or(i32::MAX);
        let on_board = |m: i8| i32::from(m).abs() <= squares;
        let consistent = match self {
            PuzzleKind::OnlyWin => margin > 0 && runner_up <= 0,
            PuzzleKind::OnlyDraw => margin == 0 && runner_up < 0,
            PuzzleKind::BestMargin => margin > runner_up,
        };
        consistent && on_board(margin) && on_board(runner_up)
    }

    /// What a player is asked, in words.
    pub fn task(self) -> &'static str {
        match self {
            PuzzleKind::OnlyWin => "find the only move that wins",
            PuzzleKind::OnlyDraw => "find the only move that keeps the draw",
            PuzzleKind::BestMargin => "find the move that wins the most discs",
        }
    }
}

/// What a puzzle is about, beside its kind; a puzzle may have several. The definitions are
/// in docs/puzzles.md, and `tools::puzzles` decides them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// Taking an available corner, the obvious move, is not the answer and does worse.
    CornerTrap,
    /// The answer plays into an odd empty region, and a move into an even one does worse.
    Parity,
    /// After the answer the opponent must pass.
    ForcePass,
    /// After the answer the opponent may take a corner it could not take before.
    Sacrifice,
    /// The move that flips the most discs is not the answer and does worse.
    GreedyTrap,
    /// The answer is on an edge (not a corner).
    Edge,
    /// The answer flips a single disc.
    Quiet,
}

impl Theme {
    pub const ALL: [Theme; 7] = [
        Theme::CornerTrap,
        Theme::Parity,
        Theme::ForcePass,
        Theme::Sacrifice,
        Theme::GreedyTrap,
        Theme::Edge,
        Theme::Quiet,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Theme::CornerTrap => "corner-trap",
            Theme::Parity => "parity",
            Theme::ForcePass => "force-pass",
            Theme::Sacrifice => "sacrifice",
            Theme::GreedyTrap => "greedy-trap",
            Theme::Edge => "edge",
            Theme::Quiet => "quiet",
        }
    }

    /// The theme `name` names.
    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|theme| theme.name() == name)
    }

    fn bit(self) -> u16 {
        1 << Theme::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }
}

/// A set of themes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Themes(u16);

impl Themes {
    pub fn with(self, theme: Theme) -> Themes {
        Themes(self.0 | theme.bit())
    }

    pub fn has(self, theme: Theme) -> bool {
        self.0 & theme.bit() != 0
    }

    pub fn iter(self) -> impl Iterator<Item = Theme> {
        Theme::ALL.into_iter().filter(move |t| self.has(*t))
    }

    fn bits(self) -> u16 {
        self.0
    }

    fn from_bits(bits: u16) -> Option<Themes> {
        (bits >> Theme::ALL.len() == 0).then_some(Themes(bits))
    }
}

impl fmt::Display for Themes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(Theme::name).collect();
        if names.is_empty() {
            f.write_str("-")
        } else {
            f.write_str(&names.join(","))
        }
    }
}

/// One puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub position: Position,
    pub answer: Move,
    pub kind: PuzzleKind,
    pub themes: Themes,
    /// The exact final margin, for the side to move, after the answer and perfect play.
    pub margin: i8,
    /// The best exact margin of any other move.
    pub runner_up: i8,
    /// The first rating, on the Glicko scale (1500 is average), from how hard the answer
    /// was for weak players of ours (docs/puzzles.md).
    pub rating: u16,
}

impl Puzzle {
    /// One line, as `othello puzzles list` prints it: `<board text> <answer> <kind>
    /// <themes> <rating>`, the board text with its side as `othello show` reads it.
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {} {}",
            self.position.to_board_text(),
            self.answer,
            self.kind.name(),
            self.themes,
            self.rating
        )
    }
}

/// A set of puzzles for one board and rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleSet {
    pub size: BoardSize,
    pub variant: Variant,
    pub puzzles: Vec<Puzzle>,
}

#[cfg(test)]
mod tests;
