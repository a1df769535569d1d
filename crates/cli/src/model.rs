//! Loading networks for the CLI, and `othello model check`.

use anyhow::{bail, Context, Result};
use engine::evaluator::{encode_planes, Evaluator};
use engine::model_card::ModelCard;
use engine::onnx::{OnnxEvaluator, OnnxModel};
use othello::Position;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The card of `model.onnx` is `model.json` beside it.
pub fn card_path(model: &Path) -> PathBuf {
    model.with_extension("json")
}

pub fn load_model(path: &Path) -> Result<Arc<OnnxModel>> {
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read model {}", path.display()))?;
    let card_file = card_path(path);
    let card_text = std::fs::read_to_string(&card_file).with_context(|| {
        format!(
            "cannot read the model card {} (every model needs one)",
            card_file.display()
        )
    })?;
    let card =
        ModelCard::from_json(&card_text).with_context(|| format!("in {}", card_file.display()))?;
    let model =
        OnnxModel::from_bytes(&bytes, card).with_context(|| format!("in {}", path.display()))?;
    Ok(Arc::new(model))
}

pub fn check(path: &Path) -> Result<()> {
    let model = load_model(path)?;
    let card = model.card();
    let size = model.board_size();
    let n = size.n();
    println!("model: {} ({})", card.name, path.display());
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
    let mut eval = OnnxEvaluator::new(model.clone());
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

    for batch in [1usize, 8, 32] {
        let mut planes = Vec::new();
        for _ in 0..batch {
            encode_planes(&start, &mut planes);
        }
        let clock = Instant::now();
        let mut runs = 0u32;
        while clock.elapsed() < Duration::from_millis(700) || runs < 3 {
            model.run_planes(&planes, batch)?;
            runs += 1;
        }
        let per_second = (runs as usize * batch) as f64 / clock.elapsed().as_secs_f64();
        println!("batch {batch:>2}: {per_second:>9.0} evals/s");
    }
    Ok(())
}
