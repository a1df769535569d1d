//! The one builder every front end gets its agent from: player specs such as `random`,
//! `alphabeta:depth=4`, `uct:sims=1000` or `mcts:model=models/az-8x8.onnx,sims=800`,
//! parsed into a typed [`PlayerSpec`] that builds an agent and its budget. The arena,
//! `othello play`, `analyse`, `bench`, self-play and the page's worker all build through it,
//! as every Edax front end calls one `play_go`, so a spec means the same player everywhere.
//!
//! `mcts` is always the AlphaZero agent ([`MctsPlayer`]: PUCT search, the exact solver in
//! the endgame): over the network `model=` names, or over random playouts without one.
//! `uct` is the classic rollout MCTS. `policy` and `value` are the network without search
//! (its policy head's favourite move; the move into the position its value head likes
//! best). Networks come from a [`ModelSource`], which the caller passes in: files on the
//! runtime the command line chose, or what the worker has loaded.

use crate::evaluator::{Evaluator, PlayoutEvaluator};
use crate::mcts::{GumbelRoot, Mcts, MctsConfig, MctsPlayer};
use crate::network::{ModelError, Network, NetworkEvaluator};
use crate::players::{
    GreedyPlayer, NovicePlayer, PolicyPlayer, RandomPlayer, RolloutMcts, ValuePlayer,
};
use crate::rng::splitmix64;
use crate::symmetric::SymmetricEvaluator;
use crate::{Agent, Budget};
use othello::{BoardSize, Variant};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
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

    /// The options this kind of player takes, in the order a spec is written.
    pub fn options(self) -> Vec<&'static str> {
        OPTIONS
            .iter()
            .filter(|o| o.kinds.contains(&self))
            .map(|o| o.name)
            .collect()
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
    /// MCTS simulations per move.
    pub sims: Option<u64>,
    /// MCTS exploration constant.
    pub c: Option<f64>,
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
    /// Random playouts per evaluation when there is no model (unset: 4).
    pub playouts: Option<u32>,
    /// A salt mixed into every seed this player gets, so that two copies of one player
    /// (`random:seed=1,random:seed=2`) play different games.
    pub seed: Option<u64>,
}

use PlayerKind::{AlphaBeta, Mcts as MctsKind, Policy, Uct, Value};

/// Where an option's value lives in a [`PlayerSpec`], by type: a reader and a writer.
#[derive(Clone, Copy)]
enum Field {
    Whole(
        fn(&PlayerSpec) -> Option<u64>,
        fn(&mut PlayerSpec) -> &mut Option<u64>,
    ),
    Small(
        fn(&PlayerSpec) -> Option<u32>,
        fn(&mut PlayerSpec) -> &mut Option<u32>,
    ),
    Real(
        fn(&PlayerSpec) -> Option<f64>,
        fn(&mut PlayerSpec) -> &mut Option<f64>,
    ),
    Text(
        fn(&PlayerSpec) -> Option<String>,
        fn(&mut PlayerSpec) -> &mut Option<String>,
    ),
}

/// Both accessors of the [`PlayerSpec`] field `$name`, as a [`Field`] of kind `$kind`.
macro_rules! field {
    (Text, $name:ident) => {
        Field::Text(|s| s.$name.clone(), |s| &mut s.$name)
    };
    ($kind:ident, $name:ident) => {
        Field::$kind(|s| s.$name, |s| &mut s.$name)
    };
}

/// What values an option accepts.
#[derive(Clone, Copy)]
enum Accepts {
    /// A whole number in this range.
    Range(u64, u64),
    /// A number of empty squares, 0 to 64.
    Empties,
    /// A finite number of 0 or more.
    NonNegative,
    /// A network's name, not empty.
    Name,
    /// Any whole number.
    Any,
}

/// One spec option: its name, the players that take it, where it goes and what it accepts.
struct SpecOption {
    name: &'static str,
    kinds: &'static [PlayerKind],
    field: Field,
    accepts: Accepts,
}

const fn option(
    name: &'static str,
    kinds: &'static [PlayerKind],
    field: Field,
    accepts: Accepts,
) -> SpecOption {
    SpecOption {
        name,
        kinds,
        field,
        accepts,
    }
}

const SEARCHES: &[PlayerKind] = &[Uct, MctsKind];
const TIMED: &[PlayerKind] = &[AlphaBeta, Uct, MctsKind];
const NETWORKS: &[PlayerKind] = &[MctsKind, Policy, Value];
const MCTS: &[PlayerKind] = &[MctsKind];

/// Every option of every player, in the order a spec is written: a new option is one row
/// here (and its field in [`PlayerSpec`]).
const OPTIONS: &[SpecOption] = &[
    option("model", NETWORKS, field!(Text, model), Accepts::Name),
    option(
        "depth",
        &[AlphaBeta],
        field!(Small, depth),
        Accepts::Range(1, 60),
    ),
    option(
        "sims",
        SEARCHES,
        field!(Whole, sims),
        Accepts::Range(1, 100_000_000),
    ),
    option(
        "time",
        TIMED,
        field!(Whole, time_ms),
        Accepts::Range(1, 3_600_000),
    ),
    option("c", SEARCHES, field!(Real, c), Accepts::NonNegative),
    option("solver", MCTS, field!(Small, solver), Accepts::Empties),
    option("exact", MCTS, field!(Small, exact), Accepts::Empties),
    option("noise", MCTS, field!(Real, noise), Accepts::NonNegative),
    option("gumbel", MCTS, field!(Small, gumbel), Accepts::Range(0, 64)),
    option("cscale", MCTS, field!(Real, cscale), Accepts::NonNegative),
    option("utility", MCTS, field!(Real, utility), Accepts::NonNegative),
    option("sym", NETWORKS, field!(Small, sym), Accepts::Range(1, 8)),
    option(
        "playouts",
        MCTS,
        field!(Small, playouts),
        Accepts::Range(1, 1000),
    ),
    option("seed", &PlayerKind::ALL, field!(Whole, seed), Accepts::Any),
];

impl Accepts {
    /// The value as a whole number, real number or text, or why it is refused.
    fn check(self, value: &str) -> Result<Parsed, String> {
        match self {
            Accepts::Range(low, high) => match value.parse::<u64>() {
                Ok(n) if (low..=high).contains(&n) => Ok(Parsed::Whole(n)),
                _ if low == 0 => Err(format!("expected a number of moves from 0 to {high}")),
                _ => Err(format!("expected a whole number from {low} to {high}")),
            },
            Accepts::Empties => match value.parse::<u64>() {
                Ok(n) if n <= 64 => Ok(Parsed::Whole(n)),
                _ => Err("expected a number of empty squares from 0 to 64".into()),
            },
            Accepts::NonNegative => match value.parse::<f64>() {
                Ok(x) if x.is_finite() && x >= 0.0 => Ok(Parsed::Real(x)),
                _ => Err("expected a number of 0 or more".into()),
            },
            Accepts::Name if value.is_empty() => Err("expected the name of a network".into()),
            Accepts::Name => Ok(Parsed::Text(value.to_owned())),
            Accepts::Any => value
                .parse::<u64>()
                .map(Parsed::Whole)
                .map_err(|_| "expected a whole number".into()),
        }
    }
}

enum Parsed {
    Whole(u64),
    Real(f64),
    Text(String),
}

impl Field {
    /// Stores a checked value (the table pairs each field with values of its type).
    fn store(self, spec: &mut PlayerSpec, value: Parsed) {
        match (self, value) {
            (Field::Whole(_, field), Parsed::Whole(n)) => *field(spec) = Some(n),
            (Field::Small(_, field), Parsed::Whole(n)) => *field(spec) = u32::try_from(n).ok(),
            (Field::Real(_, field), Parsed::Real(x)) => *field(spec) = Some(x),
            (Field::Text(_, field), Parsed::Text(t)) => *field(spec) = Some(t),
            _ => unreachable!("an option's check parses the type its field holds"),
        }
    }

    /// The value as a spec writes it, `None` when unset.
    fn text(self, spec: &PlayerSpec) -> Option<String> {
        match self {
            Field::Whole(read, _) => read(spec).map(|v| v.to_string()),
            Field::Small(read, _) => read(spec).map(|v| v.to_string()),
            Field::Real(read, _) => read(spec).map(|v| v.to_string()),
            Field::Text(read, _) => read(spec),
        }
    }
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
    #[error("player '{0}' is a network without search: give it one with model=PATH")]
    NeedsModel(String),
    #[error("model {path}: {message}")]
    Model { path: String, message: String },
}

/// Where the networks a spec names come from. The caller decides: the CLI reads files on
/// the runtime its `--runtime` chose, the page's worker hands out what it has loaded.
pub trait ModelSource: Sync {
    fn network(&self, model: &str) -> Result<Network, ModelError>;
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
            sims: None,
            c: None,
            model: None,
            solver: None,
            exact: None,
            noise: None,
            gumbel: None,
            cscale: None,
            utility: None,
            sym: None,
            playouts: None,
            seed: None,
        }
    }

    /// The thinking budget the spec asks for; an empty one leaves the player its default.
    pub fn budget(&self) -> Budget {
        Budget {
            depth: self.depth,
            simulations: self.sims,
            time: self.time_ms.map(Duration::from_millis),
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
        config.solver_empties = self.solver.or(config.solver_empties);
        config.root_solve.exact_empties = self.exact.or(config.root_solve.exact_empties);
        config
    }

    /// What judges positions in an `mcts` spec's search: the network, or random playouts.
    pub fn evaluator(
        &self,
        seed: u64,
        models: &dyn ModelSource,
    ) -> Result<Box<dyn Evaluator + Send>, SpecError> {
        match &self.model {
            Some(model) => {
                let network = self.network(model, models)?;
                let evaluator =
                    NetworkEvaluator::new(&network).map_err(|e| model_error(model, e))?;
                Ok(self.oriented(evaluator, seed))
            }
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
        let evaluator = NetworkEvaluator::new(&network).map_err(|e| model_error(model, e))?;
        Ok(self.oriented(evaluator, seed))
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
    ) -> Result<MctsPlayer<Box<dyn Evaluator + Send>>, SpecError> {
        let evaluator = self.evaluator(seed, models)?;
        Ok(MctsPlayer::new(Mcts::new(
            evaluator,
            self.mcts_config(seed),
        )))
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
            PlayerKind::AlphaBeta => Box::new(crate::players::AlphaBetaPlayer::new(seed)),
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

    fn set(&mut self, option: &str, value: &str) -> Result<(), SpecError> {
        let player = self.kind.name();
        let Some(entry) = OPTIONS
            .iter()
            .find(|o| o.name == option && o.kinds.contains(&self.kind))
        else {
            return Err(SpecError::UnknownOption {
                player: player.to_owned(),
                option: option.to_owned(),
                known: self.kind.options().join(", "),
            });
        };
        if entry.field.text(self).is_some() {
            return Err(SpecError::Duplicate {
                player: player.to_owned(),
                option: option.to_owned(),
            });
        }
        let parsed = entry
            .accepts
            .check(value)
            .map_err(|reason| SpecError::BadValue {
                player: player.to_owned(),
                option: option.to_owned(),
                value: value.to_owned(),
                reason,
            })?;
        entry.field.store(self, parsed);
        if self.model.is_some() && self.playouts.is_some() {
            return Err(SpecError::PlayoutsWithModel);
        }
        Ok(())
    }

    /// An option's value as a spec writes it, `None` when unset or not an option.
    fn option_text(&self, option: &str) -> Option<String> {
        OPTIONS
            .iter()
            .find(|o| o.name == option)
            .and_then(|o| o.field.text(self))
    }
}

fn model_error(model: &str, error: ModelError) -> SpecError {
    SpecError::Model {
        path: model.to_owned(),
        message: error.to_string(),
    }
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    /// `name` or `name:option=value,option=value`.
    fn from_str(text: &str) -> Result<PlayerSpec, SpecError> {
        let text = text.trim();
        let (name, options) = match text.split_once(':') {
            Some((name, options)) => (name.trim(), Some(options)),
            None => (text, None),
        };
        let name = name.to_ascii_lowercase();
        let kind = PlayerKind::from_name(&name).ok_or_else(|| SpecError::UnknownPlayer {
            name: name.clone(),
            known: PlayerKind::ALL.map(PlayerKind::name).join(", "),
        })?;
        let mut spec = PlayerSpec::new(kind);
        // `mcts:` and `mcts:sims=5,` are forgiven: an empty piece says nothing.
        let pieces = options
            .into_iter()
            .flat_map(|o| o.split(','))
            .filter(|p| !p.trim().is_empty());
        for piece in pieces {
            let (option, value) = piece.split_once('=').ok_or_else(|| SpecError::Malformed {
                text: piece.trim().to_owned(),
            })?;
            spec.set(&option.trim().to_ascii_lowercase(), value.trim())?;
        }
        if spec.kind.needs_model() && spec.model.is_none() {
            return Err(SpecError::NeedsModel(name));
        }
        Ok(spec)
    }
}

impl fmt::Display for PlayerSpec {
    /// The canonical spec text, which parses back to the same spec.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.name())?;
        let options: Vec<String> = self
            .kind
            .options()
            .iter()
            .filter_map(|option| Some(format!("{option}={}", self.option_text(option)?)))
            .collect();
        if !options.is_empty() {
            write!(f, ":{}", options.join(","))?;
        }
        Ok(())
    }
}

/// Parses a comma-separated player list. A piece with `=` but no `:` is one more option
/// of the spec before it, so `mcts:sims=800,c=1,greedy` is two players.
pub fn parse_player_list(text: &str) -> Result<Vec<PlayerSpec>, SpecError> {
    let mut groups: Vec<String> = Vec::new();
    for piece in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if piece.contains('=') && !piece.contains(':') {
            match groups.last_mut() {
                Some(last) => {
                    // The first option of a spec still needs its colon.
                    last.push(if last.contains(':') { ',' } else { ':' });
                    last.push_str(piece);
                }
                None => {
                    return Err(SpecError::Orphan {
                        option: piece.to_owned(),
                    })
                }
            }
        } else {
            groups.push(piece.to_owned());
        }
    }
    if groups.is_empty() {
        return Err(SpecError::Empty);
    }
    let specs = groups
        .iter()
        .map(|g| g.parse::<PlayerSpec>())
        .collect::<Result<Vec<_>, _>>()?;
    for (i, spec) in specs.iter().enumerate() {
        if specs[..i].contains(spec) {
            return Err(SpecError::Repeated(spec.to_string()));
        }
    }
    Ok(specs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> PlayerSpec {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn specs_print_back_to_text_that_parses_to_the_same_spec() {
        for text in [
            "random",
            "greedy",
            "novice",
            "heuristic",
            "heuristic:seed=4",
            "alphabeta:depth=4",
            "alphabeta:time=100",
            "alphabeta:depth=6,time=250,seed=2",
            "mcts:sims=1000",
            "mcts:time=500",
            "mcts:sims=800,time=50,c=1.2,seed=9",
            "mcts:model=models/az-8x8.onnx,sims=800,solver=10",
            "mcts:model=net.onnx,time=100,c=2,solver=0,seed=1",
            "mcts:model=net.onnx,sims=10,exact=20",
            "mcts:sims=400,noise=0.3,playouts=1",
            "mcts:model=net.onnx,sims=32,gumbel=16,cscale=1",
            "uct:sims=1000,c=1.4",
            "policy:model=models/az-8x8.onnx",
            "value:model=net.onnx,seed=2",
        ] {
            let spec = parse(text);
            assert_eq!(spec.to_string(), text);
            assert_eq!(parse(&spec.to_string()), spec);
        }
    }

    #[test]
    fn options_land_in_their_typed_fields() {
        let spec = parse("mcts:sims=800,time=50,c=0.7,seed=3");
        assert_eq!(spec.kind, PlayerKind::Mcts);
        assert_eq!(spec.sims, Some(800));
        assert_eq!(spec.time_ms, Some(50));
        assert_eq!(spec.c, Some(0.7));
        assert_eq!(spec.seed, Some(3));
        assert_eq!(
            spec.budget(),
            Budget {
                depth: None,
                simulations: Some(800),
                time: Some(Duration::from_millis(50)),
            }
        );
        assert_eq!(parse("alphabeta:depth=4").budget(), Budget::depth(4));
        assert!(parse("greedy").budget().is_unlimited());
    }

    #[test]
    fn an_option_without_a_colon_belongs_to_the_spec_before_it() {
        let specs = parse_player_list("random, mcts:sims=800,c=1.5,greedy,alphabeta,depth=3")
            .expect("valid list");
        let texts: Vec<String> = specs.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "random",
                "mcts:sims=800,c=1.5",
                "greedy",
                "alphabeta:depth=3"
            ]
        );
    }

    #[test]
    fn unknown_players_are_refused_with_the_list_of_known_ones() {
        let error = parse_player_list("random,stockfish").expect_err("unknown");
        let message = error.to_string();
        assert!(message.contains("'stockfish'"), "{message}");
        assert!(message
            .contains("random, greedy, novice, heuristic, alphabeta, uct, mcts, policy, value"));
    }

    #[test]
    fn an_option_the_player_does_not_take_is_refused() {
        let error = "greedy:depth=3"
            .parse::<PlayerSpec>()
            .expect_err("no depth");
        assert_eq!(
            error,
            SpecError::UnknownOption {
                player: "greedy".into(),
                option: "depth".into(),
                known: "seed".into(),
            }
        );
        assert!(matches!(
            "mcts:depth=3".parse::<PlayerSpec>(),
            Err(SpecError::UnknownOption { .. })
        ));
    }

    #[test]
    fn bad_values_are_refused_with_the_reason() {
        for text in [
            "mcts:sims=0",
            "mcts:sims=lots",
            "mcts:c=-1",
            "mcts:c=nan",
            "mcts:noise=-0.3",
            "mcts:playouts=0",
            "mcts:exact=65",
            "alphabeta:depth=0",
            "alphabeta:depth=99",
            "alphabeta:time=1.5",
            "random:seed=-1",
        ] {
            let error = text.parse::<PlayerSpec>().expect_err(text);
            assert!(
                matches!(error, SpecError::BadValue { .. }),
                "{text}: {error}"
            );
        }
        let message = "mcts:sims=0"
            .parse::<PlayerSpec>()
            .expect_err("zero")
            .to_string();
        assert_eq!(
            message,
            "bad value '0' for option 'sims' of 'mcts': expected a whole number from 1 to 100000000"
        );
    }

    #[test]
    fn malformed_lists_say_what_is_wrong() {
        assert_eq!(parse_player_list(" , "), Err(SpecError::Empty));
        assert!(matches!(
            parse_player_list("sims=3,random"),
            Err(SpecError::Orphan { .. })
        ));
        assert!(matches!(
            parse_player_list("mcts:sims"),
            Err(SpecError::Malformed { .. })
        ));
        assert!(matches!(
            parse_player_list("mcts:sims=3,sims=4"),
            Err(SpecError::Duplicate { .. })
        ));
        assert!(matches!(
            parse_player_list("random,greedy,random"),
            Err(SpecError::Repeated(_))
        ));
        assert!(parse_player_list("random:seed=1,random:seed=2").is_ok());
        assert_eq!(parse("mcts:"), parse("mcts"));
        assert!(matches!(
            parse_player_list("mcts:c=1,mcts:c=1.0"),
            Err(SpecError::Repeated(_))
        ));
    }

    #[test]
    fn heuristic_and_alphabeta_build_with_their_budgets() {
        for (text, depth) in [("heuristic", None), ("alphabeta:depth=4", Some(4))] {
            let (_, budget) = parse(text).build(1, &NoModels).expect("builds");
            assert_eq!(budget.depth, depth);
        }
    }

    #[test]
    fn a_model_the_source_does_not_have_is_named_and_playouts_need_no_model() {
        let spec = parse_player_list("mcts:model=/nonexistent/net.onnx,sims=5")
            .expect("parses")
            .remove(0);
        assert_eq!(spec.model.as_deref(), Some("/nonexistent/net.onnx"));
        assert_eq!(spec.sims, Some(5));
        let error = spec
            .check_game(BoardSize::Eight, Variant::Standard, &NoModels)
            .expect_err("no such network");
        assert_eq!(
            error.to_string(),
            "model /nonexistent/net.onnx: no network named '/nonexistent/net.onnx' is loaded"
        );
        assert!(matches!(
            "mcts:model=".parse::<PlayerSpec>(),
            Err(SpecError::BadValue { .. })
        ));
        assert_eq!(
            "mcts:model=a.onnx,playouts=2".parse::<PlayerSpec>(),
            Err(SpecError::PlayoutsWithModel)
        );
    }

    #[test]
    fn mcts_settings_come_from_the_spec_and_the_seed_is_salted() {
        let spec = parse("mcts:c=2.5,solver=10,exact=14,noise=0.3,seed=4");
        let config = spec.mcts_config(9);
        assert_eq!(config.c_puct, 2.5);
        assert_eq!(config.solver_empties, Some(10));
        assert_eq!(config.root_solve.exact_empties, Some(14));
        assert_eq!(config.dirichlet_alpha, 0.3);
        assert_eq!(config.seed, spec.player_seed(9));
        assert_ne!(spec.player_seed(9), 9);
        assert_eq!(parse("mcts").mcts_config(9).seed, 9);
        assert_eq!(parse("mcts").mcts_config(9).dirichlet_alpha, 0.0);
        let gumbel = parse("mcts:gumbel=8,cscale=1").mcts_config(1).gumbel;
        assert_eq!(gumbel.map(|g| (g.considered, g.c_scale)), Some((8, 1.0)));
        assert_eq!(parse("mcts:gumbel=0").mcts_config(1).gumbel, None);
        assert_eq!(parse("mcts:model=m,sym=8").sym, Some(8));
        assert_eq!(
            parse("policy:model=m,sym=1").to_string(),
            "policy:model=m,sym=1"
        );
        assert!(matches!(
            "mcts:model=m,sym=9".parse::<PlayerSpec>(),
            Err(SpecError::BadValue { .. })
        ));
        assert!(matches!(
            "alphabeta:sym=2".parse::<PlayerSpec>(),
            Err(SpecError::UnknownOption { .. })
        ));
        assert_eq!(parse("mcts:utility=0").mcts_config(1).score_utility, 0.0);
        assert_eq!(parse("mcts:utility=1.5").mcts_config(1).score_utility, 1.5);
        let default = MctsConfig::default().score_utility;
        assert_eq!(parse("mcts").mcts_config(1).score_utility, default);
    }

    #[test]
    fn the_network_players_need_a_model_and_take_no_budget() {
        for kind in ["policy", "value"] {
            assert_eq!(
                kind.parse::<PlayerSpec>(),
                Err(SpecError::NeedsModel(kind.into()))
            );
            assert!(matches!(
                format!("{kind}:model=a.onnx,sims=5").parse::<PlayerSpec>(),
                Err(SpecError::UnknownOption { .. })
            ));
            let spec = parse(&format!("{kind}:model=/nonexistent.onnx"));
            assert!(spec.budget().is_unlimited());
            let error = spec.build(1, &NoModels).expect_err("no such network");
            assert!(matches!(error, SpecError::Model { .. }), "{error}");
            let bare = PlayerSpec::new(spec.kind);
            assert!(matches!(
                bare.build(1, &NoModels),
                Err(SpecError::NeedsModel(_))
            ));
        }
        assert_eq!(
            SpecError::NeedsModel("value".into()).to_string(),
            "player 'value' is a network without search: give it one with model=PATH"
        );
    }

    #[test]
    fn built_players_carry_the_spec_budget() {
        let (agent, budget) = parse("mcts:sims=50").build(7, &NoModels).expect("builds");
        assert!(
            agent.name().starts_with("mcts (random playouts"),
            "{}",
            agent.name()
        );
        assert_eq!(budget, Budget::simulations(50));
        let (agent, _) = parse("uct:sims=50").build(7, &NoModels).expect("builds");
        assert_eq!(agent.name(), "uct");
        let (agent, _) = parse("novice").build(7, &NoModels).expect("builds");
        assert_eq!(agent.name(), "novice");
    }
}
