//! The order the search tries a node's moves in: the table's move, then by a look at
//! each child (Edax `src/move.c`, `movelist_evaluate`): the opponent's replies (fewer is
//! better, a corner counting twice), its potential mobility (the empty squares next to
//! our discs), the square's class, and, deep enough in the tree, the child's value by a
//! static evaluation or a shallow search. A wipe-out comes first of all.

use super::eval::neighbours;
use super::{Midgame, StaticEval, INF, UNIT};
use othello::raw::{flips, legal_moves_unmasked};

/// More moves than any Othello position has (the most known is 33).
const MAX_MOVES: usize = 40;

const TABLE_MOVE: i32 = i32::MAX;
const WIPEOUT: i32 = i32::MAX - 1;

/// Weights of a move's key, in value units ([`UNIT`] a disc).
const W_MOBILITY: i32 = UNIT;
const W_POTENTIAL: i32 = UNIT / 5;

/// How far below alpha a sorting search's window reaches: moves far below it all sort
/// as equally bad.
const SORT_DELTA: i32 = 8 * UNIT;

/// A node's moves in the order to search them.
pub(super) struct Ordered {
    moves: [(i32, u8); MAX_MOVES],
    len: usize,
}

impl Ordered {
    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn square(&self, i: usize) -> u8 {
        self.moves[i].1
    }
}

/// The depth of the search that values each child for sorting at `depth`: a static
/// evaluation near the leaves, deeper searches higher up (Edax: `sort_depth`).
fn sort_depth(depth: u32) -> u32 {
    match depth {
        0..=5 => 0,
        6..=8 => 1,
        9..=11 => 2,
        _ => 3,
    }
}

impl<E: StaticEval> Midgame<E> {
    pub(super) fn order(
        &mut self,
        p: u64,
        o: u64,
        moves: u64,
        tt_move: Option<u8>,
        depth: u32,
        alpha: i32,
    ) -> Ordered {
        let mut ordered = Ordered {
            moves: [(0, 0); MAX_MOVES],
            len: 0,
        };
        let sorting = sort_depth(depth);
        if sorting == 0 {
            self.eval.read_children(p, o);
        }
        let mut rest = moves;
        while rest != 0 && ordered.len < MAX_MOVES {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let key = if tt_move == Some(sq) {
                TABLE_MOVE
            } else {
                self.move_key(p, o, sq, sorting, alpha)
            };
            // Insertion sort, best first; equal keys keep square order.
            let mut i = ordered.len;
            while i > 0 && ordered.moves[i - 1].0 < key {
                ordered.moves[i] = ordered.moves[i - 1];
                i -= 1;
            }
            ordered.moves[i] = (key, sq);
            ordered.len += 1;
        }
        ordered
    }

    fn move_key(&mut self, p: u64, o: u64, sq: u8, sorting: u32, alpha: i32) -> i32 {
        let f = flips(p, o, sq);
        // The child, the opponent to move.
        let (np, no) = (o & !f, p | f | 1 << sq);
        if np == 0 {
            return WIPEOUT;
        }
        let board = self.board;
        let empty = board.mask & !(np | no);
        let replies = legal_moves_unmasked(np, no) & board.mask;
        let mobility = (replies.count_ones() + (replies & board.corners).count_ones()) as i32;
        let potential = (neighbours(no) & empty).count_ones() as i32;
        let value = if sorting == 0 {
            self.nodes += 1;
            // The node was read for its children (`order`).
            -self.eval.child(sq, f, np, no)
        } else {
            let floor = (alpha - SORT_DELTA).max(-INF + 1);
            -self.pvs(np, no, sorting, -INF, -floor, false)
        };
        value + board.square_value[usize::from(sq)]
            - mobility * W_MOBILITY
            - potential * W_POTENTIAL
    }
}
