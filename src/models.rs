//! The networks shipped with the page. Change a path here when the trainer ships a new
//! model: the files live in `models/` (copied into the build by Trunk) as `<name>.onnx` and
//! `<name>.json` (the model card).

use othello::{BoardSize, Variant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinModel {
    pub size: BoardSize,
    pub variant: Variant,
    /// Path of the files without extension, relative to the site root.
    pub path: &'static str,
}

pub const BUILTIN_MODELS: &[BuiltinModel] = &[
    BuiltinModel {
        size: BoardSize::Eight,
        variant: Variant::Standard,
        path: "models/az-8x8",
    },
    BuiltinModel {
        size: BoardSize::Six,
        variant: Variant::Standard,
        path: "models/az-6x6",
    },
];

/// The shipped network for a board, if there is one (the others use alpha-beta).
pub fn builtin_for(size: BoardSize, variant: Variant) -> Option<&'static BuiltinModel> {
    BUILTIN_MODELS
        .iter()
        .find(|m| m.size == size && m.variant == variant)
}

impl BuiltinModel {
    pub fn onnx_path(&self) -> String {
        format!("{}.onnx", self.path)
    }

    pub fn card_path(&self) -> String {
        format!("{}.json", self.path)
    }

    pub fn name(&self) -> &'static str {
        self.path.rsplit('/').next().unwrap_or(self.path)
    }
}

/// A model card for an uploaded network that came without one: the current board, the
/// contract's four planes. The network's shapes are still checked against it.
pub fn default_card(name: &str, size: BoardSize, variant: Variant) -> String {
    serde_json::json!({
        "name": name,
        "board_size": size.n(),
        "variant": variant.to_string(),
        "planes": 4,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_model_is_in_the_models_folder_with_a_matching_card() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for model in BUILTIN_MODELS {
            assert!(root.join(model.onnx_path()).is_file(), "{}", model.path);
            let card = std::fs::read_to_string(root.join(model.card_path())).expect("card");
            let card = engine::network::ModelCard::from_json(&card).expect("valid card");
            card.check_game(model.size, model.variant)
                .expect("the card names the board the page uses it for");
        }
        assert!(builtin_for(BoardSize::Six, Variant::Reversed).is_none());
        assert_eq!(
            builtin_for(BoardSize::Eight, Variant::Standard).map(|m| m.name()),
            Some("az-8x8")
        );
    }

    #[test]
    fn a_default_card_describes_the_current_board() {
        let card = default_card("mine", BoardSize::Six, Variant::Reversed);
        let card = engine::network::ModelCard::from_json(&card).expect("valid card");
        assert_eq!(card.board(), Ok(BoardSize::Six));
        assert_eq!(card.variant(), Ok(Variant::Reversed));
    }
}
