use super::*;
use crate::rng::Rng;

fn sample_set() -> PuzzleSet {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let f5 = Move::parse("f5", BoardSize::Eight).expect("a square");
    let after = start.play(f5).expect("legal");
    let d6 = Move::parse("d6", BoardSize::Eight).expect("a square");
    PuzzleSet {
        size: BoardSize::Eight,
        variant: Variant::Standard,
        puzzles: vec![
            Puzzle {
                position: start,
                answer: f5,
                kind: PuzzleKind::BestMargin,
                themes: Themes::default().with(Theme::Edge),
                margin: 4,
                runner_up: 2,
                rating: 1500,
            },
            Puzzle {
                position: after,
                answer: d6,
                kind: PuzzleKind::OnlyWin,
                themes: Themes::default()
                    .with(Theme::Parity)
                    .with(Theme::CornerTrap),
                margin: 6,
                runner_up: -2,
                rating: 1830,
            },
        ],
    }
}

#[test]
fn a_set_reads_back_as_it_was_written() {
    let set = sample_set();
    let bytes = set.to_bytes();
    assert_eq!(PuzzleSet::from_bytes(&bytes), Ok(set.clone()));
    assert_eq!(bytes.len(), 20 + 2 * 25 + 4);
    let line = set.puzzles[1].line();
    assert!(
        line.ends_with(" d6 only-win corner-trap,parity 1830"),
        "{line}"
    );
    // The line's board text is what `othello show` reads.
    let text: Vec<&str> = line.split(' ').collect();
    let read = Position::from_board_text(&format!("{} {}", text[0], text[1]), Variant::Standard);
    assert_eq!(read, Ok(set.puzzles[1].position));
}

fn refusal(bytes: &[u8]) -> String {
    PuzzleSet::from_bytes(bytes)
        .expect_err("refused")
        .to_string()
}

/// The bytes with puzzle 1's byte `at` set to `value` and the checksum made right again,
/// so that the entry's own checks are what refuse it.
fn with_entry_byte(at: usize, value: u8) -> Vec<u8> {
    let mut bytes = sample_set().to_bytes();
    bytes[20 + at] = value;
    let body = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    bytes
}

#[test]
fn every_kind_of_damage_is_refused_with_its_own_reason() {
    let good = sample_set().to_bytes();
    assert!(refusal(b"OZBOOK\r\n....").contains("not an Othello Zero puzzle file"));
    assert!(refusal(b"").contains("not an Othello Zero puzzle file"));
    let mut version = good.clone();
    version[8] = 9;
    assert!(refusal(&version).contains("version 9; this build reads version 1"));
    assert!(
        refusal(&good[..40]).contains("truncated: the header promises 2 puzzles, the file holds 0")
    );
    let mut longer = good.clone();
    longer.push(0);
    assert!(refusal(&longer).contains("1 bytes after the last puzzle"));
    let mut flipped = good.clone();
    flipped[30] ^= 0x10;
    assert!(refusal(&flipped).contains("checksum"));
    // Entries that pass the checksum but are no puzzle.
    for (at, value, reason) in [
        (16, 7, "unknown side code 7"),
        (17, 0, "the illegal answer a1"),
        (17, 200, "an answer off the board"),
        (18, 9, "unknown kind code 9"),
        (20, 0xff, "unknown themes"),
        (21, 0x80, "which a best-margin puzzle cannot have"),
        (24, 0xff, "the rating"),
    ] {
        let text = refusal(&with_entry_byte(at, value));
        assert!(
            text.contains("puzzle 1 of 2") && text.contains(reason),
            "{at}: {text}"
        );
    }
    // Discs on the same square.
    let text = refusal(&with_entry_byte(3, 0xff));
    assert!(text.contains("is not a position"), "{text}");
}

#[test]
fn random_damage_never_panics_and_is_never_read_as_another_set() {
    let good = sample_set().to_bytes();
    let mut rng = Rng::new(5);
    for _ in 0..5000 {
        let mut bytes = good.clone();
        match rng.below(3) {
            0 => {
                let at = rng.below(bytes.len());
                bytes[at] ^= 1 << rng.below(8);
            }
            1 => bytes.truncate(rng.below(bytes.len())),
            _ => {
                let at = rng.below(bytes.len());
                bytes.insert(at, rng.below(256) as u8);
            }
        }
        if let Ok(set) = PuzzleSet::from_bytes(&bytes) {
            panic!(
                "damaged bytes read as a set of {} puzzles",
                set.puzzles.len()
            );
        }
    }
}

#[test]
fn themes_keep_exactly_their_members() {
    let themes = Themes::default().with(Theme::Quiet).with(Theme::ForcePass);
    assert_eq!(
        themes.iter().collect::<Vec<_>>(),
        [Theme::ForcePass, Theme::Quiet]
    );
    assert_eq!(themes.to_string(), "force-pass,quiet");
    assert_eq!(Themes::default().to_string(), "-");
    assert_eq!(Themes::from_bits(themes.bits()), Some(themes));
    assert_eq!(Themes::from_bits(1 << Theme::ALL.len()), None);
}

fn endgame(size: BoardSize, empties: u32, seed: u64) -> Position {
    let mut rng = Rng::new(seed);
    othello::testing::random_position(
        size,
        Variant::Standard,
        othello::testing::Stop::AtEmpties(empties),
        |n| rng.below(n),
    )
}

#[test]
fn a_position_proven_move_by_move_is_judged_as_the_builder_judges_it() {
    // The reference: every move scored by the solver at once, then classified.
    let mut rater = Rater::new(None, &crate::NoModels).expect("weak players");
    let (mut puzzles, mut others) = (0, 0);
    for seed in 0..60 {
        let pos = endgame(BoardSize::Six, 9, seed);
        if pos.is_game_over() {
            continue;
        }
        let scores = crate::Solver::new().score_moves(&pos);
        let expected = if pos.legal_move_list().len() < 2 {
            None
        } else {
            classify(&scores, 6)
        };
        let proving = prove_puzzle(&pos, &mut crate::Solver::new(), u64::MAX, 6, &mut rater);
        match (expected, proving) {
            (Some((kind, answer, margin, runner_up)), Proving::Puzzle(p)) => {
                puzzles += 1;
                assert_eq!(
                    (
                        p.kind,
                        p.answer,
                        i32::from(p.margin),
                        i32::from(p.runner_up)
                    ),
                    (kind, answer, margin, runner_up)
                );
                assert_eq!(p.themes, themes(&pos, answer, &scores));
            }
            (None, Proving::NotAPuzzle) => others += 1,
            (expected, proving) => panic!("{pos:?}: {expected:?} but {proving:?}"),
        }
    }
    assert!(
        puzzles > 0 && others > 0,
        "{puzzles} puzzles, {others} others"
    );
}

#[test]
fn a_position_beyond_the_budget_stays_unproven() {
    let mut rater = Rater::new(None, &crate::NoModels).expect("weak players");
    let pos = endgame(BoardSize::Eight, 20, 3);
    let proving = prove_puzzle(&pos, &mut crate::Solver::new(), 1_000, 8, &mut rater);
    assert_eq!(proving, Proving::OutOfReach);
}

#[test]
fn the_perfect_line_keeps_the_solvers_margin_to_the_last_disc() {
    for seed in 0..20 {
        let pos = endgame(BoardSize::Eight, 10, seed);
        let mut solver = crate::Solver::new();
        let margin = crate::Solver::new().solve(&pos).margin;
        let line = perfect_line(&pos, &mut solver);
        let mut now = pos;
        let mut sign = 1;
        for (mv, said) in &line {
            // Each move's margin is the position's exact value for the side that plays.
            assert_eq!(*said, sign * margin, "{pos:?} at {mv}");
            now = now.play(*mv).expect("the line is legal");
            sign = -sign;
        }
        assert!(now.is_game_over());
        assert_eq!(
            now.count().margin_for(pos.side_to_move()),
            margin,
            "{pos:?}"
        );
    }
}
