//! Puzzle mode (docs/puzzles.md, "Puzzle mode"): the board with the puzzle, what to find
//! and what the move did, the buttons of each stage, and beside them the player's rating.
//! The game in progress is not touched: this room has its own reducer (`Session`) and
//! the player's record (`RecordModel`), and the App only swaps which room it draws.

use crate::components::{Board, CopyLink, PuzzleRating};
use crate::hooks::{set_fragment, PuzzleFile, RecordAction, RecordModel, SolveAsk};
use crate::puzzles::link;
use crate::puzzles::pick::{candidates, mistake_candidates, pick};
use crate::puzzles::record::{parse_shipped_id, shipped_id, PuzzleRecord, ThemeChoice};
use crate::puzzles::session::{Session, SessionAction, Shown, Stage, Try};
use crate::puzzles::words::status;
use engine::puzzles::PuzzleSet;
use othello::{Bitboard, BoardSize, Move, Square};
use protocol::{PuzzleAsk, PuzzleReply};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The most positions a solve of a shipped puzzle's line may visit: far more than any of
/// them needs (at most 16 empties), so it only stops a runaway.
const LINE_NODES: u64 = 400_000_000;
/// How long each move of a line stays before the next is played on the board.
const STEP_MS: u32 = 700;

/// The room's state lives in the App (`Puzzles`), so that "Back to the game" and back
/// finds the puzzle, its stage, the board and the file as they were.
#[derive(Properties, PartialEq)]
pub struct PuzzleRoomProps {
    pub record: UseReducerHandle<RecordModel>,
    pub on_record: Callback<RecordAction>,
    pub session: UseReducerHandle<Session>,
    pub size: UseStateHandle<BoardSize>,
    pub file: UseStateHandle<PuzzleFile>,
    /// The puzzle a link (or a reload of one) named, taken when the file is read.
    pub linked: Rc<RefCell<Option<String>>>,
    pub on_solve: Callback<SolveAsk>,
    pub on_close: Callback<()>,
}

#[function_component(PuzzleRoom)]
pub fn puzzle_room(props: &PuzzleRoomProps) -> Html {
    let (session, size, file) = (&props.session, &props.size, &props.file);
    let picks = use_mut_ref(|| 0u64);
    let link_note = use_state(|| None::<String>);
    let next = next_puzzle(&props.record, file, session, picks, **size);
    use_first_puzzle(
        &FirstPuzzle {
            file: file.clone(),
            session: session.clone(),
            next: next.clone(),
            record: props.record.clone(),
            linked: props.linked.clone(),
            note: link_note.clone(),
        },
        **size,
    );
    use_solver(session, &props.on_solve);
    use_line_steps(session);
    use_address(session);
    let on_play = play_callback(session, &props.on_record);
    let shown = session.shown.clone();
    let position = session.position();
    let legal = match (&session.stage, position) {
        (Stage::Solving, Some(pos)) => pos.legal_moves(),
        (Stage::PlayOut { waiting: false, .. }, Some(pos)) => pos.legal_moves(),
        _ => Bitboard::EMPTY,
    };
    let (marked, played) = marks(session);
    // A new theme takes effect at once on a puzzle not yet tried, else from the next one,
    // so a play-out or a line under way is never dropped.
    let untouched = session.stage == Stage::Solving && !session.missed;
    let on_theme = {
        let (on_record, next) = (props.on_record.clone(), next.clone());
        Callback::from(move |theme: ThemeChoice| {
            on_record.emit(RecordAction::Theme(theme));
            if untouched {
                next.emit(Some(theme));
            }
        })
    };
    let on_size = {
        let size = size.clone();
        Callback::from(move |n: BoardSize| size.set(n))
    };
    let (bytes, millis) = match &**file {
        PuzzleFile::Ready { bytes, millis, .. } => (bytes.to_string(), format!("{millis:.0}")),
        _ => (String::new(), String::new()),
    };
    let stage = stage_name(&session.stage);
    let board_text = position.map(|p| p.to_board_text()).unwrap_or_default();
    let line_len = session.line_len().to_string();
    html! {
        <section class="puzzles layout" aria-label="Puzzles" id="puzzle-room"
                 data-puzzle-id={shown.as_ref().map(|s| s.id.clone()).unwrap_or_default()}
                 data-stage={stage} data-file-bytes={bytes} data-load-ms={millis} data-board={board_text}
                 data-step={session.step.to_string()} data-line={line_len}>
            <div class="play">
                { file_line(file) }
                if let Some(note) = (*link_note).clone() {
                    <p class="message" id="puzzle-link-note" role="alert">{ note }</p>
                }
                if let (Some(shown), Some(position)) = (shown.clone(), position) {
                    <p class="status puzzle-task" id="puzzle-task" aria-live="polite">{ status(session) }</p>
                    if let Some(from) = shown.from.clone() {
                        <p class="small" id="puzzle-from">{ from }</p>
                    }
                    <Board {position} {legal} last={last_square(session)} flips={Bitboard::EMPTY}
                           flip_class="flip-a" {marked} {played} {on_play} />
                    { buttons(session, &next, &props.record, &props.on_record) }
                } else if matches!(&**file, PuzzleFile::Ready { .. }) {
                    <p class="status" id="puzzle-none">{ none_left(props.record.record.theme) }</p>
                }
            </div>
            <PuzzleRating record={props.record.clone()}
                          puzzle={shown.map(|s| (s.id.clone(), s.puzzle.rating))} size={**size} {on_size} {on_theme}
                          on_close={props.on_close.clone()} />
        </section>
    }
}

/// Why no puzzle is shown, for the theme chosen.
fn none_left(theme: ThemeChoice) -> String {
    if theme == ThemeChoice::Mistakes {
        "No puzzles from your own games yet. Play or load a game, then press Review (below \
         the board once the game has moves): your worst moves near the end, where the solver \
         can prove the one right move, become puzzles here."
            .to_owned()
    } else {
        format!("No puzzles in the theme {} on this board.", theme.label())
    }
}

/// The stage's name, for the tests (`data-stage`).
fn stage_name(stage: &Stage) -> &'static str {
    match stage {
        Stage::Solving => "solving",
        Stage::Solved { .. } => "solved",
        Stage::Refuted { .. } => "refuted",
        Stage::Revealed { .. } => "revealed",
        Stage::PlayOut { .. } => "play-out",
        Stage::PlayedOut { .. } => "played-out",
        Stage::Stuck { .. } => "stuck",
    }
}

/// While the file is on its way, or why Puzzle mode cannot be used: one line.
fn file_line(file: &PuzzleFile) -> Html {
    match file {
        PuzzleFile::NotAsked | PuzzleFile::Loading => {
            html! { <p class="status" id="puzzle-loading">{ "Getting the puzzles…" }</p> }
        }
        PuzzleFile::Failed(why) => html! {
            <p class="message" id="puzzle-unavailable" role="alert">
                { format!("Puzzles are not available: {why}. The game is not affected.") }
            </p>
        },
        PuzzleFile::Ready { .. } => Html::default(),
    }
}

/// Picks and shows the next puzzle of a theme (`None`: the record's theme), near the
/// player's rating, among the shipped set or the player's own mistakes.
fn next_puzzle(
    record: &UseReducerHandle<RecordModel>,
    file: &UseStateHandle<PuzzleFile>,
    session: &UseReducerHandle<Session>,
    picks: Rc<std::cell::RefCell<u64>>,
    size: BoardSize,
) -> Callback<Option<ThemeChoice>> {
    let (record, file, session) = (record.clone(), file.clone(), session.dispatcher());
    Callback::from(move |theme: Option<ThemeChoice>| {
        let record = &record.record;
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
            let PuzzleFile::Ready { set, .. } = &*file else {
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

/// What choosing the first puzzle needs.
struct FirstPuzzle {
    file: UseStateHandle<PuzzleFile>,
    session: UseReducerHandle<Session>,
    next: Callback<Option<ThemeChoice>>,
    record: UseReducerHandle<RecordModel>,
    linked: Rc<RefCell<Option<String>>>,
    note: UseStateHandle<Option<String>>,
}

/// Once the board's file is read: the linked puzzle (once), else the puzzle on the board
/// stays (the room was left and entered again), else one near the player's rating.
#[hook]
fn use_first_puzzle(first: &FirstPuzzle, size: BoardSize) {
    let ready = matches!(&*first.file, PuzzleFile::Ready { set, .. } if set.size == size);
    let FirstPuzzle {
        file,
        session,
        next,
        record,
        linked,
        note,
    } = first;
    let (file, session, next, record, linked, note) = (
        file.clone(),
        session.clone(),
        next.clone(),
        record.clone(),
        linked.clone(),
        note.clone(),
    );
    use_effect_with((ready, size), move |&(ready, size)| {
        if !ready {
            return;
        }
        let PuzzleFile::Ready { set, .. } = &*file else {
            return;
        };
        if let Some(id) = linked.borrow_mut().take() {
            match linked_puzzle(&id, set, size, &record) {
                Some(shown) => session.dispatch(SessionAction::Show(shown)),
                None => {
                    note.set(Some(format!(
                        "The puzzle {id} is not here: a player's own puzzle lives only in \
                         the browser that found it."
                    )));
                    next.emit(None);
                }
            }
            return;
        }
        let on_board = session
            .shown
            .as_ref()
            .is_some_and(|s| s.puzzle.position.size() == size);
        if !on_board {
            next.emit(None);
        }
    });
}

/// The puzzle a link names: a shipped one of this board, or one of the player's own.
fn linked_puzzle(
    id: &str,
    set: &PuzzleSet,
    size: BoardSize,
    record: &RecordModel,
) -> Option<Shown> {
    if let Some((n, index)) = parse_shipped_id(id) {
        return (n == size).then(|| shipped(set, size, index)).flatten();
    }
    mine(&record.record, id)
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

/// The address names the puzzle on the board (`#puzzle=8x8-61`), so that a reload or a
/// bookmark opens it again.
#[hook]
fn use_address(session: &UseReducerHandle<Session>) {
    let id = session.shown.as_ref().map(|s| s.id.clone());
    use_effect_with(id, |id| {
        if let Some(id) = id {
            set_fragment(&link::write(id));
        }
    });
}

/// Asks the worker for what the session waits on: a line after a move, or the solver's
/// reply in a play-out.
#[hook]
fn use_solver(session: &UseReducerHandle<Session>, on_solve: &Callback<SolveAsk>) {
    let wanted = session.wanted();
    let (dispatch, on_solve) = (session.dispatcher(), on_solve.clone());
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
            on_solve.emit(SolveAsk {
                position,
                ask: PuzzleAsk::Line,
                max_nodes: LINE_NODES,
                answer,
            });
        }
    });
}

/// Plays the line out on the board, a move every [`STEP_MS`].
#[hook]
fn use_line_steps(session: &UseReducerHandle<Session>) {
    let key = (session.generation, session.step, session.more_to_show());
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

/// A click on the board: a try (the ratings move on a first try only), or a play-out move.
fn play_callback(
    session: &UseReducerHandle<Session>,
    on_record: &Callback<RecordAction>,
) -> Callback<Square> {
    let (session, on_record) = (session.clone(), on_record.clone());
    Callback::from(move |sq: Square| {
        let mv = Move::Place(sq);
        if let (Some(Try::First(solved)), Some(shown)) = (session.judge(mv), &session.shown) {
            on_record.emit(RecordAction::FirstTry {
                id: shown.id.clone(),
                shipped: shown.puzzle.rating,
                solved,
            });
        }
        session.dispatch(SessionAction::Play(mv));
    })
}

/// The square marked as the move to play (the answer, once found or shown) and the one
/// marked as played (a wrong move).
fn marks(session: &Session) -> (Option<Square>, Option<Square>) {
    let Some(shown) = &session.shown else {
        return (None, None);
    };
    let answer = shown.puzzle.answer.square();
    match &session.stage {
        Stage::Solved { .. } | Stage::Revealed { .. } if session.step == 0 => (answer, None),
        Stage::Refuted { mv, .. } if session.step == 0 => (None, mv.square()),
        _ => (None, None),
    }
}

/// The last move on the board: the line's latest, the answer or the wrong move.
fn last_square(session: &Session) -> Option<Square> {
    session.moves_shown().last().copied().and_then(Move::square)
}

/// The stage's buttons: try again, see the answer, play it out, the next puzzle (a skip of
/// a puzzle not tried yet, which counts as a miss, as Lichess counts a puzzle given up).
fn buttons(
    session: &UseReducerHandle<Session>,
    next: &Callback<Option<ThemeChoice>>,
    record: &RecordModel,
    on_record: &Callback<RecordAction>,
) -> Html {
    let act = |action: SessionAction| {
        let session = session.dispatcher();
        Callback::from(move |_: MouseEvent| session.dispatch(action.clone()))
    };
    let stage = &session.stage;
    let refuted = matches!(stage, Stage::Refuted { .. });
    let can_reveal = refuted || (matches!(stage, Stage::Solving) && session.missed);
    let can_play_out = matches!(
        stage,
        Stage::Solved { .. }
            | Stage::Revealed { .. }
            | Stage::PlayedOut { .. }
            | Stage::Stuck { .. }
    );
    let again = matches!(stage, Stage::PlayedOut { .. } | Stage::Stuck { .. });
    let first_try_open = session.shown.as_ref().filter(|s| {
        *stage == Stage::Solving && !session.missed && !record.record.tried.contains(&s.id)
    });
    let skip = first_try_open.map(|s| RecordAction::FirstTry {
        id: s.id.clone(),
        shipped: s.puzzle.rating,
        solved: false,
    });
    let next_label = if skip.is_some() {
        "Skip (counts as a miss)"
    } else {
        "Next puzzle"
    };
    let on_next = {
        let (next, on_record) = (next.clone(), on_record.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(skip) = skip.clone() {
                on_record.emit(skip);
            }
            next.emit(None);
        })
    };
    let link = session
        .shown
        .as_ref()
        .map(|s| link::write(&s.id))
        .unwrap_or_default();
    html! {
        <div class="controls">
            if refuted {
                <button id="puzzle-retry" onclick={act(SessionAction::TryAgain)}>{ "Try again" }</button>
            }
            if can_reveal {
                <button id="puzzle-answer" onclick={act(SessionAction::ShowAnswer)}>{ "Show the answer" }</button>
            }
            if can_play_out {
                <button id="puzzle-play-out" onclick={act(SessionAction::PlayOut)}
                        title="Play the puzzle to the end against perfect play">
                    { if again { "Play it out again" } else { "Play it out" } }
                </button>
            }
            <button id="puzzle-next" onclick={on_next}>{ next_label }</button>
            if !link.is_empty() {
                // Keyed by the puzzle: "Link copied" belongs to the puzzle it was said of.
                <CopyLink key={link.clone()} fragment={link.clone()} title="A link that opens this puzzle: paste it into a chat" />
            }
        </div>
    }
}
