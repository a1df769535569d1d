//! A pattern network turned into lookup tables: every pattern's network run once over every
//! configuration of its squares in every stage (Egaroucid for Web's `evaluate_init`,
//! `src/web/evaluate.hpp`, at load; here each stage when a search first reaches it, where
//! the patterns are walked from their layers: `stages`); a position's evaluation is then a
//! sum of table entries.
//!
//! Reading an instance: its squares are gathered from the side to move's discs and from
//! the opponent's with one `pext` each (BMI2), which packs them in ascending square order;
//! a 1,024-entry table of the instance's own turns each packed set of bits into its share
//! of the pattern's base-3 index (digit 0 empty, 1 own, 2 opponent). Where there is no
//! `pext` (the browser's wasm), each disc adds its digit to the instances through its
//! square instead: 1.7-2.1 times as fast there as a loop emulating `pext` bit by bit
//! (natively without BMI2, 2026-11-30), and 0.4 times as fast as `pext`. The tables index a configuration by its
//! pattern's squares in ascending square order, digit j of the j-th lowest square weighted
//! 3^j, so every instance of a pattern reads the same entries. Edax (`src/eval.c`,
//! `eval_update`) and Egaroucid (`src/engine/evaluate_simd.hpp`, `calc_pattern_diff`) keep
//! their indices current move by move instead; the search here evaluates fresh positions,
//! but a position's children, which its priors value and which the midgame search reads at
//! the nodes above its leaves, are read from the position's own indices plus what each move
//! changes ([`PatternTables::with_children`], [`PatternTables::read_children`]): a move
//! places one disc and flips a few, so only the instances through those squares read
//! another entry.

use std::sync::Arc;

use super::set::{PatternSet, MAX_PATTERNS};
use super::walk::PatternLayers;

mod children;
mod global;
mod stages;
pub use children::{ChildReading, PositionIndices};
use global::GlobalTable;
use othello::Position;
use stages::{Block, LazyBlock, StageSource};

/// Why running a pattern network failed, in the words a loaded network uses for the same
/// failure (`network::ModelError`'s `Run` and `Contract`, which it becomes there). An error
/// of the patterns' own, so that this module stays below the network interface.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum PatternRunError {
    /// The runtime failed to run it.
    #[error("running the model failed: {0}")]
    Run(String),
    /// It ran, but gave what the contract does not allow.
    #[error("the model does not follow the contract: {0}")]
    Contract(String),
}

/// Runs one pattern's network, the engine's view of whatever runtime holds it.
pub trait PatternRunner {
    /// `count` rows of the contract's input for `pattern` (`2s + 1` values each); returns
    /// its two outputs a row (score, value logit).
    fn run_pattern(
        &mut self,
        pattern: usize,
        rows: &[f32],
        count: usize,
    ) -> Result<Vec<f32>, PatternRunError>;

    /// `pattern`'s network as plain dense layers, where the runtime can read them from
    /// the model: the tables are then walked from the weights (`walk`) rather than run.
    fn layers(&self, _pattern: usize) -> Option<&PatternLayers> {
        None
    }

    /// `count` rows of the global network's input (`GLOBAL_FEATURES`, 4 values each);
    /// returns its two outputs a row. Only a set with a global network asks.
    fn run_global(&mut self, _rows: &[f32], _count: usize) -> Result<Vec<f32>, PatternRunError> {
        Err(PatternRunError::Contract(
            "this runtime does not run a pattern network's global network".into(),
        ))
    }
}

/// Rows a runner is given at once while the tables are built: about 1.4 MB of input for
/// a 10-square pattern, small enough for a browser worker.
pub const BUILD_CHUNK: usize = 16_384;

/// One entry: the contributions to the score and to the value logit.
pub type Entry = [f32; 2];

/// The largest stored value of a table entry: entries are kept as 16-bit integers, each
/// output scaled so that its largest entry is this, as Egaroucid and Edax keep theirs. A
/// stage's block of the 8x8 base set is then 0.9 MB (both outputs), which a core's 1 MB
/// L2 cache holds, where 32-bit floats made 1.8 MB and a position's 46 reads went out to
/// L3: 5.1 million positions a second became 11.9 million (`othello bench network` on
/// this project's 2-core machine). One array an output halves what a search over one
/// output reads again (docs/pattern.md: alpha-beta with Egaroucid 7's set 1.37 times as fast).
const QUANTUM_MAX: f32 = 32_767.0;

/// A pattern network's tables, and how to read a position into them.
#[derive(Clone, Debug)]
pub struct PatternTables {
    set: PatternSet,
    /// Each pattern's first entry within one stage's block.
    offsets: Vec<usize>,
    /// Entries in one stage's block (the sum of every pattern's 3^s).
    stage_len: usize,
    /// Each stage's block, one array an output (score, value logit): one stage's block is
    /// all a position reads, and a search that wants one output reads one array, half
    /// the bytes of both side by side (Egaroucid keeps one output a table). Each output
    /// in units of `step`. Built when first read where the patterns are walked from their
    /// layers (`source`), all at once where a runtime runs them.
    stages: Vec<LazyBlock>,
    source: Option<Arc<StageSource>>,
    /// What one unit of a stored entry is worth, per output: the same in every stage.
    step: [f32; 2],
    readers: Vec<Reader>,
    /// `ternary[reader.ternary + bits]`: the gathered bits of an instance's squares as
    /// their share of its pattern's index, 1,024 entries a distinct order of digits
    /// (instances whose squares take their digits in the same order share one, which
    /// keeps this small enough to stay in a core's L1 cache beside the entries it points at).
    /// Read where `pext` gathers the bits; elsewhere only the checks read it.
    #[cfg_attr(
        not(all(target_arch = "x86_64", target_feature = "bmi2")),
        allow(dead_code)
    )]
    ternary: Vec<u16>,
    /// The stage of a position with this many discs (`PatternSet::stage_of_discs`), so a
    /// sum on raw bitboards needs no division.
    stage_of_discs: [u8; 65],
    /// `through[through_start[sq]..through_start[sq + 1]]`: the instances through square
    /// `sq`, each with its digit's weight there, for [`PatternTables::with_children`].
    through: Vec<Through>,
    through_start: [u16; 65],
    /// The global network's term, where the set has one: one branch a position for the
    /// networks without it.
    global: Option<GlobalTable>,
}

/// The most instances a set has: every pattern with eight distinct images.
const MAX_INSTANCES: usize = MAX_PATTERNS * 8;

/// One instance through a square, and what a disc there weighs in its index (3^digit).
#[derive(Clone, Copy, Debug)]
struct Through {
    instance: u16,
    weight: u16,
}

/// How one instance is read.
#[derive(Clone, Copy, Debug)]
struct Reader {
    /// The instance's squares (read where `pext` gathers them; elsewhere by the checks).
    #[cfg_attr(
        not(all(target_arch = "x86_64", target_feature = "bmi2")),
        allow(dead_code)
    )]
    mask: u64,
    /// Its block in `ternary`.
    #[cfg_attr(
        not(all(target_arch = "x86_64", target_feature = "bmi2")),
        allow(dead_code)
    )]
    ternary: usize,
    /// Its pattern's first entry in a stage's block.
    offset: usize,
}

/// `x`'s bits under `mask`, packed from bit 0 up: one instruction where the target has
/// BMI2 (the native build's x86-64-v3).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline]
fn gather(x: u64, mask: u64) -> u64 {
    // SAFETY: this code is compiled only where the target has BMI2 (the cfg above), so
    // the instruction exists on every machine the binary runs on.
    unsafe { std::arch::x86_64::_pext_u64(x, mask) }
}

/// A position's base-3 digits in each instance, each disc worth 1 (an instance's index for
/// the side to move is its own digits plus twice the opponent's): gathered by `pext`
/// instance by instance where the target has it, through the instance's ternary table;
/// elsewhere (the browser's wasm) added up disc by disc first
/// ([`PatternTables::add_digits`]), which costs the discs' instances where a loop emulating
/// `pext` bit by bit cost every instance's squares and a branch each. (Gathered into
/// arrays first, or read through a closure, the `pext` path lost a tenth to a quarter of
/// alpha-beta's speed natively: it stays the loop it was.)
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
struct Digits {
    own: u64,
    other: u64,
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
struct Digits {
    mine: [u16; MAX_INSTANCES],
    theirs: [u16; MAX_INSTANCES],
}

impl Digits {
    /// The side to move's digits and the opponent's in `reader`'s instance, the `i`-th.
    #[inline]
    fn get(&self, tables: &PatternTables, reader: &Reader, i: usize) -> (u16, u16) {
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        {
            let _ = i;
            let ternary = &tables.ternary[reader.ternary..reader.ternary + 1024];
            (
                ternary[gather(self.own, reader.mask) as usize],
                ternary[gather(self.other, reader.mask) as usize],
            )
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        {
            let _ = (tables, reader);
            (self.mine[i], self.theirs[i])
        }
    }
}

impl PatternTables {
    /// The tables of `set`'s network: walked from the patterns' layers a stage at a time
    /// as the search first reads each (`stages`), where the runner gives every pattern's
    /// layers; otherwise every pattern's network run over every configuration and stage
    /// now.
    pub fn build(set: PatternSet, runner: &mut dyn PatternRunner) -> Result<Self, PatternRunError> {
        let mut offsets = Vec::with_capacity(set.patterns.len());
        let mut stage_len = 0;
        for pattern in &set.patterns {
            offsets.push(stage_len);
            stage_len += pattern.configurations();
        }
        let global = if set.global {
            Some(global::run(&set, runner)?)
        } else {
            None
        };
        let layers: Option<Vec<PatternLayers>> = (0..set.patterns.len())
            .map(|p| runner.layers(p).cloned())
            .collect();
        if let Some(layers) = layers {
            let source = StageSource::new(&set, layers);
            let step = stages::step_for(largest_with_global(source.bound(), global.as_deref()));
            let blocks = (0..set.stages).map(|_| LazyBlock::new()).collect();
            let source = Some(Arc::new(source));
            return Ok(Self::assemble(
                set, offsets, stage_len, blocks, source, step, global,
            ));
        }
        let stages = set.stages as usize;
        let mut entries = vec![[0.0f32; 2]; stage_len * stages];
        for (p, pattern) in set.patterns.iter().enumerate() {
            let rows = ConfigurationRows::new(&set, p);
            let per_stage = pattern.configurations();
            let total = per_stage * stages;
            let mut start = 0;
            while start < total {
                let count = BUILD_CHUNK.min(total - start);
                let mut input = Vec::with_capacity(count * rows.width);
                for row in start..start + count {
                    rows.write(row / per_stage, row % per_stage, &mut input);
                }
                let out = runner.run_pattern(p, &input, count)?;
                if out.len() != 2 * count {
                    return Err(PatternRunError::Contract(format!(
                        "out_{p} gave {} values for {count} rows; expected 2 a row",
                        out.len()
                    )));
                }
                for (i, pair) in out.chunks_exact(2).enumerate() {
                    let row = start + i;
                    let (stage, config) = (row / per_stage, row % per_stage);
                    entries[stage * stage_len + offsets[p] + config] = [pair[0], pair[1]];
                }
                start += count;
            }
            let images = stages::symmetry_images(&set, p);
            for stage in 0..stages {
                let block = &mut entries[stage * stage_len + offsets[p]..][..per_stage];
                stages::average(block, &images);
            }
        }
        Ok(Self::with_entries(set, offsets, stage_len, entries, global))
    }

    /// Tables of every stage's exact entries (`exact[stage * stage_len + offset + config]`),
    /// quantized under the step their largest entry gives.
    fn with_entries(
        set: PatternSet,
        offsets: Vec<usize>,
        stage_len: usize,
        exact: Vec<Entry>,
        global: Option<Vec<Entry>>,
    ) -> Self {
        let largest = stages::largest_abs(exact.iter().copied());
        let step = stages::step_for(largest_with_global(largest, global.as_deref()));
        let blocks = (0..set.stages as usize)
            .map(|stage| {
                let exact = &exact[stage * stage_len..][..stage_len];
                LazyBlock::from(stages::quantize(exact, step))
            })
            .collect();
        Self::assemble(set, offsets, stage_len, blocks, None, step, global)
    }

    /// The tables around their stage blocks (`stage_len` entries each, built or to build
    /// from `source`): how each instance is read.
    fn assemble(
        set: PatternSet,
        offsets: Vec<usize>,
        stage_len: usize,
        stages: Vec<LazyBlock>,
        source: Option<Arc<StageSource>>,
        step: Entry,
        global: Option<Vec<Entry>>,
    ) -> Self {
        let mut readers = Vec::with_capacity(set.instances.len());
        let mut ternary = Vec::with_capacity(set.instances.len() * 1024);
        // The distinct orders of digits met so far, the i-th at `ternary[i * 1024..]`.
        let mut orders: Vec<Vec<u16>> = Vec::new();
        // (square, instance, weight) for every square of every instance.
        let mut squares_through: Vec<(usize, Through)> = Vec::new();
        for (i, &instance) in set.instances.iter().enumerate() {
            let base = &set.patterns[instance.pattern].squares;
            let squares = set.instance_squares(instance);
            let mask = squares.iter().fold(0u64, |m, sq| m | sq.bit());
            // The k-th lowest square of the instance is the image of pattern square k'
            // (card order), whose digit is its rank among the pattern's own squares.
            let mut weights: Vec<u16> = Vec::with_capacity(squares.len());
            let mut ascending = squares.clone();
            ascending.sort_by_key(|sq| sq.index());
            for sq in &ascending {
                let k = squares.iter().position(|s| s == sq).unwrap_or(0);
                let rank = base.iter().filter(|o| o.index() < base[k].index()).count();
                let weight = 3u16.pow(rank as u32);
                weights.push(weight);
                let through = Through {
                    instance: i as u16,
                    weight,
                };
                squares_through.push((sq.index() as usize, through));
            }
            readers.push(Reader {
                mask,
                ternary: ternary_block(&mut ternary, &mut orders, weights),
                offset: offsets[instance.pattern],
            });
        }
        let mut stage_of_discs = [0u8; 65];
        for (discs, stage) in stage_of_discs.iter_mut().enumerate() {
            *stage = set.stage_of_discs(discs as u32) as u8;
        }
        // A stable sort: each square's instances stay in the readers' order.
        squares_through.sort_by_key(|&(sq, _)| sq);
        let mut through_start = [0u16; 65];
        for (sq, start) in through_start.iter_mut().enumerate() {
            *start = squares_through.partition_point(|&(s, _)| s < sq) as u16;
        }
        let through = squares_through.into_iter().map(|(_, t)| t).collect();
        let global = global.map(|exact| GlobalTable::new(&set, &exact, step));
        PatternTables {
            set,
            offsets,
            stage_len,
            stages,
            source,
            step,
            readers,
            ternary,
            stage_of_discs,
            through,
            through_start,
            global,
        }
    }

    pub fn set(&self) -> &PatternSet {
        &self.set
    }

    /// Whether a global network's term is added to the patterns' sums.
    pub fn has_global(&self) -> bool {
        self.global.is_some()
    }

    /// The tables' size in bytes, every stage built.
    pub fn bytes(&self) -> usize {
        2 * self.stage_len * self.stages.len() * std::mem::size_of::<i16>()
    }

    /// How many stages' blocks are built so far.
    pub fn built_stages(&self) -> usize {
        self.stages.iter().filter(|b| b.get().is_some()).count()
    }

    /// Builds every stage's block not yet built: what a reader that wants no build in
    /// its way (a benchmark's timing) does first.
    pub fn build_every_stage(&self) {
        for stage in 0..self.stages.len() {
            self.stage_block(stage);
        }
    }

    /// The summed outputs of every instance (score sum, value logit sum) for the side
    /// to move: the fast path.
    pub fn sums(&self, pos: &Position) -> Entry {
        self.sums_of_units(self.unit_sums(pos.player().0, pos.opponent().0))
    }

    /// The sums that [`PatternTables::unit_sums`]' units stand for.
    pub(crate) fn sums_of_units(&self, [score, value]: [i32; 2]) -> Entry {
        [score as f32 * self.step[0], value as f32 * self.step[1]]
    }

    /// [`PatternTables::sums`] in units of [`PatternTables::step`], for `own` to move
    /// against `other` on raw bitboards: what an alpha-beta search adds up, with no
    /// position to build and no float until its caller wants one.
    #[inline]
    pub fn unit_sums(&self, own: u64, other: u64) -> [i32; 2] {
        let stage = self.stage_of_discs[(own | other).count_ones() as usize];
        let [scores, values] = [0, 1].map(|o| self.block(o, usize::from(stage)));
        let (mut score, mut value) = (0i32, 0i32);
        let digits = self.digits(own, other);
        for (i, reader) in self.readers.iter().enumerate() {
            let (mine, theirs) = digits.get(self, reader, i);
            let index = reader.offset + usize::from(mine) + 2 * usize::from(theirs);
            score += i32::from(scores[index]);
            value += i32::from(values[index]);
        }
        if let Some(global) = &self.global {
            let [s, v] = global.units(own, other, usize::from(stage));
            score += s;
            value += v;
        }
        [score, value]
    }

    /// One output of [`PatternTables::unit_sums`] (0 the score, 1 the value logit): what
    /// an alpha-beta search over that output adds up, reading that output's entries alone.
    #[inline]
    pub fn unit_sum(&self, own: u64, other: u64, output: usize) -> i32 {
        let stage = usize::from(self.stage_of_discs[(own | other).count_ones() as usize]);
        let block = self.block(output, stage);
        let mut sum = 0i32;
        let digits = self.digits(own, other);
        for (i, reader) in self.readers.iter().enumerate() {
            let (mine, theirs) = digits.get(self, reader, i);
            sum += i32::from(block[reader.offset + usize::from(mine) + 2 * usize::from(theirs)]);
        }
        if let Some(global) = &self.global {
            sum += global.units(own, other, stage)[output];
        }
        sum
    }

    /// `output`'s entries of `stage`.
    #[inline]
    fn block(&self, output: usize, stage: usize) -> &[i16] {
        &self.stage_block(stage)[output]
    }

    /// `stage`'s block, built now if no reader has built it yet.
    #[inline]
    fn stage_block(&self, stage: usize) -> &Block {
        self.stages[stage].get_or_init(|| match &self.source {
            Some(source) => source.block(stage, &self.offsets, self.stage_len, self.step),
            // Tables without a source are built whole (`with_entries`).
            None => [0, 1].map(|_| vec![0; self.stage_len].into_boxed_slice()),
        })
    }

    /// How [`Digits::get`] reads each instance's digits of `own` to move against `other`.
    #[inline]
    fn digits(&self, own: u64, other: u64) -> Digits {
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        {
            Digits { own, other }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        {
            let (mut mine, mut theirs) = ([0u16; MAX_INSTANCES], [0u16; MAX_INSTANCES]);
            self.add_digits(own, &mut mine);
            self.add_digits(other, &mut theirs);
            Digits { mine, theirs }
        }
    }

    /// Adds each of `x`'s discs' digit weights to the instances through its square.
    #[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
    #[inline]
    fn add_digits(&self, x: u64, digits: &mut [u16; MAX_INSTANCES]) {
        let mut discs = x;
        while discs != 0 {
            let sq = discs.trailing_zeros() as usize;
            discs &= discs - 1;
            let start = usize::from(self.through_start[sq]);
            let end = usize::from(self.through_start[sq + 1]);
            for through in &self.through[start..end] {
                digits[usize::from(through.instance)] += through.weight;
            }
        }
    }

    /// What one unit of a stored entry is worth (score, value logit).
    pub fn step(&self) -> Entry {
        self.step
    }

    /// The most [`PatternTables::sums`] can differ from the network's own sums by the
    /// entries' rounding, per output: half a unit an instance, and half a unit for the
    /// global network's term.
    pub fn rounding_bound(&self) -> Entry {
        let terms = self.readers.len() + usize::from(self.global.is_some());
        let half_units = 0.5 * terms as f32;
        [half_units * self.step[0], half_units * self.step[1]]
    }

    /// The position's score (final margin over the squares, for the side to move) and
    /// value (in [-1, 1]), as the contract turns the sums into them.
    pub fn evaluate(&self, pos: &Position) -> (f32, f32) {
        self.evaluate_units(self.unit_sums(pos.player().0, pos.opponent().0))
    }

    /// [`PatternTables::evaluate`] of a position whose [`PatternTables::unit_sums`] are
    /// `units` (a reading for its children gives them on the way).
    pub fn evaluate_units(&self, units: [i32; 2]) -> (f32, f32) {
        Self::evaluate_sums(self.sums_of_units(units))
    }

    /// The score and value the contract makes of the summed outputs
    /// ([`PatternTables::sums`]).
    pub fn evaluate_sums([score, value_logit]: Entry) -> (f32, f32) {
        (score.clamp(-1.0, 1.0), value_logit.tanh())
    }

    /// The entry of `pattern` for `configuration` (digits in ascending square order) in
    /// `stage`, for checks.
    pub fn entry(&self, stage: usize, pattern: usize, configuration: usize) -> Entry {
        let at = self.offsets[pattern] + configuration;
        [0, 1].map(|o| f32::from(self.block(o, stage)[at]) * self.step[o])
    }
}

/// Where in `ternary` the block for an instance whose ascending squares weigh `weights`
/// starts: the block of an earlier instance with the same order of digits, or a new one.
fn ternary_block(ternary: &mut Vec<u16>, orders: &mut Vec<Vec<u16>>, weights: Vec<u16>) -> usize {
    if let Some(known) = orders.iter().position(|o| *o == weights) {
        return known * 1024;
    }
    ternary.extend((0..1024usize).map(|bits| {
        weights
            .iter()
            .enumerate()
            .filter(|(j, _)| bits >> j & 1 != 0)
            .map(|(_, w)| *w)
            .sum::<u16>()
    }));
    orders.push(weights);
    ternary.len() - 1024
}

/// `largest` (per output) or the global network's largest entry, whichever is larger:
/// the global entries share the patterns' step.
fn largest_with_global(largest: Entry, global: Option<&[Entry]>) -> Entry {
    stages::largest_abs(
        [largest]
            .into_iter()
            .chain(global.into_iter().flatten().copied()),
    )
}

/// Writes the network input of one configuration of one pattern in one stage.
struct ConfigurationRows {
    /// For each of the pattern's squares in the card's order, its rank among the pattern's
    /// squares in ascending square order (the digit that holds it).
    rank: Vec<u32>,
    stage_inputs: Vec<f32>,
    width: usize,
}

impl ConfigurationRows {
    fn new(set: &PatternSet, pattern: usize) -> Self {
        let squares = &set.patterns[pattern].squares;
        let rank = stages::digit_ranks(set, pattern);
        let stage_inputs = (0..set.stages as usize)
            .map(|s| set.stage_input(s))
            .collect();
        ConfigurationRows {
            rank,
            stage_inputs,
            width: 2 * squares.len() + 1,
        }
    }

    fn write(&self, stage: usize, configuration: usize, out: &mut Vec<f32>) {
        let digit = |rank: u32| (configuration / 3usize.pow(rank)) % 3;
        out.extend(
            self.rank
                .iter()
                .map(|&r| f32::from(u8::from(digit(r) == 1))),
        );
        out.extend(
            self.rank
                .iter()
                .map(|&r| f32::from(u8::from(digit(r) == 2))),
        );
        out.push(self.stage_inputs[stage]);
    }
}

#[cfg(test)]
pub(super) mod tests;
