//! Square values: what a disc on each square is worth to a player that looks no further
//! (corners high, the squares next to them negative, edges good), for the heuristic
//! player and for the order in which the alpha-beta searches try moves.

use othello::BoardSize;

/// Square values on 8x8 (van der Ree & Wiering 2013), one quarter; the rest mirrors it.
const QUARTER_8: [[i32; 4]; 4] = [
    [100, -25, 10, 5],
    [-25, -25, 2, 2],
    [10, 2, 5, 1],
    [5, 2, 1, 2],
];

/// The same idea on 6x6: corners high, the squares next to them negative, edges good.
const QUARTER_6: [[i32; 3]; 3] = [[100, -25, 10], [-25, -25, 2], [10, 2, 5]];

/// On 4x4 every square but the centre is an edge; corners still rule.
const QUARTER_4: [[i32; 2]; 2] = [[100, -25], [-25, 1]];

/// Square values indexed by bit (row * 8 + column), zero off the board.
pub(crate) fn square_table(size: BoardSize) -> [i32; 64] {
    let n = usize::from(size.n());
    let mut table = [0; 64];
    for row in 0..n {
        for col in 0..n {
            // Fold each square onto the top-left quarter.
            let r = row.min(n - 1 - row);
            let c = col.min(n - 1 - col);
            table[row * 8 + col] = match size {
                BoardSize::Eight => QUARTER_8[r][c],
                BoardSize::Six => QUARTER_6[r][c],
                BoardSize::Four => QUARTER_4[r][c],
            };
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::Square;

    #[test]
    fn the_8x8_table_is_van_der_ree_and_wiering_mirrored() {
        let t = square_table(BoardSize::Eight);
        assert_eq!(t[0..8], [100, -25, 10, 5, 5, 10, -25, 100]);
        assert_eq!(t[8..16], [-25, -25, 2, 2, 2, 2, -25, -25]);
        assert_eq!(t[16..24], [10, 2, 5, 1, 1, 5, 2, 10]);
        assert_eq!(t[24..32], [5, 2, 1, 2, 2, 1, 2, 5]);
        for sq in 0..64 {
            assert_eq!(t[sq], t[63 - sq], "point symmetry at {sq}");
        }
    }

    #[test]
    fn small_tables_prize_corners_and_punish_their_neighbours() {
        for size in [BoardSize::Six, BoardSize::Four] {
            let t = square_table(size);
            let m = size.n() - 1;
            for (c, r) in [(0, 0), (m, 0), (0, m), (m, m)] {
                let sq = Square::new(c, r).expect("on board");
                assert_eq!(t[usize::from(sq.index())], 100);
            }
            assert!(t[1] < 0 && t[8] < 0, "C squares");
            // On 4x4 the X square b2 is a centre square, taken from the start.
            if size == BoardSize::Six {
                assert!(t[9] < 0, "X square");
            }
            for (i, v) in t.iter().enumerate() {
                if size.mask() & (1 << i) == 0 {
                    assert_eq!(*v, 0);
                }
            }
        }
    }
}
