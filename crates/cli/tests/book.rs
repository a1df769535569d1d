//! `othello book` and the book in the agents that use it, end to end on 6x6 with the
//! network-less search (fast enough for a test): build, kill-free resume, show, merge,
//! todo and search, and a bad book that leaves the agent playing.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn othello() -> Command {
    Command::cargo_bin("othello").expect("the othello binary is built")
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = othello().args(args).output().expect("runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn stdout_of(args: &[&str]) -> String {
    let (ok, out, err) = run(args);
    assert!(ok, "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    out
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-book-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    dir
}

fn text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

const GROW: &[&str] = &[
    "--board", "6", "--player", "mcts", "--sims", "64", "--depth", "4",
];

fn build(book: &Path, positions: &str) -> String {
    let mut args = vec!["book", "build", text(book)];
    args.extend_from_slice(GROW);
    args.extend_from_slice(&["--positions", positions]);
    stdout_of(&args)
}

fn positions_in(book: &Path) -> usize {
    let stats = stdout_of(&["book", "stats", text(book)]);
    stats
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stats}"))
}

#[test]
fn a_book_grows_resumes_and_answers_for_every_position_it_holds() {
    let dir = temp_dir("grow");
    let book = dir.join("b.book");
    assert!(build(&book, "5").contains("5 positions added"));
    assert_eq!(positions_in(&book), 5);
    // `build` will not overwrite; `extend` goes on where it stopped.
    let (ok, _, err) = run(&[&["book", "build", text(&book)], GROW].concat());
    assert!(!ok && err.contains("othello book extend"), "{err}");
    let mut extend = vec!["book", "extend", text(&book)];
    extend.extend_from_slice(GROW);
    extend.extend_from_slice(&["--positions", "4"]);
    stdout_of(&extend);
    assert_eq!(positions_in(&book), 9);
    // The start (written as an empty transcript) is in the book, with its moves.
    let shown = stdout_of(&["book", "show", text(&book), ""]);
    assert!(shown.starts_with("value "), "{shown}");
    assert!(shown.contains(" book"), "{shown}");
    // An agent with the book plays the start from it.
    let spec = format!("mcts:book={},sims=50", text(&book));
    let analysis = stdout_of(&["analyse", "", "--board", "6", "--player", &spec]);
    assert!(analysis.contains("Black to move: book move "), "{analysis}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn shards_searched_apart_merge_into_the_book_without_searching_twice() {
    let dir = temp_dir("shards");
    let book = dir.join("b.book");
    build(&book, "3");
    let todo = stdout_of(&["book", "todo", text(&book), "--count", "4", "--depth", "4"]);
    let lines: Vec<&str> = todo.lines().collect();
    assert_eq!(lines.len(), 4, "{todo}");
    let shard = dir.join("shard.book");
    let mut search = vec![
        "book", "search", "--board", "6", "--player", "mcts", "--sims", "64",
    ];
    for line in &lines {
        search.extend_from_slice(&["--position", line]);
    }
    search.extend_from_slice(&["--out", text(&shard)]);
    stdout_of(&search);
    let merged = stdout_of(&["book", "merge", text(&book), text(&shard)]);
    assert!(merged.contains("4 new positions"), "{merged}");
    assert_eq!(positions_in(&book), 7);
    // The merged positions are off the next list.
    let next = stdout_of(&["book", "todo", text(&book), "--count", "50", "--depth", "4"]);
    assert!(
        lines.iter().all(|l| !next.lines().any(|n| n == *l)),
        "{next}"
    );
    // A position that is not board text is refused before any search.
    let (ok, _, err) = run(&[
        "book",
        "search",
        "--board",
        "6",
        "--player",
        "mcts",
        "--position",
        "f5",
        "--out",
        text(&shard),
    ]);
    assert!(!ok && err.contains("--position 1: board text"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_bad_book_is_named_once_and_the_agent_plays_on_without_it() {
    let dir = temp_dir("bad");
    let book = dir.join("b.book");
    build(&book, "3");
    let mut bytes = std::fs::read(&book).expect("the book");
    let last = bytes.len() - 10;
    bytes[last] ^= 0xff;
    std::fs::write(&book, &bytes).expect("written");
    let spec = format!("mcts:book={},sims=30", text(&book));
    let (ok, out, err) = run(&["analyse", "", "--board", "6", "--player", &spec]);
    assert!(ok, "{err}");
    assert_eq!(err.matches("warning: book").count(), 1, "{err}");
    assert!(
        err.contains("corrupt: the checksum does not match the contents; playing without it"),
        "{err}"
    );
    assert!(out.contains("30 simulations"), "{out}");
    // A missing one too; `book show` on it is an error, since there is nothing to show.
    let missing = dir.join("missing.book");
    let spec = format!("mcts:book={},sims=30", text(&missing));
    let (ok, _, err) = run(&["analyse", "", "--board", "6", "--player", &spec]);
    assert!(ok && err.contains("cannot be read"), "{err}");
    let (ok, _, err) = run(&["book", "show", text(&missing), ""]);
    assert!(!ok && err.starts_with("error: book "), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
