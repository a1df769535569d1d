//! The midgame search over a pattern network's tables (tract), against plain readings of
//! the same tables: the evaluation on raw bitboards, the alpha-beta player's moves, and
//! MCTS leaves valued by alpha-beta (`leaf_depth=`), with their priors made apart
//! (`Evaluator::split_priors`) as with them eager.
#![cfg(feature = "tract")]

use engine::evaluator::{EvalError, Evaluation, Evaluator, PriorSource};
use engine::mcts::{GumbelRoot, Mcts, MctsConfig};
use engine::midgame::{
    AlphaBetaLeaves, Limits, Midgame, MidgameConfig, PatternEval, PatternOutput, StaticEval,
    LOGIT_UNITS, MAX_ESTIMATE, UNIT,
};
use engine::network::{Model, ModelCard, Network};
use engine::pattern::{PatternEvaluator, PatternTables, Priors};
use engine::tract::pattern::TractPatternModel;
use engine::{Agent, Budget, PlayerSpec, Rng, SpecError};
use othello::{BoardSize, Move, Position, Variant};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

fn network() -> Arc<TractPatternModel> {
    static NET: OnceLock<Arc<TractPatternModel>> = OnceLock::new();
    NET.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        let bytes = std::fs::read(dir.join("pattern-test-8x8.onnx")).expect("fixture");
        let card = std::fs::read_to_string(dir.join("pattern-test-8x8.json")).expect("card");
        let card = ModelCard::from_json(&card).expect("valid card");
        Arc::new(TractPatternModel::from_bytes(&bytes, card).expect("loads"))
    })
    .clone()
}

fn tables() -> Arc<PatternTables> {
    network().pattern_tables().expect("a pattern network")
}

struct One(Network);

impl engine::ModelSource for One {
    fn network(&self, _: &str) -> Result<Network, engine::network::ModelError> {
        Ok(self.0.clone())
    }
}

/// Open positions of seeded random games, every few plies.
fn positions(seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..3 {
        let mut pos = Position::start(BoardSize::Eight, Variant::Standard);
        while !pos.is_game_over() {
            if !pos.must_pass() && pos.empty_count().is_multiple_of(3) {
                out.push(pos);
            }
            let moves = pos.legal_move_list();
            pos = pos.play(moves[rng.below(moves.len())]).expect("legal");
        }
    }
    out
}

#[test]
fn the_pattern_evaluation_is_the_tables_sum_in_hundredths_of_a_disc() {
    let tables = tables();
    let mut margin = PatternEval::new(tables.clone(), PatternOutput::Margin, "test");
    let mut value = PatternEval::new(tables.clone(), PatternOutput::ValueLogit, "test");
    let [score_step, value_step] = tables.step();
    for pos in positions(1) {
        let [score, logit] = tables.sums(&pos);
        let (p, o) = (pos.player().0, pos.opponent().0);
        let discs = score * 64.0;
        // One unit of rounding from the float product, and the tables' own steps.
        let slack = 1.0 + score_step * 64.0 * UNIT as f32;
        let want = (discs * UNIT as f32).clamp(-(MAX_ESTIMATE as f32), MAX_ESTIMATE as f32);
        assert!((margin.evaluate(p, o) as f32 - want).abs() <= slack);
        let want = (logit * LOGIT_UNITS).clamp(-(MAX_ESTIMATE as f32), MAX_ESTIMATE as f32);
        let slack = 1.0 + value_step * LOGIT_UNITS;
        assert!((value.evaluate(p, o) as f32 - want).abs() <= slack);
    }
}

/// A player or `othello relabel` picks its evaluation at run time, boxed: the box must be
/// the evaluation in everything the search asks of it, a finished game's value and the
/// exact solver's window included. (Those two were not passed through, so a boxed search
/// over the value logit valued a game won by 2 discs at 200 units, a logit of a quarter,
/// where the evaluation itself puts every won game beyond all its estimates.)
#[test]
fn a_boxed_evaluation_values_positions_finished_games_and_windows_as_the_evaluation_does() {
    for output in [PatternOutput::Margin, PatternOutput::ValueLogit] {
        let mut plain = PatternEval::new(tables(), output, "test");
        let mut boxed: Box<dyn StaticEval> = Box::new(plain.clone().reading_children(true));
        for margin in -64..=64 {
            assert_eq!(
                boxed.of_margin(margin),
                plain.of_margin(margin),
                "{output:?} {margin}"
            );
        }
        for alpha in (-2 * MAX_ESTIMATE..2 * MAX_ESTIMATE).step_by(97) {
            for width in [1, 50, UNIT, 7 * UNIT] {
                let beta = alpha + width;
                let (b, p) = (
                    boxed.margin_window(alpha, beta),
                    plain.margin_window(alpha, beta),
                );
                assert_eq!(b, p, "{output:?} ({alpha}, {beta})");
            }
        }
        for pos in positions(2) {
            let (p, o) = (pos.player().0, pos.opponent().0);
            assert_eq!(boxed.evaluate(p, o), plain.evaluate(p, o));
            boxed.read_children(p, o);
            for sq in pos.legal_moves() {
                let child = pos.play_unchecked(Move::Place(sq));
                let (np, no) = (child.player().0, child.opponent().0);
                let got = boxed.child(sq.index(), o & !np, np, no);
                assert_eq!(got, plain.evaluate(np, no), "{output:?} after {sq}");
            }
        }
    }
}

/// The tables read afresh at every leaf: the evaluation without its own readings of a
/// node's children ([`StaticEval::read_children`], [`StaticEval::read_grandchildren`],
/// [`StaticEval::enter_child`], [`StaticEval::child`]).
struct Fresh(PatternEval);

impl StaticEval for Fresh {
    fn evaluate(&mut self, p: u64, o: u64) -> i32 {
        self.0.evaluate(p, o)
    }

    fn describe(&self) -> String {
        self.0.describe()
    }

    fn of_margin(&self, margin: i32) -> i32 {
        self.0.of_margin(margin)
    }

    fn margin_window(&self, alpha: i32, beta: i32) -> (i32, i32) {
        self.0.margin_window(alpha, beta)
    }
}

/// The search reads the leaves below a node (and the children it sorts by their static
/// value) from the node's own pattern indices, and that node's from its parent's (Edax's
/// `eval_update`): it must be the same search as one that reads every leaf afresh, to the
/// value, the move and the positions visited, over either output and at every depth, the
/// sorted ones (3 to 5) included.
#[test]
fn leaves_read_from_their_parent_search_as_leaves_read_afresh() {
    for output in [PatternOutput::Margin, PatternOutput::ValueLogit] {
        let config = MidgameConfig {
            table_bits: 12,
            ..MidgameConfig::default()
        };
        let eval = PatternEval::new(tables(), output, "test").reading_children(true);
        let mut incremental = Midgame::new(eval, config);
        let mut fresh = Midgame::new(Fresh(PatternEval::new(tables(), output, "test")), config);
        let mut searched = 0;
        for pos in positions(3).into_iter().filter(|p| p.empty_count() > 14) {
            for depth in 1..=5 {
                let limits = Limits::depth(depth);
                let a = incremental.search(&pos, &limits, &[], &mut |_| {});
                let b = fresh.search(&pos, &limits, &[], &mut |_| {});
                let (a, b) = (a.expect("not over"), b.expect("not over"));
                let what = format!("{output:?}, depth {depth}: {}", pos.to_board_text());
                assert_eq!((a.value, a.best), (b.value, b.best), "{what}");
                assert_eq!(incremental.nodes(), fresh.nodes(), "{what}");
                searched += 1;
            }
        }
        assert!(searched >= 60, "{searched}");
        // A leaf's value two plies deep, its children searched best first by their static
        // values (`Midgame::value`, what MCTS's leaves ask): read from the parent as afresh.
        for pos in positions(4).into_iter().filter(|p| p.empty_count() > 3) {
            let what = format!("{output:?}: {}", pos.to_board_text());
            assert_eq!(incremental.value(&pos, 2), fresh.value(&pos, 2), "{what}");
        }
    }
}

/// The value logit a plain negamax over the tables finds `depth` plies below `pos` (a
/// pass is not a ply; a finished game is won or lost whatever the margin).
fn negamax_logit(tables: &PatternTables, pos: &Position, depth: u32) -> f32 {
    if let Some(outcome) = pos.outcome() {
        let sign = outcome.margin_for(pos.side_to_move()).signum() as f32;
        return sign * (MAX_ESTIMATE + 1) as f32 / LOGIT_UNITS;
    }
    if depth == 0 && pos.player().0 != 0 {
        return tables.sums(pos)[1];
    }
    if pos.must_pass() {
        return -negamax_logit(tables, &pos.play_unchecked(Move::Pass), depth);
    }
    pos.legal_move_list()
        .into_iter()
        .map(|mv| -negamax_logit(tables, &pos.play_unchecked(mv), depth - 1))
        .fold(f32::MIN, f32::max)
}

#[test]
fn alpha_beta_leaves_take_the_value_of_a_plain_negamax_and_keep_the_evaluator_s_priors() {
    let tables = tables();
    let priors = PatternEvaluator::new(tables.clone(), Priors::default(), "test");
    let mut plain = PatternEvaluator::new(tables.clone(), Priors::default(), "test");
    let mut leaves = AlphaBetaLeaves::new(priors, 2);
    // Far from the end, where no leaf search reaches the solver.
    let open: Vec<Position> = positions(2)
        .into_iter()
        .filter(|p| p.empty_count() > 20)
        .collect();
    assert!(open.len() >= 10);
    let got = leaves.evaluate(&open).expect("evaluates");
    let want = plain.evaluate(&open).expect("evaluates");
    for ((pos, got), want) in open.iter().zip(&got).zip(&want) {
        assert_eq!(got.priors, want.priors);
        assert_eq!(got.score, want.score);
        let logit = negamax_logit(&tables, pos, 2);
        // Each leaf's logit is rounded to a unit of the search's scale.
        let tolerance = 2.0 / LOGIT_UNITS + 46.0 * tables.step()[1];
        assert!(
            (got.value - logit.tanh()).abs() <= tolerance,
            "{} against {} in {}",
            got.value,
            logit.tanh(),
            pos.to_board_text()
        );
    }
    assert!(leaves.nodes() > 0);
}

#[test]
fn alphabeta_and_mcts_with_leaf_searches_build_from_a_pattern_network_and_play() {
    let models = One(network());
    for text in [
        "alphabeta:model=p,depth=4",
        "alphabeta:model=p,depth=5,probcut=1.5",
        "mcts:model=p,sims=200,leaf_depth=2",
    ] {
        let spec: PlayerSpec = text.parse().expect("spec");
        let (mut agent, budget) = spec.build(1, &models).expect("builds");
        let mut pos = Position::start(BoardSize::Eight, Variant::Standard);
        for _ in 0..8 {
            let info = agent.think(&pos, &budget, &mut |_| true).expect("thinks");
            let mv = info.best_move().expect("a move");
            pos = pos.play(mv).expect("a legal move");
        }
    }
    let spec: PlayerSpec = "alphabeta:model=p,depth=3".parse().expect("spec");
    let (mut agent, budget) = spec.build(1, &models).expect("builds");
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let info = agent.think(&start, &budget, &mut |_| true).expect("thinks");
    assert!(
        info.score.is_some(),
        "alpha-beta reports its value in discs"
    );
    assert!(agent.name().contains("pattern network"), "{}", agent.name());
}

#[test]
fn leaf_searches_need_a_pattern_network() {
    let spec: PlayerSpec = "mcts:sims=10,leaf_depth=2".parse().expect("parses");
    assert!(matches!(
        spec.build(1, &engine::NoModels),
        Err(SpecError::LeafDepthWithoutPatterns)
    ));
    assert!(matches!(
        "mcts:model=p,leaf_depth=9".parse::<PlayerSpec>(),
        Err(SpecError::BadValue { .. })
    ));
    assert!(matches!(
        "alphabeta:leaf_depth=2".parse::<PlayerSpec>(),
        Err(SpecError::UnknownOption { .. })
    ));
}

/// The leaves' evaluator with every evaluation's priors, as before the split.
struct Eager(AlphaBetaLeaves);

impl Evaluator for Eager {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        self.0.evaluate(positions)
    }

    fn describe(&self) -> String {
        self.0.describe()
    }
}

/// The leaves as the search gets them, counting the evaluations that came without priors
/// (the split's), so that the test sees the split happen.
struct Split(AlphaBetaLeaves, Arc<AtomicUsize>);

impl Evaluator for Split {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        let evaluations = self.0.evaluate(positions)?;
        let bare = evaluations.iter().filter(|e| e.priors.is_empty()).count();
        self.1.fetch_add(bare, Ordering::Relaxed);
        Ok(evaluations)
    }

    fn describe(&self) -> String {
        self.0.describe()
    }

    fn split_priors(&mut self) -> Option<PriorSource> {
        self.0.split_priors()
    }
}

fn leaves() -> AlphaBetaLeaves {
    AlphaBetaLeaves::new(
        PatternEvaluator::new(tables(), Priors::default(), "test"),
        2,
    )
}

#[test]
fn leaves_with_their_priors_made_apart_play_the_search_with_them_eager() {
    let configs = [
        MctsConfig::default(),
        MctsConfig {
            gumbel: Some(GumbelRoot::new(4)),
            ..MctsConfig::default()
        },
    ];
    for config in configs {
        let bare = Arc::new(AtomicUsize::new(0));
        let mut split = Mcts::new(Split(leaves(), bare.clone()), config.clone());
        let mut eager = Mcts::new(Eager(leaves()), config);
        let mut pos = Position::start(BoardSize::Eight, Variant::Standard);
        // The opening and middle game, where every leaf is an alpha-beta search (the
        // solver takes the leaves near the end in both alike).
        for _ in 0..24 {
            if pos.is_game_over() {
                break;
            }
            let budget = Budget::simulations(150);
            let a = split.search(&pos, &budget, &mut |_| true).expect("search");
            let b = eager.search(&pos, &budget, &mut |_| true).expect("search");
            assert_eq!(
                (&a.moves, &a.pv, a.value, a.score, a.simulations),
                (&b.moves, &b.pv, b.value, b.score, b.simulations),
                "{}",
                pos.to_board_text()
            );
            let mv = split.select_move(&pos, &budget);
            assert_eq!(mv, eager.select_move(&pos, &budget));
            pos = pos.play_unchecked(mv);
        }
        assert!(
            bare.load(Ordering::Relaxed) > 0,
            "the search never split the priors off"
        );
    }
}

#[test]
fn split_leaves_carry_values_only_and_the_source_gives_the_eager_priors() {
    let mut split = leaves();
    let mut eager = leaves();
    let mut source = split
        .split_priors()
        .expect("a pattern network's priors split off");
    let pos = Position::start(BoardSize::Eight, Variant::Standard)
        .play_unchecked(Move::parse("f5", BoardSize::Eight).expect("a move"));
    let got = split.evaluate(&[pos]).expect("evaluates");
    let want = eager.evaluate(&[pos]).expect("evaluates");
    assert!(got[0].priors.is_empty());
    assert_eq!(got[0].value, want[0].value);
    let mut priors = Vec::new();
    source(&pos, &mut priors);
    assert_eq!(priors, want[0].priors);
}
