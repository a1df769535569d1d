//! Arguments several commands share, declared once and flattened into each.

use anyhow::{bail, Context, Result};
use clap::Args;
use engine::{Budget, ModelSource, PlayerSpec};
use othello::ggf::{read_games, GgfGame};
use othello::{BoardSize, Game, Position, Variant};
use std::path::Path;
use std::time::Duration;

/// The board and the rules.
#[derive(Args, Clone, Copy)]
pub struct BoardArgs {
    /// Board: 8, 6 or 4 (or 8x8, 6x6, 4x4)
    #[arg(long, default_value = "8")]
    pub board: BoardSize,
    /// Rules: standard, or reversed (fewest discs wins)
    #[arg(long, default_value = "standard")]
    pub variant: Variant,
}

impl BoardArgs {
    pub fn start(&self) -> Position {
        Position::start(self.board, self.variant)
    }
}

#[derive(Args, Clone, Copy)]
pub struct ThreadsArg {
    /// Worker threads (default: all cores)
    #[arg(long)]
    pub threads: Option<usize>,
}

impl ThreadsArg {
    pub fn get(&self) -> Result<usize> {
        match self.threads {
            Some(0) => bail!("--threads must be at least 1"),
            Some(n) => Ok(n),
            None => Ok(std::thread::available_parallelism().map_or(1, std::num::NonZero::get)),
        }
    }
}

/// The seed every random choice starts from: the same seed, the same games.
#[derive(Args, Clone, Copy)]
pub struct SeedArg {
    /// Seed of the players' (and openings') randomness
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The agent, as a player spec, and how long it thinks.
#[derive(Args, Clone)]
pub struct AgentArgs {
    /// The agent as a player spec, e.g. mcts:model=models/az-8x8.onnx (the same specs as
    /// `othello arena`; `mcts` without a model searches with random playouts)
    #[arg(long, default_value = "mcts")]
    pub player: PlayerSpec,
    /// Simulations per move (overrides the spec's)
    #[arg(long)]
    pub sims: Option<u64>,
    /// Milliseconds per move (overrides the spec's)
    #[arg(long)]
    pub time: Option<u64>,
    #[command(flatten)]
    pub seed: SeedArg,
}

impl AgentArgs {
    /// The spec's budget with the flags' overrides, or `default` when neither sets one.
    pub fn budget(&self, default: Budget) -> Budget {
        let mut budget = self.player.budget();
        if self.sims.is_some() || self.time.is_some() {
            budget.simulations = self.sims;
            budget.time = self.time.map(Duration::from_millis);
        }
        if budget.is_unlimited() {
            default
        } else {
            budget
        }
    }
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

/// Reads a position given as a GGF game (a file, or the record itself), board text, or a
/// transcript from the start. A GGF game brings its own board and rules; from a file of
/// several games the first is read, `FILE:N` picks the Nth.
pub fn read_position(text: &str, board: BoardArgs) -> Result<Game> {
    Ok(read_record(text, board)?.into_game())
}

/// [`read_position`] with what a GGF record says besides the game (players, result, move
/// notes), for a command that writes the record back; a transcript or board text gives a
/// record of the game alone.
pub fn read_record(text: &str, board: BoardArgs) -> Result<GgfGame> {
    if let Some(record) = read_ggf(text)? {
        Ok(record)
    } else if looks_like_board_text(text) {
        let pos =
            Position::from_board_text(text, board.variant).context("cannot read board text")?;
        Ok(GgfGame::new(Game::new(pos)))
    } else if looks_like_a_file_name(text) {
        bail!("cannot read {text}: no such file")
    } else {
        Ok(GgfGame::new(Game::from_transcript(text, board.start())?))
    }
}

/// A path or a `.ggf` name (`games.ggf:3` too), which no transcript is: said of a file that
/// is not there, so that the error names the file and not a bad square.
fn looks_like_a_file_name(text: &str) -> bool {
    let name = text.rsplit_once(':').map_or(text, |(name, _)| name);
    text.contains(['/', '\\']) || name.to_ascii_lowercase().ends_with(".ggf")
}

/// The game of a GGF record or file, or `None` when `text` is neither.
fn read_ggf(text: &str) -> Result<Option<GgfGame>> {
    let (record, source, number) = if text.trim_start().starts_with("(;") {
        (text.to_owned(), "the GGF record".to_owned(), 1)
    } else {
        // `games.ggf:3` is the third game of games.ggf, unless a file has that very name.
        let (path, number) = match text.rsplit_once(':') {
            Some((path, n)) if !Path::new(text).is_file() => match n.parse::<usize>() {
                Ok(n) => (path, n),
                Err(_) => (text, 1),
            },
            _ => (text, 1),
        };
        if !Path::new(path).is_file() {
            return Ok(None);
        }
        let record =
            std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
        (record, path.to_owned(), number)
    };
    let games = read_games(&record).with_context(|| format!("cannot read {source} as GGF"))?;
    let count = games.len();
    match games.into_iter().nth(number.wrapping_sub(1)) {
        Some(game) => Ok(Some(game)),
        None => bail!("{source} holds {count} game(s); there is no game {number}"),
    }
}

/// Says once, on standard error, why the spec's book cannot be used; the agent then plays
/// without it (a book saves time, and no game should stop for want of one).
pub fn warn_without_book(
    spec: &PlayerSpec,
    size: BoardSize,
    variant: Variant,
    models: &dyn ModelSource,
) {
    if let Err(e) = spec.check_book(size, variant, models) {
        eprintln!("warning: {e}");
    }
}
