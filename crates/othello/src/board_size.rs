//! Board sizes. Every size lives in the top-left corner of one 8x8 bit layout
//! (bit = row * 8 + column), so one move generator serves them all.

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BoardSize {
    /// 4x4 is too small to be interesting to play, but small enough to search exhaustively in tests.
    Four,
    Six,
    Eight,
}

impl BoardSize {
    pub const ALL: [BoardSize; 3] = [BoardSize::Four, BoardSize::Six, BoardSize::Eight];

    /// Side length.
    pub const fn n(self) -> u8 {
        match self {
            BoardSize::Four => 4,
            BoardSize::Six => 6,
            BoardSize::Eight => 8,
        }
    }

    pub const fn from_n(n: u8) -> Option<BoardSize> {
        match n {
            4 => Some(BoardSize::Four),
            6 => Some(BoardSize::Six),
            8 => Some(BoardSize::Eight),
            _ => None,
        }
    }

    /// Number of squares on the board.
    pub const fn squares(self) -> u32 {
        let n = self.n() as u32;
        n * n
    }

    /// Bits of the 8x8 layout that are squares of this board.
    pub const fn mask(self) -> u64 {
        match self {
            BoardSize::Four => 0x0000_0000_0f0f_0f0f,
            BoardSize::Six => 0x0000_3f3f_3f3f_3f3f,
            BoardSize::Eight => u64::MAX,
        }
    }

    /// The four corner squares.
    pub const fn corners(self) -> u64 {
        match self {
            BoardSize::Four => 0x0900_0009,
            BoardSize::Six => 0x2100_0000_0021,
            BoardSize::Eight => 0x8100_0000_0000_0081,
        }
    }

    /// The board's four quadrants (N/2 x N/2 squares each), a1's first, then the one to
    /// its right, then the two below: the regions parity is counted in (Edax's
    /// `QUADRANT_ID` in its `src/search.c`), by the solver's move ordering, the network's
    /// `odd_quadrant` plane and the puzzles' parity theme.
    pub const fn quadrants(self) -> [u64; 4] {
        match self {
            BoardSize::Four => [0x0303, 0x0c0c, 0x0303_0000, 0x0c0c_0000],
            BoardSize::Six => [0x07_0707, 0x38_3838, 0x0707_0700_0000, 0x3838_3800_0000],
            BoardSize::Eight => [
                0x0f0f_0f0f,
                0xf0f0_f0f0,
                0x0f0f_0f0f_0000_0000,
                0xf0f0_f0f0_0000_0000,
            ],
        }
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.n();
        write!(f, "{n}x{n}")
    }
}

/// A board size that is not 8x8, 6x6 or 4x4.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseBoardSizeError(pub String);

impl fmt::Display for ParseBoardSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a board size; use 8, 6 or 4 (or 8x8, 6x6, 4x4)",
            self.0
        )
    }
}

impl std::error::Error for ParseBoardSizeError {}

impl FromStr for BoardSize {
    type Err = ParseBoardSizeError;

    /// `8x8` (what `Display` writes) or the side length alone, `8`.
    fn from_str(text: &str) -> Result<BoardSize, ParseBoardSizeError> {
        let bad = || ParseBoardSizeError(text.to_owned());
        let side = match text.trim().split_once(['x', 'X']) {
            Some((a, b)) if a == b => a,
            Some(_) => return Err(bad()),
            None => text.trim(),
        };
        // `08` or `+8` are not how anyone writes a board size.
        if side.len() != 1 {
            return Err(bad());
        }
        side.parse::<u8>()
            .ok()
            .and_then(BoardSize::from_n)
            .ok_or_else(bad)
    }
}
