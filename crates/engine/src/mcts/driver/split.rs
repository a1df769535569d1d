//! A root proof split by the root's moves among several searchers, each with its own tree
//! and solver ([`RootSolve::part`](super::super::RootSolve::part): the page's workers
//! beside the one proving the whole root): this searcher's share, and what it proves put
//! into its tree as bounds on those moves.

use super::SearchDriver;
use crate::mcts::ProofPart;
use othello::{Move, Position};

/// A root move and what is proven of the final margin after it, for the side to move:
/// at least, at most.
pub(super) type MoveBounds = (Move, i32, i32);

/// A share of a split root proof: its moves (a bitboard) and the nodes it may still visit.
/// A win/loss/draw search proves nothing until it completes, so each slice searches the
/// share again from the root; the table carries the work over.
#[derive(Debug)]
pub(super) struct PendingPart {
    pos: Position,
    moves: u64,
    left: u64,
}

impl SearchDriver {
    /// Starts this searcher's share of a split root proof (`nodes`: its budget): in
    /// slices beside the search where the config slices proofs, else at once. A share
    /// never settles the move; the search always runs.
    pub(super) fn begin_part(&mut self, pos: &Position, part: ProofPart, nodes: u64) {
        let moves = part.moves(pos.legal_moves().0);
        if moves == 0 {
            // More searchers than moves: this one only searches.
            return;
        }
        self.pending_part = Some(PendingPart {
            pos: *pos,
            moves,
            left: nodes,
        });
        if self.config().root_solve.slice_nodes.is_none() {
            self.prove_part_more();
        }
    }

    /// One slice of this searcher's share of a split proof. What it proves of its moves
    /// goes into its tree as bounds: a win (its best move wins by at least the fail-soft
    /// value), a draw (its best move draws, the others do no better) or a loss (no move
    /// does better than the value). A win is not played at once, as a whole proof's is:
    /// the searcher proving the whole root may still find the exact margin, and the
    /// page's merge of the workers' trees, which keeps every tree's bounds, plays a proven
    /// win at the end of the move's time in any case.
    pub(super) fn prove_part_more(&mut self) {
        let Some(mut pending) = self.pending_part.take() else {
            return;
        };
        let slice = self.config().root_solve.slice_nodes.unwrap_or(u64::MAX);
        let solver = self.solver();
        let before = solver.nodes();
        let result =
            solver.prove_moves_within(&pending.pos, pending.moves, slice.min(pending.left));
        let spent = solver.nodes() - before;
        pending.left = pending.left.saturating_sub(spent);
        let Some((value, best)) = result else {
            if pending.left > 0 {
                self.pending_part = Some(pending);
            }
            return;
        };
        let squares = pending.pos.size().squares() as i32;
        let bounds = pending
            .pos
            .legal_move_list()
            .into_iter()
            .filter(|mv| mv.square().is_some_and(|sq| pending.moves & sq.bit() != 0))
            .filter_map(|mv| match (mv == best, value) {
                (true, v) if v >= 1 => Some((mv, v, squares)),
                (true, 0) => Some((mv, 0, 0)),
                // Fail-soft: a lost share's moves do no better than `value`.
                (_, v) if v <= 0 => Some((mv, -squares, v)),
                // A won share says nothing of its other moves.
                _ => None,
            })
            .collect();
        self.part_bounds = Some((pending.pos, bounds));
        self.apply_part_bounds();
    }

    /// Puts what the share of a split proof proved into the root's children, once the
    /// root is this position's and is expanded (the tree keeps them from then on).
    pub(super) fn apply_part_bounds(&mut self) {
        let Some((pos, bounds)) = self.part_bounds.clone() else {
            return;
        };
        if self.tree.root_position() != Some(&pos) {
            return;
        }
        for (mv, lower, upper) in bounds {
            self.tree.bound_root_move(mv, lower, upper);
        }
    }
}
