//! The root proof in slices beside the search ([`RootSolve::slice_nodes`], the page's
//! worker): every slice within its nodes, what the slices prove as sound as a whole
//! proof, the search running meanwhile, and a settled proof ending the move.

use super::tests::{counting, proof_zone_endgame, small_root_solve, RootProofs};
use super::*;
use crate::solver::Solver;
use crate::{Budget, Rng, Thinking};
use std::time::Duration;

/// A slice stops at the first deep node past its budget; the last few empties below it
/// are counted without a check, so it may overrun by such a subtree.
const SLICE_OVERRUN: u64 = 2_000;

/// The small reaches of `small_root_solve` with slices of `slice` nodes, so that proofs
/// take several slices and are often cut short; no solver inside the tree, so that only
/// the root's proof settles a move.
fn sliced(slice: Option<u64>) -> MctsConfig {
    MctsConfig {
        solver_empties: Some(0),
        root_solve: RootSolve {
            slice_nodes: slice,
            ..small_root_solve()
        },
        ..MctsConfig::default()
    }
}

#[test]
fn a_proof_in_slices_keeps_each_slice_within_its_nodes_and_proves_only_what_holds() {
    const SLICE: u64 = 1_000;
    let mut rng = Rng::new(43);
    let mut solver = Solver::new();
    let mut driver = SearchDriver::new(sliced(Some(SLICE)));
    let (mut proofs, mut several) = (RootProofs::default(), 0);
    while proofs.decided() < 60 {
        let pos = proof_zone_endgame(&mut rng);
        let text = pos.to_board_text();
        let time = Duration::from_millis(50 + rng.below(30_000) as u64);
        // Only started: the caller searches beside it.
        assert_eq!(
            driver.decide_root(&pos, &Budget::time(time), Some(time)),
            None
        );
        assert!(driver.proving(), "{text}");
        let mut slices = 0;
        let mut budget = time.as_millis() as u64;
        let decision = loop {
            let before = driver.solver().nodes();
            let decision = driver.prove_more();
            let used = driver.solver().nodes() - before;
            slices += 1;
            assert!(
                used <= SLICE + SLICE_OVERRUN,
                "{text}: a slice of {used} nodes"
            );
            budget = budget.saturating_sub(used);
            if decision.is_some() || !driver.proving() {
                break decision;
            }
            assert!(budget > 0, "{text}: a proof past its budget");
        };
        if slices > 1 {
            several += 1;
        }
        proofs.check(&mut driver, &mut solver, &pos, decision);
    }
    assert!(
        proofs.exact > 5
            && proofs.result_only > 5
            && proofs.left > 5
            && proofs.lost > 2
            && several > 30,
        "{proofs}, {several} in more than one slice"
    );
}

/// Each slice of thinking runs a slice of the proof and then the search, which reports as
/// usual; when the proof settles the root, the move is the solver's and the thinking ends,
/// as a whole proof before the search would have ended it.
#[test]
fn the_search_runs_beside_a_proof_in_slices_until_the_proof_settles_the_move() {
    let mut rng = Rng::new(7);
    let mut whole = Mcts::new(counting(), sliced(None));
    let mut checked = 0;
    while checked < 3 {
        let pos = proof_zone_endgame(&mut rng);
        // A long time, so that only the proof ends the move; whole proofs that need
        // several slices and fit the budget.
        let budget = Budget::time(Duration::from_secs(600));
        let mut thinking = Thinking::new(pos, budget);
        let expected = whole
            .think_more(&mut thinking, Duration::ZERO)
            .expect("thinks");
        let Some(expected) = expected.solved.filter(|_| thinking.is_done()) else {
            continue;
        };
        if !(5_000..100_000).contains(&expected.nodes) {
            continue;
        }
        checked += 1;
        let mut search = Mcts::new(counting(), sliced(Some(2_000)));
        let mut thinking = Thinking::new(pos, budget);
        let first = search
            .think_more(&mut thinking, Duration::from_millis(1))
            .expect("thinks");
        assert!(!thinking.is_done() && first.solved.is_none());
        assert!(first.simulations > 0, "the search runs beside the proof");
        let mut info = first;
        let mut slices = 1;
        while !thinking.is_done() {
            slices += 1;
            assert!(slices < 10_000, "the proof never settled the move");
            info = search
                .think_more(&mut thinking, Duration::from_millis(1))
                .expect("thinks");
        }
        let solved = info.solved.expect("settled by the proof");
        assert_eq!(info.best_move(), Some(solved.best));
        // The same bounds' kind: exact where the whole proof was, the same result else.
        assert_eq!(
            solved.is_exact(),
            expected.is_exact(),
            "{}",
            pos.to_board_text()
        );
        if solved.is_exact() {
            assert_eq!(solved.margin, expected.margin);
        }
    }
}

/// A proof cut short by the move's end (`end_proof`) still plays what it has proven, as a
/// whole proof cut short by its nodes does: a proven win or draw, sound; anything less
/// is the search's.
#[test]
fn a_proof_ended_early_plays_what_it_has_proven() {
    let mut rng = Rng::new(5);
    let mut solver = Solver::new();
    let mut driver = SearchDriver::new(sliced(Some(1_000)));
    let mut proofs = RootProofs::default();
    while proofs.decided() < 40 {
        let pos = proof_zone_endgame(&mut rng);
        let time = Duration::from_secs(600);
        assert_eq!(
            driver.decide_root(&pos, &Budget::time(time), Some(time)),
            None
        );
        if driver.prove_more().is_some() || !driver.proving() {
            continue;
        }
        let decision = driver.end_proof();
        assert!(!driver.proving());
        assert_eq!(driver.end_proof(), None, "ended once");
        proofs.check(&mut driver, &mut solver, &pos, decision);
    }
    // Unfinished, so never exact.
    assert_eq!(proofs.exact, 0, "{proofs}");
    assert!(proofs.result_only > 5 && proofs.left > 5, "{proofs}");
}
