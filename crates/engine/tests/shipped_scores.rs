//! Every shipped network's two heads speak for the same side: where the value head expects
//! the side to move to win, its score head expects a positive final margin for it, in the
//! network's own variant's sense (docs/model-contract.md, `score`). A reversed game is won by
//! the smaller count, so its margin is the opponent's discs minus one's own; issue 68's fifth
//! look found `az-8x8-reversed` saying "6% chance to win, expected result ~+9 discs".

#![cfg(feature = "tract")]

use engine::evaluator::Evaluator;
use engine::network::{read_model_files, NetworkEvaluator, Runtime};
use engine::tract::Tract;
use engine::Rng;
use othello::{BoardSize, Position, Variant};
use std::path::PathBuf;

/// Positions of seeded random games between 12 and 40 discs, where the game is open.
fn midgame_positions(size: BoardSize, variant: Variant, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..40 {
        let mut pos = Position::start(size, variant);
        while !pos.is_game_over() {
            let discs = size.squares() - pos.empty_count();
            if (12..=40).contains(&discs) && !pos.legal_moves().is_empty() {
                out.push(pos);
            }
            let moves = pos.legal_move_list();
            pos = pos.play_unchecked(*rng.choose(&moves).expect("a move"));
        }
    }
    out
}

/// Among positions where the value head is confident (|value| > 0.3), the share whose
/// score has the value's sign.
fn heads_agree(model: &str, size: BoardSize, variant: Variant) -> f64 {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../models")
        .join(model);
    let (bytes, card) = read_model_files(&path).expect("the shipped model's files");
    let network = Tract.load(&bytes, card).expect("loads");
    let mut evaluator = NetworkEvaluator::new(&network).expect("an evaluator");
    let positions = midgame_positions(size, variant, 68);
    let evals = evaluator.evaluate(&positions).expect("evaluates");
    let confident: Vec<_> = evals.iter().filter(|e| e.value.abs() > 0.3).collect();
    assert!(
        confident.len() >= 50,
        "{model}: {} confident positions",
        confident.len()
    );
    let agree = confident
        .iter()
        .filter(|e| e.score.expect("a score head") * e.value > 0.0)
        .count();
    agree as f64 / confident.len() as f64
}

/// Each network's heads agree in sign in more than four confident positions of five.
fn assert_heads_agree(models: [(&str, BoardSize); 2], variant: Variant) {
    for (model, size) in models {
        let share = heads_agree(model, size, variant);
        assert!(
            share > 0.8,
            "{model}: score and value agree in {share:.2} of positions"
        );
    }
}

#[test]
fn the_reversed_networks_score_and_value_agree_in_sign() {
    let models = [
        ("az-8x8-reversed.onnx", BoardSize::Eight),
        ("az-6x6-reversed.onnx", BoardSize::Six),
    ];
    assert_heads_agree(models, Variant::Reversed);
}

#[test]
fn the_standard_networks_score_and_value_agree_in_sign() {
    let models = [
        ("az-8x8.onnx", BoardSize::Eight),
        ("az-6x6.onnx", BoardSize::Six),
    ];
    assert_heads_agree(models, Variant::Standard);
}
