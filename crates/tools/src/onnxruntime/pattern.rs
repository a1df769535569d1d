//! A pattern network through ONNX Runtime: the same tables as tract's
//! (`engine::tract::pattern`), built by another runtime, so the two can be held against each
//! other (docs/model-contract.md, "Pattern networks").

use super::environment;
use engine::network::{ModelCard, ModelError, PatternModel};
use engine::pattern::{PatternRunError, PatternRunner, PatternSet, GLOBAL_FEATURES};
use ort::session::Session;
use ort::value::TensorRef;

/// One session over the whole graph: pattern k's rows go to `pattern_k` (the global
/// network's, last, to `global`), every other input gets one row of zeros.
pub struct OrtPatterns {
    session: Session,
    /// (input, output, width) of each pattern, then of the global network where the card
    /// has one.
    networks: Vec<(String, String, usize)>,
    global: bool,
}

impl OrtPatterns {
    pub fn from_bytes(bytes: &[u8], set: &PatternSet) -> Result<Self, ModelError> {
        let load = |e: ort::Error| ModelError::Load(e.to_string());
        let session = Session::builder(environment()?)
            .map_err(load)?
            .with_intra_threads(1)
            .map_err(|e| load(e.into()))?
            .commit_from_memory(bytes)
            .map_err(load)?;
        let mut networks: Vec<(String, String, usize)> = set
            .patterns
            .iter()
            .enumerate()
            .map(|(k, p)| {
                (
                    format!("pattern_{k}"),
                    format!("out_{k}"),
                    2 * p.squares.len() + 1,
                )
            })
            .collect();
        if set.global {
            networks.push(("global".into(), "out_global".into(), GLOBAL_FEATURES.len()));
        }
        for (input, output, _) in &networks {
            if !session.inputs().iter().any(|i| i.name() == input)
                || !session.outputs().iter().any(|o| o.name() == output)
            {
                return Err(ModelError::Contract(format!(
                    "a pattern network needs an input {input} and an output {output}, one a network of its card"
                )));
            }
        }
        Ok(OrtPatterns {
            session,
            networks,
            global: set.global,
        })
    }
}

impl PatternRunner for OrtPatterns {
    fn run_pattern(
        &mut self,
        pattern: usize,
        rows: &[f32],
        count: usize,
    ) -> Result<Vec<f32>, PatternRunError> {
        let run = |e: ort::Error| PatternRunError::Run(e.to_string());
        let zeros: Vec<Vec<f32>> = self.networks.iter().map(|n| vec![0.0; n.2]).collect();
        let mut inputs = Vec::with_capacity(self.networks.len());
        for (k, (input, _, width)) in self.networks.iter().enumerate() {
            let value = if k == pattern {
                TensorRef::from_array_view(([count, *width], rows)).map_err(run)?
            } else {
                TensorRef::from_array_view(([1, *width], zeros[k].as_slice())).map_err(run)?
            };
            inputs.push((input.clone(), value));
        }
        let results = self.session.run(inputs).map_err(run)?;
        let name = &self.networks[pattern].1;
        let value = results
            .get(name.as_str())
            .ok_or_else(|| PatternRunError::Run(format!("no {name} output")))?;
        let (_, data) = value.try_extract_tensor::<f32>().map_err(run)?;
        Ok(data.to_vec())
    }

    /// The global network: the last of the session's networks.
    fn run_global(&mut self, rows: &[f32], count: usize) -> Result<Vec<f32>, PatternRunError> {
        if !self.global {
            return Err(PatternRunError::Contract(
                "the card names no global network".into(),
            ));
        }
        self.run_pattern(self.networks.len() - 1, rows, count)
    }
}

/// A pattern network on ONNX Runtime: its tables and session.
pub type OrtPatternModel = PatternModel<OrtPatterns>;

/// Loads a pattern network's ONNX on ONNX Runtime and builds its tables.
pub fn load(bytes: &[u8], card: ModelCard) -> Result<OrtPatternModel, ModelError> {
    let patterns = OrtPatterns::from_bytes(bytes, &card.pattern_set()?)?;
    PatternModel::build(card, patterns, "onnxruntime")
}

impl std::fmt::Debug for OrtPatterns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OrtPatterns").finish_non_exhaustive()
    }
}
