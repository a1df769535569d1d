//! The tract runtime on real ONNX files: the tiny contract-following models in models/.
#![cfg(feature = "tract")]

use engine::evaluator::Evaluator;
use engine::mcts::{Mcts, MctsConfig};
use engine::network::{InputPlanes, ModelCard, ModelError, Network, NetworkEvaluator};
use engine::tract::TractModel;
use engine::{Agent, Budget, Rng};
use othello::testing::{random_position, Stop};
use othello::{BoardSize, Position, Variant};
use std::path::PathBuf;
use std::sync::Arc;

fn repo_file(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

fn load(name: &str) -> TractModel {
    let bytes = std::fs::read(repo_file(&format!("models/{name}.onnx"))).expect("model file");
    let card = std::fs::read_to_string(repo_file(&format!("models/{name}.json"))).expect("card");
    TractModel::from_bytes(&bytes, ModelCard::from_json(&card).expect("valid card")).expect("loads")
}

fn evaluator(name: &str) -> NetworkEvaluator {
    let network: Network = Arc::new(load(name));
    NetworkEvaluator::new(&network).expect("an evaluator")
}

#[derive(serde::Deserialize)]
struct Samples {
    batch: usize,
    planes: Vec<f32>,
    policy: Vec<f32>,
    value: Vec<f32>,
}

#[test]
fn the_network_computes_what_numpy_computes() {
    for n in [8, 6] {
        let model = load(&format!("tiny-random-{n}x{n}"));
        let text = std::fs::read_to_string(repo_file(&format!(
            "crates/engine/tests/data/tiny-random-{n}x{n}.samples.json"
        )))
        .expect("samples");
        let samples: Samples = serde_json::from_str(&text).expect("valid samples");
        let outputs = model
            .run_planes(&samples.planes, samples.batch)
            .expect("runs");
        let (policy, value) = (outputs.policy, outputs.value);
        assert_eq!(policy.len(), samples.policy.len());
        for (got, want) in policy
            .iter()
            .zip(&samples.policy)
            .chain(value.iter().zip(&samples.value))
        {
            assert!((got - want).abs() < 1e-4, "{got} vs {want}");
        }
    }
}

/// `count` positions that are not over, each after up to 39 random moves.
fn random_positions(size: BoardSize, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let plies = Stop::AfterPlies(rng.below(40));
        let pos = random_position(size, Variant::Standard, plies, |n| rng.below(n));
        if !pos.is_game_over() {
            out.push(pos);
        }
    }
    out
}

#[test]
fn a_batch_evaluates_as_its_positions_do_one_by_one() {
    let mut eval = evaluator("tiny-random-8x8");
    let positions = random_positions(BoardSize::Eight, 32, 1);
    let batched = eval.evaluate(&positions).expect("evaluates");
    for (pos, together) in positions.iter().zip(&batched) {
        let alone = &eval.evaluate(std::slice::from_ref(pos)).expect("evaluates")[0];
        assert!((alone.value - together.value).abs() < 1e-5);
        for (a, b) in alone.priors.iter().zip(&together.priors) {
            assert!((a - b).abs() < 1e-5);
        }
    }
}

#[test]
fn priors_cover_exactly_the_legal_moves_and_sum_to_one() {
    let mut eval = evaluator("tiny-random-6x6");
    let positions = random_positions(BoardSize::Six, 50, 2);
    for (pos, e) in positions
        .iter()
        .zip(eval.evaluate(&positions).expect("evaluates"))
    {
        assert_eq!(e.priors.len(), pos.legal_move_list().len());
        assert!((e.priors.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert!(e.priors.iter().all(|p| *p > 0.0));
        assert!((-1.0..=1.0).contains(&e.value));
    }
}

#[test]
fn the_input_planes_follow_the_contract() {
    let pos = Position::start(BoardSize::Six, Variant::Standard);
    let mut planes: Vec<f32> = Vec::new();
    InputPlanes::v1().encode(&pos, &mut planes);
    assert_eq!(planes.len(), 4 * 36);
    let plane = |k: usize, col: usize, row: usize| planes[k * 36 + row * 6 + col];
    // Black to move owns c4 and d3; White has c3 and d4; c2 is legal (column c, row 2).
    assert_eq!(plane(0, 2, 3), 1.0);
    assert_eq!(plane(1, 2, 2), 1.0);
    assert_eq!(plane(2, 2, 1), 1.0);
    assert_eq!(planes[36 * 3..].iter().sum::<f32>(), 36.0);
    assert_eq!(planes[36 * 2..36 * 3].iter().sum::<f32>(), 4.0);
}

#[test]
fn a_model_for_another_board_is_refused_with_the_reason() {
    let bytes = std::fs::read(repo_file("models/tiny-random-8x8.onnx")).expect("model");
    let card = std::fs::read_to_string(repo_file("models/tiny-random-6x6.json")).expect("card");
    let err = TractModel::from_bytes(&bytes, ModelCard::from_json(&card).expect("card"))
        .expect_err("refused");
    assert!(matches!(err, ModelError::Contract(_)), "{err}");
    assert!(
        err.to_string().contains("input shape is [batch, 4, 8, 8]"),
        "{err}"
    );
    let mut eval = evaluator("tiny-random-6x6");
    let err = eval
        .evaluate(&[Position::start(BoardSize::Eight, Variant::Standard)])
        .unwrap_err();
    assert!(err.to_string().contains("6x6"), "{err}");
}

#[test]
fn a_corrupt_model_file_is_an_error_not_a_crash() {
    let card = std::fs::read_to_string(repo_file("models/tiny-random-8x8.json")).expect("card");
    let card = ModelCard::from_json(&card).expect("card");
    let bytes = std::fs::read(repo_file("models/tiny-random-8x8.onnx")).expect("model");
    for corrupt in [&b"not an onnx file"[..], &bytes[..bytes.len() / 2], &[]] {
        let err = TractModel::from_bytes(corrupt, card.clone()).expect_err("refused");
        assert!(matches!(err, ModelError::Load(_)), "{err}");
    }
}

#[test]
fn mcts_with_the_network_plays_legal_moves_to_the_end() {
    let mut player = Mcts::new(evaluator("tiny-random-6x6"), MctsConfig::default());
    let mut pos = Position::start(BoardSize::Six, Variant::Standard);
    while !pos.is_game_over() {
        let mv = player.select_move(&pos, &Budget::simulations(40));
        pos = pos.play(mv).expect("the agent plays legal moves");
    }
    assert!(player.last_error().is_none());
}

#[test]
fn a_score_output_reaches_the_evaluations_and_the_search() {
    let path = repo_file("crates/engine/tests/data/tiny-score-8x8.onnx");
    let network = engine::network::load_file(&engine::tract::Tract, &path).expect("loads");
    let mut eval = NetworkEvaluator::new(&network).expect("an evaluator");
    let positions = random_positions(BoardSize::Eight, 6, 4);
    for e in eval.evaluate(&positions).expect("evaluates") {
        let score = e.score.expect("the network has a score output");
        assert!((-1.0..=1.0).contains(&score));
    }
    let mut search = Mcts::new(eval, MctsConfig::default());
    let info = search
        .search(&positions[0], &Budget::simulations(40), &mut |_| true)
        .expect("searches");
    let discs = info.score.expect("a score estimate in discs");
    assert!(discs.abs() <= 64.0);
}

#[test]
fn a_batch_runs_whole_and_a_wrong_sized_input_is_refused() {
    let model = load("tiny-random-6x6");
    let positions = random_positions(BoardSize::Six, 3, 5);
    let mut planes: Vec<f32> = Vec::new();
    for pos in &positions {
        InputPlanes::v1().encode(pos, &mut planes);
    }
    let all = model.run_planes(&planes, 3).expect("runs");
    assert_eq!((all.policy.len(), all.value.len()), (3 * 37, 3));
    let empty = model.run_planes(&[], 0).expect("an empty batch runs");
    assert!(empty.policy.is_empty() && empty.value.is_empty());
    let err = model
        .run_planes(&planes[..planes.len() - 1], 3)
        .expect_err("one value short");
    assert!(matches!(err, ModelError::Run(_)), "{err}");
}

#[test]
fn a_network_exported_for_one_position_at_a_time_runs_batches() {
    // The same weights as tiny-random-6x6, its batch dimension fixed at 1, as an export
    // without a dynamic batch axis writes it.
    let path = repo_file("crates/engine/tests/data/tiny-batch1-6x6.onnx");
    let network = engine::network::load_file(&engine::tract::Tract, &path).expect("loads");
    let mut fixed = NetworkEvaluator::new(&network).expect("an evaluator");
    let mut symbolic = evaluator("tiny-random-6x6");
    let positions = random_positions(BoardSize::Six, 5, 6);
    let batched = fixed.evaluate(&positions).expect("a batch of five runs");
    for (got, want) in batched
        .iter()
        .zip(symbolic.evaluate(&positions).expect("evaluates"))
    {
        assert!((got.value - want.value).abs() < 1e-5);
        for (a, b) in got.priors.iter().zip(&want.priors) {
            assert!((a - b).abs() < 1e-5);
        }
    }
}
