//! Positions: immutable, played into new ones.

use crate::bitboard::{flips, legal_moves};
use crate::{Bitboard, BoardSize, Move, Square};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `X` for Black, `O` for White, as in board text.
    pub const fn symbol(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Who wins a finished game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Variant {
    /// More discs wins.
    #[default]
    Standard,
    /// Fewer discs wins ("lowest count wins", also known as anti-Othello).
    Reversed,
}

impl Variant {
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Reversed => "reversed",
        }
    }

    /// The final margin for a side with `own` discs against `other` discs and `empties`
    /// empty squares: positive for a win. Empties go to the winner (WOF rule), so they
    /// widen the winner's margin in both variants.
    pub const fn margin(self, own: u32, other: u32, empties: u32) -> i32 {
        let diff = match self {
            Variant::Standard => own as i32 - other as i32,
            Variant::Reversed => other as i32 - own as i32,
        };
        if diff > 0 {
            diff + empties as i32
        } else if diff < 0 {
            diff - empties as i32
        } else {
            0
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is neither `standard` nor `reversed`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseVariantError(pub String);

impl fmt::Display for ParseVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a variant; use standard or reversed", self.0)
    }
}

impl std::error::Error for ParseVariantError {}

impl std::str::FromStr for Variant {
    type Err = ParseVariantError;

    /// The names `Display` writes: `standard` or `reversed` (any case).
    fn from_str(text: &str) -> Result<Variant, ParseVariantError> {
        [Variant::Standard, Variant::Reversed]
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| ParseVariantError(text.to_owned()))
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    pub black_discs: u32,
    pub white_discs: u32,
    pub empties: u32,
    pub variant: Variant,
}

impl Outcome {
    pub fn winner(&self) -> Option<Color> {
        match self.margin_for(Color::Black) {
            m if m > 0 => Some(Color::Black),
            m if m < 0 => Some(Color::White),
            _ => None,
        }
    }

    /// Final margin for `color` with the WOF rule: positive when `color` won.
    pub fn margin_for(&self, color: Color) -> i32 {
        let (own, other) = match color {
            Color::Black => (self.black_discs, self.white_discs),
            Color::White => (self.white_discs, self.black_discs),
        };
        self.variant.margin(own, other, self.empties)
    }

    /// Black's and White's counts as WOF scores them, the empty squares in them: shared in
    /// a draw, the winner's in the standard game, the loser's in the reversed one (fewer
    /// discs win, and the empties widen the margin there too), so that the two differ by
    /// the margin.
    pub fn wof_counts(&self) -> (u32, u32) {
        let (b, w, n) = (self.black_discs, self.white_discs, self.empties);
        let black_gets_empties = match (self.winner(), self.variant) {
            (None, _) => return (b + n / 2, w + n - n / 2),
            (Some(winner), Variant::Standard) => winner == Color::Black,
            (Some(winner), Variant::Reversed) => winner == Color::White,
        };
        if black_gets_empties {
            (b + n, w)
        } else {
            (b, w + n)
        }
    }
}

impl fmt::Display for Outcome {
    /// The final score as WOF counts it, the empty squares in the count, so that the two
    /// numbers add up to the margin: "White wins 62-2 (margin 60: 60-2 on the board, the 2
    /// empty squares counted for the winner)". Issue 68 read "White wins 60-2 (margin 60: the
    /// 2 empty squares go to the winner)", whose counts were not WOF's, and a reversed game's
    /// "White wins 9-55", the winner first but with the smaller count, which reads as a slip:
    /// the reversed game says that fewer discs win. In the reversed game the empties widen
    /// the margin too (`Variant::margin`), so they count for the loser's side of the score.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (b, w, n) = (self.black_discs, self.white_discs, self.empties);
        let empties = match n {
            1 => "the empty square".to_owned(),
            n => format!("the {n} empty squares"),
        };
        let (wof_b, wof_w) = self.wof_counts();
        let Some(color) = self.winner() else {
            // A draw shares the empties, as WOF does.
            return match n {
                0 => write!(f, "draw {b}-{w}"),
                _ => write!(
                    f,
                    "draw {wof_b}-{wof_w} ({b}-{w} on the board, {empties} shared)"
                ),
            };
        };
        let (own, other, wof_own, wof_other) = if color == Color::Black {
            (b, w, wof_b, wof_w)
        } else {
            (w, b, wof_w, wof_b)
        };
        let margin = self.margin_for(color);
        match (self.variant, n) {
            (Variant::Standard, 0) => write!(f, "{color} wins {own}-{other} (margin {margin})"),
            (Variant::Standard, _) => write!(
                f,
                "{color} wins {wof_own}-{other} (margin {margin}: {own}-{other} on the board, \
                 {empties} counted for the winner)"
            ),
            (Variant::Reversed, 0) => write!(
                f,
                "{color} wins with fewer discs, {own} to {other} (margin {margin})"
            ),
            (Variant::Reversed, _) => write!(
                f,
                "{color} wins with fewer discs, {own} to {wof_other} (margin {margin}: {own} to \
                 {other} on the board, {empties} counted for the loser, since fewer discs win)"
            ),
        }
    }
}

/// A move that the rules do not allow here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    pub mv: Move,
    pub reason: IllegalReason,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    OffBoard,
    Occupied,
    FlipsNothing,
    /// A pass while a placement exists.
    PassWithMovesLeft,
    GameOver,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.reason {
            IllegalReason::OffBoard => "the square is not on this board",
            IllegalReason::Occupied => "the square is occupied",
            IllegalReason::FlipsNothing => "it flips no disc",
            IllegalReason::PassWithMovesLeft => "a pass is allowed only when no move is",
            IllegalReason::GameOver => "the game is over",
        };
        write!(f, "illegal move {}: {why}", self.mv)
    }
}

impl std::error::Error for IllegalMove {}

/// Why a set of bitboards is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A square holds both colours.
    Overlap(Square),
    /// A disc lies outside the board.
    OffBoard(Square),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Overlap(sq) => {
                write!(f, "square {sq} holds both a black and a white disc")
            }
            PositionError::OffBoard(sq) => write!(f, "square {sq} is not on the board"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A position: discs of the side to move and of its opponent, whose turn it is, the board
/// size and the variant. Immutable: [`Position::play`] returns a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Position {
    player: u64,
    opponent: u64,
    side: Color,
    size: BoardSize,
    variant: Variant,
}

impl Position {
    /// The standard start: on 8x8 d4 and e5 white, d5 and e4 black; Black to move.
    pub fn start(size: BoardSize, variant: Variant) -> Position {
        let c = size.n() / 2;
        let sq = |col, row| Square::new(col, row).map_or(0, Square::bit);
        let white = sq(c - 1, c - 1) | sq(c, c);
        let black = sq(c - 1, c) | sq(c, c - 1);
        Position {
            player: black,
            opponent: white,
            side: Color::Black,
            size,
            variant,
        }
    }

    pub fn from_bitboards(
        black: Bitboard,
        white: Bitboard,
        side: Color,
        size: BoardSize,
        variant: Variant,
    ) -> Result<Position, PositionError> {
        if let Some(sq) = (black & white).first() {
            return Err(PositionError::Overlap(sq));
        }
        if let Some(sq) = ((black | white) & !Bitboard(size.mask())).first() {
            return Err(PositionError::OffBoard(sq));
        }
        let (player, opponent) = match side {
            Color::Black => (black.0, white.0),
            Color::White => (white.0, black.0),
        };
        Ok(Position {
            player,
            opponent,
            side,
            size,
            variant,
        })
    }

    pub fn size(&self) -> BoardSize {
        self.size
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Discs of the side to move.
    pub fn player(&self) -> Bitboard {
        Bitboard(self.player)
    }

    /// Discs of the side not to move.
    pub fn opponent(&self) -> Bitboard {
        Bitboard(self.opponent)
    }

    pub fn discs(&self, color: Color) -> Bitboard {
        if color == self.side {
            self.player()
        } else {
            self.opponent()
        }
    }

    pub fn black(&self) -> Bitboard {
        self.discs(Color::Black)
    }

    pub fn white(&self) -> Bitboard {
        self.discs(Color::White)
    }

    pub fn empty(&self) -> Bitboard {
        Bitboard(self.size.mask() & !(self.player | self.opponent))
    }

    pub fn empty_count(&self) -> u32 {
        self.empty().count()
    }

    /// The colour on `sq`, if any.
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.player & sq.bit() != 0 {
            Some(self.side)
        } else if self.opponent & sq.bit() != 0 {
            Some(self.side.opposite())
        } else {
            None
        }
    }

    /// Squares where the side to move may place a disc.
    pub fn legal_moves(&self) -> Bitboard {
        Bitboard(legal_moves(self.player, self.opponent, self.size.mask()))
    }

    /// Every legal move, a pass included when it is the only one; empty when the game is over.
    pub fn legal_move_list(&self) -> Vec<Move> {
        let moves = self.legal_moves();
        if !moves.is_empty() {
            moves.map(Move::Place).collect()
        } else if self.is_game_over() {
            Vec::new()
        } else {
            vec![Move::Pass]
        }
    }

    /// True when the side to move has no placement but the opponent has one.
    pub fn must_pass(&self) -> bool {
        self.legal_moves().is_empty() && !self.opponent_moves().is_empty()
    }

    fn opponent_moves(&self) -> Bitboard {
        Bitboard(legal_moves(self.opponent, self.player, self.size.mask()))
    }

    /// The game ends when neither side can place a disc.
    pub fn is_game_over(&self) -> bool {
        self.legal_moves().is_empty() && self.opponent_moves().is_empty()
    }

    /// Discs `mv` would flip for the side to move (empty for a pass or an illegal move).
    pub fn flips(&self, mv: Move) -> Bitboard {
        match mv {
            Move::Place(sq) if self.empty().contains(sq) => {
                Bitboard(flips(self.player, self.opponent, sq.index()))
            }
            _ => Bitboard::EMPTY,
        }
    }

    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    fn check(&self, mv: Move) -> Result<(), IllegalReason> {
        match mv {
            Move::Pass if self.must_pass() => Ok(()),
            Move::Pass if self.is_game_over() => Err(IllegalReason::GameOver),
            Move::Pass => Err(IllegalReason::PassWithMovesLeft),
            Move::Place(sq) if !sq.is_on(self.size) => Err(IllegalReason::OffBoard),
            Move::Place(sq) if (self.player | self.opponent) & sq.bit() != 0 => {
                Err(IllegalReason::Occupied)
            }
            Move::Place(sq) if self.legal_moves().contains(sq) => Ok(()),
            Move::Place(_) if self.is_game_over() => Err(IllegalReason::GameOver),
            Move::Place(_) => Err(IllegalReason::FlipsNothing),
        }
    }

    /// The position after `mv`, or why `mv` is illegal.
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMove> {
        self.check(mv)
            .map_err(|reason| IllegalMove { mv, reason })?;
        Ok(self.play_unchecked(mv))
    }

    /// The position after `mv`, which the caller knows to be legal (as search loops do).
    /// An illegal placement gives a position no game can reach; it never panics.
    pub fn play_unchecked(&self, mv: Move) -> Position {
        match mv {
            Move::Pass => Position {
                player: self.opponent,
                opponent: self.player,
                side: self.side.opposite(),
                ..*self
            },
            Move::Place(sq) => {
                let flipped = flips(self.player, self.opponent, sq.index());
                Position {
                    player: self.opponent & !flipped,
                    opponent: self.player | flipped | sq.bit(),
                    side: self.side.opposite(),
                    ..*self
                }
            }
        }
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_game_over().then(|| self.count())
    }

    /// Disc counts now, scored as if the game ended here.
    pub fn count(&self) -> Outcome {
        Outcome {
            black_discs: self.black().count(),
            white_discs: self.white().count(),
            empties: self.empty_count(),
            variant: self.variant,
        }
    }

    /// A 64-bit hash of everything that makes the position: for transposition tables and
    /// evaluation caches. Equal positions hash equal; collisions are possible but rare.
    pub fn hash(&self) -> u64 {
        let tag = (self.side as u64) | (self.size.n() as u64) << 1 | (self.variant as u64) << 5;
        let h = mix(self.player ^ mix(self.opponent ^ tag.wrapping_mul(0x9e37_79b9_7f4a_7c15)));
        h ^ tag
    }

    /// OBF board text: squares a1, b1, .. row by row (`X` black, `O` white, `-` empty),
    /// a space, then the side to move.
    pub fn to_board_text(&self) -> String {
        let mut text: String = Square::all(self.size)
            .map(|sq| self.color_at(sq).map_or('-', Color::symbol))
            .collect();
        text.push(' ');
        text.push(self.side.symbol());
        text
    }

    /// The same position with the other side to move (for analysis set-ups).
    pub fn with_side_to_move(&self, side: Color) -> Position {
        if side == self.side {
            *self
        } else {
            Position {
                player: self.opponent,
                opponent: self.player,
                side,
                ..*self
            }
        }
    }

    pub fn with_variant(&self, variant: Variant) -> Position {
        Position { variant, ..*self }
    }
}

/// A strong 64-bit finaliser (SplitMix64's), enough to spread bitboards over a table.
const fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl fmt::Display for Position {
    /// A board for people: column letters, row numbers, `X`/`O`, legal moves as `*`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size.n();
        let legal = self.legal_moves();
        f.write_str("  ")?;
        for col in 0..n {
            write!(f, " {}", (b'a' + col) as char)?;
        }
        writeln!(f)?;
        for row in 0..n {
            write!(f, "{:>2}", row + 1)?;
            for col in 0..n {
                let Some(sq) = Square::new(col, row) else {
                    continue;
                };
                let c = match self.color_at(sq) {
                    Some(color) => color.symbol(),
                    None if legal.contains(sq) => '*',
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        let count = self.count();
        write!(
            f,
            "Black (X) {}  White (O) {}  ",
            count.black_discs, count.white_discs
        )?;
        match self.outcome() {
            Some(outcome) => write!(f, "game over: {outcome}"),
            None => write!(f, "{} to move", self.side),
        }
    }
}
