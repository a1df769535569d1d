//! The reducers as Yew holds them: the game (the rules crate's `GameState` and the move
//! the person is looking at) and the view.

use crate::state::{
    analysed_from_after, apply, at_ply, browse_target, held_after, ids_after, set_aside_after,
    Action, GameIds, GameState, Seats,
};
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
    /// Games put aside before `set_aside`, oldest first: a game put aside while another
    /// already was sends that one here, not away (the tenth look lost an 8-move game so),
    /// and "Bring it back" then offers each in turn. A new game clears them with the one
    /// put aside.
    pub earlier_aside: Vec<GameState>,
    /// The ids of the newest of `earlier_aside`, by which their reviews and graphs are kept
    /// ([`crate::state::ids_after`]).
    pub earlier_ids: Vec<u64>,
    /// Counts the games the board has held: a new game, a load or a game brought back
    /// starts another (what belongs to one game only, a watch game's pause, ends with it).
    pub generation: u64,
    /// The game's identity on this page, and the game put aside's ([`GameIds`]): what
    /// belongs to one game and outlives a change of the board (its review) is kept by it.
    pub ids: GameIds,
    /// A game loaded from elsewhere waits for the person before the agent plays on
    /// ([`held_after`]).
    pub held: bool,
    /// The seats a game had before "Analyse" made it an analysis, offered back as "Play
    /// on against the agent" ([`analysed_from_after`]; the fourteenth look pressed
    /// Analyse mid-game and lost its opponent with no way back but a new game).
    pub analysed_from: Option<Seats>,
}

impl GameModel {
    pub fn new(state: GameState) -> GameModel {
        GameModel {
            state,
            browsing: None,
            set_aside: None,
            earlier_aside: Vec::new(),
            earlier_ids: Vec::new(),
            generation: 0,
            ids: GameIds::default(),
            held: false,
            analysed_from: None,
        }
    }

    /// The position the board shows: a focused review row's, the one looked back at, else
    /// the game's ([`crate::overlay::shown_ply`]).
    pub fn shown(&self, view: &View) -> othello::Position {
        crate::overlay::shown_ply(view, &self.state, self.browsing)
            .map_or(*self.state.position(), |ply| {
                *at_ply(&self.state, ply).position()
            })
    }

    /// The game's id on this page ([`GameIds::id`]).
    pub fn id(&self) -> u64 {
        self.ids.id
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
        let brought_back = matches!(action, Action::BringBack);
        let action_copy = action.clone();
        let another = matches!(
            action,
            Action::NewGame { .. } | Action::Load { .. } | Action::Replace { .. }
        );
        let mut earlier_aside = self.earlier_aside.clone();
        let set_aside = set_aside_after(
            &self.state,
            self.set_aside.as_ref(),
            &mut earlier_aside,
            &action,
        );
        let state = match (&action, &self.set_aside) {
            (Action::BringBack, Some(kept)) => kept.clone(),
            (Action::BringBack, None) => return self,
            _ => apply(&self.state, action),
        };
        let browsing = asked.and_then(|ply| browse_target(&state, ply));
        let held = held_after(self.held, &action_copy, &state);
        let analysed_from = analysed_from_after(self.analysed_from, self.state.seats, &action_copy);
        let aside_changed = self.set_aside != set_aside;
        let generation = self.generation + u64::from(another || aside_changed);
        // A game put aside by this action is the one on the board before it.
        let put_aside = aside_changed && set_aside.as_ref() == Some(&self.state);
        let mut earlier_ids = self.earlier_ids.clone();
        let ids = ids_after(
            self.ids,
            &mut earlier_ids,
            (self.earlier_aside.len(), earlier_aside.len()),
            (brought_back, another, put_aside),
            set_aside.is_some(),
        );
        if generation == self.generation
            && state == self.state
            && browsing == self.browsing
            && held == self.held
            && analysed_from == self.analysed_from
            && earlier_aside == self.earlier_aside
        {
            self
        } else {
            Rc::new(GameModel {
                state,
                browsing,
                set_aside,
                earlier_aside,
                earlier_ids,
                generation,
                ids,
                held,
                analysed_from,
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
