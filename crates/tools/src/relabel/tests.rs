use super::*;
use engine::midgame::FeatureEval;
use othello::testing::{minimax, random_position, Stop};
use othello::Move;

/// Plain negamax to `depth` plies over `eval`, with the midgame search's rules (a pass is
/// not a ply; a position the depth reaches the end from, or a finished game, is valued by
/// its exact margin): slow and obviously right.
fn reference(eval: &mut FeatureEval, pos: &Position, depth: u32) -> i32 {
    if depth >= pos.empty_count() {
        return minimax(pos) * UNIT;
    }
    if let Some(outcome) = pos.outcome() {
        return outcome.margin_for(pos.side_to_move()) * UNIT;
    }
    if depth == 0 {
        return eval.evaluate(pos.player().0, pos.opponent().0);
    }
    if pos.must_pass() {
        return -reference(eval, &pos.play_unchecked(Move::Pass), depth);
    }
    pos.legal_move_list()
        .into_iter()
        .map(|mv| -reference(eval, &pos.play_unchecked(mv), depth - 1))
        .max()
        .unwrap_or(0)
}

fn empty_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("relabel-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

const SIZE: BoardSize = BoardSize::Six;

/// Positions of random 6x6 games at 5 to 28 empties, one a row.
fn positions() -> Vec<Position> {
    let mut rng = engine::Rng::new(66);
    (0..24)
        .map(|i| {
            let empties = [28, 20, 12, 7, 5, 3][i % 6];
            random_position(SIZE, Variant::Standard, Stop::AtEmpties(empties), |n| {
                rng.below(n)
            })
        })
        .filter(|pos| !pos.is_game_over())
        .collect()
}

/// A self-play-shaped file of `positions` (planes own, opponent, ones), each row's value
/// and score targets marked by its number, with a sidecar.
fn write_input(dir: &Path, positions: &[Position]) -> PathBuf {
    let (rows, n) = (positions.len(), usize::from(SIZE.n()));
    let mut planes = Vec::new();
    for pos in positions {
        for bits in [pos.player().0, pos.opponent().0, SIZE.mask()] {
            for r in 0..n {
                for c in 0..n {
                    planes.push(u8::from(bits >> (8 * r + c) & 1 != 0));
                }
            }
        }
    }
    let planes = ArrayD::from_shape_vec(IxDyn(&[rows, 3, n, n]), planes).expect("shape");
    let policy =
        ArrayD::from_shape_vec(IxDyn(&[rows, n * n + 1]), vec![0.5f32; rows * (n * n + 1)])
            .expect("shape");
    let marks: Vec<f32> = (0..rows).map(|r| r as f32 / 100.0).collect();
    let value = ArrayD::from_shape_vec(IxDyn(&[rows]), marks.clone()).expect("shape");
    let score = ArrayD::from_shape_vec(IxDyn(&[rows]), marks.iter().map(|m| m * 10.0).collect())
        .expect("shape");
    let path = dir.join("s-0.npz");
    write_npz(
        &path,
        &[
            ("planes", Column::U8(planes.view())),
            ("policy", Column::F32(policy.view())),
            ("value", Column::F32(value.view())),
            ("score", Column::F32(score.view())),
            ("search_value", Column::F32(value.view())),
            ("search_score", Column::F32(value.view())),
        ],
    )
    .expect("writes");
    std::fs::write(
        dir.join("s-0.json"),
        r#"{"plane_names": ["own", "opponent", "ones"]}"#,
    )
    .expect("sidecar");
    path
}

fn feature_relabeller(depth: u32) -> Relabeller {
    let eval = || Box::new(FeatureEval::new(SIZE, Variant::Standard)) as Box<dyn StaticEval>;
    Relabeller::new(eval(), eval(), depth)
}

/// `input` relabelled into `out` as a 6x6 standard file, by a `depth`-ply search over the
/// hand-made features, rows at `keep_exact` empties or fewer kept.
fn relabel(
    input: &Path,
    out: &Path,
    keep_exact: u32,
    depth: u32,
    note: &serde_json::Value,
) -> Result<FileSummary, RelabelError> {
    let mut relabeller = feature_relabeller(depth);
    relabel_file(
        input,
        out,
        SIZE,
        Variant::Standard,
        keep_exact,
        &mut relabeller,
        note,
    )
}

#[test]
fn each_row_takes_plain_negamax_s_values_and_exact_rows_keep_their_labels() {
    let dir = empty_dir("values");
    let positions = positions();
    let input = write_input(&made(dir.join("in")), &positions);
    let out = made(dir.join("out"));
    // Rows at 5 empties are solved by the search, rows at 3 keep their labels.
    let (depth, keep_exact) = (5, 4);
    let note = serde_json::json!({"depth": depth});
    let summary = relabel(&input, &out, keep_exact, depth, &note).expect("relabels");
    let mut npz = NpzFile::open(&out.join("s-0.npz")).expect("written");
    let (search_value, search_score) = (
        npz.array::<f32>("search_value").expect("column"),
        npz.array::<f32>("search_score").expect("column"),
    );
    let mut eval = FeatureEval::new(SIZE, Variant::Standard);
    let (mut searched, mut kept, mut solved) = (0, 0, 0);
    for (row, pos) in positions.iter().enumerate() {
        let (value, score) = (search_value[[row]], search_score[[row]]);
        if pos.empty_count() <= keep_exact {
            kept += 1;
            assert_eq!(
                (value, score),
                (row as f32 / 100.0, row as f32 / 100.0 * 10.0),
                "row {row} keeps its labels"
            );
            continue;
        }
        searched += 1;
        let truth = reference(&mut eval, pos, depth);
        assert_eq!(score, truth as f32 / UNIT as f32, "row {row}: margin");
        let expected = if depth >= pos.empty_count() {
            solved += 1;
            (truth.signum()) as f32
        } else {
            (truth as f32 / LOGIT_UNITS).tanh()
        };
        assert_eq!(value, expected, "row {row}: value");
    }
    assert!(
        searched > solved && solved > 0 && kept > 0,
        "every kind of row: {searched} searched, {solved} solved, {kept} kept"
    );
    assert_eq!(
        summary,
        FileSummary {
            rows: positions.len(),
            kept,
            searched,
            solved
        }
    );
    // Every other column as it was.
    let mut before = NpzFile::open(&input).expect("input");
    for name in ["value", "score", "policy"] {
        assert_eq!(
            npz.array::<f32>(name).expect("column"),
            before.array::<f32>(name).expect("column"),
            "{name}"
        );
    }
    assert_eq!(
        npz.array::<u8>("planes").expect("planes"),
        before.array::<u8>("planes").expect("planes")
    );
    let sidecar: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("s-0.json")).expect("sidecar"))
            .expect("json");
    assert_eq!(sidecar["plane_names"][0], "own");
    assert_eq!(sidecar["relabelled"], note);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_existing_output_an_unknown_column_and_a_wrong_board_are_refused() {
    let dir = empty_dir("refused");
    let input = write_input(&made(dir.join("in")), &positions());
    let out = made(dir.join("out"));
    let note = serde_json::Value::Null;
    relabel(&input, &out, 6, 1, &note).expect("first");
    let again = relabel(&input, &out, 6, 1, &note);
    assert!(matches!(again, Err(RelabelError::Exists(_))), "{again:?}");
    let eight = relabel_file(
        &input,
        &dir,
        BoardSize::Eight,
        Variant::Standard,
        6,
        &mut feature_relabeller(1),
        &note,
    )
    .expect_err("planes of 6x6");
    assert!(
        eight.to_string().contains("not [rows, planes, 8, 8]"),
        "{eight}"
    );
    let odd = dir.join("odd.npz");
    let column = ArrayD::from_shape_vec(IxDyn(&[1]), vec![1.0f32]).expect("shape");
    write_npz(
        &odd,
        &[
            ("planes", Column::F32(column.view())),
            ("mystery", Column::F32(column.view())),
        ],
    )
    .expect("writes");
    let unknown = relabel(&odd, &out, 6, 1, &note).expect_err("unknown column");
    assert!(unknown.to_string().contains("'mystery'"), "{unknown}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A value column of another shape than one number a row is refused, not a panic.
#[test]
fn a_value_column_of_another_shape_is_refused() {
    let dir = empty_dir("shape");
    let out = made(dir.join("out"));
    let note = serde_json::Value::Null;
    let flat = made(dir.join("flat"));
    let one = positions()[..1].to_vec();
    let shaped = write_input(&flat, &one);
    let mut npz = NpzFile::open(&shaped).expect("written");
    let planes = npz.array::<u8>("planes").expect("planes");
    let pair = ArrayD::from_shape_vec(IxDyn(&[1, 2]), vec![0.5f32, 0.5]).expect("shape");
    // One number a row, as many as the rows, but as a column: indexing it by row panicked.
    let column = ArrayD::from_shape_vec(IxDyn(&[1, 1]), vec![0.5f32]).expect("shape");
    write_npz(
        &shaped,
        &[
            ("planes", Column::U8(planes.view())),
            ("policy", Column::F32(pair.view())),
            ("value", Column::F32(column.view())),
            ("score", Column::F32(column.view())),
        ],
    )
    .expect("rewrites");
    let wrong = relabel(&shaped, &out, 6, 1, &note).expect_err("values of shape [1, 1]");
    assert!(
        wrong.to_string().contains("values of shape [1, 1]"),
        "{wrong}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `path`, made as a folder.
fn made(path: PathBuf) -> PathBuf {
    std::fs::create_dir_all(&path).expect("dir");
    path
}
