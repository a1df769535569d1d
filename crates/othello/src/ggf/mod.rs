//! GGF game records (the Generic Game Format of the GGS game server, which NBoard, NTest
//! and Edax read and write): `(;GM[Othello]PB[..]PW[..]RE[..]TY[8]BO[8 .. *]B[f5]W[d6];)`.
//!
//! The reference is Michael Buro's format description
//! (<https://www.skatgame.net/mburo/ggsa/ggf>); the Othello game types (`TY`) follow GGS as
//! NBoard's Java library reads them (`OsMatchType`, github.com/weltyc/othello): an optional
//! `s` (synchro), the board (`4`, `6`, `8`, `10`, ..), then any of `k` (komi), `a` (anti),
//! `r<n>` (random start with n discs), `b` or `w` (colour choice).
//!
//! What this module does with them:
//! - `TY[8]`, `TY[6]` and `TY[4]` are the boards this crate plays; other sizes are refused.
//!   `a` (anti-Othello, fewest discs wins) is [`Variant::Reversed`]. The match flags `s`,
//!   `k`, `r<n>`, `b` and `w` are accepted and not kept: `BO` already holds a random start,
//!   and synchro and komi are about scoring a match, which one record here does not do.
//! - `BO[8 <64 squares> <side>]` is the start position (`*`/`x`/`X` black, `O`/`o`/`0`
//!   white, `-`/`.` empty, whitespace anywhere in between); without `BO` the game starts from
//!   the standard position. Written without spaces, as NBoard writes it.
//! - `B[f5/1.5/2.03]` and `W[..]` are the moves, with the mover's evaluation (discs, from
//!   the mover's side) and seconds, both optional; `PA` (or `pass`, `--`) is a pass. A pass
//!   the rules force may be left out of a record; it is put back when the record is read
//!   and always written.
//! - `RE[+4]` is Black's margin (positive: Black won, in both variants), with `:r`
//!   (resigned), `:t` (timeout) or `:s` (agreed score) after it; `RE[?]` is an unfinished game.
//! - `PB`, `PW`, `DT` (date) and `PC` (place) are kept as text; every other property
//!   (ratings, clocks, comments, komi) is kept as it came and written back.
//! - Values may not hold `]` in GGF; this module writes `\]` and `\\` (SGF's escapes) for
//!   a `]` or `\` in a name, and reads them back.

use crate::{Bitboard, BoardSize, Color, Game, IllegalMove, Move, Position, Square, Variant};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

mod read;
mod write;

use read::snippet;
pub use write::{eval_text, move_text};

/// What a record says of a move besides the move itself.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveNote {
    /// The mover's evaluation, in discs from the mover's side.
    pub eval: Option<f64>,
    /// Seconds the mover took.
    pub seconds: Option<f64>,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Played out (no suffix).
    Normal,
    /// `:r`
    Resigned,
    /// `:t`
    Timeout,
    /// `:s`, a score both players agreed on.
    Agreed,
}

/// `RE`: the result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfResult {
    /// Black's final margin: positive when Black won.
    pub black_margin: f64,
    pub ending: Ending,
}

/// A game record: the game (start position and moves) and what the record says about it.
/// Two records are equal when they say the same, however their texts were written.
#[derive(Clone, Debug)]
pub struct GgfGame {
    game: Game,
    /// One per move of `game`, passes included.
    notes: Vec<MoveNote>,
    /// `PB`
    pub black: Option<String>,
    /// `PW`
    pub white: Option<String>,
    /// `RE`; `None` for an unfinished game.
    pub result: Option<GgfResult>,
    /// `DT`
    pub date: Option<String>,
    /// `PC`
    pub place: Option<String>,
    /// Every other property, in the order read, written back as it came.
    pub other: Vec<(String, String)>,
    /// The text the record was read from, `(;` to `;)`: [`GgfGame::as_read`] gives it back
    /// while the record is still what that text says.
    source: Option<String>,
}

/// Why a text is not a move of a record (`f5`, `f5/1.5/2.03`, `PA`).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveTextError {
    #[error("'{text}' is not a square of a {size} board or a pass (PA)")]
    BadSquare { text: String, size: BoardSize },
    #[error("evaluation '{0}' is not a number")]
    BadEval(String),
    #[error("time '{0}' is not a number of seconds")]
    BadTime(String),
    #[error("'{0}' after the time")]
    Extra(String),
}

/// Why a text is not a GGF game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GgfError {
    #[error("no game: a GGF game starts with \"(;\"")]
    NoGame,
    #[error("the game does not end with \";)\"")]
    Unterminated,
    #[error("expected a property such as PB[name] at \"{found}\"")]
    BadProperty { found: String },
    #[error("{tag}[ has no closing ]")]
    UnclosedValue { tag: String },
    #[error("{tag} is given twice")]
    Duplicate { tag: String },
    #[error("GM[{0}] is not an Othello game")]
    NotOthello(String),
    #[error("TY[{text}]: {reason}")]
    BadType { text: String, reason: String },
    #[error("BO[{text}]: {reason}")]
    BadBoard { text: String, reason: String },
    #[error("TY is for {ty} but BO holds a {board} board")]
    SizeMismatch { ty: BoardSize, board: BoardSize },
    #[error(
        "RE[{0}]: expected ?, or Black's margin such as +4 or -2.5, then :r, :t or :s or nothing"
    )]
    BadResult(String),
    // The messages carry their cause's text, so the cause is a plain field and not an
    // error `source`: a report that prints the chain would say it twice.
    #[error("move {number} {tag}[{text}]: {cause}")]
    BadMove {
        number: usize,
        tag: char,
        text: String,
        cause: MoveTextError,
    },
    #[error("move {number} {tag}[{text}]: {cause}")]
    Illegal {
        number: usize,
        tag: char,
        text: String,
        cause: IllegalMove,
    },
    #[error("move {number} {tag}[{text}]: it is {to_move}'s turn")]
    WrongColor {
        number: usize,
        tag: char,
        text: String,
        to_move: Color,
    },
    #[error("text after the end of the game: \"{0}\"")]
    TrailingText(String),
    #[error("game {index}: {cause}")]
    InGame {
        /// 1-based.
        index: usize,
        cause: Box<GgfError>,
    },
}

/// What the records say, not how their texts were written (the text read is kept only to
/// give it back, [`GgfGame::as_read`]).
impl PartialEq for GgfGame {
    fn eq(&self, other: &GgfGame) -> bool {
        self.game == other.game
            && self.notes == other.notes
            && self.black == other.black
            && self.white == other.white
            && self.result == other.result
            && self.date == other.date
            && self.place == other.place
            && self.other == other.other
    }
}

impl GgfGame {
    /// A record of `game` with nothing else known.
    pub fn new(game: Game) -> GgfGame {
        GgfGame {
            notes: vec![MoveNote::default(); game.moves().len()],
            game,
            black: None,
            white: None,
            result: None,
            date: None,
            place: None,
            other: Vec::new(),
            source: None,
        }
    }

    /// The text the record was read from, byte for byte (its spacing, its numbers as
    /// written: `RE[+0.000]`, `B[d3//0.70]`), while the record is still what it says: a
    /// record made here, or read and then changed (a note written, a move pushed, a field
    /// set), has none, and is written as [`fmt::Display`] writes it. A program that
    /// downloads a record it was given gives it back as it came.
    pub fn as_read(&self) -> Option<&str> {
        let text = self.source.as_deref()?;
        let again = GgfGame::read(text).ok()?.0;
        (again == *self).then_some(text)
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn into_game(self) -> Game {
        self.game
    }

    /// The note of each move, in the order of [`Game::moves`].
    pub fn notes(&self) -> &[MoveNote] {
        &self.notes
    }

    /// The notes to change, one per move (their number is the game's): how a review writes
    /// its evaluations into a record it read.
    pub fn notes_mut(&mut self) -> &mut [MoveNote] {
        &mut self.notes
    }

    /// Plays `mv` at the end of the game, with its note.
    pub fn push(&mut self, mv: Move, note: MoveNote) -> Result<(), IllegalMove> {
        self.game.push(mv)?;
        self.notes.push(note);
        Ok(())
    }

    /// Sets `RE` from the final position, when the game is over.
    pub fn set_result_from_board(&mut self) {
        if let Some(outcome) = self.game.position().outcome() {
            self.result = Some(GgfResult {
                black_margin: f64::from(outcome.margin_for(Color::Black)),
                ending: Ending::Normal,
            });
        }
    }
}

/// Reads every game of a file: games one after the other, each optionally preceded by the
/// number GGS puts before a game (`1 (;GM[Othello]..;)`). Errors say which game.
pub fn read_games(text: &str) -> Result<Vec<GgfGame>, GgfError> {
    let mut games = Vec::new();
    let mut rest = text;
    while !rest.trim().is_empty() {
        let (game, after) = GgfGame::read(rest).map_err(|e| GgfError::InGame {
            index: games.len() + 1,
            cause: Box::new(e),
        })?;
        games.push(game);
        rest = after;
    }
    // A text of one game is that game's whole ([`GgfGame::as_read`]), as `FromStr` takes it:
    // a file of one record is given back byte for byte, its last newline included.
    if let [only] = games.as_mut_slice() {
        only.source = Some(text.to_owned());
    }
    Ok(games)
}

impl FromStr for GgfGame {
    type Err = GgfError;

    /// One game; whitespace may follow it, nothing else. The text is the record's whole
    /// ([`GgfGame::as_read`]), as [`read_games`] takes a text of one game: a file of one
    /// game is given back byte for byte, its last newline included (a fresh look found a
    /// download one byte short of the file opened).
    fn from_str(text: &str) -> Result<GgfGame, GgfError> {
        let (mut game, rest) = GgfGame::read(text)?;
        let rest = rest.trim();
        if !rest.is_empty() {
            return Err(GgfError::TrailingText(snippet(rest)));
        }
        game.source = Some(text.to_owned());
        Ok(game)
    }
}

/// Reads a move as records and NBoard's `move` command write it: `f5`, `F5/1.5/2.03`,
/// `f5//2.03`, `PA`.
pub fn parse_move_text(text: &str, size: BoardSize) -> Result<(Move, MoveNote), MoveTextError> {
    let mut parts = text.trim().split('/');
    let square = parts.next().unwrap_or_default().trim();
    let mv = if square == "--" {
        Move::Pass
    } else {
        Move::parse(square, size).map_err(|_| MoveTextError::BadSquare {
            text: square.to_owned(),
            size,
        })?
    };
    let number = |part: Option<&str>, bad: fn(String) -> MoveTextError| match part
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        None => Ok(None),
        Some(p) => match p.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(Some(x)),
            _ => Err(bad(p.to_owned())),
        },
    };
    let eval = number(parts.next(), MoveTextError::BadEval)?;
    let seconds = number(parts.next(), MoveTextError::BadTime)?;
    if let Some(extra) = parts.next() {
        return Err(MoveTextError::Extra(extra.to_owned()));
    }
    Ok((mv, MoveNote { eval, seconds }))
}
