use super::*;
use engine::NoModels;

fn config(players: &str, games: usize, size: BoardSize) -> ArenaConfig {
    ArenaConfig {
        size,
        variant: Variant::Standard,
        players: ArenaPlayer::parse_list(players, &[]).expect("valid players"),
        games_per_pairing: games,
        seed: 11,
        openings: Openings::Random,
        rules: MatchRules::default(),
        sprt: None,
    }
}

#[test]
fn from_the_start_every_game_begins_at_the_initial_position_and_games_still_differ() {
    let c = ArenaConfig {
        openings: Openings::Start,
        ..config("random,greedy", 8, BoardSize::Six)
    };
    let report = run_arena(&c, 2, &NoModels, &|_, _| {}).expect("runs");
    // Openings are reported as transcripts from the initial position: all empty here.
    assert_eq!(report.openings.len(), 4);
    assert!(
        report.openings.iter().all(String::is_empty),
        "{:?}",
        report.openings
    );
    let transcripts: std::collections::HashSet<&String> =
        report.games.iter().map(|g| &g.transcript).collect();
    assert!(
        transcripts.len() > 4,
        "{} distinct games",
        transcripts.len()
    );
}

/// The reproducible part of a report: everything but thinking times.
fn outcomes(report: &ArenaReport) -> Vec<(usize, usize, usize, i32, String)> {
    report
        .games
        .iter()
        .map(|g| {
            (
                g.black,
                g.white,
                g.opening,
                g.black_margin,
                g.transcript.clone(),
            )
        })
        .collect()
}

#[test]
fn results_are_the_same_on_one_thread_and_on_two() {
    let c = config("random,novice,greedy,uct:sims=30", 6, BoardSize::Six);
    let one = run_arena(&c, 1, &NoModels, &|_, _| {}).expect("runs");
    let two = run_arena(&c, 2, &NoModels, &|_, _| {}).expect("runs");
    assert_eq!(one.games.len(), 6 * 6);
    assert_eq!(outcomes(&one), outcomes(&two));
    assert_eq!(one.pairings, two.pairings);
    let elo = |r: &ArenaReport| r.ratings.iter().map(|p| p.elo).collect::<Vec<_>>();
    assert_eq!(elo(&one), elo(&two));
    // A different seed gives different games.
    let other = run_arena(&ArenaConfig { seed: 12, ..c }, 2, &NoModels, &|_, _| {}).expect("runs");
    assert_ne!(outcomes(&one), outcomes(&other));
}

#[test]
fn every_opening_is_played_twice_per_pairing_with_colours_swapped() {
    let c = config("random,greedy,novice", 8, BoardSize::Four);
    let report = run_arena(&c, 2, &NoModels, &|_, _| {}).expect("runs");
    assert_eq!(report.openings.len(), 4);
    for a in 0..3 {
        for b in 0..3 {
            if a == b {
                continue;
            }
            for opening in 0..4 {
                let count = report
                    .games
                    .iter()
                    .filter(|g| g.black == a && g.white == b && g.opening == opening)
                    .count();
                assert_eq!(count, 1, "{a} as Black against {b}, opening {opening}");
            }
        }
    }
    for g in &report.games {
        assert!(g.transcript.starts_with(&report.openings[g.opening]));
    }
}

#[test]
fn progress_counts_every_game_up_to_the_total() {
    use std::sync::Mutex;
    let seen = Mutex::new(Vec::new());
    let c = config("random,greedy", 4, BoardSize::Four);
    run_arena(&c, 2, &NoModels, &|done, total| {
        if let Ok(mut s) = seen.lock() {
            s.push((done, total));
        }
    })
    .expect("runs");
    let mut seen = seen.into_inner().expect("not poisoned");
    seen.sort();
    assert_eq!(seen, (1..=4).map(|d| (d, 4)).collect::<Vec<_>>());
}

#[test]
fn tallies_add_up_from_both_sides() {
    let c = config("random,greedy,uct:sims=20", 4, BoardSize::Four);
    let openings = generate_openings(c.size, c.variant, 2, 5).expect("openings");
    let games: Vec<GameRecord> = c
        .schedule()
        .iter()
        .map(|job| play_game(&c, &openings, job, &NoModels).expect("plays"))
        .collect();
    let report = ArenaReport::new(&c, &openings, games).expect("report");
    assert_eq!(report.anchor, "random");
    assert_eq!(report.ratings[0].elo, 0.0);
    for p in &report.pairings {
        let back = report.pairing(p.opponent, p.player).expect("met");
        assert_eq!(p.total.wins, back.total.losses);
        assert_eq!(p.total.draws, back.total.draws);
        assert_eq!(p.as_black.wins, back.as_white.losses);
        assert!((p.total.mean_margin + back.total.mean_margin).abs() < 1e-9);
        assert_eq!(p.total.games, p.as_black.games + p.as_white.games);
        assert_eq!(p.as_black.games, 2);
    }
}

#[test]
fn configurations_that_cannot_run_are_refused() {
    let mut c = config("random,greedy", 3, BoardSize::Six);
    assert!(matches!(c.check(&NoModels), Err(ArenaError::OddGames(3))));
    c.games_per_pairing = 0;
    assert!(matches!(c.check(&NoModels), Err(ArenaError::OddGames(0))));
    let c = config("random", 2, BoardSize::Six);
    assert!(matches!(c.check(&NoModels), Err(ArenaError::TooFewPlayers)));
    let c = config("random,alphabeta:depth=4", 2, BoardSize::Six);
    assert!(c.check(&NoModels).is_ok());
}

#[test]
fn agent_seeds_depend_on_the_game_not_on_its_place_in_the_queue() {
    let c = config("random,greedy,novice", 4, BoardSize::Six);
    let jobs = c.schedule();
    let seeds: std::collections::HashSet<(u64, u64)> =
        jobs.iter().map(|j| c.agent_seeds(j)).collect();
    assert_eq!(seeds.len(), jobs.len(), "every game gets its own seeds");
    let job = GameJob {
        black: 2,
        white: 0,
        opening: 1,
    };
    assert_eq!(c.agent_seeds(&job), c.agent_seeds(&job));
    assert_ne!(
        c.agent_seeds(&job),
        c.agent_seeds(&GameJob {
            black: 0,
            white: 2,
            opening: 1
        })
    );
}

fn sprt_match(players: &str, size: BoardSize, games: usize, sprt: &str) -> ArenaConfig {
    ArenaConfig {
        sprt: Some(sprt.parse().expect("valid test")),
        seed: 3,
        ..config(players, games, size)
    }
}

#[test]
fn a_clearly_stronger_player_is_accepted_in_far_fewer_games_than_allowed() {
    let c = sprt_match(
        "alphabeta:depth=4,greedy",
        BoardSize::Eight,
        400,
        "elo0=0,elo1=50",
    );
    let report = run_match(&c, 2, &NoModels, None, &|_| {}).expect("runs");
    let sprt = report.sprt.expect("a sequential match reports its test");
    assert_eq!(sprt.verdict, Some(Hypothesis::H1), "{sprt:?}");
    let pairs = sprt.pairs_at_verdict.expect("decided");
    // Far fewer than the 400 games allowed (23 pairs with these seeds).
    assert!(pairs <= 50, "H1 took {pairs} pairs");
    assert!(sprt.llr >= sprt.upper);
    // It stopped soon after: beyond the verdict's pair, only games within the window a
    // thread may run ahead of the first unfinished game (4 a thread, 2 threads).
    assert!(
        report.games.len() <= 2 * pairs as usize + 8,
        "{} games for a verdict at pair {pairs}",
        report.games.len()
    );
    // The verdict and its pair do not depend on how many games run at once.
    let alone = run_match(&c, 1, &NoModels, None, &|_| {}).expect("runs");
    let alone_sprt = alone.sprt.expect("reported");
    assert_eq!(
        (alone_sprt.verdict, alone_sprt.pairs_at_verdict),
        (sprt.verdict, sprt.pairs_at_verdict)
    );
}

#[test]
fn two_equal_players_do_not_accept_h1() {
    // The same player with two seeds: any difference is luck.
    let c = sprt_match(
        "random:seed=1,random:seed=2",
        BoardSize::Six,
        300,
        "elo0=0,elo1=60",
    );
    let report = run_match(&c, 2, &NoModels, None, &|_| {}).expect("runs");
    let sprt = report.sprt.expect("reported");
    assert_ne!(sprt.verdict, Some(Hypothesis::H1), "{sprt:?}");
    if sprt.verdict.is_none() {
        assert_eq!(
            report.games.len(),
            300,
            "without a verdict every game is played"
        );
    }
}

#[test]
fn a_sequential_test_needs_exactly_two_players() {
    let c = sprt_match("random,greedy,novice", BoardSize::Six, 10, "elo0=0,elo1=10");
    assert!(matches!(
        c.check(&NoModels),
        Err(ArenaError::SprtPlayers(3))
    ));
}

#[test]
fn a_killed_match_resumes_from_its_journal_without_replaying_or_losing_a_game() {
    let dir = std::env::temp_dir().join(format!("arena-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let c = config("random,greedy,novice", 6, BoardSize::Six);
    let the_match = serde_json::json!({"test": "resume"});
    let whole = run_arena(&c, 2, &NoModels, &|_, _| {}).expect("runs");

    // A match killed after five games: its journal holds those five, the last cut short.
    let (journal, done) = Journal::open(&dir, &the_match, false).expect("new journal");
    assert!(done.is_empty());
    for (job, game) in whole.games.iter().take(5).enumerate() {
        journal.record(job, game).expect("written");
    }
    drop(journal);
    let path = dir.join(Journal::FILE);
    let text = std::fs::read_to_string(&path).expect("journal");
    std::fs::write(&path, &text[..text.len() - 20]).expect("cut");

    let (journal, done) = Journal::open(&dir, &the_match, true).expect("resumed");
    assert_eq!(done.len(), 4, "the cut game is played again");
    let played = std::sync::atomic::AtomicUsize::new(0);
    let resumed = run_match(&c, 2, &NoModels, Some((&journal, done)), &|_| {
        played.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    })
    .expect("resumes");
    assert_eq!(played.into_inner(), whole.games.len() - 4);
    assert_eq!(outcomes(&resumed), outcomes(&whole));
    drop(journal);
    let (_, all) = Journal::open(&dir, &the_match, true).expect("complete journal");
    let mut jobs: Vec<usize> = all.iter().map(|(job, _)| *job).collect();
    jobs.sort_unstable();
    assert_eq!(jobs, (0..whole.games.len()).collect::<Vec<_>>());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pairs_are_counted_from_each_openings_two_games() {
    let c = config("alphabeta:depth=2,random", 8, BoardSize::Six);
    let report = run_arena(&c, 2, &NoModels, &|_, _| {}).expect("runs");
    assert_eq!(report.pairs.len(), 1);
    let pairs = &report.pairs[0];
    assert_eq!(pairs.pentanomial.pairs(), 4);
    // The pairs' mean score is the pairing's score.
    let tally = report.pairing(0, 1).expect("met").total;
    assert!((pairs.pentanomial.score() - tally.score).abs() < 1e-12);
    let elo = pairs.elo.expect("pairs were played");
    assert!(elo.low <= elo.elo && elo.elo <= elo.high);
}
