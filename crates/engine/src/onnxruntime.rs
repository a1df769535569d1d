//! The network evaluator on ONNX Runtime, for native self-play and arenas. The library is
//! loaded at run time from a shared object (the one the PyPI `onnxruntime` wheel ships in
//! the trainer's venv), so building needs nothing from outside the registries. On the small
//! convolution towers of the model contract it runs about three times as many positions
//! per second as tract on one core; tract stays the evaluator of the browser and the
//! fallback when no library is found.

use crate::evaluator::{
    check_batch_board, encode_planes, evaluations_from_outputs, EvalError, Evaluation, Evaluator,
};
use crate::model_card::ModelCard;
use crate::network::{check_contract, ModelError, PlaneRunner};
use ort::environment::Environment;
use ort::session::builder::GraphOptimizationLevel;
use ort::session::Session;
use ort::value::{TensorRef, ValueType};
use othello::{BoardSize, Position, Variant};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// Where the library is looked for when `ORT_DYLIB_PATH` is not set: the trainer's venv
/// (`OTHELLO_VENV`, else `~/.cache/othello-zero/venv`, as `scripts/setup-python.sh` makes it).
pub fn library_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("ORT_DYLIB_PATH").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    let venv = std::env::var_os("OTHELLO_VENV")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .map(|home| PathBuf::from(home).join(".cache/othello-zero/venv"))
        })?;
    let lib = std::fs::read_dir(venv.join("lib")).ok()?;
    let mut candidates: Vec<PathBuf> = lib
        .flatten()
        .map(|python| python.path().join("site-packages/onnxruntime/capi"))
        .filter_map(|capi| std::fs::read_dir(capi).ok())
        .flat_map(|files| files.flatten().map(|f| f.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("libonnxruntime.so"))
        })
        .collect();
    candidates.sort();
    candidates.pop()
}

static ENVIRONMENT: OnceLock<Result<Environment, String>> = OnceLock::new();

/// The process's ONNX Runtime, loaded on first use; an error says where it was looked for.
pub fn environment() -> Result<&'static Environment, ModelError> {
    ENVIRONMENT
        .get_or_init(|| {
            let path = library_path().ok_or_else(|| {
                "no libonnxruntime found: set ORT_DYLIB_PATH, or install the trainer's venv \
                 (scripts/setup-python.sh), which has it"
                    .to_string()
            })?;
            ort::init_from(&path)
                .map_err(|e| format!("cannot load {}: {e}", path.display()))?
                .with_name("othello")
                .build()
                .map_err(|e| format!("cannot start {}: {e}", path.display()))
        })
        .as_ref()
        .map_err(|e| ModelError::RuntimeUnavailable(e.clone()))
}

/// A checked network: its bytes and card. Each [`OrtEvaluator`] makes its own session, so
/// threads never wait on each other.
pub struct OrtModel {
    bytes: Vec<u8>,
    card: ModelCard,
    size: BoardSize,
    variant: Variant,
    planes: usize,
}

impl OrtModel {
    /// Checks `onnx` against `card` and the model contract by building one session.
    pub fn from_bytes(bytes: Vec<u8>, card: ModelCard) -> Result<OrtModel, ModelError> {
        let model = OrtModel {
            size: card.board()?,
            variant: card.variant()?,
            planes: card.planes,
            bytes,
            card,
        };
        let session = model.session()?;
        if session.inputs().len() != 1 {
            return Err(ModelError::Contract(format!(
                "expected one input (planes), found {}",
                session.inputs().len()
            )));
        }
        let shape = |name: &str| -> Result<Vec<Option<usize>>, ModelError> {
            let outlet = session
                .inputs()
                .iter()
                .chain(session.outputs())
                .find(|o| o.name() == name)
                .ok_or_else(|| {
                    ModelError::Contract(
                        "the model needs an input 'planes' and outputs named 'policy' and 'value'"
                            .into(),
                    )
                })?;
            match outlet.dtype() {
                ValueType::Tensor { shape, .. } => {
                    Ok(shape.iter().map(|&d| usize::try_from(d).ok()).collect())
                }
                other => Err(ModelError::Contract(format!("'{name}' is a {other:?}"))),
            }
        };
        check_contract(
            model.size,
            model.planes,
            &shape(session.inputs()[0].name())?,
            &shape("policy")?,
            &shape("value")?,
        )?;
        Ok(model)
    }

    fn session(&self) -> Result<Session, ModelError> {
        let load = |e: ort::Error| ModelError::Load(e.to_string());
        // One thread per session: self-play and arenas run one session per thread.
        Session::builder(environment()?)
            .map_err(load)?
            .with_optimization_level(GraphOptimizationLevel::Level3)
            .map_err(|e| load(e.into()))?
            .with_intra_threads(1)
            .map_err(|e| load(e.into()))?
            .with_inter_threads(1)
            .map_err(|e| load(e.into()))?
            .commit_from_memory(&self.bytes)
            .map_err(load)
    }

    pub fn card(&self) -> &ModelCard {
        &self.card
    }

    pub fn board_size(&self) -> BoardSize {
        self.size
    }
}

/// [`Evaluator`] over an [`OrtModel`], with a session of its own.
pub struct OrtEvaluator {
    model: Arc<OrtModel>,
    session: Session,
    planes: Vec<f32>,
}

impl OrtEvaluator {
    pub fn new(model: Arc<OrtModel>) -> Result<OrtEvaluator, ModelError> {
        Ok(OrtEvaluator {
            session: model.session()?,
            model,
            planes: Vec::new(),
        })
    }
}

impl PlaneRunner for OrtEvaluator {
    fn run_planes(
        &mut self,
        planes: &[f32],
        batch: usize,
    ) -> Result<(Vec<f32>, Vec<f32>), ModelError> {
        let run = |e: ort::Error| ModelError::Run(e.to_string());
        let n = self.model.size.n() as usize;
        let input =
            TensorRef::from_array_view(([batch, self.model.planes, n, n], planes)).map_err(run)?;
        let outputs = self.session.run(ort::inputs![input]).map_err(run)?;
        let read = |name: &str, width: usize| -> Result<Vec<f32>, ModelError> {
            let value = outputs
                .get(name)
                .ok_or_else(|| ModelError::Run(format!("no {name} output")))?;
            let (_, data) = value.try_extract_tensor::<f32>().map_err(run)?;
            if data.len() != batch * width {
                return Err(ModelError::Run(format!(
                    "{name} output has {} values for a batch of {batch}",
                    data.len()
                )));
            }
            Ok(data.to_vec())
        };
        Ok((read("policy", n * n + 1)?, read("value", 1)?))
    }
}

impl Evaluator for OrtEvaluator {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        check_batch_board(positions, self.model.size, self.model.variant)?;
        let mut planes = std::mem::take(&mut self.planes);
        planes.clear();
        for pos in positions {
            encode_planes(pos, &mut planes);
        }
        let result = self.run_planes(&planes, positions.len());
        self.planes = planes;
        let (logits, values) = result.map_err(|e| EvalError::Failed(e.to_string()))?;
        Ok(evaluations_from_outputs(positions, &logits, &values))
    }

    fn describe(&self) -> String {
        format!("network {} (onnxruntime)", self.model.card.name)
    }
}
