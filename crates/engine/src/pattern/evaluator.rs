//! The search's view of a pattern network: values from the tables, and move priors made
//! from the values of the positions each move leads to, which the tables make cheap (a
//! position's children cost about as much as a CNN's single input encoding).

use super::lookup::{ChildReading, PatternTables};
use crate::evaluator::{ChildReadout, EvalError, Evaluation, Evaluator, PriorSource, ValuedPriors};
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
    /// Whether its priors were split off ([`Evaluator::split_priors`]): evaluations are
    /// values only.
    values_only: bool,
}

impl PatternEvaluator {
    pub fn new(tables: Arc<PatternTables>, priors: Priors, name: &str) -> Self {
        PatternEvaluator {
            tables,
            priors,
            name: name.to_owned(),
            values_only: false,
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
        let mut priors = Vec::new();
        let (score, value) = self.priors_into(pos, &mut priors);
        Evaluation {
            priors,
            value,
            score: Some(score),
        }
    }

    /// The position's priors, written over `out`, and its score and value
    /// ([`PatternTables::evaluate`]'s), which the children's reading gives on the way.
    pub fn priors_into(&self, pos: &Position, out: &mut Vec<f32>) -> (f32, f32) {
        out.clear();
        let moves = pos.legal_moves();
        let temperature = match self.priors {
            Priors::Children { temperature } if moves.count() > 1 => temperature.max(1e-3),
            _ => {
                let count = pos.legal_move_list().len();
                out.resize(count, 1.0 / count.max(1) as f32);
                return self.tables.evaluate(pos);
            }
        };
        // The position and its children in one reading: each child reads only the
        // instances its move changes (`PatternTables::with_children`).
        let (own, other) = (pos.player().0, pos.opponent().0);
        let step = self.tables.step();
        let parent = self.tables.with_children(own, other, |children| {
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
                        -(units as f32 * step[1])
                    }
                };
                out.push(mover_logit / temperature);
            }
            children.parent_units()
        });
        crate::evaluator::softmax_in_place(out);
        self.tables.evaluate_units(parent)
    }

    /// The priors made apart: this evaluator's evaluations are values only from now on.
    fn split_off(&mut self) -> SplitPriors {
        self.values_only = true;
        SplitPriors {
            tables: Arc::clone(&self.tables),
            priors: self.priors,
            reading: ChildReading::new(),
        }
    }
}

/// A pattern network's priors made apart from its values ([`Evaluator::split_priors`]):
/// the position read for its children alone, its own value being the search's already
/// (a reading of its own sums too cost a third more of each instance's entries).
struct SplitPriors {
    tables: Arc<PatternTables>,
    priors: Priors,
    /// Kept between positions: 1.6 KB of arrays, which a reading made afresh would copy.
    reading: ChildReading,
}

impl SplitPriors {
    /// The priors of `pos` over `priors` and, where `children` is given, each child's
    /// reading (the score's and value logit's sums) over it, or nothing where the priors
    /// are uniform.
    fn read_into(
        &mut self,
        pos: &Position,
        priors: &mut Vec<f32>,
        mut children: Option<&mut Vec<ChildReadout>>,
    ) {
        priors.clear();
        if let Some(children) = children.as_deref_mut() {
            children.clear();
        }
        let moves = pos.legal_moves();
        let temperature = match self.priors {
            // One move reads its child too (its prior is 1 either way), for its value.
            Priors::Children { temperature } if !moves.is_empty() => temperature.max(1e-3),
            _ => {
                let count = pos.legal_move_list().len();
                priors.resize(count, 1.0 / count.max(1) as f32);
                return;
            }
        };
        let (own, other) = (pos.player().0, pos.opponent().0);
        let step = self.tables.step();
        if children.is_some() {
            self.tables
                .read_children_pair(own, other, &mut self.reading);
        } else {
            self.tables.read_children(own, other, 1, &mut self.reading);
        }
        for sq in moves {
            let child = pos.play_unchecked(Move::Place(sq));
            let mover_logit = match child.outcome() {
                Some(outcome) => {
                    if let Some(children) = children.as_deref_mut() {
                        children.push([0.0; 2]);
                    }
                    -FINISHED_LOGIT * outcome.margin_for(child.side_to_move()).signum() as f32
                }
                None => {
                    let (square, flipped) = (u32::from(sq.index()), other & !child.player().0);
                    let value_units = match children.as_deref_mut() {
                        Some(children) => {
                            let [score, value] =
                                self.tables
                                    .child_unit_pair(&mut self.reading, square, flipped);
                            children.push(self.tables.sums_of_units([score, value]));
                            value
                        }
                        None => self.tables.child_units(&mut self.reading, square, flipped),
                    };
                    -(value_units as f32 * step[1])
                }
            };
            priors.push(mover_logit / temperature);
        }
        crate::evaluator::softmax_in_place(priors);
    }
}

impl ValuedPriors for SplitPriors {
    fn read(&mut self, pos: &Position, priors: &mut Vec<f32>, children: &mut Vec<ChildReadout>) {
        self.read_into(pos, priors, Some(children));
    }

    fn evaluation(&self, sums: ChildReadout) -> (f32, f32) {
        let (score, value) = PatternTables::evaluate_sums(sums);
        (value, score)
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
        if self.values_only {
            let value_only = |pos: &Position| {
                let (score, value) = self.tables.evaluate(pos);
                Evaluation {
                    priors: Vec::new(),
                    value,
                    score: Some(score),
                }
            };
            return Ok(positions.iter().map(value_only).collect());
        }
        Ok(positions.iter().map(|p| self.evaluate_one(p)).collect())
    }

    /// A position's priors cost many times its value (every child is valued), and most
    /// of a search's leaves are never descended below: the search asks for them where it
    /// does.
    fn split_priors(&mut self) -> Option<PriorSource> {
        let mut source = self.split_off();
        Some(Box::new(move |pos: &Position, out: &mut Vec<f32>| {
            source.read_into(pos, out, None);
        }))
    }

    /// The children's values are what the priors are read from: the search takes them
    /// from there (a child's second output, the score, costs its changed instances'
    /// entries of the other array), not from a fresh reading of each leaf.
    fn split_priors_with_values(&mut self) -> Option<Box<dyn ValuedPriors>> {
        Some(Box::new(self.split_off()))
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
    use crate::pattern::lookup::tests::{positions, random_tables_with};
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
        evaluations_are_the_plain_reading(false);
    }

    #[test]
    fn evaluations_with_a_global_network_are_the_plain_reading_s_to_the_bit() {
        evaluations_are_the_plain_reading(true);
    }

    fn evaluations_are_the_plain_reading(global: bool) {
        let patterns = [
            "a1 b1 c1 a2 b2 c2 a3 b3 c3",
            "a2 b2 c2 d2 e2 f2",
            "a1 b2 c3 d4 e5 f6",
        ];
        let tables = Arc::new(random_tables_with(BoardSize::Six, 8, &patterns, 5, global));
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

    #[test]
    fn the_children_s_values_read_with_the_priors_are_their_evaluations() {
        let patterns = ["a1 b1 c1 a2 b2 c2 a3 b3 c3", "a2 b2 c2 d2 e2 f2"];
        for global in [false, true] {
            let tables = Arc::new(random_tables_with(BoardSize::Six, 8, &patterns, 9, global));
            let mut evaluator = PatternEvaluator::new(tables, Priors::default(), "test");
            let mut eager = evaluator.clone();
            let mut source = evaluator
                .split_priors_with_values()
                .expect("a valued source");
            let (mut priors, mut children, mut read) = (Vec::new(), Vec::new(), 0);
            for pos in positions(BoardSize::Six, 4) {
                source.read(&pos, &mut priors, &mut children);
                let whole = eager.evaluate(&[pos]).expect("evaluation");
                assert_eq!(priors, whole[0].priors, "{}", pos.to_board_text());
                let moves = pos.legal_move_list();
                if moves == [Move::Pass] {
                    continue;
                }
                assert_eq!(children.len(), moves.len());
                for (&mv, &reading) in moves.iter().zip(&children) {
                    let child = pos.play_unchecked(mv);
                    if child.is_game_over() {
                        continue;
                    }
                    let fresh = evaluator.evaluate(&[child]).expect("evaluation");
                    let (value, score) = source.evaluation(reading);
                    assert_eq!((value, Some(score)), (fresh[0].value, fresh[0].score));
                    read += 1;
                }
            }
            assert!(read > 100, "only {read} children");
        }
    }
}
