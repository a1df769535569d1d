//! Rollout MCTS speed from the initial position: `cargo run --release -p engine --example
//! mcts_speed [simulations]`.

use engine::players::RolloutMcts;
use engine::{Agent, Budget};
use othello::{BoardSize, Position, Variant};
use std::time::Instant;

fn main() {
    let sims: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000);
    for size in [BoardSize::Eight, BoardSize::Six] {
        let pos = Position::start(size, Variant::Standard);
        let mut mcts = RolloutMcts::new(1);
        let clock = Instant::now();
        let mv = mcts.select_move(&pos, &Budget::simulations(sims));
        let seconds = clock.elapsed().as_secs_f64();
        println!(
            "{size}: {} simulations in {seconds:.2} s, {:.0} simulations/s (chose {mv})",
            mcts.last_simulations(),
            mcts.last_simulations() as f64 / seconds
        );
    }
}
