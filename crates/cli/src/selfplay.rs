//! `othello selfplay`: training games, written as `.npz` + `.json`. The learner and the
//! milestone opponent are `mcts` player specs, built by the engine's builder.

use crate::args::{BoardArgs, SeedArg, ThreadsArg};
use crate::openings::opening_list;
use anyhow::{bail, Context, Result};
use clap::Args;
use engine::evaluator::{EvalError, Evaluator};
use engine::{PlayerKind, PlayerSpec};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::time::Instant;
use tools::models::ModelFiles;
use tools::selfplay::{
    run_selfplay, tally, write_selfplay, MakeEvaluator, SelfPlayConfig, StartLines,
};

#[derive(Args)]
pub struct SelfplayArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// The network (.onnx with its card), or `none` for MCTS with random playouts
    #[arg(long, default_value = "none")]
    model: String,
    /// The search, as an `mcts` player spec without a model or budget (`--model` and
    /// `--sims` give those), e.g. `mcts:gumbel=16` for a Gumbel root
    #[arg(long, default_value = "mcts")]
    player: PlayerSpec,
    /// From this many empty squares the exact solver plays both sides, so every label is
    /// exact from there and the rest of the game costs no network call (default: the
    /// player's exact=, else 16 on 8x8, 18 on 6x6; 0: never)
    #[arg(long)]
    exact_empties: Option<u32>,
    /// Exact labels where the search still plays: recorded positions with at most this
    /// many empties get the solver's move and margin as targets, while the game goes on
    /// with the searched move (above --exact-empties; default: off)
    #[arg(long)]
    label_empties: Option<u32>,
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Simulations per move
    #[arg(long, default_value_t = 200)]
    sims: u64,
    /// Folder for the output files
    #[arg(long)]
    out: PathBuf,
    /// File name (without extension); default selfplay-<seed>
    #[arg(long)]
    name: Option<String>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Games each thread plays at once (their positions share network calls)
    #[arg(long, default_value_t = 16)]
    games_per_thread: usize,
    /// Plies played in proportion to visits before playing the best move
    #[arg(long)]
    temperature_plies: Option<u32>,
    /// Playout cap randomisation: moves without a full search get this many simulations
    /// and are not recorded (default: every move gets a full search)
    #[arg(long)]
    fast_sims: Option<u64>,
    /// With --fast-sims: the share of moves that get a full search and are recorded
    #[arg(long, default_value_t = 0.25)]
    full_share: f32,
    /// An older network (.onnx with its card) to play against instead of self: the
    /// model plays Black in even-numbered games, White in odd ones, and only its moves
    /// are recorded
    #[arg(long)]
    opponent: Option<String>,
    /// More positions per game (OLIVAW): after each recorded search, the moves not played
    /// that took at least this share of its visits become samples too, with the search's
    /// value and margin as targets (default: off)
    #[arg(long)]
    explored_share: Option<f32>,
    /// Exploration: in each game one side (White in even-numbered games, Black in odd
    /// ones) plays each searched move with this probability as a random legal move
    /// instead (its sample keeps the search's target; earlier samples take the search's
    /// value and margin, since the game's result no longer tells what they were worth;
    /// default: off)
    #[arg(long)]
    random_moves: Option<f32>,
    /// With --random-moves: random moves only while more than this many empties remain,
    /// so the positions below are labelled by the game played out (default: down to
    /// where the solver plays)
    #[arg(long, requires = "random_moves")]
    random_moves_above: Option<u32>,
    /// Where games start: `start` (the initial position), `xot` (each game one of the
    /// shipped balanced 8-ply openings of 8x8, drawn from its seed), or a file of
    /// transcripts, one a line (see `othello openings`). The opening's moves are not
    /// searched nor recorded, and count toward --temperature-plies
    #[arg(long, default_value = "start")]
    openings: String,
}

/// The `mcts` spec of a network file (or of the playout search for `none`) with the
/// search settings of `search`.
fn spec_for(search: &PlayerSpec, model: &str) -> PlayerSpec {
    PlayerSpec {
        model: (model != "none").then(|| model.to_owned()),
        ..search.clone()
    }
}

pub fn run(args: SelfplayArgs, models: &ModelFiles) -> Result<()> {
    let threads = args.threads.get()?;
    check_flags(&args)?;
    let (size, variant) = (args.board.board, args.board.variant);
    let learner = spec_for(&args.player, &args.model);
    learner.check_game(size, variant, models)?;
    let opponent = args
        .opponent
        .as_deref()
        .map(|model| spec_for(&args.player, model));
    if let Some(spec) = &opponent {
        spec.check_game(size, variant, models)?;
    }
    let mut config = selfplay_config(&args, &learner, threads);
    config.openings = start_lines(&args)?;
    // The samples store what the learner's network is fed: its card's planes.
    if args.model != "none" {
        config.inputs = models
            .load(std::path::Path::new(&args.model))?
            .card()
            .inputs()?;
    }
    let name = args
        .name
        .unwrap_or_else(|| format!("selfplay-{}", args.seed.seed));
    for ext in ["npz", "json"] {
        let path = args.out.join(format!("{name}.{ext}"));
        if path.exists() {
            bail!(
                "{} exists; self-play never overwrites data (use --name or another --out)",
                path.display()
            );
        }
    }
    let seed = args.seed.seed;
    let evaluator_of = |spec: &PlayerSpec| -> Result<Box<dyn Evaluator>, EvalError> {
        let evaluator = spec
            .evaluator(seed, models)
            .map_err(|e| EvalError::Failed(e.to_string()))?;
        Ok(evaluator)
    };
    let make = || evaluator_of(&learner);
    let make_opponent = || match &opponent {
        Some(spec) => evaluator_of(spec),
        None => Err(EvalError::Failed("no opponent network".into())),
    };
    let bar = ProgressBar::new(config.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let clock = Instant::now();
    let records = run_selfplay(
        &config,
        &make,
        opponent
            .is_some()
            .then_some(&make_opponent as MakeEvaluator),
        &|done| bar.set_position(done as u64),
    );
    bar.finish_and_clear();
    let records = records?;
    let seconds = clock.elapsed().as_secs_f64();
    let path = write_selfplay(&args.out, &name, &config, &args.model, &records)
        .with_context(|| format!("cannot write self-play data to {}", args.out.display()))?;
    let positions: usize = records.iter().map(|r| r.samples.len()).sum();
    let t = tally(&records);
    println!(
        "{} games ({} Black wins, {} White wins, {} draws), {positions} positions in {seconds:.1} s ({:.2} games/s); wrote {}",
        records.len(),
        t.black_wins,
        t.white_wins,
        t.draws,
        records.len() as f64 / seconds.max(1e-9),
        path.display()
    );
    Ok(())
}

/// The lines `--openings` names (none for `start`).
fn start_lines(args: &SelfplayArgs) -> Result<StartLines> {
    if args.openings == "start" {
        return Ok(StartLines::default());
    }
    let list = opening_list(&args.openings, args.board.board, args.board.variant)?;
    if list.is_empty() {
        bail!("the openings {} hold no line", args.openings);
    }
    Ok(StartLines {
        name: args.openings.clone(),
        lines: list.into_iter().map(|opening| opening.moves).collect(),
    })
}

/// Refuses flags that make no sense together or out of range, each with its reason.
fn check_flags(args: &SelfplayArgs) -> Result<()> {
    if args.sims == 0 {
        bail!("--sims must be at least 1");
    }
    if !(args.full_share > 0.0 && args.full_share <= 1.0) {
        bail!("--full-share must be above 0 and at most 1");
    }
    for (flag, share) in [
        ("--explored-share", args.explored_share),
        ("--random-moves", args.random_moves),
    ] {
        if share.is_some_and(|s| !(s > 0.0 && s <= 1.0)) {
            bail!("{flag} must be above 0 and at most 1");
        }
    }
    if args.fast_sims == Some(0) {
        bail!("--fast-sims must be at least 1");
    }
    if args.opponent.is_some() && args.model == "none" {
        bail!("--opponent needs a --model to play it");
    }
    if args.player.kind != PlayerKind::Mcts {
        bail!("self-play searches with mcts, not '{}'", args.player);
    }
    // Both say where the solver takes over; two different answers would leave one
    // silently unused.
    if let (Some(flag), Some(spec)) = (args.exact_empties, args.player.exact) {
        if flag != spec {
            bail!("--exact-empties {flag} contradicts the player's exact={spec}: give one of them");
        }
    }
    Ok(())
}

/// The self-play settings the flags ask for, with the search of the player spec.
fn selfplay_config(args: &SelfplayArgs, learner: &PlayerSpec, threads: usize) -> SelfPlayConfig {
    let (size, variant) = (args.board.board, args.board.variant);
    let mut config = SelfPlayConfig::new(
        size,
        variant,
        args.games,
        args.sims,
        learner.mcts_config(args.seed.seed),
        args.seed.seed,
    );
    config.threads = threads;
    config.games_per_thread = args.games_per_thread;
    config.fast_simulations = args.fast_sims;
    config.full_search_share = args.full_share;
    config.opponent = args.opponent.clone();
    // The flag, else the spec's `exact=`, so that the sidecar names where the solver
    // took over.
    config.exact_empties = args.exact_empties.or(learner.exact);
    config.label_empties = args.label_empties;
    config.explored_share = args.explored_share;
    config.random_move_share = args.random_moves;
    config.random_move_floor = args.random_moves_above;
    if let Some(plies) = args.temperature_plies {
        config.temperature_plies = plies;
    }
    config
}
