//! The alpha-beta player: the midgame search (`crate::midgame`) over a static evaluation
//! (a pattern network's tables with `model=`, the hand-made features without), handing
//! over to the exact solver for the last empties.

use super::simple::forced_move;
use crate::midgame::{FeatureEval, Iteration, Limits, Midgame, MidgameConfig, StaticEval, UNIT};
use crate::report::{value_of_discs, MoveInfo, SearchInfo, Solved};
use crate::{Agent, Budget, EvalError, Rng, Thinking};
use othello::{BoardSize, Move, Position, Square, Variant};
use std::time::Duration;

/// Depth when the budget sets neither depth nor time.
pub const DEFAULT_DEPTH: u32 = crate::midgame::DEFAULT_DEPTH;

/// Empties at which the player stops guessing and solves exactly, whatever its budget.
/// The solver takes a few milliseconds (release build) at these depths, less than a
/// depth-4 search in the middle game.
pub const fn solver_empties(size: BoardSize) -> u32 {
    match size {
        BoardSize::Eight => 14,
        BoardSize::Six | BoardSize::Four => 16,
    }
}

/// Alpha-beta player: iterative deepening principal variation search with a
/// transposition table and move ordering (docs/midgame.md), and the exact solver once few
/// enough squares are empty. Reads `Budget::depth` and `Budget::time` (default: depth
/// [`DEFAULT_DEPTH`]). Ties between equally good root moves go by a seeded shuffle, so one
/// seed plays one game.
pub struct AlphaBetaPlayer {
    rng: Rng,
    search: Midgame<Box<dyn StaticEval>>,
    name: String,
    /// The depth the last search completed (the empties, where it solved exactly).
    last_depth: u32,
}

impl AlphaBetaPlayer {
    /// Over the hand-made features.
    pub fn new(seed: u64) -> AlphaBetaPlayer {
        let features = FeatureEval::new(BoardSize::Eight, Variant::Standard);
        AlphaBetaPlayer::with_eval(seed, Box::new(features), MidgameConfig::default())
    }

    /// Over `eval` with `config`'s search settings.
    pub fn with_eval(
        seed: u64,
        eval: Box<dyn StaticEval>,
        config: MidgameConfig,
    ) -> AlphaBetaPlayer {
        AlphaBetaPlayer {
            rng: Rng::new(seed),
            name: format!("alphabeta ({})", eval.describe()),
            search: Midgame::new(eval, config),
            last_depth: 0,
        }
    }

    /// Positions searched so far (the solver's included).
    pub fn nodes(&self) -> u64 {
        self.search.nodes()
    }

    /// The depth the last search completed: its plies, or the empties where it solved.
    pub fn last_depth(&self) -> u32 {
        self.last_depth
    }

    /// The search of `pos` within `budget`, `None` when the game is over.
    fn search(&mut self, pos: &Position, budget: &Budget) -> Option<Iteration> {
        let mut order: Vec<Square> = pos.legal_moves().collect();
        for i in (1..order.len()).rev() {
            order.swap(i, self.rng.below(i + 1));
        }
        let mut limits = Limits {
            depth: budget.depth,
            time: budget.time,
            nodes: None,
        };
        if limits.depth.is_none() && limits.time.is_none() {
            limits.depth = Some(DEFAULT_DEPTH);
        }
        let mut found = None;
        if pos.empty_count() <= solver_empties(pos.size()) {
            found = self.search.solve(pos, &Limits::default());
        }
        if found.is_none() {
            found = self.search.search(pos, &limits, &order, &mut |_| {});
        }
        self.last_depth = found.as_ref().map_or(0, |f| f.depth);
        found
    }
}

/// What a search found, as every agent reports it: the exact solver's verdict where the
/// search reached the end, else the move with its value in discs.
fn report(found: &Iteration, elapsed: Duration) -> SearchInfo {
    let discs = found.value as f32 / UNIT as f32;
    if found.exact {
        let margin = found.value / UNIT;
        let mut info = SearchInfo::from_solved(
            Solved {
                best: found.best,
                margin,
                upper: margin,
                nodes: found.nodes,
                micros: elapsed.as_micros() as u64,
            },
            elapsed,
        );
        info.pv.clone_from(&found.pv);
        return info;
    }
    SearchInfo {
        moves: vec![MoveInfo {
            mv: found.best,
            visits: 1,
            prior: 1.0,
            q: value_of_discs(discs),
            proof: None,
            bounds: None,
            target: 1.0,
            score: Some(discs),
        }],
        pv: found.pv.clone(),
        value: value_of_discs(discs),
        score: Some(discs),
        ..SearchInfo::decided(found.best, elapsed)
    }
}

impl Agent for AlphaBetaPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn select_move(&mut self, pos: &Position, budget: &Budget) -> Move {
        if let Some(mv) = forced_move(pos) {
            return mv;
        }
        match self.search(pos, budget) {
            Some(found) => found.best,
            // Only a finished game has no move; the caller never asks in one.
            None => Move::Pass,
        }
    }

    /// The whole search in one slice (alpha-beta has no tree to report from between
    /// slices), reported with its line and value.
    fn think_more(
        &mut self,
        thinking: &mut Thinking,
        _slice: Duration,
    ) -> Result<SearchInfo, EvalError> {
        let pos = thinking.position;
        thinking.finish();
        if let Some(mv) = forced_move(&pos) {
            return Ok(SearchInfo::decided(mv, thinking.elapsed()));
        }
        let budget = thinking.budget;
        Ok(match self.search(&pos, &budget) {
            Some(found) => report(&found, thinking.elapsed()),
            None => SearchInfo::decided(Move::Pass, thinking.elapsed()),
        })
    }

    fn new_game(&mut self) {
        self.search.clear();
    }
}

impl std::fmt::Debug for AlphaBetaPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlphaBetaPlayer")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}
