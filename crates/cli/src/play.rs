//! `othello play`: a person against the agent in the terminal.

use crate::analyse::render;
use anyhow::Result;
use engine::mcts::{Mcts, MctsConfig};
use engine::{Budget, Evaluator};
use othello::{Color, Game, Move, Position};
use std::io::{BufRead, Write};

const HELP: &str =
    "moves like d3; 'hint' asks the agent; 'undo' takes back your last move; 'quit' ends";

/// Plays until the game ends or the person quits. Bad input is explained and asked again;
/// it never changes the game.
pub fn play<E: Evaluator>(
    mut mcts: Mcts<E>,
    start: Position,
    human: Color,
    budget: Budget,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Game> {
    let mut game = Game::new(start);
    writeln!(out, "You play {human}. {HELP}.")?;
    loop {
        let pos = *game.position();
        writeln!(out, "\n{pos}")?;
        if pos.is_game_over() {
            break;
        }
        if pos.must_pass() {
            writeln!(out, "{} has no move and passes.", pos.side_to_move())?;
            game.push(Move::Pass)?;
            continue;
        }
        if pos.side_to_move() != human {
            let info = mcts.search(&pos, &budget, &mut |_| true)?;
            let mv = info.best_move().unwrap_or(Move::Pass);
            writeln!(
                out,
                "Agent plays {mv} (win estimate {:.0}%, {} simulations).",
                info.win_probability() * 100.0,
                info.simulations
            )?;
            game.push(mv)?;
            continue;
        }
        write!(out, "Your move: ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out, "\nGoodbye. The game so far: {}", game.transcript(true))?;
            return Ok(game);
        }
        let text = line.trim();
        match text {
            "quit" | "exit" => {
                writeln!(out, "The game so far: {}", game.transcript(true))?;
                return Ok(game);
            }
            "help" | "?" => writeln!(out, "{HELP}.")?,
            "hint" => {
                let info = mcts.search(&pos, &budget, &mut |_| true)?;
                write!(out, "{}", render(&pos, &info))?;
            }
            "undo" => {
                // Back to the person's previous turn: their move and the agent's replies.
                let mut undone = false;
                while let Some(_mv) = game.pop() {
                    undone = true;
                    if game.position().side_to_move() == human && !game.position().must_pass() {
                        break;
                    }
                }
                if !undone {
                    writeln!(out, "Nothing to undo.")?;
                }
            }
            _ => match Move::parse(text, pos.size()) {
                Err(e) => writeln!(out, "{e}. {HELP}.")?,
                Ok(mv) => {
                    if let Err(e) = game.push(mv) {
                        writeln!(out, "{e}.")?;
                    }
                }
            },
        }
    }
    let outcome = game.position().outcome();
    if let Some(outcome) = outcome {
        writeln!(
            out,
            "Game over: {outcome}. Transcript: {}",
            game.transcript(true)
        )?;
    }
    Ok(game)
}

pub fn default_config(seed: u64) -> MctsConfig {
    MctsConfig {
        seed,
        ..MctsConfig::default()
    }
}
