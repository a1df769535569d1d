//! Native tooling over the engine: tournaments with Elo (`arena`), self-play for the
//! trainer (`selfplay`), solver-checked move accuracy (`accuracy`), opening books grown by
//! drop-out expansion (`book`), puzzles found in games and proven by the solver
//! (`puzzles`), `.npz` files (`arrays`), self-play's samples valued again by a deeper
//! search (`relabel`),
//! the ONNX Runtime backend (`onnxruntime`) and networks from files on a chosen runtime
//! (`models`). Threads and files live here, so the engine the page links has neither.
//!
//! A match between two players given as specs, and what it found (each module's page has
//! an example of its own):
//!
//! ```
//! use engine::othello::{BoardSize, Variant};
//! use engine::NoModels;
//! use tools::arena::{run_arena, ArenaConfig, ArenaPlayer, MatchRules, Openings};
//!
//! let config = ArenaConfig {
//!     size: BoardSize::Four,
//!     variant: Variant::Standard,
//!     players: ArenaPlayer::parse_list("random,alphabeta:depth=2", &[])?,
//!     games_per_pairing: 4,
//!     seed: 7,
//!     openings: Openings::Random,
//!     rules: MatchRules::default(),
//!     sprt: None,
//! };
//! // Two threads; the games and their results do not depend on how many.
//! let report = run_arena(&config, 2, &NoModels, &|_done, _total| {})?;
//! assert_eq!(report.games.len(), 4);
//! // Elo anchored at `random`, which therefore rates 0.
//! assert_eq!(report.anchor, "random");
//! assert_eq!(report.ratings[0].elo, 0.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(unreachable_pub)]

pub mod accuracy;
pub mod arena;
pub mod arrays;
pub mod book;
pub mod exact_set;
pub mod models;
pub mod onnxruntime;
pub mod puzzles;
pub mod relabel;
pub mod selfplay;
