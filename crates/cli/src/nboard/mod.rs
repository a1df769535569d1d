//! `othello nboard`: the agent as an engine for the NBoard GUI, speaking the NBoard protocol
//! (version 2) on stdin and stdout. How to plug it in: the README's command-line section.
//!
//! What was followed: Chris Welty's protocol description shipped with NTest
//! (`instructions/Protocol.htm` in github.com/weltyc/ntest at b2dd603) and NTest's loop
//! (`src/GameX.cpp` there), checked against Edax's `src/nboard.c` and `src/ui.c`
//! (github.com/abulmo/edax-reversi at 14f048c; that Edax speaks version 1: `nboard 1`,
//! `=== d6 -1.00 0.0` with spaces, and no `learned`). From them:
//! - one command a line; unknown commands and unknown `set` variables are ignored (the
//!   description: "If you get a command you don't understand you should ignore the entire
//!   line"); a message the engine cannot use gets one `error: ...` line on stderr, as Edax's
//!   `nboard_fail` does, and the engine keeps its state;
//! - `set myname <one word>`, sent when the session starts and after `set depth`, as NTest
//!   (`Ntest<depth>`) and Edax (`Edax<level>`) do;
//! - `hint n`: `search <pv> <eval> 0 <depth> <text>` per move, the pv one word
//!   (`f5-d6-c3`: "must not contain any whitespace"), eval in discs from the side to move,
//!   depth `100%` for an exact solve and `100%W` for a proven win/loss/draw;
//! - `go`: `=== <move>/<eval>/<seconds>` (the description's "Best" form), without changing
//!   the board (the GUI answers with `move`); the eval is left out for a forced move and for
//!   players that do not evaluate;
//! - `ping n` stops the thinking first, then answers `pong n` ("it must stop analyzing
//!   before sending pong n"); `learn` answers `learned`; `analyze` answers `analysis <moves
//!   made> <eval>` per position, eval from Black's side (NBoard's evaluation graph draws
//!   every series from Black's side);
//! - `status <text>` and `nodestats <nodes> <seconds>` while thinking; every line flushed.
//!
//! Commands run one after another on the main thread, as in NTest. A reader thread takes
//! stdin line by line, and when it reads `ping` (or `quit`) it raises an interrupt, as
//! Edax's `ui_read_input` calls `play_stop` on `ping`: the search running now stops (the MCTS
//! search after its current batch, through its stop flag; other players between their
//! progress reports), and so does every search whose command came before the `ping` and
//! has not started yet: the GUI reads nothing before its `pong` anyway. A stopped search
//! sends nothing more. At the end of the input the queued commands still run.

mod report;
mod session;

use crate::args::SeedArg;
use anyhow::{anyhow, Context, Result};
use clap::Args;
use engine::PlayerSpec;
use session::{Engine, Flow, Interrupts};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use tools::models::ModelFiles;

#[derive(Args)]
pub struct NboardArgs {
    /// The agent, as a player spec (default: the shipped network,
    /// mcts:model=models/az-8x8.onnx, from the current folder or the repository)
    #[arg(long)]
    player: Option<PlayerSpec>,
    #[command(flatten)]
    seed: SeedArg,
}

/// The shipped network the engine plays by default.
const DEFAULT_MODEL: &str = "models/az-8x8.onnx";

/// `models/az-8x8.onnx` in the current folder (where NBoard starts the engine), else in the
/// repository this binary was built from, else beside the binary or above it.
fn default_model() -> Result<PathBuf> {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut candidates = vec![PathBuf::from(DEFAULT_MODEL), repository.join(DEFAULT_MODEL)];
    if let Ok(exe) = std::env::current_exe() {
        candidates.extend(exe.ancestors().skip(1).map(|dir| dir.join(DEFAULT_MODEL)));
    }
    let found = candidates
        .into_iter()
        .find(|path| path.is_file())
        .ok_or_else(|| {
            anyhow!(
                "the default network {DEFAULT_MODEL} is neither in the current folder nor in {}; \
             name one with --player mcts:model=PATH",
                repository.display()
            )
        })?;
    Ok(found.canonicalize().unwrap_or(found))
}

impl NboardArgs {
    fn spec(&self) -> Result<PlayerSpec> {
        if let Some(spec) = &self.player {
            return Ok(spec.clone());
        }
        let model = default_model()?;
        format!("mcts:model={}", model.display())
            .parse()
            .context("the default player")
    }
}

pub fn run(args: NboardArgs, models: ModelFiles) -> Result<()> {
    let spec = args.spec()?;
    // A spec or a model that cannot work fails now, not at the GUI's first `go`.
    spec.build(args.seed.seed, &models)?;
    let interrupts = Interrupts::default();
    let (sender, lines) = mpsc::channel();
    let reader = interrupts.clone();
    std::thread::spawn(move || read_input(std::io::stdin().lock(), &sender, &reader));
    let mut engine = Engine::new(spec, args.seed.seed, models, std::io::stdout(), interrupts);
    for line in lines {
        if engine.handle(&line)? == Flow::Quit {
            break;
        }
    }
    Ok(())
}

/// Passes stdin on line by line (invalid UTF-8 replaced, so garbage cannot end the
/// session), raising an interrupt for every `ping` and `quit` before passing it on.
fn read_input(mut input: impl BufRead, lines: &mpsc::Sender<String>, interrupts: &Interrupts) {
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&bytes).into_owned();
        if matches!(line.split_whitespace().next(), Some("ping" | "quit")) {
            interrupts.raise();
        }
        if lines.send(line).is_err() {
            return;
        }
    }
}
