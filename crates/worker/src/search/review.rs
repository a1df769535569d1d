//! The worker's side of a game's review: the engine's [`Reviewer`] (the one `othello
//! review` runs) over the agent a search of the same spec would get, one move a message.

use super::{build_agent, worker_review_solve, Searcher};
use engine::review::Reviewer;
use engine::PlayerKind;
use protocol::ReviewedMove;
use protocol::{ReviewRequest, WireBudget};

/// The review under way: its id and the reviewer, kept between its moves so the search of
/// the position after one move serves the next (as the CLI's one reviewer per game does).
#[derive(Debug)]
pub struct Reviewing {
    id: u64,
    reviewer: Reviewer,
}

impl Searcher {
    /// Reviews one move of a game. A request with a new id starts a fresh reviewer, with a
    /// fresh agent, as `othello review` starts one per game; moves of one review must come
    /// in order for its reuse of searches to apply (they are correct in any order).
    pub fn review(&mut self, request: &ReviewRequest) -> Result<ReviewedMove, String> {
        let position = request.position()?;
        if request.player.kind != PlayerKind::Mcts {
            return Err(format!(
                "{} gives no values for its moves; a review needs a search (mcts)",
                request.player
            ));
        }
        if self.reviewing.as_ref().is_none_or(|r| r.id != request.id) {
            self.reviewing = None;
            let spec = self.budgetless_spec(&request.player, &position)?;
            let agent = build_agent(&spec, request.seed, &self.networks, worker_review_solve)?;
            self.reviewing = Some(Reviewing {
                id: request.id,
                reviewer: Reviewer::new(agent, budget(request.budget)),
            });
        }
        let Some(reviewing) = self.reviewing.as_mut() else {
            return Err("no reviewer".to_owned());
        };
        let reviewed =
            reviewing
                .reviewer
                .review_move_in_frame(request.frame, &position, request.played);
        match reviewed {
            Ok(review) => Ok(ReviewedMove::from_engine(&review)),
            Err(e) => {
                // A broken network or a bad move: the next request starts afresh.
                self.reviewing = None;
                Err(match e {
                    engine::review::ReviewError::Illegal { mv, cause, .. } => format!(
                        "move {} ({mv}) cannot be played there: {cause}",
                        request.index + 1
                    ),
                    // The engine's words name the player spec, which means nothing to a
                    // player: the page names the move and what to do (issue 68, item 1).
                    engine::review::ReviewError::NoValues { .. } => {
                        "the search gave no values for this position".to_owned()
                    }
                    other => other.to_string(),
                })
            }
        }
    }
}

fn budget(wire: WireBudget) -> engine::Budget {
    wire.to_budget()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Budget, NoModels, PlayerSpec};
    use othello::{BoardSize, Game, Position, Variant};

    fn request(id: u64, index: usize, game: &Game, player: &str, sims: u64) -> ReviewRequest {
        let pos = game.positions()[index];
        ReviewRequest {
            id,
            index,
            board: pos.to_board_text(),
            variant: pos.variant(),
            played: game.moves()[index],
            player: player.parse().expect("a spec"),
            budget: WireBudget {
                simulations: Some(sims),
                millis: None,
            },
            seed: 3,
            frame: 0,
        }
    }

    /// A 6x6 game played to its end by two seeded random players: short, and its last
    /// moves within the solver's reach.
    fn played_game() -> Game {
        let mut rng = engine::Rng::new(11);
        let mut game = Game::new(Position::start(BoardSize::Six, Variant::Standard));
        while !game.position().is_game_over() {
            let moves = game.position().legal_move_list();
            let mv = *rng.choose(&moves).expect("a move or a pass");
            game.push(mv).expect("legal");
        }
        game
    }

    #[test]
    fn the_worker_reviews_a_game_as_othello_review_does() {
        let game = played_game();
        let spec = "mcts:playouts=1";
        // The CLI: one reviewer for the whole game, the spec's agent from the builder.
        let cli_spec: PlayerSpec = spec.parse().expect("a spec");
        let (agent, _) = cli_spec.build(3, &NoModels).expect("builds");
        let cli = Reviewer::new(agent, Budget::simulations(60))
            .review_game(&game, &mut |_, _| {})
            .expect("reviews");
        // The page: two workers, each taking every other move, last move first, each move
        // turned as the game in order turns it (the thirteenth look saw two reviews of one
        // record differ by a few marks).
        let moves: Vec<_> = game
            .positions()
            .iter()
            .copied()
            .zip(game.moves().iter().copied())
            .collect();
        let frames = engine::review::frames_of(&moves);
        let mut workers = [Searcher::new(), Searcher::new()];
        for (index, expected) in cli.iter().enumerate().rev() {
            let mut asked = request(1, index, &game, spec, 60);
            asked.frame = frames[index];
            let page = workers[index % 2].review(&asked).expect("reviews");
            assert_eq!(
                page,
                ReviewedMove::from_engine(expected),
                "move {}",
                index + 1
            );
        }
        assert!(cli.iter().any(|r| r.value.is_some_and(|v| v.exact)));
        assert!(
            frames.iter().any(|&f| f != 0),
            "the game is turned: {frames:?}"
        );
    }

    #[test]
    fn a_review_refuses_a_player_without_values_and_an_illegal_move() {
        let game = played_game();
        let mut searcher = Searcher::new();
        let error = searcher
            .review(&request(2, 0, &game, "greedy", 10))
            .expect_err("greedy has no values");
        assert!(error.contains("a review needs a search"), "{error}");
        let mut bad = request(3, 0, &game, "mcts", 10);
        bad.played = othello::Move::parse("a1", BoardSize::Six).expect("a square");
        let error = searcher.review(&bad).expect_err("illegal");
        assert!(
            error.starts_with("move 1 (a1) cannot be played there"),
            "{error}"
        );
    }
}
