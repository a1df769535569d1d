//! A pattern network with a global network beside its patterns (docs/model-contract.md,
//! "The global network"), through tract: the tables against the ONNX graph run on each
//! position, against PyTorch's whole-position values, and the children's reading against
//! a fresh one (`train/make_test_pattern_model.py` wrote `pattern-test-global-8x8`).
#![cfg(feature = "tract")]

use engine::evaluator::Evaluator;
use engine::network::{Model, ModelCard, Network};
use engine::pattern::{PatternEvaluator, Priors};
use engine::tract::pattern::TractPatternModel;
use engine::Rng;
use othello::{BoardSize, Move, Position, Symmetry, Variant};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

const STEM: &str = "pattern-test-global-8x8";

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn fixture() -> (Vec<u8>, ModelCard) {
    let bytes = std::fs::read(data(&format!("{STEM}.onnx"))).expect("fixture onnx");
    let card = std::fs::read_to_string(data(&format!("{STEM}.json"))).expect("fixture card");
    (bytes, ModelCard::from_json(&card).expect("valid card"))
}

/// Loaded once for the whole file.
fn load() -> Arc<TractPatternModel> {
    static MODEL: OnceLock<Arc<TractPatternModel>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let (bytes, card) = fixture();
            Arc::new(TractPatternModel::from_bytes(&bytes, card).expect("loads"))
        })
        .clone()
}

#[derive(serde::Deserialize)]
struct Expected {
    board: String,
    score_sum: f32,
    value_sum: f32,
    symmetric: Sums,
}

#[derive(serde::Deserialize)]
struct Sums {
    score_sum: f32,
    value_sum: f32,
}

/// Every position of a few random games.
fn positions(seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..4 {
        let mut pos = Position::start(BoardSize::Eight, Variant::Standard);
        while !pos.is_game_over() {
            out.push(pos);
            let moves = pos.legal_move_list();
            pos = pos
                .play(*rng.choose(&moves).expect("a move"))
                .expect("legal");
        }
        out.push(pos);
    }
    out
}

fn close(a: f32, b: f32, bound: f32, what: &str) {
    assert!(
        (a - b).abs() <= bound + 1e-5,
        "{what}: {a} against {b} (bound {bound})"
    );
}

#[test]
fn the_tables_with_the_global_term_sum_what_pytorch_computes() {
    let model = load();
    let tables = model.pattern_tables().expect("tables");
    assert!(tables.has_global());
    let text = std::fs::read_to_string(data(&format!("{STEM}.expected.json"))).expect("json");
    let expected: Vec<Expected> = serde_json::from_str(&text).expect("valid json");
    assert!(expected.len() >= 20);
    let [sb, vb] = tables.rounding_bound();
    for e in &expected {
        let pos = Position::from_board_text(&e.board, Variant::Standard).expect("board");
        let [s, v] = tables.sums(&pos);
        close(
            s,
            e.symmetric.score_sum,
            sb,
            &format!("score sum of {}", e.board),
        );
        close(
            v,
            e.symmetric.value_sum,
            vb,
            &format!("value sum of {}", e.board),
        );
        // The ONNX graph through tract, one orientation, the global network included.
        let [ts, tv] = model.direct_sums_as_trained(&pos).expect("runs");
        close(ts, e.score_sum, 1e-4, "score sum as trained");
        close(tv, e.value_sum, 1e-4, "value sum as trained");
    }
}

#[test]
fn the_tables_with_the_global_term_sum_what_the_graph_gives_on_each_position() {
    let model = load();
    let tables = model.pattern_tables().expect("tables");
    let [sb, vb] = tables.rounding_bound();
    let mut mobilities = std::collections::BTreeSet::new();
    for pos in positions(21) {
        mobilities.insert(pos.legal_moves().count());
        let [s, v] = tables.sums(&pos);
        let [ds, dv] = model.direct_sums(&pos).expect("runs");
        close(s, ds, sb, &format!("score sum of {}", pos.to_board_text()));
        close(v, dv, vb, &format!("value sum of {}", pos.to_board_text()));
        // The global term is the same under the board's symmetries: so is the sum.
        let units = tables.unit_sums(pos.player().0, pos.opponent().0);
        for g in Symmetry::ALL {
            let image = g.position(&pos);
            assert_eq!(
                tables.unit_sums(image.player().0, image.opponent().0),
                units
            );
        }
    }
    assert!(mobilities.len() > 10, "mobilities met: {mobilities:?}");
}

#[test]
fn children_with_the_global_term_are_read_as_a_fresh_evaluation_reads_them() {
    let model = load();
    let tables = model.pattern_tables().expect("tables");
    let mut evaluator = PatternEvaluator::new(
        tables.clone(),
        Priors::Children { temperature: 1.0 },
        "test",
    );
    let mut checked = 0;
    for pos in positions(22) {
        let (own, other) = (pos.player().0, pos.opponent().0);
        if pos.legal_moves().is_empty() {
            continue;
        }
        let logits = tables.with_children(own, other, |children| {
            assert_eq!(children.parent_units(), tables.unit_sums(own, other));
            let mut logits = Vec::new();
            for sq in pos.legal_moves() {
                let child = pos.play_unchecked(Move::Place(sq));
                let flipped = other & !child.player().0;
                let fresh = tables.unit_sums(child.player().0, child.opponent().0)[1];
                assert_eq!(children.value_units(u32::from(sq.index()), flipped), fresh);
                logits.push(match child.outcome() {
                    Some(o) => -8.0 * o.margin_for(child.side_to_move()).signum() as f32,
                    None => -tables.sums(&child)[1],
                });
            }
            logits
        });
        checked += logits.len();
        let got = evaluator.evaluate(&[pos]).expect("evaluates").remove(0);
        let want = if logits.len() > 1 {
            engine::evaluator::softmax(&logits)
        } else {
            vec![1.0]
        };
        for (p, w) in got.priors.iter().zip(&want) {
            assert!((p - w).abs() < 1e-6, "{p} against {w}");
        }
        assert_eq!(got.value, tables.evaluate(&pos).1);
    }
    assert!(checked > 300, "only {checked} children");
}

#[test]
fn a_card_s_global_network_must_be_in_the_onnx_and_read_the_known_features() {
    let (bytes, card) = fixture();
    // The patterns-only fixture's ONNX under a card that names a global network.
    let plain = std::fs::read(data("pattern-test-8x8.onnx")).expect("fixture");
    let plain_card = std::fs::read_to_string(data("pattern-test-8x8.json")).expect("card");
    let mut asks: serde_json::Value = serde_json::from_str(&plain_card).expect("json");
    asks["global"] = serde_json::to_value(&card.global).expect("serialises");
    let asks = ModelCard::from_json(&asks.to_string()).expect("a valid card");
    let err = TractPatternModel::from_bytes(&plain, asks).expect_err("no global network");
    assert_eq!(
        err.to_string(),
        "the model does not follow the contract: a pattern network needs an input named \
         global, its card's global network's; found pattern_0, pattern_1, pattern_2, \
         pattern_3, pattern_4, pattern_5, pattern_6, pattern_7, pattern_8, pattern_9, \
         pattern_10, pattern_11"
    );
    let mut other = serde_json::to_value(&card).expect("serialises");
    other["global"]["features"] = serde_json::json!(["mobility", "parity"]);
    let err = ModelCard::from_json(&other.to_string()).expect_err("unknown features");
    assert_eq!(
        err.to_string(),
        "the card's global features are [\"mobility\", \"parity\"]; a global network reads \
         [\"mobility\", \"opponent_mobility\", \"parity\", \"stage\"], in that order"
    );
    // Without the card's section the same ONNX is a patterns-only network: its global
    // input is never fed, and the tables have no term.
    let mut without = serde_json::to_value(&card).expect("serialises");
    without.as_object_mut().expect("object").remove("global");
    let without = ModelCard::from_json(&without.to_string()).expect("valid");
    let patterns_only: Network =
        Arc::new(TractPatternModel::from_bytes(&bytes, without).expect("loads"));
    assert!(!patterns_only.pattern_tables().expect("tables").has_global());
}
