//! The arena's Elo fit for games played elsewhere: the games of several arena shards, or
//! of several matches, rated as one tournament (`othello elo`, which the trainer calls:
//! train/othello_cli.py). One fit for the whole project, this crate's ([`fit_elo`]).

use super::elo::{fit_elo, EloError, HeadToHead};
use super::PRIOR_DRAWS;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Games to rate, in arena.json's shape (an arena.json itself is one).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct RatingRequest {
    pub players: Vec<String>,
    /// The player fixed at 0.
    pub anchor: String,
    /// Virtual draws of every player against the anchor (default: the arena's).
    #[serde(default = "default_prior_draws")]
    pub prior_draws: f64,
    pub games: Vec<RatedGame>,
}

fn default_prior_draws() -> f64 {
    PRIOR_DRAWS
}

/// One game: the players by their index in `players`, and Black's final margin (only its
/// sign counts: a win, a draw or a loss).
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
pub struct RatedGame {
    pub black: usize,
    pub white: usize,
    pub black_margin: i32,
}

/// The ratings, in arena.json's shape.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingAnswer {
    pub anchor: String,
    pub ratings: Vec<NamedRating>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NamedRating {
    pub player: String,
    pub elo: f64,
    pub stderr: f64,
    pub low: f64,
    pub high: f64,
}

#[derive(Clone, Debug, PartialEq, Error)]
pub enum RefitError {
    #[error("the anchor '{0}' is not one of the players")]
    UnknownAnchor(String),
    #[error("game {game} names player {player}, but there are {players} players")]
    UnknownPlayer {
        game: usize,
        player: usize,
        players: usize,
    },
    #[error("game {0} has the same player on both sides")]
    SelfPlay(usize),
    #[error("prior_draws must be a finite number of 0 or more, not {0}")]
    Prior(f64),
    #[error(transparent)]
    Fit(#[from] EloError),
}

/// The arena's fit of `request`'s games: maximum-likelihood Elo with the anchor at 0 and
/// `prior_draws` virtual draws of everyone against it.
pub fn rate(request: &RatingRequest) -> Result<RatingAnswer, RefitError> {
    let n = request.players.len();
    let anchor = request
        .players
        .iter()
        .position(|p| *p == request.anchor)
        .ok_or_else(|| RefitError::UnknownAnchor(request.anchor.clone()))?;
    if !(request.prior_draws.is_finite() && request.prior_draws >= 0.0) {
        return Err(RefitError::Prior(request.prior_draws));
    }
    let mut results = HeadToHead::new(n);
    for (index, game) in request.games.iter().enumerate() {
        for player in [game.black, game.white] {
            if player >= n {
                return Err(RefitError::UnknownPlayer {
                    game: index + 1,
                    player,
                    players: n,
                });
            }
        }
        if game.black == game.white {
            return Err(RefitError::SelfPlay(index + 1));
        }
        let black_points = match game.black_margin.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        results.add(game.black, game.white, black_points);
    }
    let fitted = fit_elo(&results.with_prior(anchor, request.prior_draws), anchor)?;
    Ok(RatingAnswer {
        anchor: request.anchor.clone(),
        ratings: request
            .players
            .iter()
            .zip(fitted)
            .map(|(player, r)| NamedRating {
                player: player.clone(),
                elo: r.elo,
                stderr: r.stderr,
                low: r.low,
                high: r.high,
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(games: &[(usize, usize, i32)]) -> RatingRequest {
        RatingRequest {
            players: vec!["a".into(), "b".into(), "c".into()],
            anchor: "a".into(),
            prior_draws: PRIOR_DRAWS,
            games: games
                .iter()
                .map(|&(black, white, black_margin)| RatedGame {
                    black,
                    white,
                    black_margin,
                })
                .collect(),
        }
    }

    #[test]
    fn the_refit_is_the_arena_s_fit_of_the_same_games() {
        let games = [
            (0, 1, 4),
            (1, 0, 2),
            (1, 2, -6),
            (2, 1, 0),
            (0, 2, -2),
            (2, 0, 8),
        ];
        let answer = rate(&request(&games)).expect("fits");
        let mut results = HeadToHead::new(3);
        for (b, w, m) in games {
            results.add(b, w, f64::from((m.signum() + 1) as u8) / 2.0);
        }
        let direct = fit_elo(&results.with_prior(0, PRIOR_DRAWS), 0).expect("fits");
        for (named, r) in answer.ratings.iter().zip(&direct) {
            assert_eq!((named.elo, named.low, named.high), (r.elo, r.low, r.high));
        }
        assert_eq!(answer.ratings[0].elo, 0.0);
        // c won three of four and drew one: rated above the anchor.
        assert!(answer.ratings[2].elo > 0.0);
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        let mut bad = request(&[(0, 1, 2)]);
        bad.anchor = "z".into();
        assert_eq!(rate(&bad), Err(RefitError::UnknownAnchor("z".into())));
        assert_eq!(
            rate(&request(&[(0, 3, 2)])).map_err(|e| e.to_string()),
            Err("game 1 names player 3, but there are 3 players".into())
        );
        assert_eq!(rate(&request(&[(1, 1, 2)])), Err(RefitError::SelfPlay(1)));
    }

    #[test]
    fn an_arena_json_is_a_request() {
        let json = r#"{"board": 8, "players": ["random", "greedy"], "anchor": "random",
            "ratings": [], "games": [{"black": 0, "white": 1, "black_margin": -10,
            "opening": "", "moves": "f5"}]}"#;
        let request: RatingRequest = serde_json::from_str(json).expect("reads");
        assert_eq!(request.prior_draws, PRIOR_DRAWS);
        let answer = rate(&request).expect("fits");
        assert!(answer.ratings[1].elo > 0.0);
    }
}
