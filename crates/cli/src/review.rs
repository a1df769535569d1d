//! `othello review`: every move of a game valued by an agent, against the best move, with
//! the loss in discs and a mark (the engine's `review` module does the valuing), and the
//! game written back as GGF with the values in its move fields.

use crate::args::{read_record, AgentArgs, BoardArgs, SeedArg};
use anyhow::{bail, Result};
use clap::Args;
use engine::review::{
    MoveReview, Reviewer, SideSummary, Value, BLUNDER_DISCS, INACCURACY_DISCS, MISTAKE_DISCS,
};
use engine::{Budget, ModelSource, PlayerSpec};
use indicatif::ProgressBar;
use othello::ggf::eval_text;
use othello::{Color, GgfGame};
use std::path::PathBuf;

/// The page's Club level: its network at 400 simulations.
const DEFAULT_PLAYER: &str = "mcts:model=models/az-8x8.onnx,sims=400";

#[derive(Args)]
pub struct ReviewArgs {
    /// The game: a GGF file (`games.ggf:3` for its third game), a GGF record, or a
    /// transcript such as `f5d6c3d3c4`
    #[arg(allow_hyphen_values = true)]
    game: String,
    #[command(flatten)]
    board: BoardArgs,
    /// The reviewer as a player spec: a search that values moves (mcts, with or without
    /// model=)
    #[arg(long, default_value = DEFAULT_PLAYER)]
    player: PlayerSpec,
    /// Simulations per position (overrides the spec's)
    #[arg(long)]
    sims: Option<u64>,
    /// Milliseconds per position (overrides the spec's)
    #[arg(long)]
    time: Option<u64>,
    #[command(flatten)]
    seed: SeedArg,
    /// Also write the game as GGF with each move's value in discs in its move field
    /// (`B[f5/-2]`, as GGS records carry evaluations)
    #[arg(long, value_name = "OUT")]
    ggf: Option<PathBuf>,
}

pub fn run(args: ReviewArgs, models: &dyn ModelSource) -> Result<()> {
    if let Some(out) = &args.ggf {
        // Said before the review rather than after it.
        let folder = out.parent().filter(|f| !f.as_os_str().is_empty());
        if let Some(folder) = folder.filter(|f| !f.is_dir()) {
            bail!(
                "cannot write {}: no folder {}",
                out.display(),
                folder.display()
            );
        }
    }
    let record = read_record(&args.game, args.board)?;
    let game = record.game().clone();
    if game.moves().is_empty() {
        bail!("{}: no moves to review", args.game);
    }
    let start = game.start();
    args.player
        .check_game(start.size(), start.variant(), models)?;
    crate::args::warn_without_book(&args.player, start.size(), start.variant(), models);
    let agent_args = AgentArgs {
        player: args.player,
        sims: args.sims,
        time: args.time,
        seed: args.seed,
    };
    let budget = agent_args.budget(Budget::simulations(400));
    let (agent, _) = agent_args.player.build(args.seed.seed, models)?;
    let bar = ProgressBar::new(game.moves().len() as u64);
    let reviews = Reviewer::new(agent, budget)
        .review_game(&game, &mut |index, _| bar.set_position(index as u64 + 1))?;
    bar.finish_and_clear();
    print!("{}", render(&reviews));
    if let Some(path) = &args.ggf {
        crate::write_file(path, &format!("{}\n", annotated(record, &reviews)))?;
    }
    Ok(())
}

/// A value as the table prints it: an exact margin whole, an estimate to hundredths.
fn value_text(value: Option<Value>) -> String {
    match value {
        None => "-".to_owned(),
        Some(v) if v.exact => format!("{:+}", v.discs),
        Some(v) => format!("{:+.2}", v.discs),
    }
}

/// The best move's value: "≥+30" where a proof gave only a lower bound of its margin (as
/// the page writes it), else as [`value_text`] writes a value.
fn best_value_text(r: &MoveReview) -> String {
    match r.best_value {
        Some(v) if r.best_is_bound => format!("≥{:+}", v.discs.round() as i32),
        value => value_text(value),
    }
}

/// Discs lost, "≥" before it where the best value is only a bound, "~" where it was taken
/// between the search's estimates of both moves (one value shown is exact, the other not,
/// so the loss is not their difference), as the page writes it.
fn loss_text(r: &MoveReview) -> String {
    let mark = if r.best_is_bound {
        "≥"
    } else if r.loss_between_estimates {
        "~"
    } else {
        ""
    };
    format!("{mark}{:.2}", r.loss)
}

/// The mark: "forced" for a forced move, else the mark's name ("uncertain" for one within
/// reach of a best that is only a bound, "near-best" for another move within reach of the
/// best).
fn mark_text(r: &MoveReview) -> String {
    if r.is_forced() {
        "forced".to_owned()
    } else {
        r.mark.to_string()
    }
}

/// The table of moves (each with its best line, which the annotated GGF leaves out: GGF has
/// no field for one), then each side's summary.
pub fn render(reviews: &[MoveReview]) -> String {
    let mut out = format!(
        "Values in discs for the side to move; whole numbers are exact margins. Marks by \
         discs lost: inaccuracy from {INACCURACY_DISCS}, mistake from {MISTAKE_DISCS}, \
         blunder from {BLUNDER_DISCS}. A line is the solver's where the best value is exact, \
         unless marked (searched); marked (window), its first move is proven to reach the \
         best value's bound and the rest is the solver's.\n"
    );
    out.push_str("  #  side   move    value  best   best value   loss  mark        line\n");
    for (i, r) in reviews.iter().enumerate() {
        let mark = mark_text(r);
        let mut line: Vec<String> = r.line.iter().map(ToString::to_string).collect();
        if r.line_searched && r.best_value.is_some_and(|v| v.exact) {
            line.push("(searched)".to_owned());
        } else if r.line_from_window {
            line.push("(window)".to_owned());
        }
        let row = format!(
            "{:>3}  {:<5}  {:<5} {:>7}  {:<5} {:>11}  {:>5}  {mark:<10}  {}",
            i + 1,
            r.side.to_string(),
            r.played.to_string(),
            value_text(r.value),
            r.best.to_string(),
            best_value_text(r),
            loss_text(r),
            line.join(" "),
        );
        out.push_str(row.trim_end());
        out.push('\n');
    }
    for side in [Color::Black, Color::White] {
        out.push_str(&summary_line(side, &SideSummary::of(reviews, side)));
    }
    out
}

fn summary_line(side: Color, s: &SideSummary) -> String {
    format!("{side}: {s}\n")
}

/// Each move's value as its record's evaluation (discs, from the mover's side, to
/// hundredths, never -0); a forced move, which was not valued, gets none. The record's times stay.
/// The record with each reviewed move's value as its evaluation, written as
/// [`othello::ggf::eval_text`] writes one (an estimate to hundredths with the table's own
/// rounding, an exact margin whole: `-42.00` had come out as `-42`, which reads exact), and
/// every other byte of a GGF record as it came (`RE[+0.000]` stays), as the page's
/// "Download with the review's values" writes it. A game from a transcript or board text
/// has no text of its own: it is written whole, its result from the board.
fn annotated(mut record: GgfGame, reviews: &[MoveReview]) -> String {
    let evals: Vec<Option<String>> = reviews
        .iter()
        .map(|r| r.value.map(|v| eval_text(f64::from(v.discs), v.exact)))
        .collect();
    if record.as_read().is_none() && record.result.is_none() {
        record.set_result_from_board();
    }
    record.text_with_evals(&evals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::{BoardSize, Move};

    fn exact(discs: f32) -> Value {
        Value { discs, exact: true }
    }

    fn mv(text: &str) -> Move {
        Move::parse(text, BoardSize::Eight).expect("a square")
    }

    #[test]
    fn a_move_reviewed_against_a_proofs_bound_is_uncertain_never_best() {
        // FFO #40: c1 wins by 30; a proof that reached only "a win by at least 30" cannot
        // say that c1 is the best move (a2 wins by 38).
        let exact_review = MoveReview::new(
            Color::Black,
            (mv("c1"), exact(30.0)),
            (mv("c1"), exact(30.0)),
        );
        let mut bound = exact_review.clone();
        bound.best_is_bound = true;
        // Graded again, as the reviewer grades a review it bounds: the mark is the
        // engine's now, not the table's own rule (issue 68).
        let bound = bound.graded();
        let table = render(&[exact_review, bound]);
        // Each row's best value, loss and mark.
        let rows: Vec<Vec<&str>> = table
            .lines()
            .skip(2)
            .take(2)
            .map(|row| row.split_whitespace().skip(5).take(3).collect())
            .collect();
        assert_eq!(rows[0], ["+30", "0.00", "best"], "{table}");
        assert_eq!(rows[1], ["≥+30", "≥0.00", "uncertain"], "{table}");
    }

    #[test]
    fn a_loss_between_the_search_s_estimates_is_marked_as_the_page_marks_it() {
        // The played f6 proven -64, the best e3 estimated +33.30: the loss (12.69) is the
        // search's estimates' difference, not the values', and the row says so.
        let mut review = MoveReview::new(
            Color::Black,
            (mv("f6"), exact(-64.0)),
            (mv("e3"), Value::estimate(33.3)),
        );
        review.loss = 12.69;
        review.loss_between_estimates = true;
        let table = render(&[review]);
        let row: Vec<&str> = table
            .lines()
            .nth(2)
            .expect("a row")
            .split_whitespace()
            .collect();
        assert!(row.contains(&"~12.69"), "{table}");
    }
}
