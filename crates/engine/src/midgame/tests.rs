use super::*;
use crate::test_support::{assert_fail_soft, board_and_rules, minimax, random_open_position};
use crate::Rng;

/// Plain negamax to a fixed depth over the same evaluation, with the search's rules: a
/// pass is not a ply, and a position the depth reaches the end from is valued by its exact
/// margin. Slow and obviously right.
fn reference<E: StaticEval>(eval: &mut E, pos: &Position, depth: u32) -> i32 {
    if depth >= pos.empty_count() {
        return minimax(pos) * UNIT;
    }
    if depth == 0 && pos.player().0 != 0 {
        return eval.evaluate(pos.player().0, pos.opponent().0);
    }
    if let Some(outcome) = pos.outcome() {
        return outcome.margin_for(pos.side_to_move()) * UNIT;
    }
    if pos.must_pass() {
        return -reference(eval, &pos.play_unchecked(Move::Pass), depth);
    }
    pos.legal_move_list()
        .into_iter()
        .map(|mv| -reference(eval, &pos.play_unchecked(mv), depth - 1))
        .max()
        .unwrap_or(0)
}

fn search(midgame: &mut Midgame<FeatureEval>, pos: &Position, limits: Limits) -> Iteration {
    midgame
        .search(pos, &limits, &[], &mut |_| {})
        .expect("a game not over")
}

fn exact_only_at_the_end() -> MidgameConfig {
    MidgameConfig {
        exact_ahead: 0,
        table_bits: 12,
        ..MidgameConfig::default()
    }
}

#[test]
fn the_search_with_its_table_and_windows_finds_plain_negamax_s_value_at_every_depth() {
    let mut rng = Rng::new(67);
    let mut searched = 0;
    for case in 0..24 {
        let (size, variant) = board_and_rules(case);
        let empties = [size.squares() - 8, 16, 9, 6][case % 4];
        let Some(pos) = random_open_position(size, variant, empties, &mut rng) else {
            continue;
        };
        let mut eval = FeatureEval::new(size, variant);
        // One search object for every depth and position: the table carries over, as in
        // a game, and must never change a value.
        let mut midgame = Midgame::new(FeatureEval::new(size, variant), exact_only_at_the_end());
        for depth in 1..=4 {
            let found = search(&mut midgame, &pos, Limits::depth(depth));
            let truth = reference(&mut eval, &pos, depth);
            assert_eq!(
                found.value,
                truth,
                "case {case}, depth {depth}: {}",
                pos.to_board_text()
            );
            let child = pos.play_unchecked(found.best);
            let best_value = if found.exact {
                -minimax(&child) * UNIT
            } else {
                -reference(&mut eval, &child, depth - 1)
            };
            assert_eq!(
                best_value, truth,
                "the best move {} gets the value",
                found.best
            );
            searched += 1;
        }
    }
    assert!(searched >= 60, "{searched}");
}

#[test]
fn a_leaf_s_two_ply_value_searched_best_first_is_plain_negamax_s() {
    let mut rng = Rng::new(2);
    let mut searched = 0;
    for case in 0..40 {
        let (size, variant) = board_and_rules(case);
        let empties = [size.squares() - 10, 20, 12, 3][case % 4];
        let Some(pos) = random_open_position(size, variant, empties, &mut rng) else {
            continue;
        };
        let mut eval = FeatureEval::new(size, variant);
        let mut midgame = Midgame::new(FeatureEval::new(size, variant), exact_only_at_the_end());
        for depth in 1..=3 {
            let truth = reference(&mut eval, &pos, depth);
            assert_eq!(
                midgame.value(&pos, depth),
                truth,
                "case {case}, depth {depth}"
            );
        }
        // The class order's search, which the best-first one replaces at two plies.
        let (p, o) = (pos.player().0, pos.opponent().0);
        midgame.start(&pos, &Limits::default());
        assert_eq!(
            midgame.pvs(p, o, 2, -INF, INF, false),
            reference(&mut eval, &pos, 2)
        );
        searched += 1;
    }
    assert!(searched >= 30, "{searched}");
}

#[test]
fn a_search_that_reaches_the_end_gives_the_exact_margin_and_a_move_that_gets_it() {
    let mut rng = Rng::new(11);
    for case in 0..12 {
        let (size, variant) = board_and_rules(case);
        let Some(pos) = random_open_position(size, variant, 9, &mut rng) else {
            continue;
        };
        let mut midgame = Midgame::new(FeatureEval::new(size, variant), exact_only_at_the_end());
        let found = search(&mut midgame, &pos, Limits::depth(20));
        assert!(found.exact);
        assert_eq!(found.value, minimax(&pos) * UNIT);
        assert_eq!(-minimax(&pos.play_unchecked(found.best)), minimax(&pos));
    }
}

#[test]
fn the_exact_value_of_a_node_is_fail_soft_in_any_window() {
    let mut rng = Rng::new(5);
    let mut midgame = Midgame::new(
        FeatureEval::new(BoardSize::Six, Variant::Standard),
        exact_only_at_the_end(),
    );
    for _ in 0..20 {
        let Some(pos) = random_open_position(BoardSize::Six, Variant::Standard, 8, &mut rng) else {
            continue;
        };
        midgame.prepare(&pos);
        let truth = minimax(&pos) * UNIT;
        for (alpha, beta) in [
            (-INF, INF),
            (-150, 250),
            (truth - 1, truth + 1),
            (truth + 99, truth + 301),
        ] {
            let v = midgame.pvs(pos.player().0, pos.opponent().0, 20, alpha, beta, false);
            assert_fail_soft(v, alpha, beta, truth, "an exact node");
        }
    }
}

#[test]
fn a_node_budget_stops_the_search_with_a_legal_move() {
    let mut rng = Rng::new(3);
    let pos = random_open_position(BoardSize::Eight, Variant::Standard, 40, &mut rng)
        .expect("an open position");
    let mut midgame = Midgame::new(
        FeatureEval::new(BoardSize::Eight, Variant::Standard),
        MidgameConfig::default(),
    );
    let limits = Limits {
        nodes: Some(50_000),
        ..Limits::default()
    };
    let mut iterations = Vec::new();
    let found = midgame
        .search(&pos, &limits, &[], &mut |it| iterations.push(it.depth))
        .expect("open");
    assert!(pos.is_legal(found.best));
    assert!(midgame.nodes() < 50_000 + 2 * 4096, "{}", midgame.nodes());
    assert!(
        found.depth >= 3,
        "three plies fit in 50,000 positions: {iterations:?}"
    );
    assert_eq!(iterations, (1..=found.depth).collect::<Vec<_>>());
}

#[test]
fn the_principal_variation_is_a_legal_line_that_starts_with_the_move() {
    let mut rng = Rng::new(9);
    for _ in 0..6 {
        let Some(pos) = random_open_position(BoardSize::Eight, Variant::Standard, 36, &mut rng)
        else {
            continue;
        };
        let mut midgame = Midgame::new(
            FeatureEval::new(BoardSize::Eight, Variant::Standard),
            MidgameConfig::default(),
        );
        let found = search(&mut midgame, &pos, Limits::depth(6));
        assert_eq!(found.pv.first(), Some(&found.best));
        assert!(found.pv.len() >= 2, "{:?}", found.pv);
        let mut at = pos;
        for &mv in &found.pv {
            at = at.play(mv).expect("a legal line");
        }
    }
}

#[test]
fn equal_root_moves_are_played_in_the_order_given() {
    // The start: the four moves are equal by symmetry, so the order decides.
    let pos = Position::start(BoardSize::Eight, Variant::Standard);
    let moves: Vec<Square> = pos.legal_moves().collect();
    for &first in &moves {
        let mut midgame = Midgame::new(
            FeatureEval::new(BoardSize::Eight, Variant::Standard),
            MidgameConfig::default(),
        );
        let found = midgame
            .search(&pos, &Limits::depth(3), &[first], &mut |_| {})
            .expect("open");
        assert_eq!(found.best, Move::Place(first));
    }
}

#[test]
fn probable_cuts_visit_fewer_positions_and_keep_the_value_close() {
    let mut rng = Rng::new(21);
    let (mut full_nodes, mut cut_nodes, mut compared) = (0, 0, 0);
    for _ in 0..8 {
        let Some(pos) = random_open_position(BoardSize::Eight, Variant::Standard, 34, &mut rng)
        else {
            continue;
        };
        let run = |probcut: Option<ProbCut>| {
            let config = MidgameConfig {
                probcut,
                ..MidgameConfig::default()
            };
            let mut midgame = Midgame::new(FeatureEval::new(pos.size(), pos.variant()), config);
            let found = search(&mut midgame, &pos, Limits::depth(7));
            (found.value, midgame.nodes())
        };
        let (full, nodes) = run(None);
        let (cut, cheaper) = run(Some(ProbCut::default()));
        assert!((full - cut).abs() <= 10 * UNIT, "{full} against {cut}");
        (full_nodes, cut_nodes, compared) = (full_nodes + nodes, cut_nodes + cheaper, compared + 1);
    }
    assert!(compared >= 6);
    assert!(cut_nodes < full_nodes, "{cut_nodes} against {full_nodes}");
}
