//! The puzzle record's tests: what it keeps, what a try changes and what a damaged record
//! is refused for.

use super::rating::Glicko;
use super::record::*;
use engine::puzzles::{Puzzle, PuzzleKind, Theme, Themes};
use othello::{BoardSize, Move, Position, Variant};

fn opening_puzzle(size: BoardSize) -> Puzzle {
    let start = Position::start(size, Variant::Standard);
    Puzzle {
        position: start,
        answer: start.legal_move_list()[0],
        kind: PuzzleKind::BestMargin,
        themes: Themes::default().with(Theme::Edge).with(Theme::Quiet),
        margin: 4,
        runner_up: 2,
        rating: 1350,
    }
}

fn second_move_puzzle() -> Puzzle {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let f5 = Move::parse("f5", BoardSize::Eight).expect("a square");
    let after = start.play(f5).expect("legal");
    Puzzle {
        position: after,
        answer: Move::parse("d6", BoardSize::Eight).expect("a square"),
        kind: PuzzleKind::OnlyWin,
        themes: Themes::default().with(Theme::Parity),
        margin: 6,
        runner_up: -2,
        rating: 1830,
    }
}

fn stored(p: &Puzzle) -> StoredPuzzle {
    StoredPuzzle::from_puzzle(String::new(), p, "your game of today, move 12".into())
}

/// A record with some of everything.
fn played() -> PuzzleRecord {
    let mut record = PuzzleRecord::default();
    record.first_try("8x8-3", 1400, true);
    record.first_try("8x8-9", 1700, false);
    record.first_try("6x6-1", 1200, true);
    record.add_mistakes(vec![
        stored(&opening_puzzle(BoardSize::Eight)),
        stored(&second_move_puzzle()),
    ]);
    record.theme = ThemeChoice::Theme(Theme::CornerTrap);
    record
}

#[test]
fn a_record_reads_back_as_it_was_written() {
    let record = played();
    assert_eq!(record.history.len(), 3);
    assert_eq!(record.mistakes.len(), 2);
    assert_eq!(record.puzzles.len(), 3);
    let back = PuzzleRecord::load(&record.to_json()).expect("reads back");
    assert_eq!(rounded(back), rounded(record));
    let fresh = PuzzleRecord::default();
    assert_eq!(PuzzleRecord::load(&fresh.to_json()), Ok(fresh));
}

/// The record with its numbers to a millionth: `serde_json` (without its
/// `float_roundtrip`) may read a float back one unit in the last place off.
fn rounded(mut record: PuzzleRecord) -> PuzzleRecord {
    let round = |x: f64| (x * 1e6).round() / 1e6;
    let glicko = |g: Glicko| Glicko {
        rating: round(g.rating),
        deviation: round(g.deviation),
        volatility: round(g.volatility),
    };
    record.player = glicko(record.player);
    for g in record.puzzles.values_mut() {
        *g = glicko(*g);
    }
    for point in &mut record.history {
        point.rating = round(point.rating);
    }
    record
}

#[test]
fn a_stored_mistake_is_the_puzzle_it_was_made_from() {
    for p in [opening_puzzle(BoardSize::Six), second_move_puzzle()] {
        assert_eq!(stored(&p).to_puzzle(), Ok(p));
    }
}

#[test]
fn a_retry_never_moves_the_rating_or_the_streak() {
    let mut record = PuzzleRecord::default();
    let (before, after) = record.first_try("8x8-5", 1500, true).expect("a first try");
    assert!(after > before);
    let kept = record.clone();
    assert_eq!(record.first_try("8x8-5", 1500, false), None);
    assert_eq!(record.first_try("8x8-5", 1500, true), None);
    assert_eq!(record, kept);
}

#[test]
fn the_moved_puzzle_rating_is_kept_and_the_others_are_as_shipped() {
    let mut record = PuzzleRecord::default();
    assert_eq!(record.rating_of("8x8-5", 1500), Glicko::puzzle(1500));
    record.first_try("8x8-5", 1500, true);
    assert!(record.rating_of("8x8-5", 1500).rating < 1500.0);
    assert_eq!(record.rating_of("8x8-6", 1600), Glicko::puzzle(1600));
}

#[test]
fn streaks_count_solves_in_a_row_and_the_best_is_kept() {
    let mut record = PuzzleRecord::default();
    for (i, solved) in [true, true, true, false, true].into_iter().enumerate() {
        record.first_try(&format!("8x8-{i}"), 1500, solved);
    }
    assert_eq!((record.streak, record.best_streak), (1, 3));
}

#[test]
fn a_streak_above_the_best_is_mended_on_load() {
    let mut record = played();
    record.streak = 9;
    record.best_streak = 2;
    let back = PuzzleRecord::load(&record.to_json()).expect("reads");
    assert_eq!((back.streak, back.best_streak), (9, 9));
}

#[test]
fn the_history_keeps_the_last_500_tries() {
    let mut record = PuzzleRecord::default();
    for i in 0..520 {
        record.first_try(&format!("8x8-{i}"), 1500, i % 3 != 0);
    }
    assert_eq!(record.history.len(), 500);
    assert_eq!(record.history[0].tries, 21);
    assert_eq!(record.history[499].tries, 520);
    assert_eq!(record.history[499].rating, record.player.rating);
}

fn refusal(text: &str) -> RecordError {
    PuzzleRecord::load(text).expect_err("refused")
}

/// The record's JSON with one thing in it replaced.
fn damaged(from: &str, to: &str) -> String {
    let text = played().to_json();
    assert!(text.contains(from), "{text}");
    text.replacen(from, to, 1)
}

#[test]
fn each_kind_of_damage_is_refused_for_its_own_cause() {
    let text = played().to_json();
    assert!(matches!(
        refusal(&text[..text.len() / 2]),
        RecordError::Syntax(_)
    ));
    assert!(matches!(refusal("not json"), RecordError::Syntax(_)));
    assert!(matches!(
        refusal(r#"{"version":1}"#),
        RecordError::Syntax(_)
    ));
    assert_eq!(
        refusal(r#"{"version":99,"player":3}"#),
        RecordError::Version(99)
    );
    assert_eq!(
        refusal(&damaged(r#""version":1"#, r#""version":2"#)),
        RecordError::Version(2)
    );

    let player = played().player;
    let negative = damaged(
        &format!(r#""deviation":{}"#, player.deviation),
        r#""deviation":-5"#,
    );
    assert!(matches!(refusal(&negative), RecordError::Rating { whose, .. } if whose == "you"));
    let id = "8x8-9";
    let puzzle = played().puzzles[id];
    let huge = damaged(
        &format!(r#""{id}":{{"rating":{}"#, puzzle.rating),
        &format!(r#""{id}":{{"rating":1e9"#),
    );
    assert!(matches!(refusal(&huge), RecordError::Rating { whose, .. } if whose == "puzzle 8x8-9"));
    // JSON has no NaN: a rating that was one is written as null.
    let null = damaged(
        &format!(r#""rating":{}"#, player.rating),
        r#""rating":null"#,
    );
    assert!(matches!(refusal(&null), RecordError::Syntax(_)));

    let illegal = damaged(r#""answer":"d6""#, r#""answer":"a1""#);
    let error = refusal(&illegal);
    assert!(
        matches!(&error, RecordError::Mistake { cause, .. } if cause.contains("a1")),
        "{error}"
    );
    let kind = damaged(r#""kind":"only-win""#, r#""kind":"only-lose""#);
    assert!(matches!(refusal(&kind), RecordError::Mistake { .. }));
    let margins = damaged(r#""runner_up":-2"#, r#""runner_up":1"#);
    assert!(matches!(refusal(&margins), RecordError::Mistake { .. }));
    let theme = damaged(r#""parity""#, r#""pairity""#);
    assert!(matches!(refusal(&theme), RecordError::Mistake { .. }));
}

#[test]
fn messages_say_the_cause_once_and_the_notice_speaks_to_the_player() {
    let error = refusal(&damaged(r#""answer":"d6""#, r#""answer":"a1""#));
    let message = error.to_string();
    assert_eq!(message.matches("a1").count(), 1, "{message}");
    assert!(message.contains("mine-2"), "{message}");
    let notice = fresh_start_notice(&error);
    assert!(
        notice.starts_with("Your puzzle rating could not be read ("),
        "{notice}"
    );
    assert!(
        notice.contains("1500") && notice.contains("Your game is untouched"),
        "{notice}"
    );
    assert!(fresh_start_notice(&RecordError::Version(7)).contains("newer version"));
    assert!(!fresh_start_notice(&RecordError::Syntax("EOF at line 1".into())).contains("EOF"));
}

#[test]
fn mistakes_are_kept_once_each_with_ids_that_are_never_given_twice() {
    let mut record = PuzzleRecord::default();
    let a = stored(&opening_puzzle(BoardSize::Eight));
    let b = stored(&second_move_puzzle());
    assert_eq!(record.add_mistakes(vec![a.clone(), a.clone()]), 1);
    assert_eq!(record.add_mistakes(vec![a.clone(), b.clone()]), 1);
    let ids: Vec<&str> = record.mistakes.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["mine-1", "mine-2"]);
    // The same board under the other rules is another puzzle.
    let reversed = StoredPuzzle {
        variant: Variant::Reversed,
        ..a.clone()
    };
    assert_eq!(record.add_mistakes(vec![reversed]), 1);
    record.mistakes.retain(|m| m.id != "mine-3");
    assert_eq!(
        record.add_mistakes(vec![stored(&opening_puzzle(BoardSize::Six))]),
        1
    );
    assert_eq!(
        record.mistakes.last().map(|m| m.id.as_str()),
        Some("mine-4")
    );
    // The counter survives a reload, even where the newest was removed.
    record.mistakes.pop();
    let mut back = PuzzleRecord::load(&record.to_json()).expect("reads");
    back.add_mistakes(vec![stored(&opening_puzzle(BoardSize::Six))]);
    assert_eq!(back.mistakes.last().map(|m| m.id.as_str()), Some("mine-5"));
}

#[test]
fn at_most_200_mistakes_are_kept_the_oldest_dropped() {
    let mut record = PuzzleRecord::default();
    let base = stored(&opening_puzzle(BoardSize::Eight));
    // Distinct boards by their text alone: the cap does not read them.
    let many: Vec<StoredPuzzle> = (0..210)
        .map(|i| StoredPuzzle {
            board: format!("{} {i}", base.board),
            ..base.clone()
        })
        .collect();
    assert_eq!(record.add_mistakes(many), 210);
    assert_eq!(record.mistakes.len(), 200);
    assert_eq!(record.mistakes[0].id, "mine-11");
}

#[test]
fn shipped_ids_read_back_and_nothing_else_reads_as_one() {
    for (size, index) in [
        (BoardSize::Eight, 0),
        (BoardSize::Six, 609),
        (BoardSize::Eight, 14_329),
    ] {
        assert_eq!(
            parse_shipped_id(&shipped_id(size, index)),
            Some((size, index))
        );
    }
    assert_eq!(shipped_id(BoardSize::Eight, 12), "8x8-12");
    for id in [
        "mine-3", "8x6-1", "8x8-", "8x8-+1", "8x8-01", "5x5-1", "8x8-1x", "",
    ] {
        assert_eq!(parse_shipped_id(id), None, "{id}");
    }
}

#[test]
fn theme_choices_have_labels_and_keys_for_a_select() {
    let all = ThemeChoice::all();
    let labels: Vec<String> = all.iter().map(|c| c.label()).collect();
    assert_eq!(
        labels,
        [
            "Mixed",
            "Corner trap",
            "Parity",
            "Force pass",
            "Sacrifice",
            "Greedy trap",
            "Edge",
            "Quiet",
            "Mistakes from your reviewed games"
        ]
    );
    assert_eq!(all[1].key(), "corner-trap");
    for choice in all {
        assert_eq!(ThemeChoice::from_key(&choice.key()), Some(choice));
    }
    assert_eq!(ThemeChoice::from_key("tactics"), None);
    // A theme a later page dropped reads as Mixed rather than costing the rating.
    let unknown = damaged(r#""theme":"corner-trap""#, r#""theme":"tactics""#);
    assert_eq!(
        PuzzleRecord::load(&unknown).map(|r| r.theme),
        Ok(ThemeChoice::Mixed)
    );
}
