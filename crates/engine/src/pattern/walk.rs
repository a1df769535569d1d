//! A pattern's table computed from its network's weights by walking its configurations,
//! where a runtime would run the whole network on each (`PatternTables::build`'s other
//! path). A configuration's first layer is a sum of its squares' columns, so a walk that
//! changes one square at a time adds one column: `h` additions where running it costs
//! `(2s + 1) h` multiply-adds, and an empty square adds nothing, so the squares below it
//! read the sums above as they are. The later layers run on each configuration with their
//! sums in registers. For the 8x8 network (`16, 16` hidden, 2.26 million configurations)
//! that is about a third of the work, and no runtime overhead a batch; a `64, 16` network
//! then costs less than today's did through tract (docs/pattern.md, "Capacity").

/// A table entry: the contributions to the score and to the value logit (the tables'
/// `Entry`, named here so that the walk stays below the tables that use it).
type Entry = [f32; 2];

/// One fully connected layer as ONNX's `Gemm` with `transB = 1` stores it (PyTorch's
/// `nn.Linear`): `weight` is `[outputs][inputs]`, row after row.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    pub inputs: usize,
    pub outputs: usize,
    pub weight: Vec<f32>,
    pub bias: Vec<f32>,
}

impl Dense {
    /// Column `input` of the weights: what one input adds to every output.
    fn column(&self, input: usize) -> Vec<f32> {
        (0..self.outputs)
            .map(|o| self.weight[o * self.inputs + input])
            .collect()
    }
}

/// Why a pattern's layers cannot be walked.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error("{0}")]
pub struct LayersError(pub String);

/// A pattern's network as a chain of dense layers with a ReLU between each two (what
/// train/pattern.py's `PatternMlp` exports), checked against the pattern's input width.
#[derive(Clone, Debug)]
pub struct PatternLayers {
    layers: Vec<Dense>,
}

impl PatternLayers {
    /// `layers` from the input on; the input is `2s + 1` wide (own squares, opponent's
    /// squares, stage) and the last layer gives 2 values (score, value logit).
    pub fn new(layers: Vec<Dense>, squares: usize) -> Result<Self, LayersError> {
        let Some(first) = layers.first() else {
            return Err(LayersError("no layers".into()));
        };
        if first.inputs != 2 * squares + 1 {
            return Err(LayersError(format!(
                "the first layer takes {} inputs; a pattern of {squares} squares gives {}",
                first.inputs,
                2 * squares + 1
            )));
        }
        for pair in layers.windows(2) {
            if pair[1].inputs != pair[0].outputs {
                return Err(LayersError(format!(
                    "a layer of {} outputs feeds one of {} inputs",
                    pair[0].outputs, pair[1].inputs
                )));
            }
        }
        for d in &layers {
            if d.weight.len() != d.inputs * d.outputs || d.bias.len() != d.outputs {
                return Err(LayersError(format!(
                    "a {}x{} layer has {} weights and {} biases",
                    d.outputs,
                    d.inputs,
                    d.weight.len(),
                    d.bias.len()
                )));
            }
        }
        if layers.last().map(|d| d.outputs) != Some(2) {
            return Err(LayersError(
                "the last layer must give 2 values (score, value logit)".into(),
            ));
        }
        Ok(PatternLayers { layers })
    }

    /// At least the largest absolute value either output takes over every configuration
    /// of the pattern at `stage_input`, by interval arithmetic: each first-layer output's
    /// range is exact (its squares add their columns independently), and each later
    /// layer bounds its outputs from its inputs' ranges. Tables quantized under this step
    /// before their entries exist (`PatternTables`, built a stage at a time) never
    /// overflow their 16 bits.
    pub(super) fn bound(&self, stage_input: f32) -> Entry {
        let first = &self.layers[0];
        let squares = (first.inputs - 1) / 2;
        let mut ranges: Vec<(f32, f32)> = (0..first.outputs)
            .map(|o| {
                let w = &first.weight[o * first.inputs..][..first.inputs];
                let base = first.bias[o] + w[2 * squares] * stage_input;
                (0..squares).fold((base, base), |(lo, hi), k| {
                    let (own, theirs) = (w[k], w[squares + k]);
                    (lo + own.min(theirs).min(0.0), hi + own.max(theirs).max(0.0))
                })
            })
            .collect();
        for d in &self.layers[1..] {
            let inputs: Vec<(f32, f32)> = ranges
                .iter()
                .map(|&(lo, hi)| (lo.max(0.0), hi.max(0.0)))
                .collect();
            ranges = (0..d.outputs)
                .map(|o| {
                    let w = &d.weight[o * d.inputs..][..d.inputs];
                    let bias = (d.bias[o], d.bias[o]);
                    w.iter().zip(&inputs).fold(bias, |(lo, hi), (&w, &(a, b))| {
                        if w >= 0.0 {
                            (lo + w * a, hi + w * b)
                        } else {
                            (lo + w * b, hi + w * a)
                        }
                    })
                })
                .collect();
        }
        [0, 1].map(|o| ranges[o].0.abs().max(ranges[o].1.abs()))
    }

    /// The network on one input row, plainly: what the walk must give.
    #[cfg(test)]
    fn forward(&self, row: &[f32]) -> Entry {
        let mut x = row.to_vec();
        for (i, d) in self.layers.iter().enumerate() {
            let mut y: Vec<f32> = (0..d.outputs)
                .map(|o| {
                    d.bias[o]
                        + (0..d.inputs)
                            .map(|k| d.weight[o * d.inputs + k] * x[k])
                            .sum::<f32>()
                })
                .collect();
            if i + 1 < self.layers.len() {
                y.iter_mut().for_each(|v| *v = v.max(0.0));
            }
            x = y;
        }
        [x[0], x[1]]
    }
}

/// Four values at once: a layer's outputs are kept in lanes of this width (zero-padded),
/// so that every step of the walk is whole fixed-width vectors with neither a length the
/// compiler cannot see nor a call to `memcpy`. Four is one SIMD128 register, the browser's
/// wasm; natively too it beat lanes of eight (one AVX register), which took longer in the
/// worker than the loops before them (docs/pattern.md).
const LANE: usize = 4;
type Lane = [f32; LANE];

fn lanes(width: usize) -> usize {
    width.div_ceil(LANE)
}

/// `values` in lanes, the last one zero-padded.
fn to_lanes(values: &[f32]) -> Vec<Lane> {
    values
        .chunks(LANE)
        .map(|chunk| {
            let mut lane = [0.0; LANE];
            lane[..chunk.len()].copy_from_slice(chunk);
            lane
        })
        .collect()
}

/// A layer after the first, by input: `columns[k * out_lanes..]` is what input `k` adds to
/// the outputs, in lanes.
struct LaterLayer {
    out_lanes: usize,
    columns: Vec<Lane>,
    bias: Vec<Lane>,
}

impl LaterLayer {
    fn new(d: &Dense) -> Self {
        LaterLayer {
            out_lanes: lanes(d.outputs),
            columns: (0..d.inputs).flat_map(|k| to_lanes(&d.column(k))).collect(),
            bias: to_lanes(&d.bias),
        }
    }
}

impl Walk {
    /// The walk of one pattern's configurations, digits in ascending square order (digit
    /// `rank[k]` holds card square `k`), 0 empty, 1 own, 2 opponent: the columns and the
    /// later layers' weights by input, made once for every stage.
    pub(super) fn new(layers: &PatternLayers, rank: &[u32]) -> Self {
        let first = &layers.layers[0];
        let squares = rank.len();
        let hidden = lanes(first.outputs);
        // columns[digit][value - 1]: what a square of that digit adds when own or opponent's.
        let mut columns = vec![[Vec::new(), Vec::new()]; squares];
        for (k, &digit) in rank.iter().enumerate() {
            columns[digit as usize] = [
                to_lanes(&first.column(k)),
                to_lanes(&first.column(squares + k)),
            ];
        }
        let rest: Vec<LaterLayer> = layers.layers[1..].iter().map(LaterLayer::new).collect();
        let widest = rest
            .iter()
            .map(|l| l.out_lanes)
            .chain([hidden])
            .max()
            .unwrap_or(0);
        Walk {
            bias: to_lanes(&first.bias),
            stage_column: to_lanes(&first.column(2 * squares)),
            columns,
            rest,
            sums: vec![[0.0; LANE]; (squares + 1) * hidden],
            buffers: [vec![[0.0; LANE]; widest], vec![[0.0; LANE]; widest]],
            hidden,
        }
    }

    /// Fills `out[configuration]` for the stage whose input is `stage_input`.
    pub(super) fn fill(&mut self, stage_input: f32, out: &mut [Entry]) {
        let squares = self.columns.len();
        let base = &mut self.sums[squares * self.hidden..];
        for ((s, b), w) in base.iter_mut().zip(&self.bias).zip(&self.stage_column) {
            for i in 0..LANE {
                s[i] = b[i] + w[i] * stage_input;
            }
        }
        self.descend(squares, squares, 0, out);
    }
}

/// One pattern's walk (`Walk::new`, then `Walk::fill` for each stage).
pub(super) struct Walk {
    /// The first layer's bias and what the stage input adds to it, in lanes.
    bias: Vec<Lane>,
    stage_column: Vec<Lane>,
    /// `columns[digit][value - 1]`, in lanes.
    columns: Vec<[Vec<Lane>; 2]>,
    rest: Vec<LaterLayer>,
    /// `sums[d * hidden..]`: the first layer's sum over the digits at and above `d`
    /// (`d = squares`: the bias and the stage's share), in lanes.
    sums: Vec<Lane>,
    buffers: [Vec<Lane>; 2],
    /// The first layer's outputs, in lanes.
    hidden: usize,
}

impl Walk {
    /// Sets digit `level - 1` to each value under the sums of the digits above (row
    /// `above` of `sums`), `index` their share of the configuration. A digit left empty adds
    /// nothing: its digits below read the row above as it is, with no copy.
    fn descend(&mut self, level: usize, above: usize, index: usize, out: &mut [Entry]) {
        if level == 0 {
            out[index] = self.finish(above);
            return;
        }
        let digit = level - 1;
        let h = self.hidden;
        let weight = 3usize.pow(digit as u32);
        self.descend(digit, above, index, out);
        for value in 1..3 {
            let (below, rest) = self.sums.split_at_mut(level * h);
            let target = &mut below[digit * h..level * h];
            let source = &rest[(above - level) * h..][..h];
            let column = &self.columns[digit][value - 1];
            for ((t, s), c) in target.iter_mut().zip(source).zip(column) {
                for i in 0..LANE {
                    t[i] = s[i] + c[i];
                }
            }
            self.descend(digit, digit, index + value * weight, out);
        }
    }

    /// The layers after the first on the sums of row `row`, a ReLU before each.
    fn finish(&mut self, row: usize) -> Entry {
        let first = &self.sums[row * self.hidden..][..self.hidden];
        // Which buffer holds the layer before's outputs (none: the first layer's sums).
        let mut source = None;
        for layer in &self.rest {
            let target = source.map_or(0, |s| 1 - s);
            let [zero, one] = &mut self.buffers;
            let (out, before) = if target == 0 {
                (zero, one)
            } else {
                (one, zero)
            };
            let inputs = match source {
                None => first.as_flattened(),
                Some(_) => before.as_flattened(),
            };
            // The layer reads as many inputs as it has columns: a buffer's lanes past them
            // are never read.
            layer.apply(inputs, &mut out[..layer.out_lanes]);
            source = Some(target);
        }
        let last = match source {
            None => first[0],
            Some(s) => self.buffers[s][0],
        };
        [last[0], last[1]]
    }
}

impl LaterLayer {
    /// `out = bias + W relu(inputs)`, with the usual widths' sums held in registers.
    #[inline]
    fn apply(&self, inputs: &[f32], out: &mut [Lane]) {
        match self.out_lanes {
            1 => out.copy_from_slice(&dense::<1>(inputs, &self.columns, &self.bias)),
            2 => out.copy_from_slice(&dense::<2>(inputs, &self.columns, &self.bias)),
            3 => out.copy_from_slice(&dense::<3>(inputs, &self.columns, &self.bias)),
            4 => out.copy_from_slice(&dense::<4>(inputs, &self.columns, &self.bias)),
            _ => {
                out.copy_from_slice(&self.bias);
                add_inputs(out, inputs, &self.columns);
            }
        }
    }
}

/// A later layer of `L` lanes of outputs, its sums in registers.
#[inline(always)]
fn dense<const L: usize>(inputs: &[f32], columns: &[Lane], bias: &[Lane]) -> [Lane; L] {
    let mut acc = [[0.0f32; LANE]; L];
    acc.copy_from_slice(&bias[..L]);
    add_inputs(&mut acc, inputs, columns);
    acc
}

/// Adds each input's column, scaled by the input through a ReLU, to `sums`. Every input is
/// added: a ReLU-zeroed one adds `0 * w`, which leaves a sum as it was, so the tables are
/// those of the loop before, which skipped it behind a branch (the branch cost more than
/// the additions). The ReLU is a comparison, not `f32::max`, whose NaN rule wasm's
/// `f32.max` keeps at a price in the worker.
#[inline(always)]
fn add_inputs(sums: &mut [Lane], inputs: &[f32], columns: &[Lane]) {
    for (&x, column) in inputs.iter().zip(columns.chunks_exact(sums.len())) {
        let scale = if x > 0.0 { x } else { 0.0 };
        for (sum, w) in sums.iter_mut().zip(column) {
            for i in 0..LANE {
                sum[i] += scale * w[i];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    fn random_layers(rng: &mut Rng, widths: &[usize]) -> Vec<Dense> {
        widths
            .windows(2)
            .map(|w| Dense {
                inputs: w[0],
                outputs: w[1],
                weight: (0..w[0] * w[1]).map(|_| rng.unit() as f32 - 0.5).collect(),
                bias: (0..w[1]).map(|_| rng.unit() as f32 - 0.5).collect(),
            })
            .collect()
    }

    #[test]
    fn the_walk_gives_what_the_network_gives_on_every_configuration() {
        let mut rng = Rng::new(5);
        // Squares given out of ascending order, as a card may list them.
        let rank = [2u32, 0, 3, 1, 4];
        // Widths of one lane and less, of whole lanes, of the usual network, and past the
        // widths held in registers.
        for widths in [
            [11, 8, 6, 2].as_slice(),
            &[11, 2],
            &[11, 16, 2],
            &[11, 16, 16, 2],
            &[11, 24, 5, 2],
        ] {
            let layers = PatternLayers::new(random_layers(&mut rng, widths), 5).expect("valid");
            let mut out = vec![[0.0f32; 2]; 243];
            Walk::new(&layers, &rank).fill(0.25, &mut out);
            let bound = layers.bound(0.25);
            let mut largest = [0.0f32; 2];
            for (config, got) in out.iter().enumerate() {
                let digit = |k: usize| (config / 3usize.pow(rank[k])) % 3;
                let mut row: Vec<f32> =
                    (0..5).map(|k| f32::from(u8::from(digit(k) == 1))).collect();
                row.extend((0..5).map(|k| f32::from(u8::from(digit(k) == 2))));
                row.push(0.25);
                let want = layers.forward(&row);
                for o in 0..2 {
                    largest[o] = largest[o].max(want[o].abs());
                    assert!(
                        (got[o] - want[o]).abs() <= 1e-5 * (1.0 + want[o].abs()),
                        "configuration {config} output {o}: {} against {}",
                        got[o],
                        want[o]
                    );
                }
            }
            for o in 0..2 {
                let tolerance = 1e-5 * (1.0 + largest[o]);
                assert!(
                    largest[o] <= bound[o] + tolerance,
                    "{widths:?} output {o}: {} past its bound {}",
                    largest[o],
                    bound[o]
                );
                if widths.len() == 2 {
                    // One layer: each output's range is exact, so its bound is attained.
                    assert!(
                        (largest[o] - bound[o]).abs() <= tolerance,
                        "{widths:?} output {o}: the bound {} of a single layer is not its largest {}",
                        bound[o],
                        largest[o]
                    );
                }
            }
        }
    }

    #[test]
    fn layers_that_do_not_chain_are_refused() {
        let mut rng = Rng::new(1);
        let wide = random_layers(&mut rng, &[11, 4, 2]);
        assert!(
            PatternLayers::new(wide.clone(), 4).is_err(),
            "wrong input width"
        );
        let mut broken = wide.clone();
        broken[1].inputs = 5;
        assert!(
            PatternLayers::new(broken, 5).is_err(),
            "layers that do not chain"
        );
        let three = random_layers(&mut rng, &[11, 3]);
        assert!(PatternLayers::new(three, 5).is_err(), "three outputs");
        assert!(PatternLayers::new(Vec::new(), 5).is_err(), "no layers");
    }
}
