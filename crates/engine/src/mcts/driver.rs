//! The one search driver. Every caller that searches goes through its four stages, as
//! every KataGo program goes through `Search::runWholeSearch`:
//!
//! 1. **root decision** ([`SearchDriver::decide_root`]): a forced move (a pass included) is
//!    played without search, the opening book's move when the driver has a book
//!    ([`BookPlay`]) and the position is in it, and the exact solver takes the root when it
//!    is within reach (the rule of [`RootSolve`](super::RootSolve), with the one solver
//!    and table size it names);
//! 2. **begin** ([`SearchDriver::begin`]): the position becomes the root, keeping the
//!    subtree that leads to it; once the root is expanded it gets its noise and, with a
//!    Gumbel root, its plan of visits;
//! 3. **advance**: leaves are collected ([`SearchDriver::collect`]), evaluated by the
//!    caller's evaluator, and backed up ([`SearchDriver::complete`]) until
//!    [`SearchDriver::finished`]; [`SearchDriver::advance`] is that loop for a caller with
//!    one tree and its own evaluator;
//! 4. **report** ([`SearchDriver::report`]): the [`SearchInfo`] the caller draws or plays.
//!
//! A caller with one tree and its own evaluator runs all four a slice at a time with
//! [`SearchDriver::think_more`] (`driver/thinking.rs`), under the time policy the driver
//! keeps beside its tree ([`TimePolicy`]: the move's time, the early stop, the extension
//! and the game's clock): the agent ([`super::Mcts`], and through it the arena, `analyse`,
//! `play`, NBoard and the page's worker) calls it once a slice, and NBoard's hints and
//! `othello bench` run stages 2 to 4 so (they want every move's view, not the solver's
//! one). Self-play runs the stages itself for many games at once, with one evaluator call
//! for the leaves of all its games. The evaluator stays outside the driver for that reason.

use super::config::{MctsConfig, SolveReach};
use super::time_policy::{GameClock, TimePolicy};
use super::tree::{ExactSolver, LeafBatch, SearchTree};
use crate::agent::{Budget, RootRule};
use crate::book::{Book, BookChoice, BookMove};
use crate::clock_source::Instant;
use crate::evaluator::{EvalError, Evaluator, PriorSource, ValuedPriors};
use crate::report::{Proof, SearchInfo, Solved};
use crate::rng::{splitmix64, Rng};
use crate::solver::{Proven, Solver};
use othello::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

mod split;
mod thinking;

use split::{MoveBounds, PendingPart};

/// How the root decision settled the move, without a search.
#[derive(Clone, Debug, PartialEq)]
pub enum RootDecision {
    /// The only legal move (a pass included).
    Forced(Move),
    /// The opening book's move.
    Book(BookChoice),
    /// The exact solver's move: the largest final margin.
    Solved(Solved),
}

impl RootDecision {
    pub fn best_move(&self) -> Move {
        match self {
            RootDecision::Forced(mv) => *mv,
            RootDecision::Book(choice) => choice.mv,
            RootDecision::Solved(solved) => solved.best,
        }
    }

    pub fn into_info(self, elapsed: Duration) -> SearchInfo {
        match self {
            RootDecision::Forced(mv) => SearchInfo::decided(mv, elapsed),
            RootDecision::Book(choice) => SearchInfo::from_book(&choice, elapsed),
            RootDecision::Solved(solved) => SearchInfo::from_solved(solved, elapsed),
        }
    }
}

/// The opening book a driver plays from, and how freely.
#[derive(Clone, Debug)]
pub struct BookPlay {
    pub book: Arc<Book>,
    /// Draw among the book moves within this many discs of the best, weighted toward it,
    /// so that games vary (0: always the best).
    pub random: f32,
}

/// One tree and the state of the move it is searching: the stages above, with no
/// evaluator of its own.
#[derive(Debug)]
pub struct SearchDriver {
    tree: SearchTree,
    stop: Arc<AtomicBool>,
    /// The root solver, made on the first solve, so games that never get there pay nothing
    /// for its table; it is kept so that its table carries over from move to move.
    solver: Option<Solver>,
    /// This move's search: the simulations planned (`None`: a budget in time), run so far,
    /// whether the root takes noise, and whether it has had its noise and plan.
    planned: Option<u64>,
    simulations: u64,
    noise: bool,
    root_prepared: bool,
    book: Option<BookPlay>,
    book_rng: Rng,
    /// A loss the root solve proved before leaving the move to the search, and the
    /// position it holds for: the search's reports say so.
    root_proof: Option<(Position, Proof)>,
    /// A budgeted root proof going on in slices beside the search
    /// ([`RootSolve::slice_nodes`](super::RootSolve::slice_nodes)).
    pending_proof: Option<PendingProof>,
    /// This searcher's share of a root proof split by the root's moves
    /// ([`RootSolve::part`](super::RootSolve::part)), going on beside the search.
    pending_part: Option<PendingPart>,
    /// What this searcher's share of a split proof proved of its moves, and the position
    /// it holds for: (move, lower, upper) final margins for the side to move, put into the
    /// root's children once the root is expanded.
    part_bounds: Option<(Position, Vec<MoveBounds>)>,
    /// The time policy of the moves this driver thinks about, with their game's clock.
    time: TimePolicy,
}

/// A root proof run a slice at a time: each slice starts again from the root, from the
/// bounds the slices before it proved ([`Solver::resume_within`]), and the table, which
/// keeps every subtree a slice completed, carries the rest of their work over.
#[derive(Clone, Debug)]
struct PendingProof {
    pos: Position,
    /// Nodes of the proof's budget not yet spent.
    left: u64,
    proven: Proven,
    micros: u64,
}

impl PendingProof {
    /// Takes what a slice proved: it went on from these bounds, so it holds at least as
    /// much.
    fn update(&mut self, slice: Proven) {
        self.left = self.left.saturating_sub(slice.nodes);
        let nodes = self.proven.nodes + slice.nodes;
        self.proven = Proven { nodes, ..slice };
    }
}

impl SearchDriver {
    pub fn new(config: MctsConfig) -> SearchDriver {
        // The book's draws have a stream of their own, so that a book changes no other
        // random choice of the search.
        let book_rng = Rng::new(splitmix64(config.seed ^ 0xb00c));
        SearchDriver {
            tree: SearchTree::new(config),
            stop: Arc::new(AtomicBool::new(false)),
            solver: None,
            planned: None,
            simulations: 0,
            noise: true,
            root_prepared: false,
            book: None,
            book_rng,
            root_proof: None,
            pending_proof: None,
            pending_part: None,
            part_bounds: None,
            time: TimePolicy::default(),
        }
    }

    /// Plays the book's moves where it has them (the root decision's second rule).
    pub fn with_book(mut self, book: BookPlay) -> SearchDriver {
        self.book = Some(book);
        self
    }

    pub fn book(&self) -> Option<&BookPlay> {
        self.book.as_ref()
    }

    /// Every move the book knows in `pos`, best first, when the driver has a book and `pos`
    /// is in it (NBoard's hints, which list the book's values rather than search).
    pub fn book_moves(&self, pos: &Position) -> Option<Vec<BookMove>> {
        self.book.as_ref()?.book.moves(pos)
    }

    /// Positions with at most `empties` empty squares get their value from `solver` inside
    /// the tree and count as proven.
    pub fn with_exact_solver(mut self, empties: u32, solver: ExactSolver) -> SearchDriver {
        self.tree.set_exact_solver(empties, solver);
        self
    }

    /// Priors from `source` where the evaluator's evaluations carry none: an evaluator
    /// that splits its priors off ([`Evaluator::split_priors`]) gives the search its
    /// source, and the search asks it only below the nodes it descends through
    /// ([`SearchTree::set_prior_source`]).
    pub fn set_prior_source(&mut self, source: PriorSource) {
        self.tree.set_prior_source(source);
    }

    /// A prior source that values the children too ([`SearchTree::set_valued_priors`]).
    pub fn set_valued_priors(&mut self, source: Box<dyn ValuedPriors>) {
        self.tree.set_valued_priors(source);
    }

    pub fn config(&self) -> &MctsConfig {
        self.tree.config()
    }

    pub fn config_mut(&mut self) -> &mut MctsConfig {
        self.tree.config_mut()
    }

    pub fn tree(&self) -> &SearchTree {
        &self.tree
    }

    /// Set it from anywhere (another thread, a message handler) to end the running search
    /// after its current batch.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// A new game: drops the tree and winds the game's clock back to its start; the
    /// evaluation cache and the solver's table stay.
    pub fn clear(&mut self) {
        self.tree.clear();
        self.time.new_game();
    }

    /// [`SearchDriver::clear`], and the tree's noise drawn from a stream of the seed and
    /// `salt` ([`crate::Agent::restart`]).
    pub fn restart(&mut self, salt: u64) {
        self.clear();
        self.tree.reseed(salt);
    }

    /// The game's clock, when the config gives one (`game_time`).
    pub fn game_clock(&self) -> Option<GameClock> {
        self.time.game_clock(self.config())
    }

    /// Simulations this move's search has run.
    pub fn simulations(&self) -> u64 {
        self.simulations
    }

    /// Root positions with at most this many empties are always solved (0: never).
    pub fn exact_root_empties(&self, pos: &Position) -> u32 {
        self.config().root_solve.exact_root_empties(pos.size())
    }

    /// Where the root solve reaches on `pos`'s board: what the time policy leaves the
    /// search little time for.
    pub fn solve_reach(&self, pos: &Position) -> SolveReach {
        self.config().root_solve.reach(pos.size())
    }

    /// Whether `pos` is within the always-solved endgame.
    pub fn solves_exactly(&self, pos: &Position) -> bool {
        self.config().root_solve.solves_exactly(pos)
    }

    /// The root solver, with the table size of the config (one for every caller).
    pub fn solver(&mut self) -> &mut Solver {
        let root_solve = &self.tree.config().root_solve;
        self.solver.get_or_insert_with(|| root_solve.new_solver())
    }

    /// The root decision's fixed rule for `pos` ([`RootRule`]): its only legal move, or
    /// this driver's root solver where the rule solves `pos` exactly, or neither. For the
    /// callers that treat a position as the root decision would without deciding it (a
    /// review and the page's hints, through [`Agent::root_rule`](crate::Agent::root_rule)),
    /// so that the rule and the solver's table are this driver's, a spec's `exact=`
    /// included.
    pub fn root_rule(&mut self, pos: &Position) -> RootRule<'_> {
        let root_solve = &self.tree.config().root_solve;
        let solver = &mut self.solver;
        root_solve.rule(pos, || {
            solver.get_or_insert_with(|| root_solve.new_solver())
        })
    }

    /// Every legal move's exact margin, best first, from this driver's root solver where
    /// its rule solves `pos` exactly, whatever the moves (a position with one legal move
    /// included): behind [`Agent::exact_root_margins`](crate::Agent::exact_root_margins),
    /// which the book builder's solved entries and NBoard's hints go through.
    pub(super) fn exact_root_margins(&mut self, pos: &Position) -> Option<Vec<(Move, i32)>> {
        Some(self.exact_root_solver(pos)?.score_moves(pos))
    }

    /// This driver's root solver where its rule solves `pos` exactly, whatever the moves
    /// (its tests check that it is the rule's own solver and table).
    pub(super) fn exact_root_solver(&mut self, pos: &Position) -> Option<&mut Solver> {
        if self.solves_exactly(pos) {
            Some(self.solver())
        } else {
            None
        }
    }

    /// Stage 1: the move when no search is needed: the only legal one, the book's, or the
    /// exact solver's when the position is within reach: always at the exact depth, and a
    /// few empties beyond when a solve fits in the budget's share of nodes (`time_left`:
    /// what is left of a time budget).
    ///
    /// With [`RootSolve::slice_nodes`](super::RootSolve::slice_nodes) set, a budgeted solve
    /// is only started here: the caller begins the search and runs the proof a slice at a
    /// time beside it ([`SearchDriver::prove_more`]).
    pub fn decide_root(
        &mut self,
        pos: &Position,
        budget: &Budget,
        time_left: Option<Duration>,
    ) -> Option<RootDecision> {
        self.root_proof = None;
        self.pending_proof = None;
        self.pending_part = None;
        self.part_bounds = None;
        if self.config().root_solve.best {
            self.forget_searches();
        }
        if let Some(only) = RootRule::forced(pos) {
            return Some(RootDecision::Forced(only));
        }
        if pos.is_game_over() {
            return None;
        }
        if let Some(play) = &self.book {
            if let Some(choice) = play.book.choose(pos, play.random, &mut self.book_rng) {
                return Some(RootDecision::Book(choice));
            }
        }
        let nodes = self.solve_nodes(pos, budget, time_left)?;
        if let (Some(nodes), Some(part)) = (nodes, self.config().root_solve.part) {
            // Beyond the tried solve only: there every searcher tries the whole root, for
            // the exact margin a win/loss/draw proof does not give.
            if pos.empty_count() > self.solve_reach(pos).tried {
                self.begin_part(pos, part, nodes);
                return None;
            }
        }
        if let (Some(nodes), Some(_)) = (nodes, self.config().root_solve.slice_nodes) {
            // A question's proof in slices runs until the margin is exact or the
            // deadline ends it (`end_proof`).
            let left = match self.config().root_solve.best && time_left.is_some() {
                true => u64::MAX,
                false => nodes,
            };
            self.pending_proof = Some(PendingProof {
                pos: *pos,
                left,
                proven: Proven::unknown(pos),
                micros: 0,
            });
            return None;
        }
        let clock = Instant::now();
        let solver = self.solver();
        let proven = match nodes {
            None => solver.prove_within(pos, u64::MAX),
            Some(nodes) => solver.prove_within(pos, nodes),
        };
        let micros = clock.elapsed().as_micros() as u64;
        self.settle(pos, &proven, micros)
    }

    /// One more slice of a root proof started by [`SearchDriver::decide_root`], if one is
    /// going on: the move once the proof settles the root as a whole budgeted solve
    /// would have; `None` while it goes on, and once it has left the root to the search.
    pub fn prove_more(&mut self) -> Option<RootDecision> {
        if self.pending_part.is_some() {
            self.prove_part_more();
            return None;
        }
        let mut pending = self.pending_proof.take()?;
        let slice = self.config().root_solve.slice_nodes.unwrap_or(u64::MAX);
        let clock = Instant::now();
        let known = pending.proven;
        let proven = self
            .solver()
            .resume_within(&pending.pos, slice.min(pending.left), known);
        pending.micros += clock.elapsed().as_micros() as u64;
        pending.update(proven);
        if pending.proven.exact().is_none() && pending.left > 0 {
            self.pending_proof = Some(pending);
            return None;
        }
        self.settle(&pending.pos, &pending.proven, pending.micros)
    }

    /// Ends a root proof going on beside the search (the move's time is up, or the search
    /// was stopped): the move when what it has proven settles the root, as a whole
    /// budgeted proof cut short by its nodes would have.
    pub fn end_proof(&mut self) -> Option<RootDecision> {
        // A share's win/loss/draw search cut short has proven nothing.
        self.pending_part = None;
        let pending = self.pending_proof.take()?;
        self.settle(&pending.pos, &pending.proven, pending.micros)
    }

    /// Whether a root proof is going on beside the search.
    pub fn proving(&self) -> bool {
        self.pending_proof.is_some() || self.pending_part.is_some()
    }

    /// Whether the search has run its simulations while a root proof beside it goes on
    /// (and was neither stopped nor settled by its own tree's solver): the move waits
    /// for the proof, as it would have had the proof run first.
    pub fn waits_for_proof(&self, max_simulations: u64) -> bool {
        self.proving()
            && self.simulations >= max_simulations
            && !self.tree.root_is_proven()
            && !self.stop.load(Ordering::Relaxed)
    }

    /// A question's answer owes nothing to earlier searches: the tree and the root
    /// solver's table go (the evaluation cache stays: a network's word on a position
    /// does not change, so it only makes the answer come sooner).
    fn forget_searches(&mut self) {
        self.tree.clear();
        if let Some(solver) = self.solver.as_mut() {
            solver.clear();
        }
    }

    /// What a root proof decides: a proven win or draw is played at once, as Egaroucid
    /// plays its win/loss/draw search's move (the search could only risk it), and so is an
    /// exact margin; a proven loss is left to the search, the better hope against a
    /// fallible opponent, and the search's reports say it is proven.
    fn settle(&mut self, pos: &Position, proven: &Proven, micros: u64) -> Option<RootDecision> {
        if proven.lower < 0 && proven.exact().is_none() {
            if proven.upper < 0 {
                self.root_proof = Some((*pos, Proof::Loss));
            }
            return None;
        }
        Some(RootDecision::Solved(Solved {
            best: proven.best?,
            margin: proven.lower,
            upper: proven.upper,
            nodes: proven.nodes,
            micros,
        }))
    }

    /// The solver's node budget for the root: `Some(None)` to solve without a limit,
    /// `Some(Some(n))` to try within `n` nodes, `None` not to solve.
    fn solve_nodes(
        &self,
        pos: &Position,
        budget: &Budget,
        time_left: Option<Duration>,
    ) -> Option<Option<u64>> {
        let settings = &self.config().root_solve;
        let reach = self.solve_reach(pos);
        let empties = pos.empty_count();
        if empties <= reach.exact && reach.exact > 0 {
            return Some(None);
        }
        // Proofs beyond the tried solve are for a time budget only: a budget in
        // simulations promises a cost in evaluations, which a proof's share of nodes per
        // simulation would overrun where it mostly fails.
        let reach = if time_left.is_some() {
            reach.proved
        } else {
            reach.tried
        };
        if empties > reach {
            return None;
        }
        // The budget's share of nodes; no solve without one.
        Some(Some(settings.budgeted_nodes(budget, time_left)?))
    }

    /// Keeps the subtree under `pos` as the game moves on, without starting a search (a
    /// tree that follows a game whose other side it does not play).
    pub fn follow(&mut self, pos: &Position) {
        self.tree.set_root(pos);
    }

    /// Stage 2: the start of a search of `planned` simulations (`None`: a time budget) from
    /// `pos`, with root noise as the config sets it when `noise`. A Gumbel root plans its
    /// visits from zero, as mctx does, so its tree is dropped (the evaluation cache keeps
    /// the re-expansion free); otherwise the subtree that leads to `pos` is kept.
    pub fn begin(&mut self, pos: &Position, planned: Option<u64>, noise: bool) {
        self.stop.store(false, Ordering::Relaxed);
        if self.root_proof.is_some_and(|(proven, _)| proven != *pos) {
            self.root_proof = None;
        }
        if self.config().gumbel.is_some() && planned.is_some() {
            self.tree.clear();
        }
        self.tree.set_root(pos);
        self.planned = planned;
        self.simulations = 0;
        self.noise = noise;
        self.root_prepared = false;
        self.prepare_root();
    }

    /// Once the root is expanded: its noise and its plan, once per search.
    fn prepare_root(&mut self) {
        if self.root_prepared || self.tree.root_is_leaf() {
            return;
        }
        self.root_prepared = true;
        self.apply_part_bounds();
        if self.noise {
            self.tree.add_root_noise();
        }
        let left = self.planned.map(|n| n.saturating_sub(self.simulations));
        self.tree.plan_root(left);
    }

    /// Leaves to collect next toward `max_simulations`: one while the root still needs its
    /// first evaluation (its noise and plan come before any other), else up to a batch.
    pub fn leaves_wanted(&self, max_simulations: u64) -> usize {
        if self.tree.root_is_leaf() {
            return 1;
        }
        let left = max_simulations.saturating_sub(self.simulations);
        left.clamp(1, self.config().batch_size.max(1) as u64) as usize
    }

    /// Stage 3: selects up to `want` leaves; evaluate `batch.positions` and hand the
    /// batch back to [`SearchDriver::complete`].
    pub fn collect(&mut self, want: usize) -> LeafBatch {
        self.tree.collect(want)
    }

    /// Backs up a collected batch's evaluations (an error leaves the tree as it was).
    /// Returns the simulations completed.
    pub fn complete(
        &mut self,
        batch: LeafBatch,
        evaluations: Result<Vec<crate::Evaluation>, EvalError>,
    ) -> Result<u64, EvalError> {
        let done = self.tree.complete(batch, evaluations)?;
        self.simulations += done;
        self.prepare_root();
        Ok(done)
    }

    /// Whether the search has nothing left to do: the budget is spent, the root is proven
    /// or the stop flag is set.
    pub fn finished(&self, max_simulations: u64) -> bool {
        self.simulations >= max_simulations
            || self.tree.root_is_proven()
            || self.stop.load(Ordering::Relaxed)
    }

    /// Runs rounds of collect, evaluate and complete (at least one) until the search is
    /// [`finished`](SearchDriver::finished) or the clock passes `until`.
    pub fn advance(
        &mut self,
        evaluator: &mut (impl Evaluator + ?Sized),
        max_simulations: u64,
        until: Option<Instant>,
    ) -> Result<(), EvalError> {
        loop {
            if self.finished(max_simulations) {
                return Ok(());
            }
            let batch = self.collect(self.leaves_wanted(max_simulations));
            let evaluations = if batch.positions.is_empty() {
                Ok(Vec::new())
            } else {
                evaluator.evaluate(&batch.positions)
            };
            self.complete(batch, evaluations)?;
            if until.is_some_and(|t| Instant::now() >= t) {
                return Ok(());
            }
        }
    }

    /// Stage 4: what the search knows now.
    pub fn report(&self, elapsed: Duration) -> SearchInfo {
        let mut info = self.tree.info(self.simulations, elapsed);
        if let Some((_, proof)) = self.root_proof {
            info.proof = info.proof.or(Some(proof));
        }
        info
    }
}
