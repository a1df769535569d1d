//! Which puzzle comes next: as Lichess, one near the player's rating, from a window around
//! it that widens until it holds enough puzzles to choose among, so that a player is
//! neither stuck on the few puzzles at their exact rating nor handed one far off it.

use super::record::{shipped_id, PuzzleRecord, ThemeChoice};
use engine::puzzles::{Puzzle, Theme, Themes};
use othello::BoardSize;
use std::collections::BTreeSet;

/// The first window: ± this many points around the player's rating.
const FIRST_WINDOW: f64 = 100.0;
/// A window holding this many puzzles is wide enough to choose among.
const ENOUGH: usize = 20;
/// Wider than any two ratings are apart: past it the window holds everything with a rating
/// that is a number.
const WIDEST: f64 = 10_000.0;

/// A puzzle that may come next.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub id: String,
    /// The puzzle's rating for this player (`PuzzleRecord::rating_of`).
    pub rating: f64,
    pub themes: Themes,
}

/// The index into `candidates` of the next puzzle: among those not tried yet (or, once every
/// one was tried, among all), one at random (from `seed`) of those whose rating is within a
/// window around the player's that starts at ±100 and doubles until it holds at least 20 of
/// them or all. `None` when there are none.
pub fn pick(
    candidates: &[Candidate],
    player_rating: f64,
    tried: &BTreeSet<String>,
    seed: u64,
) -> Option<usize> {
    let untried: Vec<usize> = (0..candidates.len())
        .filter(|&i| !tried.contains(&candidates[i].id))
        .collect();
    let pool = if untried.is_empty() {
        (0..candidates.len()).collect()
    } else {
        untried
    };
    if pool.is_empty() {
        return None;
    }
    let near = window(candidates, &pool, player_rating);
    Some(near[below(splitmix64(seed), near.len())])
}

/// Those of `pool` in the narrowest window that holds enough of them.
fn window(candidates: &[Candidate], pool: &[usize], player_rating: f64) -> Vec<usize> {
    let enough = ENOUGH.min(pool.len());
    let mut width = FIRST_WINDOW;
    while width <= WIDEST {
        let inside: Vec<usize> = pool
            .iter()
            .copied()
            .filter(|&i| (candidates[i].rating - player_rating).abs() <= width)
            .collect();
        if inside.len() >= enough {
            return inside;
        }
        width *= 2.0;
    }
    // Only a rating that is no number gets here; any puzzle is better than none.
    pool.to_vec()
}

/// Steele, Lea and Flood's SplitMix64: one well-mixed number from a seed, enough for a
/// choice that must be the same for the same seed.
fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A number below `n` from a random `x`, by the high half of the product (Lemire), which
/// is fairer than `x % n`.
fn below(x: u64, n: usize) -> usize {
    let high = (u128::from(x) * n as u128) >> 64;
    usize::try_from(high).unwrap_or(0)
}

/// The shipped puzzles (`set`, of board `size`) the player's theme allows, at their ratings
/// for this player. Mistakes come from the record instead ([`mistake_candidates`]).
pub fn candidates(
    set: &[Puzzle],
    size: BoardSize,
    record: &PuzzleRecord,
    theme: ThemeChoice,
) -> Vec<Candidate> {
    let wanted = |p: &Puzzle| match theme {
        ThemeChoice::Mixed => true,
        ThemeChoice::Theme(t) => p.themes.has(t),
        ThemeChoice::Mistakes => false,
    };
    set.iter()
        .enumerate()
        .filter(|(_, p)| wanted(p))
        .map(|(index, p)| {
            let id = shipped_id(size, index);
            Candidate {
                rating: record.rating_of(&id, p.rating).rating,
                id,
                themes: p.themes,
            }
        })
        .collect()
}

/// The player's own mistakes, at their ratings for this player.
pub fn mistake_candidates(record: &PuzzleRecord) -> Vec<Candidate> {
    record
        .mistakes
        .iter()
        .map(|m| Candidate {
            id: m.id.clone(),
            rating: record.rating_of(&m.id, m.rating).rating,
            themes: m
                .themes
                .iter()
                .filter_map(|name| Theme::from_name(name))
                .fold(Themes::default(), Themes::with),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(id: usize, rating: f64) -> Candidate {
        Candidate {
            id: format!("8x8-{id}"),
            rating,
            themes: Themes::default(),
        }
    }

    /// 100 puzzles rated 1000, 1010, ..., 1990.
    fn spread() -> Vec<Candidate> {
        (0..100).map(|i| at(i, 1000.0 + 10.0 * i as f64)).collect()
    }

    #[test]
    fn the_pick_is_within_the_first_window_when_enough_puzzles_are_near() {
        let set = spread();
        for seed in 0..200 {
            let i = pick(&set, 1500.0, &BTreeSet::new(), seed).expect("a pick");
            assert!((set[i].rating - 1500.0).abs() <= 100.0, "{}", set[i].rating);
        }
    }

    #[test]
    fn the_window_widens_until_it_holds_enough() {
        // The nearest 20 to 2500 are those from 1800 up, 700 away: the window has to
        // double to 800, which holds all from 1700.
        let set = spread();
        let mut lowest = f64::MAX;
        for seed in 0..500 {
            let i = pick(&set, 2500.0, &BTreeSet::new(), seed).expect("a pick");
            assert!(set[i].rating >= 1700.0, "{}", set[i].rating);
            lowest = lowest.min(set[i].rating);
        }
        assert!(lowest < 1800.0);
    }

    #[test]
    fn untried_puzzles_come_first() {
        let set = spread();
        let tried: BTreeSet<String> = set.iter().skip(1).map(|c| c.id.clone()).collect();
        for seed in 0..50 {
            assert_eq!(pick(&set, 1500.0, &tried, seed), Some(0));
        }
    }

    #[test]
    fn when_every_puzzle_was_tried_one_is_still_picked_near_the_rating() {
        let set = spread();
        let tried: BTreeSet<String> = set.iter().map(|c| c.id.clone()).collect();
        for seed in 0..50 {
            let i = pick(&set, 1500.0, &tried, seed).expect("a pick");
            assert!((set[i].rating - 1500.0).abs() <= 100.0);
        }
    }

    #[test]
    fn no_candidates_no_pick() {
        assert_eq!(pick(&[], 1500.0, &BTreeSet::new(), 7), None);
    }

    #[test]
    fn a_rating_that_is_no_number_still_picks() {
        assert!(pick(&spread(), f64::NAN, &BTreeSet::new(), 7).is_some());
    }

    #[test]
    fn the_same_seed_picks_the_same_and_seeds_spread() {
        let set = spread();
        let none = BTreeSet::new();
        assert_eq!(pick(&set, 1500.0, &none, 42), pick(&set, 1500.0, &none, 42));
        let picked: BTreeSet<usize> = (0..200)
            .filter_map(|seed| pick(&set, 1500.0, &none, seed))
            .collect();
        // The window holds 21 puzzles (1400 to 1600); 200 seeds should reach nearly all.
        assert!(picked.len() >= 18, "{picked:?}");
    }

    fn puzzle_with(themes: Themes, rating: u16) -> Puzzle {
        let start = othello::Position::start(BoardSize::Eight, othello::Variant::Standard);
        Puzzle {
            position: start,
            answer: start.legal_move_list()[0],
            kind: engine::puzzles::PuzzleKind::BestMargin,
            themes,
            margin: 4,
            runner_up: 2,
            rating,
        }
    }

    #[test]
    fn the_theme_chooses_the_candidates() {
        let edge = Themes::default().with(Theme::Edge);
        let quiet = Themes::default().with(Theme::Quiet);
        let set = [puzzle_with(edge, 1200), puzzle_with(quiet, 1300)];
        let record = PuzzleRecord::default();
        let ids = |theme| -> Vec<String> {
            candidates(&set, BoardSize::Eight, &record, theme)
                .into_iter()
                .map(|c| c.id)
                .collect()
        };
        assert_eq!(ids(ThemeChoice::Mixed), ["8x8-0", "8x8-1"]);
        assert_eq!(ids(ThemeChoice::Theme(Theme::Quiet)), ["8x8-1"]);
        assert!(ids(ThemeChoice::Theme(Theme::Parity)).is_empty());
        assert!(ids(ThemeChoice::Mistakes).is_empty());
    }

    #[test]
    fn candidates_carry_the_ratings_the_players_tries_moved() {
        let set = [puzzle_with(Themes::default(), 1200)];
        let mut record = PuzzleRecord::default();
        let fresh = candidates(&set, BoardSize::Six, &record, ThemeChoice::Mixed);
        assert_eq!((fresh[0].id.as_str(), fresh[0].rating), ("6x6-0", 1200.0));
        record.first_try("6x6-0", 1200, true);
        let moved = candidates(&set, BoardSize::Six, &record, ThemeChoice::Mixed);
        assert!(moved[0].rating < 1200.0);
    }

    #[test]
    fn mistakes_are_candidates_of_their_own() {
        let mut record = PuzzleRecord::default();
        let p = puzzle_with(Themes::default().with(Theme::Parity), 1400);
        let stored =
            crate::puzzles::record::StoredPuzzle::from_puzzle(String::new(), &p, "g".into());
        record.add_mistakes(vec![stored]);
        let found = mistake_candidates(&record);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].id, record.mistakes[0].id);
        assert!(found[0].themes.has(Theme::Parity));
        assert_eq!(found[0].rating, 1400.0);
    }
}
