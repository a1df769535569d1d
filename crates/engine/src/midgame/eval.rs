//! What the midgame search adds up at its leaves: a static evaluation on raw bitboards, in
//! hundredths of a disc of final margin for the side to move, so that the exact solver's
//! margins at the end of the game and the evaluation's estimates share one scale (as
//! Edax's and Egaroucid's midgame searches keep theirs in discs).

use crate::evaluator::Evaluator;
use crate::pattern::{ChildReading, PatternTables, PositionIndices};
use othello::raw::legal_moves_unmasked;
use othello::{BoardSize, Color, Position, Variant};
use std::sync::Arc;

/// Value units in one disc of final margin.
pub const UNIT: i32 = 100;

/// Evaluations are kept inside this, so that a value beyond it can only be a position whose
/// margin is known (the largest margin is 64 discs).
pub const MAX_ESTIMATE: i32 = 64 * UNIT - 1;

/// A static evaluation the search can call millions of times a second.
pub trait StaticEval: Send {
    /// The value of the position with `p` to move against `o` (a game not over), in
    /// [`UNIT`]s per disc of expected final margin for `p`, within ±[`MAX_ESTIMATE`].
    fn evaluate(&mut self, p: u64, o: u64) -> i32;

    /// A short description for logs and tables.
    fn describe(&self) -> String;

    /// Called before a search of a position on this board and variant: an evaluation
    /// that depends on them (the hand-made features' geometry) gets ready for them.
    fn prepare(&mut self, _size: BoardSize, _variant: Variant) {}

    /// A final margin in discs as a value on this evaluation's scale.
    fn of_margin(&self, margin: i32) -> i32 {
        margin * UNIT
    }

    /// The window in discs within which the exact solver decides the window (`alpha`,
    /// `beta`) on this scale, fail-soft: a margin at or below the first is at or below
    /// `alpha` once [`StaticEval::of_margin`] has scaled it, one at or above the second at
    /// or above `beta`.
    fn margin_window(&self, alpha: i32, beta: i32) -> (i32, i32) {
        let low = alpha.div_euclid(UNIT);
        let high = -(-beta).div_euclid(UNIT);
        (low, high.max(low + 1))
    }

    /// Makes ready to value the children of `p` to move against `o` (who has a legal
    /// move) by [`StaticEval::child`]. An evaluation that reads a child faster from its
    /// parent (a pattern network's tables: Edax's `eval_update`, `src/eval.c`) reads the
    /// parent here; by default there is nothing to read.
    fn read_children(&mut self, _p: u64, _o: u64) {}

    /// Makes ready to read the children of `p`'s children (against `o`) for theirs: an
    /// evaluation that reads a child from its parent reads `p` here, and
    /// [`StaticEval::read_children`] of a child announced by [`StaticEval::enter_child`]
    /// starts from it.
    fn read_grandchildren(&mut self, _p: u64, _o: u64) {}

    /// The search goes down into the child of the position last given to
    /// [`StaticEval::read_grandchildren`] where its side to move placed a disc on `square`,
    /// flipping `flipped`, which leaves `np` to move against `no`.
    fn enter_child(&mut self, _square: u8, _flipped: u64, _np: u64, _no: u64) {}

    /// The value of a child of the position last given to [`StaticEval::read_children`]:
    /// its side to move placed a disc on `square`, flipping `flipped`, and the child is
    /// `np` to move against `no` (a game not over). What [`StaticEval::evaluate`] gives
    /// for the child, to the unit.
    fn child(&mut self, _square: u8, _flipped: u64, np: u64, no: u64) -> i32 {
        self.evaluate(np, no)
    }
}

/// The value of a won game on the scale of an evaluation of results
/// ([`PatternOutput::ValueLogit`]): beyond every estimate, whatever the margin.
pub(super) const WON: i32 = MAX_ESTIMATE + 1;

/// Which of a pattern network's two outputs the search adds up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatternOutput {
    /// The expected final margin (the `score` output), in discs: what alpha-beta players
    /// search, as the exact solver's margins share its scale.
    Margin,
    /// The value logit (`value = tanh(logit)`), scaled to the same range: what MCTS backs
    /// up, for leaves that an alpha-beta search values inside MCTS.
    ValueLogit,
}

/// A pattern network's tables ([`PatternTables::unit_sums`]) as a static evaluation.
#[derive(Clone, Debug)]
pub struct PatternEval {
    tables: Arc<PatternTables>,
    output: PatternOutput,
    /// Value units per unit of the chosen output's table entries.
    scale: f32,
    name: String,
    /// Whether children are read from their parent ([`PatternEval::reading_children`]).
    from_parent: bool,
    /// The position last read for its children ([`StaticEval::read_children`]).
    reading: Box<ChildReading>,
    /// The position last read for its grandchildren ([`StaticEval::read_grandchildren`]),
    /// and the child of it the search went down into, while that child is not yet read.
    indices: Box<PositionIndices>,
    entered: Option<EnteredChild>,
}

/// A child of the position in [`PatternEval`]'s indices: the move to it, and the child.
#[derive(Clone, Copy, Debug)]
struct EnteredChild {
    square: u8,
    flipped: u64,
    own: u64,
    other: u64,
}

/// [`PatternOutput::ValueLogit`]'s value units per unit of logit: a logit of 8 (a value of
/// 0.9999998) maps to 64 discs' worth, so every logit a network gives fits the range.
pub const LOGIT_UNITS: f32 = 8.0 * UNIT as f32;

impl PatternEval {
    pub fn new(tables: Arc<PatternTables>, output: PatternOutput, name: &str) -> PatternEval {
        let squares = tables.set().size.squares() as f32;
        let [score_step, value_step] = tables.step();
        let scale = match output {
            // The score output is the margin over the number of squares.
            PatternOutput::Margin => score_step * squares * UNIT as f32,
            PatternOutput::ValueLogit => value_step * LOGIT_UNITS,
        };
        PatternEval {
            tables,
            output,
            scale,
            name: name.to_owned(),
            from_parent: PatternTables::CHILDREN_FROM_PARENT,
            reading: Box::default(),
            indices: Box::default(),
            entered: None,
        }
    }

    /// Whether a node's children are valued from the node's own pattern indices
    /// ([`StaticEval::read_children`]) or each read afresh, as every other position is.
    /// The default is the faster where the search runs
    /// ([`PatternTables::CHILDREN_FROM_PARENT`]); either gives the same values.
    pub fn reading_children(self, from_parent: bool) -> PatternEval {
        PatternEval {
            from_parent,
            ..self
        }
    }

    /// The output's index among the tables' outputs (0 the score, 1 the value logit).
    fn output_index(&self) -> usize {
        match self.output {
            PatternOutput::Margin => 0,
            PatternOutput::ValueLogit => 1,
        }
    }

    /// Table units as value units, inside the estimates' range.
    #[inline]
    fn value_of_units(&self, units: i32) -> i32 {
        ((units as f32 * self.scale) as i32).clamp(-MAX_ESTIMATE, MAX_ESTIMATE)
    }

    pub fn tables(&self) -> &Arc<PatternTables> {
        &self.tables
    }
}

impl StaticEval for PatternEval {
    #[inline]
    fn evaluate(&mut self, p: u64, o: u64) -> i32 {
        let units = self.tables.unit_sum(p, o, self.output_index());
        self.value_of_units(units)
    }

    #[inline]
    fn read_children(&mut self, p: u64, o: u64) {
        if !self.from_parent {
            return;
        }
        let output = self.output_index();
        match self.entered.take() {
            Some(child) if (child.own, child.other) == (p, o) => {
                self.tables.read_children_of_child(
                    &self.indices,
                    u32::from(child.square),
                    child.flipped,
                    p,
                    o,
                    output,
                    &mut self.reading,
                );
            }
            _ => self.tables.read_children(p, o, output, &mut self.reading),
        }
    }

    #[inline]
    fn read_grandchildren(&mut self, p: u64, o: u64) {
        if self.from_parent {
            self.entered = None;
            self.tables.read_indices(p, o, &mut self.indices);
        }
    }

    #[inline]
    fn enter_child(&mut self, square: u8, flipped: u64, np: u64, no: u64) {
        if self.from_parent {
            self.entered = Some(EnteredChild {
                square,
                flipped,
                own: np,
                other: no,
            });
        }
    }

    #[inline]
    fn child(&mut self, square: u8, flipped: u64, np: u64, no: u64) -> i32 {
        if !self.from_parent {
            return self.evaluate(np, no);
        }
        let units = self
            .tables
            .child_units(&mut self.reading, u32::from(square), flipped);
        self.value_of_units(units)
    }

    /// A margin's value: on the value's scale only its sign counts, as a won game's value
    /// is 1 however large the win.
    fn of_margin(&self, margin: i32) -> i32 {
        match self.output {
            PatternOutput::Margin => margin * UNIT,
            PatternOutput::ValueLogit => margin.signum() * WON,
        }
    }

    /// On the value's scale every window is decided by the result alone.
    fn margin_window(&self, alpha: i32, beta: i32) -> (i32, i32) {
        match self.output {
            PatternOutput::Margin => {
                let low = alpha.div_euclid(UNIT);
                (low, (-(-beta).div_euclid(UNIT)).max(low + 1))
            }
            PatternOutput::ValueLogit => (-1, 1),
        }
    }

    fn describe(&self) -> String {
        let output = match self.output {
            PatternOutput::Margin => "its margin",
            PatternOutput::ValueLogit => "its value",
        };
        format!("pattern network {} ({output})", self.name)
    }
}

/// Any evaluator of the search's interface ([`Evaluator`]: a network of planes, random
/// playouts) one position at a time: its margin estimate where it has one, else its value
/// stretched over half the board. Hundreds of times slower than a pattern network's
/// tables, but it lets the same alpha-beta search over every network the project has.
pub struct EvaluatorEval<E> {
    inner: E,
    size: BoardSize,
    variant: Variant,
}

impl<E: Evaluator> std::fmt::Debug for EvaluatorEval<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EvaluatorEval")
            .field("inner", &self.inner.describe())
            .finish_non_exhaustive()
    }
}

impl<E: Evaluator + Send> EvaluatorEval<E> {
    pub fn new(inner: E, size: BoardSize, variant: Variant) -> EvaluatorEval<E> {
        EvaluatorEval {
            inner,
            size,
            variant,
        }
    }
}

impl<E: Evaluator + Send> StaticEval for EvaluatorEval<E> {
    fn evaluate(&mut self, p: u64, o: u64) -> i32 {
        let squares = self.size.squares() as f32;
        // The side to move's colour does not change what the evaluator says of it.
        let Ok(pos) = Position::from_bitboards(
            othello::Bitboard(p),
            othello::Bitboard(o),
            Color::Black,
            self.size,
            self.variant,
        ) else {
            return 0;
        };
        let discs = match self.inner.evaluate(&[pos]) {
            Ok(evals) => evals.first().map_or(0.0, |e| match e.score {
                Some(score) => score * squares,
                None => e.value * squares / 2.0,
            }),
            // An evaluator that fails says nothing; the search goes on as if even.
            Err(_) => 0.0,
        };
        ((discs * UNIT as f32) as i32).clamp(-MAX_ESTIMATE, MAX_ESTIMATE)
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn prepare(&mut self, size: BoardSize, variant: Variant) {
        (self.size, self.variant) = (size, variant);
    }
}

/// The classic player's hand-made evaluation (mobility, potential mobility, corners, X-
/// and C-squares, edges, edge stability, discs; weights sliding from the opening to the
/// end), for `alphabeta` without a network: any board, either variant.
#[derive(Clone, Copy, Debug)]
pub struct FeatureEval {
    geo: Geometry,
    variant: Variant,
}

impl FeatureEval {
    pub fn new(size: BoardSize, variant: Variant) -> FeatureEval {
        FeatureEval {
            geo: Geometry::new(size),
            variant,
        }
    }
}

impl StaticEval for FeatureEval {
    fn evaluate(&mut self, p: u64, o: u64) -> i32 {
        let geo = &self.geo;
        let empty = geo.mask & !(p | o);
        let p_moves = legal_moves_unmasked(p, o) & geo.mask;
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
        let value = w(10, 4) * mobility
            + w(30, 10) * potential
            + sign
                * (w(1500, 800) * corners
                    + w(200, 60) * x_c
                    + w(20, 30) * edges
                    + w(60, 100) * stable
                    + w(-5, 40) * discs);
        value.clamp(-MAX_ESTIMATE, MAX_ESTIMATE)
    }

    fn describe(&self) -> String {
        "hand-made features".to_owned()
    }

    fn prepare(&mut self, size: BoardSize, variant: Variant) {
        if self.geo.size != size {
            self.geo = Geometry::new(size);
        }
        self.variant = variant;
    }
}

/// Board geometry the feature evaluation needs, computed once per board size.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    size: BoardSize,
    mask: u64,
    corners: u64,
    edges: u64,
    /// For each corner: the corner bit, its diagonal neighbour (X) and edge neighbours (C).
    corner_zones: [(u64, u64, u64); 4],
    /// (corner, step along one edge, step along the other) in bit-index steps.
    edge_walks: [(u8, i8, i8); 4],
}

impl Geometry {
    fn new(size: BoardSize) -> Geometry {
        use othello::Square;
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
            edge_walks: [(0, 1, 8), (m, -1, 8), (m * 8, 1, -8), (m * 8 + m, -1, -8)],
        }
    }
}

/// Empty squares next to `discs` (the 8x8 layout; callers mask to their board).
pub(super) fn neighbours(discs: u64) -> u64 {
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
