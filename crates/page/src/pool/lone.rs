//! A game's next move searched by one worker alone, for the browser's equal-time matches
//! between two agents (`tests/e2e/equal-time.measure.mjs`, the test hook
//! `othelloPlayMove`): the game comes as a transcript, the worker's report chooses the move
//! as the page's own merge of one report does, and the answer is JSON the script reads.
//! Plain data, so it is tested without a browser.

use crate::merge::merge;
use othello::{BoardSize, Color, Game, Move, Position, Variant};
use protocol::Report;

/// Where a game stands for its side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Turn {
    /// The game is over: no answer but its result.
    Over,
    /// The side to move has no placement: it passes without a search.
    Pass,
    /// A search of this position chooses the move.
    Search(Position),
}

/// The 8x8 standard game a transcript (`f5d6c3`, passes written or not) plays, and what its
/// side to move does next.
pub fn next_turn(transcript: &str) -> Result<(Game, Turn), String> {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let game = Game::from_transcript(transcript, start).map_err(|e| e.to_string())?;
    let position = *game.position();
    let turn = if position.is_game_over() {
        Turn::Over
    } else if position.must_pass() {
        Turn::Pass
    } else {
        Turn::Search(position)
    };
    Ok((game, turn))
}

/// The move a lone worker's final report plays: the page's choice from one report (a
/// solved or book move first, else the search's).
pub fn chosen_move(report: &Report) -> Option<Move> {
    merge(std::iter::once(report)).and_then(|merged| merged.best_move())
}

/// The hook's answer once `mv` (if any: none when the game was already over) is played:
/// the move, the transcript after it, whether the game is over and Black's final margin
/// then, and the search's simulations, milliseconds and whether a book or the solver
/// chose the move (so the script can time only the searches).
pub fn answer(mut game: Game, mv: Option<Move>, report: Option<&Report>) -> Result<String, String> {
    if let Some(mv) = mv {
        game.push(mv).map_err(|e| e.to_string())?;
    }
    let outcome = game.position().outcome();
    let search = report.map(|r| &r.search);
    Ok(serde_json::json!({
        "move": mv.map(|m| m.to_string()),
        "transcript": game.transcript(true),
        "over": outcome.is_some(),
        "black_margin": outcome.map(|o| o.margin_for(Color::Black)),
        "simulations": search.map_or(0, |s| s.simulations),
        "ms": search.map_or(0.0, |s| s.elapsed_ms),
        "settled": search.is_some_and(|s| s.book.is_some() || s.solved.is_some()),
    })
    .to_string())
}

#[cfg(test)]
mod tests;
