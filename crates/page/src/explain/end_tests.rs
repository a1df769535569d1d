//! The panel once the game is over: the result is the board's, said by the solver where it
//! proved it, and by no estimate.

use super::tests::{heat, merged, summary_of, ENDS_WITH_PASSES};
use super::*;
use othello::{Game, Position};
use protocol::SolvedStat;

/// The game of [`ENDS_WITH_PASSES`] before its last move (White, the agent, to play h1),
/// and after it, over.
fn the_end() -> (GameState, GameState) {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let mut game = Game::from_transcript(ENDS_WITH_PASSES, start).expect("legal");
    let last = game.pop().expect("a last move");
    let before = GameState::from_game(game.clone(), Seats::Human(Color::Black));
    game.push(last).expect("legal");
    let over = GameState::from_game(game, Seats::Human(Color::Black));
    assert!(over.position().is_game_over());
    (before, over)
}

#[test]
fn once_the_game_is_over_the_last_search_keeps_its_estimate_said_as_then() {
    let (before, over) = the_end();
    let h = heat(&before, Purpose::Move, merged(-0.98, 400, 200.0));
    // Before the last move the search's estimate is the news.
    let s = summary_of(&View::default(), &before, &h, Role::Thinking).expect("a summary");
    let then = s.verdict.expect("an estimate");
    // After it the panel keeps it (issue 68: it emptied at the game's end), said as the
    // estimate before the move, beside the board's result.
    let s = summary_of(&View::default(), &over, &h, Role::Past).expect("a summary");
    assert_eq!(
        s.verdict,
        Some(format!(
            "Before that move: {then}. The final result is the board's."
        ))
    );
    assert!(s.pv.is_some() && s.speed.is_some(), "the search itself");
}

#[test]
fn the_networks_estimate_without_search_is_said_as_then_once_the_game_is_over() {
    // Instinct's panel kept "1% chance to win, expected result ≈ −31 discs" beside "White
    // wins 44-20" (the sixteenth look).
    let (before, over) = the_end();
    let mut instinct = merged(-0.98, 1, 200.0);
    instinct.search.engine = EngineKind::Instinct;
    // Two moves reported: a lone legal move is said with no estimate at all.
    let mut other = instinct.moves[0].clone();
    other.mv = Move::parse("a8", BoardSize::Eight).expect("a move");
    instinct.moves.push(other);
    let h = heat(&before, Purpose::Move, instinct);
    let then = summary_of(&View::default(), &before, &h, Role::Past)
        .and_then(|s| s.verdict)
        .expect("an estimate");
    assert!(
        !then.starts_with("Before"),
        "mid-game it is the news: {then}"
    );
    let s = summary_of(&View::default(), &over, &h, Role::Past).expect("a summary");
    assert_eq!(
        s.verdict,
        Some(format!(
            "Before that move: {then}. The final result is the board's."
        ))
    );
}

#[test]
fn the_agents_last_search_stays_when_the_persons_move_ends_the_game() {
    // White, the person, plays the last move h1: the agent's search of two plies before
    // is still the panel's at the end (issue 68: the panel emptied).
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let mut game = Game::from_transcript(ENDS_WITH_PASSES, start).expect("legal");
    let last = game.pop().expect("a last move");
    let agent_searched = game
        .positions()
        .iter()
        .rev()
        .skip(1)
        .find(|p| p.side_to_move() == Color::Black)
        .copied()
        .expect("a position Black moved from");
    game.push(last).expect("legal");
    let over = GameState::from_game(game, Seats::Human(Color::White));
    let mut h = heat(&over, Purpose::Move, merged(-0.98, 400, 200.0));
    h.position = agent_searched.hash();
    let view = View {
        heat: Some(h),
        ..View::default()
    };
    let (_, role) = crate::overlay::panel_search(&view, &over).expect("the last search stays");
    assert_eq!(role, Role::Past);
    // A search of a position the game never reached is no search of this game.
    let mut view = view;
    if let Some(h) = view.heat.as_mut() {
        h.position = 12345;
    }
    assert!(crate::overlay::panel_search(&view, &over).is_none());
}

#[test]
fn the_solvers_last_move_keeps_its_result_line_which_is_the_boards() {
    // Issue 68: the solver's panel at the game's last move gave its speed and no result.
    let (before, over) = the_end();
    let margin = over
        .position()
        .outcome()
        .expect("over")
        .margin_for(Color::White);
    let mut solved = merged(0.0, 0, 1.0);
    solved.search.solved = Some(SolvedStat {
        best: Move::parse("h1", BoardSize::Eight).expect("a move"),
        margin,
        exact: true,
        nodes: 2,
        micros: 10,
    });
    let h = heat(&before, Purpose::Move, solved.clone());
    let s = summary_of(&View::default(), &over, &h, Role::Past).expect("a summary");
    let verdict = s.verdict.expect("the solver's result line");
    let by = format!(" by {}", margin.abs());
    assert!(
        verdict.starts_with("Proven") && verdict.contains(&by) && verdict.contains("Black (you)"),
        "{verdict}"
    );
    assert!(s
        .speed
        .is_some_and(|speed| speed.starts_with("The endgame solver")));
    // A margin that is not the board's (a bound, or another line) is said as what the
    // search found before the last move, the result left to the board.
    if let Some(stat) = solved.search.solved.as_mut() {
        stat.exact = false;
    }
    let h = heat(&before, Purpose::Move, solved);
    let s = summary_of(&View::default(), &over, &h, Role::Past).expect("a summary");
    let verdict = s.verdict.expect("the search's verdict then");
    assert!(
        verdict.starts_with("Before that move: Proven loss by at least")
            && verdict.ends_with(". The final result is the board's."),
        "{verdict}"
    );
}
