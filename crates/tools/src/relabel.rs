//! Self-play's samples valued again by a deeper search: each file's `search_value` and
//! `search_score` columns (what the trainer blends with the game's result,
//! `train.pattern_fit --search-weight`) become the values of an alpha-beta search of
//! `depth` plies over a pattern network's tables, where self-play wrote those of its own
//! 100-simulation search. KataGo blends its search's root value into the value target;
//! issue 66 asks for "a deeper search's value" as the other form of that lever. The
//! midgame search is the engine's (`engine::midgame`); rows whose targets are already exact
//! (the solver's labels) keep them, so a blend leaves them as they are.

use crate::arrays::{write_npz, Column, NpzError, NpzFile};
use engine::midgame::{Limits, Midgame, MidgameConfig, StaticEval, LOGIT_UNITS, UNIT};
use ndarray::{ArrayD, IxDyn};
use othello::{Bitboard, BoardSize, Color, Position, Variant};
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum RelabelError {
    #[error(transparent)]
    Npz(#[from] NpzError),
    #[error("{file}: {message}")]
    Data { file: String, message: String },
    #[error("{0} exists; relabelling never overwrites data")]
    Exists(String),
    #[error("cannot write {file}: {message}")]
    Io { file: String, message: String },
}

/// A position's targets from the deeper search, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Targets {
    /// In [-1, 1]: the value output's search (tanh of its logit), or the result's sign
    /// where the search reached the end.
    pub value: f32,
    /// The margin output's search in discs, exact where it reached the end.
    pub score: f32,
    pub exact: bool,
}

/// Two midgame searches of one depth: one adds up the network's margin, one its value
/// logit (the two outputs the trainer fits), each with its own table kept from one
/// position to the next, as neighbouring positions of a game share subtrees.
pub struct Relabeller {
    margin: Midgame<Box<dyn StaticEval>>,
    value: Midgame<Box<dyn StaticEval>>,
    depth: u32,
}

impl std::fmt::Debug for Relabeller {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Relabeller")
            .field("margin", &self.margin.eval().describe())
            .field("value", &self.value.eval().describe())
            .field("depth", &self.depth)
            .finish()
    }
}

impl Relabeller {
    /// `margin` gives discs ([`engine::midgame::PatternOutput::Margin`]), `value` the
    /// value logit on [`LOGIT_UNITS`]' scale (`PatternOutput::ValueLogit`).
    pub fn new(margin: Box<dyn StaticEval>, value: Box<dyn StaticEval>, depth: u32) -> Relabeller {
        Relabeller {
            margin: Midgame::new(margin, MidgameConfig::default()),
            value: Midgame::new(value, MidgameConfig::default()),
            depth: depth.max(1),
        }
    }

    /// The searches' targets for `pos`, `None` when the game is over.
    pub fn targets(&mut self, pos: &Position) -> Option<Targets> {
        let limits = Limits::depth(self.depth);
        let margin = self.margin.search(pos, &limits, &[], &mut |_| {})?;
        let score = margin.value as f32 / UNIT as f32;
        if margin.exact {
            return Some(Targets {
                value: score.signum() * f32::from(score != 0.0),
                score,
                exact: true,
            });
        }
        let value = self.value.search(pos, &limits, &[], &mut |_| {})?;
        Some(Targets {
            value: if value.exact {
                value.value.signum() as f32
            } else {
                (value.value as f32 / LOGIT_UNITS).tanh()
            },
            score,
            exact: false,
        })
    }
}

/// What one file's relabelling did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileSummary {
    pub rows: usize,
    /// Rows at `keep_exact` empties or fewer, whose exact targets were kept.
    pub kept: usize,
    /// Rows the search valued, and of those, how many it solved to the end.
    pub searched: usize,
    pub solved: usize,
}

impl std::ops::AddAssign<&FileSummary> for FileSummary {
    fn add_assign(&mut self, file: &FileSummary) {
        self.rows += file.rows;
        self.kept += file.kept;
        self.searched += file.searched;
        self.solved += file.solved;
    }
}

/// The columns self-play writes (docs/selfplay-data.md), read and written back in order.
struct Sample {
    planes: ArrayD<u8>,
    policy: ArrayD<f32>,
    value: ArrayD<f32>,
    score: ArrayD<f32>,
    ownership: Option<ArrayD<i8>>,
    has_ownership: Option<ArrayD<u8>>,
}

const KNOWN: [&str; 8] = [
    "planes",
    "policy",
    "value",
    "score",
    "ownership",
    "has_ownership",
    "search_value",
    "search_score",
];

fn read_sample(path: &Path) -> Result<Sample, RelabelError> {
    let mut npz = NpzFile::open(path)?;
    let names = npz.names()?;
    if let Some(unknown) = names.iter().find(|n| !KNOWN.contains(&n.as_str())) {
        // Copying only what it knows would drop a column without a word.
        return Err(data_error(
            path,
            format!("an array this tool does not know: '{unknown}'"),
        ));
    }
    let has = |name: &str| names.iter().any(|n| n == name);
    Ok(Sample {
        planes: npz.array("planes")?,
        policy: npz.array("policy")?,
        value: npz.array("value")?,
        score: npz.array("score")?,
        ownership: if has("ownership") {
            Some(npz.array("ownership")?)
        } else {
            None
        },
        has_ownership: if has("has_ownership") {
            Some(npz.array("has_ownership")?)
        } else {
            None
        },
    })
}

fn data_error(path: &Path, message: String) -> RelabelError {
    RelabelError::Data {
        file: path.display().to_string(),
        message,
    }
}

/// The position of row `row`: planes 0 and 1 are the side to move's discs and the
/// opponent's (`own`, `opponent`, as every input set self-play writes begins), squares
/// row-major from a1 as the engine encodes them.
fn position_of(
    planes: &ArrayD<u8>,
    row: usize,
    size: BoardSize,
    variant: Variant,
) -> Option<Position> {
    let n = usize::from(size.n());
    let mut boards = [0u64; 2];
    for (plane, board) in boards.iter_mut().enumerate() {
        for r in 0..n {
            for c in 0..n {
                if *planes.get(IxDyn(&[row, plane, r, c]))? != 0 {
                    *board |= 1 << (8 * r + c);
                }
            }
        }
    }
    Position::from_bitboards(
        Bitboard(boards[0]),
        Bitboard(boards[1]),
        Color::Black,
        size,
        variant,
    )
    .ok()
}

/// Relabels `input` into `out_dir` (same file name; its `.json` sidecar copied beside it
/// with a `relabelled` entry): rows with more than `keep_exact` empties take `relabeller`'s
/// targets, the others their own `value` and `score` (the solver's exact labels).
pub fn relabel_file(
    input: &Path,
    out_dir: &Path,
    size: BoardSize,
    variant: Variant,
    keep_exact: u32,
    relabeller: &mut Relabeller,
    note: &serde_json::Value,
) -> Result<FileSummary, RelabelError> {
    let name = input
        .file_name()
        .ok_or_else(|| data_error(input, "not a file".to_owned()))?;
    let out = out_dir.join(name);
    if out.exists() {
        return Err(RelabelError::Exists(out.display().to_string()));
    }
    let sample = read_sample(input)?;
    let shape = sample.planes.shape().to_vec();
    let n = usize::from(size.n());
    if shape.len() != 4 || shape[1] < 2 || shape[2] != n || shape[3] != n {
        return Err(data_error(
            input,
            format!("planes of shape {shape:?}, not [rows, planes, {n}, {n}]"),
        ));
    }
    let rows = shape[0];
    if sample.value.shape() != [rows] || sample.score.shape() != [rows] {
        return Err(data_error(
            input,
            format!(
                "{rows} rows of planes but values of shape {:?} and scores of shape {:?}",
                sample.value.shape(),
                sample.score.shape()
            ),
        ));
    }
    let mut summary = FileSummary {
        rows,
        ..FileSummary::default()
    };
    let (mut search_value, mut search_score) = (Vec::with_capacity(rows), Vec::with_capacity(rows));
    for row in 0..rows {
        let (value, score) = (sample.value[[row]], sample.score[[row]]);
        let pos = position_of(&sample.planes, row, size, variant).ok_or_else(|| {
            data_error(input, format!("row {row}: the planes are not a position"))
        })?;
        let found = if pos.empty_count() <= keep_exact {
            None
        } else {
            relabeller.targets(&pos)
        };
        match found {
            Some(t) => {
                summary.searched += 1;
                summary.solved += usize::from(t.exact);
                search_value.push(t.value);
                search_score.push(t.score);
            }
            None => {
                summary.kept += 1;
                search_value.push(value);
                search_score.push(score);
            }
        }
    }
    write_relabelled(&out, &sample, &search_value, &search_score)?;
    copy_sidecar(input, &out, note)?;
    Ok(summary)
}

fn write_relabelled(
    out: &Path,
    sample: &Sample,
    value: &[f32],
    score: &[f32],
) -> Result<(), RelabelError> {
    let rows = value.len();
    let shaped = |data: &[f32]| {
        ArrayD::from_shape_vec(IxDyn(&[rows]), data.to_vec()).map_err(|e| RelabelError::Io {
            file: out.display().to_string(),
            message: e.to_string(),
        })
    };
    let (search_value, search_score) = (shaped(value)?, shaped(score)?);
    let mut arrays = vec![
        ("planes", Column::U8(sample.planes.view())),
        ("policy", Column::F32(sample.policy.view())),
        ("value", Column::F32(sample.value.view())),
        ("score", Column::F32(sample.score.view())),
    ];
    if let Some(ownership) = &sample.ownership {
        arrays.push(("ownership", Column::I8(ownership.view())));
    }
    if let Some(has) = &sample.has_ownership {
        arrays.push(("has_ownership", Column::U8(has.view())));
    }
    arrays.push(("search_value", Column::F32(search_value.view())));
    arrays.push(("search_score", Column::F32(search_score.view())));
    // A temporary name, renamed once whole: a killed run leaves no half file.
    let partial = out.with_extension("npz.partial");
    write_npz(&partial, &arrays)?;
    std::fs::rename(&partial, out).map_err(|e| RelabelError::Io {
        file: out.display().to_string(),
        message: e.to_string(),
    })
}

/// The input's sidecar with `note` under `relabelled`, where there is one (the trainer
/// reads `plane_names` from it).
fn copy_sidecar(input: &Path, out: &Path, note: &serde_json::Value) -> Result<(), RelabelError> {
    let from = input.with_extension("json");
    let Ok(text) = std::fs::read_to_string(&from) else {
        return Ok(());
    };
    let mut sidecar: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| data_error(&from, format!("not JSON: {e}")))?;
    if let Some(map) = sidecar.as_object_mut() {
        map.insert("relabelled".to_owned(), note.clone());
    }
    let to = out.with_extension("json");
    let text =
        serde_json::to_string_pretty(&sidecar).map_err(|e| data_error(&from, e.to_string()))?;
    std::fs::write(&to, text).map_err(|e| RelabelError::Io {
        file: to.display().to_string(),
        message: e.to_string(),
    })
}

/// What a file's sidecar says that relabelling needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileRules {
    pub size: BoardSize,
    pub variant: Variant,
    /// The empties from which self-play's targets are exact: its `label_empties`, else
    /// its `exact_empties` (`None` where the sidecar names neither).
    pub exact_from: Option<u32>,
}

/// Reads `input`'s `.json` sidecar: its board, its variant, where its labels are exact,
/// and that its first two planes are `own` and `opponent`.
pub fn file_rules(input: &Path) -> Result<FileRules, RelabelError> {
    let path = input.with_extension("json");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        data_error(
            &path,
            format!("the sidecar cannot be read ({e}): relabelling needs its board and labels"),
        )
    })?;
    let sidecar: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| data_error(&path, format!("not JSON: {e}")))?;
    let planes: Vec<&str> = sidecar["plane_names"]
        .as_array()
        .map(|names| names.iter().filter_map(serde_json::Value::as_str).collect())
        .unwrap_or_default();
    if planes.get(..2) != Some(&["own", "opponent"][..]) {
        return Err(data_error(
            &path,
            format!("planes {planes:?}: the first two must be own and opponent"),
        ));
    }
    let size = sidecar["board_size"]
        .as_u64()
        .and_then(|n| BoardSize::from_n(u8::try_from(n).ok()?))
        .ok_or_else(|| data_error(&path, "no board_size of 4, 6 or 8".to_owned()))?;
    let variant: Variant = sidecar["variant"]
        .as_str()
        .unwrap_or("standard")
        .parse()
        .map_err(|e| data_error(&path, format!("{e}")))?;
    let settings = &sidecar["settings"];
    let exact_from = ["label_empties", "exact_empties"]
        .iter()
        .find_map(|key| settings[key].as_u64())
        .and_then(|e| u32::try_from(e).ok());
    Ok(FileRules {
        size,
        variant,
        exact_from,
    })
}

/// The `.npz` files of `inputs`: files as given, folders' `.npz` files in name order.
pub fn npz_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, RelabelError> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let entries = std::fs::read_dir(input).map_err(|e| data_error(input, e.to_string()))?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "npz"))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(input.clone());
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests;
