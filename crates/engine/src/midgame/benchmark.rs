//! How fast the alpha-beta search runs over a pattern network's tables: the browser
//! worker's figure beside its simulations a second (docs/web.md's speed table), and the
//! midgame positions `othello bench alphabeta` searches too.

use super::{Midgame, MidgameConfig, PatternEval, PatternOutput};
use crate::pattern::PatternTables;
use crate::Rng;
use othello::{BoardSize, Position, Variant};
use std::sync::Arc;

/// Positions a bench searches in turn: enough that clearing the table between passes costs
/// nothing beside them.
pub const BENCH_POSITIONS: usize = 40;

/// Midgame positions from seeded random games, one every five plies between 44 and 24
/// empties (on 6x6, 24 to 12): the same positions natively (`othello bench alphabeta`)
/// and in the browser's worker.
pub fn midgame_positions(size: BoardSize, count: usize) -> Vec<Position> {
    let squares = size.squares();
    let (most, least) = (squares * 11 / 16, squares * 3 / 8);
    random_game_positions(size, 4 * count)
        .into_iter()
        .filter(|p| {
            let empties = p.empty_count();
            !p.is_game_over() && (least..=most).contains(&empties) && empties % 5 == 0
        })
        .take(count)
        .collect()
}

/// Every position of `games` random games (seeded: the same positions on every run), the
/// finished ones included.
pub fn random_game_positions(size: BoardSize, games: usize) -> Vec<Position> {
    let mut rng = Rng::new(1);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start(size, Variant::Standard);
        loop {
            out.push(pos);
            let moves = pos.legal_move_list();
            match rng.choose(&moves) {
                Some(&mv) if !pos.is_game_over() => pos = pos.play_unchecked(mv),
                _ => break,
            }
        }
    }
    out
}

/// Nodes a second of alpha-beta searches `depth` plies deep from each of `positions` in
/// turn, as MCTS's leaves search them (a leaf-sized table, kept from one search to the
/// next, cleared before each pass over the positions so that a pass is never answered
/// from the last one's table), over about `time`, checked after each position. Every
/// node counted, the solver's too.
pub fn nodes_per_second(
    tables: Arc<PatternTables>,
    positions: &[Position],
    depth: u32,
    time: std::time::Duration,
) -> f64 {
    // A search builds each stage's tables when it first reaches it: built first, so that
    // the timing counts searching alone.
    tables.build_every_stage();
    let eval = PatternEval::new(tables, PatternOutput::ValueLogit, "bench");
    let config = MidgameConfig {
        table_bits: crate::table_sizes::LEAF_SEARCH_TABLE_BITS,
        ..MidgameConfig::default()
    };
    let mut search = Midgame::new(eval, config);
    let clock = web_time::Instant::now();
    'passes: loop {
        search.clear_search_table();
        for pos in positions {
            std::hint::black_box(search.value(pos, depth));
            if clock.elapsed() >= time {
                break 'passes;
            }
        }
        if positions.is_empty() {
            break;
        }
    }
    search.nodes() as f64 / clock.elapsed().as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bench_positions_are_midgame_positions_with_a_move_every_five_empties() {
        for (size, most, least) in [(BoardSize::Eight, 44, 24), (BoardSize::Six, 24, 13)] {
            let positions = midgame_positions(size, 12);
            assert_eq!(positions.len(), 12);
            for pos in &positions {
                let empties = pos.empty_count();
                assert!(
                    (least..=most).contains(&empties) && empties % 5 == 0,
                    "{empties}"
                );
                assert!(!pos.is_game_over());
            }
            // Seeded: the same positions natively and in the browser, run after run.
            assert_eq!(positions, midgame_positions(size, 12));
        }
    }
}
