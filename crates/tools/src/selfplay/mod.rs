//! Self-play for training: many games at once on several threads, each thread batching
//! the network calls of all its games into one, writing the `.npz` format of
//! docs/selfplay-data.md. Every move goes through the search driver
//! ([`SearchDriver`]: root decision, begin, advance, report) as the agent's do, one driver
//! per game and side, with the leaves of all a thread's games in one evaluator call. The
//! search settings come from the caller's player spec ([`PlayerSpec::mcts_config`]), with
//! self-play's root noise added, so self-play searches as the arena's agent does.
//! `write` writes the files; `tests` tests both.
//!
//! A few games with the playout search, and their files:
//!
//! ```
//! use engine::evaluator::Evaluator;
//! use engine::othello::{BoardSize, Variant};
//! use engine::{MctsConfig, PlayoutEvaluator};
//! use tools::selfplay::{run_selfplay, tally, write_selfplay, SelfPlayConfig};
//!
//! let config = SelfPlayConfig::new(
//!     BoardSize::Four,
//!     Variant::Standard,
//!     4,  // games
//!     16, // simulations a move
//!     MctsConfig::default(),
//!     3, // seed
//! );
//! // One evaluator per thread: a network's, or random playouts as here.
//! let evaluator = || -> Result<Box<dyn Evaluator>, _> { Ok(Box::new(PlayoutEvaluator::new(1, 1))) };
//! let records = run_selfplay(&config, &evaluator, None, &|_finished| {})?;
//! assert_eq!(records.len(), 4);
//! let results = tally(&records);
//! assert_eq!(results.black_wins + results.white_wins + results.draws, 4);
//! // Every move with a choice of a learner's game is a sample.
//! assert!(records.iter().all(|game| !game.samples.is_empty()));
//!
//! let dir = std::env::temp_dir().join(format!("selfplay-doc-{}", std::process::id()));
//! let npz = write_selfplay(&dir, "games", &config, "none", &records)?;
//! assert!(npz.exists() && dir.join("games.json").exists());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`PlayerSpec::mcts_config`]: engine::PlayerSpec::mcts_config

use engine::evaluator::{ChildReadout, EvalError, Evaluator, PriorSource, ValuedPriors};
use engine::mcts::{MctsConfig, RootDecision, RootSolve, SearchDriver};
use engine::network::InputPlanes;
use engine::{Budget, Rng};
use othello::{BoardSize, Color, Move, Outcome, Position, Variant};
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
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
    /// no network call. `None`: where the search's root solve starts (`mcts.root_solve`'s
    /// `exact_empties`: a player spec's `exact=`, else
    /// [`engine::mcts::default_exact_root_empties`], 16 on 8x8 and 18 on 6x6); `Some(0)`:
    /// never.
    pub exact_empties: Option<u32>,
    /// Exact labels off the solver's line: every position with at most this many
    /// empties where the search still plays (above `exact_empties`) becomes a sample, full
    /// search or fast, with the solver's move as its policy target and its solved margin as
    /// its value and score targets, and the game goes on with the searched move. Positions the network itself
    /// reaches then get exact targets too, not only those on perfect-play lines, which
    /// is where its mistakes are. `None`: off.
    pub label_empties: Option<u32>,
    /// More positions per game (OLIVAW, Norelli and Panconesi 2022): after each recorded
    /// full search, the root moves not played that took at least this share of its visits
    /// also become samples, with the search's value and margin as their targets (the game's
    /// result says nothing of a line not played) and no ownership target. `None`: off.
    pub explored_share: Option<f32>,
    /// Exploration off the agent's own lines: in each game one side, the weaker (White in
    /// even-numbered games, Black in odd ones), plays each of its searched moves with this
    /// probability as a uniformly random legal move instead (the sample keeps the search's
    /// policy target). Two copies of one agent only reach positions between equals; a
    /// person, or the accuracy test's alpha-beta at depth 2, makes lopsided ones, where a
    /// network that never saw them misjudges margins, and one side's mistakes add up to
    /// such a game where both sides' would cancel. Samples recorded before such a move take the
    /// search's value and margin as targets, since the game's result no longer tells what
    /// their position was worth (as OLIVAW's explored positions). `None`: off.
    pub random_move_share: Option<f32>,
    /// With `random_move_share`: random moves only while more than this many empties
    /// remain. A sample recorded before a random move learns the search's own estimate
    /// (a few dozen simulations: little more than the network's), so without a floor the
    /// midgame positions of these games teach the value and score heads almost nothing
    /// new; below the floor the game is played out and its result (or the solver's, from
    /// `label_empties`) labels them, in the lopsided positions the random moves made.
    /// `None`: random moves all the way to `exact_empties`.
    pub random_move_floor: Option<u32>,
    pub threads: usize,
    /// Games each thread plays at once; their leaves share one evaluator call.
    pub games_per_thread: usize,
    /// Moves are drawn in proportion to visits for this many plies, then the most
    /// visited is played.
    pub temperature_plies: u32,
    /// Where games start: each game plays one of these lines (drawn from its seed) before
    /// the first search, so that the run's games leave the one start position that noise
    /// and temperature alone diverge from slowly (Egaroucid trains on games from random
    /// openings). Empty: every game from the initial position.
    pub openings: StartLines,
    #[serde(skip)]
    pub mcts: MctsConfig,
    /// The planes each sample stores: the learner network's (its card's), so a file holds
    /// what the network saw; v1's four for the playout search. The sidecar names them.
    #[serde(skip)]
    pub inputs: InputPlanes,
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
            label_empties: None,
            explored_share: None,
            random_move_share: None,
            random_move_floor: None,
            threads: 1,
            games_per_thread: 16,
            temperature_plies: if size == BoardSize::Eight { 16 } else { 8 },
            openings: StartLines::default(),
            mcts: mcts.with_self_play_noise(size),
            inputs: InputPlanes::v1(),
            seed,
        }
    }
}

/// Opening lines for self-play's games, and what they are for the sidecar, which names the
/// list (`xot`, a file) rather than repeating its lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartLines {
    pub name: String,
    /// Each line's moves from the initial position, legal by construction (read through
    /// [`crate::arena::read_openings`]).
    pub lines: Vec<Vec<Move>>,
}

impl Serialize for StartLines {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.lines.is_empty() {
            serializer.serialize_none()
        } else {
            serializer.serialize_some(&self.name)
        }
    }
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
    /// Samples whose value targets are still to come from the game's result, with the
    /// search's value and margin for them in case a random move spoils that result
    /// (kept only while one can still come).
    result_labelled: Vec<(usize, (f32, f32))>,
    /// The learner's search (its root solver plays both sides' exact moves).
    tree: SearchDriver,
    /// The milestone opponent's colour and search, in games against one.
    opponent: Option<(Color, SearchDriver)>,
    /// The planes of the samples (`SelfPlayConfig::inputs`).
    inputs: InputPlanes,
    rng: Rng,
    /// The budget of the search for the current move, whether it is a full one, and
    /// whether it has begun.
    budget: u64,
    full_search: bool,
    searching: bool,
}

impl GameInProgress {
    /// Game `index`; `priors` are the thread's learner's and opponent's prior sources,
    /// where their evaluators split their priors off (every driver then asks for a node's
    /// priors only when a simulation first descends below it).
    fn new(
        index: usize,
        config: &SelfPlayConfig,
        against_opponent: bool,
        priors: &ThreadPriors,
    ) -> GameInProgress {
        let seed = config.seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let start = Position::start(config.size, config.variant);
        // The exact moves: always from `exact_empties` (else the search's own reach, a
        // spec's `exact=` included), never a budgeted solve beyond, so that every game's
        // ending is exact from the same point.
        let root_solve = RootSolve {
            exact_empties: config
                .exact_empties
                .or(config.mcts.root_solve.exact_empties),
            extra_empties: Some(0),
            ..config.mcts.root_solve.clone()
        };
        let mut tree = SearchDriver::new(MctsConfig {
            seed,
            root_solve,
            ..config.mcts.clone()
        });
        share_priors(&priors.learner, &mut tree);
        tree.follow(&start);
        let opponent = against_opponent.then(|| {
            let mut tree = SearchDriver::new(MctsConfig {
                seed: seed.rotate_left(29),
                dirichlet_alpha: 0.0,
                ..config.mcts.clone()
            });
            share_priors(&priors.opponent, &mut tree);
            tree.follow(&start);
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
            result_labelled: Vec::new(),
            tree,
            opponent,
            inputs: config.inputs.clone(),
            rng: Rng::new(seed.rotate_left(17)),
            budget: config.simulations,
            full_search: true,
            searching: false,
        };
        // The opening's moves are the game's, not the learner's: no search, no samples.
        if let Some(line) = Rng::new(seed.rotate_left(43)).choose(&config.openings.lines) {
            for &mv in line {
                game.play(mv, config);
            }
        }
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

    /// The search of whoever is to move.
    fn active(&mut self) -> &mut SearchDriver {
        let opponent_moves = self.opponent_to_move();
        match &mut self.opponent {
            Some((_, tree)) if opponent_moves => tree,
            _ => &mut self.tree,
        }
    }

    /// Plays the moves the driver's root decision settles (passes, single replies, and
    /// the exact solver's moves near the end), begins the search of the next move that
    /// needs one, and reports whether the game is over.
    fn skip_forced(&mut self, config: &SelfPlayConfig) -> bool {
        while !self.pos.is_game_over() {
            let pos = self.pos;
            match self.tree.decide_root(&pos, &Budget::default(), None) {
                Some(RootDecision::Forced(mv)) => self.play(mv, config),
                // Self-play gives its drivers no book: its openings come from the noise.
                Some(RootDecision::Book(choice)) => self.play(choice.mv, config),
                Some(RootDecision::Solved(solved)) => {
                    if self.full_search && !self.opponent_to_move() {
                        let margin = solved.margin as f32;
                        self.record(one_hot(pos.size(), solved.best), (margin.signum(), margin));
                    }
                    self.play(solved.best, config);
                }
                None => {
                    if !self.searching {
                        self.begin_search(config);
                    }
                    return false;
                }
            }
        }
        true
    }

    /// Begins the search of the move to play. Fast searches play their best move: noise
    /// would only weaken them, except in the opening, where every move is drawn to vary
    /// the games (for a Gumbel root its noise is that draw). The opponent never explores.
    fn begin_search(&mut self, config: &SelfPlayConfig) {
        let opening = (self.moves.len() as u32) < config.temperature_plies;
        let noise = !self.opponent_to_move() && (self.full_search || opening);
        let (pos, budget) = (self.pos, self.budget);
        self.active().begin(&pos, Some(budget), noise);
        self.searching = true;
    }

    /// Keeps the position to move as a training sample with this policy target and what
    /// its search found of it.
    fn record(&mut self, policy: Vec<f32>, search: (f32, f32)) {
        self.samples
            .push(Sample::new(&self.pos, &self.inputs, policy, None, search));
    }

    /// Keeps the position to move as a sample with exact targets: the solver's move, and
    /// the solved margin in place of the game's result (which the search's own moves may
    /// yet spoil).
    fn record_solved(&mut self) {
        let pos = self.pos;
        let solution = self.tree.solver().solve(&pos);
        let best = solution
            .best
            .or_else(|| pos.legal_move_list().first().copied())
            .unwrap_or(Move::Pass);
        let policy = one_hot(pos.size(), best);
        let margin = solution.margin as f32;
        let exact = (margin.signum(), margin);
        self.samples
            .push(Sample::new(&pos, &self.inputs, policy, Some(exact), exact));
    }

    /// Keeps the root moves the search explored but `played` is not, as samples with the
    /// search's targets.
    fn record_explored(&mut self, played: Move, share: f32) {
        let size = self.pos.size();
        for explored in self.tree.tree().explored_positions(played, share) {
            let mut policy = vec![0.0f32; size.squares() as usize + 1];
            for (mv, p) in &explored.policy {
                policy[mv.policy_index(size)] = *p;
            }
            let searched = searched_targets(explored.value, explored.margin);
            self.samples.push(Sample::new(
                &explored.position,
                &self.inputs,
                policy,
                Some(searched),
                searched,
            ));
        }
    }

    fn play(&mut self, mv: Move, config: &SelfPlayConfig) {
        self.pos = self.pos.play_unchecked(mv);
        self.moves.push(mv);
        // Both trees follow the game, so each keeps its subtree for its next move.
        for tree in std::iter::once(&mut self.tree).chain(self.opponent.as_mut().map(|o| &mut o.1))
        {
            tree.follow(&self.pos);
        }
        self.searching = false;
        self.choose_search(config);
    }

    /// After a search round: records the position and plays a move once the budget is spent.
    fn maybe_move(&mut self, config: &SelfPlayConfig) {
        let budget = self.budget;
        let search = self.active();
        if search.tree().root_is_leaf() || !search.finished(budget) {
            return;
        }
        let info = search.report(Duration::ZERO);
        let policy = search_policy(&info, self.pos.size());
        let temperature = if (self.moves.len() as u32) < config.temperature_plies {
            1.0
        } else {
            0.0
        };
        let mut mv = info
            .sample_move(temperature, &mut self.rng)
            .or_else(|| self.pos.legal_move_list().first().copied())
            .unwrap_or(Move::Pass);
        let labelled = config
            .label_empties
            .is_some_and(|label| self.pos.empty_count() <= label);
        if labelled && !self.opponent_to_move() {
            // The solver makes the target, so a fast search's position is as good a
            // sample as a full one's.
            self.record_solved();
        } else if self.full_search && !self.opponent_to_move() {
            self.record(policy, searched_targets(info.value, info.score));
            // Only a random move still to come can spoil the game's result for it.
            if self.random_share_from_here(config).is_some() {
                let index = self.samples.len() - 1;
                self.result_labelled
                    .push((index, searched_targets(info.value, info.score)));
            }
            if let Some(share) = config.explored_share {
                self.record_explored(mv, share);
            }
        }
        if let Some(random) = self.random_move(config) {
            mv = random;
            for (index, searched) in self.result_labelled.drain(..) {
                self.samples[index].searched = Some(searched);
            }
        }
        self.play(mv, config);
    }

    /// `config.random_move_share` while random moves can still come in this game: above
    /// their floor (the empties only go down).
    fn random_share_from_here(&self, config: &SelfPlayConfig) -> Option<f32> {
        let floor = config.random_move_floor.unwrap_or(0);
        config
            .random_move_share
            .filter(|_| self.pos.empty_count() > floor)
    }

    /// A uniformly random legal move in place of the weaker side's searched one, drawn
    /// with probability `config.random_move_share` above the floor.
    fn random_move(&mut self, config: &SelfPlayConfig) -> Option<Move> {
        let share = self.random_share_from_here(config)?;
        if self.pos.side_to_move() != weaker_side(self.index) || self.opponent_to_move() {
            return None;
        }
        if self.rng.unit() >= share as f64 {
            return None;
        }
        let moves = self.pos.legal_move_list();
        self.rng.choose(&moves).copied()
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

/// The side that plays random moves in game `index` (with `random_move_share`).
fn weaker_side(index: usize) -> Color {
    if index.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    }
}

/// A prior source shared by the drivers of a thread's games: an evaluator splits its
/// priors off once ([`Evaluator::split_priors_with_values`], else
/// [`Evaluator::split_priors`]), and each driver holds a handle.
#[derive(Default)]
enum SharedPriors {
    /// Priors come with each evaluation.
    #[default]
    None,
    Plain(Arc<Mutex<PriorSource>>),
    /// With the children's values, which the drivers take from there.
    Valued(Arc<Mutex<Box<dyn ValuedPriors>>>),
}

/// A thread's learner's and opponent's shared prior sources.
#[derive(Default)]
struct ThreadPriors {
    learner: SharedPriors,
    opponent: SharedPriors,
}

/// `evaluator`'s priors split off, where it makes them apart, to share among drivers.
fn split_shared(evaluator: &mut dyn Evaluator) -> SharedPriors {
    if let Some(source) = evaluator.split_priors_with_values() {
        return SharedPriors::Valued(Arc::new(Mutex::new(source)));
    }
    evaluator
        .split_priors()
        .map_or(SharedPriors::None, |source| {
            SharedPriors::Plain(Arc::new(Mutex::new(source)))
        })
}

/// Gives `driver` a handle on a thread's shared prior source.
fn share_priors(shared: &SharedPriors, driver: &mut SearchDriver) {
    match shared {
        SharedPriors::None => {}
        SharedPriors::Plain(source) => {
            let source = Arc::clone(source);
            driver.set_prior_source(Box::new(move |pos: &Position, out: &mut Vec<f32>| {
                let mut source = source.lock().unwrap_or_else(PoisonError::into_inner);
                (*source)(pos, out);
            }));
        }
        SharedPriors::Valued(source) => {
            driver.set_valued_priors(Box::new(ValuedHandle(Arc::clone(source))));
        }
    }
}

/// One driver's handle on a thread's shared [`ValuedPriors`].
struct ValuedHandle(Arc<Mutex<Box<dyn ValuedPriors>>>);

impl ValuedHandle {
    fn source(&self) -> std::sync::MutexGuard<'_, Box<dyn ValuedPriors>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl ValuedPriors for ValuedHandle {
    fn read(&mut self, pos: &Position, priors: &mut Vec<f32>, children: &mut Vec<ChildReadout>) {
        self.source().read(pos, priors, children);
    }

    fn evaluation(&self, child: ChildReadout) -> (f32, f32) {
        self.source().evaluation(child)
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
    let shared = Shared {
        config,
        next: AtomicUsize::new(0),
        finished: AtomicUsize::new(0),
        records: Mutex::new(Vec::new()),
        progress,
    };
    let threads = config.threads.clamp(1, config.games.max(1));
    let results: Vec<Result<(), EvalError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| scope.spawn(|| play_thread(&shared, make_evaluator, make_opponent)))
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
    let mut records = shared.records.into_inner().unwrap_or_default();
    records.sort_by_key(|r| r.index);
    Ok(records)
}

/// What the threads of one self-play run share: the next game to start, the finished
/// games and their count.
struct Shared<'a> {
    config: &'a SelfPlayConfig,
    next: AtomicUsize,
    finished: AtomicUsize,
    records: Mutex<Vec<GameRecord>>,
    progress: &'a (dyn Fn(usize) + Sync),
}

/// One thread: up to `games_per_thread` games at once, their leaves in one evaluator call
/// a round, until no game is left to start.
fn play_thread(
    shared: &Shared,
    make_evaluator: MakeEvaluator,
    make_opponent: Option<MakeEvaluator>,
) -> Result<(), EvalError> {
    let config = shared.config;
    let mut evaluator = make_evaluator()?;
    let mut opponent = make_opponent.map(|make| make()).transpose()?;
    // Priors only where a search descends: most leaves are never descended below.
    let priors = ThreadPriors {
        learner: split_shared(evaluator.as_mut()),
        opponent: opponent
            .as_mut()
            .map_or(SharedPriors::None, |o| split_shared(o.as_mut())),
    };
    let mut games: Vec<GameInProgress> = Vec::new();
    loop {
        while games.len() < config.games_per_thread.max(1) {
            let index = shared.next.fetch_add(1, Ordering::Relaxed);
            if index >= config.games {
                break;
            }
            games.push(GameInProgress::new(
                index,
                config,
                opponent.is_some(),
                &priors,
            ));
        }
        // Finished games leave; the rest each contribute leaves to one batch.
        let mut still_playing = Vec::with_capacity(games.len());
        for mut game in games.drain(..) {
            if game.skip_forced(config) {
                let record = game.finish();
                if let Ok(mut all) = shared.records.lock() {
                    all.push(record);
                }
                (shared.progress)(shared.finished.fetch_add(1, Ordering::Relaxed) + 1);
            } else {
                still_playing.push(game);
            }
        }
        games = still_playing;
        if games.is_empty() {
            if shared.next.load(Ordering::Relaxed) >= config.games {
                return Ok(());
            }
            continue;
        }
        search_round(&mut games, evaluator.as_mut(), opponent.as_mut())?;
        for game in &mut games {
            game.maybe_move(config);
        }
    }
}

/// One round of the driver's advance stage for every game: each game's side to move
/// collects leaves, the learner's and the opponent's go to their own evaluator in one call
/// each, and every game backs up its share.
fn search_round(
    games: &mut [GameInProgress],
    evaluator: &mut dyn Evaluator,
    opponent: Option<&mut Box<dyn Evaluator>>,
) -> Result<(), EvalError> {
    let batches: Vec<_> = games
        .iter_mut()
        .map(|g| {
            let (budget, of_opponent) = (g.budget, g.opponent_to_move());
            let search = g.active();
            let want = search.leaves_wanted(budget);
            (of_opponent, search.collect(want))
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
    let mut learner_evals = evaluate(evaluator, positions(false))?.into_iter();
    let mut opponent_evals = match opponent {
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
        let mine: Vec<_> = source.by_ref().take(batch.positions.len()).collect();
        game.active().complete(batch, Ok(mine))?;
    }
    Ok(())
}

mod sample;
mod write;
use sample::{one_hot, search_policy, searched_targets};
pub use sample::{Sample, Targets};
pub use write::{tally, write_selfplay, Tally};

#[cfg(test)]
mod prior_split_tests;
#[cfg(test)]
mod tests;
