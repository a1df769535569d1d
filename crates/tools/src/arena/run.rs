//! Playing a match: games from a shared queue on several threads, each finished game kept
//! in the journal, and a sequential test that stops the match once it has decided.

use super::{
    openings, pair_stats, ArenaConfig, ArenaError, ArenaReport, GameJob, GameRecord, Hypothesis,
    Journal, Opening, Sprt, SprtReport,
};
use engine::ModelSource;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// How many games a thread may run ahead of the first unfinished game in a sequential
/// match.
const SPRT_WINDOW: usize = 4;

/// Where a match stands, after each game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchProgress {
    pub done: usize,
    pub total: usize,
    /// With a sequential test: the log-likelihood ratio over the pairs complete so far, in
    /// schedule order, and the test's bounds.
    pub llr: Option<(f64, f64, f64)>,
}

/// Plays the whole tournament on `threads` threads (at least one), calling `progress`
/// with (games done, total) after each game. The result is the same for any thread count.
pub fn run_arena(
    config: &ArenaConfig,
    threads: usize,
    models: &dyn ModelSource,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<ArenaReport, ArenaError> {
    run_match(config, threads, models, None, &|p| {
        progress(p.done, p.total);
    })
}

/// The state shared by the threads of a match.
struct Board {
    /// One slot a game of the schedule, filled as games end (or from the journal).
    slots: Vec<Option<GameRecord>>,
    /// The sequential test's decision: the verdict and the pairs it took.
    decided: Option<(Hypothesis, u32)>,
    /// How many pairs of the complete prefix the test has read, one prefix at a time.
    read_pairs: u32,
}

/// Plays a match on `concurrency` threads: every game of the schedule, or with a
/// sequential test until it accepts a hypothesis. With a journal, the games it already
/// holds are not played again and every new game is added to it as it ends.
///
/// The test reads the pairs in schedule order, over the longest run of complete pairs
/// from the first, so its verdict and the pair it came at do not depend on the number of
/// threads; games already under way when it decides are finished and kept.
pub fn run_match(
    config: &ArenaConfig,
    concurrency: usize,
    models: &dyn ModelSource,
    journal: Option<(&Journal, Vec<(usize, GameRecord)>)>,
    progress: &(dyn Fn(MatchProgress) + Sync),
) -> Result<ArenaReport, ArenaError> {
    config.check(models)?;
    let openings = openings::for_arena(config)?;
    let jobs = config.schedule();
    let total = jobs.len();
    let mut slots: Vec<Option<GameRecord>> = vec![None; total];
    let (journal, done_before) = match journal {
        Some((journal, done)) => (Some(journal), done),
        None => (None, Vec::new()),
    };
    for (job, game) in done_before {
        if let Some(slot) = slots.get_mut(job) {
            *slot = Some(game);
        }
    }
    let threads = concurrency.clamp(1, total.max(1));
    let shared = Match {
        config,
        threads,
        openings: &openings,
        jobs: &jobs,
        models,
        journal,
        progress,
        board: Mutex::new(Board {
            slots,
            decided: None,
            read_pairs: 0,
        }),
        stop: AtomicBool::new(false),
        next: AtomicUsize::new(0),
        failure: Mutex::new(None),
    };
    {
        let mut b = lock(&shared.board);
        shared.decide(&mut b);
        shared.stop.store(b.decided.is_some(), Ordering::SeqCst);
    }
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| shared.work());
        }
    });
    if let Some(error) = shared
        .failure
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        return Err(error);
    }
    let board = shared
        .board
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let sprt = config.sprt.map(|test| {
        let complete = complete_pairs(&board.slots);
        let llr = prefix_llr(&test, &board.slots, config.players.len(), complete);
        let (lower, upper) = test.bounds();
        SprtReport {
            test,
            llr,
            lower,
            upper,
            verdict: board.decided.map(|(v, _)| v),
            pairs_at_verdict: board.decided.map(|(_, pairs)| pairs),
        }
    });
    let games = board.slots.into_iter().flatten().collect();
    let mut report = ArenaReport::new(config, &openings, games)?;
    report.sprt = sprt;
    Ok(report)
}

/// A match under way, shared by its threads: what to play, the games so far, and the
/// flags that end it.
struct Match<'a> {
    config: &'a ArenaConfig,
    openings: &'a [Opening],
    jobs: &'a [GameJob],
    models: &'a dyn ModelSource,
    journal: Option<&'a Journal>,
    progress: &'a (dyn Fn(MatchProgress) + Sync),
    /// How many threads play.
    threads: usize,
    board: Mutex<Board>,
    /// Set once the test has decided or a game failed: no thread starts another game.
    stop: AtomicBool,
    /// The schedule's next game to hand out.
    next: AtomicUsize,
    /// The first error, which ends the match.
    failure: Mutex<Option<ArenaError>>,
}

impl Match<'_> {
    /// Runs the sequential test (when the match has one) over the games so far, keeping
    /// its first verdict; the log-likelihood ratio and the test's bounds. The test reads
    /// every prefix of pairs in turn, also when one game completes several pairs at once
    /// (games end out of order on several threads), so its verdict comes at the first pair
    /// that crosses a bound, whatever the number of threads.
    fn decide(&self, board: &mut Board) -> Option<(f64, f64, f64)> {
        let test = self.config.sprt?;
        let players = self.config.players.len();
        let complete = complete_pairs(&board.slots);
        while board.decided.is_none() && board.read_pairs < complete {
            board.read_pairs += 1;
            let llr = prefix_llr(&test, &board.slots, players, board.read_pairs);
            if let Some(verdict) = test.verdict(llr) {
                board.decided = Some((verdict, board.read_pairs));
            }
        }
        let llr = prefix_llr(&test, &board.slots, players, complete);
        let (lower, upper) = test.bounds();
        Some((llr, lower, upper))
    }

    /// One thread: takes the schedule's next game not played yet, plays it, journals it
    /// and adds it to the board, until the schedule is done or the match is stopped.
    fn work(&self) {
        loop {
            if self.stop.load(Ordering::SeqCst) {
                break;
            }
            let index = self.next.fetch_add(1, Ordering::SeqCst);
            let Some(job) = self.jobs.get(index) else {
                break;
            };
            if !self.wait_for_window(index) {
                break;
            }
            if lock(&self.board).slots[index].is_some() {
                continue;
            }
            let game = match self.play(index, job) {
                Ok(game) => game,
                Err(error) => {
                    self.stop.store(true, Ordering::SeqCst);
                    lock(&self.failure).get_or_insert(error);
                    break;
                }
            };
            let mut b = lock(&self.board);
            b.slots[index] = Some(game);
            let llr = self.decide(&mut b);
            if b.decided.is_some() {
                self.stop.store(true, Ordering::SeqCst);
            }
            let done = b.slots.iter().filter(|s| s.is_some()).count();
            drop(b);
            (self.progress)(MatchProgress {
                done,
                total: self.jobs.len(),
                llr,
            });
        }
    }

    /// With a sequential test, waits until game `index` is at most `SPRT_WINDOW` games a
    /// thread ahead of the first unfinished game (the test reads complete pairs in order,
    /// so games far ahead of it could only be played past its verdict); false once the
    /// match is stopped. This bounds the games played beyond the verdict, whatever the
    /// threads' timing.
    fn wait_for_window(&self, index: usize) -> bool {
        if self.config.sprt.is_none() {
            return true;
        }
        let window = SPRT_WINDOW * self.threads;
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return false;
            }
            let first_unfinished = lock(&self.board)
                .slots
                .iter()
                .position(Option::is_none)
                .unwrap_or(usize::MAX);
            if index < first_unfinished.saturating_add(window) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Plays game `index` of the schedule and writes it to the journal.
    fn play(&self, index: usize, job: &GameJob) -> Result<GameRecord, ArenaError> {
        let game = super::play_game(self.config, self.openings, job, self.models)?;
        if let Some(journal) = self.journal {
            journal.record(index, &game)?;
        }
        Ok(game)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// How many pairs from the schedule's first game are complete (two players: pair k is
/// games 2k and 2k+1).
fn complete_pairs(slots: &[Option<GameRecord>]) -> u32 {
    let games = slots.iter().take_while(|s| s.is_some()).count();
    u32::try_from(games / 2).unwrap_or(u32::MAX)
}

/// The log-likelihood ratio over the schedule's first `pairs` pairs, all complete.
fn prefix_llr(test: &Sprt, slots: &[Option<GameRecord>], players: usize, pairs: u32) -> f64 {
    let games: Vec<GameRecord> = slots
        .iter()
        .take(2 * pairs as usize)
        .flatten()
        .cloned()
        .collect();
    let stats = pair_stats(players, &games);
    let pentanomial = stats.first().map(|s| s.pentanomial).unwrap_or_default();
    pentanomial.llr(test.elo0, test.elo1)
}
