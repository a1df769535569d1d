//! `othello puzzles` end to end: a set built from an arena's games, listed, proven again,
//! and damaged or foreign files refused in one line; the shipped sets read and prove.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-puzzles-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn othello(args: &[&str]) -> Command {
    let mut command = Command::cargo_bin("othello").expect("binary");
    command.args(args);
    command
}

fn stdout(mut command: Command) -> String {
    let assert = command.assert().success();
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temp path")
}

#[test]
fn a_set_built_from_games_lists_and_proves_again_and_damage_is_refused() {
    let dir = temp("build");
    let set = dir.join("set.bin");
    let kept = builds_a_set_from_arena_games(&dir, &set);
    lists_legal_answers_and_proves_them_again(&set, kept);
    refuses_damaged_sets(&set, &dir.join("damaged.bin"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays a few 6x6 arena games into `dir` and builds the puzzle set `set` from them;
/// returns how many puzzles it kept.
fn builds_a_set_from_arena_games(dir: &Path, set: &Path) -> usize {
    let games = dir.join("games");
    stdout(othello(&[
        "arena",
        "--board",
        "6",
        "--players",
        "alphabeta:depth=2,heuristic",
        "--games",
        "8",
        "--seed",
        "3",
        "--out",
        path(&games),
    ]));
    let built = stdout(othello(&[
        "puzzles",
        "build",
        "--board",
        "6",
        "--games",
        path(&games.join("arena.ggf")),
        "--max-empties",
        "10",
        "--min-empties",
        "4",
        "--gap",
        "4",
        "--out",
        path(set),
    ]));
    let kept: usize = built
        .lines()
        .find_map(|l| {
            l.split(" kept as puzzles")
                .next()?
                .rsplit(' ')
                .next()?
                .parse()
                .ok()
        })
        .expect("the count of kept puzzles");
    assert!(kept > 0, "{built}");
    assert!(built.contains("positions tried"), "{built}");
    kept
}

/// `list` gives one line a puzzle, each a position `othello show` reads with an answer
/// legal there, and `check` proves every one again.
fn lists_legal_answers_and_proves_them_again(set: &Path, kept: usize) {
    let listed = stdout(othello(&["puzzles", "list", path(set)]));
    assert_eq!(listed.lines().count(), kept);
    let first: Vec<&str> = listed
        .lines()
        .next()
        .expect("a puzzle")
        .split(' ')
        .collect();
    let shown = stdout(othello(&["show", &format!("{} {}", first[0], first[1])]));
    let legal = shown
        .lines()
        .find_map(|l| l.strip_prefix("legal moves: "))
        .expect("the legal moves");
    assert!(
        legal.split(' ').any(|m| m == first[2]),
        "{} not in {legal}",
        first[2]
    );
    let checked = stdout(othello(&["puzzles", "check", path(set)]));
    assert!(
        checked.contains(&format!("all {kept} puzzles proven again")),
        "{checked}"
    );
}

/// A flipped bit, a cut file and a file that is no puzzle set (written to `damaged`): one
/// line each, exit 2.
fn refuses_damaged_sets(set: &Path, damaged: &Path) {
    let bytes = std::fs::read(set).expect("set");
    let mut flipped = bytes.clone();
    flipped[30] ^= 4;
    for (content, reason) in [
        (flipped, "the checksum does not match"),
        (bytes[..bytes.len() - 30].to_vec(), "truncated"),
        (
            b"(;GM[Othello]PC[x];)".to_vec(),
            "not an Othello Zero puzzle file",
        ),
    ] {
        std::fs::write(damaged, content).expect("write");
        for verb in ["list", "check"] {
            let refused = othello(&["puzzles", verb, path(damaged)]).assert().code(2);
            let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
            assert!(stderr.contains(reason), "{verb}: {stderr}");
            assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        }
    }
}

#[test]
fn the_shipped_sets_read_and_the_6x6_set_proves_again() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for (file, at_least) in [
        ("puzzles/puzzles-8x8.bin", 1000),
        ("puzzles/puzzles-6x6.bin", 50),
    ] {
        let listed = stdout(othello(&["puzzles", "list", path(&root.join(file))]));
        assert!(
            listed.lines().count() >= at_least,
            "{file}: {} puzzles",
            listed.lines().count()
        );
        let kinds: std::collections::HashSet<&str> =
            listed.lines().filter_map(|l| l.split(' ').nth(3)).collect();
        assert!(
            kinds.contains("only-win") && kinds.contains("best-margin"),
            "{kinds:?}"
        );
    }
    let checked = stdout(othello(&[
        "puzzles",
        "check",
        path(&root.join("puzzles/puzzles-6x6.bin")),
    ]));
    assert!(checked.contains("proven again"), "{checked}");
}
