//! The last empties: no move generation, no table.

use othello::raw::flips;

use super::{Solver, INF, SHALLOW_STABILITY_EMPTIES};

/// Squares next to each square (8x8 layout). A move can flip only if an opponent disc
/// touches it: one AND rules most empty squares out before `flips` runs.
const NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (col, row) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut bits = 0u64;
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (c, r) = (col + dc, row + dr);
                if (dc != 0 || dr != 0) && c >= 0 && c < 8 && r >= 0 && r < 8 {
                    bits |= 1 << (r * 8 + c);
                }
                dc += 1;
            }
            dr += 1;
        }
        table[sq] = bits;
        sq += 1;
    }
    table
};

/// `COUNT_FLIP[pos][line]`: discs flipped along one line of eight by a disc played at
/// `pos`, when `line` has a bit for each of the mover's discs and every other square of the
/// line is the opponent's, as on a full board. A run that reaches the end of the byte
/// without meeting a mover's disc flips nothing, so bits that are not on the line (left
/// 0 by the masks below) can never close a run. Edax's `count_last_flip` (the
/// kindergarten and BMI2 versions) counts the same way.
const COUNT_FLIP: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            let mut i = pos + 1;
            while i < 8 && line & (1 << i) == 0 {
                i += 1;
            }
            if i < 8 {
                count += i - pos - 1;
            }
            let mut j = pos as i32 - 1;
            while j >= 0 && line & (1 << j) == 0 {
                j -= 1;
            }
            if j >= 0 {
                count += pos - j as usize - 1;
            }
            table[pos][line] = count as u8;
            line += 1;
        }
        pos += 1;
    }
    table
};

/// The two diagonals through each square (the square included), for gathering a
/// diagonal into one byte by multiplication.
const DIAGONALS: [[u64; 2]; 64] = {
    let mut table = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (col, row) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut k = -7;
        while k <= 7 {
            let (c, r) = (col + k, row + k);
            if c >= 0 && c < 8 && r >= 0 && r < 8 {
                table[sq][0] |= 1 << (r * 8 + c);
            }
            let (c, r) = (col + k, row - k);
            if c >= 0 && c < 8 && r >= 0 && r < 8 {
                table[sq][1] |= 1 << (r * 8 + c);
            }
            k += 1;
        }
        sq += 1;
    }
    table
};

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Discs that the mover, owning `p`, flips by playing `sq` on an otherwise full 8x8
/// board: four table lookups instead of a move. Each line is gathered into a byte whose
/// bit i is the line's square on column i (row i for the column through `sq`): a rank by
/// a shift, a diagonal by multiplying with column A (its squares are on distinct
/// columns, so the partial products never carry), the column by the classic
/// "kindergarten" multiply that puts row r's bit at bit 56 + r.
#[inline(always)]
pub(super) fn count_last_flip(sq: usize, p: u64) -> u32 {
    let (col, row) = (sq & 7, sq >> 3);
    let rank = (p >> (row * 8)) as u8;
    let column = (((p >> col) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    let diagonal = ((p & DIAGONALS[sq][0]).wrapping_mul(FILE_A) >> 56) as u8;
    let anti = ((p & DIAGONALS[sq][1]).wrapping_mul(FILE_A) >> 56) as u8;
    u32::from(COUNT_FLIP[col][usize::from(rank)])
        + u32::from(COUNT_FLIP[row][usize::from(column)])
        + u32::from(COUNT_FLIP[col][usize::from(diagonal)])
        + u32::from(COUNT_FLIP[col][usize::from(anti)])
}

impl Solver {
    /// The last empty square `x`: whoever can play there does (the side to move first),
    /// and the margin follows from the flip count alone.
    #[inline(always)]
    pub(super) fn last1(&mut self, p: u64, o: u64, x: u64) -> i32 {
        self.nodes += 1;
        let sq = x.trailing_zeros() as u8;
        let (own, other) = (p.count_ones(), o.count_ones());
        let f = self.last_flips(sq, p, o);
        if f != 0 {
            return self.variant.margin(own + f + 1, other - f, 0);
        }
        let f = self.last_flips(sq, o, p);
        if f != 0 {
            return self.variant.margin(own - f, other + f + 1, 0);
        }
        self.variant.margin(own, other, 1)
    }

    /// Discs `mover` flips by playing the last empty square `sq`. On 8x8 every other
    /// square is taken, so the mover's discs alone tell it; smaller boards play the move.
    #[inline(always)]
    fn last_flips(&self, sq: u8, mover: u64, other: u64) -> u32 {
        if self.squares == 64 {
            count_last_flip(usize::from(sq), mover)
        } else if NEIGHBOURS[usize::from(sq)] & other == 0 {
            0
        } else {
            flips(mover, other, sq).count_ones()
        }
    }

    /// Two empties (`empty` has both bits): each legal one in turn, then `last1`; no
    /// parity to sort by and no loop to set up.
    pub(super) fn last2(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        empty: u64,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let first = empty & empty.wrapping_neg();
        let second = empty ^ first;
        let mut best = -INF;
        for (here, there) in [(first, second), (second, first)] {
            let sq = here.trailing_zeros() as u8;
            if NEIGHBOURS[usize::from(sq)] & o == 0 {
                continue;
            }
            let f = flips(p, o, sq);
            if f == 0 {
                continue;
            }
            let v = -self.last1(o & !f, p | f | here, there);
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
            }
        }
        if best == -INF {
            if passed {
                return self.final_score(p, o);
            }
            return -self.last2(o, p, -beta, -alpha, empty, true);
        }
        best
    }

    /// 3..=SHALLOW_EMPTIES empties: try each empty square in parity order; `flips`
    /// tells whether it is legal.
    pub(super) fn shallow(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        if n >= SHALLOW_STABILITY_EMPTIES {
            if let Some(bound) = self.stability_cutoff(p, o, alpha, n, beta == alpha + 1) {
                return bound;
            }
        }
        let empty = self.mask & !(p | o);
        let odd = self.odd_quadrants(empty);
        let mut alpha = alpha;
        let mut best = -INF;
        for part in [empty & odd, empty & !odd] {
            let mut rest = part;
            while rest != 0 {
                let sq = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                if NEIGHBOURS[usize::from(sq)] & o == 0 {
                    continue;
                }
                let f = flips(p, o, sq);
                if f == 0 {
                    continue;
                }
                let bit = 1u64 << sq;
                let (np, no) = (o & !f, p | f | bit);
                let v = if n == 3 {
                    -self.last2(np, no, -beta, -alpha, empty & !bit, false)
                } else {
                    -self.shallow(np, no, -beta, -alpha, n - 1, false)
                };
                if v > best {
                    best = v;
                    if v >= beta {
                        return v;
                    }
                    if v > alpha {
                        alpha = v;
                    }
                }
            }
        }
        if best == -INF {
            if passed {
                return self.final_score(p, o);
            }
            return -self.shallow(o, p, -beta, -alpha, n, true);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    #[test]
    fn counting_the_last_flips_agrees_with_playing_the_move() {
        let mut rng = Rng::new(5);
        for _ in 0..20_000 {
            let sq = rng.below(64) as u8;
            // A full board but for `sq`, with runs of either colour of random lengths.
            let p =
                (rng.next_u64() & rng.next_u64() | rng.next_u64() & rng.next_u64()) & !(1u64 << sq);
            let o = !p & !(1u64 << sq);
            assert_eq!(
                count_last_flip(usize::from(sq), p),
                flips(p, o, sq).count_ones(),
                "square {sq}, player {p:#018x}"
            );
        }
    }
}
