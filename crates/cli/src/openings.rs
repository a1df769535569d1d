//! `othello openings`: balanced start positions for the arena, XOT style. Random openings
//! of a fixed number of plies are judged by an agent's search, and those it finds near
//! even (its expected outcome for the side to move within `--max-q`, and its expected disc
//! margin within `--max-discs` where the network has a score output) are kept.

use crate::args::{BoardArgs, SeedArg};
use crate::write_file;
use anyhow::{anyhow, Context, Result};
use clap::Args;
use engine::{Budget, PlayerSpec};
use othello::{BoardSize, Variant};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use tools::arena::{generate_openings_of, read_openings, Opening};
use tools::models::ModelFiles;

/// A list of openings by name, for the flags that take one (the arena's and self-play's
/// `--openings`): `xot` (the shipped balanced 8-ply openings of 8x8,
/// crates/othello/data/xot-8x8.txt) or a file of transcripts, one a line, as this command
/// writes them.
pub fn opening_list(name: &str, size: BoardSize, variant: Variant) -> Result<Vec<Opening>> {
    if name == "xot" {
        let text = othello::xot_list(size).ok_or_else(|| {
            anyhow!("no balanced openings for {size}: the XOT list is for 8x8 only")
        })?;
        return read_openings(text, size, variant)
            .map_err(|(line, e)| anyhow!("the XOT list, line {line}: {e}"));
    }
    let path = Path::new(name);
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the openings {}", path.display()))?;
    read_openings(&text, size, variant)
        .map_err(|(line, e)| anyhow!("{} line {line}: {e}", path.display()))
}

#[derive(Args)]
pub struct OpeningsArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// The judge, as a player spec that evaluates (mcts, value)
    #[arg(long)]
    player: PlayerSpec,
    /// Simulations per opening, unless the spec sets a budget
    #[arg(long, default_value_t = 800)]
    sims: u64,
    /// Openings to keep
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Candidates to judge at most
    #[arg(long, default_value_t = 1000)]
    candidates: usize,
    /// Plies of every opening (XOT: 8)
    #[arg(long, default_value_t = 8)]
    plies: usize,
    /// Keep an opening when the judge's expected outcome (-1..1, side to move) is within this
    #[arg(long, default_value_t = 0.1)]
    max_q: f32,
    /// ... and its expected disc margin within this, when the network has a score output
    #[arg(long, default_value_t = 2.0)]
    max_discs: f32,
    #[command(flatten)]
    seed: SeedArg,
    /// Where to write the list (one transcript a line, the judge's values as comments)
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: OpeningsArgs, models: &ModelFiles) -> Result<()> {
    let (size, variant) = (args.board.board, args.board.variant);
    args.player.check_game(size, variant, models)?;
    let (mut judge, budget) = args.player.build(args.seed.seed, models)?;
    let budget = if budget.is_unlimited() {
        Budget::simulations(args.sims)
    } else {
        budget
    };
    let candidates = generate_openings_of(
        size,
        variant,
        args.candidates,
        args.plies..=args.plies,
        args.seed.seed,
    )?;
    let mut kept = Vec::new();
    let mut judged = 0;
    for opening in &candidates {
        if kept.len() == args.count {
            break;
        }
        judged += 1;
        let info = judge.think(&opening.position, &budget, &mut |_| true)?;
        let discs_ok = info.score.is_none_or(|s| s.abs() <= args.max_discs);
        if info.value.abs() <= args.max_q && discs_ok {
            kept.push((opening.transcript(), info.value, info.score));
        }
        if judged % 50 == 0 {
            eprintln!("{judged} judged, {} kept", kept.len());
        }
    }
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# {} balanced {size} {variant} openings of {} plies: random openings (seed {}) that \
         {} ({}) judged within q {} and {} discs for the side to move.\n\
         # Made by: othello openings --board {} --player {} --sims {} --count {} --candidates {} \
         --plies {} --max-q {} --max-discs {} --seed {}",
        kept.len(),
        args.plies,
        args.seed.seed,
        args.player,
        budget_text(&budget),
        args.max_q,
        args.max_discs,
        size.n(),
        args.player,
        args.sims,
        args.count,
        args.candidates,
        args.plies,
        args.max_q,
        args.max_discs,
        args.seed.seed
    );
    for (transcript, q, score) in &kept {
        let score = score.map_or_else(String::new, |s| format!(" discs {s:+.1}"));
        let _ = writeln!(text, "{transcript}  # q {q:+.3}{score}");
    }
    write_file(&args.out, &text)?;
    println!(
        "kept {} of {} candidates; wrote {}",
        kept.len(),
        judged,
        args.out.display()
    );
    if kept.len() < args.count {
        eprintln!(
            "only {} openings were near even; judge more candidates or widen --max-q",
            kept.len()
        );
    }
    Ok(())
}

fn budget_text(budget: &Budget) -> String {
    match (budget.simulations, budget.time) {
        (Some(sims), _) => format!("{sims} simulations"),
        (None, Some(time)) => format!("{} ms", time.as_millis()),
        (None, None) => "its own budget".into(),
    }
}
