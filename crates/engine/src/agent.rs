//! The one interface every player implements, from random to MCTS, and the one way every
//! front end asks for a move: `think` (with progress reports) or `select_move`.

use crate::clock_source::Instant;
use crate::evaluator::EvalError;
use crate::report::SearchInfo;
use crate::solver::Solver;
use othello::{Move, Position};
use std::time::Duration;

/// How much a player may think about one move. Each limit is optional; a player stops at
/// the first one it reaches and ignores those that mean nothing to it (a random player
/// ignores them all; alpha-beta reads depth and time, MCTS simulations and time). With no
/// limit set a player uses its own default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    pub depth: Option<u32>,
    pub simulations: Option<u64>,
    pub time: Option<Duration>,
}

impl Budget {
    pub fn depth(depth: u32) -> Budget {
        Budget {
            depth: Some(depth),
            ..Budget::default()
        }
    }

    pub fn simulations(simulations: u64) -> Budget {
        Budget {
            simulations: Some(simulations),
            ..Budget::default()
        }
    }

    pub fn time(time: Duration) -> Budget {
        Budget {
            time: Some(time),
            ..Budget::default()
        }
    }

    pub fn is_unlimited(&self) -> bool {
        *self == Budget::default()
    }
}

/// One move's thinking in progress: the position, the budget, the clock and the
/// simulations so far. An agent advances it slice by slice ([`Agent::think_more`]), so a
/// caller that must look at its messages between slices (the page's worker) runs the same
/// search as one that does not. It records the move's state and decides nothing: how much
/// time the move gets, and when it ends, is the time policy's
/// ([`TimePolicy`](crate::mcts::TimePolicy)).
#[derive(Clone, Debug)]
pub struct Thinking {
    pub position: Position,
    pub budget: Budget,
    clock: Instant,
    pub simulations: u64,
    started: bool,
    done: bool,
    extended: bool,
}

impl Thinking {
    pub fn new(position: Position, budget: Budget) -> Thinking {
        Thinking {
            position,
            budget,
            clock: Instant::now(),
            simulations: 0,
            started: false,
            done: false,
            extended: false,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.clock.elapsed()
    }

    /// When a time budget runs out.
    pub fn deadline(&self) -> Option<Instant> {
        self.budget.time.map(|t| self.clock + t)
    }

    /// What is left of a time budget.
    pub fn time_left(&self) -> Option<Duration> {
        self.budget.time.map(|t| t.saturating_sub(self.elapsed()))
    }

    /// True before the first slice; marks the thinking started.
    pub fn start(&mut self) -> bool {
        !std::mem::replace(&mut self.started, true)
    }

    /// Lengthens a time budget by `by` (nothing without one) and records that it was
    /// lengthened: the time policy's extension, which it grants once a move.
    pub fn extend_time(&mut self, by: Duration) {
        if let Some(time) = self.budget.time {
            self.budget.time = Some(time + by);
            self.extended = true;
        }
    }

    /// Whether the time budget was lengthened this move.
    pub fn is_extended(&self) -> bool {
        self.extended
    }

    pub fn finish(&mut self) {
        self.done = true;
    }

    /// The agent has decided: further slices change nothing.
    pub fn is_done(&self) -> bool {
        self.done
    }
}

/// What the search driver's root decision does with a position before any book, budget or
/// search: its fixed rule (`mcts/driver.rs`, with the reach of
/// [`RootSolve`](crate::mcts::RootSolve)). A caller that must treat a position as the
/// agent's search would, without asking it to search (a game's review, a hint that solves
/// every move), asks the agent for it ([`Agent::root_rule`]) rather than restating it.
///
/// ```
/// use engine::othello::{BoardSize, Position, Variant};
/// use engine::{Agent, NoModels, PlayerSpec, RootRule};
///
/// // A 6x6 position 14 empties from the end, where the side to move has a choice.
/// let mut pos = Position::start(BoardSize::Six, Variant::Standard);
/// while pos.empty_count() > 14 || pos.legal_move_list().len() < 2 {
///     let moves = pos.legal_move_list();
///     pos = pos.play(moves[moves.len() / 2])?;
/// }
/// let agent = |spec: &str| -> Result<Box<dyn Agent>, Box<dyn std::error::Error>> {
///     Ok(spec.parse::<PlayerSpec>()?.build(1, &NoModels)?.0)
/// };
/// // The board's reach (18 empties on 6x6): every move's exact margin, from the agent's
/// // own root solver.
/// let mut mcts = agent("mcts:sims=10")?;
/// let Some(RootRule::Exact(solver)) = mcts.root_rule(&pos) else {
///     panic!("within the reach");
/// };
/// assert_eq!(solver.score_moves(&pos).len(), pos.legal_move_list().len());
/// // A spec's `exact=` moves the reach; a player without the search driver has no rule.
/// assert!(matches!(agent("mcts:exact=12")?.root_rule(&pos), Some(RootRule::Open)));
/// assert!(agent("greedy")?.root_rule(&pos).is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub enum RootRule<'a> {
    /// The only legal move (a pass included): played without search.
    Forced(Move),
    /// Within the always-solved endgame: the exact solver's move is played, and this is
    /// the solver the agent solves its roots with (its table, shared by every solve).
    Exact(&'a mut Solver),
    /// Neither: the book, a solve within a node budget, or the search decides.
    Open,
}

impl RootRule<'_> {
    /// The move the rule plays without search: the only legal one (a pass included);
    /// `None` where the side to move has a choice, or the game is over.
    pub fn forced(pos: &Position) -> Option<Move> {
        match pos.legal_move_list()[..] {
            [only] => Some(only),
            _ => None,
        }
    }
}

/// A player: given a position and a budget, returns a move.
pub trait Agent: Send {
    /// A short name for tables, e.g. `greedy` or `alphabeta:depth=4`.
    fn name(&self) -> String;

    /// A legal move for the side to move (a pass when that is the only one). The caller
    /// never asks in a finished game.
    fn select_move(&mut self, pos: &Position, budget: &Budget) -> Move;

    /// Forget anything kept from an earlier game (search trees, caches).
    fn new_game(&mut self) {}

    /// Forgets earlier searches, as [`Agent::new_game`] does, and draws what randomness it
    /// has from a stream of its seed and `salt`: a position's search then does not depend
    /// on what this agent searched before (a review spread over several workers values a
    /// move alike whichever worker took it; the thirteenth look saw two reviews of one
    /// record at one budget differ by a few marks). The default only forgets.
    fn restart(&mut self, salt: u64) {
        let _ = salt;
        self.new_game();
    }

    /// Thinks for about `slice` more (a searcher stops at the end of a batch) and reports
    /// what it found; `thinking.is_done()` once the move is decided. Players that choose in
    /// one go (the default) decide in the first slice.
    fn think_more(
        &mut self,
        thinking: &mut Thinking,
        _slice: Duration,
    ) -> Result<SearchInfo, EvalError> {
        let mv = self.select_move(&thinking.position, &thinking.budget);
        thinking.finish();
        Ok(SearchInfo::decided(mv, thinking.elapsed()))
    }

    /// The root decision's rule for `pos` (see [`RootRule`]), with this agent's own root
    /// solver; `None` for a player without the search driver's root decision (every
    /// player but `mcts`).
    fn root_rule(&mut self, _pos: &Position) -> Option<RootRule<'_>> {
        None
    }

    /// This agent's own root solver, made on first use, wherever the position: for a
    /// caller that solves further than the root rule does (a review, which solves a
    /// game's ending from more empties than the agent plays by), so that one table serves
    /// every solve. `None` for a player without the search driver's root decision.
    fn root_solver(&mut self) -> Option<&mut Solver> {
        None
    }

    /// Every legal move's exact margin, best first, where the root rule solves `pos`
    /// exactly, from this agent's own root solver (its table, shared with
    /// [`Agent::root_rule`]'s). Unlike the rule, a position with one legal move within the
    /// reach is solved too: the callers that list every move's value rather than play one
    /// (the book builder's solved entries, NBoard's hints) want its margin. `None` outside
    /// the reach, and for a player without the search driver's root decision.
    fn exact_root_margins(&mut self, _pos: &Position) -> Option<Vec<(Move, i32)>> {
        None
    }

    /// How long [`Agent::think`] lets a slice run between two progress reports.
    fn report_interval(&self) -> Duration {
        Duration::from_millis(100)
    }

    /// Thinks about `pos` within `budget`, calling `progress` with a snapshot after each
    /// slice (it may return `false` to stop early), and returns the last one: its
    /// [`SearchInfo::best_move`] is the move to play.
    fn think(
        &mut self,
        pos: &Position,
        budget: &Budget,
        progress: &mut dyn FnMut(&SearchInfo) -> bool,
    ) -> Result<SearchInfo, EvalError> {
        let mut thinking = Thinking::new(*pos, *budget);
        let slice = self.report_interval();
        loop {
            let info = self.think_more(&mut thinking, slice)?;
            if thinking.is_done() || !progress(&info) {
                return Ok(info);
            }
        }
    }
}

/// An agent by its name, for logs and test failures.
impl std::fmt::Debug for dyn Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}
