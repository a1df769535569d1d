//! The network without search: the policy-based and value-based players of the RL tutorial
//! this project grew from. They show what the search adds to the same network: `policy`
//! plays the move the policy head likes best, `value` the move into the position the value
//! head likes best (one batched evaluation of every child). Neither looks further.

use crate::agent::{Agent, Budget, Thinking};
use crate::evaluator::{EvalError, Evaluator};
use crate::report::{MoveInfo, Proof, SearchInfo};
use crate::Rng;
use othello::{Move, Position};
use std::time::Duration;

/// Plays the legal move with the highest prior; ties at random.
#[derive(Debug)]
pub struct PolicyPlayer<E: Evaluator> {
    evaluator: E,
    rng: Rng,
    /// The last evaluator failure, if the player had to fall back to a plain move.
    pub last_error: Option<String>,
}

/// Plays the move whose resulting position the value head rates worst for the opponent;
/// a move that ends the game is scored exactly. Ties at random.
#[derive(Debug)]
pub struct ValuePlayer<E: Evaluator> {
    evaluator: E,
    rng: Rng,
    /// The last evaluator failure, if the player had to fall back to a plain move.
    pub last_error: Option<String>,
}

impl<E: Evaluator> PolicyPlayer<E> {
    pub fn new(evaluator: E, seed: u64) -> PolicyPlayer<E> {
        PolicyPlayer {
            evaluator,
            rng: Rng::new(seed),
            last_error: None,
        }
    }

    /// Every legal move with its prior, most likely first; the root value is the network's.
    pub fn judge(&mut self, pos: &Position) -> Result<SearchInfo, EvalError> {
        let squares = pos.size().squares() as f32;
        let eval = self
            .evaluator
            .evaluate(std::slice::from_ref(pos))?
            .pop()
            .ok_or_else(|| EvalError::Failed("no evaluation returned".into()))?;
        let mut moves: Vec<MoveInfo> = pos
            .legal_move_list()
            .into_iter()
            .zip(eval.priors.iter().copied().chain(std::iter::repeat(0.0)))
            .map(|(mv, prior)| MoveInfo {
                mv,
                visits: 0,
                prior,
                q: 0.0,
                proof: None,
                bounds: None,
                target: prior,
                score: None,
            })
            .collect();
        let chosen = pick(&moves, |m| m.prior, &mut self.rng);
        moves.sort_by(|a, b| b.prior.total_cmp(&a.prior));
        Ok(report(
            moves,
            chosen,
            eval.value,
            eval.score.map(|s| s * squares),
        ))
    }
}

impl<E: Evaluator> ValuePlayer<E> {
    pub fn new(evaluator: E, seed: u64) -> ValuePlayer<E> {
        ValuePlayer {
            evaluator,
            rng: Rng::new(seed),
            last_error: None,
        }
    }

    /// Every legal move with the value of its result for the side to move, best first.
    pub fn judge(&mut self, pos: &Position) -> Result<SearchInfo, EvalError> {
        let squares = pos.size().squares() as f32;
        let side = pos.side_to_move();
        let children: Vec<(Move, Position)> = pos
            .legal_move_list()
            .into_iter()
            .map(|mv| (mv, pos.play_unchecked(mv)))
            .collect();
        let open: Vec<Position> = children
            .iter()
            .map(|(_, child)| *child)
            .filter(|child| !child.is_game_over())
            .collect();
        let mut evals = if open.is_empty() {
            Vec::new()
        } else {
            self.evaluator.evaluate(&open)?
        }
        .into_iter();
        let mut moves = Vec::with_capacity(children.len());
        for (mv, child) in children {
            // A finished game's margin is exact; a network's score is an estimate.
            let (q, exact, score) = match child.outcome() {
                Some(outcome) => {
                    let margin = outcome.margin_for(side);
                    let value = Proof::from_margin(margin).value();
                    (value, Some(margin), Some(margin as f32))
                }
                None => {
                    let eval = evals
                        .next()
                        .ok_or_else(|| EvalError::Failed("too few evaluations returned".into()))?;
                    (-eval.value, None, eval.score.map(|s| -s * squares))
                }
            };
            moves.push(MoveInfo {
                mv,
                visits: 0,
                prior: 0.0,
                q,
                proof: exact.map(Proof::from_margin),
                bounds: exact.map(|margin| (margin, margin)),
                target: 0.0,
                score,
            });
        }
        // A proven win beats any estimate and a proven loss is worse than any.
        let rank = |m: &MoveInfo| match m.proof {
            Some(Proof::Win) => 2.0,
            Some(Proof::Loss) => -2.0,
            _ => m.q,
        };
        let chosen = pick(&moves, rank, &mut self.rng);
        let best = moves.iter().find(|m| Some(m.mv) == chosen);
        let (value, score) = best.map_or((0.0, None), |m| (m.q, m.score));
        moves.sort_by(|a, b| rank(b).total_cmp(&rank(a)));
        for m in &mut moves {
            m.target = if Some(m.mv) == chosen { 1.0 } else { 0.0 };
        }
        Ok(report(moves, chosen, value, score))
    }
}

/// The move with the highest `key`, ties at random.
fn pick(moves: &[MoveInfo], key: impl Fn(&MoveInfo) -> f32, rng: &mut Rng) -> Option<Move> {
    let best = moves.iter().map(&key).fold(f32::NEG_INFINITY, f32::max);
    let tied: Vec<Move> = moves
        .iter()
        .filter(|m| key(m) == best)
        .map(|m| m.mv)
        .collect();
    rng.choose(&tied).copied()
}

fn report(
    moves: Vec<MoveInfo>,
    chosen: Option<Move>,
    value: f32,
    score: Option<f32>,
) -> SearchInfo {
    SearchInfo {
        pv: chosen.into_iter().collect(),
        moves,
        value,
        proof: None,
        score,
        solved: None,
        chosen,
        book: None,
        simulations: 0,
        root_visits: 0,
        elapsed: Duration::ZERO,
    }
}

/// The agent side both players share: judge, play the chosen move, and fall back to a
/// legal move (saying why) when the network fails, so that a broken model cannot stop a game.
macro_rules! network_agent {
    ($player:ident, $kind:literal) => {
        impl<E: Evaluator + Send> Agent for $player<E> {
            fn name(&self) -> String {
                format!(concat!($kind, " ({})"), self.evaluator.describe())
            }

            fn select_move(&mut self, pos: &Position, _budget: &Budget) -> Move {
                let fallback = pos.legal_move_list().first().copied().unwrap_or(Move::Pass);
                match self.judge(pos) {
                    Ok(info) => info.chosen.unwrap_or(fallback),
                    Err(e) => {
                        self.last_error = Some(e.to_string());
                        fallback
                    }
                }
            }

            fn think_more(
                &mut self,
                thinking: &mut Thinking,
                _slice: Duration,
            ) -> Result<SearchInfo, EvalError> {
                let mut info = self.judge(&thinking.position)?;
                thinking.finish();
                info.elapsed = thinking.elapsed();
                Ok(info)
            }
        }
    };
}

network_agent!(PolicyPlayer, "policy");
network_agent!(ValuePlayer, "value");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluator::Evaluation;
    use othello::{BoardSize, Square, Variant};

    /// Priors favour the last legal move; a position's value is its own disc difference over
    /// the squares, for the side to move (so the value player is greedy for discs).
    struct Counting;

    impl Evaluator for Counting {
        fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
            Ok(positions
                .iter()
                .map(|p| {
                    let n = p.legal_move_list().len();
                    let mut priors = vec![0.5 / n as f32; n];
                    priors[n - 1] += 0.5;
                    let diff = p.player().count() as f32 - p.opponent().count() as f32;
                    Evaluation {
                        priors,
                        value: diff / p.size().squares() as f32,
                        score: None,
                    }
                })
                .collect())
        }

        fn describe(&self) -> String {
            "counting".into()
        }
    }

    struct Broken;

    impl Evaluator for Broken {
        fn evaluate(&mut self, _: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
            Err(EvalError::Failed("no network".into()))
        }

        fn describe(&self) -> String {
            "broken".into()
        }
    }

    fn start() -> Position {
        Position::start(BoardSize::Eight, Variant::Standard)
    }

    #[test]
    fn the_policy_player_plays_the_highest_prior() {
        let pos = start();
        let last = *pos.legal_move_list().last().expect("moves");
        let mut player = PolicyPlayer::new(Counting, 1);
        assert_eq!(player.select_move(&pos, &Budget::default()), last);
        let info = player.judge(&pos).expect("judges");
        assert_eq!(info.moves[0].mv, last);
        assert_eq!(info.best_move(), Some(last));
        assert_eq!(player.name(), "policy (counting)");
    }

    #[test]
    fn the_value_player_plays_into_the_position_the_value_head_rates_worst_for_the_opponent() {
        // Black to move: e1 flips three discs, c3 one; the counting value prefers e1.
        let board = format!("XOOO----{}XO------{}", "-".repeat(8), "-".repeat(40));
        let pos =
            Position::from_board_text(&format!("{board} X"), Variant::Standard).expect("valid");
        let mut player = ValuePlayer::new(Counting, 3);
        let e1 = Move::Place(Square::parse("e1", BoardSize::Eight).expect("square"));
        assert_eq!(player.select_move(&pos, &Budget::default()), e1);
        let info = player.judge(&pos).expect("judges");
        assert_eq!(info.moves[0].mv, e1);
        assert!(info.moves[0].q > info.moves[1].q);
    }

    #[test]
    fn a_move_that_wins_at_once_is_proven_and_played() {
        // 4x4 positions where one move ends the game with a win and another does not.
        let mut rng = Rng::new(9);
        let mut checked = 0;
        for _ in 0..300 {
            let mut pos = Position::start(BoardSize::Four, Variant::Standard);
            while !pos.is_game_over() {
                let moves = pos.legal_move_list();
                let wins: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| crate::players::wins_at_once(&pos, m))
                    .collect();
                if !wins.is_empty() && wins.len() < moves.len() {
                    let mut player = ValuePlayer::new(Counting, 1);
                    let mv = player.select_move(&pos, &Budget::default());
                    assert!(wins.contains(&mv), "{}", pos.to_board_text());
                    let info = player.judge(&pos).expect("judges");
                    assert_eq!(info.moves[0].proof, Some(Proof::Win));
                    checked += 1;
                }
                pos = pos.play_unchecked(*rng.choose(&moves).expect("a move"));
            }
        }
        assert!(checked > 10, "only {checked} positions");
    }

    #[test]
    fn a_broken_network_still_gets_a_legal_move_and_the_reason() {
        let pos = start();
        let mut policy = PolicyPlayer::new(Broken, 0);
        assert!(pos.is_legal(policy.select_move(&pos, &Budget::default())));
        assert!(policy
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("no network")));
        let mut value = ValuePlayer::new(Broken, 0);
        assert!(pos.is_legal(value.select_move(&pos, &Budget::default())));
        assert!(value.last_error.is_some());
        let error = value
            .think(&pos, &Budget::default(), &mut |_| true)
            .expect_err("think reports the failure");
        assert!(error.to_string().contains("no network"));
    }
}
