//! How often a player's moves are perfect. Positions come from real games (the player
//! against a sparring partner, from distinct random openings, colours alternating); every
//! move the player makes near the end is checked with the exact solver.
//!
//! [`recheck_accuracy`] checks a player on the positions of earlier reports instead: every
//! player then faces the same positions (a paired comparison), and the solves already done
//! are reused, so only a move that differs from the recorded one costs a solve.
//!
//! Above `exact_up_to` empties a move is labelled win, loss or draw only: a null-window
//! proof, far cheaper than the margin where exact solves cost minutes (26 to 30 empties,
//! the late midgame), as Egaroucid's and Edax's endgame searches prove the result before
//! they search for the margin.
//!
//! How often a player's endgame moves on 4x4 keep the best margin:
//!
//! ```
//! use engine::othello::{BoardSize, Variant};
//! use engine::NoModels;
//! use tools::accuracy::{measure_accuracy, AccuracyConfig};
//!
//! let config = AccuracyConfig {
//!     size: BoardSize::Four,
//!     variant: Variant::Standard,
//!     player: "alphabeta:depth=2".parse()?,
//!     sparring: "random".parse()?,
//!     positions: 6,
//!     min_empties: 0,
//!     max_empties: 10,
//!     // Every move checked against exact margins.
//!     exact_up_to: 16,
//!     seed: 5,
//! };
//! let report = measure_accuracy(&config, &NoModels, &|_checked, _of| {})?;
//! assert_eq!(report.moves.len(), 6);
//! assert!(report.moves.iter().all(|m| m.exact && m.played_margin <= m.best_margin));
//! // Alpha-beta plays the solver's move from 16 empties on 4x4 and 6x6: every move is optimal.
//! assert_eq!(report.optimal(), 6);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

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
    /// Only moves from positions with `min_empties..=max_empties` empty squares are
    /// checked: the endgame from 0, or a stretch such as the late midgame (24-30).
    pub min_empties: u32,
    pub max_empties: u32,
    /// Positions with more empties than this are labelled win, loss or draw only.
    pub exact_up_to: u32,
    pub seed: u64,
}

impl AccuracyConfig {
    /// Whether a position's move is one to check.
    fn checks(&self, pos: &Position) -> bool {
        (self.min_empties..=self.max_empties).contains(&pos.empty_count())
            && pos.legal_move_list().len() > 1
    }

    fn exact_at(&self, empties: u32) -> bool {
        empties <= self.exact_up_to
    }
}

/// Labels `mv` played in `pos`: the played move's and the best move's margin, exact or
/// (with `exact` false) only their signs. The move the proof names as best needs no
/// second proof.
fn label(
    solver: &mut Solver,
    pos: &Position,
    mv: Move,
    after: &Position,
    exact: bool,
) -> (i32, i32) {
    let (best_label, best_move) = if exact {
        let solution = solver.solve(pos);
        (solution.margin, solution.best)
    } else {
        let (result, best, _) = solver.win_loss_draw(pos);
        (result.sign(), best)
    };
    let played_label = if best_move == Some(mv) {
        best_label
    } else {
        label_played(solver, after, best_label, exact)
    };
    (played_label, best_label)
}

/// The label of the move that led to `after`, in a position labelled `best_label`: its
/// exact margin, or its sign (a lost position needs no proof: every move there loses).
fn label_played(solver: &mut Solver, after: &Position, best_label: i32, exact: bool) -> i32 {
    match (exact, best_label) {
        (true, _) => -solver.solve(after).margin,
        (false, label) if label < 0 => -1,
        (false, _) => -solver.win_loss_draw(after).0.sign(),
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
    /// False where the position is labelled win, loss or draw only: both margins are then
    /// just their signs (1, 0 or -1).
    pub exact: bool,
}

impl CheckedMove {
    /// The move reaches the best margin: known only for exactly labelled moves.
    pub fn optimal(&self) -> bool {
        self.exact && self.played_margin == self.best_margin
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

    /// Moves labelled with exact margins: those whose optimality and disc loss are known.
    pub fn exact(&self) -> usize {
        self.moves.iter().filter(|m| m.exact).count()
    }

    /// Moves from positions that are not lost (a win or a draw is there to keep), and how
    /// many of them keep it: the moves where a mistake can change the result.
    pub fn not_lost(&self) -> (usize, usize) {
        let open: Vec<&CheckedMove> = self.moves.iter().filter(|m| m.best_margin >= 0).collect();
        (open.iter().filter(|m| m.keeps_result()).count(), open.len())
    }

    /// Mean discs lost to the best move, per exactly labelled move.
    pub fn mean_loss(&self) -> f64 {
        let lost: i64 = self
            .moves
            .iter()
            .filter(|m| m.exact)
            .map(|m| (m.best_margin - m.played_margin) as i64)
            .sum();
        lost as f64 / self.exact().max(1) as f64
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
                b.exact += usize::from(m.exact);
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
        let exact = self.exact();
        let labelled = if exact < self.moves.len() {
            "exactly labelled "
        } else {
            ""
        };
        let (kept, open) = self.not_lost();
        let (low, high) = wilson_interval(self.optimal(), exact);
        // A recheck plays no games: its positions come from earlier reports.
        let origin = match self.games {
            0 => self.sparring.clone(),
            games => format!("{games} games against {}", self.sparring),
        };
        // Optimal moves and lost discs are known only where the margins are exact.
        let exact_part = match exact {
            0 => String::new(),
            _ => format!(
                "{} of {exact} {labelled}moves optimal ({:.1}%, 95% interval {:.1}-{:.1}%), ",
                self.optimal(),
                100.0 * self.optimal() as f64 / exact as f64,
                100.0 * low,
                100.0 * high,
            ),
        };
        let (keep_low, keep_high) = wilson_interval(self.keeps_result(), self.moves.len());
        let loss_part = match exact {
            0 => String::new(),
            _ => format!(", {:.2} discs lost per {labelled}move", self.mean_loss()),
        };
        format!(
            "{}: {}{} of {} moves keep the result ({:.1}%, 95% interval {:.1}-{:.1}%; {} of {} from won or drawn positions){}; positions with {} empties from {}",
            self.player,
            exact_part,
            self.keeps_result(),
            self.moves.len(),
            100.0 * self.keeps_result() as f64 / n,
            100.0 * keep_low,
            100.0 * keep_high,
            kept,
            open,
            loss_part,
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
    /// Moves with exact margins: the share optimal is of these.
    pub exact: usize,
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
                let exact = config.exact_at(pos.empty_count());
                let (played_margin, best_margin) = label(&mut solver, &pos, mv, &after, exact);
                report.moves.push(CheckedMove {
                    position: pos.to_board_text(),
                    empties: pos.empty_count(),
                    played: mv,
                    played_margin,
                    best_margin,
                    exact,
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

mod replay;
pub use replay::{recheck_accuracy, RecordedMove, RecordedReport, ReplayError};

#[cfg(test)]
mod tests;
