//! One simulation's walk: PUCT selection down the tree under virtual loss, leaves
//! resolved without the evaluator where possible (finished games, solver territory, the
//! cache), expansion with the evaluator's priors, and the backup of values and of bounds on
//! the final margin (score-bounded MCTS, which contains MCTS-Solver's proofs).

use super::gumbel;
use super::tree::{Expansion, LeafBatch, Node, SearchTree};
use crate::evaluator::{EvalError, Evaluation};
use crate::report::Proof;
use othello::{Move, Position};

impl SearchTree {
    /// Selects up to `want` leaves. Those that need no evaluator are finished at once;
    /// the rest wait in the batch for [`SearchTree::complete`].
    pub fn collect(&mut self, want: usize) -> LeafBatch {
        let mut batch = self.spare.take().unwrap_or_default();
        let Some(&root_pos) = self.root_position() else {
            return batch;
        };
        for _ in 0..want {
            let start = batch.path_nodes.len();
            let pos = self.select(root_pos, &mut batch.path_nodes);
            let path = &batch.path_nodes[start..];
            let leaf = path.last().map_or(0, |&n| n as usize);
            if let Some((value, score)) = self.resolve_without_evaluator(leaf, &pos) {
                self.backup(path, value, score);
                batch.path_nodes.truncate(start);
                batch.resolved += 1;
            } else if self.nodes[leaf].expansion == Expansion::Leaf {
                self.nodes[leaf].expansion = Expansion::Pending;
                batch.positions.push(pos);
                batch.path_ends.push(batch.path_nodes.len());
            } else {
                // Another simulation of this batch already waits on this leaf: stop
                // collecting rather than pile more virtual loss on one line.
                self.undo_virtual_loss(path);
                batch.path_nodes.truncate(start);
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
        let pending = batch.path_ends.len();
        let evaluations = match evaluations {
            Ok(evals) if evals.len() == pending => evals,
            Ok(evals) => {
                self.abandon(batch);
                return Err(EvalError::Failed(format!(
                    "asked for {pending} evaluations, got {}",
                    evals.len()
                )));
            }
            Err(e) => {
                self.abandon(batch);
                return Err(e);
            }
        };
        let done = batch.resolved + pending as u64;
        for ((path, pos), eval) in batch.paths().zip(&batch.positions).zip(evaluations) {
            let leaf = path.last().map_or(0, |&n| n as usize);
            self.scored |= eval.score.is_some();
            self.settle(leaf, pos, &eval);
            self.backup(path, eval.value, eval.score);
            self.remember(pos.hash(), eval);
        }
        self.spare = Some(batch.emptied());
        Ok(done)
    }

    /// Undoes the selections of a batch whose evaluation failed, leaving the tree as it was.
    fn abandon(&mut self, batch: LeafBatch) {
        for path in batch.paths() {
            if let Some(&leaf) = path.last() {
                self.nodes[leaf as usize].expansion = Expansion::Leaf;
            }
            self.undo_virtual_loss(path);
        }
        self.spare = Some(batch.emptied());
    }

    fn remember(&mut self, hash: u64, eval: Evaluation) {
        if self.cache.len() >= self.config.cache_capacity {
            self.cache.clear();
        }
        self.cache.insert(hash, eval);
    }

    /// The value (and score, when known) of a leaf for its side to move when no evaluator
    /// call is needed: finished games, nodes whose margin is known, exact-solver territory,
    /// cached evaluations.
    fn resolve_without_evaluator(
        &mut self,
        leaf: usize,
        pos: &Position,
    ) -> Option<(f32, Option<f32>)> {
        // A reading from the parent's priors is taken out first, whatever resolves the
        // leaf: until then the node's fields hold it, not its own statistics.
        let reading = (self.nodes[leaf].expansion == Expansion::Prevalued).then(|| {
            let node = &mut self.nodes[leaf];
            let reading = [node.raw_value, node.score_mean];
            node.forget_reading();
            reading
        });
        let node = &self.nodes[leaf];
        let squares = pos.size().squares() as f32;
        if let Some(margin) = node.exact() {
            // The bounds are the view of the player who moved here; the leaf's side to
            // move sees the opposite.
            return Some((-(margin.signum() as f32), Some(-margin as f32 / squares)));
        }
        if node.expansion != Expansion::Leaf {
            return None;
        }
        if let Some(outcome) = pos.outcome() {
            let margin = outcome.margin_for(pos.side_to_move());
            self.nodes[leaf].set_exact(-margin);
            return Some((margin.signum() as f32, Some(margin as f32 / squares)));
        }
        // The root is always expanded, so that a solved root still has moves to choose from.
        if let Some((empties, solver)) = self.exact.as_mut().filter(|_| leaf != 0) {
            if pos.empty_count() <= *empties {
                if let Some(margin) = solver(pos) {
                    self.nodes[leaf].set_exact(-margin);
                    return Some((margin.signum() as f32, Some(margin as f32 / squares)));
                }
            }
        }
        if let Some((reading, source)) = reading.zip(self.valued_priors.as_ref()) {
            let (value, score) = source.evaluation(reading);
            self.scored = true;
            self.value_leaf(leaf, pos, value);
            return Some((value, Some(score)));
        }
        let eval = self.cache.get(&pos.hash())?;
        let (value, score) = (eval.value, eval.score);
        if eval.priors.is_empty() && self.splits_priors() {
            self.value_leaf(leaf, pos, value);
        } else {
            expand(&mut self.nodes, leaf, pos, &eval.priors, value);
        }
        Some((value, score))
    }

    /// Gives an evaluated leaf its children with the evaluation's priors, or, when the
    /// evaluation has none and a prior source gives them apart, its value only.
    fn settle(&mut self, leaf: usize, pos: &Position, eval: &Evaluation) {
        if eval.priors.is_empty() && self.splits_priors() {
            self.value_leaf(leaf, pos, eval.value);
        } else {
            expand(&mut self.nodes, leaf, pos, &eval.priors, eval.value);
        }
    }

    /// A leaf valued without its priors: childless until a simulation descends below it,
    /// except the root, whose moves the search chooses among from the start.
    fn value_leaf(&mut self, leaf: usize, pos: &Position, value: f32) {
        let node = &mut self.nodes[leaf];
        node.expansion = Expansion::Valued;
        node.raw_value = value;
        if leaf == 0 {
            self.grow(0, pos);
        }
    }

    /// Gives a valued node (at `pos`) its children, with the prior source's priors, and
    /// each child its reading where the source values them.
    pub(super) fn grow(&mut self, index: usize, pos: &Position) {
        let mut priors = std::mem::take(&mut self.prior_buffer);
        let mut readings = std::mem::take(&mut self.child_buffer);
        readings.clear();
        if let Some(source) = self.valued_priors.as_mut() {
            source.read(pos, &mut priors, &mut readings);
        } else if let Some(source) = self.prior_source.as_mut() {
            source(pos, &mut priors);
        }
        let value = self.nodes[index].raw_value;
        expand(&mut self.nodes, index, pos, &priors, value);
        let children = self.nodes[index].children();
        if !readings.is_empty() && readings.len() == children.len() {
            for (child, reading) in self.nodes[children].iter_mut().zip(&readings) {
                child.expansion = Expansion::Prevalued;
                [child.raw_value, child.score_mean] = *reading;
            }
        }
        self.prior_buffer = priors;
        self.child_buffer = readings;
    }

    /// Walks from the root (at `root_pos`) to a leaf by PUCT, adding a virtual loss on the
    /// way; the path goes onto the end of `path`, and the leaf's position is returned.
    fn select(&mut self, root_pos: Position, path: &mut Vec<u32>) -> Position {
        path.push(0);
        let mut pos = root_pos;
        let mut current = 0;
        self.nodes[0].in_flight += 1;
        loop {
            let node = &self.nodes[current];
            if node.expansion == Expansion::Valued && node.exact().is_none() {
                self.grow(current, &pos);
            }
            let node = &self.nodes[current];
            if node.expansion != Expansion::Expanded
                || node.exact().is_some()
                || node.child_count == 0
            {
                break;
            }
            current = match current {
                0 => self.gumbel_child().unwrap_or_else(|| self.best_child(0)),
                _ => self.best_child(current),
            };
            self.nodes[current].in_flight += 1;
            pos = pos.play_unchecked(self.nodes[current].mv);
            path.push(current as u32);
        }
        pos
    }

    /// The root move Gumbel's sequential halving simulates next; `None` when the root
    /// runs PUCT (no plan, or more simulations than planned).
    fn gumbel_child(&self) -> Option<usize> {
        if !self.gumbel_root() {
            return None;
        }
        let root = &self.nodes[0];
        // Once a move is proven to win, the search is about the margin: PUCT with the
        // score bounds looks only at the moves that might still win by more.
        if root
            .children()
            .any(|c| self.nodes[c].proof() == Some(Proof::Win))
        {
            return None;
        }
        let moves = self.root_moves(true);
        let simulation: u32 = moves.iter().map(|m| m.visits).sum();
        let considered = *self.halving.get(simulation as usize)?;
        let sigma = self.root_sigma(&moves);
        gumbel::select(&moves, &sigma, considered).map(|i| root.first_child as usize + i)
    }

    pub(super) fn best_child(&self, parent: usize) -> usize {
        let node = &self.nodes[parent];
        let parent_n = (node.visits + node.in_flight) as f32;
        // The parent's value from its side to move's view, the base of first-play urgency.
        let parent_q = -node.q();
        let fpu = parent_q - self.config.fpu_reduction;
        let explore = self.config.exploration(parent_n);
        let utility = self.score_utility(node);
        // What the side to move is sure of already: a move whose optimistic bound is no
        // better cannot change the result or the margin (score-bounded MCTS's cut).
        // Every move is cut only when the node's margin is settled, and such nodes are not
        // descended, so one move always remains.
        let assured = -node.upper;
        let mut best = node.first_child as usize;
        let mut best_score = f32::NEG_INFINITY;
        for c in node.children() {
            let child = &self.nodes[c];
            if child.upper <= assured {
                continue;
            }
            let n = child.visits + child.in_flight;
            let q = match child.proof() {
                Some(proof) => proof.value() + utility(child),
                None if n == 0 => fpu,
                None => child.q() + utility(child),
            };
            let score = q + explore * child.prior / (1.0 + n as f32);
            if score > best_score {
                best_score = score;
                best = c;
            }
        }
        best
    }

    /// The score utility of the children of `parent` (see [`super::MctsConfig::score_utility`]):
    /// 0 for every child when it is off or the evaluator gives no scores.
    fn score_utility(&self, parent: &Node) -> impl Fn(&Node) -> f32 {
        let weight = if self.scored {
            self.config.score_utility
        } else {
            0.0
        };
        // The parent's margin is from its mover's opponent: the children's mover sees the
        // opposite.
        let squares = self.squares();
        let centre = -parent.expected_margin(squares).unwrap_or(0.0);
        let scale = 0.75 * f32::from(squares).sqrt();
        move |child: &Node| match child.expected_margin(squares) {
            Some(margin) if weight != 0.0 => {
                weight * std::f32::consts::FRAC_2_PI * fast_atan((margin - centre) / scale)
            }
            _ => 0.0,
        }
    }

    /// Adds `value` and `score` (for the leaf's side to move) along the path, alternating
    /// sides, takes the virtual losses back, and updates proofs from the leaf up.
    fn backup(&mut self, path: &[u32], value: f32, score: Option<f32>) {
        let mut v = -value; // the leaf's mover sees the opposite
        let mut s = score.map(|s| -s);
        for &index in path.iter().rev() {
            let node = &mut self.nodes[index as usize];
            node.visits += 1;
            node.in_flight = node.in_flight.saturating_sub(1);
            node.value_mean += (v - node.value_mean) / node.visits as f32;
            v = -v;
            if let Some(score) = s {
                node.score_n += 1;
                node.score_mean += (score - node.score_mean) / node.score_n as f32;
                s = Some(-score);
            }
        }
        // The leaf's own bounds are set where it was resolved; from its parent up, each
        // node's bounds follow from its children's, as far as they change.
        for &index in path.iter().rev().skip(1) {
            if !self.update_bounds(index as usize) {
                break;
            }
        }
    }

    /// Narrows the node's margin bounds by its children's: its side to move gets the best
    /// of them. Bounds are facts, so what the node already knows (a proof from outside
    /// the tree, [`SearchTree::bound_root_move`]) is kept. True when they changed.
    pub(super) fn update_bounds(&mut self, index: usize) -> bool {
        let node = &self.nodes[index];
        if node.expansion != Expansion::Expanded || node.child_count == 0 {
            return false;
        }
        // Children's bounds are from the view of this node's side to move.
        let (mut lower, mut upper) = (i8::MIN, i8::MIN);
        for c in node.children() {
            lower = lower.max(self.nodes[c].lower);
            upper = upper.max(self.nodes[c].upper);
        }
        let node = &mut self.nodes[index];
        let (lower, upper) = ((-upper).max(node.lower), (-lower).min(node.upper));
        let changed = (node.lower, node.upper) != (lower, upper);
        node.lower = lower;
        node.upper = upper;
        changed
    }

    fn undo_virtual_loss(&mut self, path: &[u32]) {
        for &index in path {
            let node = &mut self.nodes[index as usize];
            node.in_flight = node.in_flight.saturating_sub(1);
        }
    }
}

/// Gives node `leaf` of `nodes` (at `pos`, valued `value`) its children, with `priors`: the
/// moves of `Position::legal_move_list`, in its order, played from the legal moves' bits
/// with no list made.
fn expand(nodes: &mut Vec<Node>, leaf: usize, pos: &Position, priors: &[f32], value: f32) {
    let placements = pos.legal_moves();
    let pass = placements.is_empty() && !pos.is_game_over();
    let moves = placements
        .map(Move::Place)
        .chain(pass.then_some(Move::Pass));
    let first = nodes.len();
    let squares = pos.size().squares() as u8;
    nodes.reserve(placements.count() as usize + usize::from(pass));
    for (i, mv) in moves.enumerate() {
        let prior = priors.get(i).copied().unwrap_or(0.0);
        nodes.push(Node::new(squares, mv, prior));
    }
    let count = nodes.len() - first;
    let node = &mut nodes[leaf];
    node.first_child = first as u32;
    node.child_count = count as u16;
    node.expansion = Expansion::Expanded;
    node.raw_value = value;
}

/// The arctangent to within 1e-5 radians (Abramowitz and Stegun 4.4.49's polynomial on
/// [-1, 1], the identity atan x = pi/2 - atan(1/x) beyond): selection takes one for every
/// child of every node on a simulation's path, and libm's exact `atanf` was a tenth of plain
/// PUCT's time with the pattern network. The score utility it feeds is a heuristic weight;
/// an error of 1e-5 against its scale of 0.3 changes no choice a search could tell apart.
#[inline]
fn fast_atan(x: f32) -> f32 {
    let (t, outside) = if x.abs() > 1.0 {
        (1.0 / x, true)
    } else {
        (x, false)
    };
    let t2 = t * t;
    let near = t
        * (0.999_866
            + t2 * (-0.330_299_5 + t2 * (0.180_141 + t2 * (-0.085_133 + t2 * 0.020_835_1))));
    if outside {
        std::f32::consts::FRAC_PI_2.copysign(x) - near
    } else {
        near
    }
}

#[cfg(test)]
mod fast_atan_tests {
    use super::fast_atan;

    #[test]
    fn fast_atan_is_within_its_bound_of_libm() {
        let mut worst = 0.0f32;
        // Every margin a score utility sees (about -128 to 128 over a scale of 6) and far
        // beyond, in steps fine enough to meet each arm of the polynomial.
        for i in -400_000..=400_000 {
            let x = i as f32 / 1_000.0;
            worst = worst.max((fast_atan(x) - x.atan()).abs());
        }
        assert!(worst < 2e-5, "worst error {worst}");
        assert_eq!(fast_atan(0.0), 0.0);
        assert!((fast_atan(f32::INFINITY) - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
        assert!((fast_atan(f32::NEG_INFINITY) + std::f32::consts::FRAC_PI_2).abs() < 1e-6);
    }
}
