//! A pattern's table computed from its network's weights by walking its configurations,
//! where a runtime would run the whole network on each (`PatternTables::build`'s other
//! path). A configuration's first layer is a sum of its squares' columns, so a walk that
//! changes one square at a time adds one column: `h` additions where running it costs
//! `(2s + 1) h` multiply-adds. Later layers skip the inputs a ReLU zeroed. For the 8x8
//! network (`16, 16` hidden, 2.26 million configurations) that is about a third of the
//! work, and no runtime overhead a batch; a `64, 16` network then costs less than today's
//! did through tract (docs/pattern.md, "Capacity").

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

    /// The weights by input, `[inputs][outputs]`, so that an input's share is one
    /// contiguous multiply-add over the outputs (which vectorises without reordering
    /// any sum).
    fn by_input(&self) -> Vec<f32> {
        (0..self.inputs).flat_map(|i| self.column(i)).collect()
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

impl<'a> Walk<'a> {
    /// The walk of one pattern's configurations, digits in ascending square order (digit
    /// `rank[k]` holds card square `k`), 0 empty, 1 own, 2 opponent: the columns and the
    /// later layers' weights by input, made once for every stage.
    pub(super) fn new(layers: &'a PatternLayers, rank: &[u32]) -> Self {
        let first = &layers.layers[0];
        let squares = rank.len();
        let hidden = first.outputs;
        // columns[digit][value - 1]: what a square of that digit adds when own or opponent's.
        let mut columns = vec![[Vec::new(), Vec::new()]; squares];
        for (k, &digit) in rank.iter().enumerate() {
            columns[digit as usize] = [first.column(k), first.column(squares + k)];
        }
        let rest: Vec<(Vec<f32>, &Dense)> = layers.layers[1..]
            .iter()
            .map(|d| (d.by_input(), d))
            .collect();
        let widest = rest.iter().map(|(_, d)| d.outputs).max().unwrap_or(0);
        Walk {
            first,
            columns,
            rest,
            sums: vec![0.0; (squares + 1) * hidden],
            buffers: [vec![0.0; widest.max(hidden)], vec![0.0; widest.max(hidden)]],
            hidden,
        }
    }

    /// Fills `out[configuration]` for the stage whose input is `stage_input`.
    pub(super) fn fill(&mut self, stage_input: f32, out: &mut [Entry]) {
        let squares = self.columns.len();
        let stage_column = self.first.column(2 * squares);
        let base = &mut self.sums[squares * self.hidden..];
        for ((s, b), w) in base.iter_mut().zip(&self.first.bias).zip(&stage_column) {
            *s = b + w * stage_input;
        }
        self.descend(squares, 0, out);
    }
}

/// One pattern's walk (`Walk::new`, then `Walk::fill` for each stage).
pub(super) struct Walk<'a> {
    first: &'a Dense,
    columns: Vec<[Vec<f32>; 2]>,
    /// The layers after the first: weights by input, and the layer.
    rest: Vec<(Vec<f32>, &'a Dense)>,
    /// `sums[d * hidden..]`: the first layer's sum over the digits at and above `d`
    /// (`d = squares`: the bias and the stage's share).
    sums: Vec<f32>,
    buffers: [Vec<f32>; 2],
    hidden: usize,
}

impl Walk<'_> {
    /// Sets digit `level - 1` to each value under the sums of the digits above, `index`
    /// their share of the configuration.
    fn descend(&mut self, level: usize, index: usize, out: &mut [Entry]) {
        if level == 0 {
            out[index] = self.finish();
            return;
        }
        let digit = level - 1;
        let h = self.hidden;
        let weight = 3usize.pow(digit as u32);
        for value in 0..3 {
            let (below, above) = self.sums.split_at_mut(level * h);
            let (target, source) = (&mut below[digit * h..], &above[..h]);
            match value {
                0 => target.copy_from_slice(source),
                _ => {
                    let column = &self.columns[digit][value - 1];
                    for ((t, s), c) in target.iter_mut().zip(source).zip(column) {
                        *t = s + c;
                    }
                }
            }
            self.descend(digit, index + value * weight, out);
        }
    }

    /// The layers after the first on `sums[0..hidden]`, a ReLU before each.
    fn finish(&mut self) -> Entry {
        let [x, y] = &mut self.buffers;
        x[..self.hidden].copy_from_slice(&self.sums[..self.hidden]);
        for (by_input, d) in &self.rest {
            let out = &mut y[..d.outputs];
            out.copy_from_slice(&d.bias);
            for (k, &xk) in x[..d.inputs].iter().enumerate() {
                // The ReLU zeroes about half the inputs: nothing to add for those.
                if xk > 0.0 {
                    let column = &by_input[k * d.outputs..(k + 1) * d.outputs];
                    for (t, w) in out.iter_mut().zip(column) {
                        *t += xk * w;
                    }
                }
            }
            std::mem::swap(x, y);
        }
        [x[0], x[1]]
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
        for widths in [[11, 8, 6, 2].as_slice(), &[11, 2], &[11, 16, 2]] {
            let layers = PatternLayers::new(random_layers(&mut rng, widths), 5).expect("valid");
            let mut out = vec![[0.0f32; 2]; 243];
            Walk::new(&layers, &rank).fill(0.25, &mut out);
            for (config, got) in out.iter().enumerate() {
                let digit = |k: usize| (config / 3usize.pow(rank[k])) % 3;
                let mut row: Vec<f32> =
                    (0..5).map(|k| f32::from(u8::from(digit(k) == 1))).collect();
                row.extend((0..5).map(|k| f32::from(u8::from(digit(k) == 2))));
                row.push(0.25);
                let want = layers.forward(&row);
                for o in 0..2 {
                    assert!(
                        (got[o] - want[o]).abs() <= 1e-5 * (1.0 + want[o].abs()),
                        "configuration {config} output {o}: {} against {}",
                        got[o],
                        want[o]
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
