//! AlphaZero-style Monte Carlo tree search (PUCT) over any [`Evaluator`].
//!
//! Nodes live in one vector and refer to their children by index (KataGo-style node
//! store); the children of a node are contiguous. Leaves are collected in batches with
//! virtual loss so a network evaluates many positions per call, evaluations are cached by
//! position hash, and finished games are scored exactly. Proven results (from finished
//! games, or from an exact solver hooked in through [`MctsConfig::solver_empties`]) propagate
//! up the tree (MCTS-solver), so the search never misplays an ending it has solved.

use crate::evaluator::{EvalError, Evaluation, Evaluator};
use crate::solver::{Solver, WinLossDraw};
use crate::{Budget, Rng};
use othello::{BoardSize, Move, Position};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use web_time::Instant;

#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Exploration constant of the PUCT formula.
    pub c_puct: f32,
    /// First-play urgency: an unvisited move is valued at the parent's value minus this.
    pub fpu_reduction: f32,
    /// Leaves collected per evaluator call.
    pub batch_size: usize,
    /// Dirichlet noise at the root for self-play: concentration (0 turns noise off) and the
    /// share of the prior it replaces.
    pub dirichlet_alpha: f32,
    pub dirichlet_fraction: f32,
    /// Evaluations kept in the cache before it is cleared.
    pub cache_capacity: usize,
    /// Budget when the caller gives none.
    pub default_simulations: u64,
    /// How often the progress callback runs.
    pub progress_interval: Duration,
    /// Positions with at most this many empty squares are solved exactly (win, loss or
    /// draw) and count as proven. `None` takes the board's default
    /// ([`default_solver_empties`]); `Some(0)` turns the solver off. Read when the tree
    /// is made.
    pub solver_empties: Option<u32>,
    pub seed: u64,
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            c_puct: 1.5,
            fpu_reduction: 0.2,
            batch_size: 8,
            dirichlet_alpha: 0.0,
            dirichlet_fraction: 0.25,
            cache_capacity: 1 << 18,
            default_simulations: 800,
            progress_interval: Duration::from_millis(100),
            solver_empties: None,
            seed: 0,
        }
    }
}

/// A proven result from the view of the player who made the move into a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    Win,
    Draw,
    Loss,
}

impl Proof {
    fn value(self) -> f32 {
        match self {
            Proof::Win => 1.0,
            Proof::Draw => 0.0,
            Proof::Loss => -1.0,
        }
    }

    fn flip(self) -> Proof {
        match self {
            Proof::Win => Proof::Loss,
            Proof::Draw => Proof::Draw,
            Proof::Loss => Proof::Win,
        }
    }

    fn from_margin(margin: i32) -> Proof {
        match margin.signum() {
            1 => Proof::Win,
            0 => Proof::Draw,
            _ => Proof::Loss,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expansion {
    Leaf,
    /// Sent to the evaluator in the batch being collected.
    Pending,
    Expanded,
}

#[derive(Clone, Debug)]
struct Node {
    pos: Position,
    /// The move that led here (meaningless at the root).
    mv: Move,
    prior: f32,
    visits: u32,
    /// Simulations passing through that have not been backed up yet (virtual losses).
    in_flight: u32,
    /// Sum of backed-up values, from the view of the player who made `mv`.
    value_sum: f64,
    first_child: u32,
    child_count: u16,
    expansion: Expansion,
    proof: Option<Proof>,
}

impl Node {
    fn new(pos: Position, mv: Move, prior: f32) -> Node {
        Node {
            pos,
            mv,
            prior,
            visits: 0,
            in_flight: 0,
            value_sum: 0.0,
            first_child: 0,
            child_count: 0,
            expansion: Expansion::Leaf,
            proof: None,
        }
    }

    fn children(&self) -> std::ops::Range<usize> {
        let start = self.first_child as usize;
        start..start + self.child_count as usize
    }

    /// Mean value for the player who made `mv`, virtual losses counted as losses.
    fn q(&self) -> f32 {
        if let Some(proof) = self.proof {
            return proof.value();
        }
        let n = self.visits + self.in_flight;
        if n == 0 {
            0.0
        } else {
            ((self.value_sum - self.in_flight as f64) / n as f64) as f32
        }
    }
}

/// What the search knows about one legal move at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    pub mv: Move,
    pub visits: u32,
    pub prior: f32,
    /// Mean value of the move for the side to move, in [-1, 1].
    pub q: f32,
    /// Set when the move's result is known exactly.
    pub proof: Option<Proof>,
}

/// A snapshot of the search: what the page draws as the heat map.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Every legal move, most visited first.
    pub moves: Vec<MoveInfo>,
    /// The principal variation: most visited moves from the root down.
    pub pv: Vec<Move>,
    /// Root value for the side to move, in [-1, 1].
    pub value: f32,
    /// Set when the root's result is known exactly (for the side to move).
    pub proof: Option<Proof>,
    /// Simulations run by this search (the tree may hold more from earlier ones).
    pub simulations: u64,
    pub root_visits: u32,
    pub elapsed: Duration,
}

impl SearchInfo {
    /// Chance of winning for the side to move, from the root value.
    pub fn win_probability(&self) -> f32 {
        (self.value + 1.0) / 2.0
    }

    pub fn simulations_per_second(&self) -> f64 {
        self.simulations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The move to play: a proven win if there is one, else the most visited move.
    pub fn best_move(&self) -> Option<Move> {
        self.moves
            .iter()
            .find(|m| m.proof == Some(Proof::Win))
            .or_else(|| {
                self.moves
                    .iter()
                    .filter(|m| m.proof != Some(Proof::Loss))
                    .max_by(|a, b| a.visits.cmp(&b.visits).then(a.q.total_cmp(&b.q)))
            })
            .or(self.moves.first())
            .map(|m| m.mv)
    }

    /// A move drawn with probability proportional to visits^(1/temperature); the best
    /// move when `temperature` is 0.
    pub fn sample_move(&self, temperature: f32, rng: &mut Rng) -> Option<Move> {
        if temperature <= 0.0 || self.proof.is_some() {
            return self.best_move();
        }
        let weights: Vec<f64> = self
            .moves
            .iter()
            .map(|m| (m.visits as f64).powf(1.0 / temperature as f64))
            .collect();
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return self.best_move();
        }
        let mut target = rng.unit() * total;
        for (m, w) in self.moves.iter().zip(&weights) {
            if target < *w {
                return Some(m.mv);
            }
            target -= w;
        }
        self.best_move()
    }
}

/// How many empties the exact solver takes on by default: where a win/loss/draw solve
/// costs about as much as a few network evaluations (milliseconds), so the agent never
/// misplays a solved ending and pays little for it.
pub fn default_solver_empties(size: BoardSize) -> u32 {
    match size {
        BoardSize::Four => 16,
        BoardSize::Six => 14,
        BoardSize::Eight => 12,
    }
}

/// The exact endgame solver as an [`ExactSolver`] hook: the win/loss/draw result (as a
/// margin of -1, 0 or 1) of positions with at most `empties` empty squares (`None`: the
/// board's default). The solver's table is made on first use, so a search that never
/// reaches the endgame pays nothing for it.
pub fn endgame_solver(empties: Option<u32>) -> ExactSolver {
    let mut solver: Option<Solver> = None;
    Box::new(move |pos: &Position| {
        let limit = empties.unwrap_or_else(|| default_solver_empties(pos.size()));
        if pos.empty_count() > limit {
            return None;
        }
        // 2^16 entries (1.5 MiB) is plenty for win/loss/draw solves of this size.
        let solver = solver.get_or_insert_with(|| Solver::with_table_bits(16));
        Some(match solver.win_loss_draw(pos).0 {
            WinLossDraw::Win => 1,
            WinLossDraw::Draw => 0,
            WinLossDraw::Loss => -1,
        })
    })
}

/// A hook for exact values near the end of the game: the final margin for the side to
/// move, or `None` to let the search evaluate the position as usual.
pub type ExactSolver = Box<dyn FnMut(&Position) -> Option<i32> + Send>;

/// The tree and everything the search keeps between evaluator calls, with no evaluator
/// of its own: [`Mcts`] pairs it with one, and self-play drives many trees with one
/// shared evaluator, batching leaves across games.
pub struct SearchTree {
    config: MctsConfig,
    nodes: Vec<Node>,
    cache: HashMap<u64, Evaluation>,
    rng: Rng,
    exact: Option<(u32, ExactSolver)>,
}

/// Leaves selected for one evaluator call. Hand it back to [`SearchTree::complete`]
/// with their evaluations.
pub struct LeafBatch {
    paths: Vec<Vec<usize>>,
    /// The positions to evaluate, in order.
    pub positions: Vec<Position>,
    /// Simulations already finished while collecting (finished games, proofs, cache hits).
    resolved: u64,
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
            cache: HashMap::new(),
            rng,
            exact,
        }
    }

    /// Positions with at most `empties` empty squares get their value from `solver` and
    /// count as proven.
    pub fn set_exact_solver(&mut self, empties: u32, solver: ExactSolver) {
        self.exact = Some((empties, solver));
    }

    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    pub fn config_mut(&mut self) -> &mut MctsConfig {
        &mut self.config
    }

    /// Nodes in the tree (for tests and memory reports).
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Drops the tree (a new game); the evaluation cache stays.
    pub fn clear(&mut self) {
        self.nodes.clear();
    }

    /// The root's position, once one is set.
    pub fn root_position(&self) -> Option<&Position> {
        self.nodes.first().map(|root| &root.pos)
    }

    /// True when the root still needs its first evaluation.
    pub fn root_is_leaf(&self) -> bool {
        self.nodes
            .first()
            .is_none_or(|root| root.expansion == Expansion::Leaf)
    }

    /// True when the root's result is known exactly: searching further changes nothing.
    pub fn root_is_proven(&self) -> bool {
        self.nodes.first().is_some_and(|root| root.proof.is_some())
    }

    /// Makes `pos` the root, keeping the subtree that leads to it when `pos` is the current
    /// root, a child or a grandchild (our move and the opponent's reply).
    pub fn set_root(&mut self, pos: &Position) {
        if self.nodes.first().is_some_and(|root| root.pos == *pos) {
            return;
        }
        let found = self.nodes.first().and_then(|root| {
            root.children().find_map(|c| {
                if self.nodes[c].pos == *pos {
                    return Some(c);
                }
                self.nodes[c]
                    .children()
                    .find(|&g| self.nodes[g].pos == *pos)
            })
        });
        match found {
            Some(index) => self.reroot(index),
            None => {
                self.nodes.clear();
                self.nodes.push(Node::new(*pos, Move::Pass, 1.0));
            }
        }
        // A leaf the solver proved has no moves to choose from: as the root it must be
        // expanded, and its children will prove it again.
        if let Some(root) = self.nodes.first_mut() {
            if root.expansion == Expansion::Leaf {
                root.proof = None;
            }
        }
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

    /// Mixes Dirichlet noise into the root's priors (self-play exploration); does nothing
    /// when `dirichlet_alpha` is 0 or the root is not expanded yet.
    pub fn add_root_noise(&mut self) {
        let alpha = self.config.dirichlet_alpha;
        let Some(root) = self.nodes.first() else {
            return;
        };
        let children = root.children();
        if alpha <= 0.0 || children.len() < 2 {
            return;
        }
        let noise = self.rng.dirichlet(alpha as f64, children.len());
        let frac = self.config.dirichlet_fraction;
        for (c, eta) in children.zip(noise) {
            let node = &mut self.nodes[c];
            node.prior = (1.0 - frac) * node.prior + frac * eta as f32;
        }
    }

    /// Selects up to `want` leaves. Those that need no evaluator are finished at once;
    /// the rest wait in the batch for [`SearchTree::complete`].
    pub fn collect(&mut self, want: usize) -> LeafBatch {
        let mut batch = LeafBatch {
            paths: Vec::new(),
            positions: Vec::new(),
            resolved: 0,
        };
        if self.nodes.is_empty() {
            return batch;
        }
        for _ in 0..want {
            let path = self.select();
            let leaf = *path.last().unwrap_or(&0);
            if let Some(value) = self.resolve_without_evaluator(leaf) {
                self.backup(&path, value);
                batch.resolved += 1;
            } else if self.nodes[leaf].expansion == Expansion::Leaf {
                self.nodes[leaf].expansion = Expansion::Pending;
                batch.positions.push(self.nodes[leaf].pos);
                batch.paths.push(path);
            } else {
                // Another simulation of this batch already waits on this leaf: stop
                // collecting rather than pile more virtual loss on one line.
                self.undo_virtual_loss(&path);
                break;
            }
        }
        batch
    }

    /// Backs up the evaluations of a collected batch; on an evaluator error the batch is
    /// undone and the tree is as it was. Returns the simulations completed.
    pub fn complete(
        &mut self,
        batch: LeafBatch,
        evaluations: Result<Vec<Evaluation>, EvalError>,
    ) -> Result<u64, EvalError> {
        let evaluations = match evaluations {
            Ok(evals) if evals.len() == batch.paths.len() => evals,
            Ok(evals) => {
                self.abandon(&batch.paths);
                return Err(EvalError::Failed(format!(
                    "asked for {} evaluations, got {}",
                    batch.paths.len(),
                    evals.len()
                )));
            }
            Err(e) => {
                self.abandon(&batch.paths);
                return Err(e);
            }
        };
        let done = batch.resolved + batch.paths.len() as u64;
        for (path, eval) in batch.paths.iter().zip(evaluations) {
            let leaf = *path.last().unwrap_or(&0);
            self.remember(self.nodes[leaf].pos.hash(), &eval);
            self.expand(leaf, &eval);
            self.backup(path, eval.value);
        }
        Ok(done)
    }

    /// Undoes the selections of a batch whose evaluation failed, leaving the tree as it was.
    fn abandon(&mut self, pending: &[Vec<usize>]) {
        for path in pending {
            if let Some(&leaf) = path.last() {
                self.nodes[leaf].expansion = Expansion::Leaf;
            }
            self.undo_virtual_loss(path);
        }
    }

    fn remember(&mut self, hash: u64, eval: &Evaluation) {
        if self.cache.len() >= self.config.cache_capacity {
            self.cache.clear();
        }
        self.cache.insert(hash, eval.clone());
    }

    /// The value of a leaf for its side to move when no evaluator call is needed: finished
    /// games, proven nodes, exact-solver territory, cached evaluations.
    fn resolve_without_evaluator(&mut self, leaf: usize) -> Option<f32> {
        let node = &self.nodes[leaf];
        if let Some(proof) = node.proof {
            return Some(-proof.value());
        }
        if node.expansion != Expansion::Leaf {
            return None;
        }
        let pos = node.pos;
        if let Some(outcome) = pos.outcome() {
            let margin = outcome.margin_for(pos.side_to_move());
            self.nodes[leaf].proof = Some(Proof::from_margin(margin).flip());
            return Some(margin.signum() as f32);
        }
        // The root is always expanded, so that a solved root still has moves to choose from.
        if let Some((empties, solver)) = self.exact.as_mut().filter(|_| leaf != 0) {
            if pos.empty_count() <= *empties {
                if let Some(margin) = solver(&pos) {
                    self.nodes[leaf].proof = Some(Proof::from_margin(margin).flip());
                    return Some(margin.signum() as f32);
                }
            }
        }
        let eval = self.cache.get(&pos.hash())?.clone();
        self.expand(leaf, &eval);
        Some(eval.value)
    }

    fn expand(&mut self, leaf: usize, eval: &Evaluation) {
        let pos = self.nodes[leaf].pos;
        let moves = pos.legal_move_list();
        let first = self.nodes.len();
        for (i, mv) in moves.iter().enumerate() {
            let prior = eval.priors.get(i).copied().unwrap_or(0.0);
            self.nodes
                .push(Node::new(pos.play_unchecked(*mv), *mv, prior));
        }
        let node = &mut self.nodes[leaf];
        node.first_child = first as u32;
        node.child_count = moves.len() as u16;
        node.expansion = Expansion::Expanded;
    }

    /// Walks from the root to a leaf by PUCT, adding a virtual loss on the way.
    fn select(&mut self) -> Vec<usize> {
        let mut path = vec![0];
        let mut current = 0;
        self.nodes[0].in_flight += 1;
        while self.nodes[current].expansion == Expansion::Expanded
            && self.nodes[current].proof.is_none()
            && self.nodes[current].child_count > 0
        {
            current = self.best_child(current);
            self.nodes[current].in_flight += 1;
            path.push(current);
        }
        path
    }

    fn best_child(&self, parent: usize) -> usize {
        let node = &self.nodes[parent];
        let parent_n = (node.visits + node.in_flight) as f32;
        // The parent's value from its side to move's view, the base of first-play urgency.
        let parent_q = -node.q();
        let fpu = parent_q - self.config.fpu_reduction;
        let explore = self.config.c_puct * parent_n.max(1.0).sqrt();
        let mut best = node.first_child as usize;
        let mut best_score = f32::NEG_INFINITY;
        for c in node.children() {
            let child = &self.nodes[c];
            let n = child.visits + child.in_flight;
            let score = match child.proof {
                Some(Proof::Win) => f32::INFINITY,
                // A proven loss is only chosen when nothing else is left.
                Some(Proof::Loss) => -1e9 + child.prior,
                _ => {
                    let q = if n == 0 { fpu } else { child.q() };
                    q + explore * child.prior / (1.0 + n as f32)
                }
            };
            if score > best_score {
                best_score = score;
                best = c;
            }
        }
        best
    }

    /// Adds `value` (for the leaf's side to move) along the path, alternating sides, takes
    /// the virtual losses back, and updates proofs from the leaf up.
    fn backup(&mut self, path: &[usize], value: f32) {
        let mut v = -value as f64; // the leaf's mover sees the opposite
        for &index in path.iter().rev() {
            let node = &mut self.nodes[index];
            node.visits += 1;
            node.in_flight = node.in_flight.saturating_sub(1);
            node.value_sum += v;
            v = -v;
        }
        for &index in path.iter().rev() {
            if !self.update_proof(index) {
                break;
            }
        }
    }

    /// Sets the node's proof when its children settle it; true when the node is proven.
    fn update_proof(&mut self, index: usize) -> bool {
        let node = &self.nodes[index];
        if node.proof.is_some() {
            return true;
        }
        if node.expansion != Expansion::Expanded || node.child_count == 0 {
            return false;
        }
        // Children's proofs are from the view of this node's side to move.
        let mut best: Option<Proof> = Some(Proof::Loss);
        for c in node.children() {
            match self.nodes[c].proof {
                Some(Proof::Win) => {
                    best = Some(Proof::Win);
                    break;
                }
                Some(Proof::Draw) => {
                    if best == Some(Proof::Loss) {
                        best = Some(Proof::Draw);
                    }
                }
                Some(Proof::Loss) => {}
                None => {
                    if best != Some(Proof::Win) {
                        best = None;
                    }
                }
            }
        }
        match best {
            Some(proof) => {
                self.nodes[index].proof = Some(proof.flip());
                true
            }
            None => false,
        }
    }

    fn undo_virtual_loss(&mut self, path: &[usize]) {
        for &index in path {
            let node = &mut self.nodes[index];
            node.in_flight = node.in_flight.saturating_sub(1);
        }
    }

    /// A snapshot of the root for the caller (the heat map, the move choice).
    pub fn info(&self, simulations: u64, elapsed: Duration) -> SearchInfo {
        let root = &self.nodes[0];
        let mut moves: Vec<MoveInfo> = root
            .children()
            .map(|c| {
                let child = &self.nodes[c];
                MoveInfo {
                    mv: child.mv,
                    visits: child.visits,
                    prior: child.prior,
                    q: if child.visits == 0 && child.proof.is_none() {
                        0.0
                    } else {
                        child.q()
                    },
                    proof: child.proof,
                }
            })
            .collect();
        moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.prior.total_cmp(&a.prior)));
        let mut pv = Vec::new();
        let mut current = 0;
        while self.nodes[current].child_count > 0 {
            let Some(next) = self.nodes[current].children().max_by_key(|&c| {
                (
                    self.nodes[c].proof == Some(Proof::Win),
                    self.nodes[c].visits,
                )
            }) else {
                break;
            };
            if self.nodes[next].visits == 0 {
                break;
            }
            pv.push(self.nodes[next].mv);
            current = next;
        }
        SearchInfo {
            moves,
            pv,
            value: match root.proof {
                Some(proof) => -proof.value(),
                None if root.visits > 0 => -(root.value_sum / root.visits as f64) as f32,
                None => 0.0,
            },
            proof: root.proof.map(Proof::flip),
            simulations,
            root_visits: root.visits,
            elapsed,
        }
    }
}

pub struct Mcts<E: Evaluator> {
    tree: SearchTree,
    evaluator: E,
    stop: Arc<AtomicBool>,
}

impl<E: Evaluator> Mcts<E> {
    pub fn new(evaluator: E, config: MctsConfig) -> Mcts<E> {
        Mcts {
            tree: SearchTree::new(config),
            evaluator,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Positions with at most `empties` empty squares get their value from `solver` and
    /// count as proven.
    pub fn with_exact_solver(mut self, empties: u32, solver: ExactSolver) -> Mcts<E> {
        self.tree.set_exact_solver(empties, solver);
        self
    }

    pub fn config(&self) -> &MctsConfig {
        self.tree.config()
    }

    pub fn config_mut(&mut self) -> &mut MctsConfig {
        self.tree.config_mut()
    }

    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    pub fn tree(&self) -> &SearchTree {
        &self.tree
    }

    /// Set it from anywhere (another thread, a message handler) to end the running search
    /// after its current batch.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    pub fn tree_size(&self) -> usize {
        self.tree.tree_size()
    }

    /// Drops the tree (a new game).
    pub fn clear(&mut self) {
        self.tree.clear();
    }

    pub fn set_root(&mut self, pos: &Position) {
        self.tree.set_root(pos);
    }

    /// Searches `pos` within `budget` and returns what it found. `progress` is called every
    /// `progress_interval` with a snapshot, and may return `false` to stop early.
    pub fn search(
        &mut self,
        pos: &Position,
        budget: &Budget,
        progress: &mut dyn FnMut(&SearchInfo) -> bool,
    ) -> Result<SearchInfo, EvalError> {
        let clock = Instant::now();
        self.stop.store(false, Ordering::Relaxed);
        self.tree.set_root(pos);
        let max_sims = match (budget.simulations, budget.time) {
            (Some(sims), _) => sims,
            (None, Some(_)) => u64::MAX,
            (None, None) => self.tree.config.default_simulations,
        };
        let mut sims = 0u64;
        if self.tree.root_is_leaf() && !pos.is_game_over() {
            sims += self.run_batch(1)?;
        }
        self.tree.add_root_noise();
        let interval = self.tree.config.progress_interval;
        let batch_size = self.tree.config.batch_size as u64;
        let mut last_report = clock.elapsed();
        while sims < max_sims
            && !self.tree.root_is_proven()
            && !self.stop.load(Ordering::Relaxed)
            && budget.time.is_none_or(|t| clock.elapsed() < t)
        {
            let want = (max_sims - sims).min(batch_size) as usize;
            sims += self.run_batch(want)?;
            if clock.elapsed() - last_report >= interval {
                last_report = clock.elapsed();
                if !progress(&self.tree.info(sims, last_report)) {
                    break;
                }
            }
        }
        let info = self.tree.info(sims, clock.elapsed());
        progress(&info);
        Ok(info)
    }

    /// One round: collects up to `want` leaves, evaluates those that need the evaluator in
    /// one call, and backs every result up. Returns the simulations completed.
    fn run_batch(&mut self, want: usize) -> Result<u64, EvalError> {
        let batch = self.tree.collect(want);
        let evaluations = if batch.positions.is_empty() {
            Ok(Vec::new())
        } else {
            self.evaluator.evaluate(&batch.positions)
        };
        self.tree.complete(batch, evaluations)
    }
}

/// Empties at which the agent stops searching and plays the exact solver's best move (the
/// largest final margin, not just a win): where that solve takes about a tenth of a second
/// natively, as strong Othello engines hand their endgames to a solver.
pub fn default_exact_root_empties(size: BoardSize) -> u32 {
    match size {
        BoardSize::Four => 16,
        BoardSize::Six => 18,
        BoardSize::Eight => 16,
    }
}

/// Beyond the always-solved endgame, root positions up to this many more empties get a
/// solve with a node budget first: most of them finish in a fraction of a second, and
/// only the solver knows the largest margin (the network judges wins, not margins).
pub fn default_budgeted_exact_extra_empties(size: BoardSize) -> u32 {
    match size {
        BoardSize::Four => 0,
        BoardSize::Six => 6,
        BoardSize::Eight => 4,
    }
}

/// Solver nodes a budgeted root solve may visit per simulation of the search budget: at
/// 15-20 M nodes/s natively, 800 simulations allow about a second, many times what the
/// search itself would take, spent only on the few moves a solve can settle. On 6x6 that
/// settles most positions with 20-23 empties (measured: 10-15 M nodes at 22 empties).
const EXACT_NODES_PER_SIMULATION: u64 = 25_000;

/// Solver nodes per millisecond of a time budget: about half the time at native speed.
/// What a solve that runs out uses is taken from the search's time.
const EXACT_NODES_PER_MS: u64 = 8_000;

/// The MCTS agent: searches each position within the budget and plays the best move;
/// near the end it plays the exact solver's move instead.
pub struct MctsPlayer<E: Evaluator> {
    mcts: Mcts<E>,
    /// Root positions with at most this many empties are solved exactly (`None`: the
    /// board's default; `Some(0)`: never, not even within a node budget).
    exact_root_empties: Option<u32>,
    /// Made on the first solve, so games that never get there pay nothing for its table.
    solver: Option<Solver>,
    /// The last evaluator failure, if the agent had to fall back to a plain move.
    pub last_error: Option<String>,
}

impl<E: Evaluator> MctsPlayer<E> {
    pub fn new(mcts: Mcts<E>) -> MctsPlayer<E> {
        MctsPlayer {
            mcts,
            exact_root_empties: None,
            solver: None,
            last_error: None,
        }
    }

    /// Solve root positions with at most `empties` empty squares exactly (0: never), and
    /// try a budgeted solve a few empties beyond.
    pub fn with_exact_root(mut self, empties: u32) -> MctsPlayer<E> {
        self.exact_root_empties = Some(empties);
        self
    }

    /// The exact solver's move when the position is within reach: always at the exact
    /// depth, and a few empties beyond when a solve fits in the budget's share of nodes.
    fn exact_move(&mut self, pos: &Position, budget: &Budget) -> Option<Move> {
        let limit = self
            .exact_root_empties
            .unwrap_or_else(|| default_exact_root_empties(pos.size()));
        let empties = pos.empty_count();
        if limit == 0 || empties > limit + default_budgeted_exact_extra_empties(pos.size()) {
            return None;
        }
        // 2^18 entries (6 MiB): root solves of this size revisit far fewer positions.
        let solver = self
            .solver
            .get_or_insert_with(|| Solver::with_table_bits(18));
        if empties <= limit {
            return solver.solve(pos).best;
        }
        // The tighter of the two shares when the budget has both; none without either.
        let by_sims = budget
            .simulations
            .map(|s| s.saturating_mul(EXACT_NODES_PER_SIMULATION));
        let by_time = budget
            .time
            .map(|t| (t.as_millis() as u64).saturating_mul(EXACT_NODES_PER_MS));
        let nodes = by_sims.into_iter().chain(by_time).min()?;
        solver.solve_within(pos, nodes)?.best
    }

    pub fn mcts(&mut self) -> &mut Mcts<E> {
        &mut self.mcts
    }
}

impl<E: Evaluator + Send> crate::Agent for MctsPlayer<E> {
    fn name(&self) -> String {
        format!("mcts ({})", self.mcts.evaluator().describe())
    }

    fn select_move(&mut self, pos: &Position, budget: &Budget) -> Move {
        let clock = Instant::now();
        if let Some(mv) = self.exact_move(pos, budget) {
            return mv;
        }
        // A budgeted solve that ran out spent part of a time budget: the search gets the rest.
        let budget = Budget {
            time: budget.time.map(|t| t.saturating_sub(clock.elapsed())),
            ..*budget
        };
        let fallback = pos.legal_move_list().first().copied().unwrap_or(Move::Pass);
        match self.mcts.search(pos, &budget, &mut |_| true) {
            Ok(info) => info.best_move().unwrap_or(fallback),
            Err(e) => {
                // A broken evaluator must not stop the game: play a legal move and say why.
                self.last_error = Some(e.to_string());
                fallback
            }
        }
    }

    fn new_game(&mut self) {
        self.mcts.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Agent, HeuristicEvaluator};
    use othello::{BoardSize, Game, Variant};
    use proptest::prelude::{any, prop, prop_assert, prop_assume, proptest, ProptestConfig};

    fn mcts(seed: u64) -> Mcts<HeuristicEvaluator> {
        Mcts::new(
            HeuristicEvaluator::new(seed, 2),
            MctsConfig {
                seed,
                ..MctsConfig::default()
            },
        )
    }

    fn quiet() -> impl FnMut(&SearchInfo) -> bool {
        |_| true
    }

    /// Counts calls and batch sizes, evaluating every position as even with uniform priors.
    struct CountingEvaluator {
        calls: usize,
        positions: usize,
        largest_batch: usize,
    }

    impl Evaluator for CountingEvaluator {
        fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
            self.calls += 1;
            self.positions += positions.len();
            self.largest_batch = self.largest_batch.max(positions.len());
            Ok(positions
                .iter()
                .map(|p| {
                    let n = p.legal_move_list().len();
                    Evaluation {
                        priors: vec![1.0 / n as f32; n],
                        value: 0.0,
                    }
                })
                .collect())
        }

        fn describe(&self) -> String {
            "counting".into()
        }
    }

    struct FailingEvaluator;

    impl Evaluator for FailingEvaluator {
        fn evaluate(&mut self, _: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
            Err(EvalError::Failed("no network".into()))
        }

        fn describe(&self) -> String {
            "failing".into()
        }
    }

    /// Exact margin for the side to move by plain minimax (small boards only).
    fn minimax(pos: &Position) -> i32 {
        match pos.outcome() {
            Some(outcome) => outcome.margin_for(pos.side_to_move()),
            None => pos
                .legal_move_list()
                .into_iter()
                .map(|mv| -minimax(&pos.play_unchecked(mv)))
                .max()
                .unwrap_or(0),
        }
    }

    fn counting() -> CountingEvaluator {
        CountingEvaluator {
            calls: 0,
            positions: 0,
            largest_batch: 0,
        }
    }

    fn start8() -> Position {
        Position::start(BoardSize::Eight, Variant::Standard)
    }

    #[test]
    fn a_simulation_budget_is_spent_exactly() {
        for sims in [1, 7, 100, 333] {
            let info = mcts(1)
                .search(&start8(), &Budget::simulations(sims), &mut quiet())
                .expect("search");
            assert_eq!(info.simulations, sims);
            assert_eq!(
                info.moves.iter().map(|m| m.visits as u64).sum::<u64>(),
                sims - 1
            );
        }
    }

    #[test]
    fn a_time_budget_ends_the_search_soon_after_it_runs_out() {
        let budget = Budget::time(Duration::from_millis(150));
        let info = mcts(2)
            .search(&start8(), &budget, &mut quiet())
            .expect("search");
        assert!(
            info.elapsed >= Duration::from_millis(150),
            "{:?}",
            info.elapsed
        );
        // One batch past the deadline at most; generous for a loaded machine.
        assert!(info.elapsed < Duration::from_secs(3), "{:?}", info.elapsed);
        assert!(info.simulations > 10);
    }

    #[test]
    fn leaves_reach_the_evaluator_in_batches_no_larger_than_configured() {
        let mut search = Mcts::new(
            counting(),
            MctsConfig {
                batch_size: 16,
                ..MctsConfig::default()
            },
        );
        search
            .search(&start8(), &Budget::simulations(400), &mut quiet())
            .expect("search");
        let eval = search.evaluator();
        assert_eq!(eval.largest_batch, 16);
        assert!(eval.calls < 100, "{} calls", eval.calls);
    }

    #[test]
    fn cached_evaluations_are_not_asked_for_again() {
        let mut search = Mcts::new(counting(), MctsConfig::default());
        search
            .search(&start8(), &Budget::simulations(200), &mut quiet())
            .expect("search");
        let first = search.evaluator().positions;
        search.clear();
        search
            .search(&start8(), &Budget::simulations(200), &mut quiet())
            .expect("search");
        // The same tree again: everything is in the cache.
        assert_eq!(search.evaluator().positions, first);
    }

    #[test]
    fn the_subtree_of_the_moves_played_is_kept() {
        let mut search = mcts(3);
        let info = search
            .search(&start8(), &Budget::simulations(500), &mut quiet())
            .expect("search");
        let ours = info.best_move().expect("a move");
        let after_ours = start8().play(ours).expect("legal");
        let reply = after_ours.legal_move_list()[0];
        let after_reply = after_ours.play(reply).expect("legal");
        // The reply's visits within the old tree survive as the new root's visits.
        search.set_root(&after_ours);
        let child_visits = search.tree.nodes[0]
            .children()
            .find(|&c| search.tree.nodes[c].mv == reply)
            .map(|c| search.tree.nodes[c].visits)
            .expect("reply expanded");
        search.set_root(&after_reply);
        assert_eq!(search.tree.nodes[0].visits, child_visits);
        assert!(child_visits > 0);
        let info = search
            .search(&after_reply, &Budget::simulations(10), &mut quiet())
            .expect("search");
        assert_eq!(info.root_visits, child_visits + 10);
    }

    #[test]
    fn a_pass_is_played_when_it_is_the_only_move() {
        let pos = Position::from_board_text(&format!("XO{} O", "-".repeat(62)), Variant::Standard)
            .expect("valid");
        let mut player = MctsPlayer::new(mcts(4));
        assert_eq!(
            player.select_move(&pos, &Budget::simulations(50)),
            Move::Pass
        );
    }

    #[test]
    fn an_immediate_win_is_proven_and_played() {
        // Random 4x4 games often reach positions where one move ends the game with a win.
        // The solver is off: it would prove slower wins too, and this is about finished games.
        let mut checked = 0;
        for seed in 0..300 {
            let mut rng = Rng::new(seed);
            let mut pos = Position::start(BoardSize::Four, Variant::Standard);
            while !pos.is_game_over() {
                let wins = |mv: Move| crate::players::wins_at_once(&pos, mv);
                let moves = pos.legal_move_list();
                if moves.iter().any(|m| wins(*m)) && moves.len() > 1 {
                    let config = MctsConfig {
                        seed,
                        solver_empties: Some(0),
                        ..MctsConfig::default()
                    };
                    let info = Mcts::new(HeuristicEvaluator::new(seed, 2), config)
                        .search(&pos, &Budget::simulations(200), &mut quiet())
                        .expect("search");
                    let best = info.best_move().expect("a move");
                    assert!(wins(best), "missed a win in {}", pos.to_board_text());
                    assert_eq!(info.proof, Some(Proof::Win));
                    checked += 1;
                }
                let mv = *rng.choose(&moves).expect("a move");
                pos = pos.play(mv).expect("legal");
            }
        }
        assert!(checked >= 20, "only {checked} positions");
    }

    #[test]
    fn with_an_exact_solver_the_search_proves_4x4_positions_and_plays_perfectly() {
        let mut rng = Rng::new(9);
        for _ in 0..30 {
            let mut pos = Position::start(BoardSize::Four, Variant::Standard);
            for _ in 0..rng.below(6) {
                let moves = pos.legal_move_list();
                if let Some(mv) = rng.choose(&moves) {
                    pos = pos.play(*mv).expect("legal");
                }
            }
            if pos.is_game_over() {
                continue;
            }
            let exact = minimax(&pos);
            let mut search = Mcts::new(counting(), MctsConfig::default())
                .with_exact_solver(6, Box::new(|p: &Position| Some(minimax(p))));
            let info = search
                .search(&pos, &Budget::simulations(5000), &mut quiet())
                .expect("search");
            assert_eq!(
                info.proof,
                Some(Proof::from_margin(exact)),
                "{}",
                pos.to_board_text()
            );
            let best = info.best_move().expect("a move");
            let after = -minimax(&pos.play(best).expect("legal"));
            assert_eq!(after.signum(), exact.signum(), "{}", pos.to_board_text());
        }
    }

    /// A random 8x8 position with `empties` empty squares that is not over.
    fn random_endgame(rng: &mut Rng, empties: u32) -> Option<Position> {
        let mut pos = start8();
        while pos.empty_count() > empties {
            let moves = pos.legal_move_list();
            pos = pos.play(*rng.choose(&moves)?).expect("legal");
        }
        (!pos.is_game_over()).then_some(pos)
    }

    #[test]
    fn by_default_the_search_solves_8x8_endings_and_picks_a_move_that_keeps_the_result() {
        let mut rng = Rng::new(21);
        let mut solver = Solver::new();
        let mut checked = 0;
        while checked < 12 {
            let empties = 10 + rng.below(4) as u32;
            let Some(pos) = random_endgame(&mut rng, empties) else {
                continue;
            };
            checked += 1;
            // Uniform priors and a value of 0: only the solver can tell the moves apart.
            let mut search = Mcts::new(counting(), MctsConfig::default());
            let info = search
                .search(&pos, &Budget::simulations(400), &mut quiet())
                .expect("search");
            let scores = solver.score_moves(&pos);
            let exact = scores[0].1;
            assert_eq!(
                info.proof,
                Some(Proof::from_margin(exact)),
                "{}",
                pos.to_board_text()
            );
            let best = info.best_move().expect("a move");
            let best_score = scores.iter().find(|(mv, _)| *mv == best).expect("legal").1;
            assert_eq!(
                best_score.signum(),
                exact.signum(),
                "{}",
                pos.to_board_text()
            );
        }
    }

    #[test]
    fn a_reused_tree_whose_new_root_was_proven_as_a_leaf_still_offers_moves() {
        let mut rng = Rng::new(8);
        for _ in 0..6 {
            let Some(mut pos) = random_endgame(&mut rng, 16) else {
                continue;
            };
            // One search for both sides, so each root comes from the tree of the last one.
            let mut search = Mcts::new(counting(), MctsConfig::default());
            while !pos.is_game_over() {
                let info = search
                    .search(&pos, &Budget::simulations(60), &mut quiet())
                    .expect("search");
                let best = info.best_move().expect("every searched root offers a move");
                pos = pos.play(best).expect("legal");
            }
        }
    }

    #[test]
    fn with_the_solver_off_an_ending_is_searched_not_proven() {
        let mut rng = Rng::new(5);
        let pos = loop {
            if let Some(pos) = random_endgame(&mut rng, 11) {
                if pos.legal_move_list().len() > 1 {
                    break pos;
                }
            }
        };
        let config = MctsConfig {
            solver_empties: Some(0),
            ..MctsConfig::default()
        };
        let info = Mcts::new(counting(), config)
            .search(&pos, &Budget::simulations(20), &mut quiet())
            .expect("search");
        assert_eq!(info.proof, None);
        assert_eq!(info.simulations, 20);
    }

    #[test]
    fn the_progress_callback_sees_the_search_and_can_stop_it() {
        let mut search = mcts(5);
        search.config_mut().progress_interval = Duration::ZERO;
        let mut reports = 0;
        let info = search
            .search(
                &start8(),
                &Budget::simulations(100_000),
                &mut |info: &SearchInfo| {
                    reports += 1;
                    assert_eq!(info.moves.len(), 4);
                    info.simulations < 64
                },
            )
            .expect("search");
        assert!(info.simulations < 100, "{}", info.simulations);
        assert!(reports >= 2);
    }

    #[test]
    fn the_stop_flag_ends_a_search() {
        let mut search = mcts(6);
        search.stop_flag().store(true, Ordering::Relaxed);
        // The flag is reset when a search starts, so only a flag set during it stops it.
        let info = search
            .search(&start8(), &Budget::simulations(50), &mut quiet())
            .expect("search");
        assert_eq!(info.simulations, 50);
        let flag = search.stop_flag();
        search.config_mut().progress_interval = Duration::ZERO;
        let info = search
            .search(
                &start8(),
                &Budget::simulations(1_000_000),
                &mut |_: &SearchInfo| {
                    flag.store(true, Ordering::Relaxed);
                    true
                },
            )
            .expect("search");
        assert!(info.simulations < 100, "{}", info.simulations);
    }

    #[test]
    fn a_failing_evaluator_is_an_error_for_the_search_and_a_legal_move_for_the_agent() {
        let mut search = Mcts::new(FailingEvaluator, MctsConfig::default());
        assert!(search
            .search(&start8(), &Budget::simulations(10), &mut quiet())
            .is_err());
        let mut player = MctsPlayer::new(Mcts::new(FailingEvaluator, MctsConfig::default()));
        let mv = player.select_move(&start8(), &Budget::simulations(10));
        assert!(start8().is_legal(mv));
        assert!(player.last_error.is_some());
    }

    #[test]
    fn root_noise_changes_priors_but_not_legality() {
        let mut search = mcts(7);
        search.config_mut().dirichlet_alpha = 0.3;
        let info = search
            .search(&start8(), &Budget::simulations(50), &mut quiet())
            .expect("search");
        let priors: Vec<f32> = info.moves.iter().map(|m| m.prior).collect();
        assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert!(priors.iter().any(|p| (p - 0.25).abs() > 1e-3), "{priors:?}");
    }

    #[test]
    fn sampling_with_temperature_follows_visit_counts() {
        let info = mcts(8)
            .search(&start8(), &Budget::simulations(400), &mut quiet())
            .expect("search");
        let mut rng = Rng::new(1);
        let mut counts = HashMap::new();
        for _ in 0..2000 {
            *counts
                .entry(info.sample_move(1.0, &mut rng).expect("move"))
                .or_insert(0u32) += 1;
        }
        for m in &info.moves {
            let expected = 2000.0 * m.visits as f64 / 399.0;
            let got = *counts.get(&m.mv).unwrap_or(&0) as f64;
            assert!(
                (got - expected).abs() < 80.0,
                "{}: {got} vs {expected}",
                m.mv
            );
        }
        assert_eq!(info.sample_move(0.0, &mut rng), info.best_move());
    }

    /// A 6x6 position from random play down to `empties` empty squares, or `None` when the
    /// game ended there or left only one move (nothing to choose).
    fn random_6x6_choice(rng: &mut Rng, empties: u32) -> Option<Position> {
        let mut pos = Position::start(BoardSize::Six, Variant::Standard);
        while pos.empty_count() > empties && !pos.is_game_over() {
            let moves = pos.legal_move_list();
            pos = pos
                .play(*rng.choose(&moves).expect("a move"))
                .expect("legal");
        }
        (!pos.is_game_over() && pos.legal_move_list().len() >= 2).then_some(pos)
    }

    /// The best exact final margin in `pos`, and every move's margin.
    fn exact_margins(pos: &Position) -> (i32, impl Fn(Move) -> i32) {
        let scores = Solver::new().score_moves(pos);
        let best = scores.iter().map(|&(_, m)| m).max().expect("moves");
        let margin_of = move |mv: Move| scores.iter().find(|&&(m, _)| m == mv).expect("scored").1;
        (best, margin_of)
    }

    #[test]
    fn near_the_end_the_agent_plays_the_largest_margin_not_just_a_win() {
        let mut rng = Rng::new(17);
        let (mut checked, mut searched_worse) = (0, 0);
        while checked < 40 {
            let Some(pos) = random_6x6_choice(&mut rng, 12) else {
                continue;
            };
            let (best, margin_of) = exact_margins(&pos);
            let budget = Budget::simulations(50);
            let mv = MctsPlayer::new(mcts(checked)).select_move(&pos, &budget);
            assert_eq!(margin_of(mv), best, "{}", pos.to_board_text());
            // Without the root solve the search only tells wins from losses.
            let searched = MctsPlayer::new(mcts(checked))
                .with_exact_root(0)
                .select_move(&pos, &budget);
            searched_worse += usize::from(margin_of(searched) < best);
            checked += 1;
        }
        assert!(searched_worse > 0, "the positions never tell the two apart");
    }

    #[test]
    fn a_few_empties_beyond_the_exact_depth_the_agent_solves_within_its_budget() {
        let mut rng = Rng::new(29);
        let limit = default_exact_root_empties(BoardSize::Six);
        let sims = 800;
        let (mut solved, mut searched_worse) = (0, 0);
        for game in 0..16 {
            let Some(pos) = random_6x6_choice(&mut rng, limit + 1) else {
                continue;
            };
            // Whether the agent's own solver (same table size) fits in the budget.
            let fits = Solver::with_table_bits(18)
                .solve_within(&pos, sims * EXACT_NODES_PER_SIMULATION)
                .is_some();
            let (best, margin_of) = exact_margins(&pos);
            let mv = MctsPlayer::new(mcts(game)).select_move(&pos, &Budget::simulations(sims));
            if fits {
                assert_eq!(margin_of(mv), best, "{}", pos.to_board_text());
                solved += 1;
            }
            // Two simulations buy too few nodes, so the search decides, and it only tells
            // wins from losses.
            let searched = MctsPlayer::new(mcts(game)).select_move(&pos, &Budget::simulations(2));
            searched_worse += usize::from(margin_of(searched) < best);
        }
        assert!(solved >= 8, "only {solved} positions fit the budget");
        assert!(
            searched_worse > 0,
            "a tiny budget solved every position too"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]

        #[test]
        fn the_agent_never_returns_an_illegal_move(choices in prop::collection::vec(any::<u16>(), 0..60), six in any::<bool>()) {
            let size = if six { BoardSize::Six } else { BoardSize::Eight };
            let mut game = Game::new(Position::start(size, Variant::Standard));
            for c in choices {
                let moves = game.position().legal_move_list();
                if moves.is_empty() { break; }
                game.push(moves[c as usize % moves.len()]).expect("legal");
            }
            let pos = *game.position();
            prop_assume!(!pos.is_game_over());
            let mut player = MctsPlayer::new(mcts(1));
            let mv = player.select_move(&pos, &Budget::simulations(30));
            prop_assert!(pos.is_legal(mv), "{} in {}", mv, pos.to_board_text());
        }
    }
}
