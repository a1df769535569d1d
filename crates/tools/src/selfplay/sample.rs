//! What a self-play sample is, in one place: the network's input for a position and every
//! target the trainer learns from it (docs/selfplay-data.md lays out
//! the columns; train/contract.py reads them).
//!
//! - `planes`: the position as the learner's network sees it, encoded by the engine's one
//!   encoder ([`InputPlanes::encode`]) with the network card's planes (v1's four without
//!   a network);
//! - `policy`: the search's policy target (each root move's visit share, or a Gumbel
//!   root's improved policy), or all on one move where the solver chose it;
//! - `value` and `score`: the game's final result and disc margin for the side to move,
//!   or, where the game's result says nothing of the position (an explored line, a sample
//!   before a random move, a position the solver labelled off the game's line), the
//!   search's or the solver's own value and margin;
//! - `ownership`: who owns each square at the end, known only for positions of the line
//!   played to that end;
//! - `search_value` and `search_score`: what the search found of the position (its root
//!   value and expected margin), or the solver where it chose, whatever the game's result.

use engine::network::InputPlanes;
use engine::SearchInfo;
use othello::{BoardSize, Color, Move, Position};

/// One training position: the network input, the policy target, and whose turn it was
/// (the game's result is read from that side's view when the game ends).
#[derive(Clone, Debug)]
pub struct Sample {
    /// `C * N * N` values, 0 or 1, for the C planes of self-play's input set.
    pub planes: Vec<u8>,
    pub policy: Vec<f32>,
    pub side: Color,
    /// For a position whose value the game's result does not give: its value and expected
    /// margin (discs) from `side`'s view, from the search or the solver.
    pub searched: Option<(f32, f32)>,
    /// What the search that played from here found, whatever the game's result: its
    /// root value and expected margin (discs) from `side`'s view, or the solver's exact
    /// ones where it chose (the `search_value` and `search_score` columns, a target the
    /// trainer may blend with the result's, as KataGo blends its search's root value).
    pub search: (f32, f32),
}

/// A sample's value, score and ownership targets, once its game has ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Targets {
    /// In [-1, 1].
    pub value: f32,
    /// Final disc margin for the side to move.
    pub score: f32,
    /// Row-major from a1: 1 the side's disc, -1 the opponent's, 0 empty; `None` where the
    /// game's final discs are not this position's line.
    pub ownership: Option<Vec<i8>>,
}

impl Sample {
    pub fn new(
        pos: &Position,
        inputs: &InputPlanes,
        policy: Vec<f32>,
        searched: Option<(f32, f32)>,
        search: (f32, f32),
    ) -> Sample {
        let mut planes = Vec::new();
        inputs.encode(pos, &mut planes);
        Sample {
            planes,
            policy,
            side: pos.side_to_move(),
            searched,
            search,
        }
    }

    /// The targets of this sample of a game that ended in `end`.
    pub fn targets(&self, end: &Position) -> Targets {
        match self.searched {
            Some((value, margin)) => Targets {
                value: value.clamp(-1.0, 1.0),
                score: margin,
                ownership: None,
            },
            None => {
                let margin = end.count().margin_for(self.side);
                Targets {
                    value: margin.signum() as f32,
                    score: margin as f32,
                    ownership: Some(owners(end, self.side).collect()),
                }
            }
        }
    }
}

/// The search's policy target: each root move's `target` (its visit share, or a Gumbel
/// root's improved policy); for a root proven before any child was visited, the proven
/// move.
pub(super) fn search_policy(info: &SearchInfo, size: BoardSize) -> Vec<f32> {
    let mut policy = vec![0.0f32; size.squares() as usize + 1];
    for m in &info.moves {
        policy[m.mv.policy_index(size)] = m.target;
    }
    if policy.iter().sum::<f32>() <= 0.0 {
        if let Some(best) = info.best_move() {
            policy[best.policy_index(size)] = 1.0;
        }
    }
    policy
}

/// A policy target with all its weight on `mv`: the solver's move.
pub(super) fn one_hot(size: BoardSize, mv: Move) -> Vec<f32> {
    let mut policy = vec![0.0f32; size.squares() as usize + 1];
    policy[mv.policy_index(size)] = 1.0;
    policy
}

/// A search's value and margin as a sample's targets. Without a margin estimate (a
/// network without a score head), the value's sign stands in for the score target, which
/// such a network does not learn.
pub(super) fn searched_targets(value: f32, margin: Option<f32>) -> (f32, f32) {
    (value, margin.unwrap_or(value.signum()))
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
