//! `othello puzzles`: build a puzzle set from games, list it, prove it again
//! (docs/puzzles.md).

use crate::args::BoardArgs;
use anyhow::{anyhow, bail, Context, Result};
use clap::Subcommand;
use engine::puzzles::PuzzleSet;
use engine::PlayerSpec;
use indicatif::ProgressBar;
use othello::ggf::read_games;
use othello::Game;
use std::io::Read;
use std::path::{Path, PathBuf};
use tools::models::ModelFiles;
use tools::puzzles::{check_puzzles, find_puzzles, PuzzleCounts, PuzzleRules, Rater};

#[derive(Subcommand)]
pub enum PuzzlesCommand {
    /// Find the positions of games where one move is clearly best, prove each with the
    /// exact solver, and write those kept as a puzzle set
    Build {
        #[command(flatten)]
        board: BoardArgs,
        /// GGF files of games (one record after another, as arena.ggf; `.gz` read too)
        #[arg(long = "games", required = true, num_args = 1..)]
        games: Vec<PathBuf>,
        /// Try positions with at most this many empty squares
        #[arg(long, default_value_t = 18)]
        max_empties: u32,
        /// ... and at least this many
        #[arg(long, default_value_t = 6)]
        min_empties: u32,
        /// A best-margin puzzle's answer is ahead of every other move by at least this
        #[arg(long, default_value_t = 8)]
        gap: i32,
        /// A network whose policy rank of the answer goes into the first rating
        #[arg(long)]
        policy_model: Option<PathBuf>,
        /// The puzzle file to write
        #[arg(long)]
        out: PathBuf,
    },
    /// One puzzle a line: board text, side, answer, kind, themes, rating
    List { file: PathBuf },
    /// Prove every puzzle of a file again with the exact solver
    Check { file: PathBuf },
}

pub fn run(command: PuzzlesCommand, models: &ModelFiles) -> Result<()> {
    match command {
        PuzzlesCommand::Build {
            board,
            games,
            max_empties,
            min_empties,
            gap,
            policy_model,
            out,
        } => {
            if min_empties > max_empties {
                bail!("--min-empties {min_empties} is above --max-empties {max_empties}");
            }
            let policy = policy_model
                .map(|path| format!("policy:model={}", path.display()).parse::<PlayerSpec>())
                .transpose()?;
            if let Some(spec) = &policy {
                spec.check_game(board.board, board.variant, models)?;
            }
            let mut all = Vec::new();
            for path in &games {
                all.extend(read_game_file(path)?);
            }
            let rules = PuzzleRules {
                max_empties,
                min_empties,
                gap,
                policy,
            };
            let mut rater = Rater::new(rules.policy.as_ref(), models)?;
            let bar = ProgressBar::new(0);
            let (set, counts) = find_puzzles(
                &all,
                board.board,
                board.variant,
                &rules,
                &mut rater,
                &|done, total| {
                    bar.set_length(total as u64);
                    bar.set_position(done as u64);
                },
            );
            bar.finish_and_clear();
            std::fs::write(&out, set.to_bytes())
                .with_context(|| format!("cannot write {}", out.display()))?;
            println!("{} games read", all.len());
            print_counts(&counts);
            println!("wrote {} puzzles to {}", set.puzzles.len(), out.display());
        }
        PuzzlesCommand::List { file } => {
            for puzzle in read_set(&file)?.puzzles {
                println!("{}", puzzle.line());
            }
        }
        PuzzlesCommand::Check { file } => {
            let set = read_set(&file)?;
            let bar = ProgressBar::new(set.puzzles.len() as u64);
            let failures = check_puzzles(&set, &|done, _| bar.set_position(done as u64));
            bar.finish_and_clear();
            print_counts(&PuzzleCounts::of(&set, 0));
            if let Some(first) = failures.first() {
                bail!(
                    "{} of {} puzzles fail their proof; the first, puzzle {}: {}",
                    failures.len(),
                    set.puzzles.len(),
                    first.index + 1,
                    first.reason
                );
            }
            println!("all {} puzzles proven again", set.puzzles.len());
        }
    }
    Ok(())
}

fn read_set(path: &Path) -> Result<PuzzleSet> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    PuzzleSet::from_bytes(&bytes).map_err(|e| anyhow!("{}: {e}", path.display()))
}

/// The games of a GGF file, gzipped or not.
pub(crate) fn read_game_file(path: &Path) -> Result<Vec<Game>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let text = if path.extension().is_some_and(|e| e == "gz") {
        let mut text = String::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_string(&mut text)
            .with_context(|| format!("{} is not gzipped text", path.display()))?;
        text
    } else {
        String::from_utf8(bytes).with_context(|| format!("{} is not text", path.display()))?
    };
    let records = read_games(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    Ok(records
        .into_iter()
        .map(othello::GgfGame::into_game)
        .collect())
}

/// The counts; the positions tried only when there were some (a build, not a check).
fn print_counts(counts: &PuzzleCounts) {
    if counts.tried > 0 {
        println!(
            "{} positions tried, {} kept as puzzles",
            counts.tried, counts.kept
        );
    } else {
        println!("{} puzzles", counts.kept);
    }
    let line = |name: &str, items: Vec<String>| println!("  by {name}: {}", items.join(", "));
    line(
        "kind",
        counts
            .by_kind
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect(),
    );
    line(
        "theme",
        counts
            .by_theme
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect(),
    );
    line(
        "empties",
        counts
            .by_empties
            .iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect(),
    );
    line(
        "rating",
        counts
            .by_rating
            .iter()
            .map(|(k, n)| format!("{k}-{}: {n}", k + 199))
            .collect(),
    );
}
