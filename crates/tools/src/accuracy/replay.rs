//! Rechecks on the positions of earlier reports.

use super::{
    empties_range, label_played, play_checked, AccuracyConfig, AccuracyReport, CheckedMove,
};
use crate::arena::ArenaError;
use engine::{ModelSource, Solver};
use othello::{Move, Position};
use serde::Deserialize;
use std::collections::HashMap;
use thiserror::Error;

/// A checked move as an earlier report's JSON holds it (`--json`), read back as text: the
/// position and the move are checked against the rules before they are used.
#[derive(Clone, Debug, Deserialize)]
pub struct RecordedMove {
    pub position: String,
    pub played: String,
    pub played_margin: i32,
    pub best_margin: i32,
    /// Reports written before win/loss/draw labels have only exact margins.
    #[serde(default = "exact_by_default")]
    pub exact: bool,
}

fn exact_by_default() -> bool {
    true
}

/// An earlier report, as much of it as a recheck needs.
#[derive(Clone, Debug, Deserialize)]
pub struct RecordedReport {
    pub moves: Vec<RecordedMove>,
}

/// A distinct recorded position: its best margin and the margins of the moves recorded
/// there, exact or (with `exact` false) only their signs.
struct RecordedPosition {
    text: String,
    pos: Position,
    exact: bool,
    best_margin: i32,
    margins: HashMap<Move, i32>,
}

#[derive(Debug, Error)]
pub enum ReplayError {
    #[error(transparent)]
    Arena(#[from] ArenaError),
    #[error(transparent)]
    Spec(#[from] engine::spec::SpecError),
    #[error("recorded move {index}: {reason}")]
    BadRecord { index: usize, reason: String },
    #[error("no recorded position has {} empties on this board", empties_range(*.0, *.1))]
    NoPositions(u32, u32),
}

/// Checks `config.player` on the recorded positions (each distinct position once, in the
/// order given, at most `config.positions` of them, those with at most
/// `config.max_empties` empties and a choice of moves). A recorded best margin is trusted
/// only after the position and move parse and the recorded move is legal there; the
/// player's move costs a solve only when it differs from every move recorded there.
pub fn recheck_accuracy(
    config: &AccuracyConfig,
    recorded: &[RecordedMove],
    source: &str,
    models: &dyn ModelSource,
    progress: &dyn Fn(usize, usize),
) -> Result<AccuracyReport, ReplayError> {
    config
        .player
        .check_game(config.size, config.variant, models)?;
    let positions = distinct_positions(config, recorded)?;
    let mut solver = Solver::new();
    let (mut player, budget) = config.player.build(config.seed, models)?;
    let mut report = AccuracyReport {
        player: config.player.to_string(),
        sparring: format!("the recorded positions of {source}"),
        min_empties: config.min_empties,
        max_empties: config.max_empties,
        games: 0,
        moves: Vec::new(),
    };
    for recorded in &positions {
        let pos = &recorded.pos;
        // Each position is a fresh game: nothing carries over from the one before.
        player.new_game();
        let mv = player.select_move(pos, &budget);
        let after = play_checked(pos, mv, &config.player)?;
        let played_margin = match recorded.margins.get(&mv) {
            Some(&margin) => margin,
            None => label_played(&mut solver, &after, recorded.best_margin, recorded.exact),
        };
        report.moves.push(CheckedMove {
            position: recorded.text.clone(),
            empties: pos.empty_count(),
            played: mv,
            played_margin,
            best_margin: recorded.best_margin,
            exact: recorded.exact,
        });
        progress(report.moves.len(), positions.len());
    }
    Ok(report)
}

/// The positions to check, each once with every move recorded there and its margin (as
/// exact margins or as results, by the check's depth), at most `config.positions` of
/// them; an error names the first record that cannot be trusted.
fn distinct_positions(
    config: &AccuracyConfig,
    recorded: &[RecordedMove],
) -> Result<Vec<RecordedPosition>, ReplayError> {
    let mut positions: Vec<RecordedPosition> = Vec::new();
    let mut index_of: HashMap<String, usize> = HashMap::new();
    for (index, record) in recorded.iter().enumerate() {
        let bad = |reason: String| ReplayError::BadRecord { index, reason };
        let (pos, played) = parse_record(config, record).map_err(bad)?;
        if !config.checks(&pos) {
            continue;
        }
        let exact = config.exact_at(pos.empty_count());
        if exact && !record.exact {
            return Err(bad(format!(
                "{} is labelled win/loss/draw only, so its margins are unknown: check it with --exact-up-to below {}",
                record.position,
                pos.empty_count()
            )));
        }
        // An exact label also says the result, which is all a win/loss/draw check needs.
        let (played_margin, best_margin) = if exact {
            (record.played_margin, record.best_margin)
        } else {
            (record.played_margin.signum(), record.best_margin.signum())
        };
        let slot = *index_of.entry(record.position.clone()).or_insert_with(|| {
            positions.push(RecordedPosition {
                text: record.position.clone(),
                pos,
                exact,
                best_margin,
                margins: HashMap::new(),
            });
            positions.len() - 1
        });
        let entry = &mut positions[slot];
        if entry.best_margin != best_margin {
            return Err(bad(format!(
                "best margin {} where an earlier record of {} says {}",
                record.best_margin, record.position, entry.best_margin
            )));
        }
        entry.margins.insert(played, played_margin);
    }
    positions.truncate(config.positions);
    if positions.is_empty() {
        return Err(ReplayError::NoPositions(
            config.min_empties,
            config.max_empties,
        ));
    }
    Ok(positions)
}

/// One record's position and move, once both parse on the check's board, the move is
/// legal there and its margins make sense; else why not.
fn parse_record(
    config: &AccuracyConfig,
    record: &RecordedMove,
) -> Result<(Position, Move), String> {
    let pos = Position::from_board_text(&record.position, config.variant)
        .map_err(|e| format!("{}: {e}", record.position))?;
    if pos.size() != config.size {
        return Err(format!(
            "{} is a {} position, not {}",
            record.position,
            pos.size(),
            config.size
        ));
    }
    let played = Move::parse(&record.played, config.size)
        .map_err(|e| format!("move {:?}: {e}", record.played))?;
    if pos.play(played).is_err() {
        return Err(format!(
            "{} is not legal in {}",
            record.played, record.position
        ));
    }
    if record.played_margin > record.best_margin {
        return Err(format!(
            "the played move's margin {} beats the best margin {}",
            record.played_margin, record.best_margin
        ));
    }
    let signs = [record.played_margin, record.best_margin];
    if !record.exact && signs.iter().any(|m| !(-1..=1).contains(m)) {
        return Err(format!(
            "a win/loss/draw label is 1, 0 or -1, not {} and {}",
            record.played_margin, record.best_margin
        ));
    }
    Ok((pos, played))
}
