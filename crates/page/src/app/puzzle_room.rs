//! Puzzle mode (docs/puzzles.md, "Puzzle mode"): the board with the puzzle, what to find
//! and what the move did, the buttons of each stage, and beside them the player's rating.
//! It only draws: the state and its effects are the controller's (`ctrl::puzzle`), which
//! it gets as values and callbacks, as Lichess's puzzle `view` draws its `ctrl`.

use crate::components::{Board, CopyLink, Counts, Notice, PuzzleRating};
use crate::ctrl::{PuzzleCtrl, PuzzleFile};
use crate::puzzles::link;
use crate::puzzles::record::ThemeChoice;
use crate::puzzles::session::{Session, SessionAction, Stage};
use crate::puzzles::words::status;
use othello::{Bitboard, Move, Square};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PuzzleRoomProps {
    pub ctrl: PuzzleCtrl,
}

#[function_component(PuzzleRoom)]
pub fn puzzle_room(props: &PuzzleRoomProps) -> Html {
    let ctrl = &props.ctrl;
    html! {
        <main data-ready="true">
            <header><h1>{ "Othello Zero" }</h1><p class="model">{ "Puzzles: positions with one right move, proven by the exact solver" }</p></header>
            <Notice id="puzzle-store-error" text={ctrl.notice.clone()} on_ok={ctrl.on_dismiss.clone()} />
            { room(ctrl) }
        </main>
    }
}

/// The room: the puzzle's board and words, and the rating panel beside them.
fn room(ctrl: &PuzzleCtrl) -> Html {
    let session = &*ctrl.session;
    let shown = session.shown.clone();
    let position = session.position();
    let legal = match (&session.stage, position) {
        (Stage::Solving, Some(pos)) => pos.legal_moves(),
        (Stage::PlayOut { waiting: false, .. }, Some(pos)) => pos.legal_moves(),
        _ => Bitboard::EMPTY,
    };
    let (marked, played) = marks(session);
    let (bytes, millis) = match &ctrl.file {
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
                { file_line(&ctrl.file) }
                if let Some(note) = ctrl.link_note.clone() {
                    <p class="message" id="puzzle-link-note" role="alert">{ note }</p>
                }
                if let (Some(shown), Some(position)) = (shown.clone(), position) {
                    // The discs, as the game shows them (issue 68: none anywhere in Puzzle mode).
                    <Counts {position} />
                    <Board {position} {legal} last={last_square(session)} flips={Bitboard::EMPTY}
                           flip_class="flip-a" {marked} {played} on_play={ctrl.on_play.clone()} />
                    { buttons(ctrl) }
                    // The words under the board and its buttons, which they never move: over
                    // the board, a line's words two lines longer than the task's moved it
                    // down by as much (issue 68: 154, 163 and 182 px at 1280x800).
                    <p class="status puzzle-task" id="puzzle-task" aria-live="polite">{ status(session) }</p>
                    if let Some(from) = shown.from.clone() {
                        <p class="small" id="puzzle-from">{ from }</p>
                    }
                } else if matches!(&ctrl.file, PuzzleFile::Ready { .. }) {
                    <p class="status" id="puzzle-none">{ none_left(ctrl.record.record.theme, ctrl.mistakes_looked) }</p>
                }
            </div>
            <PuzzleRating record={ctrl.record.clone()}
                          puzzle={shown.map(|s| (s.id.clone(), s.puzzle.rating))} size={ctrl.size}
                          on_size={ctrl.on_size.clone()} on_theme={ctrl.on_theme.clone()}
                          on_close={ctrl.on_close.clone()} />
        </section>
    }
}

/// Why no puzzle is shown, for the theme chosen (`looked`: the reviewed games whose
/// mistakes were looked at this visit).
fn none_left(theme: ThemeChoice, looked: usize) -> String {
    if theme == ThemeChoice::Mistakes {
        crate::puzzles::words::no_mistakes(looked)
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

/// The square marked as the move to play (the answer, once found or shown) and the one
/// marked as played (a wrong move).
fn marks(session: &Session) -> (Option<Square>, Option<Square>) {
    let Some(shown) = &session.shown else {
        return (None, None);
    };
    let answer = shown.puzzle.answer.square();
    match &session.stage {
        // A shown answer stays marked: the board stays on the puzzle's position.
        Stage::Revealed { .. } => (answer, None),
        Stage::Solved { .. } if session.step == 0 => (answer, None),
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
fn buttons(ctrl: &PuzzleCtrl) -> Html {
    let session = &*ctrl.session;
    let act = |action: SessionAction| ctrl.on_act.reform(move |_: MouseEvent| action.clone());
    let stage = &session.stage;
    let refuted = matches!(stage, Stage::Refuted { .. });
    let can_reveal = refuted || (matches!(stage, Stage::Solving) && session.missed);
    // A play-out whose promise is lost may start again at once, as its words offer (the
    // tenth look found "or play it out again" with no such button until the end).
    let lost = match (stage, session.shown.as_ref()) {
        (
            Stage::PlayOut {
                standing: Some(margin),
                waiting: false,
                ..
            },
            Some(shown),
        ) => !crate::puzzles::session::kept(&shown.puzzle, *margin),
        _ => false,
    };
    let can_play_out = lost
        || matches!(
            stage,
            Stage::Solved { .. }
                | Stage::Revealed { .. }
                | Stage::PlayedOut { .. }
                | Stage::Stuck { .. }
        );
    let again = lost || matches!(stage, Stage::PlayedOut { .. } | Stage::Stuck { .. });
    let link = session
        .shown
        .as_ref()
        .map(|s| link::write(&s.id))
        .unwrap_or_default();
    html! {
        <div class="controls">
            // First, where it stays whatever buttons an answer brings (the eleventh look: it
            // went from the row's head to its end after the first answer).
            if !link.is_empty() {
                // Keyed by the puzzle: "Link copied" belongs to the puzzle it was said of.
                <CopyLink key={link.clone()} fragment={link.clone()} title="A link that opens this puzzle: paste it into a chat" />
            }
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
            // "Next puzzle" once this one's first try is spent; before that a skip, which
            // counts as a miss, is a button of its own at the row's far end, never in
            // the place "Next puzzle" had (issue 68: after a theme change the same
            // pointer skipped, and the rating fell).
            if !ctrl.skip_is_miss {
                <button id="puzzle-next" onclick={ctrl.on_next.reform(|_: MouseEvent| ())}>{ "Next puzzle" }</button>
            }
            if ctrl.skip_is_miss {
                <button id="puzzle-skip" class="skip" onclick={ctrl.on_next.reform(|_: MouseEvent| ())}
                        title="Give this puzzle up for the next one: it counts as a miss">{ "Skip (counts as a miss)" }</button>
            }
        </div>
    }
}
