//! A root proof split by the root's moves among several searchers ([`RootSolve::part`],
//! the page's workers at a timed level): the parts share out every move once, and what a
//! part proves of its moves reaches its tree's report as bounds that hold, checked against
//! the exact margin of every move; a proven win is the move its search plays.

use super::tests::{counting, endgame_with_a_choice, proof_zone_endgame, small_root_solve};
use super::*;
use crate::report::Proof;
use crate::solver::Solver;
use crate::{Budget, Rng};
use othello::{Move, Position};
use std::time::Duration;

/// `small_root_solve`'s reaches (proofs at 11-14 empties) for part `index` of `parts`,
/// in slices of `slice` nodes or in one go; no solver inside the tree, so that only the
/// root's proof knows anything of the moves.
fn part_config(index: u32, parts: u32, slice: Option<u64>) -> MctsConfig {
    MctsConfig {
        solver_empties: Some(0),
        root_solve: RootSolve {
            slice_nodes: slice,
            part: Some(ProofPart { index, parts }),
            ..small_root_solve()
        },
        ..MctsConfig::default()
    }
}

/// The root decision of a part, its proof run to the end in slices where it has them.
fn decide(driver: &mut SearchDriver, pos: &Position, time: Duration) -> Option<RootDecision> {
    let decision = driver.decide_root(pos, &Budget::time(time), Some(time));
    if decision.is_some() {
        return decision;
    }
    while driver.proving() {
        if let Some(decision) = driver.prove_more() {
            return Some(decision);
        }
    }
    None
}

#[test]
fn the_parts_of_a_split_share_out_every_move_once() {
    let mut rng = Rng::new(5);
    for _ in 0..200 {
        let legal = rng.next_u64();
        for parts in 1..=5 {
            let shares: Vec<u64> = (0..parts)
                .map(|index| ProofPart { index, parts }.moves(legal))
                .collect();
            assert_eq!(shares.iter().fold(0, |all, s| all | s), legal);
            assert_eq!(
                shares.iter().map(|s| s.count_ones()).sum::<u32>(),
                legal.count_ones()
            );
            // Round robin: the shares' sizes differ by one at most.
            let sizes: Vec<u32> = shares.iter().map(|s| s.count_ones()).collect();
            let (low, high) = (sizes.iter().min(), sizes.iter().max());
            assert!(high.zip(low).is_some_and(|(h, l)| h - l <= 1), "{sizes:?}");
        }
    }
}

/// Every part of a split, on positions beyond the tried solve with budgets from a few
/// nodes to plenty: a part never settles the move itself; what it proves of its moves
/// reaches its search's report as bounds that hold the exact margins, a winning share
/// marks a winning move, and the move the search then chooses is that win.
#[test]
fn a_split_proof_bounds_its_moves_truly_and_its_search_plays_a_proven_win() {
    let mut rng = Rng::new(47);
    let mut solver = Solver::new();
    let (mut wins, mut bounded, mut drawn, mut cut_short) = (0, 0, 0, 0);
    for round in 0..40 {
        let pos = proof_zone_endgame(&mut rng);
        let text = pos.to_board_text();
        let margins = solver.score_moves(&pos);
        let margin_of = |mv| margins.iter().find(|(m, _)| *m == mv).map(|(_, v)| *v);
        let parts = 2 + rng.below(2) as u32;
        let slice = (round % 2 == 0).then_some(500);
        for index in 0..parts {
            let part = ProofPart { index, parts };
            let share = part.moves(pos.legal_moves().0);
            let in_share = |mv: Move| mv.square().is_some_and(|sq| share & sq.bit() != 0);
            let Some(best) = margins
                .iter()
                .filter(|(mv, _)| in_share(*mv))
                .map(|(_, v)| *v)
                .max()
            else {
                continue;
            };
            let time = Duration::from_millis(20 + rng.below(20_000) as u64);
            let mut driver = SearchDriver::new(part_config(index, parts, slice));
            assert_eq!(decide(&mut driver, &pos, time), None, "{text}");
            driver.begin(&pos, Some(200), false);
            driver.advance(&mut counting(), 200, None).expect("search");
            let report = driver.report(Duration::ZERO);
            let known: Vec<_> = report
                .moves
                .iter()
                .filter_map(|m| Some((m.mv, m.bounds?)))
                .collect();
            for (mv, (lower, upper)) in &known {
                let truth = margin_of(*mv).expect("a legal move");
                assert!(in_share(*mv), "{text}: {mv} is not part {index}'s");
                assert!(
                    *lower <= truth && truth <= *upper,
                    "{text}: {mv} bounded {lower}..{upper}, but {truth}"
                );
            }
            if known.is_empty() {
                // Cut short by its budget: nothing proven, so nothing claimed.
                cut_short += 1;
            } else if best >= 1 {
                // One winning move is marked, and the search plays it.
                assert_eq!(known.len(), 1, "{text}");
                assert!(known[0].1 .0 >= 1, "{text}: {known:?}");
                assert_eq!(report.proof, Some(Proof::Win), "{text}");
                assert_eq!(report.best_move(), Some(known[0].0), "{text}");
                wins += 1;
            } else {
                assert_eq!(known.len(), share.count_ones() as usize, "{text}");
                bounded += 1;
                if best == 0 {
                    assert!(known.iter().any(|(_, b)| *b == (0, 0)), "{text}");
                    drawn += 1;
                }
            }
        }
    }
    assert!(
        wins > 5 && bounded > 5 && drawn > 0 && cut_short > 5,
        "{wins} wins, {bounded} bounded ({drawn} drawn), {cut_short} cut short"
    );
}

/// Below the split's reach (the tried solve) every part solves the whole root, for the
/// exact margin, as a searcher alone does.
#[test]
fn within_the_tried_solve_every_part_solves_the_whole_root() {
    let mut rng = Rng::new(48);
    let mut solver = Solver::new();
    for _ in 0..10 {
        let pos = endgame_with_a_choice(&mut rng, 9, 10);
        let truth = solver.solve(&pos).margin;
        for index in 0..3 {
            let mut driver = SearchDriver::new(part_config(index, 3, None));
            let time = Duration::from_secs(1_000);
            match decide(&mut driver, &pos, time) {
                Some(RootDecision::Solved(solved)) => {
                    assert_eq!((solved.margin, solved.upper), (truth, truth));
                }
                other => panic!("{}: {other:?}", pos.to_board_text()),
            }
        }
    }
}
