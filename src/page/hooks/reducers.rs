//! The reducers as Yew holds them: the game (the rules crate's `GameState` and the move
//! the person is looking at) and the view.

use crate::page::state::{apply, browse_target, Action, GameState};
use crate::page::view::{View, ViewAction};
use std::ops::Deref;
use std::rc::Rc;
use yew::prelude::*;

/// The game as a reducer's state: the rules crate's [`GameState`], changed by [`Action`]s,
/// and the move the person is looking at when the game cannot stop there.
#[derive(Clone, Debug, PartialEq)]
pub struct GameModel {
    pub state: GameState,
    /// The ply the board shows instead of the game's position (see
    /// [`crate::page::state::browse_target`]); any other action ends it.
    pub browsing: Option<usize>,
}

impl GameModel {
    pub fn new(state: GameState) -> GameModel {
        GameModel {
            state,
            browsing: None,
        }
    }
}

impl Deref for GameModel {
    type Target = GameState;

    fn deref(&self) -> &GameState {
        &self.state
    }
}

impl Reducible for GameModel {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let asked = match action {
            Action::GoTo(ply) => Some(ply),
            _ => None,
        };
        let state = apply(&self.state, action);
        let browsing = asked.and_then(|ply| browse_target(&state, ply));
        if state == self.state && browsing == self.browsing {
            self
        } else {
            Rc::new(GameModel { state, browsing })
        }
    }
}

impl Reducible for View {
    type Action = ViewAction;

    fn reduce(self: Rc<Self>, action: ViewAction) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}
