use super::*;
use crate::openings::xot_game;

fn played(start: Position, moves: &str, seats: Seats) -> GameState {
    GameState::from_game(Game::from_transcript(moves, start).expect("legal"), seats)
}

fn round_trip(state: &GameState, difficulty: &Difficulty) -> Link {
    let link = write(state, difficulty);
    read(&link)
        .unwrap_or_else(|e| panic!("{link}: {e}"))
        .unwrap_or_else(|| panic!("{link}: no link"))
}

#[test]
fn a_game_from_the_start_is_its_transcript_side_and_level() {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let state = played(start, "f5d6c3d3c4", Seats::Human(Color::White));
    let strong = Difficulty::Level("strong".to_owned());
    assert_eq!(write(&state, &strong), "#g=f5d6c3d3c4&s=w&l=strong");
    let link = round_trip(&state, &strong);
    assert_eq!(link.game, state.game);
    assert_eq!(link.seats, Seats::Human(Color::White));
    assert_eq!(link.difficulty, strong);
    assert_eq!(super::state(&link).position(), state.position());
}

#[test]
fn other_boards_rules_openings_and_custom_levels_round_trip() {
    let six = played(
        Position::start(BoardSize::Six, Variant::Reversed),
        "c2",
        Seats::Analysis,
    );
    let sims = Difficulty::Simulations(5000);
    assert_eq!(write(&six, &sims), "#b=6&v=r&g=c2&s=a&l=5000sim");
    assert_eq!(round_trip(&six, &sims).game, six.game);

    let xot = xot_game(16).expect("an opening");
    let state = played(*xot.game.position(), "", Seats::AgentVsAgent);
    let millis = Difficulty::Millis(750);
    assert_eq!(write(&state, &millis), "#x=17&s=x&l=750ms");
    let link = round_trip(&state, &millis);
    assert_eq!(link.game.start(), xot.game.position());
    assert_eq!(link.difficulty, millis);
}

#[test]
fn a_position_is_its_board_text() {
    let text = "---------------------------OX------XXX-------------------------- O";
    let start = Position::from_board_text(text, Variant::Standard).expect("a position");
    let state = GameState::new(start, Seats::Analysis);
    let link = write(&state, &Difficulty::default());
    assert!(link.starts_with("#p=---"), "{link}");
    assert!(!link.contains(' '), "{link}");
    assert_eq!(
        round_trip(&state, &Difficulty::default()).game.start(),
        &start
    );
    // A space written as %20 or + reads the same.
    let spaced = link.replace('_', "%20");
    assert_eq!(
        read(&spaced).expect("reads").expect("a link").game,
        state.game
    );
}

#[test]
fn no_fragment_is_no_link() {
    assert_eq!(read(""), Ok(None));
    assert_eq!(read("#"), Ok(None));
}

#[test]
fn a_link_that_cannot_be_read_says_why_once() {
    let said = |fragment: &str| read(fragment).expect_err(fragment).to_string();
    assert_eq!(
        said("#g=f5a1"),
        "its move 2, a1, cannot be played there: it turns no disc"
    );
    assert_eq!(
        said("#g=f5z9"),
        "its move 2, 'z9', is not a square of the board"
    );
    assert_eq!(
        said("#x=0"),
        "there is no XOT opening 0 (they are numbered 1 to 200)"
    );
    assert_eq!(
        said("#l=fastest"),
        "'fastest' is not a level a link can name"
    );
    assert_eq!(said("#l=0sim"), "'0sim' is not a level a link can name");
    assert_eq!(said("#s=q"), "'q' is not a side a link can name");
    assert_eq!(said("#b=7"), "'7' is not a board size a link can name");
    assert_eq!(said("#zz=1"), "'zz' is not part of a game link");
    assert!(said("#p=XO").starts_with("its start position cannot be read: "));
}

#[test]
fn a_record_s_link_keeps_its_players_date_and_place() {
    // Issue 68: a copied link of a loaded record dropped its players, date and place.
    let text = "(;GM[Othello]PC[GGS/os]DT[2026-11-25]PB[Saio 1200 & co]PW[Zoë=1]TY[8]B[f5]W[d6];)";
    let record: GgfGame = text.parse().expect("a record");
    let state = GameState::from_record(record, Seats::Analysis);
    let difficulty = Difficulty::default();
    let fragment = write(&state, &difficulty);
    assert!(
        fragment.contains("&r=%28%3BGM%5BOthello%5DPC%5BGGS%2Fos%5D"),
        "{fragment}"
    );
    assert!(
        !fragment.contains("pb="),
        "the record carries its names: {fragment}"
    );
    let link = round_trip(&state, &difficulty);
    let opened = super::state(&link);
    let record = opened.record_in_play().expect("the record's");
    assert_eq!(record.black.as_deref(), Some("Saio 1200 & co"));
    assert_eq!(record.white.as_deref(), Some("Zoë=1"));
    assert_eq!(record.date.as_deref(), Some("2026-11-25"));
    assert_eq!(record.place.as_deref(), Some("GGS/os"));
    assert_eq!(opened.game, state.game);
    // A game of no record's names none, and a broken escape is refused.
    assert!(!write(
        &played(*state.game.start(), "f5", Seats::Analysis),
        &difficulty
    )
    .contains("pb="));
    assert!(read("#g=f5&pb=%E").is_err());
    // A link written before records travelled whole keeps its names.
    let old = read("#g=f5d6&s=a&l=casual&pb=Ann&dt=2026-11-25")
        .expect("a link")
        .expect("a game");
    let opened = super::state(&old);
    let record = opened.record_in_play().expect("the record's");
    assert_eq!(record.black.as_deref(), Some("Ann"));
    assert_eq!(record.date.as_deref(), Some("2026-11-25"));
}

#[test]
fn a_records_link_opens_the_record_as_it_came_byte_for_byte() {
    // Issue 68: a copied link of a loaded record opened one that downloaded without its
    // TI[...], with RE[+10] added and BO written anew.
    let text = "(;GM[Othello]PC[GGS/os]DT[2026.11.25_14:03:11.UTC]PB[Saio1200]PW[Saio3000]\
                TI[05:00//02:00]TY[8]RE[?]BO[8 ---------------------------O*------*O--------------------------- *]\
                B[f5//3.08]W[d6//1.44]B[c3];)";
    let record: GgfGame = text.parse().expect("a record");
    let state = GameState::from_record(record, Seats::Analysis);
    let difficulty = Difficulty::default();
    let opened = super::state(&round_trip(&state, &difficulty));
    assert_eq!(opened, state);
    assert_eq!(
        opened.record_in_play().and_then(GgfGame::as_read),
        Some(text)
    );
    // Stepped back to move 2, it opens at move 2 with the rest to redo, the same record.
    let mut back = state.clone();
    back.undo();
    let opened = super::state(&round_trip(&back, &difficulty));
    assert_eq!(opened.game, back.game);
    assert_eq!(opened.undone, back.undone);
    assert_eq!(
        opened.record_in_play().and_then(GgfGame::as_read),
        Some(text)
    );
    // Moves that are not the record's are refused, said once.
    let fragment = write(&state, &difficulty).replace("g=f5d6c3", "g=f5d6c4");
    assert_eq!(read(&fragment), Err(LinkError::NotTheRecords));
}

#[test]
fn a_games_link_after_an_undo_keeps_the_moves_to_redo() {
    // Issue 68, eighth look: after an undo the status said "Redo replays them", but the
    // copied link opened with Redo off.
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let mut state = played(start, "f5d6c3d3c4", Seats::Human(Color::White));
    assert!(state.undo());
    assert!(state.can_redo());
    let club = Difficulty::Level("club".to_owned());
    let fragment = write(&state, &club);
    assert!(fragment.contains("&u="), "{fragment}");
    let opened = super::state(&round_trip(&state, &club));
    assert_eq!(opened.game, state.game);
    assert_eq!(opened.undone, state.undone);
    // Redo replays them, to the game as it was.
    let mut again = opened.clone();
    assert!(again.redo());
    assert_eq!(again.game.transcript(false), "f5d6c3d3c4");
    // Later moves that cannot follow are refused, said once.
    let bad = fragment.replace("&u=", "&u=a1");
    assert!(matches!(read(&bad), Err(LinkError::Illegal(..))), "{bad}");
}
