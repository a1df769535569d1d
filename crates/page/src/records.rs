//! GGF game records in the page: the game written as the rules crate's `othello::ggf`
//! writes it (what NBoard, NTest and Edax read), a pasted or opened record read back into
//! a game, and what the page says of a record: its players, its file's name. Pure, so the
//! round trip is tested natively.

use othello::ggf::{read_games, Ending, GgfError, GgfGame, GgfResult};
use othello::{Color, Game, GameState, Seats};

use crate::review::Reviews;

/// The game as one GGF record. A game that came in a record and that nobody has played on
/// ([`GameState::record_in_play`]) is that record, whole and as it came (its players,
/// result, date, place, clocks, other properties, each move's time and evaluation),
/// wherever the board stands in it: the moves after the board's are still its own. Any
/// other game is the game played so far (not the moves taken back), with its players as
/// [`players`] names them, the result once the game is over, and the times and
/// evaluations its record gave the moves it still shares with it.
///
/// A record read from GGF text is given back byte for byte as it came, its own
/// evaluations and every note included, whatever the page reviewed (issue 68, item 2: a
/// review once wrote `B[d3/-2.91/0.01]` over the record's `B[d3//0.01]`). Any other game
/// (one played here, a pasted transcript, a position set up) has no text of its own: it is
/// written with the notes it came with and nothing of a review, as a loaded record is (the
/// fourteenth look found a game played here downloading with the review's values and no
/// clean copy offered). The review's values go into either only when the person asks
/// ([`ggf_with_review`]).
pub fn ggf_record(game: &GameState, opponent: &str) -> String {
    let record = match game.record_in_play() {
        Some(record) => match record.as_read() {
            Some(text) => return text.to_owned(),
            None => record.clone(),
        },
        None => played_here(game, opponent),
    };
    annotated(record, &Reviews::default())
}

/// The game's record with the page's review's values as its moves' evaluations, in place
/// of the record's own (a move the review gave no value keeps its own): what "Download
/// with the review's values" gives. A record read from GGF text keeps every other byte as
/// it came (issue 68: `RE[+0.000]` came back as `RE[+0]`, a time of `0.70` as `0.7`); any
/// other game is written as [`ggf_record`] writes it, each reviewed move's value its
/// evaluation (`B[f5/-2]`, as GGS records carry them). An estimate keeps its decimals
/// ([`crate::review::eval_texts`]). `None` where no move of it is reviewed.
pub fn ggf_with_review(game: &GameState, opponent: &str, reviews: &Reviews) -> Option<String> {
    // Asked on every render: a game with nothing reviewed is told so before any record
    // is made for it.
    let in_play = game.record_in_play();
    let evals = crate::review::eval_texts(
        &reviews.of_game(in_play.map_or(&game.game, |record| record.game())),
    );
    if evals.iter().all(Option::is_none) {
        return None;
    }
    match in_play {
        Some(record) if record.as_read().is_some() => record.as_read_with_evals(&evals),
        Some(record) => Some(annotated(record.clone(), reviews)),
        None => Some(annotated(played_here(game, opponent), reviews)),
    }
}

/// `record` with each reviewed move's value as its evaluation, and its result from the
/// board where it gives none: written as the rules crate writes a record, then each
/// reviewed move's evaluation put in as [`crate::review::eval_texts`] writes it (an
/// estimate to hundredths, an exact value whole), which `f64`'s own writing would not
/// keep apart (`-42.00` came out as `-42`).
fn annotated(mut record: GgfGame, reviews: &Reviews) -> String {
    let evals = crate::review::eval_texts(&reviews.of_game(record.game()));
    if record.result.is_none() {
        record.set_result_from_board();
    }
    record.text_with_evals(&evals)
}

/// A game begun or played on here: its moves, with the notes of those still its record's
/// (the time a record's player took on a move stays that move's), and the page's players.
fn played_here(game: &GameState, opponent: &str) -> GgfGame {
    let mut record = GgfGame::new(game.game.clone());
    if let Some(came) = game.record.as_ref() {
        let same_start = came.game().start() == game.game.start();
        let shared = came
            .game()
            .moves()
            .iter()
            .zip(game.game.moves())
            .take_while(|(theirs, ours)| same_start && theirs == ours)
            .count();
        record.notes_mut()[..shared].copy_from_slice(&came.notes()[..shared]);
    }
    (record.black, record.white) = players(game, opponent);
    record
}

/// Black's and White's players as the game's records name them. While the game is still
/// the record it came in, the record's own (perhaps nobody: a pasted transcript names
/// no one, and nobody played it here). Else the page's seats: "you" and the agent, the
/// agent twice, and nobody in analysis, where one person moves both sides and plays
/// neither. A loaded game played on here is its new players' from the position the
/// record reached, as a game from a set opening is its players'.
pub fn players(game: &GameState, opponent: &str) -> (Option<String>, Option<String>) {
    if let Some(record) = game.record_in_play() {
        return (record.black.clone(), record.white.clone());
    }
    // A game that came with moves played elsewhere (a transcript, a record) and was played
    // on here is nobody's whole: its first moves were neither the person's nor the
    // agent's (issue 68: such a game was credited to "you" and the agent).
    if game
        .record
        .as_ref()
        .is_some_and(|r| !r.game().moves().is_empty())
    {
        return (None, None);
    }
    let (you, agent) = (Some("you".to_owned()), Some(opponent.to_owned()));
    match game.seats {
        Seats::Human(Color::Black) => (you, agent),
        Seats::Human(Color::White) => (agent, you),
        Seats::AgentVsAgent => (agent.clone(), agent),
        Seats::Analysis => (None, None),
    }
}

/// The line that names a loaded record's game where the page shows the game, while it is
/// still that game: "Game record: Saio1200 (Black) vs Saio3000 (White) (2026-11-25,
/// GGS/os). The record's result: a draw."; none for a record that names no player (a
/// pasted transcript). The result is said to be the record's, apart from the players:
/// beside the status line at move 20 of the record, "…, a draw" read as the board's state
/// next to "your turn" (issue 68).
pub fn record_line(game: &GameState) -> Option<String> {
    let record = game
        .record_in_play()
        .filter(|r| r.black.is_some() || r.white.is_some())?;
    let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "an unnamed player".to_owned());
    // A record that gives no result (`RE[?]`, or none) is not given one: its moves may end
    // the game, yet the game may have ended otherwise (on time), so the board's count is
    // said as the board's (issue 68: `RE[?]` read "The record's result: Black won by 10").
    let result = match (record.result, record.game().position().outcome()) {
        (Some(result), _) => result_words(Some(result)),
        (None, Some(outcome)) => format!(
            "not given; its moves end the game, {} on the board",
            result_words(Some(GgfResult {
                black_margin: f64::from(outcome.margin_for(Color::Black)),
                ending: Ending::Normal,
            }))
        ),
        (None, None) => result_words(None),
    };
    let when: Vec<String> = [record.date.as_deref().map(shown_date), record.place.clone()]
        .into_iter()
        .flatten()
        .collect();
    let when = if when.is_empty() {
        String::new()
    } else {
        format!(" ({})", when.join(", "))
    };
    Some(format!(
        "Game record: {} (Black) vs {} (White){when}. The record's result: {}.",
        name(&record.black),
        name(&record.white),
        result
    ))
}

/// The name a download of the game takes, without its extension: for a game still its
/// record, the record's players and date (`Saio1200-vs-Saio3000-2026-11-25`); else
/// `othello-zero-` and the record's date or `now` (the time of the download,
/// `2026-11-28-1450`), so that no two games are saved under one name. Only characters
/// that every file system takes.
pub fn file_stem(game: &GameState, now: &str) -> String {
    let record = game.record_in_play();
    let date = record.and_then(|r| r.date.as_deref()).map(shown_date);
    let named = record.filter(|r| r.black.is_some() || r.white.is_some());
    let stem = match named {
        Some(record) => {
            let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "unnamed".to_owned());
            let players = format!("{}-vs-{}", name(&record.black), name(&record.white));
            match date {
                Some(date) => format!("{players}-{date}"),
                None => players,
            }
        }
        None => format!("othello-zero-{}", date.as_deref().unwrap_or(now)),
    };
    file_safe(&stem)
}

/// `text` as a file name: letters, digits and `-_.+` kept, every run of anything else
/// (spaces, `/`, `:`, which some systems refuse) one `_`, at most 100 characters.
fn file_safe(text: &str) -> String {
    let mut name = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() || "-_.+".contains(c) {
            name.push(c);
        } else if !name.ends_with('_') {
            name.push('_');
        }
    }
    let name: String = name.trim_matches(['_', '.']).chars().take(100).collect();
    if name.is_empty() {
        "othello-zero".to_owned()
    } else {
        name
    }
}

/// A record's date (`DT`) as the page shows it: the calendar date of GGS's
/// `2026.11.25_14:03:11.UTC` or an ISO date, `2026-11-25`; any other text as it is.
fn shown_date(date: &str) -> String {
    calendar_date(date).unwrap_or_else(|| date.trim().to_owned())
}

fn calendar_date(date: &str) -> Option<String> {
    let day = date.trim().get(..10)?;
    let b = day.as_bytes();
    let digits = |from: usize, to: usize| b[from..to].iter().all(u8::is_ascii_digit);
    let separator = |i: usize| matches!(b[i], b'.' | b'-' | b'/');
    (digits(0, 4) && separator(4) && digits(5, 7) && separator(7) && digits(8, 10))
        .then(|| format!("{}-{}-{}", &day[..4], &day[5..7], &day[8..10]))
}

/// A record's result in words: "Black won by 4", "a draw", "not given" (`RE[?]` or no
/// `RE`: the result is unknown, which is not to say the game is unfinished), and how a
/// game that was not played out ended.
fn result_words(result: Option<GgfResult>) -> String {
    let Some(result) = result else {
        return "not given".to_owned();
    };
    let margin = result.black_margin;
    let who = if margin > 0.0 {
        format!("Black won by {margin}")
    } else if margin < 0.0 {
        format!("White won by {}", -margin)
    } else {
        "a draw".to_owned()
    };
    let how = match result.ending {
        Ending::Normal => "",
        Ending::Resigned => ", on resignation",
        Ending::Timeout => ", on time",
        Ending::Agreed => ", by an agreed score",
    };
    format!("{who}{how}")
}

/// Whether pasted text is a GGF record rather than a transcript: a record opens with
/// `(;`, which no transcript holds.
pub fn is_ggf(text: &str) -> bool {
    text.contains("(;")
}

/// The game of a GGF record (the first one when a file holds several, as GGS files
/// do), or why the text is not one, in words that name the cause once.
pub fn game_from_ggf(text: &str) -> Result<Game, String> {
    games_from_ggf(text)?
        .into_iter()
        .next()
        .map(|g| g.record.into_game())
        .ok_or_else(|| "the file holds no game".to_owned())
}

/// One game of a record, with the line a person picks it by.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordGame {
    /// "2. Black: Logistello, White: Hannibal, 60 moves, Black won by 4 (1997-08-03)".
    pub label: String,
    /// The game with all its record says of it, which loading keeps.
    pub record: GgfGame,
}

/// Every game of a GGF record (GGS files hold many), each with its line for the picker,
/// or why the text is not a record.
pub fn games_from_ggf(text: &str) -> Result<Vec<RecordGame>, String> {
    let several = text.matches("(;").count() > 1;
    let games = read_games(text).map_err(|e| explain_ggf_error(&e, several))?;
    if games.is_empty() {
        return Err("the file holds no game".to_owned());
    }
    Ok(games
        .into_iter()
        .enumerate()
        .map(|(i, record)| RecordGame {
            label: record_label(i + 1, &record),
            record,
        })
        .collect())
}

fn record_label(number: usize, record: &GgfGame) -> String {
    let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".to_owned());
    let moves = record
        .game()
        .moves()
        .iter()
        .filter(|m| **m != othello::Move::Pass)
        .count();
    let result = match record.result {
        Some(result) => result_words(Some(result)),
        None => "result not given".to_owned(),
    };
    let date = record
        .date
        .as_ref()
        .map_or(String::new(), |d| format!(" ({d})"));
    let plural = if moves == 1 { "" } else { "s" };
    format!(
        "{number}. Black: {}, White: {}, {moves} move{plural}, {result}{date}",
        name(&record.black),
        name(&record.white)
    )
}

/// Why a record was refused: a record that is GGF but holds a move that cannot be read or
/// played is said to be so (not "not a GGF record"), naming the move once; the game's
/// number only when the text holds `several`.
fn explain_ggf_error(error: &GgfError, several: bool) -> String {
    match error {
        GgfError::InGame { index, cause } if several => {
            format!("game {index}: {}", explain_ggf_error(cause, several))
        }
        GgfError::InGame { cause, .. } => explain_ggf_error(cause, several),
        GgfError::Illegal {
            number,
            tag,
            text,
            cause,
        } => format!(
            "its move {number}, {tag}[{text}], cannot be played there: {}",
            crate::format::illegal_reason(cause.reason)
        ),
        GgfError::WrongColor {
            number,
            tag,
            text,
            to_move,
        } => format!("its move {number}, {tag}[{text}], is out of turn: {to_move} is to move"),
        GgfError::BadMove {
            number,
            tag,
            text,
            cause,
        } => format!("its move {number}, {tag}[{text}], cannot be read: {cause}"),
        other => format!("this is not a GGF record ({other})"),
    }
}

#[cfg(test)]
mod tests;
