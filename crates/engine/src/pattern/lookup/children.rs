//! A position's children read from the position's own pattern indices plus what each move
//! changes (Edax `src/eval.c`, `eval_update`; Egaroucid `src/engine/evaluate_simd.hpp`,
//! `calc_pattern_diff`): a move places one disc and flips a few, so only the instances
//! through those squares read another entry. What a pattern network's priors value.

use super::{PatternTables, MAX_INSTANCES};

impl PatternTables {
    /// `own` to move against `other` read once for itself and for its children, handed
    /// to `read`: [`Children::parent_units`] is [`PatternTables::unit_sums`] of the
    /// position, and [`Children::value_units`] each child's value logit units, for the
    /// child's side to move, from only the instances its move changes. `own` must have a
    /// legal move (the children's stage is that of one more disc).
    ///
    /// Lent rather than returned: a reading returned was copied whole, its 1.6 KB of
    /// arrays, on every call, a tenth of the MCTS bench's search time (`perf`, and `gdb`
    /// at the memcpy under `PatternEvaluator::priors_into`), whether built in locals or in
    /// place.
    #[inline]
    pub fn with_children<R>(
        &self,
        own: u64,
        other: u64,
        read: impl FnOnce(&mut Children<'_>) -> R,
    ) -> R {
        let discs = (own | other).count_ones() as usize;
        let stage = |discs: usize| usize::from(self.stage_of_discs[discs.min(64)]);
        let child_stage = stage(discs + 1);
        let [scores, values] = [0, 1].map(|o| self.block(o, stage(discs)));
        let child_block = self.block(1, child_stage);
        let mut reading = Children {
            tables: self,
            block: child_block,
            index: [0; MAX_INSTANCES],
            base: 0,
            parent: [0; 2],
            delta: [0; MAX_INSTANCES],
            touched: [0; MAX_INSTANCES],
            own,
            other,
            child_stage,
        };
        let (mut score, mut value, mut base) = (0i32, 0i32, 0i32);
        let digits = self.digits(own, other);
        for (i, (reader, index)) in self.readers.iter().zip(&mut reading.index).enumerate() {
            let (mine, theirs) = digits.get(self, reader, i);
            let own_index = reader.offset + usize::from(mine) + 2 * usize::from(theirs);
            score += i32::from(scores[own_index]);
            value += i32::from(values[own_index]);
            // The children's side to move is `other`: its discs are digit 1, `own`'s 2.
            *index = theirs + 2 * mine;
            base += i32::from(child_block[reader.offset + usize::from(*index)]);
        }
        if let Some(global) = &self.global {
            let [s, v] = global.units(own, other, stage(discs));
            score += s;
            value += v;
        }
        reading.base = base;
        reading.parent = [score, value];
        read(&mut reading)
    }
}

/// A position's reading for its children ([`PatternTables::with_children`]): each instance's
/// index as the children's side to move reads the position, and what their stage's
/// entries sum to there.
#[derive(Clone, Debug)]
pub struct Children<'a> {
    tables: &'a PatternTables,
    /// The children's stage's block of value entries.
    block: &'a [i16],
    index: [u16; MAX_INSTANCES],
    /// The value units of the position as the children's side to move reads it.
    base: i32,
    parent: [i32; 2],
    /// Each instance's change of index under the move being read; 0 between moves.
    delta: [u16; MAX_INSTANCES],
    /// The instances the move being read changes, in the order first met.
    touched: [u16; MAX_INSTANCES],
    /// The position (its side to move's discs, the opponent's) and its children's stage,
    /// for the global network's term, which each child reads afresh (its mobilities are
    /// its own, not its parent's plus a change).
    own: u64,
    other: u64,
    child_stage: usize,
}

impl Children<'_> {
    /// The position's own [`PatternTables::unit_sums`].
    pub fn parent_units(&self) -> [i32; 2] {
        self.parent
    }

    /// The value logit units of the child where the position's side to move places a disc
    /// on `square`, flipping `flipped`, for the child's side to move: what
    /// [`PatternTables::unit_sums`] gives for the child, to the unit (integer sums in
    /// another order).
    #[inline]
    pub fn value_units(&mut self, square: u32, flipped: u64) -> i32 {
        let tables = self.tables;
        let mut count = 0;
        // In the child's side to move's view the placed disc goes from empty to the
        // opponent's (digit 0 to 2) and a flipped one from its own to the opponent's
        // (1 to 2): every change adds, so a delta of 0 is an instance not yet touched.
        let mut changed = flipped | 1u64 << square;
        while changed != 0 {
            let sq = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            let times = if sq == square as usize { 2 } else { 1 };
            let start = usize::from(tables.through_start[sq]);
            let end = usize::from(tables.through_start[sq + 1]);
            for through in &tables.through[start..end] {
                let instance = usize::from(through.instance);
                if self.delta[instance] == 0 {
                    self.touched[count] = through.instance;
                    count += 1;
                }
                self.delta[instance] += times * through.weight;
            }
        }
        let mut value = self.base;
        for &instance in &self.touched[..count] {
            let instance = usize::from(instance);
            let offset = tables.readers[instance].offset;
            let before = usize::from(self.index[instance]);
            let after = before + usize::from(self.delta[instance]);
            value += i32::from(self.block[offset + after]) - i32::from(self.block[offset + before]);
            self.delta[instance] = 0;
        }
        if let Some(global) = &tables.global {
            let placed = 1u64 << square;
            let (child_own, child_other) = (self.other & !flipped, self.own | flipped | placed);
            value += global.units(child_own, child_other, self.child_stage)[1];
        }
        value
    }
}
