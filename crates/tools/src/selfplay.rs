//! Self-play for training: many games at once on several threads, each thread batching
//! the network calls of all its games into one, writing the `.npz` format of DESIGN.md.
//! The search settings come from the caller's player spec ([`PlayerSpec::mcts_config`]),
//! with self-play's root noise added, so self-play searches as the arena's agent does.
//!
//! [`PlayerSpec::mcts_config`]: engine::PlayerSpec::mcts_config

use crate::arrays::{write_npz, Column};
use engine::evaluator::{EvalError, Evaluator};
use engine::mcts::{default_exact_root_empties, MctsConfig, SearchTree};
use engine::network::encode_planes;
use engine::{Rng, Solver};
use ndarray::{ArrayViewD, IxDyn};
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
    /// Set when the games are against an older network (a milestone), named here for the
    /// sidecar: the learner plays Black in even-numbered games and White in odd ones, and
    /// only its moves become samples. The opponent searches with the full budget, no noise.
    pub opponent: Option<String>,
    /// Positions with at most this many empties are played by the exact solver (the
    /// largest margin) instead of searched, so every game's result, and so every value,
    /// score and ownership target, is exact from there on, and the rest of the game costs
    /// no network call. `None`: where the agent's root solve starts
    /// ([`default_exact_root_empties`]: 16 on 8x8, 18 on 6x6); `Some(0)`: never.
    pub exact_empties: Option<u32>,
    /// More positions per game (OLIVAW, Norelli and Panconesi 2022): after each recorded
    /// full search, the root moves not played that took at least this share of its visits
    /// also become samples, with the search's value and margin as their targets (the game's
    /// result says nothing of a line not played) and no ownership target. `None`: off.
    pub explored_share: Option<f32>,
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
    /// AlphaZero-like defaults for a board: the search of `mcts` with self-play's root
    /// noise, temperature for the opening.
    pub fn new(
        size: BoardSize,
        variant: Variant,
        games: usize,
        simulations: u64,
        mcts: MctsConfig,
        seed: u64,
    ) -> Self {
        SelfPlayConfig {
            size,
            variant,
            games,
            simulations,
            fast_simulations: None,
            full_search_share: 0.25,
            opponent: None,
            exact_empties: None,
            explored_share: None,
            threads: 1,
            games_per_thread: 16,
            temperature_plies: if size == BoardSize::Eight { 16 } else { 8 },
            mcts: mcts.with_self_play_noise(size),
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
    /// For a position the search explored but the game did not play: the search's value
    /// and expected margin (discs) from `side`'s view, instead of the game's result.
    pub searched: Option<(f32, f32)>,
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    pub index: usize,
    pub start: Position,
    /// The final position, whose discs are the ownership targets.
    pub end: Position,
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
    /// The learner's tree.
    tree: SearchTree,
    /// The milestone opponent's colour and tree, in games against one.
    opponent: Option<(Color, SearchTree)>,
    /// Made on the first exact move.
    solver: Option<Solver>,
    rng: Rng,
    sims_this_move: u64,
    /// The budget of the search for the current move, and whether it is a full one.
    budget: u64,
    full_search: bool,
    noised: bool,
}

impl GameInProgress {
    fn new(index: usize, config: &SelfPlayConfig, against_opponent: bool) -> GameInProgress {
        let seed = config.seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let start = Position::start(config.size, config.variant);
        let mut tree = SearchTree::new(MctsConfig {
            seed,
            ..config.mcts.clone()
        });
        tree.set_root(&start);
        let opponent = against_opponent.then(|| {
            let mut tree = SearchTree::new(MctsConfig {
                seed: seed.rotate_left(29),
                dirichlet_alpha: 0.0,
                ..config.mcts.clone()
            });
            tree.set_root(&start);
            let learner = if index.is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            };
            (learner.opposite(), tree)
        });
        let mut game = GameInProgress {
            index,
            start,
            pos: start,
            moves: Vec::new(),
            samples: Vec::new(),
            tree,
            opponent,
            solver: None,
            rng: Rng::new(seed.rotate_left(17)),
            sims_this_move: 0,
            budget: config.simulations,
            full_search: true,
            noised: false,
        };
        game.choose_search(config);
        game
    }

    /// Draws whether the next move gets a full search or a fast one. The opponent's moves
    /// are never recorded and always get the full budget.
    fn choose_search(&mut self, config: &SelfPlayConfig) {
        (self.full_search, self.budget) = match config.fast_simulations {
            _ if self.opponent_to_move() => (false, config.simulations),
            Some(fast) if self.rng.unit() >= config.full_search_share as f64 => (false, fast),
            _ => (true, config.simulations),
        };
    }

    fn opponent_to_move(&self) -> bool {
        self.opponent
            .as_ref()
            .is_some_and(|(color, _)| *color == self.pos.side_to_move())
    }

    /// The tree of whoever is to move.
    fn active_tree(&mut self) -> &mut SearchTree {
        let opponent_moves = self.opponent_to_move();
        match &mut self.opponent {
            Some((_, tree)) if opponent_moves => tree,
            _ => &mut self.tree,
        }
    }

    /// Plays moves that need no search (passes, single replies, and the exact solver's
    /// moves near the end), then reports whether the game is over.
    fn skip_forced(&mut self, config: &SelfPlayConfig) -> bool {
        let exact = config
            .exact_empties
            .unwrap_or_else(|| default_exact_root_empties(config.size));
        while !self.pos.is_game_over() {
            let moves = self.pos.legal_move_list();
            if moves.len() == 1 {
                self.play(moves[0], config);
                continue;
            }
            if self.pos.empty_count() > exact {
                return false;
            }
            // 2^18 entries, as the agent's root solver: one solver serves the rest of the
            // game, and its table keeps what the first (largest) solve learnt.
            let solver = self
                .solver
                .get_or_insert_with(|| Solver::with_table_bits(18));
            let best = solver.solve(&self.pos).best.unwrap_or(moves[0]);
            if self.full_search && !self.opponent_to_move() {
                let mut policy = vec![0.0f32; self.pos.size().squares() as usize + 1];
                policy[best.policy_index(self.pos.size())] = 1.0;
                self.record(policy);
            }
            self.play(best, config);
        }
        true
    }

    /// Keeps the position to move as a training sample with this policy target.
    fn record(&mut self, policy: Vec<f32>) {
        let pos = self.pos;
        self.samples.push(sample(&pos, policy, None));
    }

    /// Keeps the root moves the search explored but `played` is not, as samples with the
    /// search's targets.
    fn record_explored(&mut self, played: Move, share: f32) {
        let size = self.pos.size();
        for explored in self.tree.explored_positions(played, share) {
            let mut policy = vec![0.0f32; size.squares() as usize + 1];
            for (mv, p) in &explored.policy {
                policy[mv.policy_index(size)] = *p;
            }
            // Without a margin estimate (a network without a score head), the value's
            // sign stands in for the score target, which such a network does not learn.
            let margin = explored.margin.unwrap_or(explored.value.signum());
            let searched = Some((explored.value, margin));
            self.samples
                .push(sample(&explored.position, policy, searched));
        }
    }

    fn play(&mut self, mv: Move, config: &SelfPlayConfig) {
        self.pos = self.pos.play_unchecked(mv);
        self.moves.push(mv);
        // A Gumbel root plans its visits from zero (as mctx does); the evaluation cache
        // keeps the re-expansion free.
        let gumbel = config.mcts.gumbel.is_some();
        for tree in std::iter::once(&mut self.tree).chain(self.opponent.as_mut().map(|o| &mut o.1))
        {
            if gumbel {
                tree.clear();
            }
            tree.set_root(&self.pos);
        }
        self.sims_this_move = 0;
        self.noised = false;
        self.choose_search(config);
    }

    /// After a search round: records the position and plays a move once the budget is spent.
    fn maybe_move(&mut self, config: &SelfPlayConfig) {
        if self.active_tree().root_is_leaf() {
            return;
        }
        if !self.noised {
            // Fast searches play their best move: noise would only weaken them, except in
            // the opening, where every move is drawn to vary the games (for a Gumbel root
            // its noise is that draw).
            let opening = (self.moves.len() as u32) < config.temperature_plies;
            if self.full_search || opening {
                self.tree.add_root_noise();
            }
            let left = self.budget.saturating_sub(self.sims_this_move);
            self.active_tree().plan_root(Some(left));
            self.noised = true;
        }
        let sims = self.sims_this_move;
        if sims < self.budget && !self.active_tree().root_is_proven() {
            return;
        }
        let info = self.active_tree().info(sims, Duration::ZERO);
        let size = self.pos.size();
        let mut policy = vec![0.0f32; size.squares() as usize + 1];
        // The visit distribution, or a Gumbel root's improved policy.
        for m in &info.moves {
            policy[m.mv.policy_index(size)] = m.target;
        }
        if policy.iter().sum::<f32>() <= 0.0 {
            // A proven root before any child visit: the proven move is the target.
            if let Some(best) = info.best_move() {
                policy[best.policy_index(size)] = 1.0;
            }
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
        if self.full_search && !self.opponent_to_move() {
            self.record(policy);
            if let Some(share) = config.explored_share {
                self.record_explored(mv, share);
            }
        }
        self.play(mv, config);
    }

    fn finish(self) -> GameRecord {
        GameRecord {
            index: self.index,
            start: self.start,
            end: self.pos,
            moves: self.moves,
            samples: self.samples,
            outcome: self.pos.count(),
        }
    }
}

fn sample(pos: &Position, policy: Vec<f32>, searched: Option<(f32, f32)>) -> Sample {
    let mut planes = Vec::new();
    encode_planes(pos, &mut planes);
    Sample {
        planes: planes.into_iter().map(|x| x as u8).collect(),
        policy,
        side: pos.side_to_move(),
        searched,
    }
}

/// Builds one evaluator for a self-play thread.
pub type MakeEvaluator<'a> = &'a (dyn Fn() -> Result<Box<dyn Evaluator>, EvalError> + Sync);

/// Plays `config.games` games. `make_evaluator` builds one evaluator per thread, and
/// `make_opponent` one for the milestone opponent when the games are against one;
/// `progress` hears the number of finished games after each one.
pub fn run_selfplay(
    config: &SelfPlayConfig,
    make_evaluator: MakeEvaluator,
    make_opponent: Option<MakeEvaluator>,
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
                    let mut opponent = make_opponent.map(|make| make()).transpose()?;
                    let mut games: Vec<GameInProgress> = Vec::new();
                    loop {
                        while games.len() < config.games_per_thread.max(1) {
                            let index = next.fetch_add(1, Ordering::Relaxed);
                            if index >= config.games {
                                break;
                            }
                            games.push(GameInProgress::new(index, config, opponent.is_some()));
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
                        // Each game's side to move contributes leaves; the learner's and the
                        // opponent's go to their own evaluator in one call each.
                        let batches: Vec<_> = games
                            .iter_mut()
                            .map(|g| {
                                let want = (g.budget - g.sims_this_move.min(g.budget))
                                    .clamp(1, config.mcts.batch_size as u64);
                                (g.opponent_to_move(), g.active_tree().collect(want as usize))
                            })
                            .collect();
                        let positions = |of_opponent: bool| -> Vec<Position> {
                            batches
                                .iter()
                                .filter(|(o, _)| *o == of_opponent)
                                .flat_map(|(_, b)| b.positions.iter().copied())
                                .collect()
                        };
                        let evaluate = |evaluator: &mut dyn Evaluator, positions: Vec<Position>| {
                            if positions.is_empty() {
                                Ok(Vec::new())
                            } else {
                                evaluator.evaluate(&positions)
                            }
                        };
                        let mut learner_evals =
                            evaluate(evaluator.as_mut(), positions(false))?.into_iter();
                        let mut opponent_evals = match opponent.as_mut() {
                            Some(o) => evaluate(o.as_mut(), positions(true))?,
                            None => Vec::new(),
                        }
                        .into_iter();
                        for (game, (of_opponent, batch)) in games.iter_mut().zip(batches) {
                            let source = if of_opponent {
                                &mut opponent_evals
                            } else {
                                &mut learner_evals
                            };
                            let mine: Vec<_> =
                                source.by_ref().take(batch.positions.len()).collect();
                            game.sims_this_move += game.active_tree().complete(batch, Ok(mine))?;
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

/// Who owns each square at the end, row-major from a1, from `side`'s view: 1 its disc, -1
/// the opponent's, 0 empty (KataGo's ownership target).
fn owners(end: &Position, side: Color) -> impl Iterator<Item = i8> + '_ {
    othello::Square::all(end.size()).map(move |sq| match end.color_at(sq) {
        Some(color) if color == side => 1,
        Some(_) => -1,
        None => 0,
    })
}

fn view<'a, T>(data: &'a [T], shape: &[usize]) -> Result<ArrayViewD<'a, T>, ndarray::ShapeError> {
    ArrayViewD::from_shape(IxDyn(shape), data)
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
    let mut ownership = Vec::new();
    let mut has_ownership = Vec::new();
    for record in records {
        for sample in &record.samples {
            planes.extend_from_slice(&sample.planes);
            policy.extend_from_slice(&sample.policy);
            match sample.searched {
                Some((searched_value, margin)) => {
                    value.push(searched_value.clamp(-1.0, 1.0));
                    score.push(margin);
                    // The game's final discs are not this line's.
                    ownership.extend(std::iter::repeat_n(0i8, n * n));
                    has_ownership.push(0u8);
                }
                None => {
                    let margin = record.outcome.margin_for(sample.side);
                    value.push(margin.signum() as f32);
                    score.push(margin as f32);
                    ownership.extend(owners(&record.end, sample.side));
                    has_ownership.push(1u8);
                }
            }
        }
    }
    let count = value.len();
    let shape_error = |e: ndarray::ShapeError| std::io::Error::other(e.to_string());
    let arrays = [
        (
            "planes",
            Column::U8(view(&planes, &[count, 4, n, n]).map_err(shape_error)?),
        ),
        (
            "policy",
            Column::F32(view(&policy, &[count, n * n + 1]).map_err(shape_error)?),
        ),
        (
            "value",
            Column::F32(view(&value, &[count]).map_err(shape_error)?),
        ),
        (
            "score",
            Column::F32(view(&score, &[count]).map_err(shape_error)?),
        ),
        (
            "ownership",
            Column::I8(view(&ownership, &[count, n, n]).map_err(shape_error)?),
        ),
        (
            "has_ownership",
            Column::U8(view(&has_ownership, &[count]).map_err(shape_error)?),
        ),
    ];
    // Write to a temporary name and rename, so a killed run never leaves half a file.
    let tmp = dir.join(format!(".{name}.npz.partial"));
    write_npz(&tmp, &arrays).map_err(std::io::Error::other)?;
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
    use engine::{Evaluation, PlayoutEvaluator};
    use othello::Game;

    fn heuristic() -> Result<Box<dyn Evaluator>, EvalError> {
        Ok(Box::new(PlayoutEvaluator::new(1, 1)))
    }

    fn small(games: usize, threads: usize) -> SelfPlayConfig {
        let mut config = SelfPlayConfig::new(
            BoardSize::Six,
            Variant::Standard,
            games,
            24,
            MctsConfig::default(),
            3,
        );
        config.threads = threads;
        config.games_per_thread = 3;
        config
    }

    #[test]
    fn self_play_games_are_legal_complete_and_carry_valid_targets() {
        let config = small(5, 2);
        let records = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
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
    fn near_the_end_both_sides_play_the_exact_solver_s_moves() {
        let records = run_selfplay(&small(4, 2), &heuristic, None, &|_| {}).expect("plays");
        let exact = default_exact_root_empties(BoardSize::Six);
        let mut solver = Solver::new();
        for record in &records {
            let mut pos = record.start;
            let mut samples = record.samples.iter();
            let mut solved_margin = None;
            for mv in &record.moves {
                let choice = pos.legal_move_list().len() > 1;
                if choice && pos.empty_count() <= exact {
                    // From here on the result is exact: the final margin is the solver's.
                    solved_margin
                        .get_or_insert_with(|| (pos.side_to_move(), solver.solve(&pos).margin));
                    let sample = samples.clone().next().expect("recorded");
                    assert_eq!(sample.policy[mv.policy_index(pos.size())], 1.0);
                }
                if choice {
                    samples.next();
                }
                pos = pos.play(*mv).expect("legal");
            }
            let (side, margin) = solved_margin.expect("every 6x6 game reaches 14 empties");
            assert_eq!(record.outcome.margin_for(side), margin);
        }
    }

    #[test]
    fn with_a_gumbel_root_the_targets_are_improved_policies_over_every_legal_move() {
        let mut config = small(4, 2);
        config.mcts = MctsConfig {
            gumbel: Some(engine::mcts::GumbelRoot::new(4)),
            ..MctsConfig::default()
        }
        .with_self_play_noise(BoardSize::Six);
        assert_eq!(config.mcts.dirichlet_alpha, 0.0);
        let records = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
        let exact = default_exact_root_empties(BoardSize::Six);
        let mut searched = 0;
        for record in &records {
            let transcript: String = record.moves.iter().map(|m| m.to_string()).collect();
            let game = Game::from_transcript(&transcript, record.start).expect("legal");
            assert!(game.position().is_game_over());
            for sample in &record.samples {
                assert!((sample.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
                let legal = sample.planes[2 * 36..3 * 36]
                    .iter()
                    .filter(|&&p| p == 1)
                    .count();
                let discs = sample.planes[..72].iter().filter(|&&p| p == 1).count() as u32;
                let empties = 36 - discs;
                if empties > exact {
                    // Searched: every legal move keeps some weight, unlike visit counts.
                    let weighted = sample.policy[..36].iter().filter(|&&p| p > 0.0).count();
                    assert_eq!(weighted, legal, "{:?}", sample.policy);
                    searched += 1;
                }
            }
        }
        assert!(searched > 20, "{searched}");
    }

    #[test]
    fn ownership_targets_are_the_final_discs_from_the_sample_s_side() {
        let config = small(3, 1);
        let records = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
        let dir = std::env::temp_dir().join(format!("selfplay-owners-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = write_selfplay(&dir, "batch", &config, "none", &records).expect("writes");
        let mut npz = crate::arrays::NpzFile::open(&path).expect("opens");
        let ownership = npz.array::<i8>("ownership").expect("ownership");
        let score = npz.array::<f32>("score").expect("score");
        let samples: usize = records.iter().map(|r| r.samples.len()).sum();
        assert_eq!(ownership.shape(), [samples, 6, 6]);
        for (i, margin) in score.iter().enumerate() {
            let row = ownership.index_axis(ndarray::Axis(0), i);
            assert!(row.iter().all(|v| (-1..=1).contains(v)));
            // Standard rules: the disc difference, with the empties to the winner.
            let diff: i32 = row.iter().map(|&v| v as i32).sum();
            let empties = row.iter().filter(|&&v| v == 0).count() as i32;
            assert_eq!(*margin as i32, diff + diff.signum() * empties);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn every_searched_position_is_a_sample_without_playout_caps() {
        let records = run_selfplay(&small(4, 1), &heuristic, None, &|_| {}).expect("plays");
        for record in &records {
            assert_eq!(record.samples.len(), decisions(record));
        }
    }

    #[test]
    fn with_playout_caps_only_the_full_searches_become_samples() {
        let mut config = small(8, 2);
        config.fast_simulations = Some(4);
        config.full_search_share = 0.25;
        let records = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
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

    /// Uniform priors, even values, and a count of the positions it was asked about.
    struct Counting(std::sync::Arc<AtomicUsize>);

    impl Evaluator for Counting {
        fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
            self.0.fetch_add(positions.len(), Ordering::Relaxed);
            Ok(positions
                .iter()
                .map(|p| {
                    let n = p.legal_move_list().len();
                    Evaluation {
                        priors: vec![1.0 / n as f32; n],
                        value: 0.0,
                        score: None,
                    }
                })
                .collect())
        }

        fn describe(&self) -> String {
            "counting".into()
        }
    }

    #[test]
    fn against_a_milestone_only_the_learner_s_moves_become_samples() {
        let learner_calls = std::sync::Arc::new(AtomicUsize::new(0));
        let opponent_calls = std::sync::Arc::new(AtomicUsize::new(0));
        let learner = |count: &std::sync::Arc<AtomicUsize>| {
            let count = count.clone();
            move || -> Result<Box<dyn Evaluator>, EvalError> {
                Ok(Box::new(Counting(count.clone())))
            }
        };
        let make_learner = learner(&learner_calls);
        let make_opponent = learner(&opponent_calls);
        let mut config = small(4, 2);
        config.opponent = Some("older.onnx".into());
        let records =
            run_selfplay(&config, &make_learner, Some(&make_opponent), &|_| {}).expect("plays");
        assert_eq!(records.len(), 4);
        for record in &records {
            let learner = if record.index.is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            };
            assert!(!record.samples.is_empty());
            assert!(
                record.samples.iter().all(|s| s.side == learner),
                "game {}",
                record.index
            );
            let game = Game::from_transcript(
                &record
                    .moves
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<String>(),
                record.start,
            )
            .expect("legal");
            assert!(game.position().is_game_over());
        }
        assert!(learner_calls.load(Ordering::Relaxed) > 0);
        assert!(opponent_calls.load(Ordering::Relaxed) > 0);
    }

    #[test]
    fn the_first_plies_vary_between_games() {
        let records = run_selfplay(&small(6, 1), &heuristic, None, &|_| {}).expect("plays");
        let openings: std::collections::HashSet<Vec<Move>> =
            records.iter().map(|r| r.moves[..4].to_vec()).collect();
        assert!(openings.len() > 1);
    }

    #[test]
    fn explored_positions_add_samples_with_search_targets_and_no_ownership() {
        let plain = small(2, 1);
        let explored = SelfPlayConfig {
            explored_share: Some(0.2),
            ..plain.clone()
        };
        let before = run_selfplay(&plain, &heuristic, None, &|_| {}).expect("plays");
        let after = run_selfplay(&explored, &heuristic, None, &|_| {}).expect("plays");
        let mut added = 0;
        for (b, a) in before.iter().zip(&after) {
            // The same games: recording more positions changes no move.
            assert_eq!(a.moves, b.moves);
            let played: Vec<&Sample> = a.samples.iter().filter(|s| s.searched.is_none()).collect();
            assert_eq!(played.len(), b.samples.len());
            for (x, y) in played.iter().zip(&b.samples) {
                assert_eq!((&x.planes, &x.policy), (&y.planes, &y.policy));
            }
            added += a.samples.len() - played.len();
        }
        assert!(added > 0, "no position was explored enough");
        let dir = std::env::temp_dir().join(format!("selfplay-explored-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = write_selfplay(&dir, "batch", &explored, "none", &after).expect("writes");
        let mut npz = crate::arrays::NpzFile::open(&path).expect("opens");
        let has_ownership = npz.array::<u8>("has_ownership").expect("has_ownership");
        let value = npz.array::<f32>("value").expect("value");
        let policy = npz.array::<f32>("policy").expect("policy");
        let planes = npz.array::<u8>("planes").expect("planes");
        let searched: Vec<bool> = after
            .iter()
            .flat_map(|r| r.samples.iter().map(|s| s.searched.is_some()))
            .collect();
        assert_eq!(has_ownership.len(), searched.len());
        for (i, &from_search) in searched.iter().enumerate() {
            assert_eq!(has_ownership[i], u8::from(!from_search));
            assert!(value[i].abs() <= 1.0);
            if from_search {
                // The policy target lies on the position's legal moves (plane 2) and
                // sums to one.
                let row = policy.index_axis(ndarray::Axis(0), i);
                let legal = planes.index_axis(ndarray::Axis(0), i);
                let legal: Vec<u8> = legal
                    .index_axis(ndarray::Axis(0), 2)
                    .iter()
                    .copied()
                    .collect();
                let any_legal = legal.contains(&1);
                for (square, p) in row.iter().take(36).enumerate() {
                    assert!(*p == 0.0 || legal[square] == 1, "row {i} square {square}");
                }
                assert!(any_legal || row[36] > 0.0);
                assert!((row.sum() - 1.0).abs() < 1e-5);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_files_hold_one_row_per_sample_and_never_overwrite() {
        let config = small(2, 1);
        let records = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
        let dir = std::env::temp_dir().join(format!("selfplay-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = write_selfplay(&dir, "batch", &config, "none", &records).expect("writes");
        let samples: usize = records.iter().map(|r| r.samples.len()).sum();
        let text = std::fs::read_to_string(dir.join("batch.json")).expect("sidecar");
        let sidecar: serde_json::Value = serde_json::from_str(&text).expect("json");
        assert_eq!(sidecar["positions"], samples);
        assert_eq!(sidecar["games"], 2);
        let mut npz = crate::arrays::NpzFile::open(&path).expect("opens");
        assert_eq!(
            npz.array::<u8>("planes").expect("planes").shape(),
            [samples, 4, 6, 6]
        );
        assert_eq!(
            npz.array::<f32>("policy").expect("policy").shape(),
            [samples, 37]
        );
        for name in ["value", "score"] {
            assert_eq!(npz.array::<f32>(name).expect(name).shape(), [samples]);
        }
        let again = write_selfplay(&dir, "batch", &config, "none", &records);
        assert!(again.is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_evaluator_that_cannot_be_built_stops_self_play_with_its_error() {
        let broken = || -> Result<Box<dyn Evaluator>, EvalError> {
            Err(EvalError::Failed("no model".into()))
        };
        let err = run_selfplay(&small(2, 2), &broken, None, &|_| {}).expect_err("fails");
        assert!(err.to_string().contains("no model"));
    }
}
