//! Puzzle mode's logic, without the browser: the player's and the puzzles' Glicko-2
//! ratings after each first try (`rating`, as Lichess rates its puzzles), what the
//! player's puzzle play keeps across reloads under its own storage key (`record`: the
//! rating, streaks, the rating's history, the theme chosen and the player's own mistakes),
//! which puzzle comes next (`pick`, near the player's rating), the rating's history as
//! a small SVG line (`chart`), and one puzzle as the player meets it (`session`: right,
//! refuted, the answer, played out against the solver). The puzzles themselves and their file are the engine's
//! (`engine::puzzles`, docs/puzzles.md).

pub mod chart;
pub mod link;
pub mod mistakes;
pub mod pick;
pub mod rating;
pub mod record;
pub mod session;
pub mod words;

#[cfg(test)]
mod tests;
