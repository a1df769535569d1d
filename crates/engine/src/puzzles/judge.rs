//! Judging a position as a puzzle (docs/puzzles.md): its kind from every move's exact
//! margin, its themes from what the position is, and its first rating from how weak
//! players of ours fare on it. The engine's, not the tools', so that the page's worker
//! proves a player's own mistakes by the same rules as `othello puzzles build`.

use super::{Puzzle, PuzzleKind, Theme, Themes};
use crate::network::features::odd_quadrants;
use crate::solver::Solver;
use crate::{Evaluator, ModelSource, PlayerSpec, SpecError};
use othello::{Bitboard, BoardSize, Move, Position, Square};

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
pub const BASE_RATING: u16 = 1000;
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

/// The gap a best-margin puzzle needs on each board: the shipped sets were built with 8
/// discs on 8x8 and 6 on the smaller boards (docs/puzzles.md).
pub fn default_gap(size: BoardSize) -> i32 {
    if size.n() >= 8 {
        8
    } else {
        6
    }
}

/// What proving a position as a puzzle came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proving {
    /// Every move solved, and one is the answer by the rules of the shipped sets.
    Puzzle(Puzzle),
    /// Every move solved, and none stands out enough (or the side to move has one move).
    NotAPuzzle,
    /// Some move's exact margin did not fit the budget: the position stays unproven.
    OutOfReach,
}

/// Proves `pos` as a puzzle by the rules `othello puzzles build` applies (its kind from
/// every move's exact margin, `gap` for a best margin, its themes and first rating), with
/// at most `max_nodes` visited positions for each move, so that a caller that must stay
/// responsive (the page's worker, proving a player's mistakes) knows the cost is bounded.
pub fn prove_puzzle(
    pos: &Position,
    solver: &mut Solver,
    max_nodes: u64,
    gap: i32,
    rater: &mut Rater<'_>,
) -> Proving {
    let legal = pos.legal_move_list();
    if legal.len() < 2 {
        return Proving::NotAPuzzle;
    }
    let mut scores = Scores::new();
    for mv in legal {
        let Ok(after) = pos.play(mv) else {
            return Proving::NotAPuzzle;
        };
        match solver.solve_within(&after, max_nodes) {
            Some(solution) => scores.push((mv, -solution.margin)),
            None => return Proving::OutOfReach,
        }
    }
    // Best first, as the solver's `score_moves` orders them; ties keep the legal order.
    scores.sort_by_key(|(_, margin)| -margin);
    match judge(pos, &scores, gap, rater) {
        Some(puzzle) => Proving::Puzzle(puzzle),
        None => Proving::NotAPuzzle,
    }
}

/// The puzzle `pos` makes, from every legal move's exact margin (`scores`, best first):
/// its kind and answer (`classify`), themes and first rating; `None` when no move stands
/// out by the rules. What `othello puzzles build` and [`prove_puzzle`] both keep.
pub fn judge(pos: &Position, scores: &Scores, gap: i32, rater: &mut Rater<'_>) -> Option<Puzzle> {
    let (kind, answer, margin, runner_up) = classify(scores, gap)?;
    Some(Puzzle {
        position: *pos,
        answer,
        kind,
        themes: themes(pos, answer, scores),
        margin: margin as i8,
        runner_up: runner_up as i8,
        rating: rater.rate(pos, answer, kind),
    })
}

/// Perfect play from `pos` to the end of the game: each move with its exact final margin
/// for the side that plays it (a pass included). The solver's table carries from one move
/// to the next, so the line costs little more than the first solve.
pub fn perfect_line(pos: &Position, solver: &mut Solver) -> Vec<(Move, i32)> {
    let mut line = Vec::new();
    let mut now = *pos;
    while !now.is_game_over() {
        let solution = solver.solve(&now);
        let mv = match solution.best {
            Some(mv) => mv,
            None if now.must_pass() => Move::Pass,
            None => break,
        };
        let Ok(next) = now.play(mv) else { break };
        line.push((mv, solution.margin));
        now = next;
    }
    line
}
