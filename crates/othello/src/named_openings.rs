//! The named 8x8 openings (Tiger, Rose, Buffalo, Cow, Heath, ...): which one a game
//! follows.
//!
//! The list is this crate's `data/named-8x8.txt` (its header says where the names come
//! from), embedded so that every front end names openings alike with nothing to load. A line
//! names the position it reaches, so matching is by position: a game is in the Tiger
//! when it reaches the Tiger's position, under any of the 8 board symmetries and by any
//! move order. That makes the four first moves (f5, d3, c4, e6) one opening, as players
//! count them, and it names transpositions: `f5d6c4d3c3` is the Tiger too.
//!
//! ```
//! use othello::{named_opening, BoardSize, Game, Position, Variant};
//!
//! let start = Position::start(BoardSize::Eight, Variant::Standard);
//! let game = Game::from_transcript("c4e3f6e6f5", start)?;
//! assert_eq!(named_opening(game.positions()).map(|o| o.name), Some("Tiger"));
//! # Ok::<(), othello::TranscriptError>(())
//! ```

use crate::{
    transcript_lines, BoardSize, Color, Game, Move, Position, Symmetry, TranscriptError, Variant,
};
use std::collections::HashMap;
use std::sync::OnceLock;
use thiserror::Error;

const LIST: &str = include_str!("../data/named-8x8.txt");

/// One named line of the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NamedOpening {
    pub name: &'static str,
    /// The line from the standard start, Black's first move at f5, such as `f5d6c3d3c4`.
    pub transcript: &'static str,
    /// Moves in the line.
    pub plies: usize,
}

/// A line of the list that is not `transcript name` with a legal transcript.
#[derive(Debug, Error)]
enum ListError {
    #[error("line {line}: \"{transcript}\" has no name after it")]
    MissingName { line: usize, transcript: String },
    #[error("line {line}: {source}")]
    Transcript {
        line: usize,
        #[source]
        source: TranscriptError,
    },
}

/// A position up to symmetry: the least (black, white) over the 8 symmetries, and the
/// side to move.
type Key = (u64, u64, Color);

fn key(pos: &Position) -> Key {
    let size = pos.size();
    let (black, white) = Symmetry::ALL
        .iter()
        .map(|s| {
            (
                s.bitboard(pos.black(), size).0,
                s.bitboard(pos.white(), size).0,
            )
        })
        .min()
        .unwrap_or((pos.black().0, pos.white().0));
    (black, white, pos.side_to_move())
}

#[derive(Debug, Default)]
struct Table {
    openings: Vec<NamedOpening>,
    /// Each line's final position, to its index in `openings`.
    by_position: HashMap<Key, usize>,
    /// Discs on the board after the longest line: no later position can match.
    max_discs: u32,
}

fn standard_start() -> Position {
    Position::start(BoardSize::Eight, Variant::Standard)
}

impl Table {
    fn parse(text: &'static str) -> Result<Table, ListError> {
        let mut table = Table::default();
        for (line, entry) in transcript_lines(text) {
            let (transcript, name) = entry
                .split_once(char::is_whitespace)
                .map(|(t, n)| (t, n.trim()))
                .filter(|(_, n)| !n.is_empty())
                .ok_or_else(|| ListError::MissingName {
                    line,
                    transcript: entry.to_owned(),
                })?;
            let game = Game::from_transcript(transcript, standard_start())
                .map_err(|source| ListError::Transcript { line, source })?;
            let pos = game.position();
            table.max_discs = table.max_discs.max(64 - pos.empty_count());
            // A second line to the same position would never be named; the tests keep
            // the list free of them, and the first one stands.
            table
                .by_position
                .entry(key(pos))
                .or_insert(table.openings.len());
            table.openings.push(NamedOpening {
                name,
                transcript,
                plies: game.moves().len(),
            });
        }
        Ok(table)
    }
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    // The list is part of the build and its tests read every line, so an error here is
    // a broken build; naming nothing is the safe way for a page or a CLI to fail.
    TABLE.get_or_init(|| Table::parse(LIST).unwrap_or_default())
}

/// Every named line, in the list's order.
pub fn named_openings() -> &'static [NamedOpening] {
    &table().openings
}

/// The named opening a game follows, given its positions from the start (as
/// [`Game::positions`] has them): of the named lines whose position the game reached,
/// the longest. A game that has left the named lines keeps the last name it had: after
/// `f5d6c3d3c4f4c5` it is still in the Tiger.
///
/// Positions are matched under the 8 symmetries and by any move order (see the module
/// docs). Only standard 8x8 games from the standard start have names: `None` for 6x6,
/// for the reversed rules, for a game set up from some other position, and for a game
/// that reached no named line yet (the start, or after one move).
pub fn named_opening(positions: &[Position]) -> Option<&'static NamedOpening> {
    if positions.first() != Some(&standard_start()) {
        return None;
    }
    let table = table();
    positions
        .iter()
        .filter(|pos| 64 - pos.empty_count() <= table.max_discs)
        .filter_map(|pos| table.by_position.get(&key(pos)))
        .filter_map(|&index| table.openings.get(index))
        .max_by_key(|opening| opening.plies)
}

/// [`named_opening`] for a start and the moves played from it; `None` also when a move is
/// illegal.
pub fn named_opening_after(start: Position, moves: &[Move]) -> Option<&'static NamedOpening> {
    let mut game = Game::new(start);
    for &mv in moves {
        game.push(mv).ok()?;
    }
    named_opening(game.positions())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn name_of(transcript: &str, start: Position) -> Option<&'static str> {
        let game = Game::from_transcript(transcript, start).expect("a legal line");
        named_opening(game.positions()).map(|o| o.name)
    }

    fn name(transcript: &str) -> Option<&'static str> {
        name_of(transcript, standard_start())
    }

    /// The symmetries that leave the start where it is: those turn a game into the same
    /// game played from another first move.
    fn start_symmetries() -> Vec<Symmetry> {
        let start = standard_start();
        Symmetry::ALL
            .into_iter()
            .filter(|s| s.position(&start) == start)
            .collect()
    }

    fn turned(transcript: &str, s: Symmetry) -> String {
        let game = Game::from_transcript(transcript, standard_start()).expect("a legal line");
        game.moves()
            .iter()
            .map(|&mv| s.apply_move(mv, BoardSize::Eight).to_string())
            .collect()
    }

    #[test]
    fn every_line_is_legal_from_f5_and_reaches_a_position_of_its_own() {
        let table = Table::parse(LIST).expect("the list reads");
        assert_eq!(table.openings.len(), 71);
        let mut names = HashSet::new();
        for opening in &table.openings {
            assert!(opening.transcript.starts_with("f5"), "{opening:?}");
            assert!(!opening.transcript.contains("pa"), "{opening:?}");
            assert!(names.insert(opening.name), "{} twice", opening.name);
        }
        // The source names no position twice, so neither may the list: a second line to
        // a position would never be named.
        assert_eq!(table.by_position.len(), table.openings.len());
        assert_eq!(table.max_discs, 4 + 18);
        assert_eq!(named_openings().len(), 71);
    }

    #[test]
    fn a_list_line_without_a_name_or_with_an_illegal_move_is_an_error() {
        let missing = Table::parse("f5d6  # no name\n").unwrap_err();
        assert_eq!(missing.to_string(), "line 1: \"f5d6\" has no name after it");
        let illegal = Table::parse("# header\nf5f5 Nonsense\n").unwrap_err();
        assert!(
            illegal
                .to_string()
                .starts_with("line 2: \"f5f5\": illegal move f5"),
            "{illegal}"
        );
    }

    #[test]
    fn the_tiger_and_its_family() {
        assert_eq!(name("f5d6c3d3c4"), Some("Tiger"));
        assert_eq!(name("f5d6"), Some("Perpendicular Opening"));
        assert_eq!(name("f5f6e6f4g5"), Some("Heath"));
        assert_eq!(name("f5d6c5f4e3c6d3f6e6d7"), Some("Rose"));
        // The longest line the game passed through wins over the shorter ones before it.
        assert_eq!(name("f5d6c3d3c4f4c5b3c2"), Some("Rose-BILL"));
        let moves: Vec<Move> = ["f5", "d6", "c3", "d3", "c4"]
            .iter()
            .map(|text| Move::parse(text, BoardSize::Eight).expect("a square"))
            .collect();
        let opening = named_opening_after(standard_start(), &moves);
        assert_eq!(opening.map(|o| (o.name, o.plies)), Some(("Tiger", 5)));
        // An illegal move: no game, so no name.
        assert_eq!(
            named_opening_after(standard_start(), &moves[..1].repeat(2)),
            None
        );
    }

    #[test]
    fn no_name_before_the_second_move() {
        assert_eq!(name(""), None);
        assert_eq!(name("f5"), None);
    }

    #[test]
    fn every_first_move_gives_the_same_names() {
        let symmetries = start_symmetries();
        assert_eq!(symmetries.len(), 4);
        // The Tiger as the older lists write it, from c4.
        assert_eq!(name("c4e3f6e6f5"), Some("Tiger"));
        for opening in named_openings() {
            for &s in &symmetries {
                let line = turned(opening.transcript, s);
                assert_eq!(name(&line), Some(opening.name), "{line}");
            }
        }
    }

    #[test]
    fn a_transposition_is_the_same_opening() {
        // Black's c3 and c4 swapped: the same position as f5d6c3d3c4.
        assert_eq!(name("f5d6c4d3c3"), Some("Tiger"));
        // Ishii is a Tiger line, but the Diagonal Opening can reach its position too.
        assert_eq!(name("f5d6c3d3c4f4c5b4b5c6f3e6e3"), Some("Ishii"));
        assert_eq!(name("f5f6e6d6c5e3d3g4g5f4f3c4c3"), Some("Ishii"));
    }

    #[test]
    fn a_game_that_leaves_the_lines_keeps_its_last_name() {
        assert_eq!(name("f5d6c3d3c4f4c5"), Some("Tiger"));
        assert_eq!(name("f5d6c3d3c4f4c5b3c2e3"), Some("Rose-BILL"));
        // Played on to the end (always the first legal move): named by its opening still.
        let mut game =
            Game::from_transcript("f5d6c3d3c4f4c5b3c2e6", standard_start()).expect("legal");
        while let Some(&mv) = game.position().legal_move_list().first() {
            game.push(mv).expect("a legal move");
        }
        assert!(game.position().is_game_over());
        assert_eq!(
            named_opening(game.positions()).map(|o| o.name),
            Some("Tamenori")
        );
    }

    #[test]
    fn other_boards_rules_and_starts_have_no_names() {
        let reversed = Position::start(BoardSize::Eight, Variant::Reversed);
        assert_eq!(name_of("f5d6c3d3c4", reversed), None);
        let mut six = Game::new(Position::start(BoardSize::Six, Variant::Standard));
        for _ in 0..5 {
            let mv = six.position().legal_move_list()[0];
            six.push(mv).expect("a legal move");
        }
        assert_eq!(named_opening(six.positions()), None);
        // A game set up after f5: it reaches the Perpendicular Opening's position, but
        // not from the standard start.
        let after_f5 = *Game::from_transcript("f5", standard_start())
            .expect("legal")
            .position();
        assert_eq!(name_of("d6", after_f5), None);
        assert_eq!(named_opening(&[]), None);
    }
}
