use othello::{
    BoardSize, BoardTextError, Color, Game, IllegalReason, Move, Position, Square,
    TranscriptErrorKind, Variant,
};
use proptest::prelude::*;

fn start(size: BoardSize) -> Position {
    Position::start(size, Variant::Standard)
}

#[test]
fn every_square_prints_and_parses_back_on_every_board() {
    for size in BoardSize::ALL {
        let squares: Vec<Square> = Square::all(size).collect();
        assert_eq!(squares.len(), size.squares() as usize);
        for sq in squares {
            assert_eq!(Square::parse(&sq.to_string(), size), Ok(sq));
            assert_eq!(Square::parse(&sq.to_string().to_uppercase(), size), Ok(sq));
            assert_eq!(
                Square::from_dense_index(sq.dense_index(size), size),
                Some(sq)
            );
        }
    }
}

#[test]
fn d3_is_column_d_row_3() {
    let sq = Square::parse("d3", BoardSize::Eight).expect("valid");
    assert_eq!((sq.column(), sq.row()), (3, 2));
    assert_eq!(sq.dense_index(BoardSize::Eight), 2 * 8 + 3);
    assert_eq!(sq.dense_index(BoardSize::Six), 2 * 6 + 3);
}

#[test]
fn squares_off_the_board_or_malformed_are_rejected() {
    for bad in ["", "d", "d0", "d9", "i1", "z9", "3d", "d33", "dd", "é1"] {
        assert!(Square::parse(bad, BoardSize::Eight).is_err(), "{bad:?}");
    }
    let err = Square::parse("g1", BoardSize::Six).unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad square 'g1' (expected a column a-f and a row 1-6)"
    );
}

#[test]
fn moves_use_pass_and_pa_for_a_pass() {
    assert_eq!(Move::parse("pass", BoardSize::Eight), Ok(Move::Pass));
    assert_eq!(Move::parse("PA", BoardSize::Eight), Ok(Move::Pass));
    assert_eq!(Move::Pass.to_string(), "pass");
    assert_eq!(Move::Pass.policy_index(BoardSize::Six), 36);
    assert_eq!(
        Move::from_policy_index(64, BoardSize::Eight),
        Some(Move::Pass)
    );
    assert_eq!(Move::from_policy_index(65, BoardSize::Eight), None);
}

#[test]
fn a_transcript_with_a_bad_square_names_it_and_its_move_number() {
    let err = Game::from_transcript("f5d6z9", start(BoardSize::Eight)).unwrap_err();
    assert_eq!(err.move_number, 3);
    assert_eq!(err.kind, TranscriptErrorKind::BadSquare("z9".into()));
    assert_eq!(err.to_string(), "\"f5d6z9\": bad square 'z9' at move 3");
}

#[test]
fn a_transcript_with_an_illegal_move_names_it_and_its_move_number() {
    let err = Game::from_transcript("f5 d6 a1", start(BoardSize::Eight)).unwrap_err();
    assert_eq!(err.move_number, 3);
    match &err.kind {
        TranscriptErrorKind::Illegal(illegal) => {
            assert_eq!(illegal.reason, IllegalReason::FlipsNothing);
        }
        other => panic!("wrong error {other:?}"),
    }
    assert_eq!(
        err.to_string(),
        "\"f5 d6 a1\": illegal move a1: it flips no disc at move 3"
    );
}

#[test]
fn transcripts_accept_separators_case_and_written_passes() {
    let plain = Game::from_transcript("f5d6c3", start(BoardSize::Eight)).expect("legal");
    let spaced = Game::from_transcript(" F5, d6 C3 ", start(BoardSize::Eight)).expect("legal");
    assert_eq!(plain, spaced);
    assert_eq!(plain.transcript(true), "f5d6c3");
    let garbage = Game::from_transcript("f5 ?? d6", start(BoardSize::Eight)).unwrap_err();
    assert_eq!(garbage.move_number, 2);
    let pass_too_early = Game::from_transcript("f5pass", start(BoardSize::Eight)).unwrap_err();
    match pass_too_early.kind {
        TranscriptErrorKind::Illegal(illegal) => {
            assert_eq!(illegal.reason, IllegalReason::PassWithMovesLeft);
        }
        other => panic!("wrong error {other:?}"),
    }
}

#[test]
fn a_transcript_with_its_pass_written_equals_one_without() {
    let line = "c2b4c5d2e4e3d1c1b1d5d6f4b3b2f3f2e2b6a4c6a6a2b5a5e6e5a3a1f5f6e1f1";
    let implied = Game::from_transcript(line, start(BoardSize::Six)).expect("legal");
    let written = implied.transcript(true);
    assert!(written.contains("pass"));
    let explicit = Game::from_transcript(&written, start(BoardSize::Six)).expect("legal");
    assert_eq!(implied, explicit);
    assert_eq!(implied.transcript(false), line);
}

#[test]
fn board_text_reads_the_obf_format_of_the_ffo_suite() {
    // FFO #40, as published: 20 empties, Black to move.
    let text = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X ; #40";
    let pos = Position::from_board_text(text, Variant::Standard).expect("valid");
    assert_eq!(pos.size(), BoardSize::Eight);
    assert_eq!(pos.side_to_move(), Color::Black);
    assert_eq!(pos.empty_count(), 20);
    assert_eq!(
        pos.to_board_text(),
        text.split(" ;").next().expect("board part")
    );
}

#[test]
fn board_text_errors_say_what_and_where() {
    let v = Variant::Standard;
    assert_eq!(
        Position::from_board_text("XO- X", v),
        Err(BoardTextError::BadLength(3))
    );
    let mut bad = "-".repeat(64);
    bad.replace_range(10..11, "Z");
    let err = Position::from_board_text(&format!("{bad} X"), v).unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad character 'Z' at square c2; expected X, O or -"
    );
    assert_eq!(
        Position::from_board_text(&"-".repeat(36), v),
        Err(BoardTextError::MissingSide)
    );
    assert_eq!(
        Position::from_board_text(&format!("{} Q", "-".repeat(36)), v),
        Err(BoardTextError::BadSide("Q".into()))
    );
    // Text after the side to move is named as such, not as a bad side to move.
    let start = Position::start(BoardSize::Eight, v).to_board_text();
    assert_eq!(
        Position::from_board_text(&format!("{start} extra words"), v),
        Err(BoardTextError::Trailing("extra words".into()))
    );
    assert_eq!(
        BoardTextError::BadLength(1).to_string(),
        "board text has 1 square; expected 64 (8x8), 36 (6x6) or 16 (4x4)"
    );
}

fn random_game(size: BoardSize, choices: &[u16]) -> Game {
    let mut game = Game::new(start(size));
    for choice in choices {
        let moves = game.position().legal_move_list();
        if moves.is_empty() {
            break;
        }
        let mv = moves[*choice as usize % moves.len()];
        game.push(mv).expect("listed moves are legal");
    }
    game
}

proptest! {
    #[test]
    fn transcripts_round_trip(choices in prop::collection::vec(any::<u16>(), 0..70), six in any::<bool>()) {
        let size = if six { BoardSize::Six } else { BoardSize::Eight };
        let game = random_game(size, &choices);
        for with_passes in [true, false] {
            let text = game.transcript(with_passes);
            let again = Game::from_transcript(&text, start(size)).expect("own transcript parses");
            prop_assert_eq!(&again, &game);
        }
    }

    #[test]
    fn board_text_round_trips(choices in prop::collection::vec(any::<u16>(), 0..70), six in any::<bool>()) {
        let size = if six { BoardSize::Six } else { BoardSize::Eight };
        let game = random_game(size, &choices);
        let pos = *game.position();
        let again = Position::from_board_text(&pos.to_board_text(), Variant::Standard).expect("own text parses");
        prop_assert_eq!(again, pos);
    }

    #[test]
    fn parsers_never_panic_on_garbage(text in "\\PC{0,80}") {
        let _ = Position::from_board_text(&text, Variant::Standard);
        let _ = Game::from_transcript(&text, start(BoardSize::Eight));
        let _ = Square::parse(&text, BoardSize::Six);
    }

    #[test]
    fn a_parsed_transcript_prints_back_to_an_equivalent_one(text in "([a-h][1-8]|pass| ){0,30}") {
        if let Ok(game) = Game::from_transcript(&text, start(BoardSize::Eight)) {
            let again = Game::from_transcript(&game.transcript(true), start(BoardSize::Eight));
            prop_assert_eq!(again.as_ref(), Ok(&game));
        }
    }
}

#[test]
fn undoing_a_move_restores_the_previous_position() {
    let mut game = Game::from_transcript("f5d6c3", start(BoardSize::Eight)).expect("legal");
    let before = game.positions()[2];
    assert_eq!(
        game.pop(),
        Some(Move::Place(
            Square::parse("c3", BoardSize::Eight).expect("valid")
        ))
    );
    assert_eq!(*game.position(), before);
    assert_eq!(game.moves().len(), 2);
}

#[test]
fn board_sizes_and_variants_print_as_they_parse() {
    for size in BoardSize::ALL {
        assert_eq!(size.to_string().parse::<BoardSize>(), Ok(size));
        assert_eq!(size.n().to_string().parse::<BoardSize>(), Ok(size));
    }
    for variant in [Variant::Standard, Variant::Reversed] {
        assert_eq!(variant.to_string().parse::<Variant>(), Ok(variant));
    }
    assert_eq!("REVERSED".parse::<Variant>(), Ok(Variant::Reversed));
}

#[test]
fn board_sizes_and_variants_that_do_not_exist_are_refused_by_name() {
    for bad in ["5", "10", "8x6", "08", "", "eight", "x8"] {
        let error = bad.parse::<BoardSize>().expect_err(bad);
        assert!(error.to_string().contains(&format!("'{bad}'")), "{error}");
    }
    let error = "anti".parse::<Variant>().expect_err("no such variant");
    assert_eq!(
        error.to_string(),
        "'anti' is not a variant; use standard or reversed"
    );
}
