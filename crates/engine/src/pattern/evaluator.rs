//! The search's view of a pattern network: values from the tables, and move priors made
//! from the values of the positions each move leads to, which the tables make cheap (a
//! position's children cost about as much as a CNN's single input encoding).

use super::lookup::PatternTables;
use crate::evaluator::{EvalError, Evaluation, Evaluator};
use othello::{Move, Position};
use std::sync::Arc;

/// Where a pattern evaluator's move priors come from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Priors {
    /// Every legal move alike.
    Uniform,
    /// A softmax over the moves of minus each child's value logit (the opponent's view),
    /// over `temperature`: a one-ply search's preferences.
    Children { temperature: f32 },
}

impl Default for Priors {
    fn default() -> Self {
        Priors::Children { temperature: 1.0 }
    }
}

/// A child that ends the game: its logit, for the side that moved into it, as sure as a
/// network ever is.
const FINISHED_LOGIT: f32 = 8.0;

#[derive(Debug, Clone)]
pub struct PatternEvaluator {
    tables: Arc<PatternTables>,
    priors: Priors,
    name: String,
}

impl PatternEvaluator {
    pub fn new(tables: Arc<PatternTables>, priors: Priors, name: &str) -> Self {
        PatternEvaluator {
            tables,
            priors,
            name: name.to_owned(),
        }
    }

    pub fn tables(&self) -> &PatternTables {
        &self.tables
    }

    /// The tables, shared: another search over the same network reads them too.
    pub fn shared_tables(&self) -> Arc<PatternTables> {
        Arc::clone(&self.tables)
    }

    /// The network's name, as its card gives it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// One position's evaluation.
    pub fn evaluate_one(&self, pos: &Position) -> Evaluation {
        let moves = pos.legal_moves();
        let temperature = match self.priors {
            Priors::Children { temperature } if moves.count() > 1 => temperature.max(1e-3),
            _ => {
                let (score, value) = self.tables.evaluate(pos);
                let count = pos.legal_move_list().len();
                return Evaluation {
                    priors: vec![1.0 / count.max(1) as f32; count],
                    value,
                    score: Some(score),
                };
            }
        };
        // The position and its children in one reading: each child reads only the
        // instances its move changes (`PatternTables::children`).
        let (own, other) = (pos.player().0, pos.opponent().0);
        let mut children = self.tables.children(own, other);
        let mut priors = Vec::with_capacity(moves.count() as usize);
        for sq in moves {
            let child = pos.play_unchecked(Move::Place(sq));
            let mover_logit = match child.outcome() {
                // The child's side to move is the opponent: its margin's sign, turned.
                Some(outcome) => {
                    -FINISHED_LOGIT * outcome.margin_for(child.side_to_move()).signum() as f32
                }
                None => {
                    let flipped = other & !child.player().0;
                    let units = children.value_units(u32::from(sq.index()), flipped);
                    -(units as f32 * self.tables.step()[1])
                }
            };
            priors.push(mover_logit / temperature);
        }
        crate::evaluator::softmax_in_place(&mut priors);
        let [score, value] = children.parent_units();
        let step = self.tables.step();
        Evaluation {
            priors,
            // `PatternTables::evaluate`'s reading of the sums.
            value: (value as f32 * step[1]).tanh(),
            score: Some((score as f32 * step[0]).clamp(-1.0, 1.0)),
        }
    }
}

impl Evaluator for PatternEvaluator {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        if let Some(pos) = positions
            .iter()
            .find(|p| p.size() != self.tables.set().size)
        {
            return Err(EvalError::WrongBoard {
                expected: self.tables.set().size.to_string(),
                found: pos.size().to_string(),
            });
        }
        Ok(positions.iter().map(|p| self.evaluate_one(p)).collect())
    }

    /// The tables cost the same a position whatever the batch.
    fn preferred_batch(&self) -> Option<usize> {
        Some(1)
    }

    fn describe(&self) -> String {
        let priors = match self.priors {
            Priors::Uniform => "uniform priors".to_owned(),
            Priors::Children { temperature } => {
                format!("priors from the children's values, temperature {temperature}")
            }
        };
        format!(
            "pattern network {} ({} patterns, {} instances, {priors})",
            self.name,
            self.tables.set().patterns.len(),
            self.tables.set().instances.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::lookup::tests::{positions, random_tables};
    use othello::BoardSize;

    /// The evaluation as it was made before children were read from their parent: each
    /// child played and summed afresh.
    fn plain(tables: &PatternTables, pos: &Position, temperature: f32) -> Evaluation {
        let (score, value) = tables.evaluate(pos);
        let moves = pos.legal_move_list();
        let priors = if moves.len() > 1 {
            let logits: Vec<f32> = moves
                .iter()
                .map(|&mv| {
                    let child = pos.play_unchecked(mv);
                    let mover_logit = match child.outcome() {
                        Some(outcome) => {
                            let sign = outcome.margin_for(child.side_to_move()).signum();
                            -FINISHED_LOGIT * sign as f32
                        }
                        None => -tables.sums(&child)[1],
                    };
                    mover_logit / temperature
                })
                .collect();
            crate::evaluator::softmax(&logits)
        } else {
            vec![1.0 / moves.len().max(1) as f32; moves.len()]
        };
        Evaluation {
            priors,
            value,
            score: Some(score),
        }
    }

    #[test]
    fn evaluations_are_the_plain_reading_s_to_the_bit() {
        let patterns = [
            "a1 b1 c1 a2 b2 c2 a3 b3 c3",
            "a2 b2 c2 d2 e2 f2",
            "a1 b2 c3 d4 e5 f6",
        ];
        let tables = Arc::new(random_tables(BoardSize::Six, 8, &patterns, 5));
        let evaluator = PatternEvaluator::new(
            Arc::clone(&tables),
            Priors::Children { temperature: 0.7 },
            "test",
        );
        let mut finished = 0;
        for pos in positions(BoardSize::Six, 6) {
            let children = pos
                .legal_moves()
                .map(|sq| pos.play_unchecked(Move::Place(sq)));
            finished += children.filter(Position::is_game_over).count();
            assert_eq!(evaluator.evaluate_one(&pos), plain(&tables, &pos, 0.7));
        }
        // Moves that end the game are met too (their priors take the finished logit).
        assert!(finished > 0);
    }
}
