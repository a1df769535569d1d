//! The engine's state (the game, the depth, the agent) and what it does with each message.

use super::report::{
    book_line, depth_budget, depth_text, discs_from_q, move_discs, move_word, search_line,
    simulations_for_depth,
};
use anyhow::Result;
use engine::report::{MoveInfo, SearchInfo};
use engine::{Agent, Budget, EvalError, Evaluator, Mcts, PlayerKind, PlayerSpec};
use othello::ggf::parse_move_text;
use othello::{BoardSize, Color, Game, GgfGame, Move, Position, Variant};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tools::models::ModelFiles;

/// How often a search reports `nodestats` and its current best move in `status`.
const REPORT_EVERY: Duration = Duration::from_millis(500);

/// The one name NBoard shows for the engine (it reads a single word).
const NAME: &str = "OthelloZero";

/// `ping` and `quit` lines the reader has seen, against those the engine has handled: while
/// the reader is ahead, every search started before them must stop.
#[derive(Clone, Default)]
pub struct Interrupts {
    raised: Arc<AtomicU64>,
    /// The stop flag of the MCTS search running now, if any.
    running: Arc<Mutex<Option<Arc<AtomicBool>>>>,
}

impl Interrupts {
    /// The reader saw a `ping` or `quit`.
    pub fn raise(&self) {
        self.raised.fetch_add(1, Ordering::SeqCst);
        if let Ok(running) = self.running.lock() {
            if let Some(flag) = running.as_ref() {
                flag.store(true, Ordering::SeqCst);
            }
        }
    }

    fn watch(&self, flag: Option<Arc<AtomicBool>>) {
        if let Ok(mut running) = self.running.lock() {
            *running = flag;
        }
    }
}

/// Whether the session goes on after a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The agent, built for one board and variant.
enum Player {
    /// The AlphaZero agent, kept concrete: hints drive its search directly and read the
    /// line after each move off its tree.
    Mcts(Box<Mcts<Box<dyn Evaluator + Send>>>),
    Other(Box<dyn Agent>),
}

impl Player {
    /// The player as the one interface every agent has.
    fn agent(&mut self) -> &mut dyn Agent {
        match self {
            Player::Mcts(player) => player.as_mut(),
            Player::Other(agent) => agent.as_mut(),
        }
    }
}

struct Seat {
    size: BoardSize,
    variant: Variant,
    player: Player,
    /// The network has a score output, so the search's expected margin is worth reporting.
    scores: bool,
}

/// One hint: a move's line, its evaluation in discs for the side to move, its depth.
struct Hint {
    line: Vec<Move>,
    discs: f64,
    depth: String,
    text: String,
    /// A book move: sent as a `book` line, which NBoard shows as the book's.
    book: bool,
}

/// A search stopped by an interrupt: it sends nothing more.
struct Stopped;

pub struct Engine<W: Write> {
    spec: PlayerSpec,
    seed: u64,
    models: ModelFiles,
    out: W,
    interrupts: Interrupts,
    /// Interrupts the engine has handled (`ping` and `quit` lines it has read).
    handled: u64,
    game: Game,
    depth: Option<u32>,
    /// Draws are worth this much to Black (NBoard's `set contempt`); kept, though with no
    /// opening book there is nothing it changes.
    contempt: f64,
    seat: Option<Seat>,
}

impl<W: Write> Engine<W> {
    pub fn new(
        spec: PlayerSpec,
        seed: u64,
        models: ModelFiles,
        out: W,
        interrupts: Interrupts,
    ) -> Engine<W> {
        Engine {
            spec,
            seed,
            models,
            out,
            interrupts,
            handled: 0,
            game: Game::new(Position::start(BoardSize::Eight, Variant::Standard)),
            depth: None,
            contempt: 0.0,
            seat: None,
        }
    }

    /// Handles one line from the GUI. Errors are only those of writing to it.
    pub fn handle(&mut self, line: &str) -> Result<Flow> {
        let line = line.trim();
        let (command, rest) = split_word(line);
        match command {
            "nboard" => self.send(&format!("set myname {NAME}"))?,
            "set" => {
                let (variable, value) = split_word(rest);
                match variable {
                    "depth" => self.set_depth(value)?,
                    "game" => self.set_game(value),
                    "contempt" => match value.parse::<f64>() {
                        Ok(contempt) if contempt.is_finite() => self.contempt = contempt,
                        _ => fail(&format!("set contempt: '{value}' is not a number")),
                    },
                    _ => {}
                }
            }
            "move" => self.play(rest),
            "hint" => match rest.parse::<usize>() {
                Ok(n) if n > 0 => self.hint(n)?,
                _ => fail(&format!("hint: '{rest}' is not a number of moves")),
            },
            "go" => self.go()?,
            "ping" => {
                self.handled += 1;
                self.send(&format!("pong {rest}"))?;
            }
            "learn" => self.send("learned")?,
            "analyze" => self.analyze()?,
            "quit" => return Ok(Flow::Quit),
            _ => {}
        }
        Ok(Flow::Continue)
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()?;
        Ok(())
    }

    fn interrupted(&self) -> bool {
        self.interrupts.raised.load(Ordering::SeqCst) > self.handled
    }

    fn set_depth(&mut self, value: &str) -> Result<()> {
        match value.parse::<u32>() {
            Ok(depth) if (1..=60).contains(&depth) => {
                self.depth = Some(depth);
                self.send(&format!("set myname {NAME}{depth}"))
            }
            _ => {
                fail(&format!("set depth: '{value}' is not a depth from 1 to 60"));
                Ok(())
            }
        }
    }

    fn set_game(&mut self, text: &str) {
        let record = match text.parse::<GgfGame>() {
            Ok(record) => record,
            Err(e) => return fail(&format!("set game: {e}")),
        };
        let start = *record.game().start();
        let new_game = record.game().moves().is_empty();
        let seat = match self.seat_for(start.size(), start.variant()) {
            Ok(seat) => seat,
            Err(e) => {
                return fail(&format!(
                    "set game: {} cannot play {} {}: {e}",
                    self.spec,
                    start.size(),
                    start.variant()
                ))
            }
        };
        // A game with no moves yet is a new game: the agent's game clock (`time_game=`)
        // starts again, and its tree goes.
        if new_game {
            seat.player.agent().new_game();
        }
        self.game = record.into_game();
    }

    /// `move f5/eval/time`: the eval and time are checked and not used.
    fn play(&mut self, text: &str) {
        let size = self.game.position().size();
        let mv = match parse_move_text(text, size) {
            Ok((mv, _)) => mv,
            Err(e) => return fail(&format!("move {text}: {e}")),
        };
        let mut next = self.game.clone();
        // A GUI may leave out a pass the rules force, as records may.
        if mv != Move::Pass && next.position().must_pass() {
            let _ = next.push(Move::Pass);
        }
        match next.push(mv) {
            Ok(_) => self.game = next,
            Err(e) => fail(&format!("move {text}: {e}")),
        }
    }

    /// The agent for a board, built on first use and rebuilt when the board changes.
    fn seat_for(&mut self, size: BoardSize, variant: Variant) -> Result<&mut Seat> {
        let fits = |seat: &Seat| seat.size == size && seat.variant == variant;
        if !self.seat.as_ref().is_some_and(fits) {
            self.seat = None;
            self.spec.check_game(size, variant, &self.models)?;
            crate::args::warn_without_book(&self.spec, size, variant, &self.models);
            let player = if self.spec.kind == PlayerKind::Mcts {
                Player::Mcts(Box::new(self.spec.mcts_player(self.seed, &self.models)?))
            } else {
                Player::Other(self.spec.build(self.seed, &self.models)?.0)
            };
            let scores = self.spec.kind == PlayerKind::Mcts
                && self.spec.model.is_some()
                && self
                    .spec
                    .evaluator(self.seed, &self.models)?
                    .evaluate(&[Position::start(size, variant)])
                    .is_ok_and(|evals| evals.first().is_some_and(|e| e.score.is_some()));
            self.seat = Some(Seat {
                size,
                variant,
                player,
                scores,
            });
        }
        self.seat
            .as_mut()
            .ok_or_else(|| anyhow::anyhow!("no agent for {size} {variant}"))
    }

    /// The budget of a search: the spec's own if it sets one, else what `set depth` buys,
    /// else the agent's default.
    fn budget(&self) -> Budget {
        let spec = self.spec.budget();
        match self.depth {
            Some(depth) if spec.is_unlimited() => depth_budget(self.spec.kind, depth),
            _ if spec.is_unlimited() && self.spec.kind == PlayerKind::Mcts => {
                Budget::simulations(simulations_for_depth(8))
            }
            _ => spec,
        }
    }

    /// Takes the agent for the current position out of the engine for a search (it is put
    /// back by [`Engine::restore`]), saying why on stderr when there is none.
    fn take_seat(&mut self) -> Option<Seat> {
        let pos = *self.game.position();
        if let Err(e) = self.seat_for(pos.size(), pos.variant()) {
            fail(&format!("{}: {e}", self.spec));
            return None;
        }
        self.seat.take()
    }

    fn restore(&mut self, seat: Seat) {
        self.seat = Some(seat);
    }

    fn go(&mut self) -> Result<()> {
        let pos = *self.game.position();
        if pos.is_game_over() {
            fail("go: the game is over");
            return Ok(());
        }
        let Some(mut seat) = self.take_seat() else {
            return Ok(());
        };
        self.send("status thinking")?;
        let budget = self.budget();
        let result = self.think(&mut seat, &pos, &budget);
        self.restore(seat);
        let info = match result {
            Err(Stopped) => return Ok(()),
            Ok(Ok(info)) => info,
            Ok(Err(e)) => {
                fail(&format!("go: {e}"));
                let fallback = pos.legal_move_list().first().copied().unwrap_or(Move::Pass);
                return self.send(&format!("=== {}", move_word(fallback)));
            }
        };
        let fallback = pos.legal_move_list().first().copied().unwrap_or(Move::Pass);
        let mv = info.best_move().unwrap_or(fallback);
        let seconds = info.elapsed.as_secs_f64();
        let forced = pos.legal_move_list().len() == 1;
        let eval = match (info.solved, info.moves.iter().find(|m| m.mv == mv)) {
            _ if forced => None,
            (Some(solved), _) => Some(f64::from(solved.margin)),
            (None, Some(m)) if self.spec.kind == PlayerKind::Mcts => {
                Some(move_discs(m, self.scores(), pos.size()))
            }
            (None, Some(m)) => other_eval(&info, m, self.spec.kind, pos.size()),
            (None, None) => None,
        };
        let eval = eval.map_or_else(String::new, |e| format!("{e:.2}"));
        self.send(&format!("=== {}/{eval}/{seconds:.2}", move_word(mv)))
    }

    fn scores(&self) -> bool {
        self.seat.as_ref().is_some_and(|s| s.scores)
    }

    /// The agent thinks about `pos` as it would in a game, reporting as it goes.
    fn think(
        &mut self,
        seat: &mut Seat,
        pos: &Position,
        budget: &Budget,
    ) -> Result<Result<SearchInfo, EvalError>, Stopped> {
        if self.interrupted() {
            return Err(Stopped);
        }
        if let Player::Mcts(player) = &mut seat.player {
            self.interrupts.watch(Some(player.driver().stop_flag()));
        }
        let agent = seat.player.agent();
        let mut progress = Progress::new(self, seat.scores, pos.size());
        let result = agent.think(pos, budget, &mut |info| progress.report(info));
        self.interrupts.watch(None);
        if self.interrupted() {
            return Err(Stopped);
        }
        Ok(result)
    }

    fn hint(&mut self, n: usize) -> Result<()> {
        let pos = *self.game.position();
        if pos.is_game_over() {
            return Ok(());
        }
        let Some(mut seat) = self.take_seat() else {
            return Ok(());
        };
        self.send("status analysing")?;
        let budget = self.budget();
        let hints = self.hints(&mut seat, &pos, &budget, n);
        self.restore(seat);
        match hints {
            Err(Stopped) => return Ok(()),
            Ok(Err(e)) => fail(&format!("hint: {e}")),
            Ok(Ok(hints)) => {
                for h in hints {
                    let line = if h.book {
                        book_line(&h.line, h.discs, &h.depth, &h.text)
                    } else {
                        search_line(&h.line, h.discs, &h.depth, &h.text)
                    };
                    self.send(&line)?;
                }
            }
        }
        self.send("status")
    }

    /// The best `n` moves of `pos` by the agent: exact margins where the solver reaches,
    /// else the search's view of every move (the AlphaZero agent), else what the agent
    /// reports of its choice.
    fn hints(
        &mut self,
        seat: &mut Seat,
        pos: &Position,
        budget: &Budget,
        n: usize,
    ) -> Result<Result<Vec<Hint>, EvalError>, Stopped> {
        if self.interrupted() {
            return Err(Stopped);
        }
        let size = pos.size();
        let Player::Mcts(player) = &mut seat.player else {
            let info = match self.think(seat, pos, budget)? {
                Ok(info) => info,
                Err(e) => return Ok(Err(e)),
            };
            return Ok(Ok(other_hints(&info, self.spec.kind, size, n)));
        };
        if let Some(hints) = settled_hints(player, pos, n) {
            return Ok(Ok(hints));
        }
        self.interrupts.watch(Some(player.driver().stop_flag()));
        let mut progress = Progress::new(self, seat.scores, size);
        let result = player.search(pos, budget, &mut |info| progress.report(info));
        self.interrupts.watch(None);
        if self.interrupted() {
            return Err(Stopped);
        }
        let info = match result {
            Ok(info) => info,
            Err(e) => return Ok(Err(e)),
        };
        let tree = player.driver().tree();
        let hints = info.moves.iter().take(n).map(|m| {
            let line = tree.line_from(m.mv);
            Hint {
                discs: move_discs(m, seat.scores, size),
                depth: depth_text(false, m.proof, line.len()),
                text: format!(
                    "visits {} prior {:.1}% win {:.1}%",
                    m.visits,
                    100.0 * m.prior,
                    50.0 * (m.q + 1.0)
                ),
                line,
                book: false,
            }
        });
        Ok(Ok(hints.collect()))
    }

    /// Every position of the game from the last back to the start: `analysis <moves made>
    /// <eval>`, eval in discs from Black's side.
    fn analyze(&mut self) -> Result<()> {
        let positions = self.game.positions().to_vec();
        let Some(mut seat) = self.take_seat() else {
            return Ok(());
        };
        let budget = self.budget();
        let mut outcome = Ok(());
        for (made, pos) in positions.iter().enumerate().rev() {
            if let Err(e) = self.send(&format!("status analysing move {made}")) {
                outcome = Err(e);
                break;
            }
            let eval = match pos.outcome() {
                Some(result) => f64::from(result.margin_for(Color::Black)),
                None => match self.hints(&mut seat, pos, &budget, 1) {
                    Err(Stopped) => break,
                    Ok(Err(e)) => {
                        fail(&format!("analyze: {e}"));
                        break;
                    }
                    Ok(Ok(hints)) => {
                        let discs = hints.first().map_or(0.0, |h| h.discs);
                        match pos.side_to_move() {
                            Color::Black => discs,
                            Color::White => -discs,
                        }
                    }
                },
            };
            if let Err(e) = self.send(&format!("analysis {made} {eval:.2}")) {
                outcome = Err(e);
                break;
            }
        }
        self.restore(seat);
        outcome?;
        if self.interrupted() {
            return Ok(());
        }
        self.send("status")
    }
}

/// What a player other than the AlphaZero agent says: the moves it reports, in its order
/// (the network players: every move; the others: the move they chose, with no evaluation).
fn other_hints(info: &SearchInfo, kind: PlayerKind, size: BoardSize, n: usize) -> Vec<Hint> {
    info.moves
        .iter()
        .take(n)
        .map(|m| {
            let line = if info.pv.first() == Some(&m.mv) {
                info.pv.clone()
            } else {
                vec![m.mv]
            };
            let eval = other_eval(info, m, kind, size);
            let text = match (kind, eval) {
                (PlayerKind::Policy, _) => format!(
                    "policy prior {:.1}%, eval of the position (no search)",
                    100.0 * m.prior
                ),
                (_, Some(_)) => format!("{} (no search)", kind.name()),
                (_, None) => format!("{}: its choice, no evaluation", kind.name()),
            };
            Hint {
                discs: eval.unwrap_or(0.0),
                depth: depth_text(info.solved.is_some(), m.proof, line.len()),
                text,
                line,
                book: false,
            }
        })
        .collect()
}

/// A move's evaluation in discs for the side to move by a player other than the AlphaZero
/// agent: the value player's for every move (exact where the move ends the game), the
/// policy player's of the position (its value head has no opinion of single moves), and
/// none for the classic players, which report only their choice.
fn other_eval(info: &SearchInfo, m: &MoveInfo, kind: PlayerKind, size: BoardSize) -> Option<f64> {
    match kind {
        PlayerKind::Value => Some(m.score.map_or_else(|| discs_from_q(m.q, size), f64::from)),
        PlayerKind::Policy => Some(
            info.score
                .map_or_else(|| discs_from_q(info.value, size), f64::from),
        ),
        _ => None,
    }
}

/// The search's reports while it runs: `nodestats` and the current best move, every
/// [`REPORT_EVERY`]; stops the search when an interrupt comes.
struct Progress<'a, W: Write> {
    engine: &'a mut Engine<W>,
    scores: bool,
    size: BoardSize,
    last: Instant,
}

impl<'a, W: Write> Progress<'a, W> {
    fn new(engine: &'a mut Engine<W>, scores: bool, size: BoardSize) -> Progress<'a, W> {
        Progress {
            engine,
            scores,
            size,
            last: Instant::now(),
        }
    }

    fn report(&mut self, info: &SearchInfo) -> bool {
        if self.engine.interrupted() {
            return false;
        }
        if self.last.elapsed() >= REPORT_EVERY {
            self.last = Instant::now();
            let seconds = info.elapsed.as_secs_f64();
            // A GUI that stopped reading will show in the next required line.
            let _ = self
                .engine
                .send(&format!("nodestats {} {seconds:.2}", info.simulations));
            if let Some(best) = info.moves.first() {
                let discs = move_discs(best, self.scores, self.size);
                let _ = self.engine.send(&format!(
                    "status {} {discs:+.1} ({} simulations)",
                    move_word(best.mv),
                    info.simulations
                ));
            }
        }
        true
    }
}

fn split_word(text: &str) -> (&str, &str) {
    match text.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (text, ""),
    }
}

/// A message the GUI sent that the engine cannot use: one line on stderr; the engine keeps
/// its state and goes on.
fn fail(message: &str) {
    let line: String = message.lines().collect::<Vec<_>>().join(" ");
    eprintln!("error: {line}");
}

/// The hints the agent's root decision settles without a search: in its book, the book's
/// moves and values, as it would play them; where its root rule solves, every move's
/// exact margin from its own root solver (one rule, one table). `None`: a search decides.
fn settled_hints(
    player: &mut Mcts<Box<dyn Evaluator + Send>>,
    pos: &Position,
    n: usize,
) -> Option<Vec<Hint>> {
    if let Some(moves) = player.driver().book_moves(pos) {
        if moves.first().is_some_and(|m| m.in_book) {
            let hints = moves
                .into_iter()
                .filter(|m| m.in_book)
                .take(n)
                .map(|m| Hint {
                    line: vec![m.mv],
                    discs: f64::from(m.value),
                    depth: depth_text(false, None, 1),
                    text: "book".into(),
                    book: true,
                });
            return Some(hints.collect());
        }
    }
    let hints = player
        .exact_root_margins(pos)?
        .into_iter()
        .take(n)
        .map(|(mv, margin)| Hint {
            line: vec![mv],
            discs: f64::from(margin),
            depth: depth_text(true, None, 1),
            text: "exact".into(),
            book: false,
        });
    Some(hints.collect())
}
