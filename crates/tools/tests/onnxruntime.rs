//! The ONNX Runtime evaluator against tract, the reference runtime, on the real ONNX files
//! in models/. ONNX Runtime is a shared library found at run time: without it these tests
//! say so and pass, unless `OTHELLO_REQUIRE_ORT` is set (scripts/test.sh sets it after
//! installing the trainer's venv, which ships the library), when its absence fails them.

use engine::evaluator::Evaluator;
use engine::network::{load_file, InputPlanes, ModelCard, Network, NetworkEvaluator, Runtime};
use engine::tract::Tract;
use engine::Rng;
use othello::testing::{random_position, Stop};
use othello::{BoardSize, Position, Variant};
use std::path::PathBuf;
use tools::models::RuntimeChoice;
use tools::onnxruntime::{environment, OnnxRuntime};

fn repo_file(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// False (with a note) when the library is missing and not required.
fn ort_available() -> bool {
    match environment() {
        Ok(_) => true,
        Err(e) if std::env::var_os("OTHELLO_REQUIRE_ORT").is_some() => {
            panic!("OTHELLO_REQUIRE_ORT is set but {e}")
        }
        Err(e) => {
            eprintln!("skipped: {e}");
            false
        }
    }
}

fn load(name: &str, runtime: &dyn Runtime) -> Network {
    load_file(runtime, &repo_file(&format!("models/{name}.onnx"))).expect("loads")
}

fn evaluator(network: &Network) -> NetworkEvaluator {
    NetworkEvaluator::new(network).expect("an evaluator")
}

/// `count` positions that are not over, each after up to 49 random moves.
fn random_positions(size: BoardSize, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let plies = Stop::AfterPlies(rng.below(50));
        let pos = random_position(size, Variant::Standard, plies, |n| rng.below(n));
        if !pos.is_game_over() {
            out.push(pos);
        }
    }
    out
}

#[test]
fn onnx_runtime_evaluates_every_position_as_tract_does() {
    if !ort_available() {
        return;
    }
    for (name, size) in [
        ("tiny-random-8x8", BoardSize::Eight),
        ("tiny-random-6x6", BoardSize::Six),
    ] {
        let ort = load(name, &OnnxRuntime);
        assert_eq!(ort.runtime_name(), "onnxruntime");
        let mut fast = evaluator(&ort);
        let mut reference = evaluator(&load(name, &Tract));
        let positions = random_positions(size, 40, 7);
        let got = fast.evaluate(&positions).expect("evaluates");
        let want = reference.evaluate(&positions).expect("evaluates");
        assert_eq!(got.len(), positions.len());
        for (g, w) in got.iter().zip(&want) {
            assert!(
                (g.value - w.value).abs() < 1e-4,
                "{} vs {}",
                g.value,
                w.value
            );
            assert_eq!(g.priors.len(), w.priors.len());
            for (a, b) in g.priors.iter().zip(&w.priors) {
                assert!((a - b).abs() < 1e-4, "{a} vs {b}");
            }
        }
    }
}

/// Every network in models/ and models/archive/ was trained on the four planes of input
/// set v1 before cards named their planes: each must still read as v1 and play, on tract
/// and (where its library is) on ONNX Runtime alike.
#[test]
fn every_shipped_network_reads_as_v1_and_plays_on_both_runtimes() {
    let ort = ort_available();
    let mut checked = 0;
    for dir in ["models", "models/archive"] {
        let entries = std::fs::read_dir(repo_file(dir)).expect("models folder");
        let mut paths: Vec<PathBuf> = entries
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "onnx"))
            .collect();
        paths.sort();
        for path in paths {
            let tract = load_file(&Tract, &path).expect("loads on tract");
            let card = tract.card();
            // A pattern network takes no planes: its tables are checked against ONNX
            // Runtime's in `onnx_runtime_builds_the_pattern_tables_tract_builds`.
            if card.is_pattern().expect("a readable card") {
                continue;
            }
            assert_eq!(card.inputs(), Ok(InputPlanes::v1()), "{}", path.display());
            let (size, variant) = (
                card.board().expect("board"),
                card.variant().expect("variant"),
            );
            let positions: Vec<Position> = random_positions(size, 6, 3)
                .into_iter()
                .map(|p| p.with_variant(variant))
                .filter(|p| !p.is_game_over())
                .collect();
            let want = evaluator(&tract).evaluate(&positions).expect("evaluates");
            assert_eq!(want.len(), positions.len(), "{}", path.display());
            if ort {
                let other = load_file(&OnnxRuntime, &path).expect("loads on onnxruntime");
                let got = evaluator(&other).evaluate(&positions).expect("evaluates");
                for (g, w) in got.iter().zip(&want) {
                    assert!((g.value - w.value).abs() < 1e-3, "{}", path.display());
                    for (a, b) in g.priors.iter().zip(&w.priors) {
                        assert!((a - b).abs() < 1e-3, "{}: {a} vs {b}", path.display());
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} shipped networks found");
}

#[test]
fn auto_picks_onnx_runtime_when_its_library_is_there() {
    if !ort_available() {
        return;
    }
    assert_eq!(RuntimeChoice::Auto.runtime().name(), "onnxruntime");
}

#[test]
fn onnx_runtime_refuses_bad_models_with_the_reason() {
    if !ort_available() {
        return;
    }
    let bytes = std::fs::read(repo_file("models/tiny-random-8x8.onnx")).expect("model");
    let card = |n: u8| {
        ModelCard::from_json(&format!(
            r#"{{"name": "x", "board_size": {n}, "variant": "standard"}}"#
        ))
        .expect("card")
    };
    let wrong_board = OnnxRuntime
        .load(&bytes, card(6))
        .expect_err("an 8x8 network on a 6x6 card is refused");
    assert!(
        wrong_board.to_string().contains("[batch, 4, 6, 6]"),
        "{wrong_board}"
    );
    let corrupt = OnnxRuntime
        .load(&bytes[..bytes.len() / 2], card(8))
        .expect_err("half a file is refused");
    assert!(corrupt.to_string().contains("cannot read"), "{corrupt}");
}

#[test]
fn positions_of_another_board_are_refused_not_misread() {
    if !ort_available() {
        return;
    }
    let mut eval = evaluator(&load("tiny-random-8x8", &OnnxRuntime));
    let six = Position::start(BoardSize::Six, Variant::Standard);
    let err = eval
        .evaluate(&[six])
        .expect_err("6x6 position on an 8x8 net");
    assert!(err.to_string().contains("8x8"), "{err}");
}

#[test]
fn a_network_exported_for_one_position_runs_batches_as_tract_runs_them() {
    if !ort_available() {
        return;
    }
    // tiny-random-6x6 with its batch dimension fixed at 1.
    let path = repo_file("crates/engine/tests/data/tiny-batch1-6x6.onnx");
    let ort = load_file(&OnnxRuntime, &path).expect("loads");
    let positions = random_positions(BoardSize::Six, 6, 8);
    let got = evaluator(&ort)
        .evaluate(&positions)
        .expect("a batch of six runs");
    let want = evaluator(&load("tiny-random-6x6", &Tract))
        .evaluate(&positions)
        .expect("evaluates");
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert!((g.value - w.value).abs() < 1e-4);
        for (a, b) in g.priors.iter().zip(&w.priors) {
            assert!((a - b).abs() < 1e-4);
        }
    }
}

/// A pattern network's tables built by ONNX Runtime against tract's, entry by entry, and
/// against the sums PyTorch computed for whole positions (the engine's fixtures).
#[test]
fn onnx_runtime_builds_the_pattern_tables_tract_builds() {
    if !ort_available() {
        return;
    }
    // The global fixture's global network too (docs/model-contract.md, "The global network").
    for n in ["8x8", "6x6", "global-8x8"] {
        let path = repo_file(&format!("crates/engine/tests/data/pattern-test-{n}.onnx"));
        let ort = load_file(&OnnxRuntime, &path).expect("loads on ONNX Runtime");
        let tract = load_file(&Tract, &path).expect("loads on tract");
        let (ort, tract) = (
            ort.pattern_tables().expect("a pattern network"),
            tract.pattern_tables().expect("a pattern network"),
        );
        assert_eq!(ort.has_global(), n.starts_with("global"));
        let set = tract.set();
        for stage in 0..set.stages as usize {
            for (p, pattern) in set.patterns.iter().enumerate() {
                for config in (0..pattern.configurations()).step_by(97) {
                    // One unit of the 16-bit entries apart at most: the two runtimes' floats
                    // may round to neighbouring units.
                    let (a, b) = (ort.entry(stage, p, config), tract.entry(stage, p, config));
                    let step = tract.step();
                    assert!(
                        (a[0] - b[0]).abs() <= step[0] * 1.01 + 1e-6
                            && (a[1] - b[1]).abs() <= step[1] * 1.01 + 1e-6,
                        "{n} stage {stage} pattern {p} configuration {config}: {a:?} against {b:?}"
                    );
                }
            }
        }
        let text = std::fs::read_to_string(repo_file(&format!(
            "crates/engine/tests/data/pattern-test-{n}.expected.json"
        )))
        .expect("expected values");
        let expected: Vec<serde_json::Value> = serde_json::from_str(&text).expect("json");
        for e in &expected {
            let board = e["board"].as_str().expect("board text");
            let pos = Position::from_board_text(board, Variant::Standard).expect("board");
            let [s, v] = ort.sums(&pos);
            let [sb, vb] = ort.rounding_bound();
            // The tables average over the board's symmetries, as PyTorch's `symmetric` does.
            let want = |key: &str| e["symmetric"][key].as_f64().expect("a number") as f32;
            assert!((s - want("score_sum")).abs() <= sb + 1e-5, "{board}: {s}");
            assert!((v - want("value_sum")).abs() <= vb + 1e-5, "{board}: {v}");
        }
    }
}
