//! A position's children read from the position's own pattern indices plus what each move
//! changes (Edax `src/eval.c`, `eval_update`; Egaroucid `src/engine/evaluate_simd.hpp`,
//! `calc_pattern_diff`): a move places one disc and flips a few, so only the instances
//! through those squares read another entry. What a pattern network's priors value, and
//! what the midgame search reads a node's leaves by (`midgame::StaticEval::child`).

use super::{PatternTables, MAX_INSTANCES};

impl PatternTables {
    /// Whether a search reads a node's children faster from the node's indices
    /// ([`PatternTables::read_children`]) than each afresh. Not where `pext` gathers an
    /// instance in one instruction: there a fresh reading's loads run side by side, where
    /// a child's walk over the instances its move changes waits on each (alpha-beta over
    /// the shipped network at depth 10, 12 positions, twelve rounds of each in turn on this
    /// project's 2-core machine beside the training run: 8.0 million nodes a second
    /// afresh, 7.4 million from the parent; MCTS with two-ply leaves, no change). Where
    /// each disc adds its digits instead (the browser's wasm), a fresh reading walks every
    /// disc's instances and a child only those its move changes.
    pub const CHILDREN_FROM_PARENT: bool =
        !cfg!(all(target_arch = "x86_64", target_feature = "bmi2"));

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
        let [scores, values] = [0, 1].map(|o| self.block(o, stage(discs)));
        let mut reading = ChildReading::new();
        reading.start(self, own, other, 1);
        let child_block = self.block(1, reading.child_stage);
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
        reading.base[1] = base;
        let mut children = Children {
            tables: self,
            reading,
            parent: [score, value],
        };
        read(&mut children)
    }

    /// Reads `own` to move against `other` into `reading` for its children's `output` (0
    /// the score, 1 the value logit): [`PatternTables::child_units`] then gives each
    /// child's units. The cost of one [`PatternTables::unit_sum`]; each child after it
    /// costs the instances its move changes. `own` must have a legal move.
    #[inline]
    pub fn read_children(&self, own: u64, other: u64, output: usize, reading: &mut ChildReading) {
        reading.start(self, own, other, output);
        let block = self.block(output, reading.child_stage);
        let mut base = 0i32;
        let digits = self.digits(own, other);
        for (i, (reader, index)) in self.readers.iter().zip(&mut reading.index).enumerate() {
            let (mine, theirs) = digits.get(self, reader, i);
            *index = theirs + 2 * mine;
            base += i32::from(block[reader.offset + usize::from(*index)]);
        }
        reading.base[output] = base;
    }

    /// [`PatternTables::read_children`] for both outputs at once: then
    /// [`PatternTables::child_unit_pair`] gives each child's score and value logit units
    /// for the cost of one output's and the second output's entries. What a search that
    /// values children where it reads their priors wants (each child's evaluation).
    #[inline]
    pub fn read_children_pair(&self, own: u64, other: u64, reading: &mut ChildReading) {
        reading.start(self, own, other, 1);
        let blocks = [0, 1].map(|o| self.block(o, reading.child_stage));
        let mut base = [0i32; 2];
        let digits = self.digits(own, other);
        for (i, (reader, index)) in self.readers.iter().zip(&mut reading.index).enumerate() {
            let (mine, theirs) = digits.get(self, reader, i);
            *index = theirs + 2 * mine;
            let at = reader.offset + usize::from(*index);
            base[0] += i32::from(blocks[0][at]);
            base[1] += i32::from(blocks[1][at]);
        }
        reading.base = base;
    }

    /// Reads `own` to move against `other` into `indices` as its own side to move sees it
    /// (each instance's index), for [`PatternTables::read_children_of_child`]: the cost of
    /// one [`PatternTables::unit_sum`] without its entries.
    #[inline]
    pub fn read_indices(&self, own: u64, other: u64, indices: &mut PositionIndices) {
        let digits = self.digits(own, other);
        for (i, (reader, index)) in self.readers.iter().zip(&mut indices.index).enumerate() {
            let (mine, theirs) = digits.get(self, reader, i);
            *index = mine + 2 * theirs;
        }
    }

    /// [`PatternTables::read_children`] of a child of the position read into `indices`
    /// ([`PatternTables::read_indices`]): the one where its side to move places a disc on
    /// `square`, flipping `flipped`, which leaves `own` to move against `other`. The
    /// child's indices, as its children's side to move (the position's) sees them, are the
    /// position's own changed where the move placed and flipped, so no disc is read again.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn read_children_of_child(
        &self,
        indices: &PositionIndices,
        square: u32,
        flipped: u64,
        own: u64,
        other: u64,
        output: usize,
        reading: &mut ChildReading,
    ) {
        reading.start(self, own, other, output);
        let count = self.readers.len();
        reading.index[..count].copy_from_slice(&indices.index[..count]);
        // In the position's side to move's view the placed disc goes from empty to its
        // own (digit 0 to 1), a flipped one from the opponent's to its own (2 to 1).
        let square = square as usize;
        let (start, end) = (self.through_start[square], self.through_start[square + 1]);
        for through in &self.through[usize::from(start)..usize::from(end)] {
            reading.index[usize::from(through.instance)] += through.weight;
        }
        let mut rest = flipped;
        while rest != 0 {
            let sq = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (start, end) = (self.through_start[sq], self.through_start[sq + 1]);
            for through in &self.through[usize::from(start)..usize::from(end)] {
                reading.index[usize::from(through.instance)] -= through.weight;
            }
        }
        let block = self.block(output, reading.child_stage);
        reading.base[output] = self
            .readers
            .iter()
            .zip(&reading.index)
            .map(|(reader, &index)| i32::from(block[reader.offset + usize::from(index)]))
            .sum();
    }

    /// The `reading`'s output in units for the child where the read position's side to
    /// move places a disc on `square`, flipping `flipped`, for the child's side to move:
    /// what [`PatternTables::unit_sum`] gives for the child, to the unit (integer sums in
    /// another order).
    #[inline]
    pub fn child_units(&self, reading: &mut ChildReading, square: u32, flipped: u64) -> i32 {
        let block = self.block(reading.output, reading.child_stage);
        let count = self.touch(reading, square, flipped);
        let mut units = reading.base[reading.output];
        for &instance in &reading.touched[..count] {
            let instance = usize::from(instance);
            let offset = self.readers[instance].offset;
            let before = usize::from(reading.index[instance]);
            let after = before + usize::from(reading.delta[instance]);
            units += i32::from(block[offset + after]) - i32::from(block[offset + before]);
            reading.delta[instance] = 0;
        }
        if let Some(global) = &self.global {
            let (own, other) = reading.child_discs(square, flipped);
            units += global.units(own, other, reading.child_stage)[reading.output];
        }
        units
    }

    /// Both outputs of a child of a position read by
    /// [`PatternTables::read_children_pair`] (score units, value logit units), for the
    /// child's side to move: what [`PatternTables::unit_sums`] gives for the child, to the
    /// unit.
    #[inline]
    pub fn child_unit_pair(
        &self,
        reading: &mut ChildReading,
        square: u32,
        flipped: u64,
    ) -> [i32; 2] {
        let blocks = [0, 1].map(|o| self.block(o, reading.child_stage));
        let count = self.touch(reading, square, flipped);
        let mut units = reading.base;
        for &instance in &reading.touched[..count] {
            let instance = usize::from(instance);
            let offset = self.readers[instance].offset;
            let before = offset + usize::from(reading.index[instance]);
            let after = before + usize::from(reading.delta[instance]);
            units[0] += i32::from(blocks[0][after]) - i32::from(blocks[0][before]);
            units[1] += i32::from(blocks[1][after]) - i32::from(blocks[1][before]);
            reading.delta[instance] = 0;
        }
        if let Some(global) = &self.global {
            let (own, other) = reading.child_discs(square, flipped);
            let [s, v] = global.units(own, other, reading.child_stage);
            units[0] += s;
            units[1] += v;
        }
        units
    }

    /// Marks in `reading` the instances the move on `square` flipping `flipped` changes
    /// (`touched`, in the order first met) and by how much (`delta`, which the caller
    /// sets back to 0); returns how many.
    #[inline]
    fn touch(&self, reading: &mut ChildReading, square: u32, flipped: u64) -> usize {
        let mut count = 0;
        // In the child's side to move's view the placed disc goes from empty to the
        // opponent's (digit 0 to 2) and a flipped one from its own to the opponent's
        // (1 to 2): every change adds, so a delta of 0 is an instance not yet touched.
        let mut changed = flipped | 1u64 << square;
        while changed != 0 {
            let sq = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            let times = if sq == square as usize { 2 } else { 1 };
            let start = usize::from(self.through_start[sq]);
            let end = usize::from(self.through_start[sq + 1]);
            for through in &self.through[start..end] {
                let instance = usize::from(through.instance);
                if reading.delta[instance] == 0 {
                    reading.touched[count] = through.instance;
                    count += 1;
                }
                reading.delta[instance] += times * through.weight;
            }
        }
        count
    }
}

/// A position read for its children ([`PatternTables::read_children`]): each instance's
/// index as the children's side to move reads the position, and what one output's
/// entries of the children's stage sum to there.
#[derive(Clone, Debug)]
pub struct ChildReading {
    index: [u16; MAX_INSTANCES],
    /// The read output's units of the position as the children's side to move reads it
    /// (both, after [`PatternTables::read_children_pair`]), by output.
    base: [i32; 2],
    /// Each instance's change of index under the move being read; 0 between moves.
    delta: [u16; MAX_INSTANCES],
    /// The instances the move being read changes, in the order first met.
    touched: [u16; MAX_INSTANCES],
    /// The output read (0 the score, 1 the value logit).
    output: usize,
    /// The position (its side to move's discs, the opponent's) and its children's stage,
    /// for the global network's term, which each child reads afresh (its mobilities are
    /// its own, not its parent's plus a change).
    own: u64,
    other: u64,
    child_stage: usize,
}

impl ChildReading {
    /// A reading of no position yet: [`PatternTables::read_children`] fills it.
    pub fn new() -> ChildReading {
        ChildReading {
            index: [0; MAX_INSTANCES],
            base: [0; 2],
            delta: [0; MAX_INSTANCES],
            touched: [0; MAX_INSTANCES],
            output: 1,
            own: 0,
            other: 0,
            child_stage: 0,
        }
    }

    /// Sets what is read (the indices and base are the caller's to fill).
    #[inline]
    fn start(&mut self, tables: &PatternTables, own: u64, other: u64, output: usize) {
        let discs = (own | other).count_ones() as usize + 1;
        self.child_stage = usize::from(tables.stage_of_discs[discs.min(64)]);
        (self.own, self.other, self.output) = (own, other, output);
    }

    /// The child's side to move's discs and the opponent's, where the read position's side
    /// to move places a disc on `square`, flipping `flipped`.
    #[inline]
    fn child_discs(&self, square: u32, flipped: u64) -> (u64, u64) {
        let placed = 1u64 << square;
        (self.other & !flipped, self.own | flipped | placed)
    }
}

impl Default for ChildReading {
    fn default() -> Self {
        ChildReading::new()
    }
}

/// A position's pattern indices as its own side to move sees them
/// ([`PatternTables::read_indices`]), from which its children are read for theirs
/// ([`PatternTables::read_children_of_child`]).
#[derive(Clone, Debug)]
pub struct PositionIndices {
    index: [u16; MAX_INSTANCES],
}

impl PositionIndices {
    /// The indices of no position yet: [`PatternTables::read_indices`] fills them.
    pub fn new() -> PositionIndices {
        PositionIndices {
            index: [0; MAX_INSTANCES],
        }
    }
}

impl Default for PositionIndices {
    fn default() -> Self {
        PositionIndices::new()
    }
}

/// A position's reading for its children ([`PatternTables::with_children`]): its own sums,
/// and its reading for the children's value logit.
#[derive(Clone, Debug)]
pub struct Children<'a> {
    tables: &'a PatternTables,
    reading: ChildReading,
    parent: [i32; 2],
}

impl Children<'_> {
    /// The position's own [`PatternTables::unit_sums`].
    pub fn parent_units(&self) -> [i32; 2] {
        self.parent
    }

    /// The value logit units of the child where the position's side to move places a disc
    /// on `square`, flipping `flipped`, for the child's side to move: what
    /// [`PatternTables::unit_sums`] gives for the child, to the unit.
    #[inline]
    pub fn value_units(&mut self, square: u32, flipped: u64) -> i32 {
        self.tables.child_units(&mut self.reading, square, flipped)
    }
}
