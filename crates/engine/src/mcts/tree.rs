//! The node store: one vector of nodes whose children are contiguous and referred to by
//! index (as in KataGo's search), the evaluation cache, and the root's bookkeeping.

use super::config::{default_solver_empties, MctsConfig};
use super::gumbel::{self, RootMove};
use crate::evaluator::{ChildReadout, Evaluation, PriorSource, ValuedPriors};
use crate::report::{MoveInfo, Proof, SearchInfo};
use crate::solver::Solver;
use crate::table_sizes::TREE_SOLVER_TABLE_BITS;
use crate::Rng;
use othello::{Move, Position};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Duration;

/// The evaluation cache's hasher: its keys are [`Position::hash`] already, a full 64-bit
/// mix, which the map takes as it is where SipHash would hash it again on every
/// simulation's lookup and store.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys come here (`write_u64`); anything else still hashes.
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// Evaluations by their position's hash.
pub(super) type EvaluationCache = HashMap<u64, Evaluation, BuildHasherDefault<Prehashed>>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Expansion {
    Leaf,
    /// A leaf whose evaluation its parent's priors read on the way
    /// ([`crate::evaluator::Evaluator::split_priors_with_values`]): until a simulation
    /// reaches it, `raw_value` and `score_mean` (with `score_n` 0) hold that reading, which
    /// the source turns into its value and score then, with no evaluator call.
    Prevalued,
    /// Sent to the evaluator in the batch being collected.
    Pending,
    /// Evaluated, its value backed up, but no children yet: an evaluator whose priors come
    /// apart ([`crate::evaluator::Evaluator::split_priors`]) gives them when a simulation
    /// first descends below the node ([`SearchTree::grow`]). Most leaves never are, and
    /// their priors and children cost nothing.
    Valued,
    Expanded,
}

/// A node holds no position: a simulation plays the moves down from the root's as it
/// descends (lc0's nodes hold moves only). A position was a third of the node, and the
/// children a selection reads are the search's cache misses.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// The move that led here (meaningless at the root).
    pub(super) mv: Move,
    pub(super) prior: f32,
    pub(super) visits: u32,
    /// Simulations passing through that have not been backed up yet (virtual losses).
    pub(super) in_flight: u32,
    /// Mean of the backed-up values, from the view of the player who made `mv` (0 before
    /// any). A running mean rather than a sum, as lc0's nodes keep theirs: selection reads
    /// every child's on every path, and a sum needed a division for each.
    pub(super) value_mean: f32,
    pub(super) first_child: u32,
    pub(super) child_count: u16,
    pub(super) expansion: Expansion,
    /// What is known for certain of the final disc margin, from the view of the player who
    /// made `mv`: a pessimistic and an optimistic bound (score-bounded MCTS, Cazenave and
    /// Saffidine 2010). Equal bounds are the exact margin; a bound across 0 is a proof of
    /// the result (MCTS-Solver, Winands et al. 2008) without the margin.
    pub(super) lower: i8,
    pub(super) upper: i8,
    /// The evaluator's value for the side to move here, once evaluated (Gumbel's mixed
    /// value starts from the root's).
    pub(super) raw_value: f32,
    /// Mean of the backed-up final disc differences over the squares, from the view of
    /// the player who made `mv`, and how many simulations brought one (a leaf solved win,
    /// loss or draw, or an evaluator without a score, brings none).
    pub(super) score_mean: f32,
    pub(super) score_n: u32,
}

// Under half its size with its position (72 bytes) and with sums (48): more of a node's
// children to a cache line. The board's squares, which scale margins and bounds, are the
// tree's ([`SearchTree::squares`]), not each node's.
const _: () = assert!(std::mem::size_of::<Node>() <= 40);

impl Node {
    pub(super) fn new(squares: u8, mv: Move, prior: f32) -> Node {
        Node {
            mv,
            prior,
            visits: 0,
            in_flight: 0,
            value_mean: 0.0,
            first_child: 0,
            child_count: 0,
            expansion: Expansion::Leaf,
            lower: -(squares as i8),
            upper: squares as i8,
            raw_value: 0.0,
            score_mean: 0.0,
            score_n: 0,
        }
    }

    /// A [`Expansion::Prevalued`] leaf made a plain one, its parent's reading gone.
    pub(super) fn forget_reading(&mut self) {
        self.expansion = Expansion::Leaf;
        self.raw_value = 0.0;
        self.score_mean = 0.0;
    }

    pub(super) fn children(&self) -> std::ops::Range<usize> {
        let start = self.first_child as usize;
        start..start + self.child_count as usize
    }

    /// Mean final disc difference (over the squares) for the player who made `mv`.
    pub(super) fn score(&self) -> Option<f32> {
        (self.score_n > 0).then_some(self.score_mean)
    }

    /// The final disc margin expected for the player who made `mv`: the exact one once the
    /// bounds meet, else the mean of the scores backed up through the node (on a board of
    /// `squares`).
    pub(super) fn expected_margin(&self, squares: u8) -> Option<f32> {
        match self.exact() {
            Some(margin) => Some(margin as f32),
            None => self.score().map(|score| score * f32::from(squares)),
        }
    }

    /// The result for the player who made `mv`, when the bounds settle it.
    pub(super) fn proof(&self) -> Option<Proof> {
        if self.lower > 0 {
            Some(Proof::Win)
        } else if self.upper < 0 {
            Some(Proof::Loss)
        } else if self.lower == 0 && self.upper == 0 {
            Some(Proof::Draw)
        } else {
            None
        }
    }

    /// The exact final margin for the player who made `mv`, once the bounds meet.
    pub(super) fn exact(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower as i32)
    }

    pub(super) fn set_exact(&mut self, margin: i32) {
        self.lower = margin as i8;
        self.upper = margin as i8;
    }

    /// Forgets the bounds (a root that was a solved leaf must be searched again).
    pub(super) fn unbound(&mut self, squares: u8) {
        let squares = squares as i8;
        self.lower = -squares;
        self.upper = squares;
    }

    /// The bounds as the search reports them: `None` while nothing is known.
    pub(super) fn known_bounds(&self, squares: u8) -> Option<(i32, i32)> {
        let squares = squares as i8;
        (self.lower > -squares || self.upper < squares)
            .then_some((self.lower as i32, self.upper as i32))
    }

    /// Mean value for the player who made `mv`, virtual losses counted as losses.
    pub(super) fn q(&self) -> f32 {
        if let Some(proof) = self.proof() {
            return proof.value();
        }
        if self.in_flight == 0 {
            return self.value_mean;
        }
        // Each simulation on its way counts as a loss until it is backed up.
        let n = (self.visits + self.in_flight) as f32;
        (self.value_mean * self.visits as f32 - self.in_flight as f32) / n
    }
}

/// The exact endgame solver as an [`ExactSolver`] hook: the final margin of positions with
/// at most `empties` empty squares (`None`: the board's default). The margin, not only the
/// result, so that the search can tell a large win from a small one (score bounds). The
/// solver's table is made on first use, so a search that never reaches the endgame pays
/// nothing for it.
pub fn endgame_solver(empties: Option<u32>) -> ExactSolver {
    let mut solver: Option<Solver> = None;
    Box::new(move |pos: &Position| {
        let limit = empties.unwrap_or_else(|| default_solver_empties(pos.size()));
        if pos.empty_count() > limit {
            return None;
        }
        let solver = solver.get_or_insert_with(|| Solver::with_table_bits(TREE_SOLVER_TABLE_BITS));
        Some(solver.solve(pos).margin)
    })
}

/// A hook for exact values near the end of the game: the exact final margin for the side
/// to move (with perfect play by both), or `None` to let the search evaluate the position
/// as usual.
pub type ExactSolver = Box<dyn FnMut(&Position) -> Option<i32> + Send>;

/// The tree and everything the search keeps between evaluator calls, with no evaluator
/// of its own: [`super::Mcts`] pairs it with one, and self-play drives many trees with one
/// shared evaluator, batching leaves across games.
pub struct SearchTree {
    pub(super) config: MctsConfig,
    pub(super) nodes: Vec<Node>,
    /// The root's position (`nodes[0]`'s), set with the first node.
    pub(super) root_pos: Option<Position>,
    pub(super) cache: EvaluationCache,
    pub(super) rng: Rng,
    pub(super) exact: Option<(u32, ExactSolver)>,
    /// Whether the root's priors already have their noise: a search that runs in slices
    /// mixes it in once per root, not once per slice.
    pub(super) root_noised: bool,
    /// The Gumbel noise of the root's children (empty: none drawn, all 0).
    pub(super) root_gumbel: Vec<f32>,
    /// Gumbel's sequential halving for this root: the visit count a root move must have to
    /// be simulated next, per simulation; empty when the search runs PUCT at the root.
    pub(super) halving: Vec<u32>,
    /// Whether the evaluator has given a score (a network with a score head): only then do
    /// margins weigh in selection, so that a network without one is not drawn to the few
    /// moves the solver scored.
    pub(super) scored: bool,
    /// The last batch handed back, emptied, for the next [`SearchTree::collect`] to fill:
    /// a search of batches of one would otherwise allocate its vectors every simulation.
    pub(super) spare: Option<LeafBatch>,
    /// Where priors come from when the evaluator's evaluations carry none
    /// ([`SearchTree::set_prior_source`]), and the vector they are written to.
    pub(super) prior_source: Option<PriorSource>,
    pub(super) prior_buffer: Vec<f32>,
    /// A prior source that values the children too ([`SearchTree::set_valued_priors`]),
    /// taken before `prior_source`, and the vector the children's readings go to.
    pub(super) valued_priors: Option<Box<dyn ValuedPriors>>,
    pub(super) child_buffer: Vec<ChildReadout>,
}

/// Leaves selected for one evaluator call. Hand it back to [`SearchTree::complete`]
/// with their evaluations.
#[derive(Debug, Default)]
pub struct LeafBatch {
    /// The nodes of every pending leaf's path from the root, one path after another, in
    /// one vector (a vector a path cost a few allocations a simulation).
    pub(super) path_nodes: Vec<u32>,
    /// Where each path ends in `path_nodes`.
    pub(super) path_ends: Vec<usize>,
    /// The positions to evaluate, in order.
    pub positions: Vec<Position>,
    /// Simulations already finished while collecting (finished games, proofs, cache hits).
    pub(super) resolved: u64,
}

impl LeafBatch {
    /// The pending leaves' paths, in the positions' order.
    pub(super) fn paths(&self) -> impl Iterator<Item = &[u32]> {
        let starts = std::iter::once(0).chain(self.path_ends.iter().copied());
        starts
            .zip(&self.path_ends)
            .map(|(start, &end)| &self.path_nodes[start..end])
    }

    /// Empty, keeping its vectors' room.
    pub(super) fn emptied(mut self) -> LeafBatch {
        self.path_nodes.clear();
        self.path_ends.clear();
        self.positions.clear();
        self.resolved = 0;
        self
    }
}

impl SearchTree {
    pub fn new(config: MctsConfig) -> SearchTree {
        let rng = Rng::new(config.seed);
        let exact = match config.solver_empties {
            Some(0) => None,
            // The hook applies the board's own limit.
            empties => Some((u32::MAX, endgame_solver(empties))),
        };
        SearchTree {
            config,
            nodes: Vec::new(),
            root_pos: None,
            cache: EvaluationCache::default(),
            rng,
            exact,
            root_noised: false,
            root_gumbel: Vec::new(),
            halving: Vec::new(),
            scored: false,
            spare: None,
            prior_source: None,
            prior_buffer: Vec::new(),
            valued_priors: None,
            child_buffer: Vec::new(),
        }
    }

    /// Positions with at most `empties` empty squares get their value from `solver` and
    /// count as proven.
    pub fn set_exact_solver(&mut self, empties: u32, solver: ExactSolver) {
        self.exact = Some((empties, solver));
    }

    /// Evaluations without priors leave their node valued but childless, and `source`
    /// gives its children's priors when a simulation first descends below it
    /// ([`crate::evaluator::Evaluator::split_priors`]): the same search, with priors made
    /// only where it needs them.
    pub fn set_prior_source(&mut self, source: PriorSource) {
        self.prior_source = Some(source);
    }

    /// [`SearchTree::set_prior_source`] with a source that values the children it reads
    /// the priors from ([`crate::evaluator::Evaluator::split_priors_with_values`]): a
    /// simulation that reaches one of them takes that value, with no evaluator call. The
    /// same search, to the bit, in a batch of one (in larger batches such leaves are
    /// backed up as they are collected, as cached ones are).
    pub fn set_valued_priors(&mut self, source: Box<dyn ValuedPriors>) {
        self.valued_priors = Some(source);
    }

    /// Whether evaluations come without priors, which a source gives apart.
    pub(super) fn splits_priors(&self) -> bool {
        self.prior_source.is_some() || self.valued_priors.is_some()
    }

    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    pub fn config_mut(&mut self) -> &mut MctsConfig {
        &mut self.config
    }

    /// Drops the tree (a new game); the evaluation cache stays.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.root_pos = None;
        self.forget_root_plan();
    }

    /// Draws the noise from a stream of the config's seed and `salt` from here on, and
    /// forgets the evaluations cached by earlier searches (an evaluator with a memory of
    /// its own, alpha-beta leaves, would have valued them otherwise from a fresh start).
    pub fn reseed(&mut self, salt: u64) {
        self.rng = Rng::new(crate::rng::splitmix64(self.config.seed ^ salt));
        self.cache.clear();
    }

    fn forget_root_plan(&mut self) {
        self.root_noised = false;
        self.root_gumbel.clear();
        self.halving.clear();
    }

    /// Plans the root's Gumbel sequential halving for a search of `simulations` (`None`: a
    /// budget in time only, which Gumbel cannot plan, so the root runs PUCT). Call it once
    /// the root is expanded.
    pub fn plan_root(&mut self, simulations: Option<u64>) {
        self.halving.clear();
        let (Some(gumbel), Some(simulations)) = (self.config.gumbel, simulations) else {
            return;
        };
        let Some(root) = self.nodes.first() else {
            return;
        };
        let children = root.child_count as usize;
        if children < 2 {
            return;
        }
        // The simulations still to come, beyond what the reused subtree already holds.
        let done: u32 = root.children().map(|c| self.nodes[c].visits).sum();
        let planned = done as u64 + simulations;
        self.halving = super::gumbel::considered_visits(
            gumbel.considered.min(children),
            planned.min(1 << 20) as usize,
        );
    }

    /// The root's position, once one is set.
    pub fn root_position(&self) -> Option<&Position> {
        self.root_pos.as_ref().filter(|_| !self.nodes.is_empty())
    }

    /// The board's squares: the scale of every node's margins and bounds.
    pub(super) fn squares(&self) -> u8 {
        self.root_pos.map_or(0, |pos| pos.size().squares() as u8)
    }

    /// True when the root still needs its first evaluation.
    pub fn root_is_leaf(&self) -> bool {
        self.nodes
            .first()
            .is_none_or(|root| root.expansion == Expansion::Leaf)
    }

    /// True when the root's final margin is known exactly: searching further changes
    /// nothing. (A root known to be won but not by how much is still searched, for the
    /// move that wins by the most.)
    pub fn root_is_proven(&self) -> bool {
        self.nodes
            .first()
            .is_some_and(|root| root.exact().is_some())
    }

    /// Narrows what is known of the final margin after the root move `mv` (for the root's
    /// side to move) to `lower..=upper`, a fact from outside the tree (a proof of that
    /// move), and the root's bounds with it. Does nothing before the root is expanded.
    pub fn bound_root_move(&mut self, mv: Move, lower: i32, upper: i32) {
        let Some(root) = self.nodes.first() else {
            return;
        };
        if root.expansion != Expansion::Expanded {
            return;
        }
        let Some(index) = root.children().find(|&c| self.nodes[c].mv == mv) else {
            return;
        };
        let child = &mut self.nodes[index];
        child.lower = child.lower.max(lower as i8);
        child.upper = child.upper.min(upper as i8);
        self.update_bounds(0);
    }

    /// Makes `pos` the root, keeping the subtree that leads to it when `pos` is the current
    /// root, a child or a grandchild (our move and the opponent's reply).
    pub fn set_root(&mut self, pos: &Position) {
        let (Some(root), Some(root_pos)) = (self.nodes.first(), self.root_pos) else {
            return self.plant_root(pos);
        };
        if root_pos == *pos {
            return;
        }
        let found = root.children().find_map(|c| {
            let child_pos = root_pos.play_unchecked(self.nodes[c].mv);
            if child_pos == *pos {
                return Some(c);
            }
            self.nodes[c]
                .children()
                .find(|&g| child_pos.play_unchecked(self.nodes[g].mv) == *pos)
        });
        match found {
            Some(index) => {
                self.forget_root_plan();
                self.reroot(index);
                self.root_pos = Some(*pos);
                self.unbind_leaf_root();
                // The root's moves are there to choose from, noise and plan from the start.
                if self.nodes[0].expansion == Expansion::Valued {
                    self.grow(0, pos);
                }
            }
            None => self.plant_root(pos),
        }
    }

    /// A tree of one node, `pos`.
    fn plant_root(&mut self, pos: &Position) {
        self.forget_root_plan();
        self.nodes.clear();
        self.nodes
            .push(Node::new(pos.size().squares() as u8, Move::Pass, 1.0));
        self.root_pos = Some(*pos);
        self.unbind_leaf_root();
    }

    fn unbind_leaf_root(&mut self) {
        let squares = self.squares();
        // A leaf the solver proved has no moves to choose from: as the root it must be
        // expanded, and its children will prove it again. A root is evaluated by the
        // evaluator (its value is the search's base), so a reading from its old parent goes.
        if let Some(root) = self.nodes.first_mut() {
            if root.expansion == Expansion::Prevalued {
                root.forget_reading();
            }
            if root.expansion == Expansion::Leaf {
                root.unbound(squares);
            }
        }
    }

    /// Every node's position, in the nodes' order, played down from the root's: for checks.
    #[cfg(test)]
    pub(super) fn node_positions(&self) -> Vec<Position> {
        let mut positions = vec![None; self.nodes.len()];
        if let Some(&root_pos) = self.root_position() {
            positions[0] = Some(root_pos);
            // Children come after their parent, so one pass in order sees every parent first.
            for index in 0..self.nodes.len() {
                let Some(pos) = positions[index] else {
                    continue;
                };
                for c in self.nodes[index].children() {
                    positions[c] = Some(pos.play_unchecked(self.nodes[c].mv));
                }
            }
        }
        positions.into_iter().flatten().collect()
    }

    /// Keeps only the subtree under `index`, copied breadth-first so children stay contiguous.
    fn reroot(&mut self, index: usize) {
        let mut kept = vec![self.nodes[index].clone()];
        let mut i = 0;
        while i < kept.len() {
            let children = kept[i].children();
            if !children.is_empty() {
                kept[i].first_child = kept.len() as u32;
                kept.extend(self.nodes[children].iter().cloned());
            }
            i += 1;
        }
        self.nodes = kept;
    }

    /// Mixes Dirichlet noise into the root's priors, once per root; does nothing when
    /// `dirichlet_alpha` is 0 or the root is not expanded yet.
    pub fn add_root_noise(&mut self) {
        let alpha = self.config.dirichlet_alpha;
        let Some(root) = self.nodes.first() else {
            return;
        };
        let children = root.children();
        if children.len() < 2 || self.root_noised {
            return;
        }
        self.root_noised = true;
        if let Some(gumbel) = self.config.gumbel.filter(|g| g.gumbel_scale > 0.0) {
            self.root_gumbel = children
                .clone()
                .map(|_| gumbel.gumbel_scale * self.rng.gumbel() as f32)
                .collect();
        }
        if alpha <= 0.0 {
            return;
        }
        let noise = self.rng.dirichlet(alpha as f64, children.len());
        let frac = self.config.dirichlet_fraction;
        for (c, eta) in children.zip(noise) {
            let node = &mut self.nodes[c];
            node.prior = (1.0 - frac) * node.prior + frac * eta as f32;
        }
    }

    /// Whether the root runs Gumbel's sequential halving in this search.
    pub(super) fn gumbel_root(&self) -> bool {
        !self.halving.is_empty()
    }

    /// The root's moves as Gumbel's scores see them; `pending` counts in-flight
    /// simulations as visits (during selection).
    pub(super) fn root_moves(&self, pending: bool) -> Vec<RootMove> {
        let Some(root) = self.nodes.first() else {
            return Vec::new();
        };
        root.children()
            .enumerate()
            .map(|(i, c)| {
                let child = &self.nodes[c];
                RootMove {
                    logit: child.prior.max(1e-12).ln(),
                    gumbel: self.root_gumbel.get(i).copied().unwrap_or(0.0),
                    visits: child.visits + if pending { child.in_flight } else { 0 },
                    q: match child.proof() {
                        Some(proof) => Some(proof.value()),
                        None if child.visits > 0 => Some(child.value_mean),
                        None => None,
                    },
                }
            })
            .collect()
    }

    /// Gumbel's sigma(completed q) for the root's moves.
    pub(super) fn root_sigma(&self, moves: &[RootMove]) -> Vec<f32> {
        let (Some(g), Some(root)) = (self.config.gumbel, self.nodes.first()) else {
            return vec![0.0; moves.len()];
        };
        gumbel::sigma_completed_q(moves, root.raw_value, g.c_visit, g.c_scale)
    }

    /// The line the search expects after the root move `mv`: `mv`, then the most visited
    /// reply (a proven win first) at each level; empty when `mv` is not a root move.
    pub fn line_from(&self, mv: Move) -> Vec<Move> {
        let Some(root) = self.nodes.first() else {
            return Vec::new();
        };
        match root.children().find(|&c| self.nodes[c].mv == mv) {
            Some(child) => std::iter::once(mv)
                .chain(self.principal_line(child))
                .collect(),
            None => Vec::new(),
        }
    }

    /// The most visited moves down from node `from` (a proven win first at each level).
    fn principal_line(&self, from: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut current = from;
        while self.nodes[current].child_count > 0 {
            let Some(next) = self.nodes[current].children().max_by_key(|&c| {
                let child = &self.nodes[c];
                (child.proof() == Some(Proof::Win), child.lower, child.visits)
            }) else {
                break;
            };
            if self.nodes[next].visits == 0 {
                break;
            }
            line.push(self.nodes[next].mv);
            current = next;
        }
        line
    }

    /// A snapshot of the root for the caller (the heat map, the move choice).
    pub fn info(&self, simulations: u64, elapsed: Duration) -> SearchInfo {
        let Some(root) = self.nodes.first() else {
            return SearchInfo {
                moves: Vec::new(),
                pv: Vec::new(),
                value: 0.0,
                proof: None,
                score: None,
                solved: None,
                chosen: None,
                book: None,
                simulations,
                root_visits: 0,
                elapsed,
            };
        };
        let squares = self.squares();
        // The policy target: Gumbel's improved policy, or the visit distribution.
        let total_visits: u32 = root.children().map(|c| self.nodes[c].visits).sum();
        let (targets, chosen) = if self.gumbel_root() {
            let root_moves = self.root_moves(false);
            let sigma = self.root_sigma(&root_moves);
            let chosen = gumbel::choose(&root_moves, &sigma)
                .map(|i| self.nodes[root.first_child as usize + i].mv);
            (gumbel::improved_policy(&root_moves, &sigma), chosen)
        } else {
            let share = |c: usize| self.nodes[c].visits as f32 / total_visits.max(1) as f32;
            (root.children().map(share).collect(), None)
        };
        let mut moves: Vec<MoveInfo> = root
            .children()
            .zip(targets)
            .map(|(c, target)| {
                let child = &self.nodes[c];
                MoveInfo {
                    mv: child.mv,
                    visits: child.visits,
                    prior: child.prior,
                    q: if child.visits == 0 && child.proof().is_none() {
                        0.0
                    } else {
                        child.q()
                    },
                    proof: child.proof(),
                    bounds: child.known_bounds(squares),
                    target,
                    score: child.expected_margin(squares),
                }
            })
            .collect();
        moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.prior.total_cmp(&a.prior)));
        // The line starts with the move the search names (`choose_move`'s rule), then goes
        // down the most visited replies: its own tie-break once started a hint's line
        // with b5 beside the framed b4, two moves of equal visits (issue 68).
        let pv = match crate::report::choose_move(&moves, chosen) {
            Some(best) => self.line_from(best),
            None => self.principal_line(0),
        };
        SearchInfo {
            moves,
            pv,
            value: match root.proof() {
                Some(proof) => -proof.value(),
                None if root.visits > 0 => -root.value_mean,
                None => 0.0,
            },
            proof: root.proof().map(Proof::flip),
            score: root.expected_margin(squares).map(|margin| -margin),
            solved: None,
            chosen,
            book: None,
            simulations,
            root_visits: root.visits,
            elapsed,
        }
    }
}

/// A summary: the nodes and the cache are too many to print, the solver hook has no text.
impl std::fmt::Debug for SearchTree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchTree")
            .field("config", &self.config)
            .field("nodes", &self.nodes.len())
            .field("cached", &self.cache.len())
            .field(
                "exact_empties",
                &self.exact.as_ref().map(|(empties, _)| *empties),
            )
            .finish_non_exhaustive()
    }
}
