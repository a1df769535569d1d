//! Pattern networks: the evaluation every strong Othello program uses, learned by small
//! networks and served as tables (docs/model-contract.md, "Pattern networks";
//! docs/pattern.md).
//!
//! [`PatternSet`] is what the card states (patterns, instances, stages); a runtime that
//! holds the ONNX (tract in `crate::tract`, ONNX Runtime in the tools crate) implements
//! [`PatternRunner`], and [`PatternTables::build`] runs it over every configuration once (or,
//! where the runner gives the layers' weights, walks them: `walk`) and averages each
//! pattern's entries over the symmetries that keep its squares.
//! [`PatternEvaluator`] is what the search sees.
//!
//! The module sits below the network interface (`crate::network`), which names its types
//! (a card's patterns, `Model::pattern_tables`): a loaded pattern network, the `Model` that
//! puts a card, its tables and a runner together, is `network::PatternModel`.

mod evaluator;
mod lookup;
mod set;
mod walk;

pub use evaluator::{PatternEvaluator, Priors};
pub use lookup::{
    ChildReading, Entry, PatternRunError, PatternRunner, PatternTables, PositionIndices,
    BUILD_CHUNK,
};
pub use set::{
    GlobalDef, Instance, Pattern, PatternDef, PatternError, PatternSet, GLOBAL_FEATURES,
    MAX_PATTERNS, MAX_SQUARES, MAX_STAGES, MOBILITY_SCALE,
};
pub use walk::{Dense, LayersError, PatternLayers};

/// Tables of random entries, for the tests of whatever reads them.
#[cfg(test)]
pub(crate) use lookup::tests::random_tables;

use othello::{Position, Symmetry};

/// The summed outputs of every instance, computed by running the network on the
/// position's instances, averaged over the position's eight images under the board's
/// symmetries (what the contract calls a pattern network's sums): the slow, plain path the
/// tables are checked against. [`direct_sums_as_trained`] is one orientation's.
pub fn direct_sums(
    set: &PatternSet,
    runner: &mut dyn PatternRunner,
    pos: &Position,
) -> Result<Entry, PatternRunError> {
    let mut sums = [0.0f32; 2];
    for symmetry in Symmetry::ALL {
        let [s, v] = direct_sums_as_trained(set, runner, &symmetry.position(pos))?;
        sums[0] += s / 8.0;
        sums[1] += v / 8.0;
    }
    Ok(sums)
}

/// The summed outputs of every instance in the position as it stands, and the global
/// network's where the set has one: what PyTorch's network computes for it, before any
/// averaging over the board's symmetries.
pub fn direct_sums_as_trained(
    set: &PatternSet,
    runner: &mut dyn PatternRunner,
    pos: &Position,
) -> Result<Entry, PatternRunError> {
    let mut sums = [0.0f32; 2];
    for pattern in 0..set.patterns.len() {
        let rows = set.instance_rows(pos, pattern);
        let out = runner.run_pattern(pattern, &rows, set.instance_count(pattern))?;
        for pair in out.chunks_exact(2) {
            sums[0] += pair[0];
            sums[1] += pair[1];
        }
    }
    if set.global {
        let out = runner.run_global(&set.global_row_of(pos), 1)?;
        if let [s, v] = out[..] {
            sums[0] += s;
            sums[1] += v;
        } else {
            return Err(PatternRunError::Contract(format!(
                "out_global gave {} values for one row; expected 2",
                out.len()
            )));
        }
    }
    Ok(sums)
}
