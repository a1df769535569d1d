//! The arena: round-robin tournaments between players given as specs, with Elo ratings,
//! tables, JSON/CSV and an SVG heat map.
//!
//! Every pairing plays every opening twice, colours swapped. Each game's agents are
//! seeded from (global seed, pairing, opening, colour) alone, so results do not depend on
//! the number of threads or the order games finish in. The pure parts (specs, openings,
//! Elo, reports) are plain functions; `run_arena` plays the games on threads.

mod elo;
mod openings;
mod records;
mod refit;
mod report;

pub use elo::{fit_elo, EloError, HeadToHead, Rating, ELO_PER_NAT};
pub use engine::spec::{parse_player_list, PlayerKind, PlayerSpec, SpecError};
pub use openings::{
    generate_openings, generate_openings_of, read_openings, Opening, Openings, OpeningsError,
    MAX_PLIES, MIN_PLIES,
};
pub use records::ggf;
pub use refit::{rate, NamedRating, RatedGame, RatingAnswer, RatingRequest, RefitError};
pub use report::{csv, format_table, heat_map_svg};

use engine::rng::splitmix64 as mix;
use engine::{Agent, ModelSource};
use othello::{BoardSize, Color, Game, Move, Position, Variant};
use serde::Serialize;
use thiserror::Error;
use web_time::Instant;

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
    #[error("the opening list has {found} openings for {wanted} games a pairing; play at most {max}", max = 2 * found)]
    TooFewOpenings { wanted: usize, found: usize },
    #[error("an opening of the list is for another board or rules: {0}")]
    OpeningMismatch(String),
    #[error("an arena needs at least two players")]
    TooFewPlayers,
    #[error("games per pairing must be a positive even number (each opening is played with both colours), not {0}")]
    OddGames(usize),
    #[error("player '{player}' played the illegal move {mv} in {position}")]
    IllegalMove {
        player: String,
        mv: Move,
        position: String,
    },
}

/// What to play.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    pub size: BoardSize,
    pub variant: Variant,
    pub players: Vec<PlayerSpec>,
    /// Games per pairing: half as many openings, each played with both colours.
    pub games_per_pairing: usize,
    pub seed: u64,
    /// Where games start: random openings, the initial position (for a solved board, where
    /// a random opening may already be lost for one side), or a list such as the balanced
    /// XOT-style openings.
    pub openings: Openings,
}

impl ArenaConfig {
    pub fn check(&self, models: &dyn ModelSource) -> Result<(), ArenaError> {
        if self.players.len() < 2 {
            return Err(ArenaError::TooFewPlayers);
        }
        if self.games_per_pairing == 0 || self.games_per_pairing % 2 == 1 {
            return Err(ArenaError::OddGames(self.games_per_pairing));
        }
        // Refuse a player that cannot be built before playing any game.
        for spec in &self.players {
            spec.check_game(self.size, self.variant, models)?;
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

/// One game to play: player indices and the opening index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameJob {
    pub black: usize,
    pub white: usize,
    pub opening: usize,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRecord {
    pub black: usize,
    pub white: usize,
    pub opening: usize,
    /// Final disc margin for Black (empties to the winner); positive when Black won.
    pub black_margin: i32,
    /// All moves from the initial position, the opening's included, passes written.
    pub transcript: String,
    /// Thinking time and move counts per side; the only part that differs between runs.
    pub black_seconds: f64,
    pub white_seconds: f64,
    pub black_moves: u32,
    pub white_moves: u32,
}

/// Plays one game from `opening` between two freshly built agents.
pub fn play_game(
    config: &ArenaConfig,
    openings: &[Opening],
    job: &GameJob,
    models: &dyn ModelSource,
) -> Result<GameRecord, ArenaError> {
    let (black_seed, white_seed) = config.agent_seeds(job);
    let (mut black, black_budget) = config.players[job.black].build(black_seed, models)?;
    let (mut white, white_budget) = config.players[job.white].build(white_seed, models)?;
    black.new_game();
    white.new_game();
    let opening = &openings[job.opening];
    let mut game = Game::new(Position::start(config.size, config.variant));
    for mv in &opening.moves {
        // The opening was generated by the rules from this very start.
        let before = game.position().to_board_text();
        game.push(*mv).map_err(|_| ArenaError::IllegalMove {
            player: "opening".into(),
            mv: *mv,
            position: before,
        })?;
    }
    let mut seconds = [0.0f64; 2];
    let mut moves = [0u32; 2];
    while !game.position().is_game_over() {
        let pos = *game.position();
        let side = pos.side_to_move();
        let (agent, budget, index): (&mut Box<dyn Agent>, _, _) = match side {
            Color::Black => (&mut black, &black_budget, job.black),
            Color::White => (&mut white, &white_budget, job.white),
        };
        let clock = Instant::now();
        let mv = agent.select_move(&pos, budget);
        seconds[side as usize] += clock.elapsed().as_secs_f64();
        moves[side as usize] += 1;
        if game.push(mv).is_err() {
            return Err(ArenaError::IllegalMove {
                player: config.players[index].to_string(),
                mv,
                position: pos.to_board_text(),
            });
        }
    }
    let outcome = game.position().count();
    Ok(GameRecord {
        black: job.black,
        white: job.white,
        opening: job.opening,
        black_margin: outcome.margin_for(Color::Black),
        transcript: game.transcript(true),
        black_seconds: seconds[Color::Black as usize],
        white_seconds: seconds[Color::White as usize],
        black_moves: moves[Color::Black as usize],
        white_moves: moves[Color::White as usize],
    })
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
    pub openings: Vec<String>,
    pub games: Vec<GameRecord>,
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
        let anchor = config
            .players
            .iter()
            .position(|p| p.kind == PlayerKind::Random && p.seed.is_none())
            .or_else(|| {
                config
                    .players
                    .iter()
                    .position(|p| p.kind == PlayerKind::Random)
            })
            .unwrap_or(0);
        let mut head_to_head = HeadToHead::new(n);
        let mut pairings: Vec<Vec<PairingResult>> = (0..n)
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
            .collect();
        let mut overall = vec![Tally::default(); n];
        let mut seconds = vec![0.0; n];
        let mut moves = vec![0u32; n];
        for g in &games {
            let (b, w, m) = (g.black, g.white, g.black_margin);
            let black_points = match m {
                m if m > 0 => 1.0,
                0 => 0.5,
                _ => 0.0,
            };
            head_to_head.add(b, w, black_points);
            pairings[b][w].total.add(m);
            pairings[b][w].as_black.add(m);
            pairings[w][b].total.add(-m);
            pairings[w][b].as_white.add(-m);
            overall[b].add(m);
            overall[w].add(-m);
            seconds[b] += g.black_seconds;
            seconds[w] += g.white_seconds;
            moves[b] += g.black_moves;
            moves[w] += g.white_moves;
        }
        let fitted = fit_elo(&head_to_head.with_prior(anchor, PRIOR_DRAWS), anchor)?;
        let ratings = (0..n)
            .map(|i| PlayerRating {
                player: names[i].clone(),
                elo: fitted[i].elo,
                stderr: fitted[i].stderr,
                low: fitted[i].low,
                high: fitted[i].high,
                score: overall[i].score,
                games: overall[i].games,
                ms_per_move: 1000.0 * seconds[i] / f64::from(moves[i].max(1)),
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
            pairings: pairings
                .into_iter()
                .flatten()
                .filter(|p| p.player != p.opponent)
                .collect(),
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

/// Plays the whole tournament on `threads` threads (at least one), calling `progress`
/// with (games done, total) after each game. The result is the same for any thread count.
pub fn run_arena(
    config: &ArenaConfig,
    threads: usize,
    models: &dyn ModelSource,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<ArenaReport, ArenaError> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Mutex;

    config.check(models)?;
    let openings = openings::for_arena(config)?;
    let jobs = config.schedule();
    let total = jobs.len();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<Option<Result<GameRecord, ArenaError>>>> =
        Mutex::new((0..total).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, total.max(1)) {
            scope.spawn(|| loop {
                if failed.load(Ordering::Relaxed) {
                    break;
                }
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(index) else { break };
                let record = play_game(config, &openings, job, models);
                if record.is_err() {
                    failed.store(true, Ordering::Relaxed);
                }
                if let Ok(mut slots) = results.lock() {
                    slots[index] = Some(record);
                }
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            });
        }
    });
    let slots = results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut games = Vec::with_capacity(total);
    // A game that failed is reported; the games after it were never started.
    for slot in slots.into_iter().flatten() {
        games.push(slot?);
    }
    ArenaReport::new(config, &openings, games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::NoModels;

    fn config(players: &str, games: usize, size: BoardSize) -> ArenaConfig {
        ArenaConfig {
            size,
            variant: Variant::Standard,
            players: parse_player_list(players).expect("valid players"),
            games_per_pairing: games,
            seed: 11,
            openings: Openings::Random,
        }
    }

    #[test]
    fn from_the_start_every_game_begins_at_the_initial_position_and_games_still_differ() {
        let c = ArenaConfig {
            openings: Openings::Start,
            ..config("random,greedy", 8, BoardSize::Six)
        };
        let report = run_arena(&c, 2, &NoModels, &|_, _| {}).expect("runs");
        // Openings are reported as transcripts from the initial position: all empty here.
        assert_eq!(report.openings.len(), 4);
        assert!(
            report.openings.iter().all(String::is_empty),
            "{:?}",
            report.openings
        );
        let transcripts: std::collections::HashSet<&String> =
            report.games.iter().map(|g| &g.transcript).collect();
        assert!(
            transcripts.len() > 4,
            "{} distinct games",
            transcripts.len()
        );
    }

    /// The reproducible part of a report: everything but thinking times.
    fn outcomes(report: &ArenaReport) -> Vec<(usize, usize, usize, i32, String)> {
        report
            .games
            .iter()
            .map(|g| {
                (
                    g.black,
                    g.white,
                    g.opening,
                    g.black_margin,
                    g.transcript.clone(),
                )
            })
            .collect()
    }

    #[test]
    fn results_are_the_same_on_one_thread_and_on_two() {
        let c = config("random,novice,greedy,uct:sims=30", 6, BoardSize::Six);
        let one = run_arena(&c, 1, &NoModels, &|_, _| {}).expect("runs");
        let two = run_arena(&c, 2, &NoModels, &|_, _| {}).expect("runs");
        assert_eq!(one.games.len(), 6 * 6);
        assert_eq!(outcomes(&one), outcomes(&two));
        assert_eq!(one.pairings, two.pairings);
        let elo = |r: &ArenaReport| r.ratings.iter().map(|p| p.elo).collect::<Vec<_>>();
        assert_eq!(elo(&one), elo(&two));
        // A different seed gives different games.
        let other =
            run_arena(&ArenaConfig { seed: 12, ..c }, 2, &NoModels, &|_, _| {}).expect("runs");
        assert_ne!(outcomes(&one), outcomes(&other));
    }

    #[test]
    fn every_opening_is_played_twice_per_pairing_with_colours_swapped() {
        let c = config("random,greedy,novice", 8, BoardSize::Four);
        let report = run_arena(&c, 2, &NoModels, &|_, _| {}).expect("runs");
        assert_eq!(report.openings.len(), 4);
        for a in 0..3 {
            for b in 0..3 {
                if a == b {
                    continue;
                }
                for opening in 0..4 {
                    let count = report
                        .games
                        .iter()
                        .filter(|g| g.black == a && g.white == b && g.opening == opening)
                        .count();
                    assert_eq!(count, 1, "{a} as Black against {b}, opening {opening}");
                }
            }
        }
        for g in &report.games {
            assert!(g.transcript.starts_with(&report.openings[g.opening]));
        }
    }

    #[test]
    fn progress_counts_every_game_up_to_the_total() {
        use std::sync::Mutex;
        let seen = Mutex::new(Vec::new());
        let c = config("random,greedy", 4, BoardSize::Four);
        run_arena(&c, 2, &NoModels, &|done, total| {
            if let Ok(mut s) = seen.lock() {
                s.push((done, total));
            }
        })
        .expect("runs");
        let mut seen = seen.into_inner().expect("not poisoned");
        seen.sort();
        assert_eq!(seen, (1..=4).map(|d| (d, 4)).collect::<Vec<_>>());
    }

    #[test]
    fn tallies_add_up_from_both_sides() {
        let c = config("random,greedy,uct:sims=20", 4, BoardSize::Four);
        let openings = generate_openings(c.size, c.variant, 2, 5).expect("openings");
        let games: Vec<GameRecord> = c
            .schedule()
            .iter()
            .map(|job| play_game(&c, &openings, job, &NoModels).expect("plays"))
            .collect();
        let report = ArenaReport::new(&c, &openings, games).expect("report");
        assert_eq!(report.anchor, "random");
        assert_eq!(report.ratings[0].elo, 0.0);
        for p in &report.pairings {
            let back = report.pairing(p.opponent, p.player).expect("met");
            assert_eq!(p.total.wins, back.total.losses);
            assert_eq!(p.total.draws, back.total.draws);
            assert_eq!(p.as_black.wins, back.as_white.losses);
            assert!((p.total.mean_margin + back.total.mean_margin).abs() < 1e-9);
            assert_eq!(p.total.games, p.as_black.games + p.as_white.games);
            assert_eq!(p.as_black.games, 2);
        }
    }

    #[test]
    fn configurations_that_cannot_run_are_refused() {
        let mut c = config("random,greedy", 3, BoardSize::Six);
        assert!(matches!(c.check(&NoModels), Err(ArenaError::OddGames(3))));
        c.games_per_pairing = 0;
        assert!(matches!(c.check(&NoModels), Err(ArenaError::OddGames(0))));
        let c = config("random", 2, BoardSize::Six);
        assert!(matches!(c.check(&NoModels), Err(ArenaError::TooFewPlayers)));
        let c = config("random,alphabeta:depth=4", 2, BoardSize::Six);
        assert!(c.check(&NoModels).is_ok());
    }

    #[test]
    fn agent_seeds_depend_on_the_game_not_on_its_place_in_the_queue() {
        let c = config("random,greedy,novice", 4, BoardSize::Six);
        let jobs = c.schedule();
        let seeds: std::collections::HashSet<(u64, u64)> =
            jobs.iter().map(|j| c.agent_seeds(j)).collect();
        assert_eq!(seeds.len(), jobs.len(), "every game gets its own seeds");
        let job = GameJob {
            black: 2,
            white: 0,
            opening: 1,
        };
        assert_eq!(c.agent_seeds(&job), c.agent_seeds(&job));
        assert_ne!(
            c.agent_seeds(&job),
            c.agent_seeds(&GameJob {
                black: 0,
                white: 2,
                opening: 1
            })
        );
    }
}
