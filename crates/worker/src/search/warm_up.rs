//! The worker's warm-up: a throwaway search with a network just loaded, run in short slices
//! while the worker has nothing else to do, so that what is slow only the first time
//! (the browser's optimising compile of the hot wasm functions, the memory the tree and the
//! caches grow into) happens while the player looks at the board rather than during the
//! agent's first move (issue 53: the first reply at Strong ran at a third of the later
//! replies' speed; docs/web.md has the measurements).

use super::{build_agent, worker_root_solve, Searcher};
use engine::{Agent, Budget, PlayerKind, PlayerSpec, Thinking};
use othello::Position;
use std::time::Duration;

/// How long the warm-up searches in all. docs/web.md has what it bought.
pub const WARM_UP: Duration = Duration::from_millis(1500);

/// The warm-up under way: its own agent (dropped after, so that no search inherits its
/// tree or caches) and its thinking.
pub struct WarmingUp {
    agent: Box<dyn Agent>,
    thinking: Thinking,
}

impl std::fmt::Debug for WarmingUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WarmingUp")
            .field("thinking", &self.thinking)
            .finish_non_exhaustive()
    }
}

impl Searcher {
    /// Starts warming up with the network loaded under `model`: an agent of the default
    /// spec searches its board's start for [`WARM_UP`], a slice at a time
    /// ([`Searcher::warm_up_more`]). A network that cannot build an agent is left cold.
    pub fn begin_warm_up(&mut self, model: &str) {
        self.warming = None;
        let Some(loaded) = self.networks.0.iter().find(|l| l.name == model) else {
            return;
        };
        let start = Position::start(loaded.size, loaded.variant);
        let spec = PlayerSpec {
            model: Some(model.to_owned()),
            ..PlayerSpec::new(PlayerKind::Mcts)
        };
        let Ok(agent) = build_agent(&spec, 0, &self.networks, worker_root_solve) else {
            return;
        };
        self.warming = Some(WarmingUp {
            agent,
            thinking: Thinking::new(start, Budget::time(WARM_UP)),
        });
    }

    /// One slice of the warm-up, unless a search or a review has come (the warm-up gives
    /// way to it at once, and ends): whether there is more to do.
    pub fn warm_up_more(&mut self, slice: Duration) -> bool {
        if self.job.is_some() || self.reviewing.is_some() {
            self.warming = None;
        }
        let Some(warming) = self.warming.as_mut() else {
            return false;
        };
        let more = warming
            .agent
            .think_more(&mut warming.thinking, slice)
            .is_ok_and(|_| !warming.thinking.is_done());
        if !more {
            self.warming = None;
        }
        more
    }

    /// Whether a warm-up is under way.
    pub fn warming_up(&self) -> bool {
        self.warming.is_some()
    }
}

#[cfg(test)]
mod tests {
    use crate::search::tests::{counting_searcher, request};
    use std::sync::atomic::Ordering;
    use std::time::Duration;

    #[test]
    fn the_warm_up_runs_the_network_until_its_time_and_gives_way_to_a_search() {
        let (mut searcher, positions) = counting_searcher();
        searcher.begin_warm_up("counting");
        assert!(searcher.warming_up());
        while searcher.warm_up_more(Duration::from_millis(50)) {}
        assert!(!searcher.warming_up());
        assert!(
            positions.load(Ordering::Relaxed) > 0,
            "the network never ran"
        );
        // A search ends it at once, and nothing of it is left behind.
        searcher.begin_warm_up("counting");
        let pos = othello::Position::start(othello::BoardSize::Six, othello::Variant::Standard);
        let ran = positions.load(Ordering::Relaxed);
        searcher
            .start(request(1, &pos, "mcts:model=counting", 10, 1))
            .expect("starts");
        assert!(!searcher.warm_up_more(Duration::from_millis(50)));
        assert!(!searcher.warming_up());
        assert_eq!(positions.load(Ordering::Relaxed), ran);
        // A network the worker does not hold warms nothing up.
        searcher.begin_warm_up("az-9x9");
        assert!(!searcher.warming_up());
    }
}
