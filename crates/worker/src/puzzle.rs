//! Puzzle mode's solves (docs/puzzles.md, "Puzzle mode"): perfect play from a position,
//! and whether a player's own mistake is a puzzle by the shipped sets' rules.

use engine::puzzles::{default_gap, perfect_line, prove_puzzle, Proving, Rater};
use engine::Solver;
use protocol::{FoundPuzzle, PuzzleAsk, PuzzleReply, PuzzleRequest};

/// One solver for a player's puzzles, kept between requests: when a puzzle is played out
/// the solver's replies come one position after another, and its table keeps what the
/// previous solve learnt, so each reply after the first is all but free.
#[derive(Debug, Default)]
pub struct PuzzleSolver {
    solver: Option<Solver>,
}

impl PuzzleSolver {
    pub fn answer(&mut self, request: &PuzzleRequest) -> PuzzleReply {
        let pos = match request.position() {
            Ok(pos) => pos,
            Err(error) => return PuzzleReply::Failed(error),
        };
        let solver = self.solver.get_or_insert_with(Solver::new);
        match request.ask {
            PuzzleAsk::Line => {
                if !pos.is_game_over() && solver.solve_within(&pos, request.max_nodes).is_none() {
                    return PuzzleReply::OutOfReach;
                }
                // The first solve filled the table: the rest of the line reads it back.
                PuzzleReply::Line(perfect_line(&pos, solver))
            }
            PuzzleAsk::Prove => {
                // The weak players that rate a shipped puzzle, without the network's policy
                // (the worker would need the page's network loaded first): a mistake's
                // first rating leaves out that one step.
                let mut rater = match Rater::new(None, &engine::NoModels) {
                    Ok(rater) => rater,
                    Err(error) => return PuzzleReply::Failed(error.to_string()),
                };
                let gap = default_gap(pos.size());
                match prove_puzzle(&pos, solver, request.max_nodes, gap, &mut rater) {
                    Proving::Puzzle(puzzle) => PuzzleReply::Proven(Some(FoundPuzzle::of(&puzzle))),
                    Proving::NotAPuzzle => PuzzleReply::Proven(None),
                    Proving::OutOfReach => PuzzleReply::OutOfReach,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tests::endgame;

    fn ask(pos: &othello::Position, ask: PuzzleAsk, max_nodes: u64) -> PuzzleRequest {
        PuzzleRequest {
            id: 1,
            board: pos.to_board_text(),
            variant: pos.variant(),
            ask,
            max_nodes,
        }
    }

    #[test]
    fn a_line_is_the_solvers_perfect_play_and_a_proof_the_builders_judgement() {
        let pos = endgame(10, 3);
        let mut puzzles = PuzzleSolver::default();
        let line = puzzles.answer(&ask(&pos, PuzzleAsk::Line, u64::MAX));
        assert_eq!(
            line,
            PuzzleReply::Line(perfect_line(&pos, &mut Solver::new()))
        );
        let mut rater = Rater::new(None, &engine::NoModels).expect("weak players");
        let expected = match prove_puzzle(&pos, &mut Solver::new(), u64::MAX, 6, &mut rater) {
            Proving::Puzzle(p) => PuzzleReply::Proven(Some(FoundPuzzle::of(&p))),
            Proving::NotAPuzzle => PuzzleReply::Proven(None),
            Proving::OutOfReach => PuzzleReply::OutOfReach,
        };
        assert_eq!(
            puzzles.answer(&ask(&pos, PuzzleAsk::Prove, u64::MAX)),
            expected
        );
    }

    #[test]
    fn a_solve_past_its_budget_or_a_bad_board_is_said_so() {
        // 24 empties: far more than 10,000 positions to prove anything.
        let mut rng = engine::Rng::new(9);
        let deep = othello::testing::random_position(
            othello::BoardSize::Eight,
            othello::Variant::Standard,
            othello::testing::Stop::AtEmpties(24),
            |n| rng.below(n),
        );
        let mut puzzles = PuzzleSolver::default();
        assert_eq!(
            puzzles.answer(&ask(&deep, PuzzleAsk::Line, 10_000)),
            PuzzleReply::OutOfReach
        );
        assert_eq!(
            puzzles.answer(&ask(&deep, PuzzleAsk::Prove, 10_000)),
            PuzzleReply::OutOfReach
        );
        let bad = PuzzleRequest {
            board: "not a board".into(),
            ..ask(&deep, PuzzleAsk::Line, 10)
        };
        assert!(matches!(puzzles.answer(&bad), PuzzleReply::Failed(_)));
    }
}
