//! A link for every game and position: the page's address carries the game in a short
//! fragment a player can paste into a chat (a transcript, not JSON), and opening the link
//! shows exactly that game. docs/web.md gives the format:
//!
//! `#g=f5d6c3&s=b&l=strong`: the moves from the standard start, the person's side and the
//! level; `b=6` the 6x6 board, `v=r` the reversed rules, `x=17` the 17th XOT opening as
//! the start, `p=<board text>` any other start (`_` for the board text's space). A position
//! to analyse is `p=` and `s=a` with no moves.

use crate::format::illegal_reason;
use crate::levels::{CustomKind, Difficulty, LEVELS};
use crate::state::{GameState, Seats};
use othello::xot_openings;
use othello::{BoardSize, Color, Game, Position, TranscriptErrorKind, Variant};

/// What a link holds: the game, who plays it, and the level.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub game: Game,
    pub seats: Seats,
    pub difficulty: Difficulty,
}

/// Why an address is not a link the page can follow, said once.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum LinkError {
    #[error("'{0}' is not part of a game link")]
    UnknownKey(String),
    #[error("'{1}' is not a {0} a link can name")]
    BadValue(&'static str, String),
    #[error("there is no XOT opening {0} (they are numbered 1 to {1})")]
    NoOpening(usize, usize),
    #[error("its start position cannot be read: {0}")]
    BadStart(String),
    #[error("its move {0}, '{1}', is not a square of the board")]
    BadSquare(usize, String),
    #[error("its move {0}, {1}, cannot be played there: {2}")]
    Illegal(usize, String, &'static str),
}

/// The fragment (with its `#`) that opens `state` at `difficulty`.
pub fn write(state: &GameState, difficulty: &Difficulty) -> String {
    let start = state.game.start();
    let mut parts = Vec::new();
    if start.size() == BoardSize::Six {
        parts.push("b=6".to_owned());
    }
    if start.variant() == Variant::Reversed {
        parts.push("v=r".to_owned());
    }
    if *start != Position::start(start.size(), start.variant()) {
        match xot_number(start) {
            Some(n) => parts.push(format!("x={n}")),
            None => parts.push(format!("p={}", start.to_board_text().replace(' ', "_"))),
        }
    }
    let moves = state.game.transcript(false);
    if !moves.is_empty() {
        parts.push(format!("g={moves}"));
    }
    parts.push(format!("s={}", seats_code(state.seats)));
    parts.push(format!("l={}", level_code(difficulty)));
    format!("#{}", parts.join("&"))
}

/// Reads an address's fragment (`#g=...`, the `#` optional). `Ok(None)`: no link there.
pub fn read(fragment: &str) -> Result<Option<Link>, LinkError> {
    let fragment = fragment.trim_start_matches('#').trim();
    if fragment.is_empty() {
        return Ok(None);
    }
    let (mut size, mut variant) = (BoardSize::Eight, Variant::Standard);
    let (mut xot, mut board, mut moves) = (None, None, "");
    let (mut seats, mut difficulty) = (Seats::Human(Color::Black), Difficulty::default());
    for pair in fragment.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let bad = |what| LinkError::BadValue(what, value.to_owned());
        match key {
            "b" => size = board_size(value).ok_or_else(|| bad("board size"))?,
            "v" => variant = rules(value).ok_or_else(|| bad("rule variant"))?,
            "x" => xot = Some(value.parse::<usize>().map_err(|_| bad("XOT opening"))?),
            "p" => board = Some(value.replace(['_', '+'], " ").replace("%20", " ")),
            "g" => moves = value,
            "s" => seats = seats_from(value).ok_or_else(|| bad("side"))?,
            "l" => difficulty = level_from(value).ok_or_else(|| bad("level"))?,
            _ => return Err(LinkError::UnknownKey(key.to_owned())),
        }
    }
    let start = match (xot, board) {
        (Some(n), _) => xot_start(n)?,
        (None, Some(text)) => Position::from_board_text(text.trim(), variant)
            .map_err(|e| LinkError::BadStart(e.to_string()))?,
        (None, None) => Position::start(size, variant),
    };
    let game = Game::from_transcript(moves, start).map_err(|e| match e.kind {
        TranscriptErrorKind::BadSquare(square) => LinkError::BadSquare(e.move_number, square),
        TranscriptErrorKind::Illegal(illegal) => LinkError::Illegal(
            e.move_number,
            illegal.mv.to_string(),
            illegal_reason(illegal.reason),
        ),
    })?;
    Ok(Some(Link {
        game,
        seats,
        difficulty,
    }))
}

/// The link's game as the page holds one (a pass forced at its end played at once).
pub fn state(link: &Link) -> GameState {
    GameState::from_game(link.game.clone(), link.seats)
}

fn board_size(value: &str) -> Option<BoardSize> {
    match value {
        "6" => Some(BoardSize::Six),
        "8" => Some(BoardSize::Eight),
        _ => None,
    }
}

fn rules(value: &str) -> Option<Variant> {
    match value {
        "r" => Some(Variant::Reversed),
        "s" => Some(Variant::Standard),
        _ => None,
    }
}

fn seats_code(seats: Seats) -> &'static str {
    match seats {
        Seats::Human(Color::Black) => "b",
        Seats::Human(Color::White) => "w",
        Seats::Analysis => "a",
        Seats::AgentVsAgent => "x",
    }
}

fn seats_from(value: &str) -> Option<Seats> {
    [
        Seats::Human(Color::Black),
        Seats::Human(Color::White),
        Seats::Analysis,
        Seats::AgentVsAgent,
    ]
    .into_iter()
    .find(|s| seats_code(*s) == value)
}

/// A named level by its id (`strong`), a custom one as `5000sim` or `750ms`.
fn level_code(difficulty: &Difficulty) -> String {
    match difficulty {
        Difficulty::Level(id) => id.clone(),
        Difficulty::Simulations(n) => format!("{n}sim"),
        Difficulty::Millis(ms) => format!("{ms}ms"),
    }
}

fn level_from(value: &str) -> Option<Difficulty> {
    if LEVELS.iter().any(|l| l.id == value) {
        return Some(Difficulty::Level(value.to_owned()));
    }
    // The custom levels' own range check: a link cannot ask for more than the box allows.
    if let Some(n) = value.strip_suffix("sim") {
        return CustomKind::Simulations.parse(n).ok();
    }
    value
        .strip_suffix("ms")
        .and_then(|n| CustomKind::Millis.parse(n).ok())
}

fn xot_start(n: usize) -> Result<Position, LinkError> {
    let list = xot_openings();
    let transcript = n
        .checked_sub(1)
        .and_then(|i| list.get(i))
        .ok_or(LinkError::NoOpening(n, list.len()))?;
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    Game::from_transcript(transcript, start)
        .map(|g| *g.position())
        .map_err(|e| LinkError::BadStart(e.to_string()))
}

/// The number of the XOT opening that reaches `start`, if one does.
fn xot_number(start: &Position) -> Option<usize> {
    if start.size() != BoardSize::Eight || start.variant() != Variant::Standard {
        return None;
    }
    (1..=xot_openings().len()).find(|&n| xot_start(n).is_ok_and(|p| p == *start))
}

#[cfg(test)]
mod tests;
