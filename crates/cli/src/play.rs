//! `othello play`: a person against the agent in the terminal, on the same game state the
//! web page plays on (forced passes, undo back to the person's turn).

use crate::analyse::render;
use crate::args::AgentArgs;
use anyhow::Result;
use engine::{Budget, ModelSource};
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
            let why = match info.solved {
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
            };
            writeln!(out, "Agent plays {mv} ({why}).")?;
            state.play_agent(mv)?;
            continue;
        }
        write!(out, "Your move: ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(
                out,
                "\nGoodbye. The game so far: {}",
                state.game.transcript(true)
            )?;
            return Ok(state);
        }
        let text = line.trim();
        match text {
            "quit" | "exit" => {
                writeln!(out, "The game so far: {}", state.game.transcript(true))?;
                return Ok(state);
            }
            "help" | "?" => writeln!(out, "{HELP}.")?,
            "hint" => {
                let info = player.think(&pos, &budget, &mut |_| true)?;
                write!(out, "{}", render(&pos, &info))?;
            }
            "undo" => {
                if state.undo() {
                    announced = state.game.moves().len();
                } else {
                    writeln!(out, "Nothing to undo.")?;
                }
            }
            _ => match Move::parse(text, pos.size()) {
                Err(e) => writeln!(out, "{e}. {HELP}.")?,
                Ok(mv) => {
                    if let Err(e) = state.play_human(mv) {
                        writeln!(out, "{e}.")?;
                    }
                }
            },
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
