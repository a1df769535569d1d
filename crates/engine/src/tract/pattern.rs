//! A pattern network through tract: the ONNX's per-pattern networks, one plan each, run
//! once over every configuration into [`PatternTables`] when the network loads
//! (docs/model-contract.md, "Pattern networks").

use crate::network::{ModelCard, ModelError, PatternModel};
use crate::pattern::{PatternLayers, PatternRunError, PatternRunner, PatternSet, GLOBAL_FEATURES};
use std::sync::Arc;
use tract_onnx::prelude::*;
use tract_onnx::tract_hir::internal::DimLike;

type Plan = Arc<TypedSimplePlan>;

fn load_error(e: impl std::fmt::Display) -> ModelError {
    ModelError::Load(format!("{e:#}"))
}

/// One plan a pattern: pattern k's plan computes `out_k` alone, the other inputs fed a
/// row of zeros (they lead nowhere in it). A set with a global network has one more, last:
/// `out_global` from `global`. A plan is optimised when first run: the tables
/// are walked from the layers where the graph is the plain chain, and the plans then serve
/// only the checks that run the network itself.
pub struct TractPatterns {
    model: TypedModel,
    outputs: Vec<OutletId>,
    plans: Vec<Option<Plan>>,
    layers: Vec<Option<PatternLayers>>,
    /// Each input's width, `2s + 1`, in the graph's input order.
    input_widths: Vec<usize>,
    /// For each pattern (and the global network, last), its input's place in the graph's
    /// inputs.
    input_of: Vec<usize>,
}

impl TractPatterns {
    /// Reads the ONNX and checks its inputs and outputs against the card's patterns.
    pub fn from_bytes(onnx: &[u8], set: &PatternSet) -> Result<Self, ModelError> {
        let onnx_reader = tract_onnx::onnx();
        let proto = onnx_reader
            .proto_model_for_read(&mut std::io::Cursor::new(onnx))
            .map_err(load_error)?;
        let layers = match &proto.graph {
            Some(graph) => super::pattern_layers::read(graph, set),
            None => vec![None; set.patterns.len()],
        };
        let model = onnx_reader
            .model_for_proto_model(&proto)
            .map_err(load_error)?
            .into_typed()
            .map_err(load_error)?;
        let inputs = model.input_outlets().map_err(load_error)?.to_vec();
        let outputs = model.output_outlets().map_err(load_error)?.to_vec();
        let label = |outlet: OutletId| {
            let name = model.node(outlet.node).name.as_str();
            model.outlet_label(outlet).unwrap_or(name).to_owned()
        };
        let input_names: Vec<String> = inputs.iter().map(|&o| label(o)).collect();
        let output_names: Vec<String> = outputs.iter().map(|&o| label(o)).collect();
        let mut input_widths = Vec::with_capacity(inputs.len());
        for &outlet in &inputs {
            let fact = model.outlet_fact(outlet).map_err(load_error)?;
            input_widths.push(
                fact.shape
                    .get(1)
                    .and_then(|d| d.to_usize().ok())
                    .unwrap_or(0),
            );
        }
        let mut pattern_outputs = Vec::with_capacity(set.patterns.len() + 1);
        let mut input_of = Vec::with_capacity(set.patterns.len() + 1);
        for (input_name, output_name, width, why) in networks(set) {
            let input = input_names
                .iter()
                .position(|n| *n == input_name)
                .ok_or_else(|| missing("input", &input_name, &input_names))?;
            let output = output_names
                .iter()
                .position(|n| *n == output_name)
                .ok_or_else(|| missing("output", &output_name, &output_names))?;
            let input_fact = model.outlet_fact(inputs[input]).map_err(load_error)?;
            if input_fact.rank() != 2 || input_widths[input] != width {
                return Err(ModelError::Contract(format!(
                    "input {input_name} has shape {:?}; {why}, so it needs [batch, {width}]",
                    input_fact.shape,
                )));
            }
            let output_fact = model.outlet_fact(outputs[output]).map_err(load_error)?;
            if output_fact.rank() != 2 || output_fact.shape[1].to_usize().ok() != Some(2) {
                return Err(ModelError::Contract(format!(
                    "output {output_name} has shape {:?}; it needs [batch, 2] (score, value logit)",
                    output_fact.shape
                )));
            }
            pattern_outputs.push(outputs[output]);
            input_of.push(input);
        }
        Ok(TractPatterns {
            model,
            plans: vec![None; pattern_outputs.len()],
            outputs: pattern_outputs,
            layers,
            input_widths,
            input_of,
        })
    }

    /// Pattern `k`'s plan, optimised on first use.
    fn plan(&mut self, k: usize) -> Result<Plan, PatternRunError> {
        if let Some(plan) = &self.plans[k] {
            return Ok(plan.clone());
        }
        let run_error = |e: TractError| PatternRunError::Run(format!("{e:#}"));
        let mut one = self.model.clone();
        one.select_output_outlets(&[self.outputs[k]])
            .map_err(run_error)?;
        let plan = one
            .into_optimized()
            .and_then(tract_onnx::prelude::IntoRunnable::into_runnable)
            .map_err(run_error)?;
        self.plans[k] = Some(plan.clone());
        Ok(plan)
    }
}

/// (input, output, width, what needs that width) for each pattern, then the global
/// network where the set has one: what the graph must hold.
fn networks(set: &PatternSet) -> Vec<(String, String, usize, String)> {
    let mut wanted: Vec<(String, String, usize, String)> = set
        .patterns
        .iter()
        .enumerate()
        .map(|(k, pattern)| {
            let width = 2 * pattern.squares.len() + 1;
            let why = format!(
                "pattern '{}' has {} squares",
                pattern.name,
                pattern.squares.len()
            );
            (format!("pattern_{k}"), format!("out_{k}"), width, why)
        })
        .collect();
    if set.global {
        let why = format!("the global network reads {GLOBAL_FEATURES:?}");
        wanted.push((
            "global".into(),
            "out_global".into(),
            GLOBAL_FEATURES.len(),
            why,
        ));
    }
    wanted
}

fn missing(what: &str, name: &str, found: &[String]) -> ModelError {
    let whose = if name.ends_with("global") {
        "its card's global network's"
    } else {
        "one a pattern of its card"
    };
    ModelError::Contract(format!(
        "a pattern network needs an {what} named {name}, {whose}; found {}",
        if found.is_empty() {
            "none".to_owned()
        } else {
            found.join(", ")
        }
    ))
}

impl PatternRunner for TractPatterns {
    fn run_pattern(
        &mut self,
        pattern: usize,
        rows: &[f32],
        count: usize,
    ) -> Result<Vec<f32>, PatternRunError> {
        let run_error = |e: &dyn std::fmt::Display| PatternRunError::Run(format!("{e:#}"));
        let own = self.input_of[pattern];
        let mut feed = TVec::new();
        for (index, &width) in self.input_widths.iter().enumerate() {
            let tensor = if index == own {
                tract_ndarray::Array2::from_shape_vec((count, width), rows.to_vec())
            } else {
                Ok(tract_ndarray::Array2::zeros((1, width)))
            }
            .map_err(|e| run_error(&e))?;
            feed.push(tensor.into_tensor().into_tvalue());
        }
        let results = self.plan(pattern)?.run(feed).map_err(|e| run_error(&e))?;
        let out = results
            .first()
            .ok_or_else(|| PatternRunError::Run(format!("out_{pattern} gave nothing")))?;
        Ok(out
            .to_plain_array_view::<f32>()
            .map_err(|e| run_error(&e))?
            .iter()
            .copied()
            .collect())
    }

    fn layers(&self, pattern: usize) -> Option<&PatternLayers> {
        self.layers.get(pattern)?.as_ref()
    }

    /// The global network: the plan after the patterns'.
    fn run_global(&mut self, rows: &[f32], count: usize) -> Result<Vec<f32>, PatternRunError> {
        if self.layers.len() + 1 != self.outputs.len() {
            return Err(PatternRunError::Contract(
                "the card names no global network".into(),
            ));
        }
        self.run_pattern(self.outputs.len() - 1, rows, count)
    }
}

/// A pattern network on tract: its tables and plans.
pub type TractPatternModel = PatternModel<TractPatterns>;

impl TractPatternModel {
    pub fn from_bytes(onnx: &[u8], card: ModelCard) -> Result<Self, ModelError> {
        let patterns = TractPatterns::from_bytes(onnx, &card.pattern_set()?)?;
        PatternModel::build(card, patterns, "tract")
    }
}

impl std::fmt::Debug for TractPatterns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TractPatterns").finish_non_exhaustive()
    }
}
