//! Finding puzzles in games and proving them (docs/puzzles.md), as lichess-puzzler's
//! generator finds positions with one right move and checks them with an engine
//! (ornicar/lichess-puzzler, `generator/generator.py`), and its tagger names themes from
//! what the position is (`tagger/cook.py`). Here the engine is the exact solver, so every
//! kept puzzle's answer is proven: every legal move of the position is solved exactly.
//!
//! A position of a game becomes a puzzle when its best move is unique and clearly so: the
//! only winning move, the only move that keeps the draw, or a margin ahead of every other
//! move's by at least `gap` discs. Its first rating comes from how weak players of ours
//! fare on it (`greedy`, `heuristic`, `alphabeta:depth=2`, and the network's policy when
//! one is given).

use engine::book::BookKey;
pub use engine::puzzles::{classify, judge, themes, Rater, Scores};
use engine::puzzles::{Puzzle, PuzzleSet};
use engine::{PlayerSpec, Solver};
use othello::{BoardSize, Game, Variant};
use std::collections::{BTreeMap, HashSet};

/// What to look for.
#[derive(Clone, Debug)]
pub struct PuzzleRules {
    /// Positions with this many empties or fewer (and at least `min_empties`) are tried.
    pub max_empties: u32,
    pub min_empties: u32,
    /// A best-margin puzzle's answer is ahead of every other move by at least this.
    pub gap: i32,
    /// The network whose policy rank of the answer goes into the rating, if any: a spec
    /// such as `policy:model=models/az-8x8.onnx`.
    pub policy: Option<PlayerSpec>,
}

/// What came of the candidates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PuzzleCounts {
    /// Positions of the games within the empties (each position once, up to symmetry).
    pub tried: usize,
    pub kept: usize,
    pub by_kind: BTreeMap<&'static str, usize>,
    pub by_theme: BTreeMap<&'static str, usize>,
    pub by_empties: BTreeMap<u32, usize>,
    /// Ratings in bands of 200.
    pub by_rating: BTreeMap<u16, usize>,
}

impl PuzzleCounts {
    fn count(&mut self, puzzle: &Puzzle) {
        self.kept += 1;
        *self.by_kind.entry(puzzle.kind.name()).or_default() += 1;
        for theme in puzzle.themes.iter() {
            *self.by_theme.entry(theme.name()).or_default() += 1;
        }
        *self
            .by_empties
            .entry(puzzle.position.empty_count())
            .or_default() += 1;
        *self.by_rating.entry(puzzle.rating / 200 * 200).or_default() += 1;
    }

    /// The counts of a set, as `othello puzzles build` and `check` print them.
    pub fn of(set: &PuzzleSet, tried: usize) -> PuzzleCounts {
        let mut counts = PuzzleCounts {
            tried,
            ..PuzzleCounts::default()
        };
        for puzzle in &set.puzzles {
            counts.count(puzzle);
        }
        counts
    }
}

/// Finds and proves the puzzles of `games`, each position once (up to symmetry), calling
/// `progress` with (positions solved, positions to solve).
pub fn find_puzzles(
    games: &[Game],
    size: BoardSize,
    variant: Variant,
    rules: &PuzzleRules,
    rater: &mut Rater<'_>,
    progress: &dyn Fn(usize, usize),
) -> (PuzzleSet, PuzzleCounts) {
    let mut seen = HashSet::new();
    let mut candidates = Vec::new();
    for game in games {
        if game.start().size() != size || game.start().variant() != variant {
            continue;
        }
        for pos in game.positions() {
            let empties = pos.empty_count();
            if empties < rules.min_empties
                || empties > rules.max_empties
                || pos.legal_move_list().len() < 2
            {
                continue;
            }
            if seen.insert(BookKey::of(pos).0) {
                candidates.push(*pos);
            }
        }
    }
    let mut solver = Solver::new();
    let mut set = PuzzleSet {
        size,
        variant,
        puzzles: Vec::new(),
    };
    let mut counts = PuzzleCounts {
        tried: candidates.len(),
        ..PuzzleCounts::default()
    };
    for (done, pos) in candidates.iter().enumerate() {
        progress(done, candidates.len());
        let scores = solver.score_moves(pos);
        let Some(puzzle) = judge(pos, &scores, rules.gap, rater) else {
            continue;
        };
        counts.count(&puzzle);
        set.puzzles.push(puzzle);
    }
    progress(candidates.len(), candidates.len());
    (set, counts)
}

/// Why a puzzle fails its proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckFailure {
    pub index: usize,
    pub reason: String,
}

/// Proves every puzzle again: the answer and margins are the solver's, the answer is the
/// one best move, the kind follows from the margins, and the themes are what they are.
/// Returns the puzzles that fail.
pub fn check_puzzles(set: &PuzzleSet, progress: &dyn Fn(usize, usize)) -> Vec<CheckFailure> {
    let mut solver = Solver::new();
    let mut failures = Vec::new();
    for (index, puzzle) in set.puzzles.iter().enumerate() {
        progress(index, set.puzzles.len());
        let scores = solver.score_moves(&puzzle.position);
        // The kinds are tried in order (a win, a draw, then a margin), so a gap of one
        // disc gives the kind the build gave, whatever its gap was.
        let proven = classify(&scores, 1);
        let claimed = Some((
            puzzle.kind,
            puzzle.answer,
            i32::from(puzzle.margin),
            i32::from(puzzle.runner_up),
        ));
        let reason = if proven != claimed {
            Some(format!(
                "the solver finds {proven:?}, the file says {claimed:?}"
            ))
        } else if themes(&puzzle.position, puzzle.answer, &scores) != puzzle.themes {
            Some("its themes are not the position's".to_owned())
        } else {
            None
        };
        if let Some(reason) = reason {
            failures.push(CheckFailure { index, reason });
        }
    }
    progress(set.puzzles.len(), set.puzzles.len());
    failures
}

#[cfg(test)]
#[path = "puzzles_tests.rs"]
mod tests;
