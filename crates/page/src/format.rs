//! Numbers, and the fixed words for an illegal move, as the page writes them: a pure helper
//! below every module that says something (the levels, the sentences, the review, records).

/// Milliseconds as seconds with no more digits than they need: 250 is "0.25 s", 1000
/// is "1 s", 60000 is "60 s".
pub fn seconds(ms: f64) -> String {
    let text = format!("{:.2}", ms / 1000.0);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text} s")
}

/// An estimated chance to win in percent: never "0%" or "100%", which only a proof may
/// claim (the page says "proven" for those), so it is held to 1-99%.
pub fn chance(win: f32) -> String {
    let percent = (win * 100.0).round().clamp(1.0, 99.0);
    format!("{percent:.0}%")
}

/// A signed estimate in discs to `decimals` places: "+4", "-2.35", and a value that rounds
/// to zero as "0" (or "0.00"), never "-0", which would claim a side for a rounded -0.3.
pub fn signed_discs(discs: f32, decimals: usize) -> String {
    let scale = 10f32.powi(decimals as i32);
    if (discs * scale).round() == 0.0 {
        return format!("{:.*}", decimals, 0.0);
    }
    format!("{discs:+.decimals$}")
}

/// Why a move is illegal, in a player's words.
pub fn illegal_reason(reason: othello::IllegalReason) -> &'static str {
    match reason {
        othello::IllegalReason::OffBoard => "the square is not on the board",
        othello::IllegalReason::Occupied => "the square already holds a disc",
        othello::IllegalReason::FlipsNothing => "it turns no disc",
        othello::IllegalReason::PassWithMovesLeft => "a pass, while a move was possible",
        othello::IllegalReason::GameOver => "the game was already over",
    }
}

/// The number a move goes by, as Othello players count (and as the review's progress
/// counts, "of 60 moves"): the discs placed so far with it, the passes not counted;
/// `None` for a pass, which has no number of its own. `ply` is 1-based.
pub fn move_number(moves: &[othello::Move], ply: usize) -> Option<usize> {
    let mv = moves.get(ply.checked_sub(1)?)?;
    (*mv != othello::Move::Pass).then(|| {
        moves[..ply]
            .iter()
            .filter(|m| **m != othello::Move::Pass)
            .count()
    })
}

/// [`move_number`] for every move of `moves` at once (the list, the graph, the review's
/// table), in one pass rather than a count from the start for each move.
pub fn move_numbers(moves: &[othello::Move]) -> Vec<Option<usize>> {
    let mut placed = 0;
    moves
        .iter()
        .map(|mv| {
            (*mv != othello::Move::Pass).then(|| {
                placed += 1;
                placed
            })
        })
        .collect()
}

/// 36081 as "36,081".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn moves_are_numbered_by_the_discs_placed_and_a_pass_has_no_number() {
        let moves: Vec<othello::Move> = ["f5", "d6", "pass", "c3"]
            .iter()
            .map(|m| othello::Move::parse(m, othello::BoardSize::Eight).expect("a move"))
            .collect();
        assert_eq!(super::move_number(&moves, 2), Some(2));
        assert_eq!(super::move_number(&moves, 3), None);
        assert_eq!(super::move_number(&moves, 4), Some(3));
        assert_eq!(super::move_number(&moves, 0), None);
        assert_eq!(super::move_number(&moves, 9), None);
        let all = super::move_numbers(&moves);
        assert_eq!(all, [Some(1), Some(2), None, Some(3)]);
        for ply in 1..=moves.len() {
            assert_eq!(all[ply - 1], super::move_number(&moves, ply), "ply {ply}");
        }
    }

    #[test]
    fn a_rounded_zero_has_no_sign() {
        assert_eq!(super::signed_discs(-0.3, 0), "0");
        assert_eq!(super::signed_discs(-0.004, 2), "0.00");
        assert_eq!(super::signed_discs(-0.006, 2), "-0.01");
        assert_eq!(super::signed_discs(3.6, 0), "+4");
        assert_eq!(super::signed_discs(-2.345, 2), "-2.35");
    }

    #[test]
    fn an_estimated_chance_is_never_a_certainty() {
        assert_eq!(super::chance(0.999), "99%");
        assert_eq!(super::chance(0.0), "1%");
        assert_eq!(super::chance(0.5), "50%");
        assert_eq!(super::chance(0.234), "23%");
    }

    use super::*;

    #[test]
    fn numbers_read_as_a_person_writes_them() {
        assert_eq!(thousands(36081), "36,081");
        assert_eq!(thousands(999), "999");
        assert_eq!(seconds(250.0), "0.25 s");
        assert_eq!(seconds(1000.0), "1 s");
        assert_eq!(seconds(60000.0), "60 s");
    }
}
