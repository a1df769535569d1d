//! Numbers, and the fixed words for an illegal move, as the page writes them: a pure helper
//! below every module that says something (the levels, the sentences, the review, records).
//!
//! The page's one rule for its numbers (docs/web.md, "Every number on the page"): a value
//! is a final disc margin or a chance to win, for a side the page names beside it; a bare
//! whole number of discs is exact, "≥" marks a proven bound, "≈" (or two decimals, where
//! losses add up) an estimate; a chance in percent is always an estimate unless it reads
//! "win", "draw" or "loss"; every rounding is half away from zero. [`discs`],
//! [`discs_fine`] and [`chance`] write them, so no two places of the page can disagree
//! on one figure (issue 68: a square's ~-20 beside the panel's -21).

/// How sure a disc margin is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sure {
    /// Proven with perfect play (the solver, or a search's settled bounds).
    Exact,
    /// Proven to be at least this (a result the solver proved, its margin unfinished).
    AtLeast,
    /// A search's or the network's estimate, on a board of this size (which bounds it).
    Estimate(othello::BoardSize),
}

/// A whole number of discs, rounded half away from zero (-20.5 is -21, as a person rounds;
/// Rust's formatting rounds half to even, which wrote the same -20.5 as "-20").
pub fn whole(discs: f32) -> i32 {
    discs.round() as i32
}

/// The largest margin an estimate shows on a `size` board, its squares less one: a
/// wipe-out, ±64 on 8x8 and ±36 on 6x6, is a certainty that only a proof may claim, as a
/// chance is held to 1-99% (a fresh look read "4% chance to win, expected result ≈ −64
/// discs" as a certain wipe-out; the bound was 63 on every board until issue 68's seventh
/// look, so a 6x6 estimate could still read "≈ −36").
fn most_estimated(size: othello::BoardSize) -> i32 {
    size.squares() as i32 - 1
}

/// A final disc margin at a glance (the board's squares, the panel, the graph, analysis,
/// puzzles): exact "+4", "−2", "0"; a bound "≥+30", "≥−12"; an estimate "≈ +4", "≈ 0" (never "≈ −0").
pub fn discs(value: f32, sure: Sure) -> String {
    let n = match sure {
        Sure::Estimate(size) => whole(value).clamp(-most_estimated(size), most_estimated(size)),
        Sure::Exact | Sure::AtLeast => whole(value),
    };
    let signed = if n == 0 {
        "0".to_owned()
    } else {
        minus_sign(&format!("{n:+}"))
    };
    match sure {
        Sure::Exact => signed,
        Sure::AtLeast => format!("≥{signed}"),
        Sure::Estimate(_) => estimate(&signed),
    }
}

/// A solver's time, in one form wherever it is given (issue 68, eighth look: one solve
/// read "0.01 s" in one line and "13 ms" in the next): milliseconds under a second, where
/// "0.00 s" read as no time at all, else seconds to hundredths, their zeros kept.
pub fn solve_time(micros: u64) -> String {
    let shown = solve_time_ms(micros);
    match micros {
        0..=999 => "under 1 ms".to_owned(),
        1_000..=999_999 => format!("{shown} ms"),
        _ => format!("{:.2} s", shown / 1000.0),
    }
}

/// The milliseconds [`solve_time`] says, so that a rate beside it is the count over the
/// time shown (issue 68, eighth look: "6,000,033 positions in 1 s: 5,982,683 per second").
pub fn solve_time_ms(micros: u64) -> f64 {
    match micros {
        0..=999 => 1.0,
        1_000..=999_999 => (micros as f64 / 1000.0).round(),
        _ => (micros as f64 / 1e4).round() * 10.0,
    }
}

/// A final disc margin where losses add up (the review's table and its words): exact
/// whole as [`discs`] writes it, an estimate to hundredths with the "≈" every estimate on
/// the page carries ("≈ −2.35", "≈ 0.00"; issue 68: "-34.00" and "-34" told an estimate from
/// an exact value by their decimals alone). A GGF record's evaluations are numbers, without
/// the "≈" (`othello::ggf::eval_text`). The review's estimates come held one short of a
/// wipe-out, as [`discs`] holds its own (`engine::review::move_value`).
pub fn discs_fine(value: f32, exact: bool) -> String {
    if exact {
        discs(value, Sure::Exact)
    } else {
        estimate(&signed_discs(value, 2))
    }
}

/// The mark every estimate carries, with a narrow no-break space after it so that a
/// square's label never breaks: "≈ −16", "≈ +4", "≈ 0" (issue 68: "~-16", a tilde then a
/// hyphen, read awkwardly). A GGF record's evaluations are numbers, without it.
pub const APPROX: &str = "\u{2248}\u{202f}";

/// A signed figure as an estimate: [`APPROX`] before it, and a real minus (U+2212) for
/// the hyphen.
pub fn estimate(signed: &str) -> String {
    format!("{APPROX}{}", minus_sign(signed))
}

/// The real minus sign (U+2212) for a hyphen-minus at a figure's head: every signed number
/// the page shows, exact, bound or estimate, writes its minus one way (issue 68, tenth
/// look: an exact "-58" beside an estimate's "≈ −14"). A GGF record's evaluations and
/// anything a program reads keep the hyphen (`othello::ggf::eval_text`).
pub fn minus_sign(signed: &str) -> String {
    match signed.strip_prefix('-') {
        Some(rest) => format!("\u{2212}{rest}"),
        None => signed.to_owned(),
    }
}

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

/// A signed estimate in discs to `decimals` places: "+4", "−2.35" (a real minus, as
/// [`minus_sign`] writes every one), and a value that rounds to zero as "0" (or "0.00"),
/// never "−0", which would claim a side for a rounded -0.3.
/// Rounded half away from zero, as [`whole`] rounds.
pub fn signed_discs(discs: f32, decimals: usize) -> String {
    let scale = 10f64.powi(decimals as i32);
    let rounded = (f64::from(discs) * scale).round();
    if rounded == 0.0 {
        return format!("{:.*}", decimals, 0.0);
    }
    minus_sign(&format!("{:+.decimals$}", rounded / scale))
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

/// `n` things, with thousands separators and the noun agreeing: "1 simulation", "1,234
/// simulations" (issue 68: "1 simulations").
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// A margin as [`discs`], [`discs_fine`] or [`signed_discs`] wrote it, with its noun:
/// "≈ +4 discs", "-1 disc", "≈ −1 disc", "1.00 discs", "0 discs" (issue 68: "~-1 discs").
/// The mark that says how sure it is ("≈", "≥") stays before the number, as everywhere on
/// the page.
pub fn with_discs(written: &str) -> String {
    let bare = written.trim_start_matches(['\u{2248}', '\u{202f}', '≥', '+', '-', '\u{2212}']);
    let noun = if bare == "1" { "disc" } else { "discs" };
    format!("{written} {noun}")
}

/// Sentences joined into one text, each ending with a full stop (issue 68: a tooltip read
/// "…, the best move found Best line: …", two sentences run together).
pub fn sentences<'a>(parts: impl IntoIterator<Item = &'a str>) -> String {
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            if p.ends_with(['.', '!', '?', '…']) {
                p.to_owned()
            } else {
                format!("{p}.")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the empty squares of a finished game add to the disc counts above the board, so
/// that the counts agree with the result line's WOF score: "2 empty: White's, 62-2" beside
/// "Black 2 White 60" under "White wins 62-2" (issue 68: the two rows disagreed, and
/// nothing said why). `None` for a game not over, or one that filled the board.
pub fn empties_note(position: &othello::Position) -> Option<String> {
    use othello::{Color, Variant};
    let outcome = position.outcome()?;
    let n = outcome.empties;
    if n == 0 {
        return None;
    }
    let (b, w) = outcome.wof_counts();
    let Some(winner) = outcome.winner() else {
        return Some(format!("{n} empty: shared, {b}-{w}"));
    };
    let (own, other) = if winner == Color::Black {
        (b, w)
    } else {
        (w, b)
    };
    Some(match outcome.variant {
        Variant::Standard => format!("{n} empty: {winner}'s, {own}-{other}"),
        // Fewer discs win: the empties widen the margin on the loser's side of the score.
        Variant::Reversed => format!("{n} empty: {}'s, {own} to {other}", winner.opposite()),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_estimate_never_claims_a_wipe_out_and_a_solve_time_is_never_zero() {
        use super::*;
        use othello::BoardSize;
        let eight = Sure::Estimate(BoardSize::Eight);
        assert_eq!(discs(-64.0, eight), estimate("-63"));
        assert_eq!(discs(64.0, eight), estimate("+63"));
        // A board's squares less one: a 6x6 wipe-out is 36 discs, a 4x4 one 16.
        let six = Sure::Estimate(BoardSize::Six);
        assert_eq!(discs(-36.0, six), estimate("-35"));
        assert_eq!(discs(36.0, six), estimate("+35"));
        assert_eq!(discs(-35.0, six), estimate("-35"));
        assert_eq!(discs(-34.6, six), estimate("-35"));
        assert_eq!(
            discs(16.0, Sure::Estimate(BoardSize::Four)),
            estimate("+15")
        );
        assert_eq!(discs(-36.0, Sure::Exact), "\u{2212}36");
        assert_eq!(discs(-64.0, Sure::Exact), "\u{2212}64");
        assert_eq!(discs(-40.0, eight), estimate("-40"));
        assert_eq!(solve_time(400), "under 1 ms");
        assert_eq!(solve_time(4_400), "4 ms");
        assert_eq!(solve_time(2_130_000), "2.13 s");
    }

    #[test]
    fn nouns_agree_with_their_numbers_and_sentences_are_apart() {
        use super::*;
        assert_eq!(count(1, "simulation", "simulations"), "1 simulation");
        assert_eq!(count(0, "simulation", "simulations"), "0 simulations");
        assert_eq!(
            count(1234, "simulation", "simulations"),
            "1,234 simulations"
        );
        assert_eq!(
            with_discs(&discs(-1.2, Sure::Estimate(othello::BoardSize::Eight))),
            "≈\u{202f}\u{2212}1 disc"
        );
        assert_eq!(with_discs(&discs(1.0, Sure::Exact)), "+1 disc");
        assert_eq!(
            with_discs(&discs(0.2, Sure::Estimate(othello::BoardSize::Eight))),
            "≈\u{202f}0 discs"
        );
        assert_eq!(
            with_discs(&discs(-12.0, Sure::AtLeast)),
            "≥\u{2212}12 discs"
        );
        assert_eq!(with_discs(&discs_fine(1.0, false)), "≈\u{202f}+1.00 discs");
        assert_eq!(with_discs("1"), "1 disc");
        assert_eq!(
            sentences(["4. f5 (Black): +0.22 for Black, the best move found", "Best line: f5 d6 (the search's most visited path)."]),
            "4. f5 (Black): +0.22 for Black, the best move found. Best line: f5 d6 (the search's most visited path)."
        );
    }

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
    fn one_rule_writes_every_margin_and_rounds_half_away_from_zero() {
        use super::{discs, discs_fine, Sure};
        // Issue 68: a hint's square read "~-20" for -20.5 while the panel said -21.
        assert_eq!(
            discs(-20.5, Sure::Estimate(othello::BoardSize::Eight)),
            "≈\u{202f}\u{2212}21"
        );
        assert_eq!(super::signed_discs(-20.5, 0), "\u{2212}21");
        assert_eq!(super::signed_discs(2.5, 0), "+3");
        assert_eq!(
            discs(-0.4, Sure::Estimate(othello::BoardSize::Eight)),
            "≈\u{202f}0"
        );
        assert_eq!(discs(4.0, Sure::Exact), "+4");
        assert_eq!(discs(0.0, Sure::Exact), "0");
        assert_eq!(discs(30.0, Sure::AtLeast), "≥+30");
        // Every estimate carries its "≈", the review's too (issue 68: "-34.00" and "-34"
        // were told apart by their decimals alone).
        assert_eq!(discs_fine(-2.345, false), "≈\u{202f}\u{2212}2.35");
        // Exact, bound and estimate write their minus one way (issue 68, tenth look: an
        // exact "-58" beside "≈ −14").
        assert_eq!(discs_fine(-2.0, true), "\u{2212}2");
        assert_eq!(discs_fine(0.004, false), "≈\u{202f}0.00");
    }

    #[test]
    fn a_rounded_zero_has_no_sign() {
        assert_eq!(super::signed_discs(-0.3, 0), "0");
        assert_eq!(super::signed_discs(-0.004, 2), "0.00");
        assert_eq!(super::signed_discs(-0.006, 2), "\u{2212}0.01");
        assert_eq!(super::signed_discs(3.6, 0), "+4");
        assert_eq!(super::signed_discs(-2.345, 2), "\u{2212}2.35");
        assert_eq!(super::minus_sign("-4"), "\u{2212}4");
        assert_eq!(super::minus_sign("+4"), "+4");
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

    #[test]
    fn a_finished_games_empties_are_said_beside_the_counts_as_the_result_counts_them() {
        use othello::{Position, Variant};
        // Issue 68: "Black 2 White 60" beside "White wins 62-2". Neither side can move:
        // c1 and d1 flank nothing.
        let text = format!("XX--OOOO{} X", "O".repeat(56));
        let end = |variant| Position::from_board_text(&text, variant).expect("a position");
        let standard = end(Variant::Standard);
        assert_eq!(
            standard.outcome().map(|o| o.to_string()).as_deref(),
            Some("White wins 62-2 (margin 60: 60-2 on the board, the 2 empty squares counted for the winner)")
        );
        assert_eq!(
            empties_note(&standard).as_deref(),
            Some("2 empty: White's, 62-2")
        );
        // Fewer discs win: Black's 2 against 60, the empties the loser's.
        assert_eq!(
            empties_note(&end(Variant::Reversed)).as_deref(),
            Some("2 empty: White's, 2 to 62")
        );
        // A game not over has no note.
        assert_eq!(
            empties_note(&Position::start(
                othello::BoardSize::Eight,
                Variant::Standard
            )),
            None
        );
    }
}
