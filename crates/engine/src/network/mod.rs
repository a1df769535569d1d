//! The contract between the search and whatever runs a network (docs/model-contract.md),
//! and nothing of any runtime: as KataGo's `nninterface.h` is to its backends, this module
//! is what tract (`crate::tract`) and ONNX Runtime (`tools::onnxruntime`) implement, and
//! all the search ever sees of them.
//!
//! A [`Runtime`] loads an ONNX file with its [`ModelCard`] into a [`Network`], shared by
//! threads; each thread asks the network for a [`PlaneRunner`] of its own and wraps it in a
//! [`NetworkEvaluator`], which encodes positions as planes and turns the raw outputs into
//! legal-move priors and values. The planes a network takes are its card's
//! ([`ModelCard::inputs`]), encoded by [`InputPlanes::encode`]. One file a job:
//!
//! - `contract.rs`: the contract itself: the traits a runtime implements, the outputs a
//!   run returns, and the checks of a network's shapes and outputs that every runtime
//!   applies, with the batch of one run position by position;
//! - `card.rs` the model card, `planes.rs` and `features.rs` the input planes;
//! - `files.rs`: a network read from its files (the engine's one place that reads files);
//! - `evaluator.rs`: [`NetworkEvaluator`], the network as the search's `Evaluator`;
//! - `pattern_model.rs`: a pattern network over any runner;
//! - `benchmark.rs`: how fast a network runs alone.

mod benchmark;
mod card;
mod contract;
mod evaluator;
pub mod features;
mod files;
mod pattern_model;
mod planes;

pub use benchmark::{runs_per_second, table_sums_per_second};
pub use card::{CardError, ModelCard};
pub use contract::{
    check_batch_board, check_contract, check_output_sizes, check_score_shape, run_each, Model,
    Network, Outputs, PlaneRunner, Runtime,
};
pub use evaluator::{legal_priors, NetworkEvaluator};
pub use files::{card_path, load_file, read_model_files};
pub use pattern_model::PatternModel;
pub use planes::{InputPlanes, Plane, PlaneValue, PlanesError, V1, V2};

use std::path::Path;

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
