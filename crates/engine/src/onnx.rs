//! The network evaluator: an ONNX model following the model contract (DESIGN.md), run by
//! tract. Built once from bytes (so a web page can pass a fetched file), optimised for a
//! symbolic batch size, then reused for every batch.

use crate::evaluator::{
    check_batch_board, encode_planes, evaluations_from_outputs, EvalError, Evaluation, Evaluator,
};
use crate::model_card::ModelCard;
pub use crate::network::{card_path, ModelError};
use crate::network::{check_contract, read_model_files};
use othello::{BoardSize, Position, Variant};
use tract_onnx::prelude::*;
use tract_onnx::tract_hir::internal::DimLike;

type Plan = std::sync::Arc<TypedSimplePlan>;

/// A loaded, optimised network for one board size.
pub struct OnnxModel {
    plan: Plan,
    card: ModelCard,
    size: BoardSize,
    variant: Variant,
    planes: usize,
    policy_output: usize,
    value_output: usize,
}

impl OnnxModel {
    /// Loads `onnx` bytes described by `card`, checking that the network's inputs and
    /// outputs have the shapes the card's board needs.
    pub fn from_bytes(onnx: &[u8], card: ModelCard) -> Result<OnnxModel, ModelError> {
        let size = card.board()?;
        let variant = card.variant()?;
        let planes = card.planes;
        let model = tract_onnx::onnx()
            .model_for_read(&mut std::io::Cursor::new(onnx))
            .map_err(|e| ModelError::Load(format!("{e:#}")))?;
        let model = model
            .into_typed()
            .map_err(|e| ModelError::Load(format!("{e:#}")))?;
        let inputs = model
            .input_outlets()
            .map_err(|e| ModelError::Load(e.to_string()))?;
        if inputs.len() != 1 {
            return Err(ModelError::Contract(format!(
                "expected one input (planes), found {}",
                inputs.len()
            )));
        }
        let outputs = model
            .output_outlets()
            .map_err(|e| ModelError::Load(e.to_string()))?
            .to_vec();
        let mut policy_output = None;
        let mut value_output = None;
        for (i, outlet) in outputs.iter().enumerate() {
            let name = model.node(outlet.node).name.as_str();
            let label = model.outlet_label(*outlet).unwrap_or(name);
            if label == "policy" || name == "policy" {
                policy_output = Some(i);
            } else if label == "value" || name == "value" {
                value_output = Some(i);
            }
        }
        let (Some(policy_output), Some(value_output)) = (policy_output, value_output) else {
            return Err(ModelError::Contract(
                "the model needs outputs named 'policy' and 'value'".into(),
            ));
        };
        let input_shape = shape_of(&model, inputs[0])?;
        let policy_shape = shape_of(&model, outputs[policy_output])?;
        let value_shape = shape_of(&model, outputs[value_output])?;
        check_contract(size, planes, &input_shape, &policy_shape, &value_shape)?;
        let plan = model
            .into_optimized()
            .and_then(|m| m.into_runnable())
            .map_err(|e| ModelError::Load(format!("{e:#}")))?;
        Ok(OnnxModel {
            plan,
            card,
            size,
            variant,
            planes,
            policy_output,
            value_output,
        })
    }

    /// Loads `model.onnx` and its card `model.json` from beside it.
    pub fn load(path: &std::path::Path) -> Result<OnnxModel, ModelError> {
        let (bytes, card) = read_model_files(path)?;
        OnnxModel::from_bytes(&bytes, card).map_err(|e| e.in_file(path))
    }

    pub fn card(&self) -> &ModelCard {
        &self.card
    }

    pub fn board_size(&self) -> BoardSize {
        self.size
    }

    /// Runs the network on `batch` encoded positions (`planes` holds `batch * C * N * N`
    /// values) and returns the raw policy logits (`batch * (N*N + 1)`) and values.
    pub fn run_planes(
        &self,
        planes: &[f32],
        batch: usize,
    ) -> Result<(Vec<f32>, Vec<f32>), ModelError> {
        let n = self.size.n() as usize;
        let input =
            tract_ndarray::Array4::from_shape_vec((batch, self.planes, n, n), planes.to_vec())
                .map_err(|e| ModelError::Run(e.to_string()))?;
        let outputs = self
            .plan
            .run(tvec!(input.into_tensor().into_tvalue()))
            .map_err(|e| ModelError::Run(format!("{e:#}")))?;
        let read = |index: usize, width: usize, what: &str| -> Result<Vec<f32>, ModelError> {
            let tensor = outputs
                .get(index)
                .ok_or_else(|| ModelError::Run(format!("no {what} output")))?;
            let values: Vec<f32> = tensor
                .to_plain_array_view::<f32>()
                .map_err(|e| ModelError::Run(e.to_string()))?
                .iter()
                .copied()
                .collect();
            if values.len() != batch * width {
                return Err(ModelError::Run(format!(
                    "{what} output has {} values for a batch of {batch}",
                    values.len()
                )));
            }
            Ok(values)
        };
        Ok((
            read(self.policy_output, n * n + 1, "policy")?,
            read(self.value_output, 1, "value")?,
        ))
    }
}

fn shape_of(model: &TypedModel, outlet: OutletId) -> Result<Vec<Option<usize>>, ModelError> {
    let fact = model
        .outlet_fact(outlet)
        .map_err(|e| ModelError::Load(e.to_string()))?;
    Ok(fact.shape.iter().map(|d| d.to_usize().ok()).collect())
}

/// [`Evaluator`] over an [`OnnxModel`].
pub struct OnnxEvaluator {
    model: std::sync::Arc<OnnxModel>,
    planes: Vec<f32>,
}

impl OnnxEvaluator {
    pub fn new(model: std::sync::Arc<OnnxModel>) -> OnnxEvaluator {
        OnnxEvaluator {
            model,
            planes: Vec::new(),
        }
    }

    pub fn model(&self) -> &OnnxModel {
        &self.model
    }
}

impl Evaluator for OnnxEvaluator {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        let model = &self.model;
        check_batch_board(positions, model.size, model.variant)?;
        self.planes.clear();
        for pos in positions {
            encode_planes(pos, &mut self.planes);
        }
        let (logits, values) = model
            .run_planes(&self.planes, positions.len())
            .map_err(|e| EvalError::Failed(e.to_string()))?;
        Ok(evaluations_from_outputs(positions, &logits, &values))
    }

    fn describe(&self) -> String {
        format!("network {}", self.model.card.name)
    }
}
