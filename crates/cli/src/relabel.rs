//! `othello relabel`: self-play's samples valued again by an alpha-beta search of a pattern
//! network (`tools::relabel`), for the trainer's `--search-weight` blend.

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use engine::midgame::{PatternEval, PatternOutput};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use tools::models::{ModelFiles, RuntimeChoice};
use tools::relabel::{file_rules, npz_files, relabel_file, FileSummary, RelabelError, Relabeller};

#[derive(Args)]
pub struct RelabelArgs {
    /// Self-play `.npz` files, or folders of them (each with its `.json` sidecar)
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The pattern network (.onnx with its card) whose tables the search adds up
    #[arg(long)]
    model: PathBuf,
    /// Plies of the alpha-beta search (a position this close to the end is solved)
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// Rows with at most this many empties keep their own targets (default: the file's
    /// `label_empties`, else its `exact_empties`: where self-play's labels are exact)
    #[arg(long)]
    exact_from: Option<u32>,
    /// The folder the relabelled files go to (never over a file already there)
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    threads: crate::args::ThreadsArg,
}

pub fn run(args: RelabelArgs, runtime: RuntimeChoice) -> Result<()> {
    let network = ModelFiles::new(runtime).load(&args.model)?;
    let Some(tables) = network.pattern_tables() else {
        bail!(
            "{}: not a pattern network; relabelling searches a pattern network's tables",
            args.model.display()
        );
    };
    let name = network.card().name.clone();
    let files = inputs(&args)?;
    let note = serde_json::json!({
        "model": args.model.display().to_string(),
        "depth": args.depth,
        "created_by": format!("othello relabel {}", env!("CARGO_PKG_VERSION")),
    });
    let threads = args.threads.get()?.min(files.len());
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let totals = Mutex::new((FileSummary::default(), None::<anyhow::Error>));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let eval = |output| Box::new(PatternEval::new(tables.clone(), output, &name)) as _;
                let (margin, value) = (PatternOutput::Margin, PatternOutput::ValueLogit);
                let mut relabeller = Relabeller::new(eval(margin), eval(value), args.depth);
                while let Some(file) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if failed.load(Ordering::Relaxed) {
                        // One clear error, not a folder half relabelled by the others.
                        return;
                    }
                    let done = relabel_one(file, &args, &mut relabeller, &note);
                    let mut totals = totals
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    match done {
                        Ok(s) => {
                            println!(
                                "{}: {} rows, {} searched ({} solved), {} kept exact",
                                file.display(),
                                s.rows,
                                s.searched,
                                s.solved,
                                s.kept
                            );
                            totals.0 += &s;
                        }
                        Err(e) => {
                            failed.store(true, Ordering::Relaxed);
                            totals.1.get_or_insert(anyhow!(e));
                            return;
                        }
                    }
                }
            });
        }
    });
    let (total, error) = totals
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(error) = error {
        return Err(error);
    }
    println!(
        "{} files, {} rows: {} searched at depth {} ({} solved), {} kept exact, in {:.1} s",
        files.len(),
        total.rows,
        total.searched,
        args.depth,
        total.solved,
        total.kept,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// One file, by its sidecar's board and labels (`--exact-from` over its labels).
fn relabel_one(
    file: &Path,
    args: &RelabelArgs,
    relabeller: &mut Relabeller,
    note: &serde_json::Value,
) -> Result<FileSummary, RelabelError> {
    let rules = file_rules(file)?;
    let keep = args
        .exact_from
        .or(rules.exact_from)
        .ok_or_else(|| RelabelError::Data {
            file: file.display().to_string(),
            message: "its sidecar names no label_empties or exact_empties; give --exact-from"
                .to_owned(),
        })?;
    relabel_file(
        file,
        &args.out,
        rules.size,
        rules.variant,
        keep,
        relabeller,
        note,
    )
}

/// The files to relabel, with the output folder made.
fn inputs(args: &RelabelArgs) -> Result<Vec<PathBuf>> {
    let files = npz_files(&args.inputs)?;
    if files.is_empty() {
        let named: Vec<String> = args
            .inputs
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        bail!("no .npz files in {}", named.join(", "));
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot make {}", args.out.display()))?;
    Ok(files)
}
