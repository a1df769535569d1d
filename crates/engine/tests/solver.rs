//! The solver against the rules themselves: a slow, obviously correct minimax over
//! `Position::play`, known results (6x6 perfect play, FFO #40).

use engine::{Rng, Solver, WinLossDraw};
use othello::testing::{self, Stop};
use othello::{BoardSize, Color, Game, Move, Position, Variant};

/// Exact margin for the side to move by full minimax, straight from the rules.
fn minimax(pos: &Position) -> i32 {
    if let Some(outcome) = pos.outcome() {
        return outcome.margin_for(pos.side_to_move());
    }
    pos.legal_move_list()
        .into_iter()
        .map(|mv| -minimax(&pos.play(mv).expect("listed moves are legal")))
        .max()
        .expect("a game that is not over has a move")
}

/// A position from random play with at most `empties` empty squares (more when the game
/// ended early).
fn random_position(size: BoardSize, variant: Variant, empties: u32, rng: &mut Rng) -> Position {
    testing::random_position(size, variant, Stop::AtEmpties(empties), |n| rng.below(n))
}

fn check_against_minimax(size: BoardSize, variant: Variant, count: usize, max_empties: u32) {
    let mut rng = Rng::new(size.n() as u64 * 10 + variant as u64);
    let mut solver = Solver::new();
    for i in 0..count {
        let empties = rng.below(max_empties as usize + 1) as u32;
        let pos = random_position(size, variant, empties, &mut rng);
        let expected = minimax(&pos);
        let solution = solver.solve(&pos);
        assert_eq!(
            solution.margin,
            expected,
            "position {i}: {} ({variant})",
            pos.to_board_text()
        );
        match solution.best {
            None => assert!(pos.is_game_over()),
            Some(mv) => {
                let after = pos.play(mv).expect("the best move is legal");
                assert_eq!(
                    -minimax(&after),
                    expected,
                    "best move {mv} in {}",
                    pos.to_board_text()
                );
            }
        }
        let (wld, best, _) = solver.win_loss_draw(&pos);
        let want = match expected.signum() {
            1 => WinLossDraw::Win,
            -1 => WinLossDraw::Loss,
            _ => WinLossDraw::Draw,
        };
        assert_eq!(wld, want, "{}", pos.to_board_text());
        if let Some(mv) = best {
            let after = pos.play(mv).expect("the WLD move is legal");
            assert_eq!((-minimax(&after)).signum(), expected.signum());
        }
    }
}

#[test]
fn the_solver_agrees_with_minimax_on_8x8_standard_endings() {
    check_against_minimax(BoardSize::Eight, Variant::Standard, 1500, 9);
}

#[test]
fn the_solver_agrees_with_minimax_on_8x8_reversed_endings() {
    check_against_minimax(BoardSize::Eight, Variant::Reversed, 1500, 9);
}

#[test]
fn the_solver_agrees_with_minimax_on_6x6_standard_endings() {
    check_against_minimax(BoardSize::Six, Variant::Standard, 1500, 10);
}

#[test]
fn the_solver_agrees_with_minimax_on_6x6_reversed_endings() {
    check_against_minimax(BoardSize::Six, Variant::Reversed, 1500, 10);
}

#[test]
fn the_solver_agrees_with_minimax_on_whole_4x4_games() {
    for variant in [Variant::Standard, Variant::Reversed] {
        check_against_minimax(BoardSize::Four, variant, 300, 12);
    }
}

#[test]
fn every_move_score_matches_minimax() {
    let mut rng = Rng::new(99);
    let mut solver = Solver::new();
    for variant in [Variant::Standard, Variant::Reversed] {
        for _ in 0..200 {
            let pos = random_position(BoardSize::Eight, variant, 8, &mut rng);
            let scores = solver.score_moves(&pos);
            assert_eq!(scores.len(), pos.legal_move_list().len());
            for window in scores.windows(2) {
                assert!(window[0].1 >= window[1].1, "sorted best first");
            }
            for (mv, score) in scores {
                let after = pos.play(mv).expect("legal");
                assert_eq!(score, -minimax(&after), "{mv} in {}", pos.to_board_text());
            }
        }
    }
}

#[test]
fn a_finished_game_is_scored_with_empties_to_the_winner() {
    // 4x4: Black a1 b1 c1, White a3, 12 empties, nobody can move: Black wins by 2 + 12.
    let pos = Position::from_board_text("XXX-----O------- X", Variant::Standard)
        .expect("valid board text");
    assert!(pos.is_game_over());
    let solution = Solver::new().solve(&pos);
    assert_eq!(solution.margin, 14);
    assert_eq!(solution.best, None);
    let reversed = Solver::new().solve(&pos.with_variant(Variant::Reversed));
    assert_eq!(reversed.margin, -14);
}

#[test]
fn a_side_without_a_placement_passes_and_the_value_is_negated() {
    let mut rng = Rng::new(5);
    let mut solver = Solver::new();
    let mut seen = 0;
    for _ in 0..3000 {
        let pos = random_position(BoardSize::Six, Variant::Standard, 8, &mut rng);
        if pos.must_pass() {
            let solution = solver.solve(&pos);
            assert_eq!(solution.best, Some(Move::Pass));
            let after = pos.play(Move::Pass).expect("a pass is legal here");
            assert_eq!(solution.margin, -solver.solve(&after).margin);
            seen += 1;
        }
    }
    assert!(seen > 5, "only {seen} positions with a pass");
}

const FEINSTEIN: &str = "c2b4c5d2e4e3d1c1b1d5d6f4b3b2f3f2e2b6a4c6a6a2b5a5e6e5a3a1f5f6e1f1";

#[test]
fn every_position_of_feinsteins_6x6_line_is_worth_minus_4_for_black() {
    let start = Position::start(BoardSize::Six, Variant::Standard);
    let game = Game::from_transcript(FEINSTEIN, start).expect("the line is legal");
    assert!(game.position().is_game_over());
    assert_eq!(
        game.position()
            .outcome()
            .map(|o| o.margin_for(Color::Black)),
        Some(-4)
    );
    let mut solver = Solver::new();
    let mut checked = 0;
    for pos in game.positions().iter().filter(|p| p.empty_count() <= 20) {
        let margin = solver.solve(pos).margin;
        let for_black = if pos.side_to_move() == Color::Black {
            margin
        } else {
            -margin
        };
        assert_eq!(for_black, -4, "{}", pos.to_board_text());
        checked += 1;
    }
    assert!(checked >= 20);
}

#[test]
fn ffo_40_is_a_38_disc_win_for_black_with_a2() {
    let pos = Position::from_board_text(
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
        Variant::Standard,
    )
    .expect("valid board text");
    let solution = Solver::new().solve(&pos);
    assert_eq!(solution.margin, 38);
    assert_eq!(solution.best.map(|m| m.to_string()), Some("a2".to_owned()));
    let (wld, _, _) = Solver::new().win_loss_draw(&pos);
    assert_eq!(wld, WinLossDraw::Win);
}

#[test]
fn a_reused_solver_gives_the_same_answers_across_boards_and_variants() {
    let mut rng = Rng::new(11);
    let mut shared = Solver::new();
    for i in 0..200 {
        let size = [BoardSize::Eight, BoardSize::Six][i % 2];
        let variant = [Variant::Standard, Variant::Reversed][(i / 2) % 2];
        let pos = random_position(size, variant, 12, &mut rng);
        assert_eq!(
            shared.solve(&pos).margin,
            Solver::with_table_bits(12).solve(&pos).margin
        );
    }
}

#[test]
fn a_budgeted_solve_gives_up_when_short_and_leaves_the_table_sound() {
    let mut rng = Rng::new(23);
    let mut budgeted = Solver::with_table_bits(14);
    let (mut gave_up, mut finished) = (0, 0);
    for i in 0..60 {
        let size = [BoardSize::Eight, BoardSize::Six][i % 2];
        let pos = random_position(size, Variant::Standard, 16, &mut rng);
        if pos.is_game_over() {
            continue;
        }
        let exact = Solver::new().solve(&pos);
        // Too few nodes for a 16-empty solve: it must say so rather than guess.
        if budgeted.solve_within(&pos, 200).is_none() {
            gave_up += 1;
        }
        // With room to spare it is the plain solve, even after abandoned searches left
        // their partial work behind: only complete results may have been stored.
        let solution = budgeted
            .solve_within(&pos, u64::MAX / 2)
            .expect("an unlimited budget finishes");
        assert_eq!(solution.margin, exact.margin, "{}", pos.to_board_text());
        let best = solution.best.expect("not over");
        let after = pos.play(best).expect("the best move is legal");
        assert_eq!(-Solver::new().solve(&after).margin, exact.margin);
        // A budget that the solve fits in (its own node count, fresh) finishes too.
        let fits = Solver::new()
            .solve_within(&pos, exact.nodes + 1)
            .expect("its own node count is enough");
        assert_eq!(fits.margin, exact.margin);
        finished += 1;
    }
    assert!(
        gave_up > 20 && finished > 40,
        "{gave_up} gave up, {finished} finished"
    );
}
