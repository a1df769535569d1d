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

#[test]
fn balanced_openings_are_made_by_a_search_and_played_by_the_arena() {
    let out = out_dir("xot");
    std::fs::create_dir_all(&out).expect("folder");
    let list = out.join("openings.txt");
    let made = Command::cargo_bin("othello")
        .expect("binary")
        .args([
            "openings", "--board", "6", "--player", "mcts", "--sims", "40",
        ])
        .args(["--count", "3", "--candidates", "60", "--plies", "6"])
        .args(["--max-q", "0.3", "--out"])
        .arg(&list)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&made.get_output().stdout).into_owned();
    assert!(stdout.contains("kept 3 of"), "{stdout}");
    let text = std::fs::read_to_string(&list).expect("the list");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3, "{text}");
    for line in &lines {
        // The judge's value is within the bound it was given.
        let q: f64 = line
            .split("# q ")
            .nth(1)
            .and_then(|q| q.split_whitespace().next()?.parse().ok())
            .expect("a value");
        assert!(q.abs() <= 0.3, "{line}");
    }
    let assert = Command::cargo_bin("othello")
        .expect("binary")
        .args(["arena", "--board", "6", "--players", "random,greedy"])
        .args(["--games", "6", "--threads", "1", "--openings"])
        .arg(&list)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let _ = assert;
    let json = std::fs::read_to_string(out.join("arena.json")).expect("json");
    let report: serde_json::Value = serde_json::from_str(&json).expect("valid json");
    let mut played: Vec<String> = report["openings"]
        .as_array()
        .expect("openings")
        .iter()
        .filter_map(|o| o.as_str().map(str::to_owned))
        .collect();
    played.sort();
    let mut listed: Vec<String> = lines
        .iter()
        .map(|l| l.split('#').next().unwrap_or_default().trim().to_owned())
        .collect();
    listed.sort();
    assert_eq!(played, listed);
    // More games than the list has openings for is refused before any game.
    let refused = Command::cargo_bin("othello")
        .expect("binary")
        .args(["arena", "--board", "6", "--players", "random,greedy"])
        .args(["--games", "8", "--openings"])
        .arg(&list)
        .arg("--out")
        .arg(&out)
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(stderr.contains("play at most 6"), "{stderr}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_shipped_xot_openings_are_legal_balanced_and_play() {
    let out = out_dir("shipped-xot");
    Command::cargo_bin("othello")
        .expect("binary")
        .args(["arena", "--players", "random,greedy", "--games", "4"])
        .args(["--threads", "1", "--openings", "xot", "--out"])
        .arg(&out)
        .assert()
        .success();
    let path = format!("{}/../../openings/xot-8x8.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("the shipped list");
    let mut count = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (transcript, comment) = line.split_once('#').expect("a value comment");
        let moves = transcript.trim().len() / 2;
        assert_eq!(moves, 8, "{line}");
        let q: f64 = comment
            .trim()
            .strip_prefix("q ")
            .and_then(|q| q.split_whitespace().next()?.parse().ok())
            .expect("q");
        assert!(q.abs() <= 0.1, "{line}");
        count += 1;
    }
    assert!(count >= 100, "{count} openings");
    let _ = std::fs::remove_dir_all(&out);
}
