//! A game as a front end plays it: who sits at each colour, forced passes played at once,
//! undo back to a person's turn and redo. The web page and `othello play` share it, so
//! both take back and replay moves the same way.

use crate::ggf::{GgfGame, MoveNote};
use crate::{Bitboard, Color, Game, IllegalMove, Move, Position, Square};
use std::fmt;

/// Who moves the pieces of each colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Seats {
    /// A person plays this colour, the agent the other.
    Human(Color),
    /// The agent plays both sides; the person watches.
    AgentVsAgent,
    /// The person moves for both sides; the agent only analyses, never plays.
    Analysis,
}

impl Seats {
    /// Whether the agent moves the pieces of `color`.
    pub fn agent_plays(self, color: Color) -> bool {
        match self {
            Seats::Human(human) => human != color,
            Seats::AgentVsAgent => true,
            Seats::Analysis => false,
        }
    }
}

/// Why a move was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    GameOver,
    /// The person moved on the agent's turn, or the agent on the person's.
    NotYourTurn,
    Illegal(IllegalMove),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => f.write_str("the game is over"),
            PlayError::NotYourTurn => f.write_str("it is not your turn"),
            PlayError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {}

#[derive(Clone, Debug, PartialEq)]
pub struct GameState {
    pub game: Game,
    pub seats: Seats,
    /// Moves taken back, most recent last, for redo.
    pub undone: Vec<Move>,
    /// The record the game came in, when it came from elsewhere (a GGF record; a
    /// transcript or a position set up, as a record that says nothing more): its moves
    /// with their times and evaluations, its players, result, date, place and every
    /// other property. `None` for a game begun here. Moves taken back and played leave
    /// it as it came; [`GameState::record_in_play`] says whether it is still this game's.
    pub record: Option<GgfGame>,
}

impl GameState {
    pub fn new(start: Position, seats: Seats) -> GameState {
        GameState::from_game(Game::new(start), seats)
    }

    /// Takes over a game (a loaded transcript, a position set up from text); a pass that
    /// is forced at its end is played at once.
    pub fn from_game(game: Game, seats: Seats) -> GameState {
        let mut state = GameState {
            game,
            seats,
            undone: Vec::new(),
            record: None,
        };
        state.pass_if_forced();
        state
    }

    /// Takes over the game of a record, keeping the record with it.
    pub fn from_record(mut record: GgfGame, seats: Seats) -> GameState {
        let mut state = GameState::from_game(record.game().clone(), seats);
        // A record may stop before a pass the rules force; played at once here, it is
        // the record's pass, so the record's moves stay a beginning of the game's.
        if state.game.moves().len() > record.game().moves().len() {
            let _ = record.push(Move::Pass, MoveNote::default());
        }
        state.record = Some(record);
        state
    }

    /// The record the game came in, while it is still that game: while the game's moves
    /// are the record's (all of them, or its first ones with the rest taken back or
    /// stepped back from). A move played here beyond or instead of the record's was not
    /// played by the record's players, and its result, date and clocks are another
    /// game's: from then on `None`, until the game is taken back into the record's line.
    pub fn record_in_play(&self) -> Option<&GgfGame> {
        self.record.as_ref().filter(|record| {
            record.game().start() == self.game.start()
                && record.game().moves().starts_with(self.game.moves())
        })
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    pub fn agent_plays(&self, color: Color) -> bool {
        self.seats.agent_plays(color)
    }

    /// True when the agent should move now.
    pub fn agent_to_move(&self) -> bool {
        let pos = self.position();
        !pos.is_game_over() && self.agent_plays(pos.side_to_move())
    }

    /// True when the person may move now.
    pub fn human_to_move(&self) -> bool {
        let pos = self.position();
        !pos.is_game_over() && !self.agent_plays(pos.side_to_move())
    }

    /// The person's move.
    pub fn play_human(&mut self, mv: Move) -> Result<(), PlayError> {
        self.check_turn(false)?;
        self.push(mv)
    }

    /// The agent's move.
    pub fn play_agent(&mut self, mv: Move) -> Result<(), PlayError> {
        self.check_turn(true)?;
        self.push(mv)
    }

    fn check_turn(&self, agent: bool) -> Result<(), PlayError> {
        if self.position().is_game_over() {
            Err(PlayError::GameOver)
        } else if self.agent_plays(self.position().side_to_move()) != agent {
            Err(PlayError::NotYourTurn)
        } else {
            Ok(())
        }
    }

    fn push(&mut self, mv: Move) -> Result<(), PlayError> {
        self.game.push(mv).map_err(PlayError::Illegal)?;
        self.undone.clear();
        self.pass_if_forced();
        Ok(())
    }

    /// Nobody chooses a forced pass: it is played at once (and announced by
    /// [`GameState::pass_notice`]).
    fn pass_if_forced(&mut self) {
        if self.position().must_pass() {
            // A forced pass is always legal.
            let _ = self.game.push(Move::Pass);
        }
    }

    /// Takes back moves until a person is to move again (one move in analysis, where the
    /// person moves both sides); false when there was nothing to take back.
    pub fn undo(&mut self) -> bool {
        if !self.can_undo() {
            return false;
        }
        let mut undone = false;
        while let Some(mv) = self.game.pop() {
            self.undone.push(mv);
            undone = true;
            let pos = self.game.position();
            if !self.agent_plays(pos.side_to_move()) && !pos.must_pass() {
                break;
            }
        }
        undone
    }

    /// Replays what [`GameState::undo`] took back, up to the next turn of a person; false
    /// when there was nothing to replay.
    pub fn redo(&mut self) -> bool {
        let mut redone = false;
        while let Some(mv) = self.undone.pop() {
            if self.game.push(mv).is_err() {
                self.undone.clear();
                break;
            }
            redone = true;
            let pos = *self.position();
            if pos.must_pass() && self.undone.last() == Some(&Move::Pass) {
                continue;
            }
            if !self.agent_plays(pos.side_to_move()) || pos.is_game_over() {
                break;
            }
        }
        redone
    }

    /// Whether undo would take anything back now (a person has moved, or analysis has a
    /// move to take back).
    pub fn can_undo(&self) -> bool {
        let moves = self.game.moves();
        let positions = self.game.positions();
        (0..moves.len())
            .any(|i| !self.agent_plays(positions[i].side_to_move()) && !positions[i].must_pass())
    }

    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// The position after `ply` moves (or as near as the game and its redo list reach),
    /// the moves after it on the redo list, whoever is to move there: what a person
    /// browsing the moves sees. [`GameState::go_to`] goes on back to a person's turn.
    pub fn seek(&mut self, ply: usize) {
        while self.game.moves().len() > ply {
            match self.game.pop() {
                Some(mv) => self.undone.push(mv),
                None => break,
            }
        }
        while self.game.moves().len() < ply {
            let Some(mv) = self.undone.pop() else { break };
            if self.game.push(mv).is_err() {
                self.undone.clear();
                break;
            }
        }
    }

    /// Goes to the position after `ply` moves: back by moving moves onto the redo list,
    /// forward by replaying it. Where that is not a person's turn (an agent's, or a forced
    /// pass), it goes on back to one, as undo does, so nothing is played behind the
    /// person's back; agent against agent stops exactly there. False when nothing changed.
    pub fn go_to(&mut self, ply: usize) -> bool {
        let before = (self.game.moves().len(), self.undone.len());
        self.seek(ply);
        let stop_here = |s: &GameState| {
            let pos = s.position();
            s.seats == Seats::AgentVsAgent
                || pos.is_game_over()
                || (!s.agent_plays(pos.side_to_move()) && !pos.must_pass())
        };
        while !stop_here(self) {
            match self.game.pop() {
                Some(mv) => self.undone.push(mv),
                None => break,
            }
        }
        before != (self.game.moves().len(), self.undone.len())
    }

    /// Who passed since a person last placed a disc (since the last placement when the
    /// agent plays both sides), oldest first: a pass stays news until the person acts.
    pub fn recent_passes(&self) -> Vec<Color> {
        let moves = self.game.moves();
        let positions = self.game.positions();
        let mut passes = Vec::new();
        for i in (0..moves.len()).rev() {
            let mover = positions[i].side_to_move();
            if moves[i] == Move::Pass {
                passes.push(mover);
            } else if self.seats == Seats::AgentVsAgent || !self.agent_plays(mover) {
                break;
            }
        }
        passes.reverse();
        passes
    }

    /// "White has no move and passes" while the last move is a pass.
    pub fn pass_notice(&self) -> Option<String> {
        let moves = self.game.moves();
        (moves.last() == Some(&Move::Pass)).then(|| {
            let passer = self.game.positions()[moves.len() - 1].side_to_move();
            format!("{passer} has no move and passes")
        })
    }

    /// Squares whose disc changed colour in the last move (for the flip animation).
    pub fn last_flips(&self) -> Bitboard {
        let moves = self.game.moves();
        match moves.last() {
            Some(&mv) => self.game.positions()[moves.len() - 1].flips(mv),
            None => Bitboard(0),
        }
    }

    /// The last placement, for the marker on the board.
    pub fn last_placement(&self) -> Option<Square> {
        self.game.moves().iter().rev().find_map(|mv| mv.square())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoardSize, Variant};

    fn mv(text: &str) -> Move {
        Move::parse(text, BoardSize::Eight).expect("valid")
    }

    fn as_black() -> GameState {
        GameState::new(
            Position::start(BoardSize::Eight, Variant::Standard),
            Seats::Human(Color::Black),
        )
    }

    #[test]
    fn an_illegal_move_changes_nothing_and_says_why() {
        let mut state = as_black();
        let before = state.clone();
        assert!(matches!(
            state.play_human(mv("a1")),
            Err(PlayError::Illegal(_))
        ));
        assert_eq!(state, before);
    }

    #[test]
    fn each_side_moves_only_on_its_turn() {
        let mut state = as_black();
        assert_eq!(state.play_agent(mv("f5")), Err(PlayError::NotYourTurn));
        state.play_human(mv("f5")).expect("legal");
        assert!(state.agent_to_move() && !state.human_to_move());
        assert_eq!(state.play_human(mv("d6")), Err(PlayError::NotYourTurn));
        state.play_agent(mv("d6")).expect("legal");
        assert!(state.human_to_move());
    }

    #[test]
    fn undo_goes_back_to_the_persons_turn_and_redo_replays_to_the_next() {
        let mut state = as_black();
        assert!(!state.can_undo() && !state.undo());
        for (human, agent) in [("f5", "d6"), ("c3", "d3")] {
            state.play_human(mv(human)).expect("legal");
            state.play_agent(mv(agent)).expect("legal");
        }
        let played = state.clone();
        assert!(state.can_undo());
        assert!(state.undo());
        assert_eq!(state.game.moves().len(), 2);
        assert!(state.human_to_move() && state.can_redo());
        assert!(state.redo());
        assert_eq!(
            state,
            GameState {
                undone: vec![],
                ..played
            }
        );
        state.undo();
        state.play_human(mv("c5")).expect("legal");
        assert!(!state.can_redo(), "a new move drops the redo list");
    }

    #[test]
    fn as_white_there_is_nothing_to_undo_before_the_persons_first_move() {
        let mut state = GameState::new(
            Position::start(BoardSize::Eight, Variant::Standard),
            Seats::Human(Color::White),
        );
        state.play_agent(mv("f5")).expect("legal");
        assert!(!state.can_undo());
        assert!(!state.undo());
        assert_eq!(state.game.moves().len(), 1);
    }

    /// A 6x6 game where Black to move has a move that leaves White without a placement.
    fn black_can_force_a_pass() -> (Game, Move) {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
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
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let choice = legal[(seed >> 33) as usize % legal.len()];
                game.push(choice).expect("a legal move");
            }
        }
        panic!("no forced pass in 500 games");
    }

    #[test]
    fn a_forced_pass_is_played_and_announced_and_undo_takes_it_back_with_the_move() {
        let (game, forcing) = black_can_force_a_pass();
        let before = game.moves().len();
        let mut state = GameState::from_game(game, Seats::Human(Color::Black));
        state.play_human(forcing).expect("legal");
        assert_eq!(state.game.moves().len(), before + 2);
        assert_eq!(state.game.moves().last(), Some(&Move::Pass));
        assert_eq!(
            state.pass_notice().as_deref(),
            Some("White has no move and passes")
        );
        assert!(state.human_to_move());
        let after = state.clone();
        state.undo();
        assert_eq!(state.game.moves().len(), before);
        assert_eq!(state.undone, vec![Move::Pass, forcing]);
        state.redo();
        assert_eq!(state.game, after.game);
    }

    #[test]
    fn a_pass_stays_news_until_the_person_places_a_disc() {
        // The agent's pass: news on the person's turn, gone once the person has moved.
        let (game, forcing) = black_can_force_a_pass();
        let mut state = GameState::from_game(game.clone(), Seats::Human(Color::Black));
        assert_eq!(state.recent_passes(), vec![]);
        state.play_human(forcing).expect("legal");
        assert_eq!(state.recent_passes(), vec![Color::White]);
        let reply = state.position().legal_move_list()[0];
        state.play_human(reply).expect("legal");
        let after = state.recent_passes();
        assert!(after.is_empty() || state.game.moves().last() == Some(&Move::Pass));
        // The person's own pass: still news after the agent's next move.
        let mut state = GameState::from_game(game, Seats::Human(Color::White));
        state.play_agent(forcing).expect("legal");
        assert_eq!(state.recent_passes(), vec![Color::White]);
        assert!(state.agent_to_move());
        let next = state.position().legal_move_list()[0];
        state.play_agent(next).expect("legal");
        assert_eq!(state.recent_passes()[0], Color::White);
    }

    #[test]
    fn go_to_moves_along_the_game_and_keeps_the_rest_as_redo() {
        let mut state = as_black();
        for (human, agent) in [("f5", "d6"), ("c3", "d3"), ("c4", "f4")] {
            state.play_human(mv(human)).expect("legal");
            state.play_agent(mv(agent)).expect("legal");
        }
        let full = state.game.clone();
        // After the agent's d6: the person's turn, exactly there.
        assert!(state.go_to(2));
        assert_eq!(state.game.moves().len(), 2);
        assert_eq!(state.undone.len(), 4);
        // After the person's own c3 it would be the agent's turn: back to before c3.
        assert!(state.go_to(5));
        assert_eq!(state.game.moves().len(), 4);
        assert!(state.human_to_move());
        assert!(state.go_to(6));
        assert_eq!(state.game, full);
        assert!(!state.can_redo());
        assert!(!state.go_to(6));
    }

    #[test]
    fn in_analysis_the_person_moves_both_sides_and_undo_takes_one_move() {
        let mut state = GameState::new(
            Position::start(BoardSize::Eight, Variant::Standard),
            Seats::Analysis,
        );
        assert!(!state.agent_to_move());
        state.play_human(mv("f5")).expect("legal");
        state.play_human(mv("d6")).expect("legal");
        state.undo();
        assert_eq!(state.game.moves().len(), 1);
    }

    #[test]
    fn last_flips_are_the_discs_the_last_move_turned() {
        let mut state = as_black();
        state.play_human(mv("f5")).expect("legal");
        assert_eq!(state.last_flips().0.count_ones(), 1);
        assert!(state
            .last_flips()
            .contains(mv("e5").square().expect("a square")));
        assert_eq!(state.last_placement(), mv("f5").square());
    }

    #[test]
    fn a_record_stays_the_games_until_a_move_is_played_that_is_not_its_own() {
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let game = Game::from_transcript("f5d6c3d3", start).expect("legal");
        let mut record = GgfGame::new(game);
        record.black = Some("Ann".to_owned());
        let mut state = GameState::from_record(record.clone(), Seats::Analysis);
        assert_eq!(
            state
                .record_in_play()
                .and_then(|r| r.black.clone())
                .as_deref(),
            Some("Ann")
        );
        // Stepped back through, taken back, replayed: still the record's moves.
        state.go_to(1);
        assert!(state.record_in_play().is_some());
        state.redo();
        assert!(state.record_in_play().is_some());
        // Another move than its third: another game, though the record is kept.
        state.go_to(2);
        state.play_human(mv("c5")).expect("legal");
        assert!(state.record_in_play().is_none() && state.record.is_some());
        state.undo();
        assert!(state.record_in_play().is_some());
        // Beyond its last move too.
        let mut beyond = GameState::from_record(record, Seats::Analysis);
        beyond.play_human(mv("c4")).expect("legal");
        assert!(beyond.record_in_play().is_none());
    }

    #[test]
    fn a_pass_forced_at_a_records_end_is_the_records() {
        // Black to move with no move (a1 White, b1 Black), White with c1: Black's pass is
        // played at once.
        let pos = Position::from_board_text(&format!("OX{} X", "-".repeat(62)), Variant::Standard)
            .expect("a board");
        assert!(pos.must_pass());
        let state = GameState::from_record(GgfGame::new(Game::new(pos)), Seats::Analysis);
        assert_eq!(state.game.moves(), &[Move::Pass]);
        assert_eq!(
            state.record_in_play().map(|r| r.game().moves().len()),
            Some(1)
        );
    }
}
