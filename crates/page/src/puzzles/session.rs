//! One puzzle as the player meets it: the move to find, right (the solver's line plays
//! out), wrong (the reply that refutes it), the answer shown, or the puzzle played out to
//! the end against perfect play. Lichess's puzzle page (`ui/puzzle/`) is the model: a
//! wrong move is refuted on the board and the player may try again, and only the first
//! try counts for the ratings (`record.rs` keeps that rule). The solves come from a
//! worker; this reducer only records what was asked and what came back, so every step is
//! tested without a browser.

use engine::puzzles::{Puzzle, PuzzleKind};
use othello::{Color, Move, Position};

/// Perfect play as the worker answers it: each move with its exact final margin for the
/// side that plays it, or why it could not be had.
pub type Line = Result<Vec<(Move, i32)>, String>;

/// The puzzle on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// `8x8-<index>` for a shipped puzzle, `mine-<n>` for one of the player's mistakes.
    pub id: String,
    pub puzzle: Puzzle,
    /// Where a player's own mistake came from, in words; `None` for a shipped puzzle.
    pub from: Option<String>,
}

/// Where the player is with the puzzle.
#[derive(Clone, Debug, PartialEq)]
pub enum Stage {
    /// Waiting for the player's move.
    Solving,
    /// The answer was found; `line` is perfect play after it (`None` while it is solved).
    Solved { line: Option<Line> },
    /// A wrong move; `line` is perfect play after it, the refuting reply first.
    Refuted { mv: Move, line: Option<Line> },
    /// The player asked for the answer.
    Revealed { line: Option<Line> },
    /// Played out against the solver: the moves since the puzzle's position (the solver's
    /// replies and forced passes included); `waiting` while the solver thinks; `standing`
    /// the final margin for the puzzle's side with perfect play from the solver's last
    /// reply on (its exact value), so that a promise already lost is said at once, not
    /// only at the game's end (the ninth fresh look: "keep the draw" after the draw was
    /// thrown away).
    PlayOut {
        moves: Vec<Move>,
        waiting: bool,
        standing: Option<i32>,
    },
    /// A played-out puzzle at the end of the game: the final margin for the puzzle's side.
    PlayedOut { moves: Vec<Move>, margin: i32 },
    /// The solver could not answer during a play-out.
    Stuck { moves: Vec<Move>, error: String },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    pub shown: Option<Shown>,
    pub stage: Stage,
    /// A wrong move was already played on this puzzle: later tries are retries.
    pub missed: bool,
    /// How many moves of the line the board shows (the line plays out move by move).
    pub step: usize,
    /// Counts the puzzles shown and the play-out's requests, so that a solve answered
    /// after the player moved on is dropped.
    pub generation: u64,
}

impl Default for Session {
    fn default() -> Session {
        Session {
            shown: None,
            stage: Stage::Solving,
            missed: false,
            step: 0,
            generation: 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum SessionAction {
    Show(Shown),
    /// No puzzle to show (none left for the theme chosen).
    Clear,
    /// The player's move on the board (in Solving or PlayOut).
    Play(Move),
    /// Perfect play from the position the stage asked about, for the generation it was
    /// asked in.
    Solved(u64, Line),
    /// One more move of the line onto the board.
    Step,
    TryAgain,
    ShowAnswer,
    /// Play the puzzle to the end against the solver, from the answer on.
    PlayOut,
}

/// What the player's move did, for the caller that moves the ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Try {
    /// A first try: right or wrong.
    First(bool),
    /// A try after a wrong one, or a move of a play-out: no rating moves.
    Again,
}

impl Session {
    /// What a move on the board would be: `None` when the board takes no move now.
    pub fn judge(&self, mv: Move) -> Option<Try> {
        let shown = self.shown.as_ref()?;
        if self.stage != Stage::Solving || !shown.puzzle.position.is_legal(mv) {
            return None;
        }
        Some(if self.missed {
            Try::Again
        } else {
            Try::First(mv == shown.puzzle.answer)
        })
    }

    /// The position the board shows.
    pub fn position(&self) -> Option<Position> {
        let shown = self.shown.as_ref()?;
        Some(play_all(shown.puzzle.position, &self.moves_shown()))
    }

    /// The moves on the board since the puzzle's position: the answer or the wrong move
    /// with as much of its line as is shown, or the play-out's moves.
    pub fn moves_shown(&self) -> Vec<Move> {
        let Some(shown) = &self.shown else {
            return Vec::new();
        };
        let line_moves = |line: &Option<Line>| -> Vec<Move> {
            match line {
                Some(Ok(line)) => line.iter().take(self.step).map(|(mv, _)| *mv).collect(),
                _ => Vec::new(),
            }
        };
        match &self.stage {
            // A shown answer stays a puzzle: the position with the answer marked on it,
            // its line in words (issue 68: the whole line played out left the board at
            // the end, the answer no longer marked).
            Stage::Solving | Stage::Revealed { .. } => Vec::new(),
            Stage::Solved { line } => std::iter::once(shown.puzzle.answer)
                .chain(line_moves(line))
                .collect(),
            Stage::Refuted { mv, line } => std::iter::once(*mv).chain(line_moves(line)).collect(),
            Stage::PlayOut { moves, .. }
            | Stage::PlayedOut { moves, .. }
            | Stage::Stuck { moves, .. } => moves.clone(),
        }
    }

    /// The position the solver is asked about now, with the generation the answer must
    /// carry: after the answer or the wrong move until its line is in, or the play-out's
    /// position on the solver's turn.
    pub fn wanted(&self) -> Option<(u64, Position)> {
        let shown = self.shown.as_ref()?;
        let start = shown.puzzle.position;
        let at = match &self.stage {
            Stage::Solved { line: None } | Stage::Revealed { line: None } => {
                start.play(shown.puzzle.answer).ok()?
            }
            Stage::Refuted { mv, line: None } => start.play(*mv).ok()?,
            Stage::PlayOut {
                moves,
                waiting: true,
                ..
            } => play_all(start, moves),
            _ => return None,
        };
        Some((self.generation, at))
    }

    /// Every move the line under way will have shown at its end ([`Session::moves_shown`]
    /// once it is all on the board), passes included.
    pub fn whole_line(&self) -> Vec<Move> {
        Session {
            step: self.line_len(),
            ..self.clone()
        }
        .moves_shown()
    }

    /// How many moves the line under way shows in all (0 while none is in).
    pub fn line_len(&self) -> usize {
        let line = match &self.stage {
            Stage::Solved { line } | Stage::Revealed { line } => line,
            Stage::Refuted { line, .. } => {
                return usize::from(matches!(line, Some(Ok(l)) if !l.is_empty()))
            }
            _ => return 0,
        };
        match line {
            Some(Ok(l)) => l.len(),
            _ => 0,
        }
    }

    /// Whether the line under way has more moves to show (a refutation shows its reply
    /// alone: the point is made in one move; a shown answer none, since it stays on the
    /// puzzle's position).
    pub fn more_to_show(&self) -> bool {
        !matches!(self.stage, Stage::Revealed { .. }) && self.step < self.line_len()
    }

    fn play(&mut self, mv: Move) {
        let Some(shown) = &self.shown else { return };
        match &mut self.stage {
            Stage::Solving if shown.puzzle.position.is_legal(mv) => {
                self.step = 0;
                self.generation += 1;
                if mv == shown.puzzle.answer {
                    self.stage = Stage::Solved { line: None };
                } else {
                    self.missed = true;
                    self.stage = Stage::Refuted { mv, line: None };
                }
            }
            Stage::PlayOut {
                moves,
                waiting: false,
                ..
            } => {
                let now = play_all(shown.puzzle.position, moves);
                if now.side_to_move() == shown.puzzle.position.side_to_move() && now.is_legal(mv) {
                    moves.push(mv);
                    self.generation += 1;
                    self.settle_play_out();
                }
            }
            _ => {}
        }
    }

    /// After a move of the play-out: the end, a pass the rules force, or the solver's turn.
    fn settle_play_out(&mut self) {
        let Some(shown) = &self.shown else { return };
        let (start, side) = (shown.puzzle.position, shown.puzzle.position.side_to_move());
        let Stage::PlayOut { moves, waiting, .. } = &mut self.stage else {
            return;
        };
        loop {
            let now = play_all(start, moves);
            if now.is_game_over() {
                let margin = now.count().margin_for(side);
                self.stage = Stage::PlayedOut {
                    moves: std::mem::take(moves),
                    margin,
                };
                return;
            }
            if now.must_pass() {
                moves.push(Move::Pass);
                continue;
            }
            *waiting = now.side_to_move() != side;
            return;
        }
    }

    fn solved(&mut self, generation: u64, answer: Line) {
        if generation != self.generation {
            return;
        }
        match &mut self.stage {
            Stage::Solved { line } | Stage::Revealed { line } | Stage::Refuted { line, .. }
                if line.is_none() =>
            {
                *line = Some(answer);
                self.step = 0;
            }
            Stage::PlayOut {
                moves,
                waiting: true,
                standing,
            } => match answer {
                Ok(line) => match line.first() {
                    Some((mv, margin)) => {
                        // The solver's margin, turned to the puzzle's side.
                        *standing = Some(-*margin);
                        moves.push(*mv);
                        self.generation += 1;
                        self.settle_play_out();
                    }
                    None => {
                        let moves = std::mem::take(moves);
                        self.stage = Stage::Stuck {
                            moves,
                            error: "the solver named no move".to_owned(),
                        };
                    }
                },
                Err(error) => {
                    let moves = std::mem::take(moves);
                    self.stage = Stage::Stuck { moves, error };
                }
            },
            _ => {}
        }
    }
}

fn play_all(start: Position, moves: &[Move]) -> Position {
    moves
        .iter()
        .try_fold(start, |pos, mv| pos.play(*mv).ok())
        .unwrap_or(start)
}

impl Session {
    /// The session after `action` (the page's reducer applies it: `hooks/reducers.rs`).
    pub fn apply(&self, action: SessionAction) -> Session {
        let mut next = self.clone();
        match action {
            SessionAction::Show(shown) => {
                next = Session {
                    shown: Some(shown),
                    generation: self.generation + 1,
                    ..Session::default()
                };
            }
            SessionAction::Clear => {
                next = Session {
                    generation: self.generation + 1,
                    ..Session::default()
                };
            }
            SessionAction::Play(mv) => next.play(mv),
            SessionAction::Solved(generation, line) => next.solved(generation, line),
            SessionAction::Step => {
                if next.more_to_show() {
                    next.step += 1;
                }
            }
            SessionAction::TryAgain => {
                if matches!(next.stage, Stage::Refuted { .. }) {
                    next.stage = Stage::Solving;
                    next.step = 0;
                    next.generation += 1;
                }
            }
            SessionAction::ShowAnswer => {
                if matches!(next.stage, Stage::Solving | Stage::Refuted { .. }) {
                    // Giving up is a miss: a first try spent.
                    next.missed = true;
                    next.stage = Stage::Revealed { line: None };
                    next.step = 0;
                    next.generation += 1;
                }
            }
            SessionAction::PlayOut => {
                if let Some(shown) = &next.shown {
                    // From the answer on, the solver replying first: the answer found (or
                    // shown) stays on the board, and what is left to prove is keeping it.
                    next.stage = Stage::PlayOut {
                        moves: vec![shown.puzzle.answer],
                        waiting: false,
                        standing: None,
                    };
                    next.step = 0;
                    next.generation += 1;
                    next.settle_play_out();
                }
            }
        }
        next
    }
}

/// Whether a played-out puzzle kept what its answer promised: the win, the draw, or the
/// answer's exact margin.
pub fn kept(puzzle: &Puzzle, margin: i32) -> bool {
    match puzzle.kind {
        PuzzleKind::OnlyWin => margin > 0,
        PuzzleKind::OnlyDraw => margin >= 0,
        PuzzleKind::BestMargin => margin >= i32::from(puzzle.margin),
    }
}

/// What the player is asked, in words: "Black to move: find the only move that wins".
pub fn task(puzzle: &Puzzle) -> String {
    let side = match puzzle.position.side_to_move() {
        Color::Black => "Black",
        Color::White => "White",
    };
    let what = match puzzle.kind {
        PuzzleKind::BestMargin if puzzle.margin < 0 => "find the move that loses the fewest discs",
        kind => kind.task(),
    };
    format!("{side} to move: {what}")
}

/// What a play-out must keep, in words: "keep the win", "keep the draw", "win by 12 or
/// more", "lose by 8 or less".
pub fn promise(puzzle: &Puzzle) -> String {
    let margin = i32::from(puzzle.margin);
    match puzzle.kind {
        PuzzleKind::OnlyWin => "keep the win".to_owned(),
        PuzzleKind::OnlyDraw => "keep the draw".to_owned(),
        PuzzleKind::BestMargin if margin > 0 => format!("win by {margin} or more"),
        PuzzleKind::BestMargin if margin == 0 => "draw or better".to_owned(),
        PuzzleKind::BestMargin => format!("lose by {} or less", -margin),
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
pub(crate) mod tests;
