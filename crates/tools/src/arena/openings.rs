//! Arena openings: short random starts, so that deterministic players do not play one
//! game over and over, and every pairing meets the same positions.

use super::{ArenaConfig, ArenaError};
use engine::rng::splitmix64;
use engine::Rng;
use othello::{BoardSize, Game, Move, Position, Symmetry, TranscriptError, Variant};
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

/// Where an arena's games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// 4-8 random plies, made from the seed.
    Random,
    /// The initial position for every game (the players' seeds still differ).
    Start,
    /// Drawn from a list, such as the balanced XOT-style openings in `crates/othello/data/`: the seed
    /// shuffles the list and the tournament takes as many as it needs from the front.
    List(Vec<Opening>),
}

/// The openings a tournament plays, one per pair of games.
pub(super) fn for_arena(config: &ArenaConfig) -> Result<Vec<Opening>, ArenaError> {
    let needed = config.openings_needed();
    match &config.openings {
        Openings::Random => Ok(generate_openings(
            config.size,
            config.variant,
            needed,
            splitmix64(config.seed ^ 0x6f70_656e),
        )?),
        Openings::Start => {
            let start = Opening {
                moves: Vec::new(),
                position: Position::start(config.size, config.variant),
            };
            Ok(vec![start; needed])
        }
        Openings::List(list) => {
            if list.len() < needed {
                return Err(ArenaError::TooFewOpenings {
                    wanted: 2 * needed,
                    found: list.len(),
                });
            }
            if let Some(other) = list.iter().find(|o| {
                o.position.size() != config.size || o.position.variant() != config.variant
            }) {
                return Err(ArenaError::OpeningMismatch(other.transcript()));
            }
            // Fisher-Yates with the seed, so each seed plays its own sample of the list.
            let mut order: Vec<usize> = (0..list.len()).collect();
            let mut rng = Rng::new(splitmix64(config.seed ^ 0x0078_6f74));
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
            Ok(order[..needed].iter().map(|&i| list[i].clone()).collect())
        }
    }
}

/// Reads an opening list: one transcript from the initial position a line; `#` starts a
/// comment (the generator writes each opening's value there), blank lines are skipped.
pub fn read_openings(
    text: &str,
    size: BoardSize,
    variant: Variant,
) -> Result<Vec<Opening>, (usize, TranscriptError)> {
    let start = Position::start(size, variant);
    let mut openings = Vec::new();
    for (line, transcript) in othello::transcript_lines(text) {
        let game = Game::from_transcript(transcript, start).map_err(|e| (line, e))?;
        openings.push(Opening {
            moves: game.moves().to_vec(),
            position: *game.position(),
        });
    }
    Ok(openings)
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
    generate_openings_of(size, variant, count, MIN_PLIES..=MAX_PLIES, seed)
}

/// `count` distinct openings of `plies` random plies (a number drawn in the range for
/// each), as [`generate_openings`] makes them: the candidates of the balanced lists.
pub fn generate_openings_of(
    size: BoardSize,
    variant: Variant,
    count: usize,
    plies: std::ops::RangeInclusive<usize>,
    seed: u64,
) -> Result<Vec<Opening>, OpeningsError> {
    let (min_plies, max_plies) = (*plies.start(), *plies.end().max(plies.start()));
    let mut rng = Rng::new(seed);
    let mut seen = HashSet::new();
    let mut openings = Vec::with_capacity(count);
    // Small boards run out of distinct openings; give up after a long run of fruitless
    // draws rather than loop for ever.
    let mut misses = 0;
    while openings.len() < count && misses < 10_000 {
        let plies = min_plies + rng.below(max_plies - min_plies + 1);
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

    fn listed(text: &str) -> Vec<Opening> {
        read_openings(text, BoardSize::Eight, Variant::Standard).expect("a valid list")
    }

    #[test]
    fn a_list_reads_one_transcript_a_line_with_comments() {
        let list = listed("# balanced\nf5d6c3d3  # q +0.01\n\nf5f6e6f4\n");
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].transcript(), "f5d6c3d3");
        assert_eq!(list[1].moves.len(), 4);
        let (line, _) = read_openings("f5d6\nf5f5\n", BoardSize::Eight, Variant::Standard)
            .expect_err("f5 twice");
        assert_eq!(line, 2);
    }

    #[test]
    fn a_tournament_takes_a_shuffled_sample_of_the_list_and_refuses_too_short_ones() {
        let list = listed("f5d6\nf5f6\nf5f4\nd3c3\nd3c5\nd3e3\n");
        let config = |seed, games| ArenaConfig {
            size: BoardSize::Eight,
            variant: Variant::Standard,
            players: super::super::ArenaPlayer::parse_list("random,greedy", &[]).expect("valid"),
            games_per_pairing: games,
            seed,
            openings: Openings::List(list.clone()),
            rules: super::super::MatchRules::default(),
            sprt: None,
        };
        let chosen = for_arena(&config(1, 6)).expect("three of six");
        assert_eq!(chosen.len(), 3);
        assert!(chosen.iter().all(|o| list.contains(o)));
        assert_eq!(chosen, for_arena(&config(1, 6)).expect("again"));
        let all = for_arena(&config(2, 12)).expect("all six");
        let mut sorted: Vec<String> = all.iter().map(Opening::transcript).collect();
        sorted.sort();
        let mut expected: Vec<String> = list.iter().map(Opening::transcript).collect();
        expected.sort();
        assert_eq!(sorted, expected, "each once");
        let samples: HashSet<Vec<String>> = (0..20)
            .map(|seed| {
                let o = for_arena(&config(seed, 6)).expect("three");
                o.iter().map(Opening::transcript).collect()
            })
            .collect();
        assert!(samples.len() > 5, "the seed picks the sample");
        assert!(matches!(
            for_arena(&config(1, 14)),
            Err(ArenaError::TooFewOpenings { found: 6, .. })
        ));
        let first = Position::start(BoardSize::Six, Variant::Standard).legal_move_list()[0];
        let six = read_openings(&first.to_string(), BoardSize::Six, Variant::Standard)
            .expect("a 6x6 opening");
        let mismatched = ArenaConfig {
            openings: Openings::List(six),
            ..config(1, 2)
        };
        assert!(matches!(
            for_arena(&mismatched),
            Err(ArenaError::OpeningMismatch(_))
        ));
    }

    #[test]
    fn candidates_of_a_fixed_length_have_exactly_that_many_plies() {
        let openings =
            generate_openings_of(BoardSize::Eight, Variant::Standard, 50, 8..=8, 3).expect("50");
        assert!(openings.iter().all(|o| o.moves.len() == 8));
    }
}
