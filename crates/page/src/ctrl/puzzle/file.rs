//! A board's puzzle file, fetched when Puzzle mode first needs it.

use crate::hooks::fetch_bytes;
use engine::puzzles::PuzzleSet;
use othello::BoardSize;
use std::rc::Rc;
use yew::prelude::*;

/// A board's puzzle file: not asked yet, on its way, read (with its size in bytes and the
/// milliseconds from the request to the set being read), or why Puzzle mode cannot use it.
#[derive(Clone, Debug, PartialEq)]
pub enum PuzzleFile {
    NotAsked,
    Loading,
    Ready {
        set: Rc<PuzzleSet>,
        bytes: usize,
        millis: f64,
    },
    Failed(String),
}

impl PuzzleFile {
    /// The set, once it is read for the board `size`.
    pub fn set_for(&self, size: BoardSize) -> Option<&Rc<PuzzleSet>> {
        match self {
            PuzzleFile::Ready { set, .. } if set.size == size => Some(set),
            _ => None,
        }
    }
}

/// The file of `size`'s puzzles, served beside the page like the networks
/// (`puzzles/puzzles-8x8.bin`) and read by `engine::puzzles` on the page, which picks
/// puzzles by rating and theme among all of them; fetched once `wanted`, and again only
/// for another board.
#[hook]
pub(super) fn use_puzzle_file(size: BoardSize, wanted: bool) -> UseStateHandle<PuzzleFile> {
    let file = use_state(|| PuzzleFile::NotAsked);
    {
        let file = file.clone();
        use_effect_with((size, wanted), move |&(size, wanted)| {
            if wanted && file.set_for(size).is_none() {
                file.set(PuzzleFile::Loading);
                wasm_bindgen_futures::spawn_local(async move {
                    file.set(fetch_puzzles(size).await);
                });
            }
        });
    }
    file
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

async fn fetch_puzzles(size: BoardSize) -> PuzzleFile {
    let started = now_ms();
    let n = size.n();
    let url = format!("puzzles/puzzles-{n}x{n}.bin");
    let bytes = match fetch_bytes(&url).await {
        Ok(bytes) => bytes,
        Err(e) => return PuzzleFile::Failed(format!("the puzzle file could not be fetched ({e})")),
    };
    match PuzzleSet::from_bytes(&bytes) {
        Ok(set) if set.size == size => PuzzleFile::Ready {
            set: Rc::new(set),
            bytes: bytes.len(),
            millis: now_ms() - started,
        },
        Ok(_) => PuzzleFile::Failed(format!("{url} holds another board's puzzles")),
        Err(e) => PuzzleFile::Failed(format!("{url} is damaged: {e}")),
    }
}
