//! What the board shows, decided in one place: which position (the game's, an earlier
//! move browsed, a reviewed move's, the editor's) and what lies over its squares (the
//! live search's heat map, a hint's ranked moves, a reviewed move's marks, or nothing);
//! and the search the panel beside it reads, with its role (the agent's past search is
//! drawn dimmed there, never on the board). Plain functions of the game and the view, so
//! every case is tested without a browser; the board only draws what they return.

use crate::merge::{Tile, TileKind};
use crate::pool::Purpose;
use crate::review::focus_tiles;
use crate::state::GameState;
use crate::view::{Heat, View};
use othello::{Move, Square};
use protocol::ReviewedMove;

/// What a search shown on the page is to the person.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The agent searching the position on the board for its move.
    Thinking,
    /// The agent's search for the move it has played: kept for reading, dimmed, never on
    /// the board (its squares may hold discs now, and the person's moves are others).
    Past,
    /// A search for the person's side, asked for.
    Hint,
    /// Analysis mode's search of the position on the board.
    Analysis,
}

/// Which position the board shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Showing {
    /// The game's position, played on by a click on the person's turn.
    Game,
    /// The position after this many moves, read only: a move the game cannot stop at,
    /// which the person is looking at.
    Browsed(usize),
    /// The position this move of the game (0-based) was played from, read only: a
    /// reviewed move the person clicked in the review.
    Reviewed(usize),
    /// The board editor's position, each click cycling a square.
    Editor,
}

/// What lies over the board's empty squares.
#[derive(Clone, Debug, PartialEq)]
pub enum Tiles {
    None,
    /// The agent's search of the position on the board, while it thinks: each visited
    /// move's share of the visits, in blue; the move it would play framed.
    Shares {
        tiles: Vec<Tile>,
        best: Option<Move>,
    },
    /// Moves ranked from red to green: a hint's or an analysis's every legal move, in the
    /// search's order, or a reviewed move's played and best moves; the best framed.
    Ranked {
        tiles: Vec<Tile>,
        best: Option<Move>,
    },
    /// A puzzle's squares. Room for puzzles, which the page does not offer yet: the board
    /// draws nothing for it.
    Puzzle,
}

/// What the board draws: [`board_overlay`] decides it.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardOverlay {
    pub showing: Showing,
    pub tiles: Tiles,
    /// The square marked as the move to play: a finished hint's suggestion, or a reviewed
    /// move's best.
    pub marked: Option<Square>,
    /// A reviewed move's played move, marked beside the best when it is another.
    pub played: Option<Square>,
}

impl BoardOverlay {
    fn bare(showing: Showing) -> BoardOverlay {
        BoardOverlay {
            showing,
            tiles: Tiles::None,
            marked: None,
            played: None,
        }
    }
}

/// What the board shows for the game (`browsing`: the move the person looks at when the
/// game cannot stop there) and the view, with the heat map switched on or off. The
/// editor comes first, then a reviewed move, then an earlier move, then the game itself.
pub fn board_overlay(
    game: &GameState,
    browsing: Option<usize>,
    view: &View,
    heat_map: bool,
) -> BoardOverlay {
    if view.editor.is_some() {
        return BoardOverlay::bare(Showing::Editor);
    }
    if let Some((index, review)) = focused_review(view, game) {
        return BoardOverlay {
            showing: Showing::Reviewed(index),
            tiles: Tiles::Ranked {
                tiles: focus_tiles(&review, game.position().size()),
                best: Some(review.best),
            },
            marked: review.best.square(),
            played: review
                .played
                .square()
                .filter(|_| review.played != review.best),
        };
    }
    if let Some(ply) = browsing {
        return BoardOverlay::bare(Showing::Browsed(ply));
    }
    let pos = game.position();
    // The hint's marker stays without its tiles (the heat map switched off).
    let marked = view
        .hint
        .filter(|(h, _)| *h == pos.hash())
        .and_then(|(_, mv)| mv.square());
    // A hint reads as Othello players read one: every legal move's evaluation; the agent's
    // search as where its visits go.
    // A search made for the person, a hint or an analysis, says one thing on the squares:
    // each move's margin, coloured by the search's own order (issue 68: an analysis showed
    // shares of visits where a hint of the same search showed margins).
    let tiles = match board_search(view, game, heat_map) {
        Some(h) if h.purpose != Purpose::Move => {
            let mut tiles = h.merged.hint_tiles(&pos.legal_move_list(), pos.size());
            if h.merged.search.book.is_none() {
                rank_by(&mut tiles, &h.merged.search_order());
            }
            spread(&mut tiles);
            Tiles::Ranked {
                tiles,
                best: h.merged.best_move(),
            }
        }
        Some(h) => Tiles::Shares {
            tiles: h.merged.heat_tiles(),
            best: h.merged.best_move(),
        },
        None => Tiles::None,
    };
    BoardOverlay {
        tiles,
        marked,
        ..BoardOverlay::bare(Showing::Game)
    }
}

/// The search the panel shows, with its role: a search of the position on the board, or
/// the agent's search for the move it has just played (until the person moves); nothing
/// for any other position's.
pub fn panel_search<'a>(view: &'a View, game: &GameState) -> Option<(&'a Heat, Role)> {
    let here = game.position().hash();
    // The agent to move here with a report of this position that no running search made:
    // an earlier search of it (the person's move undone and played again), whose figures
    // would stand under the thinking heading until the new search starts.
    let running = |position| {
        view.searching
            .is_some_and(|(purpose, hash, _)| purpose == Purpose::Move && hash == position)
    };
    view.heat.as_ref().and_then(|h| {
        let role = match h.purpose {
            Purpose::Move if h.position == here && game.agent_to_move() => {
                if !running(h.position) {
                    return None;
                }
                Role::Thinking
            }
            Purpose::Move if heat_visible(game, h.position) => Role::Past,
            // Once the game is over nobody moves again: the agent's last search of the
            // game stays, even where the person's move ended it (issue 68: the panel
            // emptied at the game's end).
            Purpose::Move if game.position().is_game_over() && played_from(game, h.position) => {
                Role::Past
            }
            Purpose::Hint if h.position == here => Role::Hint,
            Purpose::Analysis if h.position == here => Role::Analysis,
            _ => return None,
        };
        Some((h, role))
    })
}

/// Whether the position of hash `searched` is one the game's moves were played from.
fn played_from(game: &GameState, searched: u64) -> bool {
    let positions = game.game.positions();
    positions[..positions.len().saturating_sub(1)]
        .iter()
        .any(|p| p.hash() == searched)
}

/// The search the panel beside the board shows: [`panel_search`]'s, but none while the
/// board shows another position than the game's (a move looked at, a reviewed move, the
/// editor's), where a search of the game's position would read as the board's (a fresh
/// look found an analysis of the last position beside a reviewed move's board).
pub fn panel_beside<'a>(
    view: &'a View,
    game: &GameState,
    browsing: Option<usize>,
) -> Option<(&'a Heat, Role)> {
    let showing = board_overlay(game, browsing, view, false).showing;
    panel_search(view, game).filter(|_| showing == Showing::Game)
}

/// The panel's search when its tiles belong on the board: only a search of the position
/// on the board (so every tile is an empty square), with the heat map on, with
/// simulations of its own, and never the agent's past search on the person's turn.
fn board_search<'a>(view: &'a View, game: &GameState, heat_map: bool) -> Option<&'a Heat> {
    // A hint in a book position has no simulations, but the book's values to show; so
    // has a hint the solver settled (every move's margin, within the solver's sure reach).
    let has_tiles = |h: &Heat, role: Role| {
        !h.merged.tiles().is_empty()
            || (matches!(role, Role::Hint | Role::Analysis)
                && (h.merged.search.book.is_some() || h.merged.search.solved.is_some()))
    };
    panel_search(view, game)
        .filter(|(h, role)| heat_map && *role != Role::Past && has_tiles(h, *role))
        .map(|(h, _)| h)
}

/// Whether a search of the position with hash `searched` is still the agent's word on the
/// board: it is for the current position, and after the agent played from it, until the
/// next move by the person.
pub fn heat_visible(state: &GameState, searched: u64) -> bool {
    let moves = state.game.moves();
    let positions = state.game.positions();
    if state.position().hash() == searched {
        return true;
    }
    let mut placements = 0;
    for i in (0..moves.len()).rev() {
        let before = &positions[i];
        if moves[i] != Move::Pass {
            placements += 1;
            if placements > 1 || !state.agent_plays(before.side_to_move()) {
                return false;
            }
        }
        if before.hash() == searched {
            return true;
        }
    }
    false
}

/// The reviewed move the person clicked, with its index in the game, while it is still a
/// move of the game with its review.
/// The ply of the position the board shows where it is not the game's own: a focused
/// review row's (the position its move was played from), else the move looked back at
/// (`browsing`). The board text and "Analyse" follow it (the fourteenth look: with a
/// review row shown, Analyse refused the game's finished final position).
pub fn shown_ply(view: &View, game: &GameState, browsing: Option<usize>) -> Option<usize> {
    focused_review(view, game)
        .map(|(index, _)| index)
        .or(browsing)
}

pub fn focused_review(view: &View, game: &GameState) -> Option<(usize, ReviewedMove)> {
    let (of, index) = view.review.focus?;
    let pos = game.game.positions().get(index)?;
    let mv = game.game.moves().get(index)?;
    Some((index, view.review.of(of).get(pos.hash(), *mv)?))
}

/// Colours ranked tiles by `order`, the search's ranking of its moves
/// ([`crate::merge::Merged::search_order`]): its choice 1, its last 0, evenly between, so
/// that the framed move is the greenest square whatever the margins on the others say (a
/// margin from a few simulations, or from a score head that disagrees with the value head
/// the search follows, can read higher). A tile the order leaves out keeps its strength.
/// A lone ranked move is the search's choice, green as the legend says, whatever its
/// value: a solved position's one exact move among unsearched "?" squares was drawn red
/// for its proven loss, and read as the worst move (issue 68); its number says the loss.
pub fn rank_by(tiles: &mut [Tile], order: &[Move]) {
    let ranked = tiles.iter().filter(|t| order.contains(&t.mv)).count();
    if ranked < 2 {
        if let Some(tile) = tiles.iter_mut().find(|t| order.first() == Some(&t.mv)) {
            tile.strength = 1.0;
        }
        return;
    }
    let last = (order.len() - 1).max(1) as f32;
    for tile in tiles.iter_mut() {
        if let Some(rank) = order.iter().position(|mv| *mv == tile.mv) {
            tile.strength = 1.0 - rank as f32 / last;
        }
    }
}

/// A hint's tiles with their strengths spread over the whole scale, worst move 0 and best
/// 1: a chance to win tells the moves apart by its rank among them, not by its distance
/// from even, so 11% and 19% no longer draw alike. Tiles that all agree keep theirs. A move
/// the search never tried (`hint_tiles` labels it "?") has no value to rank: it gets a
/// negative strength, which the board draws grey, and stays out of the scale. Tiles whose
/// numbers read the same are drawn alike, as the strongest of them: the colours never rank
/// what the squares call equal (issue 68's fourth look: the four first moves of a reversed
/// game, each "~+1", were drawn best and worst over a tenth of a disc), and the search's
/// choice stays the greenest (the strongest, not the mean, of its group).
pub fn spread(tiles: &mut [Tile]) {
    let untried = |t: &Tile| t.label == "?";
    let alike: Vec<f32> = tiles
        .iter()
        .map(|t| {
            tiles
                .iter()
                .filter(|o| o.label == t.label)
                .fold(f32::MIN, |high, o| high.max(o.strength))
        })
        .collect();
    for (tile, strength) in tiles.iter_mut().zip(alike) {
        tile.strength = strength;
    }
    let (low, high) = tiles
        .iter()
        .filter(|t| !untried(t))
        .fold((f32::MAX, f32::MIN), |(lo, hi), t| {
            (lo.min(t.strength), hi.max(t.strength))
        });
    for tile in tiles.iter_mut() {
        if untried(tile) {
            tile.strength = -1.0;
        } else if high - low > f32::EPSILON {
            tile.strength = (tile.strength - low) / (high - low);
        }
    }
}

/// The line under the board that says what the numbers on its squares are, in what unit
/// and for whom (`side`: the side the values are for, as the page names it), and which of
/// them are exact, bounds or estimates: one sentence for the kinds of tiles present, none
/// without tiles.
/// The unit of the numbers on the squares, in a word or two, drawn as a badge on the
/// counts' line above the board: the agent's search shows shares of its visits, a hint, an analysis or a reviewed
/// move margins in discs (or a chance to win, where the network has no score output), and
/// the switch between them was a caption's word only (issue 68).
pub fn unit(tiles: &Tiles) -> Option<&'static str> {
    let tiles = match tiles {
        Tiles::None | Tiles::Puzzle => return None,
        Tiles::Shares { .. } => return Some("squares: % of visits"),
        Tiles::Ranked { tiles, .. } => tiles,
    };
    let chance = tiles.iter().any(|t| t.kind == TileKind::Chance);
    let margins = tiles.iter().any(|t| {
        matches!(
            t.kind,
            TileKind::Exact
                | TileKind::Bound
                | TileKind::Estimate
                | TileKind::Book
                | TileKind::Reviewed
        )
    });
    Some(match (margins, chance) {
        (true, true) => "squares: discs, or % chance to win",
        (false, true) => "squares: % chance to win",
        _ => "squares: discs",
    })
}

pub fn legend(tiles: &Tiles, side: &str) -> Option<String> {
    let tiles = match tiles {
        Tiles::None | Tiles::Puzzle => return None,
        Tiles::Shares { .. } => {
            return Some(
                // No longer than it was (two lines beside the board): the buttons under
                // it must not move as the agent's search comes and goes. The percent is the
                // unit's badge's, above the board.
                "On the squares: each move's share of the search's visits so far, deeper \
                 blue for more, not a chance to win; framed: the move it would play."
                    .to_owned(),
            );
        }
        Tiles::Ranked { tiles, .. } => tiles,
    };
    // A reviewed move: two squares, said as such, in two lines at most, so that the
    // board, the notice and the status line fit a laptop's screen together (issue 68).
    if !tiles.is_empty() && tiles.iter().all(|t| t.kind == TileKind::Reviewed) {
        let bound = if tiles.iter().any(|t| t.label.starts_with('≥')) {
            "; ≥ before it: at least"
        } else {
            ""
        };
        return Some(format!(
            "On the squares: the final disc margin for {side} after the move played (red) and \
             the best (green); a number alone is exact, ≈ before it the search's estimate{bound}."
        ));
    }
    let mut kinds: Vec<TileKind> = tiles.iter().map(|t| t.kind).collect();
    kinds.sort();
    kinds.dedup();
    if kinds == [TileKind::Book] {
        // Its own words, no longer than a search's line: the general form with the book's
        // clauses ran to a third line under the board and moved the status and the buttons
        // 18 px at a game's first hint (the eighth fresh look, issue 68). A book hint marks
        // only the moves the book holds (often one): "each move" promised the others.
        return Some(format!(
            "On the squares: the opening book's estimates (≈) of the final disc margin for \
             {side} after each move it holds, red the worst to green the best."
        ));
    }
    let parts: Vec<&str> = kinds
        .iter()
        .map(|kind| match kind {
            TileKind::Exact => "a number alone is exact (perfect play)",
            TileKind::Bound => "≥ before it: at least (a proven result, its margin not finished)",
            TileKind::Proven => "win, draw, loss proven",
            // A search's (issue 68: a hint's 400 simulations were called "the network's
            // estimate", as if the network alone had said it).
            TileKind::Estimate => "≈ before it: the search's estimate",
            TileKind::Book => "≈ before it: the opening book's estimate",
            TileKind::Chance => "a percentage: the chance to win after the move (an estimate)",
            TileKind::Unsearched => "? not searched",
            TileKind::Reviewed => "a number alone is exact, ≈ before it an estimate",
            TileKind::Share => "a share of the search",
        })
        .collect();
    // The colours are the search's order, the framed move green, not the numbers' own
    // (issue 68: the two can disagree). Squares that read the same are drawn alike
    // (`spread`), so a tie with the framed move is as green as it (issue 68: d2's "~-16"
    // as green as the framed f6's "~-16"). The legend says the colours are the search's
    // order in as few words as "green the search's choice to red its worst" took (the
    // ninth look read "+34" drawn red beside "+30" orange as one of them wrong; more words
    // took the line to a third, which moved the buttons 18 px as it came and went).
    Some(format!(
        "On the squares: the final disc margin for {side} after each move, coloured by \
         the search's order, green its choice: {}.",
        parts.join("; ")
    ))
}

#[cfg(test)]
mod tests;
