//! Squares and moves in Othello notation: columns a.. from the left, rows 1.. from the top.

use crate::BoardSize;
use std::fmt;

/// A square of the 8x8 bit layout (index = row * 8 + column). Smaller boards use the
/// top-left part of the layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Square(u8);

impl Square {
    /// `column` and `row` count from 0; `None` when outside the 8x8 layout.
    pub const fn new(column: u8, row: u8) -> Option<Square> {
        if column < 8 && row < 8 {
            Some(Square(row * 8 + column))
        } else {
            None
        }
    }

    /// `None` when `index` is not below 64.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn column(self) -> u8 {
        self.0 % 8
    }

    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    pub const fn is_on(self, size: BoardSize) -> bool {
        self.bit() & size.mask() != 0
    }

    /// Row-major index over an N x N board (a1 = 0), as used by the network's policy.
    pub const fn dense_index(self, size: BoardSize) -> usize {
        (self.row() as usize) * (size.n() as usize) + self.column() as usize
    }

    /// Inverse of [`Square::dense_index`].
    pub const fn from_dense_index(index: usize, size: BoardSize) -> Option<Square> {
        let n = size.n() as usize;
        if index < n * n {
            Square::new((index % n) as u8, (index / n) as u8)
        } else {
            None
        }
    }

    /// Parses `d3` (case-insensitive) and checks the square is on a board of `size`.
    pub fn parse(text: &str, size: BoardSize) -> Result<Square, ParseSquareError> {
        let bad = || ParseSquareError {
            text: text.to_owned(),
            size,
        };
        let mut chars = text.chars();
        let (Some(col), Some(row), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(bad());
        };
        let col = col.to_ascii_lowercase();
        let n = size.n();
        if !col.is_ascii_lowercase() || !row.is_ascii_digit() {
            return Err(bad());
        }
        let column = col as u8 - b'a';
        let row = (row as u8).wrapping_sub(b'1');
        if column >= n || row >= n {
            return Err(bad());
        }
        Square::new(column, row).ok_or_else(bad)
    }

    /// All squares of a board of `size`, a1, b1, .. row by row.
    pub fn all(size: BoardSize) -> impl Iterator<Item = Square> {
        let n = size.n();
        (0..n).flat_map(move |row| (0..n).filter_map(move |col| Square::new(col, row)))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column()) as char, self.row() + 1)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError {
    pub text: String,
    pub size: BoardSize,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size.n();
        let last_col = (b'a' + n - 1) as char;
        write!(
            f,
            "bad square '{}' (expected a column a-{last_col} and a row 1-{n})",
            self.text
        )
    }
}

impl std::error::Error for ParseSquareError {}

/// A move: a disc placed on a square, or a pass (legal only when no placement is).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Move {
    Place(Square),
    Pass,
}

impl Move {
    /// Parses `d3` or `pass` / `pa` (case-insensitive).
    pub fn parse(text: &str, size: BoardSize) -> Result<Move, ParseSquareError> {
        if text.eq_ignore_ascii_case("pass") || text.eq_ignore_ascii_case("pa") {
            Ok(Move::Pass)
        } else {
            Square::parse(text, size).map(Move::Place)
        }
    }

    pub fn square(self) -> Option<Square> {
        match self {
            Move::Place(sq) => Some(sq),
            Move::Pass => None,
        }
    }

    /// Index into the network's policy vector: squares row-major, the pass last.
    pub fn policy_index(self, size: BoardSize) -> usize {
        match self {
            Move::Place(sq) => sq.dense_index(size),
            Move::Pass => size.squares() as usize,
        }
    }

    /// Inverse of [`Move::policy_index`].
    pub fn from_policy_index(index: usize, size: BoardSize) -> Option<Move> {
        if index == size.squares() as usize {
            Some(Move::Pass)
        } else {
            Square::from_dense_index(index, size).map(Move::Place)
        }
    }
}

impl From<Square> for Move {
    fn from(sq: Square) -> Move {
        Move::Place(sq)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => sq.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Square;
    use crate::BoardSize;

    // Here rather than beside `BoardSize`: the squares are the reference, and `square` is
    // the module above `board_size` (no module of the crate imports in a circle).
    #[test]
    fn corners_and_quadrants_are_the_squares_they_say() {
        for size in BoardSize::ALL {
            let (last, half) = (size.n() - 1, size.n() / 2);
            let mut corners = 0;
            let mut quadrants = [0u64; 4];
            for sq in Square::all(size) {
                let (c, r) = (sq.column(), sq.row());
                if (c == 0 || c == last) && (r == 0 || r == last) {
                    corners |= sq.bit();
                }
                quadrants[usize::from(r >= half) * 2 + usize::from(c >= half)] |= sq.bit();
            }
            assert_eq!(size.corners(), corners, "{size}");
            assert_eq!(size.quadrants(), quadrants, "{size}");
        }
    }
}
