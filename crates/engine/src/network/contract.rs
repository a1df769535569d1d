//! The contract a runtime implements (docs/model-contract.md): a [`Runtime`] loads a
//! [`Network`], which gives each thread a [`PlaneRunner`] that returns [`Outputs`]; and the
//! checks every runtime applies, so that a network that breaks the contract is refused with
//! the same words whatever runs it: its shapes when it loads, its outputs' sizes on every
//! run, the board of every batch.

use super::{ModelCard, ModelError};
use crate::evaluator::EvalError;
use othello::{BoardSize, Position, Variant};
use std::sync::Arc;

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
}
