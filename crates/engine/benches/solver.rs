//! Exact solves of FFO endgame test positions (standard 8x8, 20-22 empties). Each
//! iteration starts from an empty table, as a fresh solve would; #43 and #44 (23
//! empties) are timed with `othello solve --best-only` instead, criterion's ten samples
//! would make them take minutes.

use criterion::{criterion_group, criterion_main, Criterion};
use engine::Solver;
use othello::{Position, Variant};
use std::hint::black_box;
use std::time::Duration;

/// (FFO number, OBF board text, exact margin for the side to move).
const FFO: [(u32, &str, i32); 3] = [
    (
        40,
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
        38,
    ),
    (
        41,
        "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X",
        0,
    ),
    (
        42,
        "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X",
        6,
    ),
];

fn solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("solver");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for (number, text, margin) in FFO {
        let pos = match Position::from_board_text(text, Variant::Standard) {
            Ok(pos) => pos,
            Err(error) => panic!("FFO #{number}: {error}"),
        };
        group.bench_function(format!("ffo{number}_exact"), |b| {
            b.iter(|| {
                let solution = Solver::new().solve(black_box(&pos));
                assert_eq!(solution.margin, margin);
                solution
            });
        });
        group.bench_function(format!("ffo{number}_wld"), |b| {
            b.iter(|| Solver::new().win_loss_draw(black_box(&pos)));
        });
    }
    group.finish();
}

criterion_group!(benches, solver);
criterion_main!(benches);
