//! Iterative-deepening alpha-beta with a transposition table and a feature evaluation,
//! handing over to the exact solver for the last empties.

use super::heuristic::square_table;
use super::simple::forced_move;
use crate::solver::Solver;
use crate::tables::{ALPHABETA_SOLVER_TABLE_BITS, ALPHABETA_TABLE_BITS};
use crate::{Agent, Budget, Rng};
use othello::raw::{flips, legal_moves_unmasked};
use othello::{BoardSize, Move, Position, Square, Variant};
use web_time::Instant;

/// Depth when the budget sets neither depth nor time.
pub const DEFAULT_DEPTH: u32 = 4;

/// Deepest iteration under a time budget alone (a game never has more empties).
const MAX_DEPTH: u32 = 64;

/// A won or lost final position scores beyond any evaluation, ordered by margin.
const WIN: i32 = 1_000_000;
const INF: i32 = 2 * WIN;

/// Empties at which the player stops guessing and solves exactly. The solver takes a few
/// milliseconds (release build) at these depths, less than a depth-4 search in the middle game.
pub const fn solver_empties(size: BoardSize) -> u32 {
    match size {
        BoardSize::Eight => 14,
        BoardSize::Six | BoardSize::Four => 16,
    }
}

/// Board geometry the evaluation needs, computed once per board size.
#[derive(Clone, Copy)]
struct Geometry {
    size: BoardSize,
    mask: u64,
    corners: u64,
    edges: u64,
    /// For each corner: the corner bit, its diagonal neighbour (X) and edge neighbours (C).
    corner_zones: [(u64, u64, u64); 4],
    /// Square values for move ordering.
    table: [i32; 64],
    /// (corner, step along one edge, step along the other) in bit-index steps.
    edge_walks: [(u8, i8, i8); 4],
}

impl Geometry {
    fn new(size: BoardSize) -> Geometry {
        let m = size.n() - 1;
        let bit = |c: u8, r: u8| Square::new(c, r).map_or(0, Square::bit);
        let mut edges = 0;
        for sq in Square::all(size) {
            if sq.row() == 0 || sq.row() == m || sq.column() == 0 || sq.column() == m {
                edges |= sq.bit();
            }
        }
        let zone = |c: u8, r: u8, dc: i8, dr: i8| {
            let nc = (c as i8 + dc) as u8;
            let nr = (r as i8 + dr) as u8;
            (bit(c, r), bit(nc, nr), bit(nc, r) | bit(c, nr))
        };
        let corner_zones = [
            zone(0, 0, 1, 1),
            zone(m, 0, -1, 1),
            zone(0, m, 1, -1),
            zone(m, m, -1, -1),
        ];
        let corners = corner_zones.iter().fold(0, |acc, z| acc | z.0);
        Geometry {
            size,
            mask: size.mask(),
            corners,
            edges: edges & !corners,
            corner_zones,
            table: square_table(size),
            edge_walks: [(0, 1, 8), (m, -1, 8), (m * 8, 1, -8), (m * 8 + m, -1, -8)],
        }
    }
}

/// Empty squares next to `discs` (the 8x8 layout; callers mask to their board).
fn neighbours(discs: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let east = (discs << 1) & NOT_A;
    let west = (discs >> 1) & NOT_H;
    let row = discs | east | west;
    east | west | (row << 8) | (row >> 8)
}

/// Discs of `own` that can never be flipped because they run unbroken along an edge from
/// a corner they hold: cheap, and the bulk of real stability in practice.
fn edge_stable(geo: &Geometry, own: u64) -> u64 {
    let n = i32::from(geo.size.n());
    let mut stable = 0;
    for (corner, step_a, step_b) in geo.edge_walks {
        if own & (1 << corner) == 0 {
            continue;
        }
        for step in [i32::from(step_a), i32::from(step_b)] {
            let mut sq = i32::from(corner);
            for _ in 0..n {
                if !(0..64).contains(&sq) || own & (1 << sq) == 0 {
                    break;
                }
                stable |= 1 << sq;
                sq += step;
            }
        }
    }
    stable
}

#[derive(Clone, Copy, Default)]
struct Entry {
    player: u64,
    opponent: u64,
    value: i32,
    depth: u8,
    bound: Bound,
    /// Best move's square index + 1 (0: none).
    best: u8,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// Alpha-beta player: iterative deepening negamax, a transposition table, the table's
/// move then the square values for ordering, a phase-weighted feature evaluation, and
/// the exact solver once few enough squares are empty. Reads `Budget::depth` and
/// `Budget::time` (default: depth [`DEFAULT_DEPTH`]). Ties between equally good root
/// moves go by a seeded shuffle, so one seed plays one game.
pub struct AlphaBetaPlayer {
    rng: Rng,
    table: Vec<Entry>,
    solver: Solver,
    geo: Geometry,
    variant: Variant,
    nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
}

impl AlphaBetaPlayer {
    pub fn new(seed: u64) -> AlphaBetaPlayer {
        AlphaBetaPlayer {
            rng: Rng::new(seed),
            table: vec![Entry::default(); 1 << ALPHABETA_TABLE_BITS],
            solver: Solver::with_table_bits(ALPHABETA_SOLVER_TABLE_BITS),
            geo: Geometry::new(BoardSize::Eight),
            variant: Variant::Standard,
            nodes: 0,
            deadline: None,
            aborted: false,
        }
    }

    /// Positions searched so far (the solver's included).
    pub fn nodes(&self) -> u64 {
        self.nodes + self.solver.nodes()
    }

    fn prepare(&mut self, pos: &Position) {
        if self.geo.size != pos.size() || self.variant != pos.variant() {
            self.geo = Geometry::new(pos.size());
            self.variant = pos.variant();
            self.table.fill(Entry::default());
        }
    }

    /// Static value for `p` to move (`p_moves` its legal moves), in hundredths of a disc
    /// or so. Weights slide from opening to ending with the share of empty squares.
    fn evaluate(&self, p: u64, o: u64, p_moves: u64) -> i32 {
        let geo = &self.geo;
        let empty = geo.mask & !(p | o);
        let o_moves = legal_moves_unmasked(o, p) & geo.mask;
        let count = |b: u64| b.count_ones() as i32;

        let mobility =
            100 * (count(p_moves) - count(o_moves)) / (count(p_moves) + count(o_moves) + 2);
        // Empty squares next to the opponent's discs are where our future moves are.
        let potential = count(neighbours(o) & empty) - count(neighbours(p) & empty);
        let corners = count(p & geo.corners) - count(o & geo.corners);
        let mut x_c = 0;
        for (corner, x, c) in geo.corner_zones {
            if empty & corner != 0 {
                x_c += 2 * (count(o & x) - count(p & x)) + count(o & c) - count(p & c);
            }
        }
        let edges = count(p & geo.edges) - count(o & geo.edges);
        let stable = count(edge_stable(geo, p)) - count(edge_stable(geo, o));
        let discs = count(p) - count(o);

        // Material terms (discs and what holds them) reverse meaning in the reversed game;
        // mobility does not: having moves is good in both.
        let sign = match self.variant {
            Variant::Standard => 1,
            Variant::Reversed => -1,
        };
        let late = 1000 - 1000 * count(empty) / geo.size.squares() as i32; // 0 start .. 1000 end
        let early = 1000 - late;
        let w = |e: i32, l: i32| (e * early + l * late) / 1000;
        w(10, 4) * mobility
            + w(30, 10) * potential
            + sign
                * (w(1500, 800) * corners
                    + w(200, 60) * x_c
                    + w(20, 30) * edges
                    + w(60, 100) * stable
                    + w(-5, 40) * discs)
    }

    fn terminal(&self, p: u64, o: u64) -> i32 {
        let empties = (self.geo.mask & !(p | o)).count_ones();
        let margin = self.variant.margin(p.count_ones(), o.count_ones(), empties);
        margin.signum() * WIN + margin
    }

    fn negamax(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32, passed: bool) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let moves = legal_moves_unmasked(p, o) & self.geo.mask;
        if moves == 0 {
            if passed {
                return self.terminal(p, o);
            }
            return -self.negamax(o, p, depth, -beta, -alpha, true);
        }
        if depth == 0 {
            return self.evaluate(p, o, moves);
        }

        let slot = slot(p, o);
        let tt_move = match self.probe(slot, p, o, depth, alpha, beta) {
            Ok(tt_move) => tt_move,
            Err(value) => return value,
        };
        let alpha_in = alpha;
        let mut alpha = alpha;
        let ordered = self.ordered_moves(moves, tt_move);

        let mut best = -INF;
        let mut best_sq = ordered[0].1;
        for (_, sq) in ordered {
            let f = flips(p, o, sq);
            let v = -self.negamax(o & !f, p | f | (1 << sq), depth - 1, -beta, -alpha, false);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = sq;
                if v >= beta {
                    break;
                }
                alpha = alpha.max(v);
            }
        }
        let bound = if best <= alpha_in {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[slot] = Entry {
            player: p,
            opponent: o,
            value: best,
            depth: depth.min(255) as u8,
            bound,
            best: best_sq + 1,
        };
        best
    }

    /// Whether the search must stop: the deadline has passed (looked at every 1,024
    /// nodes, as the clock costs more than a node), now or before.
    #[inline(always)]
    fn out_of_time(&mut self) -> bool {
        if self.nodes & 1023 == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// What the table says of `p` to move at `depth` in (alpha, beta): its value when a
    /// stored search at least as deep settles the node (`Err`), else the stored best
    /// move to try first, if any.
    #[inline(always)]
    fn probe(
        &self,
        slot: usize,
        p: u64,
        o: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Result<Option<u8>, i32> {
        let entry = self.table[slot];
        if entry.player != p || entry.opponent != o || entry.best == 0 {
            return Ok(None);
        }
        if u32::from(entry.depth) >= depth {
            match entry.bound {
                Bound::Exact => return Err(entry.value),
                Bound::Lower if entry.value >= beta => return Err(entry.value),
                Bound::Upper if entry.value <= alpha => return Err(entry.value),
                _ => {}
            }
        }
        Ok(Some(entry.best - 1))
    }

    /// `moves` in the order to search them: the table's move first, then by the squares'
    /// values (a stable sort, so equal squares keep their order).
    fn ordered_moves(&self, moves: u64, tt_move: Option<u8>) -> Vec<(i32, u8)> {
        let mut ordered: Vec<(i32, u8)> = Vec::with_capacity(moves.count_ones() as usize);
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let key = if Some(sq) == tt_move {
                i32::MAX
            } else {
                self.geo.table[usize::from(sq)]
            };
            ordered.push((key, sq));
        }
        ordered.sort_by_key(|(key, _)| -i64::from(*key));
        ordered
    }
}

fn slot(p: u64, o: u64) -> usize {
    let h = (p ^ o.rotate_left(23).wrapping_mul(0xff51_afd7_ed55_8ccd))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h >> (64 - ALPHABETA_TABLE_BITS)) as usize
}

impl Agent for AlphaBetaPlayer {
    fn name(&self) -> String {
        "alphabeta".into()
    }

    fn select_move(&mut self, pos: &Position, budget: &Budget) -> Move {
        if let Some(mv) = forced_move(pos) {
            return mv;
        }
        self.prepare(pos);
        if pos.empty_count() <= solver_empties(pos.size()) {
            if let Some(mv) = self.solver.solve(pos).best {
                return mv;
            }
        }

        let (p, o) = (pos.player().0, pos.opponent().0);
        let max_depth = budget
            .depth
            .unwrap_or(if budget.time.is_some() {
                MAX_DEPTH
            } else {
                DEFAULT_DEPTH
            })
            .max(1);
        self.deadline = budget.time.map(|t| Instant::now() + t);
        self.aborted = false;

        // Root moves in a seeded random order; the sort by score below is stable, so
        // equal scores keep it and ties go to a seeded choice.
        let mut root: Vec<(Square, i32)> = pos.legal_moves().map(|sq| (sq, 0)).collect();
        for i in (1..root.len()).rev() {
            root.swap(i, self.rng.below(i + 1));
        }
        let mut best_sq = root[0].0;
        for depth in 1..=max_depth {
            let mut alpha = -INF;
            let mut iteration_best = None;
            for entry in &mut root {
                let sq = entry.0;
                let f = flips(p, o, sq.index());
                let v = -self.negamax(o & !f, p | f | sq.bit(), depth - 1, -INF, -alpha, false);
                if self.aborted {
                    break;
                }
                entry.1 = v;
                if v > alpha {
                    alpha = v;
                    iteration_best = Some(sq);
                }
            }
            if self.aborted {
                // A cut-short iteration proves nothing about the moves it did not reach.
                break;
            }
            if let Some(sq) = iteration_best {
                best_sq = sq;
            }
            root.sort_by_key(|(_, v)| -i64::from(*v));
            if alpha.abs() >= WIN || depth >= pos.empty_count() {
                break;
            }
        }
        Move::Place(best_sq)
    }

    fn new_game(&mut self) {
        self.table.fill(Entry::default());
        self.solver.clear();
    }
}

impl std::fmt::Debug for AlphaBetaPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlphaBetaPlayer")
            .field("table_entries", &self.table.len())
            .finish_non_exhaustive()
    }
}
