//! `othello nboard` driven over pipes as NBoard drives it: one command at a time, reading
//! the answers as they come. Small budgets (playout searches, the tiny test network), so
//! the sessions take seconds.

use othello::{BoardSize, Game, GgfGame, Move, Position, Variant};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// How long any answer may take before the test gives up (debug builds are slow).
const PATIENCE: Duration = Duration::from_secs(60);

struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Session {
    fn start(player: &str) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
            .args(["nboard", "--player", player])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the othello binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        Session {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("the engine reads");
        stdin.flush().expect("flushed");
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        self.until_matching(prefix, |line| line.starts_with(prefix))
    }

    /// Lines up to and including the first that is exactly `whole`.
    fn until_line(&mut self, whole: &str) -> Vec<String> {
        self.until_matching(whole, |line| line == whole)
    }

    fn until_matching(&mut self, prefix: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let found = done(&line);
                    seen.push(line);
                    if found {
                        return seen;
                    }
                }
                Err(_) => panic!("no line starting with '{prefix}'; got {seen:?}"),
            }
        }
    }

    /// Nothing more comes for a while.
    fn quiet(&mut self, wait: Duration) -> Vec<String> {
        let mut seen = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(wait) {
            seen.push(line);
        }
        seen
    }

    /// Closes stdin, waits for the exit, and returns stderr.
    fn finish(mut self) -> String {
        drop(self.stdin.take());
        let status = self.child.wait().expect("exits");
        assert!(status.success(), "{status}");
        let mut stderr = String::new();
        if let Some(mut pipe) = self.child.stderr.take() {
            pipe.read_to_string(&mut stderr).expect("stderr");
        }
        stderr
    }
}

/// The game after `transcript` from the 8x8 start, as NBoard sends it.
fn set_game(transcript: &str) -> (String, Game) {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let game = Game::from_transcript(transcript, start).expect("a legal transcript");
    let record = GgfGame::new(game.clone()).to_string();
    assert!(!record.contains('\n'), "one line: {record}");
    (format!("set game {record}"), game)
}

fn parse_move(word: &str) -> Move {
    let text = if word.eq_ignore_ascii_case("pa") {
        "pass"
    } else {
        word
    };
    Move::parse(&text.to_ascii_lowercase(), BoardSize::Eight).expect("a move")
}

/// The fields of a `search <pv> <eval> 0 <depth> <text>` line: the pv's moves, the eval,
/// the depth.
fn search_fields(line: &str) -> (Vec<Move>, f64, String) {
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(fields[0], "search", "{line}");
    assert_eq!(fields[3], "0", "{line}");
    let pv = fields[1].split('-').map(parse_move).collect();
    let eval = fields[2].parse().expect("an eval");
    (pv, eval, fields[4].to_owned())
}

/// The move, eval and seconds of an `=== f5/eval/time` line.
fn go_fields(line: &str) -> (Move, Option<f64>, f64) {
    let rest = line.strip_prefix("=== ").expect("a move answer");
    let parts: Vec<&str> = rest.split('/').collect();
    assert_eq!(parts.len(), 3, "{line}");
    let eval = (!parts[1].is_empty()).then(|| parts[1].parse().expect("an eval"));
    (
        parse_move(parts[0]),
        eval,
        parts[2].parse().expect("seconds"),
    )
}

#[test]
fn a_scripted_session_gets_the_answers_the_protocol_asks_for() {
    let mut nb = Session::start("mcts");
    greets_and_names_its_depth(&mut nb);
    let (set, game) = set_game("f5d6");
    nb.send(&set);
    hints_three_different_moves(&mut nb, game.position());
    let after_move = goes_and_plays_the_gui_s_move(&mut nb, game.position());
    ignores_garbage_and_refuses_bad_moves(&mut nb, &after_move);
    learns_and_analyses_every_position(&mut nb);
    let stderr = nb.finish();
    let errors: Vec<&str> = stderr.lines().collect();
    // `hint` without a number, z9, the cut record, a1.
    assert_eq!(errors.len(), 4, "{stderr}");
    assert!(errors.iter().all(|l| l.starts_with("error: ")), "{stderr}");
    assert!(stderr.contains("z9") && stderr.contains("a1"), "{stderr}");
    assert!(stderr.contains("set game"), "{stderr}");
}

/// The scripted session's steps, in order.
fn greets_and_names_its_depth(nb: &mut Session) {
    nb.send("nboard 2");
    assert_eq!(nb.until("set myname"), ["set myname OthelloZero"]);
    nb.send("set depth 2");
    assert_eq!(nb.until("set myname"), ["set myname OthelloZero2"]);
}

fn hints_three_different_moves(nb: &mut Session, pos: &Position) {
    nb.send("hint 3");
    // `status analysing`, the hints, then an empty `status` when they are all out.
    let answer = nb.until_line("status");
    assert_eq!(answer[0], "status analysing", "{answer:?}");
    let hints: Vec<String> = answer
        .into_iter()
        .filter(|l| l.starts_with("search"))
        .collect();
    assert_eq!(hints.len(), 3, "{hints:?}");
    let mut firsts = Vec::new();
    for line in &hints {
        let (pv, eval, depth) = search_fields(line);
        assert!(pos.is_legal(pv[0]), "{line}");
        let mut at = *pos;
        for mv in &pv {
            at = at.play(*mv).expect("the line is legal");
        }
        assert!(eval.abs() <= 64.0, "{line}");
        assert!(depth.parse::<usize>().is_ok_and(|d| d >= 1), "{line}");
        firsts.push(pv[0]);
    }
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three different moves: {hints:?}");
}

/// `go` answers a move and leaves the board alone: the GUI plays it with `move`. Returns
/// the position after the GUI's move.
fn goes_and_plays_the_gui_s_move(nb: &mut Session, pos: &Position) -> Position {
    nb.send("go");
    let answer = nb.until("===").pop().expect("a move");
    let (mv, eval, seconds) = go_fields(&answer);
    assert!(pos.is_legal(mv), "{answer}");
    assert!(
        eval.is_some_and(|e| e.abs() <= 64.0) && seconds >= 0.0,
        "{answer}"
    );
    nb.send("go");
    let again = go_fields(&nb.until("===").pop().expect("a move")).0;
    assert!(pos.is_legal(again), "the board did not change");
    nb.send(&format!(
        "move {}/0.5/1.2",
        mv.to_string().to_ascii_uppercase()
    ));
    let after_move = pos.play(mv).expect("legal");
    nb.send("go");
    let reply = go_fields(&nb.until("===").pop().expect("a move")).0;
    assert!(after_move.is_legal(reply), "{reply} after {mv}");
    after_move
}

/// Garbage is ignored; a bad move or record is one line on stderr and changes nothing.
fn ignores_garbage_and_refuses_bad_moves(nb: &mut Session, after_move: &Position) {
    for junk in [
        "",
        "foo bar",
        "set frobnicate 3",
        "\u{1}\u{7f}",
        "hint",
        "move z9",
    ] {
        nb.send(junk);
    }
    nb.send("set game (;GM[Othello]BO[8 ---");
    nb.send(&format!("move {}", after_move.legal_move_list()[0]));
    nb.send("move a1");
    nb.send("ping 12");
    let answered = nb.until("pong");
    assert_eq!(answered.last().map(String::as_str), Some("pong 12"));
    assert!(
        answered.iter().all(|l| !l.starts_with("===")),
        "{answered:?}"
    );
    // One legal move went through; a1 was illegal then and was refused.
    let now = after_move
        .play(after_move.legal_move_list()[0])
        .expect("legal");
    nb.send("go");
    let (mv, _, _) = go_fields(&nb.until("===").pop().expect("a move"));
    assert!(now.is_legal(mv), "{mv} in {}", now.to_board_text());
}

fn learns_and_analyses_every_position(nb: &mut Session) {
    nb.send("learn");
    assert_eq!(
        nb.until("learned").last().map(String::as_str),
        Some("learned")
    );
    nb.send("analyze");
    let analysis: Vec<String> = nb
        .until("analysis 0 ")
        .into_iter()
        .filter(|l| l.starts_with("analysis"))
        .collect();
    // One line per position, from the last (four moves made) back to the start.
    let made: Vec<usize> = analysis
        .iter()
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .and_then(|n| n.parse().ok())
                .expect("n")
        })
        .collect();
    assert_eq!(made, [4, 3, 2, 1, 0], "{analysis:?}");
}

#[test]
fn a_ping_in_the_middle_of_a_long_search_is_answered_at_once() {
    // A hundred million simulations: hours, unless the ping stops it.
    let mut nb = Session::start("mcts:sims=100000000");
    nb.send("nboard 2");
    nb.until("set myname");
    let (set, _) = set_game("f5d6c3");
    nb.send(&set);
    for (command, ping) in [("go", 3), ("hint 4", 4)] {
        nb.send(command);
        let thinking = nb.until("status");
        assert!(thinking[0].starts_with("status "), "{thinking:?}");
        // Let it get well into the search (and report at least once).
        assert!(nb.until("nodestats").len() <= 3);
        let clock = Instant::now();
        nb.send(&format!("ping {ping}"));
        let answered = nb.until("pong");
        let latency = clock.elapsed();
        assert_eq!(answered.last(), Some(&format!("pong {ping}")));
        // A stopped search sends no move and no hints.
        assert!(
            answered
                .iter()
                .all(|l| !l.starts_with("===") && !l.starts_with("search")),
            "{answered:?}"
        );
        assert!(latency < Duration::from_secs(2), "pong after {latency:?}");
        assert!(nb.quiet(Duration::from_millis(300)).is_empty());
    }
    // The engine still works after the interruptions.
    nb.send("set depth 1");
    nb.until("set myname");
    nb.send("ping 5");
    nb.until("pong 5");
    let stderr = nb.finish();
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn near_the_end_hints_are_exact_solves_with_depth_100_percent() {
    use engine::Solver;
    // 14 empties, within the agent's exact root solve: the first legal move every ply.
    let mut pos = Position::start(BoardSize::Eight, Variant::Standard);
    while pos.empty_count() > 14 {
        let moves = pos.legal_move_list();
        let mv = moves.get(moves.len() / 2).copied().unwrap_or(Move::Pass);
        pos = pos.play(mv).expect("legal");
    }
    assert!(!pos.is_game_over() && pos.legal_move_list().len() > 1);
    let record = GgfGame::new(Game::new(pos)).to_string();
    let mut nb = Session::start("mcts:sims=50");
    nb.send("nboard 2");
    nb.send(&format!("set game {record}"));
    nb.send("hint 3");
    let hints: Vec<(Vec<Move>, f64, String)> = nb
        .until_line("status")
        .iter()
        .filter(|l| l.starts_with("search"))
        .map(|l| search_fields(l))
        .collect();
    let exact = Solver::new().score_moves(&pos);
    assert_eq!(hints.len(), exact.len().min(3));
    for ((pv, eval, depth), (mv, margin)) in hints.iter().zip(&exact) {
        assert_eq!(depth, "100%");
        assert_eq!(pv[0], *mv);
        assert_eq!(*eval, f64::from(*margin));
    }
    nb.send("go");
    let (mv, eval, _) = go_fields(&nb.until("===").pop().expect("a move"));
    // Any of equally good moves may be the one played; its exact margin is the best.
    let best = exact[0].1;
    assert_eq!(eval, Some(f64::from(best)));
    let played = exact.iter().find(|(m, _)| *m == mv).map(|&(_, v)| v);
    assert_eq!(
        played,
        Some(best),
        "{mv} is not among the best moves {exact:?}"
    );
    nb.finish();
}

#[test]
fn the_network_players_and_alphabeta_answer_too() {
    let model = format!(
        "{}/../../models/tiny-random-8x8.onnx",
        env!("CARGO_MANIFEST_DIR")
    );
    let (set, game) = set_game("f5d6");
    for player in [
        format!("value:model={model}"),
        format!("policy:model={model}"),
        "alphabeta".to_owned(),
    ] {
        let mut nb = Session::start(&player);
        nb.send("nboard 2");
        nb.send("set depth 2");
        nb.send(&set);
        nb.send("hint 2");
        let hints: Vec<String> = nb
            .until_line("status")
            .into_iter()
            .filter(|l| l.starts_with("search"))
            .collect();
        assert!(!hints.is_empty(), "{player}");
        for line in &hints {
            assert!(game.position().is_legal(search_fields(line).0[0]), "{line}");
        }
        nb.send("go");
        let (mv, eval, _) = go_fields(&nb.until("===").pop().expect("a move"));
        assert!(game.position().is_legal(mv), "{player}");
        // Only the classic players say nothing of the move's value.
        assert_eq!(eval.is_some(), !player.starts_with("alphabeta"), "{player}");
        let stderr = nb.finish();
        assert!(stderr.is_empty(), "{player}: {stderr}");
    }
}

#[test]
fn a_spec_that_cannot_play_fails_before_the_session() {
    let out = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["nboard", "--player", "mcts:model=/nonexistent.onnx"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("/nonexistent.onnx"), "{stderr}");
}

#[test]
fn in_the_agents_book_hints_are_book_lines_with_the_books_values() {
    let path = format!("{}/../../books/8x8.book", env!("CARGO_MANIFEST_DIR"));
    let book = engine::book::Book::from_bytes(&std::fs::read(&path).expect("the shipped book"))
        .expect("it reads");
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let expected: Vec<_> = book
        .moves(&start)
        .expect("the start is in the book")
        .into_iter()
        .filter(|m| m.in_book)
        .collect();
    let mut nb = Session::start(&format!("mcts:sims=50,book={path}"));
    nb.send("nboard 2");
    nb.send(&set_game("").0);
    nb.send("hint 4");
    let lines = nb.until_line("status");
    let hints: Vec<(Vec<Move>, f64, String)> = lines
        .iter()
        .filter(|l| l.starts_with("book "))
        .map(|l| search_fields(&l.replacen("book ", "search ", 1)))
        .collect();
    assert!(!lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
    assert_eq!(hints.len(), expected.len().min(4), "{lines:?}");
    for ((pv, eval, _), m) in hints.iter().zip(&expected) {
        assert_eq!(pv[0], m.mv);
        assert!(
            (eval - f64::from(m.value)).abs() < 0.01,
            "{eval} against {}",
            m.value
        );
    }
    nb.finish();
}
