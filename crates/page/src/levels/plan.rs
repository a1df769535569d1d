//! How a search is shared among the workers: which workers take part, each one's player
//! spec, budget and seed. The pool sends the plan's jobs as they are.

use engine::mcts::self_play_noise;
use engine::rng::splitmix64;
use engine::{PlayerKind, PlayerSpec};
use othello::BoardSize;
use protocol::{EngineKind, WireBudget};

/// Below this many simulations per tree, several small trees see less than one big one,
/// so small budgets use fewer workers.
const MIN_SIMULATIONS_PER_WORKER: u64 = 100;

/// The longest the alpha-beta fallback thinks: it cannot be stopped halfway, so a new game
/// or an undo waits for it.
const ALPHABETA_MAX_MILLIS: u64 = 5000;

/// One worker's part of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerJob {
    /// Who thinks, for the engine's builder in the worker.
    pub spec: PlayerSpec,
    pub budget: WireBudget,
    /// The seed of this worker's agent (its noise and its random choices).
    pub seed: u64,
}

/// A whole search: job `i` runs on worker `i`, and the workers without a job stay idle.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchPlan {
    pub engine: EngineKind,
    pub jobs: Vec<WorkerJob>,
    /// The search's time budget, if it has one: a worker restarted halfway gets what is
    /// left of it.
    pub millis: Option<u64>,
}

impl SearchPlan {
    /// The plan for `player` searching a position on a `size` board within `budget`, on up
    /// to `workers` workers; `seed` (fresh for every search) seeds every job.
    pub fn new(
        player: &PlayerSpec,
        budget: WireBudget,
        size: BoardSize,
        workers: usize,
        seed: u64,
    ) -> SearchPlan {
        let engine = EngineKind::of(player);
        // One worker where more cannot help: the network alone is one call that another
        // worker would only repeat, and a Gumbel root plans its simulations (sequential
        // halving) for one tree, its choice not a visit count that adds up across trees.
        let one_tree = engine == EngineKind::Instinct || player.gumbel.is_some();
        let budgets = match engine {
            // The fallback is one alpha-beta search: more workers would only repeat it, and
            // it cannot be stopped halfway, so its time is capped.
            EngineKind::AlphaBeta => vec![WireBudget {
                simulations: None,
                millis: Some(alphabeta_millis(budget)),
            }],
            _ if one_tree => vec![budget],
            _ => split(budget, workers),
        };
        let workers = budgets.len();
        let jobs = budgets
            .into_iter()
            .enumerate()
            .map(|(index, budget)| WorkerJob {
                spec: root_parallel(player, size, index, workers, budget),
                budget,
                seed: splitmix64(seed ^ index as u64),
            })
            .collect();
        SearchPlan {
            engine,
            jobs,
            millis: budget.millis,
        }
    }

    /// Job `index` for a worker that replaces a dead one `elapsed_ms` into the search: the
    /// same spec and seed, and what is left of the time (at least 50 ms).
    pub fn resumed(&self, index: usize, elapsed_ms: f64) -> Option<WorkerJob> {
        let mut job = self.jobs.get(index)?.clone();
        if let Some(ms) = self.millis {
            job.budget.millis = Some((ms as f64 - elapsed_ms).max(50.0) as u64);
        }
        Some(job)
    }
}

/// Worker `index`'s spec, of `workers`: root-parallel trees must differ, so every worker
/// but the first mixes noise into its root, as self-play does. With a time budget (the
/// timed levels, whose agents prove endgames beyond the tried solve) and three workers or
/// more, the first proves the whole root as an agent alone does (the exact margin where it
/// fits, a proven win or draw played at once), and the others split the proof by the
/// root's moves instead of repeating it: each proves win, loss or draw for its share, so
/// that a win the whole proof does not reach in time is still found and played.
fn root_parallel(
    player: &PlayerSpec,
    size: BoardSize,
    index: usize,
    workers: usize,
    budget: WireBudget,
) -> PlayerSpec {
    let shares_proof =
        workers > 2 && index > 0 && budget.millis.is_some() && player.kind == PlayerKind::Mcts;
    let (prove_parts, prove_part) = match shares_proof {
        true => (Some(workers as u32 - 1), Some(index as u32 - 1)),
        false => (player.prove_parts, player.prove_part),
    };
    let noise = match index {
        0 => player.noise,
        _ => Some(f64::from(self_play_noise(size))),
    };
    PlayerSpec {
        noise,
        prove_parts,
        prove_part,
        ..player.clone()
    }
}

/// What analysis searches: exactly what a hint at the chosen level searches (the same
/// agent, its root solve and Gumbel root included, on the level's budget), so the two
/// never disagree, without the book: analysis is asked for the search's own view (a hint
/// shows the book's). It ends when the level's budget does; a longer look is a higher
/// level or a custom time.
pub fn analysis(player: &PlayerSpec, budget: WireBudget) -> (WireBudget, PlayerSpec) {
    let searched = PlayerSpec {
        book: None,
        book_random: None,
        ..player.clone()
    };
    (budget, searched)
}

/// A hint's or analysis's player: the same agent asked a question rather than for a move
/// in a game (`best=1`): a proven win is followed to its exact margin for the whole
/// budget and reported as a bound where the margin is not reached, and every search
/// starts afresh, so the same position at the same level gets the same answer whatever
/// was searched before (docs/web.md). Players without a root proof are as they are. A
/// hint from the book names the book's best move: the agent draws among moves near the best
/// (`book_random`) so that its games differ, and a hint so drawn once named c5, which its
/// own heat map showed as the book's worst (issue 68's second fresh look).
pub fn question(player: &PlayerSpec) -> PlayerSpec {
    match player.kind {
        PlayerKind::Mcts => PlayerSpec {
            best: Some(1),
            book_random: None,
            ..player.clone()
        },
        _ => PlayerSpec {
            book_random: None,
            ..player.clone()
        },
    }
}

/// Shares `budget` among up to `workers` workers: a time budget runs on all of them for the
/// same time; a simulation budget is split so that the total stays within it. Returns one
/// budget per worker that takes part (at least one).
fn split(budget: WireBudget, workers: usize) -> Vec<WireBudget> {
    let workers = workers.max(1) as u64;
    match budget.simulations {
        None => vec![budget; workers as usize],
        Some(total) => {
            let used = (total / MIN_SIMULATIONS_PER_WORKER).clamp(1, workers);
            (0..used)
                .map(|i| WireBudget {
                    simulations: Some(total / used + u64::from(i < total % used)),
                    millis: budget.millis,
                })
                .collect()
        }
    }
}

/// How many workers to start: one per core, leaving one for the page, at most four.
pub fn worker_count(hardware_concurrency: f64) -> usize {
    let cores = if hardware_concurrency.is_finite() && hardware_concurrency >= 1.0 {
        hardware_concurrency as usize
    } else {
        1
    };
    cores.saturating_sub(1).clamp(1, 4)
}

/// Budget for the alpha-beta fallback, which knows depth and time but not simulations.
pub fn alphabeta_millis(budget: WireBudget) -> u64 {
    match (budget.millis, budget.simulations) {
        (Some(ms), _) => ms.min(ALPHABETA_MAX_MILLIS),
        // About what the network search would take for these simulations here.
        (None, Some(n)) => n.saturating_mul(2).clamp(50, ALPHABETA_MAX_MILLIS),
        (None, None) => 1000,
    }
}

#[cfg(test)]
mod tests;
