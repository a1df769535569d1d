//! Pattern networks through tract: the tables built at load against the network run on a
//! position's instances, and against PyTorch's whole-position values averaged over the
//! board's symmetries (`train/make_test_pattern_model.py` wrote the fixtures in tests/data).
#![cfg(feature = "tract")]

use engine::evaluator::Evaluator;
use engine::network::Runtime;
use engine::network::{Model, ModelCard, Network};
use engine::pattern::{PatternEvaluator, PatternRunError, PatternRunner, PatternTables, Priors};
use engine::tract::pattern::{TractPatternModel, TractPatterns};
use engine::tract::Tract;
use engine::{NoModels, PlayerSpec, Rng};
use othello::{BoardSize, Position, Symmetry, Variant};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn fixture(n: u8) -> (Vec<u8>, ModelCard) {
    let stem = format!("pattern-test-{n}x{n}");
    let bytes = std::fs::read(data(&format!("{stem}.onnx"))).expect("fixture onnx");
    let card = std::fs::read_to_string(data(&format!("{stem}.json"))).expect("fixture card");
    (bytes, ModelCard::from_json(&card).expect("valid card"))
}

/// Each fixture loaded once for the whole file: building the tables runs the network over
/// every configuration, seconds in an unoptimised test build.
fn load(n: u8) -> Arc<TractPatternModel> {
    static EIGHT: OnceLock<Arc<TractPatternModel>> = OnceLock::new();
    static SIX: OnceLock<Arc<TractPatternModel>> = OnceLock::new();
    let cell = if n == 8 { &EIGHT } else { &SIX };
    cell.get_or_init(|| {
        let (bytes, card) = fixture(n);
        Arc::new(TractPatternModel::from_bytes(&bytes, card).expect("loads"))
    })
    .clone()
}

/// One fixture position: PyTorch's values as trained (`score_sum`, ...) and averaged over
/// the position's eight images (`symmetric`), which the tables give.
#[derive(serde::Deserialize)]
struct Expected {
    board: String,
    score_sum: f32,
    value_sum: f32,
    symmetric: Values,
}

#[derive(serde::Deserialize)]
struct Values {
    score: f32,
    value: f32,
    score_sum: f32,
    value_sum: f32,
}

/// Positions of every stage: random games, a position taken at every ply.
fn positions(size: BoardSize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..4 {
        let mut pos = Position::start(size, Variant::Standard);
        while !pos.is_game_over() {
            out.push(pos);
            let moves = pos.legal_move_list();
            let mv = *rng.choose(&moves).expect("a game not over has a move");
            pos = pos.play(mv).expect("legal");
        }
    }
    out
}

/// Equal up to the tables' 16-bit rounding (`bound`) and float noise.
fn close(a: f32, b: f32, bound: f32, what: &str) {
    assert!(
        (a - b).abs() <= bound + 1e-5,
        "{what}: {a} against {b} (bound {bound})"
    );
}

#[test]
fn the_tables_sum_what_pytorch_computes_for_whole_positions() {
    for n in [8u8, 6] {
        let model = load(n);
        let tables = model.pattern_tables().expect("tables");
        let text = std::fs::read_to_string(data(&format!("pattern-test-{n}x{n}.expected.json")))
            .expect("expected values");
        let expected: Vec<Expected> = serde_json::from_str(&text).expect("valid json");
        assert!(expected.len() >= 20);
        let mut stages = std::collections::BTreeSet::new();
        for e in &expected {
            let pos = Position::from_board_text(&e.board, Variant::Standard).expect("board");
            stages.insert(tables.set().stage(&pos));
            let [score_sum, value_sum] = tables.sums(&pos);
            let [sb, vb] = tables.rounding_bound();
            let want = &e.symmetric;
            close(
                score_sum,
                want.score_sum,
                sb,
                &format!("score sum of {}", e.board),
            );
            close(
                value_sum,
                want.value_sum,
                vb,
                &format!("value sum of {}", e.board),
            );
            // Clamping and tanh move nothing further apart.
            let (score, value) = tables.evaluate(&pos);
            close(score, want.score, sb, "score");
            close(value, want.value, vb, "value");
            // The network as trained, one orientation, through tract: PyTorch's own sums.
            let [ts, tv] = model.direct_sums_as_trained(&pos).expect("runs");
            close(ts, e.score_sum, 1e-4, "score sum as trained");
            close(tv, e.value_sum, 1e-4, "value sum as trained");
        }
        assert_eq!(
            stages.len(),
            tables.set().stages as usize,
            "every stage checked"
        );
    }
}

#[test]
fn the_tables_sum_what_the_network_gives_on_each_instance() {
    for (n, size) in [(8u8, BoardSize::Eight), (6, BoardSize::Six)] {
        let model = load(n);
        let tables = model.pattern_tables().expect("tables");
        for pos in positions(size, u64::from(n)) {
            let [s, v] = tables.sums(&pos);
            let [ds, dv] = model.direct_sums(&pos).expect("runs");
            let [sb, vb] = tables.rounding_bound();
            close(s, ds, sb, &format!("score sum of {}", pos.to_board_text()));
            close(v, dv, vb, &format!("value sum of {}", pos.to_board_text()));
        }
    }
}

/// The runner with its layers hidden: the tables are then built by running the network
/// on every configuration, the slow path the walk must agree with.
struct RunOnly(TractPatterns);

impl PatternRunner for RunOnly {
    fn run_pattern(
        &mut self,
        pattern: usize,
        rows: &[f32],
        count: usize,
    ) -> Result<Vec<f32>, PatternRunError> {
        self.0.run_pattern(pattern, rows, count)
    }
}

#[test]
fn tables_walked_from_the_weights_equal_tables_run_through_tract() {
    for n in [8u8, 6] {
        let (bytes, card) = fixture(n);
        let set = card.pattern_set().expect("a pattern card");
        let patterns = TractPatterns::from_bytes(&bytes, &set).expect("loads");
        for p in 0..set.patterns.len() {
            assert!(
                patterns.layers(p).is_some(),
                "{n}x{n}: pattern {p} is the exported chain, so it is walked"
            );
        }
        let walked = load(n).pattern_tables().expect("tables");
        let run = PatternTables::build(set.clone(), &mut RunOnly(patterns)).expect("runs");
        // The walked tables are quantized before they are built, under their layers'
        // interval bound, so their unit is never finer than the one the largest built
        // entry gives (the run tables').
        let (step, run_step) = (walked.step(), run.step());
        for o in 0..2 {
            assert!(
                step[o] >= run_step[o] * (1.0 - 1e-6),
                "{n}x{n} output {o}'s unit: {} under the run tables' {}",
                step[o],
                run_step[o]
            );
        }
        for stage in 0..set.stages as usize {
            for (p, pattern) in set.patterns.iter().enumerate() {
                for config in 0..pattern.configurations() {
                    let (a, b) = (walked.entry(stage, p, config), run.entry(stage, p, config));
                    for o in 0..2 {
                        // Each rounds to within half its own unit; float sums in
                        // another order may move that by a little.
                        let tolerance = 0.5 * (step[o] + run_step[o]) + 1e-6 * a[o].abs();
                        assert!(
                            (a[o] - b[o]).abs() <= tolerance,
                            "{n}x{n} stage {stage} pattern {p} configuration {config}: {a:?} against {b:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn a_stage_s_tables_are_built_when_a_position_of_it_is_first_read() {
    let (bytes, card) = fixture(8);
    let model = TractPatternModel::from_bytes(&bytes, card).expect("loads");
    let tables = model.pattern_tables().expect("tables");
    assert_eq!(tables.built_stages(), 0, "loading builds no stage");
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let first = tables.sums(&start);
    assert_eq!(tables.built_stages(), 1, "the start's stage alone");
    let child = start.play_unchecked(start.legal_move_list()[0]);
    tables.sums(&child);
    let stages = tables.set().stages as usize;
    let same_stage = tables.set().stage_of_discs(5) == tables.set().stage_of_discs(4);
    assert_eq!(tables.built_stages(), if same_stage { 1 } else { 2 });
    tables.build_every_stage();
    assert_eq!(tables.built_stages(), stages);
    assert_eq!(
        tables.sums(&start),
        first,
        "its stage reads the same once the others are built"
    );
    // The shared model's tables, read in whatever order the other tests read them, agree.
    assert_eq!(
        load(8).pattern_tables().expect("tables").sums(&start),
        first
    );
}

#[test]
fn a_position_and_its_images_under_the_board_s_symmetries_have_one_value() {
    // The fixtures' untrained networks are far from symmetric (PyTorch's sums of a
    // position's images differ by up to a unit): the tables' averaging alone makes the
    // eight images' stored sums equal, to the last unit.
    for (n, size) in [(8u8, BoardSize::Eight), (6, BoardSize::Six)] {
        let model = load(n);
        let tables = model.pattern_tables().expect("tables");
        let mut differed = 0;
        for (i, pos) in positions(size, 100 + u64::from(n)).iter().enumerate() {
            let units = |p: &Position| tables.unit_sums(p.player().0, p.opponent().0);
            let first = units(pos);
            for symmetry in Symmetry::ALL {
                let image = symmetry.position(pos);
                assert_eq!(
                    units(&image),
                    first,
                    "{} turned by {symmetry:?}",
                    pos.to_board_text()
                );
                // The network itself, on a few positions (a run of tract is slow unoptimised).
                if i % 20 == 10 {
                    let [a, _] = model.direct_sums_as_trained(pos).expect("runs");
                    let [b, _] = model.direct_sums_as_trained(&image).expect("runs");
                    differed += usize::from((a - b).abs() > 1e-3);
                }
            }
        }
        assert!(
            differed > 0,
            "{n}x{n}: the network itself is symmetric, so this proves nothing"
        );
    }
}

#[test]
fn priors_come_from_the_values_of_the_positions_the_moves_lead_to() {
    let model = load(8);
    let tables = model.pattern_tables().expect("tables");
    let mut children = PatternEvaluator::new(
        tables.clone(),
        Priors::Children { temperature: 0.5 },
        "test",
    );
    let mut uniform = PatternEvaluator::new(tables.clone(), Priors::Uniform, "test");
    for pos in positions(BoardSize::Eight, 3).into_iter().step_by(7) {
        let moves = pos.legal_move_list();
        let got = children.evaluate(&[pos]).expect("evaluates").remove(0);
        // The plain reading: each child's value logit from the mover's side, softmaxed.
        let logits: Vec<f64> = moves
            .iter()
            .map(|&mv| {
                let child = pos.play(mv).expect("legal");
                let logit = match child.outcome() {
                    Some(o) => -8.0 * f64::from(o.margin_for(child.side_to_move()).signum()),
                    None => -f64::from(tables.sums(&child)[1]),
                };
                logit / 0.5
            })
            .collect();
        let top = logits.iter().copied().fold(f64::MIN, f64::max);
        let total: f64 = logits.iter().map(|l| (l - top).exp()).sum();
        for (p, l) in got.priors.iter().zip(&logits) {
            let want = if moves.len() == 1 {
                1.0
            } else {
                (l - top).exp() / total
            };
            assert!((f64::from(*p) - want).abs() < 1e-5, "{p} against {want}");
        }
        assert_eq!(got.value, tables.evaluate(&pos).1);
        let flat = uniform.evaluate(&[pos]).expect("evaluates").remove(0);
        assert!(flat
            .priors
            .iter()
            .all(|&p| (p - 1.0 / moves.len() as f32).abs() < 1e-6));
    }
}

#[test]
fn an_mcts_spec_with_a_pattern_network_plays_legal_moves() {
    struct One(Network);
    impl engine::ModelSource for One {
        fn network(&self, _: &str) -> Result<Network, engine::network::ModelError> {
            Ok(self.0.clone())
        }
    }
    let models = One(load(8));
    let spec: PlayerSpec = "mcts:model=p,sims=300".parse().expect("spec");
    let (mut agent, budget) = spec.build(1, &models).expect("builds");
    let mut pos = Position::start(BoardSize::Eight, Variant::Standard);
    for _ in 0..6 {
        let mv = agent.select_move(&pos, &budget);
        pos = pos.play(mv).expect("the agent plays legal moves");
    }
    assert!(
        spec.evaluator(1, &NoModels).is_err(),
        "no network, no evaluator"
    );
}

#[test]
fn a_corrupt_or_foreign_pattern_network_gets_one_clear_line() {
    let (bytes, card) = fixture(8);
    let truncated = TractPatternModel::from_bytes(&bytes[..bytes.len() / 2], card.clone())
        .expect_err("half a file");
    assert!(
        truncated
            .to_string()
            .starts_with("cannot read the ONNX model"),
        "{truncated}"
    );
    // A residual network's ONNX with a pattern card: the inputs it lacks are named.
    let az = std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tiny-score-8x8.onnx"),
    )
    .expect("fixture");
    let foreign = Tract
        .load(&az, card.clone())
        .expect_err("not a pattern network");
    assert_eq!(
        foreign.to_string(),
        "the model does not follow the contract: a pattern network needs an input named \
         pattern_0, one a pattern of its card; found planes"
    );
    let mut unknown = serde_json::to_value(&card).expect("serialises");
    unknown["kind"] = "patterns".into();
    let err = ModelCard::from_json(&unknown.to_string()).expect_err("unknown kind");
    assert_eq!(
        err.to_string(),
        "the model card says kind 'patterns'; expected 'pattern', or no kind for a network of planes"
    );
    let mut stageless = serde_json::to_value(&card).expect("serialises");
    stageless.as_object_mut().expect("object").remove("stages");
    let err = ModelCard::from_json(&stageless.to_string()).expect_err("no stages");
    assert_eq!(err.to_string(), "a pattern network's card needs 'stages'");
    let six = load(6);
    let err = six
        .card()
        .check_game(BoardSize::Eight, Variant::Standard)
        .expect_err("a 6x6 network");
    assert_eq!(
        err.to_string(),
        "the model plays 6x6 standard but the game is 8x8 standard"
    );
}
