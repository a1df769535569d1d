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
    assert!(stdout.contains("12 games, 2 at once"), "{stdout}");
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
    assert!(stdout.contains("6 games, 2 at once"), "{stdout}");
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
    let text = othello::xot_list(othello::BoardSize::Eight).expect("the shipped list");
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

/// A test engine of `crates/cli/tests/engines/`.
fn test_engine(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines")
        .join(name);
    path.display().to_string()
}

/// `othello arena` with `args`, its stdout and the report it wrote.
fn arena_run(out: &std::path::Path, args: &[&str]) -> (String, serde_json::Value) {
    let assert = Command::cargo_bin("othello")
        .expect("binary")
        .arg("arena")
        .args(args)
        .arg("--out")
        .arg(out)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    let json = std::fs::read_to_string(out.join("arena.json")).expect("json");
    (stdout, serde_json::from_str(&json).expect("valid json"))
}

#[test]
fn our_nboard_engine_started_as_another_program_plays_a_match() {
    let out = out_dir("nboard");
    let othello = assert_cmd::cargo::cargo_bin("othello");
    let engine = format!(
        "self=nboard {} nboard --player alphabeta:depth=3",
        othello.display()
    );
    let (stdout, report) = arena_run(
        &out,
        &[
            "--engine",
            &engine,
            "--players",
            "self,greedy",
            "--games",
            "4",
            "--seed",
            "2",
            "--concurrency",
            "2",
        ],
    );
    let games = report["games"].as_array().expect("games");
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|g| g.get("forfeit").is_none()), "{stdout}");
    // Alpha-beta at depth 3 beats greedy from these openings: the program really played.
    let self_points: f64 = games
        .iter()
        .map(|g| {
            let margin = g["black_margin"].as_i64().unwrap_or(0) as f64;
            let black_is_self = g["black"] == 0;
            let black_points = if margin > 0.0 {
                1.0
            } else if margin == 0.0 {
                0.5
            } else {
                0.0
            };
            if black_is_self {
                black_points
            } else {
                1.0 - black_points
            }
        })
        .sum();
    assert!(self_points >= 3.0, "{stdout}");
    assert_eq!(report["engines"][0].as_str(), Some(engine.as_str()));
    assert!(stdout.contains("Game pairs"), "{stdout}");
    let ggf = std::fs::read_to_string(out.join("arena.ggf")).expect("ggf");
    let records = othello::ggf::read_games(&ggf).expect("valid GGF");
    assert_eq!(records[0].black.as_deref(), Some("self"));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_program_that_crashes_hangs_or_plays_illegally_loses_its_games_and_the_match_goes_on() {
    let script = test_engine("faulty-nboard.sh");
    for (mode, reason, on_time) in [
        (
            "crash",
            "exited (exit status: 3) before it answered: faulty engine: crashing as asked",
            false,
        ),
        ("hang", "gave no move within 0.50 s", true),
        ("illegal", "played the illegal move a1", false),
        ("garbage", "answered '??!', which is not a move", false),
    ] {
        let out = out_dir(&format!("faulty-{mode}"));
        let engine = format!("faulty=nboard bash {script} {mode}");
        let (stdout, report) = arena_run(
            &out,
            &[
                "--engine",
                &engine,
                "--players",
                "greedy,faulty",
                "--games",
                "4",
                "--move-timeout",
                "0.5",
                "--concurrency",
                "2",
            ],
        );
        let games = report["games"].as_array().expect("games");
        assert_eq!(games.len(), 4, "{mode}: every game was played\n{stdout}");
        for g in games {
            let forfeit = &g["forfeit"];
            let faulty_side = if g["black"] == 1 { "black" } else { "white" };
            assert_eq!(forfeit["side"], faulty_side, "{mode}: {g}");
            let text = forfeit["reason"].as_str().unwrap_or_default();
            assert!(
                text.starts_with("faulty ") && text.contains(reason),
                "{mode}: {text}"
            );
            assert_eq!(forfeit["on_time"], on_time, "{mode}");
            // The faulty side lost by the whole board.
            let margin = g["black_margin"].as_i64().unwrap_or(0);
            assert_eq!(margin, if faulty_side == "black" { -64 } else { 64 });
        }
        assert!(stdout.contains("Forfeits (4)"), "{stdout}");
        // The records say the game was lost on time (`:t`) or by a fault (`:r`).
        let ggf = std::fs::read_to_string(out.join("arena.ggf")).expect("ggf");
        let ending = if on_time { ":t]" } else { ":r]" };
        assert_eq!(ggf.matches(ending).count(), 4, "{ggf}");
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn a_program_run_once_a_move_reads_the_position_on_stdin() {
    let out = out_dir("per-move");
    let engine = format!("first=move python3 {}", test_engine("first-legal-move.py"));
    let (stdout, report) = arena_run(
        &out,
        &[
            "--engine",
            &engine,
            "--players",
            "first,random",
            "--games",
            "2",
            "--seed",
            "5",
        ],
    );
    let games = report["games"].as_array().expect("games");
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g.get("forfeit").is_none()), "{stdout}");
    // Every move of the program's side was the first legal move in square order.
    let start = othello::Position::start(othello::BoardSize::Eight, othello::Variant::Standard);
    for g in games {
        let transcript = g["transcript"].as_str().unwrap_or_default();
        let game = othello::Game::from_transcript(transcript, start).expect("legal");
        let first_is_black = g["black"] == 0;
        let opening_plies = report["openings"][g["opening"].as_u64().unwrap_or(0) as usize]
            .as_str()
            .map_or(0, |o| o.len() / 2);
        for (i, mv) in game.moves().iter().enumerate().skip(opening_plies) {
            let position = game.positions()[i];
            let mover_is_black = position.side_to_move() == othello::Color::Black;
            if mover_is_black == first_is_black && *mv != othello::Move::Pass {
                let mut legal = position.legal_move_list();
                legal.sort_by_key(|m| m.square().map(|s| (s.row(), s.column())));
                assert_eq!(Some(mv), legal.first(), "move {i} of {transcript}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_killed_match_is_refused_without_resume_and_goes_on_with_it() {
    let out = out_dir("resume");
    let args = [
        "--board",
        "6",
        "--players",
        "random,greedy",
        "--games",
        "6",
        "--seed",
        "9",
    ];
    let (_, whole) = arena_run(&out, &args);
    // A finished match's folder takes a new match: its games are in its reports.
    arena_run(&out, &args);
    // Killed after two games: the journal holds the header and those two, no end.
    let journal = out.join("games.jsonl");
    let text = std::fs::read_to_string(&journal).expect("journal");
    let kept: Vec<&str> = text.lines().take(3).collect();
    std::fs::write(&journal, kept.join("\n") + "\n").expect("cut");
    // A new run into the same folder would lose them: refused, with the way out.
    let refused = Command::cargo_bin("othello")
        .expect("binary")
        .arg("arena")
        .args(args)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(stderr.contains("add --resume"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    let mut resumed_args = args.to_vec();
    resumed_args.push("--resume");
    let (stdout, resumed) = arena_run(&out, &resumed_args);
    assert!(stdout.contains("6 games"), "{stdout}");
    let outcomes = |r: &serde_json::Value| -> Vec<(String, i64)> {
        r["games"]
            .as_array()
            .map(|games| {
                games
                    .iter()
                    .map(|g| {
                        (
                            g["transcript"].to_string(),
                            g["black_margin"].as_i64().unwrap_or(0),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(outcomes(&resumed), outcomes(&whole));
    // Another match cannot resume this one.
    let other = Command::cargo_bin("othello")
        .expect("binary")
        .args([
            "arena",
            "--board",
            "6",
            "--players",
            "random,novice",
            "--games",
            "6",
            "--resume",
            "--out",
        ])
        .arg(&out)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&other.get_output().stderr).into_owned();
    assert!(stderr.contains("holds another match"), "{stderr}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_sequential_match_stops_at_its_verdict_and_says_so() {
    let out = out_dir("sprt");
    let (stdout, report) = arena_run(
        &out,
        &[
            "--players",
            "alphabeta:depth=3,random",
            "--games",
            "200",
            "--sprt",
            "elo0=0,elo1=100",
            "--seed",
            "4",
        ],
    );
    assert!(stdout.contains("H1 accepted after"), "{stdout}");
    assert!(
        report["games"].as_array().map_or(0, Vec::len) < 60,
        "{stdout}"
    );
    assert_eq!(report["sprt"]["verdict"], "H1");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_side_that_overruns_its_game_clock_loses_on_time_and_a_clocked_agent_does_not() {
    let out = out_dir("clock");
    // Rollout UCT with a budget of two million simulations a move cannot fit 4.5 s a game
    // (the clock and a margin): a fast machine spends about 1.7 s on one such move, so it
    // overruns by its third move, a slower one sooner. The MCTS agent with no budget of
    // its own gets the clock as time_game= and shares it out; what a slower machine can
    // make it overrun by is the part of its thinking that no clock stops (the exact solve
    // at 18 empties, a tenth of a second natively), which the 4 s margin covers many
    // times over.
    let (stdout, report) = arena_run(
        &out,
        &[
            "--board",
            "6",
            "--players",
            "uct:sims=2000000,mcts",
            "--games",
            "2",
            "--time-control",
            "0.5",
            "--forfeit-margin",
            "4000",
        ],
    );
    assert_eq!(report["players"][1], "mcts:time_game=0.5", "{stdout}");
    assert_eq!(report["clock_seconds"], 0.5);
    for g in report["games"].as_array().expect("games") {
        let forfeit = &g["forfeit"];
        let uct_side = if g["black"] == 0 { "black" } else { "white" };
        assert_eq!(forfeit["side"], uct_side, "{g}");
        assert_eq!(forfeit["on_time"], true);
        let reason = forfeit["reason"].as_str().unwrap_or_default();
        assert!(reason.contains("overran its clock"), "{reason}");
        assert!(reason.contains("of 4.50 s"), "{reason}");
    }
    let _ = std::fs::remove_dir_all(&out);
}
