//! The controllers, one per room, as Lichess's puzzle front end splits each page into a
//! `ctrl` (the state and its effects) and a `view` (pure functions of the ctrl): the game
//! (`game`) and Puzzle mode (`puzzle`). Each is a hook that owns its room's state, runs its
//! effects (those of `hooks/`, and the worker gateway's commands) and returns plain values
//! and callbacks; the App composes them, and the rooms of `app/` only draw what they get.

mod game;
mod puzzle;

pub use game::{use_game_ctrl, use_restored, GameCtrl};
pub use puzzle::{use_puzzle_ctrl, PuzzleCtrl, PuzzleFile};
