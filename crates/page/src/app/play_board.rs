//! The counts and the board: the position [`board_overlay`] says the board shows, with
//! what it puts over the squares, and what a click there asks for.

use crate::components::{Board, Counts};
use crate::editor::EditAction;
use crate::explain::who;
use crate::hooks::GameModel;
use crate::overlay::{legend, BoardOverlay, Showing};
use crate::state::{at_ply, explain_click, Action, GameState};
use crate::view::View;
use othello::{Bitboard, Position, Square};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PlayBoardProps {
    pub game: Rc<GameModel>,
    pub view: Rc<View>,
    /// What the board shows and puts over its squares (`overlay::board_overlay`), decided
    /// once by the game's area, which words its legend from the same.
    pub overlay: Rc<BoardOverlay>,
    /// A move played by a click on the game's board.
    pub on_game: Callback<Action>,
    /// A click on the editor's board.
    pub on_edit: Callback<EditAction>,
    /// Why a click played nothing.
    pub on_message: Callback<Option<String>>,
}

#[function_component(PlayBoard)]
pub fn play_board(props: &PlayBoardProps) -> Html {
    let (game, view) = (&*props.game, &*props.view);
    let BoardOverlay {
        showing,
        tiles,
        marked,
        played,
    } = (*props.overlay).clone();
    let unit = crate::overlay::unit(&tiles);
    let read_only = |why: &'static str| {
        props
            .on_message
            .reform(move |_: Square| Some(why.to_owned()))
    };
    let (shown, on_play) = match (showing, view.editor.as_ref()) {
        (Showing::Editor, Some(editor)) => (
            Shown::still(editor.shown()),
            props.on_edit.reform(EditAction::Click),
        ),
        (Showing::Reviewed(index), _) => (
            Shown::still(game.game.positions()[index]),
            read_only(
                "You are looking at a reviewed move: \"Back to the game\" returns to the game.",
            ),
        ),
        (Showing::Browsed(ply), _) => (
            Shown::of(&at_ply(game, ply), false),
            read_only(
                "You are looking at another position of the game: \"Play from here\" continues \
                 the game from it, \"Back to the game\" returns to where it is.",
            ),
        ),
        _ => (
            Shown::of(game, game.human_to_move()),
            play_click(&props.game, &props.on_game, &props.on_message),
        ),
    };
    html! {
        <>
            <Counts position={shown.position} {unit} />
            <Board position={shown.position} legal={shown.legal} last={shown.last} flips={shown.flips}
                   flip_class={shown.flip_class} {tiles} {marked} {played} {on_play} />
        </>
    }
}

/// What the numbers on the board's squares are, for whom, as [`legend`] words them: the
/// values are the side to move's in the position shown (a hint's, a reviewed move's).
/// Drawn below the game's buttons, so that it coming and going never moves them.
pub fn legend_line(game: &GameModel, overlay: &BoardOverlay) -> Option<String> {
    let side = match overlay.showing {
        Showing::Reviewed(index) => game.game.positions().get(index)?.side_to_move(),
        Showing::Browsed(ply) => at_ply(game, ply).position().side_to_move(),
        Showing::Game | Showing::Editor => game.position().side_to_move(),
    };
    legend(&overlay.tiles, &who(game, side))
}

/// The position the board shows, with the moves the person may play there, and the last
/// move's placement and flips.
struct Shown {
    position: Position,
    legal: Bitboard,
    last: Option<Square>,
    flips: Bitboard,
    flip_class: &'static str,
}

impl Shown {
    /// A position on its own (the editor's, a reviewed move's): nothing to play, no last
    /// move.
    fn still(position: Position) -> Shown {
        Shown {
            position,
            legal: Bitboard::default(),
            last: None,
            flips: Bitboard::default(),
            flip_class: "flip-a",
        }
    }

    /// A game's position, with the person's legal moves when `playable`.
    fn of(game: &GameState, playable: bool) -> Shown {
        let position = *game.position();
        Shown {
            position,
            legal: if playable {
                position.legal_moves()
            } else {
                Bitboard::default()
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
    game: &Rc<GameModel>,
    on_game: &Callback<Action>,
    on_message: &Callback<Option<String>>,
) -> Callback<Square> {
    let (game, on_game, on_message) = (game.clone(), on_game.clone(), on_message.clone());
    Callback::from(move |sq: Square| match explain_click(&game, sq) {
        Ok(mv) => {
            // In analysis a move asks for the new position's analysis, whose panel lies
            // below the buttons on a phone: it is brought into view (issue 68).
            if game.seats == crate::state::Seats::Analysis {
                crate::hooks::scroll::want_panel_text();
            }
            on_game.emit(Action::Play(mv));
        }
        Err(why) => on_message.emit(Some(why)),
    })
}
