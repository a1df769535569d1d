//! `othello solve`: the exact solver on one position.

use engine::{Solver, WinLossDraw};
use othello::{BoardSize, Move, Position};
use std::time::Instant;

pub enum Mode {
    AllMoves,
    BestOnly,
    WinLossDraw,
}

pub fn solve(pos: &Position, mode: Mode, threads: usize) {
    println!("{pos}");
    if pos.is_game_over() {
        println!("the game is over");
        return;
    }
    // Past about 30 empties an 8x8 solve grows from minutes to hours.
    if pos.size() == BoardSize::Eight && pos.empty_count() > 30 {
        println!(
            "warning: {} empties; an exact solve may take hours",
            pos.empty_count()
        );
    }
    let mut solver = Solver::new();
    let side = pos.side_to_move();
    let clock = Instant::now();
    let show = |best: Option<Move>| best.map_or_else(|| "none".to_owned(), |mv| mv.to_string());
    match mode {
        Mode::WinLossDraw => {
            let (result, best, _) = solver.parallel(pos, threads, engine::Solver::win_loss_draw);
            let result = match result {
                WinLossDraw::Win => "win",
                WinLossDraw::Draw => "draw",
                WinLossDraw::Loss => "loss",
            };
            println!("{side} to move: {result}, best move {}", show(best));
        }
        Mode::BestOnly => {
            let solution = solver.parallel(pos, threads, engine::Solver::solve);
            println!(
                "{side} to move: best move {}, margin {:+}",
                show(solution.best),
                solution.margin
            );
        }
        Mode::AllMoves => {
            let scores = solver.parallel(pos, threads, engine::Solver::score_moves);
            for (mv, margin) in &scores {
                println!("  {mv:<4} {margin:+}");
            }
            if let Some((mv, margin)) = scores.first() {
                println!("{side} to move: best move {mv}, margin {margin:+}");
            }
        }
    }
    let seconds = clock.elapsed().as_secs_f64();
    let nodes = solver.nodes();
    let on = if threads > 1 {
        format!(" on {threads} threads")
    } else {
        String::new()
    };
    println!(
        "{nodes} nodes in {seconds:.3} s{on}, {:.1} M nodes/s",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
}
