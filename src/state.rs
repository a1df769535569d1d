//! The game as the page sees it: one state value changed only by actions (a reducer), so
//! the view is a function of it and every change can be tested without a browser.

use othello::{BoardSize, Color, Game, Move, Position, Variant};

#[derive(Clone, Debug, PartialEq)]
pub struct GameState {
    pub game: Game,
    /// The colour the person plays; the agent plays the other.
    pub human: Color,
    /// Moves taken back, most recent last, for redo.
    pub undone: Vec<Move>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    NewGame {
        size: BoardSize,
        human: Color,
    },
    /// A move by whoever is to move (the person's click or the agent's choice).
    Play(Move),
    /// Takes back moves until it is the person's turn again.
    Undo,
    Redo,
}

impl GameState {
    pub fn new(size: BoardSize, human: Color) -> GameState {
        GameState {
            game: Game::new(Position::start(size, Variant::Standard)),
            human,
            undone: Vec::new(),
        }
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// True when the agent should move now.
    pub fn agent_to_move(&self) -> bool {
        !self.position().is_game_over() && self.position().side_to_move() != self.human
    }

    /// Applies an action; an illegal move leaves the state as it was.
    pub fn apply(&self, action: Action) -> GameState {
        let mut next = self.clone();
        match action {
            Action::NewGame { size, human } => return GameState::new(size, human),
            Action::Play(mv) => {
                if next.game.push(mv).is_ok() {
                    next.undone.clear();
                }
            }
            Action::Undo => {
                while let Some(mv) = next.game.pop() {
                    next.undone.push(mv);
                    let pos = next.game.position();
                    if pos.side_to_move() == next.human && !pos.must_pass() {
                        break;
                    }
                }
            }
            Action::Redo => {
                while let Some(mv) = next.undone.pop() {
                    if next.game.push(mv).is_err() {
                        next.undone.clear();
                        break;
                    }
                    if next.position().side_to_move() == next.human {
                        break;
                    }
                }
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::Square;

    fn mv(text: &str) -> Action {
        Action::Play(Move::parse(text, BoardSize::Eight).expect("valid"))
    }

    #[test]
    fn an_illegal_click_changes_nothing() {
        let state = GameState::new(BoardSize::Eight, Color::Black);
        assert_eq!(state.apply(mv("a1")), state);
    }

    #[test]
    fn after_the_person_moves_it_is_the_agents_turn() {
        let state = GameState::new(BoardSize::Eight, Color::Black).apply(mv("f5"));
        assert!(state.agent_to_move());
        assert_eq!(state.game.moves().len(), 1);
    }

    #[test]
    fn undo_takes_back_to_the_persons_turn_and_redo_replays() {
        let start = GameState::new(BoardSize::Eight, Color::Black);
        let played = start
            .apply(mv("f5"))
            .apply(mv("d6"))
            .apply(mv("c3"))
            .apply(mv("d3"));
        let undone = played.apply(Action::Undo);
        assert_eq!(undone.game.moves().len(), 2);
        assert!(!undone.agent_to_move());
        let redone = undone.apply(Action::Redo);
        assert_eq!(redone.game, played.game);
        // A new move after undo drops the redo list.
        let branched = undone.apply(mv("c5"));
        assert!(branched.undone.is_empty());
        assert_eq!(
            branched.game.moves().last(),
            Some(&Move::Place(
                Square::parse("c5", BoardSize::Eight).expect("valid")
            ))
        );
    }

    #[test]
    fn a_new_game_starts_over_on_the_chosen_board() {
        let state = GameState::new(BoardSize::Eight, Color::Black).apply(mv("f5"));
        let fresh = state.apply(Action::NewGame {
            size: BoardSize::Six,
            human: Color::White,
        });
        assert_eq!(fresh.position().size(), BoardSize::Six);
        assert!(fresh.agent_to_move());
        assert!(fresh.game.moves().is_empty());
    }
}
