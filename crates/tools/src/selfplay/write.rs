//! Self-play's files: the samples of finished games as `.npz` arrays (the trainer's input,
//! laid out as docs/selfplay-data.md says; what each target is comes
//! from `sample.rs`) with a JSON sidecar of the settings and the games.

use super::{GameRecord, SelfPlayConfig};
use crate::arrays::{write_npz, Column};
use ndarray::{ArrayViewD, IxDyn};
use othello::Color;
use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Tally {
    pub black_wins: usize,
    pub white_wins: usize,
    pub draws: usize,
}

pub fn tally(records: &[GameRecord]) -> Tally {
    let mut t = Tally::default();
    for r in records {
        match r.outcome.winner() {
            Some(Color::Black) => t.black_wins += 1,
            Some(Color::White) => t.white_wins += 1,
            None => t.draws += 1,
        }
    }
    t
}

#[derive(Serialize)]
struct Sidecar<'a> {
    model: &'a str,
    board_size: u8,
    variant: &'a str,
    settings: &'a SelfPlayConfig,
    /// The planes of the `planes` array, in order (`SelfPlayConfig::inputs`).
    plane_names: Vec<&'static str>,
    c_puct: f32,
    c_puct_log: f32,
    dirichlet_alpha: f32,
    dirichlet_fraction: f32,
    batch_size: usize,
    seed: u64,
    games: usize,
    positions: usize,
    results: Tally,
    transcripts: Vec<String>,
    created_by: String,
}

/// The file's columns, row by row: every sample of every game, with its targets.
#[derive(Default)]
struct Columns {
    planes: Vec<u8>,
    policy: Vec<f32>,
    value: Vec<f32>,
    score: Vec<f32>,
    ownership: Vec<i8>,
    has_ownership: Vec<u8>,
    search_value: Vec<f32>,
    search_score: Vec<f32>,
}

impl Columns {
    fn gather(records: &[GameRecord], n: usize) -> Columns {
        let mut columns = Columns::default();
        for record in records {
            for sample in &record.samples {
                columns.planes.extend_from_slice(&sample.planes);
                columns.policy.extend_from_slice(&sample.policy);
                let targets = sample.targets(&record.end);
                columns.value.push(targets.value);
                columns.score.push(targets.score);
                columns.search_value.push(sample.search.0.clamp(-1.0, 1.0));
                columns.search_score.push(sample.search.1);
                match targets.ownership {
                    Some(owners) => {
                        columns.ownership.extend(owners);
                        columns.has_ownership.push(1u8);
                    }
                    None => {
                        columns.ownership.extend(std::iter::repeat_n(0i8, n * n));
                        columns.has_ownership.push(0u8);
                    }
                }
            }
        }
        columns
    }
}

fn view<'a, T>(data: &'a [T], shape: &[usize]) -> Result<ArrayViewD<'a, T>, ndarray::ShapeError> {
    ArrayViewD::from_shape(IxDyn(shape), data)
}

/// Writes `<dir>/<name>.npz` and `<dir>/<name>.json`; refuses to overwrite either.
pub fn write_selfplay(
    dir: &Path,
    name: &str,
    config: &SelfPlayConfig,
    model: &str,
    records: &[GameRecord],
) -> std::io::Result<PathBuf> {
    let npz_path = dir.join(format!("{name}.npz"));
    let json_path = dir.join(format!("{name}.json"));
    for path in [&npz_path, &json_path] {
        if path.exists() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!("{} exists; self-play never overwrites data", path.display()),
            ));
        }
    }
    std::fs::create_dir_all(dir)?;
    let n = config.size.n() as usize;
    let columns = Columns::gather(records, n);
    let count = columns.value.len();
    // Write to a temporary name and rename, so a killed run never leaves half a file.
    let tmp = dir.join(format!(".{name}.npz.partial"));
    write_columns(&tmp, &columns, n, config.inputs.len())?;
    let sidecar = Sidecar {
        model,
        board_size: config.size.n(),
        variant: config.variant.name(),
        settings: config,
        plane_names: config.inputs.names(),
        c_puct: config.mcts.c_puct,
        c_puct_log: config.mcts.c_puct_log,
        dirichlet_alpha: config.mcts.dirichlet_alpha,
        dirichlet_fraction: config.mcts.dirichlet_fraction,
        batch_size: config.mcts.batch_size,
        seed: config.seed,
        games: records.len(),
        positions: count,
        results: tally(records),
        transcripts: records
            .iter()
            .map(|r| {
                r.moves
                    .iter()
                    .map(std::string::ToString::to_string)
                    .collect()
            })
            .collect(),
        created_by: format!("othello selfplay {}", env!("CARGO_PKG_VERSION")),
    };
    let json = serde_json::to_string_pretty(&sidecar).map_err(std::io::Error::other)?;
    // The data first, the sidecar last and whole: a run killed in between leaves arrays
    // the trainer can use (it trains without a sidecar, with a warning), never a sidecar
    // that names data which is not there.
    std::fs::rename(&tmp, &npz_path)?;
    let json_tmp = dir.join(format!(".{name}.json.partial"));
    std::fs::write(&json_tmp, json)?;
    std::fs::rename(&json_tmp, &json_path)?;
    Ok(npz_path)
}

/// The samples' columns as the `.npz` file's arrays (docs/selfplay-data.md), written to
/// `path` for an `n`x`n` board.
/// The npz columns; `planes` input planes a sample (the learner network's inputs).
fn write_columns(path: &Path, columns: &Columns, n: usize, planes: usize) -> std::io::Result<()> {
    let count = columns.value.len();
    let shape_error = |e: ndarray::ShapeError| std::io::Error::other(e.to_string());
    let arrays = [
        (
            "planes",
            Column::U8(view(&columns.planes, &[count, planes, n, n]).map_err(shape_error)?),
        ),
        (
            "policy",
            Column::F32(view(&columns.policy, &[count, n * n + 1]).map_err(shape_error)?),
        ),
        (
            "value",
            Column::F32(view(&columns.value, &[count]).map_err(shape_error)?),
        ),
        (
            "score",
            Column::F32(view(&columns.score, &[count]).map_err(shape_error)?),
        ),
        (
            "ownership",
            Column::I8(view(&columns.ownership, &[count, n, n]).map_err(shape_error)?),
        ),
        (
            "has_ownership",
            Column::U8(view(&columns.has_ownership, &[count]).map_err(shape_error)?),
        ),
        (
            "search_value",
            Column::F32(view(&columns.search_value, &[count]).map_err(shape_error)?),
        ),
        (
            "search_score",
            Column::F32(view(&columns.search_score, &[count]).map_err(shape_error)?),
        ),
    ];
    write_npz(path, &arrays).map_err(std::io::Error::other)
}
