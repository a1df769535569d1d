//! The tables' stage blocks: each stage's entries for every pattern, made from the
//! patterns' layers when a search first reads that stage rather than all at load. A
//! position reads one stage, and a search from it the few stages within its depth, so the
//! first answer waits for the stages it needs, not for all ten (a 16-pattern network's
//! full build took 1.4-1.5 s in the browser's worker, past issue 67's second; Egaroucid
//! for Web builds every table before its first move, `src/web/evaluate.hpp`). The entries
//! are quantized under a step fixed before any is built: the layers' interval bound
//! (`PatternLayers::bound`), which no entry can pass, so that every stage's units add up
//! on one scale however late it is built.

use std::sync::OnceLock;

use super::super::set::PatternSet;
use super::super::walk::{PatternLayers, Walk};
use super::{Entry, QUANTUM_MAX};

/// One stage's entries, one array an output (score, value logit), in units of the tables'
/// step.
pub(super) type Block = [Box<[i16]>; 2];

/// A stage's block, made at most once, by whichever reader first asks.
pub(super) type LazyBlock = OnceLock<Block>;

/// What building a stage's block needs: each pattern's layers to walk, the order of its
/// digits, the stages' inputs and the symmetries its entries are averaged over.
#[derive(Debug)]
pub(super) struct StageSource {
    layers: Vec<PatternLayers>,
    /// Each pattern's squares in the card's order: the digit that holds each.
    rank: Vec<Vec<u32>>,
    stage_inputs: Vec<f32>,
    /// Each pattern's configurations under each symmetry that keeps its squares, where it
    /// has more than the identity ([`symmetry_images`]); empty for the others.
    images: Vec<Vec<Vec<u32>>>,
}

impl StageSource {
    pub(super) fn new(set: &PatternSet, layers: Vec<PatternLayers>) -> StageSource {
        StageSource {
            layers,
            rank: (0..set.patterns.len())
                .map(|p| digit_ranks(set, p))
                .collect(),
            stage_inputs: (0..set.stages as usize)
                .map(|s| set.stage_input(s))
                .collect(),
            images: (0..set.patterns.len())
                .map(|p| symmetry_images(set, p))
                .collect(),
        }
    }

    /// The largest absolute value an entry of either output can take in any stage.
    pub(super) fn bound(&self) -> Entry {
        largest_abs(self.layers.iter().flat_map(|layers| {
            self.stage_inputs
                .iter()
                .map(move |&stage_input| layers.bound(stage_input))
        }))
    }

    /// `stage`'s block: each pattern walked from its layers at `offsets[p]`, averaged over
    /// its symmetries, in units of `step`.
    pub(super) fn block(
        &self,
        stage: usize,
        offsets: &[usize],
        stage_len: usize,
        step: Entry,
    ) -> Block {
        let mut exact = vec![[0.0f32; 2]; stage_len];
        for (p, layers) in self.layers.iter().enumerate() {
            let part = &mut exact[offsets[p]..][..3usize.pow(self.rank[p].len() as u32)];
            Walk::new(layers, &self.rank[p]).fill(self.stage_inputs[stage], part);
            average(part, &self.images[p]);
        }
        quantize(&exact, step)
    }
}

/// For each of `pattern`'s squares in the card's order, its rank among the pattern's
/// squares in ascending square order: the digit of a configuration that holds it.
pub(super) fn digit_ranks(set: &PatternSet, pattern: usize) -> Vec<u32> {
    let squares = &set.patterns[pattern].squares;
    squares
        .iter()
        .map(|sq| squares.iter().filter(|o| o.index() < sq.index()).count() as u32)
        .collect()
}

/// The largest absolute value of each output over `entries`.
pub(super) fn largest_abs(entries: impl IntoIterator<Item = Entry>) -> Entry {
    entries.into_iter().fold([0.0f32; 2], |largest, e| {
        [largest[0].max(e[0].abs()), largest[1].max(e[1].abs())]
    })
}

/// The step that fits entries as large as `largest` into 16 bits, per output.
pub(super) fn step_for(largest: Entry) -> Entry {
    largest.map(|l| if l > 0.0 { l / QUANTUM_MAX } else { 1.0 })
}

/// `exact` in units of `step`, one array an output.
pub(super) fn quantize(exact: &[Entry], step: Entry) -> Block {
    [0, 1].map(|o| {
        exact
            .iter()
            .map(|e| (e[o] / step[o]).round().clamp(-QUANTUM_MAX, QUANTUM_MAX) as i16)
            .collect()
    })
}

/// `pattern`'s configuration that each configuration becomes under each symmetry of the
/// board that maps the pattern's squares onto themselves, where there is more than the
/// identity; none otherwise.
///
/// The tables average a pattern's entries over those symmetries: a configuration and its
/// image are the same squares read in another order, and a network that is not exactly
/// symmetric answered those differently (the four first moves of 8x8, one position up to
/// symmetry, were valued apart by up to 0.7 discs). Averaging the tables once costs nothing
/// a position, where averaging the network's answers in the search costs eight evaluations
/// (docs/arena.md, "The network's symmetries"). Why the two means are equal: for a turn g,
/// the instance of squares S reads in g(p) what the instance of g⁻¹(S) reads in p,
/// permuted by an element of the pattern's stabiliser; over the eight turns each
/// (instance, stabiliser element) pair comes up equally often.
pub(super) fn symmetry_images(set: &PatternSet, pattern: usize) -> Vec<Vec<u32>> {
    let pattern_def = &set.patterns[pattern];
    let mask = pattern_def.mask();
    // Squares in ascending order: the digit that holds each.
    let mut ascending = pattern_def.squares.clone();
    ascending.sort_by_key(|sq| sq.index());
    let images: Vec<Vec<u32>> = othello::Symmetry::ALL
        .iter()
        .filter(|g| {
            ascending
                .iter()
                .fold(0u64, |m, &sq| m | g.square(sq, set.size).bit())
                == mask
        })
        .map(|g| {
            // Digit j moves to the digit of the square g maps the j-th square onto.
            let to: Vec<u32> = ascending
                .iter()
                .map(|&sq| {
                    let image = g.square(sq, set.size);
                    ascending.iter().position(|&o| o == image).unwrap_or(0) as u32
                })
                .collect();
            (0..pattern_def.configurations())
                .map(|config| {
                    let mut rest = config;
                    let mut turned = 0;
                    for &digit_to in &to {
                        turned += (rest % 3) * 3usize.pow(digit_to);
                        rest /= 3;
                    }
                    turned as u32
                })
                .collect()
        })
        .collect();
    if images.len() < 2 {
        return Vec::new();
    }
    images
}

/// Makes each of a pattern's entries in `block` (one stage's) the mean over `images`.
pub(super) fn average(block: &mut [Entry], images: &[Vec<u32>]) {
    if images.is_empty() {
        return;
    }
    let share = 1.0 / images.len() as f32;
    let averaged: Vec<Entry> = (0..block.len())
        .map(|config| {
            images.iter().fold([0.0f32; 2], |sum, image| {
                let e = block[image[config] as usize];
                [sum[0] + e[0] * share, sum[1] + e[1] * share]
            })
        })
        .collect();
    block.copy_from_slice(&averaged);
}
