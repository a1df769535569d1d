//! GGF game records in the page: the game written as the rules crate's `othello::ggf`
//! writes it (what NBoard, NTest and Edax read), and a pasted or opened record read back
//! into a game. Pure, so the round trip is tested natively.

use othello::ggf::{read_games, GgfGame};
use othello::{Color, Game};

use crate::state::{GameState, Seats};

/// The game played so far (not the moves taken back) as one GGF record: the start
/// position, the players as the page names them, the result when the game is over.
pub fn ggf_record(game: &GameState, opponent: &str) -> String {
    let mut record = GgfGame::new(game.game.clone());
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
/// do), or why the text is not one, in the rules crate's words after ours.
pub fn game_from_ggf(text: &str) -> Result<Game, String> {
    let games = read_games(text).map_err(|e| format!("this is not a GGF record ({e})"))?;
    games
        .into_iter()
        .next()
        .map(GgfGame::into_game)
        .ok_or_else(|| "the file holds no game".to_owned())
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
        let text = ggf_record(&state, "the az-8x8 network");
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
        let text = ggf_record(&state, "alpha-beta");
        assert!(!text.contains("RE[?]"), "{text}");
        assert_eq!(game_from_ggf(&text).expect("our own record"), game);
    }

    #[test]
    fn bad_records_are_refused_in_words() {
        assert!(is_ggf("  (;GM[Othello]B[f5];)"));
        assert!(!is_ggf("f5d6c3"));
        let err = game_from_ggf("(;GM[Chess];)").expect_err("not Othello");
        assert!(err.starts_with("this is not a GGF record"), "{err}");
        let err = game_from_ggf("(;GM[Othello]TY[8]B[a1];)").expect_err("illegal");
        assert!(err.contains("a1"), "{err}");
        assert!(game_from_ggf("").is_err());
    }
}
