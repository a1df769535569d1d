//! The board: discs, legal moves, the last move and its flips, the heat map of the
//! agent's search and the hint; arrow keys move between squares.

use crate::merge::Tile;
use crate::overlay::Tiles;
use othello::{Bitboard, Color, Move, Position, Square};
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct BoardProps {
    pub position: Position,
    /// The squares the person may play now (none on the agent's turn).
    pub legal: Bitboard,
    pub last: Option<Square>,
    pub flips: Bitboard,
    /// Alternates between moves, so the flip animation restarts.
    pub flip_class: &'static str,
    /// What lies over the empty squares ([`crate::overlay::board_overlay`] decides it).
    #[prop_or(Tiles::None)]
    pub tiles: Tiles,
    /// The move to play, marked: a hint's, or a reviewed move's best.
    #[prop_or_default]
    pub marked: Option<Square>,
    /// The move a reviewed position's player chose, marked beside the best.
    #[prop_or_default]
    pub played: Option<Square>,
    pub on_play: Callback<Square>,
}

fn focus_square(sq: Square) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&format!("sq-{sq}")))
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

#[function_component(Board)]
pub fn board(props: &BoardProps) -> Html {
    let cursor = use_state(|| None::<Square>);
    let pos = props.position;
    let size = pos.size();
    let n = size.n();
    let focus = cursor
        .or(props.last)
        .or_else(|| props.legal.into_iter().next());
    // A hint's or a review's tiles rank moves, drawn from red (the worst) to green (the
    // best) rather than as the search's blue shares.
    let (tiles, best, ranked) = match &props.tiles {
        Tiles::Shares { tiles, best } => (tiles.as_slice(), *best, false),
        Tiles::Ranked { tiles, best } => (tiles.as_slice(), *best, true),
        Tiles::None | Tiles::Puzzle => (&[][..], None, false),
    };
    let cells = Square::all(size).map(|sq| {
        let is_legal = props.legal.contains(sq);
        let onclick = {
            let on_play = props.on_play.clone();
            Callback::from(move |_| on_play.emit(sq))
        };
        let onfocus = {
            let cursor = cursor.clone();
            Callback::from(move |_| cursor.set(Some(sq)))
        };
        let color = pos.color_at(sq);
        let disc = color.map(|c| disc_span(props, sq, c));
        // Never over a disc: a share belongs to an empty square of the searched position.
        let tile = tiles
            .iter()
            .find(|t| color.is_none() && t.mv == Move::Place(sq));
        let is_best = best == Some(Move::Place(sq));
        let heat_overlay = tile.map(|tile| tile_span(tile, is_best, ranked));
        let coords = coordinates(sq);
        let label = square_label(props, sq, color, is_legal, tile);
        html! {
            <button
                id={format!("sq-{sq}")}
                class={classes!(
                    "cell",
                    is_legal.then_some("legal"),
                    (props.last == Some(sq)).then_some("last"),
                    (props.marked == Some(sq)).then_some("hint"),
                    (props.played == Some(sq)).then_some("played"),
                )}
                role="gridcell"
                // No aria-disabled on the squares without a move: a click there says why.
                aria-label={label}
                tabindex={if focus == Some(sq) { "0" } else { "-1" }}
                data-square={sq.to_string()}
                {onclick}
                {onfocus}
            >{ for coords.into_iter().flatten() }{ for disc }{ for heat_overlay }</button>
        }
    });
    let cells: Vec<Html> = cells.collect();
    let rows = cells.chunks(usize::from(n)).map(
        |row| html! { <div role="row" style="display: contents">{ for row.iter().cloned() }</div> },
    );
    let onkeydown = arrow_keys(focus, n);
    html! {
        <div class={classes!("board", format!("n{n}"), (pos.side_to_move() == Color::White).then_some("white-to-move"))} role="grid" aria-label={format!("Othello board, {size}")}
             id="board" {onkeydown}
             style={format!("grid-template-columns: repeat({n}, 1fr)")}>
            // A grid's cells sit in rows, for screen readers; the rows take no box of
            // their own, so the squares stay items of the board's CSS grid.
            { for rows }
        </div>
    }
}

/// The disc on a square: its colour, and whether it just flipped or was just placed.
fn disc_span(props: &BoardProps, sq: Square, c: Color) -> Html {
    let class = classes!(
        "disc",
        if c == Color::Black { "black" } else { "white" },
        props.flips.contains(sq).then_some(props.flip_class),
        (props.last == Some(sq)).then_some("placed"),
    );
    html! { <span class={class} aria-hidden="true"></span> }
}

/// A tile of the overlay: a search's share in blue, deeper the more visits, or a hint's
/// rank from red (the worst) to green (the best); the best move's tile is framed. Shares
/// were orange, so the most visited move (the best) looked like the hint's worst (a fresh
/// look, issue 68): blue is on neither end of the hint's scale.
fn tile_span(tile: &Tile, best: bool, ranked: bool) -> Html {
    let strength = tile.strength.clamp(0.0, 1.0);
    let style = if ranked && tile.strength < 0.0 {
        // A move the hint's search never tried: no rank to colour.
        "background: hsla(0, 0%, 45%, 0.5)".to_owned()
    } else if ranked {
        format!("background: hsla({:.1}, 75%, 42%, 0.8)", 120.0 * strength)
    } else {
        format!(
            "background: rgba(30, 90, 220, {:.2})",
            0.15 + 0.75 * strength
        )
    };
    html! {
        <span class={classes!("heat", best.then_some("best"))} style={style} aria-hidden="true">
            <span class="pct">{ tile.label.clone() }</span>
        </span>
    }
}

/// Column letters along the top row and row numbers down the left edge, so the notation in
/// the move list and the principal variation can be read off the board.
fn coordinates(sq: Square) -> [Option<Html>; 2] {
    let text = sq.to_string();
    let (letter, number) = text.split_at(1);
    [
        (sq.index() / 8 == 0).then(
            || html! { <span class="coord top" aria-hidden="true">{ letter.to_owned() }</span> },
        ),
        sq.index().is_multiple_of(8).then(
            || html! { <span class="coord left" aria-hidden="true">{ number.to_owned() }</span> },
        ),
    ]
}

/// What a screen reader says of a square: its name, what is on it, and what the page marks
/// there (the last move, a search's share, the hint).
fn square_label(
    props: &BoardProps,
    sq: Square,
    color: Option<Color>,
    is_legal: bool,
    tile: Option<&Tile>,
) -> String {
    let mut label = format!("{sq}: ");
    label.push_str(match color {
        Some(Color::Black) => "black",
        Some(Color::White) => "white",
        None if is_legal => "empty, legal move",
        None => "empty",
    });
    if props.last == Some(sq) {
        label.push_str(", last move");
    }
    if let Some(tile) = tile {
        label.push_str(&format!(", {}", tile.aria));
    }
    // A reviewed move's tile already says "played" or "the best move": the marks are not
    // said twice, nor the best called a suggestion (issue 68: "played, the best move, -
    // discs, suggested move").
    if tile.is_some_and(|t| t.kind == crate::merge::TileKind::Reviewed) {
        return label;
    }
    if props.played == Some(sq) {
        label.push_str(", the move played");
    }
    if props.marked == Some(sq) {
        label.push_str(if props.played.is_some() {
            ", the best move"
        } else {
            ", suggested move"
        });
    }
    label
}

/// The arrow keys move the focus from square to square on an `n x n` board.
fn arrow_keys(focus: Option<Square>, n: u8) -> Callback<KeyboardEvent> {
    Callback::from(move |e: KeyboardEvent| {
        let Some(current) = focus else { return };
        let (col, row) = (current.index() % 8, current.index() / 8);
        let (dc, dr): (i32, i32) = match e.key().as_str() {
            "ArrowLeft" => (-1, 0),
            "ArrowRight" => (1, 0),
            "ArrowUp" => (0, -1),
            "ArrowDown" => (0, 1),
            _ => return,
        };
        e.prevent_default();
        let (c, r) = (col as i32 + dc, row as i32 + dr);
        if (0..n as i32).contains(&c) && (0..n as i32).contains(&r) {
            if let Some(sq) = Square::new(c as u8, r as u8) {
                focus_square(sq);
            }
        }
    })
}
