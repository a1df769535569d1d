//! The graph's caption when the point it reads is the position on the board.

/// What the caption says of a point (`described`, [`super::describe`]'s words) whose
/// position the board shows now (`on_board`): said first, so that a player tapping along
/// the graph on a phone, the board a scroll above, knows the small board beside the words
/// is the one the big board shows. The page does not scroll to the board on a tap: the
/// graph would leave the finger's reach at every tap (docs/web.md, issue 68).
pub fn caption(described: String, on_board: bool) -> String {
    if on_board {
        format!("This position is now on the board: {described}")
    } else {
        described
    }
}

/// Whether the point of `ply` (its position is the one after `ply - 1` moves: a point
/// values the position its move was played from) is the board's, where the board shows the
/// position after `board` moves.
pub fn on_board(ply: usize, board: Option<usize>) -> bool {
    ply.checked_sub(1).is_some_and(|at| Some(at) == board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tapped_points_caption_says_its_position_is_the_boards() {
        // Issue 68: a tap changed the board 1,000 px above on a phone without a word
        // beside the graph.
        assert!(on_board(3, Some(2)));
        assert!(!on_board(3, Some(3)));
        assert!(!on_board(0, Some(0)));
        assert!(!on_board(3, None));
        assert_eq!(
            caption("4. c5 (White): Black 44% to win".to_owned(), true),
            "This position is now on the board: 4. c5 (White): Black 44% to win"
        );
        assert_eq!(caption("4. c5".to_owned(), false), "4. c5");
    }
}
