//! `othello`: the command-line front end. A thin shell over the `othello` and `engine`
//! crates: argument parsing and printing only.

mod analyse;
mod bench;
mod model;
mod play;
mod selfplay;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use engine::arena::{self, ArenaConfig};
use engine::mcts::Mcts;
use engine::network::Runtime;
use engine::selfplay::SelfPlayConfig;
use engine::{Budget, HeuristicEvaluator, Solver, WinLossDraw};
use indicatif::{ProgressBar, ProgressStyle};
use othello::{BoardSize, Color, Game, Position, Variant};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(
    name = "othello",
    version,
    about = "Othello Zero: rules, search and tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// What runs networks: `ort` (ONNX Runtime, fastest natively; its library is found
    /// through ORT_DYLIB_PATH or the trainer's venv), `tract`, or `auto` (ort when found)
    #[arg(long, global = true, default_value = "auto", value_parser = parse_runtime)]
    runtime: Runtime,
}

#[derive(Subcommand)]
enum Command {
    /// Count the move sequences of a given length (passes count as a ply)
    Perft {
        /// Plies to search
        depth: u32,
        /// Board side length
        #[arg(long, default_value = "8", value_parser = parse_board)]
        board: BoardSize,
        /// Start from this position (transcript or board text) instead of the initial one
        #[arg(long, allow_hyphen_values = true)]
        from: Option<String>,
    },
    /// Print a position with its legal moves
    Show {
        /// A transcript such as `f5d6c3`, or board text (64 or 36 squares, then X or O)
        #[arg(allow_hyphen_values = true)]
        position: String,
        /// Board side length for a transcript
        #[arg(long, default_value = "8", value_parser = parse_board)]
        board: BoardSize,
        #[arg(long, value_enum, default_value_t = VariantArg::Standard)]
        variant: VariantArg,
    },
    /// Search a position with MCTS and print visit shares, values and the principal variation
    Analyse {
        /// A transcript such as `f5d6c3`, or board text
        #[arg(allow_hyphen_values = true)]
        position: String,
        #[arg(long, default_value = "8", value_parser = parse_board)]
        board: BoardSize,
        #[arg(long, value_enum, default_value_t = VariantArg::Standard)]
        variant: VariantArg,
        #[command(flatten)]
        search: SearchBudget,
    },
    /// Play the agent in the terminal
    Play {
        #[arg(long, default_value = "8", value_parser = parse_board)]
        board: BoardSize,
        #[arg(long, value_enum, default_value_t = VariantArg::Standard)]
        variant: VariantArg,
        /// Your colour
        #[arg(long, value_enum, default_value_t = ColorArg::Black)]
        color: ColorArg,
        #[command(flatten)]
        search: SearchBudget,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Solve a position exactly: the final margin of every legal move with perfect play
    Solve {
        /// A transcript such as `f5d6c3`, or board text (64 or 36 squares, then X or O)
        #[arg(allow_hyphen_values = true)]
        position: String,
        /// Board side length for a transcript
        #[arg(long, default_value = "8", value_parser = parse_board)]
        board: BoardSize,
        #[arg(long, value_enum, default_value_t = VariantArg::Standard)]
        variant: VariantArg,
        /// Only win, loss or draw (a null-window search, much faster than exact scores)
        #[arg(long)]
        wld: bool,
        /// Only the best move and its margin: the other moves need only be shown worse
        #[arg(long, conflicts_with = "wld")]
        best_only: bool,
    },
    /// Work with networks
    #[command(subcommand)]
    Model(ModelCommand),
    /// Measure speed
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Play self-play games for training and write them as .npz + .json
    Selfplay {
        #[arg(long, default_value = "8", value_parser = parse_board)]
        board: BoardSize,
        #[arg(long, value_enum, default_value_t = VariantArg::Standard)]
        variant: VariantArg,
        /// The network (.onnx with its card), or `none` for MCTS with random playouts
        #[arg(long, default_value = "none")]
        model: String,
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
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: all cores)
        #[arg(long)]
        threads: Option<usize>,
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
    },
    /// Play a round-robin tournament and rate the players (Elo)
    Arena {
        /// Board side length
        #[arg(long, default_value = "8", value_parser = parse_board)]
        board: BoardSize,
        /// Comma-separated player specs, e.g. random,greedy,alphabeta:depth=4,mcts:sims=1000
        /// (an `option=value` piece without a colon belongs to the spec before it)
        #[arg(long)]
        players: String,
        /// Games per pairing (even: each opening is played with both colours)
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// Worker threads (default: all cores)
        #[arg(long)]
        threads: Option<usize>,
        /// Seed for openings and every player's randomness
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, value_enum, default_value_t = VariantArg::Standard)]
        variant: VariantArg,
        /// Folder for arena.json, arena.csv and arena.svg
        #[arg(long, default_value = "arena-out")]
        out: PathBuf,
        /// Start every game from the initial position, not from random openings (the
        /// players' seeds still change from game to game)
        #[arg(long)]
        from_start: bool,
    },
    /// Share of a player's endgame moves that are optimal, checked with the exact solver
    Accuracy {
        #[arg(long, default_value = "6", value_parser = parse_board)]
        board: BoardSize,
        #[arg(long, value_enum, default_value_t = VariantArg::Standard)]
        variant: VariantArg,
        /// The player to check, as an arena spec, e.g. mcts:model=models/az-6x6.onnx,sims=800
        #[arg(long)]
        player: String,
        /// Its opponent in the games that produce the positions
        #[arg(long, default_value = "alphabeta:depth=2")]
        against: String,
        /// Moves to check
        #[arg(long, default_value_t = 200)]
        positions: usize,
        /// Only positions with at most this many empty squares
        #[arg(long, default_value_t = 26)]
        max_empties: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also write every checked move as JSON here
        #[arg(long)]
        json: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum BenchCommand {
    /// MCTS simulations per second at several batch sizes, and the search's own share of the time
    Mcts {
        /// The network; without it the search uses random playouts
        #[arg(long)]
        model: Option<PathBuf>,
        #[arg(long, default_value = "8", value_parser = parse_board)]
        board: BoardSize,
        /// Simulations per searched position
        #[arg(long, default_value_t = 2000)]
        sims: u64,
        /// Batch sizes to try
        #[arg(long, value_delimiter = ',', default_value = "1,8,32")]
        batch: Vec<usize>,
    },
}

#[derive(Subcommand)]
enum ModelCommand {
    /// Print a model's card and shapes, a sample evaluation and evals/s at batch 1, 8, 32
    Check {
        /// The .onnx file (its card is the .json beside it)
        model: PathBuf,
        /// Also run the model on the inputs of this .npz (`planes`, as written by
        /// `python -m train.export`) and compare with its expected outputs (`policy`,
        /// `value`): fails when any output differs by more than --tolerance
        #[arg(long, value_name = "SAMPLES.npz")]
        compare: Option<PathBuf>,
        /// Largest difference --compare accepts
        #[arg(long, default_value_t = 1e-4)]
        tolerance: f32,
    },
}

/// How long the agent thinks: simulations, milliseconds, or both (whichever ends first).
#[derive(Args, Clone)]
struct SearchBudget {
    /// Simulations per move
    #[arg(long)]
    sims: Option<u64>,
    /// Milliseconds per move
    #[arg(long)]
    time: Option<u64>,
    /// The network (.onnx with its .json card); without it the search uses random playouts
    #[arg(long)]
    model: Option<PathBuf>,
}

impl SearchBudget {
    fn budget(&self) -> Budget {
        Budget {
            simulations: self.sims,
            time: self.time.map(Duration::from_millis),
            depth: None,
        }
    }
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum ColorArg {
    Black,
    White,
}

#[derive(Clone, Copy, ValueEnum)]
enum VariantArg {
    Standard,
    Reversed,
}

impl From<VariantArg> for Variant {
    fn from(v: VariantArg) -> Variant {
        match v {
            VariantArg::Standard => Variant::Standard,
            VariantArg::Reversed => Variant::Reversed,
        }
    }
}

fn parse_runtime(text: &str) -> Result<Runtime, String> {
    text.parse()
}

fn parse_board(text: &str) -> Result<BoardSize, String> {
    text.parse::<u8>()
        .ok()
        .and_then(BoardSize::from_n)
        .filter(|size| *size != BoardSize::Four || text == "4")
        .ok_or_else(|| format!("'{text}' is not a board size; use 8, 6 or 4"))
}

/// Board text is a board-length run of squares followed by the side to move, or a run of
/// square characters alone; anything else is read as a transcript.
fn looks_like_board_text(text: &str) -> bool {
    let mut parts = text.split_whitespace();
    let board = parts.next().unwrap_or_default();
    let has_side = parts.next().is_some();
    let board_length = BoardSize::ALL
        .iter()
        .any(|size| size.squares() as usize == board.chars().count());
    board_length && (has_side || board.chars().all(|c| "XxOo*-.".contains(c)))
}

/// Reads a position given as board text or as a transcript from the start.
fn read_position(text: &str, size: BoardSize, variant: Variant) -> Result<Game> {
    if looks_like_board_text(text) {
        let pos = Position::from_board_text(text, variant).context("cannot read board text")?;
        Ok(Game::new(pos))
    } else {
        Ok(Game::from_transcript(text, Position::start(size, variant))?)
    }
}

fn run(cli: Cli) -> Result<()> {
    Runtime::set_preferred(cli.runtime);
    match cli.command {
        Command::Perft { depth, board, from } => {
            if depth > 20 {
                bail!("depth {depth} would run for days; use 20 or less");
            }
            let start = match from {
                Some(text) => *read_position(&text, board, Variant::Standard)?.position(),
                None => Position::start(board, Variant::Standard),
            };
            let clock = Instant::now();
            let nodes = othello::perft(&start, depth);
            let seconds = clock.elapsed().as_secs_f64();
            let rate = nodes as f64 / seconds.max(1e-9);
            println!(
                "perft {depth} ({}): {nodes} nodes in {seconds:.3} s, {:.1} M nodes/s",
                start.size(),
                rate / 1e6
            );
        }
        Command::Show {
            position,
            board,
            variant,
        } => {
            let game = read_position(&position, board, variant.into())?;
            let pos = game.position();
            if !game.moves().is_empty() {
                println!("moves: {}", game.transcript(true));
            }
            println!("{pos}");
            let moves: Vec<String> = pos
                .legal_move_list()
                .iter()
                .map(|m| m.to_string())
                .collect();
            if !moves.is_empty() {
                println!("legal moves: {}", moves.join(" "));
            }
            println!("board text: {}", pos.to_board_text());
        }
        Command::Analyse {
            position,
            board,
            variant,
            search,
        } => {
            let game = read_position(&position, board, variant.into())?;
            let mut budget = search.budget();
            if budget.is_unlimited() {
                budget = Budget::simulations(800);
            }
            analyse::analyse(game.position(), search.model.as_deref(), &budget)?;
        }
        Command::Play {
            board,
            variant,
            color,
            search,
            seed,
        } => {
            let start = Position::start(board, variant.into());
            let human = if color == ColorArg::Black {
                Color::Black
            } else {
                Color::White
            };
            let mut budget = search.budget();
            if budget.is_unlimited() {
                budget = Budget::simulations(400);
            }
            let config = play::default_config(seed);
            let (stdin, mut stdout) = (std::io::stdin(), std::io::stdout());
            let mut input = stdin.lock();
            match &search.model {
                Some(path) => {
                    let model = model::load_model(path)?;
                    model.card().check_game(board, variant.into())?;
                    let mcts = Mcts::new(model.evaluator()?, config);
                    play::play(mcts, start, human, budget, &mut input, &mut stdout)?;
                }
                None => {
                    let mcts = Mcts::new(HeuristicEvaluator::new(seed, 4), config);
                    play::play(mcts, start, human, budget, &mut input, &mut stdout)?;
                }
            }
        }
        Command::Model(ModelCommand::Check {
            model,
            compare,
            tolerance,
        }) => {
            model::check(&model)?;
            if let Some(samples) = compare {
                model::compare(&model, &samples, tolerance)?;
            }
        }
        Command::Solve {
            position,
            board,
            variant,
            wld,
            best_only,
        } => {
            let game = read_position(&position, board, variant.into())?;
            let mode = match (wld, best_only) {
                (true, _) => SolveMode::WinLossDraw,
                (_, true) => SolveMode::BestOnly,
                _ => SolveMode::AllMoves,
            };
            solve(game.position(), mode);
        }
        Command::Bench(BenchCommand::Mcts {
            model,
            board,
            sims,
            batch,
        }) => {
            if batch.contains(&0) {
                bail!("batch sizes must be at least 1");
            }
            bench::mcts(model.as_deref(), board, sims, &batch)?;
        }
        Command::Selfplay {
            board,
            variant,
            model,
            games,
            sims,
            out,
            name,
            seed,
            threads,
            games_per_thread,
            temperature_plies,
            fast_sims,
            full_share,
            opponent,
        } => {
            let mut config = SelfPlayConfig::new(board, variant.into(), games, sims, seed);
            config.threads = threads.unwrap_or_else(default_threads);
            config.games_per_thread = games_per_thread;
            if !(full_share > 0.0 && full_share <= 1.0) {
                bail!("--full-share must be above 0 and at most 1");
            }
            if fast_sims == Some(0) {
                bail!("--fast-sims must be at least 1");
            }
            config.fast_simulations = fast_sims;
            config.full_search_share = full_share;
            if opponent.is_some() && model == "none" {
                bail!("--opponent needs a --model to play it");
            }
            config.opponent = opponent;
            if let Some(plies) = temperature_plies {
                config.temperature_plies = plies;
            }
            selfplay::run(&config, &model, &out, name.as_deref())?;
        }
        Command::Arena {
            board,
            players,
            games,
            threads,
            seed,
            variant,
            out,
            from_start,
        } => run_arena(ArenaArgs {
            board,
            players,
            games,
            threads,
            seed,
            variant: variant.into(),
            out,
            from_start,
        })?,
        Command::Accuracy {
            board,
            variant,
            player,
            against,
            positions,
            max_empties,
            seed,
            json,
        } => {
            let config = engine::accuracy::AccuracyConfig {
                size: board,
                variant: variant.into(),
                player: player.parse()?,
                sparring: against.parse()?,
                positions,
                max_empties,
                seed,
            };
            let bar = indicatif::ProgressBar::new(positions as u64);
            let report = engine::accuracy::measure_accuracy(&config, &|done, _| {
                bar.set_position(done as u64)
            })?;
            bar.finish_and_clear();
            println!("{}", report.summary());
            println!("empties   moves  optimal  keeps the result");
            for b in report.by_empties(4) {
                let share = |n: usize| 100.0 * n as f64 / b.moves.max(1) as f64;
                println!(
                    "{:>2}-{:<2}    {:>5}  {:>6.1}%  {:>6.1}%",
                    b.low,
                    b.high,
                    b.moves,
                    share(b.optimal),
                    share(b.keeps_result)
                );
            }
            if let Some(path) = json {
                write_file(&path, &serde_json::to_string_pretty(&report)?)?;
            }
        }
    }
    Ok(())
}

struct ArenaArgs {
    board: BoardSize,
    players: String,
    games: usize,
    threads: Option<usize>,
    seed: u64,
    variant: Variant,
    out: PathBuf,
    from_start: bool,
}

fn run_arena(args: ArenaArgs) -> Result<()> {
    let config = ArenaConfig {
        size: args.board,
        variant: args.variant,
        players: arena::parse_player_list(&args.players)?,
        games_per_pairing: args.games,
        seed: args.seed,
        from_start: args.from_start,
    };
    // Check before the games so that a bad player list fails at once, not after an hour.
    config.check()?;
    let threads = args.threads.unwrap_or_else(default_threads);
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let total = config.schedule().len();
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let clock = Instant::now();
    let report = arena::run_arena(&config, threads, &|done, _| bar.set_position(done as u64));
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
    println!(
        "wrote arena.json, arena.csv and arena.svg to {}",
        args.out.display()
    );
    Ok(())
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn write_file(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

enum SolveMode {
    AllMoves,
    BestOnly,
    WinLossDraw,
}

fn solve(pos: &Position, mode: SolveMode) {
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
    let show =
        |best: Option<othello::Move>| best.map_or_else(|| "none".to_owned(), |mv| mv.to_string());
    match mode {
        SolveMode::WinLossDraw => {
            let (result, best, _) = solver.win_loss_draw(pos);
            let result = match result {
                WinLossDraw::Win => "win",
                WinLossDraw::Draw => "draw",
                WinLossDraw::Loss => "loss",
            };
            println!("{side} to move: {result}, best move {}", show(best));
        }
        SolveMode::BestOnly => {
            let solution = solver.solve(pos);
            println!(
                "{side} to move: best move {}, margin {:+}",
                show(solution.best),
                solution.margin
            );
        }
        SolveMode::AllMoves => {
            let scores = solver.score_moves(pos);
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
    println!(
        "{nodes} nodes in {seconds:.3} s, {:.1} M nodes/s",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}
