//! Pattern networks: the evaluation every strong Othello program uses, learned by small
//! networks and served as tables (docs/model-contract.md, "Pattern networks";
//! docs/pattern.md).
//!
//! [`PatternSet`] is what the card states (patterns, instances, stages); a runtime that
//! holds the ONNX (tract in `crate::onnx`, ONNX Runtime in the tools crate) implements
//! [`PatternRunner`], and [`PatternTables::build`] runs it over every configuration once.
//! [`PatternEvaluator`] is what the search sees.

mod evaluator;
mod set;
mod tables;

pub use evaluator::{PatternEvaluator, Priors};
pub use set::{
    Instance, Pattern, PatternDef, PatternError, PatternSet, MAX_PATTERNS, MAX_SQUARES, MAX_STAGES,
};
pub use tables::{Entry, PatternRunner, PatternTables, BUILD_CHUNK};

use crate::network::ModelError;
use othello::Position;

/// The summed outputs of every instance, computed by running the network on the
/// position's instances: the slow, plain path the tables are checked against.
pub fn direct_sums(
    set: &PatternSet,
    runner: &mut dyn PatternRunner,
    pos: &Position,
) -> Result<Entry, ModelError> {
    let mut sums = [0.0f32; 2];
    for pattern in 0..set.patterns.len() {
        let rows = set.instance_rows(pos, pattern);
        let out = runner.run_pattern(pattern, &rows, set.instance_count(pattern))?;
        for pair in out.chunks_exact(2) {
            sums[0] += pair[0];
            sums[1] += pair[1];
        }
    }
    Ok(sums)
}

/// What a caller that wants input planes hears from a pattern network.
pub fn not_planes() -> ModelError {
    ModelError::Contract(
        "a pattern network evaluates whole positions through its tables, not input planes".into(),
    )
}

/// A loaded pattern network on any runtime: its card, its tables, and the runner kept for
/// the checks that run the network itself ([`PatternModel::direct_sums`]).
pub struct PatternModel<R> {
    card: crate::network::ModelCard,
    tables: std::sync::Arc<PatternTables>,
    runner: std::sync::Mutex<R>,
    runtime: &'static str,
}

impl<R: PatternRunner> PatternModel<R> {
    /// Builds the tables of `card`'s patterns with `runner`.
    pub fn build(
        card: crate::network::ModelCard,
        mut runner: R,
        runtime: &'static str,
    ) -> Result<Self, ModelError> {
        let tables = PatternTables::build(card.pattern_set()?, &mut runner)?;
        Ok(PatternModel {
            card,
            tables: std::sync::Arc::new(tables),
            runner: std::sync::Mutex::new(runner),
            runtime,
        })
    }

    /// Runs the network itself on the position's instances (no tables): for checks.
    pub fn direct_sums(&self, pos: &Position) -> Result<Entry, ModelError> {
        let mut runner = self
            .runner
            .lock()
            .map_err(|_| ModelError::Run("a thread died while running the network".into()))?;
        direct_sums(self.tables.set(), &mut *runner, pos)
    }
}

impl<R: PatternRunner + Send> crate::network::Model for PatternModel<R> {
    fn card(&self) -> &crate::network::ModelCard {
        &self.card
    }

    fn runtime_name(&self) -> &'static str {
        self.runtime
    }

    fn runner(&self) -> Result<Box<dyn crate::network::PlaneRunner>, ModelError> {
        Err(not_planes())
    }

    fn pattern_tables(&self) -> Option<std::sync::Arc<PatternTables>> {
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
