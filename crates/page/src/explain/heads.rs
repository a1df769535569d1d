//! When the network's two estimates of a position, its chance to win (the value head) and
//! its expected final margin (the score head), point to different winners: the panel says
//! so rather than show "99% chance to win" beside "expected result ≈ −25 discs" with no
//! word (issue 68, eighth look: a Beginner hint read so where the solver gave −64).

/// Whether `win` (a side's chance to win, in [0, 1]) and `margin` (its expected final
/// margin in discs) disagree as the panel shows them: the chance 60% or more with the
/// margin at −1 or below once rounded to whole discs, or 40% or less with it at +1 or
/// above. A chance nearer even, or a margin that rounds to 0, names no winner to disagree
/// with (a 48% beside ≈ +1 is two estimates of a close game, not a contradiction).
pub fn disagree(win: f32, margin: f32) -> bool {
    let shown = margin.round();
    (win >= 0.6 && shown <= -1.0) || (win <= 0.4 && shown >= 1.0)
}

/// What the panel adds after the two estimates when they [`disagree`].
pub const DISAGREE: &str = "; chance and margin disagree, so both are weak here";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chance_and_the_margin_disagree_only_across_the_middle() {
        // The eighth look's board: 99% beside ≈ −25, and 1% beside ≈ +25.
        assert!(disagree(0.99, -25.0));
        assert!(disagree(0.01, 25.0));
        // Agreeing, or one of them saying nobody wins.
        assert!(!disagree(0.99, 25.0));
        assert!(!disagree(0.01, -25.0));
        assert!(!disagree(0.5, -25.0));
        assert!(!disagree(0.9, -0.4));
        assert!(!disagree(0.1, 0.4));
        assert!(disagree(0.6, -0.6));
        assert!(!disagree(0.55, -3.0));
        assert!(!disagree(0.48, 1.0));
    }
}
