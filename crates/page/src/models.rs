//! The networks shipped with the page. Change a path here when the trainer ships a new
//! model: the files live in `models/` (copied into the build by Trunk) as `<name>.onnx` and
//! `<name>.json` (the model card).

use crate::format::seconds;
use othello::{BoardSize, Variant};

/// How a shipped network learned (docs/learners.md compares them at equal CPU time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Learner {
    /// AlphaZero's self-play with tree search, learning a pattern network: tables of board
    /// patterns, as the classic engines evaluate (docs/pattern.md).
    Patterns,
    AlphaZero,
    QLearning,
    Reinforce,
    ActorCritic,
}

impl Learner {
    pub fn label(self) -> &'static str {
        match self {
            Learner::Patterns => "AlphaZero, pattern network",
            Learner::AlphaZero => "AlphaZero",
            Learner::QLearning => "Q-learning",
            Learner::Reinforce => "policy gradient (REINFORCE)",
            Learner::ActorCritic => "policy gradient (actor-critic)",
        }
    }

    /// One line for a player choosing an opponent. Every shipped learner has a value
    /// output (the Q-learner's is its best move's value), so every level searches.
    pub fn describe(self) -> &'static str {
        match self {
            Learner::Patterns => {
                "learned by self-play with tree search, as AlphaZero, as tables of board patterns \
                 the way the classic engines evaluate; cheap enough that its search looks two \
                 moves further below every position it weighs; the strongest"
            }
            Learner::AlphaZero => {
                "learned by self-play with tree search, as AlphaZero, as a residual network"
            }
            Learner::QLearning => {
                "deep Q-learning: learned each move's value from replayed games against itself and classic players"
            }
            Learner::Reinforce => {
                "REINFORCE with a baseline: learned which moves to play from the results of its games"
            }
            Learner::ActorCritic => {
                "advantage actor-critic: learned which moves to play from a critic's judgement of each move"
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinModel {
    pub size: BoardSize,
    pub variant: Variant,
    pub learner: Learner,
    /// Path of the files without extension, relative to the site root.
    pub path: &'static str,
    /// The `.onnx` file's size in bytes, for the download's progress ("120 KB of 359 KB"):
    /// the site serves it compressed, so the browser gives no length the bytes read can
    /// be counted against (the sixteenth look read "41 KB so far" on every load). A test
    /// checks it against the file in `models/`.
    pub onnx_bytes: u64,
    /// The depth of the alpha-beta search that values the tree's leaves
    /// (`mcts:leaf_depth=`), for a network cheap enough to afford one (docs/midgame.md
    /// has the equal-time games that chose it).
    pub leaf_depth: Option<u32>,
}

/// Simulations a second a residual network's search runs in a worker: 1,661-2,111 for
/// `az-8x8` at Strong in Chromium on this project's test machine (docs/web.md), the
/// figure a network of the player's own is taken at.
pub const RESIDUAL_WORKER_SIMULATIONS_PER_SECOND: u64 = 2_000;

impl BuiltinModel {
    /// Simulations a second its search runs in a worker, for what a review says of a timed
    /// agent's search and how far a review may go: the pattern network with its alpha-beta
    /// leaves 35,255-44,667 at Strong on this project's test machine, loaded, since the
    /// worker reads its instances disc by disc (docs/web.md, "The pattern network in the
    /// worker"; the tenth look counted 38,311-67,285 a move in the panel, where 25,000, the
    /// figure from before, made a review's note claim to look further than the agent had);
    /// the residual networks [`RESIDUAL_WORKER_SIMULATIONS_PER_SECOND`].
    pub fn worker_simulations_per_second(&self) -> u64 {
        match self.learner {
            Learner::Patterns => 40_000,
            _ => RESIDUAL_WORKER_SIMULATIONS_PER_SECOND,
        }
    }
}

pub const BUILTIN_MODELS: &[BuiltinModel] = &[
    BuiltinModel {
        size: BoardSize::Eight,
        variant: Variant::Standard,
        learner: Learner::Patterns,
        path: "models/pattern-8x8",
        onnx_bytes: 59_431,
        leaf_depth: Some(2),
    },
    BuiltinModel {
        size: BoardSize::Eight,
        variant: Variant::Standard,
        learner: Learner::AlphaZero,
        path: "models/az-8x8",
        onnx_bytes: 358_345,
        leaf_depth: None,
    },
    BuiltinModel {
        size: BoardSize::Six,
        variant: Variant::Standard,
        learner: Learner::AlphaZero,
        path: "models/az-6x6",
        onnx_bytes: 328_436,
        leaf_depth: None,
    },
    BuiltinModel {
        size: BoardSize::Six,
        variant: Variant::Reversed,
        learner: Learner::AlphaZero,
        path: "models/az-6x6-reversed",
        onnx_bytes: 328_436,
        leaf_depth: None,
    },
    BuiltinModel {
        size: BoardSize::Eight,
        variant: Variant::Reversed,
        learner: Learner::AlphaZero,
        path: "models/az-8x8-reversed",
        onnx_bytes: 358_345,
        leaf_depth: None,
    },
    BuiltinModel {
        size: BoardSize::Six,
        variant: Variant::Standard,
        learner: Learner::QLearning,
        path: "models/q-6x6",
        onnx_bytes: 317_851,
        leaf_depth: None,
    },
    BuiltinModel {
        size: BoardSize::Six,
        variant: Variant::Standard,
        learner: Learner::Reinforce,
        path: "models/reinforce-6x6",
        onnx_bytes: 327_632,
        leaf_depth: None,
    },
    BuiltinModel {
        size: BoardSize::Six,
        variant: Variant::Standard,
        learner: Learner::ActorCritic,
        path: "models/a2c-6x6",
        onnx_bytes: 327_632,
        leaf_depth: None,
    },
    BuiltinModel {
        size: BoardSize::Eight,
        variant: Variant::Standard,
        learner: Learner::QLearning,
        path: "models/q-8x8",
        onnx_bytes: 340_590,
        leaf_depth: None,
    },
    BuiltinModel {
        size: BoardSize::Eight,
        variant: Variant::Standard,
        learner: Learner::Reinforce,
        path: "models/reinforce-8x8",
        onnx_bytes: 357_541,
        leaf_depth: None,
    },
    BuiltinModel {
        size: BoardSize::Eight,
        variant: Variant::Standard,
        learner: Learner::ActorCritic,
        path: "models/a2c-8x8",
        onnx_bytes: 357_541,
        leaf_depth: None,
    },
];

/// The shipped network the page plays a board with unless asked for another: the first
/// listed (the pattern network on 8x8 standard, AlphaZero's residual network elsewhere). Without one, or when it fails, the page plays alpha-beta.
pub fn builtin_for(size: BoardSize, variant: Variant) -> Option<&'static BuiltinModel> {
    learners_for(size, variant).next()
}

/// Every shipped network for a board, the default first.
pub fn learners_for(
    size: BoardSize,
    variant: Variant,
) -> impl Iterator<Item = &'static BuiltinModel> {
    BUILTIN_MODELS
        .iter()
        .filter(move |m| m.size == size && m.variant == variant)
}

/// The shipped network of this name, if it is one.
pub fn builtin_named(name: &str) -> Option<&'static BuiltinModel> {
    BUILTIN_MODELS.iter().find(|m| m.name() == name)
}

impl BuiltinModel {
    pub fn onnx_path(&self) -> String {
        format!("{}.onnx", self.path)
    }

    pub fn card_path(&self) -> String {
        format!("{}.json", self.path)
    }

    pub fn name(&self) -> &'static str {
        self.path.rsplit('/').next().unwrap_or(self.path)
    }
}

/// A model card for an uploaded network that came without one: the current board, the
/// contract's four planes. The network's shapes are still checked against it.
pub fn default_card(name: &str, size: BoardSize, variant: Variant) -> String {
    serde_json::json!({
        "name": name,
        "board_size": size.n(),
        "variant": variant.to_string(),
        "planes": 4,
    })
    .to_string()
}

/// How strong a network is, in a line a player can read, from its model card's
/// `strength` section: the arena results at the budget they were measured at, and the
/// share of endgame moves the exact solver agrees with. `None` when the card measured
/// nothing (or is not JSON).
pub fn strength_line(card: &str) -> Option<String> {
    let card: serde_json::Value = serde_json::from_str(card).ok()?;
    let strength = card.get("strength")?;
    let mut parts = Vec::new();
    let mut measured_at = None;
    for arena in strength.get("arena")?.as_array()? {
        if let Some(spec) = arena.get("as").and_then(|a| a.as_str()) {
            measured_at = measured_at.or_else(|| measured_as(spec));
        }
        // A card can hold the same opponent twice, from the start and from XOT openings
        // (a learner that masters one opening and not the others): say which is which.
        let from = match arena.get("openings").and_then(|o| o.as_str()) {
            Some("XOT openings") => " from XOT openings",
            _ => "",
        };
        for result in arena
            .get("results")
            .and_then(|r| r.as_array())
            .into_iter()
            .flatten()
        {
            let count = |key: &str| {
                result
                    .get(key)
                    .and_then(serde_json::Value::as_u64)
                    .unwrap_or(0)
            };
            let Some(opponent) = result.get("opponent").and_then(|o| o.as_str()) else {
                continue;
            };
            let (wins, draws, losses) = (count("wins"), count("draws"), count("losses"));
            let draws = if draws > 0 {
                format!(", {draws} drawn")
            } else {
                String::new()
            };
            parts.push(format!(
                "{wins} won{draws}, {losses} lost against {}{from}",
                opponent_name(opponent)
            ));
        }
    }
    let accuracy = strength
        .get("accuracy")
        .and_then(|a| a.get("optimal"))
        .and_then(serde_json::Value::as_f64)
        .map(|o| format!("; {:.0}% of its endgame moves are perfect", o * 100.0));
    if parts.is_empty() && accuracy.is_none() {
        return None;
    }
    let at = measured_words(measured_at);
    Some(format!(
        "Measured{at}: {}{}.",
        parts.join("; "),
        accuracy.unwrap_or_default()
    ))
}

/// "at 1 s per move, as the Strong level plays": the budget a card was measured at, with
/// the level that plays at it.
fn measured_words(measured_at: Option<Measured>) -> String {
    // The level that plays at the budget measured, named (issue 68: "Measured at 1 s per
    // move" stood beside whatever level was chosen, as if it were that level's).
    let level = |budget: protocol::WireBudget| {
        crate::levels::LEVELS
            .iter()
            .find(|l| l.budget == budget && l.instinct.is_none())
            .map_or(String::new(), |l| {
                format!(
                    ", as the {} level plays",
                    l.label.split(':').next().unwrap_or(l.id)
                )
            })
    };
    match measured_at {
        Some(Measured::Sims(n)) => format!(
            " at {} per move{}",
            crate::format::count(n, "simulation", "simulations"),
            level(protocol::WireBudget {
                simulations: Some(n),
                millis: None
            })
        ),
        Some(Measured::Millis(ms)) => format!(
            " at {} per move{}",
            seconds(ms as f64),
            level(protocol::WireBudget {
                simulations: None,
                millis: Some(ms)
            })
        ),
        Some(Measured::NoSearch) => " without search".to_owned(),
        None => String::new(),
    }
}

enum Measured {
    Sims(u64),
    /// A time per move (`time=`), as the page's timed levels play.
    Millis(u64),
    /// The network alone (`policy:` or `value:`), as the learners are compared.
    NoSearch,
}

fn measured_as(spec: &str) -> Option<Measured> {
    if spec.starts_with("policy:") || spec.starts_with("value:") {
        return Some(Measured::NoSearch);
    }
    let option = |key: &str| {
        spec.split([':', ','])
            .find_map(|part| part.strip_prefix(key))
            .and_then(|n| n.parse().ok())
    };
    option("sims=")
        .map(Measured::Sims)
        .or_else(|| option("time=").map(Measured::Millis))
}

/// "alphabeta:depth=4" as "alpha-beta (depth 4)"; an agent with a network by the network's
/// name ("mcts:model=models/az-8x8.onnx,sims=800" as "the az-8x8 network (800
/// simulations)"), and an archived one as what it is: "an earlier network, az-8x8-b88
/// (generation 88 of training run 8x8-b, 800 simulations)".
fn opponent_name(spec: &str) -> String {
    let (kind, options) = spec.split_once(':').unwrap_or((spec, ""));
    let options: Vec<(&str, &str)> = options
        .split(',')
        .filter_map(|o| o.split_once('='))
        .collect();
    let mut notes = Vec::new();
    let name = match options.iter().find(|(k, _)| *k == "model") {
        Some((_, path)) => {
            let file = path.rsplit('/').next().unwrap_or(path);
            let stem = file.strip_suffix(".onnx").unwrap_or(file);
            if path.contains("archive/") {
                notes.push(archived_origin(stem));
                format!("an earlier network, {stem}")
            } else {
                format!("the {stem} network")
            }
        }
        None => kind_name(kind).to_owned(),
    };
    notes.extend(
        options
            .into_iter()
            .filter(|(k, _)| !matches!(*k, "model" | "book_random"))
            .map(|(k, v)| match (k, v.parse::<f64>()) {
                ("sims", _) => format!("{v} simulations"),
                ("time", Ok(ms)) => format!("{} per move", seconds(ms)),
                ("book", _) => "its opening book".to_owned(),
                ("leaf_depth", _) => format!("alpha-beta leaves of depth {v}"),
                (k, _) => format!("{k} {v}"),
            }),
    );
    if notes.is_empty() {
        name
    } else {
        format!("{name} ({})", notes.join(", "))
    }
}

/// Where an archived network came from, read from its name as the archive names them:
/// `az-8x8-b88` is generation 88 of training run `8x8-b` (the residual runs, named for
/// their board and a letter), `pattern-8x8-88` generation 88 of training run
/// `pattern-8x8` (a run named as its network is).
fn archived_origin(stem: &str) -> String {
    let parsed = stem.rsplit_once('-').and_then(|(head, tail)| {
        let digits = tail.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let letters = &tail[..tail.len() - digits.len()];
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let run = if letters.is_empty() {
            head.to_owned()
        } else {
            format!("{}-{letters}", head.split_once('-')?.1)
        };
        Some(format!("generation {digits} of training run {run}"))
    });
    parsed.unwrap_or_else(|| "kept in the archive".to_owned())
}

fn kind_name(kind: &str) -> &str {
    match kind {
        "alphabeta" => "alpha-beta",
        "heuristic" => "the heuristic player",
        "random" => "a random player",
        "greedy" => "the greedy player",
        "mcts" | "uct" => "rollout MCTS",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_model_is_in_the_models_folder_with_a_matching_card() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        for model in BUILTIN_MODELS {
            assert!(root.join(model.onnx_path()).is_file(), "{}", model.path);
            let bytes = std::fs::metadata(root.join(model.onnx_path())).map(|m| m.len());
            assert_eq!(
                bytes.ok(),
                Some(model.onnx_bytes),
                "{}: onnx_bytes is the file's size (the download's progress counts against it)",
                model.path
            );
            let card = std::fs::read_to_string(root.join(model.card_path())).expect("card");
            let card = engine::network::ModelCard::from_json(&card).expect("valid card");
            card.check_game(model.size, model.variant)
                .expect("the card names the board the page uses it for");
        }
        assert_eq!(
            builtin_for(BoardSize::Eight, Variant::Reversed).map(super::BuiltinModel::name),
            Some("az-8x8-reversed")
        );
        // 4x4 is the engine's test board: the page does not offer it, and no network plays it.
        assert!(builtin_for(BoardSize::Four, Variant::Standard).is_none());
        assert_eq!(
            builtin_for(BoardSize::Six, Variant::Reversed).map(super::BuiltinModel::name),
            Some("az-6x6-reversed")
        );
        assert_eq!(
            builtin_for(BoardSize::Eight, Variant::Standard).map(super::BuiltinModel::name),
            Some("pattern-8x8")
        );
        // Only a pattern network's evaluation is cheap enough for a search at every leaf.
        for model in BUILTIN_MODELS {
            assert_eq!(
                model.leaf_depth.is_some(),
                model.learner == Learner::Patterns,
                "{}",
                model.path
            );
        }
    }

    #[test]
    fn the_standard_boards_offer_every_learner_the_strongest_first() {
        use Learner::*;
        let learners = |size| -> Vec<Learner> {
            learners_for(size, Variant::Standard)
                .map(|m| m.learner)
                .collect()
        };
        assert_eq!(
            learners(BoardSize::Six),
            [AlphaZero, QLearning, Reinforce, ActorCritic]
        );
        assert_eq!(
            learners(BoardSize::Eight),
            [Patterns, AlphaZero, QLearning, Reinforce, ActorCritic]
        );
        let reversed: Vec<Learner> = learners_for(BoardSize::Eight, Variant::Reversed)
            .map(|m| m.learner)
            .collect();
        assert_eq!(reversed, [AlphaZero]);
        assert_eq!(
            builtin_named("q-6x6").map(|m| (m.size, m.learner)),
            Some((BoardSize::Six, QLearning))
        );
        assert!(builtin_named("mine").is_none());
        // Each says in its line what kind of learning it is.
        assert!(QLearning.describe().contains("Q-learning"));
        assert!(ActorCritic.describe().contains("actor-critic"));
    }

    #[test]
    fn a_learner_measured_without_search_says_so() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let card = std::fs::read_to_string(root.join("models/q-6x6.json")).expect("card");
        let line = strength_line(&card).expect("q-6x6 was measured");
        assert!(line.starts_with("Measured without search: "), "{line}");
        assert!(line.contains("against the heuristic player"), "{line}");
    }

    #[test]
    fn trunk_copies_every_builtin_model_and_its_card_into_the_site() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let index = std::fs::read_to_string(root.join("index.html")).expect("index.html");
        for model in BUILTIN_MODELS {
            for file in [model.onnx_path(), model.card_path()] {
                let line = format!(r#"rel="copy-file" href="{file}" data-target-path="models""#);
                assert!(index.contains(&line), "index.html does not copy {file}");
            }
        }
    }

    #[test]
    fn the_shipped_cards_say_how_strong_their_networks_are() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let card = std::fs::read_to_string(root.join("models/az-8x8.json")).expect("card");
        let line = strength_line(&card).expect("az-8x8 was measured");
        assert!(
            line.starts_with("Measured at 800 simulations per move: "),
            "{line}"
        );
        assert!(line.contains("against alpha-beta (depth 4)"), "{line}");
        // The network it replaced is named as an earlier network, with its run and
        // generation, not by its file's path.
        assert!(
            line.contains(
                "217 won, 24 drawn, 159 lost against an earlier network, az-8x8-b88 \
                 (generation 88 of training run 8x8-b, 800 simulations)"
            ),
            "{line}"
        );
        let card = std::fs::read_to_string(root.join("models/az-6x6.json")).expect("card");
        let line = strength_line(&card).expect("az-6x6 was measured");
        assert!(
            line.contains("% of its endgame moves are perfect"),
            "{line}"
        );
        // The pattern network was measured at the page's Strong time, against the page's
        // agent before it (an earlier generation of its run, archived) with the page's book.
        let card = std::fs::read_to_string(root.join("models/pattern-8x8.json")).expect("card");
        let line = strength_line(&card).expect("pattern-8x8 was measured");
        // The level it was measured at is named (issue 68: the 1 s figure stood beside
        // every level).
        assert!(
            line.starts_with("Measured at 1 s per move, as the Strong level plays: "),
            "{line}"
        );
        assert!(
            line.contains(
                "against an earlier network, pattern-8x8-174 (generation 174 of training run \
                 pattern-8x8, 1 s per move, alpha-beta leaves of depth 2, its opening book)"
            ),
            "{line}"
        );
        let none = default_card("mine", BoardSize::Six, Variant::Standard);
        assert_eq!(strength_line(&none), None);
        // The shipped REINFORCE network was measured from the start and from XOT openings.
        let card = std::fs::read_to_string(root.join("models/reinforce-8x8.json")).expect("card");
        let line = strength_line(&card).expect("reinforce-8x8 was measured");
        assert!(
            line.contains("369 won, 10 drawn, 21 lost against"),
            "{line}"
        );
        assert!(line.contains("from XOT openings"), "{line}");
        assert_eq!(line.matches("from XOT openings").count(), 4, "{line}");
        assert_eq!(strength_line("not json"), None);
    }

    #[test]
    fn an_archived_network_is_named_by_its_run_and_generation() {
        assert_eq!(
            archived_origin("az-8x8-b88"),
            "generation 88 of training run 8x8-b"
        );
        assert_eq!(
            archived_origin("pattern-8x8-88"),
            "generation 88 of training run pattern-8x8"
        );
        assert_eq!(archived_origin("pattern-8x8-b"), "kept in the archive");
        assert_eq!(archived_origin("mine"), "kept in the archive");
        assert_eq!(archived_origin("az-8x8-b8x"), "kept in the archive");
    }

    #[test]
    fn a_default_card_describes_the_current_board() {
        let card = default_card("mine", BoardSize::Six, Variant::Reversed);
        let card = engine::network::ModelCard::from_json(&card).expect("valid card");
        assert_eq!(card.board(), Ok(BoardSize::Six));
        assert_eq!(card.variant(), Ok(Variant::Reversed));
    }
}
