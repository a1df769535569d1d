//! A hint's extra: when the solver settles the root exactly, the other moves' margins too.

/// A hint whose root the solver settled exactly names only its best move's margin. Within
/// the agent's sure reach (the search driver's root rule says `Exact`: 16 empties on 8x8
/// by default, a spec's `exact=` otherwise) the other moves are cheap to solve as well
/// (each position after one has an empty less than a root the solver finished), so every
/// legal move gets its exact margin, with the driver's own solver and table, as bounds the
/// merge and the hint's tiles read. Beyond that reach (a budgeted root solve at up to 20
/// empties) a move's solve could take seconds, so those moves keep the search's word.
pub(super) fn solve_every_move(
    report: &mut crate::protocol::Report,
    pos: &othello::Position,
    agent: &mut dyn engine::Agent,
) {
    if !report.search.solved.is_some_and(|s| s.exact) {
        return;
    }
    let Some(engine::RootRule::Exact(solver)) = agent.root_rule(pos) else {
        return;
    };
    for mv in pos.legal_move_list() {
        let settled = report
            .moves
            .iter()
            .any(|m| m.mv == mv && m.bounds.is_some_and(|(low, high)| low == high));
        let Ok(after) = pos.play(mv) else { continue };
        if mv == othello::Move::Pass || settled {
            continue;
        }
        let margin = -solver.solve(&after).margin;
        report.moves.retain(|m| m.mv != mv);
        report.moves.push(crate::protocol::MoveStat {
            mv,
            visits: 0,
            prior: 0.0,
            q: margin.signum() as f32,
            proof: Some(margin.signum() as i8),
            bounds: Some((margin, margin)),
            score: Some(margin as f32),
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::worker::search::tests::{endgame, request};
    use engine::Solver;
    use std::time::Duration;

    #[test]
    fn a_solved_hint_gives_every_move_its_exact_margin() {
        let pos = endgame(14, 3);
        let mut hint = request(7, &pos, "mcts", 20, 1);
        hint.every_move = true;
        let report = crate::worker::search::Searcher::new()
            .run(hint, Duration::from_millis(50))
            .expect("searches");
        for mv in pos.legal_move_list() {
            let after = pos.play(mv).expect("legal");
            let margin = -Solver::new().solve(&after).margin;
            let stat = report
                .moves
                .iter()
                .find(|m| m.mv == mv)
                .expect("every move");
            assert_eq!(stat.bounds, Some((margin, margin)), "{mv}");
        }
        // A move's search (not a hint) keeps the solver's one move.
        let report = crate::worker::search::Searcher::new()
            .run(request(8, &pos, "mcts", 20, 1), Duration::from_millis(50))
            .expect("searches");
        assert!(report.moves.len() < pos.legal_move_list().len());
    }
}
