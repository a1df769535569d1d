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
///
/// Inlined everywhere in wasm: natively a call costs little and LLVM vectorises the four
/// lines (AVX2 shifts each lane by its own amount), but wasm engines set up a frame for
/// every call and run this scalar (wasm SIMD shifts every lane alike).
#[cfg_attr(target_arch = "wasm32", inline(always))]
#[cfg_attr(not(target_arch = "wasm32"), inline)]
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
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
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

/// [`flips`] in wasm: the same rays, two directions to a SIMD vector. Natively LLVM
/// vectorises the scalar version above four directions at a time (AVX2), which wasm's
/// scalar code cannot match; but the four directions towards lower indices need the
/// highest set bit, which wasm SIMD has no instruction for. Reversing the board (bit i to
/// 63 - i) turns them into the four towards higher indices from square 63 - `sq`, which
/// need only the lowest set bit (`x & -x`). Inlined everywhere: wasm engines pay for
/// every call.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
pub fn flips(player: u64, opponent: u64, sq: u8) -> u64 {
    use std::arch::wasm32::{
        i64x2_ne, i64x2_neg, i64x2_shuffle, i64x2_splat, i64x2_sub, u64x2, u64x2_extract_lane,
        u64x2_splat, v128, v128_and, v128_andnot, v128_or,
    };
    /// The discs flipped along two rays towards higher indices (one to a lane).
    #[inline(always)]
    fn up(ray: v128, player: v128, opponent: v128) -> v128 {
        let stop = v128_andnot(ray, opponent);
        let first = v128_and(stop, i64x2_neg(stop));
        let outflanked = i64x2_ne(v128_and(first, player), i64x2_splat(0));
        v128_and(v128_and(i64x2_sub(first, i64x2_splat(1)), ray), outflanked)
    }
    let sq = usize::from(sq);
    let (near, far) = (&UP_RAYS[sq], &UP_RAYS[63 - sq]);
    let (p, o) = (u64x2_splat(player), u64x2_splat(opponent));
    let reversed = reverse_bits(u64x2(player, opponent));
    let (rp, ro) = (
        i64x2_shuffle::<0, 0>(reversed, reversed),
        i64x2_shuffle::<1, 1>(reversed, reversed),
    );
    let upwards = v128_or(
        up(u64x2(near[0], near[1]), p, o),
        up(u64x2(near[2], near[3]), p, o),
    );
    let downwards = v128_or(
        up(u64x2(far[0], far[1]), rp, ro),
        up(u64x2(far[2], far[3]), rp, ro),
    );
    let both = v128_or(upwards, reverse_bits(downwards));
    u64x2_extract_lane::<0>(both) | u64x2_extract_lane::<1>(both)
}

/// The four rays towards higher indices from each square, side by side (for wasm's
/// [`flips`]).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
const UP_RAYS: [[u64; 4]; 64] = {
    let mut rays = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut dir = 0;
        while dir < 4 {
            rays[sq][dir] = RAYS[dir][sq];
            dir += 1;
        }
        sq += 1;
    }
    rays
};

/// Each 64-bit lane's bits in reverse order: its bytes by a shuffle, each byte's bits by
/// two nibble lookups.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn reverse_bits(v: std::arch::wasm32::v128) -> std::arch::wasm32::v128 {
    use std::arch::wasm32::{i8x16_swizzle, u16x8_shr, u8x16, u8x16_splat, v128_and, v128_or};
    // A nibble's bits reversed, in the high nibble and in the low one.
    const HIGH: std::arch::wasm32::v128 = u8x16(
        0x00, 0x80, 0x40, 0xc0, 0x20, 0xa0, 0x60, 0xe0, 0x10, 0x90, 0x50, 0xd0, 0x30, 0xb0, 0x70,
        0xf0,
    );
    const LOW: std::arch::wasm32::v128 = u8x16(
        0x0, 0x8, 0x4, 0xc, 0x2, 0xa, 0x6, 0xe, 0x1, 0x9, 0x5, 0xd, 0x3, 0xb, 0x7, 0xf,
    );
    const BYTES: std::arch::wasm32::v128 =
        u8x16(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
    let v = i8x16_swizzle(v, BYTES);
    let nibble = u8x16_splat(0x0f);
    let low = v128_and(v, nibble);
    let high = v128_and(u16x8_shr(v, 4), nibble);
    v128_or(i8x16_swizzle(HIGH, low), i8x16_swizzle(LOW, high))
}
