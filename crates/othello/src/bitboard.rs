//! Bitboards and the raw move generator shared by every board size.
//!
//! Bit `row * 8 + column` is one square; a1 is bit 0, h1 bit 7, a8 bit 56. The raw
//! functions take `(player, opponent)` from the side to move's view and are what the
//! search and solver call in their inner loops.

use crate::Square;
use std::fmt;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// A set of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);

    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    pub fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | sq.bit())
    }

    /// The lowest square (a1 first, row by row).
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::from_index(self.0.trailing_zeros() as u8)
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        Bitboard(iter.into_iter().fold(0, |bits, sq| bits | sq.bit()))
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Display for Bitboard {
    /// An 8x8 grid of `x` and `.`, row 1 on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8 {
            for col in 0..8 {
                let bit = 1u64 << (row * 8 + col);
                f.write_str(if self.0 & bit != 0 { "x" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

/// Everything but columns a and h: a run of opponent discs along a row or diagonal can
/// never include them, which keeps shifts from wrapping onto the next row.
const INNER_COLUMNS: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// Squares where `player` may place a disc: empty squares of the 8x8 layout that flank
/// a run of `opponent` discs. Callers on smaller boards must `&` the board mask
/// (see [`legal_moves`]).
#[inline]
pub fn legal_moves_unmasked(player: u64, opponent: u64) -> u64 {
    // Kogge-Stone style fills, both directions of one line at a time (as in Edax's get_moves).
    #[inline(always)]
    fn line(p: u64, o: u64, shift: u32) -> u64 {
        let mut left = o & (p << shift);
        let mut right = o & (p >> shift);
        left |= o & (left << shift);
        right |= o & (right >> shift);
        let pre_left = o & (o << shift);
        let pre_right = pre_left >> shift;
        let shift2 = shift * 2;
        left |= pre_left & (left << shift2);
        right |= pre_right & (right >> shift2);
        left |= pre_left & (left << shift2);
        right |= pre_right & (right >> shift2);
        (left << shift) | (right >> shift)
    }
    let inner = opponent & INNER_COLUMNS;
    let moves = line(player, inner, 1)
        | line(player, opponent, 8)
        | line(player, inner, 7)
        | line(player, inner, 9);
    moves & !(player | opponent)
}

/// Legal placements for `player` on a board whose squares are `board_mask`.
#[inline]
pub fn legal_moves(player: u64, opponent: u64, board_mask: u64) -> u64 {
    legal_moves_unmasked(player, opponent) & board_mask
}

/// Rays from each square in the eight directions, within the 8x8 layout. Directions
/// 0..4 walk towards higher bit indices, 4..8 towards lower ones.
const RAYS: [[u64; 64]; 8] = build_rays();

const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),   // east
    (-1, 1),  // south-west
    (0, 1),   // south
    (1, 1),   // south-east
    (-1, 0),  // west
    (1, -1),  // north-east
    (0, -1),  // north
    (-1, -1), // north-west
];

const fn build_rays() -> [[u64; 64]; 8] {
    let mut rays = [[0u64; 64]; 8];
    let mut dir = 0;
    while dir < 8 {
        let (dc, dr) = DIRECTIONS[dir];
        let mut sq = 0;
        while sq < 64 {
            let mut col = (sq % 8) as i8 + dc;
            let mut row = (sq / 8) as i8 + dr;
            let mut ray = 0u64;
            while col >= 0 && col < 8 && row >= 0 && row < 8 {
                ray |= 1u64 << (row * 8 + col);
                col += dc;
                row += dr;
            }
            rays[dir][sq] = ray;
            sq += 1;
        }
        dir += 1;
    }
    rays
}

/// Discs flipped when `player` places on square index `sq` (0 if the move flips
/// nothing, i.e. is illegal). Works for every board size: squares outside a smaller
/// board are never opponent discs, so a ray simply ends there.
#[inline]
pub fn flips(player: u64, opponent: u64, sq: u8) -> u64 {
    let sq = sq as usize;
    let mut flipped = 0u64;
    // Towards higher indices the first square that is not an opponent disc is the lowest
    // set bit of `ray & !opponent`; the discs between are flipped if it is ours.
    let mut dir = 0;
    while dir < 4 {
        let ray = RAYS[dir][sq];
        let stop = ray & !opponent;
        let first = stop & stop.wrapping_neg();
        let outflanked = ((first & player) != 0) as u64;
        flipped |= first.wrapping_sub(1) & ray & outflanked.wrapping_neg();
        dir += 1;
    }
    // Towards lower indices it is the highest set bit. `| 1` keeps leading_zeros below
    // 64; the sentinel bit is masked by `ray` before it can count as ours.
    while dir < 8 {
        let ray = RAYS[dir][sq];
        let stop = ray & !opponent;
        let first = (1u64 << 63) >> (stop | 1).leading_zeros();
        let outflanked = ((first & ray & player) != 0) as u64;
        flipped |= ray & !(first.wrapping_shl(1).wrapping_sub(1)) & outflanked.wrapping_neg();
        dir += 1;
    }
    flipped
}
