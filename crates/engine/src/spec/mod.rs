//! The one builder every front end gets its agent from: player specs such as `random`,
//! `alphabeta:depth=4`, `uct:sims=1000` or `mcts:model=models/az-8x8.onnx,sims=800`,
//! parsed into a typed [`PlayerSpec`] that builds an agent and its budget. The arena,
//! `othello play`, `analyse`, `bench`, self-play and the page's worker all build through it,
//! as every Edax front end calls one `play_go`, so a spec means the same player everywhere.
//!
//! `mcts` is always the AlphaZero agent ([`Mcts`]: PUCT search, the exact solver in
//! the endgame): over the network `model=` names, or over random playouts without one.
//! `uct` is the classic rollout MCTS. `policy` and `value` are the network without search
//! (its policy head's favourite move; the move into the position its value head likes
//! best). Networks come from a [`ModelSource`], which the caller passes in: files on the
//! runtime the command line chose, or what the worker has loaded.

use crate::book::{Book, BookError};
use crate::evaluator::{Evaluator, PlayoutEvaluator};
use crate::mcts::{BookPlay, GumbelRoot, Mcts, MctsConfig, ProofPart, SearchDriver};
use crate::midgame::{
    AlphaBetaLeaves, EvaluatorEval, FeatureEval, MidgameConfig, PatternEval, PatternOutput,
    ProbCut, StaticEval,
};
use crate::network::{ModelError, Network, NetworkEvaluator};
use crate::pattern::{PatternEvaluator, Priors};
use crate::players::{
    AlphaBetaPlayer, GreedyPlayer, NovicePlayer, PolicyPlayer, RandomPlayer, RolloutMcts,
    ValuePlayer,
};
use crate::rng::splitmix64;
use crate::symmetric::SymmetricEvaluator;
use crate::{Agent, Budget};
use othello::{BoardSize, Variant};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use thiserror::Error;

/// The kinds of player there are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerKind {
    Random,
    Greedy,
    Novice,
    Heuristic,
    AlphaBeta,
    Uct,
    Mcts,
    Policy,
    Value,
}

impl PlayerKind {
    pub const ALL: [PlayerKind; 9] = [
        PlayerKind::Random,
        PlayerKind::Greedy,
        PlayerKind::Novice,
        PlayerKind::Heuristic,
        PlayerKind::AlphaBeta,
        PlayerKind::Uct,
        PlayerKind::Mcts,
        PlayerKind::Policy,
        PlayerKind::Value,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
            PlayerKind::Novice => "novice",
            PlayerKind::Heuristic => "heuristic",
            PlayerKind::AlphaBeta => "alphabeta",
            PlayerKind::Uct => "uct",
            PlayerKind::Mcts => "mcts",
            PlayerKind::Policy => "policy",
            PlayerKind::Value => "value",
        }
    }

    /// Whether the player is nothing without a network (`model=` is required).
    pub const fn needs_model(self) -> bool {
        matches!(self, PlayerKind::Policy | PlayerKind::Value)
    }

    fn from_name(name: &str) -> Option<PlayerKind> {
        PlayerKind::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

/// A player and its settings. Options a kind does not take are always `None`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerSpec {
    pub kind: PlayerKind,
    /// Alpha-beta search depth in plies.
    pub depth: Option<u32>,
    /// Thinking time per move in milliseconds.
    pub time_ms: Option<u64>,
    /// A clock for the whole game, in seconds, shared out over the moves by the time
    /// policy (`mcts/time_policy.rs`); with `time_ms`, no move takes more than that.
    pub time_game: Option<f64>,
    /// 1: a timed search stops once its best move cannot change; 0: it always runs to its
    /// time; unset: it stops early only on a game's clock (`time_game`).
    pub early_stop: Option<u32>,
    /// 1: a timed search whose most visited move does not have the best value when its
    /// time is up runs on once; 0: never; unset: only on a game's clock (`time_game`).
    pub extend: Option<u32>,
    /// MCTS simulations per move.
    pub sims: Option<u64>,
    /// MCTS exploration constant.
    pub c: Option<f64>,
    /// How much MCTS's exploration constant grows with a node's visits
    /// ([`MctsConfig::c_puct_log`]).
    pub c_log: Option<f64>,
    /// The network of the AlphaZero agent, as its [`ModelSource`] names it (a path to an
    /// `.onnx` file with its card beside it, for files). May not hold a comma.
    pub model: Option<String>,
    /// Positions with at most this many empties are solved (their final margin) inside the
    /// tree (0: never; unset: the board's default).
    pub solver: Option<u32>,
    /// Root positions with at most this many empties get the exact solver's move (the
    /// largest margin), and a few more within a node budget (0: never; unset: the
    /// board's default).
    pub exact: Option<u32>,
    /// With a time budget, root positions with at most this many empties get a proof of
    /// the result (win, loss or draw) within the root solve's node budget, and a proven
    /// win or draw is played (at most the tried solve's reach: none beyond it; unset: the
    /// board's default).
    pub prove: Option<u32>,
    /// Searchers that split a root proof by its moves, each with its own tree and solver
    /// (the page's workers at a timed level, beside the one proving the whole root): this
    /// one proves win, loss or draw for its share of the moves only (`prove_part`, from
    /// 0), as bounds on them in its tree (unset or 1: the whole root).
    pub prove_parts: Option<u32>,
    /// This searcher's share of a split proof, below `prove_parts` (unset: 0).
    pub prove_part: Option<u32>,
    /// 1: the search answers a question for the best move (analysis, a hint): a proof
    /// that finds a win goes on for the exact margin for the whole time, and each search
    /// starts from an empty tree and solver table, so the same question gets the same
    /// answer whatever was searched before ([`RootSolve::best`](crate::mcts::RootSolve));
    /// 0 or unset: a move in a game, which plays a proven win at once.
    pub best: Option<u32>,
    /// Dirichlet noise at the root (its concentration; unset: none).
    pub noise: Option<f64>,
    /// Gumbel AlphaZero at the root with this many moves considered (unset or 0: PUCT);
    /// used with a budget in simulations.
    pub gumbel: Option<u32>,
    /// Gumbel's c_scale (unset: 0.1, as mctx).
    pub cscale: Option<f64>,
    /// The weight of the expected disc margin in the search's choices, for networks with a
    /// score head (unset: the engine's default, 0.3; 0: results only).
    pub utility: Option<f64>,
    /// The network asked in this many of the board's symmetries per position, its answers
    /// averaged (1: one drawn at random, as AlphaGo Zero; 8: all; unset: as it stands).
    pub sym: Option<u32>,
    /// With a pattern network: the temperature of the move priors made from the values of
    /// the positions the moves lead to (unset: 1; 0: every move alike).
    pub ptemp: Option<f64>,
    /// Random playouts per evaluation when there is no model (unset: 4).
    pub playouts: Option<u32>,
    /// With a pattern network: every leaf of the MCTS tree valued by an alpha-beta search
    /// this many plies deep over the network's value (`midgame::AlphaBetaLeaves`; unset:
    /// the network's own value).
    pub leaf_depth: Option<u32>,
    /// Multi-ProbCut in an `alphabeta` search, at this many standard deviations of the
    /// shallow search's error (unset or 0: every cut exact).
    pub probcut: Option<f64>,
    /// The opening book the agent plays from, as its [`ModelSource`] names it (a path to a
    /// book file, for files). May not hold a comma.
    pub book: Option<String>,
    /// Draw among the book moves within this many discs of the best (unset: 0, the best).
    pub book_random: Option<f64>,
    /// A salt mixed into every seed this player gets, so that two copies of one player
    /// (`random:seed=1,random:seed=2`) play different games.
    pub seed: Option<u64>,
}

/// Playouts per evaluation of the network-less `mcts`: enough for a value that is not all
/// noise, few enough to keep hundreds of thousands of simulations a second.
pub const DEFAULT_PLAYOUTS: u32 = 4;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    #[error("no players given")]
    Empty,
    #[error("unknown player '{name}'; known players: {known}")]
    UnknownPlayer { name: String, known: String },
    #[error("player '{player}' has no option '{option}'; it takes: {known}")]
    UnknownOption {
        player: String,
        option: String,
        known: String,
    },
    #[error("'{text}' is not an option; write name=value")]
    Malformed { text: String },
    #[error("option '{option}' comes before any player")]
    Orphan { option: String },
    #[error("option '{option}' given twice for player '{player}'")]
    Duplicate { player: String, option: String },
    #[error("bad value '{value}' for option '{option}' of '{player}': {reason}")]
    BadValue {
        player: String,
        option: String,
        value: String,
        reason: String,
    },
    #[error("player '{0}' is listed twice; give one copy another seed (seed=N)")]
    Repeated(String),
    #[error("option 'playouts' of 'mcts' is for the search without a model")]
    PlayoutsWithModel,
    #[error("option 'leaf_depth' of 'mcts' needs a pattern network (model=), whose tables an alpha-beta search can afford at every leaf")]
    LeafDepthWithoutPatterns,
    #[error("player '{0}' is a network without search: give it one with model=PATH")]
    NeedsModel(String),
    #[error("model {path}: {message}")]
    Model { path: String, message: String },
    #[error("book {path}: {message}; playing without it")]
    Book { path: String, message: String },
}

/// Where the networks and books a spec names come from. The caller decides: the CLI reads
/// files on the runtime its `--runtime` chose, the page's worker hands out what it has
/// loaded.
pub trait ModelSource: Sync {
    fn network(&self, model: &str) -> Result<Network, ModelError>;

    /// The opening book `name` names, or why there is none to use. A front end reports
    /// the error once and lets the agent play without the book (a book only saves time:
    /// no game is lost for want of one).
    fn book(&self, name: &str) -> Result<Arc<Book>, BookError> {
        Err(BookError::NotLoaded(name.to_owned()))
    }
}

/// A source with no networks, for callers that have none to offer.
#[derive(Debug)]
pub struct NoModels;

impl ModelSource for NoModels {
    fn network(&self, model: &str) -> Result<Network, ModelError> {
        Err(ModelError::NotLoaded(model.to_owned()))
    }
}

impl PlayerSpec {
    pub fn new(kind: PlayerKind) -> PlayerSpec {
        PlayerSpec {
            kind,
            depth: None,
            time_ms: None,
            time_game: None,
            early_stop: None,
            extend: None,
            sims: None,
            c: None,
            c_log: None,
            model: None,
            solver: None,
            exact: None,
            prove: None,
            prove_parts: None,
            prove_part: None,
            best: None,
            noise: None,
            gumbel: None,
            cscale: None,
            utility: None,
            sym: None,
            ptemp: None,
            playouts: None,
            leaf_depth: None,
            probcut: None,
            book: None,
            book_random: None,
            seed: None,
        }
    }

    /// The thinking budget the spec asks for; an empty one leaves the player its default.
    /// With a game's clock (`time_game`) and no time of its own, a move may take up to the
    /// whole clock: the agent takes its share of what is left (`mcts/time_policy.rs`).
    pub fn budget(&self) -> Budget {
        let per_move = self.time_ms.map(Duration::from_millis);
        let whole_game = self.time_game.map(Duration::from_secs_f64);
        Budget {
            depth: self.depth,
            simulations: self.sims,
            time: per_move.or(whole_game),
        }
    }

    /// The seed the player's randomness starts from: the caller's, salted with the spec's.
    pub fn player_seed(&self, seed: u64) -> u64 {
        match self.seed {
            Some(salt) => splitmix64(seed ^ splitmix64(salt)),
            None => seed,
        }
    }

    /// The search settings of an `mcts` spec: the defaults, with what the spec sets.
    pub fn mcts_config(&self, seed: u64) -> MctsConfig {
        let mut config = MctsConfig {
            seed: self.player_seed(seed),
            ..MctsConfig::default()
        };
        if let Some(c) = self.c {
            config.c_puct = c as f32;
        }
        if let Some(grow) = self.c_log {
            config.c_puct_log = grow as f32;
        }
        if let Some(alpha) = self.noise {
            config.dirichlet_alpha = alpha as f32;
        }
        if let Some(m) = self.gumbel.filter(|&m| m > 0) {
            let mut root = GumbelRoot::new(m as usize);
            if let Some(c) = self.cscale {
                root.c_scale = c as f32;
            }
            config.gumbel = Some(root);
        }
        if let Some(weight) = self.utility {
            config.score_utility = weight as f32;
        }
        if let Some(seconds) = self.time_game {
            config.game_time = Some(Duration::from_secs_f64(seconds));
        }
        if let Some(switch) = self.early_stop {
            config.early_stop = Some(switch != 0);
        }
        if let Some(switch) = self.extend {
            config.extend = Some(switch != 0);
        }
        config.solver_empties = self.solver.or(config.solver_empties);
        config.root_solve.exact_empties = self.exact.or(config.root_solve.exact_empties);
        config.root_solve.proof_empties = self.prove.or(config.root_solve.proof_empties);
        config.root_solve.best = self.best.is_some_and(|switch| switch != 0);
        config.root_solve.part =
            self.prove_parts
                .filter(|&parts| parts > 1)
                .map(|parts| ProofPart {
                    index: self.prove_part.unwrap_or(0) % parts,
                    parts,
                });
        config
    }

    /// What judges positions in an `mcts` spec's search: the network, or random playouts.
    pub fn evaluator(
        &self,
        seed: u64,
        models: &dyn ModelSource,
    ) -> Result<Box<dyn Evaluator + Send>, SpecError> {
        match &self.model {
            Some(_) => self.network_evaluator(seed, models),
            None if self.leaf_depth.is_some() => Err(SpecError::LeafDepthWithoutPatterns),
            None => Ok(Box::new(PlayoutEvaluator::new(
                self.player_seed(seed),
                self.playouts.unwrap_or(DEFAULT_PLAYOUTS),
            ))),
        }
    }

    /// The network of a spec that must have one, ready to evaluate.
    fn network_evaluator(
        &self,
        seed: u64,
        models: &dyn ModelSource,
    ) -> Result<Box<dyn Evaluator + Send>, SpecError> {
        let model = self
            .model
            .as_deref()
            .ok_or_else(|| SpecError::NeedsModel(self.kind.name().to_owned()))?;
        let network = self.network(model, models)?;
        if let Some(tables) = network.pattern_tables() {
            let name = &network.card().name;
            let priors = PatternEvaluator::new(tables, self.pattern_priors(), name);
            return Ok(match self.leaf_depth {
                Some(depth) => Box::new(AlphaBetaLeaves::new(priors, depth)),
                None => Box::new(priors),
            });
        }
        if self.leaf_depth.is_some() {
            return Err(SpecError::LeafDepthWithoutPatterns);
        }
        let evaluator = NetworkEvaluator::new(&network).map_err(|e| model_error(model, e))?;
        Ok(self.oriented(evaluator, seed))
    }

    /// A pattern network's priors as `ptemp=` asks for them.
    pub fn pattern_priors(&self) -> Priors {
        match self.ptemp {
            Some(t) if t <= 0.0 => Priors::Uniform,
            Some(t) => Priors::Children {
                temperature: t as f32,
            },
            None => Priors::default(),
        }
    }

    /// The network as `sym=` asks for it: through that many of the board's symmetries.
    fn oriented(&self, evaluator: NetworkEvaluator, seed: u64) -> Box<dyn Evaluator + Send> {
        match self.sym {
            Some(count) => Box::new(SymmetricEvaluator::new(
                evaluator,
                count as usize,
                self.player_seed(seed) ^ 0x5eed_5e77,
            )),
            None => Box::new(evaluator),
        }
    }

    fn network(&self, model: &str, models: &dyn ModelSource) -> Result<Network, SpecError> {
        models.network(model).map_err(|e| model_error(model, e))
    }

    /// The AlphaZero agent of an `mcts` spec, as a concrete type: for callers that drive
    /// its search themselves.
    pub fn mcts_player(
        &self,
        seed: u64,
        models: &dyn ModelSource,
    ) -> Result<Mcts<Box<dyn Evaluator + Send>>, SpecError> {
        let evaluator = self.evaluator(seed, models)?;
        let mut config = self.mcts_config(seed);
        if let Some(batch) = evaluator.preferred_batch() {
            config.batch_size = batch;
        }
        let mut driver = SearchDriver::new(config);
        if let Some(play) = self.book_play(models) {
            driver = driver.with_book(play);
        }
        Ok(Mcts::with_driver(driver, evaluator))
    }

    /// The book the spec names, as the root decision plays it; `None` without one, or when
    /// the source cannot give it (the front end has said why, from
    /// [`PlayerSpec::check_book`]).
    pub fn book_play(&self, models: &dyn ModelSource) -> Option<BookPlay> {
        let book = models.book(self.book.as_deref()?).ok()?;
        Some(BookPlay {
            book,
            random: self.book_random.unwrap_or(0.0) as f32,
        })
    }

    /// Why the spec's book cannot be used in this game, if it cannot: the one message a
    /// front end shows before the agent plays on without it.
    pub fn check_book(
        &self,
        size: BoardSize,
        variant: Variant,
        models: &dyn ModelSource,
    ) -> Result<(), SpecError> {
        let Some(name) = &self.book else {
            return Ok(());
        };
        models
            .book(name)
            .and_then(|book| book.check_game(size, variant))
            .map_err(|e| SpecError::Book {
                path: name.clone(),
                message: e.to_string(),
            })
    }

    /// The agent for one game, seeded with `seed` (salted with the spec's own seed), and
    /// the budget to give it for every move.
    pub fn build(
        &self,
        seed: u64,
        models: &dyn ModelSource,
    ) -> Result<(Box<dyn Agent>, Budget), SpecError> {
        let seed = self.player_seed(seed);
        let agent: Box<dyn Agent> = match self.kind {
            PlayerKind::Random => Box::new(RandomPlayer::new(seed)),
            PlayerKind::Greedy => Box::new(GreedyPlayer::new(seed)),
            PlayerKind::Novice => Box::new(NovicePlayer::new(seed)),
            PlayerKind::Heuristic => Box::new(crate::players::HeuristicPlayer::new(seed)),
            PlayerKind::AlphaBeta => Box::new(self.alphabeta_player(seed, models)?),
            PlayerKind::Uct => {
                let mut uct = RolloutMcts::new(seed);
                if let Some(c) = self.c {
                    uct = uct.with_exploration(c);
                }
                Box::new(uct)
            }
            // `mcts_player` salts the seed itself.
            PlayerKind::Mcts => Box::new(self.without_seed().mcts_player(seed, models)?),
            PlayerKind::Policy => Box::new(PolicyPlayer::new(
                self.network_evaluator(seed, models)?,
                seed,
            )),
            PlayerKind::Value => Box::new(ValuePlayer::new(
                self.network_evaluator(seed, models)?,
                seed,
            )),
        };
        Ok((agent, self.budget()))
    }

    /// The alpha-beta player of an `alphabeta` spec: over a pattern network's tables, any
    /// other network one position at a time, or the hand-made features without `model=`.
    pub fn alphabeta_player(
        &self,
        seed: u64,
        models: &dyn ModelSource,
    ) -> Result<AlphaBetaPlayer, SpecError> {
        let config = MidgameConfig {
            probcut: self.probcut.filter(|&t| t > 0.0).map(|t| ProbCut {
                confidence: t as f32,
            }),
            ..MidgameConfig::default()
        };
        let eval: Box<dyn StaticEval> = match self.model.as_deref() {
            None => Box::new(FeatureEval::new(BoardSize::Eight, Variant::Standard)),
            Some(model) => {
                let network = self.network(model, models)?;
                match network.pattern_tables() {
                    Some(tables) => Box::new(PatternEval::new(
                        tables,
                        PatternOutput::Margin,
                        &network.card().name,
                    )),
                    None => {
                        let evaluator =
                            NetworkEvaluator::new(&network).map_err(|e| model_error(model, e))?;
                        // The search tells it the board before each search.
                        let board = (BoardSize::Eight, Variant::Standard);
                        Box::new(EvaluatorEval::new(evaluator, board.0, board.1))
                    }
                }
            }
        };
        Ok(AlphaBetaPlayer::with_eval(seed, eval, config))
    }

    fn without_seed(&self) -> PlayerSpec {
        PlayerSpec {
            seed: None,
            ..self.clone()
        }
    }

    /// Checks, before any game, that the player can play this board: a model must exist,
    /// load, and be made for the board and variant.
    pub fn check_game(
        &self,
        size: BoardSize,
        variant: Variant,
        models: &dyn ModelSource,
    ) -> Result<(), SpecError> {
        if let Some(model) = &self.model {
            self.network(model, models)?
                .card()
                .check_game(size, variant)
                .map_err(|e| model_error(model, e.into()))?;
        }
        self.build(0, models)?;
        Ok(())
    }
}

fn model_error(model: &str, error: ModelError) -> SpecError {
    SpecError::Model {
        path: model.to_owned(),
        message: error.to_string(),
    }
}

mod options;

pub use options::parse_player_list;

#[cfg(test)]
mod tests;
