//! The search's nodes: the root's iteration, the principal variation search with its
//! table, the shallow search near the leaves, and the hand-over to the exact solver.

use super::transposition::Entry;
use super::{Iteration, Midgame, StaticEval, INF, UNIT};
use othello::raw::{flips, legal_moves_unmasked};
use othello::{Move, Square};

/// At this depth and below, nodes are searched without the table and with the moves in
/// the square classes' order: a table probe and a sort cost more than they save there
/// (Edax's `NWS_shallow` and `search_eval_2`).
const SHALLOW_DEPTH: u32 = 2;

/// The first aspiration window's half-width around the last iteration's value.
const ASPIRATION: i32 = 2 * UNIT;

/// Iterations from which the window starts narrow: the first are too cheap to bother.
const ASPIRATION_DEPTH: u32 = 4;

/// The square of a bit index (below 64).
fn square(index: u8) -> Square {
    Square::from_index(index).expect("a bit index below 64 is a square")
}

/// The root's moves with their last values, best first.
pub(super) struct RootMoves {
    moves: Vec<(Square, i32)>,
    /// A move of the iteration under way proven better than its first move (the last
    /// iteration's best), with the value that proves it.
    improved: Option<(i32, Square)>,
}

impl RootMoves {
    /// The legal moves of `legal`, those in `order` first and in its order.
    pub(super) fn new(legal: u64, order: &[Square]) -> RootMoves {
        let mut moves: Vec<(Square, i32)> = Vec::new();
        for &sq in order {
            if legal & sq.bit() != 0 && !moves.iter().any(|(s, _)| *s == sq) {
                moves.push((sq, -INF));
            }
        }
        let mut rest = legal;
        while rest != 0 {
            let sq = square(rest.trailing_zeros() as u8);
            rest &= rest - 1;
            if !moves.iter().any(|(s, _)| *s == sq) {
                moves.push((sq, -INF));
            }
        }
        RootMoves {
            moves,
            improved: None,
        }
    }

    pub(super) fn first(&self) -> Square {
        self.moves[0].0
    }

    pub(super) fn improved(&self) -> Option<(i32, Square)> {
        self.improved
    }
}

impl<E: StaticEval> Midgame<E> {
    /// One iteration at `depth`: an aspiration window around the last value first, the
    /// full window again when the value falls outside it. `None` when the limits ran out.
    pub(super) fn deepen(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        root: &mut RootMoves,
        last: Option<&Iteration>,
        started: crate::clock_source::Instant,
    ) -> Option<Iteration> {
        let (mut alpha, mut beta) = match last {
            Some(last) if depth >= ASPIRATION_DEPTH && !last.exact => {
                (last.value - ASPIRATION, last.value + ASPIRATION)
            }
            _ => (-INF, INF),
        };
        loop {
            let (value, best) = self.root_search(p, o, depth, root, alpha, beta)?;
            if value <= alpha && alpha > -INF {
                alpha = -INF;
            } else if value >= beta && beta < INF {
                beta = INF;
            } else {
                return Some(Iteration {
                    depth,
                    value,
                    best: Move::Place(best),
                    pv: self.principal_variation(p, o, best, depth),
                    nodes: self.nodes(),
                    elapsed: started.elapsed(),
                    exact: false,
                });
            }
        }
    }

    /// The root's moves searched in order, the first with the full window and the rest
    /// with a null window first; then sorted by their values for the next iteration.
    fn root_search(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        root: &mut RootMoves,
        alpha: i32,
        beta: i32,
    ) -> Option<(i32, Square)> {
        root.improved = None;
        let (mut best, mut best_sq, mut a) = (-INF, root.first(), alpha);
        for i in 0..root.moves.len() {
            let sq = root.moves[i].0;
            let f = flips(p, o, sq.index());
            let (np, no) = (o & !f, p | f | sq.bit());
            let v = if i == 0 {
                -self.pvs(np, no, depth - 1, -beta, -a, false)
            } else {
                let v = -self.pvs(np, no, depth - 1, -a - 1, -a, false);
                if v > a && !self.stop.aborted {
                    root.improved = Some((v, sq));
                    if v < beta {
                        -self.pvs(np, no, depth - 1, -beta, -v, false)
                    } else {
                        v
                    }
                } else {
                    v
                }
            };
            if self.stop.aborted {
                return None;
            }
            root.moves[i].1 = v;
            if v > best {
                (best, best_sq) = (v, sq);
                if i > 0 {
                    root.improved = Some((v, sq));
                }
                if v >= beta {
                    break;
                }
                a = a.max(v);
            }
        }
        // The best first; a stable sort keeps the order of equal moves (the seeded one).
        root.moves.sort_by_key(|&(_, v)| -v);
        if let Some(i) = root.moves.iter().position(|(sq, _)| *sq == best_sq) {
            let best_move = root.moves.remove(i);
            root.moves.insert(0, best_move);
        }
        Some((best, best_sq))
    }

    /// The line the table's best moves give from the root, at most `depth` moves.
    fn principal_variation(&self, p: u64, o: u64, best: Square, depth: u32) -> Vec<Move> {
        let mut pv = vec![Move::Place(best)];
        let f = flips(p, o, best.index());
        let (mut p, mut o) = (o & !f, p | f | best.bit());
        while pv.len() < depth as usize {
            let Some(entry) = self.table.probe(p, o) else {
                break;
            };
            let legal = legal_moves_unmasked(p, o) & self.board.mask;
            let sq = entry.best - 1;
            if legal >> sq & 1 == 0 {
                break;
            }
            let square = square(sq);
            pv.push(Move::Place(square));
            let f = flips(p, o, sq);
            (p, o) = (o & !f, p | f | square.bit());
            if legal_moves_unmasked(p, o) & self.board.mask == 0 {
                if legal_moves_unmasked(o, p) & self.board.mask == 0 {
                    break;
                }
                pv.push(Move::Pass);
                (p, o) = (o, p);
            }
        }
        pv
    }

    /// Negamax value of `p` to move with `depth` plies left, fail-soft within (alpha,
    /// beta): principal variation search with the table. A pass is not a ply, so a
    /// position's plies left depend only on its discs and the root's, and a transposition
    /// is always met at the depth it was searched to. `passed`: the opponent has just
    /// passed, so a second pass ends the game.
    pub(super) fn pvs(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        let empties = (self.board.mask & !(p | o)).count_ones();
        if depth >= empties {
            return self.exact(p, o, alpha, beta, empties);
        }
        if depth == 0 {
            self.nodes += 1;
            return self.leaf(p, o);
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let moves = legal_moves_unmasked(p, o) & self.board.mask;
        if moves == 0 {
            if passed {
                return self.final_value(p, o);
            }
            return -self.pvs(o, p, depth, -beta, -alpha, true);
        }
        if depth <= SHALLOW_DEPTH {
            return self.shallow(p, o, moves, depth, alpha, beta);
        }
        let (mut alpha, mut beta) = (alpha, beta);
        let mut tt_move = None;
        if let Some(entry) = self.table.probe(p, o) {
            if entry.depth as u32 >= depth && (entry.selective == 0 || self.selective()) {
                let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
                if lower >= beta || upper <= alpha || lower == upper {
                    return if lower >= beta { lower } else { upper };
                }
                (alpha, beta) = (alpha.max(lower), beta.min(upper));
            }
            tt_move = Some(entry.best - 1);
        }
        if let Some(v) = self.probable_cut(p, o, depth, alpha, beta) {
            return v;
        }
        let ordered = self.order(p, o, moves, tt_move, depth, alpha);
        let (mut best, mut best_sq, mut a) = (-INF, ordered.square(0), alpha);
        for i in 0..ordered.len() {
            let sq = ordered.square(i);
            let f = flips(p, o, sq);
            let (np, no) = (o & !f, p | f | 1 << sq);
            let v = if i == 0 {
                -self.pvs(np, no, depth - 1, -beta, -a, false)
            } else {
                let v = -self.pvs(np, no, depth - 1, -a - 1, -a, false);
                if v > a && v < beta && !self.stop.aborted {
                    -self.pvs(np, no, depth - 1, -beta, -v, false)
                } else {
                    v
                }
            };
            if self.stop.aborted {
                return 0;
            }
            if v > best {
                (best, best_sq) = (v, sq);
                if v >= beta {
                    break;
                }
                a = a.max(v);
            }
        }
        self.store(p, o, depth, alpha, beta, best, best_sq);
        best
    }

    /// A leaf's value: the evaluation's, but for a side wiped out, whose game is over
    /// (the one finished game cheap enough to look for at every leaf).
    #[inline(always)]
    fn leaf(&mut self, p: u64, o: u64) -> i32 {
        if p == 0 {
            return self.final_value(p, o);
        }
        self.eval.evaluate(p, o)
    }

    /// [`Midgame::leaf`] for a child of the position last read by
    /// [`StaticEval::read_children`], where the disc on `sq` flipped `f`.
    #[inline(always)]
    fn leaf_child(&mut self, sq: u8, f: u64, np: u64, no: u64) -> i32 {
        if np == 0 {
            return self.final_value(np, no);
        }
        self.eval.child(sq, f, np, no)
    }

    /// The value of the game ending with these discs, on the evaluation's scale.
    #[inline]
    fn final_value(&self, p: u64, o: u64) -> i32 {
        let empties = (self.board.mask & !(p | o)).count_ones();
        let margin = self
            .board
            .variant
            .margin(p.count_ones(), o.count_ones(), empties);
        self.eval.of_margin(margin)
    }

    /// Stores a node's fail-soft result for the window it was searched with.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn store(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32, best: i32, sq: u8) {
        let (lower, upper) = if best <= alpha {
            (-INF, best)
        } else if best >= beta {
            (best, INF)
        } else {
            (best, best)
        };
        self.table.store(
            p,
            o,
            Entry {
                lower: lower as i16,
                upper: upper as i16,
                depth: depth.min(255) as u8,
                best: sq + 1,
                selective: u8::from(self.selective()),
                age: 0,
            },
        );
    }

    /// The full-window value of `p` to move against `o` two plies deep, its children
    /// searched best first by their static values: where the class order searched about
    /// 60 leaves for one such search (`othello bench alphabeta` at depth 2), the best
    /// child first leaves the others one refutation each, as a minimal tree needs (Knuth
    /// and Moore). The value is the one [`Midgame::pvs`] gives; `None` where pvs takes
    /// another road (the solver's reach, a pass).
    pub(super) fn two_plies_best_first(&mut self, p: u64, o: u64) -> Option<i32> {
        let empties = (self.board.mask & !(p | o)).count_ones();
        let moves = legal_moves_unmasked(p, o) & self.board.mask;
        if empties <= 2 || moves == 0 {
            return None;
        }
        self.nodes += 1;
        self.eval.read_children(p, o);
        let mut children = [(0i32, 0u8, 0u64); 64];
        let mut count = 0;
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let f = flips(p, o, sq);
            let (np, no) = (o & !f, p | f | 1 << sq);
            self.nodes += 1;
            children[count] = (self.leaf_child(sq, f, np, no), sq, f);
            count += 1;
        }
        // The child its opponent values least is the side to move's best guess.
        children[..count].sort_unstable_by_key(|&(value, sq, _)| (value, sq));
        self.eval.read_grandchildren(p, o);
        let (mut best, mut alpha) = (-INF, -INF);
        for &(_, sq, f) in &children[..count] {
            let (np, no) = (o & !f, p | f | 1 << sq);
            self.eval.enter_child(sq, f, np, no);
            let v = -self.pvs(np, no, 1, -INF, -alpha, false);
            if v > best {
                best = v;
                alpha = alpha.max(v);
            }
        }
        Some(best)
    }

    /// The last plies before the leaves: no table, and the moves in the square classes'
    /// order (corners first), each cut as soon as it fails high. One ply above the leaves
    /// the node is read once for its children ([`StaticEval::read_children`]), two plies
    /// above them for its children's ([`StaticEval::read_grandchildren`]).
    fn shallow(&mut self, p: u64, o: u64, moves: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        let (mut best, mut a) = (-INF, alpha);
        match depth {
            1 => self.eval.read_children(p, o),
            2 => self.eval.read_grandchildren(p, o),
            _ => {}
        }
        for class in self.board.classes {
            let mut rest = moves & class;
            while rest != 0 {
                let sq = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                let f = flips(p, o, sq);
                let (np, no) = (o & !f, p | f | 1 << sq);
                let v = if depth == 1 {
                    self.nodes += 1;
                    -self.leaf_child(sq, f, np, no)
                } else {
                    self.eval.enter_child(sq, f, np, no);
                    -self.pvs(np, no, depth - 1, -beta, -a, false)
                };
                if v > best {
                    best = v;
                    if v >= beta {
                        return best;
                    }
                    a = a.max(v);
                }
            }
        }
        best
    }

    /// The exact value of a position the search would follow to the end: the solver's
    /// fail-soft margin in the window, in value units. With `empties` 0 the final count.
    fn exact(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> i32 {
        if empties == 0 {
            self.nodes += 1;
            return self.final_value(p, o);
        }
        let (low, high) = self.eval.margin_window(alpha, beta);
        let (low, high) = (low.clamp(-65, 64), high.clamp(-64, 65));
        match self.solve_window(p, o, low, high) {
            Some(margin) => self.eval.of_margin(margin),
            None => 0,
        }
    }

    /// The solver's fail-soft margin in (low, high), in budgets that double until it is
    /// known or the limits run out (`None`, and the search is aborted).
    fn solve_window(&mut self, p: u64, o: u64, low: i32, high: i32) -> Option<i32> {
        let mut budget = 1u64 << 14;
        loop {
            let found = self.solver.search_window_within(
                self.board.size,
                self.board.variant,
                p,
                o,
                low,
                high,
                budget,
            );
            if found.is_some() {
                return found;
            }
            if self.check_limits() {
                return None;
            }
            budget = budget.saturating_mul(2);
        }
    }
}
