//! A link for every game and position: the page's address carries the game in a short
//! fragment a player can paste into a chat (a transcript, not JSON), and opening the link
//! shows exactly that game. docs/web.md gives the format:
//!
//! `#g=f5d6c3&s=b&l=strong`: the moves from the standard start, the person's side and the
//! level; `b=6` the 6x6 board, `v=r` the reversed rules, `x=17` the 17th XOT opening as
//! the start, `p=<board text>` any other start (`_` for the board text's space). A position
//! to analyse is `p=` and `s=a` with no moves. A loaded record comes along whole as `r=`,
//! its text as it came, percent-encoded, and opens as that record, downloading byte for
//! byte what it came with (issue 68: a link carried its players, date and place alone, and
//! its download lost `TI`, gained `RE[+10]` and wrote `BO` anew); `pb=`, `pw=`, `dt=`,
//! `pc=` name the players, date and place of a record with no text of its own, and of
//! links written before. `u=` the moves taken back, next first, which Redo replays (a
//! record carries its own; issue 68: a link copied after an undo opened with Redo off).

use crate::format::illegal_reason;
use crate::levels::{CustomKind, Difficulty, LEVELS};
use crate::state::{GameState, Seats};
use othello::ggf::GgfGame;
use othello::xot_openings;
use othello::{BoardSize, Color, Game, Move, Position, TranscriptErrorKind, Variant};

/// What a link holds: the game, who plays it, the level, and the record's names or the
/// whole record (whose moves the game's are, or begin).
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub game: Game,
    pub seats: Seats,
    pub difficulty: Difficulty,
    pub names: Names,
    pub record: Option<GgfGame>,
    /// The moves taken back, the next to redo first (`u=`).
    pub later: Vec<Move>,
}

/// A loaded record's players, date and place, which its link carries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Names {
    pub black: Option<String>,
    pub white: Option<String>,
    pub date: Option<String>,
    pub place: Option<String>,
}

impl Names {
    fn of(record: &GgfGame) -> Names {
        Names {
            black: record.black.clone(),
            white: record.white.clone(),
            date: record.date.clone(),
            place: record.place.clone(),
        }
    }

    fn is_empty(&self) -> bool {
        *self == Names::default()
    }

    /// The link's keys and values, in the order they are written.
    fn pairs(&self) -> [(&'static str, &Option<String>); 4] {
        [
            ("pb", &self.black),
            ("pw", &self.white),
            ("dt", &self.date),
            ("pc", &self.place),
        ]
    }
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
    #[error("its record cannot be read: {0}")]
    BadRecord(String),
    #[error("its moves are not its record's")]
    NotTheRecords,
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
    // The redo moves, passes written, so that they replay from the game's last move
    // whatever it was; a record's link carries them in its record.
    let record = state.record_in_play();
    if record.is_none() && !state.undone.is_empty() {
        let later: String = state.undone.iter().rev().map(Move::to_string).collect();
        parts.push(format!("u={later}"));
    }
    if let Some(record) = record {
        match record.as_read() {
            Some(text) => parts.push(format!("r={}", encode(text))),
            None => {
                for (key, value) in Names::of(record).pairs() {
                    if let Some(value) = value {
                        parts.push(format!("{key}={}", encode(value)));
                    }
                }
            }
        }
    }
    format!("#{}", parts.join("&"))
}

/// Reads an address's fragment (`#g=...`, the `#` optional). `Ok(None)`: no link there.
pub fn read(fragment: &str) -> Result<Option<Link>, LinkError> {
    let fragment = fragment.trim_start_matches('#').trim();
    if fragment.is_empty() {
        return Ok(None);
    }
    let (mut size, mut variant) = (BoardSize::Eight, Variant::Standard);
    let (mut xot, mut board, mut moves, mut later) = (None, None, "", "");
    let (mut seats, mut difficulty) = (Seats::Human(Color::Black), Difficulty::default());
    let mut names = Names::default();
    let mut record = None;
    for pair in fragment.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let bad = |what| LinkError::BadValue(what, value.to_owned());
        match key {
            "b" => size = board_size(value).ok_or_else(|| bad("board size"))?,
            "v" => variant = rules(value).ok_or_else(|| bad("rule variant"))?,
            "x" => xot = Some(value.parse::<usize>().map_err(|_| bad("XOT opening"))?),
            "p" => board = Some(value.replace(['_', '+'], " ").replace("%20", " ")),
            "g" => moves = value,
            "u" => later = value,
            "s" => seats = seats_from(value).ok_or_else(|| bad("side"))?,
            "l" => difficulty = level_from(value).ok_or_else(|| bad("level"))?,
            "pb" => names.black = Some(decode(value).ok_or_else(|| bad("player"))?),
            "pw" => names.white = Some(decode(value).ok_or_else(|| bad("player"))?),
            "dt" => names.date = Some(decode(value).ok_or_else(|| bad("date"))?),
            "pc" => names.place = Some(decode(value).ok_or_else(|| bad("place"))?),
            "r" => record = Some(read_record(value)?),
            _ => return Err(LinkError::UnknownKey(key.to_owned())),
        }
    }
    let start = match (xot, board) {
        (Some(n), _) => xot_start(n)?,
        (None, Some(text)) => Position::from_board_text(text.trim(), variant)
            .map_err(|e| LinkError::BadStart(e.to_string()))?,
        (None, None) => Position::start(size, variant),
    };
    let game = replay(moves, start)?;
    // The redo moves replayed after the game's, their numbers counted from the start.
    let later = if later.is_empty() {
        Vec::new()
    } else {
        let line = replay(&format!("{moves}{later}"), start)?;
        line.moves()
            .strip_prefix(game.moves())
            .ok_or(LinkError::NotTheRecords)?
            .to_vec()
    };
    if let Some(record) = &record {
        let line = record.game();
        if line.start() != game.start() || !line.moves().starts_with(game.moves()) {
            return Err(LinkError::NotTheRecords);
        }
    }
    Ok(Some(Link {
        game,
        seats,
        difficulty,
        names,
        record,
        later,
    }))
}

/// A link's moves from `start`, or why they cannot be played.
fn replay(moves: &str, start: Position) -> Result<Game, LinkError> {
    Game::from_transcript(moves, start).map_err(|e| match e.kind {
        TranscriptErrorKind::BadSquare(square) => LinkError::BadSquare(e.move_number, square),
        TranscriptErrorKind::Illegal(illegal) => LinkError::Illegal(
            e.move_number,
            illegal.mv.to_string(),
            illegal_reason(illegal.reason),
        ),
    })
}

/// A link's `r=`: the record's text, percent-encoded.
fn read_record(value: &str) -> Result<GgfGame, LinkError> {
    let text = decode(value).ok_or_else(|| LinkError::BadValue("record", value.to_owned()))?;
    text.parse::<GgfGame>()
        .map_err(|e| LinkError::BadRecord(e.to_string()))
}

/// The link's game as the page holds one (a pass forced at its end played at once): its
/// record as it came, stepped back to the link's move where the link is of an earlier one,
/// or a record with its players, date and place where the link names them.
pub fn state(link: &Link) -> GameState {
    if let Some(record) = &link.record {
        let mut state = GameState::from_record(record.clone(), link.seats);
        while state.game.moves().len() > link.game.moves().len() {
            match state.game.pop() {
                Some(mv) => state.undone.push(mv),
                None => break,
            }
        }
        if state.game == link.game {
            return state;
        }
    }
    if link.names.is_empty() {
        return with_later(&link.game, &link.later, link.seats);
    }
    let mut record = GgfGame::new(link.game.clone());
    record.black = link.names.black.clone();
    record.white = link.names.white.clone();
    record.date = link.names.date.clone();
    record.place = link.names.place.clone();
    record.set_result_from_board();
    GameState::from_record(record, link.seats)
}

/// `game` with `later` to redo: the whole line played, then taken back to `game`'s move
/// (a move that cannot be played ends the line there).
fn with_later(game: &Game, later: &[Move], seats: Seats) -> GameState {
    let mut line = game.clone();
    for mv in later {
        if line.push(*mv).is_err() {
            break;
        }
    }
    let mut state = GameState::from_game(line, seats);
    while state.game.moves().len() > game.moves().len() {
        match state.game.pop() {
            Some(mv) => state.undone.push(mv),
            None => break,
        }
    }
    state
}

/// `text` percent-encoded, every byte but ASCII letters, digits and `-._~` (a name may hold
/// `&`, `=`, spaces or any letter).
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Percent-decoded text (`+` a space, as a form writes one); `None` for a broken escape or
/// bytes that are no UTF-8.
fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
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
    crate::openings::xot_of(start).map(|(n, _)| n)
}

#[cfg(test)]
mod tests;
