//! The search's tests: budgets, batches, the cache, tree reuse, proofs and the solver
//! hooks, noise, sampling, and the agent's root solve.

use super::*;
use crate::clock_source::virtual_time::{self, Ticking};
use crate::evaluator::{EvalError, Evaluation, Evaluator, PlayoutEvaluator};
use crate::report::{Proof, SearchInfo};
use crate::solver::Solver;
use crate::test_support::{minimax, random_6x6_choice};
use crate::{Agent, Budget, Rng};
use othello::testing::{random_position, Stop};
use othello::{BoardSize, Game, Move, Position, Variant};
use proptest::prelude::{any, prop, prop_assert, prop_assume, proptest, ProptestConfig};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::Duration;

fn mcts(seed: u64) -> Mcts<PlayoutEvaluator> {
    Mcts::new(
        PlayoutEvaluator::new(seed, 2),
        MctsConfig {
            seed,
            ..MctsConfig::default()
        },
    )
}

fn quiet() -> impl FnMut(&SearchInfo) -> bool {
    |_| true
}

/// Counts calls and batch sizes, evaluating every position as even with uniform priors.
pub(super) struct CountingEvaluator {
    calls: usize,
    positions: usize,
    largest_batch: usize,
}

impl Evaluator for CountingEvaluator {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        self.calls += 1;
        self.positions += positions.len();
        self.largest_batch = self.largest_batch.max(positions.len());
        Ok(positions.iter().map(|p| uniform(p, 0.0)).collect())
    }

    fn describe(&self) -> String {
        "counting".into()
    }
}

struct FailingEvaluator;

impl Evaluator for FailingEvaluator {
    fn evaluate(&mut self, _: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        Err(EvalError::Failed("no network".into()))
    }

    fn describe(&self) -> String {
        "failing".into()
    }
}

/// An evaluation of `pos` with every legal move equally likely, valued `value`.
pub(super) fn uniform(pos: &Position, value: f32) -> Evaluation {
    let n = pos.legal_move_list().len();
    Evaluation {
        priors: vec![1.0 / n as f32; n],
        value,
        score: None,
    }
}

pub(super) fn counting() -> CountingEvaluator {
    CountingEvaluator {
        calls: 0,
        positions: 0,
        largest_batch: 0,
    }
}

fn start8() -> Position {
    Position::start(BoardSize::Eight, Variant::Standard)
}

#[test]
fn a_simulation_budget_is_spent_exactly() {
    for sims in [1, 7, 100, 333] {
        let info = mcts(1)
            .search(&start8(), &Budget::simulations(sims), &mut quiet())
            .expect("search");
        assert_eq!(info.simulations, sims);
        assert_eq!(
            info.moves.iter().map(|m| m.visits as u64).sum::<u64>(),
            sims - 1
        );
    }
}

/// `mcts(seed)` with every evaluated position a millisecond on the virtual clock, so
/// that a time budget is a count of evaluations on any machine.
fn ticking_mcts(seed: u64) -> Mcts<Ticking<PlayoutEvaluator>> {
    let evaluator = Ticking {
        inner: PlayoutEvaluator::new(seed, 2),
        per_position: Duration::from_millis(1),
    };
    Mcts::new(evaluator, mcts(seed).driver().config().clone())
}

#[test]
fn a_time_budget_ends_the_search_soon_after_it_runs_out() {
    let budget = Budget::time(Duration::from_millis(150));
    let mut search = ticking_mcts(2);
    let info =
        virtual_time::run(|| search.search(&start8(), &budget, &mut quiet())).expect("search");
    assert!(
        info.elapsed >= Duration::from_millis(150),
        "{:?}",
        info.elapsed
    );
    // One batch past the deadline at most.
    let batch = Duration::from_millis(search.driver().config().batch_size as u64);
    assert!(
        info.elapsed <= Duration::from_millis(150) + batch,
        "{:?}",
        info.elapsed
    );
    assert!(info.simulations >= 150, "{}", info.simulations);
}

#[test]
fn leaves_reach_the_evaluator_in_batches_no_larger_than_configured() {
    let mut search = Mcts::new(
        counting(),
        MctsConfig {
            batch_size: 16,
            ..MctsConfig::default()
        },
    );
    search
        .search(&start8(), &Budget::simulations(400), &mut quiet())
        .expect("search");
    let eval = search.evaluator();
    assert_eq!(eval.largest_batch, 16);
    assert!(eval.calls < 100, "{} calls", eval.calls);
}

#[test]
fn cached_evaluations_are_not_asked_for_again() {
    let mut search = Mcts::new(counting(), MctsConfig::default());
    search
        .search(&start8(), &Budget::simulations(200), &mut quiet())
        .expect("search");
    let first = search.evaluator().positions;
    search.driver_mut().clear();
    search
        .search(&start8(), &Budget::simulations(200), &mut quiet())
        .expect("search");
    // The same tree again: everything is in the cache.
    assert_eq!(search.evaluator().positions, first);
}

#[test]
fn the_line_after_a_root_move_follows_the_most_visited_replies() {
    let mut search = mcts(4);
    let info = search
        .search(&start8(), &Budget::simulations(400), &mut quiet())
        .expect("search");
    let best = info.pv[0];
    assert_eq!(search.driver().tree().line_from(best), info.pv);
    for m in &info.moves {
        let line = search.driver().tree().line_from(m.mv);
        assert_eq!(line.first(), Some(&m.mv));
        // Every line is a legal sequence from the root.
        let mut pos = start8();
        for mv in &line {
            pos = pos.play(*mv).expect("a legal line");
        }
    }
    let not_a_root_move = Move::parse("a1", BoardSize::Eight).expect("a square");
    assert!(search.driver().tree().line_from(not_a_root_move).is_empty());
}

#[test]
fn the_line_starts_with_the_move_the_search_names() {
    // Small searches from many positions: moves tied in visits are common, and the line
    // once broke the tie one way while the named move broke it the other.
    let mut rng = Rng::new(8);
    let mut differed_from_most_visited_first = 0;
    for seed in 0..40 {
        let mut pos = start8();
        for _ in 0..(seed % 12) {
            let moves = pos.legal_move_list();
            let Some(&mv) = rng.choose(&moves) else { break };
            pos = pos.play(mv).expect("legal");
        }
        if pos.is_game_over() {
            continue;
        }
        let mut search = mcts(seed);
        let info = search
            .search(&pos, &Budget::simulations(12), &mut quiet())
            .expect("search");
        let best = info.best_move().expect("a move");
        assert_eq!(info.pv.first(), Some(&best), "seed {seed}: {:?}", info.pv);
        let top = info.moves.iter().map(|m| m.visits).max().unwrap_or(0);
        differed_from_most_visited_first +=
            usize::from(info.moves.iter().filter(|m| m.visits == top).count() > 1);
    }
    assert!(
        differed_from_most_visited_first > 0,
        "no ties: the check proves nothing"
    );
}

#[test]
fn the_subtree_of_the_moves_played_is_kept() {
    let mut search = mcts(3);
    let info = search
        .search(&start8(), &Budget::simulations(500), &mut quiet())
        .expect("search");
    let ours = info.best_move().expect("a move");
    let after_ours = start8().play(ours).expect("legal");
    let reply = after_ours.legal_move_list()[0];
    let after_reply = after_ours.play(reply).expect("legal");
    // The reply's visits within the old tree survive as the new root's visits.
    search.driver_mut().follow(&after_ours);
    let child_visits = search.driver().tree().nodes[0]
        .children()
        .find(|&c| search.driver().tree().nodes[c].mv == reply)
        .map(|c| search.driver().tree().nodes[c].visits)
        .expect("reply expanded");
    search.driver_mut().follow(&after_reply);
    assert_eq!(search.driver().tree().nodes[0].visits, child_visits);
    assert!(child_visits > 0);
    let info = search
        .search(&after_reply, &Budget::simulations(10), &mut quiet())
        .expect("search");
    assert_eq!(info.root_visits, child_visits + 10);
}

#[test]
fn a_pass_is_played_when_it_is_the_only_move() {
    let pos = Position::from_board_text(&format!("XO{} O", "-".repeat(62)), Variant::Standard)
        .expect("valid");
    let mut player = mcts(4);
    assert_eq!(
        player.select_move(&pos, &Budget::simulations(50)),
        Move::Pass
    );
}

#[test]
fn an_immediate_win_is_proven_and_played() {
    // Random 4x4 games often reach positions where one move ends the game with a win.
    // The solver is off: it would prove slower wins too, and this is about finished games.
    let mut checked = 0;
    for seed in 0..300 {
        let mut rng = Rng::new(seed);
        let mut pos = Position::start(BoardSize::Four, Variant::Standard);
        while !pos.is_game_over() {
            let wins = |mv: Move| crate::players::wins_at_once(&pos, mv);
            let moves = pos.legal_move_list();
            if moves.iter().any(|m| wins(*m)) && moves.len() > 1 {
                let config = MctsConfig {
                    seed,
                    solver_empties: Some(0),
                    ..MctsConfig::default()
                };
                let info = Mcts::new(PlayoutEvaluator::new(seed, 2), config)
                    .search(&pos, &Budget::simulations(200), &mut quiet())
                    .expect("search");
                // The move played wins, and by at least as much as the game-ending win
                // (a longer line the tree proved may win by more).
                let best = info.best_move().expect("a move");
                let margin_after = |mv: Move| -minimax(&pos.play(mv).expect("legal"));
                let ending_win = moves.iter().filter(|m| wins(**m)).map(|m| margin_after(*m));
                let ending_win = ending_win.max().expect("a win");
                assert!(
                    margin_after(best) >= ending_win,
                    "missed a win in {}",
                    pos.to_board_text()
                );
                assert_eq!(info.proof, Some(Proof::Win));
                checked += 1;
            }
            let mv = *rng.choose(&moves).expect("a move");
            pos = pos.play(mv).expect("legal");
        }
    }
    assert!(checked >= 20, "only {checked} positions");
}

#[test]
fn with_an_exact_solver_the_search_settles_4x4_margins_and_plays_perfectly() {
    let mut rng = Rng::new(9);
    for _ in 0..30 {
        let pos = random_4x4(&mut rng, 6);
        if pos.is_game_over() {
            continue;
        }
        let exact = minimax(&pos);
        let driver = SearchDriver::new(MctsConfig::default())
            .with_exact_solver(6, Box::new(|p: &Position| Some(minimax(p))));
        let mut search = Mcts::with_driver(driver, counting());
        let info = search
            .search(&pos, &Budget::simulations(5000), &mut quiet())
            .expect("search");
        assert_eq!(
            info.proof,
            Some(Proof::from_margin(exact)),
            "{}",
            pos.to_board_text()
        );
        // With the margin from the solver, the search plays perfectly: the largest win
        // (or smallest loss), not only a move that keeps the result.
        let best = info.best_move().expect("a move");
        let after = -minimax(&pos.play(best).expect("legal"));
        assert_eq!(after, exact, "{}", pos.to_board_text());
        assert_eq!(info.score, Some(exact as f32), "{}", pos.to_board_text());
    }
}

/// A 4x4 position after fewer than `plies` random moves (`rng.below(plies)` of them, fewer
/// if the game ends first).
fn random_4x4(rng: &mut Rng, plies: usize) -> Position {
    let plies = Stop::AfterPlies(rng.below(plies));
    random_position(BoardSize::Four, Variant::Standard, plies, |n| rng.below(n))
}

/// A random 8x8 position with `empties` empty squares that is not over.
pub(super) fn random_endgame(rng: &mut Rng, empties: u32) -> Option<Position> {
    crate::test_support::random_open_position(BoardSize::Eight, Variant::Standard, empties, rng)
}

#[test]
fn by_default_the_search_solves_8x8_endings_and_plays_the_largest_margin() {
    let mut rng = Rng::new(21);
    let mut solver = Solver::new();
    let mut checked = 0;
    while checked < 12 {
        let empties = 10 + rng.below(4) as u32;
        let Some(pos) = random_endgame(&mut rng, empties) else {
            continue;
        };
        checked += 1;
        // Uniform priors and a value of 0: only the solver can tell the moves apart.
        let mut search = Mcts::new(counting(), MctsConfig::default());
        let info = search
            .search(&pos, &Budget::simulations(400), &mut quiet())
            .expect("search");
        let scores = solver.score_moves(&pos);
        let exact = scores[0].1;
        assert_eq!(
            info.proof,
            Some(Proof::from_margin(exact)),
            "{}",
            pos.to_board_text()
        );
        let best = info.best_move().expect("a move");
        let best_score = scores.iter().find(|(mv, _)| *mv == best).expect("legal").1;
        assert_eq!(best_score, exact, "{}", pos.to_board_text());
    }
}

#[test]
fn a_reused_tree_whose_new_root_was_proven_as_a_leaf_still_offers_moves() {
    let mut rng = Rng::new(8);
    for _ in 0..6 {
        let Some(mut pos) = random_endgame(&mut rng, 16) else {
            continue;
        };
        // One search for both sides, so each root comes from the tree of the last one.
        let mut search = Mcts::new(counting(), MctsConfig::default());
        while !pos.is_game_over() {
            let info = search
                .search(&pos, &Budget::simulations(60), &mut quiet())
                .expect("search");
            let best = info.best_move().expect("every searched root offers a move");
            pos = pos.play(best).expect("legal");
        }
    }
}

#[test]
fn with_the_solver_off_an_ending_is_searched_not_proven() {
    let mut rng = Rng::new(5);
    let pos = loop {
        if let Some(pos) = random_endgame(&mut rng, 11) {
            if pos.legal_move_list().len() > 1 {
                break pos;
            }
        }
    };
    let config = MctsConfig {
        solver_empties: Some(0),
        ..MctsConfig::default()
    };
    let info = Mcts::new(counting(), config)
        .search(&pos, &Budget::simulations(20), &mut quiet())
        .expect("search");
    assert_eq!(info.proof, None);
    assert_eq!(info.simulations, 20);
}

#[test]
fn the_progress_callback_sees_the_search_and_can_stop_it() {
    let mut search = mcts(5);
    search.driver_mut().config_mut().progress_interval = Duration::ZERO;
    let mut reports = 0;
    let info = search
        .search(
            &start8(),
            &Budget::simulations(100_000),
            &mut |info: &SearchInfo| {
                reports += 1;
                assert_eq!(info.moves.len(), 4);
                info.simulations < 64
            },
        )
        .expect("search");
    assert!(info.simulations < 100, "{}", info.simulations);
    assert!(reports >= 2);
}

#[test]
fn the_stop_flag_ends_a_search() {
    let mut search = mcts(6);
    search.driver().stop_flag().store(true, Ordering::Relaxed);
    // The flag is reset when a search starts, so only a flag set during it stops it.
    let info = search
        .search(&start8(), &Budget::simulations(50), &mut quiet())
        .expect("search");
    assert_eq!(info.simulations, 50);
    let flag = search.driver().stop_flag();
    search.driver_mut().config_mut().progress_interval = Duration::ZERO;
    let info = search
        .search(
            &start8(),
            &Budget::simulations(1_000_000),
            &mut |_: &SearchInfo| {
                flag.store(true, Ordering::Relaxed);
                true
            },
        )
        .expect("search");
    assert!(info.simulations < 100, "{}", info.simulations);
}

#[test]
fn a_failing_evaluator_is_an_error_for_the_search_and_a_legal_move_for_the_agent() {
    let mut search = Mcts::new(FailingEvaluator, MctsConfig::default());
    assert!(search
        .search(&start8(), &Budget::simulations(10), &mut quiet())
        .is_err());
    let mut player = Mcts::new(FailingEvaluator, MctsConfig::default());
    let mv = player.select_move(&start8(), &Budget::simulations(10));
    assert!(start8().is_legal(mv));
    assert!(player.last_error().is_some());
}

#[test]
fn root_noise_changes_priors_but_not_legality() {
    let mut search = mcts(7);
    search.driver_mut().config_mut().dirichlet_alpha = 0.3;
    let info = search
        .search(&start8(), &Budget::simulations(50), &mut quiet())
        .expect("search");
    let priors: Vec<f32> = info.moves.iter().map(|m| m.prior).collect();
    assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-4);
    assert!(priors.iter().any(|p| (p - 0.25).abs() > 1e-3), "{priors:?}");
}

#[test]
fn sampling_with_temperature_follows_visit_counts() {
    let info = mcts(8)
        .search(&start8(), &Budget::simulations(400), &mut quiet())
        .expect("search");
    let mut rng = Rng::new(1);
    let mut counts = HashMap::new();
    for _ in 0..2000 {
        *counts
            .entry(info.sample_move(1.0, &mut rng).expect("move"))
            .or_insert(0u32) += 1;
    }
    for m in &info.moves {
        let expected = 2000.0 * m.visits as f64 / 399.0;
        let got = *counts.get(&m.mv).unwrap_or(&0) as f64;
        assert!(
            (got - expected).abs() < 80.0,
            "{}: {got} vs {expected}",
            m.mv
        );
    }
    assert_eq!(info.sample_move(0.0, &mut rng), info.best_move());
}

/// The best exact final margin in `pos`, and every move's margin.
fn exact_margins(pos: &Position) -> (i32, impl Fn(Move) -> i32) {
    let scores = Solver::new().score_moves(pos);
    let best = scores.iter().map(|&(_, m)| m).max().expect("moves");
    let margin_of = move |mv: Move| scores.iter().find(|&&(m, _)| m == mv).expect("scored").1;
    (best, margin_of)
}

#[test]
fn near_the_end_the_agent_plays_the_largest_margin_not_just_a_win() {
    let mut rng = Rng::new(17);
    let mut checked = 0;
    while checked < 40 {
        let Some(pos) = random_6x6_choice(&mut rng, 12) else {
            continue;
        };
        let (best, margin_of) = exact_margins(&pos);
        let budget = Budget::simulations(50);
        let mv = mcts(checked).select_move(&pos, &budget);
        assert_eq!(margin_of(mv), best, "{}", pos.to_board_text());
        // Without the root solve the search's own margin bounds find it too: the
        // solver's margins inside the tree settle the root.
        let mut unsolved = mcts(checked);
        unsolved.driver_mut().config_mut().root_solve.exact_empties = Some(0);
        let searched = unsolved.select_move(&pos, &budget);
        assert_eq!(margin_of(searched), best, "{}", pos.to_board_text());
        checked += 1;
    }
}

#[test]
fn a_few_empties_beyond_the_exact_depth_the_agent_solves_within_its_budget() {
    let mut rng = Rng::new(29);
    let limit = default_exact_root_empties(BoardSize::Six);
    let sims = 800;
    let (mut solved, mut searched_worse) = (0, 0);
    for game in 0..16 {
        let Some(pos) = random_6x6_choice(&mut rng, limit + 1) else {
            continue;
        };
        // Whether the agent's own solver (same table size) fits in the budget.
        let fits = Solver::with_table_bits(RootSolve::default().table_bits)
            .solve_within(&pos, sims * RootSolve::default().nodes_per_simulation)
            .is_some();
        let (best, margin_of) = exact_margins(&pos);
        let mv = mcts(game).select_move(&pos, &Budget::simulations(sims));
        if fits {
            assert_eq!(margin_of(mv), best, "{}", pos.to_board_text());
            solved += 1;
        }
        // Two simulations buy too few nodes, so the search decides, and it only tells
        // wins from losses.
        let searched = mcts(game).select_move(&pos, &Budget::simulations(2));
        searched_worse += usize::from(margin_of(searched) < best);
    }
    assert!(solved >= 8, "only {solved} positions fit the budget");
    assert!(
        searched_worse > 0,
        "a tiny budget solved every position too"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn the_agent_never_returns_an_illegal_move(choices in prop::collection::vec(any::<u16>(), 0..60), six in any::<bool>()) {
        let size = if six { BoardSize::Six } else { BoardSize::Eight };
        let mut game = Game::new(Position::start(size, Variant::Standard));
        for c in choices {
            let moves = game.position().legal_move_list();
            if moves.is_empty() { break; }
            game.push(moves[c as usize % moves.len()]).expect("legal");
        }
        let pos = *game.position();
        prop_assume!(!pos.is_game_over());
        let mut player = mcts(1);
        let mv = player.select_move(&pos, &Budget::simulations(30));
        prop_assert!(pos.is_legal(mv), "{} in {}", mv, pos.to_board_text());
    }
}

fn gumbel(considered: usize, seed: u64) -> MctsConfig {
    MctsConfig {
        gumbel: Some(GumbelRoot::new(considered)),
        seed,
        ..MctsConfig::default()
    }
}

#[test]
fn a_gumbel_root_spends_its_simulations_by_sequential_halving() {
    // Uniform priors and even values: only the schedule decides the visits. One
    // simulation expands the root, then 17 follow mctx's table for 4 moves: two rounds
    // over all four, then the two survivors.
    let info = Mcts::new(counting(), gumbel(4, 1))
        .search(&start8(), &Budget::simulations(18), &mut quiet())
        .expect("search");
    let mut visits: Vec<u32> = info.moves.iter().map(|m| m.visits).collect();
    visits.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(visits, [7, 6, 2, 2]);
    // With 8 moves considered out of 12, four are never visited.
    let pos = *Game::from_transcript("f5d6c3d3c4f4", start8())
        .expect("legal")
        .position();
    let moves = pos.legal_move_list().len();
    assert!(moves > 8, "{moves}");
    let info = Mcts::new(counting(), gumbel(8, 2))
        .search(&pos, &Budget::simulations(64), &mut quiet())
        .expect("search");
    assert_eq!(
        info.moves.iter().filter(|m| m.visits == 0).count(),
        moves - 8
    );
}

#[test]
fn the_gumbel_target_covers_every_move_and_favours_the_ones_that_searched_well() {
    let pos = *Game::from_transcript("f5d6c3d3c4f4f6", start8())
        .expect("legal")
        .position();
    let info = Mcts::new(PlayoutEvaluator::new(3, 8), gumbel(16, 3))
        .search(&pos, &Budget::simulations(200), &mut quiet())
        .expect("search");
    let total: f32 = info.moves.iter().map(|m| m.target).sum();
    assert!((total - 1.0).abs() < 1e-4, "{total}");
    assert!(info.moves.iter().all(|m| m.target > 0.0));
    // The move played is the best by the improved policy among the most visited.
    let chosen = info.chosen.expect("a Gumbel choice");
    assert_eq!(info.best_move(), Some(chosen));
    let most = info.moves.iter().map(|m| m.visits).max().expect("moves");
    let best_q = info
        .moves
        .iter()
        .filter(|m| m.visits == most)
        .map(|m| m.q)
        .fold(f32::NEG_INFINITY, f32::max);
    let chosen_q = info.moves.iter().find(|m| m.mv == chosen).expect("legal").q;
    assert_eq!(
        chosen_q, best_q,
        "uniform priors and no noise: the best q wins"
    );
}

#[test]
fn gumbel_noise_varies_the_choice_and_without_it_the_search_repeats_itself() {
    let pos = *Game::from_transcript("f5d6c3", start8())
        .expect("legal")
        .position();
    let choose = |seed: u64, scale: f32| {
        let config = MctsConfig {
            gumbel: Some(GumbelRoot {
                gumbel_scale: scale,
                ..GumbelRoot::new(4)
            }),
            seed,
            ..MctsConfig::default()
        };
        let mut search = Mcts::new(counting(), config);
        search
            .search(&pos, &Budget::simulations(16), &mut quiet())
            .expect("search")
            .best_move()
    };
    let noisy: std::collections::HashSet<_> = (0..20).map(|s| choose(s, 1.0)).collect();
    assert!(noisy.len() > 1, "{noisy:?}");
    let plain: std::collections::HashSet<_> = (0..5).map(|s| choose(s, 0.0)).collect();
    assert_eq!(plain.len(), 1);
}

#[test]
fn with_a_time_budget_a_gumbel_root_falls_back_to_puct() {
    let evaluator = Ticking {
        inner: counting(),
        per_position: Duration::from_millis(1),
    };
    let mut search = Mcts::new(evaluator, gumbel(4, 1));
    let budget = Budget::time(Duration::from_millis(30));
    let info =
        virtual_time::run(|| search.search(&start8(), &budget, &mut quiet())).expect("search");
    assert!(info.chosen.is_none());
    assert!(info.simulations > 4);
}

#[test]
fn the_search_backs_up_score_estimates_and_exact_margins_of_finished_games() {
    // Random playouts estimate the disc difference: the root's estimate is their mean.
    let info = mcts(4)
        .search(&start8(), &Budget::simulations(300), &mut quiet())
        .expect("search");
    let score = info.score.expect("playouts estimate a score");
    assert!(score.abs() < 64.0);
    assert!(info.moves.iter().all(|m| m.score.is_some()));
    // Without scores from the evaluator, only finished games bring one.
    let info = Mcts::new(counting(), MctsConfig::default())
        .search(&start8(), &Budget::simulations(50), &mut quiet())
        .expect("search");
    assert_eq!(info.score, None);
    // One move from the end: every move's score is its exact final margin.
    let mut rng = Rng::new(31);
    let mut checked = 0;
    while checked < 10 {
        let Some(pos) = random_endgame(&mut rng, 1) else {
            continue;
        };
        let config = MctsConfig {
            solver_empties: Some(0),
            root_solve: RootSolve {
                exact_empties: Some(0),
                ..RootSolve::default()
            },
            ..MctsConfig::default()
        };
        let info = Mcts::new(counting(), config)
            .search(&pos, &Budget::simulations(20), &mut quiet())
            .expect("search");
        for m in &info.moves {
            let after = pos.play(m.mv).expect("legal");
            let margin = -Solver::new().solve(&after).margin;
            if after.is_game_over() {
                assert_eq!(m.score, Some(margin as f32), "{}", pos.to_board_text());
            }
        }
        checked += 1;
    }
}

#[test]
fn every_nodes_margin_bounds_hold_the_true_margin() {
    // Score-bounded MCTS is only as good as its bounds: after searches of random 4x4
    // positions (finished games and a shallow solver as the only exact sources), every
    // node's bounds must contain the minimax margin of its position.
    let mut rng = Rng::new(31);
    let mut narrowed = 0;
    for round in 0..20 {
        let pos = random_4x4(&mut rng, 5);
        if pos.is_game_over() {
            continue;
        }
        let config = MctsConfig {
            seed: round,
            ..MctsConfig::default()
        };
        let driver = SearchDriver::new(config)
            .with_exact_solver(4, Box::new(|p: &Position| Some(minimax(p))));
        let mut search = Mcts::with_driver(driver, PlayoutEvaluator::new(round, 1));
        search
            .search(&pos, &Budget::simulations(300), &mut quiet())
            .expect("search");
        let tree = search.driver().tree();
        for (node, pos) in tree.nodes.iter().zip(tree.node_positions()) {
            // Bounds are from the view of the player who moved into the node.
            let margin = -minimax(&pos);
            let (lower, upper) = (node.lower as i32, node.upper as i32);
            assert!(
                lower <= margin && margin <= upper,
                "{lower}..{upper} misses {margin} in {}",
                pos.to_board_text()
            );
            narrowed += usize::from(node.known_bounds(tree.squares()).is_some());
        }
    }
    assert!(narrowed > 100, "only {narrowed} nodes had bounds");
}

#[test]
fn the_score_utility_prefers_the_larger_expected_margin_among_equal_values() {
    // A root with three moves, equal in visits, prior and value; the second expects to
    // win by more. The utility must pick it, and nothing must when it is off or the
    // evaluator never gave a score.
    let root = start8();
    let pick = |weight: f32, scored: bool| {
        let mut tree = SearchTree::new(MctsConfig {
            score_utility: weight,
            ..MctsConfig::default()
        });
        tree.set_root(&root);
        let moves = root.legal_move_list();
        let mut nodes = vec![tree.nodes[0].clone()];
        nodes[0].expansion = super::tree::Expansion::Expanded;
        nodes[0].first_child = 1;
        nodes[0].child_count = 3;
        nodes[0].visits = 30;
        for (i, mv) in moves.iter().take(3).enumerate() {
            let mut child = super::tree::Node::new(64, *mv, 0.25);
            child.visits = 10;
            child.value_mean = 0.5;
            child.score_n = 10;
            // Scores are kept over the squares: 4 discs, then 16, then 4.
            child.score_mean = if i == 1 { 0.25 } else { 0.0625 };
            nodes.push(child);
        }
        tree.nodes = nodes;
        tree.scored = scored;
        tree.nodes[tree.best_child(0)].mv
    };
    let moves = root.legal_move_list();
    assert_eq!(pick(0.3, true), moves[1]);
    assert_eq!(pick(0.0, true), moves[0]);
    assert_eq!(pick(0.3, false), moves[0]);
}

/// The driver's stages run by hand, as self-play runs them for many games at once, search
/// as `Mcts` does: the batched path and the single-tree path are one driver.
#[test]
fn the_driver_run_stage_by_stage_searches_as_mcts_does() {
    let config = MctsConfig {
        seed: 5,
        dirichlet_alpha: 0.3,
        ..MctsConfig::default()
    };
    let pos = Game::from_transcript("f5d6c3d3c4", start8())
        .expect("legal")
        .position()
        .to_owned();
    let budget = Budget::simulations(300);
    let expected = Mcts::new(PlayoutEvaluator::new(5, 2), config.clone())
        .search(&pos, &budget, &mut quiet())
        .expect("search");
    let mut driver = SearchDriver::new(config);
    let mut evaluator = PlayoutEvaluator::new(5, 2);
    driver.begin(&pos, Some(300), true);
    while !driver.finished(300) {
        let batch = driver.collect(driver.leaves_wanted(300));
        let evaluations = if batch.positions.is_empty() {
            Ok(Vec::new())
        } else {
            evaluator.evaluate(&batch.positions)
        };
        driver.complete(batch, evaluations).expect("evaluated");
    }
    let got = driver.report(expected.elapsed);
    assert_eq!(got.simulations, 300);
    assert_eq!(got.moves, expected.moves);
    assert_eq!(got.pv, expected.pv);
}

#[test]
fn the_root_decision_plays_a_forced_move_solves_within_reach_and_leaves_the_rest() {
    let mut rng = Rng::new(17);
    let mut solver = Solver::new();
    let mut driver = SearchDriver::new(MctsConfig::default());
    let budget = Budget::simulations(100);
    // A pass when nothing else is legal.
    let pass = Position::from_board_text(&format!("XO{} O", "-".repeat(62)), Variant::Standard)
        .expect("valid");
    assert_eq!(
        driver.decide_root(&pass, &budget, None),
        Some(RootDecision::Forced(Move::Pass))
    );
    // Within the always-solved endgame (16 empties on 8x8): the solver's best margin.
    let mut checked = 0;
    while checked < 4 {
        let Some(pos) = random_endgame(&mut rng, 14) else {
            continue;
        };
        if pos.legal_move_list().len() < 2 {
            continue;
        }
        checked += 1;
        let Some(RootDecision::Solved(solved)) = driver.decide_root(&pos, &budget, None) else {
            panic!("{} is within reach", pos.to_board_text());
        };
        assert_eq!(solved.margin, solver.solve(&pos).margin);
        let after = pos.play(solved.best).expect("legal");
        assert_eq!(-solver.solve(&after).margin, solved.margin);
    }
    // Far beyond it: the search decides.
    assert_eq!(driver.decide_root(&start8(), &budget, None), None);
    // Beyond the exact depth, with no budget to draw nodes from, no budgeted solve.
    let mut beyond = None;
    while beyond.is_none() {
        beyond = random_endgame(&mut rng, 18).filter(|p| p.legal_move_list().len() > 1);
    }
    let pos = beyond.expect("found");
    assert_eq!(driver.decide_root(&pos, &Budget::default(), None), None);
}

/// Small reaches (exact 8, tried 10, proofs to 14 empties) and a node budget of one per
/// millisecond: root solves stay small and are often cut short.
pub(super) fn small_root_solve() -> RootSolve {
    RootSolve {
        exact_empties: Some(8),
        extra_empties: Some(2),
        proof_empties: Some(14),
        nodes_per_ms: 1,
        ..RootSolve::default()
    }
}

/// A position of 11-14 empties (beyond `small_root_solve`'s tried solve, within its
/// proofs) with a choice of moves.
pub(super) fn proof_zone_endgame(rng: &mut Rng) -> Position {
    endgame_with_a_choice(rng, 11, 14)
}

/// A random 8x8 position of `fewest` to `most` empties with a choice of moves.
pub(super) fn endgame_with_a_choice(rng: &mut Rng, fewest: u32, most: u32) -> Position {
    loop {
        let empties = fewest + rng.below((most - fewest + 1) as usize) as u32;
        if let Some(pos) = random_endgame(rng, empties) {
            if pos.legal_move_list().len() > 1 {
                return pos;
            }
        }
    }
}

/// Root decisions on proofs, checked against the exact solver and counted by kind.
#[derive(Default)]
pub(super) struct RootProofs {
    pub(super) exact: usize,
    pub(super) result_only: usize,
    pub(super) left: usize,
    pub(super) lost: usize,
}

impl RootProofs {
    /// A solved move must be a proven win or draw or an exact margin, its bounds must hold
    /// the true margin, and its move must reach the proven one; a move left to the search
    /// may be reported proven lost only when it is.
    pub(super) fn check(
        &mut self,
        driver: &mut SearchDriver,
        solver: &mut Solver,
        pos: &Position,
        decision: Option<RootDecision>,
    ) {
        let text = pos.to_board_text();
        let truth = solver.solve(pos).margin;
        match decision {
            Some(RootDecision::Solved(solved)) => {
                assert!(
                    solved.margin >= 0 || solved.is_exact(),
                    "{text}: {solved:?}"
                );
                assert!(
                    solved.margin <= truth && truth <= solved.upper,
                    "{text}: {solved:?} but {truth}"
                );
                let after = pos.play(solved.best).expect("legal");
                assert!(-solver.solve(&after).margin >= solved.margin, "{text}");
                if solved.is_exact() {
                    self.exact += 1;
                } else {
                    self.result_only += 1;
                }
            }
            None => {
                self.left += 1;
                // The search that follows says when the loss was proven.
                driver.begin(pos, Some(1), false);
                if driver.report(Duration::ZERO).proof == Some(Proof::Loss) {
                    assert!(truth < 0, "{text}: reported lost, but {truth}");
                    self.lost += 1;
                }
            }
            other => panic!("{text}: {other:?}"),
        }
    }

    pub(super) fn decided(&self) -> usize {
        self.exact + self.result_only + self.left
    }
}

impl std::fmt::Display for RootProofs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} exact, {} with the result only, {} left to the search ({} proven lost)",
            self.exact, self.result_only, self.left, self.lost
        )
    }
}

/// Beyond the tried solve, a time budget buys a proof of the result: a proven win or draw
/// is played (its move reaches the proven margin, which bounds the true one), a proven loss
/// or an unfinished proof leaves the move to the search. A budget in simulations never
/// tries a proof there.
#[test]
fn a_time_budget_proves_the_result_beyond_the_tried_solve_and_plays_a_proven_win() {
    let config = MctsConfig {
        root_solve: small_root_solve(),
        ..MctsConfig::default()
    };
    let mut rng = Rng::new(41);
    let mut solver = Solver::new();
    let mut driver = SearchDriver::new(config);
    let mut proofs = RootProofs::default();
    while proofs.decided() < 60 {
        let pos = proof_zone_endgame(&mut rng);
        let text = pos.to_board_text();
        let nodes_before = driver.solver().nodes();
        assert_eq!(
            driver.decide_root(&pos, &Budget::simulations(100), None),
            None,
            "{text}: no proof for a budget in simulations"
        );
        assert_eq!(driver.solver().nodes(), nodes_before, "{text}");
        let time = Duration::from_millis(50 + rng.below(30_000) as u64);
        let decision = driver.decide_root(&pos, &Budget::time(time), Some(time));
        proofs.check(&mut driver, &mut solver, &pos, decision);
    }
    assert!(
        proofs.exact > 5 && proofs.result_only > 5 && proofs.left > 5 && proofs.lost > 2,
        "{proofs}"
    );
    // A search of another position does not inherit the proof.
    driver.begin(&start8(), Some(1), false);
    assert_eq!(driver.report(Duration::ZERO).proof, None);
}

/// The root rule a review, the book builder and the hints ask for is the driver's own: the
/// only legal move first, then the always-solved endgame at the config's reach (a spec's
/// `exact=` moves it), solved with the driver's one root solver.
#[test]
fn the_root_rule_is_the_driver_s_own_reach_and_its_one_root_solver() {
    let mut rng = Rng::new(5);
    let pos = std::iter::repeat_with(|| random_6x6_choice(&mut rng, 14))
        .flatten()
        .next()
        .expect("a 6x6 position with a choice at 14 empties");
    assert!(pos.empty_count() <= default_exact_root_empties(BoardSize::Six));
    let mut driver = SearchDriver::new(MctsConfig::default());
    let solved = match driver.root_rule(&pos) {
        crate::RootRule::Exact(solver) => solver.solve(&pos),
        other => panic!("{}: {other:?}", pos.to_board_text()),
    };
    // The rule's solver is the driver's root solver: its table now holds the solve.
    let nodes = driver.solver().nodes();
    assert!(nodes > 0);
    let again = driver
        .exact_root_solver(&pos)
        .expect("within the reach")
        .solve(&pos);
    assert_eq!(again.margin, solved.margin);
    assert!(
        driver.solver().nodes() - nodes < solved.nodes,
        "the table kept it"
    );

    let narrower = MctsConfig {
        root_solve: RootSolve {
            exact_empties: Some(12),
            ..RootSolve::default()
        },
        ..MctsConfig::default()
    };
    let mut narrower = SearchDriver::new(narrower);
    assert!(matches!(narrower.root_rule(&pos), crate::RootRule::Open));
    assert!(narrower.exact_root_solver(&pos).is_none());

    // One legal move is forced wherever it is, and the rule makes no solver for it.
    let mut forced = None;
    let mut rng = Rng::new(9);
    while forced.is_none() {
        let mut at = Position::start(BoardSize::Six, Variant::Standard);
        while !at.is_game_over() {
            if at.legal_move_list().len() == 1 {
                forced = Some(at);
                break;
            }
            let moves = at.legal_move_list();
            at = at
                .play(*rng.choose(&moves).expect("a move"))
                .expect("legal");
        }
    }
    let forced = forced.expect("found");
    let only = forced.legal_move_list()[0];
    let mut fresh = SearchDriver::new(MctsConfig::default());
    assert!(matches!(fresh.root_rule(&forced), crate::RootRule::Forced(mv) if mv == only));
    assert_eq!(
        fresh.decide_root(&forced, &Budget::simulations(10), None),
        Some(RootDecision::Forced(only))
    );
}
