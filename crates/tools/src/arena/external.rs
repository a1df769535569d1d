//! Other programs as arena players, so that strength is measured against engines that are
//! not ours. Two ways to talk to one, as cutechess-cli drives chess engines by protocol:
//!
//! - `nboard`: a program speaking the NBoard protocol (version 2) on stdin and stdout, as
//!   `othello nboard`, NTest and Edax do. One process a game: `nboard 2`, `set depth D`
//!   when the definition names a depth, then for each of its moves `set game <GGF>` (the
//!   whole game so far) and `go`, and its answer is the `=== <move>` line (`=== f5/1.0/0.3`
//!   in version 2, `=== f5 1.0 0.3` in Edax's version 1). Other lines are ignored.
//! - `move`: a command run once a move, for engines without a protocol (Zebra's
//!   non-interactive mode behind a small script, say). Its arguments may hold `{moves}`
//!   (the game from the start, `f5d6c3`, passes written), `{board}` (the board text of
//!   `othello show`, without the side), `{side}` (`X` or `O`, the side to move) and
//!   `{ms}` (the milliseconds it may take); with none of them, the position comes on
//!   stdin as one line of board text (`<squares> <X|O>`). Its answer is the first word it
//!   prints on stdout.
//!
//! A program that cannot be started, exits, overruns its time, answers garbage or plays an
//! illegal move ends its game, which it loses, with the reason in the game's record
//! ([`EngineFault`]); the match goes on. Nothing waits for ever: every answer has a
//! deadline, and a process still running at the end of its game is killed.

use othello::{Color, Game, GgfGame, Move, Position};
use serde::Serialize;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use thiserror::Error;
use web_time::Instant;

/// How an arena talks to another program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Protocol {
    /// The NBoard protocol, with the depth `set depth` asks for (none: the engine's own).
    Nboard { depth: Option<u32> },
    /// A command run once a move.
    PerMove,
}

/// Another program as a player: `NAME=nboard[:DEPTH] PROGRAM ARGS...` or
/// `NAME=move PROGRAM ARGS...`, the command split as a POSIX shell splits words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineCommand {
    pub name: String,
    /// The definition as given, for records.
    pub definition: String,
    pub protocol: Protocol,
    pub program: String,
    pub args: Vec<String>,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum EngineDefinitionError {
    #[error("--engine '{0}': expected NAME=nboard[:DEPTH] COMMAND... or NAME=move COMMAND...")]
    Syntax(String),
    #[error("--engine '{0}': the name must be one word of letters, digits, '-', '_' or '.'")]
    BadName(String),
    #[error("--engine '{name}': '{protocol}' is not a protocol (nboard, nboard:DEPTH or move)")]
    BadProtocol { name: String, protocol: String },
    #[error("--engine '{0}': the command has an unclosed quote")]
    Quotes(String),
    #[error("--engine '{0}': no command after the protocol")]
    NoCommand(String),
}

impl std::str::FromStr for EngineCommand {
    type Err = EngineDefinitionError;

    fn from_str(text: &str) -> Result<EngineCommand, EngineDefinitionError> {
        let (name, rest) = text
            .split_once('=')
            .ok_or_else(|| EngineDefinitionError::Syntax(text.to_owned()))?;
        let name = name.trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        {
            return Err(EngineDefinitionError::BadName(name.to_owned()));
        }
        let words =
            shlex::split(rest).ok_or_else(|| EngineDefinitionError::Quotes(name.to_owned()))?;
        let mut words = words.into_iter();
        let protocol_word = words
            .next()
            .ok_or_else(|| EngineDefinitionError::Syntax(text.to_owned()))?;
        let bad_protocol = || EngineDefinitionError::BadProtocol {
            name: name.to_owned(),
            protocol: protocol_word.clone(),
        };
        let protocol = match protocol_word.split_once(':') {
            None if protocol_word == "nboard" => Protocol::Nboard { depth: None },
            None if protocol_word == "move" => Protocol::PerMove,
            Some(("nboard", depth)) => match depth.parse::<u32>() {
                Ok(d) if (1..=60).contains(&d) => Protocol::Nboard { depth: Some(d) },
                _ => return Err(bad_protocol()),
            },
            _ => return Err(bad_protocol()),
        };
        let program = words
            .next()
            .ok_or_else(|| EngineDefinitionError::NoCommand(name.to_owned()))?;
        Ok(EngineCommand {
            name: name.to_owned(),
            definition: text.trim().to_owned(),
            protocol,
            program,
            args: words.collect(),
        })
    }
}

impl fmt::Display for EngineCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl EngineCommand {
    /// A player for one game. A program that speaks NBoard is started now; one run once a
    /// move is started at each move.
    pub fn start(&self) -> Result<ExternalPlayer, EngineFault> {
        let session = match self.protocol {
            Protocol::Nboard { depth } => Some(NboardSession::start(self, depth)?),
            Protocol::PerMove => None,
        };
        Ok(ExternalPlayer {
            command: self.clone(),
            session,
        })
    }
}

/// Why another program lost its game without finishing it.
#[derive(Clone, Debug, Error, PartialEq, Serialize)]
pub enum EngineFault {
    #[error("could not be started: {0}")]
    Spawn(String),
    #[error("exited ({status}) before it answered{}", last_words(.stderr))]
    Exited { status: String, stderr: String },
    #[error("gave no move within {seconds:.2} s")]
    TimedOut { seconds: f64 },
    #[error("answered '{0}', which is not a move")]
    Garbage(String),
    #[error("played the illegal move {mv} in {position}")]
    Illegal { mv: String, position: String },
    #[error("overran its clock: {used:.2} s used of {allowed:.2} s (with the margin)")]
    Clock { used: f64, allowed: f64 },
}

fn last_words(stderr: &str) -> String {
    let tail = stderr.trim();
    if tail.is_empty() {
        String::new()
    } else {
        format!(": {}", tail.lines().last().unwrap_or_default())
    }
}

/// What a program printed on stderr, the last few kilobytes of it, for the fault's record.
#[derive(Default)]
struct StderrTail {
    bytes: Arc<Mutex<Vec<u8>>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl StderrTail {
    const KEEP: usize = 4096;

    fn collect(&mut self, mut from: impl Read + Send + 'static) {
        let tail = self.bytes.clone();
        self.reader = Some(std::thread::spawn(move || {
            let mut chunk = [0u8; 1024];
            while let Ok(n) = from.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                if let Ok(mut t) = tail.lock() {
                    t.extend_from_slice(&chunk[..n]);
                    let excess = t.len().saturating_sub(Self::KEEP);
                    t.drain(..excess);
                }
            }
        }));
    }

    /// The text so far, after waiting a little for the rest of a program that has exited
    /// (its last words may still be in the pipe).
    fn text(&self) -> String {
        for _ in 0..50 {
            if self
                .reader
                .as_ref()
                .is_none_or(std::thread::JoinHandle::is_finished)
            {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.bytes
            .lock()
            .map(|t| String::from_utf8_lossy(&t).into_owned())
            .unwrap_or_default()
    }
}

/// Starts `command` with its standard streams piped.
fn spawn(command: &EngineCommand, args: &[String]) -> Result<Child, EngineFault> {
    Command::new(&command.program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| EngineFault::Spawn(format!("{}: {e}", command.program)))
}

/// Sends stdout's lines (invalid UTF-8 replaced) to a channel, which closes at the end.
fn line_reader(from: impl Read + Send + 'static) -> Receiver<String> {
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(from);
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match reader.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&bytes).trim().to_owned();
                    if sender.send(line).is_err() {
                        return;
                    }
                }
            }
        }
    });
    lines
}

/// The status of a child that has exited, or "still running", after a short grace for its
/// exit to be reaped.
fn exit_status(child: &mut Child) -> String {
    for _ in 0..50 {
        if let Ok(Some(status)) = child.try_wait() {
            return status.to_string();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    "its output closed".to_owned()
}

/// Ends a child: politely where it has stdin, then by force.
fn end(child: &mut Child) {
    if matches!(child.try_wait(), Ok(None)) {
        let _ = child.kill();
    }
    let _ = child.wait();
}

/// One game's NBoard process.
struct NboardSession {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: StderrTail,
}

impl NboardSession {
    fn start(command: &EngineCommand, depth: Option<u32>) -> Result<NboardSession, EngineFault> {
        let mut child = spawn(command, &command.args)?;
        let (Some(stdin), Some(stdout), Some(stderr_pipe)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            end(&mut child);
            return Err(EngineFault::Spawn(
                "its standard streams were not piped".into(),
            ));
        };
        let mut stderr = StderrTail::default();
        stderr.collect(stderr_pipe);
        let mut session = NboardSession {
            child,
            stdin,
            lines: line_reader(stdout),
            stderr,
        };
        session.send("nboard 2")?;
        if let Some(depth) = depth {
            session.send(&format!("set depth {depth}"))?;
        }
        Ok(session)
    }

    fn send(&mut self, line: &str) -> Result<(), EngineFault> {
        let written = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        written.map_err(|_| self.exited())
    }

    fn exited(&mut self) -> EngineFault {
        EngineFault::Exited {
            status: exit_status(&mut self.child),
            stderr: self.stderr.text(),
        }
    }

    /// The move the engine chooses for the game's position, within `limit`.
    fn choose(&mut self, game: &Game, limit: Duration) -> Result<String, EngineFault> {
        let record = GgfGame::new(game.clone());
        self.send(&format!("set game {record}"))?;
        self.send("go")?;
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(answer) = line.strip_prefix("===") {
                        // `=== f5/eval/time` (version 2) or `=== f5 eval time` (version 1).
                        let word = answer.split_whitespace().next().unwrap_or_default();
                        return Ok(word.split('/').next().unwrap_or_default().to_owned());
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineFault::TimedOut {
                        seconds: limit.as_secs_f64(),
                    })
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
            }
        }
    }
}

impl Drop for NboardSession {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // A well-behaved engine quits at once; one that does not is killed.
        for _ in 0..20 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        end(&mut self.child);
    }
}

/// Another program playing one game.
pub struct ExternalPlayer {
    command: EngineCommand,
    session: Option<NboardSession>,
}

impl fmt::Debug for ExternalPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExternalPlayer")
            .field("command", &self.command)
            .finish_non_exhaustive()
    }
}

impl ExternalPlayer {
    /// The program's move in the game's position, within `limit`, checked against the
    /// rules.
    pub fn choose(&mut self, game: &Game, limit: Duration) -> Result<Move, EngineFault> {
        let position = *game.position();
        let word = match &mut self.session {
            Some(session) => session.choose(game, limit)?,
            None => run_once(&self.command, game, limit)?,
        };
        let mv = Move::parse(&word, position.size())
            .ok()
            .or_else(|| (word == "--" || word == "@@").then_some(Move::Pass))
            .ok_or_else(|| EngineFault::Garbage(word.clone()))?;
        // An engine may leave out a pass the rules force, as `move` lines may.
        if position.must_pass() && mv == Move::Pass {
            return Ok(mv);
        }
        if position.is_legal(mv) {
            Ok(mv)
        } else {
            Err(EngineFault::Illegal {
                mv: mv.to_string(),
                position: position.to_board_text(),
            })
        }
    }
}

/// The arguments of a command run once a move, its placeholders filled in, and whether it
/// wants the position on stdin (it names none).
fn move_arguments(args: &[String], game: &Game, limit: Duration) -> (Vec<String>, bool) {
    let position: &Position = game.position();
    let board_text = position.to_board_text();
    let (board, _) = board_text.split_once(' ').unwrap_or((&board_text, ""));
    let side = match position.side_to_move() {
        Color::Black => "X",
        Color::White => "O",
    };
    let moves = game.transcript(true);
    let ms = limit.as_millis().to_string();
    let mut named = false;
    let filled = args
        .iter()
        .map(|arg| {
            named |= ["{moves}", "{board}", "{side}", "{ms}"]
                .iter()
                .any(|p| arg.contains(p));
            arg.replace("{moves}", &moves)
                .replace("{board}", board)
                .replace("{side}", side)
                .replace("{ms}", &ms)
        })
        .collect();
    (filled, !named)
}

/// Runs a per-move command and returns the first word it printed.
fn run_once(command: &EngineCommand, game: &Game, limit: Duration) -> Result<String, EngineFault> {
    let (args, on_stdin) = move_arguments(&command.args, game, limit);
    let mut child = spawn(command, &args)?;
    let mut stderr = StderrTail::default();
    if let Some(pipe) = child.stderr.take() {
        stderr.collect(pipe);
    }
    if let Some(mut stdin) = child.stdin.take() {
        if on_stdin {
            let _ = writeln!(stdin, "{}", game.position().to_board_text());
        }
        // Dropping stdin closes it: the command reads to its end.
    }
    let Some(stdout) = child.stdout.take() else {
        end(&mut child);
        return Err(EngineFault::Spawn("its stdout was not piped".into()));
    };
    let lines = line_reader(stdout);
    let deadline = Instant::now() + limit;
    let answer = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => {
                if let Some(word) = line.split_whitespace().next() {
                    break Ok(word.to_owned());
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                break Err(EngineFault::TimedOut {
                    seconds: limit.as_secs_f64(),
                })
            }
            Err(RecvTimeoutError::Disconnected) => {
                break Err(EngineFault::Exited {
                    status: exit_status(&mut child),
                    stderr: stderr.text(),
                })
            }
        }
    };
    end(&mut child);
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_read_name_protocol_and_command() {
        let engine: EngineCommand = "zebra10=move ./zebra-move 10 '{moves}'"
            .parse()
            .expect("valid");
        assert_eq!(engine.name, "zebra10");
        assert_eq!(engine.protocol, Protocol::PerMove);
        assert_eq!(engine.program, "./zebra-move");
        assert_eq!(engine.args, ["10", "{moves}"]);
        let nboard: EngineCommand = "self=nboard:12 othello nboard --player 'alphabeta:depth=2'"
            .parse()
            .expect("valid");
        assert_eq!(nboard.protocol, Protocol::Nboard { depth: Some(12) });
        assert_eq!(nboard.args, ["nboard", "--player", "alphabeta:depth=2"]);
        assert_eq!(
            nboard.definition,
            "self=nboard:12 othello nboard --player 'alphabeta:depth=2'"
        );
    }

    #[test]
    fn bad_definitions_say_what_is_wrong() {
        for (text, want) in [
            ("zebra", "expected NAME=nboard"),
            ("ze bra=move x", "the name must be one word"),
            ("z=uci x", "'uci' is not a protocol"),
            ("z=nboard:99 x", "'nboard:99' is not a protocol"),
            ("z=move", "no command after the protocol"),
            ("z=move 'x", "unclosed quote"),
        ] {
            let error = text.parse::<EngineCommand>().expect_err(text).to_string();
            assert!(error.contains(want), "{text}: {error}");
        }
    }

    #[test]
    fn placeholders_are_filled_and_without_them_the_position_goes_to_stdin() {
        let start = Position::start(othello::BoardSize::Eight, othello::Variant::Standard);
        let game = Game::from_transcript("f5d6", start).expect("legal");
        let args = ["{moves}", "{side}", "b={board}", "{ms}"].map(String::from);
        let (filled, stdin) = move_arguments(&args, &game, Duration::from_millis(1500));
        assert!(!stdin);
        assert_eq!(filled[0], "f5d6");
        assert_eq!(filled[1], "X");
        assert_eq!(
            filled[2],
            format!("b={}", &game.position().to_board_text()[..64])
        );
        assert_eq!(filled[3], "1500");
        let (plain, stdin) = move_arguments(&["10".to_owned()], &game, Duration::from_secs(1));
        assert!(stdin);
        assert_eq!(plain, ["10"]);
    }
}
