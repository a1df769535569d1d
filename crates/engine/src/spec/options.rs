//! The spec's text: one table of every option (its name, the players that take it, the
//! field it sets and the values it accepts), and the parsing and printing built on it, so
//! a new option is one row of [`OPTIONS`].

use super::{PlayerKind, PlayerSpec, SpecError};
use std::fmt;
use std::str::FromStr;

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
    /// A finite number above 0.
    Positive,
    /// 0 (off) or 1 (on).
    Switch,
    /// The name of a file (a network, a book), not empty: what it names.
    Name(&'static str),
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
const MODELS: &[PlayerKind] = &[MctsKind, Policy, Value, AlphaBeta];
const MCTS: &[PlayerKind] = &[MctsKind];

/// Every option of every player, in the order a spec is written: a new option is one row
/// here (and its field in [`PlayerSpec`]).
const OPTIONS: &[SpecOption] = &[
    option(
        "model",
        MODELS,
        field!(Text, model),
        Accepts::Name("network"),
    ),
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
    option(
        "time_game",
        MCTS,
        field!(Real, time_game),
        Accepts::Positive,
    ),
    option(
        "early_stop",
        MCTS,
        field!(Small, early_stop),
        Accepts::Switch,
    ),
    option("extend", MCTS, field!(Small, extend), Accepts::Switch),
    option("c", SEARCHES, field!(Real, c), Accepts::NonNegative),
    option("c_log", MCTS, field!(Real, c_log), Accepts::NonNegative),
    option("solver", MCTS, field!(Small, solver), Accepts::Empties),
    option("exact", MCTS, field!(Small, exact), Accepts::Empties),
    option("prove", MCTS, field!(Small, prove), Accepts::Empties),
    option(
        "prove_parts",
        MCTS,
        field!(Small, prove_parts),
        Accepts::Range(1, 64),
    ),
    option(
        "prove_part",
        MCTS,
        field!(Small, prove_part),
        Accepts::Range(0, 63),
    ),
    option("best", MCTS, field!(Small, best), Accepts::Switch),
    option("noise", MCTS, field!(Real, noise), Accepts::NonNegative),
    option("gumbel", MCTS, field!(Small, gumbel), Accepts::Range(0, 64)),
    option("cscale", MCTS, field!(Real, cscale), Accepts::NonNegative),
    option("utility", MCTS, field!(Real, utility), Accepts::NonNegative),
    option("sym", NETWORKS, field!(Small, sym), Accepts::Range(1, 8)),
    option("ptemp", NETWORKS, field!(Real, ptemp), Accepts::NonNegative),
    option(
        "playouts",
        MCTS,
        field!(Small, playouts),
        Accepts::Range(1, 1000),
    ),
    option(
        "leaf_depth",
        MCTS,
        field!(Small, leaf_depth),
        Accepts::Range(1, 8),
    ),
    option(
        "probcut",
        &[AlphaBeta],
        field!(Real, probcut),
        Accepts::NonNegative,
    ),
    option("book", MCTS, field!(Text, book), Accepts::Name("book")),
    option(
        "book_random",
        MCTS,
        field!(Real, book_random),
        Accepts::NonNegative,
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
            Accepts::Positive => match value.parse::<f64>() {
                Ok(x) if x.is_finite() && x > 0.0 => Ok(Parsed::Real(x)),
                _ => Err("expected a number above 0".into()),
            },
            Accepts::Switch => match value {
                "0" => Ok(Parsed::Whole(0)),
                "1" => Ok(Parsed::Whole(1)),
                _ => Err("expected 0 (off) or 1 (on)".into()),
            },
            Accepts::Name(what) if value.is_empty() => {
                Err(format!("expected the name of a {what}"))
            }
            Accepts::Name(_) => Ok(Parsed::Text(value.to_owned())),
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

impl PlayerKind {
    /// The options this kind of player takes, in the order a spec is written.
    pub fn options(self) -> Vec<&'static str> {
        OPTIONS
            .iter()
            .filter(|o| o.kinds.contains(&self))
            .map(|o| o.name)
            .collect()
    }
}

impl PlayerSpec {
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
        if let Some(part) = spec.prove_part {
            let parts = spec.prove_parts.unwrap_or(1);
            if part >= parts {
                return Err(SpecError::BadValue {
                    player: name,
                    option: "prove_part".into(),
                    value: part.to_string(),
                    reason: format!("expected a part below prove_parts ({parts})"),
                });
            }
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
