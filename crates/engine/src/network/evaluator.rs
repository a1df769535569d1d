//! A network as the search's [`Evaluator`]: positions encoded as the card's planes, one
//! run of the thread's runner a batch, and the raw outputs turned into legal-move priors
//! and values.

use super::{check_batch_board, InputPlanes, ModelError, Network, PlaneRunner};
use crate::evaluator::{softmax, EvalError, Evaluation, Evaluator};
use othello::{BoardSize, Position, Variant};

/// Masks illegal moves out of the `N*N + 1` logits of the model contract and softmaxes the
/// rest, in `legal_move_list()` order.
pub fn legal_priors(pos: &Position, logits: &[f32]) -> Vec<f32> {
    let size = pos.size();
    let moves = pos.legal_move_list();
    let picked: Vec<f32> = moves
        .iter()
        .map(|mv| logits.get(mv.policy_index(size)).copied().unwrap_or(0.0))
        .collect();
    softmax(&picked)
}

/// [`Evaluator`] over any runtime's network, with a runner of its own.
pub struct NetworkEvaluator {
    runner: Box<dyn PlaneRunner>,
    size: BoardSize,
    variant: Variant,
    /// The card's planes: the encoder of this network.
    inputs: InputPlanes,
    description: String,
    planes: Vec<f32>,
}

impl NetworkEvaluator {
    pub fn new(network: &Network) -> Result<NetworkEvaluator, ModelError> {
        let card = network.card();
        Ok(NetworkEvaluator {
            runner: network.runner()?,
            size: card.board()?,
            variant: card.variant()?,
            inputs: card.inputs()?,
            description: format!("network {} ({})", card.name, network.runtime_name()),
            planes: Vec::new(),
        })
    }
}

impl Evaluator for NetworkEvaluator {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        check_batch_board(positions, self.size, self.variant)?;
        self.planes.clear();
        for pos in positions {
            self.inputs.encode(pos, &mut self.planes);
        }
        let outputs = self
            .runner
            .run_planes(&self.planes, positions.len())
            .map_err(|e| EvalError::Failed(e.to_string()))?;
        let width = self.size.squares() as usize + 1;
        let score = |i: usize| {
            outputs
                .score
                .as_ref()
                .and_then(|s| s.get(i))
                .map(|s| s.clamp(-1.0, 1.0))
        };
        Ok(positions
            .iter()
            .zip(outputs.policy.chunks(width).zip(&outputs.value))
            .enumerate()
            .map(|(i, (pos, (logits, value)))| Evaluation {
                priors: legal_priors(pos, logits),
                value: value.clamp(-1.0, 1.0),
                score: score(i),
            })
            .collect())
    }

    fn describe(&self) -> String {
        self.description.clone()
    }
}

impl std::fmt::Debug for NetworkEvaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetworkEvaluator")
            .field("network", &self.description)
            .field("size", &self.size)
            .field("variant", &self.variant)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::{Model, ModelCard, Outputs};
    use std::sync::Arc;

    /// A network that says the same for every position: the highest logit on the last
    /// square, value 0.25.
    struct Fixed(ModelCard);

    impl PlaneRunner for BoardSize {
        fn run_planes(&mut self, _: &[f32], batch: usize) -> Result<Outputs, ModelError> {
            let width = self.squares() as usize + 1;
            let mut row = vec![0.0; width];
            row[width - 2] = 5.0;
            Ok(Outputs {
                policy: row.repeat(batch),
                value: vec![0.25; batch],
                score: Some(vec![-0.5; batch]),
            })
        }
    }

    impl Model for Fixed {
        fn card(&self) -> &ModelCard {
            &self.0
        }

        fn runtime_name(&self) -> &'static str {
            "fixed"
        }

        fn runner(&self) -> Result<Box<dyn PlaneRunner>, ModelError> {
            Ok(Box::new(self.0.board()?))
        }
    }

    fn fixed(size: u8) -> Network {
        let card = format!(r#"{{"name": "fixed", "board_size": {size}, "variant": "standard"}}"#);
        Arc::new(Fixed(ModelCard::from_json(&card).expect("valid card")))
    }

    #[test]
    fn the_evaluator_masks_illegal_moves_and_keeps_values() {
        let mut eval = NetworkEvaluator::new(&fixed(6)).expect("builds");
        let start = Position::start(BoardSize::Six, Variant::Standard);
        let evals = eval.evaluate(&[start, start]).expect("evaluates");
        assert_eq!(evals.len(), 2);
        for e in evals {
            // f6 is not legal at the start, so its high logit counts for nothing.
            assert_eq!(e.priors, vec![0.25; 4]);
            assert_eq!(e.value, 0.25);
            assert_eq!(e.score, Some(-0.5));
        }
        assert_eq!(eval.describe(), "network fixed (fixed)");
    }

    /// A network that keeps the planes it is given, for its card's planes.
    struct Recording(ModelCard, Arc<std::sync::Mutex<Vec<f32>>>);

    struct Recorder(BoardSize, Arc<std::sync::Mutex<Vec<f32>>>);

    impl PlaneRunner for Recorder {
        fn run_planes(&mut self, planes: &[f32], batch: usize) -> Result<Outputs, ModelError> {
            self.1
                .lock()
                .expect("not poisoned")
                .extend_from_slice(planes);
            self.0.run_planes(planes, batch)
        }
    }

    impl Model for Recording {
        fn card(&self) -> &ModelCard {
            &self.0
        }

        fn runtime_name(&self) -> &'static str {
            "recording"
        }

        fn runner(&self) -> Result<Box<dyn PlaneRunner>, ModelError> {
            Ok(Box::new(Recorder(self.0.board()?, self.1.clone())))
        }
    }

    #[test]
    fn the_evaluator_feeds_the_planes_the_card_names() {
        let names = InputPlanes::v2().names();
        let card = format!(
            r#"{{"name": "v2", "board_size": 6, "variant": "standard", "plane_names": {names:?}}}"#
        );
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let card = ModelCard::from_json(&card).expect("valid card");
        let network: Network = Arc::new(Recording(card, seen.clone()));
        let start = Position::start(BoardSize::Six, Variant::Standard);
        let next = start.play(start.legal_move_list()[1]).expect("legal");
        NetworkEvaluator::new(&network)
            .expect("builds")
            .evaluate(&[start, next])
            .expect("evaluates");
        let mut want: Vec<f32> = Vec::new();
        InputPlanes::v2().encode(&start, &mut want);
        InputPlanes::v2().encode(&next, &mut want);
        assert_eq!(want.len(), 2 * 10 * 36);
        assert_eq!(*seen.lock().expect("not poisoned"), want);
    }

    #[test]
    fn the_evaluator_refuses_a_position_of_another_board() {
        let mut eval = NetworkEvaluator::new(&fixed(8)).expect("builds");
        let six = Position::start(BoardSize::Six, Variant::Standard);
        let err = eval.evaluate(&[six]).expect_err("wrong board");
        assert_eq!(
            err.to_string(),
            "the model is for 8x8 standard boards, not 6x6 standard"
        );
    }
}
