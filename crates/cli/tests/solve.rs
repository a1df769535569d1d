//! `othello solve` end to end.

use assert_cmd::Command;

/// The first 18 moves of Feinstein's perfect 6x6 line: Black to move, worth -4.
const FEINSTEIN_18: &str = "c2b4c5d2e4e3d1c1b1d5d6f4b3b2f3f2e2b6";

fn othello() -> Command {
    Command::cargo_bin("othello").expect("the othello binary is built")
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
    let out = othello()
        .args([
            "solve",
            "--best-only",
            "--------------XXX-----XXOOOOOOOXOOOOOOOOXXOOXXOOOOXXXXOOOOOOXXOO X",
        ])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("best move"));
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
    let out = Command::cargo_bin("othello")
        .expect("binary")
        .args(["accuracy", "--board", "4", "--player", "alphabeta"])
        .args([
            "--against",
            "random",
            "--positions",
            "30",
            "--max-empties",
            "8",
        ])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("alphabeta: 30 of 30 moves optimal (100.0%)"),
        "{stdout}"
    );
    let out = Command::cargo_bin("othello")
        .expect("binary")
        .args(["accuracy", "--board", "4", "--player", "oracle"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown player 'oracle'"));
}
