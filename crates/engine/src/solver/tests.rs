use super::*;
use crate::test_support::{assert_fail_soft, board_and_rules, minimax, random_open_position};
use crate::Rng;
use othello::Color;

#[test]
fn stable_discs_never_change_colour_in_any_continuation() {
    let mut rng = Rng::new(17);
    let mut solver = Solver::new();
    let mut found = 0;
    for game in 0..400 {
        let size = [BoardSize::Eight, BoardSize::Six, BoardSize::Four][game % 3];
        let mut pos = Position::start(size, Variant::Standard);
        solver.prepare(&pos);
        let plies = rng.below(size.squares() as usize);
        for _ in 0..plies {
            let moves = pos.legal_move_list();
            let Some(mv) = rng.choose(&moves) else { break };
            pos = pos.play(*mv).expect("legal");
        }
        let black = solver.stable(pos.black().0, pos.white().0);
        let white = solver.stable(pos.white().0, pos.black().0);
        found += (black | white).count_ones();
        // Several random continuations: a stable disc keeps its colour in all.
        for _ in 0..5 {
            let mut next = pos;
            while !next.is_game_over() {
                let moves = next.legal_move_list();
                let mv = *rng.choose(&moves).expect("not over");
                next = next.play(mv).expect("legal");
                assert_eq!(next.discs(Color::Black).0 & black, black);
                assert_eq!(next.discs(Color::White).0 & white, white);
            }
        }
    }
    assert!(found > 500, "only {found} stable discs seen");
}

/// Fail-soft: a value at or below alpha bounds the true one from above, at or above
/// beta from below, and in between it is exact. Checked for random windows, null
/// windows included, so no shortcut (stability, table bounds, the last-empties code)
/// may return a bound on the wrong side.
#[test]
fn search_values_are_fail_soft_bounds_for_any_window() {
    let mut rng = Rng::new(23);
    let mut solver = Solver::new();
    for case in 0..1200 {
        let (size, variant) = board_and_rules(case);
        let empties = 1 + rng.below(9) as u32;
        let Some(pos) = random_open_position(size, variant, empties, &mut rng) else {
            continue;
        };
        solver.prepare(&pos);
        let truth = minimax(&pos);
        let alpha = rng.below(60) as i32 - 30;
        let beta = if rng.below(2) == 0 {
            alpha + 1
        } else {
            alpha + 1 + rng.below(30) as i32
        };
        let (p, o) = (pos.player().0, pos.opponent().0);
        let v = solver.search(p, o, alpha, beta, pos.empty_count(), false);
        let text = pos.to_board_text();
        assert_fail_soft(v, alpha, beta, truth, &text);
    }
}

#[test]
fn a_full_board_is_all_stable() {
    let mut solver = Solver::new();
    let pos = Position::start(BoardSize::Four, Variant::Standard);
    solver.prepare(&pos);
    let black = 0x0000_0000_0f0f_0303u64;
    let white = 0x0000_0000_0000_0c0cu64;
    assert_eq!(solver.stable(black, white), black);
    assert_eq!(solver.stable(white, black), white);
}

/// A solve cut short by its node budget still proves only what is true: the bounds hold
/// the minimax margin, a settled win, loss or draw is the true one, and the move it names
/// for a win or a draw reaches the lower bound. The budgets are small enough that many
/// solves stop between the win/loss/draw search and the exact margin.
#[test]
fn a_budgeted_proof_bounds_the_true_margin_and_its_move_reaches_the_bound() {
    let mut rng = Rng::new(29);
    let (mut cut_short, mut result_only) = (0, 0);
    for case in 0..400 {
        let (size, variant) = board_and_rules(case);
        let empties = 8 + rng.below(3) as u32;
        let Some(pos) = random_open_position(size, variant, empties, &mut rng) else {
            continue;
        };
        let truth = minimax(&pos);
        let budget = 1 + rng.below(4000) as u64;
        let proven = Solver::with_table_bits(10).prove_within(&pos, budget);
        let text = pos.to_board_text();
        assert!(
            proven.lower <= truth && truth <= proven.upper,
            "{text}: {proven:?} but truth {truth}"
        );
        if let Some(result) = proven.win_loss_draw() {
            assert_eq!(result, WinLossDraw::from_margin(truth), "{text}");
        }
        if proven.lower >= 0 || proven.exact().is_some() {
            let best = proven.best.expect("a proven result names its move");
            let after = pos.play(best).expect("legal");
            assert!(-minimax(&after) >= proven.lower, "{text}: {proven:?}");
        }
        cut_short += usize::from(proven.exact().is_none());
        result_only += usize::from(proven.exact().is_none() && proven.win_loss_draw().is_some());
    }
    assert!(
        cut_short > 40 && result_only > 10,
        "{cut_short} cut short, {result_only} with only the result"
    );
}

/// One null-window test against the slow reference: it reaches the target exactly when
/// the true margin does, its fail-soft value bounds the margin on the side it fails, and
/// the move it names reaches the target by minimax; a budget too small says so.
#[test]
fn a_null_window_test_names_a_move_that_reaches_its_target() {
    let mut rng = Rng::new(41);
    let (mut reached, mut failed, mut ran_out) = (0, 0, 0);
    for case in 0..300 {
        let (size, variant) = board_and_rules(case);
        let empties = 8 + rng.below(3) as u32;
        let Some(pos) = random_open_position(size, variant, empties, &mut rng) else {
            continue;
        };
        let truth = minimax(&pos);
        let target = truth - 6 + 2 * rng.below(7) as i32;
        let budget = if case % 5 == 0 {
            1 + rng.below(200) as u64
        } else {
            u64::MAX
        };
        let text = pos.to_board_text();
        let Some((value, mv)) = Solver::with_table_bits(10).reaches_within(&pos, target, budget)
        else {
            ran_out += 1;
            continue;
        };
        if truth >= target {
            assert!(
                value >= target && value <= truth,
                "{text}: {value} at {target}"
            );
            let mv = mv.expect("a test that reaches its target names the move");
            assert!(
                -minimax(&pos.play(mv).expect("legal")) >= target,
                "{text}: {mv}"
            );
            reached += 1;
        } else {
            assert!(
                value < target && value >= truth,
                "{text}: {value} at {target}"
            );
            assert_eq!(mv, None, "{text}");
            failed += 1;
        }
    }
    assert!(
        reached > 50 && failed > 50 && ran_out > 5,
        "{reached} {failed} {ran_out}"
    );
}

/// Lopsided positions, where the margin lies far from the first search's bound and the
/// null-window tests take doubling steps (up for a big win, down for a big loss): the
/// margin and the move are still exact, on both boards and both rules.
#[test]
fn margins_far_from_the_first_guess_are_still_exact() {
    let mut rng = Rng::new(37);
    let (mut big_wins, mut big_losses) = (0, 0);
    for case in 0..400 {
        let (size, variant) = board_and_rules(case);
        let empties = 8 + rng.below(3) as u32;
        let Some(pos) = random_open_position(size, variant, empties, &mut rng) else {
            continue;
        };
        let truth = minimax(&pos);
        if truth.abs() < 16 {
            continue;
        }
        let text = pos.to_board_text();
        let solution = Solver::with_table_bits(12).solve(&pos);
        assert_eq!(solution.margin, truth, "{text}");
        let best = solution.best.expect("not over");
        assert_eq!(-minimax(&pos.play(best).expect("legal")), truth, "{text}");
        big_wins += usize::from(truth > 0);
        big_losses += usize::from(truth < 0);
    }
    assert!(
        big_wins > 20 && big_losses > 20,
        "{big_wins} wins, {big_losses} losses"
    );
}

#[test]
fn an_unlimited_proof_is_the_exact_solve() {
    let mut rng = Rng::new(31);
    for _ in 0..40 {
        let mut pos = Position::start(BoardSize::Eight, Variant::Standard);
        while pos.empty_count() > 12 && !pos.is_game_over() {
            let moves = pos.legal_move_list();
            pos = pos
                .play(*rng.choose(&moves).expect("not over"))
                .expect("legal");
        }
        let solution = Solver::new().solve(&pos);
        let proven = Solver::new().prove_within(&pos, u64::MAX);
        assert_eq!(proven.exact(), Some(solution.margin));
        assert_eq!(proven.best, solution.best);
    }
}

/// `shallow_value` by the definition: plain negamax of `static_value` to `depth` plies
/// over every move, a pass free, the end of the game sixteen units per disc.
fn shallow_reference(solver: &Solver, p: u64, o: u64, depth: u32) -> i32 {
    let moves = othello::raw::legal_moves_unmasked(p, o) & solver.mask;
    if depth == 0 {
        return solver.static_value(p, o, moves);
    }
    let mut best = -order::EVAL_BOUND;
    for sq in 0..64u8 {
        if moves & (1 << sq) == 0 {
            continue;
        }
        let f = flips(p, o, sq);
        let (np, no) = (o & !f, p | f | (1 << sq));
        let v = if othello::raw::legal_moves_unmasked(np, no) & solver.mask != 0 {
            -shallow_reference(solver, np, no, depth - 1)
        } else if othello::raw::legal_moves_unmasked(no, np) & solver.mask != 0 {
            shallow_reference(solver, no, np, depth - 1)
        } else {
            16 * solver.final_score(no, np)
        };
        best = best.max(v);
    }
    best
}

/// The ordering's shallow search (children sorted, alpha-beta) gives the plain
/// negamax value with the full window, in both variants.
#[test]
fn the_ordering_search_is_the_negamax_of_its_evaluation() {
    let mut rng = Rng::new(37);
    let mut solver = Solver::new();
    for case in 0..300 {
        let variant = [Variant::Standard, Variant::Reversed][case % 2];
        let mut pos = Position::start(BoardSize::Eight, variant);
        let empties = 10 + rng.below(40) as u32;
        while pos.empty_count() > empties && !pos.is_game_over() {
            let moves = pos.legal_move_list();
            pos = pos
                .play(*rng.choose(&moves).expect("not over"))
                .expect("legal");
        }
        solver.prepare(&pos);
        let (p, o) = (pos.player().0, pos.opponent().0);
        let moves = othello::raw::legal_moves_unmasked(p, o) & solver.mask;
        if moves == 0 {
            continue;
        }
        let depth = rng.below(4) as u32;
        let bound = order::EVAL_BOUND;
        assert_eq!(
            solver.shallow_value(p, o, moves, depth, -bound, bound),
            shallow_reference(&solver, p, o, depth),
            "{} depth {depth}",
            pos.to_board_text()
        );
    }
}

/// With the evaluation ordering switched on from 6 empties (14 by default, beyond what
/// minimax can check), exact scores, best moves and fail-soft bounds stay right: the
/// ordering, and skipping it for the table's move, changes only the order.
#[test]
fn ordering_by_evaluation_from_few_empties_keeps_exact_values() {
    let mut rng = Rng::new(41);
    let mut solver = Solver::new();
    solver.sort_empties = 6;
    for case in 0..300 {
        let variant = [Variant::Standard, Variant::Reversed][case % 2];
        let empties = 6 + rng.below(5) as u32;
        let Some(pos) = random_open_position(BoardSize::Eight, variant, empties, &mut rng) else {
            continue;
        };
        let truth = minimax(&pos);
        let text = pos.to_board_text();
        let solution = solver.solve(&pos);
        assert_eq!(solution.margin, truth, "{text}");
        let best = solution.best.expect("not over");
        assert_eq!(-minimax(&pos.play(best).expect("legal")), truth, "{text}");
        // A random window on the same table.
        let alpha = rng.below(40) as i32 - 20;
        let beta = alpha + 1 + rng.below(2) as i32 * rng.below(20) as i32;
        let (p, o) = (pos.player().0, pos.opponent().0);
        let v = solver.search(p, o, alpha, beta, pos.empty_count(), false);
        assert_fail_soft(v, alpha, beta, truth, &text);
    }
}

#[test]
fn the_ordering_searches_deepen_with_the_empties_up_to_a_cap() {
    let solver = Solver::new();
    let two_moves = 0b11;
    let depths: Vec<Option<u32>> = [13, 14, 22, 26, 30, 44, 60]
        .iter()
        .map(|&n| solver.sort_depth(n, two_moves))
        .collect();
    // Unchanged over the FFO range (20 to 26 empties), and never past 6 plies beyond it,
    // where the depth of an uncounted search per node would make a budget in nodes
    // meaningless.
    assert_eq!(
        depths,
        [None, Some(2), Some(4), Some(5), Some(6), Some(6), Some(6)]
    );
    assert_eq!(
        solver.sort_depth(40, 0b1),
        None,
        "a lone move needs no order"
    );
}
