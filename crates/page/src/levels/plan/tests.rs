use super::*;
use crate::levels::Difficulty;
use engine::PlayerKind;

fn sims(n: u64) -> WireBudget {
    WireBudget {
        simulations: Some(n),
        millis: None,
    }
}

fn millis(ms: u64) -> WireBudget {
    WireBudget {
        simulations: None,
        millis: Some(ms),
    }
}

fn network() -> PlayerSpec {
    "mcts:model=az-8x8".parse().expect("a spec")
}

/// The plan for a named level played by the network, as the page asks for it.
fn level_plan(level: &str, workers: usize) -> SearchPlan {
    let difficulty = Difficulty::Level(level.into());
    let player = difficulty.tune(network());
    SearchPlan::new(&player, difficulty.budget(), BoardSize::Eight, workers, 7)
}

#[test]
fn the_default_level_runs_on_one_worker_with_its_whole_budget() {
    let plan = level_plan("casual", 4);
    assert_eq!(plan.engine, EngineKind::Network);
    assert_eq!(plan.jobs.len(), 1);
    let job = &plan.jobs[0];
    assert_eq!(job.budget, sims(100));
    assert_eq!(
        job.spec.to_string(),
        "mcts:model=az-8x8,gumbel=16,book=8x8,book_random=1"
    );
    assert_eq!(job.spec.noise, None);
    assert_eq!(level_plan("beginner", 4).jobs.len(), 1);
}

#[test]
fn a_simulation_level_gives_each_worker_its_share_and_noise_on_all_but_the_first() {
    let plan = level_plan("club", 4);
    let budgets: Vec<_> = plan.jobs.iter().map(|j| j.budget).collect();
    assert_eq!(budgets, vec![sims(100); 4]);
    let tuned = Difficulty::Level("club".into()).tune(network());
    assert_eq!(plan.jobs[0].spec, tuned);
    for job in &plan.jobs[1..] {
        assert_eq!(
            job.spec.noise,
            Some(f64::from(self_play_noise(BoardSize::Eight)))
        );
        assert_eq!(
            PlayerSpec {
                noise: None,
                ..job.spec.clone()
            },
            tuned
        );
    }
    // 400 simulations over three workers: the total stays within the budget.
    let three: Vec<_> = level_plan("club", 3)
        .jobs
        .iter()
        .map(|j| j.budget.simulations.unwrap_or(0))
        .collect();
    assert_eq!(three, vec![134, 133, 133]);
}

#[test]
fn a_time_level_runs_every_worker_for_the_whole_time() {
    let plan = level_plan("strong", 3);
    assert_eq!(plan.jobs.len(), 3);
    assert!(plan.jobs.iter().all(|j| j.budget == millis(1000)));
    assert_eq!(plan.millis, Some(1000));
    // The smaller boards' noise is their self-play noise.
    let six = SearchPlan::new(&network(), millis(1000), BoardSize::Six, 2, 7);
    assert_eq!(six.jobs[1].spec.noise, Some(0.5));
}

#[test]
fn the_workers_of_a_time_level_beside_the_first_split_the_root_proof() {
    for level in ["strong", "strongest"] {
        let plan = level_plan(level, 4);
        let parts: Vec<_> = plan
            .jobs
            .iter()
            .map(|j| (j.spec.prove_part, j.spec.prove_parts))
            .collect();
        // The first proves the whole root; the other three share its moves.
        assert_eq!(
            parts,
            vec![
                (None, None),
                (Some(0), Some(3)),
                (Some(1), Some(3)),
                (Some(2), Some(3))
            ]
        );
        // Each worker's spec says so in its text, which the worker parses back.
        let text = plan.jobs[2].spec.to_string();
        assert!(text.contains("prove_parts=3,prove_part=1"), "{text}");
        assert_eq!(text.parse::<PlayerSpec>().as_ref(), Ok(&plan.jobs[2].spec));
    }
    // With one or two workers each proves the whole root (a share of every move would
    // only repeat the first's proof without its margin); simulation levels prove nothing
    // beyond the tried solve, so they have nothing to split.
    for workers in [1, 2] {
        let plan = level_plan("strongest", workers);
        assert!(plan.jobs.iter().all(|j| j.spec.prove_parts.is_none()));
    }
    let club = level_plan("club", 4);
    assert!(club.jobs.iter().all(|j| j.spec.prove_parts.is_none()));
}

#[test]
fn every_job_has_a_seed_of_its_own_from_the_searchs_seed() {
    let plan = level_plan("strong", 4);
    let seeds: Vec<u64> = plan.jobs.iter().map(|j| j.seed).collect();
    let expected: Vec<u64> = (0..4).map(|i| splitmix64(7 ^ i)).collect();
    assert_eq!(seeds, expected);
    let again = SearchPlan::new(&network(), millis(1000), BoardSize::Eight, 4, 8);
    assert_ne!(again.jobs[0].seed, plan.jobs[0].seed);
}

#[test]
fn the_network_without_search_runs_on_one_worker() {
    let plan = level_plan("instinct-policy", 4);
    assert_eq!(plan.engine, EngineKind::Instinct);
    assert_eq!(plan.jobs.len(), 1);
    assert_eq!(plan.jobs[0].spec.to_string(), "policy:model=az-8x8,sym=8");
}

#[test]
fn the_alpha_beta_fallback_runs_on_one_worker_within_its_cap() {
    let alphabeta = PlayerSpec::new(PlayerKind::AlphaBeta);
    for (budget, ms) in [
        (sims(400), 800),
        (millis(1000), 1000),
        (millis(60_000), 5000),
    ] {
        let plan = SearchPlan::new(&alphabeta, budget, BoardSize::Eight, 4, 7);
        assert_eq!(plan.engine, EngineKind::AlphaBeta);
        assert_eq!(plan.jobs.len(), 1);
        assert_eq!(plan.jobs[0].budget, millis(ms));
        assert_eq!(plan.jobs[0].spec, alphabeta);
    }
}

#[test]
fn a_restarted_worker_gets_its_job_with_what_is_left_of_the_time() {
    let plan = level_plan("strong", 2);
    let resumed = plan.resumed(1, 300.0).expect("worker 1 has a job");
    assert_eq!(resumed.budget, millis(700));
    assert_eq!(
        (&resumed.spec, resumed.seed),
        (&plan.jobs[1].spec, plan.jobs[1].seed)
    );
    assert_eq!(plan.resumed(0, 5000.0).map(|j| j.budget), Some(millis(50)));
    assert_eq!(plan.resumed(2, 0.0), None);
    // A simulation budget has no clock: the job starts over as planned.
    let club = level_plan("club", 4);
    assert_eq!(club.resumed(3, 900.0), Some(club.jobs[3].clone()));
}

#[test]
fn analysis_searches_as_a_hint_at_the_chosen_level_does_without_the_book() {
    for level in ["casual", "strongest"] {
        let difficulty = Difficulty::Level(level.to_owned());
        let hint = PlayerSpec {
            book: Some("8x8".to_owned()),
            book_random: Some(1.0),
            ..difficulty.tune(network())
        };
        let (budget, spec) = analysis(&hint, difficulty.budget());
        assert_eq!(budget, difficulty.budget(), "{level}");
        assert_eq!((&spec.book, spec.book_random), (&None, None));
        // The same agent as the hint's otherwise: its Gumbel root stays.
        assert_eq!(spec.gumbel, hint.gumbel, "{level}");
        assert_eq!(
            SearchPlan::new(&spec, budget, BoardSize::Eight, 4, 7)
                .jobs
                .len(),
            SearchPlan::new(&hint, budget, BoardSize::Eight, 4, 7)
                .jobs
                .len()
        );
    }
    let alphabeta = PlayerSpec::new(PlayerKind::AlphaBeta);
    assert_eq!(
        analysis(&alphabeta, millis(1000)),
        (millis(1000), alphabeta)
    );
}

#[test]
fn a_simulation_budget_is_split_without_exceeding_it() {
    for total in [1, 20, 99, 100, 250, 401, 1600, 10_001] {
        for workers in 1..=4 {
            let parts = split(sims(total), workers);
            let sum: u64 = parts.iter().map(|b| b.simulations.unwrap_or(0)).sum();
            assert_eq!(sum, total, "{total} over {workers}");
            assert!(!parts.is_empty() && parts.len() <= workers);
            assert!(parts.iter().all(|b| b.simulations.unwrap_or(0) > 0));
        }
    }
    // Small budgets stay on one tree.
    assert_eq!(split(sims(20), 4).len(), 1);
    assert_eq!(split(sims(400), 4).len(), 4);
}

#[test]
fn a_time_budget_runs_on_every_worker_for_the_same_time() {
    assert_eq!(split(millis(1000), 3), vec![millis(1000); 3]);
}

#[test]
fn the_alpha_beta_fallback_never_thinks_longer_than_its_cap() {
    assert_eq!(alphabeta_millis(millis(1000)), 1000);
    assert_eq!(alphabeta_millis(millis(60_000)), ALPHABETA_MAX_MILLIS);
    assert_eq!(alphabeta_millis(sims(20)), 50);
    assert_eq!(alphabeta_millis(sims(u64::MAX)), ALPHABETA_MAX_MILLIS);
}

#[test]
fn worker_count_leaves_a_core_for_the_page_and_caps_at_four() {
    assert_eq!(worker_count(1.0), 1);
    assert_eq!(worker_count(2.0), 1);
    assert_eq!(worker_count(4.0), 3);
    assert_eq!(worker_count(16.0), 4);
    assert_eq!(worker_count(f64::NAN), 1);
}

#[test]
fn a_hint_and_analysis_ask_for_the_best_move_and_a_game_s_move_does_not() {
    let player = Difficulty::Level("strong".to_owned()).tune(network());
    assert_eq!(player.best, None);
    let asked = question(&player);
    assert_eq!(asked.best, Some(1));
    // Nothing else changes but the book's draw (a hint names the book's best move).
    assert_eq!(
        PlayerSpec {
            best: None,
            book_random: player.book_random,
            ..asked
        },
        player
    );
    let alphabeta = PlayerSpec::new(PlayerKind::AlphaBeta);
    assert_eq!(question(&alphabeta), alphabeta);
}

#[test]
fn a_hint_from_the_book_names_the_books_best_move_not_a_drawn_one() {
    let player = PlayerSpec {
        book: Some(protocol::PAGE_BOOK.to_owned()),
        book_random: Some(crate::levels::PAGE_BOOK_RANDOM),
        ..Difficulty::Level("casual".to_owned()).tune(network())
    };
    let asked = question(&player);
    assert_eq!(asked.book_random, None);
    assert_eq!(asked.book, player.book);
    let classic = PlayerSpec {
        book: Some(protocol::PAGE_BOOK.to_owned()),
        book_random: Some(crate::levels::PAGE_BOOK_RANDOM),
        ..PlayerSpec::new(PlayerKind::AlphaBeta)
    };
    assert_eq!(question(&classic).book_random, None);
}
