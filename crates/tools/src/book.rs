//! Growing an opening book by drop-out expansion, as Edax's book learning (`src/book.c`,
//! `book_deviate`) and Egaroucid's book deviation (`src/engine/book_enlarge.hpp`,
//! `get_book_deviate_todo` and `expand_leaf`) grow theirs: from the book's root positions,
//! follow every move whose value is within a margin of its position's best (and whose line
//! has lost no more than a total margin), and search, at a deep budget, the positions those
//! lines reach that the book does not hold yet, the cheapest drops first; then back the
//! values up by negamax and go again. Each round's positions are independent, so they can
//! be searched by threads here or by shards on a cluster (`othello book todo`, `search`,
//! `merge`; `train/book.py` drives them on Ray).
//!
//! Nothing is searched twice: a position enters the book when its search ends, and the
//! next round's list leaves out every position the book holds. The book file is rewritten
//! (atomically) after every search, so a killed build loses at most the searches running.
//!
//! A small book grown from the 4x4 start, whose positions are all within the agent's exact
//! reach, so every entry is solved:
//!
//! ```
//! use engine::book::Book;
//! use engine::othello::{BoardSize, Position, Variant};
//! use engine::{NoModels, PlayerSpec};
//! use tools::book::{grow, search_position, stats, todo, GrowthSettings};
//!
//! let start = Position::start(BoardSize::Four, Variant::Standard);
//! let mut book = Book::new(BoardSize::Four, Variant::Standard);
//! let spec: PlayerSpec = "mcts".parse()?;
//! let mut agent = spec.mcts_player(1, &NoModels)?;
//! let settings = GrowthSettings {
//!     depth: 3,
//!     ..GrowthSettings::default()
//! };
//! // Round after round, until the book holds every line its settings follow.
//! let mut added = 0;
//! loop {
//!     let round = grow(
//!         &mut book,
//!         &[start],
//!         &settings,
//!         20,
//!         |pos| search_position(&mut agent, pos, 50),
//!         |_book, _searched| Ok(()), // where `othello book` writes the file
//!     )?;
//!     if round == 0 {
//!         break;
//!     }
//!     added += round;
//! }
//! assert!(added > 1);
//! assert_eq!(stats(&book).solved, added);
//! // The start's moves, best first, with values in discs.
//! let moves = book.moves(&start).expect("the start is in the book");
//! assert!(moves.windows(2).all(|w| w[0].value >= w[1].value));
//! // Grown to its settings: no position is left to search.
//! assert!(todo(&book, &[start], &settings, 20).is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use engine::book::{next_book_position, Book, BookEntry, BookError, BookKey, Origin};
use engine::evaluator::Evaluator;
use engine::report::SearchInfo;
use engine::{Agent, Budget, EvalError, Mcts};
use othello::{Color, Move, Position};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashSet};
use std::io;
use std::path::Path;

/// Reads a book file: one message for whatever is wrong with it.
pub fn read_book(path: &Path) -> Result<Book, BookError> {
    let bytes = std::fs::read(path).map_err(|e| BookError::Unreadable(e.to_string()))?;
    Book::from_bytes(&bytes)
}

/// Writes a book file through a temporary name, so that a kill mid-write leaves the old
/// book whole.
pub fn write_book(path: &Path, book: &Book) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".partial");
    std::fs::write(&tmp, book.to_bytes())?;
    std::fs::rename(&tmp, path)
}

/// Which lines a round deepens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GrowthSettings {
    /// No position deeper than this many moves after the start enters the book.
    pub depth: u32,
    /// A move is followed (or its position searched) when its value is within this many
    /// discs of its position's best move.
    pub margin: f32,
    /// ... and the line's moves together lose no more than this.
    pub total_margin: f32,
}

impl Default for GrowthSettings {
    fn default() -> GrowthSettings {
        GrowthSettings {
            depth: 20,
            margin: 4.0,
            total_margin: 8.0,
        }
    }
}

/// A position to search next and what its line has lost to get there; its key is worked
/// out once, as the heap compares it many times.
#[derive(Clone, Copy, Debug)]
struct Frontier {
    pos: Position,
    key: BookKey,
    loss: f32,
}

impl Frontier {
    fn new(pos: Position, loss: f32) -> Frontier {
        Frontier {
            pos,
            key: BookKey::of(&pos).0,
            loss,
        }
    }
}

impl PartialEq for Frontier {
    fn eq(&self, other: &Frontier) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Frontier {}

impl PartialOrd for Frontier {
    fn partial_cmp(&self, other: &Frontier) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Frontier {
    /// The heap pops the smallest loss first; ties by key, so a list is reproducible.
    fn cmp(&self, other: &Frontier) -> Ordering {
        other
            .loss
            .total_cmp(&self.loss)
            .then_with(|| other.key.cmp(&self.key))
    }
}

/// The moves a position's depth still allows: plies since the board's start position.
pub fn ply(pos: &Position) -> u32 {
    (pos.size().squares() - pos.empty_count()).saturating_sub(4)
}

/// Up to `count` positions to search next, the cheapest drops first: the roots that are
/// not in the book yet, then the positions the book's near-best lines reach and it does
/// not hold. Walks the book best-first by the loss of the line, so each position is
/// reached by its cheapest line.
pub fn todo(
    book: &Book,
    roots: &[Position],
    settings: &GrowthSettings,
    count: usize,
) -> Vec<Position> {
    let mut out = Vec::new();
    let mut listed = HashSet::new();
    let mut seen = HashSet::new();
    let mut heap: BinaryHeap<Frontier> = roots.iter().map(|&pos| Frontier::new(pos, 0.0)).collect();
    while let Some(Frontier { pos, key, loss }) = heap.pop() {
        if out.len() >= count {
            break;
        }
        if book.get_keyed(&key).is_none() {
            if ply(&pos) <= settings.depth && listed.insert(key) {
                out.push(pos);
            }
            continue;
        }
        if !seen.insert(key) {
            continue;
        }
        let Some(moves) = book.moves(&pos) else {
            continue;
        };
        let Some(best) = moves.first().map(|m| m.value) else {
            continue;
        };
        for m in moves {
            let step = best - m.value;
            if step > settings.margin || loss + step > settings.total_margin {
                continue;
            }
            let (child, _) = next_book_position(&pos, m.mv);
            if child.is_game_over() || ply(&child) > settings.depth {
                continue;
            }
            heap.push(Frontier::new(child, loss + step));
        }
    }
    out
}

/// The book entry of one search: the position's value and every move the search looked at
/// enough to judge. Positions the agent's root rule solves exactly get the margins of its
/// root solver instead ([`Agent::exact_root_margins`]: the search driver's rule and table,
/// one for every caller).
pub fn search_position<E: Evaluator + Send>(
    agent: &mut Mcts<E>,
    pos: &Position,
    simulations: u64,
) -> Result<BookEntry, EvalError> {
    if let Some(margins) = agent.exact_root_margins(pos) {
        let value = margins.first().map_or(0, |&(_, m)| m) as f32;
        return Ok(BookEntry {
            value,
            backed_up: false,
            origin: Origin::Solved,
            budget: 0,
            games: 0,
            estimates: margins.into_iter().map(|(mv, m)| (mv, m as f32)).collect(),
        });
    }
    // A fresh tree. The evaluation cache stays: it makes a build several times faster,
    // and it is also why an entry can differ a little with what the agent searched before
    // (a cached leaf changes how the search's batches fill); docs/book.md says so.
    agent.driver_mut().clear();
    let info = agent.search(pos, &Budget::simulations(simulations), &mut |_| true)?;
    Ok(entry_from_search(&info, simulations))
}

/// Moves with fewer visits than this share of the search are too little looked at for
/// their value to mean anything.
const MIN_VISIT_SHARE: f64 = 0.01;

/// A search's report as a book entry: values in discs (the network's score estimate; for
/// a network without a score head, its value times 32 discs, a rough stand-in).
pub fn entry_from_search(info: &SearchInfo, simulations: u64) -> BookEntry {
    let discs = |score: Option<f32>, q: f32| score.unwrap_or(q * 32.0).clamp(-64.0, 64.0);
    let total: u64 = info.moves.iter().map(|m| u64::from(m.visits)).sum();
    let floor = ((total as f64 * MIN_VISIT_SHARE).ceil() as u64).max(2);
    let mut estimates: Vec<(Move, f32)> = info
        .moves
        .iter()
        .filter(|m| u64::from(m.visits) >= floor || m.proof.is_some())
        .map(|m| (m.mv, discs(m.score, m.q)))
        .collect();
    estimates.sort_by(|a, b| b.1.total_cmp(&a.1));
    BookEntry {
        value: discs(info.score, info.value),
        backed_up: false,
        origin: Origin::Searched,
        budget: u32::try_from(simulations).unwrap_or(u32::MAX),
        games: 0,
        estimates,
    }
}

/// Negamax over the whole book: every position that has a child in the book takes the best
/// of its moves' values (children's values, and the search's estimates for the moves not
/// followed yet); the others keep their own search's value. Children have more discs than
/// their parents, so one pass from the fullest boards down settles every value.
pub fn back_up(book: &mut Book) {
    let mut keys: Vec<BookKey> = book.entries().map(|(k, _)| *k).collect();
    keys.sort_by_key(|k| std::cmp::Reverse((k.player | k.opponent).count_ones()));
    for key in keys {
        let Some(pos) = position_of(book, key) else {
            continue;
        };
        let Some(moves) = book.moves(&pos) else {
            continue;
        };
        let has_child = moves.iter().any(|m| m.in_book);
        let best = moves.first().map(|m| m.value);
        if let (true, Some(best), Some(entry)) = (has_child, best, book.get_keyed_mut(&key)) {
            entry.value = best;
            entry.backed_up = true;
        }
    }
}

/// The position a key stands for (with Black to move: the book's values do not depend on
/// the colour).
pub fn position_of(book: &Book, key: BookKey) -> Option<Position> {
    Position::from_bitboards(
        othello::Bitboard(key.player),
        othello::Bitboard(key.opponent),
        Color::Black,
        book.size(),
        book.variant(),
    )
    .ok()
}

/// Adds `other`'s positions to `book` (where both hold one, the deeper search's entry, with
/// the games of both), then backs the values up. Returns the positions added.
pub fn merge(book: &mut Book, other: &Book) -> Result<usize, BookError> {
    other.check_game(book.size(), book.variant())?;
    let mut added = 0;
    for (key, entry) in other.entries() {
        match book.get_keyed(key).cloned() {
            None => {
                book.insert_keyed(*key, entry.clone());
                added += 1;
            }
            Some(mine) => {
                let games = mine.games.saturating_add(entry.games);
                let mut kept = if deeper(entry, &mine) {
                    entry.clone()
                } else {
                    mine
                };
                kept.games = games;
                book.insert_keyed(*key, kept);
            }
        }
    }
    back_up(book);
    Ok(added)
}

/// A solve beats any search; a bigger search beats a smaller one.
fn deeper(a: &BookEntry, b: &BookEntry) -> bool {
    let rank = |e: &BookEntry| (e.origin == Origin::Solved, e.budget);
    rank(a) > rank(b)
}

/// One round of growth: searches the positions [`todo`] lists (at most `count`), each
/// entering the book as its search ends, with the values backed up and `saved` called after
/// each (to write the file). Returns the positions added; 0 when the book is complete to
/// its settings.
pub fn grow<E>(
    book: &mut Book,
    roots: &[Position],
    settings: &GrowthSettings,
    count: usize,
    mut search: impl FnMut(&Position) -> Result<BookEntry, E>,
    mut saved: impl FnMut(&Book, &Position) -> Result<(), E>,
) -> Result<usize, E> {
    let list = todo(book, roots, settings, count);
    for pos in &list {
        let entry = search(pos)?;
        book.insert(pos, entry);
        back_up(book);
        saved(book, pos)?;
    }
    Ok(list.len())
}

/// Counts a game through every book position it reaches (the `games` of `othello book`'s
/// input lists).
pub fn count_game(book: &mut Book, positions: &[Position]) {
    let mut counted = HashSet::new();
    for pos in positions {
        let key = BookKey::of(pos).0;
        if counted.insert(key) {
            if let Some(entry) = book.get_mut(pos) {
                entry.games = entry.games.saturating_add(1);
            }
        }
    }
}

/// What `othello book stats` prints: the size, the deepest line, and the searches behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct BookStats {
    pub positions: usize,
    pub solved: usize,
    pub backed_up: usize,
    /// Positions by their ply (moves after the start).
    pub by_ply: Vec<usize>,
    pub simulations: u64,
}

pub fn stats(book: &Book) -> BookStats {
    let mut by_ply = Vec::new();
    let (mut solved, mut backed_up, mut simulations) = (0, 0, 0u64);
    for (key, entry) in book.entries() {
        if let Some(pos) = position_of(book, *key) {
            let ply = ply(&pos) as usize;
            if by_ply.len() <= ply {
                by_ply.resize(ply + 1, 0);
            }
            by_ply[ply] += 1;
        }
        solved += usize::from(entry.origin == Origin::Solved);
        backed_up += usize::from(entry.backed_up);
        simulations += u64::from(entry.budget);
    }
    BookStats {
        positions: book.len(),
        solved,
        backed_up,
        by_ply,
        simulations,
    }
}

#[cfg(test)]
mod tests;
