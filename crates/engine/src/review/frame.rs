//! The orientation a review searches a game in. A game and its images under the board's
//! symmetries are one game, so they get one review: where a position is symmetric (the
//! start, where f5, e6, d3 and c4 are one move), the game is turned so that the played
//! move is the lowest square of its class, and every later position is searched turned the
//! same way. Two searches of mirror-image positions otherwise disagree by their noise (the
//! four first moves were valued -0.17 and -0.40 by two 400-simulation searches, issue 68);
//! KataGo's root symmetry pruning (`rootSymmetryPruning`) treats such moves as one for the
//! same reason.

use super::MoveReview;
use othello::{BoardSize, Move, Position, Symmetry};

/// The symmetry that turns the game as played into the game as searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Frame(Symmetry);

impl Default for Frame {
    fn default() -> Self {
        Frame(Symmetry::IDENTITY)
    }
}

/// The symmetries that leave `pos` as it is.
fn stabiliser(pos: &Position) -> impl Iterator<Item = Symmetry> + '_ {
    Symmetry::ALL
        .into_iter()
        .filter(move |g| g.position(pos) == *pos)
}

/// A move's place in the order that picks a class's representative: passes last.
fn rank(mv: Move) -> usize {
    match mv {
        Move::Place(sq) => sq.index() as usize,
        Move::Pass => usize::MAX,
    }
}

/// Whether `a` and `b` are one move of `pos`: an image of the other under a symmetry
/// that leaves the position as it is.
pub(super) fn equivalent(pos: &Position, a: Move, b: Move) -> bool {
    stabiliser(pos).any(|g| g.apply_move(a, pos.size()) == b)
}

/// `second` after `first`, as one symmetry.
fn then(first: Symmetry, second: Symmetry, size: BoardSize) -> Symmetry {
    let both = |sq| second.square(first.square(sq, size), size);
    Symmetry::ALL
        .into_iter()
        .find(|g| othello::Square::all(size).all(|sq| g.square(sq, size) == both(sq)))
        .unwrap_or(Symmetry::IDENTITY)
}

impl Frame {
    /// The frame as its symmetry's index in [`Symmetry::ALL`], as a worker's message
    /// carries it.
    pub(super) fn index(self) -> u8 {
        self.0.index() as u8
    }

    /// The frame of an index ([`Frame::index`]); an index out of range is the identity.
    pub(super) fn from_index(index: u8) -> Frame {
        Frame(
            Symmetry::ALL
                .get(usize::from(index))
                .copied()
                .unwrap_or(Symmetry::IDENTITY),
        )
    }

    /// Turns `pos` and `played` into this frame, first turning the frame further where the
    /// turned position is symmetric, so that the played move is its class's lowest square.
    pub(super) fn turn(&mut self, pos: &Position, played: Move) -> (Position, Move) {
        let size = pos.size();
        let turned = self.0.position(pos);
        let played = self.0.apply_move(played, size);
        if let Some(h) = stabiliser(&turned).min_by_key(|h| rank(h.apply_move(played, size))) {
            // h leaves the turned position as it is: only the move changes.
            self.0 = then(self.0, h, size);
            return (turned, h.apply_move(played, size));
        }
        (turned, played)
    }

    /// A review made in this frame, as the game was played.
    pub(super) fn back(&self, mut review: MoveReview, size: BoardSize) -> MoveReview {
        let undo = self.0.inverse();
        review.played = undo.apply_move(review.played, size);
        review.best = undo.apply_move(review.best, size);
        for mv in &mut review.line {
            *mv = undo.apply_move(*mv, size);
        }
        review
    }
}
