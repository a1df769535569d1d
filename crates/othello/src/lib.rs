//! Othello rules on bitboards.
//!
//! 8x8, 6x6 and 4x4 boards from one implementation, standard and reversed
//! ("fewest discs wins") variants, Othello notation (squares, transcripts, OBF board
//! text, GGF game records), the eight board symmetries, perft, the named 8x8 openings, and
//! the game state a front end plays (seats, forced passes, undo and redo).
//!
//! A position, a move, and what is wrong with an illegal one:
//!
//! ```
//! use othello::{BoardSize, Game, IllegalReason, Move, Position, Variant};
//!
//! let start = Position::start(BoardSize::Eight, Variant::Standard);
//! let f5 = Move::parse("f5", BoardSize::Eight)?;
//! let after = start.play(f5)?;
//! assert_eq!(after.empty_count(), 59);
//!
//! // Playing f5 again is refused, with the reason.
//! let again = after.play(f5).unwrap_err();
//! assert_eq!(again.reason, IllegalReason::Occupied);
//!
//! // A transcript in Othello notation, and board text (OBF) back.
//! let game = Game::from_transcript("f5d6c3", start)?;
//! assert_eq!(game.position().legal_moves().count(), 4);
//! let text = game.position().to_board_text();
//! assert_eq!(Position::from_board_text(&text, Variant::Standard)?, *game.position());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(unreachable_pub)]

mod bitboard;
mod board_size;
mod game_state;
pub mod ggf;
mod named_openings;
mod notation;
mod perft;
mod position;
mod square;
mod symmetry;
mod xot;
// Test support for this crate's tests and, with the feature, for the other crates' tests.
#[cfg(any(test, feature = "test-support"))]
pub mod testing;

/// The raw move generator on `(player, opponent)` bitboards, for search inner loops.
pub mod raw {
    pub use crate::bitboard::{flips, legal_moves, legal_moves_unmasked};
}

pub use bitboard::Bitboard;
pub use board_size::{BoardSize, ParseBoardSizeError};
pub use game_state::{GameState, PlayError, Seats};
pub use ggf::{GgfError, GgfGame};
pub use named_openings::{named_opening, named_opening_after, named_openings, NamedOpening};
pub use notation::{transcript_lines, BoardTextError, Game, TranscriptError, TranscriptErrorKind};
pub use perft::{perft, perft_hashed};
pub use position::{
    Color, IllegalMove, IllegalReason, Outcome, ParseVariantError, Position, PositionError, Variant,
};
pub use square::{Move, ParseSquareError, Square};
pub use symmetry::Symmetry;
pub use xot::{xot_list, xot_openings};
