//! How often a player's moves are perfect. Positions come from real games (the player
//! against a sparring partner, from distinct random openings, colours alternating); every
//! move the player makes near the end is checked with the exact solver.

use crate::arena::{generate_openings, ArenaError, PlayerSpec};
use engine::rng::splitmix64;
use engine::{ModelSource, Solver};
use othello::{Color, Game, Move, Position, Variant};
use serde::Serialize;

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
    /// Only moves from positions with at most this many empty squares are checked.
    pub max_empties: u32,
    pub seed: u64,
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
        buckets
    }

    pub fn summary(&self) -> String {
        let n = self.moves.len().max(1) as f64;
        let (kept, open) = self.not_lost();
        format!(
            "{}: {} of {} moves optimal ({:.1}%), {} keep the result ({:.1}%; {} of {} from won or drawn positions), {:.2} discs lost per move; positions with <= {} empties from {} games against {}",
            self.player,
            self.optimal(),
            self.moves.len(),
            100.0 * self.optimal() as f64 / n,
            self.keeps_result(),
            100.0 * self.keeps_result() as f64 / n,
            kept,
            open,
            self.mean_loss(),
            self.max_empties,
            self.games,
            self.sparring,
        )
    }
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
            let after = pos.play(mv).map_err(|_| ArenaError::IllegalMove {
                player: if ours {
                    config.player.to_string()
                } else {
                    config.sparring.to_string()
                },
                mv,
                position: pos.to_board_text(),
            })?;
            if ours && pos.empty_count() <= config.max_empties && pos.legal_move_list().len() > 1 {
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
            let pos = Position::from_board_text(&checked.position, Variant::Standard)
                .expect("board text");
            assert!(pos.empty_count() <= 9);
            assert!(checked.played_margin <= checked.best_margin);
            let scores = Solver::new().score_moves(&pos);
            let played = scores.iter().find(|(mv, _)| *mv == checked.played);
            assert_eq!(played.map(|p| p.1), Some(checked.played_margin));
            assert_eq!(scores[0].1, checked.best_margin);
        }
    }
}
