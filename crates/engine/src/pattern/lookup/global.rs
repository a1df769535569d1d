//! The global network's table (docs/model-contract.md, "The global network"): the network
//! run once at load over every count of legal moves of each side, the empties' parity and
//! the stage, as the patterns' networks are run over their configurations; a position
//! then adds one entry, read once (mobility and parity are the same under every symmetry
//! of the board, so no averaging). Egaroucid's earlier versions read mobility beside their
//! patterns the same way (`src/engine/evaluate_generic.hpp`).

use super::{Entry, PatternRunError, PatternRunner, BUILD_CHUNK};
use crate::pattern::set::{PatternSet, GLOBAL_FEATURES};

/// The counts of legal moves a table covers for each side, 0 to 64: no bitboard has more
/// empty squares, so every position, reachable or not, reads its own entry (the most a
/// reachable 8x8 position has is 33).
pub(super) const SIDE: usize = 65;

/// The global network's entries in the tables' units, and how to read a position into
/// them.
#[derive(Clone, Debug)]
pub(super) struct GlobalTable {
    /// `[stage][parity][mobility][opponent mobility]`: (score, value logit) in units of
    /// the tables' step. 32-bit, as the network's one term may outweigh any pattern entry.
    pub(super) entries: Vec<[i32; 2]>,
    board_mask: u64,
    squares: u32,
}

/// The entries' place of `stage`, the parity of `empties`, and both mobilities.
fn index(stage: usize, empties: u32, mobility: u32, opponent_mobility: u32) -> usize {
    ((stage * 2 + (empties % 2) as usize) * SIDE + mobility as usize) * SIDE
        + opponent_mobility as usize
}

/// Runs the global network over every stage, parity and pair of mobilities: its exact
/// outputs, in [`GlobalTable`]'s order.
pub(super) fn run(
    set: &PatternSet,
    runner: &mut dyn PatternRunner,
) -> Result<Vec<Entry>, PatternRunError> {
    let rows = set.stages as usize * 2 * SIDE * SIDE;
    let width = GLOBAL_FEATURES.len();
    let mut input = Vec::with_capacity(rows * width);
    for stage in 0..set.stages as usize {
        for empties in 0..2 {
            for mobility in 0..SIDE as u32 {
                for opponent in 0..SIDE as u32 {
                    debug_assert_eq!(
                        input.len(),
                        index(stage, empties, mobility, opponent) * width
                    );
                    input.extend(set.global_row(mobility, opponent, empties, stage));
                }
            }
        }
    }
    let mut exact = Vec::with_capacity(rows);
    for chunk in input.chunks(BUILD_CHUNK * width) {
        let count = chunk.len() / width;
        let out = runner.run_global(chunk, count)?;
        if out.len() != 2 * count {
            return Err(PatternRunError::Contract(format!(
                "out_global gave {} values for {count} rows; expected 2 a row",
                out.len()
            )));
        }
        exact.extend(out.chunks_exact(2).map(|pair| [pair[0], pair[1]]));
    }
    Ok(exact)
}

impl GlobalTable {
    /// The exact entries in units of `step`, rounded.
    pub(super) fn new(set: &PatternSet, exact: &[Entry], step: [f32; 2]) -> Self {
        let entries = exact
            .iter()
            .map(|e| {
                [
                    (e[0] / step[0]).round() as i32,
                    (e[1] / step[1]).round() as i32,
                ]
            })
            .collect();
        GlobalTable {
            entries,
            board_mask: set.size.mask(),
            squares: set.size.squares(),
        }
    }

    /// The term of `own` to move against `other` in `stage`: two move generations and
    /// one read.
    #[inline]
    pub(super) fn units(&self, own: u64, other: u64, stage: usize) -> [i32; 2] {
        let mobility = othello::raw::legal_moves(own, other, self.board_mask).count_ones();
        let opponent = othello::raw::legal_moves(other, own, self.board_mask).count_ones();
        let empties = self.squares - (own | other).count_ones();
        self.entries[index(stage, empties, mobility, opponent)]
    }
}
