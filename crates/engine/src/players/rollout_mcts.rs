//! Pure Monte Carlo tree search: UCT selection, uniformly random playouts to the end of
//! the game, no knowledge beyond the rules. The baseline every learned evaluator must beat.

use crate::players::simple::forced_move;
use crate::{Agent, Budget, Rng};
use othello::raw::{flips, legal_moves};
use othello::{Move, Position, Square, Variant};
use web_time::Instant;

/// Simulations per move when the budget sets neither simulations nor time.
pub const DEFAULT_SIMULATIONS: u64 = 1000;

/// The move code for a pass in the tree: one past the last square of the 8x8 layout.
const PASS: u8 = 64;
const NO_NODE: u32 = u32::MAX;

/// Reading the clock costs far less than a playout, but there is no need to do it every
/// time; 16 playouts overshoot a time budget by a few tens of microseconds at most.
const CLOCK_EVERY: u64 = 16;

/// One tree node. Children hang off `first_child` as a sibling list, so a node is added
/// per simulation and the tree never holds more nodes than simulations + 1.
#[derive(Clone, Debug)]
struct Node {
    /// Discs of the side to move here, and of the other side.
    player: u64,
    opponent: u64,
    /// Placements not yet added as children.
    untried: u64,
    /// The forced pass, while not yet added as a child.
    pass_untried: bool,
    terminal: bool,
    /// The move that led here from the parent (a square index or `PASS`).
    mv: u8,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// Sum of results (win 1, draw 0.5, loss 0) for the side that moved into this node,
    /// i.e. the parent's side to move, which is the side choosing among these children.
    wins: f64,
}

impl Node {
    fn new(player: u64, opponent: u64, mask: u64, mv: u8) -> Node {
        let moves = legal_moves(player, opponent, mask);
        let (pass_untried, terminal) = if moves != 0 {
            (false, false)
        } else if legal_moves(opponent, player, mask) != 0 {
            (true, false)
        } else {
            (false, true)
        };
        Node {
            player,
            opponent,
            untried: moves,
            pass_untried,
            terminal,
            mv,
            first_child: NO_NODE,
            next_sibling: NO_NODE,
            visits: 0,
            wins: 0.0,
        }
    }

    fn is_expanded(&self) -> bool {
        self.untried == 0 && !self.pass_untried
    }
}

/// Plain UCT with random playouts. Values run from 0 (loss) through 0.5 (draw) to 1
/// (win) for the side to move at the node being judged.
#[derive(Debug)]
pub struct RolloutMcts {
    rng: Rng,
    exploration: f64,
    nodes: Vec<Node>,
    path: Vec<u32>,
    last_simulations: u64,
    playouts: u64,
}

impl RolloutMcts {
    pub fn new(seed: u64) -> RolloutMcts {
        RolloutMcts {
            rng: Rng::new(seed),
            exploration: std::f64::consts::SQRT_2,
            nodes: Vec::new(),
            path: Vec::new(),
            last_simulations: 0,
            playouts: 0,
        }
    }

    /// Sets the UCT exploration constant `c` in `Q + c * sqrt(ln N / n)` (default sqrt(2),
    /// the UCB1 value for rewards in [0, 1]).
    pub fn with_exploration(mut self, c: f64) -> RolloutMcts {
        self.exploration = c;
        self
    }

    pub fn exploration(&self) -> f64 {
        self.exploration
    }

    /// Simulations run by the last search (0 when the move was forced).
    pub fn last_simulations(&self) -> u64 {
        self.last_simulations
    }

    /// Random playouts run since this player was made (simulations that reach a finished
    /// game in the tree are scored exactly and need none).
    pub fn playouts(&self) -> u64 {
        self.playouts
    }

    /// Runs a search from `pos` and returns the most visited move.
    fn search(&mut self, pos: &Position, budget: &Budget) -> Move {
        let start = Instant::now();
        let max_sims = match (budget.simulations, budget.time) {
            (Some(sims), _) => sims,
            (None, Some(_)) => u64::MAX,
            (None, None) => DEFAULT_SIMULATIONS,
        };
        let mask = pos.size().mask();
        let variant = pos.variant();
        self.nodes.clear();
        self.nodes
            .push(Node::new(pos.player().0, pos.opponent().0, mask, PASS));
        let mut sims = 0;
        while sims < max_sims {
            if let Some(limit) = budget.time {
                // At least one simulation, so even a zero time budget returns a searched move.
                if sims > 0 && sims % CLOCK_EVERY == 0 && start.elapsed() >= limit {
                    break;
                }
            }
            self.simulate(mask, variant);
            sims += 1;
        }
        self.last_simulations = sims;
        self.best_root_move()
    }

    /// One simulation: select down the tree, add one node, play out, back up.
    fn simulate(&mut self, mask: u64, variant: Variant) {
        self.path.clear();
        let mut index = 0u32;
        self.path.push(index);
        loop {
            let node = &self.nodes[index as usize];
            if node.terminal {
                break;
            }
            if !node.is_expanded() {
                index = self.expand(index, mask);
                self.path.push(index);
                break;
            }
            index = self.select_child(index);
            self.path.push(index);
        }
        let leaf = &self.nodes[index as usize];
        let (player, opponent, terminal) = (leaf.player, leaf.opponent, leaf.terminal);
        let mut result = if terminal {
            final_result(player, opponent, mask, variant)
        } else {
            self.playouts += 1;
            playout(&mut self.rng, player, opponent, mask, variant)
        };
        // `result` is for the side to move at each node in turn; the node stores it for
        // the side that moved in, and the side to move flips at every step up (passes too).
        for &i in self.path.iter().rev() {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            node.wins += 1.0 - result;
            result = 1.0 - result;
        }
    }

    /// Adds one untried child of `parent`, chosen at random, and returns its index.
    fn expand(&mut self, parent: u32, mask: u64) -> u32 {
        let p = &self.nodes[parent as usize];
        let (player, opponent) = (p.player, p.opponent);
        let (child, mv) = if p.pass_untried {
            self.nodes[parent as usize].pass_untried = false;
            (Node::new(opponent, player, mask, PASS), PASS)
        } else {
            let sq = self.rng.choose_bit(p.untried).unwrap_or(0);
            self.nodes[parent as usize].untried &= !(1u64 << sq);
            let flipped = flips(player, opponent, sq);
            let child = Node::new(
                opponent & !flipped,
                player | flipped | (1u64 << sq),
                mask,
                sq,
            );
            (child, sq)
        };
        debug_assert_eq!(child.mv, mv);
        let index = self.nodes.len() as u32;
        let mut child = child;
        child.next_sibling = self.nodes[parent as usize].first_child;
        self.nodes[parent as usize].first_child = index;
        self.nodes.push(child);
        index
    }

    /// The child with the highest UCB1 score; every child has been visited once.
    fn select_child(&self, parent: u32) -> u32 {
        let p = &self.nodes[parent as usize];
        let log_n = f64::from(p.visits.max(1)).ln();
        let mut best = NO_NODE;
        let mut best_score = f64::NEG_INFINITY;
        let mut child = p.first_child;
        while child != NO_NODE {
            let c = &self.nodes[child as usize];
            let n = f64::from(c.visits.max(1));
            let score = c.wins / n + self.exploration * (log_n / n).sqrt();
            if score > best_score {
                best_score = score;
                best = child;
            }
            child = c.next_sibling;
        }
        best
    }

    /// The most visited root move; ties go to the better mean result.
    fn best_root_move(&self) -> Move {
        let mut best: Option<(u32, f64, u8)> = None;
        let mut child = self.nodes.first().map_or(NO_NODE, |root| root.first_child);
        while child != NO_NODE {
            let c = &self.nodes[child as usize];
            let mean = c.wins / f64::from(c.visits.max(1));
            if best.is_none_or(|(v, m, _)| (c.visits, mean) > (v, m)) {
                best = Some((c.visits, mean, c.mv));
            }
            child = c.next_sibling;
        }
        match best {
            Some((_, _, mv)) if mv != PASS => {
                Square::from_index(mv).map_or(Move::Pass, Move::Place)
            }
            _ => Move::Pass,
        }
    }
}

/// Win 1, draw 0.5, loss 0 for the side to move in a finished game.
fn final_result(player: u64, opponent: u64, mask: u64, variant: Variant) -> f64 {
    let empties = (mask & !(player | opponent)).count_ones();
    let margin = variant.margin(player.count_ones(), opponent.count_ones(), empties);
    match margin {
        m if m > 0 => 1.0,
        m if m < 0 => 0.0,
        _ => 0.5,
    }
}

/// Plays uniformly random moves to the end; the result is for the side to move at the start.
fn playout(rng: &mut Rng, mut player: u64, mut opponent: u64, mask: u64, variant: Variant) -> f64 {
    let mut swapped = false;
    loop {
        let moves = legal_moves(player, opponent, mask);
        if moves == 0 {
            if legal_moves(opponent, player, mask) == 0 {
                break;
            }
            std::mem::swap(&mut player, &mut opponent);
            swapped = !swapped;
            continue;
        }
        let sq = rng.choose_bit(moves).unwrap_or(0);
        let flipped = flips(player, opponent, sq);
        let next_player = opponent & !flipped;
        opponent = player | flipped | (1u64 << sq);
        player = next_player;
        swapped = !swapped;
    }
    let result = final_result(player, opponent, mask, variant);
    if swapped {
        1.0 - result
    } else {
        result
    }
}

impl Agent for RolloutMcts {
    fn name(&self) -> String {
        "uct".into()
    }

    fn select_move(&mut self, pos: &Position, budget: &Budget) -> Move {
        if let Some(mv) = forced_move(pos) {
            self.last_simulations = 0;
            return mv;
        }
        self.search(pos, budget)
    }

    fn new_game(&mut self) {
        self.nodes.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::RandomPlayer;
    use crate::Rng;
    use othello::testing::{random_position, Stop};
    use othello::{BoardSize, Color, Game};
    use proptest::prelude::*;
    use std::time::Duration;

    fn play(black: &mut dyn Agent, white: &mut dyn Agent, start: Position, budget: Budget) -> Game {
        let mut game = Game::new(start);
        while !game.position().is_game_over() {
            let pos = *game.position();
            let agent: &mut dyn Agent = if pos.side_to_move() == Color::Black {
                black
            } else {
                white
            };
            let mv = agent.select_move(&pos, &budget);
            game.push(mv).expect("agents play legal moves");
        }
        game
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn every_move_it_picks_is_legal(seed in any::<u64>(), plies in 0usize..60, size in 0usize..3) {
            let size = BoardSize::ALL[size];
            let mut rng = Rng::new(seed);
            let pos = random_position(size, Variant::Standard, Stop::AfterPlies(plies), |n| rng.below(n));
            prop_assume!(!pos.is_game_over());
            let mv = RolloutMcts::new(seed).select_move(&pos, &Budget::simulations(50));
            prop_assert!(pos.is_legal(mv), "{mv} in {}", pos.to_board_text());
        }
    }

    #[test]
    fn it_runs_exactly_the_simulations_the_budget_allows() {
        let pos = Position::start(BoardSize::Eight, Variant::Standard);
        let mut mcts = RolloutMcts::new(1);
        mcts.select_move(&pos, &Budget::simulations(137));
        assert_eq!(mcts.last_simulations(), 137);
        // Early in the game no simulation reaches a finished game, so each one is a playout.
        assert_eq!(mcts.playouts(), 137);
        mcts.select_move(&pos, &Budget::default());
        assert_eq!(mcts.last_simulations(), DEFAULT_SIMULATIONS);
        assert_eq!(mcts.playouts(), 137 + DEFAULT_SIMULATIONS);
    }

    #[test]
    fn a_time_budget_stops_the_search_in_time() {
        let pos = Position::start(BoardSize::Eight, Variant::Standard);
        let mut mcts = RolloutMcts::new(1);
        let clock = Instant::now();
        mcts.select_move(&pos, &Budget::time(Duration::from_millis(50)));
        let elapsed = clock.elapsed();
        assert!(elapsed < Duration::from_millis(500), "took {elapsed:?}");
        assert!(mcts.last_simulations() > 0);
    }

    #[test]
    fn it_takes_the_only_winning_move() {
        // 6x6, Black to move. a1 flips b1 and b2, White's last discs, and wins at once;
        // a3 flips only b2 and the game goes on.
        let mut board = vec!['-'; 36];
        board[1] = 'O'; // b1
        board[7] = 'O'; // b2
        board[2] = 'X'; // c1
        board[14] = 'X'; // c3
        let text: String = board.into_iter().collect();
        let pos = Position::from_board_text(&format!("{text} X"), Variant::Standard)
            .expect("valid board text");
        let a1 = Move::Place(Square::parse("a1", BoardSize::Six).expect("square"));
        let winning: Vec<Move> = pos
            .legal_move_list()
            .into_iter()
            .filter(|mv| crate::players::wins_at_once(&pos, *mv))
            .collect();
        assert_eq!(winning, vec![a1], "the set-up has one winning move");
        assert!(pos.legal_moves().count() >= 2, "and a real choice");
        for seed in 0..5 {
            let mv = RolloutMcts::new(seed).select_move(&pos, &Budget::simulations(200));
            assert_eq!(mv, a1, "seed {seed}");
        }
    }

    #[test]
    fn it_beats_random_on_six_by_six_with_few_simulations() {
        let mut wins = 0;
        for game in 0..10u64 {
            let start = Position::start(BoardSize::Six, Variant::Standard);
            let mut mcts = RolloutMcts::new(game);
            let mut random = RandomPlayer::new(game + 100);
            let mcts_color = if game % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let played = if mcts_color == Color::Black {
                play(&mut mcts, &mut random, start, Budget::simulations(100))
            } else {
                play(&mut random, &mut mcts, start, Budget::simulations(100))
            };
            let outcome = played.position().outcome().expect("finished");
            if outcome.winner() == Some(mcts_color) {
                wins += 1;
            }
        }
        assert!(wins >= 8, "mcts won only {wins} of 10");
    }

    #[test]
    fn the_same_seed_plays_the_same_game() {
        let start = Position::start(BoardSize::Six, Variant::Standard);
        let budget = Budget::simulations(60);
        let game = |seed| {
            play(
                &mut RolloutMcts::new(seed),
                &mut RolloutMcts::new(seed + 1),
                start,
                budget,
            )
            .moves()
            .to_vec()
        };
        assert_eq!(game(3), game(3));
        assert_ne!(game(3), game(5));
    }

    #[test]
    fn playouts_score_the_reversed_variant_from_the_right_side() {
        // A finished 4x4 board: Black 10, White 6. Standard: Black (to move) wins;
        // reversed: Black loses. A playout from a finished game returns the result at once.
        let black = 0x0000_0000_0f0f_0300u64;
        let white = BoardSize::Four.mask() & !black;
        assert_eq!(black.count_ones(), 10);
        let mask = BoardSize::Four.mask();
        let mut rng = Rng::new(0);
        assert_eq!(
            playout(&mut rng, black, white, mask, Variant::Standard),
            1.0
        );
        assert_eq!(
            playout(&mut rng, black, white, mask, Variant::Reversed),
            0.0
        );
        assert_eq!(
            playout(&mut rng, white, black, mask, Variant::Standard),
            0.0
        );
    }
}
