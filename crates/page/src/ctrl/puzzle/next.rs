//! Which puzzle the board shows next: one near the player's rating in the theme chosen
//! (`puzzles::pick`), among the shipped set or the player's own mistakes, or the one a
//! link names.

use super::file::PuzzleFile;
use crate::puzzles::pick::{candidates, mistake_candidates, pick};
use crate::puzzles::record::{
    parse_shipped_id, shipped_id, PuzzleRecord, RecordModel, ThemeChoice,
};
use crate::puzzles::session::{Session, SessionAction, Shown};
use engine::puzzles::PuzzleSet;
use othello::BoardSize;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// Picks and shows the next puzzle of a theme (`None`: the record's theme), near the
/// player's rating; `picks` counts the picks, to vary the seed.
pub(super) fn next_puzzle(
    model: Rc<RecordModel>,
    file: PuzzleFile,
    session: UseReducerDispatcher<Session>,
    picks: Rc<RefCell<u64>>,
    size: BoardSize,
) -> Callback<Option<ThemeChoice>> {
    Callback::from(move |theme: Option<ThemeChoice>| {
        let record = &model.record;
        let theme = theme.unwrap_or(record.theme);
        let seed = {
            let mut n = picks.borrow_mut();
            *n += 1;
            engine::rng::splitmix64(js_sys::Date::now() as u64 ^ *n)
        };
        let shown = if theme == ThemeChoice::Mistakes {
            let found = mistake_candidates(record);
            pick(&found, record.player.rating, &record.tried, seed)
                .and_then(|i| mine(record, &found[i].id))
        } else {
            let PuzzleFile::Ready { set, .. } = &file else {
                return;
            };
            let found = candidates(&set.puzzles, size, record, theme);
            pick(&found, record.player.rating, &record.tried, seed)
                .and_then(|i| parse_shipped_id(&found[i].id))
                .and_then(|(_, index)| shipped(set, size, index))
        };
        match shown {
            Some(shown) => session.dispatch(SessionAction::Show(shown)),
            None => session.dispatch(SessionAction::Clear),
        }
    })
}

fn shipped(set: &PuzzleSet, size: BoardSize, index: usize) -> Option<Shown> {
    set.puzzles.get(index).map(|puzzle| Shown {
        id: shipped_id(size, index),
        puzzle: *puzzle,
        from: None,
    })
}

/// The puzzle a link names: a shipped one of this board, or one of the player's own.
pub(super) fn linked_puzzle(
    id: &str,
    set: &PuzzleSet,
    size: BoardSize,
    record: &PuzzleRecord,
) -> Option<Shown> {
    if let Some((n, index)) = parse_shipped_id(id) {
        return (n == size).then(|| shipped(set, size, index)).flatten();
    }
    mine(record, id)
}

/// One of the player's own puzzles, by its id, with where it came from.
fn mine(record: &PuzzleRecord, id: &str) -> Option<Shown> {
    let stored = record.mistakes.iter().find(|m| m.id == id)?;
    Some(Shown {
        id: stored.id.clone(),
        puzzle: stored.to_puzzle().ok()?,
        from: Some(stored.from.clone()),
    })
}
