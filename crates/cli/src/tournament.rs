//! `othello arena` and `othello accuracy`: players from specs, measured.

use crate::args::{BoardArgs, SeedArg, ThreadsArg};
use crate::openings::opening_list;
use crate::{output_dir, write_file};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
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
    /// belongs to the spec before it), and the names of programs that --engine defines
    #[arg(long)]
    players: String,
    /// Another program as a player, named for --players: NAME=nboard[:DEPTH] COMMAND...
    /// (it speaks the NBoard protocol) or NAME=move COMMAND... (run once a move; its
    /// arguments may hold {moves}, {board}, {side} and {ms}, else the position comes on
    /// stdin). Repeat for several programs
    #[arg(long = "engine", value_name = "NAME=PROTOCOL COMMAND")]
    engines: Vec<String>,
    /// Games per pairing (even: each opening is played with both colours); with --sprt,
    /// the most games the match may play
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Stop as soon as a sequential probability ratio test decides (two players):
    /// elo0=A,elo1=B[,alpha=0.05,beta=0.05], in logistic Elo of the first player over the
    /// second, on game pairs (pentanomial)
    #[arg(long, value_name = "elo0=A,elo1=B")]
    sprt: Option<arena::Sprt>,
    /// Each side's clock for a whole game, in seconds: MCTS players that name no budget
    /// share it out (time_game=); a side whose moves take longer, past --forfeit-margin,
    /// loses the game
    #[arg(long, value_name = "SECONDS")]
    time_control: Option<f64>,
    /// How far past its clock a side may go before it forfeits, in milliseconds
    #[arg(long, value_name = "MS", default_value_t = 500)]
    forfeit_margin: u64,
    /// Without a clock, the longest another program may think about one move, in
    /// seconds, before it forfeits
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    move_timeout: f64,
    /// Games played at once (each player thinks on one thread); the same as --threads
    #[arg(long, conflicts_with = "threads")]
    concurrency: Option<usize>,
    /// Go on with the match whose games --out's games.jsonl holds (a killed match), with
    /// the same arguments: its games are not played again
    #[arg(long)]
    resume: bool,
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
    /// balanced 8-ply openings of 8x8, crates/othello/data/xot-8x8.txt), or a
    /// file of transcripts, one a line (see `othello openings`)
    #[arg(long, default_value = "random")]
    openings: String,
}

/// The openings `--openings` names.
fn openings(args: &ArenaArgs) -> Result<arena::Openings> {
    let (size, variant) = (args.board.board, args.board.variant);
    match args.openings.as_str() {
        _ if args.from_start => Ok(arena::Openings::Start),
        "random" => Ok(arena::Openings::Random),
        "start" => Ok(arena::Openings::Start),
        list => Ok(arena::Openings::List(opening_list(list, size, variant)?)),
    }
}

/// The match's rules from the clock flags.
fn rules(args: &ArenaArgs) -> Result<arena::MatchRules> {
    let seconds = |value: f64, flag: &str| -> Result<Duration> {
        if value.is_finite() && value > 0.0 {
            Ok(Duration::from_secs_f64(value))
        } else {
            bail!("{flag} must be a positive number of seconds, not {value}")
        }
    };
    Ok(arena::MatchRules {
        clock: args
            .time_control
            .map(|t| seconds(t, "--time-control"))
            .transpose()?,
        forfeit_margin: Duration::from_millis(args.forfeit_margin),
        move_timeout: seconds(args.move_timeout, "--move-timeout")?,
    })
}

/// The players of `--players`, the programs of `--engine` among them, on the clock.
fn players(args: &ArenaArgs) -> Result<Vec<arena::ArenaPlayer>> {
    let engines = args
        .engines
        .iter()
        .map(|text| text.parse::<arena::EngineCommand>())
        .collect::<Result<Vec<_>, _>>()?;
    for (i, program) in engines.iter().enumerate() {
        if engines[..i].iter().any(|e| e.name == program.name) {
            bail!("--engine: two programs are named '{}'", program.name);
        }
        if program.name.parse::<arena::PlayerSpec>().is_ok() {
            bail!(
                "--engine: '{}' is the name of one of our players; name the program otherwise",
                program.name
            );
        }
    }
    let players = arena::ArenaPlayer::parse_list(&args.players, &engines)?;
    Ok(match args.time_control {
        Some(seconds) => players.into_iter().map(|p| p.on_clock(seconds)).collect(),
        None => players,
    })
}

/// What makes a match the same match, for its journal: everything but how many games run
/// at once.
fn match_identity(config: &ArenaConfig, args: &ArenaArgs) -> serde_json::Value {
    serde_json::json!({
        "board": config.size.n(),
        "variant": config.variant.name(),
        "players": config.players.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "engines": args.engines,
        "games": config.games_per_pairing,
        "seed": config.seed,
        "openings": match &config.openings {
            arena::Openings::List(list) => list
                .iter()
                .map(arena::Opening::transcript)
                .collect::<Vec<_>>()
                .join(" "),
            other => format!("{other:?}"),
        },
        "rules": config.rules,
        "sprt": config.sprt,
    })
}

pub fn arena(args: ArenaArgs, models: &ModelFiles) -> Result<()> {
    if !args.engines.is_empty() {
        crate::ignore_sigpipe();
    }
    let config = ArenaConfig {
        size: args.board.board,
        variant: args.board.variant,
        players: players(&args)?,
        games_per_pairing: args.games,
        seed: args.seed.seed,
        openings: openings(&args)?,
        rules: rules(&args)?,
        sprt: args.sprt,
    };
    // Check before the games so that a bad player list fails at once, not after an hour.
    config.check(models)?;
    let concurrency = match args.concurrency {
        Some(0) => bail!("--concurrency must be at least 1"),
        Some(n) => n,
        None => args.threads.get()?,
    };
    output_dir(&args.out)?;
    let (journal, done) =
        arena::Journal::open(&args.out, &match_identity(&config, &args), args.resume)?;
    let total = config.schedule().len();
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {elapsed} elapsed, ETA {eta} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if !done.is_empty() {
        bar.println(format!(
            "resuming: {} games of {total} were played before",
            done.len()
        ));
    }
    let clock = Instant::now();
    let report = arena::run_match(&config, concurrency, models, Some((&journal, done)), &|p| {
        bar.set_position(p.done as u64);
        if let Some((llr, lower, upper)) = p.llr {
            bar.set_message(format!("LLR {llr:.2} [{lower:.2}, {upper:.2}]"));
        }
    });
    bar.finish_and_clear();
    let report = report?;
    journal.finish()?;
    let seconds = clock.elapsed().as_secs_f64();
    print!("{}", arena::format_table(&report));
    println!(
        "\n{} games, {concurrency} at once, in {seconds:.1} s",
        report.games.len()
    );
    let json = serde_json::to_string_pretty(&report).context("cannot write the report as JSON")?;
    write_file(&args.out.join("arena.json"), &json)?;
    write_file(&args.out.join("arena.csv"), &arena::csv(&report))?;
    write_file(&args.out.join("arena.svg"), &arena::heat_map_svg(&report))?;
    let records = arena::ggf(&config, &report).context("cannot write the games as GGF")?;
    write_file(&args.out.join("arena.ggf"), &records)?;
    println!(
        "games: {dir}/arena.ggf (GGF, one a line) and {dir}/arena.json (everything); \
         {dir}/arena.csv and arena.svg; {dir}/{} (each game as it ended, for --resume)",
        arena::Journal::FILE,
        dir = args.out.display()
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
