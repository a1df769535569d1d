//! Othello rules on bitboards.
//!
//! 8x8, 6x6 and 4x4 boards from one implementation, standard and reversed
//! ("fewest discs wins") variants, Othello notation (squares, transcripts, OBF board
//! text, GGF game records), the eight board symmetries, perft, and the game state a front end plays
//! (seats, forced passes, undo and redo).
//!
//! ```
//! use othello::{BoardSize, Game, Position, Variant};
//! let start = Position::start(BoardSize::Eight, Variant::Standard);
//! let game = Game::from_transcript("f5d6c3", start).unwrap();
//! assert_eq!(game.position().legal_moves().count(), 4);
//! ```

mod bitboard;
mod board_size;
mod game_state;
pub mod ggf;
mod notation;
mod perft;
mod position;
mod square;
mod symmetry;

/// The raw move generator on `(player, opponent)` bitboards, for search inner loops.
pub mod raw {
    pub use crate::bitboard::{flips, legal_moves, legal_moves_unmasked};
}

pub use bitboard::Bitboard;
pub use board_size::{BoardSize, ParseBoardSizeError};
pub use game_state::{GameState, PlayError, Seats};
pub use ggf::{GgfError, GgfGame};
pub use notation::{transcript_lines, BoardTextError, Game, TranscriptError, TranscriptErrorKind};
pub use perft::{perft, perft_hashed};
pub use position::{
    Color, IllegalMove, IllegalReason, Outcome, ParseVariantError, Position, PositionError, Variant,
};
pub use square::{Move, ParseSquareError, Square};
pub use symmetry::Symmetry;
