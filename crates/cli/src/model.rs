//! Loading networks for the CLI, and `othello model check`.

use anyhow::{bail, Context, Result};
use engine::evaluator::encode_planes;
use engine::network::{Network, Runtime};
use othello::Position;
use std::path::Path;
use std::time::{Duration, Instant};

/// Loads a network on the runtime the command line asked for (`--runtime`).
pub fn load_model(path: &Path) -> Result<Network> {
    Ok(Network::load(path, Runtime::preferred())?)
}

pub fn check(path: &Path) -> Result<()> {
    let model = load_model(path)?;
    let card = model.card();
    let size = model.board_size();
    let n = size.n();
    println!("model: {} ({})", card.name, path.display());
    println!("runtime: {}", model.runtime_name());
    println!("board: {size} {}", card.variant);
    println!(
        "input: planes [batch, {}, {n}, {n}]; outputs: policy [batch, {}], value [batch, 1]",
        card.planes,
        size.squares() + 1
    );
    if let Some(p) = card.parameters {
        println!("parameters: {p}");
    }
    if !card.network.is_null() {
        println!("network: {}", card.network);
    }
    if !card.training.is_null() {
        println!("training: {}", card.training);
    }
    if !card.strength.is_null() {
        println!("strength: {}", card.strength);
    }

    let start = Position::start(size, card.variant()?);
    let mut eval = model.evaluator()?;
    let sample = eval.evaluate(&[start])?;
    let Some(sample) = sample.first() else {
        bail!("the model returned no evaluation")
    };
    let priors: Vec<String> = start
        .legal_move_list()
        .iter()
        .zip(&sample.priors)
        .map(|(mv, p)| format!("{mv} {:.1}%", p * 100.0))
        .collect();
    println!(
        "start position: value {:+.3} for Black; priors {}",
        sample.value,
        priors.join(", ")
    );

    let mut runner = model.runner()?;
    for batch in [1usize, 8, 32] {
        let mut planes = Vec::new();
        for _ in 0..batch {
            encode_planes(&start, &mut planes);
        }
        let clock = Instant::now();
        let mut runs = 0u32;
        while clock.elapsed() < Duration::from_millis(700) || runs < 3 {
            runner.run_planes(&planes, batch)?;
            runs += 1;
        }
        let per_second = (runs as usize * batch) as f64 / clock.elapsed().as_secs_f64();
        println!("batch {batch:>2}: {per_second:>9.0} evals/s");
    }
    Ok(())
}

/// Runs the model on the samples' `planes` and compares the `policy` logits and `value`
/// the samples hold with what Rust computes: on the runtime asked for, or with `auto` on
/// tract and on ONNX Runtime when its library is there, since either may run the model.
pub fn compare(path: &Path, samples: &Path, tolerance: f32) -> Result<()> {
    let runtimes = match Runtime::preferred() {
        Runtime::Auto => {
            let mut all = vec![Runtime::Tract];
            if engine::onnxruntime::environment().is_ok() {
                all.push(Runtime::OnnxRuntime);
            }
            all
        }
        one => vec![one],
    };
    for runtime in runtimes {
        compare_on(&Network::load(path, runtime)?, samples, tolerance)?;
    }
    Ok(())
}

fn compare_on(model: &Network, samples: &Path, tolerance: f32) -> Result<()> {
    let bytes = std::fs::read(samples)
        .with_context(|| format!("cannot read samples {}", samples.display()))?;
    let arrays =
        engine::npz::read_npz(&bytes).with_context(|| format!("in {}", samples.display()))?;
    let find = |name: &str| arrays.iter().find(|a| a.name == name);
    let Some(planes) = find("planes") else {
        bail!("{}: no 'planes' array", samples.display());
    };
    let n = model.board_size().n() as usize;
    let want_shape = [model.card().planes, n, n];
    if planes.shape.len() != 4 || planes.shape[1..] != want_shape {
        bail!(
            "{}: planes have shape {:?}, but this model needs [batch, {}, {n}, {n}]",
            samples.display(),
            planes.shape,
            model.card().planes
        );
    }
    let batch = planes.shape[0];
    let (policy, value) = model.runner()?.run_planes(&planes.data, batch)?;
    let mut worst = 0f32;
    let mut compared = 0;
    for (name, got) in [("policy", &policy), ("value", &value)] {
        let Some(expected) = find(name) else {
            bail!("{}: no '{name}' array to compare with", samples.display());
        };
        if expected.data.len() != got.len() {
            bail!(
                "{}: '{name}' has {} values; the model gives {}",
                samples.display(),
                expected.data.len(),
                got.len()
            );
        }
        let diff = expected
            .data
            .iter()
            .zip(got.iter())
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, |m, d| {
                if d.is_nan() || m.is_nan() {
                    f32::NAN
                } else {
                    m.max(d)
                }
            });
        println!(
            "compare {name} ({}): largest difference {diff:.2e} over {batch} samples",
            model.runtime_name()
        );
        if diff.is_nan() || diff > tolerance {
            bail!("output '{name}' differs from the samples by {diff:.3e} > {tolerance:e}");
        }
        worst = worst.max(diff);
        compared += 1;
    }
    println!(
        "parity on {}: ok ({compared} outputs within {worst:.2e}, tolerance {tolerance:e})",
        model.runtime_name()
    );
    Ok(())
}
