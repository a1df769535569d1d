//! The game: the board with its heat map or hint, what is happening (and the named
//! opening, once the game follows one), the buttons; and the search's panel and the
//! evaluation graph, a section of their own.

use super::new_game::NewGameChoice;
use super::side::placed;
use crate::components::{
    Board, Controls, Counts, EditorPanel, EvalGraph, GameOver, SearchPanel, WatchControls,
};
use crate::editor::{EditAction, FLIP, MIRROR, ROTATE};
use crate::explain::{
    board_opening_line, browse_line, game_record, may_name_opening, pass_notice, paused_line,
    search_summary, set_aside_line, status_line,
};
use crate::graph::{points, scale};
use crate::hooks::GameModel;
use crate::overlay::{board_overlay, focused_review, panel_search, BoardOverlay, Showing};
use crate::records::ggf_record;
use crate::review::{focus_line, line_sentence};
use crate::state::{at_ply, explain_click, rematch_seats, Action, Seats};
use crate::view::{live_estimate, View, ViewAction};
use engine::PlayerSpec;
use othello::Square;
use protocol::WireBudget;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PlayProps {
    pub game: UseReducerHandle<GameModel>,
    pub view: UseReducerHandle<View>,
    pub heat_map: bool,
    /// Who thinks for the agent; `None` while the board's network loads.
    pub player: Option<PlayerSpec>,
    pub budget: WireBudget,
    /// The agent as the game's records name it.
    pub opponent: String,
    /// Agent against agent: paused, and the pause between moves (ms).
    pub watch: UseStateHandle<(bool, u32)>,
    pub on_hint: Callback<()>,
    pub on_toggle_heat: Callback<()>,
    /// Whether the agent plays its openings from the book, and the switch.
    pub book: bool,
    pub on_toggle_book: Callback<()>,
    /// Starts a new game (the rematch).
    pub on_new_game: Callback<NewGameChoice>,
}

#[function_component(PlayArea)]
pub fn play_area(props: &PlayProps) -> Html {
    let (game, view) = (&props.game, &props.view);
    let pos = *game.position();
    let (size, variant, seats) = (pos.size(), pos.variant(), game.seats);
    let dispatch = |action: Action| {
        let (game, view) = (game.dispatcher(), view.dispatcher());
        Callback::from(move |()| {
            view.dispatch(ViewAction::Message(None));
            game.dispatch(action.clone());
        })
    };
    let on_watch = {
        let watch = props.watch.clone();
        Callback::from(move |w| watch.set(w))
    };
    let ready = props.player.is_some();
    if let Some(editor) = view.editor.as_ref() {
        return html! {
            <section class="play" aria-label="Game">
                <PlayBoard game={game.clone()} view={view.clone()} heat_map={props.heat_map} />
                <p class="status" id="status" role="status" aria-live="polite">{ "Setting up a position" }</p>
                { editor_panel(game, view, editor) }
            </section>
        };
    }
    let on_edit = {
        let view = view.dispatcher();
        Callback::from(move |_| {
            view.dispatch(ViewAction::Message(None));
            view.dispatch(ViewAction::Edit(EditAction::Open(pos)));
        })
    };
    let browsing = game.browsing.is_some();
    html! {
        <section class="play" aria-label="Game">
            <PlayBoard game={game.clone()} view={view.clone()} heat_map={props.heat_map} />
            { notice(game, view) }
            <p class="status" id="status" role="status" aria-live="polite">{ status(game, view, ready, props.watch.0) }</p>
            if may_name_opening(&game.game) {
                <p class="opening" id="opening">{ board_opening_line(&game.game).unwrap_or_default() }</p>
            }
            if let Some(text) = view.message.clone() {
                if view.message_is_note {
                    <p class="notice note" id="message" role="status">{ text }</p>
                } else {
                    <p class="message" id="message" role="alert">{ text }</p>
                }
            }
            { set_aside(game, view) }
            if pos.is_game_over() {
                <GameOver record={game_record(game, &props.opponent)} ggf={ggf_record(game, &props.opponent, &view.review.reviews)}
                          rematch={matches!(seats, Seats::Human(_))}
                          on_rematch={props.on_new_game.reform(move |()| (size, variant, rematch_seats(seats), false))} />
            }
            <Controls can_undo={game.can_undo()} can_redo={game.can_redo()} can_hint={game.human_to_move() && ready && !browsing}
                      heat_map={props.heat_map} on_undo={dispatch(Action::Undo)} on_redo={dispatch(Action::Redo)}
                      on_hint={props.on_hint.clone()} on_toggle_heat={props.on_toggle_heat.clone()}
                      book={props.book} on_toggle_book={props.on_toggle_book.clone()} />
            <div class="controls">
                <button id="edit-board" onclick={on_edit} title="Set up any position by clicking squares, then play it against the agent">{ "Set up a position" }</button>
            </div>
            // Nothing to pause once the game is over.
            if seats == Seats::AgentVsAgent && !pos.is_game_over() {
                <WatchControls paused={props.watch.0} delay_ms={props.watch.1} on_change={on_watch} />
            }
        </section>
    }
}

/// The game a pasted or opened one replaced, with the way to bring it back.
fn set_aside(game: &UseReducerHandle<GameModel>, view: &UseReducerHandle<View>) -> Html {
    let Some(aside) = game.set_aside.as_ref() else {
        return Html::default();
    };
    let bring_back = {
        let (game, view) = (game.dispatcher(), view.dispatcher());
        Callback::from(move |_| {
            view.dispatch(ViewAction::Message(None));
            game.dispatch(Action::BringBack);
        })
    };
    html! {
        <p class="notice note" id="set-aside" role="status">{ set_aside_line(placed(&aside.game)) }{ " " }
            <button id="bring-back" onclick={bring_back}>{ "Bring it back" }</button>
        </p>
    }
}

/// What is happening, in words: whose turn, the result, a watched game's pause, or
/// "Loading the network…" with how far its download has come.
fn status(game: &GameModel, view: &View, ready: bool, paused: bool) -> String {
    if paused && game.seats == Seats::AgentVsAgent && !game.position().is_game_over() {
        return paused_line(game);
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
fn notice(game: &UseReducerHandle<GameModel>, view: &UseReducerHandle<View>) -> Html {
    if let Some((index, review)) = focused_review(view, game) {
        let leave_review = {
            let view = view.dispatcher();
            Callback::from(move |_| view.dispatch(ViewAction::ReviewFocus(None)))
        };
        return html! {
            <p class="notice browse" id="review-notice" role="status">{ focus_line(index + 1, &review) }{ " " }
                if let Some(line) = line_sentence(&review) {
                    <span id="review-line" data-line={review.line_text()}>{ line }{ " " }</span>
                }
                <button id="review-back" onclick={leave_review}>{ "Back to the game" }</button>
            </p>
        };
    }
    if let Some(text) = game.browsing.and_then(|ply| browse_line(game, ply)) {
        let back_to_game = {
            let (ply, game, view) = (
                game.game.moves().len(),
                game.dispatcher(),
                view.dispatcher(),
            );
            Callback::from(move |_| {
                view.dispatch(ViewAction::Message(None));
                game.dispatch(Action::GoTo(ply));
            })
        };
        return html! {
            <p class="notice browse" id="browse-notice" role="status">{ text }{ " " }
                <button id="back-to-game" onclick={back_to_game}>{ "Back to the game" }</button>
            </p>
        };
    }
    match pass_notice(game) {
        Some(text) => html! { <p class="notice" id="pass-notice" role="status">{ text }</p> },
        None => Html::default(),
    }
}

#[derive(Properties, PartialEq)]
pub struct BoardProps {
    pub game: UseReducerHandle<GameModel>,
    pub view: UseReducerHandle<View>,
    pub heat_map: bool,
}

/// The counts and the board, with what [`board_overlay`] puts on it.
#[function_component(PlayBoard)]
fn play_board(props: &BoardProps) -> Html {
    let (game, view) = (&props.game, &props.view);
    let BoardOverlay {
        showing,
        tiles,
        marked,
        played,
    } = board_overlay(game, game.browsing, view, props.heat_map);
    let read_only = |why: &'static str| {
        let view = view.dispatcher();
        Callback::from(move |_: Square| view.dispatch(ViewAction::Message(Some(why.to_owned()))))
    };
    let (shown, on_play) = match (showing, view.editor.as_ref()) {
        (Showing::Editor, Some(editor)) => {
            let view = view.dispatcher();
            let on_play = Callback::from(move |sq: Square| {
                view.dispatch(ViewAction::Edit(EditAction::Click(sq)));
            });
            (Shown::still(editor.shown()), on_play)
        }
        (Showing::Reviewed(index), _) => (
            Shown::still(game.game.positions()[index]),
            read_only(
                "You are looking at a reviewed move: \"Back to the game\" returns to the game.",
            ),
        ),
        (Showing::Browsed(ply), _) => (
            Shown::of(&at_ply(game, ply), false),
            read_only(
                "You are looking at an earlier move: \"Back to the game\" returns to your turn.",
            ),
        ),
        _ => (
            Shown::of(game, game.human_to_move()),
            play_click(game, view),
        ),
    };
    html! {
        <>
            <Counts position={shown.position} />
            <Board position={shown.position} legal={shown.legal} last={shown.last} flips={shown.flips}
                   flip_class={shown.flip_class} {tiles} {marked} {played} {on_play} />
        </>
    }
}

/// The position the board shows, with the moves the person may play there, and the last
/// move's placement and flips.
struct Shown {
    position: othello::Position,
    legal: othello::Bitboard,
    last: Option<Square>,
    flips: othello::Bitboard,
    flip_class: &'static str,
}

impl Shown {
    /// A position on its own (the editor's, a reviewed move's): nothing to play, no last
    /// move.
    fn still(position: othello::Position) -> Shown {
        Shown {
            position,
            legal: othello::Bitboard::default(),
            last: None,
            flips: othello::Bitboard::default(),
            flip_class: "flip-a",
        }
    }

    /// A game's position, with the person's legal moves when `playable`.
    fn of(game: &crate::state::GameState, playable: bool) -> Shown {
        let position = *game.position();
        Shown {
            position,
            legal: if playable {
                position.legal_moves()
            } else {
                Default::default()
            },
            last: game.last_placement(),
            flips: game.last_flips(),
            // Alternates between moves, so that the flip animation restarts.
            flip_class: if game.game.moves().len().is_multiple_of(2) {
                "flip-a"
            } else {
                "flip-b"
            },
        }
    }
}

/// A click on the game's board: the move it plays, or why it plays none.
fn play_click(
    game: &UseReducerHandle<GameModel>,
    view: &UseReducerHandle<View>,
) -> Callback<Square> {
    let (game, view) = (game.clone(), view.dispatcher());
    Callback::from(move |sq: Square| match explain_click(&game, sq) {
        Ok(mv) => {
            view.dispatch(ViewAction::Message(None));
            game.dispatch(Action::Play(mv));
        }
        Err(why) => view.dispatch(ViewAction::Message(Some(why))),
    })
}

#[derive(Properties, PartialEq)]
pub struct SearchViewProps {
    pub game: UseReducerHandle<GameModel>,
    pub view: UseReducerHandle<View>,
    pub heat_map: bool,
    pub player: Option<PlayerSpec>,
    pub budget: WireBudget,
}

/// The search's panel and the evaluation graph: beside the board on a wide screen, under
/// the controls on a phone.
#[function_component(SearchView)]
pub fn search_view(props: &SearchViewProps) -> Html {
    let (game, view) = (&props.game, &props.view);
    let panel = panel_search(view, game);
    let summary = search_summary(view, game, panel, props.player.as_ref(), props.budget);
    let solved = panel.and_then(|(h, _)| h.merged.search.solved);
    // The whole line, the redo moves too, so that a click on a point goes back without
    // dropping (or rescaling) the points after it; the live point only at the line's end.
    let played = game.game.moves().len();
    let line = at_ply(game, played + game.undone.len()).game;
    let live = live_estimate(view, game).filter(|_| game.undone.is_empty());
    let graph_points = points(&line, &view.estimates, &view.review.reviews, live);
    let current = game.browsing.unwrap_or(played);
    let graph_scale = scale(&graph_points);
    let on_goto = go_to(game, view);
    html! {
        <>
            if let Some(summary) = summary {
                <SearchPanel {summary} {solved} />
            }
            if !graph_points.is_empty() {
                <EvalGraph points={graph_points} scale={graph_scale} {on_goto} {current} />
            }
        </>
    }
}

/// The editor's controls, wired: a refused position says why; an accepted one becomes the
/// game, with the seats chosen (the agent moves at once when it is its turn).
fn editor_panel(
    game: &UseReducerHandle<GameModel>,
    view: &UseReducerHandle<View>,
    editor: &crate::editor::Editor,
) -> Html {
    let edit = |action: EditAction| {
        let view = view.dispatcher();
        Callback::from(move |()| view.dispatch(ViewAction::Edit(action.clone())))
    };
    let on_side = {
        let view = view.dispatcher();
        Callback::from(move |side| view.dispatch(ViewAction::Edit(EditAction::Side(side))))
    };
    let on_play = {
        let (game, view, editor) = (game.dispatcher(), view.dispatcher(), editor.clone());
        Callback::from(move |seats: String| match editor.check() {
            Ok(pos) => {
                let seats = match seats.as_str() {
                    "white" => Seats::Human(othello::Color::White),
                    "analysis" => Seats::Analysis,
                    _ => Seats::Human(othello::Color::Black),
                };
                view.dispatch(ViewAction::Edit(EditAction::Close));
                view.dispatch(ViewAction::Message(None));
                // As a pasted game does, it puts a game in progress aside.
                game.dispatch(Action::Replace {
                    game: othello::Game::new(pos),
                    seats,
                });
            }
            Err(why) => view.dispatch(ViewAction::Edit(EditAction::Refused(why))),
        })
    };
    html! {
        <EditorPanel to_move={editor.to_move} error={editor.error.clone()} {on_side}
                     on_clear={edit(EditAction::Clear)} on_reset={edit(EditAction::Reset)}
                     on_rotate={edit(EditAction::Transform(ROTATE))} on_mirror={edit(EditAction::Transform(MIRROR))}
                     on_flip={edit(EditAction::Transform(FLIP))} board_text={editor.board_text()} ggf={editor.ggf_text()}
                     {on_play} on_close={edit(EditAction::Close)} />
    }
}

/// Goes to the position after this many moves (from the graph or the move list).
pub fn go_to(game: &UseReducerHandle<GameModel>, view: &UseReducerHandle<View>) -> Callback<usize> {
    let (game, view) = (game.dispatcher(), view.dispatcher());
    Callback::from(move |ply| {
        view.dispatch(ViewAction::Message(None));
        game.dispatch(Action::GoTo(ply));
    })
}
