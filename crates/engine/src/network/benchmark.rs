//! How fast a network runs alone, without the search: what `othello bench network` and the
//! browser worker's benchmark both measure.

use super::{ModelError, Network};
use othello::Position;

/// How fast a network runs alone: `positions` (cycled) in batches of `batch`, timed over
/// about `time` after one untimed run (which may prepare the runtime's plan). Returns runs
/// a second; positions a second are that times `batch`. What `othello bench network` and
/// the browser worker's benchmark both measure.
pub fn runs_per_second(
    network: &Network,
    positions: &[Position],
    batch: usize,
    time: std::time::Duration,
) -> Result<f64, ModelError> {
    if batch == 0 || positions.is_empty() {
        return Err(ModelError::Run(
            "a benchmark needs at least one position a batch".into(),
        ));
    }
    let inputs = network.card().inputs()?;
    let mut planes = Vec::new();
    for pos in positions.iter().cycle().take(batch) {
        inputs.encode(pos, &mut planes);
    }
    let mut runner = network.runner()?;
    runner.run_planes(&planes, batch)?;
    let clock = web_time::Instant::now();
    let mut runs = 0u64;
    while runs == 0 || clock.elapsed() < time {
        runner.run_planes(&planes, batch)?;
        runs += 1;
    }
    Ok(runs as f64 / clock.elapsed().as_secs_f64())
}

/// How fast a pattern network's tables value positions: `positions` (cycled), one at a
/// time as its search asks (a batch means nothing to a table read), timed over about
/// `time`. Returns positions a second. What `othello bench network` and the browser
/// worker's benchmark both measure for a pattern network.
pub fn table_sums_per_second(
    tables: &crate::pattern::PatternTables,
    positions: &[Position],
    time: std::time::Duration,
) -> f64 {
    // Tables build a stage when it is first read: built first, so that the timing counts
    // reads alone.
    tables.build_every_stage();
    let clock = web_time::Instant::now();
    let mut sums = 0u64;
    while sums == 0 || clock.elapsed() < time {
        for pos in positions {
            std::hint::black_box(tables.sums(std::hint::black_box(pos)));
        }
        sums += positions.len().max(1) as u64;
    }
    sums as f64 / clock.elapsed().as_secs_f64()
}
