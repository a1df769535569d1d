//! The model card: the JSON file beside each `.onnx` that says what the network is for.

use othello::{BoardSize, Variant};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelCard {
    pub name: String,
    pub board_size: u8,
    /// `standard` or `reversed`.
    pub variant: String,
    /// Input planes (C in `[batch, C, N, N]`).
    #[serde(default = "default_planes")]
    pub planes: usize,
    #[serde(default)]
    pub parameters: Option<u64>,
    #[serde(default)]
    pub network: serde_json::Value,
    #[serde(default)]
    pub training: serde_json::Value,
    #[serde(default)]
    pub date: Option<String>,
    #[serde(default)]
    pub strength: serde_json::Value,
}

fn default_planes() -> usize {
    super::INPUT_PLANES
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CardError {
    #[error("the model card is not valid JSON for a card: {0}")]
    Syntax(String),
    #[error("the model card says board size {0}, which is not 4, 6 or 8")]
    BoardSize(u8),
    #[error("the model card says variant '{0}'; expected 'standard' or 'reversed'")]
    Variant(String),
    #[error("the model plays {model} but the game is {game}")]
    Mismatch { model: String, game: String },
    #[error(
        "the model card declares {0} input planes, but the engine encodes {planes} (own discs, opponent discs, legal moves, ones)",
        planes = super::INPUT_PLANES
    )]
    Planes(usize),
}

impl ModelCard {
    pub fn from_json(text: &str) -> Result<ModelCard, CardError> {
        let card: ModelCard =
            serde_json::from_str(text).map_err(|e| CardError::Syntax(e.to_string()))?;
        card.board()?;
        card.variant()?;
        // A network that wants other planes would load and then fail at its first run:
        // refuse it here, where the message can say why.
        if card.planes != super::INPUT_PLANES {
            return Err(CardError::Planes(card.planes));
        }
        Ok(card)
    }

    pub fn board(&self) -> Result<BoardSize, CardError> {
        BoardSize::from_n(self.board_size).ok_or(CardError::BoardSize(self.board_size))
    }

    pub fn variant(&self) -> Result<Variant, CardError> {
        self.variant
            .parse()
            .map_err(|_| CardError::Variant(self.variant.clone()))
    }

    /// Fails with a message naming both sides when the model is for another game.
    pub fn check_game(&self, size: BoardSize, variant: Variant) -> Result<(), CardError> {
        let (board, v) = (self.board()?, self.variant()?);
        if board != size || v != variant {
            return Err(CardError::Mismatch {
                model: format!("{board} {v}"),
                game: format!("{size} {variant}"),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CARD: &str = r#"{"name": "x", "board_size": 6, "variant": "standard", "planes": 4}"#;

    #[test]
    fn a_card_is_read_and_checked_against_the_game() {
        let card = ModelCard::from_json(CARD).expect("valid");
        assert_eq!(card.board(), Ok(BoardSize::Six));
        assert!(card.check_game(BoardSize::Six, Variant::Standard).is_ok());
        let err = card
            .check_game(BoardSize::Eight, Variant::Standard)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "the model plays 6x6 standard but the game is 8x8 standard"
        );
    }

    #[test]
    fn bad_cards_say_what_is_wrong() {
        assert!(matches!(
            ModelCard::from_json("{"),
            Err(CardError::Syntax(_))
        ));
        let seven = CARD.replace("6", "7");
        assert_eq!(ModelCard::from_json(&seven), Err(CardError::BoardSize(7)));
        let five = CARD.replace("\"planes\": 4", "\"planes\": 5");
        assert_eq!(ModelCard::from_json(&five), Err(CardError::Planes(5)));
        assert_eq!(
            CardError::Planes(5).to_string(),
            "the model card declares 5 input planes, but the engine encodes 4 (own discs, \
             opponent discs, legal moves, ones)"
        );
        let odd = CARD.replace("standard", "odd");
        assert_eq!(
            ModelCard::from_json(&odd),
            Err(CardError::Variant("odd".into()))
        );
    }
}
