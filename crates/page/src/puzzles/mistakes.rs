//! A reviewed game's worst moves of the player's, as positions to prove as puzzles: the
//! review says where the player lost the most, the worker's solver says whether the
//! position has one right move (`engine::puzzles::prove_puzzle`, the shipped sets' rules).

use othello::{Color, Game, Move, Position};
use protocol::ReviewedMove;

/// At most this many positions of one game are proven: the worst moves only.
pub const MOST_PER_GAME: usize = 5;
/// A move that gave away fewer discs than this is no mistake worth a puzzle.
pub const LEAST_LOSS: f32 = 4.0;
/// Positions with more empties are left out: the solver could not prove every move within
/// the worker's budget ([`PROVE_NODES`]) and would only spend it.
pub const MOST_EMPTIES: u32 = 20;
/// The most positions the solver may visit for each move of a position (a few seconds
/// at most in a browser).
pub const PROVE_NODES: u64 = 20_000_000;

/// One of the player's moves that lost discs, from a position worth proving.
#[derive(Clone, Debug, PartialEq)]
pub struct Mistake {
    /// The move's index in the game (0-based).
    pub ply: usize,
    pub position: Position,
    pub played: Move,
    pub loss: f32,
}

impl Mistake {
    /// Where the puzzle came from, in words.
    pub fn from_words(&self, number: Option<usize>) -> String {
        let at = number.map_or(String::new(), |n| format!(" at move {n}"));
        format!(
            "Your {}{at} in a reviewed game gave away {}",
            self.played,
            crate::format::with_discs(&format!("{:.0}", self.loss))
        )
    }
}

/// The player's worst moves of a reviewed game (`reviews` in the game's order, as
/// `Reviews::of_game` gives them), worst first: moves of a colour `mine` says is the
/// player's, that lost at least [`LEAST_LOSS`] discs, from positions of at most
/// [`MOST_EMPTIES`] empties with a choice to make.
pub fn worst_moves(
    game: &Game,
    reviews: &[Option<ReviewedMove>],
    mine: impl Fn(Color) -> bool,
) -> Vec<Mistake> {
    let mut found: Vec<Mistake> = game
        .positions()
        .iter()
        .zip(game.moves())
        .zip(reviews)
        .enumerate()
        .filter_map(|(ply, ((pos, &played), review))| {
            let review = review.as_ref()?;
            let worth = mine(pos.side_to_move())
                && review.loss >= LEAST_LOSS
                && pos.empty_count() <= MOST_EMPTIES
                && pos.legal_move_list().len() >= 2;
            worth.then_some(Mistake {
                ply,
                position: *pos,
                played,
                loss: review.loss,
            })
        })
        .collect();
    found.sort_by(|a, b| b.loss.total_cmp(&a.loss));
    found.truncate(MOST_PER_GAME);
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::{BoardSize, Variant};

    fn reviewed(side: Color, played: Move, loss: f32) -> ReviewedMove {
        ReviewedMove {
            side,
            played,
            value: Some(-loss),
            value_exact: true,
            best: played,
            best_value: Some(0.0),
            best_exact: true,
            loss,
            line: vec![],
            best_is_bound: false,
            loss_between_estimates: false,
            line_searched: false,
            line_from_window: false,
        }
    }

    /// A game played to the end by always taking the first legal move.
    fn game() -> Game {
        let mut game = Game::new(Position::start(BoardSize::Six, Variant::Standard));
        while let Some(&mv) = game.position().legal_move_list().first() {
            if game.position().is_game_over() {
                break;
            }
            game.push(mv).expect("legal");
        }
        game
    }

    #[test]
    fn the_players_worst_late_moves_come_first_and_nothing_else_does() {
        let game = game();
        let positions = game.positions();
        // Every move lost its index in discs: the late moves lost the most.
        let reviews: Vec<Option<ReviewedMove>> = positions
            .iter()
            .zip(game.moves())
            .enumerate()
            .map(|(i, (pos, &mv))| Some(reviewed(pos.side_to_move(), mv, i as f32)))
            .collect();
        let found = worst_moves(&game, &reviews, |c| c == Color::Black);
        assert!(!found.is_empty() && found.len() <= MOST_PER_GAME);
        for pair in found.windows(2) {
            assert!(pair[0].loss >= pair[1].loss);
        }
        for m in &found {
            assert_eq!(m.position.side_to_move(), Color::Black);
            assert!(m.loss >= LEAST_LOSS);
            assert!(m.position.empty_count() <= MOST_EMPTIES);
            assert!(m.position.legal_move_list().len() >= 2);
            assert_eq!(positions[m.ply], m.position);
            assert_eq!(game.moves()[m.ply], m.played);
        }
        assert!(worst_moves(&game, &reviews, |_| false).is_empty());
        // Unreviewed moves are never taken.
        assert!(worst_moves(&game, &vec![None; reviews.len()], |_| true).is_empty());
    }
}
