//! What the engine tells NBoard, as text: evaluations in discs, depths, lines, and the
//! budget a `set depth` buys. Pure functions, so the formats are tested without a process.

use engine::report::{MoveInfo, Proof};
use engine::PlayerKind;
use othello::{BoardSize, Move};

/// The simulations `set depth N` buys the search: 800 (the agent's usual budget) at depth 8,
/// doubling every two plies, as an alpha-beta tree with good move ordering roughly doubles
/// every ply or two: 100 at depth 2, 200 at 4, 400 at 6, 800 at 8, 1600 at 10, 3200 at 12,
/// 12800 at 16, 51200 at 20, 204800 at 24; at least 50 and at most 100 million.
pub fn simulations_for_depth(depth: u32) -> u64 {
    let sims = 800.0 * 2f64.powf((f64::from(depth) - 8.0) / 2.0);
    sims.round().clamp(50.0, 1e8) as u64
}

/// What `set depth N` means to a kind of player: simulations for the searches, plies for
/// alpha-beta, nothing for players that do not search.
pub fn depth_budget(kind: PlayerKind, depth: u32) -> engine::Budget {
    match kind {
        PlayerKind::Mcts | PlayerKind::Uct => {
            engine::Budget::simulations(simulations_for_depth(depth))
        }
        PlayerKind::AlphaBeta => engine::Budget::depth(depth.clamp(1, 60)),
        _ => engine::Budget::default(),
    }
}

/// Discs per unit of atanh(q): a 10-disc lead on 8x8 is worth q = tanh(1) = 0.76 (an 88%
/// chance to win), 5.6 discs on 6x6. Scaled with the board's squares.
fn discs_scale(size: BoardSize) -> f64 {
    f64::from(size.squares()) / 6.4
}

/// An expected outcome q in [-1, 1] as an expected disc margin, for searches whose network
/// has no score output: discs = scale * atanh(q), q clamped to +-0.99 so that a proven or
/// near-certain result reads as a large margin (26.5 discs on 8x8), not an infinite one.
pub fn discs_from_q(q: f32, size: BoardSize) -> f64 {
    discs_scale(size) * f64::from(q.clamp(-0.99, 0.99)).atanh()
}

/// A move's evaluation in discs for the side to move: the search's expected margin when its
/// network estimates one (`scores`), else derived from q.
pub fn move_discs(m: &MoveInfo, scores: bool, size: BoardSize) -> f64 {
    match m.score {
        Some(score) if scores => f64::from(score),
        _ => discs_from_q(m.q, size),
    }
}

/// The depth field NBoard reads: `100%` for an exact solve, `100%W` for a proven win, loss
/// or draw, else the length of the move's line in the tree.
pub fn depth_text(exact: bool, proof: Option<Proof>, line_length: usize) -> String {
    if exact {
        "100%".into()
    } else if proof.is_some() {
        "100%W".into()
    } else {
        line_length.max(1).to_string()
    }
}

/// A move as NBoard reads it: `f5`, or `PA` for a pass.
pub fn move_word(mv: Move) -> String {
    match mv {
        Move::Place(sq) => sq.to_string(),
        Move::Pass => "PA".into(),
    }
}

/// A line without spaces (NBoard reads the first word as the line): `f5-d6-c3`.
pub fn line_text(line: &[Move]) -> String {
    line.iter()
        .map(|&mv| move_word(mv))
        .collect::<Vec<_>>()
        .join("-")
}

/// `search <pv> <eval> 0 <depth> <text>`: one hint line.
pub fn search_line(line: &[Move], discs: f64, depth: &str, text: &str) -> String {
    format!("search {} {discs:.2} 0 {depth} {text}", line_text(line))
}

/// `book <pv> <eval> <games> <depth> <text>`: one hint line for a book move, as NTest sends
/// them (the games through it: 0, our book grows by search, not from games).
pub fn book_line(line: &[Move], discs: f64, depth: &str, text: &str) -> String {
    format!("book {} {discs:.2} 0 {depth} {text}", line_text(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_8_is_the_usual_800_simulations_and_two_plies_double_them() {
        assert_eq!(simulations_for_depth(8), 800);
        assert_eq!(simulations_for_depth(10), 1600);
        assert_eq!(simulations_for_depth(6), 400);
        assert_eq!(simulations_for_depth(2), 100);
        assert_eq!(simulations_for_depth(9), 1131);
        assert_eq!(simulations_for_depth(0), 50);
        assert_eq!(simulations_for_depth(60), 100_000_000);
        assert_eq!(
            depth_budget(PlayerKind::AlphaBeta, 6),
            engine::Budget::depth(6)
        );
        assert!(depth_budget(PlayerKind::Greedy, 6).is_unlimited());
    }

    #[test]
    fn q_maps_to_discs_through_atanh_and_stays_finite() {
        assert_eq!(discs_from_q(0.0, BoardSize::Eight), 0.0);
        let ten = discs_from_q(1f32.tanh(), BoardSize::Eight);
        assert!((ten - 10.0).abs() < 1e-4, "{ten}");
        assert!(discs_from_q(1.0, BoardSize::Eight) < 27.0);
        assert!(discs_from_q(-1.0, BoardSize::Eight) > -27.0);
        assert!(discs_from_q(0.5, BoardSize::Six) < discs_from_q(0.5, BoardSize::Eight));
    }

    #[test]
    fn a_score_counts_only_when_the_network_has_a_score_output() {
        let m = MoveInfo {
            mv: Move::Pass,
            visits: 10,
            prior: 0.5,
            q: 0.0,
            proof: None,
            bounds: None,
            target: 0.5,
            score: Some(6.0),
        };
        assert_eq!(move_discs(&m, true, BoardSize::Eight), 6.0);
        assert_eq!(move_discs(&m, false, BoardSize::Eight), 0.0);
    }

    #[test]
    fn hint_lines_read_as_nboard_parses_them() {
        let moves: Vec<Move> = ["f5", "d6", "pass"]
            .iter()
            .map(|t| Move::parse(t, BoardSize::Eight).expect("a move"))
            .collect();
        assert_eq!(
            search_line(&moves, -1.234, &depth_text(false, None, 3), "visits 12"),
            "search f5-d6-PA -1.23 0 3 visits 12"
        );
        assert_eq!(depth_text(true, None, 1), "100%");
        assert_eq!(depth_text(false, Some(Proof::Draw), 4), "100%W");
        assert_eq!(depth_text(false, None, 0), "1");
    }
}
