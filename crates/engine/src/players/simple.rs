//! Players that look no further than one move.

use crate::{Agent, Budget, Rng};
use othello::{Move, Position};

/// Plays the only legal move, or `None` when there is a real choice to make: passes and
/// single replies need no thought.
pub(crate) fn forced_move(pos: &Position) -> Option<Move> {
    let moves = pos.legal_moves();
    match moves.count() {
        0 => Some(Move::Pass),
        1 => moves.first().map(Move::Place),
        _ => None,
    }
}

/// True when `mv` ends the game at once with a win for the side that plays it.
pub(crate) fn wins_at_once(pos: &Position, mv: Move) -> bool {
    pos.play(mv)
        .ok()
        .and_then(|next| next.outcome())
        .is_some_and(|outcome| outcome.winner() == Some(pos.side_to_move()))
}

/// Picks uniformly among the legal moves.
#[derive(Debug)]
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Agent for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn select_move(&mut self, pos: &Position, _budget: &Budget) -> Move {
        forced_move(pos).unwrap_or_else(|| {
            let moves: Vec<Move> = pos.legal_move_list();
            *self.rng.choose(&moves).unwrap_or(&Move::Pass)
        })
    }
}

/// Flips the most discs; ties broken at random.
#[derive(Debug)]
pub struct GreedyPlayer {
    rng: Rng,
}

impl GreedyPlayer {
    pub fn new(seed: u64) -> GreedyPlayer {
        GreedyPlayer {
            rng: Rng::new(seed),
        }
    }
}

/// The moves with the highest `score`, ties kept, then one of them at random.
pub(crate) fn best_by<F: Fn(&Position, Move) -> i64>(
    pos: &Position,
    rng: &mut Rng,
    score: F,
) -> Move {
    let mut best = Vec::new();
    let mut best_score = i64::MIN;
    for mv in pos.legal_move_list() {
        let s = score(pos, mv);
        if s > best_score {
            best_score = s;
            best.clear();
        }
        if s == best_score {
            best.push(mv);
        }
    }
    *rng.choose(&best).unwrap_or(&Move::Pass)
}

impl Agent for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn select_move(&mut self, pos: &Position, _budget: &Budget) -> Move {
        forced_move(pos)
            .unwrap_or_else(|| best_by(pos, &mut self.rng, |p, mv| p.flips(mv).count() as i64))
    }
}

/// Takes a move that ends the game with a win at once; otherwise plays at random.
#[derive(Debug)]
pub struct NovicePlayer {
    rng: Rng,
}

impl NovicePlayer {
    pub fn new(seed: u64) -> NovicePlayer {
        NovicePlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Agent for NovicePlayer {
    fn name(&self) -> String {
        "novice".into()
    }

    fn select_move(&mut self, pos: &Position, _budget: &Budget) -> Move {
        if let Some(mv) = forced_move(pos) {
            return mv;
        }
        let winning: Vec<Move> = pos
            .legal_move_list()
            .into_iter()
            .filter(|mv| wins_at_once(pos, *mv))
            .collect();
        if let Some(mv) = self.rng.choose(&winning) {
            return *mv;
        }
        let moves = pos.legal_move_list();
        *self.rng.choose(&moves).unwrap_or(&Move::Pass)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::{BoardSize, Game, Square, Variant};

    fn start() -> Position {
        Position::start(BoardSize::Eight, Variant::Standard)
    }

    fn play_out(agent: &mut dyn Agent, seed_pos: Position) -> Game {
        let mut game = Game::new(seed_pos);
        while !game.position().is_game_over() {
            let mv = agent.select_move(game.position(), &Budget::default());
            game.push(mv).expect("agents play legal moves");
        }
        game
    }

    #[test]
    fn simple_players_finish_games_with_legal_moves_on_every_board() {
        for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
            for seed in 0..20 {
                let pos = Position::start(size, Variant::Standard);
                play_out(&mut RandomPlayer::new(seed), pos);
                play_out(&mut GreedyPlayer::new(seed), pos);
                play_out(&mut NovicePlayer::new(seed), pos);
            }
        }
    }

    #[test]
    fn the_same_seed_plays_the_same_game() {
        let a = play_out(&mut RandomPlayer::new(5), start());
        let b = play_out(&mut RandomPlayer::new(5), start());
        let c = play_out(&mut RandomPlayer::new(6), start());
        assert_eq!(a.moves(), b.moves());
        assert_ne!(a.moves(), c.moves());
    }

    #[test]
    fn greedy_takes_the_move_that_flips_most() {
        // Black to move: e1 flips three discs (b1, c1, d1), c3 flips one (b3).
        let board = format!("XOOO----{}XO------{}", "-".repeat(8), "-".repeat(40));
        let pos =
            Position::from_board_text(&format!("{board} X"), Variant::Standard).expect("valid");
        assert_eq!(pos.legal_moves().count(), 2);
        let mv = GreedyPlayer::new(0).select_move(&pos, &Budget::default());
        assert_eq!(
            mv,
            Move::Place(Square::parse("e1", BoardSize::Eight).expect("valid"))
        );
    }

    #[test]
    fn novice_takes_an_immediate_win_whenever_there_is_one() {
        // Random 4x4 games reach many positions where some moves end the game with a win
        // and others do not; in each, novice must pick a winning one.
        let mut checked = 0;
        for seed in 0..300 {
            let mut random = RandomPlayer::new(seed);
            let mut pos = Position::start(BoardSize::Four, Variant::Standard);
            while !pos.is_game_over() {
                let wins = |mv: Move| wins_at_once(&pos, mv);
                let moves = pos.legal_move_list();
                let winning = moves.iter().filter(|m| wins(**m)).count();
                if winning > 0 && winning < moves.len() {
                    let choice = NovicePlayer::new(seed).select_move(&pos, &Budget::default());
                    assert!(
                        wins(choice),
                        "novice missed a win in {}",
                        pos.to_board_text()
                    );
                    checked += 1;
                }
                pos = pos
                    .play(random.select_move(&pos, &Budget::default()))
                    .expect("legal");
            }
        }
        assert!(
            checked > 20,
            "only {checked} positions with a choice of win"
        );
    }
}
