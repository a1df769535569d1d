use super::*;
use crate::agent::Thinking;
use crate::mcts::default_exact_root_empties;
use crate::report::{value_of_discs, MoveInfo, Proof};
use crate::{NoModels, PlayerSpec, Rng};
use othello::{BoardSize, Square, Symmetry, Variant};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn square(name: &str) -> Move {
    Move::Place(Square::parse(name, BoardSize::Eight).expect("a square"))
}

#[test]
fn a_loss_is_marked_by_the_thresholds_in_discs() {
    for (loss, mark) in [
        (0.0, Mark::Best),
        (1.99, Mark::Best),
        (INACCURACY_DISCS, Mark::Inaccuracy),
        (3.99, Mark::Inaccuracy),
        (MISTAKE_DISCS, Mark::Mistake),
        (7.99, Mark::Mistake),
        (BLUNDER_DISCS, Mark::Blunder),
        (40.0, Mark::Blunder),
    ] {
        assert_eq!(Mark::of_loss(loss), mark, "loss {loss}");
    }
}

#[test]
fn within_reach_of_the_best_a_move_is_best_near_best_or_uncertain() {
    // Issue 68: the summary counted every move within 2 discs as best, where the page's
    // table marked those that were not the best found near-best, and those within reach of
    // a bound uncertain.
    assert_eq!(Mark::of(1.2, true, false), Mark::Best);
    assert_eq!(Mark::of(1.2, false, false), Mark::NearBest);
    assert_eq!(Mark::of(0.0, true, true), Mark::Uncertain);
    assert_eq!(Mark::of(5.0, false, true), Mark::Mistake);
    let (d3, c4) = (square("d3"), square("c4"));
    let near = MoveReview::new(
        Color::Black,
        (d3, Value::estimate(1.0)),
        (c4, Value::estimate(2.2)),
    );
    assert_eq!(near.mark, Mark::NearBest);
    let equal = MoveReview::new(Color::Black, (d3, Value::exact(4)), (c4, Value::exact(4)));
    assert_eq!(equal.mark, Mark::Best);
    // Two estimates the table writes alike (the fifteenth look: both capped at 63.00) are a
    // tie, and a tie is best; a hundredth apart is not.
    let tied = |played: f32| {
        MoveReview::new(
            Color::Black,
            (d3, Value::estimate(played)),
            (c4, Value::estimate(63.0)),
        )
        .mark
    };
    assert_eq!(tied(63.0), Mark::Best);
    assert_eq!(tied(62.998), Mark::Best);
    assert_eq!(tied(62.99), Mark::NearBest);
    let summary = SideSummary::of(&[near, equal], Color::Black);
    assert!(
        summary
            .to_string()
            .contains("(best 1, near-best 1, uncertain 0, inaccuracy 0, mistake 0, blunder 0)"),
        "{summary}"
    );
}

#[test]
fn the_loss_is_best_minus_played_and_never_negative() {
    let (f5, d3) = (square("f5"), square("d3"));
    let worse = MoveReview::new(
        Color::Black,
        (f5, Value::estimate(-3.0)),
        (d3, Value::estimate(2.5)),
    );
    assert_eq!(
        (worse.best, worse.loss, worse.mark),
        (d3, 5.5, Mark::Mistake)
    );
    // A played move valued above the search's choice is the best one, at no loss.
    let better = MoveReview::new(
        Color::Black,
        (f5, Value::exact(4)),
        (d3, Value::estimate(1.0)),
    );
    assert_eq!(better.best, f5);
    assert_eq!(better.best_value, Some(Value::exact(4)));
    assert_eq!((better.loss, better.mark), (0.0, Mark::Best));
    // The search's choice played is the best, whatever the figures.
    let same = MoveReview::new(
        Color::White,
        (d3, Value::estimate(1.0)),
        (d3, Value::estimate(1.5)),
    );
    assert_eq!((same.loss, same.mark), (0.0, Mark::Best));
}

#[test]
fn the_summary_averages_the_loss_over_moves_with_a_choice_and_counts_marks() {
    let mv = square("f5");
    let review = |side, loss: f32| {
        MoveReview::new(
            side,
            (mv, Value::estimate(-loss)),
            (mv, Value::estimate(0.0)),
        )
    };
    let (c4, e3) = (square("c4"), square("e3"));
    let reviews = [
        MoveReview::new(Color::Black, (c4, Value::exact(-10)), (e3, Value::exact(0))),
        MoveReview::new(Color::White, (c4, Value::exact(0)), (e3, Value::exact(2))),
        MoveReview::new(Color::Black, (c4, Value::exact(-3)), (e3, Value::exact(0))),
        MoveReview::forced(Color::Black, Move::Pass),
        review(Color::Black, 0.0),
    ];
    let black = SideSummary::of(&reviews, Color::Black);
    assert_eq!((black.moves, black.forced), (3, 1));
    assert!((black.average_loss - 13.0 / 3.0).abs() < 1e-6);
    assert_eq!(black.total_loss, 13.0);
    assert!(black
        .to_string()
        .ends_with("; 1 forced move; 13.00 discs lost in all"));
    assert_eq!(black.marks, [1, 0, 0, 1, 0, 1]);
    let white = SideSummary::of(&reviews, Color::White);
    assert_eq!((white.moves, white.forced, white.average_loss), (1, 0, 2.0));
    assert_eq!(white.count(Mark::Inaccuracy), 1);
    assert_eq!(SideSummary::of(&[], Color::White), SideSummary::default());
}

#[test]
fn a_total_with_a_bounded_loss_in_it_says_it_is_at_least_that() {
    // The fourteenth look: row 39's "≥8" (its loss 14) summed into "275.59 discs lost in
    // all" with no word that the total is only a floor.
    let (a4, d2) = (square("a4"), square("d2"));
    let exact = MoveReview::new(Color::Black, (a4, Value::exact(38)), (d2, Value::exact(40)));
    let bound = MoveReview::new(
        Color::Black,
        (a4, Value::exact(38)),
        (d2, Value::estimate(50.0)),
    )
    .below_a_proven_floor(46);
    let black = SideSummary::of(&[exact.clone(), bound], Color::Black);
    assert_eq!((black.bounded, black.total_loss), (1, 10.0));
    let words = black.to_string();
    assert!(
        words.starts_with("average loss at least 5.00 discs"),
        "{words}"
    );
    assert!(
        words.ends_with("at least 10.00 discs lost in all (one move's loss only a lower bound, ≥)"),
        "{words}"
    );
    let plain = SideSummary::of(&[exact], Color::Black).to_string();
    assert!(!plain.contains("at least"), "{plain}");
}

#[test]
fn the_total_loss_is_the_sum_of_the_losses_as_written() {
    // Three losses the tables write as 0.33: the total is 0.99, what a reader adds up,
    // not the 1.00 the unrounded sum rounds to.
    let (c4, e3) = (square("c4"), square("e3"));
    let third = |side| {
        MoveReview::new(
            side,
            (c4, Value::estimate(-1.0 / 3.0)),
            (e3, Value::estimate(0.0)),
        )
    };
    let reviews = [
        third(Color::Black),
        third(Color::Black),
        third(Color::Black),
    ];
    let black = SideSummary::of(&reviews, Color::Black);
    assert_eq!(format!("{:.2}", black.total_loss), "0.99");
    assert!(
        black.to_string().ends_with("; 0.99 discs lost in all"),
        "{black}"
    );
}

#[test]
fn discs_of_value_undoes_value_of_discs() {
    for discs in [-30.0f32, -8.0, -1.5, 0.0, 0.25, 6.0, 20.0] {
        let back = discs_of_value(value_of_discs(discs));
        assert!((back - discs).abs() < 0.05, "{discs} came back as {back}");
    }
    // A certain result is held to a finite number of discs.
    assert!(discs_of_value(1.0).is_finite() && discs_of_value(1.0) > 30.0);
}

fn visited(mv: Move, visits: u32, q: f32, score: Option<f32>) -> MoveInfo {
    MoveInfo {
        mv,
        visits,
        prior: 0.5,
        q,
        proof: None,
        bounds: None,
        target: 0.0,
        score,
    }
}

#[test]
fn a_report_values_the_moves_it_searched_and_no_others() {
    let (d3, c4, f5) = (square("d3"), square("c4"), square("f5"));
    let mut info = SearchInfo::decided(d3, Duration::ZERO);
    // A player that only names its move values nothing, not even that move.
    assert_eq!(move_value(&info, d3, 64), None);
    assert_eq!(root_value(&info, 64), None);
    info.simulations = 10;
    info.moves = vec![
        visited(d3, 8, 0.3, Some(2.5)),
        visited(c4, 2, value_of_discs(-4.0), None),
        visited(f5, 0, 0.0, None),
    ];
    assert_eq!(move_value(&info, d3, 64), Some(Value::estimate(2.5)));
    let c4_value = move_value(&info, c4, 64).expect("visited");
    assert!((c4_value.discs + 4.0).abs() < 1e-3 && !c4_value.exact);
    assert_eq!(move_value(&info, f5, 64), None);
    // Proven bounds hold the estimate, and equal bounds make it exact.
    info.moves[0].bounds = Some((4, 64));
    assert_eq!(move_value(&info, d3, 64), Some(Value::estimate(4.0)));
    info.moves[2].bounds = Some((-6, -6));
    assert_eq!(move_value(&info, f5, 64), Some(Value::exact(-6)));
    // An estimate stops one short of a wipe-out, which only a proof may claim, on every
    // board; a bound of all the squares is a proof all the same.
    info.moves[1].score = Some(70.0);
    assert_eq!(move_value(&info, c4, 64), Some(Value::estimate(63.0)));
    assert_eq!(move_value(&info, c4, 36), Some(Value::estimate(35.0)));
    info.moves[1].bounds = Some((63, 64));
    assert_eq!(move_value(&info, c4, 64), Some(Value::estimate(63.0)));
    info.moves[1].bounds = Some((64, 64));
    assert_eq!(move_value(&info, c4, 64), Some(Value::exact(64)));
    info.moves[1].score = Some(-70.0);
    info.moves[1].bounds = None;
    assert_eq!(move_value(&info, c4, 36), Some(Value::estimate(-35.0)));
    info.moves[1].score = None;
    // The root's exact solve makes its best move's margin exact; a proof of the result
    // alone leaves it a bound, held by the move's own bounds.
    info.solved = Some(crate::report::Solved {
        best: d3,
        margin: 6,
        upper: 64,
        nodes: 1,
        micros: 1,
    });
    assert_eq!(move_value(&info, d3, 64), Some(Value::estimate(4.0)));
    info.solved = info.solved.map(|s| crate::report::Solved { upper: 6, ..s });
    assert_eq!(move_value(&info, d3, 64), Some(Value::exact(6)));
}

/// A game from the start: `opening` plies of the first legal move (a quiet, reproducible
/// line), then moves drawn at random to the end, so that the ending has mistakes in it.
fn game_with_a_random_ending(opening: u32, seed: u64) -> Game {
    let mut game = Game::new(Position::start(BoardSize::Eight, Variant::Standard));
    let mut rng = Rng::new(seed);
    while !game.position().is_game_over() {
        let moves = game.position().legal_move_list();
        let mv = if game.moves().len() < opening as usize {
            moves[0]
        } else {
            moves[rng.below(moves.len())]
        };
        game.push(mv).expect("a legal move");
    }
    game
}

/// Checks every reviewed move of the last `empties` empties against margins the solver
/// gives for each legal move directly; returns how many moves fell short of the best.
fn assert_exact_in_the_ending(game: &Game, reviews: &[MoveReview], empties: u32) -> usize {
    let mut short = 0;
    for ((pos, &mv), review) in game.positions().iter().zip(game.moves()).zip(reviews) {
        if pos.empty_count() > empties {
            continue;
        }
        if pos.legal_move_list().len() == 1 {
            assert!(review.is_forced(), "{pos}: {review:?}");
            continue;
        }
        let margins = Solver::new().score_moves(pos);
        let best = margins.iter().map(|&(_, m)| m).max().expect("moves");
        let played = margins
            .iter()
            .find(|&&(m, _)| m == mv)
            .map(|&(_, margin)| margin)
            .expect("the played move is legal");
        assert_eq!(review.value, Some(Value::exact(played)), "{pos} {mv}");
        assert_eq!(review.best_value, Some(Value::exact(best)), "{pos} {mv}");
        assert_eq!(review.loss, (best - played) as f32, "{pos} {mv}");
        assert_eq!(
            review.mark,
            Mark::of(review.loss, review.as_good_as_the_best(), false)
        );
        assert!(margins.contains(&(review.best, best)), "{pos}: {review:?}");
        short += usize::from(played < best);
    }
    short
}

fn review(game: &Game, exact_empties: Option<u32>) -> Vec<MoveReview> {
    review_by(game, "mcts:sims=8", exact_empties)
}

fn review_by(game: &Game, spec: &str, exact_empties: Option<u32>) -> Vec<MoveReview> {
    let spec: PlayerSpec = spec.parse().expect("a spec");
    let (agent, budget) = spec.build(3, &NoModels).expect("an agent");
    let mut reviewer = Reviewer::new(agent, budget);
    if let Some(empties) = exact_empties {
        reviewer = reviewer.with_exact_empties(empties);
    }
    let mut heard = 0;
    let reviews = reviewer
        .review_game(game, &mut |index, _| {
            assert_eq!(index, heard);
            heard += 1;
        })
        .expect("a review");
    assert_eq!(reviews.len(), game.moves().len());
    reviews
}

#[test]
fn the_last_fourteen_moves_are_valued_with_the_solvers_exact_margins() {
    let game = game_with_a_random_ending(46, 5);
    // Solved by the reviewer itself.
    let short = assert_exact_in_the_ending(&game, &review(&game, None), 14);
    assert!(short > 0, "a random ending has moves short of the best");
    // Solved by the agent's root solve: the report's margins, and for a move it did not
    // play, the root solve of the position after it.
    assert_exact_in_the_ending(&game, &review(&game, Some(0)), 14);
}

/// A review grades a game's ending as Othello's reviewers do, exactly from its own reach
/// (more empties than the agent's root rule solves, and whatever a spec's `exact=` says):
/// every row there carries the solver's margins of the played move and of the best, as the
/// solver gives them for every legal move, one position at a time with a fresh table.
/// Before, rows beyond the agent's 16 empties were a search's estimates (a Saio game's
/// row at 21 empties read "d2 ≈ −42.00 best" where c4 is -38).
#[test]
fn a_review_is_exact_from_its_own_reach_whatever_the_agent_solves() {
    let reach = review_exact_empties(BoardSize::Eight);
    assert!(reach > default_exact_root_empties(BoardSize::Eight));
    let game = game_with_a_random_ending(28, 13);
    let agent_reach = default_exact_root_empties(BoardSize::Eight);
    let beyond_the_agent = game
        .positions()
        .iter()
        .filter(|pos| pos.legal_move_list().len() > 1)
        .filter(|pos| (agent_reach + 1..=reach).contains(&pos.empty_count()))
        .count();
    assert!(
        beyond_the_agent >= 3,
        "rows beyond the agent's reach: {beyond_the_agent}"
    );
    for spec in ["mcts:sims=8", "mcts:sims=8,exact=10"] {
        let reviews = review_by(&game, spec, None);
        assert_exact_in_the_ending(&game, &reviews, reach);
    }
}

/// Each legal move of `pos` with its exact margin, and the best of them, by the solver.
/// The first position of `game` two plies beyond the review's `reach` with a choice.
fn two_plies_beyond(game: &Game, reach: u32) -> Position {
    game.positions()
        .iter()
        .copied()
        .find(|p| p.empty_count() == reach + 2 && p.legal_move_list().len() > 1)
        .expect("a position two plies beyond the reach")
}

fn margins_and_best(pos: &Position) -> (Vec<(Move, i32)>, i32) {
    let margins = Solver::new().score_moves(pos);
    let best = margins.iter().map(|&(_, m)| m).max().expect("moves");
    (margins, best)
}

/// The review of `mv` played at `pos` by a fresh reviewer with `spec`'s agent.
fn review_one(spec: &PlayerSpec, pos: &Position, mv: Move) -> MoveReview {
    let (agent, budget) = spec.build(3, &NoModels).expect("an agent");
    Reviewer::new(agent, budget)
        .review_move(pos, mv)
        .expect("a review")
}

#[test]
fn one_ply_beyond_the_reach_no_row_calls_a_move_best_that_the_solver_beats() {
    // Every legal move of positions one empty beyond the review's reach: each move's value
    // is exact (the position after it is solved), and one of them is the weak search's own
    // choice, which the review once called best with that exact value whatever the
    // solver said of the others ("e8 +52, best e8 +52" where h2 makes +54).
    let reach = review_exact_empties(BoardSize::Eight);
    let spec: PlayerSpec = "mcts:sims=8".parse().expect("a spec");
    let mut checked = 0;
    for seed in [13, 14, 15] {
        let game = game_with_a_random_ending(28, seed);
        let Some(pos) = game
            .positions()
            .iter()
            .find(|p| p.empty_count() == reach + 1 && p.legal_move_list().len() > 1)
        else {
            continue;
        };
        let (margins, best) = margins_and_best(pos);
        for &(mv, margin) in &margins {
            let review = review_one(&spec, pos, mv);
            assert_eq!(review.value, Some(Value::exact(margin)), "{pos} {mv}");
            if let Some(b) = review.best_value.filter(|b| b.exact) {
                assert_eq!(b.discs, best as f32, "{pos} {mv}: {review:?}");
            }
            if review.mark == Mark::Best {
                assert_eq!(margin, best, "{pos} {mv}: {review:?}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "moves checked: {checked}");
    // An agent whose own proofs reach one ply further makes every move's value exact one
    // ply further out too, where the review does not solve: there the played move's
    // margin is a proven floor, and the search's choice is graded uncertain, not best.
    let further: PlayerSpec = format!("mcts:sims=8,exact={}", reach + 1)
        .parse()
        .expect("a spec");
    // (Seed 14's: its search's choice there is not the solver's best; seen failing
    // without the floor.)
    let pos = &two_plies_beyond(&game_with_a_random_ending(28, 14), reach);
    let (margins, best) = margins_and_best(pos);
    let (mut floors, mut marked) = (0, 0);
    for &(mv, margin) in &margins {
        let review = review_one(&further, pos, mv);
        assert_eq!(review.value, Some(Value::exact(margin)), "{pos} {mv}");
        if review.mark == Mark::Best {
            assert_eq!(margin, best, "{pos} {mv}: {review:?}");
        }
        // Two plies beyond the reach a null-window solve settles whether the played
        // move's proven margin is beaten (the tenth look: "not proven best" of the best
        // move): the best moves are graded best and exact, the others lose at least 1.
        if margin == best {
            assert_eq!(review.mark, Mark::Best, "{pos} {mv}: {review:?}");
            assert_eq!(review.best_value, Some(Value::exact(best)), "{pos} {mv}");
        } else {
            assert!(review.loss >= 1.0, "{pos} {mv}: {review:?}");
            // Graded against a floor, the mark is still the true loss's (the eleventh
            // look: "loss ≥2: inaccuracy" where the move lost 14), the loss no more than
            // it.
            let lost = (best - margin) as f32;
            assert!(review.loss <= lost, "{pos} {mv}: {review:?}");
            if lost >= INACCURACY_DISCS {
                assert_eq!(review.mark, Mark::of_loss(lost), "{pos} {mv}: {review:?}");
                marked += 1;
            }
        }
        if let Some(b) = review.best_value {
            assert!(!b.exact || b.discs == best as f32, "{pos} {mv}: {review:?}");
            floors += usize::from(review.best_is_bound && b.discs <= best as f32);
        }
    }
    assert!(floors > 0, "no row graded against a proven floor");
    assert!(marked > 0, "no move lost 2 discs or more");
}

#[test]
fn every_move_of_a_game_is_reviewed_with_its_side_and_forced_moves_cost_nothing() {
    let game = game_with_a_random_ending(0, 11);
    let reviews = review(&game, Some(0));
    for ((pos, &mv), review) in game.positions().iter().zip(game.moves()).zip(&reviews) {
        assert_eq!((review.side, review.played), (pos.side_to_move(), mv));
        assert!(review.loss >= 0.0);
        let forced = pos.legal_move_list().len() == 1;
        assert_eq!(review.is_forced(), forced, "{pos} {mv}");
        if !forced {
            let (value, best) = (
                review.value.expect("valued"),
                review.best_value.expect("valued"),
            );
            assert!(best.discs >= value.discs && value.discs.abs() <= 64.0);
        }
    }
}

#[test]
fn an_illegal_move_in_the_game_says_its_number() {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let spec: PlayerSpec = "mcts:sims=8".parse().expect("a spec");
    let (agent, budget) = spec.build(3, &NoModels).expect("an agent");
    let mut reviewer = Reviewer::new(agent, budget);
    let after = start.play(square("f5")).expect("legal");
    let error = reviewer
        .review_move(&after, square("f5"))
        .expect_err("occupied");
    assert!(matches!(error, ReviewError::Illegal { mv, .. } if mv == square("f5")));
}

#[test]
fn a_player_that_values_nothing_is_refused_with_its_name() {
    let game = Game::from_transcript("f5d6", Position::start(BoardSize::Eight, Variant::Standard))
        .expect("legal");
    let spec: PlayerSpec = "greedy".parse().expect("a spec");
    let (agent, budget) = spec.build(1, &NoModels).expect("an agent");
    let error = Reviewer::new(agent, budget)
        .review_game(&game, &mut |_, _| {})
        .expect_err("greedy values nothing");
    assert!(
        matches!(&error, ReviewError::NoValues { player } if player.contains("greedy")),
        "{error}"
    );
}

/// Plays `line` from `pos`, each move checked legal; the position at its end.
fn play_line(pos: &Position, line: &[Move]) -> Position {
    line.iter().fold(*pos, |p, &mv| {
        p.play(mv)
            .unwrap_or_else(|e| panic!("{mv} in {line:?} from {pos}: {e}"))
    })
}

#[test]
fn the_best_line_starts_with_the_best_move_and_is_legal_and_exact_where_solved() {
    let game = game_with_a_random_ending(30, 7);
    let reviews = review(&game, None);
    let mut solver = Solver::new();
    let mut longer = 0;
    for (pos, review) in game.positions().iter().zip(&reviews) {
        if review.is_forced() {
            assert!(review.line.is_empty(), "{review:?}");
            continue;
        }
        assert_eq!(review.line.first(), Some(&review.best), "{pos}: {review:?}");
        assert!(review.line.len() <= LINE_PLIES, "{review:?}");
        play_line(pos, &review.line);
        longer += usize::from(review.line.len() > 1);
        // Where the reviewer solved the position, every move of the line keeps the margin:
        // it is the solver's line, not merely a legal one.
        if pos.empty_count() <= default_exact_root_empties(pos.size()) {
            let best = review.best_value.expect("valued").discs as i32;
            let mut at = *pos;
            let mut margin = best;
            for &mv in &review.line {
                let next = at.play(mv).expect("legal");
                let after = if next.is_game_over() {
                    next.outcome()
                        .expect("over")
                        .margin_for(next.side_to_move())
                } else {
                    solver.solve(&next).margin
                };
                assert_eq!(after, -margin, "{mv} in {:?} from {pos}", review.line);
                (at, margin) = (next, after);
            }
        }
    }
    assert!(
        longer > 10,
        "the lines go beyond their first move: {longer}"
    );
}

/// An agent that thinks as its inner one does and notes every position it is asked to
/// think about; its root rule and root solver are the inner agent's.
struct Noting {
    inner: Box<dyn Agent>,
    thought: Arc<Mutex<HashSet<Position>>>,
}

impl Agent for Noting {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn select_move(&mut self, pos: &Position, budget: &Budget) -> Move {
        self.inner.select_move(pos, budget)
    }

    fn think_more(
        &mut self,
        thinking: &mut Thinking,
        slice: Duration,
    ) -> Result<SearchInfo, EvalError> {
        if let Ok(mut thought) = self.thought.lock() {
            thought.insert(thinking.position);
        }
        self.inner.think_more(thinking, slice)
    }

    fn root_rule(&mut self, pos: &Position) -> Option<RootRule<'_>> {
        self.inner.root_rule(pos)
    }

    fn root_solver(&mut self) -> Option<&mut Solver> {
        self.inner.root_solver()
    }
}

/// The review solves within its own reach or where the agent's root decision solves,
/// whichever is further, and one ply beyond its own reach within a budget (which this
/// test's positions fit): a spec's `exact=` beyond that moves the line, one short of it
/// does not, and a position within it is not handed to the agent (but as the position
/// after a searched one, to value the move into it) while every position beyond it is.
#[test]
fn a_spec_s_exact_reach_is_where_the_review_solves_instead_of_searching() {
    let game = game_with_a_random_ending(20, 9);
    let review_reach = review_exact_empties(BoardSize::Eight);
    let further = format!("mcts:sims=8,exact={}", review_reach + 1);
    for (text, reach) in [
        ("mcts:sims=8", review_reach + 1),
        ("mcts:sims=8,exact=10", review_reach + 1),
        (further.as_str(), review_reach + 1),
    ] {
        let spec: PlayerSpec = text.parse().expect("a spec");
        let (inner, budget) = spec.build(3, &NoModels).expect("an agent");
        let thought = Arc::new(Mutex::new(HashSet::new()));
        let agent = Noting {
            inner,
            thought: thought.clone(),
        };
        let reviews = Reviewer::new(Box::new(agent), budget)
            .review_game(&game, &mut |_, _| {})
            .expect("a review");
        let thought = thought.lock().expect("not poisoned");
        let mut after_a_search = false;
        for ((pos, &mv), review) in game.positions().iter().zip(game.moves()).zip(&reviews) {
            if review.is_forced() {
                continue;
            }
            let solved = pos.empty_count() <= reach;
            if !solved || !after_a_search {
                assert_eq!(thought.contains(pos), !solved, "{text}: {pos}");
            }
            after_a_search = !solved;
            if solved {
                let margins = Solver::new().score_moves(pos);
                let played = margins.iter().find(|&&(m, _)| m == mv).expect("legal");
                assert_eq!(review.value, Some(Value::exact(played.1)), "{text}: {pos}");
            }
        }
    }
}

#[test]
fn an_estimate_and_an_exact_margin_are_never_subtracted_from_each_other() {
    // Issue 62's tenth finding: the played b4 estimated at +40.55, the best e8 solved at
    // +64, "23.45 lost" in a game the side won by the most there is.
    let played = Value::estimate(40.55);
    let best = Value::exact(64);
    // The search's estimate of the best move is compared instead (the played move's
    // estimate is its value already): 41.5 against 40.55.
    let loss = comparable_loss(played, best, (Some(41.0), Some(41.5)));
    assert!((loss.discs - 0.95).abs() < 1e-4, "{loss:?}");
    assert!(loss.between_estimates);
    let with_own = comparable_loss(played, best, (None, Some(44.55)));
    assert!((with_own.discs - 4.0).abs() < 1e-4 && with_own.between_estimates);
    // The other way round: the played move exact, the best an estimate.
    let exact_played = comparable_loss(Value::exact(30), Value::estimate(33.0), (Some(31.0), None));
    assert!((exact_played.discs - 2.0).abs() < 1e-4, "{exact_played:?}");
    assert!(exact_played.between_estimates);
    // Like with like: two exact margins, or two estimates, as they are.
    let exact = comparable_loss(Value::exact(10), Value::exact(16), (Some(0.0), Some(0.0)));
    assert_eq!(
        exact,
        Loss {
            discs: 6.0,
            between_estimates: false
        }
    );
    let estimates = comparable_loss(Value::estimate(1.0), Value::estimate(3.5), (None, None));
    assert!((estimates.discs - 2.5).abs() < 1e-4 && !estimates.between_estimates);
    // Never negative; and without the search's estimate of the exact side, the two as
    // they are (a move that ends the game has no estimate).
    assert_eq!(
        comparable_loss(played, best, (Some(50.0), Some(39.0))).discs,
        0.0
    );
    let as_they_are = comparable_loss(played, best, (None, None));
    assert!((as_they_are.discs - 23.45).abs() < 1e-3 && !as_they_are.between_estimates);
}

#[test]
fn a_review_says_when_its_loss_is_between_the_search_s_estimates() {
    let (f6, e3) = (square("f6"), square("e3"));
    let mut info = SearchInfo::decided(e3, Duration::ZERO);
    info.moves = vec![
        visited(e3, 90, 0.5, Some(33.3)),
        visited(f6, 10, 0.1, Some(20.6)),
    ];
    // The played f6 proven lost by 64, the best e3 estimated: the estimates' difference.
    let mixed = MoveReview::new(
        Color::Black,
        (f6, Value::exact(-64)),
        (e3, Value::estimate(33.3)),
    )
    .compared_in(&info);
    assert!(mixed.loss_between_estimates);
    assert!((mixed.loss - 12.7).abs() < 1e-3, "{}", mixed.loss);
    // Both estimates: the values' own difference, and nothing to say.
    let like = MoveReview::new(
        Color::Black,
        (f6, Value::estimate(20.6)),
        (e3, Value::estimate(33.3)),
    )
    .compared_in(&info);
    assert!(!like.loss_between_estimates);
    assert!((like.loss - 12.7).abs() < 1e-3);
    assert!(
        !MoveReview::forced(Color::White, f6)
            .compared_in(&info)
            .loss_between_estimates
    );
}

/// Black to move after d3c3b3d2e1d6d7e3, with f4 taking every white disc (+64): the
/// position where the page's review stopped at its move (issue 68, item 1).
fn a_wipe_out_in_one() -> Position {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let game = Game::from_transcript("d3c3b3d2e1d6d7e3", start).expect("legal");
    let pos = *game.position();
    let after = pos.play(square("f4")).expect("legal");
    assert!(after.is_game_over() && after.discs(Color::White).0 == 0);
    pos
}

#[test]
fn a_search_that_found_its_root_proven_in_the_tree_it_kept_still_values_the_moves() {
    let pos = a_wipe_out_in_one();
    let spec: PlayerSpec = "mcts:sims=8".parse().expect("a spec");
    let (mut agent, budget) = spec.build(3, &NoModels).expect("an agent");
    agent.think(&pos, &budget, &mut |_| true).expect("a search");
    // The tree it keeps has the root proven: the next search of it runs no simulation.
    let again = agent.think(&pos, &budget, &mut |_| true).expect("a search");
    assert_eq!((again.simulations, again.proof), (0, Some(Proof::Win)));
    assert_eq!(move_value(&again, square("f4"), 64), Some(Value::exact(64)));
    assert!(root_value(&again, 64).is_some());
    // And a review through that position, the move before it and the one played there
    // (not the wipe-out), values every move.
    let game = Game::from_transcript(
        "d3c3b3d2e1d6d7e3f2c6",
        Position::start(BoardSize::Eight, Variant::Standard),
    )
    .expect("legal");
    let reviews = review(&game, None);
    let at = &reviews[8];
    assert_eq!(
        (at.best, at.best_value),
        (square("f4"), Some(Value::exact(64)))
    );
}

#[test]
fn a_played_move_is_worth_what_the_next_moves_review_says_its_position_is_worth() {
    // Issue 68: a Quick review valued Black's move at -5.63 from the few visits it had in
    // Black's search, and the next row's best at +15.66 for White from a search of its own.
    let game = game_with_a_random_ending(20, 7);
    let reviews = review(&game, None);
    let positions = game.positions();
    let mut compared = 0;
    for (i, pair) in reviews.windows(2).enumerate() {
        let (this, next) = (&pair[0], &pair[1]);
        let Some(value) = this.value.filter(|v| !v.exact) else {
            continue;
        };
        // A bound row's best value is a proven floor, not a search's estimate: the
        // played move before it was valued by that search (which a null window may beat).
        if next.is_forced()
            || next.best == next.played
            || next.best_is_bound
            || positions[i + 1].side_to_move() == this.side
        {
            continue;
        }
        let next_best = next.best_value.expect("valued");
        assert_eq!(
            value.discs,
            -next_best.discs,
            "move {}: {this:?} then {next:?}",
            i + 1
        );
        compared += 1;
    }
    assert!(compared > 5, "only {compared} moves compared");
}

/// `game` turned by `g`, move by move.
fn turned_game(game: &Game, g: Symmetry) -> Game {
    let start = g.position(game.positions().first().expect("a start"));
    let mut turned = Game::new(start);
    for &mv in game.moves() {
        turned
            .push(g.apply_move(mv, start.size()))
            .expect("the image of a legal move is legal in the image");
    }
    turned
}

#[test]
fn a_game_and_its_mirror_images_get_one_review() {
    // Random playouts value mirror images apart; the review searches both in one
    // orientation, so only the moves' names differ.
    let game = game_with_a_random_ending(0, 21);
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let reviews = review(&game, Some(10));
    let mut images = 0;
    for g in Symmetry::ALL {
        if g.position(&start) != start || g == Symmetry::IDENTITY {
            continue;
        }
        images += 1;
        let mirrored = review(&turned_game(&game, g), Some(10));
        for (i, (a, b)) in reviews.iter().zip(&mirrored).enumerate() {
            let turn = |mv: Move| g.apply_move(mv, BoardSize::Eight);
            assert_eq!(b.played, turn(a.played), "move {}", i + 1);
            assert_eq!(b.best, turn(a.best), "move {} under {g:?}", i + 1);
            assert_eq!(b.line, a.line.iter().map(|&m| turn(m)).collect::<Vec<_>>());
            assert_eq!(
                (b.value, b.best_value, b.loss, b.mark),
                (a.value, a.best_value, a.loss, a.mark),
                "move {} under {g:?}",
                i + 1
            );
        }
    }
    assert_eq!(
        images, 3,
        "the start is symmetric under three turns besides the identity"
    );
}

#[test]
fn a_move_that_is_an_image_of_the_best_under_the_position_s_symmetry_is_best() {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    for first in ["f5", "e6", "d3", "c4"] {
        let mut game = Game::new(start);
        game.push(square(first)).expect("legal");
        game.push(game.position().legal_move_list()[0])
            .expect("legal");
        let reviews = review(&game, None);
        let opening = &reviews[0];
        assert_eq!(opening.best, square(first), "{first}: {opening:?}");
        assert_eq!((opening.loss, opening.mark), (0.0, Mark::Best), "{first}");
        assert_eq!(opening.best_value, opening.value);
        assert_eq!(opening.line.first(), Some(&square(first)));
    }
}

#[test]
fn below_a_proven_floor_the_best_value_is_the_floor_and_only_a_proven_loss_counts() {
    let c1 = square("c1");
    let a6 = square("a6");
    // The search's estimate of its choice (+50.39) is above what the proof reached (+44):
    // the best value said is the floor, and an exact played value at it loses at least 0.
    let at_floor = MoveReview::new(
        Color::White,
        (c1, Value::exact(44)),
        (c1, Value::estimate(50.39)),
    )
    .below_a_proven_floor(44);
    assert!(at_floor.best_is_bound);
    assert_eq!(at_floor.best_value, Some(Value::estimate(44.0)));
    // Within reach of a bound: a better move may exist, so its grade is uncertain.
    assert_eq!((at_floor.loss, at_floor.mark), (0.0, Mark::Uncertain));
    // An exact played value below the floor has lost at least the difference, proven.
    let below = MoveReview::new(
        Color::White,
        (c1, Value::exact(36)),
        (a6, Value::estimate(47.5)),
    )
    .below_a_proven_floor(44);
    assert_eq!((below.loss, below.mark), (8.0, Mark::Blunder));
    assert!(!below.loss_between_estimates);
    // A played value that is itself an estimate keeps the loss taken between estimates.
    let estimated = MoveReview::new(
        Color::White,
        (c1, Value::estimate(40.0)),
        (a6, Value::estimate(47.0)),
    );
    let loss = estimated.loss;
    assert_eq!(estimated.below_a_proven_floor(44).loss, loss);
}

#[test]
fn a_floor_above_the_played_moves_margin_is_raised_to_the_mark_of_the_true_loss() {
    // The eleventh look: "a4 +38, best d2 ≥+40, loss ≥2: inaccuracy" where d2 makes +52.
    // From the least floor a null window proves (the margin and a disc), null windows at
    // the marks' losses give each beaten move its true mark.
    let reach = review_exact_empties(BoardSize::Eight);
    let spec: PlayerSpec = "mcts:sims=8".parse().expect("a spec");
    let (agent, budget) = spec.build(3, &NoModels).expect("an agent");
    let mut reviewer = Reviewer::new(agent, budget);
    let mut marks = HashSet::new();
    for seed in [14, 15, 16] {
        let pos = &two_plies_beyond(&game_with_a_random_ending(28, seed), reach);
        let (margins, best) = margins_and_best(pos);
        for &(mv, margin) in margins.iter().filter(|&&(_, m)| m < best) {
            let better = reviewer.beaten_by(pos, margin).flatten().expect("beaten");
            let (floor, by) = reviewer.floor_for_the_mark(pos, margin, better);
            let (lost, proven) = ((best - margin) as f32, (floor - margin) as f32);
            assert!(floor <= best, "{pos} {mv}: floor {floor}, best {best}");
            // The move named with the floor reaches it.
            let reaches = margins.iter().any(|&(m, v)| m == by && v >= floor);
            assert!(reaches, "{pos} {mv}: {by} named for {floor} in {margins:?}");
            if lost >= INACCURACY_DISCS {
                assert_eq!(Mark::of_loss(proven), Mark::of_loss(lost), "{pos} {mv}");
                marks.insert(Mark::of_loss(lost));
            }
        }
    }
    assert!(marks.contains(&Mark::Blunder), "{marks:?}");
    assert!(marks.len() >= 2, "{marks:?}");
}

#[test]
fn a_bound_rows_best_move_reaches_the_bound_and_its_line_is_perfect_play_after_it() {
    // The thirteenth look: row 39 (22 empties) read "best d1 ≥+46" where d1 was the
    // search's choice and d2, which makes +52, the move the null window had proved.
    let reach = review_exact_empties(BoardSize::Eight);
    let spec: PlayerSpec = "mcts:sims=8".parse().expect("a spec");
    let (mut bound_rows, mut named) = (0, 0);
    for seed in [14, 15, 16] {
        let pos = &two_plies_beyond(&game_with_a_random_ending(28, seed), reach);
        let (margins, best) = margins_and_best(pos);
        for &(mv, margin) in margins.iter().filter(|&&(_, m)| m < best) {
            let review = review_one(&spec, pos, mv);
            if !review.best_is_bound {
                continue;
            }
            bound_rows += 1;
            let floor = review.best_value.expect("a value").discs as i32;
            assert!(floor > margin && floor <= best, "{pos} {mv}: {floor}");
            let by = review.best;
            let reaches = margins.iter().any(|&(m, v)| m == by && v >= floor);
            assert!(reaches, "{pos} {mv}: {by} named for {floor} in {margins:?}");
            if !review.line_from_window {
                continue;
            }
            named += 1;
            assert_eq!(review.line.first(), Some(&by));
            let mut at = pos.play(by).expect("legal");
            for &step in &review.line[1..] {
                let (margins, top) = margins_and_best(&at);
                assert!(
                    margins.contains(&(step, top)),
                    "{pos}: {step} not best at {at}"
                );
                at = at.play(step).expect("a legal line");
            }
        }
        // Each row takes a search and a few solves at 22 empties: enough once both kinds
        // were seen.
        if named >= 2 {
            break;
        }
    }
    assert!(
        bound_rows > 0 && named > 0,
        "{bound_rows} bound rows, {named} named"
    );
}

#[test]
fn an_exact_rows_line_is_perfect_play_unless_it_says_it_was_searched() {
    // The twelfth look: row 40, 22 empties, f1 proven best, carried the search's path
    // "f1 pass f2 g1 h1 pass" (a6 beats h1 after the pass) under the solver's name.
    let reach = review_exact_empties(BoardSize::Eight);
    let spec: PlayerSpec = "mcts:sims=8".parse().expect("a spec");
    let mut solved_lines = 0;
    for seed in [14, 15, 16] {
        let pos = &two_plies_beyond(&game_with_a_random_ending(28, seed), reach);
        let (margins, best) = margins_and_best(pos);
        for &(mv, _) in margins.iter().filter(|&&(_, m)| m == best) {
            let review = review_one(&spec, pos, mv);
            assert_eq!(review.best_value, Some(Value::exact(best)), "{pos} {mv}");
            if review.line_searched {
                continue;
            }
            // Each move of the line is one of its position's best, by the solver's
            // margins of every move there.
            let mut at = *pos;
            for &step in &review.line {
                let (margins, top) = margins_and_best(&at);
                assert!(
                    margins.contains(&(step, top)),
                    "{pos} {mv}: {step} in {:?} is not best at {at}",
                    review.line
                );
                at = at.play(step).expect("a legal line");
            }
            assert!(review.line.len() > 1, "{pos} {mv}: {:?}", review.line);
            solved_lines += 1;
        }
    }
    assert!(solved_lines > 0, "no exact row had the solver's line");
}
