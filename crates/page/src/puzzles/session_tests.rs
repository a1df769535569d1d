use super::*;
use engine::puzzles::{perfect_line, prove_puzzle, Proving, Rater};
use engine::Solver;
use othello::{BoardSize, Variant};

/// Puzzles proven here by the engine, as the worker proves a player's mistakes.
pub(crate) fn puzzles(count: usize) -> Vec<Puzzle> {
    let mut rater = Rater::new(None, &engine::NoModels).expect("weak players");
    let mut found = Vec::new();
    for seed in 0.. {
        let mut rng = engine::Rng::new(seed);
        let pos = othello::testing::random_position(
            BoardSize::Six,
            Variant::Standard,
            othello::testing::Stop::AtEmpties(9),
            |n| rng.below(n),
        );
        if let Proving::Puzzle(p) = prove_puzzle(&pos, &mut Solver::new(), u64::MAX, 6, &mut rater)
        {
            found.push(p);
            if found.len() == count {
                break;
            }
        }
    }
    found
}

pub(crate) fn showing(puzzle: Puzzle) -> Session {
    Session::default().apply(SessionAction::Show(Shown {
        id: "6x6-1".into(),
        puzzle,
        from: None,
    }))
}

/// Answers what the session asks, as the worker would.
pub(crate) fn answer(session: Session) -> Session {
    let (generation, at) = session.wanted().expect("a question");
    let line = perfect_line(&at, &mut Solver::new());
    session.apply(SessionAction::Solved(generation, Ok(line)))
}

fn wrong_move(p: &Puzzle) -> Move {
    *p.position
        .legal_move_list()
        .iter()
        .find(|mv| **mv != p.answer)
        .expect("a puzzle has another move")
}

#[test]
fn the_right_move_plays_the_solvers_line_out_to_the_end() {
    for p in puzzles(5) {
        let session = showing(p);
        assert_eq!(session.judge(p.answer), Some(Try::First(true)));
        let session = session.apply(SessionAction::Play(p.answer));
        assert_eq!(session.stage, Stage::Solved { line: None });
        let mut session = answer(session);
        let Stage::Solved {
            line: Some(Ok(line)),
        } = session.stage.clone()
        else {
            panic!("{:?}", session.stage);
        };
        // The answer's line keeps the puzzle's margin for the side to move.
        assert_eq!(line.first().map(|(_, m)| -m), Some(i32::from(p.margin)));
        while session.more_to_show() {
            session = session.apply(SessionAction::Step);
        }
        assert_eq!(session.step, line.len());
        let end = session.position().expect("a position");
        assert!(end.is_game_over());
        assert_eq!(
            end.count().margin_for(p.position.side_to_move()),
            i32::from(p.margin)
        );
    }
}

#[test]
fn a_wrong_move_is_refuted_by_one_reply_and_the_next_try_is_a_retry() {
    let p = puzzles(1)[0];
    let wrong = wrong_move(&p);
    let session = showing(p);
    assert_eq!(session.judge(wrong), Some(Try::First(false)));
    let session = answer(session.apply(SessionAction::Play(wrong)));
    let Stage::Refuted {
        mv,
        line: Some(Ok(line)),
    } = session.stage.clone()
    else {
        panic!("{:?}", session.stage);
    };
    assert_eq!(mv, wrong);
    // The refutation's margin is the wrong move's exact value, worse than the answer's.
    let reply_margin = -line[0].1;
    assert!(reply_margin < i32::from(p.margin));
    let session = session.apply(SessionAction::Step);
    assert!(!session.more_to_show(), "the reply alone is shown");
    let after = p.position.play(wrong).and_then(|a| a.play(line[0].0));
    assert_eq!(session.position(), after.ok());
    let retry = session.apply(SessionAction::TryAgain);
    assert_eq!(retry.stage, Stage::Solving);
    assert_eq!(retry.judge(p.answer), Some(Try::Again));
    let shown = retry.apply(SessionAction::ShowAnswer);
    assert_eq!(
        shown.wanted().map(|(_, at)| at),
        p.position.play(p.answer).ok()
    );
}

#[test]
fn an_answer_for_an_earlier_question_is_dropped_and_illegal_moves_are_ignored() {
    let p = puzzles(1)[0];
    let session = showing(p).apply(SessionAction::Play(wrong_move(&p)));
    let (generation, _) = session.wanted().expect("a question");
    let moved_on = session.apply(SessionAction::TryAgain);
    let late = moved_on.apply(SessionAction::Solved(generation, Ok(vec![])));
    assert_eq!(late, moved_on);
    let filled = othello::Square::all(BoardSize::Six)
        .find(|sq| p.position.color_at(*sq).is_some())
        .expect("discs on the board");
    assert_eq!(moved_on.judge(Move::Place(filled)), None);
    assert_eq!(
        moved_on.apply(SessionAction::Play(Move::Place(filled))),
        moved_on
    );
}

/// Plays the puzzle out: `choose` picks the player's move from the position's moves with
/// their exact margins; the solver answers for the other side.
fn play_out(p: Puzzle, choose: impl Fn(&[(Move, i32)]) -> Move) -> Session {
    let mut session = showing(p).apply(SessionAction::PlayOut);
    for _ in 0..40 {
        match &session.stage {
            Stage::PlayOut { waiting: true, .. } => session = answer(session),
            Stage::PlayOut { waiting: false, .. } => {
                let at = session.position().expect("a position");
                let scores = Solver::new().score_moves(&at);
                session = session.apply(SessionAction::Play(choose(&scores)));
            }
            _ => break,
        }
    }
    session
}

#[test]
fn playing_out_from_the_answer_keeps_the_promise_with_perfect_play_and_not_with_the_worst() {
    let (mut kept_with_worst, mut lost_with_worst) = (0, 0);
    for p in puzzles(6) {
        let start = showing(p).apply(SessionAction::PlayOut);
        // The answer is on the board and the solver replies first.
        assert_eq!(start.position(), p.position.play(p.answer).ok());
        let best = play_out(p, |scores| scores[0].0);
        let Stage::PlayedOut { margin, ref moves } = best.stage else {
            panic!("{:?}", best.stage);
        };
        assert_eq!(moves.first(), Some(&p.answer));
        assert_eq!(margin, i32::from(p.margin));
        assert!(kept(&p, margin));
        // The worst move at every turn: the result is what exact play of that gives.
        let worst = play_out(p, |scores| scores[scores.len() - 1].0);
        let Stage::PlayedOut { margin, .. } = worst.stage else {
            panic!("{:?}", worst.stage);
        };
        assert!(margin <= i32::from(p.margin));
        if kept(&p, margin) {
            kept_with_worst += 1;
        } else {
            lost_with_worst += 1;
        }
    }
    assert!(
        lost_with_worst > 0,
        "{kept_with_worst} kept with the worst moves"
    );
}

#[test]
fn the_task_and_the_promise_are_said_in_words() {
    let p = puzzles(1)[0];
    let text = task(&p);
    assert!(
        text.ends_with(p.kind.task()) || text.contains("loses the fewest"),
        "{text}"
    );
    assert!(text.starts_with("Black") || text.starts_with("White"));
    let promised = promise(&p);
    assert!(
        ["keep the", "win by", "draw or", "lose by"]
            .iter()
            .any(|w| promised.starts_with(w)),
        "{promised}"
    );
}

#[test]
fn a_shown_answer_stays_on_the_puzzle_s_position_with_its_line_in_words() {
    // Issue 68: "Show the answer" played the whole line and left the board at its end.
    for p in puzzles(2) {
        let session = showing(p).apply(SessionAction::ShowAnswer);
        let session = answer(session);
        assert!(matches!(
            session.stage,
            Stage::Revealed { line: Some(Ok(_)) }
        ));
        assert!(!session.more_to_show());
        let stepped = session.apply(SessionAction::Step);
        assert_eq!(stepped.position(), Some(p.position));
        assert!(stepped.moves_shown().is_empty());
    }
}
