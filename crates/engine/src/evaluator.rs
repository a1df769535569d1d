//! The boundary between search and whatever judges positions: a network, a heuristic,
//! rollouts. The search sends batches of positions and gets priors and values back.

use crate::Rng;
use othello::Position;

/// What an evaluator says of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Prior probability of each move of `Position::legal_move_list()`, in that order,
    /// summing to 1 (empty for a finished game).
    pub priors: Vec<f32>,
    /// Expected outcome for the side to move, in [-1, 1].
    pub value: f32,
    /// Expected final disc difference for the side to move over the number of squares
    /// (so in [-1, 1]), when the evaluator knows one (a network with a score head).
    pub score: Option<f32>,
}

#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("the evaluator failed: {0}")]
    Failed(String),
    #[error("the model is for {expected} boards, not {found}")]
    WrongBoard { expected: String, found: String },
}

/// Probabilities from logits, summing to 1 (even where they overflow: then uniform): the
/// priors of every evaluator that scores moves by logits (networks of planes, pattern
/// networks' children).
pub fn softmax(logits: &[f32]) -> Vec<f32> {
    let mut probabilities = logits.to_vec();
    softmax_in_place(&mut probabilities);
    probabilities
}

/// [`softmax`] over the logits where they lie, with no other vector: an evaluator that
/// makes its priors for every leaf of a search allocates once.
pub fn softmax_in_place(values: &mut [f32]) {
    let max = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    for v in values.iter_mut() {
        *v = (*v - max).exp();
    }
    let sum: f32 = values.iter().sum();
    if sum > 0.0 && sum.is_finite() {
        values.iter_mut().for_each(|v| *v /= sum);
    } else {
        let uniform = 1.0 / values.len().max(1) as f32;
        values.iter_mut().for_each(|v| *v = uniform);
    }
}

pub trait Evaluator {
    /// Evaluates every position of a batch (none of them finished games).
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError>;

    /// A short description for logs and tables.
    fn describe(&self) -> String;

    /// The batch the search should send, when the evaluator knows better than the
    /// search's default: one for an evaluation that costs the same alone as in a batch
    /// (a batch then only spreads virtual losses over the tree).
    fn preferred_batch(&self) -> Option<usize> {
        None
    }

    /// Where the evaluator makes a position's priors apart from its value, and at a cost
    /// of their own (a pattern network values every child for them): a source of priors,
    /// after which this evaluator's evaluations carry no priors (empty), values only. The
    /// search then asks for a position's priors when it first descends below it, which
    /// most of its leaves never are. `None` (the default): priors come with each
    /// evaluation.
    fn split_priors(&mut self) -> Option<PriorSource> {
        None
    }

    /// [`Evaluator::split_priors`] where the priors are read from the children's own
    /// evaluations (a pattern network's): the source gives each child's reading on the
    /// way, and the search values a child it reaches from that reading with no evaluator
    /// call (the evaluator then sees the root and the children of passes only). `None`
    /// (the default): the search tries [`Evaluator::split_priors`]. An evaluator whose
    /// values are not its priors' source's (alpha-beta leaves over a pattern network)
    /// must not pass this on.
    fn split_priors_with_values(&mut self) -> Option<Box<dyn ValuedPriors>> {
        None
    }

    /// Draws what randomness the evaluator has from a stream of its seed and `salt` from
    /// here on ([`crate::Agent::restart`]); the default, for the deterministic ones, does
    /// nothing.
    fn reseed(&mut self, salt: u64) {
        let _ = salt;
    }
}

/// A position's priors, in `Position::legal_move_list`'s order, written over `out`: what
/// [`Evaluator::split_priors`] gives the search.
pub type PriorSource = Box<dyn FnMut(&Position, &mut Vec<f32>) + Send>;

/// A child's reading as a [`ValuedPriors`] source gives it: two numbers that its
/// [`ValuedPriors::evaluation`] turns into the child's evaluation when the search wants it
/// (most children never are, and a value's squashing costs as much as its reading).
pub type ChildReadout = [f32; 2];

/// The source of [`Evaluator::split_priors_with_values`].
pub trait ValuedPriors: Send {
    /// The position's priors, in `Position::legal_move_list`'s order, written over
    /// `priors`, and over `children` each child's reading in the same order, or nothing
    /// (a pass, or priors not read from the children). A move that ends the game has a
    /// reading too, which means nothing: the search scores finished games itself.
    fn read(&mut self, pos: &Position, priors: &mut Vec<f32>, children: &mut Vec<ChildReadout>);

    /// A child's value and score (for its side to move) from its reading: to the bit what
    /// the evaluator's own [`Evaluator::evaluate`] gives the child.
    fn evaluation(&self, child: ChildReadout) -> (f32, f32);
}

/// A boxed evaluator is one too, so callers can pick the runtime at run time
/// (`Mcts<Box<dyn Evaluator + Send>>`).
impl<E: Evaluator + ?Sized> Evaluator for Box<E> {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        (**self).evaluate(positions)
    }

    fn describe(&self) -> String {
        (**self).describe()
    }

    fn preferred_batch(&self) -> Option<usize> {
        (**self).preferred_batch()
    }

    fn split_priors(&mut self) -> Option<PriorSource> {
        (**self).split_priors()
    }

    fn split_priors_with_values(&mut self) -> Option<Box<dyn ValuedPriors>> {
        (**self).split_priors_with_values()
    }

    fn reseed(&mut self, salt: u64) {
        (**self).reseed(salt);
    }
}

/// Judges positions with no network, so MCTS works with no model at all: uniform priors,
/// value from a few random playouts to the end (the Monte Carlo evaluation that predates
/// value networks).
#[derive(Debug)]
pub struct PlayoutEvaluator {
    rng: Rng,
    seed: u64,
    playouts: u32,
}

impl PlayoutEvaluator {
    /// `playouts` random games per evaluation; 0 values every position as even.
    pub fn new(seed: u64, playouts: u32) -> PlayoutEvaluator {
        PlayoutEvaluator {
            rng: Rng::new(seed),
            seed,
            playouts,
        }
    }

    fn evaluate_one(&mut self, pos: &Position) -> Evaluation {
        let moves = pos.legal_move_list().len();
        let (mut wins, mut margins) = (0.0, 0.0);
        for _ in 0..self.playouts {
            let margin = random_playout(pos, &mut self.rng);
            wins += margin.signum() as f32;
            margins += margin as f32;
        }
        let runs = self.playouts.max(1) as f32;
        Evaluation {
            priors: vec![1.0 / moves as f32; moves],
            value: wins / runs,
            score: (self.playouts > 0).then(|| margins / runs / pos.size().squares() as f32),
        }
    }
}

impl Evaluator for PlayoutEvaluator {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        Ok(positions.iter().map(|p| self.evaluate_one(p)).collect())
    }

    fn describe(&self) -> String {
        format!(
            "random playouts ({} a position, uniform priors)",
            self.playouts
        )
    }

    fn reseed(&mut self, salt: u64) {
        self.rng = Rng::new(crate::rng::splitmix64(self.seed ^ salt));
    }
}

/// Plays uniformly random moves to the end; the final margin for the side to move of
/// `pos` (empties to the winner).
pub fn random_playout(pos: &Position, rng: &mut Rng) -> i32 {
    use othello::raw::{flips, legal_moves};
    let mask = pos.size().mask();
    let (mut p, mut o) = (pos.player().0, pos.opponent().0);
    let mut flipped_sides = false;
    let mut passes = 0;
    while passes < 2 {
        let moves = legal_moves(p, o, mask);
        if let Some(sq) = rng.choose_bit(moves) {
            let f = flips(p, o, sq);
            (p, o) = (o & !f, p | f | (1u64 << sq));
            passes = 0;
        } else {
            (p, o) = (o, p);
            passes += 1;
        }
        flipped_sides = !flipped_sides;
    }
    // `p` belongs to the original side to move when the sides were swapped an even number of times.
    let (own, other) = if flipped_sides { (o, p) } else { (p, o) };
    let empties = (mask & !(own | other)).count_ones();
    pos.variant()
        .margin(own.count_ones(), other.count_ones(), empties)
}

/// Wraps an evaluator and adds up the time spent inside it, so a benchmark can tell the
/// search's own cost from the network's.
#[derive(Debug)]
pub struct TimedEvaluator<E: Evaluator> {
    pub inner: E,
    pub time: std::time::Duration,
    pub calls: u64,
    pub positions: u64,
}

impl<E: Evaluator> TimedEvaluator<E> {
    pub fn new(inner: E) -> TimedEvaluator<E> {
        TimedEvaluator {
            inner,
            time: std::time::Duration::ZERO,
            calls: 0,
            positions: 0,
        }
    }
}

impl<E: Evaluator> Evaluator for TimedEvaluator<E> {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        let clock = web_time::Instant::now();
        let result = self.inner.evaluate(positions);
        self.time += clock.elapsed();
        self.calls += 1;
        self.positions += positions.len() as u64;
        result
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }

    /// Passed on, as everything but the clock is: a search timed is the search run.
    fn preferred_batch(&self) -> Option<usize> {
        self.inner.preferred_batch()
    }

    /// Passed on, so that a search is timed as it runs: priors made apart are then the
    /// search's time, not the evaluator's.
    fn split_priors(&mut self) -> Option<PriorSource> {
        self.inner.split_priors()
    }

    /// Passed on too: the children valued on the way are the search's time.
    fn split_priors_with_values(&mut self) -> Option<Box<dyn ValuedPriors>> {
        self.inner.split_priors_with_values()
    }

    fn reseed(&mut self, salt: u64) {
        self.inner.reseed(salt);
    }
}

#[cfg(test)]
mod tests {
    use super::{EvalError, Evaluation, Evaluator, TimedEvaluator};
    use othello::Position;

    /// An evaluator with a batch of its own and a count of its reseeds.
    struct Particular(u64);

    impl Evaluator for Particular {
        fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
            Ok(positions
                .iter()
                .map(|_| Evaluation {
                    priors: Vec::new(),
                    value: 0.0,
                    score: None,
                })
                .collect())
        }

        fn describe(&self) -> String {
            "particular".into()
        }

        fn preferred_batch(&self) -> Option<usize> {
            Some(3)
        }

        fn reseed(&mut self, salt: u64) {
            self.0 += salt;
        }
    }

    #[test]
    fn a_timed_evaluator_is_the_evaluator_to_the_search_but_for_its_clock() {
        let mut timed = TimedEvaluator::new(Particular(0));
        assert_eq!(timed.preferred_batch(), Some(3));
        assert_eq!(timed.describe(), "particular");
        timed.reseed(5);
        assert_eq!(timed.inner.0, 5);
        assert!(timed.split_priors().is_none());
        assert!(timed.split_priors_with_values().is_none());
        let pos = Position::start(othello::BoardSize::Eight, othello::Variant::Standard);
        assert_eq!(timed.evaluate(&[pos, pos]).map(|e| e.len()).ok(), Some(2));
        assert_eq!((timed.calls, timed.positions), (1, 2));
    }
}
