//! `othello analyse`: search a position and print what the search sees.

use crate::model::load_model;
use anyhow::{bail, Result};
use engine::mcts::{Mcts, MctsConfig, SearchInfo};
use engine::{Budget, Evaluator, HeuristicEvaluator};
use othello::{Move, Position, Square};
use std::path::Path;

pub fn analyse(pos: &Position, model: Option<&Path>, budget: &Budget) -> Result<()> {
    if pos.is_game_over() {
        bail!("the game is over: nothing to analyse");
    }
    let config = MctsConfig::default();
    let info = match model {
        Some(path) => {
            let model = load_model(path)?;
            model.card().check_game(pos.size(), pos.variant())?;
            search(Mcts::new(model.evaluator()?, config), pos, budget)?
        }
        None => search(
            Mcts::new(HeuristicEvaluator::new(1, 4), config),
            pos,
            budget,
        )?,
    };
    print!("{}", render(pos, &info));
    Ok(())
}

fn search<E: Evaluator>(mut mcts: Mcts<E>, pos: &Position, budget: &Budget) -> Result<SearchInfo> {
    Ok(mcts.search(pos, budget, &mut |_| true)?)
}

/// The board with each legal move's share of the visits, then the move table.
pub fn render(pos: &Position, info: &SearchInfo) -> String {
    let n = pos.size().n();
    let total: u32 = info.moves.iter().map(|m| m.visits).sum::<u32>().max(1);
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
            let cell = match pos.color_at(sq) {
                Some(color) => format!("  {} ", color.symbol()),
                None => match info.moves.iter().find(|m| m.mv == Move::Place(sq)) {
                    Some(m) => format!("{:>3}%", (100 * m.visits + total / 2) / total),
                    None => "  . ".to_string(),
                },
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "{} to move; win estimate {:.1}%{}\n",
        pos.side_to_move(),
        info.win_probability() * 100.0,
        match info.proof {
            Some(p) => format!(" (proven {p:?})"),
            None => String::new(),
        }
    ));
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
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    out.push_str(&format!("principal variation: {}\n", pv.join(" ")));
    out.push_str(&format!(
        "{} simulations in {:.2} s ({:.0}/s)\n",
        info.simulations,
        info.elapsed.as_secs_f64(),
        info.simulations_per_second()
    ));
    out
}
