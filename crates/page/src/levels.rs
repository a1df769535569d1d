//! Difficulty as a search budget, and the plan that shares a search among the workers.

use crate::format::{seconds, thousands};
use engine::{PlayerKind, PlayerSpec};
use protocol::WireBudget;
use serde::{Deserialize, Serialize};

mod plan;

pub use plan::{alphabeta_millis, analysis, question, worker_count, SearchPlan, WorkerJob};

/// A named level: a budget in simulations or in milliseconds per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub id: &'static str,
    pub label: &'static str,
    pub budget: WireBudget,
    /// A Gumbel root over this many moves (`mcts:gumbel=M`) instead of PUCT, for the
    /// small budgets, where it chooses better than visit counts do (docs/web.md has the
    /// games); at larger budgets the two are alike and PUCT's counts merge across workers.
    pub gumbel: Option<u32>,
    /// The network without search: the policy player (the policy head's first choice) or
    /// the value player (the move into the position the value head likes best), built
    /// from the same spec builder as the arena's `policy:model=..` and `value:model=..`.
    pub instinct: Option<PlayerKind>,
}

const fn sims(n: u64) -> WireBudget {
    WireBudget {
        simulations: Some(n),
        millis: None,
    }
}

const fn millis(ms: u64) -> WireBudget {
    WireBudget {
        simulations: None,
        millis: Some(ms),
    }
}

pub const LEVELS: &[Level] = &[
    // The lowest levels: what the network knows before it searches (a budget of one
    // network call; the players ignore budgets), so a person can see what search adds.
    Level {
        id: "instinct-policy",
        label: "Instinct (policy): no search, the easiest",
        budget: sims(1),
        gumbel: None,
        instinct: Some(PlayerKind::Policy),
    },
    Level {
        id: "instinct-value",
        // As easy or a little harder, by the network: the pattern network's two instincts
        // play the same moves ([`instinct_note`]).
        label: "Instinct (value): no search, as easy or a little harder",
        budget: sims(1),
        gumbel: None,
        instinct: Some(PlayerKind::Value),
    },
    Level {
        id: "beginner",
        label: "Beginner: 20 simulations",
        budget: sims(20),
        gumbel: Some(16),
        instinct: None,
    },
    Level {
        id: "casual",
        label: "Casual: 100 simulations",
        budget: sims(100),
        gumbel: Some(16),
        instinct: None,
    },
    Level {
        id: "club",
        label: "Club: 400 simulations",
        budget: sims(400),
        gumbel: None,
        instinct: None,
    },
    Level {
        id: "strong",
        label: "Strong: 1 s per move",
        budget: millis(1000),
        gumbel: None,
        instinct: None,
    },
    Level {
        id: "strongest",
        label: "Strongest: 5 s per move, the hardest",
        budget: millis(5000),
        gumbel: None,
        instinct: None,
    },
];

pub const DEFAULT_LEVEL: &str = "casual";

/// The player's choice: a named level or a budget of their own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Difficulty {
    Level(String),
    Simulations(u64),
    Millis(u64),
}

impl Default for Difficulty {
    fn default() -> Difficulty {
        Difficulty::Level(DEFAULT_LEVEL.to_owned())
    }
}

/// The custom budgets a browser tab can sensibly spend on one move. Entries outside are
/// refused with the range; older saves outside it are clamped.
pub const MIN_SIMULATIONS: u64 = 1;
pub const MAX_SIMULATIONS: u64 = 1_000_000;
pub const MIN_MILLIS: u64 = 50;
pub const MAX_MILLIS: u64 = 60_000;

/// Which custom budget the person types in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CustomKind {
    Simulations,
    Millis,
}

impl CustomKind {
    pub fn range(self) -> (u64, u64) {
        match self {
            CustomKind::Simulations => (MIN_SIMULATIONS, MAX_SIMULATIONS),
            CustomKind::Millis => (MIN_MILLIS, MAX_MILLIS),
        }
    }

    fn unit(self) -> &'static str {
        match self {
            CustomKind::Simulations => "simulations",
            CustomKind::Millis => "milliseconds",
        }
    }

    /// What the input asks for, with its range.
    pub fn prompt(self) -> String {
        let (lo, hi) = self.range();
        let mut text = format!(
            "{} per move, {} to {}",
            self.unit(),
            thousands(lo),
            thousands(hi)
        );
        if self == CustomKind::Millis {
            text.push_str(&format!(
                " ({} to {})",
                seconds(lo as f64),
                seconds(hi as f64)
            ));
        }
        text
    }

    /// The budget typed in, or why it is refused.
    pub fn parse(self, text: &str) -> Result<Difficulty, String> {
        let (lo, hi) = self.range();
        let refuse = || {
            format!(
                "Enter a whole number of {} from {} to {}.",
                self.unit(),
                thousands(lo),
                thousands(hi)
            )
        };
        let n: u64 = text
            .trim()
            .replace([',', '_'], "")
            .parse()
            .map_err(|_| refuse())?;
        if !(lo..=hi).contains(&n) {
            return Err(refuse());
        }
        Ok(match self {
            CustomKind::Simulations => Difficulty::Simulations(n),
            CustomKind::Millis => Difficulty::Millis(n),
        })
    }
}

/// The page's agent draws among book moves within this many discs of the best, so that two
/// games from the start differ at a cost no player would notice.
pub const PAGE_BOOK_RANDOM: f64 = 1.0;

impl Difficulty {
    pub fn budget(&self) -> WireBudget {
        match self {
            Difficulty::Level(_) => self.level().map_or(sims(100), |l| l.budget),
            Difficulty::Simulations(n) => sims((*n).clamp(MIN_SIMULATIONS, MAX_SIMULATIONS)),
            Difficulty::Millis(ms) => millis((*ms).clamp(MIN_MILLIS, MAX_MILLIS)),
        }
    }

    /// The named level (an unknown one, say from an older save, is the default).
    fn level(&self) -> Option<&'static Level> {
        match self {
            Difficulty::Level(id) => LEVELS
                .iter()
                .find(|l| l.id == id)
                .or_else(|| LEVELS.iter().find(|l| l.id == DEFAULT_LEVEL)),
            _ => None,
        }
    }

    /// The agent's spec for this difficulty: the level's root (Gumbel or PUCT) on a
    /// network's search, playing its opening from the page's book (8x8 standard; other
    /// boards are never in it); other players as they are.
    pub fn tune(&self, player: PlayerSpec) -> PlayerSpec {
        if player.kind != PlayerKind::Mcts {
            return player;
        }
        if let Some(kind) = self.level().and_then(|l| l.instinct) {
            // Averaged over the board's eight symmetries: one batch of eight evaluations,
            // stronger than the same network asked once (docs/web.md has the games).
            return PlayerSpec {
                model: player.model,
                sym: Some(8),
                ..PlayerSpec::new(kind)
            };
        }
        // On a clock, the pattern network's search with alpha-beta leaves goes without
        // the score utility: per simulation the utility plays better (-44 [-88, -1] Elo
        // without it at 2,000 simulations), but its deeper trees cost it the simulations
        // a second, and at Strong's second a move the search without it won +54 [+16,
        // +94] (SPRT H1 after 58 pairs; docs/midgame.md, "The score utility at equal
        // time"). So the levels counted in simulations keep it, the timed ones drop it.
        let utility = if self.budget().millis.is_some() && player.leaf_depth.is_some() {
            Some(0.0)
        } else {
            player.utility
        };
        PlayerSpec {
            gumbel: self.level().and_then(|l| l.gumbel),
            book: Some(protocol::PAGE_BOOK.to_owned()),
            book_random: Some(PAGE_BOOK_RANDOM),
            utility,
            ..player
        }
    }

    pub fn custom_kind(&self) -> Option<CustomKind> {
        match self {
            Difficulty::Level(_) => None,
            Difficulty::Simulations(_) => Some(CustomKind::Simulations),
            Difficulty::Millis(_) => Some(CustomKind::Millis),
        }
    }

    /// The level's name ("Casual"), or "Custom".
    pub fn name(&self) -> &'static str {
        match self.level() {
            Some(l) => l.label.split(':').next().unwrap_or(l.label),
            None => "Custom",
        }
    }

    pub fn describe(&self) -> String {
        match self.level().and_then(|l| l.instinct) {
            // One colon is the opponent line's own ("Opponent: the pattern-8x8 network,
            // Instinct (policy): …"): a third after "no search" read as a heading of
            // headings (issue 68).
            // In a player's words (issue 68: "the policy head's first choice averaged over
            // the board's eight symmetries" was the engine's), and short enough that the
            // header's line fits its two lines beside the title on a laptop (issue 68: a
            // longer line moved the board).
            Some(PlayerKind::Policy) => "no search, the move the network's first impression \
                 favours, from all eight turns and mirrors"
                .to_owned(),
            Some(_) => "no search, the move into the position the network likes best, from \
                        all eight turns and mirrors"
                .to_owned(),
            None => describe_budget(self.budget()),
        }
    }
}

/// The line under the level menu: which way the list runs, and how the two Instinct
/// levels compare with the network that plays this board (`model`), as measured (100
/// games between them, `sym=8`, docs/arena.md). Issue 68: it cited `az-8x8`'s 57.5% on
/// every board, where `pattern-8x8` plays 8x8 and `az-6x6` 6x6.
pub fn instinct_note(model: Option<&str>) -> String {
    let order = "The levels run from the easiest, Instinct (policy), to the hardest, Strongest.";
    let compared = match model {
        Some("pattern-8x8") => {
            "With the pattern-8x8 network the two Instinct levels play the same moves (or \
             mirror images of them, such as f5 and e6 at the start): its first impression \
             of a move is the value of the position the move leads to, so both choose the \
             move into the position it likes best (49 won, 2 drawn, 49 lost in 100 games \
             between them). The chance and discs each shows are read from the network its \
             own way, and can differ by a few points for the same move (15% against 18%, \
             say)."
        }
        Some("az-8x8") => {
            "Instinct (value) is a little harder than Instinct (policy) with the az-8x8 \
             network: it scored 57.5% against it over 100 games."
        }
        Some("az-6x6") => {
            "With the az-6x6 network the two Instinct levels are about as strong: Instinct \
             (value) scored 51% against Instinct (policy) over 100 games."
        }
        Some(_) => {
            "How the two Instinct levels compare was not measured with this network (with \
             az-8x8 Instinct (value) is a little harder)."
        }
        None => "",
    };
    format!("{order} {compared}").trim_end().to_owned()
}

/// "100 simulations per move", "0.25 s per move".
pub fn describe_budget(budget: WireBudget) -> String {
    match (budget.simulations, budget.millis) {
        (Some(n), _) => format!(
            "{} per move",
            crate::format::count(n, "simulation", "simulations")
        ),
        (None, Some(ms)) => format!("{} per move", seconds(ms as f64)),
        (None, None) => "unlimited".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_small_levels_search_with_a_gumbel_root_and_the_others_with_puct() {
        let network = PlayerSpec {
            model: Some("az-8x8".into()),
            ..PlayerSpec::new(PlayerKind::Mcts)
        };
        let gumbel = |d: Difficulty| d.tune(network.clone()).gumbel;
        assert_eq!(gumbel(Difficulty::Level("beginner".into())), Some(16));
        assert_eq!(gumbel(Difficulty::Level("casual".into())), Some(16));
        assert_eq!(gumbel(Difficulty::Level("club".into())), None);
        assert_eq!(gumbel(Difficulty::Level("strong".into())), None);
        assert_eq!(gumbel(Difficulty::Simulations(20)), None);
        let tuned = Difficulty::default().tune(network.clone());
        assert_eq!(tuned.model, network.model);
        // The alpha-beta fallback has no root to choose.
        let alphabeta = PlayerSpec::new(PlayerKind::AlphaBeta);
        assert_eq!(Difficulty::default().tune(alphabeta.clone()), alphabeta);
    }

    #[test]
    fn the_timed_levels_search_the_pattern_network_without_the_score_utility() {
        let pattern: PlayerSpec = "mcts:model=pattern-8x8,leaf_depth=2"
            .parse()
            .expect("a spec");
        let utility = |d: Difficulty, p: &PlayerSpec| d.tune(p.clone()).utility;
        assert_eq!(
            utility(Difficulty::Level("strong".into()), &pattern),
            Some(0.0)
        );
        assert_eq!(
            utility(Difficulty::Level("strongest".into()), &pattern),
            Some(0.0)
        );
        assert_eq!(utility(Difficulty::Millis(250), &pattern), Some(0.0));
        // Counted in simulations, each simulation is worth more with the utility.
        assert_eq!(utility(Difficulty::Level("club".into()), &pattern), None);
        assert_eq!(utility(Difficulty::Simulations(3000), &pattern), None);
        // A network searched without alpha-beta leaves (the residual ones, a person's
        // own) keeps its utility on a clock: the games were the pattern network's.
        let residual: PlayerSpec = "mcts:model=az-8x8".parse().expect("a spec");
        assert_eq!(utility(Difficulty::Level("strong".into()), &residual), None);
        assert_eq!(
            Difficulty::Level("strong".into()).tune(pattern).to_string(),
            format!(
                "mcts:model=pattern-8x8,utility=0,leaf_depth=2,book={},book_random=1",
                protocol::PAGE_BOOK
            )
        );
    }

    #[test]
    fn the_instinct_levels_are_the_lowest_and_play_the_network_without_search() {
        assert_eq!(LEVELS[0].id, "instinct-policy");
        assert_eq!(LEVELS[1].id, "instinct-value");
        let network: PlayerSpec = "mcts:model=az-8x8".parse().expect("a spec");
        let policy = Difficulty::Level("instinct-policy".into()).tune(network.clone());
        assert_eq!(policy.to_string(), "policy:model=az-8x8,sym=8");
        let value = Difficulty::Level("instinct-value".into()).tune(network);
        assert_eq!(value.to_string(), "value:model=az-8x8,sym=8");
        assert!(Difficulty::Level("instinct-value".into())
            .describe()
            .starts_with("no search"));
        // Without a network (alpha-beta's boards) the level changes nothing.
        let alphabeta = PlayerSpec::new(PlayerKind::AlphaBeta);
        assert_eq!(
            Difficulty::Level("instinct-policy".into()).tune(alphabeta.clone()),
            alphabeta
        );
    }

    #[test]
    fn named_levels_run_from_twenty_simulations_to_five_seconds() {
        assert_eq!(
            Difficulty::Level("beginner".into()).budget().simulations,
            Some(20)
        );
        assert_eq!(
            Difficulty::Level("strongest".into()).budget().millis,
            Some(5000)
        );
        // An unknown level (say from an older save) falls back to the default.
        assert_eq!(
            Difficulty::Level("grandmaster".into()).budget(),
            Difficulty::default().budget()
        );
    }

    #[test]
    fn custom_budgets_are_checked_and_old_saves_clamped() {
        assert_eq!(Difficulty::Simulations(0).budget().simulations, Some(1));
        assert_eq!(
            Difficulty::Millis(10_000_000).budget().millis,
            Some(MAX_MILLIS)
        );
        assert_eq!(Difficulty::Millis(250).describe(), "0.25 s per move");
        assert_eq!(Difficulty::Millis(1000).describe(), "1 s per move");
        assert_eq!(Difficulty::Millis(1500).describe(), "1.5 s per move");
        assert_eq!(
            CustomKind::Millis.parse(" 250 "),
            Ok(Difficulty::Millis(250))
        );
        let refused = CustomKind::Millis
            .parse("0")
            .expect_err("0 ms is no budget");
        assert_eq!(
            refused,
            "Enter a whole number of milliseconds from 50 to 60,000."
        );
        assert!(CustomKind::Millis.parse("999999999").is_err());
        assert!(CustomKind::Simulations.parse("lots").is_err());
        assert_eq!(
            CustomKind::Simulations.parse("1,000,000"),
            Ok(Difficulty::Simulations(1_000_000))
        );
        assert!(CustomKind::Millis.prompt().contains("(0.05 s to 60 s)"));
        assert_eq!(Difficulty::Level("club".into()).name(), "Club");
        assert_eq!(
            Difficulty::Simulations(300).describe(),
            "300 simulations per move"
        );
    }
}
