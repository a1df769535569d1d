//! `othello model check`: a network's card, shapes, a sample evaluation, its speed, and
//! its parity with the outputs PyTorch saved beside it; `othello model error` and
//! `error-set` (in `exact.rs`): its evaluation against exact margins.

use anyhow::{bail, Result};
use engine::network::{load_file, Network, NetworkEvaluator};
use engine::tract::Tract;
use engine::Evaluator;
use othello::Position;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tools::arrays::NpzFile;
use tools::models::{ModelFiles, RuntimeChoice};
use tools::onnxruntime::{environment, OnnxRuntime};

#[derive(clap::Subcommand)]
pub enum ModelCommand {
    /// Print a model's card and shapes, a sample evaluation and evals/s at batch 1, 8, 32
    Check {
        /// The .onnx file (its card is the .json beside it)
        model: PathBuf,
        /// Also run the model on the inputs of this .npz (`planes`, as written by
        /// `python -m train.export`) and compare with its expected outputs (`policy`,
        /// `value`): fails when any output differs by more than --tolerance (absolute
        /// up to 1, relative above, as `train/export.py` checks)
        #[arg(long, value_name = "SAMPLES.npz")]
        compare: Option<PathBuf>,
        /// Largest difference --compare accepts
        #[arg(long, default_value_t = 1e-4)]
        tolerance: f32,
    },
    /// How far a network's margin estimate is from the exact margins of a set of positions
    /// (`data/exact-8x8.txt`, docs/pattern.md): the mean absolute error in discs, the share
    /// of results the value gets right, and the error by empties
    Error {
        /// The .onnx files (each with its card beside it)
        #[arg(required = true)]
        models: Vec<PathBuf>,
        /// The set: one position a line with its exact margin (`othello model error-set`)
        #[arg(long, default_value = "data/exact-8x8.txt")]
        set: PathBuf,
    },
    /// Builds a set of positions with their exact margins from GGF game records: every
    /// position within the empties given, with a choice of move, once up to symmetry
    ErrorSet {
        /// GGF files of games (one record after another, as arena.ggf; `.gz` read too)
        #[arg(long, required = true, num_args = 1..)]
        games: Vec<PathBuf>,
        #[arg(long, default_value_t = 18)]
        min_empties: u32,
        #[arg(long, default_value_t = 22)]
        max_empties: u32,
        /// Where to write the set
        #[arg(long)]
        out: PathBuf,
        /// A line of comment at the top of the file: where the games came from
        #[arg(long, default_value = "")]
        comment: String,
    },
}

pub fn run(command: ModelCommand, runtime: RuntimeChoice) -> Result<()> {
    let (model, samples, tolerance) = match command {
        ModelCommand::Check {
            model,
            compare,
            tolerance,
        } => (model, compare, tolerance),
        ModelCommand::Error { models, set } => {
            return crate::exact::error(&models, &set, runtime);
        }
        ModelCommand::ErrorSet {
            games,
            min_empties,
            max_empties,
            out,
            comment,
        } => return crate::exact::build(&games, min_empties, max_empties, &out, &comment),
    };
    let clock = Instant::now();
    let network = ModelFiles::new(runtime).load(&model)?;
    if network.pattern_tables().is_some() {
        if samples.is_some() {
            bail!("--compare takes a network of planes; a pattern network is checked against itself, instance by instance");
        }
        return pattern_check(&network, &model, clock.elapsed(), tolerance);
    }
    check(&network, &model)?;
    if let Some(samples) = samples {
        compare(&model, &samples, tolerance, runtime)?;
    }
    Ok(())
}

/// A pattern network: its card, what its tables cost, and the tables held against the
/// network run on each position's instances, over positions of every stage.
fn pattern_check(model: &Network, path: &Path, load: Duration, tolerance: f32) -> Result<()> {
    let card = model.card();
    let Some(tables) = model.pattern_tables() else {
        bail!("not a pattern network")
    };
    let set = tables.set();
    println!(
        "model: {} ({}), a pattern network",
        card.name,
        path.display()
    );
    println!("runtime: {}", model.runtime_name());
    println!("board: {} {}", set.size, card.variant);
    for pattern in &set.patterns {
        let squares: Vec<String> = pattern.squares.iter().map(ToString::to_string).collect();
        println!("pattern {}: {}", pattern.name, squares.join(" "));
    }
    println!(
        "{} patterns, {} instances, {} stages; tables {:.1} MB (each stage's built when a \
         search first reaches it), loaded in {:.0} ms",
        set.patterns.len(),
        set.instances.len(),
        set.stages,
        tables.bytes() as f64 / 1e6,
        load.as_secs_f64() * 1e3
    );
    for (what, value) in [
        ("network", &card.network),
        ("training", &card.training),
        ("strength", &card.strength),
    ] {
        if !value.is_null() {
            println!("{what}: {value}");
        }
    }
    let start = Position::start(set.size, card.variant()?);
    let (score, value) = tables.evaluate(&start);
    println!(
        "start position: value {value:+.3}, score {:+.1} discs for Black",
        score * set.size.squares() as f32
    );
    let mut rng = engine::Rng::new(7);
    let (mut checked, mut worst) = (0, 0.0f32);
    for _ in 0..20 {
        let mut pos = start;
        while !pos.is_game_over() {
            let table = tables.sums(&pos);
            let direct = model
                .direct_pattern_sums(&pos)
                .unwrap_or_else(|| Err(engine::network::ModelError::Run("no direct run".into())))?;
            for (t, d) in table.iter().zip(&direct) {
                worst = worst.max((t - d).abs());
            }
            checked += 1;
            let moves = pos.legal_move_list();
            let Some(&mv) = rng.choose(&moves) else { break };
            pos = pos.play(mv)?;
        }
    }
    // The entries are 16-bit integers: their rounding is allowed on top of the tolerance.
    let bound = tables.rounding_bound()[0].max(tables.rounding_bound()[1]) + tolerance;
    println!(
        "tables against the network on {checked} positions: largest difference {worst:.2e} \
         (the 16-bit entries' rounding allows {bound:.2e})"
    );
    if worst > bound {
        bail!("the tables differ from the network by {worst:.2e}, more than {bound:.2e}");
    }
    Ok(())
}

fn check(model: &Network, path: &Path) -> Result<()> {
    let card = model.card();
    let size = card.board()?;
    let n = size.n();
    println!("model: {} ({})", card.name, path.display());
    println!("runtime: {}", model.runtime_name());
    println!("board: {size} {}", card.variant);
    let mut eval = NetworkEvaluator::new(model)?;
    let start = Position::start(size, card.variant()?);
    let sample = eval.evaluate(&[start])?;
    let Some(sample) = sample.first() else {
        bail!("the model returned no evaluation")
    };
    let inputs = card.inputs()?;
    println!(
        "input: planes [batch, {}, {n}, {n}]; outputs: policy [batch, {}], value [batch, 1]{}",
        inputs.len(),
        size.squares() + 1,
        if sample.score.is_some() {
            ", score [batch, 1]"
        } else {
            ""
        }
    );
    println!("input planes: {inputs} ({})", inputs.names().join(", "));
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

    let priors: Vec<String> = start
        .legal_move_list()
        .iter()
        .zip(&sample.priors)
        .map(|(mv, p)| format!("{mv} {:.1}%", p * 100.0))
        .collect();
    println!(
        "start position: value {:+.3} for Black{}; priors {}",
        sample.value,
        sample.score.map_or(String::new(), |s| format!(
            ", score {:+.1} discs",
            s * size.squares() as f32
        )),
        priors.join(", ")
    );

    let mut runner = model.runner()?;
    for batch in [1usize, 8, 32] {
        let mut planes: Vec<f32> = Vec::new();
        for _ in 0..batch {
            inputs.encode(&start, &mut planes);
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
fn compare(path: &Path, samples: &Path, tolerance: f32, choice: RuntimeChoice) -> Result<()> {
    let networks = match choice {
        RuntimeChoice::Auto => {
            let mut all = vec![load_file(&Tract, path)?];
            if environment().is_ok() {
                all.push(load_file(&OnnxRuntime, path)?);
            }
            all
        }
        one => vec![ModelFiles::new(one).load(path)?],
    };
    for network in &networks {
        compare_on(network, samples, tolerance)?;
    }
    Ok(())
}

fn compare_on(model: &Network, samples: &Path, tolerance: f32) -> Result<()> {
    let mut npz = NpzFile::open(samples)?;
    let planes = npz.array::<f32>("planes")?;
    let n = model.card().board()?.n() as usize;
    let count = model.card().inputs()?.len();
    let want_shape = [count, n, n];
    if planes.ndim() != 4 || planes.shape()[1..] != want_shape {
        bail!(
            "{}: planes have shape {:?}, but this model needs [batch, {count}, {n}, {n}]",
            samples.display(),
            planes.shape(),
        );
    }
    let batch = planes.shape()[0];
    let planes: Vec<f32> = planes.iter().copied().collect();
    let outputs = model.runner()?.run_planes(&planes, batch)?;
    let mut worst = 0f32;
    let mut compared = 0;
    let mut compared_outputs = vec![("policy", &outputs.policy), ("value", &outputs.value)];
    // The optional score output: compared when the samples have it, and then required.
    if npz.names()?.iter().any(|n| n == "score") {
        match &outputs.score {
            Some(score) => compared_outputs.push(("score", score)),
            None => bail!(
                "{}: the samples have a score, but the model has no 'score' output",
                samples.display()
            ),
        }
    }
    for (name, got) in compared_outputs {
        let expected: Vec<f32> = npz.array::<f32>(name)?.iter().copied().collect();
        if expected.len() != got.len() {
            bail!(
                "{}: '{name}' has {} values; the model gives {}",
                samples.display(),
                expected.len(),
                got.len()
            );
        }
        let diff = largest_difference(&expected, got);
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

/// The largest difference between expected and computed outputs, absolute up to 1 and
/// relative above: a confident policy's logits run into the hundreds, where float32's
/// seven digits leave two correct runtimes more than 1e-4 apart. NaN anywhere is NaN.
fn largest_difference(expected: &[f32], got: &[f32]) -> f32 {
    expected
        .iter()
        .zip(got)
        .map(|(a, b)| (a - b).abs() / a.abs().max(1.0))
        .fold(0f32, |m, d| {
            if d.is_nan() || m.is_nan() {
                f32::NAN
            } else {
                m.max(d)
            }
        })
}

#[cfg(test)]
mod tests {
    use super::largest_difference;

    #[test]
    fn differences_are_absolute_below_one_and_relative_above() {
        assert!((largest_difference(&[0.5, -0.25], &[0.5003, -0.25]) - 3e-4).abs() < 1e-6);
        // 3e-4 on a logit of 300 is one part in a million.
        assert!(largest_difference(&[300.0], &[300.0003]) < 2e-6);
        assert!((largest_difference(&[-300.0], &[-300.3]) - 1e-3).abs() < 1e-5);
        assert!(largest_difference(&[1.0, f32::NAN], &[1.0, 2.0]).is_nan());
        assert_eq!(largest_difference(&[], &[]), 0.0);
    }
}
