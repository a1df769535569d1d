use assert_cmd::Command;

fn othello() -> Command {
    Command::cargo_bin("othello").expect("the othello binary is built")
}

fn stdout_of(args: &[&str]) -> String {
    let out = othello().args(args).output().expect("runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

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
