//! Glicko-2 ratings as Lichess rates puzzles (lila's `PuzzleFinisher` and its
//! `modules/rating`): a player's first try at a puzzle is one game between the player and
//! the puzzle, which the player wins by solving it, rated with tau 0.75 and then held
//! within Lichess's bounds. The maths is `skillratings`', which the tests check against
//! Glickman's worked example.

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// Lichess's tau for puzzles: how far one surprising result may move the volatility.
const TAU: f64 = 0.75;
/// Lichess's bounds (lila's `Glicko.cap`): below 45 a rating would stop moving, above 500
/// it would mean nothing yet; past 0.1 the volatility might never settle again.
const MIN_DEVIATION: f64 = 45.0;
const MAX_DEVIATION: f64 = 500.0;
/// A new player's deviation (Glickman's, and the `skillratings` default).
const NEW_PLAYER_DEVIATION: f64 = 350.0;
const MAX_VOLATILITY: f64 = 0.1;
const MIN_RATING: f64 = 400.0;
/// Lichess's first volatility for players and puzzles alike.
const VOLATILITY: f64 = 0.09;
/// A shipped rating comes from weak players of ours, not from people: it is a guess, held
/// more loosely than a settled rating but less than a newcomer's.
pub(crate) const PUZZLE_DEVIATION: f64 = 250.0;

/// A rating on the Glicko scale (1500 is average) with how unsure it is.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Glicko {
    /// A player who has not tried a puzzle yet: Glickman's unrated player (deviation 350)
    /// rather than lila's 500, under which one first puzzle solved moved a new player by
    /// over 500 points (1500 to 2043 in the browser tests), which reads as a broken rating.
    pub fn player() -> Glicko {
        Glicko {
            rating: 1500.0,
            deviation: NEW_PLAYER_DEVIATION,
            volatility: VOLATILITY,
        }
    }

    /// A puzzle nobody here has tried yet, at its shipped first rating (docs/puzzles.md).
    pub fn puzzle(shipped: u16) -> Glicko {
        Glicko {
            rating: f64::from(shipped),
            deviation: PUZZLE_DEVIATION,
            volatility: VOLATILITY,
        }
    }

    /// Whether a stored rating can be one this page made; anything else is damage.
    pub fn is_sane(&self) -> bool {
        self.is_finite()
            && (0.0..=4000.0).contains(&self.rating)
            && (0.0..=1000.0).contains(&self.deviation)
            && (0.0..=1.0).contains(&self.volatility)
    }

    fn is_finite(&self) -> bool {
        self.rating.is_finite() && self.deviation.is_finite() && self.volatility.is_finite()
    }

    /// Lichess's `cap`.
    fn capped(self) -> Glicko {
        Glicko {
            rating: self.rating.max(MIN_RATING),
            deviation: self.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: self.volatility.min(MAX_VOLATILITY),
        }
    }
}

impl From<Glicko> for Glicko2Rating {
    fn from(g: Glicko) -> Glicko2Rating {
        Glicko2Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

impl From<Glicko2Rating> for Glicko {
    fn from(g: Glicko2Rating) -> Glicko {
        Glicko {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

/// The player's and the puzzle's ratings after the player's first try at it: one game,
/// which the player wins when `solved`. A result that is not a number (from inputs no
/// rating should have) leaves both as they were rather than spoiling the record.
pub fn first_try(player: Glicko, puzzle: Glicko, solved: bool) -> (Glicko, Glicko) {
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::default()
    };
    let outcome = if solved {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    };
    let (new_player, new_puzzle) = glicko2(&player.into(), &puzzle.into(), &outcome, &config);
    let (new_player, new_puzzle) = (Glicko::from(new_player), Glicko::from(new_puzzle));
    if !(new_player.is_finite() && new_puzzle.is_finite()) {
        return (player, puzzle);
    }
    (new_player.capped(), new_puzzle.capped())
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    fn at(rating: f64, deviation: f64) -> Glicko {
        Glicko {
            rating,
            deviation,
            volatility: VOLATILITY,
        }
    }

    #[test]
    fn solving_moves_the_player_up_and_the_puzzle_down_and_failing_the_opposite() {
        let (player, puzzle) = (Glicko::player(), Glicko::puzzle(1500));
        let (p, q) = first_try(player, puzzle, true);
        assert!(p.rating > player.rating && q.rating < puzzle.rating);
        let (p, q) = first_try(player, puzzle, false);
        assert!(p.rating < player.rating && q.rating > puzzle.rating);
    }

    #[test]
    fn solving_a_harder_puzzle_gains_more() {
        let player = at(1500.0, 100.0);
        let hard = first_try(player, Glicko::puzzle(1900), true).0;
        let easy = first_try(player, Glicko::puzzle(1100), true).0;
        assert!(hard.rating - player.rating > easy.rating - player.rating);
        assert!(easy.rating > player.rating);
    }

    #[test]
    fn an_unsure_rating_moves_more_than_a_settled_one() {
        let puzzle = Glicko::puzzle(1500);
        let unsure = at(1500.0, 350.0);
        let settled = at(1500.0, 60.0);
        let gain = |g: Glicko| first_try(g, puzzle, true).0.rating - g.rating;
        assert!(gain(unsure) > gain(settled) && gain(settled) > 0.0);
    }

    #[test]
    fn deviations_stay_within_lichess_bounds() {
        let mut player = Glicko::player();
        for n in 0..200 {
            player = first_try(player, Glicko::puzzle(1500), n % 2 == 0).0;
            assert!((MIN_DEVIATION..=MAX_DEVIATION).contains(&player.deviation));
            assert!(player.is_sane());
        }
        let puzzle = Glicko::puzzle(1500);
        let sure = first_try(at(1500.0, 10.0), puzzle, true).0;
        assert!((sure.deviation - MIN_DEVIATION).abs() < 1e-9, "{sure:?}");
        // One game narrows any deviation below the top bound; the cap holds it there for
        // a stored rating that came in above it.
        let lost = first_try(at(1500.0, 900.0), puzzle, true).0;
        assert!(lost.deviation <= MAX_DEVIATION, "{lost:?}");
        assert!((at(1500.0, 900.0).capped().deviation - MAX_DEVIATION).abs() < 1e-9);
    }

    #[test]
    fn a_result_that_is_no_number_leaves_both_ratings_as_they_were() {
        let broken = at(f64::NAN, 100.0);
        let puzzle = Glicko::puzzle(1500);
        let (p, q) = first_try(broken, puzzle, true);
        assert!(p.rating.is_nan());
        assert_eq!(q, puzzle);
    }

    #[test]
    fn sanity_bounds() {
        assert!(Glicko::player().is_sane() && Glicko::puzzle(2400).is_sane());
        assert!(!at(1e9, 100.0).is_sane());
        assert!(!at(1500.0, -5.0).is_sane());
        assert!(!at(f64::INFINITY, 100.0).is_sane());
        let wild = Glicko {
            volatility: 2.0,
            ..Glicko::player()
        };
        assert!(!wild.is_sane());
    }

    /// Glickman, "Example of the Glicko-2 system" (2013): the library is the one in the
    /// paper.
    #[test]
    fn glickmans_worked_example() {
        let rating = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let player = rating(1500.0, 200.0);
        let results = [
            (rating(1400.0, 30.0), Outcomes::WIN),
            (rating(1550.0, 100.0), Outcomes::LOSS),
            (rating(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::default()
        };
        let after = glicko2_rating_period(&player, &results, &config);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 1e-4, "{after:?}");
    }
}
