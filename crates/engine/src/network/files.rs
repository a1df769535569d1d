//! A network from its files: `model.onnx` and its card `model.json` beside it. The one
//! place the engine reads files; the native tools use it, and the page, whose worker gets a
//! network's bytes, does not.

use super::{ModelCard, ModelError, Network, Runtime};
use std::path::Path;

/// The card of `model.onnx` is `model.json` beside it.
pub fn card_path(model: &Path) -> std::path::PathBuf {
    model.with_extension("json")
}

/// Reads `model.onnx` and parses its card `model.json`.
pub fn read_model_files(path: &Path) -> Result<(Vec<u8>, ModelCard), ModelError> {
    let bytes = std::fs::read(path).map_err(|e| ModelError::Read {
        what: "model",
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    let card_file = card_path(path);
    let card_text = std::fs::read_to_string(&card_file).map_err(|e| ModelError::Read {
        what: "the model card",
        path: card_file.display().to_string(),
        message: format!("{e} (every model needs its card beside it)"),
    })?;
    let card =
        ModelCard::from_json(&card_text).map_err(|e| ModelError::from(e).in_file(&card_file))?;
    Ok((bytes, card))
}

/// Loads `model.onnx` with its card on `runtime`; errors name the file.
pub fn load_file(runtime: &dyn Runtime, path: &Path) -> Result<Network, ModelError> {
    let (bytes, card) = read_model_files(path)?;
    runtime.load(&bytes, card).map_err(|e| e.in_file(path))
}
