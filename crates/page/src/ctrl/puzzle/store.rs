//! Puzzle mode's state as Yew holds it: the player's record, kept in local storage under
//! its own key (apart from the game's save), and the reducer of the puzzle on the board.

use crate::hooks::storage;
use crate::puzzles::record::{
    fresh_start_notice, PuzzleRecord, RecordAction, RecordModel, PUZZLE_STORAGE_KEY,
};
use crate::puzzles::session::{Session, SessionAction};
use std::rc::Rc;
use yew::prelude::*;

/// Where an unreadable record is kept, since the fresh record's first save overwrites it.
const UNREADABLE_RECORD_KEY: &str = "othello-zero/puzzles-v1-unreadable";

impl Reducible for RecordModel {
    type Action = RecordAction;

    fn reduce(self: Rc<Self>, action: RecordAction) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}

impl Reducible for Session {
    type Action = SessionAction;

    fn reduce(self: Rc<Self>, action: SessionAction) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}

/// The player's record as the last visit left it, saved after every change; and, when the
/// stored one could not be read, what to tell the player (the record starts afresh, the
/// unreadable text is kept aside, and the game's save is never touched).
#[hook]
pub(super) fn use_puzzle_record() -> (UseReducerHandle<RecordModel>, Option<String>) {
    let loaded = use_memo((), |_| {
        let store = storage();
        let text = store
            .as_ref()
            .and_then(|s| s.get_item(PUZZLE_STORAGE_KEY).ok().flatten());
        match text.map(|t| (PuzzleRecord::load(&t), t)) {
            None => (PuzzleRecord::default(), None),
            Some((Ok(record), _)) => (record, None),
            Some((Err(e), text)) => {
                if let Some(s) = &store {
                    let _ = s.set_item(UNREADABLE_RECORD_KEY, &text);
                }
                (PuzzleRecord::default(), Some(fresh_start_notice(&e)))
            }
        }
    });
    let model = use_reducer({
        let loaded = loaded.clone();
        move || RecordModel {
            record: loaded.0.clone(),
            last_change: None,
        }
    });
    use_effect_with(model.record.clone(), |record| {
        if let Some(s) = storage() {
            let _ = s.set_item(PUZZLE_STORAGE_KEY, &record.to_json());
        }
    });
    (model, loaded.1.clone())
}
