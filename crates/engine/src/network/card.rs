//! The model card: the JSON file beside each `.onnx` that says what the network is for.

use super::planes::{InputPlanes, PlanesError};
use crate::pattern::{GlobalDef, PatternDef, PatternError, PatternSet};
use othello::{BoardSize, Variant};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelCard {
    pub name: String,
    pub board_size: u8,
    /// `standard` or `reversed`.
    pub variant: String,
    /// Input planes (C in `[batch, C, N, N]`); when given, as many as `plane_names`
    /// names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planes: Option<usize>,
    /// The input planes by name, in order (input contract version 2); a card without them
    /// means input set v1, the four planes of every network before (see [`InputPlanes`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plane_names: Option<Vec<String>>,
    /// `pattern` for a pattern network (docs/model-contract.md, "Pattern networks");
    /// absent for the residual networks' planes-in, policy-and-value-out contract.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// A pattern network's stage buckets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stages: Option<u32>,
    /// A pattern network's patterns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patterns: Option<Vec<PatternDef>>,
    /// A pattern network's global network, where it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub global: Option<GlobalDef>,
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
        "the model card declares {declared} input planes, but its planes are {}",
        describe_planes(.inputs, *.named)
    )]
    Planes {
        declared: usize,
        inputs: InputPlanes,
        named: bool,
    },
    #[error(transparent)]
    InputPlanes(#[from] PlanesError),
    #[error(
        "the model card says kind '{0}'; expected 'pattern', or no kind for a network of planes"
    )]
    Kind(String),
    #[error(transparent)]
    Pattern(#[from] PatternError),
}

/// "3 (own, opponent, own_stable)", and for a card that names no planes, that they are v1's.
fn describe_planes(inputs: &InputPlanes, named: bool) -> String {
    let unnamed = if named {
        ""
    } else {
        ": input set v1, as the card names no plane_names"
    };
    format!("{} ({}{unnamed})", inputs.len(), inputs.names().join(", "))
}

impl ModelCard {
    pub fn from_json(text: &str) -> Result<ModelCard, CardError> {
        let card: ModelCard =
            serde_json::from_str(text).map_err(|e| CardError::Syntax(e.to_string()))?;
        card.board()?;
        card.variant()?;
        if card.is_pattern()? {
            card.pattern_set()?;
            return Ok(card);
        }
        // A network whose planes the engine cannot encode, or whose count and names
        // disagree, would load and then fail at its first run (or play on planes it was
        // not trained on): refuse it here, where the message can say why.
        let inputs = card.inputs()?;
        if let Some(declared) = card.planes.filter(|&p| p != inputs.len()) {
            return Err(CardError::Planes {
                declared,
                inputs,
                named: card.plane_names.is_some(),
            });
        }
        Ok(card)
    }

    /// Whether the card is a pattern network's; refuses a kind it does not know.
    pub fn is_pattern(&self) -> Result<bool, CardError> {
        match self.kind.as_deref() {
            None => Ok(false),
            Some("pattern") => Ok(true),
            Some(other) => Err(CardError::Kind(other.to_owned())),
        }
    }

    /// A pattern network's patterns, stages and instances, checked.
    pub fn pattern_set(&self) -> Result<PatternSet, CardError> {
        Ok(
            PatternSet::new(self.board()?, self.stages, self.patterns.as_deref())?
                .with_global(self.global.as_ref())?,
        )
    }

    /// The network's input planes: those `plane_names` names, or input set v1.
    pub fn inputs(&self) -> Result<InputPlanes, CardError> {
        match &self.plane_names {
            Some(names) => Ok(InputPlanes::from_names(names)?),
            None => Ok(InputPlanes::v1()),
        }
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
    fn a_card_names_its_planes_or_means_v1() {
        let old = ModelCard::from_json(CARD).expect("valid");
        assert_eq!(old.inputs(), Ok(InputPlanes::v1()));
        let bare = ModelCard::from_json(r#"{"name": "x", "board_size": 8, "variant": "standard"}"#)
            .expect("valid");
        assert_eq!(bare.inputs(), Ok(InputPlanes::v1()));
        let names = InputPlanes::v2().names();
        let v2 = CARD.replace(
            "\"planes\": 4",
            &format!(r#""planes": 10, "plane_names": {names:?}"#),
        );
        assert_eq!(
            ModelCard::from_json(&v2).expect("valid").inputs(),
            Ok(InputPlanes::v2())
        );
        // The count may be left out: the names say it.
        let unnumbered = CARD.replace("\"planes\": 4", &format!(r#""plane_names": {names:?}"#));
        assert_eq!(
            ModelCard::from_json(&unnumbered).expect("valid").inputs(),
            Ok(InputPlanes::v2())
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
        assert_eq!(
            ModelCard::from_json(&five).map_err(|e| e.to_string()),
            Err(
                "the model card declares 5 input planes, but its planes are 4 (own, opponent, \
                 legal, ones: input set v1, as the card names no plane_names)"
                    .into()
            )
        );
        let named = CARD.replace(
            "\"planes\": 4",
            r#""planes": 4, "plane_names": ["own", "opponent", "own_stable"]"#,
        );
        assert_eq!(
            ModelCard::from_json(&named).map_err(|e| e.to_string()),
            Err(
                "the model card declares 4 input planes, but its planes are 3 (own, \
                 opponent, own_stable)"
                    .into()
            )
        );
        let unknown = CARD.replace("\"planes\": 4", r#""plane_names": ["own", "parity"]"#);
        assert_eq!(
            ModelCard::from_json(&unknown),
            Err(CardError::InputPlanes(PlanesError::Unknown(
                "parity".into()
            )))
        );
        let odd = CARD.replace("standard", "odd");
        assert_eq!(
            ModelCard::from_json(&odd),
            Err(CardError::Variant("odd".into()))
        );
    }
}
