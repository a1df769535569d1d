//! `othello solve` end to end.

use assert_cmd::Command;

/// The first 18 moves of Feinstein's perfect 6x6 line: Black to move, worth -4.
const FEINSTEIN_18: &str = "c2b4c5d2e4e3d1c1b1d5d6f4b3b2f3f2e2b6";

fn othello() -> Command {
    Command::cargo_bin("othello").expect("the othello binary is built")
}

/// `othello accuracy` on 4x4 (where every check solves in no time) for `player`.
fn accuracy_on_4x4(player: &str) -> Command {
    let mut command = othello();
    command.args(["accuracy", "--board", "4", "--player", player]);
    command
}

/// Runs `command`, which must succeed (its stderr says why not), and returns its stdout.
fn stdout_of(command: &mut Command) -> String {
    let out = command.output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn solve_prints_every_move_best_first_and_the_best_margin() {
    let out = othello()
        .args(["solve", FEINSTEIN_18, "--board", "6"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Black to move: best move"), "{text}");
    assert!(text.contains("margin -4"), "{text}");
    assert!(text.contains("nodes/s"), "{text}");
    // The per-move lines are sorted, best first.
    let scores: Vec<i32> = text
        .lines()
        .filter(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().nth(1)?.parse().ok())
        .collect();
    assert!(scores.len() > 1, "{text}");
    assert_eq!(scores[0], -4);
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
}

#[test]
fn solve_with_wld_reports_the_loss() {
    let out = othello()
        .args(["solve", FEINSTEIN_18, "--board", "6", "--wld"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Black to move: loss"), "{text}");
}

#[test]
fn solve_reads_board_text_that_starts_with_an_empty_square() {
    let stdout = stdout_of(othello().args([
        "solve",
        "--best-only",
        "--------------XXX-----XXOOOOOOOXOOOOOOOOXXOOXXOOOOXXXXOOOOOOXXOO X",
    ]));
    assert!(stdout.contains("best move"));
}

#[test]
fn a_bad_position_is_one_line_of_error_and_exit_code_2() {
    let out = othello().args(["solve", "z9"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error:"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn accuracy_counts_optimal_endgame_moves_and_names_a_bad_player() {
    let stdout = stdout_of(
        accuracy_on_4x4("alphabeta")
            .args(["--against", "random", "--positions", "30"])
            .args(["--max-empties", "8"]),
    );
    assert!(
        stdout.starts_with("alphabeta: 30 of 30 moves optimal (100.0%, 95% interval 88.6-100.0%)"),
        "{stdout}"
    );
    // Above --exact-up-to only the result is labelled: no optimal share for those groups.
    let stdout = stdout_of(
        accuracy_on_4x4("alphabeta")
            .args(["--against", "random", "--positions", "30"])
            .args(["--max-empties", "8", "--exact-up-to", "3"]),
    );
    assert!(
        stdout.contains("exactly labelled moves optimal")
            && stdout.contains("30 of 30 moves keep the result"),
        "{stdout}"
    );
    let wld_group = stdout
        .lines()
        .find(|l| l.starts_with(" 4-7 "))
        .expect("a group above 3 empties");
    assert_eq!(
        wld_group.split_whitespace().collect::<Vec<_>>()[2..],
        ["-", "100.0%"],
        "{stdout}"
    );
    let out = accuracy_on_4x4("oracle").output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown player 'oracle'"));
}

#[test]
fn accuracy_rechecks_recorded_positions_and_refuses_a_corrupt_report() {
    let dir = std::env::temp_dir().join(format!("othello-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let report = dir.join("random.json");
    let report_arg = report.to_str().expect("utf-8 path");
    accuracy_on_4x4("random")
        .args([
            "--positions",
            "20",
            "--max-empties",
            "8",
            "--json",
            report_arg,
        ])
        .assert()
        .success();
    let stdout = stdout_of(accuracy_on_4x4("alphabeta").args([
        "--max-empties",
        "8",
        "--replay",
        report_arg,
    ]));
    // Every distinct recorded position once, each solved perfectly by alpha-beta.
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).expect("json");
    let distinct: std::collections::HashSet<String> = recorded["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["position"].to_string())
        .collect();
    let n = distinct.len();
    assert!(
        stdout.starts_with(&format!("alphabeta: {n} of {n} moves optimal")),
        "{stdout}"
    );
    assert!(
        stdout.contains("from the recorded positions of"),
        "{stdout}"
    );
    let corrupt = dir.join("corrupt.json");
    std::fs::write(&corrupt, "{\"moves\": [{\"position\": 3}]}").expect("write");
    let out = accuracy_on_4x4("alphabeta")
        .args(["--replay", corrupt.to_str().expect("utf-8 path")])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("corrupt.json is not an accuracy report"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A position with `empties` empty squares and a choice of moves, from a fixed random game.
fn endgame(empties: u32, seed: u64) -> othello::Position {
    use othello::{BoardSize, Position, Variant};
    let mut state = seed;
    let mut pos = Position::start(BoardSize::Eight, Variant::Standard);
    loop {
        if pos.is_game_over() {
            pos = Position::start(BoardSize::Eight, Variant::Standard);
        }
        let moves = pos.legal_move_list();
        if pos.empty_count() <= empties && moves.len() >= 2 {
            return pos;
        }
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        pos = pos
            .play(moves[(state >> 33) as usize % moves.len()])
            .expect("legal");
    }
}

#[test]
fn analyse_prints_the_exact_margin_that_solve_prints_near_the_end() {
    for seed in [1, 2] {
        let board = endgame(14, seed).to_board_text();
        let solve = othello()
            .args(["solve", "--best-only", &board])
            .output()
            .expect("runs");
        let solve = String::from_utf8_lossy(&solve.stdout).into_owned();
        let margin = solve
            .lines()
            .find_map(|l| l.split("margin ").nth(1))
            .unwrap_or_else(|| panic!("no margin in {solve}"))
            .to_owned();
        let analyse = othello()
            .args(["analyse", &board, "--player", "mcts", "--sims", "50"])
            .output()
            .expect("runs");
        assert!(
            analyse.status.success(),
            "{}",
            String::from_utf8_lossy(&analyse.stderr)
        );
        let analyse = String::from_utf8_lossy(&analyse.stdout).into_owned();
        assert!(
            analyse.contains("exact solve: best move ")
                && analyse.contains(&format!("margin {margin} (")),
            "solve says {margin}; analyse says {analyse}"
        );
    }
}
