//! The `othello arena` command end to end: files written, errors on one line with exit 2.

use assert_cmd::Command;
use std::path::PathBuf;

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-arena-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn an_arena_writes_json_csv_svg_and_ggf_and_prints_the_table() {
    let out = out_dir("files");
    let assert = Command::cargo_bin("othello")
        .expect("binary")
        .args([
            "arena",
            "--board",
            "4",
            "--players",
            "random,greedy,mcts:sims=20",
        ])
        .args(["--games", "4", "--threads", "2", "--seed", "3", "--out"])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(stdout.contains("mcts:sims=20"), "{stdout}");
    assert!(stdout.contains("12 games on 2 threads"), "{stdout}");
    let json = std::fs::read_to_string(out.join("arena.json")).expect("json");
    let report: serde_json::Value = serde_json::from_str(&json).expect("valid json");
    assert_eq!(report["games"].as_array().map(Vec::len), Some(12));
    assert_eq!(report["anchor"], "random");
    let csv = std::fs::read_to_string(out.join("arena.csv")).expect("csv");
    assert_eq!(csv.lines().count(), 1 + 6 * 3);
    let svg = std::fs::read_to_string(out.join("arena.svg")).expect("svg");
    assert!(svg.starts_with("<svg"));
    // The games as GGF, which `othello show` reads back.
    let ggf = out.join("arena.ggf");
    let records = std::fs::read_to_string(&ggf).expect("ggf");
    let games = othello::ggf::read_games(&records).expect("valid GGF");
    assert_eq!(games.len(), 12);
    assert!(games
        .iter()
        .all(|g| g.result.is_some() && g.black.is_some()));
    let shown = Command::cargo_bin("othello")
        .expect("binary")
        .arg("show")
        .arg(&ggf)
        .assert()
        .success();
    let text = String::from_utf8_lossy(&shown.get_output().stdout).into_owned();
    assert!(text.contains(&games[0].game().transcript(true)), "{text}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_bad_player_list_fails_with_one_line_and_exit_code_2() {
    for (players, message) in [
        ("random,stockfish", "unknown player 'stockfish'; known players: random, greedy, novice, heuristic, alphabeta, uct, mcts, policy, value"),
        ("random,policy", "player 'policy' is a network without search: give it one with model=PATH"),
        ("random,greedy:depth=2", "player 'greedy' has no option 'depth'; it takes: seed"),
    ] {
        let out = out_dir("bad");
        let assert = Command::cargo_bin("othello")
            .expect("binary")
            .args(["arena", "--board", "6", "--players", players, "--out"])
            .arg(&out)
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert_eq!(stderr, format!("error: {message}\n"));
        assert!(!out.exists(), "nothing written for a bad list");
    }
}

#[test]
fn a_network_agent_plays_in_the_arena_and_a_model_for_another_board_is_refused() {
    let model = format!(
        "{}/../../models/tiny-random-6x6.onnx",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = out_dir("network");
    let players = format!("random,mcts:model={model},sims=16");
    let assert = Command::cargo_bin("othello")
        .expect("binary")
        .args(["arena", "--board", "6", "--players", &players])
        .args(["--games", "2", "--seed", "1", "--out"])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(stdout.contains("sims=16"), "{stdout}");
    let json = std::fs::read_to_string(out.join("arena.json")).expect("json");
    let report: serde_json::Value = serde_json::from_str(&json).expect("valid json");
    assert_eq!(report["games"].as_array().map(Vec::len), Some(2));
    let _ = std::fs::remove_dir_all(&out);

    let failure = Command::cargo_bin("othello")
        .expect("binary")
        .args(["arena", "--board", "8", "--players", &players])
        .args(["--games", "2", "--out"])
        .arg(out_dir("network-wrong-board"))
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&failure.get_output().stderr).into_owned();
    assert!(stderr.contains("the model plays 6x6"), "{stderr}");
}

#[test]
fn the_network_without_search_plays_in_the_arena() {
    let model = format!(
        "{}/../../models/tiny-random-6x6.onnx",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = out_dir("instinct");
    let players = format!("greedy,policy:model={model},value:model={model}");
    let assert = Command::cargo_bin("othello")
        .expect("binary")
        .args(["arena", "--board", "6", "--players", &players])
        .args(["--games", "2", "--threads", "2", "--seed", "1", "--out"])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(stdout.contains("6 games on 2 threads"), "{stdout}");
    assert!(stdout.contains("value:model="), "{stdout}");
    let _ = std::fs::remove_dir_all(&out);
}
