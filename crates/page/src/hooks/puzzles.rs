//! Puzzle mode's side effects: the player's puzzle record in local storage (its own key,
//! apart from the game's save), a board's puzzle file fetched when Puzzle mode first needs
//! it, and a reviewed game's worst moves proven into the player's own puzzles by a worker.

use super::fetch::fetch_bytes;
use super::persistence::storage;
use super::PoolHandle;
use crate::puzzles::mistakes::{worst_moves, PROVE_NODES};
use crate::puzzles::record::{
    fresh_start_notice, PuzzleRecord, StoredPuzzle, ThemeChoice, PUZZLE_STORAGE_KEY,
};
use crate::review::Reviews;
use crate::state::Seats;
use engine::puzzles::PuzzleSet;
use othello::{BoardSize, Game, Position};
use protocol::{PuzzleAsk, PuzzleReply};
use std::rc::Rc;
use yew::prelude::*;

/// Where an unreadable record is kept, since the fresh record's first save overwrites it.
const UNREADABLE_RECORD_KEY: &str = "othello-zero/puzzles-v1-unreadable";

/// The player's record and the last rating change a first try made (the puzzle's id, the
/// rating before and after), as one reducer, so that answers arriving from the workers
/// never act on a stale copy.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordModel {
    pub record: PuzzleRecord,
    pub last_change: Option<(String, f64, f64)>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum RecordAction {
    FirstTry {
        id: String,
        shipped: u16,
        solved: bool,
    },
    Theme(ThemeChoice),
    AddMistakes(Vec<StoredPuzzle>),
}

impl Reducible for RecordModel {
    type Action = RecordAction;

    fn reduce(self: Rc<Self>, action: RecordAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            RecordAction::FirstTry {
                id,
                shipped,
                solved,
            } => {
                if let Some((before, after)) = next.record.first_try(&id, shipped, solved) {
                    next.last_change = Some((id, before, after));
                }
            }
            RecordAction::Theme(theme) => next.record.theme = theme,
            RecordAction::AddMistakes(found) => {
                next.record.add_mistakes(found);
            }
        }
        Rc::new(next)
    }
}

/// The player's record as the last visit left it, saved after every change; and, when the
/// stored one could not be read, what to tell the player (the record starts afresh, the
/// unreadable text is kept aside, and the game's save is never touched).
#[hook]
pub fn use_puzzle_record() -> (UseReducerHandle<RecordModel>, Option<String>) {
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

/// A board's puzzle file: not asked yet, on its way, read (with its size in bytes and the
/// milliseconds from the request to the set being read), or why Puzzle mode cannot use it.
#[derive(Clone, Debug, PartialEq)]
pub enum PuzzleFile {
    NotAsked,
    Loading,
    Ready {
        set: Rc<PuzzleSet>,
        bytes: usize,
        millis: f64,
    },
    Failed(String),
}

/// The file of `size`'s puzzles, served beside the page like the networks
/// (`puzzles/puzzles-8x8.bin`) and read by `engine::puzzles` on the page, which picks
/// puzzles by rating and theme among all of them; fetched once `wanted`, and again only
/// for another board.
#[hook]
pub fn use_puzzle_file(size: BoardSize, wanted: bool) -> UseStateHandle<PuzzleFile> {
    let file = use_state(|| PuzzleFile::NotAsked);
    {
        let file = file.clone();
        use_effect_with((size, wanted), move |&(size, wanted)| {
            let have = matches!(&*file, PuzzleFile::Ready { set, .. } if set.size == size);
            if wanted && !have {
                file.set(PuzzleFile::Loading);
                wasm_bindgen_futures::spawn_local(async move {
                    file.set(fetch_puzzles(size).await);
                });
            }
        });
    }
    file
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

async fn fetch_puzzles(size: BoardSize) -> PuzzleFile {
    let started = now_ms();
    let n = size.n();
    let url = format!("puzzles/puzzles-{n}x{n}.bin");
    let bytes = match fetch_bytes(&url).await {
        Ok(bytes) => bytes,
        Err(e) => return PuzzleFile::Failed(format!("the puzzle file could not be fetched ({e})")),
    };
    match PuzzleSet::from_bytes(&bytes) {
        Ok(set) if set.size == size => PuzzleFile::Ready {
            set: Rc::new(set),
            bytes: bytes.len(),
            millis: now_ms() - started,
        },
        Ok(_) => PuzzleFile::Failed(format!("{url} holds another board's puzzles")),
        Err(e) => PuzzleFile::Failed(format!("{url} is damaged: {e}")),
    }
}

/// A solve for Puzzle mode: the position, what to find, the node budget, and who hears it.
#[derive(Clone)]
pub struct SolveAsk {
    pub position: Position,
    pub ask: PuzzleAsk,
    pub max_nodes: u64,
    pub answer: Callback<PuzzleReply>,
}

/// Sends Puzzle mode's solves to the pool (one of its workers).
pub fn solve_callback(pool: &PoolHandle) -> Callback<SolveAsk> {
    let pool = pool.clone();
    Callback::from(move |ask: SolveAsk| match pool.borrow().as_ref() {
        Some(p) => {
            let answer = ask.answer.clone();
            p.borrow_mut().solve_puzzle(
                &ask.position,
                ask.ask,
                ask.max_nodes,
                Box::new(move |reply| answer.emit(reply)),
            );
        }
        None => ask.answer.emit(PuzzleReply::Failed(
            "the search workers have not started".to_owned(),
        )),
    })
}

/// After a review of the player's game, its worst moves (`puzzles::mistakes`) are sent to
/// a worker to prove; each proven one becomes a puzzle of the theme "Mistakes from your reviewed games". A game
/// is looked at once a page visit (by its last position and length).
#[hook]
pub fn use_mistake_finder(
    solve: Callback<SolveAsk>,
    game: &Game,
    seats: Seats,
    reviews: &Reviews,
    reviewing: bool,
    record: UseReducerDispatcher<RecordModel>,
) {
    let done = use_mut_ref(std::collections::HashSet::<(u64, usize)>::new);
    let of_game = reviews.of_game(game);
    let complete = !reviewing && !of_game.is_empty() && of_game.iter().all(Option::is_some);
    let key = (game.position().hash(), game.moves().len());
    use_effect_with((complete, key), {
        let game = game.clone();
        move |&(complete, key)| {
            if !complete || !done.borrow_mut().insert(key) {
                return;
            }
            let mine = move |color| match seats {
                Seats::Human(c) => c == color,
                Seats::Analysis => true,
                Seats::AgentVsAgent => false,
            };
            let numbers = crate::format::move_numbers(game.moves());
            for mistake in worst_moves(&game, &of_game, mine) {
                let from = mistake.from_words(numbers.get(mistake.ply).copied().flatten());
                let (record, position, played) = (record.clone(), mistake.position, mistake.played);
                let answer = Callback::from(move |reply: PuzzleReply| {
                    let PuzzleReply::Proven(Some(found)) = reply else {
                        return;
                    };
                    if found.answer == played {
                        return;
                    }
                    if let Some(stored) = StoredPuzzle::from_found(&position, &found, from.clone())
                    {
                        record.dispatch(RecordAction::AddMistakes(vec![stored]));
                    }
                });
                solve.emit(SolveAsk {
                    position,
                    ask: PuzzleAsk::Prove,
                    max_nodes: PROVE_NODES,
                    answer,
                });
            }
        }
    });
}
