//! What Puzzle mode says: the line under the board for each stage of a puzzle, in
//! standard notation and exact margins.

use super::session::{kept, promise, task, Line, Session, Stage};
use engine::puzzles::Puzzle;
use othello::{Color, Move};

/// "wins by 6", "draws", "loses by 4": a final margin for the side it belongs to.
pub fn result_words(margin: i32) -> String {
    match margin {
        m if m > 0 => format!("wins by {m}"),
        0 => "draws".to_owned(),
        m => format!("loses by {}", -m),
    }
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn moves_text(moves: impl IntoIterator<Item = Move>) -> String {
    moves
        .into_iter()
        .map(|mv| mv.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The line under the board: what to find, what the move did, what the play-out kept.
pub fn status(session: &Session) -> String {
    let Some(shown) = &session.shown else {
        return String::new();
    };
    let p = &shown.puzzle;
    let side = p.position.side_to_move();
    match &session.stage {
        Stage::Solving if session.missed => format!("Try again. {}.", task(p)),
        Stage::Solving => format!("{}.", task(p)),
        Stage::Solved { line } => answer_words("Right", p, line),
        Stage::Revealed { line } => answer_words("The answer", p, line),
        Stage::Refuted { mv, line: None } => {
            format!("Not {mv}: the solver is finding the reply that refutes it…")
        }
        Stage::Refuted {
            mv,
            line: Some(Ok(line)),
        } => match line.first() {
            Some((reply, margin)) => format!(
                "Not {mv}: {} answers {reply}, and {} then {} with perfect play (exact). A \
                 better move is there: try again, or see the answer.",
                side_name(side.opposite()),
                side_name(side),
                result_words(-margin)
            ),
            None => format!("Not {mv}: it ends the game worse than the answer."),
        },
        Stage::Refuted {
            mv,
            line: Some(Err(e)),
        } => format!("Not {mv}. (The refutation could not be shown: {e}.)"),
        Stage::PlayOut { waiting: true, .. } => {
            format!("Playing it out: {}. The solver replies…", promise(p))
        }
        Stage::PlayOut { .. } => format!(
            "Play it out against perfect play: {}. {} to move.",
            promise(p),
            side_name(side)
        ),
        Stage::PlayedOut { margin, .. } if kept(p, *margin) => format!(
            "Kept: {} {} against perfect play.",
            side_name(side),
            result_words(*margin)
        ),
        Stage::PlayedOut { margin, .. } => format!(
            "Not kept: {} {} at the end; the answer played perfectly {}. Play it out again, \
             or take the next puzzle.",
            side_name(side),
            result_words(*margin),
            result_words(i32::from(p.margin))
        ),
        Stage::Stuck { error, .. } => format!("The solver could not go on: {error}."),
    }
}

fn answer_words(lead: &str, p: &Puzzle, line: &Option<Line>) -> String {
    let side = side_name(p.position.side_to_move());
    let found = format!(
        "{lead}: {}, and {side} {} with perfect play (exact)",
        p.answer,
        result_words(i32::from(p.margin))
    );
    match line {
        None => format!("{found}. The solver is finding the line…"),
        Some(Ok(line)) => format!(
            "{found}: {}.",
            moves_text(std::iter::once(p.answer).chain(line.iter().map(|(mv, _)| *mv)))
        ),
        Some(Err(e)) => format!("{found}. (The line could not be shown: {e}.)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_are_said_for_their_side() {
        assert_eq!(result_words(6), "wins by 6");
        assert_eq!(result_words(0), "draws");
        assert_eq!(result_words(-4), "loses by 4");
    }
}
