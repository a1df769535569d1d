//! The moves so far (each one a way back to its position) and the moves taken back (a way
//! forward), the transcript and the named opening, the game as a GGF record, and a form to
//! load either.

use super::game_over::data_href;
use super::game_picker::GamePicker;
use super::text_box::use_text_submit;
use crate::explain::opening_line;
use crate::format::move_numbers;
use crate::records::RecordGame;
use othello::{Game, Move};
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct MoveListProps {
    pub game: Game,
    /// Moves taken back, the next to replay last.
    pub undone: Vec<Move>,
    /// Go to the position after this many moves.
    pub on_goto: Callback<usize>,
    /// A pasted transcript or GGF record to load.
    pub on_load: Callback<String>,
    /// The game so far as a GGF record.
    pub ggf: String,
    /// A record read from a file with the review's values in its moves, when it has
    /// reviewed moves ([`crate::records::ggf_with_review`]): a download of its own, since
    /// the record's own download is the record as it came.
    #[prop_or_default]
    pub ggf_reviewed: Option<String>,
    /// Its download's name without the extension ([`crate::records::file_stem`]).
    pub file_name: String,
    /// A GGF file the person opened.
    pub on_open: Callback<web_sys::File>,
    /// The games of a record that holds several, waiting for the person to pick one.
    #[prop_or_default]
    pub choices: Option<Rc<Vec<RecordGame>>>,
    /// Loads the picked game (`None`: none).
    #[prop_or_default]
    pub on_pick: Callback<Option<usize>>,
    /// The move the board shows while the person browses, when it is not the game's last.
    #[prop_or_default]
    pub browsing: Option<usize>,
    /// Plies the agent played from the opening book, marked as book moves.
    #[prop_or_default]
    pub book_plies: Vec<usize>,
}

#[function_component(MoveList)]
pub fn move_list(props: &MoveListProps) -> Html {
    let (input, onclick) = use_text_submit(&props.on_load);
    let on_open = {
        let on_open = props.on_open.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let file = input.files().and_then(|files| files.get(0));
            // The same file may be opened again after a change: clear the picker.
            input.set_value("");
            if let Some(file) = file {
                on_open.emit(file);
            }
        })
    };
    let played = props.game.moves().len();
    let current = props.browsing.unwrap_or(played);
    let all: Vec<Move> = props
        .game
        .moves()
        .iter()
        .chain(props.undone.iter().rev())
        .copied()
        .collect();
    // One line a move, numbered as Othello players count (the discs placed: a pass has no
    // number of its own), as the graph and the review number them.
    let numbers = move_numbers(&all);
    let moves = all.iter().enumerate().map(|(i, mv)| {
        let ply = i + 1;
        let book = props.book_plies.contains(&ply);
        let class = classes!(
            "mv",
            (ply > played).then_some("redo"),
            (ply == current).then_some("current"),
            book.then_some("book")
        );
        let title = if book {
            format!("Show the position after {mv} (a book move)")
        } else {
            format!("Show the position after {mv}")
        };
        let number = numbers[i].map_or(String::new(), |n| format!("{n}."));
        html! {
            <li><span class="num">{ number }</span>
                <button {class} data-ply={ply.to_string()} {title}
                        onclick={props.on_goto.reform(move |_| ply)}>{ mv.to_string() }</button></li>
        }
    });
    html! {
        <fieldset class={classes!("moves-panel", (played == 0 && props.undone.is_empty()).then_some("empty"))}>
            <legend>{ "Moves" }</legend>
            // The start, the list's first line and the opening's line keep their room in an
            // empty game, so the first move moves nothing below them (issue 68, item 6).
            <button class="mv start" data-ply="0" disabled={played == 0 && props.undone.is_empty()}
                    onclick={props.on_goto.reform(|_| 0)}>{ "Start" }</button>
            <ol class="moves" id="moves" aria-label="Move list: each move goes to its position">{ for moves }</ol>
            // From the standard start, an XOT opening's moves first, so that the transcript
            // copied loads back (issue 68: an XOT game's did not).
            { transcript_line(&props.game, props.undone.len()) }
            <p class="small opening-slot">
                if let Some(text) = opening_line(&props.game) {
                    <span id="moves-opening"
                          title="The longest named line this game reached, matched by position under any rotation or move order">{ text }</span>
                }
            </p>
            <p class="small">
                <a id="download-ggf" href={data_href(&props.ggf)} download={format!("{}.ggf", props.file_name)}
                   title="The game as a GGF record, which NBoard, NTest and Edax read (a loaded record whole, as it came, until a move of another game is played)">{ "Download as GGF" }</a>
                if let Some(reviewed) = props.ggf_reviewed.as_ref() {
                    { " · " }
                    <a id="download-ggf-reviewed" href={data_href(reviewed)} download={format!("{}-reviewed.ggf", props.file_name)}
                       title="The record with this page's review: each reviewed move's value in place of the record's own evaluation">{ "Download with the review's values" }</a>
                }
            </p>
            <textarea ref={input} id="transcript-input" rows="2" aria-label="Transcript or GGF record to load"
                      placeholder="paste a transcript (f5d6c3d3c4) or a GGF record ((;GM[Othello]...;))" />
            <button id="load-transcript" {onclick}>{ "Load" }</button>
            <label class="file-button">{ "Open a GGF file " }
                <input id="open-ggf" type="file" accept=".ggf,text/plain" onchange={on_open} />
            </label>
            if let Some(games) = props.choices.clone() {
                <GamePicker {games} on_pick={props.on_pick.clone()} />
            }
        </fieldset>
    }
}

/// The transcript from the standard start, an XOT opening's moves apart in a span of their
/// own (the browser tests count the game's moves after it).
fn transcript(game: &othello::Game) -> Html {
    match crate::openings::xot_of(game.start()) {
        Some((_, opening)) => html! {
            <><span id="transcript-opening">{ opening }</span>{ game.transcript(false) }</>
        },
        None => html! { { game.transcript(false) } },
    }
}

/// The words before the transcript: which of its moves are the XOT opening's, where the
/// game began from one.
/// The transcript with its label, and, where moves were taken back, what it leaves out:
/// the greyed moves of the list are not in it (the fourteenth look read 10 moves here
/// beside a list of 24).
fn transcript_line(game: &othello::Game, undone: usize) -> Html {
    html! {
        <p class="small">{ transcript_label(game) }<code id="transcript">{ transcript(game) }</code>
            if undone > 0 {
                <span id="transcript-redo">{ redo_note(undone) }</span>
            }
        </p>
    }
}

/// What the transcript leaves out: the moves taken back, greyed in the list, to redo.
fn redo_note(undone: usize) -> String {
    match undone {
        1 => " (the move played up to here; 1 more, greyed in the list, to redo)".to_owned(),
        n => format!(" (the moves played up to here; {n} more, greyed in the list, to redo)"),
    }
}

fn transcript_label(game: &othello::Game) -> String {
    match crate::openings::xot_of(game.start()) {
        Some((n, _)) => format!(
            "Transcript from the standard start (its first 8 moves are balanced opening {n}, where this game began): "
        ),
        None => "Transcript: ".to_owned(),
    }
}
