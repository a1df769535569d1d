//! A game's review: for each move played, its value in discs, the best move's, the loss
//! between them and a mark, as Lichess marks chess games (docs/review.md). The values come
//! from an agent's search reports ([`SearchInfo`]); where the exact solver reaches they are
//! exact margins. Nothing here plays: it reads the game it is given, move by move, and runs
//! on the page's engine as it is (no threads, no files).

use crate::agent::{Agent, Budget, RootRule};
use crate::evaluator::EvalError;
use crate::mcts::RootSolve;
use crate::report::{discs_of_value, SearchInfo};
use crate::solver::{Solution, Solver};
use frame::Frame;
use othello::{BoardSize, Color, Game, IllegalMove, Move, Position};
use std::fmt;
use thiserror::Error;

mod frame;

#[cfg(test)]
mod tests;

/// A loss of at least this many discs is an inaccuracy. Exact margins differ by an even
/// number of discs, so in a solved endgame every move short of the best is one.
pub const INACCURACY_DISCS: f32 = 2.0;
/// A loss of at least this many discs is a mistake.
pub const MISTAKE_DISCS: f32 = 4.0;
/// A loss of at least this many discs is a blunder.
pub const BLUNDER_DISCS: f32 = 8.0;
/// A loss under this is written 0.00 by the table and the CLI (two decimals): a tie with
/// the best found, so the move is marked best whoever the search named (the fifteenth look
/// read "near-best" beside a shown loss of 0.00, two estimates capped alike).
pub const TIED_DISCS: f32 = 0.005;
/// How many plies of the best line a review keeps: enough to see the idea (the reply, the
/// follow-up), short enough that a search's line is still more than noise.
pub const LINE_PLIES: usize = 6;

/// Empties at which a review solves a position exactly on a `size` board, whatever the
/// agent's own root rule says (the review's reach is the larger of the two): Othello
/// reviewers (Edax, Egaroucid, Zebra's analysis) solve a game's ending exactly from 20-24
/// empties, and a search's estimates there misgrade it (a 400-simulation review of a Saio
/// game read "b6 ≈ −30.00 best" at 19 empties, where b6 is -32 and c4 -26). The reach is
/// what the page's worker affords, since it reviews a move in one message and a worker
/// silent for 4 s is replaced: the slowest move is the one whose next position is the
/// first solved, with an empty table (1.7 s in Chromium for the Saio game at 20 empties;
/// docs/review.md has the measurements). A 4x4 board has 12 empties at the start.
pub fn review_exact_empties(size: BoardSize) -> u32 {
    match size {
        BoardSize::Four => 16,
        BoardSize::Six => 20,
        BoardSize::Eight => 20,
    }
}

/// How a move compares with the best one, by its loss in discs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mark {
    /// The best move found, or one proven to reach the same margin.
    Best,
    /// Another move less than [`INACCURACY_DISCS`] short of the best: within what a
    /// search's estimates cannot tell apart, but not the best found. Counted as best until
    /// issue 68: the page's table marked such a row "near-best" beside a summary that
    /// counted it best, and rewrote the summary's words to agree.
    NearBest,
    /// Within [`INACCURACY_DISCS`] of a best value that is only a proven lower bound: a
    /// better move may exist, so the move's grade is not known (counted as best until
    /// issue 68).
    Uncertain,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    pub const ALL: [Mark; 6] = [
        Mark::Best,
        Mark::NearBest,
        Mark::Uncertain,
        Mark::Inaccuracy,
        Mark::Mistake,
        Mark::Blunder,
    ];

    /// The mark of a move that loses `loss` discs against the best, where
    /// `as_good_as_the_best` says it is the best move found or proven as good, and
    /// `best_is_bound` that the best value is only a proven lower bound.
    pub fn of(loss: f32, as_good_as_the_best: bool, best_is_bound: bool) -> Mark {
        match Mark::of_loss(loss) {
            Mark::Best if best_is_bound => Mark::Uncertain,
            Mark::Best if !as_good_as_the_best => Mark::NearBest,
            mark => mark,
        }
    }

    /// The mark by `loss` alone, the discs lost against the best: [`Mark::Best`] for
    /// anything under [`INACCURACY_DISCS`], which [`Mark::of`] tells apart.
    pub fn of_loss(loss: f32) -> Mark {
        if loss >= BLUNDER_DISCS {
            Mark::Blunder
        } else if loss >= MISTAKE_DISCS {
            Mark::Mistake
        } else if loss >= INACCURACY_DISCS {
            Mark::Inaccuracy
        } else {
            Mark::Best
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Mark::Best => "best",
            Mark::NearBest => "near-best",
            Mark::Uncertain => "uncertain",
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A move's value: the final disc margin it leads to, for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    pub discs: f32,
    /// The solver's margin with perfect play from then on, not a search's estimate.
    pub exact: bool,
}

impl Value {
    pub fn exact(margin: i32) -> Value {
        Value {
            discs: margin as f32,
            exact: true,
        }
    }

    pub fn estimate(discs: f32) -> Value {
        Value {
            discs,
            exact: false,
        }
    }

    /// The same result from the other side.
    fn negate(self) -> Value {
        Value {
            discs: -self.discs,
            ..self
        }
    }
}

/// One move of a game, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    pub side: Color,
    pub played: Move,
    /// The played move's value; `None` for a forced move (the only legal one, or a pass),
    /// which is not searched.
    pub value: Option<Value>,
    /// The best move found: the search's choice, or the played move when its value is
    /// higher (so `best_value` is never below `value`).
    pub best: Move,
    pub best_value: Option<Value>,
    /// Discs the played move gives away against the best: `best_value - value`, never
    /// negative; 0 for a forced move.
    pub loss: f32,
    pub mark: Mark,
    /// The best line from the position, `best` first, up to [`LINE_PLIES`] plies: the
    /// solver's where the reviewer solved the position (or proved the best move's margin
    /// and solved the line within a budget), else the search's most visited path. Empty
    /// for a forced move, which was not searched.
    pub line: Vec<Move>,
    /// `line` is the search's most visited path, not perfect play, even where `best_value`
    /// is exact (the twelfth look: an exact row's line "f1 pass f2 g1 h1 pass" called the
    /// solver's, where a6 beats h1 after the pass).
    pub line_searched: bool,
    /// `best` is the move a null-window solve proved to reach the row's bound, not the
    /// search's choice, and `line` is that move then the solver's perfect play (or the
    /// move alone where that did not fit the budget): the thirteenth look read "best d1
    /// ≥+46" where d1 was the search's choice and d2, the window's, makes +52.
    pub line_from_window: bool,
    /// `best_value` is only a proven lower bound of the position's value (the solver
    /// proved a result, not the exact margin): a better move than `best` may exist, so a
    /// move within reach of it is not known to be the best, and the loss is at least
    /// `loss`.
    pub best_is_bound: bool,
    /// `loss` was taken between the search's own estimates of the played move and the
    /// best, not between `value` and `best_value`: one of those is exact and the other an
    /// estimate ([`comparable_loss`]), so the loss is not their difference.
    pub loss_between_estimates: bool,
}

impl MoveReview {
    /// A move with no alternative: no loss, nothing searched.
    pub fn forced(side: Color, played: Move) -> MoveReview {
        MoveReview {
            side,
            played,
            value: None,
            best: played,
            best_value: None,
            loss: 0.0,
            mark: Mark::Best,
            line: Vec::new(),
            line_searched: false,
            line_from_window: false,
            best_is_bound: false,
            loss_between_estimates: false,
        }
    }

    /// The review with `line` as its best line, cut to [`LINE_PLIES`]; a line that does
    /// not start with the best move (the search's path went another way, or the played
    /// move became the best) says nothing of it, so the best move stands alone.
    pub fn with_line(mut self, mut line: Vec<Move>) -> MoveReview {
        if self.is_forced() {
            return self;
        }
        if line.first() != Some(&self.best) {
            line = vec![self.best];
        }
        line.truncate(LINE_PLIES);
        self.line = line;
        self
    }

    /// The review of `played`, worth `value`, against `best`, worth `best_value`.
    pub fn new(
        side: Color,
        (played, value): (Move, Value),
        (best, best_value): (Move, Value),
    ) -> MoveReview {
        // One move has one value: the played move's own, which may be better known (a
        // deeper search of it, or exact) than the search's figure for its choice.
        let (best, best_value) = if played == best || value.discs > best_value.discs {
            (played, value)
        } else {
            (best, best_value)
        };
        let loss = comparable_loss(value, best_value, (None, None)).discs;
        MoveReview {
            side,
            played,
            value: Some(value),
            best,
            best_value: Some(best_value),
            loss,
            mark: Mark::Best,
            line: vec![best],
            line_searched: false,
            line_from_window: false,
            best_is_bound: false,
            loss_between_estimates: false,
        }
        .graded()
    }

    pub fn is_forced(&self) -> bool {
        self.value.is_none()
    }

    /// Whether the played move is the best move found, proven to reach the same margin, or
    /// tied with the best as far as the review can say (a loss written 0.00,
    /// [`TIED_DISCS`]).
    pub fn as_good_as_the_best(&self) -> bool {
        self.played == self.best
            || matches!((self.value, self.best_value),
                (Some(v), Some(b)) if v.exact && b.exact && v.discs == b.discs)
            || (!self.best_is_bound && self.loss < TIED_DISCS)
    }

    /// The review with its mark set from its loss, its best move and its bound
    /// ([`Mark::of`]); a forced move keeps [`Mark::Best`], which nothing counts.
    pub fn graded(mut self) -> MoveReview {
        if !self.is_forced() {
            self.mark = Mark::of(self.loss, self.as_good_as_the_best(), self.best_is_bound);
        }
        self
    }

    /// The review where the position is only proven to be worth at least `floor` for the
    /// side to move: the best value is that floor, and where the played move's value is
    /// exact the loss is at least the floor less it (both proven), whatever the search's
    /// estimates said.
    fn below_a_proven_floor(mut self, floor: i32) -> MoveReview {
        self.best_is_bound = true;
        self.best_value = Some(Value::estimate(floor as f32));
        if let Some(value) = self.value.filter(|v| v.exact) {
            // The page writes a bound row's loss as "at least": only the proven part is.
            let proven = (floor as f32 - value.discs).max(0.0);
            self.loss = proven;
            self.loss_between_estimates = false;
        }
        self.graded()
    }

    /// The review with its loss taken like with like ([`comparable_loss`]), with `info`'s
    /// own estimates of the played move and the best for where one value is exact and the
    /// other an estimate.
    pub fn compared_in(mut self, info: &SearchInfo) -> MoveReview {
        if let (Some(value), Some(best_value)) = (self.value, self.best_value) {
            let estimates = (
                search_estimate(info, self.played),
                search_estimate(info, self.best),
            );
            let loss = comparable_loss(value, best_value, estimates);
            self.loss = loss.discs;
            self.loss_between_estimates = loss.between_estimates;
        }
        self.graded()
    }
}

/// One side's moves in a review, in sum. Forced moves are counted apart: they say nothing
/// of the player, so the average and the marks are over the moves with a choice.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves with a choice.
    pub moves: usize,
    pub forced: usize,
    /// Discs lost over the whole game: the sum of the losses as the tables show them
    /// ([`shown_loss`]), in the game's order, so that a table's column adds up to it (the
    /// page's cumulative loss line ends on this very figure).
    pub total_loss: f32,
    /// Mean loss in discs over the moves with a choice (0 when there are none).
    pub average_loss: f32,
    /// How many of those got each mark, in the order of [`Mark::ALL`].
    pub marks: [usize; 6],
    /// How many of those have a loss that is only a lower bound (the best value a proven
    /// floor, [`MoveReview::best_is_bound`]): the total and the average are then at least
    /// what they say (the fourteenth look added row 39's "≥8" into "275.59 discs lost in
    /// all" where its loss is 14).
    pub bounded: usize,
}

/// A move's loss as the review's tables write it, to the hundredth of a disc: what the
/// totals sum, so that the figures a reader adds up give the total shown (a fresh look
/// summed a column to 111.98 under a total of 112.00).
pub fn shown_loss(loss: f32) -> f32 {
    (loss * 100.0).round() / 100.0
}

impl SideSummary {
    /// The summary of `side`'s moves among `reviews`.
    pub fn of(reviews: &[MoveReview], side: Color) -> SideSummary {
        let mut summary = SideSummary::default();
        for review in reviews.iter().filter(|r| r.side == side) {
            if review.is_forced() {
                summary.forced += 1;
                continue;
            }
            summary.moves += 1;
            summary.bounded += usize::from(review.best_is_bound);
            summary.total_loss += shown_loss(review.loss);
            summary.marks[review.mark as usize] += 1;
        }
        if summary.moves > 0 {
            summary.average_loss = summary.total_loss / summary.moves as f32;
        }
        summary
    }

    pub fn count(&self, mark: Mark) -> usize {
        self.marks[mark as usize]
    }
}

/// "average loss 1.25 discs over 28 moves with a choice (best 20, near-best 4, uncertain 0,
/// inaccuracy 2, mistake 1, blunder 1); 2 forced moves; 35.00 discs lost in all": the words
/// the CLI's table and the page's review panel share.
impl fmt::Display for SideSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let marks: Vec<String> = Mark::ALL
            .iter()
            .map(|&mark| format!("{mark} {}", self.count(mark)))
            .collect();
        let moves = |n: usize| if n == 1 { "move" } else { "moves" };
        let (at_least, bounds) = match self.bounded {
            0 => ("", String::new()),
            1 => (
                "at least ",
                " (one move's loss only a lower bound, ≥)".to_owned(),
            ),
            n => (
                "at least ",
                format!(" ({n} moves' losses only lower bounds, ≥)"),
            ),
        };
        write!(
            f,
            "average loss {at_least}{:.2} discs over {} {} with a choice ({}); {} forced {}; \
             {at_least}{:.2} discs lost in all{bounds}",
            self.average_loss,
            self.moves,
            moves(self.moves),
            marks.join(", "),
            self.forced,
            moves(self.forced),
            self.total_loss
        )
    }
}

/// Why a game cannot be reviewed.
#[derive(Debug, Error)]
pub enum ReviewError {
    #[error("move {number} ({mv}) is illegal: {cause}")]
    Illegal {
        /// 1-based, passes counted.
        number: usize,
        mv: Move,
        cause: IllegalMove,
    },
    #[error("{player} gives no values for its moves; a review needs a search (mcts)")]
    NoValues { player: String },
    #[error(transparent)]
    Eval(#[from] EvalError),
}

/// Whether a report carries values at all: a search ran, the solver settled the root, the
/// book answered, or the tree the search kept from before has the root proven (it then runs
/// no simulation of its own: a wipe-out in one, found while valuing the move before, stopped
/// the page's review there). A player that only names its move reports a value of 0 for it,
/// with none of these.
fn has_values(info: &SearchInfo) -> bool {
    info.simulations > 0 || info.solved.is_some() || info.book.is_some() || info.proof.is_some()
}

/// What `info` says `mv` is worth for the side to move, when it says: exact where the
/// move's margin bounds meet, the book's value, or the search's estimate of a move it
/// visited (the score head's margin when the network has one, else its mean value in
/// discs), held to the bounds and to the board. `None` for a move the search left alone.
pub fn move_value(info: &SearchInfo, mv: Move, squares: u32) -> Option<Value> {
    if !has_values(info) {
        return None;
    }
    let m = info.moves.iter().find(|m| m.mv == mv)?;
    let (low, high) = m.bounds.unwrap_or((-(squares as i32), squares as i32));
    if low == high {
        return Some(Value::exact(low));
    }
    // The root's exact solve is its best move's exact margin, whatever the move's own
    // bounds recorded.
    if let Some(solved) = info.solved.filter(|s| s.is_exact() && s.best == mv) {
        return Some(Value::exact(solved.margin));
    }
    let discs = match (info.book.is_some(), m.score) {
        (true, Some(score)) => score,
        _ if m.visits == 0 => return None,
        (_, Some(score)) => score,
        (_, None) => discs_of_value(m.q),
    };
    Some(estimate_within(discs, low, high, squares))
}

/// An estimate held to proven bounds and short of a wipe-out: a margin of all the board's
/// squares is a certainty only a proof may claim, so an estimate stops one short (±63 on
/// 8x8, as the page's every estimate does, `page::format::discs`; issue 68's eighth look:
/// the review's table could read "≈ +64.00" where the board's square read "≈ +63").
fn estimate_within(discs: f32, low: i32, high: i32, squares: u32) -> Value {
    let most = squares as i32 - 1;
    // Only equal bounds (an exact value, taken before this) lie wholly beyond ±most; the
    // range is kept non-empty all the same, since clamp panics on an empty one.
    let (low, high) = (low.max(-most), high.min(most));
    Value::estimate(discs.clamp(low as f32, high.max(low) as f32))
}

/// The search's own estimate of `mv` in discs (its score output's margin, else its mean
/// value in discs), whatever bounds or proofs say of it; `None` for a move it never visited.
pub fn search_estimate(info: &SearchInfo, mv: Move) -> Option<f32> {
    let m = info.moves.iter().find(|m| m.mv == mv && m.visits > 0)?;
    Some(m.score.unwrap_or_else(|| discs_of_value(m.q)))
}

/// A loss in discs, and whether it was taken between the search's own estimates of the two
/// moves rather than between their values (see [`comparable_loss`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Loss {
    pub discs: f32,
    pub between_estimates: bool,
}

/// The discs a move worth `value` gives away against the best, worth `best`, only ever
/// between values of one kind: two exact margins, or two estimates. Where one is the
/// solver's and the other the search's (the solver reached the best move's line but not
/// the played one's), the search's own estimates of both (`estimates`: the played move's,
/// the best's) are compared instead, since a proof minus a guess is neither (a game won
/// 56-0 was charged 60 discs so), and the loss says so. Only where the search has no
/// estimate of the exact side (a move that ends the game) does the loss take the two as
/// they are.
pub fn comparable_loss(value: Value, best: Value, estimates: (Option<f32>, Option<f32>)) -> Loss {
    let mixed = Loss {
        discs: (best.discs - value.discs).max(0.0),
        between_estimates: false,
    };
    if value.exact == best.exact {
        return mixed;
    }
    let played = if value.exact {
        estimates.0
    } else {
        Some(value.discs)
    };
    let best = if best.exact {
        estimates.1
    } else {
        Some(best.discs)
    };
    match (played, best) {
        (Some(played), Some(best)) => Loss {
            discs: (best - played).max(0.0),
            between_estimates: true,
        },
        _ => mixed,
    }
}

/// What `info` says the position is worth for the side to move: the solver's margin, or
/// the search's estimate (the root's, as [`move_value`] reads a move's).
pub fn root_value(info: &SearchInfo, squares: u32) -> Option<Value> {
    if let Some(solved) = info.solved {
        // A proof of the result alone bounds the margin from below: the bound is the
        // estimate, since nothing else was searched.
        return Some(if solved.is_exact() {
            Value::exact(solved.margin)
        } else {
            Value::estimate(solved.margin as f32)
        });
    }
    if !has_values(info) {
        return None;
    }
    let discs = info.score.unwrap_or_else(|| discs_of_value(info.value));
    let squares_i = squares as i32;
    Some(estimate_within(discs, -squares_i, squares_i, squares))
}

/// What `info` says its position is worth for the side to move, as a review values it: its
/// best move's value ([`move_value`]), or the root's ([`root_value`]) where it says nothing
/// of that move. One figure for a position whether it is reviewed as the position a move is
/// played from or as the one a move leads to.
pub fn position_value(info: &SearchInfo, squares: u32) -> Option<Value> {
    info.best_move()
        .and_then(|best| move_value(info, best, squares))
        .or_else(|| root_value(info, squares))
}

/// The solver's best line from `pos`, `first` (a best move) first: each position after it
/// solved in turn, up to [`LINE_PLIES`] plies or the game's end. The positions lie within a
/// ply or two of the one just solved, so its table makes them cheap.
pub fn solver_line(solver: &mut Solver, pos: &Position, first: Move) -> Vec<Move> {
    solver_line_within(solver, pos, first, u64::MAX)
}

/// [`solver_line`] with each position's solve within `max_nodes`; the first move alone
/// where one does not fit.
pub fn solver_line_within(
    solver: &mut Solver,
    pos: &Position,
    first: Move,
    max_nodes: u64,
) -> Vec<Move> {
    line_by(pos, first, |p| {
        solver.solve_within(p, max_nodes).map(|s| s.best)
    })
    .unwrap_or_else(|| vec![first])
}

/// The line from `pos`, `first` first, each next move `best_of` the position (its best
/// move; `Some(None)` where it has none, which ends the line; `None` where it could not
/// say, which gives no line), forced moves played through, up to [`LINE_PLIES`] plies or
/// the game's end.
fn line_by(
    pos: &Position,
    first: Move,
    mut best_of: impl FnMut(&Position) -> Option<Option<Move>>,
) -> Option<Vec<Move>> {
    let mut line = vec![first];
    let Ok(mut pos) = pos.play(first) else {
        return Some(line);
    };
    while line.len() < LINE_PLIES && !pos.is_game_over() {
        let mv = match pos.legal_move_list().as_slice() {
            [only] => *only,
            _ => match best_of(&pos)? {
                Some(mv) => mv,
                None => break,
            },
        };
        line.push(mv);
        match pos.play(mv) {
            Ok(next) => pos = next,
            Err(_) => break,
        }
    }
    Some(line)
}

/// How many positions a review's solver may visit to prove which move is best where the
/// played move's margin is proven and the position's is not (one ply beyond the solver's
/// reach): the Saio record's 21 empties took 47 M with an empty table, 2.5 s natively;
/// a few seconds more in a browser's worker, inside a reviewing worker's allowed silence
/// (`page::pool`); a position it does not settle is graded against the proven floor.
pub const BEST_PROOF_NODES: u64 = 60_000_000;

/// The review of `played` from exact margins: `solver`'s best, and the position after the
/// move (`after`) solved for the opponent.
fn solved(solver: &mut Solver, pos: &Position, played: Move, after: &Position) -> MoveReview {
    let best = solver.solve(pos);
    solved_from(solver, best, pos, played, after)
}

/// [`solved`] from the position's solve `best`, made already (within a budget, as
/// [`Reviewer::solve_beyond_reach`] makes it).
fn solved_from(
    solver: &mut Solver,
    best: Solution,
    pos: &Position,
    played: Move,
    after: &Position,
) -> MoveReview {
    let value = -solver.solve(after).margin;
    let best_move = best.best.unwrap_or(played);
    let review = MoveReview::new(
        pos.side_to_move(),
        (played, Value::exact(value)),
        (best_move, Value::exact(best.margin)),
    );
    let line = solver_line(solver, pos, review.best);
    review.with_line(line)
}

/// The frame each of a game's moves (each with the position it was played from) is
/// reviewed in, as [`Reviewer::review_move_in_frame`] takes it: the orientation a reviewer
/// going through the game in order has reached before the move.
pub fn frames_of(moves: &[(Position, Move)]) -> Vec<u8> {
    let mut frame = Frame::default();
    moves
        .iter()
        .map(|(pos, played)| {
            let before = frame.index();
            frame.turn(pos, *played);
            before
        })
        .collect()
}

/// Reviews a game's moves with an agent: each position with a choice is searched with the
/// budget (or solved, within [`review_exact_empties`] or where the agent's root decision
/// would solve it), and a played move the search left alone is valued by searching the
/// position after it.
///
/// Which positions are forced or solved is the review's reach or the agent's own root
/// rule, whichever reaches further (a spec's `exact=` may extend it, not shorten it), and
/// the solves use the agent's root solver ([`Agent::root_solver`]), so that one solver's
/// table serves the review's solves and the agent's.
pub struct Reviewer {
    agent: Box<dyn Agent>,
    budget: Budget,
    /// The root rule beyond the review's reach for an agent without one (every player
    /// but `mcts`), or in place of both when [`Reviewer::with_exact_empties`] sets its
    /// reach: the driver's defaults, so that such a review solves where the agent's
    /// would.
    own_rule: RootSolve,
    /// Whether `own_rule` was set by the caller, and so overrides the agent's.
    overridden: bool,
    /// The solver of `own_rule`, and of the review's reach for an agent without a root
    /// solver of its own, made on its first solve and kept, so its table serves the rest
    /// of the endgame.
    solver: Option<Solver>,
    /// The last search of a position after a played move: the next move's position, so it
    /// is not searched twice.
    kept: Option<(Position, SearchInfo)>,
    /// How the game is turned to be searched (`frame`): mirror-image games get one review.
    frame: Frame,
}

/// A summary: the agent has no text but its name, and the kept search is a cache.
impl fmt::Debug for Reviewer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reviewer")
            .field("agent", &self.agent.name())
            .field("budget", &self.budget)
            .field("own_rule", &self.own_rule)
            .field("overridden", &self.overridden)
            .finish_non_exhaustive()
    }
}

impl Reviewer {
    /// A reviewer that solves where the agent's root decision solves, with its solver.
    pub fn new(agent: Box<dyn Agent>, budget: Budget) -> Reviewer {
        Reviewer {
            agent,
            budget,
            own_rule: RootSolve::default(),
            overridden: false,
            solver: None,
            kept: None,
            frame: Frame::default(),
        }
    }

    /// Solves positions with at most `empties` empties itself, in place of the review's
    /// reach and the agent's root rule (0: never; the agent's own root solve may still
    /// settle some when it is asked to search them).
    pub fn with_exact_empties(mut self, empties: u32) -> Reviewer {
        self.own_rule.exact_empties = Some(empties);
        self.overridden = true;
        self
    }

    /// The root rule for `pos`: the review's reach ([`review_exact_empties`]), then the
    /// agent's rule, with its solver, unless the caller set the reviewer's own or the
    /// agent has none.
    fn root_rule(&mut self, pos: &Position) -> RootRule<'_> {
        if !self.overridden {
            if let Some(only) = RootRule::forced(pos) {
                return RootRule::Forced(only);
            }
            if pos.empty_count() <= review_exact_empties(pos.size()) {
                return RootRule::Exact(self.review_solver());
            }
            if let Some(rule) = self.agent.root_rule(pos) {
                return rule;
            }
        }
        let own = &self.own_rule;
        let solver = &mut self.solver;
        own.rule(pos, || solver.get_or_insert_with(|| own.new_solver()))
    }

    /// The exact solve of a position one ply beyond the review's reach, within
    /// [`BEST_PROOF_NODES`]: each move's margin there is exact (the position after it is
    /// within reach), so the row is exact only if the position is too, or a row would
    /// call the search's choice best with its exact margin where the solver beats it.
    /// `None` for any other position, or where the budget does not settle it (the row is
    /// then graded against the played move's proven margin as a floor).
    fn solve_beyond_reach(&mut self, pos: &Position) -> Option<Solution> {
        if self.overridden || pos.empty_count() != review_exact_empties(pos.size()) + 1 {
            return None;
        }
        self.review_solver().solve_within(pos, BEST_PROOF_NODES)
    }

    /// Whether `pos` lies at most two plies beyond the review's own reach (a spec's
    /// `exact=` overriding it rules the null windows and proven lines out): where the
    /// review's budgeted solves may settle what the search left open.
    fn within_two_plies(&self, pos: &Position) -> bool {
        !self.overridden && pos.empty_count() <= review_exact_empties(pos.size()) + 2
    }

    /// Whether a move of `pos` beats `margin`, which a move of it makes (for the side to
    /// move), by a null-window solve within [`BEST_PROOF_NODES`], for a position at most
    /// two plies beyond the review's reach: `Some(None)` when none does (that move is
    /// best), `Some(Some((m, mv)))` when `mv` is proven to reach at least `m` > `margin`,
    /// `None` beyond those plies or where the budget does not settle it.
    fn beaten_by(&mut self, pos: &Position, margin: i32) -> Option<Option<(i32, Move)>> {
        if !self.within_two_plies(pos) {
            return None;
        }
        self.null_window(pos, margin + 1)
    }

    /// A null-window solve of `pos` at `target` within [`BEST_PROOF_NODES`]: where some
    /// move reaches `target`, its fail-soft value (`target` or more) with that move, else
    /// `Some(None)`; `None` where the budget does not settle it.
    fn null_window(&mut self, pos: &Position, target: i32) -> Option<Option<(i32, Move)>> {
        let (value, mv) = self
            .review_solver()
            .reaches_within(pos, target, BEST_PROOF_NODES)?;
        Some(mv.map(|mv| (value, mv)))
    }

    /// The floor `better` of the best margin of `pos`, proven above the played move's
    /// `margin` ([`Reviewer::beaten_by`]), raised by null windows at the losses a blunder,
    /// a mistake and an inaccuracy start from, the largest first, until one holds: the row
    /// graded against it then has the mark its true loss has, its loss a bound only within
    /// the mark (the eleventh look: "a4 +38, best d2 ≥+40, loss ≥2: inaccuracy" where d2
    /// makes +52, a blunder; the exact solve there took 64 M positions, over the budget,
    /// where each null window takes a fraction). A window the budget does not settle is
    /// passed over, as a smaller loss would be. With the floor, the move that reaches it:
    /// the row names it as the best found (the thirteenth look: "best d1 ≥+46" named the
    /// search's choice where the window's move, d2, makes +52).
    fn floor_for_the_mark(
        &mut self,
        pos: &Position,
        margin: i32,
        better: (i32, Move),
    ) -> (i32, Move) {
        for loss in [BLUNDER_DISCS, MISTAKE_DISCS, INACCURACY_DISCS] {
            let target = margin + loss as i32;
            if better.0 >= target {
                return better;
            }
            if let Some(found) = self.null_window(pos, target).flatten() {
                return found;
            }
        }
        better
    }

    /// The solver of the review's reach: the agent's root solver, whose table the agent's
    /// own solves fill too, else the reviewer's.
    fn review_solver(&mut self) -> &mut Solver {
        match self.agent.root_solver() {
            Some(solver) => solver,
            None => {
                let own = &self.own_rule;
                self.solver.get_or_insert_with(|| own.new_solver())
            }
        }
    }

    /// Every move of `game`, in order; `progress` hears of each as it is done.
    pub fn review_game(
        &mut self,
        game: &Game,
        progress: &mut dyn FnMut(usize, &MoveReview),
    ) -> Result<Vec<MoveReview>, ReviewError> {
        self.agent.new_game();
        self.kept = None;
        self.frame = Frame::default();
        let mut reviews = Vec::with_capacity(game.moves().len());
        for (index, (pos, &mv)) in game.positions().iter().zip(game.moves()).enumerate() {
            let review = self.review_move(pos, mv).map_err(|e| match e {
                ReviewError::Illegal { mv, cause, .. } => ReviewError::Illegal {
                    number: index + 1,
                    mv,
                    cause,
                },
                other => other,
            })?;
            progress(index, &review);
            reviews.push(review);
        }
        Ok(reviews)
    }

    /// The review of `played` in `pos`. An illegal move's error says move 1: a game's
    /// review numbers it. The moves of one game are reviewed in order, in one frame
    /// (`frame`): a game and its mirror images get the same review, turned.
    pub fn review_move(&mut self, pos: &Position, played: Move) -> Result<MoveReview, ReviewError> {
        pos.play(played).map_err(|cause| ReviewError::Illegal {
            number: 1,
            mv: played,
            cause,
        })?;
        let (turned, turned_played) = self.frame.turn(pos, played);
        let review = self.review_turned(&turned, turned_played)?;
        Ok(self.frame.back(review, pos.size()))
    }

    /// [`Reviewer::review_move`] for a move reviewed apart from the moves before it (the
    /// page spreads a game's moves over several workers): `frame` is the orientation a
    /// reviewer going through the game in order would have reached by then
    /// ([`frames_of`]), so the move is searched turned as `othello review` turns it.
    pub fn review_move_in_frame(
        &mut self,
        frame: u8,
        pos: &Position,
        played: Move,
    ) -> Result<MoveReview, ReviewError> {
        self.frame = Frame::from_index(frame);
        self.review_move(pos, played)
    }

    /// [`Reviewer::review_move`] in the frame's orientation.
    fn review_turned(&mut self, pos: &Position, played: Move) -> Result<MoveReview, ReviewError> {
        let illegal = |cause| ReviewError::Illegal {
            number: 1,
            mv: played,
            cause,
        };
        let after = pos.play(played).map_err(illegal)?;
        let side = pos.side_to_move();
        match self.root_rule(pos) {
            RootRule::Forced(_) => return Ok(MoveReview::forced(side, played)),
            RootRule::Exact(solver) => return Ok(solved(solver, pos, played, &after)),
            RootRule::Open => {}
        }
        // Beyond the reach every proof is budgeted in nodes, and what a budget settles
        // depends on what the solver's table holds: each such row starts from an empty
        // table, and each search leaves it empty (`search`), so that a row is the same
        // whichever rows this reviewer did before it (the page's workers take a game's
        // moves in any order; the thirteenth look saw two reviews of one record differ).
        self.review_solver().clear();
        if let Some(best) = self.solve_beyond_reach(pos) {
            return Ok(solved_from(self.review_solver(), best, pos, played, &after));
        }
        let squares = pos.size().squares();
        let info = self.search(pos)?;
        let no_values = || ReviewError::NoValues {
            player: self.agent.name(),
        };
        let best = info.best_move().ok_or_else(no_values)?;
        // A move that is the search's choice turned by a symmetry of the position is that
        // move: it is best, whatever the two searches' noise says of each.
        let best = if frame::equivalent(pos, best, played) {
            played
        } else {
            best
        };
        let best_value = position_value(&info, squares).ok_or_else(no_values)?;
        // The played move's value is the position after it as the next move's review sees
        // it (the search of that position, kept for it), unless this search proved its
        // margin: a move valued from a few visits here and the next position valued by a
        // search of its own once disagreed by 10 discs in one move (issue 68), while the
        // graph's fall over a move should be that move's loss.
        let (value, after_line) = match move_value(&info, played, squares).filter(|v| v.exact) {
            Some(value) => (value, None),
            None => {
                let (value, line) = self.value_after(&after, side)?;
                (value, Some(line))
            }
        };
        let mut floor = info.solved.filter(|s| !s.is_exact()).map(|s| s.margin);
        // The move a null window proved to reach the floor, where it is not the search's.
        let mut window_move = None;
        // The played move's margin proven but not the position's, within two plies of the
        // reach: a null-window solve around the move's margin, far cheaper than the exact
        // solve, says whether any move beats it (the tenth look: "a4 -58, not proven best"
        // where a4 and a3 were the only moves, and "a4 +38, best d2 ≥+38, loss ≥0" where d2
        // makes +52).
        let (mut best, mut best_value) = (best, best_value);
        if value.exact && !best_value.exact {
            let margin = value.discs as i32;
            match self.beaten_by(pos, margin) {
                Some(None) => (best, best_value) = (played, value),
                Some(Some(better)) => {
                    let (reached, by) = self.floor_for_the_mark(pos, margin, better);
                    if floor.is_none_or(|f| reached >= f) {
                        floor = Some(reached);
                        window_move = (by != best).then_some(by);
                    }
                }
                None => {}
            }
        }
        // The played move's margin proven but not the position's: the search's choice may
        // not be the best there is, and a row calling it best with the move's exact margin
        // would claim a proof that nobody made (issue 68's ninth look: "e8 +52, best e8
        // +52" where h2 makes +54).
        // A position one ply beyond the reach is solved within a budget before this
        // ([`Reviewer::solve_beyond_reach`]); where that did not fit, or an agent's own
        // proof reached a move beyond it, the played move's margin is a proven floor of
        // the position's value, and the grade is uncertain.
        if value.exact && !best_value.exact {
            floor = floor.max(Some(value.discs as i32));
        }
        // The window's move is worth at least the floor, above the played move's margin.
        if let (Some(by), Some(floor)) = (window_move, floor) {
            (best, best_value) = (by, Value::estimate(floor as f32));
        }
        let mut review =
            MoveReview::new(side, (played, value), (best, best_value)).compared_in(&info);
        // A proof of the result alone bounds the position's value from below: the best
        // move found may not be the best there is, and the position's value is said as
        // the proven floor, never the search's estimate of the move (a review once read
        // "best c1 ≥+50" where the proof reached +44, and c1 was worth exactly +44).
        if let Some(floor) = floor {
            review = review.below_a_proven_floor(floor);
        }
        Ok(self.with_best_line(review, pos, &info, after_line, window_move))
    }

    /// `review` with its best line: the solver's where the best move's margin is proven
    /// and its positions solve within the budget (a search's path after it is no perfect
    /// play); the window's move then the solver's where a null window named the best
    /// ([`MoveReview::line_from_window`]); else the search's (`info`'s, or where the played
    /// move turned out best, that move and the search after it, `after_line`).
    fn with_best_line(
        &mut self,
        review: MoveReview,
        pos: &Position,
        info: &SearchInfo,
        after_line: Option<Vec<Move>>,
        window_move: Option<Move>,
    ) -> MoveReview {
        let played = review.played;
        let proven = review.best_value.is_some_and(|v| v.exact) && !review.best_is_bound;
        if let Some(line) = proven.then(|| self.proven_line(pos, review.best)).flatten() {
            return review.with_line(line);
        }
        if let Some(by) = window_move {
            let line = self.proven_line(pos, by).unwrap_or_else(|| vec![by]);
            let mut review = review.with_line(line);
            review.line_from_window = true;
            return review;
        }
        let line = match after_line {
            Some(rest) if review.best == played && info.pv.first() != Some(&played) => {
                std::iter::once(played).chain(rest).collect()
            }
            // Proven best by the null window, its line unsearched: the move alone.
            None if review.best == played && info.pv.first() != Some(&played) => vec![played],
            _ => info.pv.clone(),
        };
        let mut review = review.with_line(line);
        review.line_searched = true;
        review
    }

    /// The solver's line from `pos`, `first` first, for a position at most two plies
    /// beyond the review's reach, each position of it solved within
    /// [`BEST_PROOF_NODES`]; `None` beyond those plies or where a solve does not fit.
    fn proven_line(&mut self, pos: &Position, first: Move) -> Option<Vec<Move>> {
        if !self.within_two_plies(pos) {
            return None;
        }
        let solver = self.review_solver();
        line_by(pos, first, |p| {
            solver.solve_within(p, BEST_PROOF_NODES).map(|s| s.best)
        })
    }

    /// The value for `side` of the position after its move: the final margin when the game
    /// is over, else the search of the first position with a choice (forced moves and
    /// passes, which an agent plays without searching, are played through), valued as
    /// [`position_value`] values a position and turned round when the opponent is to move
    /// there; with the line from there (the forced moves,
    /// then that search's principal variation).
    fn value_after(
        &mut self,
        after: &Position,
        side: Color,
    ) -> Result<(Value, Vec<Move>), ReviewError> {
        let mut pos = *after;
        let mut line = Vec::new();
        loop {
            if let Some(outcome) = pos.outcome() {
                return Ok((Value::exact(outcome.margin_for(side)), line));
            }
            match pos.legal_move_list().as_slice() {
                [only] => {
                    line.push(*only);
                    pos = pos.play_unchecked(*only);
                }
                _ => break,
            }
        }
        // Where the next move's review will solve the position, it is valued by that
        // solve here too: the played move's value is then the exact margin the next row
        // shows, not a search's estimate of a position the review then calls exact.
        let value = if let RootRule::Exact(solver) = self.root_rule(&pos) {
            Value::exact(solver.solve(&pos).margin)
        } else if let Some(solution) = self.solve_beyond_reach(&pos) {
            Value::exact(solution.margin)
        } else {
            let info = self.search(&pos)?;
            let value = position_value(&info, pos.size().squares()).ok_or_else(|| {
                ReviewError::NoValues {
                    player: self.agent.name(),
                }
            })?;
            line.extend(info.pv.iter().copied());
            self.kept = Some((pos, info));
            value
        };
        let value = if pos.side_to_move() == side {
            value
        } else {
            value.negate()
        };
        Ok((value, line))
    }

    /// The agent's search of `pos`, or the one kept from valuing the move into it. Each
    /// search starts afresh, its noise drawn for the position ([`Agent::restart`]): a
    /// position's values then do not depend on which moves this reviewer searched before,
    /// so a review spread over several workers (the page's) is the same each time, and
    /// the same as one reviewer's in order (`othello review`).
    fn search(&mut self, pos: &Position) -> Result<SearchInfo, ReviewError> {
        match self.kept.take() {
            Some((kept, info)) if kept == *pos => Ok(info),
            _ => {
                self.agent.restart(pos.hash());
                self.review_solver().clear();
                let info = self.agent.think(pos, &self.budget, &mut |_| true);
                self.review_solver().clear();
                Ok(info?)
            }
        }
    }
}
