use super::*;
use crate::rng::Rng;
use othello::testing::{random_position, Stop};
use proptest::prelude::*;

fn start8() -> Position {
    Position::start(BoardSize::Eight, Variant::Standard)
}

fn play(pos: &Position, moves: &str) -> Position {
    let game = othello::Game::from_transcript(moves, *pos).expect("a legal line");
    *game.position()
}

fn searched(value: f32, estimates: Vec<(Move, f32)>) -> BookEntry {
    BookEntry {
        value,
        backed_up: false,
        origin: Origin::Searched,
        budget: 1000,
        games: 0,
        estimates,
    }
}

fn mv(text: &str) -> Move {
    Move::parse(text, BoardSize::Eight).expect("a square")
}

#[test]
fn the_eight_orientations_share_one_key_and_one_entry() {
    let pos = play(&start8(), "f5d6c3");
    let mut book = Book::new(BoardSize::Eight, Variant::Standard);
    book.insert(&pos, searched(1.5, vec![(mv("d3"), 1.5)]));
    for sym in Symmetry::ALL {
        let turned = sym.position(&pos);
        assert_eq!(
            BookKey::of(&turned).0,
            BookKey::of(&pos).0,
            "{}",
            sym.name()
        );
        let moves = book.moves(&turned).expect("in the book");
        // The estimate follows the board round: d3 turned the same way.
        assert_eq!(moves[0].mv, sym.apply_move(mv("d3"), BoardSize::Eight));
        assert_eq!(moves[0].value, 1.5);
    }
    assert_eq!(book.len(), 1);
}

#[test]
fn a_move_takes_its_childs_value_negated_and_beats_the_estimate() {
    let start = start8();
    let mut book = Book::new(BoardSize::Eight, Variant::Standard);
    book.insert(&start, searched(0.5, vec![(mv("f5"), 0.5)]));
    // f5's child is in the book: its value (for White) is -2, so f5 is +2 for Black, and
    // the other three first moves, its mirror images, are the same position.
    book.insert(&play(&start, "f5"), searched(-2.0, vec![]));
    let moves = book.moves(&start).expect("in the book");
    assert_eq!(moves.len(), 4);
    assert!(moves.iter().all(|m| m.in_book && m.value == 2.0));
    let choice = book
        .choose(&start, 0.0, &mut Rng::new(1))
        .expect("a book move");
    assert_eq!(choice.value, 2.0);
}

#[test]
fn the_book_gives_way_to_a_better_move_it_has_not_followed() {
    let pos = play(&start8(), "f5");
    let mut book = Book::new(BoardSize::Eight, Variant::Standard);
    book.insert(&pos, searched(1.0, vec![(mv("f6"), 3.0), (mv("d6"), 1.0)]));
    book.insert(&play(&pos, "d6"), searched(-1.0, vec![]));
    assert!(book.choose(&pos, 0.0, &mut Rng::new(1)).is_none());
    // Once f6 is in the book and worse than its estimate, d6 is the book's move.
    book.insert(&play(&pos, "f6"), searched(0.0, vec![]));
    let choice = book
        .choose(&pos, 0.0, &mut Rng::new(1))
        .expect("a book move");
    assert_eq!((choice.mv, choice.value), (mv("d6"), 1.0));
}

#[test]
fn book_random_draws_only_within_its_margin_and_favours_the_best() {
    let pos = play(&start8(), "f5");
    let mut book = Book::new(BoardSize::Eight, Variant::Standard);
    book.insert(&pos, searched(0.0, vec![]));
    // d6 +1, f6 0, f4 -3 for the side to move.
    book.insert(&play(&pos, "d6"), searched(-1.0, vec![]));
    book.insert(&play(&pos, "f6"), searched(0.0, vec![]));
    book.insert(&play(&pos, "f4"), searched(3.0, vec![]));
    let mut rng = Rng::new(7);
    let mut counts = HashMap::new();
    for _ in 0..2000 {
        let choice = book.choose(&pos, 2.0, &mut rng).expect("a book move");
        *counts.entry(choice.mv).or_insert(0) += 1;
    }
    assert!(!counts.contains_key(&mv("f4")), "{counts:?}");
    let (best, second) = (counts[&mv("d6")], counts[&mv("f6")]);
    // Weights 1 and 2/3: d6 is drawn 60% of the time.
    assert!((1100..1300).contains(&best), "{counts:?}");
    assert_eq!(best + second, 2000);
    // Without randomness the best is always the move.
    for seed in 0..20 {
        let choice = book.choose(&pos, 0.0, &mut Rng::new(seed)).expect("a move");
        assert_eq!(choice.mv, mv("d6"));
    }
}

#[test]
fn a_child_that_must_pass_is_kept_after_its_pass_with_the_same_side_to_move() {
    // Find a 4x4 move after which the opponent must pass.
    let mut found = None;
    'search: for seed in 0..500 {
        let mut rng = Rng::new(seed);
        let mut pos = Position::start(BoardSize::Four, Variant::Standard);
        while !pos.is_game_over() {
            for m in pos.legal_move_list() {
                let child = pos.play_unchecked(m);
                if child.must_pass() {
                    found = Some((pos, m));
                    break 'search;
                }
            }
            let moves = pos.legal_move_list();
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    let (pos, m) = found.expect("4x4 games have passes");
    let (kept, same_side) = next_book_position(&pos, m);
    assert!(same_side);
    assert_eq!(kept.side_to_move(), pos.side_to_move());
    let mut book = Book::new(BoardSize::Four, Variant::Standard);
    book.insert(&kept, searched(5.0, vec![]));
    assert_eq!(book.child_value(&pos, m), Some(5.0));
}

#[test]
fn a_book_for_another_game_is_refused_and_never_consulted() {
    let book = Book::new(BoardSize::Six, Variant::Standard);
    let error = book
        .check_game(BoardSize::Eight, Variant::Standard)
        .expect_err("6x6 book, 8x8 game");
    assert_eq!(
        error.to_string(),
        "the book is for 6x6 standard, the game is 8x8 standard"
    );
    assert!(book.get(&start8()).is_none());
}

fn small_book(seed: u64) -> Book {
    let mut book = Book::new(BoardSize::Eight, Variant::Standard);
    for i in 0..20 {
        let mut rng = Rng::new(seed ^ i);
        let plies = Stop::AfterPlies((i % 12) as usize + 1);
        let pos = random_position(BoardSize::Eight, Variant::Standard, plies, |n| rng.below(n));
        if pos.is_game_over() || pos.must_pass() {
            continue;
        }
        let estimates = pos
            .legal_move_list()
            .into_iter()
            .enumerate()
            .map(|(k, m)| (m, k as f32 - 2.5))
            .collect();
        let mut entry = searched(i as f32 / 4.0 - 2.0, estimates);
        entry.games = i as u32;
        entry.backed_up = i % 2 == 0;
        entry.origin = if i % 3 == 0 {
            Origin::Solved
        } else {
            Origin::Searched
        };
        book.insert(&pos, entry);
    }
    book
}

#[test]
fn a_book_reads_back_as_it_was_written() {
    let book = small_book(3);
    assert!(book.len() > 10);
    let bytes = book.to_bytes();
    assert_eq!(Book::from_bytes(&bytes), Ok(book.clone()));
    // Sorted entries: the same book, the same bytes.
    assert_eq!(Book::from_bytes(&bytes).map(|b| b.to_bytes()), Ok(bytes));
}

#[test]
fn every_cut_of_a_book_file_is_refused_as_truncated() {
    let bytes = small_book(4).to_bytes();
    for len in 0..bytes.len() {
        let error = Book::from_bytes(&bytes[..len]).expect_err("a cut file");
        let expected = if len < 8 {
            BookError::NotABook
        } else {
            match &error {
                BookError::Truncated(_) => error.clone(),
                other => panic!("cut at {len}: {other}"),
            }
        };
        assert_eq!(error, expected, "cut at {len}");
    }
}

#[test]
fn a_wrong_version_or_a_flipped_bit_is_refused_with_its_cause() {
    let bytes = small_book(5).to_bytes();
    let mut newer = bytes.clone();
    newer[8] = 2;
    assert_eq!(
        Book::from_bytes(&newer),
        Err(BookError::Version {
            found: 2,
            supported: FORMAT_VERSION
        })
    );
    for at in (12..bytes.len()).step_by(7) {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x10;
        match Book::from_bytes(&flipped) {
            Err(BookError::Corrupt(_) | BookError::Truncated(_)) => {}
            other => panic!("flipped byte {at}: {other:?}"),
        }
    }
    assert_eq!(
        Book::from_bytes(b"GGF(;GM[Othello]"),
        Err(BookError::NotABook)
    );
}

/// A checksum only catches accidents: a file with a valid checksum around wrong contents
/// must still be refused for what is wrong in it, never read into a broken book.
fn with_fresh_crc(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    bytes
}

#[test]
fn contents_that_make_no_position_are_refused_even_with_a_good_checksum() {
    let bytes = small_book(6).to_bytes();
    // The first entry's opponent discs made equal to its own: overlapping discs.
    let mut overlap = bytes.clone();
    let player: [u8; 8] = bytes[20..28].try_into().expect("8 bytes");
    overlap[28..36].copy_from_slice(&player);
    let error = Book::from_bytes(&with_fresh_crc(overlap)).expect_err("overlapping discs");
    let message = error.to_string();
    assert!(
        message.starts_with("corrupt: entry 1 of ") && message.ends_with("is not a position"),
        "{message}"
    );
    // A value beyond any final margin.
    let mut huge = bytes;
    huge[36..40].copy_from_slice(&1000f32.to_le_bytes());
    let error = Book::from_bytes(&with_fresh_crc(huge)).expect_err("value 1000");
    assert!(error.to_string().contains("has the value 1000"), "{error}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_bytes_are_read_or_refused_without_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = Book::from_bytes(&bytes);
        let mut with_magic = MAGIC_FOR_TESTS.to_vec();
        with_magic.extend_from_slice(&bytes);
        let _ = Book::from_bytes(&with_magic);
        let _ = Book::from_bytes(&with_fresh_crc_if_long(with_magic));
    }

    #[test]
    fn a_random_books_bytes_read_back(seed in any::<u64>()) {
        let book = small_book(seed);
        prop_assert_eq!(Book::from_bytes(&book.to_bytes()), Ok(book));
    }

    #[test]
    fn mutated_book_files_never_panic(seed in any::<u64>(), at in any::<usize>(), byte in any::<u8>()) {
        let mut bytes = small_book(seed).to_bytes();
        let at = at % bytes.len();
        bytes[at] = byte;
        let _ = Book::from_bytes(&with_fresh_crc(bytes));
    }
}

const MAGIC_FOR_TESTS: &[u8; 8] = b"OZBOOK\r\n";

fn with_fresh_crc_if_long(bytes: Vec<u8>) -> Vec<u8> {
    if bytes.len() >= 24 {
        with_fresh_crc(bytes)
    } else {
        bytes
    }
}
