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
        let (score, value) = self.tables.evaluate(pos);
        let moves = pos.legal_move_list();
        Evaluation {
            priors: self.priors(pos, &moves),
            value,
            score: Some(score),
        }
    }

    fn priors(&self, pos: &Position, moves: &[Move]) -> Vec<f32> {
        let temperature = match self.priors {
            Priors::Children { temperature } if moves.len() > 1 => temperature.max(1e-3),
            _ => return vec![1.0 / moves.len().max(1) as f32; moves.len()],
        };
        let logits: Vec<f32> = moves
            .iter()
            .map(|&mv| {
                let child = pos.play_unchecked(mv);
                let mover_logit = match child.outcome() {
                    // The child's side to move is the opponent: its margin's sign, turned.
                    Some(outcome) => {
                        -FINISHED_LOGIT * outcome.margin_for(child.side_to_move()).signum() as f32
                    }
                    None => -self.tables.sums(&child)[1],
                };
                mover_logit / temperature
            })
            .collect();
        crate::evaluator::softmax(&logits)
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
