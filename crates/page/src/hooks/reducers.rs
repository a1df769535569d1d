//! The reducers as Yew holds them: the game (the rules crate's `GameState` and the move
//! the person is looking at) and the view.

use crate::state::{apply, browse_target, set_aside_after, Action, GameState};
use crate::view::{View, ViewAction};
use std::ops::Deref;
use std::rc::Rc;
use yew::prelude::*;

/// The game as a reducer's state: the rules crate's [`GameState`], changed by [`Action`]s,
/// and the move the person is looking at when the game cannot stop there.
#[derive(Clone, Debug, PartialEq)]
pub struct GameModel {
    pub state: GameState,
    /// The ply the board shows instead of the game's position, read only (a click in the
    /// move list or on the graph: [`crate::state::browse_target`]); looking never changes
    /// the game, and any other action ends it.
    pub browsing: Option<usize>,
    /// The game in progress that a pasted or opened game replaced, until it is brought
    /// back or another game replaces the board ([`set_aside_after`]).
    pub set_aside: Option<GameState>,
    /// Counts the games the board has held: a new game, a load or a game brought back
    /// starts another (what belongs to one game only, a watch game's pause, ends with it).
    pub generation: u64,
}

impl GameModel {
    pub fn new(state: GameState) -> GameModel {
        GameModel {
            state,
            browsing: None,
            set_aside: None,
            generation: 0,
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
            Action::Browse(ply) => Some(ply),
            _ => None,
        };
        let another = matches!(
            action,
            Action::NewGame { .. } | Action::Load { .. } | Action::Replace { .. }
        );
        let set_aside = set_aside_after(&self.state, self.set_aside.as_ref(), &action);
        let state = match (&action, &self.set_aside) {
            (Action::BringBack, Some(kept)) => kept.clone(),
            (Action::BringBack, None) => return self,
            _ => apply(&self.state, action),
        };
        let browsing = asked.and_then(|ply| browse_target(&state, ply));
        let generation = self.generation + u64::from(another || self.set_aside != set_aside);
        if generation == self.generation && state == self.state && browsing == self.browsing {
            self
        } else {
            Rc::new(GameModel {
                state,
                browsing,
                set_aside,
                generation,
            })
        }
    }
}

impl Reducible for View {
    type Action = ViewAction;

    fn reduce(self: Rc<Self>, action: ViewAction) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}
