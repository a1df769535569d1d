//! How often a player's moves are perfect. Positions come from real games (the player
//! against a sparring partner, from distinct random openings, colours alternating); every
//! move the player makes near the end is checked with the exact solver.
//!
//! [`recheck_accuracy`] checks a player on the positions of earlier reports instead: every
//! player then faces the same positions (a paired comparison), and the solves already done
//! are reused, so only a move that differs from the recorded one costs a solve.

use crate::arena::{generate_openings, ArenaError, PlayerSpec};
use engine::rng::splitmix64;
use engine::{ModelSource, Solver};
use othello::{Color, Game, Move, Position, Variant};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use thiserror::Error;

#[derive(Clone, Debug)]
pub struct AccuracyConfig {
    pub size: othello::BoardSize,
    pub variant: Variant,
    /// The player whose moves are checked, at the budget its spec gives.
    pub player: PlayerSpec,
    /// The opponent in the games that produce the positions.
    pub sparring: PlayerSpec,
    /// Moves to check.
    pub positions: usize,
    /// Only moves from positions with `min_empties..=max_empties` empty squares are
    /// checked: the endgame from 0, or a stretch such as the late midgame (24-30).
    pub min_empties: u32,
    pub max_empties: u32,
    pub seed: u64,
}

impl AccuracyConfig {
    /// Whether a position's move is one to check.
    fn checks(&self, pos: &Position) -> bool {
        (self.min_empties..=self.max_empties).contains(&pos.empty_count())
            && pos.legal_move_list().len() > 1
    }
}

/// One checked move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckedMove {
    /// The position, as board text.
    pub position: String,
    pub empties: u32,
    #[serde(serialize_with = "as_notation")]
    pub played: Move,
    /// The exact final margin after the played move, for the player.
    pub played_margin: i32,
    /// The best margin any move reaches.
    pub best_margin: i32,
}

impl CheckedMove {
    pub fn optimal(&self) -> bool {
        self.played_margin == self.best_margin
    }

    /// The move keeps the best result (win, draw or loss) even if not the best margin.
    pub fn keeps_result(&self) -> bool {
        self.played_margin.signum() == self.best_margin.signum()
    }
}

fn as_notation<S: serde::Serializer>(mv: &Move, out: S) -> Result<S::Ok, S::Error> {
    out.collect_str(mv)
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AccuracyReport {
    pub player: String,
    pub sparring: String,
    pub min_empties: u32,
    pub max_empties: u32,
    pub games: usize,
    pub moves: Vec<CheckedMove>,
}

impl AccuracyReport {
    pub fn optimal(&self) -> usize {
        self.moves.iter().filter(|m| m.optimal()).count()
    }

    pub fn keeps_result(&self) -> usize {
        self.moves.iter().filter(|m| m.keeps_result()).count()
    }

    /// Moves from positions that are not lost (a win or a draw is there to keep), and how
    /// many of them keep it: the moves where a mistake can change the result.
    pub fn not_lost(&self) -> (usize, usize) {
        let open: Vec<&CheckedMove> = self.moves.iter().filter(|m| m.best_margin >= 0).collect();
        (open.iter().filter(|m| m.keeps_result()).count(), open.len())
    }

    /// Mean discs lost to the best move, per checked move.
    pub fn mean_loss(&self) -> f64 {
        let lost: i64 = self
            .moves
            .iter()
            .map(|m| (m.best_margin - m.played_margin) as i64)
            .sum();
        lost as f64 / self.moves.len().max(1) as f64
    }

    /// The moves grouped by empty squares, `width` counts to a group, fewest empties
    /// first: where in the endgame the mistakes are.
    pub fn by_empties(&self, width: u32) -> Vec<EmptiesBucket> {
        let width = width.max(1);
        let mut buckets: Vec<EmptiesBucket> = Vec::new();
        let mut moves: Vec<&CheckedMove> = self.moves.iter().collect();
        moves.sort_by_key(|m| m.empties);
        for m in moves {
            let low = m.empties / width * width;
            if buckets.last().is_none_or(|b| b.low != low) {
                buckets.push(EmptiesBucket {
                    low,
                    high: low + width - 1,
                    ..EmptiesBucket::default()
                });
            }
            if let Some(b) = buckets.last_mut() {
                b.moves += 1;
                b.optimal += usize::from(m.optimal());
                b.keeps_result += usize::from(m.keeps_result());
            }
        }
        // A group says only empties that were checked: 24-25, not 24-27, for that stretch.
        for b in &mut buckets {
            b.low = b.low.max(self.min_empties);
            b.high = b.high.min(self.max_empties);
        }
        buckets
    }

    pub fn summary(&self) -> String {
        let n = self.moves.len().max(1) as f64;
        let (kept, open) = self.not_lost();
        let (low, high) = wilson_interval(self.optimal(), self.moves.len());
        // A recheck plays no games: its positions come from earlier reports.
        let origin = match self.games {
            0 => self.sparring.clone(),
            games => format!("{games} games against {}", self.sparring),
        };
        format!(
            "{}: {} of {} moves optimal ({:.1}%, 95% interval {:.1}-{:.1}%), {} keep the result ({:.1}%; {} of {} from won or drawn positions), {:.2} discs lost per move; positions with {} empties from {}",
            self.player,
            self.optimal(),
            self.moves.len(),
            100.0 * self.optimal() as f64 / n,
            100.0 * low,
            100.0 * high,
            self.keeps_result(),
            100.0 * self.keeps_result() as f64 / n,
            kept,
            open,
            self.mean_loss(),
            empties_range(self.min_empties, self.max_empties),
            origin,
        )
    }
}

/// "<= 26", or "24-30" for a stretch that does not reach the end.
fn empties_range(min: u32, max: u32) -> String {
    if min == 0 {
        format!("<= {max}")
    } else {
        format!("{min}-{max}")
    }
}

/// The 95% Wilson score interval of a share of `hits` in `n` (Wilson 1927): unlike the
/// normal approximation it stays inside [0, 1] and is honest near 100%, where these shares
/// live.
pub fn wilson_interval(hits: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (z, n_f) = (1.96_f64, n as f64);
    let p = hits as f64 / n_f;
    let denominator = 1.0 + z * z / n_f;
    let centre = (p + z * z / (2.0 * n_f)) / denominator;
    let half = z * (p * (1.0 - p) / n_f + z * z / (4.0 * n_f * n_f)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Checked moves from positions with `low..=high` empty squares.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EmptiesBucket {
    pub low: u32,
    pub high: u32,
    pub moves: usize,
    pub optimal: usize,
    pub keeps_result: usize,
}

/// Plays games until `config.positions` of the player's moves are checked. `progress`
/// hears (moves checked, wanted) after each game.
pub fn measure_accuracy(
    config: &AccuracyConfig,
    models: &dyn ModelSource,
    progress: &dyn Fn(usize, usize),
) -> Result<AccuracyReport, ArenaError> {
    config
        .player
        .check_game(config.size, config.variant, models)?;
    config
        .sparring
        .check_game(config.size, config.variant, models)?;
    let mut solver = Solver::new();
    let mut report = AccuracyReport {
        player: config.player.to_string(),
        sparring: config.sparring.to_string(),
        min_empties: config.min_empties,
        max_empties: config.max_empties,
        games: 0,
        moves: Vec::new(),
    };
    // More openings than games will need; each is played once, colours alternating.
    let openings = generate_openings(config.size, config.variant, 400, config.seed)
        .or_else(|e| generate_openings(config.size, config.variant, e.found, config.seed))?;
    for (index, opening) in openings.iter().enumerate() {
        if report.moves.len() >= config.positions {
            break;
        }
        let seed = splitmix64(config.seed ^ index as u64);
        let (mut player, player_budget) = config.player.build(seed, models)?;
        let (mut sparring, sparring_budget) = config.sparring.build(seed ^ 1, models)?;
        player.new_game();
        sparring.new_game();
        let player_color = if index % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut game = Game::new(opening.position);
        while !game.position().is_game_over() && report.moves.len() < config.positions {
            let pos: Position = *game.position();
            let ours = pos.side_to_move() == player_color;
            let mv = if ours {
                player.select_move(&pos, &player_budget)
            } else {
                sparring.select_move(&pos, &sparring_budget)
            };
            let mover = if ours {
                &config.player
            } else {
                &config.sparring
            };
            let after = play_checked(&pos, mv, mover)?;
            if ours && config.checks(&pos) {
                report.moves.push(CheckedMove {
                    position: pos.to_board_text(),
                    empties: pos.empty_count(),
                    played: mv,
                    played_margin: -solver.solve(&after).margin,
                    best_margin: solver.solve(&pos).margin,
                });
            }
            // `play` above already proved the move legal.
            let _ = game.push(mv);
        }
        report.games += 1;
        progress(report.moves.len(), config.positions);
    }
    Ok(report)
}

/// `mv` played in `pos`, or the error that names the player who tried an illegal move.
fn play_checked(pos: &Position, mv: Move, player: &PlayerSpec) -> Result<Position, ArenaError> {
    pos.play(mv).map_err(|_| ArenaError::IllegalMove {
        player: player.to_string(),
        mv,
        position: pos.to_board_text(),
    })
}

/// A checked move as an earlier report's JSON holds it (`--json`), read back as text: the
/// position and the move are checked against the rules before they are used.
#[derive(Clone, Debug, Deserialize)]
pub struct RecordedMove {
    pub position: String,
    pub played: String,
    pub played_margin: i32,
    pub best_margin: i32,
}

/// An earlier report, as much of it as a recheck needs.
#[derive(Clone, Debug, Deserialize)]
pub struct RecordedReport {
    pub moves: Vec<RecordedMove>,
}

/// A distinct recorded position: its best margin and the margins of the moves recorded there.
struct RecordedPosition {
    text: String,
    pos: Position,
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
    let mut positions: Vec<RecordedPosition> = Vec::new();
    let mut index_of: HashMap<String, usize> = HashMap::new();
    for (index, record) in recorded.iter().enumerate() {
        let bad = |reason: String| ReplayError::BadRecord { index, reason };
        let pos = Position::from_board_text(&record.position, config.variant)
            .map_err(|e| bad(format!("{}: {e}", record.position)))?;
        if pos.size() != config.size {
            return Err(bad(format!(
                "{} is a {} position, not {}",
                record.position,
                pos.size(),
                config.size
            )));
        }
        let played = Move::parse(&record.played, config.size)
            .map_err(|e| bad(format!("move {:?}: {e}", record.played)))?;
        if pos.play(played).is_err() {
            return Err(bad(format!(
                "{} is not legal in {}",
                record.played, record.position
            )));
        }
        if record.played_margin > record.best_margin {
            return Err(bad(format!(
                "the played move's margin {} beats the best margin {}",
                record.played_margin, record.best_margin
            )));
        }
        if !config.checks(&pos) {
            continue;
        }
        let slot = *index_of.entry(record.position.clone()).or_insert_with(|| {
            positions.push(RecordedPosition {
                text: record.position.clone(),
                pos,
                best_margin: record.best_margin,
                margins: HashMap::new(),
            });
            positions.len() - 1
        });
        let entry = &mut positions[slot];
        if entry.best_margin != record.best_margin {
            return Err(bad(format!(
                "best margin {} where an earlier record of {} says {}",
                record.best_margin, record.position, entry.best_margin
            )));
        }
        entry.margins.insert(played, record.played_margin);
    }
    positions.truncate(config.positions);
    if positions.is_empty() {
        return Err(ReplayError::NoPositions(
            config.min_empties,
            config.max_empties,
        ));
    }
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
            None => -solver.solve(&after).margin,
        };
        report.moves.push(CheckedMove {
            position: recorded.text.clone(),
            empties: pos.empty_count(),
            played: mv,
            played_margin,
            best_margin: recorded.best_margin,
        });
        progress(report.moves.len(), positions.len());
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::NoModels;
    use othello::BoardSize;

    fn config(player: &str, positions: usize) -> AccuracyConfig {
        AccuracyConfig {
            size: BoardSize::Four,
            variant: Variant::Standard,
            player: player.parse().expect("spec"),
            sparring: "greedy".parse().expect("spec"),
            positions,
            min_empties: 0,
            max_empties: 9,
            seed: 3,
        }
    }

    #[test]
    fn a_player_that_solves_the_endgame_plays_only_optimal_moves() {
        // On 4x4 alpha-beta solves every position with 16 or fewer empties exactly.
        let report =
            measure_accuracy(&config("alphabeta", 40), &NoModels, &|_, _| {}).expect("runs");
        assert_eq!(report.moves.len(), 40);
        assert_eq!(report.optimal(), 40, "{}", report.summary());
        assert_eq!(report.mean_loss(), 0.0);
    }

    #[test]
    fn a_random_player_is_caught_playing_bad_moves_and_each_check_is_exact() {
        let report = measure_accuracy(&config("random", 60), &NoModels, &|_, _| {}).expect("runs");
        assert_eq!(report.moves.len(), 60);
        assert!(report.optimal() < 60, "{}", report.summary());
        assert!(report.mean_loss() > 0.0);
        let (kept, open) = report.not_lost();
        assert!(kept <= open && open <= 60);
        let buckets = report.by_empties(4);
        assert_eq!(buckets.iter().map(|b| b.moves).sum::<usize>(), 60);
        assert_eq!(
            buckets.iter().map(|b| b.optimal).sum::<usize>(),
            report.optimal()
        );
        assert!(buckets.windows(2).all(|w| w[0].high < w[1].low));
        for checked in &report.moves {
            assert!(checked.empties <= 9);
            assert!(checked.played_margin <= checked.best_margin);
        }
        assert_margins_are_exact(&report);
    }

    #[test]
    fn a_stretch_of_empties_checks_only_moves_from_it_in_games_and_rechecks() {
        let stretch = AccuracyConfig {
            min_empties: 6,
            ..config("random", 30)
        };
        let report = measure_accuracy(&stretch, &NoModels, &|_, _| {}).expect("runs");
        assert_eq!(report.moves.len(), 30);
        assert!(report.moves.iter().all(|m| (6..=9).contains(&m.empties)));
        assert!(
            report.summary().contains("positions with 6-9 empties"),
            "{}",
            report.summary()
        );
        let groups: Vec<(u32, u32)> = report
            .by_empties(4)
            .iter()
            .map(|b| (b.low, b.high))
            .collect();
        assert_eq!(groups, [(6, 7), (8, 9)]);
        assert_margins_are_exact(&report);
        // A recheck of the whole endgame's records keeps only the stretch's positions.
        let everything =
            measure_accuracy(&config("random", 60), &NoModels, &|_, _| {}).expect("runs");
        assert!(everything.moves.iter().any(|m| m.empties < 6));
        let rechecked = recheck_accuracy(
            &AccuracyConfig {
                min_empties: 6,
                ..config("greedy", 1000)
            },
            &recorded(&everything),
            "t",
            &NoModels,
            &|_, _| {},
        )
        .expect("rechecks");
        assert!(!rechecked.moves.is_empty());
        assert!(rechecked.moves.iter().all(|m| (6..=9).contains(&m.empties)));
        let none = recheck_accuracy(
            &AccuracyConfig {
                min_empties: 10,
                max_empties: 12,
                ..config("greedy", 10)
            },
            &recorded(&everything),
            "t",
            &NoModels,
            &|_, _| {},
        )
        .expect_err("no position has 10-12 empties");
        assert_eq!(
            none.to_string(),
            "no recorded position has 10-12 empties on this board"
        );
    }

    /// Every checked move's margins agree with a fresh solve of every move.
    fn assert_margins_are_exact(report: &AccuracyReport) {
        for checked in &report.moves {
            let pos = Position::from_board_text(&checked.position, Variant::Standard)
                .expect("board text");
            assert_eq!(pos.empty_count(), checked.empties);
            let scores = Solver::new().score_moves(&pos);
            let played = scores.iter().find(|(mv, _)| *mv == checked.played);
            assert_eq!(played.map(|p| p.1), Some(checked.played_margin));
            assert_eq!(scores[0].1, checked.best_margin);
        }
    }

    fn recorded(report: &AccuracyReport) -> Vec<RecordedMove> {
        let json = serde_json::to_string(report).expect("serialises");
        serde_json::from_str::<RecordedReport>(&json)
            .expect("a report reads back")
            .moves
    }

    #[test]
    fn a_recheck_scores_each_recorded_position_with_exact_margins() {
        let games = measure_accuracy(&config("random", 60), &NoModels, &|_, _| {}).expect("runs");
        let records = recorded(&games);
        let distinct: std::collections::HashSet<&str> =
            games.moves.iter().map(|m| m.position.as_str()).collect();
        // A perfect player on the same positions: every move optimal, none skipped.
        let perfect = recheck_accuracy(
            &config("alphabeta", 1000),
            &records,
            "t",
            &NoModels,
            &|_, _| {},
        )
        .expect("rechecks");
        assert_eq!(perfect.moves.len(), distinct.len());
        assert_eq!(
            perfect.optimal(),
            perfect.moves.len(),
            "{}",
            perfect.summary()
        );
        // Another random player: its margins, reused or solved, match a fresh solve.
        let other = recheck_accuracy(
            &config("random:seed=9", 1000),
            &records,
            "t",
            &NoModels,
            &|_, _| {},
        )
        .expect("rechecks");
        assert!(other.optimal() < other.moves.len());
        assert_margins_are_exact(&other);
        let capped = recheck_accuracy(&config("greedy", 5), &records, "t", &NoModels, &|_, _| {})
            .expect("rechecks");
        assert_eq!(capped.moves.len(), 5);
        assert_eq!(capped.moves[0].position, games.moves[0].position);
    }

    #[test]
    fn a_recheck_refuses_records_that_do_not_hold() {
        let games = measure_accuracy(&config("random", 6), &NoModels, &|_, _| {}).expect("runs");
        let good = recorded(&games);
        let run = |records: &[RecordedMove]| {
            recheck_accuracy(&config("greedy", 100), records, "t", &NoModels, &|_, _| {})
                .map(|r| r.moves.len())
                .map_err(|e| e.to_string())
        };
        assert!(run(&good).is_ok());
        let mut bad = good.clone();
        bad[2].position = "not a board".into();
        assert!(run(&bad).unwrap_err().starts_with("recorded move 2:"));
        let mut bad = good.clone();
        bad[1].played = "z9".into();
        assert!(run(&bad).unwrap_err().contains("z9"));
        let mut bad = good.clone();
        bad[0].played_margin = bad[0].best_margin + 2;
        assert!(run(&bad).unwrap_err().contains("beats the best margin"));
        let mut bad = good.clone();
        let mut twin = bad[0].clone();
        twin.best_margin += 2;
        twin.played_margin = twin.best_margin;
        bad.push(twin);
        assert!(run(&bad).unwrap_err().contains("earlier record"));
        let six = "--------------OXX---XOXO----O-----XO X";
        let mut bad = good.clone();
        bad[0].position = six.into();
        assert!(run(&bad).unwrap_err().contains("not 4x4"));
        assert!(run(&[]).unwrap_err().contains("no recorded position"));
    }

    #[test]
    fn wilson_intervals_match_the_closed_form_and_stay_in_bounds() {
        let (low, high) = wilson_interval(181, 200);
        assert!(
            (low - 0.8564).abs() < 5e-4 && (high - 0.9383).abs() < 5e-4,
            "{low} {high}"
        );
        assert_eq!(wilson_interval(0, 0), (0.0, 1.0));
        let (low, high) = wilson_interval(10, 10);
        assert!(low > 0.69 && high == 1.0);
    }
}
