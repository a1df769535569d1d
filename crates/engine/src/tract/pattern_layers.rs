//! A pattern network's per-pattern networks read from the ONNX graph as dense layers,
//! so that the tables can be walked from the weights (`crate::pattern::PatternLayers`)
//! rather than run through tract. Only the chain train/pattern.py exports is read:
//! `pattern_k -> Gemm (-> Relu -> Gemm)* -> out_k`, each `Gemm` with constant weights and
//! bias; any other graph leaves the pattern to tract.

use crate::pattern::{Dense, PatternLayers, PatternSet};
use std::collections::HashMap;
use tract_onnx::pb::{GraphProto, NodeProto, TensorProto};

/// ONNX's element type code for 32-bit floats (`TensorProto.DataType.FLOAT`).
const FLOAT: i32 = 1;

/// Each pattern's layers, `None` where its graph is not the plain chain.
pub(super) fn read(graph: &GraphProto, set: &PatternSet) -> Vec<Option<PatternLayers>> {
    let constants: HashMap<&str, &TensorProto> = graph
        .initializer
        .iter()
        .map(|t| (t.name.as_str(), t))
        .collect();
    let producers: HashMap<&str, &NodeProto> = graph
        .node
        .iter()
        .flat_map(|n| n.output.iter().map(move |o| (o.as_str(), n)))
        .collect();
    set.patterns
        .iter()
        .enumerate()
        .map(|(k, pattern)| {
            let layers = chain(
                &producers,
                &constants,
                &format!("pattern_{k}"),
                &format!("out_{k}"),
            )?;
            PatternLayers::new(layers, pattern.squares.len()).ok()
        })
        .collect()
}

/// The dense layers from `input` to `output`, first layer first.
fn chain(
    producers: &HashMap<&str, &NodeProto>,
    constants: &HashMap<&str, &TensorProto>,
    input: &str,
    output: &str,
) -> Option<Vec<Dense>> {
    let mut layers = Vec::new();
    let mut name = output;
    loop {
        let gemm = producers.get(name)?;
        layers.push(dense(gemm, constants)?);
        name = gemm.input.first()?.as_str();
        if name == input {
            break;
        }
        let relu = producers.get(name)?;
        if relu.op_type != "Relu" || relu.input.len() != 1 {
            return None;
        }
        name = relu.input[0].as_str();
    }
    layers.reverse();
    Some(layers)
}

/// A `Gemm` node as a dense layer: `y = x Bᵀ + C` (or `x B + C`), alpha and beta 1.
fn dense(node: &NodeProto, constants: &HashMap<&str, &TensorProto>) -> Option<Dense> {
    if node.op_type != "Gemm" || node.input.len() != 3 {
        return None;
    }
    let attribute = |name: &str| node.attribute.iter().find(|a| a.name == name);
    let float_is_one = |name: &str| attribute(name).is_none_or(|a| a.f == 1.0);
    let int = |name: &str| attribute(name).map_or(0, |a| a.i);
    if !float_is_one("alpha") || !float_is_one("beta") || int("transA") != 0 {
        return None;
    }
    let (b_dims, b) = floats(constants.get(node.input[1].as_str())?)?;
    let (c_dims, bias) = floats(constants.get(node.input[2].as_str())?)?;
    let [rows, columns] = <[usize; 2]>::try_from(b_dims).ok()?;
    let (outputs, inputs, weight) = if int("transB") == 1 {
        (rows, columns, b)
    } else {
        let transposed = (0..columns)
            .flat_map(|o| (0..rows).map(move |i| (o, i)))
            .map(|(o, i)| b[i * columns + o])
            .collect();
        (columns, rows, transposed)
    };
    // A bias broadcast from one value, or one a output, is all the export writes.
    let bias = match (c_dims.iter().product::<usize>(), bias.len()) {
        (n, _) if n == outputs => bias,
        (1, 1) => vec![bias[0]; outputs],
        _ => return None,
    };
    Some(Dense {
        inputs,
        outputs,
        weight,
        bias,
    })
}

/// A constant's dimensions and 32-bit floats, from either of the fields ONNX stores them
/// in; `None` for anything else (another type, external data).
fn floats(t: &TensorProto) -> Option<(Vec<usize>, Vec<f32>)> {
    if t.data_type != FLOAT {
        return None;
    }
    let dims: Vec<usize> = t
        .dims
        .iter()
        .map(|&d| usize::try_from(d).ok())
        .collect::<Option<_>>()?;
    let values: Vec<f32> = if !t.raw_data.is_empty() {
        t.raw_data
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    } else {
        t.float_data.clone()
    };
    (values.len() == dims.iter().product::<usize>()).then_some((dims, values))
}
