//! `othello model error` and `othello model error-set`: a network's margin estimates
//! against a set of positions with exact margins (`tools::exact_set`).

use anyhow::{anyhow, bail, Context, Result};
use std::path::{Path, PathBuf};
use tools::exact_set;
use tools::models::{ModelFiles, RuntimeChoice};

/// Prints each network's error against the set.
pub fn error(models: &[PathBuf], set: &Path, runtime: RuntimeChoice) -> Result<()> {
    let text =
        std::fs::read_to_string(set).with_context(|| format!("cannot read {}", set.display()))?;
    let positions = exact_set::read(&text).map_err(|e| anyhow!("{}: {e}", set.display()))?;
    let files = ModelFiles::new(runtime);
    println!("{} positions of {}", positions.len(), set.display());
    println!(
        "network                                   margin error (discs)  results right  by empties"
    );
    for model in models {
        let network = files.load(model)?;
        let size = network.card().board()?;
        if positions.iter().any(|p| p.position.size() != size) {
            bail!(
                "{}: a network for {size}, the set is for another board",
                model.display()
            );
        }
        let found = exact_set::measure(&network, &positions)
            .map_err(|e| anyhow!("{}: {e}", model.display()))?;
        let by_empties: Vec<String> = found
            .by_empties
            .iter()
            .map(|(empties, _, mae)| format!("{empties}:{mae:.2}"))
            .collect();
        println!(
            "{:<41} {:>21.2} {:>13.1}%  {}",
            model.display(),
            found.margin_mae,
            100.0 * found.results_right,
            by_empties.join(" ")
        );
    }
    Ok(())
}

/// Builds a set from game records and writes it.
pub fn build(games: &[PathBuf], min: u32, max: u32, out: &Path, comment: &str) -> Result<()> {
    if min > max {
        bail!("--min-empties {min} is above --max-empties {max}");
    }
    let mut all = Vec::new();
    for path in games {
        all.extend(crate::puzzles::read_game_file(path)?);
    }
    let set = exact_set::build(&all, min, max, &|done, total| {
        if done % 200 == 0 || done == total {
            eprint!("\rsolved {done} of {total}");
        }
    });
    eprintln!();
    let text = exact_set::write(&set, comment);
    std::fs::write(out, text).with_context(|| format!("cannot write {}", out.display()))?;
    println!(
        "{} positions from {} games written to {}",
        set.len(),
        all.len(),
        out.display()
    );
    Ok(())
}
