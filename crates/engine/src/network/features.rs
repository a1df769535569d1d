//! Othello knowledge as bitboards, for the input planes that hand a network what its 3x3
//! convolutions find expensive (docs/model-contract.md, input set v2): stable discs,
//! frontier discs and the parity of the empty regions. As KataGo's `nninputs.cpp` gives
//! its nets liberties and ladders, these give ours what takes many layers to see.
//!
//! Every function works on all board sizes: a smaller board sits in the top-left corner of
//! the 8x8 layout (`BoardSize::mask`), where squares off it are never discs and never empty.

use othello::BoardSize;
use std::sync::OnceLock;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0x0000_0000_0000_00ff;
const RANK_8: u64 = 0xff00_0000_0000_0000;

/// The squares next to `squares` (the eight neighbours of each), within the 8x8 layout:
/// the masks keep a shift from wrapping onto the next row.
fn neighbours(squares: u64) -> u64 {
    let east = (squares << 1) & !FILE_A;
    let west = (squares >> 1) & !FILE_H;
    let row = squares | east | west;
    east | west | (row << 8) | (row >> 8)
}

/// The discs of `discs` next to an empty square (one of their eight neighbours): the
/// frontier, whose discs give the other side moves.
pub fn frontier(discs: u64, empty: u64) -> u64 {
    discs & neighbours(empty)
}

/// The empty squares of the regions with an odd number of squares, where a region is a
/// set of empty squares connected through their eight neighbours (a disc or the board's
/// edge separates two regions). Parity: who moves first in an odd region may also move
/// last in it.
pub fn odd_regions(empty: u64) -> u64 {
    let mut odd = 0;
    let mut left = empty;
    while left != 0 {
        let mut region = left & left.wrapping_neg();
        loop {
            let grown = (region | neighbours(region)) & empty;
            if grown == region {
                break;
            }
            region = grown;
        }
        if region.count_ones() % 2 == 1 {
            odd |= region;
        }
        left &= !region;
    }
    odd
}

/// The empty squares of the quadrants that hold an odd number of empties: the parity
/// Edax's search orders moves by (`QUADRANT_ID` in its `src/search.c`), a cheap stand-in
/// for [`odd_regions`].
pub fn odd_quadrants(empty: u64, size: BoardSize) -> u64 {
    size.quadrants()
        .into_iter()
        .map(|quadrant| empty & quadrant)
        .filter(|in_quadrant| in_quadrant.count_ones() % 2 == 1)
        .fold(0, |odd, in_quadrant| odd | in_quadrant)
}

/// The four directions of a line: the bit step to the next square, and the squares with
/// no next square that way and none the other way (the 8x8 layout's edges).
const LINES: [(u32, u64, u64); 4] = [
    (1, FILE_H, FILE_A),
    (8, RANK_8, RANK_1),
    (9, FILE_H | RANK_8, FILE_A | RANK_1),
    (7, FILE_A | RANK_8, FILE_H | RANK_1),
];

/// Squares whose whole line in the direction `line` is filled. Each round takes away the
/// squares whose neighbour along the line is not (yet) known full; seven rounds cross the
/// longest line.
fn full_lines(filled: u64, (step, last_up, last_down): (u32, u64, u64)) -> u64 {
    let mut full = filled;
    for _ in 0..7 {
        full &= ((full >> step) | last_up) & ((full << step) | last_down);
    }
    full
}

/// The squares of `size` not on its edge.
const fn interior(size: BoardSize) -> u64 {
    match size {
        BoardSize::Four => 0x06_0600,
        BoardSize::Six => 0x001e_1e1e_1e00,
        BoardSize::Eight => 0x007e_7e7e_7e7e_7e00,
    }
}

/// Discs of `own` that no sequence of moves can flip, as Edax finds them (`src/board.c`:
/// `get_stable_edge`, `get_full_lines` and the loop of `get_stability`, named
/// `get_stable_discs` in later versions). Conservative: every disc it names is stable,
/// though it misses some.
///
/// - On an edge, a disc is stable when it keeps its colour whatever either side places on
///   the empty squares of its edge, in any order (a table per board size, by exhaustive
///   search over each edge's contents: an edge disc can only be flipped along its edge).
/// - Inside, a disc is stable when each of its four lines (row, column, two diagonals) is
///   full, or has a stable disc of its own colour next to it along that line: a flip along
///   the line would have to flip that neighbour too.
///
/// The second rule is applied until nothing more is found, from the stable edge discs.
pub fn stable_discs(own: u64, opponent: u64, size: BoardSize) -> u64 {
    // Squares off a smaller board count as filled: the 8x8 line through a square is then
    // full exactly when the board's own line is (a board is convex, so no line leaves it
    // and comes back).
    let filled = own | opponent | !size.mask();
    let full = LINES.map(|line| full_lines(filled, line));
    let candidates = own & interior(size);
    let mut stable = edge_stable(own, opponent, size);
    loop {
        // Inside the board both neighbours along any line are on it, so the shifts
        // need no wrap masks here.
        let mut next = candidates;
        for (full, (step, _, _)) in full.iter().zip(LINES) {
            next &= full | (stable << step) | (stable >> step);
        }
        let grown = stable | next;
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

/// The stable discs of `own` on the four edges of the board.
fn edge_stable(own: u64, opponent: u64, size: BoardSize) -> u64 {
    let n = u32::from(size.n());
    let table = edge_table(size);
    let stable_on = |line: fn(u64, u32, u32) -> u32, place: fn(u32, u32, u32) -> u64, at| {
        let (p, o) = (line(own, at, n), line(opponent, at, n));
        place(u32::from(table[edge_index(p, o, n)]), at, n)
    };
    stable_on(row_bits, place_row, 0)
        | stable_on(row_bits, place_row, n - 1)
        | stable_on(column_bits, place_column, 0)
        | stable_on(column_bits, place_column, n - 1)
}

/// Row `row` of `bits` as an n-bit line, column a first.
fn row_bits(bits: u64, row: u32, n: u32) -> u32 {
    ((bits >> (8 * row)) & ((1 << n) - 1)) as u32
}

fn place_row(line: u32, row: u32, _: u32) -> u64 {
    u64::from(line) << (8 * row)
}

/// Column `col` of `bits` as an n-bit line, row 1 first.
fn column_bits(bits: u64, col: u32, n: u32) -> u32 {
    (0..n).fold(0, |line, row| {
        line | (((bits >> (row * 8 + col)) & 1) as u32) << row
    })
}

fn place_column(line: u32, col: u32, n: u32) -> u64 {
    (0..n).fold(0, |bits, row| {
        bits | (u64::from((line >> row) & 1) << (row * 8 + col))
    })
}

fn edge_index(own: u32, opponent: u32, n: u32) -> usize {
    ((own << n) | opponent) as usize
}

/// The stable discs of every edge of length n, by its own discs and the other side's
/// (`edge_index`), built once per board size.
fn edge_table(size: BoardSize) -> &'static [u8] {
    static TABLES: [OnceLock<Vec<u8>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let slot = match size {
        BoardSize::Four => 0,
        BoardSize::Six => 1,
        BoardSize::Eight => 2,
    };
    TABLES[slot].get_or_init(|| build_edge_table(u32::from(size.n())))
}

/// For each edge of length n (own discs, the other side's): the own discs that are own on
/// every edge either side can make from it by placing on its empty squares, in any order,
/// whether or not the rules would allow the placement (what else is on the board decides
/// that). A placement fills a square, so an edge's successors have more discs: the table
/// is filled from the full edges down, each entry its own discs and its successors'
/// entries.
fn build_edge_table(n: u32) -> Vec<u8> {
    let all = (1u32 << n) - 1;
    let mut table = vec![0u8; 1 << (2 * n)];
    let mut occupancies: Vec<u32> = (0..=all).collect();
    occupancies.sort_by_key(|occupied| std::cmp::Reverse(occupied.count_ones()));
    for occupied in occupancies {
        // Every split of the occupied squares between the two sides.
        let mut own = occupied;
        loop {
            let opponent = occupied ^ own;
            let mut stable = own;
            for square in (0..n).filter(|s| occupied & (1 << s) == 0) {
                let (p, o) = place_on_line(own, opponent, square, n);
                stable &= u32::from(table[edge_index(p, o, n)]);
                let (o, p) = place_on_line(opponent, own, square, n);
                stable &= u32::from(table[edge_index(p, o, n)]);
            }
            table[edge_index(own, opponent, n)] = stable as u8;
            if own == 0 {
                break;
            }
            own = (own - 1) & occupied;
        }
    }
    table
}

/// `mover` places a disc on `square` of a line of length n: the discs of `other` it
/// brackets against one of its own turn over. Returns (mover, other) after.
fn place_on_line(mover: u32, other: u32, square: u32, n: u32) -> (u32, u32) {
    let mut flipped = 0;
    for step in [-1i32, 1] {
        let mut run = 0;
        let mut at = square as i32 + step;
        while (0..n as i32).contains(&at) && other & (1 << at) != 0 {
            run |= 1 << at;
            at += step;
        }
        if (0..n as i32).contains(&at) && mover & (1 << at) != 0 {
            flipped |= run;
        }
    }
    (mover | flipped | (1 << square), other & !flipped)
}

#[cfg(test)]
mod tests;
