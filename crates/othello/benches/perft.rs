//! Move generation speed: perft from the 8x8 start (bulk-counted last ply) and the raw
//! generator on a midgame position.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use othello::{perft, BoardSize, Game, Position, Variant};

fn perft_bench(c: &mut Criterion) {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for depth in [9u32, 10] {
        let nodes = perft(&start, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("8x8 depth {depth}"), |b| {
            b.iter(|| perft(black_box(&start), depth));
        });
    }
    group.finish();
}

fn movegen_bench(c: &mut Criterion) {
    let midgame = *Game::from_transcript(
        "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7",
        Position::start(BoardSize::Eight, Variant::Standard),
    )
    .expect("a legal opening")
    .position();
    let (p, o) = (midgame.player().0, midgame.opponent().0);
    let mut group = c.benchmark_group("movegen");
    group.bench_function("legal_moves", |b| {
        b.iter(|| othello::raw::legal_moves(black_box(p), black_box(o), u64::MAX));
    });
    let moves = othello::raw::legal_moves(p, o, u64::MAX);
    group.throughput(Throughput::Elements(moves.count_ones() as u64));
    group.bench_function("flips of every legal move", |b| {
        b.iter(|| {
            let mut rest = black_box(moves);
            let mut acc = 0;
            while rest != 0 {
                acc ^= othello::raw::flips(p, o, rest.trailing_zeros() as u8);
                rest &= rest - 1;
            }
            acc
        });
    });
    group.finish();
}

criterion_group!(benches, perft_bench, movegen_bench);
criterion_main!(benches);
