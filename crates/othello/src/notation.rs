//! Reading and writing positions and games: OBF board text and move transcripts.

use crate::{Bitboard, BoardSize, Color, IllegalMove, Move, Position, Square, Variant};
use std::fmt;

/// Why a board text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardTextError {
    /// The board part has a length that is no board's square count.
    BadLength(usize),
    /// A character that is not `X`, `O` or `-` at a square.
    BadSquare { square: Square, found: char },
    /// No side to move after the board.
    MissingSide,
    /// The side to move is not `X` or `O`.
    BadSide(String),
    /// More text after the side to move (not a `;` comment).
    Trailing(String),
}

impl fmt::Display for BoardTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardTextError::BadLength(len) => write!(
                f,
                "board text has {len} square{}; expected 64 (8x8), 36 (6x6) or 16 (4x4)",
                if *len == 1 { "" } else { "s" }
            ),
            BoardTextError::BadSquare { square, found } => write!(
                f,
                "bad character '{found}' at square {square}; expected X, O or -"
            ),
            BoardTextError::MissingSide => {
                f.write_str("board text lacks the side to move (a space, then X or O)")
            }
            BoardTextError::BadSide(side) => {
                write!(f, "bad side to move '{side}'; expected X or O")
            }
            BoardTextError::Trailing(extra) => {
                write!(f, "unexpected text '{extra}' after the side to move")
            }
        }
    }
}

impl std::error::Error for BoardTextError {}

impl Position {
    /// Reads OBF board text: `N*N` squares a1, b1, .. (`X`/`x`/`*` black, `O`/`o` white,
    /// `-`/`.` empty), whitespace, then `X` or `O` to move. A trailing `;` and comment, as
    /// in the FFO test files, is ignored.
    pub fn from_board_text(text: &str, variant: Variant) -> Result<Position, BoardTextError> {
        let text = text.split(';').next().unwrap_or_default().trim();
        let mut parts = text.split_whitespace();
        let board = parts.next().unwrap_or_default();
        let len = board.chars().count();
        let size = BoardSize::ALL
            .into_iter()
            .find(|size| size.squares() as usize == len)
            .ok_or(BoardTextError::BadLength(len))?;
        let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for (sq, found) in Square::all(size).zip(board.chars()) {
            match found {
                'X' | 'x' | '*' => black = black.with(sq),
                'O' | 'o' => white = white.with(sq),
                '-' | '.' => {}
                _ => return Err(BoardTextError::BadSquare { square: sq, found }),
            }
        }
        let side = match parts.next() {
            None => return Err(BoardTextError::MissingSide),
            Some("X" | "x" | "*" | "B" | "b") => Color::Black,
            Some("O" | "o" | "W" | "w") => Color::White,
            Some(other) => return Err(BoardTextError::BadSide(other.to_owned())),
        };
        let extra: Vec<&str> = parts.collect();
        if !extra.is_empty() {
            return Err(BoardTextError::Trailing(extra.join(" ")));
        }
        // The board part fixes every square and the size, so these bitboards are valid.
        Position::from_bitboards(black, white, side, size, variant)
            .map_err(|_| BoardTextError::BadLength(len))
    }
}

/// Why a transcript could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranscriptError {
    /// The whole transcript, as given.
    pub transcript: String,
    /// 1-based number of the offending move.
    pub move_number: usize,
    pub kind: TranscriptErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TranscriptErrorKind {
    /// Text that is neither a square on this board nor a pass.
    BadSquare(String),
    Illegal(IllegalMove),
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.move_number;
        write!(f, "\"{}\": ", self.transcript)?;
        match &self.kind {
            TranscriptErrorKind::BadSquare(text) => write!(f, "bad square '{text}' at move {at}"),
            TranscriptErrorKind::Illegal(illegal) => write!(f, "{illegal} at move {at}"),
        }
    }
}

impl std::error::Error for TranscriptError {}

/// Splits a transcript into move tokens: squares (`f5`), `pass`/`pa`, with optional
/// spaces, commas or dashes between them.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() || matches!(c, b',' | b';' | b'-' | b'.') {
            i += 1;
            continue;
        }
        let start = i;
        let rest = &text[i..];
        let lower = rest.get(..4).map(str::to_ascii_lowercase);
        if lower.as_deref() == Some("pass") {
            i += 4;
        } else if rest.get(..2).is_some_and(|s| s.eq_ignore_ascii_case("pa")) {
            i += 2;
        } else if c.is_ascii_alphabetic() {
            // A column letter, then its row digits.
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
        } else {
            // Anything else is one bad token up to the next separator.
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            while i < bytes.len()
                && !bytes[i].is_ascii_whitespace()
                && !bytes[i].is_ascii_alphabetic()
            {
                i += 1;
            }
        }
        out.push(&text[start..i]);
    }
    out
}

/// A game: a start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    moves: Vec<Move>,
    /// `positions[i]` is the position before move `i`; the last is the current one.
    positions: Vec<Position>,
}

/// The transcripts of an opening list, with their 1-based line numbers: one transcript a
/// line, `#` starting a comment, blank lines skipped (the format of `crates/othello/data/xot-8x8.txt`, which
/// the arena and the page both read).
pub fn transcript_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(index, line)| {
        let transcript = line.split('#').next().unwrap_or_default().trim();
        (!transcript.is_empty()).then_some((index + 1, transcript))
    })
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game {
            start,
            moves: Vec::new(),
            positions: vec![start],
        }
    }

    /// Replays a transcript such as `f5d6c3` from `start`. Passes may be written (`pass`,
    /// `pa`) or left out: a forced pass is inserted where the side to move has no placement.
    pub fn from_transcript(text: &str, start: Position) -> Result<Game, TranscriptError> {
        let mut game = Game::new(start);
        for (i, token) in tokens(text).into_iter().enumerate() {
            let error = |kind| TranscriptError {
                transcript: text.to_owned(),
                move_number: i + 1,
                kind,
            };
            let mv = Move::parse(token, start.size())
                .map_err(|_| error(TranscriptErrorKind::BadSquare(token.to_owned())))?;
            if mv != Move::Pass && game.position().must_pass() {
                game.push(Move::Pass)
                    .map_err(|e| error(TranscriptErrorKind::Illegal(e)))?;
            }
            game.push(mv)
                .map_err(|e| error(TranscriptErrorKind::Illegal(e)))?;
        }
        Ok(game)
    }

    /// Plays `mv` at the end of the game.
    pub fn push(&mut self, mv: Move) -> Result<&Position, IllegalMove> {
        let next = self.position().play(mv)?;
        self.moves.push(mv);
        self.positions.push(next);
        Ok(self.position())
    }

    /// Takes back the last move.
    pub fn pop(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        // `positions` always holds the start, so it is never empty.
        self.positions.last().unwrap_or(&self.start)
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position before each move, then the current one.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The transcript, such as `f5d6c3`. With `with_passes` false, passes are left out
    /// where a following placement implies them; trailing ones stay, since nothing
    /// after them would bring them back.
    pub fn transcript(&self, with_passes: bool) -> String {
        let last_placement = self.moves.iter().rposition(|mv| *mv != Move::Pass);
        self.moves
            .iter()
            .enumerate()
            .filter(|(i, mv)| with_passes || **mv != Move::Pass || Some(*i) > last_placement)
            .map(|(_, mv)| mv.to_string())
            .collect()
    }
}
