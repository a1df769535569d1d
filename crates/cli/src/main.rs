//! `othello`: the command-line front end. A thin shell over the `othello`, `engine` and
//! `tools` crates: argument parsing and printing only. Every command that needs an agent
//! builds it from a player spec through the engine's builder, with networks loaded by
//! [`tools::models::ModelFiles`] on the runtime `--runtime` chose.

mod analyse;
mod args;
mod bench;
mod book;
mod exact;
mod model;
mod nboard;
mod openings;
mod play;
mod puzzles;
mod relabel;
mod review;
mod selfplay;
mod solve;
mod tournament;

use anyhow::{bail, Result};
use args::{read_position, AgentArgs, BoardArgs};
use clap::{Parser, Subcommand};
use engine::Budget;
use othello::{Color, Position};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use tools::models::{ModelFiles, RuntimeChoice};

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
    #[arg(long, global = true, default_value = "auto")]
    runtime: RuntimeChoice,
}

#[derive(Subcommand)]
enum Command {
    /// Count the move sequences of a given length (passes count as a ply)
    Perft {
        /// Plies to search
        depth: u32,
        #[command(flatten)]
        board: BoardArgs,
        /// Start from this position (transcript or board text) instead of the initial one
        #[arg(long, allow_hyphen_values = true)]
        from: Option<String>,
        /// Count every line one by one, without the table of symmetric and transposed
        /// positions (the plain move-generator check)
        #[arg(long)]
        plain: bool,
    },
    /// Print a position with its legal moves
    Show {
        /// A transcript such as `f5d6c3`, board text (64 or 36 squares, then X or O), or a
        /// GGF game: a file (`games.ggf:3` for its third game) or the record itself
        #[arg(allow_hyphen_values = true)]
        position: String,
        #[command(flatten)]
        board: BoardArgs,
    },
    /// Let an agent think about a position: visit shares, values, the principal variation,
    /// and the exact result where the solver settles it
    Analyse {
        /// A transcript such as `f5d6c3`, board text, or a GGF game (file or record)
        #[arg(allow_hyphen_values = true)]
        position: String,
        #[command(flatten)]
        board: BoardArgs,
        #[command(flatten)]
        agent: AgentArgs,
    },
    /// Review a game: each move's value against the best move's, the discs lost, and a mark
    /// (inaccuracy, mistake, blunder); exact where the solver reaches
    Review(review::ReviewArgs),
    /// Play an agent in the terminal
    Play {
        #[command(flatten)]
        board: BoardArgs,
        /// Your colour
        #[arg(long, default_value = "black", value_parser = parse_color)]
        color: Color,
        #[command(flatten)]
        agent: AgentArgs,
    },
    /// Solve a position exactly: the final margin of every legal move with perfect play
    Solve {
        /// A transcript such as `f5d6c3`, board text (64 or 36 squares, then X or O), or a
        /// GGF game: a file (`games.ggf:3` for its third game) or the record itself
        #[arg(allow_hyphen_values = true)]
        position: String,
        #[command(flatten)]
        board: BoardArgs,
        /// Only win, loss or draw (a null-window search, much faster than exact scores)
        #[arg(long)]
        wld: bool,
        /// Only the best move and its margin: the other moves need only be shown worse
        #[arg(long, conflicts_with = "wld")]
        best_only: bool,
        // The threads share one search (Young Brothers Wait); `--threads 1` is the
        // one-thread solver that docs/solver.md compares with Edax.
        #[command(flatten)]
        threads: args::ThreadsArg,
    },
    /// Work with networks
    #[command(subcommand)]
    Model(model::ModelCommand),
    /// Measure speed
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// Build, grow and look into opening books (docs/book.md)
    #[command(subcommand)]
    Book(book::BookCommand),
    /// Build, list and prove puzzle sets (docs/puzzles.md)
    #[command(subcommand)]
    Puzzles(puzzles::PuzzlesCommand),
    /// Play self-play games for training and write them as .npz + .json
    Selfplay(selfplay::SelfplayArgs),
    /// Value self-play samples again by an alpha-beta search of a pattern network: their
    /// search_value and search_score columns, which the trainer blends with the result
    Relabel(relabel::RelabelArgs),
    /// Play a round-robin tournament and rate the players (Elo)
    Arena(tournament::ArenaArgs),
    /// Rate games played elsewhere with the arena's Elo fit: JSON in arena.json's shape
    /// (`players`, `anchor`, `games`, optional `prior_draws`) in, its `ratings` out
    Elo {
        /// The games: a JSON file (an arena.json will do), or - for standard input
        games: PathBuf,
    },
    /// Share of a player's endgame moves that are optimal, checked with the exact solver
    Accuracy(tournament::AccuracyArgs),
    /// Make a list of balanced openings (XOT style) for `othello arena --openings FILE`
    Openings(openings::OpeningsArgs),
    /// Be an engine for the NBoard GUI: the NBoard protocol (version 2) on stdin and stdout
    Nboard(nboard::NboardArgs),
}

fn parse_color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "black" | "x" => Ok(Color::Black),
        "white" | "o" => Ok(Color::White),
        _ => Err(format!("'{text}' is not a colour; use black or white")),
    }
}

fn run(cli: Cli) -> Result<()> {
    let models = || ModelFiles::new(cli.runtime);
    match cli.command {
        Command::Perft {
            depth,
            board,
            from,
            plain,
        } => {
            if depth > 20 {
                bail!("depth {depth} would run for days; use 20 or less");
            }
            let start = match from {
                Some(text) => *read_position(&text, board)?.position(),
                None => board.start(),
            };
            perft(&start, depth, plain);
        }
        Command::Show { position, board } => show(&read_position(&position, board)?),
        Command::Analyse {
            position,
            board,
            agent,
        } => {
            let game = read_position(&position, board)?;
            let budget = agent.budget(Budget::simulations(800));
            analyse::analyse(game.position(), &agent, &budget, &models())?;
        }
        Command::Review(args) => review::run(args, &models())?,
        Command::Play {
            board,
            color,
            agent,
        } => {
            let budget = agent.budget(Budget::simulations(400));
            let (stdin, mut stdout) = (std::io::stdin(), std::io::stdout());
            play::play(
                &agent,
                &models(),
                board.start(),
                color,
                budget,
                &mut stdin.lock(),
                &mut stdout,
            )?;
        }
        Command::Model(command) => model::run(command, cli.runtime)?,
        Command::Solve {
            position,
            board,
            wld,
            best_only,
            threads,
        } => {
            let game = read_position(&position, board)?;
            let mode = match (wld, best_only) {
                (true, _) => solve::Mode::WinLossDraw,
                (_, true) => solve::Mode::BestOnly,
                _ => solve::Mode::AllMoves,
            };
            solve::solve(game.position(), mode, threads.get()?);
        }
        Command::Bench(command) => bench::run(command, &models())?,
        Command::Book(command) => book::run(command, &models())?,
        Command::Puzzles(command) => puzzles::run(command, &models())?,
        Command::Selfplay(args) => selfplay::run(args, &models())?,
        Command::Relabel(args) => relabel::run(args, cli.runtime)?,
        Command::Arena(args) => tournament::arena(args, &models())?,
        Command::Elo { games } => tournament::elo(&games)?,
        Command::Accuracy(args) => tournament::accuracy(args, &models())?,
        Command::Nboard(args) => nboard::run(args, models())?,
        Command::Openings(args) => openings::run(args, &models())?,
    }
    Ok(())
}

/// Entries of the hashed count's table: 2^20 of 32 bytes, 32 MiB (Edax's `count games`
/// uses 2^20 too by default).
const PERFT_TABLE_BITS: u32 = 20;

fn perft(start: &Position, depth: u32, plain: bool) {
    let clock = Instant::now();
    let nodes = if plain {
        othello::perft(start, depth)
    } else {
        othello::perft_hashed(start, depth, PERFT_TABLE_BITS)
    };
    let seconds = clock.elapsed().as_secs_f64();
    let rate = nodes as f64 / seconds.max(1e-9);
    println!(
        "perft {depth} ({}): {nodes} nodes in {seconds:.3} s, {:.1} M nodes/s",
        start.size(),
        rate / 1e6
    );
}

fn show(game: &othello::Game) {
    let pos = game.position();
    if !game.moves().is_empty() {
        println!("moves: {}", game.transcript(true));
    }
    if let Some(opening) = othello::named_opening(game.positions()) {
        println!("opening: {}", opening.name);
    }
    println!("{pos}");
    let moves: Vec<String> = pos
        .legal_move_list()
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    if !moves.is_empty() {
        println!("legal moves: {}", moves.join(" "));
    }
    println!("board text: {}", pos.to_board_text());
}

/// Writes a file, naming it in the error.
pub fn write_file(path: &std::path::Path, text: &str) -> Result<()> {
    use anyhow::Context;
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// An output folder, made if missing.
pub fn output_dir(path: &PathBuf) -> Result<()> {
    use anyhow::Context;
    std::fs::create_dir_all(path).with_context(|| format!("cannot create {}", path.display()))
}

/// A reader that closes the pipe early (`othello book stats | head -1`) ends the process
/// as it ends `ls`, instead of making the next `println!` panic: Rust starts programs with
/// SIGPIPE ignored, so the default is put back.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to its default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Ignores SIGPIPE again, for a command that writes to other programs (the arena's
/// engines): one that dies while it is sent its next command must come back as an error
/// that ends its game, not end this process.
pub(crate) fn ignore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition before the command starts any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

fn main() -> ExitCode {
    restore_sigpipe();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}
