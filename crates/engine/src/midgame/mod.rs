//! Alpha-beta in the midgame around a cheap evaluation, as every strong Othello program
//! searches (Edax `src/midgame.c`, Egaroucid `src/engine/midsearch.hpp`): iterative
//! deepening of a principal variation search (NegaScout) with a transposition table, moves
//! ordered by the table's move, a shallow look at each child (its evaluation, its replies)
//! and mobility, Multi-ProbCut (Buro 1997) where it is switched on, and the exact solver
//! for every position the search would follow to the end of the game.
//!
//! It works over any [`StaticEval`]: a pattern network's tables (millions of positions a
//! second), the hand-made features of the classic player, or any [`crate::Evaluator`] one
//! position at a time. `alphabeta` players search with it (`players/alphabeta.rs`), and
//! MCTS may value its leaves with it (`mcts::AlphaBetaLeaves`). docs/midgame.md says how
//! it is built and what it measured.

pub mod benchmark;
mod eval;
mod leaves;
mod order;
mod probcut;
mod search;
#[cfg(test)]
mod tests;
mod transposition;

pub use eval::{
    EvaluatorEval, FeatureEval, PatternEval, PatternOutput, StaticEval, LOGIT_UNITS, MAX_ESTIMATE,
    UNIT,
};
pub use leaves::AlphaBetaLeaves;
pub use probcut::ProbCut;

use crate::clock_source::Instant;
use crate::solver::Solver;
use othello::raw::legal_moves_unmasked;
use othello::{BoardSize, Move, Position, Square, Variant};
use std::time::Duration;
use transposition::Table;

/// Beyond any value a search returns (exact margins reach ±64 discs).
const INF: i32 = 65 * UNIT;

/// How far a search may go: it stops at the first limit it reaches, and searches to
/// [`DEFAULT_DEPTH`] with none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in plies (a pass is not a ply).
    pub depth: Option<u32>,
    pub time: Option<Duration>,
    /// Positions visited (the solver's too), checked every few thousand.
    pub nodes: Option<u64>,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
}

/// The depth searched when no limit is given.
pub const DEFAULT_DEPTH: u32 = 4;

/// What one iteration of the deepening found.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// Plies searched (the empties, for an exact result).
    pub depth: u32,
    /// The root's value for the side to move, in [`UNIT`]s per disc: the exact final
    /// margin times [`UNIT`] when `exact`.
    pub value: i32,
    /// The move to play.
    pub best: Move,
    /// The principal variation, from the transposition table (it may stop short).
    pub pv: Vec<Move>,
    /// Positions visited by the whole search so far (the solver's included).
    pub nodes: u64,
    pub elapsed: Duration,
    /// The value is the exact final margin.
    pub exact: bool,
}

/// The settings a search keeps between positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MidgameConfig {
    /// Multi-ProbCut: positions whose shallow search lies far enough outside the window
    /// are cut without the deep one, at the confidence of `ProbCut::confidence`.
    pub probcut: Option<ProbCut>,
    /// With a time or node limit, the root is solved exactly once an iteration reaches
    /// this many plies short of the end (Edax switches to its endgame search about so far
    /// ahead).
    pub exact_ahead: u32,
    /// The table's size, as 2^bits entries of 24 bytes.
    pub table_bits: u32,
}

impl Default for MidgameConfig {
    fn default() -> Self {
        MidgameConfig {
            probcut: None,
            exact_ahead: 8,
            table_bits: crate::table_sizes::MIDGAME_TABLE_BITS,
        }
    }
}

/// The search: the evaluation, the table, the exact solver and the limits of the search
/// under way.
pub struct Midgame<E> {
    eval: E,
    config: MidgameConfig,
    table: Table,
    solver: Solver,
    board: Board,
    nodes: u64,
    stop: Stop,
    /// Inside a probable cut's shallow search, which must not cut probably itself.
    probing: bool,
}

/// The board's facts the search looks up at every node.
#[derive(Clone, Copy)]
struct Board {
    size: BoardSize,
    variant: Variant,
    mask: u64,
    /// The board's squares from the best to the worst class (corners first, the squares
    /// next to the corners last): the order of the moves no search sorts.
    classes: [u64; 4],
    square_value: [i32; 64],
    corners: u64,
}

impl Board {
    fn new(size: BoardSize, variant: Variant) -> Board {
        let square_value = crate::squares::square_table(size);
        let mut values: Vec<i32> = (0..64)
            .filter(|&i| size.mask() >> i & 1 != 0)
            .map(|i| square_value[i])
            .collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        values.dedup();
        // Four classes by value, from the best.
        let mut classes = [0u64; 4];
        for (i, value) in square_value.iter().enumerate() {
            if size.mask() >> i & 1 == 0 {
                continue;
            }
            let rank = values.iter().position(|v| v == value).unwrap_or(0);
            classes[(rank * 4 / values.len().max(1)).min(3)] |= 1 << i;
        }
        Board {
            size,
            variant,
            mask: size.mask(),
            classes,
            square_value,
            corners: size.corners(),
        }
    }
}

/// When the search under way must stop.
#[derive(Clone, Copy, Debug, Default)]
struct Stop {
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// The node count at which the limits are next looked at.
    next_look: u64,
    /// Set once a limit is passed: every value since is meaningless, and the search
    /// unwinds without storing any.
    aborted: bool,
}

impl<E: StaticEval> Midgame<E> {
    pub fn new(eval: E, config: MidgameConfig) -> Midgame<E> {
        Midgame {
            eval,
            config,
            table: Table::new(config.table_bits),
            solver: Solver::with_table_bits(crate::table_sizes::MIDGAME_SOLVER_TABLE_BITS),
            board: Board::new(BoardSize::Eight, Variant::Standard),
            nodes: 0,
            stop: Stop::default(),
            probing: false,
        }
    }

    pub fn config(&self) -> &MidgameConfig {
        &self.config
    }

    pub fn eval(&self) -> &E {
        &self.eval
    }

    /// Positions visited since the search was made, the solver's included.
    pub fn nodes(&self) -> u64 {
        self.nodes + self.solver.nodes()
    }

    /// Forgets every stored position (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.solver.clear();
    }

    /// Forgets the search's own stored positions, not the solver's: for a bench that
    /// searches the same positions again, where the solver's far larger table, which such
    /// shallow searches never reach, would cost more to clear than they take.
    pub(crate) fn clear_search_table(&mut self) {
        self.table.clear();
    }

    /// Makes the search ready for `pos`'s board: a board or variant other than the last
    /// one's empties the table.
    fn prepare(&mut self, pos: &Position) {
        if self.board.size != pos.size() || self.board.variant != pos.variant() {
            self.board = Board::new(pos.size(), pos.variant());
            self.table.clear();
        }
        self.eval.prepare(pos.size(), pos.variant());
        self.table.new_search();
    }

    /// Starts a search of `pos` within `limits`: the table and evaluation made ready, the
    /// limits set from now, which it returns.
    fn start(&mut self, pos: &Position, limits: &Limits) -> Instant {
        self.prepare(pos);
        let started = Instant::now();
        self.stop = Stop {
            deadline: limits.time.map(|t| started + t),
            node_limit: limits.nodes.map(|n| self.nodes().saturating_add(n)),
            next_look: self.nodes,
            aborted: false,
        };
        started
    }

    /// Whether a limit has been passed; looked at every 4,096 positions, since reading
    /// the clock costs more than a position.
    #[inline(always)]
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.stop.next_look {
            self.stop.next_look = self.nodes + 4096;
            self.check_limits();
        }
        self.stop.aborted
    }

    /// Looks at the clock and the node count now.
    fn check_limits(&mut self) -> bool {
        if !self.stop.aborted {
            let past_time = self.stop.deadline.is_some_and(|d| Instant::now() >= d);
            let past_nodes = self.stop.node_limit.is_some_and(|n| self.nodes() >= n);
            self.stop.aborted = past_time || past_nodes;
        }
        self.stop.aborted
    }

    /// Searches `pos` by iterative deepening within `limits`, calling `on_iteration` after
    /// each iteration, and returns the last: `None` only when the game is over. `order`
    /// is the root moves' order before the first iteration (a seeded shuffle breaks ties
    /// between equal moves); the moves of `order` that are not legal are left out.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        order: &[Square],
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> Option<Iteration> {
        let started = self.start(pos, limits);
        let (p, o) = (pos.player().0, pos.opponent().0);
        let legal = legal_moves_unmasked(p, o) & self.board.mask;
        if legal == 0 {
            return self.pass_or_over(pos, started);
        }
        let mut root = search::RootMoves::new(legal, order);
        let max_depth = limits
            .depth
            .unwrap_or(if limits.time.is_some() || limits.nodes.is_some() {
                64
            } else {
                DEFAULT_DEPTH
            })
            .max(1);
        let empties = pos.empty_count();
        let mut last: Option<Iteration> = None;
        for depth in 1..=max_depth {
            // With a limit other than depth, the root is solved once the deepening comes
            // close to the end; without, at the configured empties; always once it
            // reaches the end.
            let limited = limits.time.is_some() || limits.nodes.is_some();
            let solve = depth >= empties || limited && depth + self.config.exact_ahead >= empties;
            let found = if solve {
                self.solve_root(pos, started)
            } else {
                self.deepen(p, o, depth, &mut root, last.as_ref(), started)
            };
            let Some(mut iteration) = found else {
                // A cut-short iteration proves nothing about the moves it did not reach,
                // but a move it proved better than the last iteration's best is better.
                if let Some((value, best)) = root.improved() {
                    if let Some(last) = last.as_mut() {
                        (last.value, last.best) = (value, Move::Place(best));
                    }
                }
                break;
            };
            iteration.nodes = self.nodes();
            iteration.elapsed = started.elapsed();
            on_iteration(&iteration);
            let stop = iteration.exact || past_half(limits, iteration.elapsed);
            last = Some(iteration);
            if stop {
                break;
            }
        }
        if last.is_none() {
            // Not even the first iteration finished: the first move in order is played.
            last = Some(Iteration {
                depth: 0,
                value: 0,
                best: Move::Place(root.first()),
                pv: vec![Move::Place(root.first())],
                nodes: self.nodes(),
                elapsed: started.elapsed(),
                exact: false,
            });
        }
        last
    }

    /// The exact final margin of `pos` and a move that gets it, by the solver within
    /// `limits` (its depth aside): `None` when the game is over or the limits run out.
    pub fn solve(&mut self, pos: &Position, limits: &Limits) -> Option<Iteration> {
        let started = self.start(pos, limits);
        self.solve_root(pos, started)
    }

    /// The value of `pos` by a search of `depth` plies with the full window and no
    /// iterations or limits: what MCTS's leaves ask (`AlphaBetaLeaves`). The table is kept
    /// from one call to the next, since neighbouring leaves share positions.
    pub fn value(&mut self, pos: &Position, depth: u32) -> i32 {
        self.start(pos, &Limits::default());
        let (p, o) = (pos.player().0, pos.opponent().0);
        if depth == 2 {
            if let Some(value) = self.two_plies_best_first(p, o) {
                return value;
            }
        }
        self.pvs(p, o, depth, -INF, INF, false)
    }

    /// A position without a move for the side to move: the pass, or `None` when the game
    /// is over.
    fn pass_or_over(&mut self, pos: &Position, started: Instant) -> Option<Iteration> {
        let (p, o) = (pos.player().0, pos.opponent().0);
        if legal_moves_unmasked(o, p) & self.board.mask == 0 {
            return None;
        }
        self.nodes += 1;
        Some(Iteration {
            depth: 0,
            value: -self.eval.evaluate(o, p),
            best: Move::Pass,
            pv: vec![Move::Pass],
            nodes: self.nodes(),
            elapsed: started.elapsed(),
            exact: false,
        })
    }

    /// The root's exact margin and a move that gets it, by the solver (within the
    /// limits: `None` when they run out first).
    fn solve_root(&mut self, pos: &Position, started: Instant) -> Option<Iteration> {
        let solution = self.solve_until_stopped(pos)?;
        let best = solution.best?;
        Some(Iteration {
            depth: pos.empty_count(),
            value: self.eval.of_margin(solution.margin),
            best,
            pv: vec![best],
            nodes: self.nodes(),
            elapsed: started.elapsed(),
            exact: true,
        })
    }

    /// [`Solver::solve_within`] in budgets that double until it completes or the limits
    /// are passed: a cut-short solve keeps what it completed in the solver's table, so
    /// each budget redoes little of the last.
    fn solve_until_stopped(&mut self, pos: &Position) -> Option<crate::Solution> {
        let mut budget = 1u64 << 16;
        loop {
            let budget_now = match self.stop.node_limit {
                Some(limit) => budget.min(limit.saturating_sub(self.nodes())),
                None => budget,
            };
            if let Some(solution) = self.solver.solve_within(pos, budget_now) {
                return Some(solution);
            }
            if self.check_limits() || budget_now < budget {
                self.stop.aborted = true;
                return None;
            }
            budget = budget.saturating_mul(2);
        }
    }
}

impl<E: StaticEval> std::fmt::Debug for Midgame<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Midgame")
            .field("eval", &self.eval.describe())
            .field("config", &self.config)
            .field("nodes", &self.nodes())
            .finish_non_exhaustive()
    }
}

/// Whether to stop deepening after `spent`: past half the time limit the next iteration
/// would rarely finish. One that starts anyway is not wasted, since it searches the last
/// best move first and a move it proves better is played (`RootMoves::improved`).
fn past_half(limits: &Limits, spent: Duration) -> bool {
    limits.time.is_some_and(|time| spent * 2 > time)
}

/// A boxed evaluation is one too, so a player picks its evaluation at run time.
impl<E: StaticEval + ?Sized> StaticEval for Box<E> {
    #[inline]
    fn evaluate(&mut self, p: u64, o: u64) -> i32 {
        (**self).evaluate(p, o)
    }

    fn describe(&self) -> String {
        (**self).describe()
    }

    fn prepare(&mut self, size: BoardSize, variant: Variant) {
        (**self).prepare(size, variant);
    }

    // Every method, the defaulted ones too: a box that kept the defaults valued finished
    // games on the margin's scale whatever the evaluation's.
    fn of_margin(&self, margin: i32) -> i32 {
        (**self).of_margin(margin)
    }

    fn margin_window(&self, alpha: i32, beta: i32) -> (i32, i32) {
        (**self).margin_window(alpha, beta)
    }

    #[inline]
    fn read_children(&mut self, p: u64, o: u64) {
        (**self).read_children(p, o);
    }

    #[inline]
    fn child(&mut self, square: u8, flipped: u64, np: u64, no: u64) -> i32 {
        (**self).child(square, flipped, np, no)
    }

    #[inline]
    fn read_grandchildren(&mut self, p: u64, o: u64) {
        (**self).read_grandchildren(p, o);
    }

    #[inline]
    fn enter_child(&mut self, square: u8, flipped: u64, np: u64, no: u64) {
        (**self).enter_child(square, flipped, np, no);
    }
}
