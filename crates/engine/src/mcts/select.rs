//! One simulation's walk: PUCT selection down the tree under virtual loss, leaves
//! resolved without the evaluator where possible (finished games, solver territory, the
//! cache), expansion with the evaluator's priors, and the backup of values and proofs
//! (MCTS-solver).

use super::gumbel;
use super::info::Proof;
use super::tree::{Expansion, LeafBatch, Node, SearchTree};
use crate::evaluator::{EvalError, Evaluation};

impl SearchTree {
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
            if let Some((value, score)) = self.resolve_without_evaluator(leaf) {
                self.backup(&path, value, score);
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
            self.backup(path, eval.value, eval.score);
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

    /// The value (and score, when known) of a leaf for its side to move when no evaluator
    /// call is needed: finished games, proven nodes, exact-solver territory, cached
    /// evaluations.
    fn resolve_without_evaluator(&mut self, leaf: usize) -> Option<(f32, Option<f32>)> {
        let node = &self.nodes[leaf];
        if let Some(proof) = node.proof {
            // A finished game's margin is the node's exact score.
            let score = node.score().filter(|_| node.pos.is_game_over()).map(|s| -s);
            return Some((-proof.value(), score));
        }
        if node.expansion != Expansion::Leaf {
            return None;
        }
        let pos = node.pos;
        if let Some(outcome) = pos.outcome() {
            let margin = outcome.margin_for(pos.side_to_move());
            self.nodes[leaf].proof = Some(Proof::from_margin(margin).flip());
            let score = margin as f32 / pos.size().squares() as f32;
            return Some((margin.signum() as f32, Some(score)));
        }
        // The root is always expanded, so that a solved root still has moves to choose from.
        if let Some((empties, solver)) = self.exact.as_mut().filter(|_| leaf != 0) {
            if pos.empty_count() <= *empties {
                if let Some(margin) = solver(&pos) {
                    self.nodes[leaf].proof = Some(Proof::from_margin(margin).flip());
                    // Win, loss or draw only: no margin to back up.
                    return Some((margin.signum() as f32, None));
                }
            }
        }
        let eval = self.cache.get(&pos.hash())?.clone();
        self.expand(leaf, &eval);
        Some((eval.value, eval.score))
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
        node.raw_value = eval.value;
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
            current = match current {
                0 => self.gumbel_child().unwrap_or_else(|| self.best_child(0)),
                _ => self.best_child(current),
            };
            self.nodes[current].in_flight += 1;
            path.push(current);
        }
        path
    }

    /// The root move Gumbel's sequential halving simulates next; `None` when the root
    /// runs PUCT (no plan, or more simulations than planned).
    fn gumbel_child(&self) -> Option<usize> {
        if !self.gumbel_root() {
            return None;
        }
        let root = &self.nodes[0];
        // A proven win is played, not explored.
        if let Some(win) = root
            .children()
            .find(|&c| self.nodes[c].proof == Some(Proof::Win))
        {
            return Some(win);
        }
        let moves = self.root_moves(true);
        let simulation: u32 = moves.iter().map(|m| m.visits).sum();
        let considered = *self.halving.get(simulation as usize)?;
        let sigma = self.root_sigma(&moves);
        gumbel::select(&moves, &sigma, considered).map(|i| root.first_child as usize + i)
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

    /// Adds `value` and `score` (for the leaf's side to move) along the path, alternating
    /// sides, takes the virtual losses back, and updates proofs from the leaf up.
    fn backup(&mut self, path: &[usize], value: f32, score: Option<f32>) {
        let mut v = -value as f64; // the leaf's mover sees the opposite
        let mut s = score.map(|s| -s as f64);
        for &index in path.iter().rev() {
            let node = &mut self.nodes[index];
            node.visits += 1;
            node.in_flight = node.in_flight.saturating_sub(1);
            node.value_sum += v;
            v = -v;
            if let Some(score) = s {
                node.score_sum += score;
                node.score_n += 1;
                s = Some(-score);
            }
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
}
