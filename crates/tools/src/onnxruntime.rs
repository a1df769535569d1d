//! The ONNX Runtime backend, for native self-play and arenas. The library is loaded at run
//! time from a shared object (the one the PyPI `onnxruntime` wheel ships in the trainer's
//! venv), so building needs nothing from outside the registries. On the small convolution
//! towers of the model contract it runs 5-9 times as many positions per second as tract on
//! one core; tract stays the runtime of the browser and the fallback when no library is
//! found.

use engine::network::{
    check_contract, check_output_sizes, check_score_shape, run_each, Model, ModelCard, ModelError,
    Network, Outputs, PlaneRunner, Runtime,
};
use ort::environment::Environment;
use ort::session::builder::GraphOptimizationLevel;
use ort::session::Session;
use ort::value::{TensorRef, ValueType};
use othello::BoardSize;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

// A pattern network's tables on this runtime: a part of the backend (it starts its session
// in the backend's environment, and the backend's loader dispatches to it), not a module
// beside it.
pub mod pattern;

const NAME: &str = "onnxruntime";

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
        .map_err(|e| ModelError::RuntimeUnavailable(NAME, e.clone()))
}

/// The ONNX Runtime [`Runtime`].
#[derive(Clone, Copy, Debug, Default)]
pub struct OnnxRuntime;

impl Runtime for OnnxRuntime {
    fn name(&self) -> &'static str {
        NAME
    }

    fn load(&self, onnx: &[u8], card: ModelCard) -> Result<Network, ModelError> {
        if card.is_pattern()? {
            return Ok(Arc::new(pattern::load(onnx, card)?));
        }
        Ok(Arc::new(OrtModel::from_bytes(onnx.to_vec(), card)?))
    }
}

/// A checked network: its bytes and card. Each runner makes its own session, so threads
/// never wait on each other.
#[derive(Debug)]
pub struct OrtModel {
    bytes: Vec<u8>,
    card: ModelCard,
    size: BoardSize,
    planes: usize,
    /// Whether the network has the optional `score` output.
    score: bool,
    /// Whether its batch dimension is fixed at 1 (an export without a dynamic batch axis),
    /// so a batch runs position by position.
    one_at_a_time: bool,
}

impl OrtModel {
    /// Checks `onnx` against `card` and the model contract by building one session.
    pub fn from_bytes(bytes: Vec<u8>, card: ModelCard) -> Result<OrtModel, ModelError> {
        let mut model = OrtModel {
            size: card.board()?,
            planes: card.inputs()?.len(),
            bytes,
            card,
            score: false,
            one_at_a_time: false,
        };
        model.card.variant()?;
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
        let input = shape(session.inputs()[0].name())?;
        model.one_at_a_time = input.first() == Some(&Some(1));
        check_contract(
            model.size,
            model.planes,
            &input,
            &shape("policy")?,
            &shape("value")?,
        )?;
        if session.outputs().iter().any(|o| o.name() == "score") {
            check_score_shape(&shape("score")?)?;
            model.score = true;
        }
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
}

impl Model for OrtModel {
    fn card(&self) -> &ModelCard {
        &self.card
    }

    fn runtime_name(&self) -> &'static str {
        NAME
    }

    fn runner(&self) -> Result<Box<dyn PlaneRunner>, ModelError> {
        Ok(Box::new(OrtRunner {
            session: self.session()?,
            size: self.size,
            planes: self.planes,
            score: self.score,
            one_at_a_time: self.one_at_a_time,
        }))
    }
}

/// A session of its own for one thread.
struct OrtRunner {
    session: Session,
    size: BoardSize,
    planes: usize,
    score: bool,
    one_at_a_time: bool,
}

impl PlaneRunner for OrtRunner {
    fn run_planes(&mut self, planes: &[f32], batch: usize) -> Result<Outputs, ModelError> {
        if self.one_at_a_time && batch != 1 {
            let per_position = self.planes * self.size.squares() as usize;
            let scored = self.score;
            return run_each(planes, batch, per_position, scored, |one| {
                self.run_batch(one, 1)
            });
        }
        self.run_batch(planes, batch)
    }
}

impl OrtRunner {
    fn run_batch(&mut self, planes: &[f32], batch: usize) -> Result<Outputs, ModelError> {
        let run = |e: ort::Error| ModelError::Run(e.to_string());
        let n = self.size.n() as usize;
        let input =
            TensorRef::from_array_view(([batch, self.planes, n, n], planes)).map_err(run)?;
        let results = self.session.run(ort::inputs![input]).map_err(run)?;
        let read = |name: &str| -> Result<Vec<f32>, ModelError> {
            let value = results
                .get(name)
                .ok_or_else(|| ModelError::Run(format!("no {name} output")))?;
            let (_, data) = value.try_extract_tensor::<f32>().map_err(run)?;
            Ok(data.to_vec())
        };
        let outputs = Outputs {
            policy: read("policy")?,
            value: read("value")?,
            score: if self.score {
                Some(read("score")?)
            } else {
                None
            },
        };
        check_output_sizes(&outputs, batch, self.size)?;
        Ok(outputs)
    }
}
