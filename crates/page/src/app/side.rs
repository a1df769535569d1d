//! Beside the game: a new game, the moves and records, a position to analyse, and the
//! networks. It shows the game and the view it is given, and asks for
//! loads, jumps and networks through its callbacks.

use crate::components::{download_time, AnalysisForm, MoveList, NetworkPanel, NewGame};
use crate::hooks::{GameModel, Loaders, NewGameFlow};
use crate::models::{builtin_named, learners_for, BuiltinModel};
use crate::records::{file_stem, ggf_record, ggf_with_review};
use crate::state::placed;
use crate::view::{ModelStatus, View};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SideProps {
    pub game: Rc<GameModel>,
    pub view: Rc<View>,
    pub new_game: NewGameFlow,
    /// The agent as the game's records name it.
    pub opponent: String,
    /// Goes to the position after this many moves (a click in the move list).
    pub on_goto: Callback<usize>,
    /// Loads a pasted transcript, record or board text, or a record's picked game.
    pub loaders: Loaders,
    /// Opens a record from a file.
    pub on_open: Callback<web_sys::File>,
    /// A person's own network files.
    pub on_upload: Callback<Vec<web_sys::File>>,
    /// Play this shipped network.
    pub on_builtin: Callback<&'static BuiltinModel>,
}

#[function_component(SidePanel)]
pub fn side_panel(props: &SideProps) -> Html {
    let (game, view, loaders) = (&*props.game, &*props.view, &props.loaders);
    let pos = *game.position();
    let (size, variant) = (pos.size(), pos.variant());
    // The shipped network playing (or loading) now; none while a network of one's own is.
    let active_builtin = match view.model(size, variant) {
        Some(ModelStatus::Ready(name) | ModelStatus::Loading(name)) => {
            builtin_named(name).filter(|m| m.size == size && m.variant == variant)
        }
        _ => None,
    };
    let flow = &props.new_game;
    // The position the board shows: an earlier one while looking back or at a review row,
    // which is what the form's "left empty: the position shown" promises (it gave the
    // final one; with a review row shown, until the fourteenth look).
    let shown = game.shown(view);
    html! {
        <aside class="side">
            <NewGame {size} {variant} seats={game.seats} on_new={flow.on_new.clone()} pending={flow.pending}
                     moves={placed(&game.game)} on_confirm={flow.on_confirm.clone()} on_cancel={flow.on_cancel.clone()} />
            <MoveList game={game.game.clone()} undone={game.undone.clone()} on_goto={props.on_goto.clone()} on_load={loaders.transcript.clone()}
                      choices={loaders.choices.clone()} on_pick={loaders.on_pick.clone()}
                      ggf={ggf_record(game, &props.opponent)}
                      ggf_reviewed={ggf_with_review(game, &props.opponent, view.review.of(game.id()))} file_name={file_stem(game, &download_time())}
                      on_open={props.on_open.clone()} browsing={crate::overlay::shown_ply(view, game, game.browsing)} book_plies={book_plies(&game.game, &view.book_moves)} />
            // While the editor is open the board shows its position, and so does this
            // field (the tenth look read the last game's final position beside the editor).
            <AnalysisForm board_text={view.editor.as_ref().map_or_else(|| shown.to_board_text(), crate::editor::Editor::board_text)}
                          on_load={loaders.board.clone()}
                          on_here={view.editor.is_none().then(|| loaders.here.clone())} />
            <NetworkPanel learners={learners_for(size, variant).collect::<Vec<_>>()} active={active_builtin}
                          on_upload={props.on_upload.clone()} on_builtin={props.on_builtin.clone()} />
        </aside>
    }
}

/// The plies (1-based) whose move the agent played from the opening book.
fn book_plies(game: &othello::Game, book_moves: &[(u64, othello::Move)]) -> Vec<usize> {
    game.positions()
        .iter()
        .zip(game.moves())
        .enumerate()
        .filter(|(_, (pos, mv))| book_moves.contains(&(pos.hash(), **mv)))
        .map(|(i, _)| i + 1)
        .collect()
}
