//! `othello bench`: speed figures for the notes and docs.

use anyhow::{bail, Context, Result};
use engine::evaluator::{Evaluator, TimedEvaluator};
use engine::mcts::{Mcts, MctsConfig};
use engine::midgame::benchmark::{midgame_positions, random_game_positions};
use engine::network::{features, runs_per_second, InputPlanes};
use engine::{Budget, PlayerKind, PlayerSpec};
use othello::{BoardSize, Game, Position, Variant};
use std::path::Path;
use std::time::{Duration, Instant};
use tools::models::ModelFiles;

/// Openings the searches start from: the start and a few midgame positions.
fn positions(size: BoardSize) -> Result<Vec<Position>> {
    let start = Position::start(size, Variant::Standard);
    let lines: &[&str] = match size {
        BoardSize::Eight => &[
            "",
            "f5d6c3d3c4",
            "f5f6e6f4e3c5c4e7",
            "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7",
        ],
        BoardSize::Six => &["", "c2b4c5d2e4", "c2b4c5d2e4e3d1c1b1d5"],
        // Too small for named openings: the start and the lines of first legal moves.
        BoardSize::Four => {
            let mut positions = vec![start];
            let mut pos = start;
            for _ in 0..2 {
                for _ in 0..2 {
                    let first = pos.legal_move_list().first().copied();
                    pos = pos.play(first.context("no move on 4x4")?)?;
                }
                positions.push(pos);
            }
            return Ok(positions);
        }
    };
    lines
        .iter()
        .map(|line| {
            Game::from_transcript(line, start)
                .map(|g| *g.position())
                .with_context(|| format!("bench line '{line}'"))
        })
        .collect()
}

// Parsed once per run: the size of a variant costs nothing worth boxing a spec for.
#[allow(clippy::large_enum_variant)]
#[derive(clap::Subcommand)]
pub enum BenchCommand {
    /// MCTS simulations per second at several batch sizes, and the search's own share of the time
    Mcts {
        /// The agent as a player spec (an `mcts` spec; without a model the search uses
        /// random playouts)
        #[arg(long, default_value = "mcts:playouts=1")]
        player: PlayerSpec,
        #[arg(long, default_value = "8")]
        board: BoardSize,
        /// Simulations per searched position
        #[arg(long, default_value_t = 2000)]
        sims: u64,
        /// Batch sizes to try
        #[arg(long, value_delimiter = ',', default_value = "1,8,32")]
        batch: Vec<usize>,
    },
    /// Alpha-beta positions (nodes) per second: one search of each of a set of midgame
    /// positions within the spec's budget (`depth=` or `time=`)
    Alphabeta {
        /// The player as a spec (`alphabeta:model=NET.onnx,time=1000`)
        #[arg(long, default_value = "alphabeta:depth=8")]
        player: PlayerSpec,
        #[arg(long, default_value = "8")]
        board: BoardSize,
        /// Midgame positions searched (from seeded random games, 44 to 24 empties)
        #[arg(long, default_value_t = 12)]
        positions: usize,
    },
    /// The network alone: positions evaluated per second at several batch sizes
    Network {
        /// The network (an .onnx file with its card beside it)
        #[arg(long)]
        model: std::path::PathBuf,
        /// Batch sizes to try
        #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16")]
        batch: Vec<usize>,
        /// Seconds of running per batch size (after one warm-up run)
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
    },
    /// The input encoder alone: time per position of each input set, over every position
    /// of seeded random games (the median of several rounds, and the fastest)
    Encode {
        #[arg(long, default_value = "8")]
        board: BoardSize,
        /// Input sets to time, separated by ';': v1, v2, or plane names joined by commas
        #[arg(long, value_delimiter = ';', default_value = "v1;v2")]
        inputs: Vec<String>,
        /// Random games whose positions are encoded
        #[arg(long, default_value_t = 50)]
        games: usize,
        /// Timed rounds over all the positions, per input set (short rounds, many of
        /// them: on a shared machine a long round is likely to be preempted)
        #[arg(long, default_value_t = 101)]
        rounds: usize,
    },
}

pub fn run(command: BenchCommand, models: &ModelFiles) -> Result<()> {
    match command {
        BenchCommand::Mcts {
            player,
            board,
            sims,
            batch,
        } => mcts(&player, board, sims, &batch, models),
        BenchCommand::Alphabeta {
            player,
            board,
            positions,
        } => alphabeta(&player, board, positions, models),
        BenchCommand::Network {
            model,
            batch,
            seconds,
        } => network(&model, &batch, seconds, models),
        BenchCommand::Encode {
            board,
            inputs,
            games,
            rounds,
        } => encode(board, &inputs, games, rounds),
    }
}

/// The encoder's time per position for each input set: `rounds` passes over the positions
/// of `games` random games, each pass timed alone; the median and the fastest pass. The
/// positions are encoded in batches of [`ENCODE_BATCH`] into one buffer, cleared between
/// batches, as the evaluator does: one buffer for all of them would time the memory's
/// bandwidth as much as the encoder.
const ENCODE_BATCH: usize = 16;

pub fn encode(size: BoardSize, sets: &[String], games: usize, rounds: usize) -> Result<()> {
    if games == 0 || rounds == 0 {
        bail!("--games and --rounds must be at least 1");
    }
    let sets = sets
        .iter()
        .map(|text| InputPlanes::parse(text))
        .collect::<Result<Vec<_>, _>>()?;
    // Stability's edge table is built at its first use, once per board size: timed here,
    // apart from the rounds (a browser worker pays it at its first evaluation).
    let start = Position::start(size, Variant::Standard);
    let clock = Instant::now();
    std::hint::black_box(features::stable_discs(
        start.player().0,
        start.opponent().0,
        size,
    ));
    let table = clock.elapsed();
    let positions = random_game_positions(size, games);
    println!(
        "{} positions of {games} random {size} games in batches of {ENCODE_BATCH}, {rounds} rounds per input set; the edge stability table built in {:.0} us at its first use",
        positions.len(),
        table.as_secs_f64() * 1e6
    );
    println!("planes  ns/position (median)  ns/position (fastest)  input set");
    for inputs in &sets {
        let mut out: Vec<f32> =
            Vec::with_capacity(inputs.len() * size.squares() as usize * ENCODE_BATCH);
        let mut times = Vec::with_capacity(rounds);
        // One untimed pass: the edge stability tables are built on first use.
        for round in 0..=rounds {
            let clock = Instant::now();
            for batch in positions.chunks(ENCODE_BATCH) {
                out.clear();
                for pos in batch {
                    inputs.encode(pos, &mut out);
                }
                std::hint::black_box(&out);
            }
            if round > 0 {
                times.push(clock.elapsed().as_secs_f64() * 1e9 / positions.len() as f64);
            }
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{:>6} {:>21.0} {:>22.0}  {inputs}",
            inputs.len(),
            times[times.len() / 2],
            times[0]
        );
    }
    Ok(())
}

/// Positions per second through the network's runner at each batch size, the batches
/// made of the bench positions of the network's board, encoded once.
pub fn network(model: &Path, batches: &[usize], seconds: f64, models: &ModelFiles) -> Result<()> {
    if batches.contains(&0) {
        bail!("batch sizes must be at least 1");
    }
    if !(seconds > 0.0 && seconds.is_finite()) {
        bail!("--seconds must be a positive number, not {seconds}");
    }
    let clock = Instant::now();
    let network = models.load(model)?;
    let load = clock.elapsed();
    let size = network.card().board()?;
    if let Some(tables) = network.pattern_tables() {
        return pattern_network(&tables, load, seconds, &network.card().name);
    }
    let positions = positions(size)?;
    println!(
        "network {} ({}), {seconds} s per batch size",
        network.card().name,
        network.runtime_name()
    );
    println!("batch   runs/s   positions/s");
    for &batch in batches {
        let rate = runs_per_second(
            &network,
            &positions,
            batch,
            Duration::from_secs_f64(seconds),
        )?;
        println!("{batch:>5} {rate:>8.0} {:>13.0}", rate * batch as f64);
    }
    Ok(())
}

/// Builds every stage of a pattern network's tables, which a search otherwise builds
/// when it first reaches each stage, and says what that took: so that no timing below
/// counts a build.
fn build_every_stage(tables: &engine::pattern::PatternTables) -> String {
    let already = tables.built_stages();
    let clock = Instant::now();
    tables.build_every_stage();
    let built = tables.set().stages as usize - already;
    let took = clock.elapsed().as_secs_f64() * 1e3;
    format!(
        "tables: {built} stages built in {took:.0} ms ({:.0} ms a stage)",
        took / built.max(1) as f64
    )
}

/// [`build_every_stage`] for the player's network, where it is a pattern network (the
/// player then shares the loaded tables).
fn prebuild_tables(player: &PlayerSpec, models: &ModelFiles) -> Result<()> {
    if let Some(model) = &player.model {
        if let Some(tables) = models.load(Path::new(model))?.pattern_tables() {
            println!("{}", build_every_stage(&tables));
        }
    }
    Ok(())
}

/// A pattern network's speed: positions a second through its tables (one core), with
/// and without the priors its evaluator makes from the children's values, and what the
/// tables cost to build and keep.
fn pattern_network(
    tables: &std::sync::Arc<engine::pattern::PatternTables>,
    load: Duration,
    seconds: f64,
    name: &str,
) -> Result<()> {
    let size = tables.set().size;
    let positions: Vec<Position> = random_game_positions(size, 200)
        .into_iter()
        .filter(|p| !p.is_game_over())
        .collect();
    println!(
        "pattern network {name}: {} patterns, {} instances, {} stages; tables {:.1} MB, \
         loaded in {:.0} ms",
        tables.set().patterns.len(),
        tables.set().instances.len(),
        tables.set().stages,
        tables.bytes() as f64 / 1e6,
        load.as_secs_f64() * 1e3
    );
    println!("{}", build_every_stage(tables));
    let budget = Duration::from_secs_f64(seconds);
    let values = engine::network::table_sums_per_second(tables, &positions, budget);
    let mut checksum = 0.0f32;
    let evaluator = engine::pattern::PatternEvaluator::new(
        tables.clone(),
        engine::pattern::Priors::default(),
        name,
    );
    let clock = Instant::now();
    let mut with_priors = 0u64;
    while clock.elapsed() < budget {
        for pos in &positions {
            checksum += evaluator.evaluate_one(pos).value;
        }
        with_priors += positions.len() as u64;
    }
    let priors = with_priors as f64 / clock.elapsed().as_secs_f64();
    println!("values:      {values:>12.0} positions/s");
    println!(
        "with priors: {priors:>12.0} positions/s (each child valued too; checksum {checksum:.1})"
    );
    // The browser worker's alpha-beta figure, the same function on the same positions.
    let midgame = engine::midgame::benchmark::midgame_positions(
        size,
        engine::midgame::benchmark::BENCH_POSITIONS,
    );
    for depth in [2, 6] {
        let nodes =
            engine::midgame::benchmark::nodes_per_second(tables.clone(), &midgame, depth, budget);
        println!("alpha-beta depth {depth}: {nodes:>8.0} nodes/s (the worker's bench)");
    }
    Ok(())
}

/// The alpha-beta search's speed: each position searched within the spec's budget, with
/// the depth it reached, its positions and its time.
pub fn alphabeta(
    player: &PlayerSpec,
    size: BoardSize,
    count: usize,
    models: &ModelFiles,
) -> Result<()> {
    if player.kind != PlayerKind::AlphaBeta {
        bail!("bench alphabeta measures an alphabeta player, not '{player}'");
    }
    player.check_game(size, Variant::Standard, models)?;
    prebuild_tables(player, models)?;
    let mut agent = player.alphabeta_player(1, models)?;
    println!(
        "{}; budget {:?}",
        engine::Agent::name(&agent),
        player.budget()
    );
    println!("empties  depth      nodes       ms    nodes/s");
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    for pos in midgame_positions(size, count) {
        let before = agent.nodes();
        let clock = Instant::now();
        engine::Agent::think(&mut agent, &pos, &player.budget(), &mut |_| true)?;
        let elapsed = clock.elapsed();
        let searched = agent.nodes() - before;
        (nodes, time) = (nodes + searched, time + elapsed);
        println!(
            "{:>7} {:>6} {searched:>10} {:>8.0} {:>10.0}",
            pos.empty_count(),
            agent.last_depth(),
            elapsed.as_secs_f64() * 1e3,
            searched as f64 / elapsed.as_secs_f64().max(1e-9)
        );
    }
    println!(
        "total: {nodes} nodes in {:.2} s, {:.0} nodes/s",
        time.as_secs_f64(),
        nodes as f64 / time.as_secs_f64().max(1e-9)
    );
    Ok(())
}

/// MCTS speed at each batch size: simulations per second, and how the time divides
/// between the evaluator and the search itself. The search is the spec's, built by the
/// engine's builder, with its evaluator timed.
pub fn mcts(
    player: &PlayerSpec,
    size: BoardSize,
    sims: u64,
    batches: &[usize],
    models: &ModelFiles,
) -> Result<()> {
    if player.kind != PlayerKind::Mcts {
        bail!("bench mcts measures an mcts player, not '{player}'");
    }
    if batches.contains(&0) {
        bail!("batch sizes must be at least 1");
    }
    player.check_game(size, Variant::Standard, models)?;
    prebuild_tables(player, models)?;
    let evaluator = player.evaluator(1, models)?;
    println!(
        "evaluator: {}; {sims} simulations from each of {} positions",
        evaluator.describe(),
        positions(size)?.len()
    );
    println!("batch    sims/s   evals/s  evaluator  search  search share");
    for &batch in batches {
        let config = MctsConfig {
            batch_size: batch,
            ..player.mcts_config(1)
        };
        let timed = TimedEvaluator::new(player.evaluator(1, models)?);
        println!("{batch:>5} {}", run_positions(timed, config, size, sims)?);
    }
    Ok(())
}

fn run_positions<E: Evaluator>(
    evaluator: TimedEvaluator<E>,
    config: MctsConfig,
    size: BoardSize,
    sims: u64,
) -> Result<String> {
    let mut mcts = Mcts::new(evaluator, config);
    let mut total_sims = 0;
    let clock = Instant::now();
    for pos in positions(size)? {
        mcts.driver_mut().clear();
        let info = mcts.search(&pos, &Budget::simulations(sims), &mut |_| true)?;
        total_sims += info.simulations;
    }
    let elapsed = clock.elapsed();
    let eval = mcts.evaluator();
    let search = elapsed.saturating_sub(eval.time);
    Ok(format!(
        "{:>9.0} {:>9.0} {:>9.2}s {:>6.2}s {:>12.1}%",
        total_sims as f64 / elapsed.as_secs_f64(),
        eval.positions as f64 / eval.time.max(Duration::from_nanos(1)).as_secs_f64(),
        eval.time.as_secs_f64(),
        search.as_secs_f64(),
        100.0 * search.as_secs_f64() / elapsed.as_secs_f64()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_line_replays_on_every_board() {
        for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
            let positions = positions(size).expect("legal lines");
            assert!(positions.len() >= 3, "{size}");
            assert!(positions.iter().all(|p| !p.is_game_over()));
        }
    }
}
