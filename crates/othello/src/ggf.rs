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
#[derive(Clone, Debug, PartialEq)]
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
    #[error("move {number} {tag}[{text}]: {source}")]
    BadMove {
        number: usize,
        tag: char,
        text: String,
        source: MoveTextError,
    },
    #[error("move {number} {tag}[{text}]: {source}")]
    Illegal {
        number: usize,
        tag: char,
        text: String,
        source: IllegalMove,
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
    #[error("game {index}: {source}")]
    InGame {
        /// 1-based.
        index: usize,
        source: Box<GgfError>,
    },
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
        }
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

    fn read(text: &str) -> Result<(GgfGame, &str), GgfError> {
        let mut props = Properties::open(text)?;
        let mut fields = Fields::default();
        while let Some((tag, value)) = props.next_property()? {
            fields.take(tag, value)?;
        }
        Ok((fields.build()?, props.rest()))
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
            source: Box::new(e),
        })?;
        games.push(game);
        rest = after;
    }
    Ok(games)
}

impl FromStr for GgfGame {
    type Err = GgfError;

    /// One game; whitespace may follow it, nothing else.
    fn from_str(text: &str) -> Result<GgfGame, GgfError> {
        let (game, rest) = GgfGame::read(text)?;
        let rest = rest.trim();
        if !rest.is_empty() {
            return Err(GgfError::TrailingText(snippet(rest)));
        }
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

/// The first few characters of `text`, for error messages.
fn snippet(text: &str) -> String {
    text.chars().take(24).collect()
}

/// The `(tag, value)` pairs of one game, read off the text in order.
struct Properties<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Properties<'a> {
    /// Skips whitespace and GGS's game number, then the `(;` that opens a game.
    fn open(text: &'a str) -> Result<Properties<'a>, GgfError> {
        let body = text.trim_start();
        let body = body.trim_start_matches(|c: char| c.is_ascii_digit());
        let body = body.trim_start();
        let body = body.strip_prefix("(;").ok_or(GgfError::NoGame)?;
        Ok(Properties {
            at: text.len() - body.len(),
            text,
        })
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    /// The next property, or `None` at the `;)` that closes the game.
    fn next_property(&mut self) -> Result<Option<(String, String)>, GgfError> {
        let rest = self.rest().trim_start();
        self.at = self.text.len() - rest.len();
        if rest.is_empty() {
            return Err(GgfError::Unterminated);
        }
        if let Some(after) = rest.strip_prefix(";)") {
            self.at = self.text.len() - after.len();
            return Ok(None);
        }
        let tag_len = rest
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        let tag = &rest[..tag_len];
        let Some(value_text) = rest[tag_len..].strip_prefix('[').filter(|_| tag_len > 0) else {
            return Err(GgfError::BadProperty {
                found: snippet(rest),
            });
        };
        let mut value = String::new();
        let mut chars = value_text.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                ']' => {
                    self.at = self.text.len() - value_text.len() + i + 1;
                    return Ok(Some((tag.to_ascii_uppercase(), value)));
                }
                '\\' => match chars.next() {
                    Some((_, escaped)) => value.push(escaped),
                    None => break,
                },
                _ => value.push(c),
            }
        }
        Err(GgfError::UnclosedValue {
            tag: tag.to_owned(),
        })
    }
}

/// The properties of one game as read, before they are checked against each other.
#[derive(Default)]
struct Fields {
    black: Option<String>,
    white: Option<String>,
    date: Option<String>,
    place: Option<String>,
    game_type: Option<(BoardSize, Variant)>,
    board: Option<(String, BoardSize)>,
    result: Option<Option<GgfResult>>,
    moves: Vec<(char, String)>,
    other: Vec<(String, String)>,
    seen_gm: bool,
}

impl Fields {
    fn take(&mut self, tag: String, value: String) -> Result<(), GgfError> {
        fn once<T>(slot: &mut Option<T>, tag: &str, value: T) -> Result<(), GgfError> {
            if slot.is_some() {
                return Err(GgfError::Duplicate {
                    tag: tag.to_owned(),
                });
            }
            *slot = Some(value);
            Ok(())
        }
        match tag.as_str() {
            "GM" => {
                if !value.trim().eq_ignore_ascii_case("othello") {
                    return Err(GgfError::NotOthello(value));
                }
                if std::mem::replace(&mut self.seen_gm, true) {
                    return Err(GgfError::Duplicate { tag });
                }
            }
            "PB" => once(&mut self.black, &tag, value)?,
            "PW" => once(&mut self.white, &tag, value)?,
            "DT" => once(&mut self.date, &tag, value)?,
            "PC" => once(&mut self.place, &tag, value)?,
            "TY" => {
                let game_type = parse_type(&value)?;
                once(&mut self.game_type, &tag, game_type)?;
            }
            "BO" => {
                let size = board_size_of(&value)?;
                once(&mut self.board, &tag, (value, size))?;
            }
            "RE" => {
                let result = parse_result(&value)?;
                once(&mut self.result, &tag, result)?;
            }
            "B" => self.moves.push(('B', value)),
            "W" => self.moves.push(('W', value)),
            _ => self.other.push((tag, value)),
        }
        Ok(())
    }

    fn build(self) -> Result<GgfGame, GgfError> {
        let board_size = self.board.as_ref().map(|(_, size)| *size);
        let size = match (self.game_type, board_size) {
            (Some((ty, _)), Some(board)) if ty != board => {
                return Err(GgfError::SizeMismatch { ty, board })
            }
            (Some((size, _)), _) | (None, Some(size)) => size,
            (None, None) => BoardSize::Eight,
        };
        let variant = self.game_type.map_or(Variant::Standard, |(_, v)| v);
        let start = match &self.board {
            Some((text, _)) => parse_board(text, variant)?,
            None => Position::start(size, variant),
        };
        let mut record = GgfGame::new(Game::new(start));
        for (i, (tag, text)) in self.moves.into_iter().enumerate() {
            let number = i + 1;
            let (mv, note) = parse_move_text(&text, size).map_err(|source| GgfError::BadMove {
                number,
                tag,
                text: text.clone(),
                source,
            })?;
            let color = if tag == 'B' {
                Color::Black
            } else {
                Color::White
            };
            let pos = *record.game.position();
            if color != pos.side_to_move() {
                if !pos.must_pass() {
                    return Err(GgfError::WrongColor {
                        number,
                        tag,
                        text,
                        to_move: pos.side_to_move(),
                    });
                }
                // A forced pass the record left out.
                let _ = record.push(Move::Pass, MoveNote::default());
            }
            record.push(mv, note).map_err(|source| GgfError::Illegal {
                number,
                tag,
                text,
                source,
            })?;
        }
        record.black = self.black;
        record.white = self.white;
        record.date = self.date;
        record.place = self.place;
        record.result = self.result.flatten();
        record.other = self.other;
        Ok(record)
    }
}

/// `TY`: `[s]<size>` then any of `k`, `a`, `r<n>`, `b`, `w`.
fn parse_type(text: &str) -> Result<(BoardSize, Variant), GgfError> {
    let bad = |reason: String| GgfError::BadType {
        text: text.to_owned(),
        reason,
    };
    let lower = text.trim().to_ascii_lowercase();
    let body = lower.strip_prefix('s').unwrap_or(&lower);
    let digits = body
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(body.len());
    let size = board_size(&body[..digits]).map_err(|reason| bad(reason.to_owned()))?;
    let mut variant = Variant::Standard;
    let mut flags = body[digits..].chars().peekable();
    while let Some(flag) = flags.next() {
        match flag {
            'a' => variant = Variant::Reversed,
            'k' | 'b' | 'w' => {}
            'r' => {
                if flags.peek().is_none_or(|c| !c.is_ascii_digit()) {
                    return Err(bad("r needs its number of random discs, as in r20".into()));
                }
                while flags.next_if(char::is_ascii_digit).is_some() {}
            }
            other => return Err(bad(format!("unknown game type letter '{other}'"))),
        }
    }
    Ok((size, variant))
}

fn board_size(digits: &str) -> Result<BoardSize, &'static str> {
    match digits {
        "" => Err("no board size"),
        "4" => Ok(BoardSize::Four),
        "6" => Ok(BoardSize::Six),
        "8" => Ok(BoardSize::Eight),
        _ => Err("this engine plays 8x8, 6x6 and 4x4 boards only"),
    }
}

fn board_size_of(text: &str) -> Result<BoardSize, GgfError> {
    let first = text.split_whitespace().next().unwrap_or_default();
    board_size(first).map_err(|reason| GgfError::BadBoard {
        text: text.to_owned(),
        reason: reason.to_owned(),
    })
}

/// `BO`: the size, N*N squares (whitespace anywhere), then the side to move.
fn parse_board(text: &str, variant: Variant) -> Result<Position, GgfError> {
    let bad = |reason: String| GgfError::BadBoard {
        text: text.to_owned(),
        reason,
    };
    let trimmed = text.trim_start();
    let digits = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    let size = board_size(&trimmed[..digits]).map_err(|r| bad(r.to_owned()))?;
    let mut cells = trimmed[digits..].chars().filter(|c| !c.is_whitespace());
    let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for sq in Square::all(size) {
        match cells.next() {
            Some('*' | 'x' | 'X') => black = black.with(sq),
            Some('O' | 'o' | '0') => white = white.with(sq),
            Some('-' | '.') => {}
            Some(other) => {
                return Err(bad(format!(
                    "'{other}' at {sq}; expected * (black), O (white) or - (empty)"
                )))
            }
            None => {
                return Err(bad(format!(
                    "the board ends before {sq}; a {size} board has {} squares",
                    size.squares()
                )))
            }
        }
    }
    let side = match cells.next() {
        Some('*' | 'x' | 'X') => Color::Black,
        Some('O' | 'o' | '0') => Color::White,
        Some(other) => return Err(bad(format!("'{other}' is not a side to move (* or O)"))),
        None => return Err(bad("no side to move after the squares (* or O)".into())),
    };
    if let Some(extra) = cells.next() {
        return Err(bad(format!("'{extra}' after the side to move")));
    }
    // Each square was given one colour, on this board only.
    Position::from_bitboards(black, white, side, size, variant).map_err(|e| bad(e.to_string()))
}

/// `RE`: `?`, or Black's margin with an optional `:r`, `:t` or `:s`.
fn parse_result(text: &str) -> Result<Option<GgfResult>, GgfError> {
    let trimmed = text.trim();
    if trimmed == "?" {
        return Ok(None);
    }
    let bad = || GgfError::BadResult(text.to_owned());
    let (number, ending) = match trimmed.split_once(':') {
        None => (trimmed, Ending::Normal),
        Some((number, "r")) => (number, Ending::Resigned),
        Some((number, "t")) => (number, Ending::Timeout),
        Some((number, "s")) => (number, Ending::Agreed),
        Some(_) => return Err(bad()),
    };
    match number.trim().parse::<f64>() {
        Ok(margin) if margin.is_finite() => Ok(Some(GgfResult {
            black_margin: margin,
            ending,
        })),
        _ => Err(bad()),
    }
}

/// Writes `tag[value]`, escaping what would end the value early.
fn property(f: &mut fmt::Formatter<'_>, tag: &str, value: &str) -> fmt::Result {
    f.write_str(tag)?;
    f.write_str("[")?;
    for c in value.chars() {
        if matches!(c, ']' | '\\') {
            f.write_str("\\")?;
        }
        write!(f, "{c}")?;
    }
    f.write_str("]")
}

fn board_text(pos: &Position) -> String {
    let symbol = |color: Color| match color {
        Color::Black => '*',
        Color::White => 'O',
    };
    let squares: String = Square::all(pos.size())
        .map(|sq| pos.color_at(sq).map_or('-', symbol))
        .collect();
    format!(
        "{} {squares} {}",
        pos.size().n(),
        symbol(pos.side_to_move())
    )
}

/// A move as records write it: `f5`, `PA`, then `/eval/seconds` when there are any.
pub fn move_text(mv: Move, note: &MoveNote) -> String {
    let mut text = match mv {
        Move::Place(sq) => sq.to_string(),
        Move::Pass => "PA".to_owned(),
    };
    if note.eval.is_some() || note.seconds.is_some() {
        text.push('/');
        if let Some(eval) = note.eval {
            text.push_str(&eval.to_string());
        }
        if let Some(seconds) = note.seconds {
            text.push('/');
            text.push_str(&seconds.to_string());
        }
    }
    text
}

impl fmt::Display for GgfResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+}", self.black_margin)?;
        f.write_str(match self.ending {
            Ending::Normal => "",
            Ending::Resigned => ":r",
            Ending::Timeout => ":t",
            Ending::Agreed => ":s",
        })
    }
}

impl fmt::Display for GgfGame {
    /// The record on one line, as GGS and NBoard exchange games.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(;GM[Othello]")?;
        for (tag, value) in [
            ("PC", &self.place),
            ("DT", &self.date),
            ("PB", &self.black),
            ("PW", &self.white),
        ] {
            if let Some(value) = value {
                property(f, tag, value)?;
            }
        }
        for (tag, value) in &self.other {
            property(f, tag, value)?;
        }
        let start = self.game.start();
        let anti = if start.variant() == Variant::Reversed {
            "a"
        } else {
            ""
        };
        write!(f, "TY[{}{anti}]", start.size().n())?;
        match &self.result {
            Some(result) => write!(f, "RE[{result}]")?,
            None => f.write_str("RE[?]")?,
        }
        write!(f, "BO[{}]", board_text(start))?;
        let positions = self.game.positions();
        for (i, mv) in self.game.moves().iter().enumerate() {
            let tag = match positions[i].side_to_move() {
                Color::Black => "B",
                Color::White => "W",
            };
            let note = self.notes.get(i).copied().unwrap_or_default();
            property(f, tag, &move_text(*mv, &note))?;
        }
        f.write_str(";)")
    }
}
