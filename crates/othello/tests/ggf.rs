use othello::ggf::{
    parse_move_text, read_games, Ending, GgfError, GgfResult, MoveNote, MoveTextError,
};
use othello::{BoardSize, Color, Game, GgfGame, IllegalReason, Move, Position, Variant};
use proptest::prelude::*;

fn start(size: BoardSize) -> Position {
    Position::start(size, Variant::Standard)
}

fn parse(text: &str) -> GgfGame {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn error(text: &str) -> GgfError {
    text.parse::<GgfGame>().expect_err(text)
}

/// The standard 8x8 start as BO writes it.
const START_8: &str = "8 ---------------------------O*------*O--------------------------- *";

#[test]
fn a_game_as_nboard_sends_it_is_its_players_and_its_moves_from_the_board() {
    let text = format!(
        "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]\
         TI[15:00]TY[8]BO[{START_8}]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)"
    );
    let record = parse(&text);
    assert_eq!(record.black.as_deref(), Some("./mEdax"));
    assert_eq!(record.white.as_deref(), Some("chris"));
    assert_eq!(record.place.as_deref(), Some("NBoard"));
    assert_eq!(record.date.as_deref(), Some("2014-02-21 20:52:27 GMT"));
    assert_eq!(record.result, None);
    assert_eq!(record.other, vec![("TI".to_owned(), "15:00".to_owned())]);
    let expected =
        Game::from_transcript("f5f6d3c5e6f7e7f4", start(BoardSize::Eight)).expect("a legal line");
    assert_eq!(record.game(), &expected);
    assert_eq!(record.notes(), vec![MoveNote::default(); 8]);
}

#[test]
fn a_ggs_record_keeps_its_evaluations_times_ratings_and_result() {
    let text = "1 (;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[one]PW[two]\
                RB[2196.37]RW[2200.35]TI[05:00//02:00]TY[8]RE[+0.000]\
                BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
                B[d3//0.01]W[c5/2.39/0.01]B[f6/-1.5];)";
    let record = parse(text);
    assert_eq!(
        record.notes(),
        [
            MoveNote {
                eval: None,
                seconds: Some(0.01)
            },
            MoveNote {
                eval: Some(2.39),
                seconds: Some(0.01)
            },
            MoveNote {
                eval: Some(-1.5),
                seconds: None
            },
        ]
    );
    assert_eq!(
        record.result,
        Some(GgfResult {
            black_margin: 0.0,
            ending: Ending::Normal
        })
    );
    let tags: Vec<&str> = record.other.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(tags, ["RB", "RW", "TI"]);
    let written = record.to_string();
    assert!(
        written.contains("RB[2196.37]RW[2200.35]TI[05:00//02:00]"),
        "{written}"
    );
    assert!(
        written.ends_with("B[d3//0.01]W[c5/2.39/0.01]B[f6/-1.5];)"),
        "{written}"
    );
    assert_eq!(parse(&written), record);
}

#[test]
fn a_record_is_written_on_one_line_with_the_board_as_nboard_writes_it() {
    let game = Game::from_transcript("f5d6", start(BoardSize::Eight)).expect("legal");
    let mut record = GgfGame::new(game);
    record.black = Some("mcts".into());
    record.white = Some("alphabeta:depth=4".into());
    assert_eq!(
        record.to_string(),
        format!("(;GM[Othello]PB[mcts]PW[alphabeta:depth=4]TY[8]RE[?]BO[{START_8}]B[f5]W[d6];)")
    );
}

#[test]
fn the_board_size_and_the_anti_variant_come_from_ty() {
    let six = parse("(;GM[Othello]TY[6]B[c2];)");
    assert_eq!(six.game().start(), &start(BoardSize::Six));
    assert_eq!(six.game().moves().len(), 1);
    let anti = parse(&format!("(;GM[Othello]TY[8a]BO[{START_8}]B[f5];)"));
    assert_eq!(anti.game().start().variant(), Variant::Reversed);
    assert!(anti.to_string().contains("TY[8a]"));
    // Match flags are read and dropped: the board holds the start.
    for ty in ["s8", "8k", "8r20", "s8r16a", "8b", "8w"] {
        let record = parse(&format!("(;GM[Othello]TY[{ty}]BO[{START_8}];)"));
        assert_eq!(record.game().start().size(), BoardSize::Eight, "{ty}");
    }
    assert_eq!(
        parse("(;GM[Othello]TY[s8r16a];)").game().start().variant(),
        Variant::Reversed
    );
    // No TY and no BO: 8x8 from the start.
    assert_eq!(
        parse("(;GM[Othello];)").game().start(),
        &start(BoardSize::Eight)
    );
}

/// A 4x4 game (played by a fixed sequence of choices) in which someone passes.
fn game_with_a_pass() -> Game {
    for seed in 0..100usize {
        let mut game = Game::new(start(BoardSize::Four));
        let mut step = seed;
        while !game.position().is_game_over() {
            let moves = game.position().legal_move_list();
            step = step * 7 + 3;
            game.push(moves[step % moves.len()]).expect("legal");
        }
        if game.moves().contains(&Move::Pass) {
            return game;
        }
    }
    panic!("no 4x4 game with a pass in 100 tries");
}

#[test]
fn a_forced_pass_may_be_left_out_and_is_written_back() {
    let game = game_with_a_pass();
    let record = GgfGame::new(game.clone());
    let written = record.to_string();
    assert!(written.contains("[PA]"), "{written}");
    assert_eq!(parse(&written).game(), &game);
    // The same record without its pass properties.
    let without: String = written
        .split_inclusive(']')
        .filter(|p| !p.ends_with("[PA]"))
        .collect();
    assert_ne!(without, written);
    assert_eq!(parse(&without).game(), &game);
}

#[test]
fn set_result_from_board_writes_blacks_margin() {
    let mut game = Game::new(start(BoardSize::Four));
    while !game.position().is_game_over() {
        let mv = game.position().legal_move_list()[0];
        game.push(mv).expect("legal");
    }
    let margin = game
        .position()
        .outcome()
        .expect("over")
        .margin_for(Color::Black);
    let mut record = GgfGame::new(game);
    record.set_result_from_board();
    assert_eq!(
        record.result.map(|r| r.black_margin),
        Some(f64::from(margin))
    );
    assert!(record.to_string().contains(&format!("RE[{margin:+}]")));
    let mut unfinished = GgfGame::new(Game::new(start(BoardSize::Eight)));
    unfinished.set_result_from_board();
    assert_eq!(unfinished.result, None);
}

#[test]
fn results_read_with_their_ending() {
    for (re, margin, ending) in [
        ("+64.00:r", 64.0, Ending::Resigned),
        ("-3.5:t", -3.5, Ending::Timeout),
        ("+2:s", 2.0, Ending::Agreed),
        ("-12", -12.0, Ending::Normal),
    ] {
        let record = parse(&format!("(;GM[Othello]RE[{re}];)"));
        assert_eq!(
            record.result,
            Some(GgfResult {
                black_margin: margin,
                ending
            }),
            "{re}"
        );
        assert_eq!(parse(&record.to_string()).result, record.result);
    }
}

#[test]
fn names_with_brackets_and_backslashes_are_escaped() {
    let mut record = GgfGame::new(Game::new(start(BoardSize::Six)));
    record.black = Some("a]b\\c".into());
    let written = record.to_string();
    assert!(written.contains(r"PB[a\]b\\c]"), "{written}");
    assert_eq!(parse(&written), record);
}

#[test]
fn a_file_holds_games_one_after_the_other() {
    let text = "1 (;GM[Othello]TY[8]B[f5];)\n1 (;GM[Othello]TY[6]B[c2]W[b2];)\n";
    let games = read_games(text).expect("two games");
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].game().moves().len(), 2);
    let error = read_games("(;GM[Othello];)\n(;GM[Othello]B[a1];)").expect_err("bad second");
    assert!(
        matches!(&error, GgfError::InGame { index: 2, .. }),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "game 2: move 1 B[a1]: illegal move a1: it flips no disc"
    );
    assert_eq!(read_games("  \n").expect("no games"), vec![]);
}

#[test]
fn moves_read_as_nboard_sends_them() {
    let eight = BoardSize::Eight;
    let f5 = Move::parse("f5", eight).expect("a square");
    for (text, eval, seconds) in [
        ("F5", None, None),
        ("f5/", None, None),
        ("F5/1.5/2.03", Some(1.5), Some(2.03)),
        ("f5//2", None, Some(2.0)),
        ("f5/-0.25", Some(-0.25), None),
    ] {
        assert_eq!(
            parse_move_text(text, eight),
            Ok((f5, MoveNote { eval, seconds })),
            "{text}"
        );
    }
    for pass in ["PA", "pa", "pass", "--"] {
        assert_eq!(parse_move_text(pass, eight).map(|m| m.0), Ok(Move::Pass));
    }
    assert!(matches!(
        parse_move_text("z9", eight),
        Err(MoveTextError::BadSquare { .. })
    ));
    assert!(matches!(
        parse_move_text("g1", BoardSize::Six),
        Err(MoveTextError::BadSquare { .. })
    ));
    assert_eq!(
        parse_move_text("f5/x", eight),
        Err(MoveTextError::BadEval("x".into()))
    );
    assert_eq!(
        parse_move_text("f5/1/inf", eight),
        Err(MoveTextError::BadTime("inf".into()))
    );
    assert_eq!(
        parse_move_text("f5/1/2/3", eight),
        Err(MoveTextError::Extra("3".into()))
    );
}

#[test]
fn malformed_records_say_what_is_wrong() {
    let cases: Vec<(String, &str)> = vec![
        ("".into(), "no game: a GGF game starts with \"(;\""),
        (
            "GM[Othello]".into(),
            "no game: a GGF game starts with \"(;\"",
        ),
        ("(;GM[Othello]".into(), "the game does not end with \";)\""),
        ("(;GM[Othello]PB[x".into(), "PB[ has no closing ]"),
        (
            "(;GM[Othello] ?? ;)".into(),
            "expected a property such as PB[name] at \"?? ;)\"",
        ),
        ("(;GM[Chess];)".into(), "GM[Chess] is not an Othello game"),
        ("(;GM[Othello]PB[a]PB[b];)".into(), "PB is given twice"),
        (
            "(;GM[Othello]TY[10];)".into(),
            "TY[10]: this engine plays 8x8, 6x6 and 4x4 boards only",
        ),
        (
            "(;GM[Othello]TY[8q];)".into(),
            "TY[8q]: unknown game type letter 'q'",
        ),
        (
            "(;GM[Othello]TY[8r];)".into(),
            "TY[8r]: r needs its number of random discs, as in r20",
        ),
        (
            "(;GM[Othello]BO[6 ---];)".into(),
            "BO[6 ---]: the board ends before d1; a 6x6 board has 36 squares",
        ),
        (
            format!("(;GM[Othello]BO[{}];)", START_8.replace("O*", "Q*")),
            "'Q' at d4; expected * (black), O (white) or - (empty)",
        ),
        (
            format!("(;GM[Othello]BO[{START_8} O];)"),
            "'O' after the side to move",
        ),
        (
            format!("(;GM[Othello]TY[6]BO[{START_8}];)"),
            "TY is for 6x6 but BO holds a 8x8 board",
        ),
        (
            "(;GM[Othello]RE[black];)".into(),
            "RE[black]: expected ?, or Black's margin",
        ),
        (
            "(;GM[Othello]B[f5]W[z9];)".into(),
            "move 2 W[z9]: 'z9' is not a square of a 8x8 board or a pass (PA)",
        ),
        (
            "(;GM[Othello]B[f5]W[f5];)".into(),
            "move 2 W[f5]: illegal move f5: the square is occupied",
        ),
        (
            "(;GM[Othello]B[f5]B[d6];)".into(),
            "move 2 B[d6]: it is White's turn",
        ),
        (
            "(;GM[Othello]B[f5];) (;GM[Othello];)".into(),
            "text after the end of the game: \"(;GM[Othello];)\"",
        ),
    ];
    for (text, message) in cases {
        let found = error(&text).to_string();
        assert!(found.contains(message), "{text}: {found}");
    }
    assert!(matches!(
        error("(;GM[Othello]B[d3]W[c3]B[pa];)"),
        GgfError::Illegal { cause, .. } if cause.reason == IllegalReason::PassWithMovesLeft
    ));
}

/// A game the test makes: a start reached by `opening` random moves (written as BO), then
/// up to `length` random moves, with players, notes and a result drawn by proptest.
#[derive(Debug, Clone)]
struct Made {
    size: BoardSize,
    variant: Variant,
    opening: usize,
    choices: Vec<u16>,
    black: Option<String>,
    white: Option<String>,
    notes: Vec<(Option<f64>, Option<f64>)>,
    result: Option<(f64, u8)>,
}

impl Made {
    fn record(&self) -> GgfGame {
        let mut pos = Position::start(self.size, self.variant);
        let mut choices = self.choices.iter().cycle();
        for _ in 0..self.opening {
            let moves = pos.legal_move_list();
            let (Some(&c), false) = (choices.next(), moves.is_empty()) else {
                break;
            };
            pos = pos.play_unchecked(moves[c as usize % moves.len()]);
        }
        let mut record = GgfGame::new(Game::new(pos));
        for (i, &c) in self.choices.iter().enumerate() {
            let moves = record.game().position().legal_move_list();
            if moves.is_empty() {
                break;
            }
            let (eval, seconds) = self.notes.get(i).copied().unwrap_or_default();
            record
                .push(moves[c as usize % moves.len()], MoveNote { eval, seconds })
                .expect("a legal move");
        }
        record.black = self.black.clone();
        record.white = self.white.clone();
        record.result = self.result.map(|(black_margin, e)| GgfResult {
            black_margin,
            ending: [
                Ending::Normal,
                Ending::Resigned,
                Ending::Timeout,
                Ending::Agreed,
            ][e as usize % 4],
        });
        record
    }
}

fn made_games() -> impl Strategy<Value = Made> {
    let size = prop_oneof![
        Just(BoardSize::Four),
        Just(BoardSize::Six),
        Just(BoardSize::Eight)
    ];
    let variant = prop_oneof![Just(Variant::Standard), Just(Variant::Reversed)];
    let note = (
        proptest::option::of(-64.0f64..64.0),
        proptest::option::of(0.0f64..1000.0),
    );
    (
        (size, variant, 0usize..20),
        proptest::collection::vec(any::<u16>(), 0..64),
        proptest::option::of("\\PC{0,12}"),
        proptest::option::of("[ -~]{0,12}"),
        proptest::collection::vec(note, 0..64),
        proptest::option::of((-64.0f64..64.0, any::<u8>())),
    )
        .prop_map(
            |((size, variant, opening), choices, black, white, notes, result)| Made {
                size,
                variant,
                opening,
                choices,
                black,
                white,
                notes,
                result,
            },
        )
}

proptest! {
    #[test]
    fn written_records_read_back_to_the_same_record(made in made_games()) {
        let record = made.record();
        let written = record.to_string();
        let read = written.parse::<GgfGame>();
        prop_assert_eq!(read.as_ref(), Ok(&record), "{}", written);
    }

    #[test]
    fn parse_write_parse_is_stable(made in made_games()) {
        let first: GgfGame = made.record().to_string().parse().expect("reads");
        let again: GgfGame = first.to_string().parse().expect("reads again");
        prop_assert_eq!(&again, &first);
        prop_assert_eq!(again.to_string(), first.to_string());
    }
}

#[test]
fn a_record_read_is_given_back_as_it_came_until_it_is_changed() {
    // GGS's numbers as written (RE[+0.000], a time of 0.70 s), which Display writes its own
    // way; a game number and spaces around the record, which are not the record's.
    let text = "(;GM[Othello]PC[GGS/os]PB[Ann]PW[Bob]RE[+0.000]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[d3//0.70]W[c5/1.50/3.08];)";
    let archive = format!("1 {text}\n2 {text}\n");
    let games = read_games(&archive).expect("two games");
    for game in &games {
        assert_eq!(game.as_read(), Some(text));
    }
    let mut record: GgfGame = text.parse().expect("a record");
    assert_eq!(record.as_read(), Some(text));
    // A file of one record, opened whole, is given back whole: its newline, its number.
    let file = format!("1 {text}\n");
    let opened: GgfGame = file.parse().expect("a file of one record");
    assert_eq!(opened.as_read(), Some(file.as_str()));
    assert_eq!(opened.text_with_evals(&[]), file);
    let listed = read_games(&file).expect("one game");
    assert_eq!(listed[0].as_read(), Some(file.as_str()));
    assert_ne!(record.to_string(), text, "Display writes its own numbers");
    record.notes_mut()[0].eval = Some(-2.91);
    assert_eq!(record.as_read(), None, "a note written");
    let mut renamed: GgfGame = text.parse().expect("a record");
    renamed.black = Some("Cy".to_owned());
    assert_eq!(renamed.as_read(), None, "a field set");
    assert_eq!(
        GgfGame::new(record.game().clone()).as_read(),
        None,
        "made here"
    );
}

#[test]
fn a_records_evaluations_are_rewritten_in_its_own_text() {
    // A forced pass left out of the record (White cannot answer here), spaces, GGS's
    // numbers as written: only the evaluations asked for change.
    let text = "(;GM[Othello]PB[Ann]RE[+0.000] TY[8]B[d3//0.70] W[c5/1.50/3.08]B[f6];)";
    let record: GgfGame = text.parse().expect("a record");
    let evals = vec![Some("-2.00".to_owned()), None, Some("4".to_owned())];
    assert_eq!(
        record.as_read_with_evals(&evals).as_deref(),
        Some("(;GM[Othello]PB[Ann]RE[+0.000] TY[8]B[d3/-2.00/0.70] W[c5/1.50/3.08]B[f6/4];)")
    );
    // Nothing asked, nothing changed.
    assert_eq!(record.as_read_with_evals(&[]).as_deref(), Some(text));
    // A record made here has no text of its own to keep.
    assert_eq!(
        GgfGame::new(record.game().clone()).as_read_with_evals(&evals),
        None
    );
}

#[test]
fn a_left_out_pass_keeps_the_evaluations_on_their_moves() {
    // A finished game with two forced passes (the browser tests' wipe-out game), its
    // first pass left out of the text: the pass is the game's move, not the text's, and
    // the evaluation for the move after it goes on that move.
    let game = Game::from_transcript(
        "d3c3b3d2e1d6d7e3f2c6e6d1b6b2b4d8c4f1a1f6g6a3c2b1c1c5a5g7c8g3g8a4f4g4b5a6e8f5c7b7a7h7g5h8g2a2e7b8a8h3g1h4f3h6f7h5h1h2f8e2",
        Position::start(BoardSize::Eight, Variant::Standard),
    )
    .expect("a legal game");
    let pass = game
        .moves()
        .iter()
        .position(|m| *m == Move::Pass)
        .expect("a pass");
    let tag = if game.positions()[pass].side_to_move() == Color::Black {
        "B[PA]"
    } else {
        "W[PA]"
    };
    let without = GgfGame::new(game.clone()).to_string().replacen(tag, "", 1);
    let record: GgfGame = without.parse().expect("a record without its forced pass");
    assert_eq!(record.game().moves(), game.moves());
    let mut evals = vec![None; game.moves().len()];
    evals[pass + 1] = Some("7".to_owned());
    let rewritten = record.as_read_with_evals(&evals).expect("its own text");
    assert_eq!(
        rewritten,
        without.replacen(
            &format!("[{}]", game.moves()[pass + 1]),
            &format!("[{}/7]", game.moves()[pass + 1]),
            1
        )
    );
}
