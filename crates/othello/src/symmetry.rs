//! The eight symmetries of the square board (the dihedral group D4).

use crate::{Bitboard, BoardSize, Move, Position, Square};

/// A symmetry, built as: transpose (swap column and row), then flip rows, then mirror
/// columns, each optional.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry(u8);

const TRANSPOSE: u8 = 1;
const FLIP_ROWS: u8 = 2;
const MIRROR_COLUMNS: u8 = 4;

impl Symmetry {
    pub const IDENTITY: Symmetry = Symmetry(0);
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// 0..8, the position in [`Symmetry::ALL`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub fn name(self) -> &'static str {
        [
            "identity",
            "transpose",
            "flip rows",
            "rotate 90 anticlockwise",
            "mirror columns",
            "rotate 90 clockwise",
            "rotate 180",
            "anti-transpose",
        ][self.index()]
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        // A transpose followed by exactly one flip is a quarter turn, whose inverse turns
        // the other way; every other symmetry is its own inverse.
        match self.0 {
            3 => Symmetry(5),
            5 => Symmetry(3),
            x => Symmetry(x),
        }
    }

    pub fn square(self, sq: Square, size: BoardSize) -> Square {
        let last = size.n() - 1;
        let (mut col, mut row) = (sq.column(), sq.row());
        if self.0 & TRANSPOSE != 0 {
            (col, row) = (row, col);
        }
        if self.0 & FLIP_ROWS != 0 {
            row = last - row;
        }
        if self.0 & MIRROR_COLUMNS != 0 {
            col = last - col;
        }
        // Both coordinates stay below n <= 8, so the square exists.
        Square::new(col, row).unwrap_or(sq)
    }

    pub fn apply_move(self, mv: Move, size: BoardSize) -> Move {
        match mv {
            Move::Place(sq) => Move::Place(self.square(sq, size)),
            Move::Pass => Move::Pass,
        }
    }

    /// Maps every square of a bitboard on a board of `size`.
    pub fn bitboard(self, bb: Bitboard, size: BoardSize) -> Bitboard {
        let shift = 8 - size.n() as u32;
        let mut x = bb.0;
        if self.0 & TRANSPOSE != 0 {
            x = transpose(x);
        }
        if self.0 & FLIP_ROWS != 0 {
            // Reversing the bytes flips all 8 rows; a smaller board then moves back up.
            x = x.swap_bytes() >> (8 * shift);
        }
        if self.0 & MIRROR_COLUMNS != 0 {
            x = mirror_columns(x) >> shift;
        }
        Bitboard(x)
    }

    pub fn position(self, pos: &Position) -> Position {
        let size = pos.size();
        let black = self.bitboard(pos.black(), size);
        let white = self.bitboard(pos.white(), size);
        // A symmetry maps the board onto itself and keeps discs apart, so this cannot fail.
        Position::from_bitboards(black, white, pos.side_to_move(), size, pos.variant())
            .unwrap_or(*pos)
    }
}

/// Reverses the bits of every byte: column a <-> h.
fn mirror_columns(mut x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Swaps column and row (a reflection in the a1-h8 diagonal).
fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}
