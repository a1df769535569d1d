//! GGF game records in the page: the game written as the rules crate's `othello::ggf`
//! writes it (what NBoard, NTest and Edax read), and a pasted or opened record read back
//! into a game. Pure, so the round trip is tested natively.

use othello::ggf::{read_games, GgfError, GgfGame};
use othello::{Color, Game, GameState, IllegalReason, Seats};

use crate::review::Reviews;

/// The game played so far (not the moves taken back) as one GGF record: the start
/// position, the players as the page names them, the result when the game is over, and
/// each reviewed move's value in its move field (`B[f5/-2]`, as GGS records carry them).
pub fn ggf_record(game: &GameState, opponent: &str, reviews: &Reviews) -> String {
    let mut record = GgfGame::new(game.game.clone());
    crate::review::annotate(&mut record, &reviews.of_game(&game.game));
    let (black, white) = match game.seats {
        Seats::Human(Color::Black) => ("you".to_owned(), opponent.to_owned()),
        Seats::Human(Color::White) => (opponent.to_owned(), "you".to_owned()),
        Seats::AgentVsAgent => (opponent.to_owned(), opponent.to_owned()),
        Seats::Analysis => ("analysis".to_owned(), "analysis".to_owned()),
    };
    record.black = Some(black);
    record.white = Some(white);
    record.set_result_from_board();
    record.to_string()
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
        .map(|g| g.game)
        .ok_or_else(|| "the file holds no game".to_owned())
}

/// One game of a record, with the line a person picks it by.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordGame {
    /// "2. Black: Logistello, White: Hannibal, 60 moves, Black won by 4 (1997-08-03)".
    pub label: String,
    pub game: Game,
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
            game: record.into_game(),
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
    let result = match record.result.map(|r| r.black_margin) {
        None => "unfinished".to_owned(),
        Some(m) if m > 0.0 => format!("Black won by {m}"),
        Some(m) if m < 0.0 => format!("White won by {}", -m),
        Some(_) => "a draw".to_owned(),
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
            illegal_reason(cause.reason)
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

/// Why a move is illegal, in a player's words.
pub fn illegal_reason(reason: IllegalReason) -> &'static str {
    match reason {
        IllegalReason::OffBoard => "the square is not on the board",
        IllegalReason::Occupied => "the square already holds a disc",
        IllegalReason::FlipsNothing => "it turns no disc",
        IllegalReason::PassWithMovesLeft => "a pass, while a move was possible",
        IllegalReason::GameOver => "the game was already over",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::{BoardSize, Position, Variant};

    fn played(transcript: &str, seats: Seats) -> GameState {
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let game = Game::from_transcript(transcript, start).expect("a legal transcript");
        GameState::from_game(game, seats)
    }

    #[test]
    fn a_record_reads_back_as_the_same_game() {
        let state = played("f5d6c3d3c4f4f6f3e6e7", Seats::Human(Color::White));
        let text = ggf_record(&state, "the az-8x8 network", &Reviews::default());
        assert!(text.starts_with("(;GM[Othello]"), "{text}");
        assert!(text.contains("PB[the az-8x8 network]") && text.contains("PW[you]"));
        assert!(text.contains("RE[?]"), "unfinished: {text}");
        let back = game_from_ggf(&text).expect("our own record");
        assert_eq!(back, state.game);
    }

    #[test]
    fn a_finished_reversed_6x6_game_keeps_its_board_and_result() {
        let start = Position::start(BoardSize::Six, Variant::Reversed);
        let mut game = Game::new(start);
        while !game.position().is_game_over() {
            let mv = game.position().legal_move_list().first().copied();
            game.push(mv.unwrap_or(othello::Move::Pass)).expect("legal");
        }
        assert!(game.position().is_game_over());
        let state = GameState::from_game(game.clone(), Seats::AgentVsAgent);
        let text = ggf_record(&state, "alpha-beta", &Reviews::default());
        assert!(!text.contains("RE[?]"), "{text}");
        assert_eq!(game_from_ggf(&text).expect("our own record"), game);
    }

    #[test]
    fn bad_records_are_refused_in_words() {
        assert!(is_ggf("  (;GM[Othello]B[f5];)"));
        assert!(!is_ggf("f5d6c3"));
        let err = game_from_ggf("(;GM[Chess];)").expect_err("not Othello");
        assert!(err.starts_with("this is not a GGF record"), "{err}");
        // A GGF record with an illegal move is a GGF record: the move is the cause.
        let err = game_from_ggf("(;GM[Othello]TY[8]B[a1];)").expect_err("illegal");
        assert_eq!(
            err,
            "its move 1, B[a1], cannot be played there: it turns no disc"
        );
        let err = game_from_ggf("(;GM[Othello]TY[8]W[f5];)").expect_err("out of turn");
        assert!(err.contains("out of turn: Black is to move"), "{err}");
        let err = game_from_ggf("(;GM[Othello]TY[8]B[z9];)").expect_err("not a square");
        assert!(
            err.starts_with("its move 1, B[z9], cannot be read: 'z9'"),
            "{err}"
        );
        assert!(game_from_ggf("").is_err());
    }

    #[test]
    fn a_record_of_several_games_lists_each_to_pick() {
        let games = games_from_ggf(
            "(;GM[Othello]PB[Ann]PW[Bob]DT[2026-11-25]TY[8]B[f5]W[d6]RE[+4];)\n\
             (;GM[Othello]PB[Cy]TY[8]B[d3];)",
        )
        .expect("two games");
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0].label,
            "1. Black: Ann, White: Bob, 2 moves, Black won by 4 (2026-11-25)"
        );
        assert_eq!(games[1].label, "2. Black: Cy, White: ?, 1 move, unfinished");
        assert_eq!(games[1].game.transcript(false), "d3");
        // A bad game in a file of several says which.
        let err = games_from_ggf("(;GM[Othello]TY[8]B[f5];)(;GM[Othello]TY[8]B[a1];)")
            .expect_err("game 2 is illegal");
        assert!(err.starts_with("game 2: its move 1, B[a1]"), "{err}");
    }
}
