//! `othello`: the command-line front end. A thin shell over the `othello` and `engine`
//! crates: argument parsing and printing only.

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use engine::{Solver, WinLossDraw};
use othello::{BoardSize, Game, Position, Variant};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "othello",
    version,
    about = "Othello Zero: rules, search and tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
        #[arg(long)]
        from: Option<String>,
    },
    /// Print a position with its legal moves
    Show {
        /// A transcript such as `f5d6c3`, or board text (64 or 36 squares, then X or O)
        position: String,
        /// Board side length for a transcript
        #[arg(long, default_value = "8", value_parser = parse_board)]
        board: BoardSize,
        #[arg(long, value_enum, default_value_t = VariantArg::Standard)]
        variant: VariantArg,
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

fn parse_board(text: &str) -> Result<BoardSize, String> {
    text.parse::<u8>()
        .ok()
        .and_then(BoardSize::from_n)
        .filter(|size| *size != BoardSize::Four || text == "4")
        .ok_or_else(|| format!("'{text}' is not a board size; use 8, 6 or 4"))
}

/// Board text is a run of square characters of a board's length; anything else is read
/// as a transcript.
fn looks_like_board_text(text: &str) -> bool {
    let board = text.split_whitespace().next().unwrap_or_default();
    BoardSize::ALL
        .iter()
        .any(|size| size.squares() as usize == board.len())
        && board.chars().all(|c| "XxOo*-.".contains(c))
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
    }
    Ok(())
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
