//! A network whatever runs it: tract (everywhere, wasm included) or ONNX Runtime (native
//! builds with the `ort` feature, when its shared library is found). Callers load a
//! [`Network`] once and ask it for one evaluator per thread; the search never knows which
//! runtime answers.

use crate::evaluator::Evaluator;
use crate::model_card::{CardError, ModelCard};
use crate::onnx::{OnnxEvaluator, OnnxModel};
use othello::BoardSize;
use std::path::Path;
use std::sync::Arc;

#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("cannot read the ONNX model: {0}")]
    Load(String),
    #[error(transparent)]
    Card(#[from] CardError),
    #[error("the model does not follow the contract: {0}")]
    Contract(String),
    #[error("running the model failed: {0}")]
    Run(String),
    #[error("cannot read {what} {path}: {message}")]
    Read {
        what: &'static str,
        path: String,
        message: String,
    },
    #[error("{path}: {source}")]
    InFile {
        path: String,
        #[source]
        source: Box<ModelError>,
    },
    #[error("ONNX Runtime is not available: {0}")]
    RuntimeUnavailable(String),
}

impl ModelError {
    /// The same error, saying which file it is about.
    pub fn in_file(self, path: &Path) -> ModelError {
        ModelError::InFile {
            path: path.display().to_string(),
            source: Box::new(self),
        }
    }
}

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

/// Checks a network's tensor shapes (`None`: a symbolic dimension) against the model
/// contract for `size` boards with `planes` input planes.
pub fn check_contract(
    size: BoardSize,
    planes: usize,
    input: &[Option<usize>],
    policy: &[Option<usize>],
    value: &[Option<usize>],
) -> Result<(), ModelError> {
    let n = size.n() as usize;
    if input.len() != 4 || input[1..] != [Some(planes), Some(n), Some(n)] {
        return Err(ModelError::Contract(format!(
            "input shape is {}, but a {size} board with {planes} planes needs [batch, {planes}, {n}, {n}]",
            describe_shape(input)
        )));
    }
    if policy.len() != 2 || policy[1] != Some(n * n + 1) {
        return Err(ModelError::Contract(format!(
            "policy shape is {}, but a {size} board needs [batch, {}]",
            describe_shape(policy),
            n * n + 1
        )));
    }
    if value.len() != 2 || value[1] != Some(1) {
        return Err(ModelError::Contract(format!(
            "value shape is {}, expected [batch, 1]",
            describe_shape(value)
        )));
    }
    Ok(())
}

fn describe_shape(shape: &[Option<usize>]) -> String {
    let dims: Vec<String> = shape
        .iter()
        .map(|d| d.map_or("batch".to_string(), |d| d.to_string()))
        .collect();
    format!("[{}]", dims.join(", "))
}

/// Which library runs the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Runtime {
    /// ONNX Runtime when its library can be found, tract otherwise.
    #[default]
    Auto,
    Tract,
    OnnxRuntime,
}

impl std::str::FromStr for Runtime {
    type Err = String;

    fn from_str(text: &str) -> Result<Runtime, String> {
        match text {
            "auto" => Ok(Runtime::Auto),
            "tract" => Ok(Runtime::Tract),
            "ort" | "onnxruntime" => Ok(Runtime::OnnxRuntime),
            other => Err(format!(
                "unknown runtime '{other}'; expected auto, tract or ort"
            )),
        }
    }
}

static PREFERRED: std::sync::OnceLock<Runtime> = std::sync::OnceLock::new();

impl Runtime {
    /// Sets the runtime that [`Runtime::preferred`] returns for the rest of the process
    /// (the CLI's `--runtime`); only the first call counts.
    pub fn set_preferred(runtime: Runtime) {
        let _ = PREFERRED.set(runtime);
    }

    /// What arena players and other deep callers load networks with.
    pub fn preferred() -> Runtime {
        *PREFERRED.get().unwrap_or(&Runtime::Auto)
    }
}

/// A loaded network, shared by threads; each thread asks it for its own evaluator.
#[derive(Clone)]
pub enum Network {
    Tract(Arc<OnnxModel>),
    #[cfg(feature = "ort")]
    Ort(Arc<crate::onnxruntime::OrtModel>),
}

impl Network {
    /// Loads `model.onnx` with its card, on `runtime`.
    pub fn load(path: &Path, runtime: Runtime) -> Result<Network, ModelError> {
        let (bytes, card) = read_model_files(path)?;
        Network::from_bytes(bytes, card, runtime).map_err(|e| e.in_file(path))
    }

    pub fn from_bytes(
        bytes: Vec<u8>,
        card: ModelCard,
        runtime: Runtime,
    ) -> Result<Network, ModelError> {
        match runtime {
            Runtime::Tract => Ok(Network::Tract(Arc::new(OnnxModel::from_bytes(
                &bytes, card,
            )?))),
            #[cfg(feature = "ort")]
            Runtime::OnnxRuntime => Ok(Network::Ort(Arc::new(
                crate::onnxruntime::OrtModel::from_bytes(bytes, card)?,
            ))),
            #[cfg(not(feature = "ort"))]
            Runtime::OnnxRuntime => Err(ModelError::RuntimeUnavailable(
                "this build has no ONNX Runtime support (the engine's `ort` feature)".into(),
            )),
            Runtime::Auto => {
                #[cfg(feature = "ort")]
                if crate::onnxruntime::environment().is_ok() {
                    return Network::from_bytes(bytes, card, Runtime::OnnxRuntime);
                }
                Network::from_bytes(bytes, card, Runtime::Tract)
            }
        }
    }

    pub fn card(&self) -> &ModelCard {
        match self {
            Network::Tract(m) => m.card(),
            #[cfg(feature = "ort")]
            Network::Ort(m) => m.card(),
        }
    }

    pub fn board_size(&self) -> BoardSize {
        match self {
            Network::Tract(m) => m.board_size(),
            #[cfg(feature = "ort")]
            Network::Ort(m) => m.board_size(),
        }
    }

    /// `tract` or `onnxruntime`, for logs.
    pub fn runtime_name(&self) -> &'static str {
        match self {
            Network::Tract(_) => "tract",
            #[cfg(feature = "ort")]
            Network::Ort(_) => "onnxruntime",
        }
    }

    /// An evaluator for one thread.
    pub fn evaluator(&self) -> Result<Box<dyn Evaluator + Send>, ModelError> {
        Ok(match self {
            Network::Tract(m) => Box::new(OnnxEvaluator::new(m.clone())),
            #[cfg(feature = "ort")]
            Network::Ort(m) => Box::new(crate::onnxruntime::OrtEvaluator::new(m.clone())?),
        })
    }

    /// Something that runs encoded planes for one thread: the raw logits and values, for
    /// parity checks and speed measurements.
    pub fn runner(&self) -> Result<Box<dyn PlaneRunner>, ModelError> {
        Ok(match self {
            Network::Tract(m) => Box::new(m.clone()),
            #[cfg(feature = "ort")]
            Network::Ort(m) => Box::new(crate::onnxruntime::OrtEvaluator::new(m.clone())?),
        })
    }
}

/// Runs `batch` encoded positions (`batch * C * N * N` values) through a network and
/// returns its raw policy logits (`batch * (N*N + 1)`) and values (`batch`).
pub trait PlaneRunner {
    fn run_planes(
        &mut self,
        planes: &[f32],
        batch: usize,
    ) -> Result<(Vec<f32>, Vec<f32>), ModelError>;
}

impl PlaneRunner for Arc<OnnxModel> {
    fn run_planes(
        &mut self,
        planes: &[f32],
        batch: usize,
    ) -> Result<(Vec<f32>, Vec<f32>), ModelError> {
        OnnxModel::run_planes(self, planes, batch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(dims: &[usize]) -> Vec<Option<usize>> {
        std::iter::once(None)
            .chain(dims.iter().map(|&d| Some(d)))
            .collect()
    }

    #[test]
    fn the_contract_names_the_shape_that_is_wrong() {
        let six = BoardSize::Six;
        let ok = check_contract(six, 4, &shape(&[4, 6, 6]), &shape(&[37]), &shape(&[1]));
        assert!(ok.is_ok());
        let err = check_contract(six, 4, &shape(&[4, 8, 8]), &shape(&[37]), &shape(&[1]))
            .expect_err("8x8 input on a 6x6 card");
        assert!(err.to_string().contains("[batch, 4, 8, 8]"), "{err}");
        let err = check_contract(six, 4, &shape(&[4, 6, 6]), &shape(&[65]), &shape(&[1]))
            .expect_err("8x8 policy");
        assert!(err.to_string().contains("needs [batch, 37]"), "{err}");
        let err = check_contract(six, 4, &shape(&[4, 6, 6]), &shape(&[37]), &shape(&[2]))
            .expect_err("two values");
        assert!(err.to_string().contains("value shape"), "{err}");
    }

    #[test]
    fn runtimes_are_named_as_on_the_command_line() {
        assert_eq!("auto".parse(), Ok(Runtime::Auto));
        assert_eq!("tract".parse(), Ok(Runtime::Tract));
        assert_eq!("ort".parse(), Ok(Runtime::OnnxRuntime));
        assert!("cuda".parse::<Runtime>().is_err());
    }
}
