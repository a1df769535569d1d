//! What survives a page reload: the game (start position and moves in Othello notation,
//! so a saved game is readable and outlives changes to the structs) and the settings.

use crate::levels::Difficulty;
use crate::state::{GameState, Seats};
use othello::{Game, Move, Position, Variant};
use serde::{Deserialize, Serialize};

pub const STORAGE_KEY: &str = "othello-zero/v1";
const VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub difficulty: Difficulty,
    /// Show the live heat map while the agent thinks.
    pub heat_map: bool,
    /// The agent plays its openings from the book (off: it searches every move, which
    /// shows its thinking from the first move on).
    #[serde(default = "book_on")]
    pub book: bool,
}

fn book_on() -> bool {
    true
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            difficulty: Difficulty::default(),
            heat_map: true,
            book: true,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Saved {
    version: u32,
    /// Board text (OBF) of the start position.
    start: String,
    variant: Variant,
    /// The moves with passes written out, e.g. `f5d6c3`.
    moves: String,
    /// Moves taken back (for redo), in the order they would be replayed.
    redo: String,
    /// Who plays which colour (named `players` in saves since version 1).
    players: Seats,
    settings: Settings,
}

pub fn save(state: &GameState, settings: &Settings) -> String {
    let saved = Saved {
        version: VERSION,
        start: state.game.start().to_board_text(),
        variant: state.game.start().variant(),
        moves: state.game.transcript(true),
        redo: state
            .undone
            .iter()
            .rev()
            .map(std::string::ToString::to_string)
            .collect(),
        players: state.seats,
        settings: settings.clone(),
    };
    // Plain data: serialising cannot fail.
    serde_json::to_string(&saved).unwrap_or_default()
}

#[derive(Debug, PartialEq, thiserror::Error)]
pub enum LoadError {
    #[error("the saved game is not readable: {0}")]
    Syntax(String),
    #[error("the saved game has version {0}; this page reads version {VERSION}")]
    Version(u32),
    #[error("the saved game is not valid: {0}")]
    Invalid(String),
}

pub fn load(text: &str) -> Result<(GameState, Settings), LoadError> {
    let saved: Saved = serde_json::from_str(text).map_err(|e| LoadError::Syntax(e.to_string()))?;
    if saved.version != VERSION {
        return Err(LoadError::Version(saved.version));
    }
    let start = Position::from_board_text(&saved.start, saved.variant)
        .map_err(|e| LoadError::Invalid(e.to_string()))?;
    let game = Game::from_transcript(&saved.moves, start)
        .map_err(|e| LoadError::Invalid(e.to_string()))?;
    let mut undone = Vec::new();
    // Redo moves that no longer parse are dropped rather than losing the game.
    let redo_game = Game::from_transcript(&saved.redo, *game.position());
    if let Ok(redo) = redo_game {
        undone = redo.moves().iter().rev().copied().collect::<Vec<Move>>();
    }
    Ok((
        GameState {
            game,
            seats: saved.players,
            undone,
        },
        saved.settings,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{apply, Action};
    use othello::{BoardSize, Color};

    fn mv(text: &str, size: BoardSize) -> Action {
        Action::Play(Move::parse(text, size).expect("valid"))
    }

    fn new_game(size: BoardSize, variant: Variant, seats: Seats) -> GameState {
        GameState::new(Position::start(size, variant), seats)
    }

    #[test]
    fn a_game_with_redo_moves_and_settings_round_trips() {
        let mut s = new_game(BoardSize::Eight, Variant::Standard, Seats::Analysis);
        for action in [
            mv("f5", BoardSize::Eight),
            mv("d6", BoardSize::Eight),
            mv("c3", BoardSize::Eight),
            Action::Undo,
        ] {
            s = apply(&s, action);
        }
        let settings = Settings {
            difficulty: Difficulty::Millis(750),
            heat_map: false,
            book: true,
        };
        let text = save(&s, &settings);
        assert!(text.contains("\"moves\":\"f5d6\""), "{text}");
        let (back, back_settings) = load(&text).expect("loads");
        assert_eq!(back, s);
        assert_eq!(back_settings, settings);
        assert_eq!(apply(&back, Action::Redo).game.transcript(true), "f5d6c3");
    }

    #[test]
    fn a_reversed_game_from_a_set_up_position_round_trips() {
        let start = Position::start(BoardSize::Six, Variant::Reversed);
        let state = GameState::new(start, Seats::Human(Color::White));
        let (back, _) = load(&save(&state, &Settings::default())).expect("loads");
        assert_eq!(back, state);
        assert_eq!(back.position().variant(), Variant::Reversed);
    }

    #[test]
    fn broken_saves_are_rejected_with_a_reason() {
        assert!(matches!(load("{"), Err(LoadError::Syntax(_))));
        let good = save(
            &new_game(BoardSize::Eight, Variant::Standard, Seats::AgentVsAgent),
            &Settings::default(),
        );
        let future = good.replace("\"version\":1", "\"version\":9");
        assert_eq!(load(&future), Err(LoadError::Version(9)));
        let illegal = good.replace("\"moves\":\"\"", "\"moves\":\"a1\"");
        assert!(matches!(load(&illegal), Err(LoadError::Invalid(_))));
    }
}
