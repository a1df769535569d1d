use super::*;
use engine::review::Value;
use othello::{BoardSize, Position, Variant};

fn mv(text: &str) -> Move {
    Move::parse(text, BoardSize::Eight).expect("a move")
}

#[test]
fn a_loaded_records_moves_are_its_players_not_the_agents() {
    let casual = (
        "Casual".to_owned(),
        protocol::WireBudget {
            simulations: Some(100),
            millis: None,
        },
    );
    let record: othello::GgfGame = "(;GM[Othello]PB[Saio1200]PW[Saio3000]TY[8]RE[+0.000]\
         BO[8 ---------------------------O*------*O--------------------------- *]\
         B[d3//0.01]W[c5//0.01]B[f6//0.01]W[f5//0.01];)"
        .parse()
        .expect("a record");
    let seats = othello::Seats::Human(Color::Black);
    let loaded = othello::GameState::from_record(record.clone(), seats);
    assert_eq!(agent_levels(&loaded, &[], casual.clone()), vec![]);
    // The same moves played here against the agent are the agent's.
    let played = othello::GameState::from_game(record.game().clone(), seats);
    assert_eq!(agent_levels(&played, &[], casual.clone()), vec![casual]);
}

#[test]
fn an_agent_that_does_not_search_is_not_said_to_have_searched() {
    let instinct = protocol::WireBudget {
        simulations: Some(1),
        millis: None,
    };
    let judged = judging(ReviewLevel::Quick, &[("Instinct", instinct)], 2_000);
    assert!(
        judged
            .text
            .contains("the Instinct agent played the network's first choice, with no search"),
        "{}",
        judged.text
    );
    assert!(!judged.text.contains("1 simulation"), "{}", judged.text);
}

#[test]
fn the_marks_help_says_a_loss_of_exactly_the_threshold_is_not_best() {
    let help = marks_help();
    assert!(help.contains("loses less than 2 discs"), "{help}");
    assert!(!help.contains("within 2 discs"), "{help}");
}

fn reviewed(side: Color, played: &str, value: f32, best: &str, best_value: f32) -> ReviewedMove {
    ReviewedMove::from_engine(&MoveReview::new(
        side,
        (mv(played), Value::estimate(value)),
        (mv(best), Value::estimate(best_value)),
    ))
}

#[test]
fn exact_values_are_whole_and_a_bound_best_is_no_sure_best() {
    // FFO #40 at Club: c1 +30 against a2's exact +38.
    let mut r = ReviewedMove::from_engine(&MoveReview::new(
        Color::Black,
        (mv("c1"), Value::exact(30)),
        (mv("a2"), Value::exact(38)),
    ));
    assert_eq!(
        (best_value_text(&r), loss_text(&r), mark_name(&r)),
        ("+38".to_owned(), "8".to_owned(), "blunder")
    );
    // At Club the solver may prove a2 only as "at least 38": an estimate at the bound.
    let mut bound = ReviewedMove::from_engine(&MoveReview::new(
        Color::Black,
        (mv("c1"), Value::exact(30)),
        (mv("a2"), Value::estimate(38.0)),
    ));
    bound.best_is_bound = true;
    assert_eq!(
        (
            best_value_text(&bound),
            loss_text(&bound),
            mark_name(&bound)
        ),
        ("≥+38".to_owned(), "≥8".to_owned(), "blunder")
    );
    // At Quick: c1 +30 against a proof that the position wins by at least 30.
    r = ReviewedMove::from_engine(&MoveReview::new(
        Color::Black,
        (mv("c1"), Value::exact(30)),
        (mv("c1"), Value::exact(30)),
    ));
    r.best_is_bound = true;
    // The played move is the best found and its value exact: the table's best column
    // says its +30, not "≥+30" beside its own +30 (issue 68, row 42 of a review).
    assert_eq!(best_value_text(&r), "+30");
    assert_eq!(mark_name(&r), "uncertain");
    // Issue 68: the row read "a2 +52, best a2 +52, ≥0 uncertain", an exact best move found
    // beside a loss of at least nothing and a doubting mark; one sentence says it now.
    assert_eq!(
        judged_cells(&r),
        ["", "", "", "no better move found; not proven best"].map(String::from)
    );
    let told = describe(Some(40), &r);
    assert!(
        told.contains("+30 for Black; no better move found; not proven best")
            && told.contains("a better move may exist")
            && !told.contains('≥'),
        "{told}"
    );
    // Against an exact best, or another best move, the columns are as they were.
    assert_eq!(
        judged_cells(&bound),
        ["a2", "≥+38", "≥8", "blunder"].map(String::from)
    );
    assert!(!told.contains("+30.00"));
    assert_eq!(
        focus_tiles(&r, othello::BoardSize::Eight)[0].aria,
        "played, the best move found, +30 discs"
    );
}

#[test]
fn marks_follow_the_clis_thresholds_and_forced_moves_have_none() {
    // Within reach of the best but not the best found: near-best, the engine's mark.
    assert_eq!(
        reviewed(Color::Black, "f5", 0.0, "d3", 1.9).mark(),
        Some(Mark::NearBest)
    );
    assert_eq!(
        reviewed(Color::Black, "f5", 0.0, "f5", 0.0).mark(),
        Some(Mark::Best)
    );
    assert_eq!(
        reviewed(Color::Black, "f5", 0.0, "d3", 2.0).mark(),
        Some(Mark::Inaccuracy)
    );
    assert_eq!(
        reviewed(Color::Black, "f5", 0.0, "d3", 4.0).mark(),
        Some(Mark::Mistake)
    );
    assert_eq!(
        reviewed(Color::Black, "f5", -9.0, "d3", 0.0).mark(),
        Some(Mark::Blunder)
    );
    let forced = ReviewedMove::from_engine(&MoveReview::forced(Color::White, mv("d6")));
    assert_eq!(forced.mark(), None);
    assert!(
        marks_help().contains("inaccuracy from 2 discs lost, a mistake from 4, a blunder from 8")
    );
}

#[test]
fn a_review_round_trips_through_the_engines_type_and_json() {
    let exact = ReviewedMove::from_engine(&MoveReview::new(
        Color::White,
        (mv("c4"), Value::exact(-4)),
        (mv("d3"), Value::exact(2)),
    ));
    assert_eq!(exact.to_engine().value, Some(Value::exact(-4)));
    assert_eq!(exact.loss, 6.0);
    let text = serde_json::to_string(&exact).expect("serialisable");
    assert_eq!(
        serde_json::from_str::<ReviewedMove>(&text).expect("reads"),
        exact
    );
    assert_eq!(
        describe(Some(23), &exact),
        "23. c4 (White): \u{2212}4 for White; best d3 +2: a mistake, 6 discs lost"
    );
}

#[test]
fn a_loss_between_the_search_s_estimates_says_so_where_the_row_shows_a_proof() {
    // The fresh look's row 12: f6 proven -64, the best e3 estimated +33.30, and the
    // loss (12.69) taken between the search's own estimates of both.
    let mut row = ReviewedMove::from_engine(&MoveReview::new(
        Color::White,
        (mv("f6"), Value::exact(-64)),
        (mv("e3"), Value::estimate(33.3)),
    ));
    assert!(!row.loss_between_estimates, "the values' own difference");
    assert_eq!(loss_text(&row), "97.30");
    // The engine says where it took the loss between estimates.
    row.loss = 12.69;
    row.loss_between_estimates = true;
    assert_eq!(loss_text(&row), "≈\u{202f}12.69");
    let said = describe(Some(12), &row);
    assert!(
        said.starts_with("12. f6 (White): \u{2212}64 for White; best e3 ≈\u{202f}+33.30: a blunder, ≈\u{202f}12.69 discs lost by the search's own estimates of both moves"),
        "{said}"
    );
    // Two estimates, or two proofs: the row's own difference, as before.
    let estimates = ReviewedMove::from_engine(&MoveReview::new(
        Color::White,
        (mv("f6"), Value::estimate(20.61)),
        (mv("e3"), Value::estimate(33.3)),
    ));
    assert!(!estimates.loss_between_estimates);
    assert_eq!(loss_text(&estimates), "12.69");
}

#[test]
fn reviews_belong_to_a_games_moves_and_sum_up_per_side() {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let game = Game::from_transcript("f5d6c3", start).expect("legal");
    let mut reviews = Reviews::default();
    let pos = game.positions();
    reviews.record(pos[0].hash(), reviewed(Color::Black, "f5", 0.0, "f5", 0.0));
    reviews.record(pos[1].hash(), reviewed(Color::White, "d6", -3.0, "f6", 0.0));
    assert!(!reviews.covers(&game));
    reviews.record(pos[2].hash(), reviewed(Color::Black, "c3", -9.0, "c5", 1.0));
    assert!(reviews.covers(&game));
    let of_game = reviews.of_game(&game);
    let black = summary(&of_game, Color::Black);
    assert_eq!((black.moves, black.average_loss), (2, 5.0));
    assert_eq!(black.count(Mark::Blunder), 1);
    assert_eq!(
        summary(&of_game, Color::White).to_string(),
        "average loss 3.00 discs over 1 move with a choice (best 0, near-best 0, \
         uncertain 0, inaccuracy 1, mistake 0, blunder 0); 0 forced moves; 3.00 discs lost \
         in all"
    );
    // Another game through the same first position shares f5's review only.
    let other = Game::from_transcript("f5f6", start).expect("legal");
    assert_eq!(
        reviews.of_game(&other)[0].as_ref().map(|r| r.played),
        Some(mv("f5"))
    );
    assert_eq!(reviews.of_game(&other)[1], None);
}

#[test]
fn estimates_keep_their_decimals_and_exact_values_are_whole_in_a_record() {
    let exact = |side, played: &str, value: f32| {
        ReviewedMove::from_engine(&MoveReview::new(
            side,
            (mv(played), Value::exact(value as i32)),
            (mv(played), Value::exact(value as i32)),
        ))
    };
    let texts = eval_texts(&[
        Some(reviewed(Color::Black, "f5", -42.0, "f5", -42.0)),
        Some(reviewed(Color::White, "d6", 1.5, "d6", 1.5)),
        Some(reviewed(Color::Black, "c3", -0.001, "c3", -0.001)),
        Some(exact(Color::White, "d3", -4.0)),
        Some(exact(Color::Black, "c4", 0.0)),
        None,
    ]);
    // The texts as written, `None` where nothing is.
    let written = |texts: &[Option<&str>]| -> Vec<Option<String>> {
        texts.iter().map(|t| t.map(str::to_owned)).collect()
    };
    // Issue 68: an estimate of -42 was written "-42", which reads as exact.
    assert_eq!(
        texts,
        written(&[
            Some("-42.00"),
            Some("1.50"),
            Some("0.00"),
            Some("-4"),
            Some("0"),
            None
        ])
    );
    // A forced move is worth what the next move's review found after it, turned to its
    // side; the last one, with nothing after it, has nothing written (never the record's
    // own evaluation beside the review's: the tenth look).
    let forced =
        |side, played: &str| ReviewedMove::from_engine(&MoveReview::forced(side, mv(played)));
    let texts = eval_texts(&[
        Some(forced(Color::White, "d3")),
        Some(exact(Color::Black, "c4", 6.0)),
        Some(forced(Color::White, "e3")),
        Some(forced(Color::White, "f3")),
        Some(reviewed(Color::White, "g3", 1.25, "g3", 1.25)),
        Some(forced(Color::Black, "h3")),
    ]);
    assert_eq!(
        texts,
        written(&[
            Some("-6"),
            Some("6"),
            Some("1.25"),
            Some("1.25"),
            Some("1.25"),
            Some("")
        ])
    );
}

#[test]
fn a_review_is_its_games_alone_not_another_through_the_same_positions() {
    // Issue 68, item 2: a record with the same first moves as a game reviewed before
    // it showed that game's review.
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let game = Game::from_transcript("d3c5f6", start).expect("legal");
    let mut state = ReviewState::default();
    state.started(
        7,
        (1, game.clone()),
        ("Judged at 100 simulations a position.".into(), 100),
    );
    state.reviewed(
        7,
        start.hash(),
        reviewed(Color::Black, "d3", -2.9, "d3", -2.9),
    );
    state.ended(7, None);
    assert!(state.of(1).get(start.hash(), mv("d3")).is_some());
    assert!(state.of(1).judged().is_some());
    assert_eq!(state.of(2).of_game(&game), vec![None, None, None]);
    assert_eq!(state.of(2).judged(), None);
    assert_eq!(state.len(), 1);
}

#[test]
fn a_cancelled_reviews_late_answers_are_dropped() {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let game = |moves: &str| Game::from_transcript(moves, start).expect("legal");
    let mut state = ReviewState::default();
    state.started(4, (0, game("f5d6")), (String::new(), 100));
    let r = reviewed(Color::Black, "f5", 0.0, "f5", 0.0);
    state.reviewed(4, 10, r.clone());
    assert_eq!(state.running, Some((4, 1, 2)));
    state.cancelled();
    state.reviewed(4, 11, r.clone());
    assert_eq!(state.of(0).get(11, mv("f5")), None);
    assert_eq!(state.of(0).get(10, mv("f5")), Some(r));
    state.started(5, (0, game("f5")), (String::new(), 100));
    state.ended(4, Some("late".into()));
    assert_eq!(
        (state.running, state.error.clone()),
        (Some((5, 0, 1)), None)
    );
    state.ended(5, Some("no network".into()));
    assert_eq!(
        (state.running, state.error_of(0)),
        (None, Some("no network"))
    );
    assert_eq!(
        state.error_of(1),
        None,
        "another game's review did not stop"
    );
}

#[test]
fn a_review_counts_the_discs_placed_not_the_passes() {
    // 60 discs placed and 6 passes (Black's, at the end).
    let game = crate::test_support::game_ending_in_passes();
    assert_eq!(game.moves().len(), 66);
    let mut state = ReviewState::default();
    state.started(1, (0, game), (String::new(), 100));
    assert_eq!(state.running, Some((1, 0, 60)));
    let pass = ReviewedMove::from_engine(&MoveReview::forced(Color::Black, Move::Pass));
    state.reviewed(1, 20, pass.clone());
    assert_eq!(state.running, Some((1, 0, 60)), "a pass is no move done");
    state.reviewed(1, 21, reviewed(Color::White, "h1", 0.0, "h1", 0.0));
    assert_eq!(state.running, Some((1, 1, 60)));
    // Nor is it a forced move in the side's summary.
    let forced = ReviewedMove::from_engine(&MoveReview::forced(Color::Black, mv("a1")));
    let reviews = [Some(pass.clone()), Some(pass), Some(forced)];
    assert_eq!(summary(&reviews, Color::Black).forced, 1);
}

#[test]
fn the_table_marks_as_forced_what_the_summary_counts_as_forced() {
    // Issue 68: the summaries counted 4 forced moves where the table marked 5, the
    // pass row among them.
    let pass = ReviewedMove::from_engine(&MoveReview::forced(Color::Black, Move::Pass));
    let forced = ReviewedMove::from_engine(&MoveReview::forced(Color::Black, mv("a1")));
    assert_eq!(mark_name(&pass), "pass");
    assert_eq!(mark_name(&forced), "forced");
    let reviews = [Some(pass.clone()), Some(forced.clone())];
    let marked = reviews
        .iter()
        .flatten()
        .filter(|r| mark_name(r) == "forced")
        .count();
    assert_eq!(marked, summary(&reviews, Color::Black).forced);
    assert!(
        describe(None, &pass).starts_with("Black passes"),
        "{}",
        describe(None, &pass)
    );
}

#[test]
fn a_review_follows_its_game_through_undo_and_play_but_not_into_another_game() {
    use othello::{GameState, Seats};
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let played = Game::from_transcript("f5d6c3d3", start).expect("legal");
    let mut state = ReviewState::default();
    let on_board = GameState::from_game(played.clone(), Seats::Analysis);
    assert!(state.follows(1, &on_board), "no review: nothing to cancel");
    state.started(1, (1, played.clone()), (String::new(), 100));
    assert!(state.follows(1, &on_board));
    // Undo keeps the moves as redo; playing on after the reviewed moves keeps them too.
    let mut undone = on_board.clone();
    undone.undo();
    assert!(undone.game.moves().len() < 4 && state.follows(1, &undone));
    let mut on = on_board.clone();
    on.play_human(mv("c4")).expect("legal");
    assert!(on.game.moves().len() == 5 && state.follows(1, &on));
    // Another move where a reviewed one was, a new game, another start: not this game.
    let mut other = GameState::from_game(played.clone(), Seats::Analysis);
    other.undo();
    other.undone.clear();
    let instead = other
        .position()
        .legal_move_list()
        .into_iter()
        .find(|&m| m != mv("d3"))
        .expect("another move");
    other.play_human(instead).expect("legal");
    assert!(!state.follows(1, &other), "{:?}", other.game.moves());
    // The same moves, but another game of the page's (a record loaded after it).
    assert!(!state.follows(2, &on_board));
    let new_game = GameState::new(start, Seats::Human(Color::Black));
    assert!(!state.follows(1, &new_game));
    let mut elsewhere = Game::new(start.play(mv("d3")).expect("legal"));
    let reply = elsewhere.position().legal_move_list()[0];
    elsewhere.push(reply).expect("legal");
    assert!(!state.follows(1, &GameState::from_game(elsewhere, Seats::Analysis)));
    // Once the review is over there is nothing to follow.
    state.ended(1, None);
    assert!(state.follows(1, &new_game));
}

#[test]
fn a_review_judges_with_more_than_the_agent_s_own_search_and_says_so() {
    use protocol::WireBudget;
    let sims = |n| WireBudget {
        simulations: Some(n),
        millis: None,
    };
    // Quick on a Casual game would repeat the agent's 100 simulations.
    let casual = judging(ReviewLevel::Quick, &[("Casual", sims(100))], 2_000);
    assert_eq!(casual.simulations, 400);
    assert_eq!(
        casual.text,
        "Judged at 400 simulations a position, not 100 as in a game without an agent, \
         because the Casual agent searched with 100 simulations: a review at its own budget would only repeat \
         its search."
    );
    // Deep is raised by as much, up to the cap.
    let deep = judging(ReviewLevel::Deep, &[("Casual", sims(100))], 2_000);
    assert_eq!(deep.simulations, 3_200);
    assert!(deep.text.starts_with(
        "Judged at 3,200 simulations a position, not 1,600 as in a game without an agent, \
         because the Casual"
    ));
    // A timed agent beyond the cap: the review says it may be kind.
    let strongest = WireBudget {
        simulations: None,
        millis: Some(5_000),
    };
    let kind = judging(ReviewLevel::Medium, &[("Strongest", strongest)], 2_000);
    assert_eq!(kind.simulations, 1_600);
    assert!(kind.text.contains("graded more kindly"), "{}", kind.text);
    // A game played at two levels names both, and is judged past the stronger (issue
    // 68: it named only the last level the agent played at).
    let both = judging(
        ReviewLevel::Quick,
        &[("Casual", sims(100)), ("Club", sims(400))],
        2_000,
    );
    assert_eq!(both.simulations, 800);
    assert_eq!(
        both.text,
        "Judged at 800 simulations a position, not 100 as in a game without an agent, \
         because the agent played this game at Casual (100 simulations) and Club (400 simulations), searching \
         with up to 400 simulations: a review at its own budget would only repeat its \
         search."
    );
    // Without an agent (analysis), the chosen level.
    assert_eq!(judging(ReviewLevel::Quick, &[], 2_000).simulations, 100);
    // A Strong game of the pattern network (25,000 a second in a worker): its agent's
    // search is said as it was, and the review goes past it in the time a review may
    // take.
    let strong = WireBudget {
        simulations: None,
        millis: Some(1_000),
    };
    let pattern = judging(ReviewLevel::Deep, &[("Strong", strong)], 25_000);
    assert_eq!(pattern.simulations, 40_000);
    assert!(
        pattern.text.contains(
            "the Strong agent searched with 1 s a move (some 25,000 simulations; a budget in \
             time, so the count varies)"
        ),
        "{}",
        pattern.text
    );
    assert!(
        !pattern.text.contains("graded more kindly"),
        "{}",
        pattern.text
    );
    // Raised, yet still short of the agent's search: one reason, not two that disagree
    // (the ninth look: "would only repeat its search. That is no more than the agent's
    // own search").
    let short = judging(ReviewLevel::Quick, &[("Strong", strong)], 25_000);
    assert!(short.simulations > 100 && short.simulations < 25_000);
    assert!(
        short.text.ends_with(
            "; raised as far as this level goes, that is still no more than the agent's own \
             search, so its moves may be graded more kindly than they deserve."
        ) && !short.text.contains("only repeat"),
        "{}",
        short.text
    );
}

#[test]
fn the_discs_lost_add_up_to_the_result() {
    // A finished 6x6 game of random moves, reviewed by a search: estimates, exact
    // values near the end, forced moves and passes maybe.
    let mut rng = engine::Rng::new(5);
    let mut game = Game::new(Position::start(BoardSize::Six, Variant::Standard));
    while !game.position().is_game_over() {
        let moves = game.position().legal_move_list();
        game.push(*rng.choose(&moves).expect("a move"))
            .expect("legal");
    }
    let spec: engine::PlayerSpec = "mcts:playouts=1".parse().expect("a spec");
    let (agent, _) = spec.build(3, &engine::NoModels).expect("builds");
    let reviews: Vec<Option<ReviewedMove>> =
        engine::review::Reviewer::new(agent, engine::Budget::simulations(40))
            .review_game(&game, &mut |_, _| {})
            .expect("reviews")
            .iter()
            .map(|r| Some(ReviewedMove::from_engine(r)))
            .collect();
    let b = balance(&game, &reviews).expect("a finished game, every move reviewed");
    let margin = game
        .position()
        .outcome()
        .expect("over")
        .margin_for(Color::Black);
    assert_eq!(b.result, margin);
    // The figures as written, to the hundredth, add up to the last digit.
    let cents =
        |x: f32| (format!("{x:.2}").parse::<f64>().expect("a number") * 100.0).round() as i64;
    assert_eq!(
        cents(b.start) - cents(b.black_lost) + cents(b.white_lost) + cents(b.drift),
        i64::from(margin) * 100,
        "{b:?}"
    );
    assert_eq!(
        format!("{:.2}", b.black_lost),
        format!("{:.2}", summary(&reviews, Color::Black).total_loss),
        "the summary's own figure"
    );
    // The sentence's figures are the balance's, to hundredths.
    let said = b.sentence(None);
    assert!(
        said.contains(&format!("{:.2} discs lost", b.black_lost)),
        "{said}"
    );
    assert!(
        said.contains(&format!("plus White's {:.2}", b.white_lost)),
        "{said}"
    );
    // No balance for an unfinished game or a missing move.
    let mut short = reviews.clone();
    short[3] = None;
    assert_eq!(balance(&game, &short), None);
}

#[test]
fn every_level_costs_what_its_name_says_whatever_the_agent() {
    use protocol::WireBudget;
    let sims = |n| WireBudget {
        simulations: Some(n),
        millis: None,
    };
    let strong = WireBudget {
        simulations: None,
        millis: Some(1_000),
    };
    // Issue 68: a Club agent's game was judged at 1,600 simulations whatever the
    // level, so Deep took as long as Quick.
    for (agent, rate) in [
        (vec![], 2_000),
        (vec![("Casual", sims(100))], 2_000),
        (vec![("Club", sims(400))], 25_000),
        (vec![("Club", sims(400))], 2_000),
        (vec![("Strong", strong)], 25_000),
        (vec![("Strongest", sims(1_000_000))], 2_000),
    ] {
        let at = ReviewLevel::ALL.map(|level| judging(level, &agent, rate).simulations);
        assert!(
            at[0] < at[1] && at[1] < at[2],
            "{agent:?} at {rate}: {at:?}"
        );
    }
    let club = ReviewLevel::ALL.map(|l| judging(l, &[("Club", sims(400))], 25_000).simulations);
    assert_eq!(club, [1_600, 6_400, 25_600]);
}

#[test]
fn a_stopped_review_names_the_move_and_what_to_do() {
    let moves = [mv("f5"), mv("d6"), Move::Pass, mv("c3")];
    let reason = "the search gave no values for this position";
    let at = stopped_at(&moves, Some(3), Color::Black, reason);
    assert_eq!(
        at,
        "The review stopped at move 3 (c3, Black): the search gave no values for this position"
    );
    assert_eq!(
        stopped_at(&moves, Some(2), Color::Black, reason),
        format!("The review stopped at Black's pass after move 2: {reason}")
    );
    assert_eq!(
        stopped_at(&moves, None, Color::Black, "no worker"),
        "The review stopped: no worker"
    );
    let told = stop_sentence(&at, 2);
    assert!(told.contains("The 2 moves reviewed are kept."), "{told}");
    assert!(
        told.contains("Press \"Review again\" to try once more"),
        "{told}"
    );
    assert!(stop_sentence(&at, 0).contains("\"Review the game\""));
}

#[test]
fn review_levels_are_named_by_their_budget_so_a_name_means_one_size() {
    assert_eq!(ReviewLevel::default().simulations(), 400);
    assert_eq!(ReviewLevel::Deep.label(), "1,600 simulations a position");
    assert_eq!(ReviewLevel::from_key("quick"), Some(ReviewLevel::Quick));
    // Issue 68: after a Club game the menu said "Deep review: 25,600" and the line under it
    // "Deep's 1,600"; after a Casual game Medium was 1,600. Whatever the game, the menu's
    // words and the judged line name a level by what it costs in this game alone.
    let club = |level| {
        let sims = protocol::WireBudget {
            simulations: Some(400),
            millis: None,
        };
        judging(level, &[("Club", sims)], 25_000)
    };
    for level in ReviewLevel::ALL {
        let judged = club(level);
        let words = format!("{} {}", budget_label(judged.simulations), judged.text);
        for name in ["Quick", "Medium", "Deep"] {
            assert!(!words.contains(name), "{words}");
        }
    }
    assert_eq!(
        budget_label(club(ReviewLevel::Deep).simulations),
        "25,600 simulations a position"
    );
    let old: ReviewLevel = serde_json::from_str("\"Club\"").expect("an old save");
    assert_eq!(old, ReviewLevel::Medium);
}

#[test]
fn a_move_within_reach_of_another_best_is_near_best_not_best() {
    // Issue 68: a row marked "best" while its best column named another move, 1.2 discs
    // better.
    let near = ReviewedMove::from_engine(&MoveReview::new(
        Color::Black,
        (mv("d3"), Value::estimate(1.0)),
        (mv("c4"), Value::estimate(2.2)),
    ));
    assert_eq!(near.mark(), Some(Mark::NearBest));
    assert_eq!(mark_name(&near), "near-best");
    assert_eq!(judged_cells(&near)[3], "near-best");
    let said = describe(Some(1), &near);
    assert!(
        said.ends_with("near-best, 1.20 discs from the best"),
        "{said}"
    );
    // The best move found, and one proven exactly as good, are best.
    let found = ReviewedMove::from_engine(&MoveReview::new(
        Color::Black,
        (mv("c4"), Value::estimate(2.2)),
        (mv("c4"), Value::estimate(2.2)),
    ));
    assert_eq!(mark_name(&found), "best");
    let equal = ReviewedMove::from_engine(&MoveReview::new(
        Color::Black,
        (mv("d3"), Value::exact(4)),
        (mv("c4"), Value::exact(4)),
    ));
    assert_eq!(mark_name(&equal), "best");
    // Within reach of a best that is only a bound: uncertain, not best.
    let mut bound = found.clone();
    bound.best_is_bound = true;
    assert_eq!(bound.mark(), Some(Mark::Uncertain));
    assert_eq!(mark_name(&bound), "uncertain");
    // The side's summary is the engine's, which counts the near-best and the uncertain
    // apart, as the table marks them (issue 68: the page rewrote the engine's words to
    // count the near-best, and the uncertain were counted best).
    let rows = [Some(near), Some(found), Some(equal), Some(bound)];
    let said = summary_words(&rows, Color::Black);
    assert!(
        said.contains("(best 2, near-best 1, uncertain 1, inaccuracy 0, mistake 0, blunder 0)"),
        "{said}"
    );
}

#[test]
fn a_large_drift_says_the_losses_are_rough_and_names_the_deeper_level() {
    // Issue 68: "less Black's 111.98 discs lost, plus White's 80.03, plus +19.10" at 100
    // simulations, honest but unexplained.
    let rough = Balance {
        result: -14,
        start: -1.15,
        start_exact: false,
        black_lost: 111.98,
        white_lost: 80.03,
        drift: 19.10,
        bounded: 0,
    };
    assert!(rough.rough());
    let said = rough.sentence(Some(1_600));
    assert!(
        said.ends_with(
            "(none where the solver gave exact values). The search's estimates drifted that \
             much at this budget, so each move's loss is rough: a review at 1,600 simulations \
             a position gives steadier losses."
        ),
        "{said}"
    );
    // At the deepest level there is none deeper to name.
    assert!(rough.sentence(None).ends_with("each move's loss is rough."));
    // A drift small beside the losses needs no word.
    let steady = Balance {
        drift: -0.98,
        black_lost: 35.0,
        white_lost: 39.68,
        ..rough
    };
    assert!(!steady.rough());
    assert!(!steady.sentence(Some(1_600)).contains("rough"));
    assert!(!steady.sentence(None).contains("lower bound"));
    // A total with a bounded loss in it says so, as the summaries do (the fifteenth look).
    let bounded = Balance {
        bounded: 1,
        ..steady
    };
    assert!(bounded
        .sentence(None)
        .ends_with("One move's loss in it is only a lower bound (≥), so the totals are at least that, and the estimates' share holds the rest."));
}

#[test]
fn a_forced_moves_square_says_forced_and_its_notice_one_frame() {
    // Issue 68, eighth look: "40. b7 (forced)" put a bare "-" on b7, labelled "- discs",
    // under a notice of a white ring and a gold frame where one frame was drawn.
    let forced = ReviewedMove::from_engine(&MoveReview::forced(Color::Black, mv("b7")));
    let tiles = focus_tiles(&forced, othello::BoardSize::Eight);
    assert_eq!(tiles.len(), 1);
    assert_eq!(tiles[0].label, "forced");
    assert_eq!(tiles[0].aria, "played, forced: the only legal move");
    let line = focus_line(Some(40), &forced);
    assert!(
        line.contains("its only legal move, forced, in the gold frame"),
        "{line}"
    );
    assert!(!line.contains("white"), "{line}");
    // A best move played is one frame too; another move played is ringed beside it.
    let best = reviewed(Color::Black, "f5", 2.0, "f5", 2.0);
    assert!(!focus_line(Some(1), &best).contains("white"));
    let other = reviewed(Color::Black, "f5", 0.0, "d3", 6.0);
    assert!(focus_line(Some(1), &other).contains("ringed in white"));
}

/// `row` as a save from before `field` was written reads it back.
fn saved_without(row: &ReviewedMove, field: &str) -> serde_json::Result<ReviewedMove> {
    let mut value = serde_json::to_value(row)?;
    value.as_object_mut().map(|o| o.remove(field));
    serde_json::from_value(value)
}

#[test]
fn an_exact_rows_searched_line_is_not_called_perfect_play() {
    // The twelfth look: row 40, f1 proven best, showed "f1 pass f2 g1 h1 pass (the
    // solver's, with perfect play)" where the line was the search's path.
    let mut row = ReviewedMove::from_engine(&MoveReview::new(
        Color::White,
        (mv("f1"), Value::exact(-4)),
        (mv("f1"), Value::exact(-4)),
    ));
    row.line = ["f1", "pass", "f2"].into_iter().map(mv).collect();
    let solved = line_sentence(&row).unwrap_or_default();
    assert!(
        solved.ends_with("(the solver's, with perfect play)."),
        "{solved}"
    );
    row.line_searched = true;
    let searched = line_sentence(&row).unwrap_or_default();
    assert!(
        searched.ends_with("(the search's most visited path)."),
        "{searched}"
    );
    // A save from before the field reads as it did: its exact rows were the solver's.
    let old = saved_without(&row, "line_searched");
    assert!(old.is_ok_and(|r| !r.line_searched));
}

#[test]
fn a_bound_rows_line_from_the_window_says_what_is_proven_of_it() {
    // The thirteenth look: "best d1 ≥+46" named the search's choice; the row now names the
    // move the null window proved, and its line says which part is proven and how.
    let mut row = ReviewedMove::from_engine(&MoveReview::new(
        Color::Black,
        (mv("a4"), Value::exact(38)),
        (mv("d2"), Value::estimate(46.0)),
    ));
    (row.best_is_bound, row.line_from_window) = (true, true);
    row.line = ["d2", "g1", "h1"].into_iter().map(mv).collect();
    let solved = line_sentence(&row).unwrap_or_default();
    assert!(solved.starts_with("Best line: d2 g1 h1 (its first move proven to reach at least the bound, the rest the solver's perfect play)"), "{solved}");
    row.line.truncate(1);
    let alone = line_sentence(&row).unwrap_or_default();
    assert!(
        alone.contains("the line after it was not solved"),
        "{alone}"
    );
    // A save from before the field keeps the search's words for its bound rows.
    let old = saved_without(&row, "line_from_window");
    assert!(old.is_ok_and(|r| line_sentence(&r).is_some_and(|s| s.contains("search's"))));
}
