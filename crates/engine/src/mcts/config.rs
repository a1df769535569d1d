//! The search's settings, and the board-dependent defaults every caller shares.

use crate::agent::{Budget, RootRule};
use crate::solver::Solver;
use othello::{BoardSize, Position};
use std::time::Duration;

#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Exploration constant of the PUCT formula.
    pub c_puct: f32,
    /// How much the exploration constant grows with the parent's visits: a node with N
    /// visits explores with `c_puct + c_puct_log * ln((N + base) / base)`, base
    /// [`C_PUCT_LOG_BASE`] (KataGo's `cpuctExplorationLog` and `cpuctExplorationBase`,
    /// `cpp/search/searchparams.cpp`; its example configurations play with 0.4-0.45). A node
    /// near the leaves explores as with `c_puct`, the root of a long search more. 0: the
    /// constant is flat.
    pub c_puct_log: f32,
    /// First-play urgency: an unvisited move is valued at the parent's value minus this.
    pub fpu_reduction: f32,
    /// Leaves collected per evaluator call.
    pub batch_size: usize,
    /// Dirichlet noise at the root: concentration (0 turns noise off) and the share of the
    /// prior it replaces. Self-play uses it to explore, the page's extra root-parallel
    /// workers to grow trees that differ.
    pub dirichlet_alpha: f32,
    pub dirichlet_fraction: f32,
    /// Evaluations kept in the cache before it is cleared (default
    /// [`crate::table_sizes::EVALUATION_CACHE_ENTRIES`]).
    pub cache_capacity: usize,
    /// Budget when the caller gives none.
    pub default_simulations: u64,
    /// How often a thinking agent reports progress (and how long each slice of its
    /// search runs).
    pub progress_interval: Duration,
    /// Positions with at most this many empty squares are solved exactly (their final
    /// margin) inside the tree and count as proven. `None` takes the board's default
    /// ([`default_solver_empties`]); `Some(0)` turns the solver off. Read when the tree
    /// is made.
    pub solver_empties: Option<u32>,
    /// The agent's exact solve of the root position (see [`RootSolve`]).
    pub root_solve: RootSolve,
    /// Gumbel AlphaZero at the root instead of PUCT (see `gumbel.rs`), for searches with a
    /// known number of simulations; `None`: PUCT everywhere.
    pub gumbel: Option<GumbelRoot>,
    /// With a network that estimates the final disc margin (a score head), a move's worth
    /// in selection is its value plus this weight times `2/pi * atan((score - centre) /
    /// scale)`: KataGo's dynamic score utility (Wu 2019; its default weight 0.3, its scale
    /// 0.75 sqrt(squares) discs), centred on the parent's expected margin. It tells a large
    /// win from a small one where every move wins, and it wins more games (docs/arena.md has
    /// the matches). 0: results only. Networks without a score head are unaffected.
    pub score_utility: f32,
    /// With a time budget, stop once the most visited root move cannot be overtaken in the
    /// time left (lc0's smart pruning; see `time_policy.rs`). Budgets in simulations always run
    /// to the end. `None`: only on a game's clock, where the time saved goes to later
    /// moves; with a time per move it is lost, and so is the subtree the rest of the
    /// search would have grown for the next move: stopping early at 250 ms a move scored
    /// 39.0% against running on (docs/arena.md).
    pub early_stop: Option<bool>,
    /// When a timed search's time is up and its most visited root move does not have the
    /// best value, search on once for about as long again (Baier and Winands' UNST; see
    /// `time_policy.rs`). `None`: only on a game's clock, whose later moves lend the time; with
    /// a time per move the move would overrun its budget.
    pub extend: Option<bool>,
    /// A clock for the whole game: each move's time is its share of what is left
    /// (`time_policy.rs`), and the time a move does not use goes to the moves after it. `None`:
    /// the budget a move is given is its own.
    pub game_time: Option<Duration>,
    pub seed: u64,
}

/// The settings of Gumbel AlphaZero's root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GumbelRoot {
    /// Moves sampled for sequential halving (m).
    pub considered: usize,
    /// The Gumbel noise's scale: 1 to explore (self-play), 0 to play the best move.
    pub gumbel_scale: f32,
    /// sigma(q) = (c_visit + max visits) * c_scale * q, q rescaled to [0, 1].
    pub c_visit: f32,
    pub c_scale: f32,
}

impl GumbelRoot {
    /// mctx's defaults (c_visit 50, c_scale 0.1), playing rather than exploring.
    pub fn new(considered: usize) -> GumbelRoot {
        GumbelRoot {
            considered,
            gumbel_scale: 0.0,
            c_visit: 50.0,
            c_scale: 0.1,
        }
    }
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            c_puct: 1.5,
            c_puct_log: 0.0,
            fpu_reduction: 0.2,
            batch_size: 8,
            dirichlet_alpha: 0.0,
            dirichlet_fraction: 0.25,
            cache_capacity: crate::table_sizes::EVALUATION_CACHE_ENTRIES,
            default_simulations: 800,
            progress_interval: Duration::from_millis(100),
            solver_empties: None,
            root_solve: RootSolve::default(),
            gumbel: None,
            score_utility: 0.3,
            early_stop: None,
            extend: None,
            game_time: None,
            seed: 0,
        }
    }
}

/// The visits at which a growing exploration constant ([`MctsConfig::c_puct_log`]) has
/// grown by `c_puct_log * ln 2`: KataGo's `cpuctExplorationBase`.
pub const C_PUCT_LOG_BASE: f32 = 500.0;

impl MctsConfig {
    /// The weight of a child's prior in PUCT at a parent with `parent_visits` (visits and
    /// virtual losses): the exploration constant, grown by the visits when `c_puct_log` is
    /// set, times the square root of the visits.
    pub fn exploration(&self, parent_visits: f32) -> f32 {
        let n = parent_visits.max(1.0);
        let mut c = self.c_puct;
        if self.c_puct_log != 0.0 {
            c += self.c_puct_log * ((n + C_PUCT_LOG_BASE) / C_PUCT_LOG_BASE).ln();
        }
        c * n.sqrt()
    }

    /// Whether a timed search stops once its best move is settled (see `early_stop`).
    pub fn stops_early(&self) -> bool {
        self.early_stop.unwrap_or(self.game_time.is_some())
    }

    /// Whether an unsure timed search runs on past its time (see `extend`).
    pub fn extends_when_unsure(&self) -> bool {
        self.extend.unwrap_or(self.game_time.is_some())
    }
}

impl MctsConfig {
    /// Self-play's exploration: with a Gumbel root, its Gumbel noise (the sampling that
    /// replaces both Dirichlet noise and a temperature); else AlphaZero's Dirichlet noise,
    /// its concentration scaled to the number of legal moves a board usually has (0.3 on
    /// 8x8 as for chess, more on the smaller board).
    pub fn with_self_play_noise(self, size: BoardSize) -> MctsConfig {
        match self.gumbel {
            Some(gumbel) => MctsConfig {
                gumbel: Some(GumbelRoot {
                    gumbel_scale: 1.0,
                    ..gumbel
                }),
                dirichlet_alpha: 0.0,
                ..self
            },
            None => MctsConfig {
                dirichlet_alpha: self_play_noise(size),
                dirichlet_fraction: 0.25,
                ..self
            },
        }
    }
}

/// The root noise of self-play, and of the page's extra root-parallel workers.
pub fn self_play_noise(size: BoardSize) -> f32 {
    match size {
        BoardSize::Eight => 0.3,
        BoardSize::Six | BoardSize::Four => 0.5,
    }
}

/// How the agent hands the root to the exact solver, as strong Othello engines hand their
/// endgames to one: the search judges wins and losses, only the solver knows the largest
/// margin.
#[derive(Clone, Debug, PartialEq)]
pub struct RootSolve {
    /// Root positions with at most this many empties are always solved and the solver's
    /// move (the largest final margin) is played. `None`: the board's default
    /// ([`default_exact_root_empties`]); `Some(0)`: never, not even within a node budget.
    pub exact_empties: Option<u32>,
    /// Up to this many empties beyond, a solve is tried first within a node budget drawn
    /// from the thinking budget, and the search runs when it does not fit. `None`: the
    /// board's default ([`default_budgeted_extra_empties`]).
    pub extra_empties: Option<u32>,
    /// With a time budget, root positions up to this many empties (beyond the tried
    /// solve) get a proof of the result (win, loss or draw, then the margin as far as it
    /// gets) within the same node budget: a proven win or draw is played at once. `None`:
    /// the board's default ([`default_proof_empties`]); at most the tried solve's reach:
    /// no proofs beyond it.
    pub proof_empties: Option<u32>,
    /// Solver nodes a budgeted solve may visit per simulation of the budget.
    pub nodes_per_simulation: u64,
    /// Solver nodes per millisecond of a time budget.
    pub nodes_per_ms: u64,
    /// A cap on a budgeted solve whatever the budget (`None`: none), for a caller that
    /// cannot be interrupted while the solver runs and does not slice it (the page's
    /// worker reviewing a move).
    pub max_nodes: Option<u64>,
    /// Run a budgeted solve in slices of at most this many nodes beside the search
    /// (`None`: in one go, before it), for a caller that must regain control every
    /// fraction of a second (the page's worker, which reports, takes a Stop, and is
    /// replaced when silent). Each slice starts again from the root; the table carries
    /// the work over.
    pub slice_nodes: Option<u64>,
    /// log2 of the root solver's transposition table entries (default
    /// [`crate::table_sizes::ROOT_SOLVER_TABLE_BITS`]).
    pub table_bits: u32,
    /// This searcher's share of a proof that several split by the root's moves (the
    /// page's workers beside the one that proves the whole root, each with its own tree
    /// and solver): beyond the tried solve, it proves win, loss or draw for its share of
    /// the moves only, and what it proves becomes bounds on those moves in its tree.
    /// `None`: the whole root, as a searcher alone.
    pub part: Option<ProofPart>,
    /// The search answers a question for the best move (analysis, a hint), not a move in
    /// a game: a root proof that finds a win goes on for the exact margin for the whole
    /// time (a sliced proof until the deadline, one in one go with the nodes of the
    /// whole time) instead of the budget's share, and every root decision starts from an
    /// empty tree and an empty solver table, so that the answer depends on the position
    /// and the budget alone, never on what was searched before. A win it proves without
    /// the exact margin is reported as the lower bound it is ([`crate::report::Solved`]).
    pub best: bool,
}

impl RootSolve {
    /// Root positions with at most this many empties on a `size` board are always solved
    /// (0: never).
    pub fn exact_root_empties(&self, size: BoardSize) -> u32 {
        self.exact_empties
            .unwrap_or_else(|| default_exact_root_empties(size))
    }

    /// Whether `pos` is within the always-solved endgame: the root decision plays the
    /// exact solver's move there, whatever the budget.
    pub fn solves_exactly(&self, pos: &Position) -> bool {
        let limit = self.exact_root_empties(pos.size());
        limit > 0 && pos.empty_count() <= limit
    }

    /// The root decision's fixed rule for `pos` (see [`RootRule`]): the only legal move,
    /// else the always-solved endgame, solved with what `solver` gives (asked for only
    /// then, so that a caller that never gets there makes no table), else neither.
    pub fn rule<'a>(
        &self,
        pos: &Position,
        solver: impl FnOnce() -> &'a mut Solver,
    ) -> RootRule<'a> {
        if let Some(only) = RootRule::forced(pos) {
            return RootRule::Forced(only);
        }
        if self.solves_exactly(pos) {
            RootRule::Exact(solver())
        } else {
            RootRule::Open
        }
    }

    /// Where the root solve reaches on a `size` board: what it always solves, what it
    /// tries within a node budget, and how far a timed search's proof goes.
    pub fn reach(&self, size: BoardSize) -> SolveReach {
        let exact = self.exact_root_empties(size);
        let extra = self
            .extra_empties
            .unwrap_or_else(|| default_budgeted_extra_empties(size));
        let proof = self
            .proof_empties
            .unwrap_or_else(|| default_proof_empties(size));
        let (tried, proved) = if exact == 0 {
            (0, 0)
        } else {
            (exact + extra, proof.max(exact + extra))
        };
        SolveReach {
            exact,
            tried,
            proved,
        }
    }

    /// The solver nodes a root solve tried within a budget may visit (`time_left`: what is
    /// left of a time budget): the tighter of the budget's shares when it has both, within
    /// `max_nodes`; `None`, and no solve, without either. The solve's own rule, beside its
    /// reach: the time a move gets is the time policy's (`time_policy.rs`), what a solve
    /// makes of it is the root solve's.
    pub fn budgeted_nodes(&self, budget: &Budget, time_left: Option<Duration>) -> Option<u64> {
        let by_sims = budget
            .simulations
            .map(|s| s.saturating_mul(self.nodes_per_simulation));
        // `nodes_per_ms` is about half of a move's time; a question's proof has the
        // whole of it, since the search beside it only matters where the proof fails.
        let share = if self.best { 2 } else { 1 };
        let by_time = time_left.map(|t| {
            (t.as_millis() as u64)
                .saturating_mul(self.nodes_per_ms)
                .saturating_mul(share)
        });
        let nodes = by_sims.into_iter().chain(by_time).min()?;
        Some(self.max_nodes.map_or(nodes, |cap| nodes.min(cap)))
    }

    /// A root solver with this setting's table: what a search driver makes for its root
    /// decision, and what a caller without a driver makes to solve as one would.
    pub fn new_solver(&self) -> Solver {
        Solver::with_table_bits(self.table_bits)
    }
}

/// Where the root solve reaches: it always solves at `exact` empties and fewer, tries a
/// solve within a node budget up to `tried` empties, and with a time budget, a proof of
/// the result up to `proved` ([`RootSolve::reach`]). The time policy gives the moves it
/// settles little of a game's clock (`time_policy.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveReach {
    pub exact: u32,
    pub tried: u32,
    pub proved: u32,
}

/// Searcher `index` of `parts` proves the root moves whose place in square order is
/// `index` modulo `parts` ([`ProofPart::moves`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofPart {
    pub index: u32,
    pub parts: u32,
}

impl ProofPart {
    /// This part's share of `legal` (a bitboard of moves): every `parts`-th move in square
    /// order, from the `index`-th. The parts of one split share out every move, each once.
    pub fn moves(self, legal: u64) -> u64 {
        let mut share = 0;
        let mut rest = legal;
        let mut place = 0;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            if place % self.parts.max(1) == self.index {
                share |= bit;
            }
            place += 1;
        }
        share
    }
}

impl Default for RootSolve {
    fn default() -> RootSolve {
        RootSolve {
            exact_empties: None,
            extra_empties: None,
            proof_empties: None,
            // At 15-20 M nodes/s natively, 800 simulations allow about a second, many times
            // what the search itself would take, spent only on the few moves a solve can
            // settle. On 6x6 that settles most positions with 20-23 empties (measured:
            // 10-15 M nodes at 22 empties).
            nodes_per_simulation: 25_000,
            // About half of a time budget at native speed. What a solve that runs out
            // uses is taken from the search's time.
            nodes_per_ms: 8_000,
            max_nodes: None,
            slice_nodes: None,
            table_bits: crate::table_sizes::ROOT_SOLVER_TABLE_BITS,
            part: None,
            best: false,
        }
    }
}

/// How many empties the exact solver takes on inside the tree by default: where an exact
/// solve costs about as much as a few network evaluations (milliseconds: 5-24 thousand
/// nodes at 12 empties on 8x8, on four positions from arena games, against 36-5,000 for
/// win/loss/draw), so the agent never misplays a solved ending and pays little for it.
pub fn default_solver_empties(size: BoardSize) -> u32 {
    match size {
        BoardSize::Four => 16,
        BoardSize::Six => 14,
        BoardSize::Eight => 12,
    }
}

/// Empties at which the agent stops searching and plays the exact solver's best move: where
/// that solve takes about a tenth of a second natively.
pub fn default_exact_root_empties(size: BoardSize) -> u32 {
    match size {
        BoardSize::Four => 16,
        BoardSize::Six => 18,
        BoardSize::Eight => 16,
    }
}

/// Beyond the always-solved endgame, root positions up to this many more empties get a
/// solve with a node budget first: most of them finish in a fraction of a second.
pub fn default_budgeted_extra_empties(size: BoardSize) -> u32 {
    match size {
        BoardSize::Four => 0,
        BoardSize::Six => 6,
        BoardSize::Eight => 4,
    }
}

/// Root positions up to this many empties get a proof of the result within the node budget
/// of a time budget, beyond the tried solve: where a win/loss/draw search costs about a
/// fifth of an exact solve. Measured natively (one thread, 26-32 M nodes/s) on ten
/// arena games: 0.1-25 M nodes at 22 empties (half under 5 M, a fifth of a second), 0.8-350
/// M at 24 (half under 50 M).
pub fn default_proof_empties(size: BoardSize) -> u32 {
    match size {
        BoardSize::Four => 16,
        BoardSize::Six => 26,
        BoardSize::Eight => 24,
    }
}
