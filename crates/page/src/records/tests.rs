//! The records' tests: reading, writing, and what a record keeps through load, review
//! and download.

use super::*;
use othello::{BoardSize, Position, Variant};

fn played(transcript: &str, seats: Seats) -> GameState {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let game = Game::from_transcript(transcript, start).expect("a legal transcript");
    GameState::from_game(game, seats)
}

#[test]
fn a_record_reads_back_as_the_same_game() {
    let state = played("f5d6c3d3c4f4f6f3e6e7", Seats::Human(Color::White));
    let text = ggf_record(&state, "the az-8x8 network");
    assert!(text.starts_with("(;GM[Othello]"), "{text}");
    assert!(text.contains("PB[the az-8x8 network]") && text.contains("PW[you]"));
    assert!(text.contains("RE[?]"), "unfinished: {text}");
    let back = game_from_ggf(&text).expect("our own record");
    assert_eq!(back, state.game);
}

#[test]
fn a_finished_reversed_6x6_game_keeps_its_board_and_result() {
    let start = Position::start(BoardSize::Six, Variant::Reversed);
    let mut game = Game::new(start);
    while !game.position().is_game_over() {
        let mv = game.position().legal_move_list().first().copied();
        game.push(mv.unwrap_or(othello::Move::Pass)).expect("legal");
    }
    assert!(game.position().is_game_over());
    let state = GameState::from_game(game.clone(), Seats::AgentVsAgent);
    let text = ggf_record(&state, "alpha-beta");
    assert!(!text.contains("RE[?]"), "{text}");
    assert_eq!(game_from_ggf(&text).expect("our own record"), game);
}

#[test]
fn bad_records_are_refused_in_words() {
    assert!(is_ggf("  (;GM[Othello]B[f5];)"));
    assert!(!is_ggf("f5d6c3"));
    let err = game_from_ggf("(;GM[Chess];)").expect_err("not Othello");
    assert!(err.starts_with("this is not a GGF record"), "{err}");
    // A GGF record with an illegal move is a GGF record: the move is the cause.
    let err = game_from_ggf("(;GM[Othello]TY[8]B[a1];)").expect_err("illegal");
    assert_eq!(
        err,
        "its move 1, B[a1], cannot be played there: it turns no disc"
    );
    let err = game_from_ggf("(;GM[Othello]TY[8]W[f5];)").expect_err("out of turn");
    assert!(err.contains("out of turn: Black is to move"), "{err}");
    let err = game_from_ggf("(;GM[Othello]TY[8]B[z9];)").expect_err("not a square");
    assert!(
        err.starts_with("its move 1, B[z9], cannot be read: 'z9'"),
        "{err}"
    );
    assert!(game_from_ggf("").is_err());
}

#[test]
fn a_record_of_several_games_lists_each_to_pick() {
    let games = games_from_ggf(
        "(;GM[Othello]PB[Ann]PW[Bob]DT[2026-11-25]TY[8]B[f5]W[d6]RE[+4];)\n\
         (;GM[Othello]PB[Cy]TY[8]B[d3];)",
    )
    .expect("two games");
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].label,
        "1. Black: Ann, White: Bob, 2 moves, Black won by 4 (2026-11-25)"
    );
    assert_eq!(
        games[1].label,
        "2. Black: Cy, White: ?, 1 move, result not given"
    );
    assert_eq!(games[1].record.game().transcript(false), "d3");
    // A bad game in a file of several says which.
    let err = games_from_ggf("(;GM[Othello]TY[8]B[f5];)(;GM[Othello]TY[8]B[a1];)")
        .expect_err("game 2 is illegal");
    assert!(err.starts_with("game 2: its move 1, B[a1]"), "{err}");
}

/// A record in GGS's form (the moves a drawn game's, the rest as GGS writes it): players,
/// ratings, clocks, place, date, a draw, and every move's time, most with an evaluation.
const SAIO: &str = include_str!("../../../../tests/e2e/data/saio1200-saio3000.ggf");

/// The record loaded as the page loads one: the seats a finished game gets, the record
/// kept with the game.
fn loaded(text: &str, seats: Seats) -> GameState {
    use crate::state::{apply, seats_for_loaded, Action};
    let record = games_from_ggf(text).expect("a record").remove(0).record;
    let seats = seats_for_loaded(record.game(), seats);
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    apply(
        &GameState::new(start, Seats::Human(Color::Black)),
        Action::Replace { record, seats },
    )
}

fn download(state: &GameState) -> String {
    ggf_record(state, "the az-8x8 network")
}

#[test]
fn a_ggs_record_downloads_with_all_it_came_with() {
    let state = loaded(SAIO, Seats::Human(Color::Black));
    assert_eq!(
        state.seats,
        Seats::Analysis,
        "a finished game is nobody's here"
    );
    let text = download(&state);
    for kept in [
        "PB[Saio1200]",
        "PW[Saio3000]",
        // As the record writes it (issue 68: a record downloads byte for byte as it came;
        // this said "RE[+0]", the page's own way of writing it).
        "RE[+0.000]",
        "DT[2026.11.25_14:03:11.UTC]",
        "PC[GGS/os]",
        "RB[2112.07]",
        "RW[2254.35]",
        "TI[05:00//02:00]",
        "B[d3//3.08]",
        "B[b5/-3.27/0.67]",
        "W[g2/0.53/3.51]",
    ] {
        assert!(text.contains(kept), "{kept} is lost: {text}");
    }
    assert!(
        !text.contains("analysis") && !text.contains("you"),
        "{text}"
    );
    // The record as text names them too: explain's tests (a_loaded_records_players_...).
    // Byte for byte, and so read back, the record it was, field for field.
    assert_eq!(text, SAIO, "the file, its last newline included");
    let original: GgfGame = SAIO.trim().parse().expect("a record");
    assert_eq!(text.parse::<GgfGame>().expect("reads back"), original);
    // Looked back through, it is still the whole record: the later moves are its own.
    let back = crate::state::apply(&state, crate::state::Action::PlayFrom(20));
    assert_eq!(back.game.moves().len(), 20);
    assert_eq!(download(&back), text);
}

#[test]
fn the_page_names_a_records_players_and_its_file_after_them() {
    let state = loaded(SAIO, Seats::Human(Color::Black));
    assert_eq!(
        record_line(&state).as_deref(),
        Some(
            "Game record: Saio1200 (Black) vs Saio3000 (White) (2026-11-25, GGS/os). The \
             record's result: a draw."
        )
    );
    assert_eq!(
        file_stem(&state, "2026-11-28-1450"),
        "Saio1200-vs-Saio3000-2026-11-25"
    );
    assert_eq!(
        crate::state::record_player(&state, Color::White),
        Some("Saio3000")
    );
    // Names no file system takes are made safe; a record with no date goes without.
    let odd = loaded(
        "(;GM[Othello]PB[A/B: C]PW[x]RE[-4:r]TY[8]B[f5]W[d6];)",
        Seats::Analysis,
    );
    assert_eq!(file_stem(&odd, "now"), "A_B_C-vs-x");
    // A record whose result is not given says so, and the board's count as the board's
    // (issue 68: `RE[?]` read "The record's result: Black won by 10").
    let unknown = SAIO.replace("RE[+0.000]", "RE[?]");
    assert!(unknown.contains("RE[?]"));
    assert_eq!(
        record_line(&loaded(&unknown, Seats::Analysis)).as_deref(),
        Some(
            "Game record: Saio1200 (Black) vs Saio3000 (White) (2026-11-25, GGS/os). The \
             record's result: not given; its moves end the game, a draw on the board."
        )
    );
    let short = loaded("(;GM[Othello]PB[Ann]TY[8]RE[?]B[f5];)", Seats::Analysis);
    assert_eq!(
        record_line(&short).as_deref(),
        Some("Game record: Ann (Black) vs an unnamed player (White). The record's result: not given.")
    );
    assert_eq!(
        record_line(&odd).as_deref(),
        Some(
            "Game record: A/B: C (Black) vs x (White). The record's result: White won by 4, \
             on resignation."
        )
    );
}

#[test]
fn a_review_goes_into_a_records_download_only_when_asked_and_keeps_the_times() {
    let state = loaded(SAIO, Seats::Analysis);
    let record = state.record_in_play().expect("the record");
    let ply = 10; // b5, B[b5/-3.27/0.67]
    let b5 = record.game().moves()[ply];
    let mut reviews = Reviews::default();
    reviews.record(
        record.game().positions()[ply].hash(),
        protocol::ReviewedMove {
            side: Color::Black,
            played: b5,
            value: Some(1.5),
            value_exact: false,
            best: b5,
            best_value: Some(1.5),
            best_exact: false,
            loss: 0.0,
            line: vec![b5],
            best_is_bound: false,
            loss_between_estimates: false,
            line_searched: false,
            line_from_window: false,
        },
    );
    // The record's own download is the record as it came, reviewed or not (issue 68).
    assert_eq!(ggf_record(&state, "the az-8x8 network"), SAIO);
    assert_eq!(
        ggf_with_review(&state, "the az-8x8 network", &Reviews::default()),
        None
    );
    let text = ggf_with_review(&state, "the az-8x8 network", &reviews).expect("a reviewed move");
    // The record byte for byte as it came, but for the reviewed move's evaluation, an
    // estimate with its decimals (issue 68: the download wrote RE[+0] for the record's
    // RE[+0.000], times such as 0.70 as 0.7, and estimates as whole numbers); the moves
    // it did not review keep the record's.
    assert_eq!(text, SAIO.replace("B[b5/-3.27/0.67]", "B[b5/1.50/0.67]"),);
    assert!(text.contains("RE[+0.000]") && text.contains("W[e3//0.70]"));
}

#[test]
fn a_game_played_here_downloads_clean_and_with_its_review_only_when_asked() {
    // The fourteenth look: a game played here downloaded "B[f5/-1.04]..." after its review,
    // with no clean copy offered, where a loaded record's download stays as it came.
    let state = played("f5d6c3", Seats::Human(Color::Black));
    let (pos, f5) = (state.game.positions()[0], state.game.moves()[0]);
    let mut reviews = Reviews::default();
    reviews.record(
        pos.hash(),
        protocol::ReviewedMove::from_engine(&engine::review::MoveReview::new(
            Color::Black,
            (f5, engine::review::Value::estimate(-1.04)),
            (f5, engine::review::Value::estimate(-1.04)),
        )),
    );
    let clean = ggf_record(&state, "the az-8x8 network");
    assert!(clean.contains("B[f5]"), "{clean}");
    let valued = ggf_with_review(&state, "the az-8x8 network", &reviews).expect("reviewed");
    assert_eq!(valued, clean.replace("B[f5]", "B[f5/-1.04]"));
    assert_eq!(
        ggf_with_review(&state, "the az-8x8 network", &Reviews::default()),
        None
    );
}

#[test]
fn a_game_nobody_played_here_credits_nobody_and_has_its_own_file_name() {
    use crate::state::{apply, Action};
    // A pasted transcript, whoever sits at the board.
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let pasted = apply(
        &GameState::new(start, Seats::Human(Color::Black)),
        Action::Replace {
            record: GgfGame::new(Game::from_transcript("f5d6", start).expect("legal")),
            seats: Seats::Human(Color::Black),
        },
    );
    let text = download(&pasted);
    assert!(!text.contains("PB[") && !text.contains("PW["), "{text}");
    assert_eq!(
        file_stem(&pasted, "2026-11-28-1450"),
        "othello-zero-2026-11-28-1450"
    );
    assert_eq!(record_line(&pasted), None);
    // A position set up in the editor.
    let set_up = apply(
        &pasted,
        Action::Replace {
            record: GgfGame::new(Game::new(start)),
            seats: Seats::Human(Color::White),
        },
    );
    assert!(!download(&set_up).contains("PB["));
    // Analysis: one person moved both sides, and played neither.
    let analysed = played("f5d6c3", Seats::Analysis);
    assert!(!download(&analysed).contains("PB["));
    // Played on here, its first moves are still nobody's here: it is nobody's whole game
    // (issue 68; this said "PB[you]PW[the az-8x8 network]", crediting the pasted moves to
    // the person and the agent).
    let mut on = pasted.clone();
    on.play_human(othello::Move::parse("c3", BoardSize::Eight).expect("a move"))
        .expect("legal");
    assert!(!download(&on).contains("PB["), "{}", download(&on));
    // A game set up in the editor and played here is all the page's players'.
    let mut set_up_on = apply(
        &pasted,
        Action::Replace {
            record: GgfGame::new(Game::new(start)),
            seats: Seats::Human(Color::Black),
        },
    );
    let first = set_up_on.position().legal_move_list()[0];
    set_up_on.play_human(first).expect("legal");
    let text = download(&set_up_on);
    assert!(text.contains("PB[you]PW[the az-8x8 network]"), "{text}");
}

#[test]
fn a_record_played_on_is_no_longer_its_players_game() {
    use crate::state::{apply, Action};
    let state = loaded(SAIO, Seats::Analysis);
    // Back to move 40 and another move than its 41st (h5).
    let back = apply(&state, Action::PlayFrom(40));
    let h5 = othello::Move::parse("h5", BoardSize::Eight).expect("a move");
    let other = back
        .position()
        .legal_move_list()
        .into_iter()
        .find(|&m| m != h5)
        .expect("another move");
    let on = apply(&back, Action::Play(other));
    assert_eq!(on.game.moves().len(), 41);
    let text = download(&on);
    for gone in ["PB[", "PW[", "DT[", "PC[", "RB[", "TI[", "RE[+0"] {
        assert!(!text.contains(gone), "{gone} kept: {text}");
    }
    // Its moves up to 40 were still the record's players', with the times they took.
    assert!(
        text.contains("B[d3//3.08]") && text.contains("W[d2/1.31/4.51]"),
        "{text}"
    );
    assert!(text.contains(&format!("B[{other}]")), "{text}");
    assert_eq!(record_line(&on), None);
    assert_eq!(
        file_stem(&on, "2026-11-28-1450"),
        "othello-zero-2026-11-28-1450"
    );
    assert_eq!(crate::state::record_player(&on, Color::Black), None);
    // Taken back into the record's line, it is the record again.
    let again = apply(&on, Action::Undo);
    assert_eq!(download(&again), download(&state));
    // An unfinished record played on against the agent is nobody's whole game: its first
    // moves were Ann's and Bob's, the rest the person's and the agent's (issue 68; this
    // said "PB[you]PW[the az-8x8 network]").
    let unfinished = loaded(
        "(;GM[Othello]PB[Ann]PW[Bob]TY[8]B[f5//1.23]W[d6//2.5];)",
        Seats::Human(Color::Black),
    );
    assert!(download(&unfinished).contains("PB[Ann]PW[Bob]"));
    let c3 = othello::Move::parse("c3", BoardSize::Eight).expect("a move");
    let played_on = apply(&unfinished, Action::Play(c3));
    let text = download(&played_on);
    assert!(!text.contains("PB[") && !text.contains("PW["), "{text}");
    assert!(text.contains("B[f5//1.23]W[d6//2.5]B[c3]"), "{text}");
}
