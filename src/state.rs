//! The game as the page sees it: one state value changed only by actions (a reducer), so
//! the view is a function of it and every change can be tested without a browser.

use othello::{BoardSize, Color, Game, Move, Position, Variant};
use serde::{Deserialize, Serialize};

/// Who moves the pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Players {
    /// The person plays this colour, the agent the other.
    Human(Color),
    /// The agent plays both sides; the person watches.
    AgentVsAgent,
    /// The person moves for both sides and the agent only analyses (never plays).
    Analysis,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GameState {
    pub game: Game,
    pub players: Players,
    /// Moves taken back, most recent last, for redo.
    pub undone: Vec<Move>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    NewGame {
        size: BoardSize,
        variant: Variant,
        players: Players,
    },
    /// The person's move; ignored when it is illegal or the agent's turn.
    Play(Move),
    /// The agent's move for the position with this hash; ignored when the game has moved on
    /// since the search started (an undo, a new game).
    AgentMove {
        position: u64,
        mv: Move,
    },
    /// Takes back moves until it is the person's turn again.
    Undo,
    Redo,
    SetPlayers(Players),
    /// Replaces the game (a pasted transcript, a board set up from text).
    Load {
        game: Game,
        players: Players,
    },
}

impl GameState {
    pub fn new(size: BoardSize, variant: Variant, players: Players) -> GameState {
        GameState {
            game: Game::new(Position::start(size, variant)),
            players,
            undone: Vec::new(),
        }
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    fn agent_plays(&self, color: Color) -> bool {
        match self.players {
            Players::Human(human) => human != color,
            Players::AgentVsAgent => true,
            Players::Analysis => false,
        }
    }

    /// True when the agent should move now.
    pub fn agent_to_move(&self) -> bool {
        let pos = self.position();
        !pos.is_game_over() && self.agent_plays(pos.side_to_move())
    }

    /// True when the person may click a square now.
    pub fn human_to_move(&self) -> bool {
        let pos = self.position();
        !pos.is_game_over() && !self.agent_plays(pos.side_to_move())
    }

    /// "White has no move and passes" after a pass, until the next move.
    pub fn pass_notice(&self) -> Option<String> {
        let moves = self.game.moves();
        let positions = self.game.positions();
        (moves.last() == Some(&Move::Pass)).then(|| {
            let passer = positions[moves.len() - 1].side_to_move();
            format!("{passer} has no move and passes")
        })
    }

    /// Squares whose disc changed colour in the last move (for the flip animation).
    pub fn last_flips(&self) -> othello::Bitboard {
        let moves = self.game.moves();
        match moves.last() {
            Some(&mv) => self.game.positions()[moves.len() - 1].flips(mv),
            None => othello::Bitboard(0),
        }
    }

    /// The last placement, for the marker on the board.
    pub fn last_placement(&self) -> Option<othello::Square> {
        self.game.moves().iter().rev().find_map(|mv| mv.square())
    }

    /// Whether a heat map computed for the position with hash `searched` still belongs on
    /// the board: it does for the current position, and after the agent played from it,
    /// until the next move by the person.
    pub fn heat_visible(&self, searched: u64) -> bool {
        let moves = self.game.moves();
        let positions = self.game.positions();
        if self.position().hash() == searched {
            return true;
        }
        let mut placements = 0;
        for i in (0..moves.len()).rev() {
            let before = &positions[i];
            if moves[i] != Move::Pass {
                placements += 1;
                if placements > 1 || !self.agent_plays(before.side_to_move()) {
                    return false;
                }
            }
            if before.hash() == searched {
                return true;
            }
        }
        false
    }

    /// Applies an action; one that does not apply leaves the state as it was.
    pub fn apply(&self, action: Action) -> GameState {
        let mut next = self.clone();
        match action {
            Action::NewGame {
                size,
                variant,
                players,
            } => return GameState::new(size, variant, players),
            Action::Play(mv) => {
                if self.human_to_move() && next.game.push(mv).is_ok() {
                    next.undone.clear();
                    next.pass_if_forced();
                }
            }
            Action::AgentMove { position, mv } => {
                if self.agent_to_move()
                    && self.position().hash() == position
                    && next.game.push(mv).is_ok()
                {
                    next.undone.clear();
                    next.pass_if_forced();
                }
            }
            Action::Undo => {
                while let Some(mv) = next.game.pop() {
                    next.undone.push(mv);
                    let pos = next.game.position();
                    if !self.agent_plays(pos.side_to_move()) && !pos.must_pass() {
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
                    let pos = next.position();
                    if pos.must_pass() && next.undone.last() == Some(&Move::Pass) {
                        continue;
                    }
                    if !next.agent_plays(pos.side_to_move()) || pos.is_game_over() {
                        break;
                    }
                }
            }
            Action::SetPlayers(players) => next.players = players,
            Action::Load { game, players } => {
                next = GameState {
                    game,
                    players,
                    undone: Vec::new(),
                };
                next.pass_if_forced();
            }
        }
        next
    }

    /// Nobody chooses a forced pass: it is played at once and announced.
    fn pass_if_forced(&mut self) {
        if self.position().must_pass() {
            // A forced pass is always legal.
            let _ = self.game.push(Move::Pass);
        }
    }
}

/// Parses a pasted transcript (`f5d6c3`, passes optional) on the given board.
pub fn game_from_transcript(text: &str, size: BoardSize, variant: Variant) -> Result<Game, String> {
    Game::from_transcript(text.trim(), Position::start(size, variant)).map_err(|e| e.to_string())
}

/// Parses board text (64 or 36 squares, a space, the side to move) into a game that
/// starts there.
pub fn game_from_board_text(text: &str, variant: Variant) -> Result<Game, String> {
    Position::from_board_text(text.trim(), variant)
        .map(Game::new)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::Square;

    fn mv(text: &str) -> Move {
        Move::parse(text, BoardSize::Eight).expect("valid")
    }

    fn play(text: &str) -> Action {
        Action::Play(mv(text))
    }

    fn agent(state: &GameState, text: &str) -> GameState {
        state.apply(Action::AgentMove {
            position: state.position().hash(),
            mv: mv(text),
        })
    }

    fn as_black() -> GameState {
        GameState::new(
            BoardSize::Eight,
            Variant::Standard,
            Players::Human(Color::Black),
        )
    }

    #[test]
    fn an_illegal_click_changes_nothing() {
        let state = as_black();
        assert_eq!(state.apply(play("a1")), state);
    }

    #[test]
    fn after_the_person_moves_it_is_the_agents_turn_and_clicks_are_ignored() {
        let state = as_black().apply(play("f5"));
        assert!(state.agent_to_move());
        assert!(!state.human_to_move());
        assert_eq!(state.game.moves().len(), 1);
        // d6 is legal for White, but White is the agent.
        assert_eq!(state.apply(play("d6")), state);
    }

    #[test]
    fn the_agents_move_is_dropped_when_the_game_moved_on() {
        let state = as_black().apply(play("f5"));
        let stale = Action::AgentMove {
            position: Position::start(BoardSize::Eight, Variant::Standard).hash(),
            mv: mv("d6"),
        };
        assert_eq!(state.apply(stale), state);
        let answered = agent(&state, "d6");
        assert_eq!(answered.game.moves().len(), 2);
        assert!(answered.human_to_move());
    }

    #[test]
    fn undo_takes_back_to_the_persons_turn_and_redo_replays() {
        let s = as_black().apply(play("f5"));
        let s = agent(&s, "d6");
        let s = s.apply(play("c3"));
        let played = agent(&s, "d3");
        let undone = played.apply(Action::Undo);
        assert_eq!(undone.game.moves().len(), 2);
        assert!(undone.human_to_move());
        let redone = undone.apply(Action::Redo);
        assert_eq!(redone.game, played.game);
        // A new move after undo drops the redo list.
        let branched = undone.apply(play("c5"));
        assert!(branched.undone.is_empty());
        assert_eq!(
            branched.game.moves().last(),
            Some(&Move::Place(
                Square::parse("c5", BoardSize::Eight).expect("valid")
            ))
        );
    }

    /// A game where Black to move has a move that leaves White without a placement,
    /// found by replaying simple pseudo-random games.
    fn black_can_force_a_pass() -> (Game, Move) {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..500 {
            let mut game = Game::new(Position::start(BoardSize::Six, Variant::Standard));
            while !game.position().is_game_over() {
                let pos = *game.position();
                let legal = pos.legal_move_list();
                if pos.side_to_move() == Color::Black {
                    if let Some(&m) = legal.iter().find(|&&m| pos.play_unchecked(m).must_pass()) {
                        return (game, m);
                    }
                }
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let choice = legal[(state >> 33) as usize % legal.len()];
                game.push(choice).expect("a legal move");
            }
        }
        panic!("no forced pass in 500 games");
    }

    #[test]
    fn a_forced_pass_is_played_and_announced_and_undo_skips_it() {
        let (game, forcing) = black_can_force_a_pass();
        let before = game.moves().len();
        let state = GameState {
            game,
            players: Players::Human(Color::Black),
            undone: vec![],
        };
        assert!(state.human_to_move());
        let after = state.apply(Action::Play(forcing));
        assert_eq!(after.game.moves().len(), before + 2);
        assert_eq!(after.game.moves().last(), Some(&Move::Pass));
        assert_eq!(
            after.pass_notice().as_deref(),
            Some("White has no move and passes")
        );
        assert!(after.human_to_move());
        let undone = after.apply(Action::Undo);
        assert_eq!(undone.game.moves().len(), before);
        assert_eq!(undone.undone, vec![Move::Pass, forcing]);
        assert_eq!(undone.apply(Action::Redo).game, after.game);
    }

    #[test]
    fn a_new_game_starts_over_on_the_chosen_board() {
        let state = as_black().apply(play("f5"));
        let fresh = state.apply(Action::NewGame {
            size: BoardSize::Six,
            variant: Variant::Reversed,
            players: Players::Human(Color::White),
        });
        assert_eq!(fresh.position().size(), BoardSize::Six);
        assert_eq!(fresh.position().variant(), Variant::Reversed);
        assert!(fresh.agent_to_move());
        assert!(fresh.game.moves().is_empty());
    }

    #[test]
    fn in_analysis_the_person_moves_both_sides_and_undo_takes_one_move() {
        let state = GameState::new(BoardSize::Eight, Variant::Standard, Players::Analysis);
        assert!(!state.agent_to_move());
        let s = state.apply(play("f5")).apply(play("d6"));
        assert_eq!(s.game.moves().len(), 2);
        assert_eq!(s.apply(Action::Undo).game.moves().len(), 1);
    }

    #[test]
    fn agent_vs_agent_leaves_nothing_to_click() {
        let state = GameState::new(BoardSize::Six, Variant::Standard, Players::AgentVsAgent);
        assert!(state.agent_to_move());
        let legal = state.position().legal_move_list()[0];
        assert_eq!(state.apply(Action::Play(legal)), state);
    }

    #[test]
    fn the_heat_map_stays_after_the_agents_move_until_the_person_moves() {
        let s = as_black().apply(play("f5"));
        let searched = s.position().hash();
        assert!(s.heat_visible(searched));
        let s = agent(&s, "d6");
        assert!(s.heat_visible(searched));
        let s = s.apply(play("c3"));
        assert!(!s.heat_visible(searched));
    }

    #[test]
    fn last_flips_are_the_discs_the_last_move_turned() {
        let s = as_black().apply(play("f5"));
        let flips = s.last_flips();
        assert_eq!(flips.0.count_ones(), 1);
        let e5 = Square::parse("e5", BoardSize::Eight).expect("valid");
        assert!(flips.contains(e5));
        assert_eq!(
            s.last_placement(),
            Some(Square::parse("f5", BoardSize::Eight).expect("valid"))
        );
    }

    #[test]
    fn transcripts_and_board_text_load_or_say_what_is_wrong() {
        let game = game_from_transcript(" f5d6c3 ", BoardSize::Eight, Variant::Standard)
            .expect("a legal opening");
        assert_eq!(game.moves().len(), 3);
        assert!(game_from_transcript("f5a1", BoardSize::Eight, Variant::Standard).is_err());
        assert!(game_from_board_text("XO", Variant::Standard).is_err());
        let text = Position::start(BoardSize::Six, Variant::Standard).to_board_text();
        let game = game_from_board_text(&text, Variant::Standard).expect("valid");
        assert_eq!(game.position().size(), BoardSize::Six);
    }
}
