use super::*;
use engine::NoModels;
use othello::BoardSize;

fn config(player: &str, positions: usize) -> AccuracyConfig {
    AccuracyConfig {
        size: BoardSize::Four,
        variant: Variant::Standard,
        player: player.parse().expect("spec"),
        sparring: "greedy".parse().expect("spec"),
        positions,
        min_empties: 0,
        max_empties: 9,
        exact_up_to: 9,
        seed: 3,
    }
}

/// A measure with no networks and no progress to show.
fn measure(config: &AccuracyConfig) -> AccuracyReport {
    measure_accuracy(config, &NoModels, &|_, _| {}).expect("runs")
}

/// A recheck of `records` with no networks and no progress to show.
fn recheck(
    config: &AccuracyConfig,
    records: &[RecordedMove],
) -> Result<AccuracyReport, ReplayError> {
    recheck_accuracy(config, records, "t", &NoModels, &|_, _| {})
}

#[test]
fn a_player_that_solves_the_endgame_plays_only_optimal_moves() {
    // On 4x4 alpha-beta solves every position with 16 or fewer empties exactly.
    let report = measure(&config("alphabeta", 40));
    assert_eq!(report.moves.len(), 40);
    assert_eq!(report.optimal(), 40, "{}", report.summary());
    assert_eq!(report.mean_loss(), 0.0);
}

#[test]
fn a_random_player_is_caught_playing_bad_moves_and_each_check_is_exact() {
    let report = measure(&config("random", 60));
    assert_eq!(report.moves.len(), 60);
    assert!(report.optimal() < 60, "{}", report.summary());
    assert!(report.mean_loss() > 0.0);
    let (kept, open) = report.not_lost();
    assert!(kept <= open && open <= 60);
    let buckets = report.by_empties(4);
    assert_eq!(buckets.iter().map(|b| b.moves).sum::<usize>(), 60);
    assert_eq!(
        buckets.iter().map(|b| b.optimal).sum::<usize>(),
        report.optimal()
    );
    assert!(buckets.windows(2).all(|w| w[0].high < w[1].low));
    for checked in &report.moves {
        assert!(checked.empties <= 9);
        assert!(checked.played_margin <= checked.best_margin);
    }
    assert_margins_are_exact(&report);
}

#[test]
fn a_stretch_of_empties_checks_only_moves_from_it_in_games_and_rechecks() {
    let stretch = AccuracyConfig {
        min_empties: 6,
        ..config("random", 30)
    };
    let report = measure(&stretch);
    assert_eq!(report.moves.len(), 30);
    assert!(report.moves.iter().all(|m| (6..=9).contains(&m.empties)));
    assert!(
        report.summary().contains("positions with 6-9 empties"),
        "{}",
        report.summary()
    );
    let groups: Vec<(u32, u32)> = report
        .by_empties(4)
        .iter()
        .map(|b| (b.low, b.high))
        .collect();
    assert_eq!(groups, [(6, 7), (8, 9)]);
    assert_margins_are_exact(&report);
    // A recheck of the whole endgame's records keeps only the stretch's positions.
    let everything = measure(&config("random", 60));
    assert!(everything.moves.iter().any(|m| m.empties < 6));
    let rechecked = recheck(
        &AccuracyConfig {
            min_empties: 6,
            ..config("greedy", 1000)
        },
        &recorded(&everything),
    )
    .expect("rechecks");
    assert!(!rechecked.moves.is_empty());
    assert!(rechecked.moves.iter().all(|m| (6..=9).contains(&m.empties)));
    let none = recheck(
        &AccuracyConfig {
            min_empties: 10,
            max_empties: 12,
            ..config("greedy", 10)
        },
        &recorded(&everything),
    )
    .expect_err("no position has 10-12 empties");
    assert_eq!(
        none.to_string(),
        "no recorded position has 10-12 empties on this board"
    );
}

/// Every checked move's margins agree with a fresh solve of every move.
fn assert_margins_are_exact(report: &AccuracyReport) {
    for checked in &report.moves {
        let pos =
            Position::from_board_text(&checked.position, Variant::Standard).expect("board text");
        assert_eq!(pos.empty_count(), checked.empties);
        let scores = Solver::new().score_moves(&pos);
        let played = scores.iter().find(|(mv, _)| *mv == checked.played);
        assert_eq!(played.map(|p| p.1), Some(checked.played_margin));
        assert_eq!(scores[0].1, checked.best_margin);
    }
}

fn recorded(report: &AccuracyReport) -> Vec<RecordedMove> {
    let json = serde_json::to_string(report).expect("serialises");
    serde_json::from_str::<RecordedReport>(&json)
        .expect("a report reads back")
        .moves
}

#[test]
fn a_recheck_scores_each_recorded_position_with_exact_margins() {
    let games = measure(&config("random", 60));
    let records = recorded(&games);
    let distinct: std::collections::HashSet<&str> =
        games.moves.iter().map(|m| m.position.as_str()).collect();
    // A perfect player on the same positions: every move optimal, none skipped.
    let perfect = recheck(&config("alphabeta", 1000), &records).expect("rechecks");
    assert_eq!(perfect.moves.len(), distinct.len());
    assert_eq!(
        perfect.optimal(),
        perfect.moves.len(),
        "{}",
        perfect.summary()
    );
    // Another random player: its margins, reused or solved, match a fresh solve.
    let other = recheck(&config("random:seed=9", 1000), &records).expect("rechecks");
    assert!(other.optimal() < other.moves.len());
    assert_margins_are_exact(&other);
    let capped = recheck(&config("greedy", 5), &records).expect("rechecks");
    assert_eq!(capped.moves.len(), 5);
    assert_eq!(capped.moves[0].position, games.moves[0].position);
}

#[test]
fn a_recheck_refuses_records_that_do_not_hold() {
    let games = measure(&config("random", 6));
    let good = recorded(&games);
    let run = |records: &[RecordedMove]| {
        recheck(&config("greedy", 100), records)
            .map(|r| r.moves.len())
            .map_err(|e| e.to_string())
    };
    assert!(run(&good).is_ok());
    let mut bad = good.clone();
    bad[2].position = "not a board".into();
    assert!(run(&bad).unwrap_err().starts_with("recorded move 2:"));
    let mut bad = good.clone();
    bad[1].played = "z9".into();
    assert!(run(&bad).unwrap_err().contains("z9"));
    let mut bad = good.clone();
    bad[0].played_margin = bad[0].best_margin + 2;
    assert!(run(&bad).unwrap_err().contains("beats the best margin"));
    let mut bad = good.clone();
    let mut twin = bad[0].clone();
    twin.best_margin += 2;
    twin.played_margin = twin.best_margin;
    bad.push(twin);
    assert!(run(&bad).unwrap_err().contains("earlier record"));
    let six = "--------------OXX---XOXO----O-----XO X";
    let mut bad = good.clone();
    bad[0].position = six.into();
    assert!(run(&bad).unwrap_err().contains("not 4x4"));
    assert!(run(&[]).unwrap_err().contains("no recorded position"));
}

/// Every checked move labelled win/loss/draw only has the signs of a fresh exact solve.
fn assert_signs_are_exact(report: &AccuracyReport) {
    for checked in report.moves.iter().filter(|m| !m.exact) {
        let pos =
            Position::from_board_text(&checked.position, Variant::Standard).expect("board text");
        let scores = Solver::new().score_moves(&pos);
        let played = scores.iter().find(|(mv, _)| *mv == checked.played);
        assert_eq!(played.map(|p| p.1.signum()), Some(checked.played_margin));
        assert_eq!(scores[0].1.signum(), checked.best_margin);
    }
}

#[test]
fn above_exact_up_to_moves_are_labelled_win_loss_or_draw_and_rechecked_so() {
    let split = AccuracyConfig {
        exact_up_to: 5,
        ..config("random", 60)
    };
    let report = measure(&split);
    assert!(report.moves.iter().all(|m| m.exact == (m.empties <= 5)));
    let wld = report.moves.iter().filter(|m| !m.exact).count();
    assert!(wld > 0 && report.exact() > 0, "{}", report.summary());
    assert_signs_are_exact(&report);
    // A random player loses results somewhere in 60 moves, and the shares of optimal
    // moves and lost discs count only the exact ones.
    assert!(report.keeps_result() < 60);
    assert!(report.optimal() <= report.exact());
    let exact_only = AccuracyReport {
        moves: report.moves.iter().filter(|m| m.exact).cloned().collect(),
        ..report.clone()
    };
    assert_eq!(report.mean_loss(), exact_only.mean_loss());
    assert!(
        report.summary().contains(&format!(
            "of {} exactly labelled moves optimal",
            report.exact()
        )),
        "{}",
        report.summary()
    );
    let buckets = report.by_empties(2);
    assert_eq!(
        buckets.iter().map(|b| b.exact).sum::<usize>(),
        report.exact()
    );
    assert!(buckets.iter().all(|b| b.low < 6 || b.exact == 0));

    // Another player on the same positions: its labels, reused or proven, hold too.
    let records = recorded(&report);
    let other = recheck(
        &AccuracyConfig {
            exact_up_to: 5,
            ..config("random:seed=5", 1000)
        },
        &records,
    )
    .expect("rechecks");
    assert!(other.moves.iter().any(|m| !m.exact));
    assert_signs_are_exact(&other);
    // Exact records serve a win/loss/draw check as their signs.
    let all_wld = recheck(
        &AccuracyConfig {
            exact_up_to: 0,
            ..config("random:seed=5", 1000)
        },
        &recorded(&measure(&config("random", 60))),
    )
    .expect("rechecks");
    assert_eq!(all_wld.exact(), 0);
    assert_signs_are_exact(&all_wld);
    assert!(
        !all_wld.summary().contains("optimal"),
        "{}",
        all_wld.summary()
    );
    // But a win/loss/draw label cannot stand in for a margin.
    let wanted_exact =
        recheck(&config("greedy", 1000), &records).expect_err("the margins are unknown");
    assert!(
        wanted_exact
            .to_string()
            .contains("labelled win/loss/draw only"),
        "{wanted_exact}"
    );
    let mut bad = records.clone();
    let at = bad
        .iter()
        .position(|m| !m.exact)
        .expect("a win/loss/draw label");
    bad[at].best_margin = 12;
    let wrong_sign = recheck(&split, &bad).expect_err("not a sign");
    assert!(
        wrong_sign.to_string().contains("1, 0 or -1"),
        "{wrong_sign}"
    );
}

#[test]
fn wilson_intervals_match_the_closed_form_and_stay_in_bounds() {
    let (low, high) = wilson_interval(181, 200);
    assert!(
        (low - 0.8564).abs() < 5e-4 && (high - 0.9383).abs() < 5e-4,
        "{low} {high}"
    );
    assert_eq!(wilson_interval(0, 0), (0.0, 1.0));
    let (low, high) = wilson_interval(10, 10);
    assert!(low > 0.69 && high == 1.0);
}
