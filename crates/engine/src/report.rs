//! What an agent reports of its thinking ([`SearchInfo`]: the heat map's numbers, the move
//! it would play, proofs from the solver) and the one rule for the move to play
//! ([`choose_move`]). Its own module, so that the agent interface and the search both
//! use it without importing each other.

use crate::book::BookChoice;
use crate::Rng;
use othello::Move;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A proven result. In a tree node it is from the view of the player who made the move
/// into the node; in [`MoveInfo`] and [`SearchInfo`], from the view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Proof {
    Win,
    Draw,
    Loss,
}

impl Proof {
    pub fn value(self) -> f32 {
        match self {
            Proof::Win => 1.0,
            Proof::Draw => 0.0,
            Proof::Loss => -1.0,
        }
    }

    pub fn flip(self) -> Proof {
        match self {
            Proof::Win => Proof::Loss,
            Proof::Draw => Proof::Draw,
            Proof::Loss => Proof::Win,
        }
    }

    pub fn from_margin(margin: i32) -> Proof {
        match margin.signum() {
            1 => Proof::Win,
            0 => Proof::Draw,
            _ => Proof::Loss,
        }
    }
}

/// What the search knows about one legal move at the root: the one type of a move's
/// statistics from the search to the page's heat map (the worker sends it as it is; the
/// page's sum of several workers' searches is a list of them too).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveInfo {
    pub mv: Move,
    pub visits: u32,
    pub prior: f32,
    /// Mean value of the move for the side to move, in [-1, 1].
    pub q: f32,
    /// Set when the move's result is known exactly.
    pub proof: Option<Proof>,
    /// What is known for certain of the final margin after the move, for the side to move:
    /// (at least, at most) discs; `None` while nothing is. Equal bounds: the exact margin.
    pub bounds: Option<(i32, i32)>,
    /// The move's share of the search: its share of the visits, or with a Gumbel root, its
    /// probability in the improved policy softmax(logit + sigma(completed q)). Training's
    /// policy target; in the page's sum of several searches, the share of all their visits,
    /// which its heat map shows.
    pub target: f32,
    /// The expected final disc difference after the move, for the side to move, when the
    /// evaluator estimates one (a network with a score head).
    pub score: Option<f32>,
}

/// The solver's verdict on the root: the move with the largest final margin, or, where
/// the node budget allowed only the result, a move that keeps a proven win or draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    pub best: Move,
    /// Final disc margin for the side to move with perfect play (empties to the winner),
    /// at least: `best` is proven to reach it.
    pub margin: i32,
    /// At most this margin: equal to `margin` when the solve was exact, more when only a
    /// win was proven.
    pub upper: i32,
    /// Solver nodes the solve took, and how long, for speed reports.
    pub nodes: u64,
    pub micros: u64,
}

impl Solved {
    /// Whether the margin is exact, not only its side of zero.
    pub fn is_exact(&self) -> bool {
        self.margin == self.upper
    }

    /// The verdict in words, for the side to move: "wins by 6", "draws", "loses by 4";
    /// "wins" (by at least the proven margin) when only the result is proven.
    pub fn verdict(&self) -> String {
        match (self.margin, self.is_exact()) {
            (0, true) => "draws".to_string(),
            (m, true) if m > 0 => format!("wins by {m}"),
            (m, true) => format!("loses by {}", -m),
            (m, false) if m > 1 => format!("wins (by at least {m})"),
            // A draw proven as a lower bound: the win was not ruled out.
            (0, false) => "draws at least".to_string(),
            (_, false) => "wins".to_string(),
        }
    }
}

/// A snapshot of an agent's thinking: what the page draws as the heat map.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Every legal move the search looked at, most visited first.
    pub moves: Vec<MoveInfo>,
    /// The principal variation: most visited moves from the root down.
    pub pv: Vec<Move>,
    /// Root value for the side to move, in [-1, 1].
    pub value: f32,
    /// Set when the root's result is known exactly (for the side to move).
    pub proof: Option<Proof>,
    /// The expected final disc difference for the side to move, when known: the search's
    /// mean over a network's score estimates, or the solver's exact margin.
    pub score: Option<f32>,
    /// Set when the exact solver settled the root: its move is the one to play.
    pub solved: Option<Solved>,
    /// A Gumbel root's choice (the best survivor of sequential halving), which need not be
    /// the most visited move; or the opening book's move.
    pub chosen: Option<Move>,
    /// Set when the move comes from the opening book: its choice, with every move the book
    /// knows and whether each is in the book or only a search's estimate (`chosen` is its
    /// move and `score` its value, so that callers that know nothing of books still play
    /// and show it).
    pub book: Option<BookChoice>,
    /// Simulations run by this search (the tree may hold more from earlier ones).
    pub simulations: u64,
    pub root_visits: u32,
    pub elapsed: Duration,
}

impl SearchInfo {
    /// What a player that chooses without a tree (alpha-beta, greedy) reports: its move.
    pub fn decided(mv: Move, elapsed: Duration) -> SearchInfo {
        SearchInfo {
            moves: vec![MoveInfo {
                mv,
                visits: 1,
                prior: 1.0,
                q: 0.0,
                proof: None,
                bounds: None,
                target: 1.0,
                score: None,
            }],
            pv: vec![mv],
            value: 0.0,
            proof: None,
            score: None,
            solved: None,
            chosen: None,
            book: None,
            simulations: 0,
            root_visits: 1,
            elapsed,
        }
    }

    /// The opening book's move as a report, its values in [-1, 1] from the book's discs by
    /// [`value_of_discs`].
    pub fn from_book(choice: &BookChoice, elapsed: Duration) -> SearchInfo {
        let q = value_of_discs;
        SearchInfo {
            moves: choice
                .moves
                .iter()
                .map(|m| MoveInfo {
                    mv: m.mv,
                    visits: u32::from(m.in_book),
                    prior: 0.0,
                    q: q(m.value),
                    proof: None,
                    bounds: None,
                    target: if m.mv == choice.mv { 1.0 } else { 0.0 },
                    score: Some(m.value),
                })
                .collect(),
            pv: vec![choice.mv],
            value: q(choice.value),
            proof: None,
            score: Some(choice.value),
            solved: None,
            chosen: Some(choice.mv),
            book: Some(choice.clone()),
            simulations: 0,
            root_visits: 0,
            elapsed,
        }
    }

    /// The exact solver's verdict as a report: its move, proven.
    pub fn from_solved(solved: Solved, elapsed: Duration) -> SearchInfo {
        let proof = Proof::from_margin(solved.margin);
        SearchInfo {
            moves: vec![MoveInfo {
                mv: solved.best,
                visits: 0,
                prior: 1.0,
                q: proof.value(),
                proof: Some(proof),
                bounds: Some((solved.margin, solved.upper)),
                target: 1.0,
                score: Some(solved.margin as f32),
            }],
            pv: vec![solved.best],
            value: proof.value(),
            proof: Some(proof),
            score: Some(solved.margin as f32),
            solved: Some(solved),
            chosen: None,
            book: None,
            simulations: 0,
            root_visits: 0,
            elapsed,
        }
    }

    /// Chance of winning for the side to move, from the root value.
    pub fn win_probability(&self) -> f32 {
        (self.value.clamp(-1.0, 1.0) + 1.0) / 2.0
    }

    pub fn simulations_per_second(&self) -> f64 {
        self.simulations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The move to play: the solver's when it settled the root, else [`choose_move`]'s.
    pub fn best_move(&self) -> Option<Move> {
        if let Some(solved) = self.solved {
            return Some(solved.best);
        }
        choose_move(&self.moves, self.chosen)
    }

    /// A move drawn with probability proportional to visits^(1/temperature); the best
    /// move when `temperature` is 0, the result is already known, or a Gumbel root chose
    /// (its noise was the sampling).
    pub fn sample_move(&self, temperature: f32, rng: &mut Rng) -> Option<Move> {
        if temperature <= 0.0
            || self.proof.is_some()
            || self.solved.is_some()
            || self.chosen.is_some()
        {
            return self.best_move();
        }
        let weights: Vec<f64> = self
            .moves
            .iter()
            .map(|m| (m.visits as f64).powf(1.0 / temperature as f64))
            .collect();
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return self.best_move();
        }
        let mut target = rng.unit() * total;
        for (m, w) in self.moves.iter().zip(&weights) {
            if target < *w {
                return Some(m.mv);
            }
            target -= w;
        }
        self.best_move()
    }
}

/// A value in discs (a book's) as a value in [-1, 1] for what needs one (a win chance, the
/// page's graph and hint colours): `tanh(discs / 8)`, a display mapping only (nothing
/// chooses by it).
pub fn value_of_discs(discs: f32) -> f32 {
    (discs / 8.0).tanh()
}

/// The inverse of [`value_of_discs`]: a value in [-1, 1] (a search's mean, which has no
/// score head to ask) as discs, for what must compare moves in discs (a game's review).
/// Values of ±1 would be infinite discs; they are held to ±0.9999, about ±40 discs, and
/// a caller that knows the board holds the result to it.
pub fn discs_of_value(value: f32) -> f32 {
    8.0 * value.clamp(-0.9999, 0.9999).atanh()
}

/// The move to play, one rule for every agent: the proven win with the largest assured
/// margin if there is one, else a Gumbel root's choice, else the most visited move; never a
/// move whose margin bounds show another to be at least as good (a proven loss when
/// something else is left, a smaller win).
pub fn choose_move(moves: &[MoveInfo], chosen: Option<Move>) -> Option<Move> {
    let lower = |m: &MoveInfo| m.bounds.map_or(i32::MIN, |b| b.0);
    let upper = |m: &MoveInfo| m.bounds.map_or(i32::MAX, |b| b.1);
    let assured = moves.iter().map(lower).max()?;
    // The moves still in the running: those that might do better than the best assured
    // margin, and those that reach it.
    let open = |m: &&MoveInfo| upper(m) > assured || lower(m) == assured;
    let playable = |m: &&MoveInfo| open(m) && m.proof != Some(Proof::Loss);
    if let Some(win) = moves
        .iter()
        .filter(|m| m.proof == Some(Proof::Win))
        .max_by(|a, b| lower(a).cmp(&lower(b)).then(a.visits.cmp(&b.visits)))
    {
        return Some(win.mv);
    }
    if let Some(chosen) = chosen
        .and_then(|mv| moves.iter().find(|m| m.mv == mv))
        .filter(playable)
    {
        return Some(chosen.mv);
    }
    moves
        .iter()
        .filter(playable)
        .max_by(|a, b| a.visits.cmp(&b.visits).then(a.q.total_cmp(&b.q)))
        // Every move is lost: the one that loses by least, which reaches the assured
        // margin and so is open (there is always one).
        .or_else(|| moves.iter().filter(open).max_by_key(|m| lower(m)))
        .map(|m| m.mv)
}
