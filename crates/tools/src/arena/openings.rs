//! Arena openings: short random starts, so that deterministic players do not play one
//! game over and over, and every pairing meets the same positions.

use engine::Rng;
use othello::{BoardSize, Game, Move, Position, Symmetry, Variant};
use std::collections::HashSet;
use thiserror::Error;

/// Fewest and most random plies in an opening.
pub const MIN_PLIES: usize = 4;
pub const MAX_PLIES: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("found only {found} distinct {size} openings of {MIN_PLIES}-{MAX_PLIES} plies, {wanted} wanted; play fewer games")]
pub struct OpeningsError {
    pub wanted: usize,
    pub found: usize,
    pub size: BoardSize,
}

/// A start position and the moves that reach it from the initial position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub moves: Vec<Move>,
    pub position: Position,
}

impl Opening {
    pub fn transcript(&self) -> String {
        let mut game = Game::new(Position::start(
            self.position.size(),
            self.position.variant(),
        ));
        for mv in &self.moves {
            // The moves were played from this start when the opening was made.
            if game.push(*mv).is_err() {
                break;
            }
        }
        game.transcript(true)
    }
}

/// `count` openings of 4-8 random plies, reproducible from `seed`. No two are the same
/// position or a mirror image or rotation of one another (those would be the same game for
/// a player that ignores symmetry), and none is a finished game.
pub fn generate_openings(
    size: BoardSize,
    variant: Variant,
    count: usize,
    seed: u64,
) -> Result<Vec<Opening>, OpeningsError> {
    let mut rng = Rng::new(seed);
    let mut seen = HashSet::new();
    let mut openings = Vec::with_capacity(count);
    // Small boards run out of distinct openings; give up after a long run of fruitless
    // draws rather than loop for ever.
    let mut misses = 0;
    while openings.len() < count && misses < 10_000 {
        let plies = MIN_PLIES + rng.below(MAX_PLIES - MIN_PLIES + 1);
        let mut pos = Position::start(size, variant);
        let mut moves = Vec::with_capacity(plies);
        for _ in 0..plies {
            let legal = pos.legal_move_list();
            match rng.choose(&legal) {
                Some(mv) => {
                    pos = pos.play_unchecked(*mv);
                    moves.push(*mv);
                }
                None => break,
            }
        }
        if pos.is_game_over() || !seen.insert(canonical(&pos)) {
            misses += 1;
            continue;
        }
        misses = 0;
        openings.push(Opening {
            moves,
            position: pos,
        });
    }
    if openings.len() < count {
        return Err(OpeningsError {
            wanted: count,
            found: openings.len(),
            size,
        });
    }
    Ok(openings)
}

/// The same key for a position and its seven symmetric images.
fn canonical(pos: &Position) -> (u64, u64, u8) {
    Symmetry::ALL
        .iter()
        .map(|s| {
            let p = s.position(pos);
            (p.black().0, p.white().0, p.side_to_move() as u8)
        })
        .min()
        .unwrap_or((pos.black().0, pos.white().0, pos.side_to_move() as u8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_distinct_legal_unfinished_and_reproducible() {
        for size in [BoardSize::Six, BoardSize::Eight] {
            let openings =
                generate_openings(size, Variant::Standard, 100, 42).expect("enough openings");
            assert_eq!(openings.len(), 100);
            let mut keys = HashSet::new();
            for opening in &openings {
                assert!((MIN_PLIES..=MAX_PLIES).contains(&opening.moves.len()));
                // Replaying the moves by the rules reaches the stored position.
                let game = Game::from_transcript(
                    &opening.transcript(),
                    Position::start(size, Variant::Standard),
                )
                .expect("legal moves");
                assert_eq!(*game.position(), opening.position);
                assert!(!opening.position.is_game_over());
                assert!(
                    keys.insert(canonical(&opening.position)),
                    "repeated opening"
                );
            }
            let again = generate_openings(size, Variant::Standard, 100, 42).expect("again");
            assert_eq!(openings, again);
            let other = generate_openings(size, Variant::Standard, 100, 43).expect("other");
            assert_ne!(openings, other);
        }
    }

    #[test]
    fn symmetric_images_count_as_the_same_opening() {
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let f5 = Game::from_transcript("f5", start).expect("legal");
        let d3 = Game::from_transcript("d3", start).expect("legal");
        assert_ne!(f5.position(), d3.position());
        assert_eq!(canonical(f5.position()), canonical(d3.position()));
    }

    #[test]
    fn asking_for_more_openings_than_a_small_board_has_is_an_error() {
        let error = generate_openings(BoardSize::Four, Variant::Standard, 100_000, 1)
            .expect_err("4x4 has far fewer");
        assert_eq!(error.wanted, 100_000);
        assert!(error.found > 0 && error.found < 100_000);
    }
}
