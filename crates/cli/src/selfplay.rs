//! `othello selfplay`: training games, written as `.npz` + `.json`.

use crate::model::load_model;
use anyhow::{bail, Context, Result};
use engine::evaluator::{EvalError, Evaluator};
use engine::selfplay::{run_selfplay, tally, write_selfplay, MakeEvaluator, SelfPlayConfig};
use engine::HeuristicEvaluator;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;
use std::time::Instant;

pub fn run(config: &SelfPlayConfig, model: &str, out: &Path, name: Option<&str>) -> Result<()> {
    if config.threads == 0 {
        bail!("--threads must be at least 1");
    }
    if config.simulations == 0 {
        bail!("--sims must be at least 1");
    }
    let name = name.map_or_else(|| format!("selfplay-{}", config.seed), str::to_owned);
    for ext in ["npz", "json"] {
        let path = out.join(format!("{name}.{ext}"));
        if path.exists() {
            bail!(
                "{} exists; self-play never overwrites data (use --name or another --out)",
                path.display()
            );
        }
    }
    let network = if model == "none" {
        None
    } else {
        let network = load_model(Path::new(model))?;
        network.card().check_game(config.size, config.variant)?;
        Some(network)
    };
    let seed = config.seed;
    let make = move || -> Result<Box<dyn Evaluator>, EvalError> {
        Ok(match &network {
            Some(net) => net
                .evaluator()
                .map_err(|e| EvalError::Failed(e.to_string()))?,
            // Generation 0: no network yet, so values come from random playouts.
            None => Box::new(HeuristicEvaluator::new(seed, 4)),
        })
    };
    let opponent = match &config.opponent {
        Some(path) => {
            let network = load_model(Path::new(path))?;
            network.card().check_game(config.size, config.variant)?;
            Some(network)
        }
        None => None,
    };
    let make_opponent = move || -> Result<Box<dyn Evaluator>, EvalError> {
        match &opponent {
            Some(net) => Ok(net
                .evaluator()
                .map_err(|e| EvalError::Failed(e.to_string()))?),
            None => Err(EvalError::Failed("no opponent network".into())),
        }
    };
    let bar = ProgressBar::new(config.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let clock = Instant::now();
    let records = run_selfplay(
        config,
        &make,
        config
            .opponent
            .is_some()
            .then_some(&make_opponent as MakeEvaluator),
        &|done| bar.set_position(done as u64),
    );
    bar.finish_and_clear();
    let records = records?;
    let seconds = clock.elapsed().as_secs_f64();
    let path = write_selfplay(out, &name, config, model, &records)
        .with_context(|| format!("cannot write self-play data to {}", out.display()))?;
    let positions: usize = records.iter().map(|r| r.samples.len()).sum();
    let t = tally(&records);
    println!(
        "{} games ({} Black wins, {} White wins, {} draws), {positions} positions in {seconds:.1} s ({:.2} games/s); wrote {}",
        records.len(),
        t.black_wins,
        t.white_wins,
        t.draws,
        records.len() as f64 / seconds.max(1e-9),
        path.display()
    );
    Ok(())
}
