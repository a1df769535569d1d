//! The contract between the search and whatever runs a network (docs/model-contract.md),
//! and nothing of any runtime: as KataGo's `nninterface.h` is to its backends,
//! this module is what tract (`crate::tract`) and ONNX Runtime (the tools crate) implement,
//! and all the search ever sees of them.
//!
//! A [`Runtime`] loads an ONNX file with its [`ModelCard`] into a [`Network`], shared by
//! threads; each thread asks the network for a [`PlaneRunner`] of its own and wraps it in a
//! [`NetworkEvaluator`], which encodes positions as planes and turns the raw outputs into
//! legal-move priors and values. The planes a network takes are its card's
//! ([`ModelCard::inputs`]), encoded by [`InputPlanes::encode`].

mod card;
pub mod features;
mod pattern_model;
mod planes;

pub use card::{CardError, ModelCard};
pub use pattern_model::PatternModel;
pub use planes::{InputPlanes, Plane, PlaneValue, PlanesError, V1, V2};

use crate::evaluator::{softmax, EvalError, Evaluation, Evaluator};
use othello::{BoardSize, Position, Variant};
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
    // The message carries the cause's text, so it is not an error `source` as well: a
    // report that prints the chain would say it twice.
    #[error("{path}: {cause}")]
    InFile {
        path: String,
        cause: Box<ModelError>,
    },
    #[error("{0} is not available: {1}")]
    RuntimeUnavailable(&'static str, String),
    #[error("no network named '{0}' is loaded")]
    NotLoaded(String),
}

impl ModelError {
    /// The same error, saying which file it is about.
    pub fn in_file(self, path: &Path) -> ModelError {
        ModelError::InFile {
            path: path.display().to_string(),
            cause: Box::new(self),
        }
    }
}

/// What one run of a network returns for a batch of `n` positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outputs {
    /// `n * (N*N + 1)` policy logits, row-major from a1, the pass last.
    pub policy: Vec<f32>,
    /// `n` values in [-1, 1] for the side to move.
    pub value: Vec<f32>,
    /// `n` final disc differences over the squares, for a network with a `score` output.
    pub score: Option<Vec<f32>>,
}

/// Runs encoded positions through a network: one per thread, never shared.
pub trait PlaneRunner: Send {
    /// `planes` holds `batch * C * N * N` values (see [`InputPlanes::encode`]).
    fn run_planes(&mut self, planes: &[f32], batch: usize) -> Result<Outputs, ModelError>;
}

/// A loaded, checked network that any number of threads use at once.
pub trait Model: Send + Sync {
    fn card(&self) -> &ModelCard;

    /// What runs it (`tract`, `onnxruntime`), for logs.
    fn runtime_name(&self) -> &'static str;

    /// A runner for one thread.
    fn runner(&self) -> Result<Box<dyn PlaneRunner>, ModelError>;

    /// A pattern network's tables (docs/model-contract.md, "Pattern networks"); `None`
    /// for a network of planes.
    fn pattern_tables(&self) -> Option<Arc<crate::pattern::PatternTables>> {
        None
    }

    /// A pattern network's summed outputs for `pos` computed by running the network on
    /// the position's instances, without the tables: what checks compare the tables with.
    fn direct_pattern_sums(&self, _pos: &Position) -> Option<Result<[f32; 2], ModelError>> {
        None
    }
}

pub type Network = Arc<dyn Model>;

/// A library that turns ONNX bytes and a card into a [`Network`].
pub trait Runtime: Send + Sync {
    fn name(&self) -> &'static str;

    /// Checks the bytes against the card and the contract, and prepares the network.
    fn load(&self, onnx: &[u8], card: ModelCard) -> Result<Network, ModelError>;
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

/// Loads `model.onnx` with its card on `runtime`; errors name the file.
pub fn load_file(runtime: &dyn Runtime, path: &Path) -> Result<Network, ModelError> {
    let (bytes, card) = read_model_files(path)?;
    runtime.load(&bytes, card).map_err(|e| e.in_file(path))
}

/// Checks the optional `score` output's shape: `[batch, 1]`.
pub fn check_score_shape(score: &[Option<usize>]) -> Result<(), ModelError> {
    if score.len() != 2 || score[1] != Some(1) {
        return Err(ModelError::Contract(format!(
            "score shape is {}, expected [batch, 1]",
            describe_shape(score)
        )));
    }
    Ok(())
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
    // A batch fixed above 1 would load and then fail on every other batch size: the
    // runtimes run a dynamic batch whole, and a batch of 1 position by position.
    if let Some(&Some(batch)) = input.first().filter(|_| input.len() == 4) {
        if batch != 1 {
            return Err(ModelError::Contract(format!(
                "the input's batch dimension is fixed at {batch}; the engine needs a dynamic batch or 1"
            )));
        }
    }
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

/// Masks illegal moves out of the `N*N + 1` logits of the model contract and softmaxes the
/// rest, in `legal_move_list()` order.
pub fn legal_priors(pos: &Position, logits: &[f32]) -> Vec<f32> {
    let size = pos.size();
    let moves = pos.legal_move_list();
    let picked: Vec<f32> = moves
        .iter()
        .map(|mv| logits.get(mv.policy_index(size)).copied().unwrap_or(0.0))
        .collect();
    softmax(&picked)
}

/// Refuses a batch that holds a position of another board or variant than the network's.
pub fn check_batch_board(
    positions: &[Position],
    size: BoardSize,
    variant: Variant,
) -> Result<(), EvalError> {
    match positions
        .iter()
        .find(|p| p.size() != size || p.variant() != variant)
    {
        Some(pos) => Err(EvalError::WrongBoard {
            expected: format!("{size} {variant}"),
            found: format!("{} {}", pos.size(), pos.variant()),
        }),
        None => Ok(()),
    }
}

/// [`Evaluator`] over any runtime's network, with a runner of its own.
pub struct NetworkEvaluator {
    runner: Box<dyn PlaneRunner>,
    size: BoardSize,
    variant: Variant,
    /// The card's planes: the encoder of this network.
    inputs: InputPlanes,
    description: String,
    planes: Vec<f32>,
}

impl NetworkEvaluator {
    pub fn new(network: &Network) -> Result<NetworkEvaluator, ModelError> {
        let card = network.card();
        Ok(NetworkEvaluator {
            runner: network.runner()?,
            size: card.board()?,
            variant: card.variant()?,
            inputs: card.inputs()?,
            description: format!("network {} ({})", card.name, network.runtime_name()),
            planes: Vec::new(),
        })
    }
}

impl Evaluator for NetworkEvaluator {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        check_batch_board(positions, self.size, self.variant)?;
        self.planes.clear();
        for pos in positions {
            self.inputs.encode(pos, &mut self.planes);
        }
        let outputs = self
            .runner
            .run_planes(&self.planes, positions.len())
            .map_err(|e| EvalError::Failed(e.to_string()))?;
        let width = self.size.squares() as usize + 1;
        let score = |i: usize| {
            outputs
                .score
                .as_ref()
                .and_then(|s| s.get(i))
                .map(|s| s.clamp(-1.0, 1.0))
        };
        Ok(positions
            .iter()
            .zip(outputs.policy.chunks(width).zip(&outputs.value))
            .enumerate()
            .map(|(i, (pos, (logits, value)))| Evaluation {
                priors: legal_priors(pos, logits),
                value: value.clamp(-1.0, 1.0),
                score: score(i),
            })
            .collect())
    }

    fn describe(&self) -> String {
        self.description.clone()
    }
}

/// How fast a network runs alone: `positions` (cycled) in batches of `batch`, timed over
/// about `time` after one untimed run (which may prepare the runtime's plan). Returns runs
/// a second; positions a second are that times `batch`. What `othello bench network` and
/// the browser worker's benchmark both measure.
pub fn runs_per_second(
    network: &Network,
    positions: &[Position],
    batch: usize,
    time: std::time::Duration,
) -> Result<f64, ModelError> {
    if batch == 0 || positions.is_empty() {
        return Err(ModelError::Run(
            "a benchmark needs at least one position a batch".into(),
        ));
    }
    let inputs = network.card().inputs()?;
    let mut planes = Vec::new();
    for pos in positions.iter().cycle().take(batch) {
        inputs.encode(pos, &mut planes);
    }
    let mut runner = network.runner()?;
    runner.run_planes(&planes, batch)?;
    let clock = web_time::Instant::now();
    let mut runs = 0u64;
    while runs == 0 || clock.elapsed() < time {
        runner.run_planes(&planes, batch)?;
        runs += 1;
    }
    Ok(runs as f64 / clock.elapsed().as_secs_f64())
}

/// Runs a batch of `batch` encoded positions one position at a time through `run_one` (a
/// runtime's plan for a batch of one) and joins the answers in order: what a network
/// exported for one position, or a runtime fastest at one (tract), does with a batch.
/// `scored`: the network has a score output, so even an empty batch answers with one.
pub fn run_each(
    planes: &[f32],
    batch: usize,
    per_position: usize,
    scored: bool,
    mut run_one: impl FnMut(&[f32]) -> Result<Outputs, ModelError>,
) -> Result<Outputs, ModelError> {
    if per_position == 0 || per_position * batch != planes.len() {
        return Err(ModelError::Run(format!(
            "{} input values do not make {batch} positions of {per_position}",
            planes.len()
        )));
    }
    let mut outputs = Outputs {
        score: scored.then(Vec::new),
        ..Outputs::default()
    };
    for position in planes.chunks_exact(per_position) {
        let one = run_one(position)?;
        outputs.policy.extend(one.policy);
        outputs.value.extend(one.value);
        if let (Some(all), Some(score)) = (outputs.score.as_mut(), one.score) {
            all.extend(score);
        }
    }
    Ok(outputs)
}

/// Checks that a runner's output for a batch has the contract's sizes.
pub fn check_output_sizes(
    outputs: &Outputs,
    batch: usize,
    size: BoardSize,
) -> Result<(), ModelError> {
    let width = size.squares() as usize + 1;
    let score = outputs.score.as_ref().map_or(batch, Vec::len);
    for (what, got, want) in [
        ("policy", outputs.policy.len(), batch * width),
        ("value", outputs.value.len(), batch),
        ("score", score, batch),
    ] {
        if got != want {
            return Err(ModelError::Run(format!(
                "{what} output has {got} values for a batch of {batch}"
            )));
        }
    }
    Ok(())
}

impl std::fmt::Debug for NetworkEvaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetworkEvaluator")
            .field("network", &self.description)
            .field("size", &self.size)
            .field("variant", &self.variant)
            .finish_non_exhaustive()
    }
}

/// A network by its card's name and its runtime, for logs and test failures.
impl std::fmt::Debug for dyn Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} on {}", self.card().name, self.runtime_name())
    }
}

impl std::fmt::Debug for dyn Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
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
        // The batch: dynamic or 1 plays, a batch fixed above 1 is refused with its size.
        let fixed = |batch: usize| [Some(batch), Some(4), Some(6), Some(6)];
        assert!(check_contract(six, 4, &fixed(1), &shape(&[37]), &shape(&[1])).is_ok());
        let err = check_contract(six, 4, &fixed(8), &shape(&[37]), &shape(&[1]))
            .expect_err("a batch fixed at 8");
        assert!(err.to_string().contains("fixed at 8"), "{err}");
    }

    /// A network that says the same for every position: the highest logit on the last
    /// square, value 0.25.
    struct Fixed(ModelCard);

    impl PlaneRunner for BoardSize {
        fn run_planes(&mut self, _: &[f32], batch: usize) -> Result<Outputs, ModelError> {
            let width = self.squares() as usize + 1;
            let mut row = vec![0.0; width];
            row[width - 2] = 5.0;
            Ok(Outputs {
                policy: row.repeat(batch),
                value: vec![0.25; batch],
                score: Some(vec![-0.5; batch]),
            })
        }
    }

    impl Model for Fixed {
        fn card(&self) -> &ModelCard {
            &self.0
        }

        fn runtime_name(&self) -> &'static str {
            "fixed"
        }

        fn runner(&self) -> Result<Box<dyn PlaneRunner>, ModelError> {
            Ok(Box::new(self.0.board()?))
        }
    }

    fn fixed(size: u8) -> Network {
        let card = format!(r#"{{"name": "fixed", "board_size": {size}, "variant": "standard"}}"#);
        Arc::new(Fixed(ModelCard::from_json(&card).expect("valid card")))
    }

    #[test]
    fn the_evaluator_masks_illegal_moves_and_keeps_values() {
        let mut eval = NetworkEvaluator::new(&fixed(6)).expect("builds");
        let start = Position::start(BoardSize::Six, Variant::Standard);
        let evals = eval.evaluate(&[start, start]).expect("evaluates");
        assert_eq!(evals.len(), 2);
        for e in evals {
            // f6 is not legal at the start, so its high logit counts for nothing.
            assert_eq!(e.priors, vec![0.25; 4]);
            assert_eq!(e.value, 0.25);
            assert_eq!(e.score, Some(-0.5));
        }
        assert_eq!(eval.describe(), "network fixed (fixed)");
    }

    /// A network that keeps the planes it is given, for its card's planes.
    struct Recording(ModelCard, Arc<std::sync::Mutex<Vec<f32>>>);

    struct Recorder(BoardSize, Arc<std::sync::Mutex<Vec<f32>>>);

    impl PlaneRunner for Recorder {
        fn run_planes(&mut self, planes: &[f32], batch: usize) -> Result<Outputs, ModelError> {
            self.1
                .lock()
                .expect("not poisoned")
                .extend_from_slice(planes);
            self.0.run_planes(planes, batch)
        }
    }

    impl Model for Recording {
        fn card(&self) -> &ModelCard {
            &self.0
        }

        fn runtime_name(&self) -> &'static str {
            "recording"
        }

        fn runner(&self) -> Result<Box<dyn PlaneRunner>, ModelError> {
            Ok(Box::new(Recorder(self.0.board()?, self.1.clone())))
        }
    }

    #[test]
    fn the_evaluator_feeds_the_planes_the_card_names() {
        let names = InputPlanes::v2().names();
        let card = format!(
            r#"{{"name": "v2", "board_size": 6, "variant": "standard", "plane_names": {names:?}}}"#
        );
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let card = ModelCard::from_json(&card).expect("valid card");
        let network: Network = Arc::new(Recording(card, seen.clone()));
        let start = Position::start(BoardSize::Six, Variant::Standard);
        let next = start.play(start.legal_move_list()[1]).expect("legal");
        NetworkEvaluator::new(&network)
            .expect("builds")
            .evaluate(&[start, next])
            .expect("evaluates");
        let mut want: Vec<f32> = Vec::new();
        InputPlanes::v2().encode(&start, &mut want);
        InputPlanes::v2().encode(&next, &mut want);
        assert_eq!(want.len(), 2 * 10 * 36);
        assert_eq!(*seen.lock().expect("not poisoned"), want);
    }

    #[test]
    fn the_evaluator_refuses_a_position_of_another_board() {
        let mut eval = NetworkEvaluator::new(&fixed(8)).expect("builds");
        let six = Position::start(BoardSize::Six, Variant::Standard);
        let err = eval.evaluate(&[six]).expect_err("wrong board");
        assert_eq!(
            err.to_string(),
            "the model is for 8x8 standard boards, not 6x6 standard"
        );
    }
}
