//! `othello arena` and `othello accuracy`: players from specs, measured.

use crate::args::{BoardArgs, SeedArg, ThreadsArg};
use crate::{output_dir, write_file};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tools::accuracy::{
    measure_accuracy, recheck_accuracy, AccuracyConfig, RecordedMove, RecordedReport,
};
use tools::arena::{self, ArenaConfig};
use tools::models::ModelFiles;

#[derive(Args)]
pub struct ArenaArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Comma-separated player specs, e.g. random,greedy,alphabeta:depth=4,uct:sims=1000,
    /// mcts:model=models/az-8x8.onnx,sims=800 (an `option=value` piece without a colon
    /// belongs to the spec before it)
    #[arg(long)]
    players: String,
    /// Games per pairing (even: each opening is played with both colours)
    #[arg(long, default_value_t = 20)]
    games: usize,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    seed: SeedArg,
    /// Folder for arena.json, arena.csv and arena.svg
    #[arg(long, default_value = "arena-out")]
    out: PathBuf,
    /// Start every game from the initial position, not from random openings (the
    /// players' seeds still change from game to game); the same as --openings start
    #[arg(long, conflicts_with = "openings")]
    from_start: bool,
    /// Where games start: `random` (4-8 random plies), `start`, `xot` (the shipped
    /// balanced 8-ply openings of the board, openings/xot-8x8.txt or xot-6x6.txt), or a
    /// file of transcripts, one a line (see `othello openings`)
    #[arg(long, default_value = "random")]
    openings: String,
}

/// The openings `--openings` names.
fn openings(args: &ArenaArgs) -> Result<arena::Openings> {
    let (size, variant) = (args.board.board, args.board.variant);
    let path = match args.openings.as_str() {
        _ if args.from_start => return Ok(arena::Openings::Start),
        "random" => return Ok(arena::Openings::Random),
        "start" => return Ok(arena::Openings::Start),
        "xot" => {
            let name = format!("openings/xot-{}x{}.txt", size.n(), size.n());
            let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
            [PathBuf::from(&name), repository.join(&name)]
                .into_iter()
                .find(|p| p.is_file())
                .ok_or_else(|| anyhow!("no balanced openings for {size}: {name} is missing"))?
        }
        file => PathBuf::from(file),
    };
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read the openings {}", path.display()))?;
    let list = arena::read_openings(&text, size, variant)
        .map_err(|(line, e)| anyhow!("{} line {line}: {e}", path.display()))?;
    Ok(arena::Openings::List(list))
}

pub fn arena(args: ArenaArgs, models: &ModelFiles) -> Result<()> {
    let config = ArenaConfig {
        size: args.board.board,
        variant: args.board.variant,
        players: arena::parse_player_list(&args.players)?,
        games_per_pairing: args.games,
        seed: args.seed.seed,
        openings: openings(&args)?,
    };
    // Check before the games so that a bad player list fails at once, not after an hour.
    config.check(models)?;
    let threads = args.threads.get()?;
    output_dir(&args.out)?;
    let total = config.schedule().len();
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let clock = Instant::now();
    let report = arena::run_arena(&config, threads, models, &|done, _| {
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let report = report?;
    let seconds = clock.elapsed().as_secs_f64();
    print!("{}", arena::format_table(&report));
    println!(
        "\n{total} games on {threads} thread{} in {seconds:.1} s",
        if threads == 1 { "" } else { "s" }
    );
    let json = serde_json::to_string_pretty(&report).context("cannot write the report as JSON")?;
    write_file(&args.out.join("arena.json"), &json)?;
    write_file(&args.out.join("arena.csv"), &arena::csv(&report))?;
    write_file(&args.out.join("arena.svg"), &arena::heat_map_svg(&report))?;
    let records = arena::ggf(&config, &report).context("cannot write the games as GGF")?;
    write_file(&args.out.join("arena.ggf"), &records)?;
    println!(
        "wrote arena.json, arena.csv, arena.svg and arena.ggf to {}",
        args.out.display()
    );
    Ok(())
}

#[derive(Args)]
pub struct AccuracyArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// The player to check, as an arena spec, e.g. mcts:model=models/az-6x6.onnx,sims=800
    #[arg(long)]
    player: String,
    /// Its opponent in the games that produce the positions
    #[arg(long, default_value = "alphabeta:depth=2")]
    against: String,
    /// Moves to check
    #[arg(long, default_value_t = 200)]
    positions: usize,
    /// Only positions with at least this many empty squares (with --max-empties, a
    /// stretch of the game such as the late midgame: 24 to 30)
    #[arg(long, default_value_t = 0)]
    min_empties: u32,
    /// Only positions with at most this many empty squares
    #[arg(long, default_value_t = 26)]
    max_empties: u32,
    /// Label positions with more empties than this win, loss or draw only (a null-window
    /// proof, much cheaper than the margin): "keeps the result" is then all that is
    /// known of their moves. Default: every position exact
    #[arg(long, value_name = "EMPTIES")]
    exact_up_to: Option<u32>,
    #[command(flatten)]
    seed: SeedArg,
    /// Also write every checked move as JSON here
    #[arg(long)]
    json: Option<PathBuf>,
    /// Check the player on the positions of earlier reports (`--json` files) instead of
    /// playing games: every player meets the same positions, and only a move that differs
    /// from the recorded one costs a solve. Repeat for several files.
    #[arg(long, value_name = "REPORT.json", conflicts_with = "against")]
    replay: Vec<PathBuf>,
}

/// The checked moves of earlier `--json` reports, in file order.
fn read_recorded(paths: &[PathBuf]) -> Result<Vec<RecordedMove>> {
    let mut moves = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let report: RecordedReport = serde_json::from_str(&text).with_context(|| {
            format!(
                "{} is not an accuracy report (`othello accuracy --json`)",
                path.display()
            )
        })?;
        moves.extend(report.moves);
    }
    Ok(moves)
}

pub fn accuracy(args: AccuracyArgs, models: &ModelFiles) -> Result<()> {
    if args.min_empties > args.max_empties {
        bail!(
            "--min-empties {} is above --max-empties {}: no position is in between",
            args.min_empties,
            args.max_empties
        );
    }
    let config = AccuracyConfig {
        size: args.board.board,
        variant: args.board.variant,
        player: args.player.parse()?,
        sparring: args.against.parse()?,
        positions: args.positions,
        min_empties: args.min_empties,
        max_empties: args.max_empties,
        exact_up_to: args.exact_up_to.unwrap_or(u32::MAX),
        seed: args.seed.seed,
    };
    let bar = ProgressBar::new(args.positions as u64);
    let report = if args.replay.is_empty() {
        measure_accuracy(&config, models, &|done, _| bar.set_position(done as u64))?
    } else {
        let recorded = read_recorded(&args.replay)?;
        let source = args
            .replay
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        recheck_accuracy(&config, &recorded, &source, models, &|done, wanted| {
            bar.set_length(wanted as u64);
            bar.set_position(done as u64);
        })
        .context("cannot recheck the recorded positions")?
    };
    bar.finish_and_clear();
    println!("{}", report.summary());
    println!("empties   moves  optimal  keeps the result");
    for b in report.by_empties(4) {
        let share = |n: usize, of: usize| format!("{:.1}%", 100.0 * n as f64 / of.max(1) as f64);
        // A group labelled win/loss/draw only has no optimal share to show.
        let optimal = match b.exact {
            0 => "-".to_string(),
            exact => share(b.optimal, exact),
        };
        println!(
            "{:>2}-{:<2}    {:>5}  {:>7}  {:>7}",
            b.low,
            b.high,
            b.moves,
            optimal,
            share(b.keeps_result, b.moves)
        );
    }
    if let Some(path) = args.json {
        write_file(&path, &serde_json::to_string_pretty(&report)?)?;
    }
    Ok(())
}

/// `othello elo`: the arena's fit for games played elsewhere (the trainer's shards and
/// ladders), so the project has one Elo fit.
pub fn elo(games: &Path) -> Result<()> {
    let text = if games == Path::new("-") {
        std::io::read_to_string(std::io::stdin()).context("cannot read the games from stdin")?
    } else {
        std::fs::read_to_string(games)
            .with_context(|| format!("cannot read {}", games.display()))?
    };
    let request: arena::RatingRequest = serde_json::from_str(&text)
        .map_err(|e| anyhow!("the games are not JSON in arena.json's shape: {e}"))?;
    let answer = arena::rate(&request)?;
    // Written, not printed: where a closed pipe is an error rather than SIGPIPE (off Unix,
    // see main.rs), it is reported, not a panic.
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)
        .context("cannot write the ratings")?;
    Ok(())
}
