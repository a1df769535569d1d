//! What Puzzle mode does besides drawing, each effect a hook: the first puzzle once the
//! board's file is read, the solver asked whenever the session waits on it, the line
//! played out move by move, and the address naming the puzzle on the board. The room's
//! effects act only while the room is open, as they did when they lived in it.

use super::file::PuzzleFile;
use super::next::linked_puzzle;
use crate::hooks::{set_fragment, Command, Gateway, SolveAsk};
use crate::puzzles::link;
use crate::puzzles::record::{RecordModel, ThemeChoice};
use crate::puzzles::session::{Session, SessionAction};
use othello::BoardSize;
use protocol::{PuzzleAsk, PuzzleReply};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The most positions a solve of a shipped puzzle's line may visit: far more than any of
/// them needs (at most 16 empties), so it only stops a runaway.
const LINE_NODES: u64 = 400_000_000;
/// How long each move of a line stays before the next is played on the board.
const STEP_MS: u32 = 700;

/// What choosing the first puzzle needs.
pub(super) struct FirstPuzzle {
    pub open: bool,
    pub size: BoardSize,
    pub file: PuzzleFile,
    pub session: UseReducerHandle<Session>,
    pub next: Callback<Option<ThemeChoice>>,
    pub record: Rc<RecordModel>,
    /// The puzzle a link (or a reload of one) named, taken when the file is read.
    pub linked: Rc<RefCell<Option<String>>>,
    /// Why the linked puzzle is not here.
    pub note: UseStateHandle<Option<String>>,
}

/// Once the room is open and the board's file read: the linked puzzle (once), else the
/// puzzle on the board stays (the room was left and entered again), else one near the
/// player's rating.
#[hook]
pub(super) fn use_first_puzzle(first: FirstPuzzle) {
    let ready = first.file.set_for(first.size).is_some();
    use_effect_with((first.open, ready, first.size), move |&(open, _, size)| {
        let Some(set) = first.file.set_for(size).filter(|_| open) else {
            return;
        };
        let taken = first.linked.borrow_mut().take();
        if let Some(id) = taken {
            match linked_puzzle(&id, set, size, &first.record.record) {
                Some(shown) => first.session.dispatch(SessionAction::Show(shown)),
                None => {
                    first.note.set(Some(format!(
                        "The puzzle {id} is not here: a player's own puzzle lives only in \
                         the browser that found it."
                    )));
                    first.next.emit(None);
                }
            }
            return;
        }
        let on_board = first
            .session
            .shown
            .as_ref()
            .is_some_and(|s| s.puzzle.position.size() == size);
        if !on_board {
            first.next.emit(None);
        }
    });
}

/// While the room is open, the address names the puzzle on the board (`#puzzle=8x8-61`),
/// so that a reload or a bookmark opens it again.
#[hook]
pub(super) fn use_address(session: &Session, open: bool) {
    let id = session.shown.as_ref().map(|s| s.id.clone());
    use_effect_with((open, id), |(open, id)| {
        if let (true, Some(id)) = (open, id) {
            set_fragment(&link::write(id));
        }
    });
}

/// Asks a worker for what the session waits on: a line after a move, or the solver's
/// reply in a play-out.
#[hook]
pub(super) fn use_solver(session: &UseReducerHandle<Session>, gateway: &Gateway) {
    let wanted = session.wanted();
    let (dispatch, gateway) = (session.dispatcher(), gateway.clone());
    use_effect_with(wanted, move |wanted| {
        if let Some((generation, position)) = *wanted {
            let answer = Callback::from(move |reply: PuzzleReply| {
                let line = match reply {
                    PuzzleReply::Line(line) => Ok(line),
                    PuzzleReply::OutOfReach => {
                        Err("the solver needs longer than the page allows".to_owned())
                    }
                    PuzzleReply::Failed(e) => Err(e),
                    PuzzleReply::Proven(_) => Err("the worker answered another question".into()),
                };
                dispatch.dispatch(SessionAction::Solved(generation, line));
            });
            gateway.send(Command::Solve(SolveAsk {
                position,
                ask: PuzzleAsk::Line,
                max_nodes: LINE_NODES,
                answer,
            }));
        }
    });
}

/// While the room is open, plays the line out on the board, a move every [`STEP_MS`].
#[hook]
pub(super) fn use_line_steps(session: &UseReducerHandle<Session>, open: bool) {
    let key = (
        session.generation,
        session.step,
        open && session.more_to_show(),
    );
    let dispatch = session.dispatcher();
    use_effect_with(key, move |&(_, _, more)| {
        let timer = more.then(|| {
            gloo_timers::callback::Timeout::new(STEP_MS, move || {
                dispatch.dispatch(SessionAction::Step);
            })
        });
        move || drop(timer)
    });
}
