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
use engine::network::features::odd_quadrants;
use engine::puzzles::{Puzzle, PuzzleKind, PuzzleSet, Theme, Themes};
use engine::{Evaluator, ModelSource, PlayerSpec, Solver, SpecError};
use othello::{Bitboard, BoardSize, Game, Move, Position, Square, Variant};
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

/// The exact margin of every legal move, best first (the solver's `score_moves`).
pub type Scores = Vec<(Move, i32)>;

/// The kind of puzzle `scores` make, if any, with the answer and the runner-up's margin.
pub fn classify(scores: &Scores, gap: i32) -> Option<(PuzzleKind, Move, i32, i32)> {
    let [(answer, best), (_, second), ..] = scores.as_slice() else {
        return None;
    };
    let kind = if *best > 0 && *second <= 0 {
        PuzzleKind::OnlyWin
    } else if *best == 0 && *second < 0 {
        PuzzleKind::OnlyDraw
    } else if best - second >= gap {
        PuzzleKind::BestMargin
    } else {
        return None;
    };
    (*answer != Move::Pass).then_some((kind, *answer, *best, *second))
}

fn on_edge(sq: Square, size: BoardSize) -> bool {
    let n = size.n() - 1;
    sq.row() == 0 || sq.column() == 0 || sq.row() == n || sq.column() == n
}

/// The themes of a puzzle (definitions in docs/puzzles.md).
pub fn themes(pos: &Position, answer: Move, scores: &Scores) -> Themes {
    let size = pos.size();
    let Some(square) = answer.square() else {
        return Themes::default();
    };
    let margin_of = |mv: Move| scores.iter().find(|(m, _)| *m == mv).map(|(_, v)| *v);
    let best = margin_of(answer).unwrap_or(0);
    let worse = |mv: Move| mv != answer && margin_of(mv).is_some_and(|v| v < best);
    let legal = pos.legal_move_list();
    let corner_set = Bitboard(size.corners());
    let mut themes = Themes::default();
    let is_corner = |mv: Move| mv.square().is_some_and(|sq| corner_set.contains(sq));
    if !is_corner(answer) && legal.iter().any(|&mv| is_corner(mv) && worse(mv)) {
        themes = themes.with(Theme::CornerTrap);
    }
    // A move's square is empty, so it is among these exactly when its quadrant holds an
    // odd number of empties.
    let odd_squares = Bitboard(odd_quadrants(pos.empty().0, size));
    let odd = |mv: Move| mv.square().is_some_and(|sq| odd_squares.contains(sq));
    if odd(answer) && legal.iter().any(|&mv| !odd(mv) && worse(mv)) {
        themes = themes.with(Theme::Parity);
    }
    let after = pos.play_unchecked(answer);
    if after.must_pass() && !after.is_game_over() {
        themes = themes.with(Theme::ForcePass);
    }
    let their_corners_before =
        pos.with_side_to_move(after.side_to_move()).legal_moves() & corner_set;
    let their_corners_after = after.legal_moves() & corner_set;
    if (their_corners_after & !their_corners_before) != Bitboard::EMPTY {
        themes = themes.with(Theme::Sacrifice);
    }
    let flips = |mv: Move| pos.flips(mv).count();
    let most = legal.iter().map(|&mv| flips(mv)).max().unwrap_or(0);
    let greediest: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&mv| flips(mv) == most)
        .collect();
    if greediest.len() == 1 && worse(greediest[0]) {
        themes = themes.with(Theme::GreedyTrap);
    }
    if !is_corner(answer) && on_edge(square, size) {
        themes = themes.with(Theme::Edge);
    }
    if flips(answer) == 1 {
        themes = themes.with(Theme::Quiet);
    }
    themes
}

/// The weak players whose misses make a puzzle harder, with what a miss adds to its
/// rating: a player that plays by one rule finds a puzzle whose answer follows that rule.
const SOLVERS: [(&str, u16); 3] = [
    ("greedy:seed=1", 200),
    ("heuristic:seed=1", 250),
    ("alphabeta:depth=2,seed=1", 300),
];
/// A puzzle every weak player solves, with the policy's first choice as its answer.
const BASE_RATING: u16 = 1000;
/// Added per place the answer is below the policy's first choice, up to four places.
const POLICY_RANK_STEP: u16 = 100;

/// Rates puzzles by how weak players of ours fare on them.
pub struct Rater<'a> {
    solvers: Vec<(PlayerSpec, u16)>,
    policy: Option<Box<dyn Evaluator + Send>>,
    models: &'a dyn ModelSource,
}

impl std::fmt::Debug for Rater<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rater")
            .field("solvers", &self.solvers)
            .field("policy", &self.policy.is_some())
            .finish_non_exhaustive()
    }
}

impl<'a> Rater<'a> {
    pub fn new(
        policy: Option<&PlayerSpec>,
        models: &'a dyn ModelSource,
    ) -> Result<Rater<'a>, SpecError> {
        let solvers = SOLVERS
            .into_iter()
            .map(|(spec, weight)| Ok((spec.parse::<PlayerSpec>()?, weight)))
            .collect::<Result<Vec<_>, SpecError>>()?;
        let policy = policy.map(|spec| spec.evaluator(1, models)).transpose()?;
        Ok(Rater {
            solvers,
            policy,
            models,
        })
    }

    /// Whether a weak player, built afresh with a seed from the position (so that a
    /// rating depends on the puzzle alone), plays `answer`.
    fn finds(&self, spec: &PlayerSpec, pos: &Position, answer: Move) -> bool {
        match spec.build(pos.hash(), self.models) {
            Ok((mut agent, budget)) => agent.select_move(pos, &budget) == answer,
            Err(_) => false,
        }
    }

    /// The first rating: the base, plus each weak player's weight if it misses the
    /// answer, plus a step for each place the policy ranks the answer below its first
    /// choice (up to four), plus 100 for a draw to keep (players reach for wins).
    pub fn rate(&mut self, pos: &Position, answer: Move, kind: PuzzleKind) -> u16 {
        let mut rating = BASE_RATING;
        for (spec, weight) in &self.solvers {
            if !self.finds(spec, pos, answer) {
                rating += *weight;
            }
        }
        if let Some(policy) = &mut self.policy {
            if let Ok(evals) = policy.evaluate(&[*pos]) {
                if let Some(eval) = evals.first() {
                    let legal = pos.legal_move_list();
                    let prior_of = |mv: Move| {
                        legal
                            .iter()
                            .position(|m| *m == mv)
                            .and_then(|i| eval.priors.get(i).copied())
                            .unwrap_or(0.0)
                    };
                    let answer_prior = prior_of(answer);
                    let above = legal
                        .iter()
                        .filter(|&&m| prior_of(m) > answer_prior)
                        .count();
                    rating += POLICY_RANK_STEP * above.min(4) as u16;
                }
            }
        }
        if kind == PuzzleKind::OnlyDraw {
            rating += 100;
        }
        rating
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
        let Some((kind, answer, margin, runner_up)) = classify(&scores, rules.gap) else {
            continue;
        };
        let puzzle = Puzzle {
            position: *pos,
            answer,
            kind,
            themes: themes(pos, answer, &scores),
            margin: margin as i8,
            runner_up: runner_up as i8,
            rating: rater.rate(pos, answer, kind),
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
