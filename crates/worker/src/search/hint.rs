//! A hint's (and an analysis's) extra: when the solver settles the root exactly, the other
//! moves' margins too, and the solver's line as the principal variation.

/// A hint whose root the solver settled exactly names only its best move's margin. Within
/// the agent's sure reach (the search driver's root rule says `Exact`: 16 empties on 8x8
/// by default, a spec's `exact=` otherwise) the other moves are cheap to solve as well
/// (each position after one has an empty less than a root the solver finished), so every
/// legal move gets its exact margin, with the driver's own solver and table, as bounds the
/// merge and the hint's tiles read. Beyond that reach (a budgeted root solve, up to 20
/// empties) the other moves are solved too, within [`BEYOND_REACH_NODES`] in all: those
/// that fit get their margins, the others keep the search's word.
pub(super) fn solve_every_move(
    report: &mut protocol::Report,
    pos: &othello::Position,
    agent: &mut dyn engine::Agent,
) {
    if !report.search.solved.is_some_and(|s| s.exact) {
        return;
    }
    let within = matches!(agent.root_rule(pos), Some(engine::RootRule::Exact(_)));
    let Some(solver) = agent.root_solver() else {
        return;
    };
    let mut left = if within { u64::MAX } else { BEYOND_REACH_NODES };
    for mv in pos.legal_move_list() {
        let settled = report
            .moves
            .iter()
            .any(|m| m.mv == mv && m.bounds.is_some_and(|(low, high)| low == high));
        let Ok(after) = pos.play(mv) else { continue };
        if mv == othello::Move::Pass || settled || left == 0 {
            continue;
        }
        let start = solver.nodes();
        let solved = solver.solve_within(&after, left);
        left = left.saturating_sub(solver.nodes() - start);
        let Some(solution) = solved else { continue };
        let margin = -solution.margin;
        report.moves.retain(|m| m.mv != mv);
        report.moves.push(engine::report::MoveInfo {
            mv,
            visits: 0,
            prior: 0.0,
            q: margin.signum() as f32,
            proof: Some(engine::report::Proof::from_margin(margin)),
            bounds: Some((margin, margin)),
            target: 0.0,
            score: Some(margin as f32),
        });
    }
    // The solved root's principal variation is the solver's line, as a review's is: the
    // search's report names only the solver's move (the thirteenth look: "Proven win by
    // 34 ..., Principal variation: h7").
    if let Some(solved) = report.search.solved {
        report.search.pv =
            engine::review::solver_line_within(solver, pos, solved.best, left.max(1));
    }
}

/// The solver nodes a hint's or analysis's other moves (and its line) may take in all
/// beyond the agent's sure reach, where its root was solved within a budget: about 2 s of
/// the solver in Chromium, a review's capped solve's share
/// (`super::WORKER_MAX_REVIEW_SOLVE_NODES`), so a worker answers well inside the pool's
/// patience. The fourteenth look found a 17-empty analysis at Strongest "solved exactly
/// in 144 ms" with the other six moves "not searched".
const BEYOND_REACH_NODES: u64 = super::WORKER_MAX_REVIEW_SOLVE_NODES;

#[cfg(test)]
mod tests {
    use crate::search::tests::{endgame, request};
    use engine::Solver;
    use std::time::Duration;

    /// FFO #40: Black wins by 38 with a2 alone; c1 wins by 30.
    fn ffo_40() -> othello::Position {
        othello::Position::from_board_text(
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
            othello::Variant::Standard,
        )
        .expect("valid board text")
    }

    #[test]
    fn a_hint_gives_the_same_answer_after_a_longer_search_of_the_position() {
        let pos = ffo_40();
        let hint = |id, sims| protocol::SearchRequest {
            every_move: true,
            ..request(id, &pos, "mcts:best=1", sims, 1)
        };
        let solved = |report: protocol::Report| report.search.solved.expect("solved");
        let slice = Duration::from_millis(50);
        // 200 simulations allow 5 M solver nodes, in slices: a proven win and a bound.
        let fresh = solved(
            crate::search::Searcher::new()
                .run(hint(1, 200), slice)
                .expect("searches"),
        );
        assert!(!fresh.exact, "{fresh:?}");
        let mut warmed = crate::search::Searcher::new();
        let long = solved(warmed.run(hint(2, 4_000), slice).expect("searches"));
        assert_eq!(
            (long.best.to_string(), long.margin, long.exact),
            ("a2".into(), 38, true)
        );
        let again = solved(warmed.run(hint(3, 200), slice).expect("searches"));
        assert_eq!(
            again,
            protocol::SolvedStat {
                micros: again.micros,
                ..fresh
            }
        );
    }

    /// Every legal move of `pos` has its exact margin in `report`, by a solve of its own.
    fn assert_every_move_exact(report: &protocol::Report, pos: &othello::Position) {
        for mv in pos.legal_move_list() {
            let margin = -Solver::new().solve(&pos.play(mv).expect("legal")).margin;
            let stat = report
                .moves
                .iter()
                .find(|m| m.mv == mv)
                .expect("every move");
            assert_eq!(stat.bounds, Some((margin, margin)), "{mv}");
        }
    }

    #[test]
    fn beyond_the_sure_reach_a_solved_analysis_gives_the_other_moves_their_margins_too() {
        // The fourteenth look: a 17-empty analysis at Strongest was "solved exactly in
        // 144 ms", its six other moves "not searched". On 6x6 the sure reach is 18.
        let pos = endgame(20, 3);
        let mut analysis = request(9, &pos, "mcts:best=1", 400, 1);
        analysis.every_move = true;
        let report = crate::search::Searcher::new()
            .run(analysis, Duration::from_millis(50))
            .expect("searches");
        assert!(report.search.solved.is_some_and(|s| s.exact), "{report:?}");
        assert_every_move_exact(&report, &pos);
    }

    #[test]
    fn a_solved_hint_gives_every_move_its_exact_margin() {
        let pos = endgame(14, 3);
        let mut hint = request(7, &pos, "mcts", 20, 1);
        hint.every_move = true;
        let report = crate::search::Searcher::new()
            .run(hint, Duration::from_millis(50))
            .expect("searches");
        assert_every_move_exact(&report, &pos);
        // Its principal variation is perfect play, each move one of its position's best.
        let mut at = pos;
        for &step in &report.search.pv {
            let margins = Solver::new().score_moves(&at);
            let top = margins.iter().map(|&(_, m)| m).max().expect("moves");
            assert!(
                margins.contains(&(step, top)),
                "{step} of {:?} at {at}",
                report.search.pv
            );
            at = at.play(step).expect("a legal line");
        }
        assert!(report.search.pv.len() > 1, "{:?}", report.search.pv);
        // A move's search (not a hint) keeps the solver's one move.
        let report = crate::search::Searcher::new()
            .run(request(8, &pos, "mcts", 20, 1), Duration::from_millis(50))
            .expect("searches");
        assert!(report.moves.len() < pos.legal_move_list().len());
    }
}
