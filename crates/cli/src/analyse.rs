//! `othello analyse`: the agent a spec names thinks about a position, as it would in a
//! game, and says what it sees.

use crate::args::AgentArgs;
use anyhow::{bail, Result};
use engine::book::BookChoice;
use engine::report::{Proof, SearchInfo, Solved};
use engine::{Budget, ModelSource, PlayerKind, PlayerSpec};
use othello::{Move, Position, Square};

pub fn analyse(
    pos: &Position,
    agent: &AgentArgs,
    budget: &Budget,
    models: &dyn ModelSource,
) -> Result<()> {
    if pos.is_game_over() {
        bail!("the game is over: nothing to analyse");
    }
    agent.player.check_game(pos.size(), pos.variant(), models)?;
    crate::args::warn_without_book(&agent.player, pos.size(), pos.variant(), models);
    let (mut player, _) = asking_for_the_best(&agent.player).build(agent.seed.seed, models)?;
    let info = player.think(pos, budget, &mut |_| true)?;
    print!("{}", render(pos, &info));
    Ok(())
}

/// Analysis asks for the best move, as the page's analysis and hints do: an `mcts` agent
/// goes on from a proven win to its exact margin (`best=1`) unless the spec says `best=0`.
fn asking_for_the_best(player: &PlayerSpec) -> PlayerSpec {
    let best = match player.kind {
        PlayerKind::Mcts => player.best.or(Some(1)),
        _ => player.best,
    };
    PlayerSpec {
        best,
        ..player.clone()
    }
}

/// The board with each move's share of the visits (or the solver's move), then the move
/// table, the principal variation and the speed.
pub fn render(pos: &Position, info: &SearchInfo) -> String {
    let mut out = render_board(pos, info);
    if let Some(solved) = info.solved {
        render_solved(&mut out, pos, &solved);
    } else if let Some(book) = &info.book {
        render_book(&mut out, pos, book);
    } else {
        render_search(&mut out, pos, info);
    }
    out
}

/// The visits of all the root's moves (at least 1, to divide by).
fn visit_total(info: &SearchInfo) -> u32 {
    info.moves.iter().map(|m| m.visits).sum::<u32>().max(1)
}

/// The board, each legal move marked: the solver's moves with a star, the book's with
/// their value in discs, the search's with their share of the visits.
fn render_board(pos: &Position, info: &SearchInfo) -> String {
    let n = pos.size().n();
    let total = visit_total(info);
    let mut out = String::from("   ");
    for col in 0..n {
        out.push_str(&format!("  {} ", (b'a' + col) as char));
    }
    out.push('\n');
    for row in 0..n {
        out.push_str(&format!("{:>2} ", row + 1));
        for col in 0..n {
            let Some(sq) = Square::new(col, row) else {
                continue;
            };
            let here = info.moves.iter().find(|m| m.mv == Move::Place(sq));
            let cell = match (pos.color_at(sq), here) {
                (Some(color), _) => format!("  {} ", color.symbol()),
                (None, Some(_)) if info.solved.is_some() => "  * ".to_string(),
                (None, Some(m)) if info.book.is_some() => {
                    format!("{:>+4.0}", m.score.unwrap_or_default())
                }
                (None, Some(m)) => format!("{:>3}%", (100 * m.visits + total / 2) / total),
                (None, None) => "  . ".to_string(),
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    out
}

/// The solver's word: its move and margin, or the result it proved, and what it cost.
fn render_solved(out: &mut String, pos: &Position, solved: &Solved) {
    let side = pos.side_to_move();
    let what = if solved.is_exact() {
        format!(
            "exact solve: best move {}, margin {:+}",
            solved.best, solved.margin
        )
    } else {
        // A bound: the move reaches it, and a better one may exist.
        format!(
            "proven {}: {side} {} with {}; the best margin was not reached, so {} may not be the best move",
            if solved.margin > 0 { "win" } else { "draw or better" },
            solved.verdict(),
            solved.best,
            solved.best
        )
    };
    out.push_str(&format!(
        "{side} to move: {what} ({} nodes in {:.3} s)\n",
        solved.nodes,
        solved.micros as f64 / 1e6
    ));
}

/// The search's word: its estimate and move, the move table, the principal variation and
/// the speed.
fn render_search(out: &mut String, pos: &Position, info: &SearchInfo) {
    let side = pos.side_to_move();
    let total = visit_total(info);
    out.push_str(&format!(
        "{side} to move; win estimate {:.1}%{}; best move {}\n",
        info.win_probability() * 100.0,
        match info.proof {
            Some(Proof::Win) => " (proven win)".to_owned(),
            Some(Proof::Draw) => " (proven draw)".to_owned(),
            // The root solve leaves a proven loss to the search: its move is a swindle's.
            Some(Proof::Loss) => " (proven loss: the search plays on for a mistake)".to_owned(),
            None => String::new(),
        },
        info.best_move()
            .map_or_else(|| "none".to_owned(), |mv| mv.to_string())
    ));
    if let Some(score) = info.score {
        out.push_str(&format!("expected result for {side}: {score:+.1} discs\n"));
    }
    out.push_str("move  visits  share   prior      q\n");
    for m in &info.moves {
        out.push_str(&format!(
            "{:<5} {:>6} {:>5.1}% {:>6.1}% {:>+6.3}\n",
            m.mv.to_string(),
            m.visits,
            100.0 * m.visits as f32 / total as f32,
            100.0 * m.prior,
            m.q
        ));
    }
    let pv: Vec<String> = info
        .pv
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    out.push_str(&format!("principal variation: {}\n", pv.join(" ")));
    out.push_str(&format!(
        "{} simulations in {:.2} s ({:.0}/s)\n",
        info.simulations,
        info.elapsed.as_secs_f64(),
        info.simulations_per_second()
    ));
}

/// A book move: the book's values (the board shows them in discs) and where each comes from.
fn render_book(out: &mut String, pos: &Position, book: &BookChoice) {
    let side = pos.side_to_move();
    out.push_str(&format!(
        "{side} to move: book move {}, value {:+.2} discs\n",
        book.mv, book.value
    ));
    out.push_str("move    value\n");
    for m in &book.moves {
        let source = if m.in_book {
            "book"
        } else {
            "search estimate, not in the book"
        };
        out.push_str(&format!(
            "{:<5} {:>+7.2}  {source}\n",
            m.mv.to_string(),
            m.value
        ));
    }
}
