//! `othello book`: grow an opening book by drop-out expansion (`build`, `extend`), look into
//! one (`show`, `stats`), and the pieces a cluster runs it by (`todo` lists the positions
//! to search next, `search` searches a shard of them into a book of their own, `merge`
//! adds books together). docs/book.md describes the file and the growth.

use crate::args::{read_position, BoardArgs};
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use engine::book::{Book, BookEntry, BookKey};
use engine::{ModelSource, PlayerKind, PlayerSpec};
use indicatif::{ProgressBar, ProgressStyle};
use othello::Position;
use std::path::{Path, PathBuf};
use tools::book::{
    back_up, count_game, grow, merge, read_book, search_position, stats, todo, write_book,
    GrowthSettings,
};

#[derive(Subcommand)]
pub enum BookCommand {
    /// Start a book and grow it: the start position (or the positions of --from) first,
    /// then the lines within the margins, cheapest drop first
    Build(GrowArgs),
    /// Grow an existing book further (after a kill, too: nothing is searched twice)
    Extend(GrowArgs),
    /// Every move the book knows in a position, with its value
    Show {
        book: PathBuf,
        /// A transcript such as `f5d6c3`, board text, or a GGF game (file or record)
        #[arg(allow_hyphen_values = true)]
        position: String,
    },
    /// Add books together (where both hold a position, the deeper search wins)
    Merge {
        /// The book to add to (made when missing)
        book: PathBuf,
        /// The books to add
        #[arg(required = true)]
        others: Vec<PathBuf>,
        #[command(flatten)]
        board: BoardArgs,
    },
    /// Size, depth and the searches behind a book
    Stats { book: PathBuf },
    /// The positions a round would search next, as board text, one per line
    Todo {
        book: PathBuf,
        #[command(flatten)]
        growth: GrowthArgs,
        /// At most this many
        #[arg(long, default_value_t = 16)]
        count: usize,
    },
    /// Search positions (board text, one per line, from a file or - for standard input,
    /// or given with --position) into a book of their own, for `merge`: one shard of a
    /// cluster's round
    Search {
        positions: Option<PathBuf>,
        /// A position as board text (repeat for more), beside or instead of the file
        #[arg(long = "position", allow_hyphen_values = true)]
        position: Vec<String>,
        #[command(flatten)]
        search: SearchArgs,
        /// The book to write
        #[arg(long)]
        out: PathBuf,
    },
}

#[derive(Args)]
pub struct SearchArgs {
    /// The agent that searches each position, an `mcts` spec
    /// (e.g. mcts:model=models/az-8x8.onnx)
    #[arg(long)]
    player: PlayerSpec,
    /// Simulations per position
    #[arg(long, default_value_t = 20_000)]
    sims: u64,
    #[command(flatten)]
    board: BoardArgs,
}

#[derive(Args)]
pub struct GrowthArgs {
    /// Deepest position, in moves from the start
    #[arg(long, default_value_t = GrowthSettings::default().depth)]
    depth: u32,
    /// Follow moves within this many discs of their position's best
    #[arg(long, default_value_t = GrowthSettings::default().margin)]
    margin: f32,
    /// ... on lines that lose no more than this many discs in all
    #[arg(long, default_value_t = GrowthSettings::default().total_margin)]
    total_margin: f32,
    /// Transcripts, one per line (as crates/othello/data/xot-8x8.txt): every position of each line
    /// joins the book, counted as a game through it, and the lines' ends are roots of the
    /// growth beside the start
    #[arg(long)]
    from: Option<PathBuf>,
}

#[derive(Args)]
pub struct GrowArgs {
    book: PathBuf,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    growth: GrowthArgs,
    /// Positions to add (searches) before stopping
    #[arg(long, default_value_t = 100)]
    positions: usize,
}

pub fn run(command: BookCommand, models: &dyn ModelSource) -> Result<()> {
    match command {
        BookCommand::Build(args) => {
            if args.book.exists() {
                bail!(
                    "{} exists; grow it with `othello book extend`",
                    args.book.display()
                );
            }
            let board = args.search.board;
            grow_book(Book::new(board.board, board.variant), &args, models)
        }
        BookCommand::Extend(args) => {
            let book = open(&args.book)?;
            grow_book(book, &args, models)
        }
        BookCommand::Show { book, position } => show(&open(&book)?, &position),
        BookCommand::Merge {
            book,
            others,
            board,
        } => {
            let mut into = if book.exists() {
                open(&book)?
            } else {
                Book::new(board.board, board.variant)
            };
            for other in &others {
                let added = merge(&mut into, &open(other)?)
                    .with_context(|| format!("cannot merge {}", other.display()))?;
                println!("{}: {added} new positions", other.display());
            }
            save(&book, &into)?;
            println!("{}: {} positions", book.display(), into.len());
            Ok(())
        }
        BookCommand::Stats { book } => {
            print_stats(&open(&book)?);
            Ok(())
        }
        BookCommand::Todo {
            book,
            growth,
            count,
        } => {
            let book = open(&book)?;
            let roots = roots(&book, &from_lines(&book, &growth)?);
            for pos in todo(&book, &roots, &growth.settings(), count) {
                println!("{}", pos.to_board_text());
            }
            Ok(())
        }
        BookCommand::Search {
            positions,
            position,
            search,
            out,
        } => {
            let mut lines: Vec<(String, String)> = position
                .into_iter()
                .enumerate()
                .map(|(i, text)| (format!("--position {}", i + 1), text))
                .collect();
            if let Some(path) = positions {
                lines.extend(read_lines(&path)?);
            }
            search_shard(&lines, &search, &out, models)
        }
    }
}

fn open(path: &Path) -> Result<Book> {
    read_book(path).with_context(|| format!("book {}", path.display()))
}

fn save(path: &Path, book: &Book) -> Result<()> {
    write_book(path, book).with_context(|| format!("cannot write {}", path.display()))
}

impl GrowthArgs {
    fn settings(&self) -> GrowthSettings {
        GrowthSettings {
            depth: self.depth,
            margin: self.margin,
            total_margin: self.total_margin,
        }
    }
}

/// The games of the --from lines (each as its positions), none without it.
fn from_lines(book: &Book, growth: &GrowthArgs) -> Result<Vec<Vec<Position>>> {
    let Some(path) = &growth.from else {
        return Ok(Vec::new());
    };
    let start = Position::start(book.size(), book.variant());
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    othello::transcript_lines(&text)
        .map(|(line, transcript)| {
            let game = othello::Game::from_transcript(transcript, start)
                .with_context(|| format!("{} line {line}", path.display()))?;
            Ok(game.positions().to_vec())
        })
        .collect()
}

/// The growth's roots: the start, and every position of the --from lines.
fn roots(book: &Book, lines: &[Vec<Position>]) -> Vec<Position> {
    let start = Position::start(book.size(), book.variant());
    let line_positions = lines.iter().flatten().filter(|p| !p.is_game_over());
    // A book position always has a move: one that must pass is kept after its pass.
    let kept = line_positions.map(|p| {
        if p.must_pass() {
            p.play_unchecked(othello::Move::Pass)
        } else {
            *p
        }
    });
    std::iter::once(start).chain(kept).collect()
}

fn agent(
    search: &SearchArgs,
    models: &dyn ModelSource,
) -> Result<engine::Mcts<Box<dyn engine::Evaluator + Send>>> {
    if search.player.kind != PlayerKind::Mcts {
        bail!(
            "a book is searched by an `mcts` player, not {}",
            search.player
        );
    }
    if search.player.book.is_some() {
        bail!("the player that grows a book searches every position: give it no book=");
    }
    let board = search.board;
    search
        .player
        .check_game(board.board, board.variant, models)?;
    Ok(search.player.mcts_player(1, models)?)
}

fn grow_book(mut book: Book, args: &GrowArgs, models: &dyn ModelSource) -> Result<()> {
    let board = args.search.board;
    book.check_game(board.board, board.variant)
        .with_context(|| format!("book {}", args.book.display()))?;
    // One agent for the whole build: its evaluation cache carries over from position to
    // position (neighbouring book positions share most of their trees), which makes a
    // build about four times faster than an agent per position (measured: 20,000
    // simulations a position, 0.7-1.5 s against about 7 s here).
    let mut agent = agent(&args.search, models)?;
    let lines = from_lines(&book, &args.growth)?;
    for line in &lines {
        count_game(&mut book, line);
    }
    let roots = roots(&book, &lines);
    let settings = args.growth.settings();
    let bar = ProgressBar::new(args.positions as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {elapsed} (eta {eta}) {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let sims = args.search.sims;
    let mut added = 0;
    while added < args.positions {
        let round = grow(
            &mut book,
            &roots,
            &settings,
            args.positions - added,
            |pos| Ok(search_position(&mut agent, pos, sims)?),
            |book, pos| {
                bar.inc(1);
                bar.set_message(format!("last: {}", pos.to_board_text()));
                save(&args.book, book)
            },
        )?;
        if round == 0 {
            bar.println("the book holds every line its margins and depth allow");
            break;
        }
        added += round;
    }
    bar.finish_and_clear();
    // The counts of --from lines change the file even when nothing was searched.
    back_up(&mut book);
    save(&args.book, &book)?;
    println!("{}: {added} positions added", args.book.display());
    print_stats(&book);
    Ok(())
}

/// The non-blank lines of a file (or standard input for `-`), each named for errors.
fn read_lines(path: &Path) -> Result<Vec<(String, String)>> {
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("cannot read standard input")?
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?
    };
    Ok(text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            (
                format!("{} line {}", path.display(), n + 1),
                l.trim().to_owned(),
            )
        })
        .collect())
}

fn search_shard(
    lines: &[(String, String)],
    search: &SearchArgs,
    out: &Path,
    models: &dyn ModelSource,
) -> Result<()> {
    if lines.is_empty() {
        bail!("no positions to search: give a file or --position");
    }
    let board = search.board;
    // Every position is read before the first search, so a typo costs no search.
    let mut positions = Vec::new();
    for (place, line) in lines {
        let pos = Position::from_board_text(line, board.variant).with_context(|| place.clone())?;
        if pos.size() != board.board || pos.legal_moves().is_empty() {
            bail!(
                "{place}: not a {} position with a move to search",
                board.board
            );
        }
        positions.push(pos);
    }
    let mut agent = agent(search, models)?;
    let mut book = Book::new(board.board, board.variant);
    for pos in positions {
        let entry = search_position(&mut agent, &pos, search.sims)?;
        book.insert(&pos, entry);
    }
    save(out, &book)
}

fn show(book: &Book, position: &str) -> Result<()> {
    let board = BoardArgs {
        board: book.size(),
        variant: book.variant(),
    };
    let game = read_position(position, board)?;
    let pos = game.position();
    let Some(entry) = book.get(pos) else {
        println!("not in the book");
        return Ok(());
    };
    println!(
        "value {:+.2} ({}, {}), {} games",
        entry.value,
        entry.source(),
        budget_text(entry),
        entry.games
    );
    for m in book.moves(pos).unwrap_or_default() {
        let note = if m.in_book { "book" } else { "search estimate" };
        println!("  {:<4} {:+7.2}  {note}", m.mv.to_string(), m.value);
    }
    Ok(())
}

fn budget_text(entry: &BookEntry) -> String {
    if entry.budget == 0 {
        "exact".to_owned()
    } else {
        format!("{} simulations", entry.budget)
    }
}

fn print_stats(book: &Book) {
    let s = stats(book);
    println!(
        "{} positions ({n}x{n} {}): {} searched, {} solved, {} with values backed up",
        s.positions,
        book.variant().name(),
        s.positions - s.solved,
        s.solved,
        s.backed_up,
        n = book.size().n(),
    );
    let depth = s.by_ply.len().saturating_sub(1);
    println!("deepest: {depth} moves after the start; positions by move:");
    let cells: Vec<String> = s
        .by_ply
        .iter()
        .enumerate()
        .map(|(ply, n)| format!("{ply}:{n}"))
        .collect();
    println!("  {}", cells.join(" "));
    println!("simulations behind it: {}", s.simulations);
    let root = Position::start(book.size(), book.variant());
    if let Some(entry) = book.get_keyed(&BookKey::of(&root).0) {
        println!("the start's value: {:+.2}", entry.value);
    }
}
