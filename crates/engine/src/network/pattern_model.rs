//! [`PatternModel`]: a loaded pattern network on any runtime, the [`Model`] a pattern
//! card's network loads as. Here rather than in `crate::pattern`, which stays below the
//! network interface: patterns know nothing of cards' files, runtimes or the `Model` trait.

use super::{Model, ModelCard, ModelError, PlaneRunner};
use crate::pattern::{
    direct_sums, direct_sums_as_trained, Entry, PatternRunError, PatternRunner, PatternTables,
};
use othello::Position;
use std::sync::{Arc, Mutex};

impl From<PatternRunError> for ModelError {
    /// The same words as a network of planes that fails the same way.
    fn from(e: PatternRunError) -> ModelError {
        match e {
            PatternRunError::Run(message) => ModelError::Run(message),
            PatternRunError::Contract(message) => ModelError::Contract(message),
        }
    }
}

/// What a caller that wants input planes hears from a pattern network.
fn not_planes() -> ModelError {
    ModelError::Contract(
        "a pattern network evaluates whole positions through its tables, not input planes".into(),
    )
}

/// A loaded pattern network on any runtime: its card, its tables, and the runner kept for
/// the checks that run the network itself ([`PatternModel::direct_sums`]).
pub struct PatternModel<R> {
    card: ModelCard,
    tables: Arc<PatternTables>,
    runner: Mutex<R>,
    runtime: &'static str,
}

impl<R: PatternRunner> PatternModel<R> {
    /// Builds the tables of `card`'s patterns with `runner`.
    pub fn build(
        card: ModelCard,
        mut runner: R,
        runtime: &'static str,
    ) -> Result<Self, ModelError> {
        let tables = PatternTables::build(card.pattern_set()?, &mut runner)?;
        Ok(PatternModel {
            card,
            tables: Arc::new(tables),
            runner: Mutex::new(runner),
            runtime,
        })
    }

    /// Runs the network itself on the instances of the position's eight images, averaged
    /// (no tables): what the tables must give, for checks.
    pub fn direct_sums(&self, pos: &Position) -> Result<Entry, ModelError> {
        let mut runner = self.lock_runner()?;
        Ok(direct_sums(self.tables.set(), &mut *runner, pos)?)
    }

    /// Runs the network itself on the position's instances as they stand: what PyTorch
    /// computes for it.
    pub fn direct_sums_as_trained(&self, pos: &Position) -> Result<Entry, ModelError> {
        let mut runner = self.lock_runner()?;
        Ok(direct_sums_as_trained(
            self.tables.set(),
            &mut *runner,
            pos,
        )?)
    }

    fn lock_runner(&self) -> Result<std::sync::MutexGuard<'_, R>, ModelError> {
        self.runner
            .lock()
            .map_err(|_| ModelError::Run("a thread died while running the network".into()))
    }
}

impl<R: PatternRunner + Send> Model for PatternModel<R> {
    fn card(&self) -> &ModelCard {
        &self.card
    }

    fn runtime_name(&self) -> &'static str {
        self.runtime
    }

    fn runner(&self) -> Result<Box<dyn PlaneRunner>, ModelError> {
        Err(not_planes())
    }

    fn pattern_tables(&self) -> Option<Arc<PatternTables>> {
        Some(self.tables.clone())
    }

    fn direct_pattern_sums(&self, pos: &Position) -> Option<Result<Entry, ModelError>> {
        Some(self.direct_sums(pos))
    }
}

impl<R> std::fmt::Debug for PatternModel<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternModel")
            .field("card", &self.card.name)
            .field("runtime", &self.runtime)
            .field("table_bytes", &self.tables.bytes())
            .finish_non_exhaustive()
    }
}
