use super::*;
use engine::puzzles::{PuzzleKind, Theme, BASE_RATING};
use engine::NoModels;
use othello::{Bitboard, Move, Position};

/// The exact margin for the side to move by plain negamax over the rules, the slow,
/// obviously correct reference the solver's answers are checked against.
fn negamax(pos: &Position) -> i32 {
    if pos.is_game_over() {
        return pos.count().margin_for(pos.side_to_move());
    }
    pos.legal_move_list()
        .into_iter()
        .map(|mv| -negamax(&pos.play_unchecked(mv)))
        .max()
        .unwrap_or(0)
}

fn random_games(size: BoardSize, count: usize, seed: u64) -> Vec<Game> {
    let mut rng = engine::Rng::new(seed);
    (0..count)
        .map(|_| {
            let mut game = Game::new(Position::start(size, Variant::Standard));
            while !game.position().is_game_over() {
                let moves = game.position().legal_move_list();
                let mv = *rng.choose(&moves).unwrap_or(&Move::Pass);
                let _ = game.push(mv);
            }
            game
        })
        .collect()
}

fn rules(max_empties: u32) -> PuzzleRules {
    PuzzleRules {
        max_empties,
        min_empties: 4,
        gap: 4,
        policy: None,
    }
}

/// The puzzles of 6x6 games at up to 9 empties, rated by the weak players alone.
fn find_6x6(games: &[Game]) -> (PuzzleSet, PuzzleCounts) {
    let mut rater = Rater::new(None, &NoModels).expect("weak players");
    find_puzzles(
        games,
        BoardSize::Six,
        Variant::Standard,
        &rules(9),
        &mut rater,
        &|_, _| {},
    )
}

#[test]
fn kinds_follow_from_the_margins_in_order() {
    let m = |text: &str| Move::parse(text, BoardSize::Eight).expect("a move");
    let scores = |pairs: &[(&str, i32)]| pairs.iter().map(|(t, v)| (m(t), *v)).collect::<Scores>();
    let win = classify(&scores(&[("a1", 6), ("b1", 0), ("c1", -4)]), 4);
    assert_eq!(win, Some((PuzzleKind::OnlyWin, m("a1"), 6, 0)));
    let draw = classify(&scores(&[("a1", 0), ("b1", -2)]), 4);
    assert_eq!(draw.map(|d| d.0), Some(PuzzleKind::OnlyDraw));
    let margin = classify(&scores(&[("a1", 20), ("b1", 12)]), 8);
    assert_eq!(margin.map(|d| d.0), Some(PuzzleKind::BestMargin));
    // Two winning moves, too close margins, one move: no puzzle.
    assert_eq!(classify(&scores(&[("a1", 6), ("b1", 2)]), 8), None);
    assert_eq!(classify(&scores(&[("a1", -2), ("b1", -4)]), 4), None);
    assert_eq!(classify(&scores(&[("a1", 6)]), 4), None);
}

#[test]
fn every_puzzle_found_is_the_one_best_move_by_plain_negamax() {
    let games = random_games(BoardSize::Six, 12, 3);
    let (set, counts) = find_6x6(&games);
    assert!(counts.kept > 3, "{counts:?}");
    assert!(counts.kept < counts.tried, "{counts:?}");
    assert_eq!(counts.kept, set.puzzles.len());
    for p in &set.puzzles {
        let values: Vec<(Move, i32)> = p
            .position
            .legal_move_list()
            .into_iter()
            .map(|mv| (mv, -negamax(&p.position.play_unchecked(mv))))
            .collect();
        let best = values.iter().map(|(_, v)| *v).max().unwrap_or(i32::MIN);
        let answer_value = values.iter().find(|(m, _)| *m == p.answer).map(|(_, v)| *v);
        assert_eq!(answer_value, Some(best), "{}", p.line());
        assert_eq!(i32::from(p.margin), best);
        let runner_up = values
            .iter()
            .filter(|(m, _)| *m != p.answer)
            .map(|(_, v)| *v)
            .max();
        assert_eq!(runner_up, Some(i32::from(p.runner_up)), "{}", p.line());
        match p.kind {
            PuzzleKind::OnlyWin => assert!(best > 0 && p.runner_up <= 0),
            PuzzleKind::OnlyDraw => assert!(best == 0 && p.runner_up < 0),
            PuzzleKind::BestMargin => assert!(best - i32::from(p.runner_up) >= 4),
        }
        // A corner trap has a corner that negamax shows worse than the answer.
        if p.themes.has(Theme::CornerTrap) {
            let corners = Bitboard(BoardSize::Six.corners());
            assert!(values
                .iter()
                .any(|(m, v)| m.square().is_some_and(|sq| corners.contains(sq)) && *v < best));
        }
        assert!((800..=2600).contains(&p.rating), "{}", p.line());
    }
    // The set proves again, and a puzzle with another answer does not.
    assert!(check_puzzles(&set, &|_, _| {}).is_empty());
    let mut wrong = set.clone();
    let puzzle = &mut wrong.puzzles[0];
    puzzle.answer = puzzle
        .position
        .legal_move_list()
        .into_iter()
        .find(|m| *m != puzzle.answer)
        .expect("a puzzle has a choice");
    let failures = check_puzzles(&wrong, &|_, _| {});
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].index, 0);
    // Written and read back, the set is the same.
    assert_eq!(PuzzleSet::from_bytes(&set.to_bytes()), Ok(set));
}

#[test]
fn a_position_is_tried_once_however_often_it_comes() {
    let games = random_games(BoardSize::Six, 4, 8);
    let mut twice = games.clone();
    twice.extend(games.iter().cloned());
    let (once, _) = find_6x6(&games);
    let (again, counts) = find_6x6(&twice);
    assert_eq!(once.puzzles, again.puzzles);
    assert_eq!(counts.kept, once.puzzles.len());
}

#[test]
fn misses_by_weak_players_make_a_puzzle_harder() {
    let mut rater = Rater::new(None, &NoModels).expect("weak players");
    let pos = Position::start(BoardSize::Eight, Variant::Standard);
    // At the start every move flips one disc: the greedy and heuristic players' choice
    // among them is theirs; a move none of them plays rates higher than one they play.
    let ratings: Vec<u16> = pos
        .legal_move_list()
        .into_iter()
        .map(|mv| rater.rate(&pos, mv, PuzzleKind::BestMargin))
        .collect();
    assert!(ratings
        .iter()
        .all(|r| (BASE_RATING..=BASE_RATING + 750).contains(r)));
    assert!(ratings.iter().max() > ratings.iter().min(), "{ratings:?}");
    let draw = rater.rate(&pos, pos.legal_move_list()[0], PuzzleKind::OnlyDraw);
    assert_eq!(draw, ratings[0] + 100);
}
