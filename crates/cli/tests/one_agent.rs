//! One agent everywhere: for the same spec, position, budget and seed, the page's worker,
//! `othello analyse --player` and the arena's player choose the same move, because all
//! three build their agent with the engine's builder and think the same way (the worker
//! in slices). All three run the network on tract here, so their numbers agree exactly.

use assert_cmd::Command;
use engine::network::{read_model_files, Runtime};
use engine::tract::Tract;
use engine::{Budget, PlayerSpec, Solver};
use othello::{BoardSize, Game, Move, Position, Variant};
use protocol::{Output, SearchRequest, WireBudget};
use std::path::PathBuf;
use std::time::Duration;
use tools::models::{ModelFiles, RuntimeChoice};
use worker::search::Searcher;

fn model() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models/tiny-random-8x8.onnx")
}

fn worker_move(pos: &Position, spec: &PlayerSpec, sims: u64, seed: u64) -> Move {
    let (bytes, card) = read_model_files(&model()).expect("model files");
    let mut searcher = Searcher::new();
    let name = spec.model.clone().expect("a model");
    let network = Tract.load(&bytes, card).expect("loads");
    searcher.add_network(name, network).expect("installs");
    let request = SearchRequest {
        id: 1,
        board: pos.to_board_text(),
        variant: pos.variant(),
        player: spec.clone(),
        budget: WireBudget {
            simulations: Some(sims),
            millis: None,
        },
        seed,
        every_move: false,
    };
    // As the worker's message loop does: start, then slices until the agent decides.
    searcher.start(request).expect("the worker searches");
    loop {
        match searcher.step(Duration::from_millis(2)) {
            Some(Output::Progress { .. }) => {}
            Some(Output::Done { report, .. }) => return report.best.expect("a move"),
            other => panic!("the worker's search ended with {other:?}"),
        }
    }
}

fn analyse_move(pos: &Position, spec: &PlayerSpec, sims: u64, seed: u64) -> Move {
    let out = Command::cargo_bin("othello")
        .expect("binary")
        .args(["--runtime", "tract", "analyse", &pos.to_board_text()])
        .args(["--player", &spec.to_string(), "--sims", &sims.to_string()])
        .args(["--seed", &seed.to_string()])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = text
        .lines()
        .find_map(|l| l.split("best move ").nth(1))
        .unwrap_or_else(|| panic!("no best move in {text}"));
    let mv = line.split([',', ' ']).next().unwrap_or_default();
    Move::parse(mv, pos.size()).expect("a move")
}

fn arena_move(pos: &Position, spec: &PlayerSpec, sims: u64, seed: u64) -> Move {
    let models = ModelFiles::new(RuntimeChoice::Tract);
    let (mut agent, _) = spec.build(seed, &models).expect("builds");
    agent.select_move(pos, &Budget::simulations(sims))
}

#[test]
fn the_worker_analyse_and_the_arena_choose_the_same_move() {
    let spec: PlayerSpec = format!("mcts:model={},c=1.8", model().display())
        .parse()
        .expect("a spec");
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let mut checked = 0;
    for (line, sims, seed) in [
        ("f5d6c3d3c4f4f6f3e6e7", 200, 3),
        ("f5f6e6f4e3c5c4e7", 120, 11),
        ("", 64, 5),
    ] {
        let pos = *Game::from_transcript(line, start)
            .expect("legal")
            .position();
        let worker = worker_move(&pos, &spec, sims, seed);
        assert_eq!(
            analyse_move(&pos, &spec, sims, seed),
            worker,
            "after {line}"
        );
        assert_eq!(arena_move(&pos, &spec, sims, seed), worker, "after {line}");
        checked += 1;
    }
    assert_eq!(checked, 3);
}

#[test]
fn near_the_end_all_three_play_the_solvers_largest_margin() {
    let spec: PlayerSpec = format!("mcts:model={}", model().display())
        .parse()
        .expect("a spec");
    let mut rng = engine::Rng::new(12);
    for _ in 0..2 {
        let mut pos = Position::start(BoardSize::Eight, Variant::Standard);
        while pos.empty_count() > 14 || pos.legal_move_list().len() < 2 {
            let moves = pos.legal_move_list();
            match rng.choose(&moves) {
                Some(mv) => pos = pos.play(*mv).expect("legal"),
                None => break,
            }
            if pos.is_game_over() {
                pos = Position::start(BoardSize::Eight, Variant::Standard);
            }
        }
        let best = Solver::new().solve(&pos).margin;
        for mv in [
            worker_move(&pos, &spec, 50, 1),
            analyse_move(&pos, &spec, 50, 1),
            arena_move(&pos, &spec, 50, 1),
        ] {
            let after = pos.play(mv).expect("legal");
            assert_eq!(
                -Solver::new().solve(&after).margin,
                best,
                "{mv} in {}",
                pos.to_board_text()
            );
        }
    }
}
