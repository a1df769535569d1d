//! The game as the page changes it: actions on the shared [`GameState`] (the rules
//! crate's, which `othello play` uses too), applied by a reducer, so the view is a function
//! of the state and every change can be tested without a browser.

use othello::{
    BoardSize, Color, Game, GgfGame, Move, Position, Square, TranscriptErrorKind, Variant,
};
pub use othello::{GameState, Seats};

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    NewGame {
        size: BoardSize,
        variant: Variant,
        seats: Seats,
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
    SetSeats(Seats),
    /// Shows the position after this many moves without changing the game (a click in the
    /// move list or on the graph): only the page's model holds what is shown
    /// (`hooks::GameModel::browsing`), and any other action ends it.
    Browse(usize),
    /// Continues the game from the position after this many moves, as the person chose
    /// ("Play from here"): the later moves go on the redo list and stay there until a
    /// move is played.
    PlayFrom(usize),
    /// Replaces the game (a balanced opening, after New game asked).
    Load {
        game: Game,
        seats: Seats,
    },
    /// Replaces the game with one the person pasted, opened or set up (a transcript, a
    /// record, board text, the editor's board), putting a game in progress aside, to be brought back
    /// ([`set_aside_after`]). The game comes as a record, kept with it
    /// ([`GameState::record`]): a GGF record's players, result and move times, and for the
    /// others a record that says nothing more, so that what nobody played here is
    /// credited to nobody.
    Replace {
        record: GgfGame,
        seats: Seats,
    },
    /// Brings back the game a `Replace` put aside (the page holds it).
    BringBack,
    /// The person lets the agent play on in a game loaded from elsewhere ([`held_after`]).
    PlayOn,
}

/// Which game is which on this page: the game on the board, the one put aside, and the last
/// id given. A new game, a load or a pasted game gets an id no game had before; a game
/// brought back its own again. What belongs to one game and outlives a change of the board
/// (its review: `review::ReviewState`) is kept by its id, so that another game through the
/// same positions never shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameIds {
    pub id: u64,
    pub aside: u64,
    pub last: u64,
}

impl GameIds {
    /// The ids of a page that opens on a game: the saved one (0), with the game it had put
    /// aside (1, where `saved_aside`), or a linked one (the next id), which puts the saved
    /// game aside where it is in progress (`saved_in_progress`), as a pasted game does, and
    /// else leaves the saved game put aside there.
    pub fn opened(linked: bool, saved_aside: bool, saved_in_progress: bool) -> GameIds {
        let last = u64::from(saved_aside) + u64::from(linked);
        let aside = if linked && saved_in_progress {
            0
        } else {
            u64::from(saved_aside)
        };
        GameIds {
            id: if linked { last } else { 0 },
            aside,
            last,
        }
    }

    /// The ids with `aside` for the game put aside: one brought forward from the games put
    /// aside earlier, under the id its review and graph are kept by ([`ids_after`]).
    pub fn with_aside(self, aside: u64) -> GameIds {
        GameIds { aside, ..self }
    }

    /// The ids with a new id for the game put aside: one brought forward from the games
    /// put aside earlier that a save brought back without their reviews.
    pub fn with_fresh_aside(self) -> GameIds {
        GameIds {
            aside: self.last + 1,
            last: self.last + 1,
            ..self
        }
    }

    /// The ids after an action that brought back the game put aside, started `another`,
    /// or put the game on the board aside.
    pub fn after(self, brought_back: bool, another: bool, put_aside: bool) -> GameIds {
        let aside = if put_aside { self.id } else { self.aside };
        if brought_back {
            GameIds {
                id: self.aside,
                aside,
                ..self
            }
        } else if another {
            GameIds {
                id: self.last + 1,
                aside,
                last: self.last + 1,
            }
        } else {
            GameIds { aside, ..self }
        }
    }
}

/// Applies an action; one that does not apply leaves the state as it was.
pub fn apply(state: &GameState, action: Action) -> GameState {
    let mut next = state.clone();
    match action {
        Action::NewGame {
            size,
            variant,
            seats,
        } => return GameState::new(Position::start(size, variant), seats),
        Action::Play(mv) => {
            let _ = next.play_human(mv);
        }
        Action::AgentMove { position, mv } => {
            if state.position().hash() == position {
                let _ = next.play_agent(mv);
            }
        }
        Action::Undo => {
            next.undo();
        }
        Action::Redo => {
            next.redo();
        }
        Action::SetSeats(seats) => next.seats = seats,
        // Looking changes nothing: the page's model shows the move.
        Action::Browse(_) => {}
        Action::PlayFrom(ply) => play_from(&mut next, ply),
        Action::Load { game, seats } => return GameState::from_game(game, seats),
        Action::Replace { record, seats } => return GameState::from_record(record, seats),
        // The game put aside is the page's: `set_aside_after`; the hold, the page's model's
        // (`held_after`).
        Action::BringBack | Action::PlayOn => {}
    }
    next
}

/// Whether the agent waits, after `action`, in the game `next` (`held`: whether it waited
/// before): a game loaded from elsewhere (a transcript or a record with moves) in which
/// the agent is to move waits for the person to say "Play on" (issue 68: a transcript
/// loaded while playing Black was played on by the agent at once). Looking through the
/// moves keeps the wait, and bringing such a game back waits again; any other action (Play
/// on, a move, Play from here, undo, another game, the seats changed) ends it.
pub fn held_after(held: bool, action: &Action, next: &GameState) -> bool {
    match action {
        // A loaded game brought back waits again, as on a reload: "Bring it back" now goes
        // round the games, and a pasted record brought back was played on at once.
        Action::Replace { .. } | Action::BringBack => waits_for_play_on(next),
        Action::Browse(_) => held,
        _ => false,
    }
}

/// Whether `state` is a game loaded from elsewhere, with moves, that nobody has played on
/// or taken back since, in which the agent is to move: it waits for "Play on" when loaded
/// and again when a reload restores it (whether it waited is not saved, and a page that
/// opens must not play on behind the person's back, as a watch game restored waits for
/// Resume; a fresh look found the agent playing on at once after a reload).
///
/// A record whose only moves are passes holds no one's choice (a position set up in the
/// editor with the person to pass gets its forced pass from the page): it does not wait
/// (the tenth look's editor position was held as "loaded, not played here").
pub fn waits_for_play_on(state: &GameState) -> bool {
    state.record.as_ref().is_some_and(|record| {
        record.game().moves().iter().any(|mv| *mv != Move::Pass)
            && record.game().moves() == state.game.moves()
    }) && state.undone.is_empty()
        && matches!(state.seats, Seats::Human(_))
        && state.agent_to_move()
}

/// The game put aside after `action`, where `aside` was put aside before, and `earlier`
/// the games put aside before that one (oldest first): a game with a disc placed, in
/// progress or finished, that a pasted or opened game (or a position set up for analysis)
/// replaces is kept, so that loading never loses a game without asking (New game asks
/// first; a fresh look found a finished game lost to Analyse), and the one put aside
/// before it goes into `earlier`, not away (the tenth look lost an 8-move game to a second
/// game put aside); a game with no disc placed that is replaced leaves the one put aside
/// there; the game brought back leaves the next of `earlier` put aside; a new game clears
/// them all; anything else keeps them.
pub fn set_aside_after(
    state: &GameState,
    aside: Option<&GameState>,
    earlier: &mut Vec<GameState>,
    action: &Action,
) -> Option<GameState> {
    match action {
        Action::Replace { .. } if placed(&state.game) > 0 => {
            earlier.extend(aside.filter(|g| *g != state).cloned());
            Some(state.clone())
        }
        Action::Load { .. } | Action::NewGame { .. } => {
            earlier.clear();
            None
        }
        Action::BringBack => {
            // The game on the board goes to the queue's far end, as a replace would have put
            // it aside: "Bring it back" goes round the games and loses none (the twelfth
            // look: it dropped a pasted 10-move game without a word).
            if placed(&state.game) > 0 && aside.is_some() {
                earlier.insert(0, state.clone());
            }
            earlier.pop()
        }
        _ => aside.cloned(),
    }
}

/// The page's ids after an action (the page's model's step, `hooks::GameModel`): it
/// `brought_back` the game put aside, started `another`, or `put_aside` the game on the
/// board; `queued` is how many games waited before the game put aside, before and after it,
/// and `aside_left` whether a game is put aside after it.
pub fn ids_after(
    ids: GameIds,
    earlier_ids: &mut Vec<u64>,
    queued: (usize, usize),
    (brought_back, another, put_aside): (bool, bool, bool),
    aside_left: bool,
) -> GameIds {
    // Brought back with the queue as long as before: the game on the board went in.
    let board_queued = (brought_back && aside_left && queued.0 == queued.1).then_some(ids.id);
    let from_queue = earlier_ids_after(earlier_ids, queued, ids.aside, board_queued);
    let next = ids.after(brought_back, another, put_aside);
    if brought_back && aside_left {
        // The next game put aside before takes the place, under its own id again, or a new
        // one where a save brought it back without its review.
        return from_queue.map_or_else(|| next.with_fresh_aside(), |id| next.with_aside(id));
    }
    next
}

/// The ids of the games put aside earlier (`hooks::GameModel::earlier_ids`), kept in step
/// with [`set_aside_after`]'s queue as it went from `queued_before` games to `queued_now`
/// (the game on the board, `board_queued`, sent to its far end first where it was brought
/// back over):
/// the game put aside (`aside_id`) going into the queue keeps its id, so that its review and
/// graph come back with it (the eleventh look: a reviewed game brought back from the queue
/// came without its review, under an id of its own). The ids are the queue's newest; games
/// a save brought back (without their reviews) have none. Returns the id of the game taken
/// from the queue, where it had one.
fn earlier_ids_after(
    ids: &mut Vec<u64>,
    (mut queued_before, queued_now): (usize, usize),
    aside_id: u64,
    board_queued: Option<u64>,
) -> Option<u64> {
    if let Some(id) = board_queued {
        // At the queue's far end, kept where every queued game has its id (the ids are
        // the newest games').
        if ids.len() == queued_before {
            ids.insert(0, id);
        }
        queued_before += 1;
    }
    if queued_now > queued_before {
        ids.push(aside_id);
        return None;
    }
    if queued_now == queued_before {
        return None;
    }
    // The queue gives back its newest game (or is cleared): the newest id is that game's.
    let taken = ids.pop();
    ids.truncate(queued_now);
    taken
}

/// The ply the board shows after `Browse(ply)`: `None` for the game's own position (the
/// last move played) or a ply the game and its redo list do not reach.
pub fn browse_target(state: &GameState, ply: usize) -> Option<usize> {
    let played = state.game.moves().len();
    (ply != played && ply <= played + state.undone.len()).then_some(ply)
}

/// The plies one move back and one move on from `ply`, the position looked at, where the
/// game and its redo list reach them: a finger that hits the graph's point beside the one
/// it meant (a phone draws a game's points 6 px apart) steps from there with two buttons
/// of a finger's size (the fourteenth look). One move on from the last move played is the
/// game itself.
pub fn browse_steps(state: &GameState, ply: usize) -> (Option<usize>, Option<usize>) {
    let last = state.game.moves().len() + state.undone.len();
    (ply.checked_sub(1), (ply < last).then_some(ply + 1))
}

/// The game continued from the position after `ply` moves, whoever is to move there (the
/// person chose that position, so the agent may move from it); a forced pass there is
/// played, as after any move, so that nobody waits on a move that cannot be made.
fn play_from(state: &mut GameState, ply: usize) {
    state.seek(ply);
    if state.position().must_pass() && state.undone.last() == Some(&Move::Pass) {
        state.seek(ply + 1);
    }
}

/// Why "Analyse" refuses a finished position on the board, left to the empty box
/// ([`analyse_here`]) or typed in (`editor::game_to_analyse`).
pub const FINISHED_REFUSAL: &str =
    "it is finished (neither side has a legal move), so there is no move to analyse";

/// What "Analyse" with its box left empty does to the game on the board: the game keeps
/// its moves, goes on from the position shown (as "Play from here" does, the later moves
/// kept as redo) and becomes an analysis, one person for both sides (the thirteenth look:
/// it put a 44-move game aside and analysed its position bare, without the moves that led
/// there). A finished position has no move to analyse and is refused, as typed board
/// text is.
pub fn analyse_here(state: &GameState, browsing: Option<usize>) -> Result<Vec<Action>, String> {
    let shown = browsing.map_or(*state.position(), |ply| *at_ply(state, ply).position());
    if shown.is_game_over() {
        return Err(FINISHED_REFUSAL.to_owned());
    }
    let from_here = browsing.map(Action::PlayFrom);
    Ok(from_here
        .into_iter()
        .chain([Action::SetSeats(Seats::Analysis)])
        .collect())
}

/// The seats to offer back after `action` ("Play on against the agent"), where `seats`
/// were the game's before it and `from` what was offered: a game made an analysis from
/// a game against the agent keeps its old seats to go back to, any other change of seats
/// or of game forgets them, and everything else (moves, looking back) keeps them.
pub fn analysed_from_after(from: Option<Seats>, seats: Seats, action: &Action) -> Option<Seats> {
    match action {
        Action::SetSeats(Seats::Analysis) => match seats {
            Seats::Human(_) => Some(seats),
            Seats::Analysis => from,
            Seats::AgentVsAgent => None,
        },
        Action::SetSeats(_)
        | Action::NewGame { .. }
        | Action::Load { .. }
        | Action::Replace { .. }
        | Action::BringBack => None,
        _ => from,
    }
}

/// The game as it stood after `ply` moves, the later ones as redo: the position a person
/// browsing the moves sees, with that move's placement and flips.
pub fn at_ply(state: &GameState, ply: usize) -> GameState {
    let mut shown = state.clone();
    shown.seek(ply);
    shown
}

/// The discs placed in a game: its moves without the passes.
pub fn placed(game: &Game) -> usize {
    game.moves().iter().filter(|m| **m != Move::Pass).count()
}

/// The move a click on `sq` plays, or why it plays none, in words for the person.
pub fn explain_click(state: &GameState, sq: Square) -> Result<Move, String> {
    let pos = state.position();
    let mover = pos.side_to_move();
    if pos.is_game_over() {
        return Err("The game is over: start a new game or a rematch.".to_owned());
    }
    if state.seats == Seats::AgentVsAgent {
        return Err("You are watching: the agent plays both sides.".to_owned());
    }
    if state.agent_plays(mover) {
        return Err(format!("Wait: {mover} (the agent) is to move."));
    }
    if let Some(color) = pos.color_at(sq) {
        return Err(format!(
            "{sq} already holds a {} disc.",
            color.name().to_lowercase()
        ));
    }
    let mv = Move::Place(sq);
    if pos.is_legal(mv) {
        return Ok(mv);
    }
    let legal: Vec<String> = pos
        .legal_move_list()
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    Err(format!(
        "{sq} turns no disc: a move must close a line of {} discs between the new disc and \
         one of yours. {mover} can play {}.",
        mover.opposite().name().to_lowercase(),
        legal.join(", ")
    ))
}

/// Whether starting another game would throw away one a person has played in.
pub fn in_progress(state: &GameState) -> bool {
    !state.position().is_game_over() && state.game.moves().iter().any(|m| *m != Move::Pass)
}

/// The seats a loaded record or transcript gets: a finished game was played by neither the
/// person nor the agent, so it is loaded for analysis and credited to nobody ("Black wins",
/// not "The agent wins"); an unfinished one keeps the seats, and play goes on from it.
pub fn seats_for_loaded(game: &Game, seats: Seats) -> Seats {
    if game.position().is_game_over() {
        Seats::Analysis
    } else {
        seats
    }
}

/// The seats of a rematch: the person takes the other colour.
pub fn rematch_seats(seats: Seats) -> Seats {
    match seats {
        Seats::Human(c) => Seats::Human(c.opposite()),
        other => other,
    }
}

/// The person's colour, the viewpoint of every estimate the page shows (Black when the
/// person plays no colour).
pub fn viewpoint(seats: Seats) -> Color {
    match seats {
        Seats::Human(c) => c,
        _ => Color::Black,
    }
}

/// Parses a pasted transcript (`f5d6c3`, passes optional) on the given board, or the page's
/// own text record (`explain::game_record`) on its board, or says once what is wrong: text
/// that is no transcript at all, or the move that cannot be read or played.
pub fn game_from_transcript(text: &str, size: BoardSize, variant: Variant) -> Result<Game, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("there is nothing to load: paste a transcript such as f5d6c3".to_owned());
    }
    // The page's own text record is its start and a transcript.
    let (start, text) = match crate::text_record::parts(text) {
        Some(parts) => {
            parts.map_err(|e| format!("this Othello Zero record cannot be read: {e}"))?
        }
        None => (Position::start(size, variant), text),
    };
    let size = start.size();
    Game::from_transcript(text, start).map_err(|e| {
        let n = e.move_number;
        match e.kind {
            TranscriptErrorKind::BadSquare(_) if n == 1 => "this is neither a transcript \
                 (moves such as f5d6c3) nor a GGF record (which starts with \"(;\")"
                .to_owned(),
            TranscriptErrorKind::BadSquare(square) => {
                format!("its move {n}, '{square}', is not a square of the {size} board")
            }
            TranscriptErrorKind::Illegal(illegal) => format!(
                "its move {n}, {}, cannot be played there: {}",
                illegal.mv,
                crate::format::illegal_reason(illegal.reason)
            ),
        }
    })
}

/// How many of the game's first moves came with the record it was loaded from (a GGF
/// record or a pasted transcript): moves nobody played here, whatever seats the page has
/// now. 0 for a game begun here.
pub fn brought_moves(game: &GameState) -> usize {
    game.record
        .as_ref()
        .filter(|record| record.game().start() == game.game.start())
        .map_or(0, |record| {
            record
                .game()
                .moves()
                .iter()
                .zip(game.game.moves())
                .take_while(|(a, b)| a == b)
                .count()
        })
}

/// The player the game's record names for `color`, while the game is still that record.
pub fn record_player(game: &GameState, color: Color) -> Option<&str> {
    let record = game.record_in_play()?;
    match color {
        Color::Black => record.black.as_deref(),
        Color::White => record.white.as_deref(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::agent;
    use othello::Color;

    fn mv(text: &str) -> Move {
        Move::parse(text, BoardSize::Eight).expect("valid")
    }

    fn play(text: &str) -> Action {
        Action::Play(mv(text))
    }

    fn as_black() -> GameState {
        GameState::new(
            Position::start(BoardSize::Eight, Variant::Standard),
            Seats::Human(Color::Black),
        )
    }

    #[test]
    fn every_game_has_an_id_of_its_own_and_a_game_brought_back_its_own_again() {
        let saved = GameIds::opened(false, false, false);
        assert_eq!(saved.id, 0);
        // A game pasted over a game in progress: a new id, the old one put aside.
        let pasted = saved.after(false, true, true);
        assert_eq!((pasted.id, pasted.aside), (1, 0));
        // Moves change nothing; bringing the game back gives it its id again.
        assert_eq!(pasted.after(false, false, false), pasted);
        let back = pasted.after(true, false, false);
        assert_eq!(back.id, 0);
        // The next new game is new to the page, never an id given before.
        assert_eq!(back.after(false, true, false).id, 2);
        // A linked game is not the saved one, which it puts aside.
        let linked = GameIds::opened(true, false, true);
        assert_eq!((linked.id, linked.aside), (1, 0));
        assert_eq!(linked.after(false, true, false).id, 2);
        // A saved game with one put aside (kept over the reload): each its own id, and a
        // link over a saved game not in progress leaves the one put aside there.
        let kept = GameIds::opened(false, true, true);
        assert_eq!((kept.id, kept.aside), (0, 1));
        assert_eq!(kept.after(false, true, false).id, 2);
        let over = GameIds::opened(true, true, false);
        assert_eq!((over.id, over.aside), (2, 1));
        assert_eq!(GameIds::opened(true, true, true).aside, 0);
    }

    #[test]
    fn a_loaded_game_restored_by_a_reload_waits_again_until_someone_plays_on() {
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let record = GgfGame::new(Game::from_transcript("f5d6c3", start).expect("legal"));
        let loaded = GameState::from_record(record.clone(), Seats::Human(Color::Black));
        assert!(waits_for_play_on(&loaded));
        // Played on (the agent's move, then the person's): no longer the record's moves.
        let mut played = loaded.clone();
        let reply = played.position().legal_move_list()[0];
        played.play_agent(reply).expect("legal");
        assert!(!waits_for_play_on(&played));
        // Taken back to the record's moves: the person has acted, nothing waits.
        let mut back = played.clone();
        back.undo();
        assert!(!waits_for_play_on(&back));
        // A game begun here, a loaded game for analysis or with the person to move.
        let here = apply(&as_black(), play("f5"));
        assert!(here.agent_to_move() && !waits_for_play_on(&here));
        assert!(!waits_for_play_on(&GameState::from_record(
            record.clone(),
            Seats::Analysis
        )));
        assert!(!waits_for_play_on(&GameState::from_record(
            record,
            Seats::Human(Color::White)
        )));
    }

    #[test]
    fn a_loaded_game_waits_for_the_person_before_the_agent_plays_on() {
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let loaded = Action::Replace {
            record: GgfGame::new(Game::from_transcript("f5d6c3", start).expect("legal")),
            seats: Seats::Human(Color::Black),
        };
        let state = apply(&as_black(), loaded.clone());
        assert!(state.agent_to_move());
        assert!(held_after(false, &loaded, &state));
        assert!(held_after(true, &Action::Browse(1), &state));
        assert!(!held_after(true, &Action::PlayOn, &state));
        // Brought back from being put aside, it waits again (the twelfth look's rounds of
        // "Bring it back" had the agent play on a pasted record at once).
        assert!(held_after(false, &Action::BringBack, &state));
        assert!(!held_after(true, &Action::BringBack, &as_black()));
        // The editor's position, chosen and played from at once, does not wait; nor does a
        // loaded game in which the person is to move, or one for analysis.
        let set_up = Action::Replace {
            record: GgfGame::new(Game::new(*state.position())),
            seats: Seats::Human(Color::Black),
        };
        assert!(!held_after(
            false,
            &set_up,
            &apply(&as_black(), set_up.clone())
        ));
        // A position set up with the person to pass: the page passes, the agent moves.
        let must_pass =
            Position::from_board_text(&format!("OX{} X", "-".repeat(62)), Variant::Standard)
                .expect("a board");
        assert!(must_pass.must_pass());
        let passed = Action::Replace {
            record: GgfGame::new(Game::new(must_pass)),
            seats: Seats::Human(Color::Black),
        };
        let after_pass = apply(&as_black(), passed.clone());
        assert!(after_pass.agent_to_move());
        assert!(!held_after(false, &passed, &after_pass));
        let analysed = Action::Replace {
            record: GgfGame::new(Game::from_transcript("f5d6c3", start).expect("legal")),
            seats: Seats::Analysis,
        };
        assert!(!held_after(
            false,
            &analysed,
            &apply(&as_black(), analysed.clone())
        ));
    }

    #[test]
    fn an_illegal_click_changes_nothing() {
        let state = as_black();
        assert_eq!(apply(&state, play("a1")), state);
    }

    #[test]
    fn the_agents_move_is_dropped_when_the_game_moved_on() {
        let state = apply(&as_black(), play("f5"));
        let stale = Action::AgentMove {
            position: Position::start(BoardSize::Eight, Variant::Standard).hash(),
            mv: mv("d6"),
        };
        assert_eq!(apply(&state, stale), state);
        let answered = agent(&state, "d6");
        assert_eq!(answered.game.moves().len(), 2);
        assert!(answered.human_to_move());
    }

    #[test]
    fn undo_and_redo_go_through_the_shared_game_state() {
        let s = agent(&apply(&as_black(), play("f5")), "d6");
        let s = agent(&apply(&s, play("c3")), "d3");
        let undone = apply(&s, Action::Undo);
        assert_eq!(undone.game.moves().len(), 2);
        assert_eq!(apply(&undone, Action::Redo).game, s.game);
    }

    #[test]
    fn a_new_game_starts_over_on_the_chosen_board() {
        let state = apply(&as_black(), play("f5"));
        let fresh = apply(
            &state,
            Action::NewGame {
                size: BoardSize::Six,
                variant: Variant::Reversed,
                seats: Seats::Human(Color::White),
            },
        );
        assert_eq!(fresh.position().size(), BoardSize::Six);
        assert_eq!(fresh.position().variant(), Variant::Reversed);
        assert!(fresh.agent_to_move());
        assert!(fresh.game.moves().is_empty());
    }

    #[test]
    fn agent_vs_agent_leaves_nothing_to_click() {
        let state = GameState::new(
            Position::start(BoardSize::Six, Variant::Standard),
            Seats::AgentVsAgent,
        );
        assert!(state.agent_to_move());
        let legal = state.position().legal_move_list()[0];
        assert_eq!(apply(&state, Action::Play(legal)), state);
    }

    #[test]
    fn a_click_that_plays_nothing_says_why() {
        let sq = |t: &str| Square::parse(t, BoardSize::Eight).expect("a square");
        let state = as_black();
        assert_eq!(explain_click(&state, sq("f5")), Ok(mv("f5")));
        let taken = explain_click(&state, sq("d4")).expect_err("occupied");
        assert!(taken.contains("d4 already holds a white disc"), "{taken}");
        let nothing = explain_click(&state, sq("a1")).expect_err("illegal");
        assert!(nothing.contains("a1 turns no disc"), "{nothing}");
        assert!(
            nothing.contains("c4, d3, e6, f5") || nothing.contains("d3, c4"),
            "{nothing}"
        );
        let waiting =
            explain_click(&apply(&state, play("f5")), sq("d6")).expect_err("agent's turn");
        assert!(
            waiting.contains("White (the agent) is to move"),
            "{waiting}"
        );
    }

    #[test]
    fn a_game_is_in_progress_once_a_disc_is_placed_until_it_ends() {
        let state = as_black();
        assert!(!in_progress(&state));
        assert!(in_progress(&apply(&state, play("f5"))));
        assert_eq!(
            rematch_seats(Seats::Human(Color::Black)),
            Seats::Human(Color::White)
        );
        assert_eq!(viewpoint(Seats::AgentVsAgent), Color::Black);
    }

    #[test]
    fn analysing_the_game_on_the_board_keeps_its_moves() {
        let s = agent(&apply(&as_black(), play("f5")), "d6");
        let s = agent(&apply(&s, play("c3")), "d3");
        let run = |browsing: Option<usize>| {
            let actions = analyse_here(&s, browsing).expect("a game in progress");
            actions.into_iter().fold(s.clone(), |g, a| apply(&g, a))
        };
        let here = run(None);
        assert_eq!(here.seats, Seats::Analysis);
        assert_eq!(here.game, s.game, "every move kept");
        // Looking back at move 2, the analysis starts there, the later moves kept as redo.
        let back = run(Some(2));
        assert_eq!(back.seats, Seats::Analysis);
        assert_eq!(back.game.transcript(false), "f5d6");
        assert_eq!(
            apply(&apply(&back, Action::Redo), Action::Redo).game,
            s.game
        );
        // A finished game has no move to analyse at its end; looked back at, it has.
        let mut finished = GameState::new(
            Position::start(BoardSize::Eight, Variant::Standard),
            Seats::Analysis,
        );
        while let Some(&first) = finished.position().legal_move_list().first() {
            finished = apply(&finished, Action::Play(first));
        }
        assert!(finished.position().is_game_over());
        let why = analyse_here(&finished, None).expect_err("finished");
        assert!(why.contains("no move to analyse"), "{why}");
        assert!(analyse_here(&finished, Some(10)).is_ok());
    }

    #[test]
    fn an_analysis_made_from_a_game_against_the_agent_offers_its_seats_back() {
        let black = Seats::Human(Color::Black);
        let made = analysed_from_after(None, black, &Action::SetSeats(Seats::Analysis));
        assert_eq!(made, Some(black));
        // Moves, looking back and analysing again keep the way back.
        assert_eq!(
            analysed_from_after(made, Seats::Analysis, &play("f5")),
            made
        );
        assert_eq!(
            analysed_from_after(made, Seats::Analysis, &Action::Browse(1)),
            made
        );
        let again = Action::SetSeats(Seats::Analysis);
        assert_eq!(analysed_from_after(made, Seats::Analysis, &again), made);
        // Going back, or any other game, forgets it; watching has no seat to go back to.
        assert_eq!(
            analysed_from_after(made, Seats::Analysis, &Action::SetSeats(black)),
            None
        );
        assert_eq!(
            analysed_from_after(made, Seats::Analysis, &Action::BringBack),
            None
        );
        assert_eq!(analysed_from_after(None, Seats::AgentVsAgent, &again), None);
    }

    #[test]
    fn browsing_changes_nothing_and_playing_from_a_move_keeps_the_later_ones_as_redo() {
        let s = agent(&apply(&as_black(), play("f5")), "d6");
        let s = agent(&apply(&s, play("c3")), "d3");
        assert_eq!(apply(&s, Action::Browse(2)), s);
        assert_eq!(browse_target(&s, 2), Some(2));
        assert_eq!(browse_target(&s, 4), None, "the game's own position");
        assert_eq!(browse_target(&s, 9), None, "past the last move");
        assert_eq!(browse_steps(&s, 2), (Some(1), Some(3)));
        assert_eq!(
            browse_steps(&s, 0),
            (None, Some(1)),
            "nothing before the start"
        );
        assert_eq!(
            browse_steps(&s, 3),
            (Some(2), Some(4)),
            "on to the game itself"
        );
        let back = apply(&s, Action::PlayFrom(2));
        assert_eq!(
            browse_steps(&back, 3),
            (Some(2), Some(4)),
            "on into the redo moves"
        );
        assert_eq!(
            browse_steps(&back, 4),
            (Some(3), None),
            "the last redo move"
        );
        let back = apply(&s, Action::PlayFrom(2));
        assert_eq!(back.game.moves().len(), 2);
        assert!(back.can_redo());
        assert_eq!(apply(&back, Action::Redo).game, s.game);
    }

    #[test]
    fn playing_from_a_move_after_which_the_agent_moves_leaves_the_move_to_it() {
        let s = agent(&apply(&as_black(), play("f5")), "d6");
        let s = agent(&apply(&s, play("c3")), "d3");
        // After c3 (ply 3) White, the agent, is to move: browsing shows that position with
        // the game untouched; playing from there leaves White to move.
        let shown = at_ply(&s, 3);
        assert_eq!(shown.game.transcript(false), "f5d6c3");
        assert_eq!(
            shown.last_placement(),
            Some(mv("c3").square().expect("a square"))
        );
        let from = apply(&s, Action::PlayFrom(3));
        assert_eq!(from.game.transcript(false), "f5d6c3");
        assert!(from.agent_to_move());
        assert_eq!(from.undone, vec![mv("d3")]);
    }

    #[test]
    fn playing_from_the_move_on_the_board_takes_nothing_back() {
        // The person just played f5 and the agent thinks: playing from f5 leaves it played.
        let s = apply(&as_black(), play("f5"));
        assert_eq!(apply(&s, Action::PlayFrom(1)), s);
    }

    #[test]
    fn transcripts_load_or_say_what_is_wrong() {
        let game = game_from_transcript(" f5d6c3 ", BoardSize::Eight, Variant::Standard)
            .expect("a legal opening");
        assert_eq!(game.moves().len(), 3);
        let words = |text: &str| {
            game_from_transcript(text, BoardSize::Eight, Variant::Standard).expect_err(text)
        };
        assert_eq!(
            words("f5a1"),
            "its move 2, a1, cannot be played there: it turns no disc"
        );
        assert!(
            words("hello world").starts_with("this is neither a transcript"),
            "{}",
            words("hello world")
        );
        assert_eq!(
            words("f5z9"),
            "its move 2, 'z9', is not a square of the 8x8 board"
        );
    }

    /// A transcript from the standard start pasted for analysis.
    fn pasted(transcript: &str) -> Action {
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        Action::Replace {
            record: GgfGame::new(Game::from_transcript(transcript, start).expect("legal")),
            seats: Seats::Analysis,
        }
    }

    /// The page's model's steps (`hooks::GameModel`) over the game, the game put aside
    /// and the queue before it.
    fn step(
        (state, aside, mut earlier): (GameState, Option<GameState>, Vec<GameState>),
        action: Action,
    ) -> (GameState, Option<GameState>, Vec<GameState>) {
        let set_aside = set_aside_after(&state, aside.as_ref(), &mut earlier, &action);
        let next = match (&action, &aside) {
            (Action::BringBack, Some(kept)) => kept.clone(),
            _ => apply(&state, action.clone()),
        };
        (next, set_aside, earlier)
    }

    #[test]
    fn a_second_game_put_aside_sends_the_first_into_the_queue_not_away() {
        // The tenth look: a game in progress put aside by a pasted one, then the pasted one
        // played on and put aside by Analyse: "Bring it back" offered only the second.
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let first = apply(
            &apply(&GameState::new(start, Seats::Analysis), play("f5")),
            play("d6"),
        );
        let s = step((first.clone(), None, vec![]), pasted("c4"));
        assert_eq!(s.1.as_ref(), Some(&first));
        let s = step(s, play("c3"));
        let second = s.0.clone();
        let s = step(s, pasted("e6"));
        let third = s.0.clone();
        assert_eq!(
            (s.1.as_ref(), s.2.clone()),
            (Some(&second), vec![first.clone()])
        );
        // Each comes back in turn, the latest first, and the game each is brought back
        // over waits at the queue's far end: none is lost (the twelfth look).
        let back = step(s.clone(), Action::BringBack);
        assert_eq!(
            (back.0.clone(), back.1.clone(), back.2.clone()),
            (second.clone(), Some(first.clone()), vec![third.clone()])
        );
        let back = step(back, Action::BringBack);
        assert_eq!(
            (back.0.clone(), back.1.clone(), back.2.clone()),
            (first, Some(third), vec![second])
        );
        // A new game clears them all, as it clears the game put aside.
        let cleared = step(
            s,
            Action::NewGame {
                size: BoardSize::Eight,
                variant: Variant::Standard,
                seats: Seats::Analysis,
            },
        );
        assert!(cleared.1.is_none() && cleared.2.is_empty());
        // Ids: a game brought forward from the queue gets one of its own.
        let ids = GameIds {
            id: 3,
            aside: 2,
            last: 3,
        }
        .with_fresh_aside();
        assert_eq!((ids.id, ids.aside, ids.last), (3, 4, 4));
    }

    #[test]
    fn a_game_brought_back_from_the_queue_keeps_the_id_its_review_is_kept_by() {
        // The eleventh look: a reviewed game put aside, then the game that replaced it put
        // aside too; "Bring it back" twice brought the first back without its review.
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let first = apply(&GameState::new(start, Seats::Analysis), play("f5"));
        // The page's model's step, its ids with it.
        let mut model = ((first, None, Vec::new()), GameIds::default(), Vec::new());
        let mut act = |action: Action| {
            let ((state, aside, earlier), ids, mut earlier_ids) = model.clone();
            let next = step(
                (state.clone(), aside.clone(), earlier.clone()),
                action.clone(),
            );
            let brought_back = matches!(action, Action::BringBack);
            let another = matches!(action, Action::Replace { .. } | Action::Load { .. });
            let put_aside = next.1 != aside && next.1.as_ref() == Some(&state);
            let ids = ids_after(
                ids,
                &mut earlier_ids,
                (earlier.len(), next.2.len()),
                (brought_back, another, put_aside),
                next.1.is_some(),
            );
            model = (next, ids, earlier_ids);
            (ids.id, ids.aside)
        };
        assert_eq!(act(pasted("c4")), (1, 0), "the first game (0) put aside");
        assert_eq!(
            act(pasted("e6")),
            (2, 1),
            "the second put aside, the first queued"
        );
        assert_eq!(
            act(Action::BringBack),
            (1, 0),
            "the second back, the first next"
        );
        assert_eq!(
            act(Action::BringBack),
            (0, 2),
            "the first back under its own id, the pasted one (2) put aside under its own"
        );
        assert_eq!(
            act(Action::BringBack),
            (2, 1),
            "round the games, each id its own"
        );
        // A queue a save brought back has no ids: its games come back under new ones.
        let mut saved = Vec::new();
        let ids = GameIds {
            id: 5,
            aside: 4,
            last: 5,
        };
        let back = ids_after(ids, &mut saved, (2, 1), (true, false, false), true);
        assert_eq!((back.id, back.aside, back.last), (4, 6, 6));
    }

    #[test]
    fn a_pasted_game_puts_the_game_in_progress_aside_until_another_replaces_it() {
        let playing = agent(&apply(&as_black(), play("f5")), "d6");
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let pasted = Action::Replace {
            record: GgfGame::new(Game::from_transcript("c4", start).expect("legal")),
            seats: Seats::Analysis,
        };
        let aside = set_aside_after(&playing, None, &mut Vec::new(), &pasted);
        assert_eq!(aside.as_ref(), Some(&playing));
        let loaded = apply(&playing, pasted.clone());
        assert_eq!(loaded.game.transcript(false), "c4");
        // Playing on in the pasted game keeps it; another game replaces it.
        let moved = apply(&loaded, play("c3"));
        assert_eq!(
            set_aside_after(&loaded, aside.as_ref(), &mut Vec::new(), &play("c3")),
            aside
        );
        // Brought back over, the game on the board is put aside in its turn (the twelfth
        // look: it was dropped without a word).
        assert_eq!(
            set_aside_after(&moved, aside.as_ref(), &mut Vec::new(), &Action::BringBack),
            Some(moved.clone())
        );
        assert_eq!(
            set_aside_after(&moved, aside.as_ref(), &mut Vec::new(), &pasted),
            Some(moved.clone())
        );
        let new_game = Action::NewGame {
            size: BoardSize::Eight,
            variant: Variant::Standard,
            seats: Seats::Analysis,
        };
        assert_eq!(
            set_aside_after(&moved, aside.as_ref(), &mut Vec::new(), &new_game),
            None
        );
        // A game with no disc placed is not in progress: nothing to keep, and the game
        // put aside before stays put aside.
        assert_eq!(
            set_aside_after(&as_black(), None, &mut Vec::new(), &pasted),
            None
        );
        assert_eq!(
            set_aside_after(&as_black(), aside.as_ref(), &mut Vec::new(), &pasted),
            aside
        );
        // A finished game is kept too: replacing it lost it, with nothing to bring back.
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let ended = Game::from_transcript(
            "f5f6d3c3e6f4g7c2e3d7d2d6g6h8c8c4c5h7f3e1c6f2g1c7g4g3d1c1b7h5f7a8b1a1b5e7f8a5a7b6b4a6h4b8e2g2h6b3b2g8a3d8h2e8g5a2f1h3a4h1",
            start,
        )
        .expect("legal");
        let finished = apply(
            &as_black(),
            Action::Replace {
                record: GgfGame::new(ended),
                seats: Seats::Analysis,
            },
        );
        assert!(finished.position().is_game_over());
        assert_eq!(
            set_aside_after(&finished, None, &mut Vec::new(), &pasted),
            Some(finished.clone())
        );
    }

    #[test]
    fn a_loaded_finished_game_is_credited_to_nobody() {
        let as_black = Seats::Human(Color::Black);
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let unfinished = Game::from_transcript("f5d6c3", start).expect("legal");
        assert_eq!(seats_for_loaded(&unfinished, as_black), as_black);
        let over = Position::from_board_text(&format!("{} X", "X".repeat(64)), Variant::Standard)
            .expect("a full board");
        assert_eq!(
            seats_for_loaded(&Game::new(over), as_black),
            Seats::Analysis
        );
    }
}
