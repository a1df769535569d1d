//! Exact endgame solver: negamax alpha-beta on raw bitboards, scored by the final margin
//! under the WOF rule (empties go to the winner, exactly [`Variant::margin`]).
//!
//! The layout follows Edax's endgame: a deep search with move generation, fastest-first
//! ordering (fewest replies for the opponent; from 14 empties also a shallow search of
//! each child over a small evaluation, eval.rs), a transposition table and principal
//! variation search; a shallow search for the last few empties that walks the empty
//! squares in parity order and lets `flips` decide legality (no move generation); and a
//! last-empty routine that only counts flips. Nothing here depends on the variant except
//! the final margin, so every shortcut is valid for the reversed game too.

use order::{Ordered, SQUARE_VALUE_8X8};
use othello::raw::{flips, legal_moves_unmasked};
use othello::{BoardSize, Move, Position, Square, Variant};
use parallel::{Pool, SplitPoint};
use std::sync::Arc;
use transposition::{Entry, Table};

mod eval;
mod last;
mod order;
mod parallel;
#[cfg(test)]
mod parallel_tests;
mod stability;
#[cfg(test)]
mod tests;
mod transposition;

/// Scores lie in -64..=64; this is beyond any of them.
const INF: i32 = 127;

/// At or below this many empties the shallow search takes over: move generation and
/// sorting cost more than they save there.
const SHALLOW_EMPTIES: u32 = 5;

/// From this many empties on, the shallow search tries the stability cutoff too.
const SHALLOW_STABILITY_EMPTIES: u32 = 4;

/// Above this many empties the children are looked up in the table before searching.
const ETC_EMPTIES: u32 = 11;

/// Below this many empties positions are not stored: a store costs more than re-solving.
const TT_MIN_EMPTIES: u32 = 8;

/// The exact result of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Final margin for the side to move with perfect play (positive: a win).
    pub margin: i32,
    /// A move that achieves it; `None` when the game is over.
    pub best: Option<Move>,
    /// Positions visited.
    pub nodes: u64,
}

/// Game-theoretic result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinLossDraw {
    Win,
    Draw,
    Loss,
}

impl WinLossDraw {
    fn from_margin(margin: i32) -> WinLossDraw {
        match margin {
            m if m > 0 => WinLossDraw::Win,
            m if m < 0 => WinLossDraw::Loss,
            _ => WinLossDraw::Draw,
        }
    }

    /// The sign of the margin (1, 0 or -1): all that a win/loss/draw result says of it.
    pub fn sign(self) -> i32 {
        match self {
            WinLossDraw::Win => 1,
            WinLossDraw::Draw => 0,
            WinLossDraw::Loss => -1,
        }
    }
}

/// What is proven of a position's final margin (for the side to move): it lies in
/// `lower..=upper`. A budgeted solve that runs out leaves them apart; a complete one makes
/// them equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proven {
    pub lower: i32,
    pub upper: i32,
    /// A move that reaches `lower` when the side to move is proven to win or draw (a
    /// complete solve names one in every position that is not over).
    pub best: Option<Move>,
    /// Positions visited.
    pub nodes: u64,
}

/// The steps of [`Solver::raise`] and [`Solver::lower`]: one (MTD(f)'s) until three
/// tests in a row have moved the bound by two discs or less, then doubling.
#[derive(Clone, Copy, Debug)]
struct Steps {
    step: i32,
    creeping: u32,
}

/// Tests in a row that move the bound this little before the steps start doubling.
const CREEPING_TESTS: u32 = 3;

impl Default for Steps {
    fn default() -> Steps {
        Steps {
            step: 1,
            creeping: 0,
        }
    }
}

impl Steps {
    /// A test succeeded and moved the bound by `gain` discs.
    fn moved(&mut self, gain: i32) {
        self.creeping = if gain <= 2 { self.creeping + 1 } else { 0 };
        self.step = if self.creeping >= CREEPING_TESTS {
            self.step.saturating_mul(2)
        } else {
            1
        };
    }
}

impl Proven {
    /// Nothing proven yet about `pos`: any margin its board allows.
    pub fn unknown(pos: &Position) -> Proven {
        let squares = pos.size().squares() as i32;
        Proven {
            lower: -squares,
            upper: squares,
            best: None,
            nodes: 0,
        }
    }

    /// The final margin, once the bounds meet.
    pub fn exact(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }

    /// Win, loss or draw, once the bounds settle it.
    pub fn win_loss_draw(&self) -> Option<WinLossDraw> {
        match (self.lower, self.upper) {
            (lo, _) if lo > 0 => Some(WinLossDraw::Win),
            (_, hi) if hi < 0 => Some(WinLossDraw::Loss),
            (0, 0) => Some(WinLossDraw::Draw),
            _ => None,
        }
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff << 56;

/// The exact solver. Owns its transposition table, so reusing one solver across the
/// positions of a game keeps what it learnt.
pub struct Solver {
    /// Shared with the other threads of a parallel solve.
    table: Arc<Table>,
    /// In a parallel solve: its threads (parallel.rs).
    pool: Option<Arc<Pool>>,
    /// In a parallel solve: the innermost split point this thread works at. When it or
    /// one above it stops, what the search returns is not a value, as when out of nodes.
    chain: Option<Arc<SplitPoint>>,
    /// This thread's index in the pool (the main thread is 0).
    id: usize,
    /// From this many empties on, a node may be split ([`parallel::SPLIT_EMPTIES`];
    /// tests lower it so that positions minimax can check are split too).
    split_empties: u32,
    /// A node is split only after this many of its moves have been searched alone
    /// ([`parallel::SPLIT_ELDERS`]; tests also try 1).
    split_elders: usize,
    nodes: u64,
    mask: u64,
    variant: Variant,
    quadrants: [u64; 4],
    corners: u64,
    /// The rows and the columns that hold corners (for corner stability).
    corner_rows: u64,
    corner_columns: u64,
    /// Square types for ordering; all zero off 8x8.
    square_value: [u8; 64],
    squares: i32,
    /// From this many empties on, moves are also ordered by a shallow search
    /// ([`order::SORT_EMPTIES`]; tests lower it to check that search against minimax).
    sort_empties: u32,
    /// Board the table's contents belong to; values differ between boards and variants.
    table_for: Option<(BoardSize, Variant)>,
    /// A budgeted solve gives up when `nodes` reaches this (`u64::MAX`: never). From then
    /// on every value is meaningless, so nothing more is searched or stored and the search
    /// unwinds.
    node_limit: u64,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// A solver with a table of 2^20 entries (24 MiB) natively, 2^17 (3 MiB) on wasm32
    /// ([`crate::table_sizes::SOLVER_TABLE_BITS`]).
    pub fn new() -> Solver {
        Solver::with_table_bits(crate::table_sizes::SOLVER_TABLE_BITS)
    }

    /// A solver with a table of `2^bits` entries (`bits` clamped to 4..=28).
    pub fn with_table_bits(bits: u32) -> Solver {
        let bits = bits.clamp(4, 28);
        Solver {
            table: Arc::new(Table::new(bits)),
            pool: None,
            chain: None,
            id: 0,
            split_empties: parallel::SPLIT_EMPTIES,
            split_elders: parallel::SPLIT_ELDERS,
            nodes: 0,
            mask: u64::MAX,
            variant: Variant::Standard,
            quadrants: BoardSize::Eight.quadrants(),
            corners: BoardSize::Eight.corners(),
            corner_rows: RANK_1 | RANK_8,
            corner_columns: FILE_A | FILE_H,
            square_value: SQUARE_VALUE_8X8,
            squares: 64,
            sort_empties: order::SORT_EMPTIES,
            table_for: None,
            node_limit: u64::MAX,
        }
    }

    /// Positions visited since the solver was made (all searches together).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets every stored position.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    fn prepare(&mut self, pos: &Position) {
        self.prepare_for(pos.size(), pos.variant());
    }

    fn prepare_for(&mut self, size: BoardSize, variant: Variant) {
        let key = (size, variant);
        if self.table_for != Some(key) {
            self.clear();
            self.table_for = Some(key);
        }
        self.mask = size.mask();
        self.variant = variant;
        self.quadrants = size.quadrants();
        self.corners = size.corners();
        let last = size.n() as u32 - 1;
        self.corner_rows = (RANK_1 | RANK_1 << (8 * last)) & self.mask;
        self.corner_columns = (FILE_A | FILE_A << last) & self.mask;
        self.square_value = if size == BoardSize::Eight {
            SQUARE_VALUE_8X8
        } else {
            [0; 64]
        };
        self.squares = size.squares() as i32;
    }

    /// The fail-soft final margin of `p` to move against `o` within (alpha, beta), within
    /// `max_nodes` visited positions (`None` when that is not enough): the exact search of
    /// a node that a midgame search (`crate::midgame`) follows to the end of the game.
    /// The table keeps what it completed, so a call made again with a larger budget
    /// redoes little.
    #[allow(clippy::too_many_arguments)]
    pub fn search_window_within(
        &mut self,
        size: BoardSize,
        variant: Variant,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        max_nodes: u64,
    ) -> Option<i32> {
        self.prepare_for(size, variant);
        let n = (self.mask & !(p | o)).count_ones();
        self.node_limit = self.nodes.saturating_add(max_nodes);
        let value = self.search(p, o, alpha, beta, n, false);
        let complete = !self.out_of_nodes();
        self.node_limit = u64::MAX;
        complete.then_some(value)
    }

    /// One null-window test of `pos` at `target` within `max_nodes` visited positions: the
    /// fail-soft margin for the side to move and, where it reaches `target`, the move that
    /// does (`None` when the budget is not enough). A review names that move as the best
    /// found where it beats the search's choice (issue 68's thirteenth look).
    pub fn reaches_within(
        &mut self,
        pos: &Position,
        target: i32,
        max_nodes: u64,
    ) -> Option<(i32, Option<Move>)> {
        self.prepare(pos);
        let (p, o) = (pos.player().0, pos.opponent().0);
        self.node_limit = self.nodes.saturating_add(max_nodes);
        let (value, mv) = self.root(p, o, target - 1, target);
        let complete = !self.out_of_nodes();
        self.node_limit = u64::MAX;
        complete.then_some((value, mv.filter(|_| value >= target)))
    }

    /// The exact final margin for the side to move and a move that achieves it.
    pub fn solve(&mut self, pos: &Position) -> Solution {
        let proven = self.prove(pos);
        Solution {
            margin: proven.lower,
            best: proven.best,
            nodes: proven.nodes,
        }
    }

    /// The bounds on the final margin a solve proves, up to the exact margin: win, loss
    /// or draw first, then the margin. Cut short when a budgeted solve runs out, it keeps
    /// what the completed null-window searches proved (only those count).
    fn prove(&mut self, pos: &Position) -> Proven {
        self.prove_from(pos, Proven::unknown(pos))
    }

    /// [`Solver::prove`] going on from what an earlier, cut-short proof of `pos` proved:
    /// once the result is known, the null-window tests start from its bounds instead of
    /// from the win/loss/draw search again.
    fn prove_from(&mut self, pos: &Position, known: Proven) -> Proven {
        self.prepare(pos);
        let start = self.nodes;
        let (p, o) = (pos.player().0, pos.opponent().0);
        let mut proven = Proven { nodes: 0, ..known };
        if proven.exact().is_some() {
            // Nothing left to prove.
        } else if proven.lower >= 1 && proven.best.is_some() {
            self.raise(p, o, &mut proven);
        } else if proven.upper <= -1 {
            self.lower(p, o, &mut proven);
        } else {
            // Win/loss/draw first: it is cheap, fills the table with good moves, and its
            // fail-soft value is the first bound the null-window tests move from (a draw
            // is already exact: the window (-1, 1) holds only 0).
            let (sign, wld_best) = self.root(p, o, -1, 1);
            if !self.out_of_nodes() {
                match sign {
                    v if v >= 1 => {
                        (proven.lower, proven.best) = (v, wld_best);
                        self.raise(p, o, &mut proven);
                    }
                    v if v <= -1 => {
                        proven.upper = v;
                        self.lower(p, o, &mut proven);
                    }
                    v => (proven.lower, proven.upper, proven.best) = (v, v, wld_best),
                }
            }
        }
        proven.nodes = self.nodes - start;
        proven
    }

    /// The exact margin above a proven lower bound (reached by `proven.best`), by
    /// null-window tests that raise it until one fails: MTD(f) (Plaat, Schaeffer, Pijls
    /// and de Bruin, 1996) with the win/loss/draw search's fail-soft bound as the first
    /// guess. Each test below the true margin is as cheap as that first search; only
    /// the last, which fails, must refute every move. On FFO #40-#48 this takes about
    /// 30% less time than one wide-window principal variation search (docs/solver.md).
    ///
    /// Where the tests creep (each raising the bound by two discs or less, three in a
    /// row), the steps double until one fails, then start again from one: a margin far
    /// above the first guess is reached in a few tests instead of one for every two
    /// discs. FFO #59, a +64 wipe-out whose win the first search proves in 525 nodes,
    /// took 674 M nodes with steps of one. Doubling from the first test instead cost up to
    /// 60% more nodes on #40-#49, where a test that overshoots the margin must refute
    /// every move (docs/solver.md).
    fn raise(&mut self, p: u64, o: u64, proven: &mut Proven) {
        let mut steps = Steps::default();
        while proven.lower < proven.upper {
            let probe = (proven.lower + steps.step).min(proven.upper);
            let (v, mv) = self.root(p, o, probe - 1, probe);
            if self.out_of_nodes() {
                return;
            }
            if v >= probe {
                let reached = v.min(proven.upper);
                steps.moved(reached - proven.lower);
                (proven.lower, proven.best) = (reached, mv);
            } else {
                // Fail-soft: at most `v`, and never below what is proven.
                proven.upper = v.max(proven.lower);
                steps = Steps::default();
            }
        }
    }

    /// The exact margin below a proven upper bound: [`Solver::raise`] downwards. A test
    /// that fails high names a move reaching its value; until one has, nothing is proven
    /// below, so the loop runs until one does.
    fn lower(&mut self, p: u64, o: u64, proven: &mut Proven) {
        let mut floor = proven.lower - 1;
        let mut steps = Steps::default();
        while floor < proven.upper {
            let probe = (proven.upper - steps.step).max(floor);
            let (v, mv) = self.root(p, o, probe, probe + 1);
            if self.out_of_nodes() {
                return;
            }
            if v > probe {
                (proven.lower, proven.best) = (v.min(proven.upper), mv);
                floor = proven.lower;
                steps = Steps::default();
            } else {
                let bound = v.max(floor);
                steps.moved(proven.upper - bound);
                proven.upper = bound;
            }
        }
    }

    /// [`Solver::solve`] within `max_nodes` visited positions, or `None` when that is not
    /// enough. What the table learnt before giving up stays (only complete searches are
    /// stored), so a later solve of the same game starts ahead.
    pub fn solve_within(&mut self, pos: &Position, max_nodes: u64) -> Option<Solution> {
        let proven = self.prove_within(pos, max_nodes);
        proven.exact().map(|margin| Solution {
            margin,
            best: proven.best,
            nodes: proven.nodes,
        })
    }

    /// What a solve proves within `max_nodes` visited positions: often the win, loss or
    /// draw where the exact margin does not fit (its null-window search cuts far more), as
    /// Egaroucid proves the result before it searches for the margin. The table keeps
    /// what it learnt, as for [`Solver::solve_within`].
    pub fn prove_within(&mut self, pos: &Position, max_nodes: u64) -> Proven {
        self.resume_within(pos, max_nodes, Proven::unknown(pos))
    }

    /// Goes on, within `max_nodes` more visited positions, with a proof of `pos` that an
    /// earlier budget cut short (`known`, as [`Solver::prove_within`] returned it): the
    /// bounds it proved are kept and the tests start from them, and the table still
    /// holds the subtrees it completed, so a proof run in slices (the page's worker, which
    /// must answer between them) redoes little. `nodes` counts this call's positions.
    pub fn resume_within(&mut self, pos: &Position, max_nodes: u64, known: Proven) -> Proven {
        self.node_limit = self.nodes.saturating_add(max_nodes);
        let proven = self.prove_from(pos, known);
        self.node_limit = u64::MAX;
        proven
    }

    /// Whether a budgeted solve has run out, or (in a parallel solve) the split point this
    /// thread works under has been settled or abandoned: what the search returns since
    /// is not a value.
    #[inline(always)]
    fn out_of_nodes(&self) -> bool {
        self.nodes >= self.node_limit || self.chain.as_ref().is_some_and(|sp| sp.stopped())
    }

    /// The best result (win, loss or draw, as the fail-soft value of a search with the
    /// window (-1, 1)) that the legal moves in `moves` reach, and the move that reaches
    /// it, within `max_nodes` visited positions; `None` when that is not enough, or when
    /// `moves` holds no legal move. A share of a proof that several searchers split by
    /// the root's moves (the page's workers): a win among them is a win of the position;
    /// a draw or a loss bounds only these moves. The table keeps what it learnt, so a
    /// call that ran out and is made again redoes little.
    pub fn prove_moves_within(
        &mut self,
        pos: &Position,
        moves: u64,
        max_nodes: u64,
    ) -> Option<(i32, Move)> {
        self.prepare(pos);
        let (p, o) = (pos.player().0, pos.opponent().0);
        if legal_moves_unmasked(p, o) & self.mask & moves == 0 {
            return None;
        }
        self.node_limit = self.nodes.saturating_add(max_nodes);
        let (value, best) = self.root_among(p, o, moves, -1, 1);
        let complete = !self.out_of_nodes();
        self.node_limit = u64::MAX;
        complete.then_some((value, best?))
    }

    /// Win, loss or draw for the side to move, with a move that achieves it: a search
    /// with the window (-1, 1), which cuts far more than the exact score needs.
    pub fn win_loss_draw(&mut self, pos: &Position) -> (WinLossDraw, Option<Move>, u64) {
        self.prepare(pos);
        let start = self.nodes;
        let (value, best) = self.root(pos.player().0, pos.opponent().0, -1, 1);
        (WinLossDraw::from_margin(value), best, self.nodes - start)
    }

    /// The exact margin (for the side to move) of every legal move, best first; a lone
    /// pass when that is the only move; empty when the game is over.
    pub fn score_moves(&mut self, pos: &Position) -> Vec<(Move, i32)> {
        self.prepare(pos);
        let (p, o) = (pos.player().0, pos.opponent().0);
        let n = pos.empty_count();
        let mut moves = legal_moves_unmasked(p, o) & self.mask;
        let mut scores = Vec::new();
        if moves == 0 {
            if legal_moves_unmasked(o, p) & self.mask != 0 {
                scores.push((Move::Pass, -self.search(o, p, -INF, INF, n, false)));
            }
            return scores;
        }
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let f = flips(p, o, sq);
            let v = -self.search(o & !f, p | f | (1 << sq), -INF, INF, n - 1, false);
            scores.push((place(sq), v));
        }
        // Stable sort: equal scores keep square order, so the listing is reproducible.
        scores.sort_by_key(|(_, v)| -v);
        scores
    }

    fn root(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, Option<Move>) {
        self.root_among(p, o, u64::MAX, alpha, beta)
    }

    /// [`Solver::root`] over the legal moves in `among` only (a pass is never left out):
    /// the best of those moves, a bound on the root only from below. `among` must hold a
    /// legal move when there is one.
    fn root_among(
        &mut self,
        p: u64,
        o: u64,
        among: u64,
        alpha: i32,
        beta: i32,
    ) -> (i32, Option<Move>) {
        let n = (self.mask & !(p | o)).count_ones();
        let legal = legal_moves_unmasked(p, o) & self.mask;
        let moves = legal & among;
        if legal == 0 {
            if legal_moves_unmasked(o, p) & self.mask == 0 {
                return (self.final_score(p, o), None);
            }
            let v = -self.search(o, p, -beta, -alpha, n, false);
            return (v, Some(Move::Pass));
        }
        if moves == 0 {
            return (-INF, None);
        }
        let mut ordered = Ordered::default();
        let Ok(()) = self.order(p, o, moves, n, None, &mut ordered) else {
            unreachable!("no transposition cutoff is asked for at the root")
        };
        if let Some(depth) = self.sort_depth(n, moves) {
            self.refine(p, o, &mut ordered, 0, depth);
        }
        match self.search_moves(p, o, &mut ordered, alpha, beta, n, None) {
            Some((best, best_sq)) => (best, Some(place(best_sq))),
            None => (0, None),
        }
    }

    /// Principal variation search over `ordered` (the first move with the full window,
    /// the rest with a null window first, since most only need to be shown no better):
    /// the fail-soft best value and its square, or `None` when a budgeted solve ran out.
    /// `refine_after_first`: the depth of the shallow searches that order the moves after
    /// the first, once it has failed to cut ([`Solver::refine`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_moves(
        &mut self,
        p: u64,
        o: u64,
        ordered: &mut Ordered,
        mut alpha: i32,
        beta: i32,
        n: u32,
        refine_after_first: Option<u32>,
    ) -> Option<(i32, u8)> {
        let mut best = -INF;
        let mut best_sq = ordered.square(0);
        for i in 0..ordered.len {
            // Young Brothers Wait: once the elder brothers have failed to cut, free
            // threads may take the rest (parallel.rs).
            if i >= self.split_elders && self.may_split(n, ordered.len - i) {
                if let Some(result) = self.split(p, o, ordered, i, alpha, beta, n, (best, best_sq))
                {
                    return result;
                }
            }
            let sq = ordered.square(i);
            let f = flips(p, o, sq);
            let v = self.search_child(o & !f, p | f | (1 << sq), i == 0, alpha, beta, n);
            if self.out_of_nodes() {
                return None;
            }
            if v > best {
                best = v;
                best_sq = sq;
                if v >= beta {
                    return Some((best, best_sq));
                }
                alpha = alpha.max(v);
            }
            if i == 0 {
                if let Some(depth) = refine_after_first {
                    self.refine(p, o, ordered, 1, depth);
                }
            }
        }
        Some((best, best_sq))
    }

    /// The value of a child for the side to move: the eldest brother with the full
    /// window, the others with a null window first, since most only need to be shown
    /// no better, and again with the full one when they are.
    #[inline(always)]
    fn search_child(
        &mut self,
        np: u64,
        no: u64,
        eldest: bool,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> i32 {
        if eldest {
            return -self.search(np, no, -beta, -alpha, n - 1, false);
        }
        let v = -self.search(np, no, -alpha - 1, -alpha, n - 1, false);
        if v > alpha && v < beta && !self.out_of_nodes() {
            -self.search(np, no, -beta, -v, n - 1, false)
        } else {
            v
        }
    }

    /// Final margin for `p` when the game ends with these discs.
    #[inline(always)]
    fn final_score(&self, p: u64, o: u64) -> i32 {
        let own = p.count_ones();
        let other = o.count_ones();
        let empties = (self.mask & !(p | o)).count_ones();
        self.variant.margin(own, other, empties)
    }

    /// Negamax value for `p` to move with `n` empties, fail-soft within (alpha, beta).
    /// `passed`: the opponent has just passed, so a second pass ends the game.
    fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32, passed: bool) -> i32 {
        if n <= SHALLOW_EMPTIES {
            return match n {
                0 => {
                    self.nodes += 1;
                    self.final_score(p, o)
                }
                1 => self.last1(p, o, self.mask & !(p | o)),
                2 => self.last2(p, o, alpha, beta, self.mask & !(p | o), passed),
                _ => self.shallow(p, o, alpha, beta, n, passed),
            };
        }
        self.nodes += 1;
        if self.out_of_nodes() {
            // Callers check `out_of_nodes` before using or storing what this returns.
            return 0;
        }
        let moves = legal_moves_unmasked(p, o) & self.mask;
        if moves == 0 {
            if passed {
                return self.final_score(p, o);
            }
            return -self.search(o, p, -beta, -alpha, n, true);
        }

        if let Some(bound) = self.stability_cutoff(p, o, alpha, n, beta == alpha + 1) {
            return bound;
        }
        let use_table = n >= TT_MIN_EMPTIES;
        let (alpha, beta, tt_move) = if use_table {
            match self.narrow_by_table(p, o, alpha, beta) {
                Ok(narrowed) => narrowed,
                Err(bound) => return bound,
            }
        } else {
            (alpha, beta, 0)
        };

        // Enhanced transposition cutoff above ETC_EMPTIES: a child the table already
        // proves bad enough for the opponent settles this node without a search.
        let etc_beta = (n > ETC_EMPTIES).then_some(beta);
        let mut ordered = Ordered::default();
        if let Err(cutoff) = self.order(p, o, moves, n, etc_beta, &mut ordered) {
            return cutoff;
        }
        let first_from_table = tt_move != 0 && ordered.promote(tt_move - 1);
        // Far from the end the shallow searches add to the order; with the table's move
        // first they wait until it has failed to cut.
        let lazy = match self.sort_depth(n, moves) {
            Some(depth) if first_from_table => Some(depth),
            Some(depth) => {
                self.refine(p, o, &mut ordered, 0, depth);
                None
            }
            None => None,
        };
        let Some((best, best_sq)) = self.search_moves(p, o, &mut ordered, alpha, beta, n, lazy)
        else {
            return 0;
        };

        if use_table {
            self.store_result(p, o, (alpha, beta), best, best_sq, n);
        }
        best
    }

    #[inline(always)]
    fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        self.table.probe(p, o)
    }

    /// The window (alpha, beta) narrowed by the table's bounds on `p` to move, with the
    /// table's best move (its square + 1; 0: none); `Err` with the value when the bounds
    /// alone settle the node.
    #[inline(always)]
    fn narrow_by_table(
        &self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
    ) -> Result<(i32, i32, u8), i32> {
        let Some(e) = self.probe(p, o) else {
            return Ok((alpha, beta, 0));
        };
        let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
        if lower >= beta {
            return Err(lower);
        }
        if upper <= alpha {
            return Err(upper);
        }
        if lower == upper {
            return Err(lower);
        }
        Ok((alpha.max(lower), beta.min(upper), e.best))
    }

    /// Stores a fail-soft search's value `best` (reached by `best_sq`) in the window it
    /// was searched with, as the bounds it proves.
    #[inline(always)]
    fn store_result(
        &self,
        p: u64,
        o: u64,
        (alpha, beta): (i32, i32),
        best: i32,
        best_sq: u8,
        n: u32,
    ) {
        let (lower, upper) = if best <= alpha {
            (-64, best)
        } else if best >= beta {
            (best, 64)
        } else {
            (best, best)
        };
        self.table.store(
            p,
            o,
            Entry {
                lower: lower as i8,
                upper: upper as i8,
                best: best_sq + 1,
                empties: n as u8,
            },
        );
    }
}

fn place(sq: u8) -> Move {
    // Squares come from bitboards of the 8x8 layout, so the index is always below 64.
    Square::from_index(sq).map_or(Move::Pass, Move::Place)
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("nodes", &self.nodes)
            .field("node_limit", &self.node_limit)
            .field("table_for", &self.table_for)
            .finish_non_exhaustive()
    }
}
