//! The arena: round-robin tournaments and sequential matches between players given as
//! specs or as other programs, with Elo ratings, pentanomial statistics and the SPRT,
//! tables, JSON/CSV, GGF and an SVG heat map.
//!
//! Every pairing plays every opening twice, colours swapped: a game pair. Each game's
//! agents are seeded from (global seed, pairing, opening, colour) alone, so results do not
//! depend on the number of games played at once or the order they finish in. The pure
//! parts (specs, openings, Elo, statistics, reports) are plain functions; `game.rs` plays
//! one game, `run.rs` plays a match on threads (stopping at the SPRT's verdict), and
//! `journal.rs` keeps every finished game on disk so that a killed match resumes.
//!
//! A tournament's schedule, its games on threads, and its table and GGF records:
//!
//! ```
//! use engine::othello::{BoardSize, Variant};
//! use engine::NoModels;
//! use tools::arena::{
//!     format_table, ggf, run_arena, ArenaConfig, ArenaPlayer, MatchRules, Openings,
//! };
//!
//! let config = ArenaConfig {
//!     size: BoardSize::Four,
//!     variant: Variant::Standard,
//!     players: ArenaPlayer::parse_list("random,greedy,mcts:sims=20", &[])?,
//!     games_per_pairing: 2,
//!     seed: 1,
//!     openings: Openings::Start,
//!     rules: MatchRules::default(),
//!     sprt: None,
//! };
//! // Three pairings, one opening each, played with both colours.
//! let schedule = config.schedule();
//! assert_eq!(schedule.len(), 6);
//! assert_eq!((schedule[0].black, schedule[1].white), (0, 0));
//! // A game's seeds depend on the game alone, so any thread may play it.
//! assert_eq!(config.agent_seeds(&schedule[3]), config.agent_seeds(&schedule[3]));
//!
//! let report = run_arena(&config, 1, &NoModels, &|_, _| {})?;
//! assert_eq!(report.games.len(), 6);
//! assert!(format_table(&report).contains("mcts:sims=20"));
//! assert_eq!(ggf(&config, &report)?.lines().count(), 6);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod elo;
mod external;
mod game;
mod journal;
mod openings;
mod records;
mod refit;
mod report;
mod run;
mod stats;

pub use elo::{fit_elo, EloError, HeadToHead, Rating, ELO_PER_NAT};
pub use engine::spec::{parse_player_list, PlayerKind, PlayerSpec, SpecError};
pub use external::{EngineCommand, EngineDefinitionError, EngineFault, ExternalPlayer, Protocol};
pub use game::play_game;
pub use journal::{Journal, JournalError};
pub use openings::{
    generate_openings, generate_openings_of, read_openings, Opening, Openings, OpeningsError,
    MAX_PLIES, MIN_PLIES,
};
pub use records::ggf;
pub use refit::{rate, NamedRating, RatedGame, RatingAnswer, RatingRequest, RefitError};
pub use report::{csv, format_table, heat_map_svg};
pub use run::{run_arena, run_match, MatchProgress};
pub use stats::{
    elo_of_score, expected_score, EloEstimate, Hypothesis, Pentanomial, Sprt, SprtError,
};

use engine::rng::splitmix64 as mix;
use engine::ModelSource;
use othello::{BoardSize, Move, Variant};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// Virtual draws of every player against the anchor, so that a player who wins or loses
/// every game still gets a finite rating.
pub const PRIOR_DRAWS: f64 = 1.0;

#[derive(Debug, Error)]
pub enum ArenaError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    #[error(transparent)]
    Elo(#[from] EloError),
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error("the opening list has {found} openings for {wanted} games a pairing; play at most {max}", max = 2 * found)]
    TooFewOpenings { wanted: usize, found: usize },
    #[error("an opening of the list is for another board or rules: {0}")]
    OpeningMismatch(String),
    #[error("an arena needs at least two players")]
    TooFewPlayers,
    #[error("a sequential test (--sprt) is a match of two players, not {0}")]
    SprtPlayers(usize),
    #[error("games per pairing must be a positive even number (each opening is played with both colours), not {0}")]
    OddGames(usize),
    #[error("player '{player}' played the illegal move {mv} in {position}")]
    IllegalMove {
        player: String,
        mv: Move,
        position: String,
    },
    #[error("the engine '{name}' cannot be run: {program} is not a file or a program on the PATH")]
    NoProgram { name: String, program: String },
}

/// A player of the arena: one of ours, built from its spec for every game, or another
/// program.
// A match holds a few players, copied once a game: their size costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum ArenaPlayer {
    Spec(PlayerSpec),
    Engine(EngineCommand),
}

impl fmt::Display for ArenaPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaPlayer::Spec(spec) => spec.fmt(f),
            ArenaPlayer::Engine(engine) => engine.fmt(f),
        }
    }
}

impl From<PlayerSpec> for ArenaPlayer {
    fn from(spec: PlayerSpec) -> ArenaPlayer {
        ArenaPlayer::Spec(spec)
    }
}

impl ArenaPlayer {
    /// The players of a `--players` list, where a piece that names one of `engines` is
    /// that program and every other piece is a spec, split as [`parse_player_list`] splits.
    pub fn parse_list(
        text: &str,
        engines: &[EngineCommand],
    ) -> Result<Vec<ArenaPlayer>, SpecError> {
        let mut players = Vec::new();
        let mut specs = String::new();
        let flush = |specs: &mut String, players: &mut Vec<ArenaPlayer>| {
            if !specs.is_empty() {
                players.extend(parse_player_list(specs)?.into_iter().map(ArenaPlayer::Spec));
                specs.clear();
            }
            Ok::<(), SpecError>(())
        };
        for piece in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match engines.iter().find(|e| e.name == piece) {
                Some(engine) => {
                    flush(&mut specs, &mut players)?;
                    players.push(ArenaPlayer::Engine(engine.clone()));
                }
                None => {
                    if !specs.is_empty() {
                        specs.push(',');
                    }
                    specs.push_str(piece);
                }
            }
        }
        flush(&mut specs, &mut players)?;
        if players.is_empty() {
            return Err(SpecError::Empty);
        }
        for (i, player) in players.iter().enumerate() {
            if players[..i]
                .iter()
                .any(|p| p.to_string() == player.to_string())
            {
                return Err(SpecError::Repeated(player.to_string()));
            }
        }
        Ok(players)
    }

    /// The spec, for one of ours.
    pub fn spec(&self) -> Option<&PlayerSpec> {
        match self {
            ArenaPlayer::Spec(spec) => Some(spec),
            ArenaPlayer::Engine(_) => None,
        }
    }

    /// The player on a game clock of `seconds` a side: an MCTS agent that names no budget
    /// of its own gets the clock as `time_game=` (the time policy shares it out); every
    /// other player plays as its spec says, and the clock only judges it.
    pub fn on_clock(self, seconds: f64) -> ArenaPlayer {
        match self {
            ArenaPlayer::Spec(mut spec)
                if spec.kind == PlayerKind::Mcts
                    && spec.sims.is_none()
                    && spec.time_ms.is_none()
                    && spec.time_game.is_none() =>
            {
                spec.time_game = Some(seconds);
                ArenaPlayer::Spec(spec)
            }
            other => other,
        }
    }
}

/// The game clock and the patience of a match.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MatchRules {
    /// Each side's time for a whole game; `None`: no clock.
    pub clock: Option<Duration>,
    /// How far past its clock a side may go before it forfeits (the time a move takes to
    /// reach the arena).
    pub forfeit_margin: Duration,
    /// Without a clock, how long another program may take over one move before it
    /// forfeits (our own players cannot hang: they are not timed out).
    pub move_timeout: Duration,
}

impl Default for MatchRules {
    fn default() -> MatchRules {
        MatchRules {
            clock: None,
            forfeit_margin: Duration::from_millis(500),
            move_timeout: Duration::from_secs(60),
        }
    }
}

/// What to play.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    pub size: BoardSize,
    pub variant: Variant,
    pub players: Vec<ArenaPlayer>,
    /// Games per pairing: half as many openings, each played with both colours. With a
    /// sequential test, the most games the match may play.
    pub games_per_pairing: usize,
    pub seed: u64,
    /// Where games start: random openings, the initial position (for a solved board, where
    /// a random opening may already be lost for one side), or a list such as the balanced
    /// XOT-style openings.
    pub openings: Openings,
    pub rules: MatchRules,
    /// Stop as soon as this test accepts a hypothesis (a match of two players).
    pub sprt: Option<Sprt>,
}

impl ArenaConfig {
    pub fn check(&self, models: &dyn ModelSource) -> Result<(), ArenaError> {
        if self.players.len() < 2 {
            return Err(ArenaError::TooFewPlayers);
        }
        if self.games_per_pairing == 0 || self.games_per_pairing % 2 == 1 {
            return Err(ArenaError::OddGames(self.games_per_pairing));
        }
        if self.sprt.is_some() && self.players.len() != 2 {
            return Err(ArenaError::SprtPlayers(self.players.len()));
        }
        // Refuse a player that cannot be built or started before playing any game.
        for player in &self.players {
            match player {
                ArenaPlayer::Spec(spec) => spec.check_game(self.size, self.variant, models)?,
                ArenaPlayer::Engine(engine) => check_program(engine)?,
            }
        }
        Ok(())
    }

    pub fn openings_needed(&self) -> usize {
        self.games_per_pairing / 2
    }

    /// Every game of the tournament, in a fixed order.
    pub fn schedule(&self) -> Vec<GameJob> {
        let n = self.players.len();
        let mut jobs = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                for opening in 0..self.openings_needed() {
                    for (black, white) in [(a, b), (b, a)] {
                        jobs.push(GameJob {
                            black,
                            white,
                            opening,
                        });
                    }
                }
            }
        }
        jobs
    }

    /// The seeds of a game's Black and White agents: a function of the global seed, the
    /// players, the opening and the colours only.
    pub fn agent_seeds(&self, job: &GameJob) -> (u64, u64) {
        let game = mix(
            mix(mix(mix(self.seed) ^ job.black as u64) ^ job.white as u64) ^ job.opening as u64,
        );
        (mix(game ^ 1), mix(game ^ 2))
    }
}

/// Whether an engine's program is a file or a program on the PATH: a typo fails before
/// the match, not as a forfeit in every game.
fn check_program(engine: &EngineCommand) -> Result<(), ArenaError> {
    let program = std::path::Path::new(&engine.program);
    let found = if program.components().count() > 1 {
        program.is_file()
    } else {
        std::env::var_os("PATH").is_some_and(|paths| {
            std::env::split_paths(&paths).any(|dir| dir.join(program).is_file())
        })
    };
    if found {
        Ok(())
    } else {
        Err(ArenaError::NoProgram {
            name: engine.name.clone(),
            program: engine.program.clone(),
        })
    }
}

/// One game to play: player indices and the opening index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameJob {
    pub black: usize,
    pub white: usize,
    pub opening: usize,
}

/// A game a side lost by a fault rather than on the board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Forfeit {
    /// `black` or `white`.
    pub side: String,
    /// Why, in words: the program's fault, or the clock.
    pub reason: String,
    /// Lost on time (GGF's `:t`) rather than by a fault (`:r`).
    pub on_time: bool,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub black: usize,
    pub white: usize,
    pub opening: usize,
    /// Final disc margin for Black (empties to the winner); positive when Black won. A
    /// forfeit counts as the largest loss, every square to the other side, as GGF records
    /// a game lost on time.
    pub black_margin: i32,
    /// All moves from the initial position, the opening's included, passes written.
    pub transcript: String,
    /// Thinking time and move counts per side; the only part that differs between runs.
    pub black_seconds: f64,
    pub white_seconds: f64,
    pub black_moves: u32,
    pub white_moves: u32,
    /// Set when a side lost by a fault: the transcript ends where it happened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<Forfeit>,
}

/// Wins, draws and losses from one player's side, with the mean final disc margin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Points (win 1, draw 1/2) per game, 0..1.
    pub score: f64,
    pub mean_margin: f64,
}

impl Tally {
    fn add(&mut self, margin: i32) {
        let total_margin = self.mean_margin * f64::from(self.games) + f64::from(margin);
        self.games += 1;
        match margin {
            m if m > 0 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
        self.mean_margin = total_margin / f64::from(self.games);
        self.score = (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games);
    }
}

/// A game's points for Black: 1, 1/2 or 0.
fn black_points(black_margin: i32) -> f64 {
    match black_margin {
        m if m > 0 => 1.0,
        0 => 0.5,
        _ => 0.0,
    }
}

/// The game pairs of every pairing (lower index first): the two games of an opening
/// between the same two players, one with each colour. A game whose twin is missing (a
/// sequential match stopped between them) is not counted.
pub fn pair_stats(players: usize, games: &[GameRecord]) -> Vec<PairStats> {
    use std::collections::HashMap;
    let mut firsts: HashMap<(usize, usize, usize), f64> = HashMap::new();
    let mut pentanomials = vec![vec![Pentanomial::default(); players]; players];
    for g in games {
        let (low, high) = (g.black.min(g.white), g.black.max(g.white));
        let points_of_low = if g.black == low {
            black_points(g.black_margin)
        } else {
            1.0 - black_points(g.black_margin)
        };
        match firsts.remove(&(low, high, g.opening)) {
            Some(first) => pentanomials[low][high].add_pair(first, points_of_low),
            None => {
                firsts.insert((low, high, g.opening), points_of_low);
            }
        }
    }
    let mut stats = Vec::new();
    for (player, row) in pentanomials.iter().enumerate() {
        for (opponent, pentanomial) in row.iter().enumerate().skip(player + 1) {
            stats.push(PairStats {
                player,
                opponent,
                pentanomial: *pentanomial,
                elo: pentanomial.elo(),
            });
        }
    }
    stats
}

/// One player against one opponent, from the player's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairingResult {
    pub player: usize,
    pub opponent: usize,
    pub total: Tally,
    pub as_black: Tally,
    pub as_white: Tally,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerRating {
    pub player: String,
    pub elo: f64,
    pub stderr: f64,
    pub low: f64,
    pub high: f64,
    /// Over all the player's games.
    pub score: f64,
    pub games: u32,
    pub ms_per_move: f64,
}

/// Everything a tournament produced; serialised as arena.json.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArenaReport {
    pub board: u8,
    pub variant: String,
    pub seed: u64,
    pub games_per_pairing: usize,
    pub players: Vec<String>,
    pub anchor: String,
    /// How the ratings were fitted, in words, for tables and files.
    pub rating_note: String,
    pub ratings: Vec<PlayerRating>,
    /// Both directions of every pairing: (a, b) and (b, a).
    pub pairings: Vec<PairingResult>,
    /// Every pairing's game pairs (an opening with both colours), from the first player's
    /// side: the five outcomes and the Elo they give.
    pub pairs: Vec<PairStats>,
    /// The sequential test, when the match ran one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtReport>,
    /// The programs that played, as `--engine` defined them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub engines: Vec<String>,
    /// The clock each side had for a game, in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock_seconds: Option<f64>,
    pub openings: Vec<String>,
    pub games: Vec<GameRecord>,
}

/// One pairing's game pairs, from `player`'s side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairStats {
    pub player: usize,
    pub opponent: usize,
    pub pentanomial: Pentanomial,
    /// `None` before the first complete pair.
    pub elo: Option<EloEstimate>,
}

/// Where a sequential test stands.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtReport {
    pub test: Sprt,
    /// Over every complete pair of the match.
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// The hypothesis accepted, and after how many pairs; `None`: the games ran out first.
    pub verdict: Option<Hypothesis>,
    pub pairs_at_verdict: Option<u32>,
}

impl ArenaReport {
    /// From the finished games: tallies, and Elo ratings anchored at `random` if it
    /// played, else at the first player.
    pub fn new(
        config: &ArenaConfig,
        openings: &[Opening],
        games: Vec<GameRecord>,
    ) -> Result<ArenaReport, ArenaError> {
        let n = config.players.len();
        let names: Vec<String> = config.players.iter().map(ToString::to_string).collect();
        let anchor = anchor_of(config);
        let totals = Totals::of(n, &games);
        let pairs = pair_stats(n, &games);
        let fitted = fit_elo(&totals.head_to_head.with_prior(anchor, PRIOR_DRAWS), anchor)?;
        let ratings = (0..n)
            .map(|i| PlayerRating {
                player: names[i].clone(),
                elo: fitted[i].elo,
                stderr: fitted[i].stderr,
                low: fitted[i].low,
                high: fitted[i].high,
                score: totals.overall[i].score,
                games: totals.overall[i].games,
                ms_per_move: 1000.0 * totals.seconds[i] / f64::from(totals.moves[i].max(1)),
            })
            .collect();
        let rating_note = format!(
            "maximum-likelihood Elo (Bradley-Terry, draws half a win) over all games, \
             {} = 0; 95% intervals from the observed information; prior: one virtual draw \
             of every player against {}",
            names[anchor], names[anchor]
        );
        Ok(ArenaReport {
            board: config.size.n(),
            variant: config.variant.name().to_owned(),
            seed: config.seed,
            games_per_pairing: config.games_per_pairing,
            anchor: names[anchor].clone(),
            players: names,
            rating_note,
            ratings,
            pairings: totals
                .pairings
                .into_iter()
                .flatten()
                .filter(|p| p.player != p.opponent)
                .collect(),
            pairs,
            sprt: None,
            engines: config
                .players
                .iter()
                .filter_map(|p| match p {
                    ArenaPlayer::Engine(e) => Some(e.definition.clone()),
                    ArenaPlayer::Spec(_) => None,
                })
                .collect(),
            clock_seconds: config.rules.clock.map(|c| c.as_secs_f64()),
            openings: openings.iter().map(Opening::transcript).collect(),
            games,
        })
    }

    /// The results of `player` against `opponent`, if they met.
    pub fn pairing(&self, player: usize, opponent: usize) -> Option<&PairingResult> {
        self.pairings
            .iter()
            .find(|p| p.player == player && p.opponent == opponent && p.total.games > 0)
    }
}

/// The player the ratings are anchored at (Elo 0): `random` without a seed of its own if
/// it played, else any `random`, else the first player.
fn anchor_of(config: &ArenaConfig) -> usize {
    config
        .players
        .iter()
        .position(|p| {
            p.spec()
                .is_some_and(|s| s.kind == PlayerKind::Random && s.seed.is_none())
        })
        .or_else(|| {
            config
                .players
                .iter()
                .position(|p| p.spec().is_some_and(|s| s.kind == PlayerKind::Random))
        })
        .unwrap_or(0)
}

/// Every player's results over the games: against each other (for the fit and the
/// pairings' table), in all, and the time and moves it took.
struct Totals {
    head_to_head: HeadToHead,
    /// `pairings[player][opponent]`, from `player`'s side.
    pairings: Vec<Vec<PairingResult>>,
    overall: Vec<Tally>,
    seconds: Vec<f64>,
    moves: Vec<u32>,
}

impl Totals {
    fn of(n: usize, games: &[GameRecord]) -> Totals {
        let mut totals = Totals {
            head_to_head: HeadToHead::new(n),
            pairings: (0..n)
                .map(|player| {
                    (0..n)
                        .map(|opponent| PairingResult {
                            player,
                            opponent,
                            total: Tally::default(),
                            as_black: Tally::default(),
                            as_white: Tally::default(),
                        })
                        .collect()
                })
                .collect(),
            overall: vec![Tally::default(); n],
            seconds: vec![0.0; n],
            moves: vec![0u32; n],
        };
        for g in games {
            let (b, w, m) = (g.black, g.white, g.black_margin);
            totals.head_to_head.add(b, w, black_points(m));
            totals.pairings[b][w].total.add(m);
            totals.pairings[b][w].as_black.add(m);
            totals.pairings[w][b].total.add(-m);
            totals.pairings[w][b].as_white.add(-m);
            totals.overall[b].add(m);
            totals.overall[w].add(-m);
            totals.seconds[b] += g.black_seconds;
            totals.seconds[w] += g.white_seconds;
            totals.moves[b] += g.black_moves;
            totals.moves[w] += g.white_moves;
        }
        totals
    }
}

#[cfg(test)]
mod tests;
