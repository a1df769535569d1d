use super::*;
use crate::test_support::{game_ending_in_passes, merged};
use protocol::{BookStat, SolvedStat};

fn mv(text: &str) -> Move {
    Move::parse(text, BoardSize::Eight).expect("a move")
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("the answer is JSON")
}

/// One worker's report whose search prefers `best`.
fn report(best: &str) -> Report {
    let merged = merged(best);
    Report {
        best: merged.moves.first().map(|m| m.mv),
        search: merged.search,
        moves: merged.moves,
    }
}

#[test]
fn a_transcript_s_next_turn_is_a_search_a_pass_or_the_end() {
    let (game, turn) = next_turn("").expect("the start");
    assert_eq!(turn, Turn::Search(*game.position()));
    assert_eq!(game.position().empty_count(), 60);
    // Black's six passes at the end are left out of this transcript: every one is Black's
    // turn with no placement, and the full game is over.
    let finished = game_ending_in_passes();
    let mut played = String::new();
    let mut passes_met = 0;
    for (index, mv) in finished.moves().iter().enumerate() {
        let (_, turn) = next_turn(&played).expect("a legal prefix");
        if *mv == Move::Pass {
            assert_eq!(turn, Turn::Pass, "at move {}", index + 1);
            passes_met += 1;
        } else {
            assert_eq!(turn, Turn::Search(finished.positions()[index]));
        }
        played.push_str(&mv.to_string());
    }
    assert!(passes_met > 0, "the game has passes");
    assert_eq!(next_turn(&played).expect("the whole game").1, Turn::Over);
    let error = next_turn("f5f5").expect_err("f5 twice is illegal");
    assert!(error.ends_with("at move 2"), "names the move: {error}");
    assert!(next_turn("z9").is_err());
}

#[test]
fn a_lone_report_plays_the_solver_s_move_then_the_book_s_then_the_search_s() {
    let mut searched = report("d3");
    assert_eq!(chosen_move(&searched), Some(mv("d3")));
    searched.search.book = Some(BookStat {
        best: mv("c4"),
        value: 0.0,
        moves: vec![(mv("c4"), 0.0)],
    });
    assert_eq!(chosen_move(&searched), Some(mv("c4")));
    searched.search.solved = Some(SolvedStat {
        best: mv("e6"),
        margin: 4,
        exact: true,
        nodes: 10,
        micros: 10,
    });
    assert_eq!(chosen_move(&searched), Some(mv("e6")));
}

#[test]
fn answers_carry_the_game_on_to_its_result() {
    // The game played through the answers, a move at a time as the script plays it, ends
    // where the game replayed at once does, with its margin.
    let whole = game_ending_in_passes();
    let mut transcript = String::new();
    let mut last = serde_json::Value::Null;
    for mv in whole.moves() {
        let (game, turn) = next_turn(&transcript).expect("legal so far");
        assert_ne!(turn, Turn::Over);
        let searched = report(&mv.to_string());
        let report = (*mv != Move::Pass).then_some(&searched);
        last = json(&answer(game, Some(*mv), report).expect("a legal move"));
        assert_eq!(last["move"], mv.to_string());
        transcript = last["transcript"]
            .as_str()
            .expect("a transcript")
            .to_owned();
        assert_eq!(last["simulations"], if report.is_some() { 10 } else { 0 });
        assert_eq!(last["settled"], false);
    }
    let outcome = whole.position().outcome().expect("over");
    assert_eq!(last["over"], true);
    assert_eq!(last["black_margin"], outcome.margin_for(Color::Black));
    assert_eq!(transcript, whole.transcript(true));
    // Once over, an answer without a move gives the result again; before, no margin.
    let (game, _) = next_turn(&transcript).expect("the whole game");
    assert_eq!(
        json(&answer(game, None, None).expect("over"))["black_margin"],
        last["black_margin"]
    );
    let (game, _) = next_turn("f5").expect("one move");
    let early = json(&answer(game, Some(mv("d6")), None).expect("legal"));
    assert_eq!(
        (early["over"].clone(), early["black_margin"].clone()),
        (false.into(), serde_json::Value::Null)
    );
    // An illegal move is an error, not a changed game.
    let (game, _) = next_turn("f5").expect("one move");
    assert!(answer(game, Some(mv("a1")), None).is_err());
}
