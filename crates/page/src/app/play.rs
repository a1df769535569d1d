//! The game: the board with what the overlay puts on it, what is happening (and the named
//! opening, once the game follows one), the notices with their ways back, and the
//! buttons. It shows the game and the view it is given and asks for every change through
//! its callbacks.

use super::play_board::{legend_line, PlayBoard};
use crate::components::{
    download_time, Controls, DifficultyPicker, EditorPanel, GameOver, WatchControls,
};
use crate::editor::{EditAction, Editor, FLIP, MIRROR, ROTATE};
use crate::explain::{
    board_opening_line, browse_line, game_record, held_line, looking_line, may_name_opening,
    pass_notice, paused_line, reviewed_line, set_aside_line, status_line,
};
use crate::format::move_number;
use crate::hooks::{GameModel, NewGameChoice};
use crate::levels::Difficulty;
use crate::overlay::{board_overlay, focused_review, BoardOverlay, Tiles};
use crate::records::{file_stem, ggf_record, ggf_with_review, record_line};
use crate::review::{focus_line, line_sentence};
use crate::state::{at_ply, placed, rematch_seats, Action, Seats};
use crate::view::View;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PlayProps {
    pub game: Rc<GameModel>,
    pub view: Rc<View>,
    pub heat_map: bool,
    /// Whether an agent is ready to think (not while the board's network loads).
    pub ready: bool,
    /// The agent as the game's records name it.
    pub opponent: String,
    /// Agent against agent: paused, and the pause between moves (ms), and their change.
    pub watch: (bool, u32),
    pub on_watch: Callback<(bool, u32)>,
    pub on_hint: Callback<()>,
    pub on_toggle_heat: Callback<()>,
    /// Whether the agent plays its openings from the book, and the switch.
    pub book: bool,
    pub on_toggle_book: Callback<()>,
    /// Starts a new game (the rematch).
    pub on_new_game: Callback<NewGameChoice>,
    /// A change to the game: a move, undo, redo, a jump to a move, a game brought back.
    pub on_game: Callback<Action>,
    /// A change to the board editor.
    pub on_edit: Callback<EditAction>,
    /// A message under the board (why a click did nothing), or none.
    pub on_message: Callback<Option<String>>,
    /// The reviewed move to show on the board, or the game again.
    pub on_review_focus: Callback<Option<usize>>,
    /// The difficulty, under the buttons where a finger finds it on a phone (issue 68: it
    /// lay 1,400 px down), with what plays this board at this level when it is not the
    /// network.
    pub difficulty: Difficulty,
    pub on_difficulty: Callback<Difficulty>,
    pub level_note: Option<String>,
    /// Which way the levels run and how the Instinct levels compare on this board.
    pub level_range: String,
}

#[function_component(PlayArea)]
pub fn play_area(props: &PlayProps) -> Html {
    let (game, view) = (&*props.game, &*props.view);
    let pos = *game.position();
    let (size, variant, seats) = (pos.size(), pos.variant(), game.seats);
    let ask = |action: Action| props.on_game.reform(move |()| action.clone());
    let overlay = Rc::new(board_overlay(game, game.browsing, view, props.heat_map));
    let board = html! {
        <PlayBoard game={props.game.clone()} view={props.view.clone()} overlay={overlay.clone()}
                   on_game={props.on_game.clone()} on_edit={props.on_edit.clone()} on_message={props.on_message.clone()} />
    };
    if let Some(editor) = view.editor.as_ref() {
        return html! {
            <section class="play" aria-label="Game">
                { board }
                <p class="status" id="status" role="status" aria-live="polite">{ "Setting up a position" }</p>
                { editor_panel(editor, props.game.seats, &props.on_edit, &props.on_game) }
            </section>
        };
    }
    let on_edit = {
        let (on_edit, on_message) = (props.on_edit.clone(), props.on_message.clone());
        Callback::from(move |_| {
            on_message.emit(None);
            on_edit.emit(EditAction::Open(pos));
        })
    };
    let (ready, browsing) = (props.ready, game.browsing.is_some());
    // The line under the board names the opening of the position on it: a move only looked
    // at (the game untouched) has its own.
    let shown_game = match game.browsing {
        Some(ply) => at_ply(game, ply).game,
        None => game.game.clone(),
    };
    html! {
        <section class="play" aria-label="Game">
            { board }
            { legend(game, view, &overlay) }
            { notice(game, view, &props.on_game, &props.on_review_focus) }
            { status_line_with_news(game, view, ready, props.watch.0) }
            // A loaded record's players, while the game is still theirs.
            if let Some(line) = record_line(game) {
                <p class="record-players" id="record-players">{ line }</p>
            }
            if may_name_opening(&shown_game) {
                <p class="opening" id="opening">{ board_opening_line(&shown_game).unwrap_or_default() }</p>
            }
            if let Some(text) = view.message.clone() {
                if view.message_is_note {
                    <p class="notice note" id="message" role="status">{ text }</p>
                } else {
                    <p class="message" id="message" role="alert">{ text }</p>
                }
            }
            { set_aside(game, &props.on_game) }
            if pos.is_game_over() {
                <GameOver record={game_record(game, &props.opponent)} ggf={ggf_record(game, &props.opponent)}
                          ggf_reviewed={ggf_with_review(game, &props.opponent, view.review.of(game.id()))}
                          file_name={file_stem(game, &download_time())}
                          rematch={matches!(seats, Seats::Human(_))}
                          on_rematch={props.on_new_game.reform(move |()| (size, variant, rematch_seats(seats), false))} />
            }
            <Controls can_undo={game.can_undo()} can_redo={game.can_redo()} can_hint={game.human_to_move() && ready && !browsing}
                      heat_map={props.heat_map} on_undo={ask(Action::Undo)} on_redo={ask(Action::Redo)}
                      on_hint={props.on_hint.clone()} on_toggle_heat={props.on_toggle_heat.clone()}
                      book={props.book} on_toggle_book={props.on_toggle_book.clone()} />
            // What sets up the next game or move rather than shows this one: on a phone the
            // agent's search comes before it, right under the board's buttons (style.css).
            <div class="play-settings">
                <div class="controls">
                    <button id="edit-board" onclick={on_edit} title="Set up any position by clicking squares, then play it against the agent">{ "Set up a position" }</button>
                </div>
                // Nothing to pause once the game is over.
                if seats == Seats::AgentVsAgent && !pos.is_game_over() {
                    <WatchControls paused={props.watch.0} delay_ms={props.watch.1} on_change={props.on_watch.clone()} />
                }
                <DifficultyPicker difficulty={props.difficulty.clone()} on_change={props.on_difficulty.clone()} note={props.level_note.clone()} range={props.level_range.clone()} />
            </div>
        </section>
    }
}

/// What the numbers on the squares are, right under the board where the eye is when it
/// reads them (issue 68: below the buttons it went unseen, and was not there while the
/// agent thought): its room is kept when the squares hold nothing, so that the status and
/// the buttons never move as numbers come and go.
/// Where the squares hold nothing, and while they hold the agent's shares of visits, a
/// phone's slot (hidden on a wide screen, whose panel is beside the board) gives the
/// panel's estimate in one line: on a phone the panel lies under the buttons, its chance
/// and expected result below the fold (issue 68, and a fresh look: while the agent thought
/// the slot gave the legend alone). Beside the shares a phone reads a one-line legend in
/// place of the whole one, so that the two keep the slot's room and nothing below moves
/// as the search starts and stops; the unit's badge above the board says the rest.
fn legend(game: &GameModel, view: &View, overlay: &BoardOverlay) -> Html {
    let line = legend_line(game, overlay);
    let shares = line.is_some() && matches!(overlay.tiles, Tiles::Shares { .. });
    let estimate = (line.is_none() || shares)
        .then(|| crate::explain::panel_verdict(view, game, game.browsing))
        .flatten();
    html! {
        <div class={classes!("legend-slot", shares.then_some("shares"))}>
            if let Some(estimate) = estimate {
                <p class="small phone-estimate" id="phone-estimate">{ crate::explain::phone_copy(&estimate) }</p>
            }
            if let Some(text) = line {
                <p class="small legend" id="heat-legend">{ text }</p>
            }
            if shares {
                <p class="small legend phone-legend" id="phone-legend">{ SHARES_PHONE_LEGEND }</p>
            }
        </div>
    }
}

/// The squares' legend beside the agent's shares on a phone, in one line under the
/// estimate's: the badge above the board gives the unit, "squares: % of visits".
const SHARES_PHONE_LEGEND: &str = "On the squares: shares of visits, not chances to win.";

/// The game a pasted or opened one replaced, with the way to bring it back.
fn set_aside(game: &GameModel, on_game: &Callback<Action>) -> Html {
    let Some(aside) = game.set_aside.as_ref() else {
        return Html::default();
    };
    html! {
        <p class="notice note" id="set-aside" role="status">{ set_aside_line(placed(&aside.game), aside.position().is_game_over()) }{ " " }
            { crate::explain::earlier_aside_line(game.earlier_aside.len()) }
            <button id="bring-back" onclick={on_game.reform(|_| Action::BringBack)}>{ "Bring it back" }</button>
        </p>
    }
}

/// What is happening, in words: whose turn, the result, a watched game's pause, or
/// "Loading the network…" with how far its download has come.
fn status(game: &GameModel, view: &View, ready: bool, paused: bool) -> String {
    if paused && game.seats == Seats::AgentVsAgent && !game.position().is_game_over() {
        return paused_line(game);
    }
    // A reviewed move on the board: the line says which, not the game's state beside
    // another position's board and counts (issue 68).
    if let Some((index, _)) = focused_review(view, game) {
        return reviewed_line(game, index);
    }
    // Nothing on the board shown is the player's to play while they look back (issue 68:
    // "your turn" beside an earlier position), nor the game's end (its eighth look: "Game
    // over" beside move 20's board): the line says it looks back, the result within it.
    if game.browsing.is_some() {
        return looking_line(game);
    }
    if game.held && !game.position().is_game_over() {
        return held_line(game);
    }
    // An analysis made from a game against the agent points at the way back (the
    // fifteenth look read "Analysis: White to move" and waited for a reply).
    if game.analysed_from.is_some()
        && game.seats == Seats::Analysis
        && !game.position().is_game_over()
    {
        return format!(
            "Analysis of your game: {} to move, both sides yours (\"Play on against the \
             agent\", above, gives the agent its side back).",
            game.position().side_to_move()
        );
    }
    let progress = view
        .download
        .as_ref()
        .and_then(|d| view.download_progress(&d.name))
        .filter(|_| !ready && game.agent_to_move());
    match progress {
        Some(progress) => format!("{} {progress}", status_line(game, ready)),
        None => status_line(game, ready),
    }
}

/// The notice above the status line: the reviewed move on the board, the earlier move the
/// person is looking at (each with its way back to the game), or the last pass.
fn notice(
    game: &GameModel,
    view: &View,
    on_game: &Callback<Action>,
    on_review_focus: &Callback<Option<usize>>,
) -> Html {
    if let Some((index, review)) = focused_review(view, game) {
        return html! {
            <p class="notice browse" id="review-notice" role="status">{ focus_line(move_number(game.game.moves(), index + 1), &review) }{ " " }
                if let Some(line) = line_sentence(&review) {
                    <span id="review-line" data-line={review.line_text()}>{ line }{ " " }</span>
                }
                <button id="review-back" onclick={on_review_focus.reform(|_| None)}>{ "Back to the game" }</button>
            </p>
        };
    }
    if let Some((ply, text)) = game
        .browsing
        .and_then(|ply| Some((ply, browse_line(game, ply)?)))
    {
        let played = game.game.moves().len();
        let (back, on) = crate::state::browse_steps(game, ply);
        let step = |to: Option<usize>,
                    id: &'static str,
                    label: &'static str,
                    glyph: &'static str| {
            html! {
                <button {id} aria-label={label} title={label} disabled={to.is_none()}
                        onclick={on_game.reform(move |_| Action::Browse(to.unwrap_or(played)))}>{ glyph }</button>
            }
        };
        return html! {
            <p class="notice browse" id="browse-notice" role="status">{ text }{ " " }
                { step(back, "browse-back", "One move back", "◀") }
                { step(on, "browse-on", "One move on", "▶") }{ " " }
                <button id="back-to-game" onclick={on_game.reform(move |_| Action::Browse(played))}>{ "Back to the game" }</button>{ " " }
                <button id="play-from-here" onclick={on_game.reform(move |_| Action::PlayFrom(ply))}
                        title="Continue the game from this position: the moves after it stay as redo until a move is played">
                    { "Play from here" }</button>
            </p>
        };
    }
    if let Some(seats) = game
        .analysed_from
        .filter(|_| game.seats == Seats::Analysis && !game.position().is_game_over())
    {
        return html! {
            <p class="notice browse" id="analysed-notice" role="status">
                { "An analysis of your game against the agent: both sides are yours to move. The agent plays on from the position on the board if you go back." }{ " " }
                <button id="resume-agent" onclick={on_game.reform(move |_| Action::SetSeats(seats))}>{ "Play on against the agent" }</button>
            </p>
        };
    }
    if game.held && !game.position().is_game_over() {
        return html! {
            <p class="notice browse" id="held-notice" role="status">
                { "This game was loaded, not played here: neither you nor the agent played its moves. Play on against the agent from this position, or look at it as an analysis." }{ " " }
                <button id="play-on" onclick={on_game.reform(|_| Action::PlayOn)}>{ "Play on" }</button>{ " " }
                <button id="analyse-instead" onclick={on_game.reform(|_| Action::SetSeats(Seats::Analysis))}>{ "Analyse it instead" }</button>
            </p>
        };
    }
    Html::default()
}

/// The status line, with the last pass at its head ([`pass_news`]) and after it the move
/// played since (`explain::after_pass`).
fn status_line_with_news(game: &GameModel, view: &View, ready: bool, paused: bool) -> Html {
    let news = pass_news(game, view);
    let line = news
        .as_ref()
        .and_then(|_| crate::explain::after_pass(game))
        .unwrap_or_else(|| status(game, view, ready, paused));
    html! {
        <p class="status" id="status" role="status" aria-live="polite">
            if let Some(news) = news {
                <span class="pass-news" id="pass-notice">{ news }</span>{ " " }
            }
            { line }
        </p>
    }
}

/// The last pass, said at the head of the status line where no other notice stands: a
/// notice of its own, two lines tall, moved the buttons 60 px down and back up on a phone
/// (the ninth look), where the status line keeps two lines' room (style.css).
fn pass_news(game: &GameModel, view: &View) -> Option<String> {
    let other_notice = focused_review(view, game).is_some()
        || game.browsing.is_some()
        || (game.held && !game.position().is_game_over());
    (!other_notice).then(|| pass_notice(game)).flatten()
}

/// Who plays from the edited position, as the editor first offers it: the seats of the
/// game on the board, so that an analysis goes on as one (the thirteenth look opened the
/// editor from an analysis and found "play Black" chosen); watching two agents offers
/// playing Black.
fn editor_seats(seats: Seats) -> &'static str {
    match seats {
        Seats::Human(othello::Color::White) => "white",
        Seats::Analysis => "analysis",
        Seats::Human(othello::Color::Black) | Seats::AgentVsAgent => "black",
    }
}

/// The editor's controls, wired: a refused position says why; an accepted one becomes the
/// game, with the seats chosen (the agent moves at once when it is its turn).
fn editor_panel(
    editor: &Editor,
    seats: Seats,
    on_edit: &Callback<EditAction>,
    on_game: &Callback<Action>,
) -> Html {
    let edit = |action: EditAction| on_edit.reform(move |()| action.clone());
    let on_side = on_edit.reform(EditAction::Side);
    let on_play = {
        let (on_edit, on_game, editor) = (on_edit.clone(), on_game.clone(), editor.clone());
        Callback::from(move |seats: String| match editor.check() {
            Ok(pos) => {
                let seats = match seats.as_str() {
                    "white" => Seats::Human(othello::Color::White),
                    "analysis" => Seats::Analysis,
                    _ => Seats::Human(othello::Color::Black),
                };
                on_edit.emit(EditAction::Close);
                // As a pasted game does, it puts a game in progress aside.
                on_game.emit(Action::Replace {
                    record: othello::GgfGame::new(othello::Game::new(pos)),
                    seats,
                });
            }
            Err(why) => on_edit.emit(EditAction::Refused(why)),
        })
    };
    html! {
        <EditorPanel to_move={editor.to_move} error={editor.error.clone()} refusal={editor.check().err()} {on_side}
                     on_clear={edit(EditAction::Clear)} on_reset={edit(EditAction::Reset)}
                     on_rotate={edit(EditAction::Transform(ROTATE))} on_mirror={edit(EditAction::Transform(MIRROR))}
                     on_flip={edit(EditAction::Transform(FLIP))} board_text={editor.board_text()} ggf={editor.ggf_text()}
                     {on_play} on_close={edit(EditAction::Close)} seats={editor_seats(seats)} />
    }
}
