//! Player specs: `random`, `alphabeta:depth=4`, `mcts:sims=800,c=1.2,seed=3`,
//! `mcts:model=models/az-8x8.onnx,sims=800`, parsed into a typed [`PlayerSpec`] that builds
//! an agent and its budget. `mcts` without a model is rollout MCTS (UCT); with a model it is
//! the AlphaZero agent: PUCT over the network, with the exact solver in the endgame.

use crate::players::{GreedyPlayer, NovicePlayer, RandomPlayer, RolloutMcts};
use crate::{Agent, Budget};
use othello::{BoardSize, Variant};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;
use thiserror::Error;

/// The kinds of player the arena knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerKind {
    Random,
    Greedy,
    Novice,
    Heuristic,
    AlphaBeta,
    Mcts,
}

impl PlayerKind {
    pub const ALL: [PlayerKind; 6] = [
        PlayerKind::Random,
        PlayerKind::Greedy,
        PlayerKind::Novice,
        PlayerKind::Heuristic,
        PlayerKind::AlphaBeta,
        PlayerKind::Mcts,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
            PlayerKind::Novice => "novice",
            PlayerKind::Heuristic => "heuristic",
            PlayerKind::AlphaBeta => "alphabeta",
            PlayerKind::Mcts => "mcts",
        }
    }

    /// The options this kind of player takes, in the order a spec is written.
    pub const fn options(self) -> &'static [&'static str] {
        match self {
            PlayerKind::Random
            | PlayerKind::Greedy
            | PlayerKind::Novice
            | PlayerKind::Heuristic => &["seed"],
            PlayerKind::AlphaBeta => &["depth", "time", "seed"],
            PlayerKind::Mcts => &["model", "sims", "time", "c", "solver", "exact", "seed"],
        }
    }

    fn from_name(name: &str) -> Option<PlayerKind> {
        PlayerKind::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

/// A player and its settings. Options a kind does not take are always `None`.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
    /// The network of the AlphaZero agent: an `.onnx` file with its card beside it. The
    /// path may not hold a comma.
    pub model: Option<String>,
    /// The AlphaZero agent solves positions with at most this many empties exactly
    /// (0: never; unset: the board's default).
    pub solver: Option<u32>,
    /// The AlphaZero agent plays the exact solver's best move (largest margin) in positions
    /// with at most this many empties (0: never; unset: the board's default).
    pub exact: Option<u32>,
    /// A salt mixed into every seed this player gets, so that two copies of one player
    /// (`random:seed=1,random:seed=2`) play different games.
    pub seed: Option<u64>,
}

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
    #[error("player '{0}' is not built into this version")]
    NotBuilt(String),
    #[error("option '{option}' of '{player}' needs a model (model=path.onnx)")]
    NeedsModel { player: String, option: String },
    #[error("model {path}: {message}")]
    Model { path: String, message: String },
    #[error("cannot use the model: {0}")]
    LoadModel(String),
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

    /// The agent for one game, seeded with `seed` (salted with the spec's own seed), and
    /// the budget to give it for every move.
    pub fn build(&self, seed: u64) -> Result<(Box<dyn Agent>, Budget), SpecError> {
        let seed = match self.seed {
            Some(salt) => mix(seed ^ mix(salt)),
            None => seed,
        };
        let agent: Box<dyn Agent> = match self.kind {
            PlayerKind::Random => Box::new(RandomPlayer::new(seed)),
            PlayerKind::Greedy => Box::new(GreedyPlayer::new(seed)),
            PlayerKind::Novice => Box::new(NovicePlayer::new(seed)),
            PlayerKind::Mcts if self.model.is_some() => self.build_network_agent(seed)?,
            PlayerKind::Mcts => {
                for (option, value) in [("solver", self.solver), ("exact", self.exact)] {
                    if value.is_some() {
                        return Err(SpecError::NeedsModel {
                            player: self.kind.name().to_owned(),
                            option: option.to_owned(),
                        });
                    }
                }
                let mut mcts = RolloutMcts::new(seed);
                if let Some(c) = self.c {
                    mcts = mcts.with_exploration(c);
                }
                Box::new(mcts)
            }
            PlayerKind::Heuristic | PlayerKind::AlphaBeta => build_classic(self.kind, seed)?,
        };
        Ok((agent, self.budget()))
    }

    /// Checks, before any game, that the player can play this board: a model must exist,
    /// load, and be made for the board and variant.
    pub fn check_game(&self, size: BoardSize, variant: Variant) -> Result<(), SpecError> {
        self.build(0)?;
        #[cfg(feature = "onnx")]
        if let Some(path) = &self.model {
            let model = load_model(path)?;
            model
                .card()
                .check_game(size, variant)
                .map_err(|e| SpecError::Model {
                    path: path.clone(),
                    message: e.to_string(),
                })?;
        }
        let _ = (size, variant);
        Ok(())
    }

    #[cfg(feature = "onnx")]
    fn build_network_agent(&self, seed: u64) -> Result<Box<dyn Agent>, SpecError> {
        use crate::mcts::{Mcts, MctsConfig, MctsPlayer};
        let path = self.model.as_deref().unwrap_or_default();
        let defaults = MctsConfig::default();
        let config = MctsConfig {
            c_puct: self.c.map_or(defaults.c_puct, |c| c as f32),
            solver_empties: self.solver,
            seed,
            ..defaults
        };
        let evaluator = load_model(path)?
            .evaluator()
            .map_err(|e| SpecError::LoadModel(e.to_string()))?;
        let mut player = MctsPlayer::new(Mcts::new(evaluator, config));
        if let Some(empties) = self.exact {
            player = player.with_exact_root(empties);
        }
        Ok(Box::new(player))
    }

    #[cfg(not(feature = "onnx"))]
    fn build_network_agent(&self, _seed: u64) -> Result<Box<dyn Agent>, SpecError> {
        Err(SpecError::NotBuilt(
            "mcts with a model (the engine was built without its 'onnx' feature)".to_owned(),
        ))
    }

    fn set(&mut self, option: &str, value: &str) -> Result<(), SpecError> {
        let player = self.kind.name();
        let bad = |reason: &str| SpecError::BadValue {
            player: player.to_owned(),
            option: option.to_owned(),
            value: value.to_owned(),
            reason: reason.to_owned(),
        };
        if !self.kind.options().contains(&option) {
            return Err(SpecError::UnknownOption {
                player: player.to_owned(),
                option: option.to_owned(),
                known: self.kind.options().join(", "),
            });
        }
        let duplicate = match option {
            "depth" => self.depth.is_some(),
            "time" => self.time_ms.is_some(),
            "sims" => self.sims.is_some(),
            "c" => self.c.is_some(),
            "model" => self.model.is_some(),
            "solver" => self.solver.is_some(),
            "exact" => self.exact.is_some(),
            _ => self.seed.is_some(),
        };
        if duplicate {
            return Err(SpecError::Duplicate {
                player: player.to_owned(),
                option: option.to_owned(),
            });
        }
        let positive = |max: u64| -> Result<u64, SpecError> {
            match value.parse::<u64>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(bad(&format!("expected a whole number from 1 to {max}"))),
            }
        };
        match option {
            "depth" => self.depth = Some(positive(60)? as u32),
            "time" => self.time_ms = Some(positive(3_600_000)?),
            "sims" => self.sims = Some(positive(100_000_000)?),
            "c" => match value.parse::<f64>() {
                Ok(c) if c.is_finite() && c >= 0.0 => self.c = Some(c),
                _ => return Err(bad("expected a number of 0 or more")),
            },
            "model" if value.is_empty() => return Err(bad("expected the path of an .onnx file")),
            "model" => self.model = Some(value.to_owned()),
            "solver" | "exact" => match value.parse::<u32>() {
                Ok(n) if n <= 64 && option == "solver" => self.solver = Some(n),
                Ok(n) if n <= 64 => self.exact = Some(n),
                _ => return Err(bad("expected a number of empty squares from 0 to 64")),
            },
            _ => match value.parse::<u64>() {
                Ok(seed) => self.seed = Some(seed),
                Err(_) => return Err(bad("expected a whole number")),
            },
        }
        Ok(())
    }
}

/// Builds the classic searching players.
fn build_classic(kind: PlayerKind, seed: u64) -> Result<Box<dyn Agent>, SpecError> {
    match kind {
        PlayerKind::Heuristic => Ok(Box::new(crate::players::HeuristicPlayer::new(seed))),
        PlayerKind::AlphaBeta => Ok(Box::new(crate::players::AlphaBetaPlayer::new(seed))),
        other => Err(SpecError::NotBuilt(other.name().to_owned())),
    }
}

/// Each model file is loaded and checked once per process (on the preferred runtime) and
/// shared by every game and thread: tract's plans are immutable and cost far more to
/// build than to run.
#[cfg(feature = "onnx")]
fn load_model(path: &str) -> Result<crate::network::Network, SpecError> {
    use crate::network::{Network, Runtime};
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Models = Mutex<HashMap<String, Network>>;
    static MODELS: OnceLock<Models> = OnceLock::new();
    let models = MODELS.get_or_init(Default::default);
    let mut models = models.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(model) = models.get(path) {
        return Ok(model.clone());
    }
    let model = Network::load(std::path::Path::new(path), Runtime::preferred())
        .map_err(|e| SpecError::LoadModel(e.to_string()))?;
    models.insert(path.to_owned(), model.clone());
    Ok(model)
}

/// SplitMix64's finaliser: spreads related seeds (1, 2, 3..) far apart.
pub(crate) const fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
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
        Ok(spec)
    }
}

impl fmt::Display for PlayerSpec {
    /// The canonical spec text, which parses back to the same spec.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.name())?;
        let mut options = Vec::new();
        for option in self.kind.options() {
            let value = match *option {
                "depth" => self.depth.map(|v| v.to_string()),
                "time" => self.time_ms.map(|v| v.to_string()),
                "sims" => self.sims.map(|v| v.to_string()),
                "c" => self.c.map(|v| v.to_string()),
                "model" => self.model.clone(),
                "solver" => self.solver.map(|v| v.to_string()),
                "exact" => self.exact.map(|v| v.to_string()),
                _ => self.seed.map(|v| v.to_string()),
            };
            if let Some(value) = value {
                options.push(format!("{option}={value}"));
            }
        }
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
        assert!(message.contains("random, greedy, novice, heuristic, alphabeta, mcts"));
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
            let (_, budget) = parse(text).build(1).expect("builds");
            assert_eq!(budget.depth, depth);
        }
    }

    #[test]
    fn the_solver_option_needs_a_model_and_a_missing_model_is_named() {
        let error = parse("mcts:solver=8").build(1).err().expect("no model");
        assert_eq!(
            error.to_string(),
            "option 'solver' of 'mcts' needs a model (model=path.onnx)"
        );
        let spec = parse_player_list("mcts:model=/nonexistent/net.onnx,sims=5")
            .expect("parses")
            .remove(0);
        assert_eq!(spec.model.as_deref(), Some("/nonexistent/net.onnx"));
        assert_eq!(spec.sims, Some(5));
        let error = spec
            .check_game(BoardSize::Eight, Variant::Standard)
            .expect_err("no such file");
        let message = error.to_string();
        // Without the onnx feature the agent is not built at all; with it, the file is named.
        assert!(
            message.contains("/nonexistent/net.onnx") || message.contains("onnx"),
            "{message}"
        );
        assert!(matches!(
            "mcts:model=".parse::<PlayerSpec>(),
            Err(SpecError::BadValue { .. })
        ));
    }

    #[test]
    fn built_players_carry_the_spec_budget() {
        let (agent, budget) = parse("mcts:sims=50").build(7).expect("builds");
        assert_eq!(agent.name(), "mcts");
        assert_eq!(budget, Budget::simulations(50));
        let (agent, _) = parse("novice").build(7).expect("builds");
        assert_eq!(agent.name(), "novice");
    }
}
