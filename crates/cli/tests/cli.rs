mod common;

use common::{othello, stdout_of};

/// Runs a command that must fail: exit code 2, one clear line on stderr, nothing that
/// looks like a panic.
fn error_of(args: &[&str]) -> String {
    let out = othello().args(args).output().expect("runs");
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8(out.stderr).expect("utf-8");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

#[test]
fn perft_prints_nodes_seconds_and_rate() {
    let out = stdout_of(&["perft", "6"]);
    assert!(out.starts_with("perft 6 (8x8): 8200 nodes in "), "{out}");
    assert!(out.contains(" M nodes/s"), "{out}");
}

#[test]
fn perft_counts_the_same_with_and_without_its_table() {
    let hashed = stdout_of(&["perft", "7"]);
    let plain = stdout_of(&["perft", "7", "--plain"]);
    for out in [&hashed, &plain] {
        assert!(out.starts_with("perft 7 (8x8): 55092 nodes in "), "{out}");
    }
}

#[test]
fn perft_on_6x6_counts_the_6x6_tree() {
    // 6x6 opens with 4 moves, then 12 replies, as 8x8 does.
    assert!(stdout_of(&["perft", "2", "--board", "6"]).contains("(6x6): 12 nodes"));
}

#[test]
fn perft_from_a_transcript_counts_from_there() {
    // After f5 White has 3 replies.
    assert!(stdout_of(&["perft", "1", "--from", "f5"]).contains(": 3 nodes"));
}

#[test]
fn show_prints_the_board_legal_moves_and_board_text() {
    let out = stdout_of(&["show", "f5d6c3"]);
    assert!(out.contains("moves: f5d6c3"), "{out}");
    assert!(out.contains("White to move"), "{out}");
    assert!(out.contains("legal moves: d3 f3 f4 g5"), "{out}");
    assert!(
        out.contains(
            "board text: ------------------X--------XX------OXX-----O-------------------- O"
        ),
        "{out}"
    );
}

#[test]
fn show_names_the_opening_of_a_transcript() {
    // The Tiger as written from c4: matched by position, so any first move will do.
    assert!(stdout_of(&["show", "c4e3f6e6f5"]).contains("opening: Tiger\n"));
    // One move is no named line yet.
    assert!(!stdout_of(&["show", "f5"]).contains("opening:"));
}

#[test]
fn show_reads_board_text_back() {
    let text = "------------------X--------XX------OXX-----O-------------------- O";
    let out = stdout_of(&["show", text]);
    assert!(out.contains(&format!("board text: {text}")), "{out}");
    assert!(out.contains("legal moves: d3 f3 f4 g5"), "{out}");
}

#[test]
fn show_announces_a_finished_game() {
    let line = "c2b4c5d2e4e3d1c1b1d5d6f4b3b2f3f2e2b6a4c6a6a2b5a5e6e5a3a1f5f6e1f1";
    let out = stdout_of(&["show", line, "--board", "6"]);
    assert!(
        out.contains("game over: White wins 20-16 (margin 4)"),
        "{out}"
    );
}

#[test]
fn a_bad_transcript_is_one_clear_error_line() {
    let err = error_of(&["show", "f5d6z9"]);
    assert_eq!(err, "error: \"f5d6z9\": bad square 'z9' at move 3\n");
}

#[test]
fn an_illegal_move_is_reported_with_its_number() {
    let err = error_of(&["show", "f5f5"]);
    assert!(
        err.contains("illegal move f5: the square is occupied at move 2"),
        "{err}"
    );
}

#[test]
fn bad_board_text_says_which_square() {
    let mut board = "-".repeat(64);
    board.replace_range(0..1, "Q");
    let err = error_of(&["show", &format!("{board} X")]);
    assert_eq!(
        err,
        "error: cannot read board text: bad character 'Q' at square a1; expected X, O or -\n"
    );
}

#[test]
fn bad_flags_and_sizes_exit_with_code_2() {
    let err = error_of(&["perft", "3", "--board", "7"]);
    assert!(err.contains("'7' is not a board size"), "{err}");
    error_of(&["perft", "many"]);
    error_of(&["frobnicate"]);
    let err = error_of(&["perft", "40"]);
    assert!(err.contains("use 20 or less"), "{err}");
}

fn model_path(name: &str) -> String {
    format!("{}/../../models/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn model_check_prints_the_card_shapes_and_speed() {
    let out = stdout_of(&["model", "check", &model_path("tiny-random-6x6.onnx")]);
    assert!(out.contains("model: tiny-random-6x6"), "{out}");
    assert!(
        out.contains(
            "input: planes [batch, 4, 6, 6]; outputs: policy [batch, 37], value [batch, 1]"
        ),
        "{out}"
    );
    assert!(
        out.contains("input planes: v1 (own, opponent, legal, ones)"),
        "{out}"
    );
    assert!(out.contains("start position: value"), "{out}");
    for batch in ["batch  1:", "batch  8:", "batch 32:"] {
        assert!(out.contains(batch), "{out}");
    }
}

#[test]
fn model_check_holds_a_pattern_network_s_tables_against_the_network() {
    let path = format!(
        "{}/../engine/tests/data/pattern-test-6x6.onnx",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = stdout_of(&["--runtime", "tract", "model", "check", &path]);
    assert!(out.contains("a pattern network"), "{out}");
    assert!(
        out.contains("pattern corner3x3: a1 b1 c1 a2 b2 c2 a3 b3 c3"),
        "{out}"
    );
    assert!(out.contains("8 patterns, 30 instances, 8 stages"), "{out}");
    assert!(out.contains("tables against the network on"), "{out}");
    let err = error_of(&["model", "check", &path, "--compare", "x.npz"]);
    assert!(err.contains("--compare takes a network of planes"), "{err}");
}

#[test]
fn model_check_refuses_a_corrupt_model_clearly() {
    let dir = std::env::temp_dir().join(format!("othello-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let onnx = dir.join("broken.onnx");
    std::fs::write(&onnx, b"this is not a network").expect("write");
    let err = error_of(&["model", "check", onnx.to_str().expect("utf-8 path")]);
    assert!(err.contains("cannot read the model card"), "{err}");
    std::fs::copy(model_path("tiny-random-8x8.json"), dir.join("broken.json")).expect("copy");
    let err = error_of(&["model", "check", onnx.to_str().expect("utf-8 path")]);
    assert!(err.contains("cannot read the ONNX model"), "{err}");
    let err = error_of(&["model", "check", "/nonexistent/model.onnx"]);
    assert!(
        err.contains("cannot read model /nonexistent/model.onnx"),
        "{err}"
    );
}

#[test]
fn analyse_prints_visit_shares_and_a_principal_variation() {
    let out = stdout_of(&["analyse", "f5d6c3", "--sims", "200"]);
    assert!(out.contains("White to move; win estimate"), "{out}");
    assert!(out.contains("principal variation: "), "{out}");
    assert!(out.contains("200 simulations"), "{out}");
    for mv in ["d3", "f3", "f4", "g5"] {
        assert!(
            out.lines().any(|l| l.starts_with(mv)),
            "{mv} missing in {out}"
        );
    }
}

#[test]
fn analyse_asks_for_the_best_move_and_says_when_a_win_is_only_a_bound() {
    // FFO #40: a2 wins by 38, c1 by 30. 200 simulations allow the root proof 5 M solver
    // nodes, which prove the win but not the margin (about 40 M).
    let ffo_40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let out = stdout_of(&["analyse", ffo_40, "--sims", "200"]);
    let line = out
        .lines()
        .find(|l| l.starts_with("Black to move: proven win"))
        .unwrap_or_else(|| panic!("a proven win in {out}"));
    assert!(line.contains("wins (by at least"), "{line}");
    assert!(line.contains("the best margin was not reached"), "{line}");
    // Asked again with the exact margin in reach, it names a2 and +38.
    let out = stdout_of(&["analyse", ffo_40, "--sims", "4000"]);
    assert!(
        out.contains("exact solve: best move a2, margin +38"),
        "{out}"
    );
}

#[test]
fn analyse_with_a_model_for_another_board_says_so() {
    let err = error_of(&[
        "analyse",
        "f5",
        "--player",
        &format!("mcts:model={}", model_path("tiny-random-6x6.onnx")),
        "--sims",
        "10",
    ]);
    assert!(
        err.contains("the model plays 6x6 standard but the game is 8x8 standard"),
        "{err}"
    );
}

#[test]
fn play_in_the_terminal_explains_bad_input_and_keeps_the_game() {
    let out = othello()
        .args([
            "play",
            "--board",
            "6",
            "--sims",
            "20",
            "--player",
            &format!("mcts:model={}", model_path("tiny-random-6x6.onnx")),
        ])
        .write_stdin("z9\na1\nc2\nundo\nquit\n")
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.contains("bad square 'z9'"), "{text}");
    assert!(text.contains("illegal move a1: it flips no disc"), "{text}");
    assert!(text.contains("Agent plays "), "{text}");
    // After undo the game is back at the start, so the transcript is empty.
    assert!(text.trim_end().ends_with("The game so far:"), "{text}");
}

fn samples_path(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn model_check_compare_matches_numpy_outputs_and_fails_past_the_tolerance() {
    for board in ["6x6", "8x8"] {
        let model = model_path(&format!("tiny-random-{board}.onnx"));
        let samples = samples_path(&format!("tiny-random-{board}.samples.npz"));
        let out = stdout_of(&["model", "check", &model, "--compare", &samples]);
        // tract is always checked; ONNX Runtime too where its library is found, which the
        // test script guarantees (OTHELLO_REQUIRE_ORT=1).
        let mut runtimes = vec!["tract"];
        if std::env::var("OTHELLO_REQUIRE_ORT").as_deref() == Ok("1") {
            runtimes.push("onnxruntime");
        }
        for runtime in runtimes {
            assert!(
                out.contains(&format!("compare policy ({runtime}): largest difference")),
                "{out}"
            );
            assert!(
                out.contains(&format!("parity on {runtime}: ok (2 outputs")),
                "{out}"
            );
        }
        // The same samples cannot pass a tolerance of zero unless tract were bit-exact
        // with numpy's float64 reference; it is not, and that is the check that bites.
        let err = error_of(&[
            "model",
            "check",
            &model,
            "--compare",
            &samples,
            "--tolerance",
            "0",
        ]);
        assert!(err.contains("differs from the samples by"), "{err}");
    }
}

#[test]
fn model_check_compare_refuses_samples_for_another_board() {
    let err = error_of(&[
        "model",
        "check",
        &model_path("tiny-random-8x8.onnx"),
        "--compare",
        &samples_path("tiny-random-6x6.samples.npz"),
    ]);
    assert!(err.contains("planes have shape [5, 4, 6, 6]"), "{err}");
    let err = error_of(&[
        "model",
        "check",
        &model_path("tiny-random-8x8.onnx"),
        "--compare",
        &model_path("tiny-random-8x8.onnx"),
    ]);
    assert!(err.contains("not a readable .npz archive"), "{err}");
}

#[test]
fn a_network_with_a_score_output_is_checked_against_its_samples_score_too() {
    let data = format!("{}/../engine/tests/data", env!("CARGO_MANIFEST_DIR"));
    let out = stdout_of(&[
        "model",
        "check",
        &format!("{data}/tiny-score-8x8.onnx"),
        "--compare",
        &format!("{data}/tiny-score-8x8.samples.npz"),
    ]);
    assert!(out.contains("score [batch, 1]"), "{out}");
    assert!(out.contains(" discs; priors"), "{out}");
    assert!(out.contains("compare score (tract)"), "{out}");
    // A model without a score cannot match samples that have one.
    let err = error_of(&[
        "model",
        "check",
        &model_path("tiny-random-8x8.onnx"),
        "--compare",
        &format!("{data}/tiny-score-8x8.samples.npz"),
    ]);
    assert!(err.contains("no 'score' output"), "{err}");
}

/// A GGF file of two games: the second starts from a board and has three moves.
fn ggf_file(name: &str) -> std::path::PathBuf {
    use othello::{BoardSize, Game, GgfGame, Move, Position, Variant};
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let first = GgfGame::new(Game::from_transcript("f5d6c3", start).expect("legal"));
    // 14 empties, reached by the rules.
    let mut pos = start;
    while pos.empty_count() > 14 {
        let moves = pos.legal_move_list();
        pos = pos
            .play(moves.first().copied().unwrap_or(Move::Pass))
            .expect("legal");
    }
    let second = GgfGame::new(Game::new(pos));
    let path = std::env::temp_dir().join(format!("othello-{name}-{}.ggf", std::process::id()));
    std::fs::write(&path, format!("{first}\n{second}\n")).expect("written");
    path
}

#[test]
fn show_solve_and_analyse_read_a_ggf_file() {
    let path = ggf_file("read");
    let file = path.to_string_lossy().into_owned();
    let shown = othello().args(["show", &file]).output().expect("runs");
    assert!(shown.status.success());
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(text.contains("moves: f5d6c3"), "{text}");
    // The same as the transcript gives.
    let direct = othello().args(["show", "f5d6c3"]).output().expect("runs");
    assert_eq!(text, String::from_utf8_lossy(&direct.stdout));
    let solved = othello()
        .args(["solve", &format!("{file}:2")])
        .output()
        .expect("runs");
    assert!(solved.status.success(), "{solved:?}");
    assert!(String::from_utf8_lossy(&solved.stdout).contains("best move"));
    let analysed = othello()
        .args(["analyse", &file, "--player", "mcts", "--sims", "30"])
        .output()
        .expect("runs");
    assert!(analysed.status.success(), "{analysed:?}");
    let missing = othello()
        .args(["show", &format!("{file}:3")])
        .output()
        .expect("runs");
    assert_eq!(missing.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(stderr.contains("holds 2 game(s)"), "{stderr}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_broken_ggf_file_is_one_line_on_stderr() {
    let path = std::env::temp_dir().join(format!("othello-broken-{}.ggf", std::process::id()));
    std::fs::write(&path, "(;GM[Othello]TY[8]B[f5]W[a1];)").expect("written");
    let out = othello().arg("show").arg(&path).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("W[a1]"), "{stderr}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn an_illegal_move_in_a_ggf_record_says_its_cause_once() {
    let path = std::env::temp_dir().join(format!("othello-twice-{}.ggf", std::process::id()));
    std::fs::write(&path, "(;GM[Othello]TY[8]B[f5]W[f5];)").expect("written");
    let err = error_of(&["show", path.to_str().expect("utf-8 path")]);
    let cause = "the square is occupied";
    assert_eq!(err.matches(cause).count(), 1, "{err}");
    assert!(err.contains("move 2 W[f5]"), "{err}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_card_that_declares_other_input_planes_is_refused_at_load() {
    let dir = std::env::temp_dir().join(format!("othello-planes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let onnx = dir.join("five.onnx");
    std::fs::copy(model_path("tiny-random-8x8.onnx"), &onnx).expect("copy");
    let card = std::fs::read_to_string(model_path("tiny-random-8x8.json")).expect("card");
    let mut card: serde_json::Value = serde_json::from_str(&card).expect("json");
    card["planes"] = serde_json::json!(5);
    std::fs::write(dir.join("five.json"), card.to_string()).expect("write");
    let err = error_of(&["model", "check", onnx.to_str().expect("utf-8 path")]);
    assert!(err.contains("declares 5 input planes"), "{err}");
    assert_eq!(err.matches("declares 5").count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn elo_rates_games_played_elsewhere_and_refuses_a_bad_request() {
    let games = r#"{"players": ["a", "b"], "anchor": "a", "games": [
        {"black": 0, "white": 1, "black_margin": -4}, {"black": 1, "white": 0, "black_margin": 6},
        {"black": 0, "white": 1, "black_margin": 2}]}"#;
    let out = othello()
        .args(["elo", "-"])
        .write_stdin(games)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{out:?}");
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(answer["anchor"], "a");
    assert_eq!(answer["ratings"][0]["elo"], 0.0);
    // b won two of three against the anchor.
    assert!(answer["ratings"][1]["elo"].as_f64().expect("a number") > 0.0);
    let out = othello()
        .args(["elo", "-"])
        .write_stdin(r#"{"players": ["a"], "anchor": "b", "games": []}"#)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.trim(),
        "error: the anchor 'b' is not one of the players"
    );
}

#[test]
fn bench_network_prints_a_rate_for_each_batch_size_and_refuses_nonsense() {
    let model = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../models/tiny-random-6x6.onnx"
    );
    let out = stdout_of(&[
        "--runtime",
        "tract",
        "bench",
        "network",
        "--model",
        model,
        "--batch",
        "1,3",
        "--seconds",
        "0.05",
    ]);
    assert!(out.starts_with("network tiny-random-6x6 (tract)"), "{out}");
    let rows: Vec<Vec<f64>> = out
        .lines()
        .skip(2)
        .map(|l| {
            l.split_whitespace()
                .map(|x| x.parse().expect("a number"))
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), 2, "{out}");
    for (row, batch) in rows.iter().zip([1.0, 3.0]) {
        assert_eq!(row[0], batch);
        // Positions a second are runs a second times the batch (each rounded).
        assert!((row[2] - row[1] * batch).abs() <= batch, "{out}");
        assert!(row[1] > 0.0);
    }
    assert!(
        error_of(&["bench", "network", "--model", model, "--batch", "0"]).contains("at least 1")
    );
    for seconds in ["--seconds=-1", "--seconds=0", "--seconds=NaN"] {
        assert!(error_of(&["bench", "network", "--model", model, seconds]).contains("--seconds"));
    }
}

#[test]
fn bench_encode_times_each_input_set_per_position() {
    let out = stdout_of(&[
        "bench",
        "encode",
        "--board",
        "6",
        "--games",
        "2",
        "--rounds",
        "3",
        "--inputs",
        "v1;v2;own,odd_quadrant",
    ]);
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 3, "{out}");
    for (row, (planes, set)) in
        rows.iter()
            .zip([("4", "v1"), ("10", "v2"), ("2", "own,odd_quadrant")])
    {
        assert_eq!((row[0], row[3]), (planes, set), "{out}");
        let median: f64 = row[1].parse().expect("a number");
        let fastest: f64 = row[2].parse().expect("a number");
        assert!(fastest > 0.0 && fastest <= median, "{out}");
    }
    let err = error_of(&["bench", "encode", "--inputs", "v1;mobility"]);
    assert!(err.contains("'mobility' is not an input set"), "{err}");
}

#[test]
fn a_reader_that_closes_the_pipe_early_ends_the_command_quietly() {
    use std::process::{Command as Process, Stdio};
    let mut child = Process::new(env!("CARGO_BIN_EXE_othello"))
        .args(["perft", "9"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    // Closed before the count is printed, as `othello perft 9 | head -c 1` would.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        // SIGPIPE is 13 on every Unix: the process ends as `ls | head` ends `ls`.
        assert_eq!(out.status.signal(), Some(13), "{:?}", out.status);
    }
}

/// An empty folder of this process's own, for a test's output files.
fn empty_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// Self-play's `--exact-empties` and a player spec's `exact=` both say where the solver
/// takes over: the spec's alone reaches the games (the sidecar names it), and two
/// different answers are one clear error, not one silently dropped.
#[test]
fn self_play_takes_the_spec_s_exact_reach_and_refuses_a_contradicting_flag() {
    let dir = empty_dir("selfplay-exact");
    let out = dir.to_str().expect("utf-8");
    let common = [
        "selfplay", "--board", "6", "--games", "1", "--sims", "4", "--out", out,
    ];
    let error = error_of(
        &[
            &common[..],
            &["--player", "mcts:exact=12", "--exact-empties", "14"],
        ]
        .concat(),
    );
    assert!(
        error.contains("--exact-empties 14 contradicts the player's exact=12"),
        "{error}"
    );
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    stdout_of(
        &[
            &common[..],
            &["--player", "mcts:exact=12", "--name", "spec"],
        ]
        .concat(),
    );
    let sidecar = std::fs::read_to_string(dir.join("spec.json")).expect("the sidecar");
    let sidecar: serde_json::Value = serde_json::from_str(&sidecar).expect("json");
    assert_eq!(sidecar["settings"]["exact_empties"], 12, "{sidecar}");
    // The same reach given twice is no contradiction.
    stdout_of(
        &[
            &common[..],
            &[
                "--player",
                "mcts:exact=12",
                "--exact-empties",
                "12",
                "--name",
                "both",
            ],
        ]
        .concat(),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--openings xot`: each game starts with one of the shipped balanced lines, which the
/// sidecar names and the transcript begins with; a board without such a list is refused
/// in one line.
#[test]
fn self_play_starts_its_games_from_the_xot_lines() {
    let dir = empty_dir("selfplay-xot");
    let out = dir.to_str().expect("utf-8");
    let error = error_of(&[
        "selfplay",
        "--board",
        "6",
        "--games",
        "1",
        "--sims",
        "4",
        "--out",
        out,
        "--openings",
        "xot",
    ]);
    assert!(error.contains("the XOT list is for 8x8 only"), "{error}");
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    stdout_of(&[
        "selfplay",
        "--board",
        "8",
        "--games",
        "2",
        "--sims",
        "4",
        "--out",
        out,
        "--openings",
        "xot",
        "--name",
        "xot",
        "--threads",
        "1",
    ]);
    let sidecar = std::fs::read_to_string(dir.join("xot.json")).expect("the sidecar");
    let sidecar: serde_json::Value = serde_json::from_str(&sidecar).expect("json");
    assert_eq!(sidecar["settings"]["openings"], "xot", "{sidecar}");
    let lines: Vec<&str> = othello::xot_openings();
    for transcript in sidecar["transcripts"].as_array().expect("transcripts") {
        let transcript = transcript.as_str().expect("a transcript");
        assert!(
            lines.iter().any(|line| transcript.starts_with(line)),
            "{transcript} begins with no XOT line"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `othello relabel` values a self-play file's searched rows again with the pattern
/// network's alpha-beta, keeps the exact rows' labels and every other column, and refuses
/// a network of planes in one line.
#[test]
fn relabel_revalues_searched_rows_and_keeps_the_exact_ones() {
    let dir = empty_dir("relabel");
    let out = dir.to_str().expect("utf-8");
    let pattern = model_path("pattern-8x8.onnx");
    stdout_of(&[
        "--runtime",
        "tract",
        "selfplay",
        "--board",
        "8",
        "--model",
        &pattern,
        "--games",
        "2",
        "--sims",
        "8",
        "--exact-empties",
        "10",
        "--label-empties",
        "12",
        "--out",
        out,
        "--name",
        "s",
        "--threads",
        "1",
    ]);
    let relabelled = dir.join("deep");
    let deep = relabelled.to_str().expect("utf-8");
    let input = dir.join("s.npz");
    let error = error_of(&[
        "relabel",
        "--model",
        &model_path("az-8x8.onnx"),
        "--out",
        deep,
        input.to_str().expect("utf-8"),
    ]);
    assert!(error.contains("not a pattern network"), "{error}");
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    let report = stdout_of(&[
        "--runtime",
        "tract",
        "relabel",
        "--model",
        &pattern,
        "--depth",
        "2",
        "--threads",
        "1",
        "--out",
        deep,
        out,
    ]);
    assert!(report.contains("searched at depth 2"), "{report}");
    let after = relabelled.join("s.npz");
    assert_eq!(read(&input, "value"), read(&after, "value"));
    assert_eq!(read(&input, "score"), read(&after, "score"));
    let search = read(&after, "search_score");
    let empties = empties_of_rows(&after);
    let mut searched = 0;
    for (row, (score, search)) in read(&after, "score").iter().zip(&search).enumerate() {
        if empties[row] <= 12 {
            assert_eq!(score, search, "row {row}: exact labels are kept");
        } else {
            searched += 1;
            assert!(search.abs() < 64.0, "row {row}: an estimate, {search}");
        }
    }
    assert!(searched > 0);
    assert_ne!(
        read(&input, "search_score"),
        search,
        "the searched rows' values changed"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A float column of a `.npz` file.
fn read(path: &std::path::Path, name: &str) -> Vec<f32> {
    tools::arrays::NpzFile::open(path)
        .and_then(|mut f| f.array::<f32>(name))
        .expect("column")
        .iter()
        .copied()
        .collect()
}

/// Each 8x8 row's empty squares, from its planes 0 and 1 (the side to move's discs and
/// the opponent's).
fn empties_of_rows(path: &std::path::Path) -> Vec<usize> {
    let planes = tools::arrays::NpzFile::open(path)
        .and_then(|mut f| f.array::<u8>("planes"))
        .expect("planes");
    let per_row = planes.shape()[1] * 64;
    let planes: Vec<u8> = planes.iter().copied().collect();
    planes
        .chunks(per_row)
        .map(|row| 64 - row[..128].iter().filter(|&&b| b != 0).count())
        .collect()
}
