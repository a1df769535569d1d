//! A fixed set of positions with their exact final margins, to measure how well a network's
//! evaluation knows the value of a position (issue 66: the mean absolute error in discs of
//! each network's margin estimate against the solver's margin). The positions come from
//! games no network of ours trained on (Zebra against itself, docs/pattern.md), each once
//! up to the board's symmetries, solved once and kept as a small text file:
//!
//! ```text
//! # any comment
//! <board text: 64 of X, O, -> <side to move: X or O> <exact margin for the side to move>
//! ```

use engine::book::BookKey;
use engine::network::{ModelError, Network, NetworkEvaluator};
use engine::{Evaluator, Solver};
use othello::{BoardSize, Game, Position, Variant};
use std::collections::HashSet;
use std::fmt::Write as _;

/// One position of the set and its exact final margin for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactPosition {
    pub position: Position,
    pub margin: i32,
}

/// Why a set's text cannot be read, with its line.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ExactSetError {
    #[error("line {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error("the set holds no position")]
    Empty,
}

/// The positions of `games` with `min_empties..=max_empties` empty squares and a choice
/// of move, each once up to symmetry, solved exactly; `progress` hears (solved, to solve).
pub fn build(
    games: &[Game],
    min_empties: u32,
    max_empties: u32,
    progress: &dyn Fn(usize, usize),
) -> Vec<ExactPosition> {
    let mut seen = HashSet::new();
    let mut candidates = Vec::new();
    for game in games {
        for pos in game.positions() {
            let empties = pos.empty_count();
            if (min_empties..=max_empties).contains(&empties)
                && pos.legal_move_list().len() >= 2
                && seen.insert(BookKey::of(pos).0)
            {
                candidates.push(*pos);
            }
        }
    }
    let mut solver = Solver::new();
    let mut set = Vec::with_capacity(candidates.len());
    for (done, position) in candidates.into_iter().enumerate() {
        progress(done, set.capacity());
        let margin = solver.solve(&position).margin;
        set.push(ExactPosition { position, margin });
    }
    progress(set.len(), set.len());
    set
}

/// The set as its file holds it.
pub fn write(set: &[ExactPosition], comment: &str) -> String {
    let mut out = String::new();
    for line in comment.lines() {
        let _ = writeln!(out, "# {line}");
    }
    for entry in set {
        let _ = writeln!(out, "{} {}", entry.position.to_board_text(), entry.margin);
    }
    out
}

/// Reads a set's file: every line not blank and not a comment is one position.
pub fn read(text: &str) -> Result<Vec<ExactPosition>, ExactSetError> {
    let mut set = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |reason: String| ExactSetError::Line {
            line: i + 1,
            reason,
        };
        let (board, margin) = line
            .rsplit_once(' ')
            .ok_or_else(|| bad("expected '<board text> <side> <margin>'".into()))?;
        let margin: i32 = margin
            .parse()
            .map_err(|_| bad(format!("'{margin}' is not a margin in discs")))?;
        let position =
            Position::from_board_text(board, Variant::Standard).map_err(|e| bad(e.to_string()))?;
        if margin.unsigned_abs() > position.size().squares() {
            return Err(bad(format!("a margin of {margin} discs is off the board")));
        }
        set.push(ExactPosition { position, margin });
    }
    if set.is_empty() {
        return Err(ExactSetError::Empty);
    }
    Ok(set)
}

/// How far a network's evaluation is from the exact margins of a set.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalError {
    pub positions: usize,
    /// Mean absolute error of the margin estimate, in discs.
    pub margin_mae: f64,
    /// Share of the positions whose result (win, draw or loss) the value's sign gets
    /// right, a draw counting as right within ±0.1.
    pub results_right: f64,
    /// The margin's mean absolute error at each number of empties, lowest first.
    pub by_empties: Vec<(u32, usize, f64)>,
}

/// The network's margin estimate for each position (its score head, or discs from its
/// value where it has none: `report::discs_of_value`) against the set.
pub fn measure(network: &Network, set: &[ExactPosition]) -> Result<EvalError, ModelError> {
    let estimates = estimates(network, set)?;
    let mut by_empties: Vec<(u32, usize, f64)> = Vec::new();
    let (mut total, mut right) = (0.0, 0usize);
    for (entry, (discs, value)) in set.iter().zip(&estimates) {
        let error = f64::from((discs - entry.margin as f32).abs());
        total += error;
        let result_right = match entry.margin.signum() {
            0 => value.abs() <= 0.1,
            sign => value.signum() as i32 == sign,
        };
        right += usize::from(result_right);
        let empties = entry.position.empty_count();
        match by_empties.iter_mut().find(|(e, _, _)| *e == empties) {
            Some((_, count, sum)) => (*count, *sum) = (*count + 1, *sum + error),
            None => by_empties.push((empties, 1, error)),
        }
    }
    by_empties.sort_by_key(|(e, _, _)| *e);
    for (_, count, sum) in &mut by_empties {
        *sum /= *count as f64;
    }
    let n = set.len().max(1) as f64;
    Ok(EvalError {
        positions: set.len(),
        margin_mae: total / n,
        results_right: right as f64 / n,
        by_empties,
    })
}

/// (margin estimate in discs, value) for each position.
fn estimates(network: &Network, set: &[ExactPosition]) -> Result<Vec<(f32, f32)>, ModelError> {
    if let Some(tables) = network.pattern_tables() {
        let squares = tables.set().size.squares() as f32;
        return Ok(set
            .iter()
            .map(|e| {
                let (score, value) = tables.evaluate(&e.position);
                (score * squares, value)
            })
            .collect());
    }
    let mut evaluator = NetworkEvaluator::new(network)?;
    let squares = BoardSize::Eight.squares() as f32;
    let positions: Vec<Position> = set.iter().map(|e| e.position).collect();
    let mut out = Vec::with_capacity(set.len());
    for batch in positions.chunks(64) {
        let evaluations = evaluator
            .evaluate(batch)
            .map_err(|e| ModelError::Run(e.to_string()))?;
        for (pos, evaluation) in batch.iter().zip(evaluations) {
            let discs = match evaluation.score {
                Some(score) => score * pos.size().squares() as f32,
                None => engine::report::discs_of_value(evaluation.value).clamp(-squares, squares),
            };
            out.push((discs, evaluation.value));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Rng;
    use othello::testing::minimax;

    fn game_from(seed: u64) -> Game {
        let mut rng = Rng::new(seed);
        let mut game = Game::new(Position::start(BoardSize::Six, Variant::Standard));
        while !game.position().is_game_over() {
            let moves = game.position().legal_move_list();
            game.push(moves[rng.below(moves.len())]).expect("legal");
        }
        game
    }

    #[test]
    fn a_built_set_holds_exact_margins_and_reads_back_as_written() {
        let games: Vec<Game> = (0..6).map(game_from).collect();
        let set = build(&games, 8, 10, &|_, _| {});
        assert!(set.len() >= 6, "{}", set.len());
        for entry in &set {
            assert!((8..=10).contains(&entry.position.empty_count()));
            assert_eq!(
                entry.margin,
                minimax(&entry.position),
                "{}",
                entry.position.to_board_text()
            );
        }
        let text = write(&set, "six random games");
        assert!(text.starts_with("# six random games\n"));
        assert_eq!(read(&text), Ok(set));
    }

    #[test]
    fn a_damaged_line_is_named_by_its_number() {
        let start = Position::start(BoardSize::Eight, Variant::Standard).to_board_text();
        assert_eq!(read(&format!("{start} 4")).map(|s| s.len()), Ok(1));
        assert!(matches!(
            read(&format!("# c\n{start} four")),
            Err(ExactSetError::Line { line: 2, .. })
        ));
        assert!(matches!(
            read(&format!("{start} 70")),
            Err(ExactSetError::Line { line: 1, .. })
        ));
        assert_eq!(read("# only a comment\n"), Err(ExactSetError::Empty));
    }
}
