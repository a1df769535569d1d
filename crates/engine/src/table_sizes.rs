//! Every table the engine sizes, in one place: the exact solver's transposition tables,
//! alpha-beta's, and the search's evaluation cache. A table's size is a trade between the
//! positions it keeps and the memory it takes (in the browser, memory a tab must not run
//! out of), so each size says here why it is what it is. The callers name these constants
//! and nothing else.
//!
//! A solver's table holds 2^bits slots of 24 bytes: 2^16 slots take 1.5 MiB, 2^17 3 MiB,
//! 2^18 6 MiB and 2^20 24 MiB.

/// The table of a solver made without a size of its own ([`Solver::new`]: `othello
/// solve`, the references the accuracy check and the tests solve against): 2^20 slots (24
/// MiB) natively, where one solve may reach 30 empties and more and visits hundreds of
/// millions of positions, as Edax's default table (also 2^20 entries) does; 2^17 (3 MiB)
/// on wasm32, whose memory is the page's. This and [`Solver::parallel`]'s fallback are the
/// only places the engine looks at the target.
///
/// [`Solver::new`]: crate::Solver::new
/// [`Solver::parallel`]: crate::Solver::parallel
pub const SOLVER_TABLE_BITS: u32 = if cfg!(target_arch = "wasm32") { 17 } else { 20 };

/// The root solver's table ([`RootSolve::table_bits`], the one solver a search driver
/// keeps for its root decision, and which a review, the book builder and the hints ask it
/// for): 2^18 slots (6 MiB). Root solves within the driver's reach (16-24 empties on 8x8)
/// revisit far fewer positions than a deep solve, and the same size natively and in the
/// page's worker means the same choice between moves of equal margin everywhere.
///
/// [`RootSolve::table_bits`]: crate::mcts::RootSolve::table_bits
pub const ROOT_SOLVER_TABLE_BITS: u32 = 18;

/// The table of the solver inside the search tree (`mcts::endgame_solver`, the exact
/// values of leaves with 12-16 empties): 2^16 slots (1.5 MiB) is plenty for solves of
/// that size, and a tree pays for it only once it reaches the endgame.
pub const TREE_SOLVER_TABLE_BITS: u32 = 16;

/// Alpha-beta's own transposition table: 2^16 entries of 24 bytes (1.5 MiB). Its searches
/// are a few plies deep (depth 4 by default; deeper only on a time budget), so it is kept
/// small to be cleared cheaply when the board changes.
pub const ALPHABETA_TABLE_BITS: u32 = 16;

/// Alpha-beta's exact solver: it only solves the last 14-16 empties, for which 2^16 slots
/// (1.5 MiB) are plenty.
pub const ALPHABETA_SOLVER_TABLE_BITS: u32 = 16;

/// The midgame search's table (`midgame::Midgame`, the `alphabeta` players' search):
/// 2^20 entries of 24 bytes (24 MiB) natively, where a second's search at millions of
/// positions a second stores hundreds of thousands of nodes, as Edax's default table
/// does; 2^17 (3 MiB) on wasm32, whose memory is the page's.
pub const MIDGAME_TABLE_BITS: u32 = if cfg!(target_arch = "wasm32") { 17 } else { 20 };

/// The midgame search's exact solver, for the positions its search follows to the end
/// and the root solves from a dozen to a score of empties: 2^18 slots (6 MiB), as the
/// search driver's root solver.
pub const MIDGAME_SOLVER_TABLE_BITS: u32 = 18;

/// The table of MCTS's leaf searches (`midgame::AlphaBetaLeaves`): a few plies below each
/// leaf, where the table only serves the deepest nodes and the transpositions between
/// neighbouring leaves: 2^16 entries (1.5 MiB).
pub const LEAF_SEARCH_TABLE_BITS: u32 = 16;

/// Evaluations the search's cache keeps before it is cleared whole
/// ([`MctsConfig::cache_capacity`]): 2^18 positions, many moves' worth of searches at the
/// usual budgets (hundreds to a few thousand simulations a move), so a position searched
/// again (in the subtree a tree keeps, by transposition, or in the book builder's next
/// search) does not go to the network again, while clearing it when full bounds its
/// memory.
///
/// [`MctsConfig::cache_capacity`]: crate::MctsConfig::cache_capacity
pub const EVALUATION_CACHE_ENTRIES: usize = 1 << 18;
