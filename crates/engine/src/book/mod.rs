//! The opening book: positions the agent has searched deeply ahead of time, each with its
//! value in discs, keyed by a symmetry-normalised board so that one entry serves the 8
//! orientations (and both colours: the value is for the side to move). A book position
//! holds its searched value, the estimates its search gave the moves that are not yet in
//! the book, and the value backed up from its children by negamax, as Edax's book
//! (`src/book.c`: a position's "links" and its best unlinked "leaf") and Egaroucid's
//! (`src/engine/book.hpp`) keep them. How a book grows is the `tools` crate's business
//! (`tools::book`); this module reads, writes and plays from one. The file format is
//! docs/book.md.

mod format;

pub use format::{BookError, FORMAT_VERSION};

use crate::rng::Rng;
use othello::{BoardSize, Move, Position, Symmetry, Variant};
use std::collections::HashMap;

/// A position's key: the side to move's and the opponent's discs in the orientation that
/// makes the pair smallest, so the 8 symmetric positions share one entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BookKey {
    pub player: u64,
    pub opponent: u64,
}

impl BookKey {
    /// The key of `pos`, and the symmetry that takes `pos` to the key's orientation.
    pub fn of(pos: &Position) -> (BookKey, Symmetry) {
        let size = pos.size();
        let turned = |sym: Symmetry| BookKey {
            player: sym.bitboard(pos.player(), size).0,
            opponent: sym.bitboard(pos.opponent(), size).0,
        };
        Symmetry::ALL.into_iter().fold(
            (turned(Symmetry::IDENTITY), Symmetry::IDENTITY),
            |best, sym| {
                let key = turned(sym);
                if key < best.0 {
                    (key, sym)
                } else {
                    best
                }
            },
        )
    }
}

/// How a book position's own value was found: by the agent's search at the entry's budget,
/// or exactly by the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Searched,
    Solved,
}

/// One book position.
#[derive(Clone, Debug, PartialEq)]
pub struct BookEntry {
    /// The position's value in discs for the side to move: the best of its moves' values
    /// (children in the book, negated; the search's estimates for the others).
    pub value: f32,
    /// Whether `value` comes from a child in the book (backed up) or from the position's
    /// own search.
    pub backed_up: bool,
    pub origin: Origin,
    /// Simulations of the search behind the entry (0 when solved).
    pub budget: u32,
    /// Games of the book's input lists that went through the position.
    pub games: u32,
    /// The search's value for moves, in the key's orientation: every move it looked at
    /// enough to judge, best first. A move whose child joins the book takes the child's
    /// value instead.
    pub estimates: Vec<(Move, f32)>,
}

impl BookEntry {
    /// Where the value came from, as the book's tools print it.
    pub fn source(&self) -> &'static str {
        match (self.backed_up, self.origin) {
            (true, _) => "backed up",
            (false, Origin::Searched) => "searched",
            (false, Origin::Solved) => "solved",
        }
    }
}

/// A legal move of a book position and what the book knows of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookMove {
    pub mv: Move,
    /// Value in discs for the side to move after playing it.
    pub value: f32,
    /// The move leads to a book position (or ends the game): its value is the book's, not
    /// a single search's estimate.
    pub in_book: bool,
}

/// The book's answer for a position: the move to play and every move it knows.
#[derive(Clone, Debug, PartialEq)]
pub struct BookChoice {
    pub mv: Move,
    pub value: f32,
    /// Every move the book knows, best first.
    pub moves: Vec<BookMove>,
}

/// An opening book for one board size and variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    size: BoardSize,
    variant: Variant,
    entries: HashMap<BookKey, BookEntry>,
}

impl Book {
    pub fn new(size: BoardSize, variant: Variant) -> Book {
        Book {
            size,
            variant,
            entries: HashMap::new(),
        }
    }

    pub fn size(&self) -> BoardSize {
        self.size
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn entries(&self) -> impl Iterator<Item = (&BookKey, &BookEntry)> {
        self.entries.iter()
    }

    /// Refuses a book made for another board or rules.
    pub fn check_game(&self, size: BoardSize, variant: Variant) -> Result<(), BookError> {
        if (size, variant) == (self.size, self.variant) {
            Ok(())
        } else {
            Err(BookError::WrongGame {
                book: describe(self.size, self.variant),
                game: describe(size, variant),
            })
        }
    }

    fn fits(&self, pos: &Position) -> bool {
        pos.size() == self.size && pos.variant() == self.variant
    }

    pub fn get(&self, pos: &Position) -> Option<&BookEntry> {
        if !self.fits(pos) {
            return None;
        }
        self.entries.get(&BookKey::of(pos).0)
    }

    pub fn contains(&self, pos: &Position) -> bool {
        self.get(pos).is_some()
    }

    /// Adds or replaces the entry of `pos`; `estimates` are in `pos`'s own orientation.
    pub fn insert(&mut self, pos: &Position, mut entry: BookEntry) {
        let (key, sym) = BookKey::of(pos);
        for (mv, _) in &mut entry.estimates {
            *mv = sym.apply_move(*mv, pos.size());
        }
        self.entries.insert(key, entry);
    }

    pub fn get_mut(&mut self, pos: &Position) -> Option<&mut BookEntry> {
        if !self.fits(pos) {
            return None;
        }
        self.entries.get_mut(&BookKey::of(pos).0)
    }

    /// Inserts a raw entry (the reader's and `merge`'s way in): the key and estimates are
    /// already in the key's orientation.
    pub fn insert_keyed(&mut self, key: BookKey, entry: BookEntry) {
        self.entries.insert(key, entry);
    }

    pub fn get_keyed(&self, key: &BookKey) -> Option<&BookEntry> {
        self.entries.get(key)
    }

    pub fn get_keyed_mut(&mut self, key: &BookKey) -> Option<&mut BookEntry> {
        self.entries.get_mut(key)
    }

    /// Every legal move of `pos` with a value: from the book where its child is there (or
    /// the game ends), else from `pos`'s own search. `None` when `pos` is not in the book.
    /// Best first.
    pub fn moves(&self, pos: &Position) -> Option<Vec<BookMove>> {
        if !self.fits(pos) {
            return None;
        }
        let (key, sym) = BookKey::of(pos);
        let entry = self.entries.get(&key)?;
        let mut moves: Vec<BookMove> = pos
            .legal_move_list()
            .into_iter()
            .filter_map(|mv| {
                if let Some(value) = self.child_value(pos, mv) {
                    return Some(BookMove {
                        mv,
                        value,
                        in_book: true,
                    });
                }
                let keyed = sym.apply_move(mv, pos.size());
                entry
                    .estimates
                    .iter()
                    .find(|(m, _)| *m == keyed)
                    .map(|&(_, value)| BookMove {
                        mv,
                        value,
                        in_book: false,
                    })
            })
            .collect();
        moves.sort_by(|a, b| b.value.total_cmp(&a.value));
        Some(moves)
    }

    /// The book's value of playing `mv` in `pos`, for the side to move in `pos`: the final
    /// margin when the game ends, else the child's (across a pass) when it is in the book.
    pub fn child_value(&self, pos: &Position, mv: Move) -> Option<f32> {
        let (child, same_side) = next_book_position(pos, mv);
        if child.is_game_over() {
            return Some(child.count().margin_for(pos.side_to_move()) as f32);
        }
        let value = self.get(&child)?.value;
        Some(if same_side { value } else { -value })
    }

    /// The move to play from the book, or `None` to search: when `pos` is not in the book,
    /// or when a move the book has not yet followed looks better than every book move (the
    /// search should find it). With `random` > 0, a move is drawn among the book moves
    /// within `random` discs of the best, with weights falling linearly with the loss
    /// (1 for the best, near 0 at the edge), so that games vary at a bounded cost.
    pub fn choose(&self, pos: &Position, random: f32, rng: &mut Rng) -> Option<BookChoice> {
        let moves = self.moves(pos)?;
        let best = moves.first()?;
        if !best.in_book {
            return None;
        }
        let margin = random.max(0.0);
        let candidates: Vec<(BookMove, f64)> = moves
            .iter()
            .filter(|m| m.in_book && best.value - m.value <= margin)
            .map(|m| {
                let loss = f64::from(best.value - m.value);
                (*m, 1.0 - loss / (f64::from(margin) + 1.0))
            })
            .collect();
        let total: f64 = candidates.iter().map(|(_, w)| w).sum();
        let mut draw = rng.unit() * total;
        let mut chosen = candidates[0].0;
        for (m, weight) in &candidates {
            if draw < *weight {
                chosen = *m;
                break;
            }
            draw -= weight;
        }
        Some(BookChoice {
            mv: chosen.mv,
            value: chosen.value,
            moves,
        })
    }
}

/// The position a book keeps after `mv`: the child, or the position after the child's
/// pass when its side has no move (a book position always has one), and whether the side
/// to move is the same as in `pos` (it is after a pass).
pub fn next_book_position(pos: &Position, mv: Move) -> (Position, bool) {
    let child = pos.play_unchecked(mv);
    if child.must_pass() && !child.is_game_over() {
        (child.play_unchecked(Move::Pass), true)
    } else {
        (child, false)
    }
}

fn describe(size: BoardSize, variant: Variant) -> String {
    format!("{n}x{n} {}", variant.name(), n = size.n())
}

#[cfg(test)]
mod tests;
