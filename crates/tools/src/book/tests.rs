use super::*;
use engine::{NoModels, PlayerSpec};
use othello::{BoardSize, Variant};
use std::collections::HashMap;

fn start6() -> Position {
    Position::start(BoardSize::Six, Variant::Standard)
}

fn growth(depth: u32, margin: f32, total_margin: f32) -> GrowthSettings {
    GrowthSettings {
        depth,
        margin,
        total_margin,
    }
}

/// A 6x6 book grown by the playout search, with every search counted.
fn grown(rounds: usize, settings: &GrowthSettings) -> (Book, HashMap<BookKey, u32>) {
    let spec: PlayerSpec = "mcts:sims=64,exact=0".parse().expect("a spec");
    let mut agent = spec.mcts_player(3, &NoModels).expect("an agent");
    let mut book = Book::new(BoardSize::Six, Variant::Standard);
    let mut searches: HashMap<BookKey, u32> = HashMap::new();
    for _ in 0..rounds {
        grow(
            &mut book,
            &[start6()],
            settings,
            6,
            |pos| {
                *searches.entry(BookKey::of(pos).0).or_default() += 1;
                search_position(&mut agent, pos, 64)
            },
            |_, _| Ok::<(), EvalError>(()),
        )
        .expect("searches");
    }
    (book, searches)
}

/// The obviously correct negamax: recursion from a position through the book.
fn reference_value(book: &Book, pos: &Position) -> f32 {
    let entry = book.get(pos).expect("in the book");
    let (_, sym) = BookKey::of(pos);
    let mut best: Option<f32> = None;
    let mut has_child = false;
    for mv in pos.legal_move_list() {
        let (child, same_side) = next_book_position(pos, mv);
        let value = if child.is_game_over() {
            has_child = true;
            Some(child.count().margin_for(pos.side_to_move()) as f32)
        } else if book.contains(&child) {
            has_child = true;
            let v = reference_value(book, &child);
            Some(if same_side { v } else { -v })
        } else {
            let keyed = sym.apply_move(mv, pos.size());
            entry
                .estimates
                .iter()
                .find(|(m, _)| *m == keyed)
                .map(|&(_, v)| v)
        };
        if let Some(v) = value {
            best = Some(best.map_or(v, |b: f32| b.max(v)));
        }
    }
    match (has_child, best) {
        (true, Some(best)) => best,
        _ => entry.value,
    }
}

#[test]
fn growth_searches_each_position_once_and_backs_values_up_by_negamax() {
    let settings = growth(6, 6.0, 10.0);
    let (book, searches) = grown(5, &settings);
    assert!(book.len() >= 12, "{} positions", book.len());
    assert!(searches.values().all(|&n| n == 1), "{searches:?}");
    assert_eq!(searches.len(), book.len());
    for (key, entry) in book.entries() {
        let pos = position_of(&book, *key).expect("a position");
        assert!(ply(&pos) <= settings.depth);
        let expected = reference_value(&book, &pos);
        assert!(
            (entry.value - expected).abs() < 1e-4,
            "{}: {} against {expected}",
            pos.to_board_text(),
            entry.value
        );
    }
    // The start's value came from its children, and the book plays from it.
    assert!(book.get(&start6()).expect("the root").backed_up);
    let choice = book.choose(&start6(), 0.0, &mut engine::Rng::new(1));
    assert!(choice.is_some_and(|c| c.moves[0].in_book));
}

#[test]
fn the_list_holds_only_new_positions_on_near_best_lines_within_the_depth() {
    let settings = growth(5, 2.0, 3.0);
    let (book, _) = grown(3, &settings);
    let list = todo(&book, &[start6()], &settings, 100);
    for pos in &list {
        assert!(!book.contains(pos));
        assert!(ply(pos) <= settings.depth);
    }
    // Each listed position is one near-best move from a book position.
    for pos in &list {
        let reached = book.entries().any(|(key, _)| {
            let parent = position_of(&book, *key).expect("a position");
            let moves = book.moves(&parent).expect("in the book");
            let best = moves[0].value;
            moves.iter().any(|m| {
                let (child, _) = next_book_position(&parent, m.mv);
                best - m.value <= settings.margin && BookKey::of(&child).0 == BookKey::of(pos).0
            })
        });
        assert!(reached, "{}", pos.to_board_text());
    }
    // A book grown to its depth and margins lists nothing more.
    let tight = growth(1, 0.0, 0.0);
    let (small, _) = grown(4, &tight);
    assert!(todo(&small, &[start6()], &tight, 100).is_empty());
    assert!(small.len() <= 3, "{}", small.len());
}

#[test]
fn merging_keeps_the_deeper_search_and_adds_up_the_games() {
    let settings = growth(3, 8.0, 8.0);
    let (mut a, _) = grown(2, &settings);
    let (b, _) = grown(3, &settings);
    let start_games = |book: &Book| book.get(&start6()).map(|e| e.games);
    let mut counted = b.clone();
    count_game(&mut counted, &[start6(), start6()]);
    assert_eq!(
        start_games(&counted),
        Some(1),
        "a game counts a position once"
    );
    let before = a.len();
    let added = merge(&mut a, &counted).expect("same game");
    assert_eq!(a.len(), before + added);
    for (key, _) in b.entries() {
        assert!(a.get_keyed(key).is_some());
    }
    assert_eq!(start_games(&a), Some(1));
    let other = Book::new(BoardSize::Eight, Variant::Standard);
    assert!(merge(&mut a, &other).is_err());
}

#[test]
fn a_book_file_survives_a_write_and_a_bad_one_says_why() {
    let (book, _) = grown(1, &GrowthSettings::default());
    let dir = std::env::temp_dir().join(format!("othello-book-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let path = dir.join("b.book");
    write_book(&path, &book).expect("written");
    assert_eq!(read_book(&path), Ok(book));
    std::fs::write(&path, b"not a book at all").expect("written");
    assert_eq!(read_book(&path), Err(BookError::NotABook));
    let missing = read_book(&dir.join("missing.book")).expect_err("no file");
    assert!(
        missing.to_string().starts_with("cannot be read: "),
        "{missing}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
