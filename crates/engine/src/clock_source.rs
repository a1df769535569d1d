//! The clock a move's thinking reads (its deadline, its time left, the search's slices):
//! web-time's `Instant`, since std's panics on wasm32. In this crate's own tests a thread
//! may run on a virtual clock instead ([`virtual_time::run`]), which moves only when the
//! test's evaluator says so: a test of the time policy (a search that stops early, a
//! game's clock shared out over the moves) then decides on what the search did, the same
//! on a loaded machine as on an idle one.

#[cfg(not(test))]
pub use web_time::Instant;

#[cfg(test)]
pub use virtual_time::Instant;

#[cfg(test)]
pub mod virtual_time {
    use crate::evaluator::{EvalError, Evaluation, Evaluator};
    use othello::Position;
    use std::cell::Cell;
    use std::sync::OnceLock;
    use std::time::Duration;

    thread_local! {
        /// This thread's virtual time since its start, while a test runs on one.
        static NOW: Cell<Option<Duration>> = const { Cell::new(None) };
    }

    /// A point in time: on the virtual clock where the thread has one, else on the real
    /// clock (as time since the process first asked).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(Duration);

    impl Instant {
        pub fn now() -> Instant {
            static EPOCH: OnceLock<web_time::Instant> = OnceLock::new();
            let real = || EPOCH.get_or_init(web_time::Instant::now).elapsed();
            Instant(NOW.with(Cell::get).unwrap_or_else(real))
        }

        pub fn elapsed(&self) -> Duration {
            Instant::now().0.saturating_sub(self.0)
        }
    }

    impl std::ops::Add<Duration> for Instant {
        type Output = Instant;

        fn add(self, by: Duration) -> Instant {
            Instant(self.0 + by)
        }
    }

    /// Runs `f` with this thread on a virtual clock that starts at zero and moves only by
    /// [`advance`] (a [`Ticking`] evaluator's calls).
    pub fn run<T>(f: impl FnOnce() -> T) -> T {
        NOW.with(|now| now.set(Some(Duration::ZERO)));
        let out = f();
        NOW.with(|now| now.set(None));
        out
    }

    /// Moves this thread's virtual clock on by `by` (nothing without one).
    pub fn advance(by: Duration) {
        NOW.with(|now| now.set(now.get().map(|t| t + by)));
    }

    /// An evaluator whose every position costs `per_position` of virtual time: a search's
    /// time is then a count of its evaluations.
    #[derive(Debug)]
    pub struct Ticking<E> {
        pub inner: E,
        pub per_position: Duration,
    }

    impl<E: Evaluator> Evaluator for Ticking<E> {
        fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
            advance(self.per_position * positions.len() as u32);
            self.inner.evaluate(positions)
        }

        fn describe(&self) -> String {
            self.inner.describe()
        }
    }
}
