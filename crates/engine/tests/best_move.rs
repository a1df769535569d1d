//! A question for the best move (`best=1`: analysis, a hint) against a move in a game, on
//! FFO #40 (20 empties; Black wins by 38 with a2 alone, c1 wins by 30): a proven win is
//! followed to its exact margin as far as the budget goes, a bound is reported as one,
//! and the answer does not depend on what the agent searched before.

use engine::report::{SearchInfo, Solved};
use engine::{Agent, Budget, NoModels, PlayerSpec, Solver};
use othello::{Position, Variant};
use std::time::Duration;

const FFO_40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";

fn ffo_40() -> Position {
    Position::from_board_text(FFO_40, Variant::Standard).expect("valid board text")
}

fn agent(spec: &str) -> Box<dyn Agent> {
    let spec: PlayerSpec = spec.parse().expect("a spec");
    spec.build(5, &NoModels).expect("builds").0
}

fn solved(info: &SearchInfo) -> Solved {
    info.solved
        .expect("the root proof settles FFO #40 within this budget")
}

/// What a report claims of FFO #40 must hold: an exact margin is a2's +38, and a bound
/// is one (its move reaches it, and the true margin lies within it).
fn assert_true_to_ffo_40(solved: &Solved) {
    let pos = ffo_40();
    if solved.is_exact() {
        assert_eq!((solved.best.to_string(), solved.margin), ("a2".into(), 38));
        return;
    }
    assert!(solved.margin <= 38 && 38 <= solved.upper, "{solved:?}");
    let after = pos.play(solved.best).expect("a legal move");
    assert!(
        -Solver::new().solve(&after).margin >= solved.margin,
        "{solved:?}"
    );
}

#[test]
fn a_question_s_answer_is_the_same_after_a_longer_search_of_the_position() {
    let pos = ffo_40();
    // 200 simulations allow the root proof 5 M solver nodes: the win and a bound, not the
    // exact margin (about 40 M); 4,000 allow 100 M, the exact margin.
    let short = Budget::simulations(200);
    let fresh = solved(
        &agent("mcts:best=1")
            .think(&pos, &short, &mut |_| true)
            .expect("thinks"),
    );
    assert_true_to_ffo_40(&fresh);
    assert!(
        !fresh.is_exact(),
        "5 M nodes do not reach the margin: {fresh:?}"
    );
    let mut warmed = agent("mcts:best=1");
    let long = warmed
        .think(&pos, &Budget::simulations(4_000), &mut |_| true)
        .expect("thinks");
    assert_eq!(
        (
            solved(&long).best.to_string(),
            solved(&long).margin,
            solved(&long).is_exact()
        ),
        ("a2".into(), 38, true)
    );
    let again = solved(&warmed.think(&pos, &short, &mut |_| true).expect("thinks"));
    assert_eq!(
        (again.best, again.margin, again.upper),
        (fresh.best, fresh.margin, fresh.upper),
        "the same question after a longer search"
    );
    // A player in a game keeps its table: the same short budget then plays the exact
    // margin it already knows, which is why a question must not.
    let mut player = agent("mcts");
    player
        .think(&pos, &Budget::simulations(4_000), &mut |_| true)
        .expect("thinks");
    let played = solved(&player.think(&pos, &short, &mut |_| true).expect("thinks"));
    assert!(played.is_exact(), "{played:?}");
}

#[test]
fn a_timed_question_follows_a_proven_win_to_its_margin_or_says_it_is_a_bound() {
    let pos = ffo_40();
    let info = agent("mcts:best=1")
        .think(&pos, &Budget::time(Duration::from_millis(400)), &mut |_| {
            true
        })
        .expect("thinks");
    // A loaded machine may prove nothing in the time; whatever is claimed must hold.
    if let Some(solved) = info.solved {
        assert_true_to_ffo_40(&solved);
        assert_eq!(solved.verdict().contains("at least"), !solved.is_exact());
    }
}
