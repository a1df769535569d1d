//! `othello relabel`: self-play's samples valued again by an alpha-beta search of a pattern
//! network (`tools::relabel`), for the trainer's `--search-weight` blend.

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use engine::midgame::{PatternEval, PatternOutput};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use tools::models::{ModelFiles, RuntimeChoice};
use tools::relabel::{file_rules, npz_files, relabel_file, FileSummary, Relabeller};

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
    let files = npz_files(&args.inputs)?;
    if files.is_empty() {
        bail!(
            "no .npz files in {}",
            args.inputs
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot make {}", args.out.display()))?;
    let note = serde_json::json!({
        "model": args.model.display().to_string(),
        "depth": args.depth,
        "created_by": format!("othello relabel {}", env!("CARGO_PKG_VERSION")),
    });
    let threads = args.threads.get()?.min(files.len());
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let totals = Mutex::new((FileSummary::default(), None::<anyhow::Error>));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let eval = |output| Box::new(PatternEval::new(tables.clone(), output, &name)) as _;
                let mut relabeller =
                    Relabeller::new(eval(PatternOutput::Margin), eval(PatternOutput::ValueLogit), args.depth);
                while let Some(file) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let done = file_rules(file).and_then(|rules| {
                        let keep = args.exact_from.or(rules.exact_from).ok_or_else(|| {
                            tools::relabel::RelabelError::Data {
                                file: file.display().to_string(),
                                message: "its sidecar names no label_empties or exact_empties; give --exact-from".to_owned(),
                            }
                        })?;
                        relabel_file(file, &args.out, rules.size, rules.variant, keep, &mut relabeller, &note)
                    });
                    let mut totals = totals.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    match done {
                        Ok(s) => {
                            println!("{}: {} rows, {} searched ({} solved), {} kept exact", file.display(), s.rows, s.searched, s.solved, s.kept);
                            let t = &mut totals.0;
                            (t.rows, t.searched, t.solved, t.kept) = (t.rows + s.rows, t.searched + s.searched, t.solved + s.solved, t.kept + s.kept);
                        }
                        Err(e) => {
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
