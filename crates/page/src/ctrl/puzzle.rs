//! Puzzle mode's controller (docs/puzzles.md, "Puzzle mode"): all of its state and its
//! effects, returned as plain values and callbacks ([`PuzzleCtrl`]) for the room
//! (`app/puzzle_room.rs`) to draw, as Lichess's puzzle front end keeps `ctrl` apart from
//! `view`. The state is the player's record (`store`, kept across reloads apart from the
//! game), the puzzle on the board (`puzzles::session`), the board's puzzle file (`file`),
//! which room is open, and what to tell the player; it lives here rather than in the room,
//! so that "Back to the game" and back finds the puzzle, its stage, the board and the file
//! as they were. The effects: the next puzzle (`next`), the room's (`effects`), and the
//! proving of a reviewed game's mistakes (`mistakes`), which runs whichever room is open.

mod effects;
mod file;
mod mistakes;
mod next;
mod store;

pub use file::PuzzleFile;

use crate::hooks::{set_fragment, GameModel, Gateway};
use crate::puzzles::record::{parse_shipped_id, RecordAction, RecordModel, ThemeChoice};
use crate::puzzles::session::{Session, SessionAction, Stage, Try};
use crate::view::View;
use effects::{use_address, use_first_puzzle, use_line_steps, use_solver, FirstPuzzle};
use mistakes::use_mistake_finder;
use othello::{BoardSize, Move, Square};
use std::rc::Rc;
use yew::prelude::*;

/// Puzzle mode as its room draws it: values, and the callbacks that change them.
#[derive(Clone, PartialEq)]
pub struct PuzzleCtrl {
    /// Whether the page shows Puzzle mode rather than the game.
    pub open: bool,
    pub record: Rc<RecordModel>,
    pub session: Rc<Session>,
    /// The board the puzzles are for.
    pub size: BoardSize,
    pub file: PuzzleFile,
    /// Why the puzzle a link named is not here.
    pub link_note: Option<String>,
    /// Why the stored record could not be read, until the player dismisses it.
    pub notice: Option<String>,
    /// "Next puzzle" skips a puzzle whose first try is still open: it counts as a miss, as
    /// Lichess counts a puzzle given up.
    pub skip_is_miss: bool,
    /// How many reviewed games' mistakes were looked at this visit (for what the mistakes
    /// theme says when it has no puzzle).
    pub mistakes_looked: usize,
    pub on_open: Callback<()>,
    pub on_close: Callback<()>,
    pub on_dismiss: Callback<()>,
    /// A click on the board: a try (the ratings move on a first try only), or a
    /// play-out's move.
    pub on_play: Callback<Square>,
    /// Try again, show the answer, play it out.
    pub on_act: Callback<SessionAction>,
    pub on_next: Callback<()>,
    pub on_theme: Callback<ThemeChoice>,
    pub on_size: Callback<BoardSize>,
}

/// Puzzle mode's state and effects. `linked` is the puzzle the page's address named: the
/// page opens in Puzzle mode on it. `game` and `view` are the game's, whose reviewed
/// mistakes become the player's own puzzles.
#[hook]
pub fn use_puzzle_ctrl(
    gateway: &Gateway,
    game: &GameModel,
    view: &View,
    linked: Option<String>,
) -> PuzzleCtrl {
    let (record, stored_notice) = store::use_puzzle_record();
    let notice = use_state(|| stored_notice);
    let open = use_state(|| linked.is_some());
    let session = use_reducer(Session::default);
    let size = use_state(|| {
        let linked_size = linked.as_deref().and_then(parse_shipped_id);
        linked_size.map_or(BoardSize::Eight, |(size, _)| size)
    });
    let file = file::use_puzzle_file(*size, *open);
    let linked = use_mut_ref(move || linked);
    let link_note = use_state(|| None::<String>);
    let picks = use_mut_ref(|| 0u64);
    let record_now = Rc::new((*record).clone());
    let next = next::next_puzzle(
        record_now.clone(),
        (*file).clone(),
        session.dispatcher(),
        picks,
        *size,
    );
    use_first_puzzle(FirstPuzzle {
        open: *open,
        size: *size,
        file: (*file).clone(),
        session: session.clone(),
        next: next.clone(),
        record: record_now.clone(),
        linked,
        note: link_note.clone(),
    });
    use_solver(&session, gateway);
    use_line_steps(&session, *open);
    use_address(&session, *open);
    let mistakes_looked = use_mistake_finder(gateway, game, view, record.dispatcher());
    let session_now = Rc::new((*session).clone());
    let asks = Asks {
        record: record.dispatcher(),
        session: session.dispatcher(),
        next,
    };
    PuzzleCtrl {
        open: *open,
        size: *size,
        file: (*file).clone(),
        link_note: (*link_note).clone(),
        notice: (*notice).clone(),
        skip_is_miss: skip(&session_now, &record_now).is_some(),
        mistakes_looked,
        on_open: set(&open, |()| true),
        on_close: close(&open, &link_note),
        on_dismiss: set(&notice, |()| None),
        on_play: asks.play(&session_now),
        on_act: asks.act(),
        on_next: asks.next(skip(&session_now, &record_now)),
        on_theme: asks.theme(&session_now),
        on_size: set(&size, |n| n),
        record: record_now,
        session: session_now,
    }
}

/// A callback that sets `state` to what `value` makes of its argument.
fn set<T: 'static, A: 'static>(
    state: &UseStateHandle<T>,
    value: impl Fn(A) -> T + 'static,
) -> Callback<A> {
    let setter = state.setter();
    Callback::from(move |a| setter.set(value(a)))
}

/// Back to the game: the game has no link of its own in the address, so a reload goes on
/// with it; a note about a link belongs to the visit it was made in.
fn close(open: &UseStateHandle<bool>, link_note: &UseStateHandle<Option<String>>) -> Callback<()> {
    let (open, link_note) = (open.setter(), link_note.setter());
    Callback::from(move |()| {
        set_fragment("");
        link_note.set(None);
        open.set(false);
    })
}

/// The miss a skip records: the puzzle on the board while its first try is open.
fn skip(session: &Session, model: &RecordModel) -> Option<RecordAction> {
    let shown = session.shown.as_ref()?;
    let open = session.stage == Stage::Solving
        && !session.missed
        && !model.record.tried.contains(&shown.id);
    open.then(|| RecordAction::FirstTry {
        id: shown.id.clone(),
        shipped: shown.puzzle.rating,
        solved: false,
    })
}

/// Where the room's callbacks send what the player does.
struct Asks {
    record: UseReducerDispatcher<RecordModel>,
    session: UseReducerDispatcher<Session>,
    next: Callback<Option<ThemeChoice>>,
}

impl Asks {
    fn play(&self, now: &Rc<Session>) -> Callback<Square> {
        let (now, record, session) = (now.clone(), self.record.clone(), self.session.clone());
        Callback::from(move |sq: Square| {
            let mv = Move::Place(sq);
            if let (Some(Try::First(solved)), Some(shown)) = (now.judge(mv), &now.shown) {
                record.dispatch(RecordAction::FirstTry {
                    id: shown.id.clone(),
                    shipped: shown.puzzle.rating,
                    solved,
                });
            }
            session.dispatch(SessionAction::Play(mv));
        })
    }

    fn act(&self) -> Callback<SessionAction> {
        let session = self.session.clone();
        Callback::from(move |action| session.dispatch(action))
    }

    fn next(&self, skip: Option<RecordAction>) -> Callback<()> {
        let (record, next) = (self.record.clone(), self.next.clone());
        Callback::from(move |()| {
            if let Some(skip) = skip.clone() {
                record.dispatch(skip);
            }
            next.emit(None);
        })
    }

    /// A new theme takes effect at once on a puzzle not yet tried, else from the next one,
    /// so a play-out or a line under way is never dropped.
    fn theme(&self, now: &Session) -> Callback<ThemeChoice> {
        let untouched = now.stage == Stage::Solving && !now.missed;
        let (record, next) = (self.record.clone(), self.next.clone());
        Callback::from(move |theme: ThemeChoice| {
            record.dispatch(RecordAction::Theme(theme));
            if untouched {
                next.emit(Some(theme));
            }
        })
    }
}
