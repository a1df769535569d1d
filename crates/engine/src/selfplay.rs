//! Self-play for training: many games at once on several threads, each thread batching
//! the network calls of all its games into one, writing the `.npz` format of DESIGN.md.

use crate::evaluator::{encode_planes, EvalError, Evaluator};
use crate::mcts::{MctsConfig, SearchTree};
use crate::npz::{write_npz, NpyArray, NpyData};
use crate::Rng;
use othello::{BoardSize, Color, Move, Outcome, Position, Variant};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

#[derive(Clone, Debug, Serialize)]
pub struct SelfPlayConfig {
    #[serde(skip)]
    pub size: BoardSize,
    #[serde(skip)]
    pub variant: Variant,
    pub games: usize,
    /// Simulations of a full search: the searches whose visits become policy targets.
    pub simulations: u64,
    /// Playout cap randomisation (KataGo): when set, a move gets a full search only with
    /// probability `full_search_share` and otherwise a fast one of this many simulations,
    /// without root noise and not recorded. Games get cheaper, so more results reach the
    /// value head for the same compute, while every policy target still comes from a full
    /// search.
    pub fast_simulations: Option<u64>,
    pub full_search_share: f32,
    pub threads: usize,
    /// Games each thread plays at once; their leaves share one evaluator call.
    pub games_per_thread: usize,
    /// Moves are drawn in proportion to visits for this many plies, then the most
    /// visited is played.
    pub temperature_plies: u32,
    #[serde(skip)]
    pub mcts: MctsConfig,
    pub seed: u64,
}

impl SelfPlayConfig {
    /// AlphaZero-like defaults for a board: root noise on, temperature for the opening.
    pub fn new(
        size: BoardSize,
        variant: Variant,
        games: usize,
        simulations: u64,
        seed: u64,
    ) -> Self {
        SelfPlayConfig {
            size,
            variant,
            games,
            simulations,
            fast_simulations: None,
            full_search_share: 0.25,
            threads: 1,
            games_per_thread: 16,
            temperature_plies: if size == BoardSize::Eight { 16 } else { 8 },
            mcts: MctsConfig {
                dirichlet_alpha: if size == BoardSize::Eight { 0.3 } else { 0.5 },
                dirichlet_fraction: 0.25,
                batch_size: 8,
                ..MctsConfig::default()
            },
            seed,
        }
    }
}

/// One training position: the network input, the search's visit distribution, and whose
/// turn it was (the outcome is filled in from that side's view when the game ends).
#[derive(Clone, Debug)]
pub struct Sample {
    pub planes: Vec<u8>,
    pub policy: Vec<f32>,
    pub side: Color,
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    pub index: usize,
    pub start: Position,
    pub moves: Vec<Move>,
    pub samples: Vec<Sample>,
    pub outcome: Outcome,
}

struct GameInProgress {
    index: usize,
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    samples: Vec<Sample>,
    tree: SearchTree,
    rng: Rng,
    sims_this_move: u64,
    /// The budget of the search for the current move, and whether it is a full one.
    budget: u64,
    full_search: bool,
    noised: bool,
}

impl GameInProgress {
    fn new(index: usize, config: &SelfPlayConfig) -> GameInProgress {
        let seed = config.seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let start = Position::start(config.size, config.variant);
        let mut tree = SearchTree::new(MctsConfig {
            seed,
            ..config.mcts.clone()
        });
        tree.set_root(&start);
        let mut game = GameInProgress {
            index,
            start,
            pos: start,
            moves: Vec::new(),
            samples: Vec::new(),
            tree,
            rng: Rng::new(seed.rotate_left(17)),
            sims_this_move: 0,
            budget: config.simulations,
            full_search: true,
            noised: false,
        };
        game.choose_search(config);
        game
    }

    /// Draws whether the next move gets a full search or a fast one.
    fn choose_search(&mut self, config: &SelfPlayConfig) {
        (self.full_search, self.budget) = match config.fast_simulations {
            Some(fast) if self.rng.unit() >= config.full_search_share as f64 => (false, fast),
            _ => (true, config.simulations),
        };
    }

    /// Plays moves that need no search (passes, single replies), then reports whether the
    /// game is over.
    fn skip_forced(&mut self, config: &SelfPlayConfig) -> bool {
        while !self.pos.is_game_over() {
            let moves = self.pos.legal_move_list();
            if moves.len() > 1 {
                return false;
            }
            self.play(moves[0], config);
        }
        true
    }

    fn play(&mut self, mv: Move, config: &SelfPlayConfig) {
        self.pos = self.pos.play_unchecked(mv);
        self.moves.push(mv);
        self.tree.set_root(&self.pos);
        self.sims_this_move = 0;
        self.noised = false;
        self.choose_search(config);
    }

    /// After a search round: records the position and plays a move once the budget is spent.
    fn maybe_move(&mut self, config: &SelfPlayConfig) {
        if self.tree.root_is_leaf() {
            return;
        }
        if !self.noised {
            // Fast searches play their best move: noise would only weaken them.
            if self.full_search {
                self.tree.add_root_noise();
            }
            self.noised = true;
        }
        if self.sims_this_move < self.budget && !self.tree.root_is_proven() {
            return;
        }
        let info = self.tree.info(self.sims_this_move, Duration::ZERO);
        let size = self.pos.size();
        let mut policy = vec![0.0f32; size.squares() as usize + 1];
        let total: u32 = info.moves.iter().map(|m| m.visits).sum();
        for m in &info.moves {
            policy[m.mv.policy_index(size)] = m.visits as f32 / total.max(1) as f32;
        }
        if total == 0 {
            // A proven root before any child visit: the proven move is the target.
            if let Some(best) = info.best_move() {
                policy[best.policy_index(size)] = 1.0;
            }
        }
        if self.full_search {
            let mut planes = Vec::new();
            encode_planes(&self.pos, &mut planes);
            self.samples.push(Sample {
                planes: planes.into_iter().map(|x| x as u8).collect(),
                policy,
                side: self.pos.side_to_move(),
            });
        }
        let temperature = if (self.moves.len() as u32) < config.temperature_plies {
            1.0
        } else {
            0.0
        };
        let mv = info
            .sample_move(temperature, &mut self.rng)
            .or_else(|| self.pos.legal_move_list().first().copied())
            .unwrap_or(Move::Pass);
        self.play(mv, config);
    }

    fn finish(self) -> GameRecord {
        GameRecord {
            index: self.index,
            start: self.start,
            moves: self.moves,
            samples: self.samples,
            outcome: self.pos.count(),
        }
    }
}

/// Plays `config.games` games. `make_evaluator` builds one evaluator per thread;
/// `progress` hears the number of finished games after each one.
pub fn run_selfplay(
    config: &SelfPlayConfig,
    make_evaluator: &(dyn Fn() -> Result<Box<dyn Evaluator>, EvalError> + Sync),
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<GameRecord>, EvalError> {
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let records = Mutex::new(Vec::new());
    let threads = config.threads.clamp(1, config.games.max(1));
    let results: Vec<Result<(), EvalError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| -> Result<(), EvalError> {
                    let mut evaluator = make_evaluator()?;
                    let mut games: Vec<GameInProgress> = Vec::new();
                    loop {
                        while games.len() < config.games_per_thread.max(1) {
                            let index = next.fetch_add(1, Ordering::Relaxed);
                            if index >= config.games {
                                break;
                            }
                            games.push(GameInProgress::new(index, config));
                        }
                        // Finished games leave; the rest each contribute leaves to one batch.
                        let mut still_playing = Vec::with_capacity(games.len());
                        for mut game in games.drain(..) {
                            if game.skip_forced(config) {
                                let record = game.finish();
                                if let Ok(mut all) = records.lock() {
                                    all.push(record);
                                }
                                progress(finished.fetch_add(1, Ordering::Relaxed) + 1);
                            } else {
                                still_playing.push(game);
                            }
                        }
                        games = still_playing;
                        if games.is_empty() {
                            if next.load(Ordering::Relaxed) >= config.games {
                                return Ok(());
                            }
                            continue;
                        }
                        let batches: Vec<_> = games
                            .iter_mut()
                            .map(|g| {
                                let want = (g.budget - g.sims_this_move.min(g.budget))
                                    .clamp(1, config.mcts.batch_size as u64);
                                g.tree.collect(want as usize)
                            })
                            .collect();
                        let positions: Vec<Position> = batches
                            .iter()
                            .flat_map(|b| b.positions.iter().copied())
                            .collect();
                        let mut evaluations = if positions.is_empty() {
                            Vec::new()
                        } else {
                            evaluator.evaluate(&positions)?
                        };
                        for (game, batch) in games.iter_mut().zip(batches).rev() {
                            let mine =
                                evaluations.split_off(evaluations.len() - batch.positions.len());
                            game.sims_this_move += game.tree.complete(batch, Ok(mine))?;
                        }
                        for game in games.iter_mut() {
                            game.maybe_move(config);
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(EvalError::Failed("a self-play thread panicked".into()))
                })
            })
            .collect()
    });
    for result in results {
        result?;
    }
    let mut records = records.into_inner().unwrap_or_default();
    records.sort_by_key(|r| r.index);
    Ok(records)
}

/// Counts of a batch of games, for the sidecar and the progress line.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Tally {
    pub black_wins: usize,
    pub white_wins: usize,
    pub draws: usize,
}

pub fn tally(records: &[GameRecord]) -> Tally {
    let mut t = Tally::default();
    for r in records {
        match r.outcome.winner() {
            Some(Color::Black) => t.black_wins += 1,
            Some(Color::White) => t.white_wins += 1,
            None => t.draws += 1,
        }
    }
    t
}

#[derive(Serialize)]
struct Sidecar<'a> {
    model: &'a str,
    board_size: u8,
    variant: &'a str,
    settings: &'a SelfPlayConfig,
    c_puct: f32,
    dirichlet_alpha: f32,
    dirichlet_fraction: f32,
    batch_size: usize,
    seed: u64,
    games: usize,
    positions: usize,
    results: Tally,
    transcripts: Vec<String>,
    created_by: String,
}

/// Writes `<dir>/<name>.npz` and `<dir>/<name>.json`; refuses to overwrite either.
pub fn write_selfplay(
    dir: &Path,
    name: &str,
    config: &SelfPlayConfig,
    model: &str,
    records: &[GameRecord],
) -> std::io::Result<PathBuf> {
    let npz_path = dir.join(format!("{name}.npz"));
    let json_path = dir.join(format!("{name}.json"));
    for path in [&npz_path, &json_path] {
        if path.exists() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!("{} exists; self-play never overwrites data", path.display()),
            ));
        }
    }
    std::fs::create_dir_all(dir)?;
    let n = config.size.n() as usize;
    let mut planes = Vec::new();
    let mut policy = Vec::new();
    let mut value = Vec::new();
    let mut score = Vec::new();
    for record in records {
        for sample in &record.samples {
            planes.extend_from_slice(&sample.planes);
            policy.extend_from_slice(&sample.policy);
            let margin = record.outcome.margin_for(sample.side);
            value.push(margin.signum() as f32);
            score.push(margin as f32);
        }
    }
    let count = value.len();
    let arrays = [
        NpyArray {
            name: "planes",
            shape: vec![count, 4, n, n],
            data: NpyData::U8(&planes),
        },
        NpyArray {
            name: "policy",
            shape: vec![count, n * n + 1],
            data: NpyData::F32(&policy),
        },
        NpyArray {
            name: "value",
            shape: vec![count],
            data: NpyData::F32(&value),
        },
        NpyArray {
            name: "score",
            shape: vec![count],
            data: NpyData::F32(&score),
        },
    ];
    // Write to a temporary name and rename, so a killed run never leaves half a file.
    let tmp = dir.join(format!(".{name}.npz.partial"));
    {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        write_npz(&mut file, &arrays)?;
        std::io::Write::flush(&mut file)?;
    }
    let sidecar = Sidecar {
        model,
        board_size: config.size.n(),
        variant: config.variant.name(),
        settings: config,
        c_puct: config.mcts.c_puct,
        dirichlet_alpha: config.mcts.dirichlet_alpha,
        dirichlet_fraction: config.mcts.dirichlet_fraction,
        batch_size: config.mcts.batch_size,
        seed: config.seed,
        games: records.len(),
        positions: count,
        results: tally(records),
        transcripts: records
            .iter()
            .map(|r| r.moves.iter().map(|m| m.to_string()).collect())
            .collect(),
        created_by: format!("othello selfplay {}", env!("CARGO_PKG_VERSION")),
    };
    let json = serde_json::to_string_pretty(&sidecar).map_err(std::io::Error::other)?;
    std::fs::write(&json_path, json)?;
    std::fs::rename(&tmp, &npz_path)?;
    Ok(npz_path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HeuristicEvaluator;
    use othello::Game;

    fn heuristic() -> Result<Box<dyn Evaluator>, EvalError> {
        Ok(Box::new(HeuristicEvaluator::new(1, 1)))
    }

    fn small(games: usize, threads: usize) -> SelfPlayConfig {
        let mut config = SelfPlayConfig::new(BoardSize::Six, Variant::Standard, games, 24, 3);
        config.threads = threads;
        config.games_per_thread = 3;
        config
    }

    #[test]
    fn self_play_games_are_legal_complete_and_carry_valid_targets() {
        let config = small(5, 2);
        let records = run_selfplay(&config, &heuristic, &|_| {}).expect("plays");
        assert_eq!(records.len(), 5);
        let indices: Vec<usize> = records.iter().map(|r| r.index).collect();
        assert_eq!(indices, [0, 1, 2, 3, 4]);
        for record in &records {
            let transcript: String = record.moves.iter().map(|m| m.to_string()).collect();
            let game = Game::from_transcript(&transcript, record.start).expect("legal");
            assert!(game.position().is_game_over());
            assert_eq!(game.position().count(), record.outcome);
            assert!(!record.samples.is_empty());
            for sample in &record.samples {
                assert_eq!(sample.planes.len(), 4 * 36);
                assert!((sample.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
                // The target only puts weight on legal moves (plane 2), or the pass.
                for (i, p) in sample.policy.iter().enumerate().take(36) {
                    if *p > 0.0 {
                        assert_eq!(sample.planes[2 * 36 + i], 1);
                    }
                }
            }
        }
    }

    /// Positions of a game where the side to move had a choice: the ones that get a search.
    fn decisions(record: &GameRecord) -> usize {
        let mut pos = record.start;
        let mut count = 0;
        for mv in &record.moves {
            count += usize::from(pos.legal_move_list().len() > 1);
            pos = pos.play(*mv).expect("legal");
        }
        count
    }

    #[test]
    fn every_searched_position_is_a_sample_without_playout_caps() {
        let records = run_selfplay(&small(4, 1), &heuristic, &|_| {}).expect("plays");
        for record in &records {
            assert_eq!(record.samples.len(), decisions(record));
        }
    }

    #[test]
    fn with_playout_caps_only_the_full_searches_become_samples() {
        let mut config = small(8, 2);
        config.fast_simulations = Some(4);
        config.full_search_share = 0.25;
        let records = run_selfplay(&config, &heuristic, &|_| {}).expect("plays");
        let samples: usize = records.iter().map(|r| r.samples.len()).sum();
        let searched: usize = records.iter().map(decisions).sum();
        let share = samples as f64 / searched as f64;
        // About a quarter of some 150 decisions: far from both 0 and 1.
        assert!((0.12..0.40).contains(&share), "{samples} of {searched}");
        for record in &records {
            let transcript: String = record.moves.iter().map(|m| m.to_string()).collect();
            let game = Game::from_transcript(&transcript, record.start).expect("legal");
            assert!(game.position().is_game_over());
        }
    }

    #[test]
    fn the_first_plies_vary_between_games() {
        let records = run_selfplay(&small(6, 1), &heuristic, &|_| {}).expect("plays");
        let openings: std::collections::HashSet<Vec<Move>> =
            records.iter().map(|r| r.moves[..4].to_vec()).collect();
        assert!(openings.len() > 1);
    }

    #[test]
    fn the_files_hold_one_row_per_sample_and_never_overwrite() {
        let config = small(2, 1);
        let records = run_selfplay(&config, &heuristic, &|_| {}).expect("plays");
        let dir = std::env::temp_dir().join(format!("selfplay-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = write_selfplay(&dir, "batch", &config, "none", &records).expect("writes");
        let bytes = std::fs::read(&path).expect("reads");
        let samples: usize = records.iter().map(|r| r.samples.len()).sum();
        let text = std::fs::read_to_string(dir.join("batch.json")).expect("sidecar");
        let sidecar: serde_json::Value = serde_json::from_str(&text).expect("json");
        assert_eq!(sidecar["positions"], samples);
        assert_eq!(sidecar["games"], 2);
        assert!(String::from_utf8_lossy(&bytes).contains(&format!("'shape': ({samples}, 4, 6, 6)")));
        let again = write_selfplay(&dir, "batch", &config, "none", &records);
        assert!(again.is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_evaluator_that_cannot_be_built_stops_self_play_with_its_error() {
        let broken = || -> Result<Box<dyn Evaluator>, EvalError> {
            Err(EvalError::Failed("no model".into()))
        };
        let err = run_selfplay(&small(2, 2), &broken, &|_| {}).expect_err("fails");
        assert!(err.to_string().contains("no model"));
    }
}
