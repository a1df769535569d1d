//! The heuristic and alpha-beta players: legal, reproducible, and as strong as they claim.

use engine::players::{solver_empties, AlphaBetaPlayer, HeuristicPlayer, RandomPlayer};
use engine::{Agent, Budget, Rng, Solver};
use othello::testing::{random_position, Stop};
use othello::{BoardSize, Color, Game, Move, Position, Square, Variant};
use proptest::prelude::*;
use std::time::Duration;

fn play_game(
    black: &mut dyn Agent,
    white: &mut dyn Agent,
    start: Position,
    budget: Budget,
) -> Game {
    let mut game = Game::new(start);
    while !game.position().is_game_over() {
        let pos = *game.position();
        let agent: &mut dyn Agent = if pos.side_to_move() == Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        let mv = agent.select_move(&pos, &budget);
        game.push(mv).expect("players play legal moves");
    }
    game
}

fn size_of(i: usize) -> BoardSize {
    BoardSize::ALL[i % 3]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_heuristic_player_always_plays_a_legal_move(
        seed in any::<u64>(), plies in 0usize..60, size in 0usize..3, reversed in any::<bool>()
    ) {
        let variant = if reversed { Variant::Reversed } else { Variant::Standard };
        let mut rng = Rng::new(seed);
        let pos = random_position(size_of(size), variant, Stop::AfterPlies(plies), |n| rng.below(n));
        prop_assume!(!pos.is_game_over());
        let mv = HeuristicPlayer::new(seed).select_move(&pos, &Budget::default());
        prop_assert!(pos.is_legal(mv), "{mv} in {}", pos.to_board_text());
    }

    #[test]
    fn the_alpha_beta_player_always_plays_a_legal_move(
        seed in any::<u64>(), plies in 0usize..60, size in 0usize..3, reversed in any::<bool>()
    ) {
        let variant = if reversed { Variant::Reversed } else { Variant::Standard };
        let mut rng = Rng::new(seed);
        let pos = random_position(size_of(size), variant, Stop::AfterPlies(plies), |n| rng.below(n));
        prop_assume!(!pos.is_game_over());
        let mv = AlphaBetaPlayer::new(seed).select_move(&pos, &Budget::depth(2));
        prop_assert!(pos.is_legal(mv), "{mv} in {}", pos.to_board_text());
    }
}

#[test]
fn the_same_seed_plays_the_same_game() {
    for size in [BoardSize::Six, BoardSize::Eight] {
        let start = Position::start(size, Variant::Standard);
        let budget = Budget::depth(2);
        let games: Vec<Vec<Move>> = [1, 1, 2]
            .into_iter()
            .map(|seed| {
                let mut black = AlphaBetaPlayer::new(seed);
                let mut white = HeuristicPlayer::new(seed);
                play_game(&mut black, &mut white, start, budget)
                    .moves()
                    .to_vec()
            })
            .collect();
        assert_eq!(games[0], games[1]);
        let heuristic: Vec<Vec<Move>> = [3, 3, 4]
            .into_iter()
            .map(|seed| {
                let mut black = HeuristicPlayer::new(seed);
                let mut white = RandomPlayer::new(seed);
                play_game(&mut black, &mut white, start, budget)
                    .moves()
                    .to_vec()
            })
            .collect();
        assert_eq!(heuristic[0], heuristic[1]);
        assert_ne!(heuristic[0], heuristic[2]);
    }
}

#[test]
fn alpha_beta_takes_a_wipeout_win() {
    // Black e3 d4, White e4 e5: e6 flips both white discs and ends the game; f4 and f6
    // flip one each. Many empties, so this is search, not the solver.
    let mut board = vec!['-'; 64];
    for (text, c) in [("e3", 'X'), ("d4", 'X'), ("e4", 'O'), ("e5", 'O')] {
        let sq = Square::parse(text, BoardSize::Eight).expect("square");
        board[usize::from(sq.index())] = c;
    }
    let text: String = board.into_iter().collect();
    let pos = Position::from_board_text(&format!("{text} X"), Variant::Standard).expect("board");
    assert_eq!(pos.legal_moves().count(), 3);
    let e6 = Move::Place(Square::parse("e6", BoardSize::Eight).expect("square"));
    for depth in 1..=4 {
        assert_eq!(
            AlphaBetaPlayer::new(0).select_move(&pos, &Budget::depth(depth)),
            e6
        );
    }
}

#[test]
fn alpha_beta_takes_a_free_corner() {
    // Black to move can take a1 through b2; the corner is worth more than anything else.
    let text = [
        "--------", "-O------", "--X-----", "---OX---", "---XO---", "--------", "--------",
        "--------",
    ]
    .concat();
    let pos = Position::from_board_text(&format!("{text} X"), Variant::Standard).expect("board");
    let a1 = Move::Place(Square::parse("a1", BoardSize::Eight).expect("square"));
    for depth in [1, 3] {
        assert_eq!(
            AlphaBetaPlayer::new(7).select_move(&pos, &Budget::depth(depth)),
            a1
        );
    }
}

#[test]
fn alpha_beta_never_misplays_a_solved_ending() {
    let mut rng = Rng::new(21);
    let mut solver = Solver::new();
    let mut checked = 0;
    for (size, empties) in [(BoardSize::Eight, 11), (BoardSize::Six, 13)] {
        for variant in [Variant::Standard, Variant::Reversed] {
            assert!(empties <= solver_empties(size));
            for seed in 0..40 {
                let plies = size.squares() as usize - 4 - empties as usize;
                let pos = random_position(size, variant, Stop::AfterPlies(plies), |n| rng.below(n));
                if pos.is_game_over() {
                    continue;
                }
                let scores = solver.score_moves(&pos);
                let best = scores[0].1;
                let mv = AlphaBetaPlayer::new(seed).select_move(&pos, &Budget::depth(1));
                let got = scores.iter().find(|(m, _)| *m == mv).map(|(_, s)| *s);
                assert_eq!(
                    got,
                    Some(best),
                    "{mv} in {} ({variant})",
                    pos.to_board_text()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100);
}

#[test]
fn alpha_beta_at_depth_3_beats_random_on_6x6() {
    let start = Position::start(BoardSize::Six, Variant::Standard);
    for game in 0..20u64 {
        let mut ab = AlphaBetaPlayer::new(game);
        let mut random = RandomPlayer::new(1000 + game);
        let ab_color = if game % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let played = if ab_color == Color::Black {
            play_game(&mut ab, &mut random, start, Budget::depth(3))
        } else {
            play_game(&mut random, &mut ab, start, Budget::depth(3))
        };
        let outcome = played.position().outcome().expect("finished");
        assert_eq!(
            outcome.winner(),
            Some(ab_color),
            "game {game}: {}",
            played.transcript(true)
        );
    }
}

#[test]
fn alpha_beta_beats_the_heuristic_player_more_often_than_not() {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let mut wins = 0;
    for game in 0..10u64 {
        let mut ab = AlphaBetaPlayer::new(game);
        let mut h = HeuristicPlayer::new(game);
        let ab_color = if game % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let played = if ab_color == Color::Black {
            play_game(&mut ab, &mut h, start, Budget::depth(2))
        } else {
            play_game(&mut h, &mut ab, start, Budget::depth(2))
        };
        if played.position().outcome().and_then(|o| o.winner()) == Some(ab_color) {
            wins += 1;
        }
    }
    assert!(wins >= 7, "alpha-beta won only {wins} of 10");
}

#[test]
fn a_time_budget_is_respected_and_still_gives_a_legal_move() {
    let mut rng = Rng::new(3);
    let plies = Stop::AfterPlies(10);
    let pos = random_position(BoardSize::Eight, Variant::Standard, plies, |n| rng.below(n));
    let mut player = AlphaBetaPlayer::new(3);
    let clock = std::time::Instant::now();
    let mv = player.select_move(&pos, &Budget::time(Duration::from_millis(50)));
    assert!(pos.is_legal(mv));
    assert!(
        clock.elapsed() < Duration::from_millis(500),
        "took {:?}",
        clock.elapsed()
    );
}

/// The AlphaZero search over random-playout values (no network) on the hand-made
/// positions above: it must find what alpha-beta finds.
fn mcts_move(pos: &Position, sims: u64, seed: u64) -> Move {
    let config = engine::MctsConfig {
        seed,
        ..engine::MctsConfig::default()
    };
    let mut mcts = engine::Mcts::new(engine::PlayoutEvaluator::new(seed, 4), config);
    let info = mcts
        .search(pos, &Budget::simulations(sims), &mut |_| true)
        .expect("search");
    info.best_move().expect("a move")
}

#[test]
fn mcts_finds_the_wipeout_win_and_proves_it() {
    let mut board = vec!['-'; 64];
    for (text, c) in [("e3", 'X'), ("d4", 'X'), ("e4", 'O'), ("e5", 'O')] {
        let sq = Square::parse(text, BoardSize::Eight).expect("square");
        board[usize::from(sq.index())] = c;
    }
    let text: String = board.into_iter().collect();
    let pos = Position::from_board_text(&format!("{text} X"), Variant::Standard).expect("board");
    let e6 = Move::Place(Square::parse("e6", BoardSize::Eight).expect("square"));
    for seed in 0..5 {
        assert_eq!(mcts_move(&pos, 50, seed), e6);
    }
}
