//! The tract runtime: runs contract networks everywhere, the browser's wasm included.
//!
//! A model is loaded once and made runnable for a batch of one: the batch symbol set to 1,
//! then decluttered and optimised (`into_optimized().into_runnable()`); a batch of positions
//! runs through that plan one position at a time. tract's fastest convolutions (its lazy
//! im2col and direct spatial kernels, `tract-core` `ops/cnn/conv/conv.rs`) are built for
//! a single image of known shape, so a plan for a symbolic batch, or for a fixed batch
//! above one, falls back to materialised im2col and works out shapes on every run. With
//! the shipped 4x32 `az-8x8` natively (`othello --runtime tract bench network`): the
//! symbolic plan ran 2,500 positions a second at any batch size, fixed plans for batches of
//! 2 to 64 ran 3,300-3,700, and the batch-of-one plan 6,400. A pattern network has a runner of its own (`pattern`).

pub mod pattern;
mod pattern_layers;

use crate::network::{
    check_contract, check_output_sizes, check_score_shape, run_each, Model, ModelCard, ModelError,
    Network, Outputs, PlaneRunner, Runtime,
};
use othello::BoardSize;
use std::collections::HashMap;
use std::sync::Arc;
use tract_onnx::prelude::*;
use tract_onnx::tract_hir::internal::DimLike;

type Plan = Arc<TypedSimplePlan>;

/// The tract [`Runtime`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Tract;

impl Runtime for Tract {
    fn name(&self) -> &'static str {
        "tract"
    }

    fn load(&self, onnx: &[u8], card: ModelCard) -> Result<Network, ModelError> {
        if card.is_pattern()? {
            return Ok(Arc::new(self::pattern::TractPatternModel::from_bytes(
                onnx, card,
            )?));
        }
        Ok(Arc::new(TractModel::from_bytes(onnx, card)?))
    }
}

/// A loaded, optimised network for one board size.
pub struct TractModel {
    compiled: Arc<Compiled>,
    card: ModelCard,
}

/// The plan and what reading its outputs needs; shared by every thread's runner, since
/// tract plans are immutable and run from many threads at once.
struct Compiled {
    plan: Plan,
    /// Whether `plan` is for one position (the model's batch dimension was a symbol, or
    /// 1), so a batch runs position by position; otherwise the plan is for the model's
    /// own fixed batch size and a batch runs whole.
    one_at_a_time: bool,
    size: BoardSize,
    planes: usize,
    policy_output: usize,
    value_output: usize,
    /// The optional `score` output's index.
    score_output: Option<usize>,
}

fn load_error(e: impl std::fmt::Display) -> ModelError {
    ModelError::Load(format!("{e:#}"))
}

impl TractModel {
    /// Loads `onnx` bytes described by `card`, checking that the network's inputs and
    /// outputs have the shapes the card's board needs.
    pub fn from_bytes(onnx: &[u8], card: ModelCard) -> Result<TractModel, ModelError> {
        let size = card.board()?;
        card.variant()?;
        let planes = card.inputs()?.len();
        let model = tract_onnx::onnx()
            .model_for_read(&mut std::io::Cursor::new(onnx))
            .map_err(load_error)?
            .into_typed()
            .map_err(load_error)?;
        let inputs = model.input_outlets().map_err(load_error)?;
        if inputs.len() != 1 {
            return Err(ModelError::Contract(format!(
                "expected one input (planes), found {}",
                inputs.len()
            )));
        }
        let outputs = model.output_outlets().map_err(load_error)?.to_vec();
        let find = |wanted: &str| {
            outputs.iter().position(|outlet| {
                let name = model.node(outlet.node).name.as_str();
                model.outlet_label(*outlet).unwrap_or(name) == wanted || name == wanted
            })
        };
        let (Some(policy_output), Some(value_output)) = (find("policy"), find("value")) else {
            return Err(ModelError::Contract(
                "the model needs outputs named 'policy' and 'value'".into(),
            ));
        };
        check_contract(
            size,
            planes,
            &shape_of(&model, inputs[0])?,
            &shape_of(&model, outputs[policy_output])?,
            &shape_of(&model, outputs[value_output])?,
        )?;
        let score_output = find("score");
        if let Some(score) = score_output {
            check_score_shape(&shape_of(&model, outputs[score])?)?;
        }
        // A batch dimension fixed at 1 (an export without a dynamic batch axis) runs
        // batches position by position too.
        let (one_at_a_time, model) = match shape_dim(&model, inputs[0], 0)? {
            Some(TDim::Sym(symbol)) => (
                true,
                model
                    .set_symbols(&HashMap::from([(symbol, TDim::Val(1))]))
                    .map_err(load_error)?,
            ),
            Some(TDim::Val(1)) => (true, model),
            _ => (false, model),
        };
        let plan = model
            .into_optimized()
            .and_then(tract_onnx::prelude::IntoRunnable::into_runnable)
            .map_err(load_error)?;
        Ok(TractModel {
            compiled: Arc::new(Compiled {
                plan,
                one_at_a_time,
                size,
                planes,
                policy_output,
                value_output,
                score_output,
            }),
            card,
        })
    }

    /// Runs the network on `batch` encoded positions.
    pub fn run_planes(&self, planes: &[f32], batch: usize) -> Result<Outputs, ModelError> {
        self.compiled.run(planes, batch)
    }
}

impl Compiled {
    fn run(&self, planes: &[f32], batch: usize) -> Result<Outputs, ModelError> {
        if !self.one_at_a_time || batch == 1 {
            return self.run_plan(planes, batch);
        }
        let per_position = self.planes * self.size.squares() as usize;
        let scored = self.score_output.is_some();
        run_each(planes, batch, per_position, scored, |one| {
            self.run_plan(one, 1)
        })
    }

    /// Runs the plan once on `batch` positions.
    fn run_plan(&self, planes: &[f32], batch: usize) -> Result<Outputs, ModelError> {
        let n = self.size.n() as usize;
        let input =
            tract_ndarray::Array4::from_shape_vec((batch, self.planes, n, n), planes.to_vec())
                .map_err(|e| ModelError::Run(e.to_string()))?;
        let results = self
            .plan
            .run(tvec!(input.into_tensor().into_tvalue()))
            .map_err(|e| ModelError::Run(format!("{e:#}")))?;
        let read = |index: usize, what: &str| -> Result<Vec<f32>, ModelError> {
            let tensor = results
                .get(index)
                .ok_or_else(|| ModelError::Run(format!("no {what} output")))?;
            Ok(tensor
                .to_plain_array_view::<f32>()
                .map_err(|e| ModelError::Run(e.to_string()))?
                .iter()
                .copied()
                .collect())
        };
        let outputs = Outputs {
            policy: read(self.policy_output, "policy")?,
            value: read(self.value_output, "value")?,
            score: self.score_output.map(|i| read(i, "score")).transpose()?,
        };
        check_output_sizes(&outputs, batch, self.size)?;
        Ok(outputs)
    }
}

impl PlaneRunner for Arc<Compiled> {
    fn run_planes(&mut self, planes: &[f32], batch: usize) -> Result<Outputs, ModelError> {
        self.run(planes, batch)
    }
}

impl Model for TractModel {
    fn card(&self) -> &ModelCard {
        &self.card
    }

    fn runtime_name(&self) -> &'static str {
        "tract"
    }

    fn runner(&self) -> Result<Box<dyn PlaneRunner>, ModelError> {
        Ok(Box::new(self.compiled.clone()))
    }
}

fn shape_dim(
    model: &TypedModel,
    outlet: OutletId,
    axis: usize,
) -> Result<Option<TDim>, ModelError> {
    let fact = model.outlet_fact(outlet).map_err(load_error)?;
    Ok(fact.shape.get(axis).cloned())
}

fn shape_of(model: &TypedModel, outlet: OutletId) -> Result<Vec<Option<usize>>, ModelError> {
    let fact = model.outlet_fact(outlet).map_err(load_error)?;
    Ok(fact.shape.iter().map(|d| d.to_usize().ok()).collect())
}

impl std::fmt::Debug for TractModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TractModel")
            .field("card", &self.card)
            .finish_non_exhaustive()
    }
}
