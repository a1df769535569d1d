//! Networks from files, on the runtime the caller chose: the [`ModelSource`] of the
//! command-line tools. Each file is loaded and checked once and then shared by every game
//! and thread, since building a plan or a session costs far more than running it.
//!
//! A shipped network on tract, and an agent built on it through a player spec:
//!
//! ```
//! use engine::othello::{BoardSize, Position, Variant};
//! use engine::{Agent, PlayerSpec};
//! use tools::models::{ModelFiles, RuntimeChoice};
//!
//! // Paths are the caller's; a doctest runs in crates/tools.
//! let path = "../../models/az-6x6.onnx";
//! let models = ModelFiles::new(RuntimeChoice::Tract);
//! let network = models.load(std::path::Path::new(path))?;
//! assert_eq!(network.card().board()?, BoardSize::Six);
//!
//! let spec: PlayerSpec = format!("mcts:model={path},sims=16").parse()?;
//! let (mut agent, budget) = spec.build(1, &models)?;
//! let start = Position::start(BoardSize::Six, Variant::Standard);
//! let info = agent.think(&start, &budget, &mut |_| true)?;
//! assert_eq!(info.simulations, 16);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::onnxruntime::{environment, OnnxRuntime};
use engine::book::{Book, BookError};
use engine::network::{load_file, ModelError, Network, Runtime};
use engine::tract::Tract;
use engine::ModelSource;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::{Arc, Mutex, PoisonError};

/// Which library runs networks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RuntimeChoice {
    /// ONNX Runtime when its library can be found, tract otherwise.
    #[default]
    Auto,
    Tract,
    OnnxRuntime,
}

impl RuntimeChoice {
    /// The runtime itself; `Auto` decides here, once.
    pub fn runtime(self) -> Box<dyn Runtime> {
        match self {
            RuntimeChoice::Tract => Box::new(Tract),
            RuntimeChoice::OnnxRuntime => Box::new(OnnxRuntime),
            RuntimeChoice::Auto if environment().is_ok() => Box::new(OnnxRuntime),
            RuntimeChoice::Auto => Box::new(Tract),
        }
    }
}

impl FromStr for RuntimeChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<RuntimeChoice, String> {
        match text {
            "auto" => Ok(RuntimeChoice::Auto),
            "tract" => Ok(RuntimeChoice::Tract),
            "ort" | "onnxruntime" => Ok(RuntimeChoice::OnnxRuntime),
            other => Err(format!(
                "unknown runtime '{other}'; expected auto, tract or ort"
            )),
        }
    }
}

impl fmt::Display for RuntimeChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuntimeChoice::Auto => "auto",
            RuntimeChoice::Tract => "tract",
            RuntimeChoice::OnnxRuntime => "ort",
        })
    }
}

/// `model=` in a player spec is a path to an `.onnx` file with its card beside it.
#[derive(Debug)]
pub struct ModelFiles {
    runtime: Box<dyn Runtime>,
    loaded: Mutex<HashMap<String, Network>>,
    /// Books by path, read once (a failure too, so it is reported once).
    books: Mutex<HashMap<String, Result<Arc<Book>, BookError>>>,
}

impl ModelFiles {
    pub fn new(choice: RuntimeChoice) -> ModelFiles {
        ModelFiles::on(choice.runtime())
    }

    pub fn on(runtime: Box<dyn Runtime>) -> ModelFiles {
        ModelFiles {
            runtime,
            loaded: Mutex::new(HashMap::new()),
            books: Mutex::new(HashMap::new()),
        }
    }

    pub fn runtime_name(&self) -> &'static str {
        self.runtime.name()
    }

    pub fn load(&self, path: &Path) -> Result<Network, ModelError> {
        self.network(&path.to_string_lossy())
    }
}

impl ModelSource for ModelFiles {
    fn book(&self, name: &str) -> Result<Arc<Book>, BookError> {
        let mut books = self.books.lock().unwrap_or_else(PoisonError::into_inner);
        books
            .entry(name.to_owned())
            .or_insert_with(|| crate::book::read_book(Path::new(name)).map(Arc::new))
            .clone()
    }

    fn network(&self, model: &str) -> Result<Network, ModelError> {
        let mut loaded = self
            .loaded
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(network) = loaded.get(model) {
            return Ok(network.clone());
        }
        let network = load_file(self.runtime.as_ref(), Path::new(model))?;
        loaded.insert(model.to_owned(), network.clone());
        Ok(network)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtimes_are_named_as_on_the_command_line() {
        for choice in [
            RuntimeChoice::Auto,
            RuntimeChoice::Tract,
            RuntimeChoice::OnnxRuntime,
        ] {
            assert_eq!(choice.to_string().parse(), Ok(choice));
        }
        assert_eq!("onnxruntime".parse(), Ok(RuntimeChoice::OnnxRuntime));
        assert!("cuda".parse::<RuntimeChoice>().is_err());
    }

    #[test]
    fn a_file_is_loaded_once_and_a_missing_one_is_named() {
        let files = ModelFiles::new(RuntimeChoice::Tract);
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../models/tiny-random-6x6.onnx"
        );
        let first = files.network(path).expect("loads");
        let again = files.network(path).expect("loads");
        assert!(std::sync::Arc::ptr_eq(&first, &again));
        let error = files.network("/nonexistent/net.onnx").expect_err("missing");
        assert!(
            error.to_string().contains("/nonexistent/net.onnx"),
            "{error}"
        );
    }
}
