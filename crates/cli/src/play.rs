//! `othello play`: a person against the agent in the terminal, on the same game state the
//! web page plays on (forced passes, undo back to the person's turn).

use crate::analyse::render;
use crate::args::AgentArgs;
use anyhow::Result;
use engine::{Agent, Budget, ModelSource, SearchInfo};
use othello::{Color, GameState, Move, Position, Seats};
use std::io::{BufRead, Write};

const HELP: &str =
    "moves like d3; 'hint' asks the agent; 'undo' takes back your last move; 'quit' ends";

/// Plays until the game ends or the person quits. Bad input is explained and asked again;
/// it never changes the game.
pub fn play(
    agent: &AgentArgs,
    models: &dyn ModelSource,
    start: Position,
    human: Color,
    budget: Budget,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<GameState> {
    agent
        .player
        .check_game(start.size(), start.variant(), models)?;
    crate::args::warn_without_book(&agent.player, start.size(), start.variant(), models);
    let (mut player, _) = agent.player.build(agent.seed.seed, models)?;
    let mut state = GameState::new(start, Seats::Human(human));
    writeln!(out, "You play {human}. {HELP}.")?;
    let mut announced = state.game.moves().len();
    loop {
        if state.game.moves().len() != announced {
            announced = state.game.moves().len();
            if let Some(notice) = state.pass_notice() {
                writeln!(out, "{notice}.")?;
            }
        }
        let pos = *state.position();
        writeln!(out, "\n{pos}")?;
        if pos.is_game_over() {
            break;
        }
        if state.agent_to_move() {
            let info = player.think(&pos, &budget, &mut |_| true)?;
            let mv = info.best_move().unwrap_or(Move::Pass);
            writeln!(out, "Agent plays {mv} ({}).", why(&info))?;
            state.play_agent(mv)?;
            continue;
        }
        let mut turn = Turn {
            player: player.as_mut(),
            budget: &budget,
            state: &mut state,
            announced: &mut announced,
            out: &mut *out,
        };
        if !turn.person(&pos, input)? {
            return Ok(state);
        }
    }
    if let Some(outcome) = state.position().outcome() {
        writeln!(
            out,
            "Game over: {outcome}. Transcript: {}",
            state.game.transcript(true)
        )?;
    }
    Ok(state)
}

/// Why the agent chose its move, in a few words: the solver's margin or result, the book,
/// or the search's estimate.
fn why(info: &SearchInfo) -> String {
    match info.solved {
        Some(s) if s.is_exact() => format!("exact solve: margin {:+}", s.margin),
        Some(s) => format!("proven: {}", s.verdict()),
        None if info.book.is_some() => {
            format!(
                "book move, value {:+.1} discs",
                info.score.unwrap_or_default()
            )
        }
        None => format!(
            "win estimate {:.0}%, {} simulations",
            info.win_probability() * 100.0,
            info.simulations
        ),
    }
}

/// What the person's turn works on: the agent (for hints), the game, and the number of
/// moves already announced (an undo winds it back).
struct Turn<'a> {
    player: &'a mut dyn Agent,
    budget: &'a Budget,
    state: &'a mut GameState,
    announced: &'a mut usize,
    out: &'a mut dyn Write,
}

impl Turn<'_> {
    /// Reads one line and does what it asks: a move, a hint, an undo, help. Returns
    /// `false` when the person quits or the input ends (the game so far is printed).
    fn person(&mut self, pos: &Position, input: &mut dyn BufRead) -> Result<bool> {
        write!(self.out, "Your move: ")?;
        self.out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(
                self.out,
                "\nGoodbye. The game so far: {}",
                self.state.game.transcript(true)
            )?;
            return Ok(false);
        }
        let text = line.trim();
        match text {
            "quit" | "exit" => {
                writeln!(
                    self.out,
                    "The game so far: {}",
                    self.state.game.transcript(true)
                )?;
                return Ok(false);
            }
            "help" | "?" => writeln!(self.out, "{HELP}.")?,
            "hint" => {
                let info = self.player.think(pos, self.budget, &mut |_| true)?;
                write!(self.out, "{}", render(pos, &info))?;
            }
            "undo" => {
                if self.state.undo() {
                    *self.announced = self.state.game.moves().len();
                } else {
                    writeln!(self.out, "Nothing to undo.")?;
                }
            }
            _ => match Move::parse(text, pos.size()) {
                Err(e) => writeln!(self.out, "{e}. {HELP}.")?,
                Ok(mv) => {
                    if let Err(e) = self.state.play_human(mv) {
                        writeln!(self.out, "{e}.")?;
                    }
                }
            },
        }
        Ok(true)
    }
}
