//! The bitboard features against slow references that work square by square on a grid,
//! on positions of random games and on random boards of every size.

use super::*;
use crate::Rng;
use othello::{Color, Position, Variant};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Cell {
    Own,
    Opponent,
    Empty,
}

/// A board as rows of cells, row 0 = rank 1.
struct Grid {
    n: i32,
    cells: Vec<Vec<Cell>>,
}

impl Grid {
    fn new(own: u64, opponent: u64, size: BoardSize) -> Grid {
        let n = i32::from(size.n());
        let cells = (0..n)
            .map(|row| {
                (0..n)
                    .map(|col| {
                        let bit = 1u64 << (row * 8 + col);
                        match (own & bit != 0, opponent & bit != 0) {
                            (true, _) => Cell::Own,
                            (_, true) => Cell::Opponent,
                            _ => Cell::Empty,
                        }
                    })
                    .collect()
            })
            .collect();
        Grid { n, cells }
    }

    fn at(&self, row: i32, col: i32) -> Option<Cell> {
        let on = (0..self.n).contains(&row) && (0..self.n).contains(&col);
        on.then(|| self.cells[row as usize][col as usize])
    }

    fn squares(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        (0..self.n).flat_map(move |row| (0..self.n).map(move |col| (row, col)))
    }

    /// The squares (as 8x8 layout bits) where `keep` holds.
    fn bits(&self, keep: impl Fn(i32, i32) -> bool) -> u64 {
        self.squares()
            .filter(|&(row, col)| keep(row, col))
            .fold(0, |bits, (row, col)| bits | 1 << (row * 8 + col))
    }
}

const ALL_DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The four lines through a square, each as one of its two directions (row, column steps).
const LINE_DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Every edge line's contents reachable from `line` by placing either side's disc on any
/// empty square, with the rules' flips along the line; the squares that are `Own` in all
/// of them. A breadth-first walk over the set of reachable contents, cached by contents.
fn edge_keeps(line: &[Cell], cache: &mut HashMap<Vec<Cell>, Vec<bool>>) -> Vec<bool> {
    if let Some(known) = cache.get(line) {
        return known.clone();
    }
    let mut seen = std::collections::HashSet::from([line.to_vec()]);
    let mut queue = vec![line.to_vec()];
    let mut keeps: Vec<bool> = line.iter().map(|&c| c == Cell::Own).collect();
    while let Some(state) = queue.pop() {
        for (k, cell) in state.iter().enumerate() {
            keeps[k] &= *cell == Cell::Own;
        }
        for square in 0..state.len() {
            if state[square] != Cell::Empty {
                continue;
            }
            for mover in [Cell::Own, Cell::Opponent] {
                let mut next = state.clone();
                next[square] = mover;
                for step in [-1i32, 1] {
                    let mut run = Vec::new();
                    let mut at = square as i32 + step;
                    while at >= 0 && (at as usize) < state.len() {
                        let cell = state[at as usize];
                        if cell == Cell::Empty || cell == mover {
                            break;
                        }
                        run.push(at as usize);
                        at += step;
                    }
                    let closed =
                        at >= 0 && (at as usize) < state.len() && state[at as usize] == mover;
                    if closed {
                        for k in run {
                            next[k] = mover;
                        }
                    }
                }
                if seen.insert(next.clone()) {
                    queue.push(next);
                }
            }
        }
    }
    cache.insert(line.to_vec(), keeps.clone());
    keeps
}

/// Stable discs of the side `Own` by the definition `stable_discs` documents, square by
/// square: the edges by a walk over all their reachable contents, then every inside disc
/// whose four lines are each full (walked square by square) or hold a stable neighbour,
/// until none is added.
fn reference_stable(grid: &Grid, cache: &mut HashMap<Vec<Cell>, Vec<bool>>) -> u64 {
    let n = grid.n;
    let mut stable = vec![vec![false; n as usize]; n as usize];
    let edges: [Vec<(i32, i32)>; 4] = [
        (0..n).map(|c| (0, c)).collect(),
        (0..n).map(|c| (n - 1, c)).collect(),
        (0..n).map(|r| (r, 0)).collect(),
        (0..n).map(|r| (r, n - 1)).collect(),
    ];
    for edge in &edges {
        let line: Vec<Cell> = edge
            .iter()
            .map(|&(r, c)| grid.cells[r as usize][c as usize])
            .collect();
        for (&(r, c), keep) in edge.iter().zip(edge_keeps(&line, cache)) {
            stable[r as usize][c as usize] |= keep;
        }
    }
    let full = |row: i32, col: i32, (dr, dc): (i32, i32)| {
        [1, -1].iter().all(|&sign| {
            let (mut r, mut c) = (row, col);
            while let Some(cell) = grid.at(r, c) {
                if cell == Cell::Empty {
                    return false;
                }
                r += sign * dr;
                c += sign * dc;
            }
            true
        })
    };
    loop {
        let mut added = false;
        for row in 1..n - 1 {
            for col in 1..n - 1 {
                if stable[row as usize][col as usize]
                    || grid.cells[row as usize][col as usize] != Cell::Own
                {
                    continue;
                }
                let held = LINE_DIRECTIONS.iter().all(|&(dr, dc)| {
                    full(row, col, (dr, dc))
                        || stable[(row + dr) as usize][(col + dc) as usize]
                        || stable[(row - dr) as usize][(col - dc) as usize]
                });
                if held {
                    stable[row as usize][col as usize] = true;
                    added = true;
                }
            }
        }
        if !added {
            return grid.bits(|r, c| stable[r as usize][c as usize]);
        }
    }
}

fn reference_frontier(grid: &Grid, side: Cell) -> u64 {
    grid.bits(|row, col| {
        grid.cells[row as usize][col as usize] == side
            && ALL_DIRECTIONS
                .iter()
                .any(|&(dr, dc)| grid.at(row + dr, col + dc) == Some(Cell::Empty))
    })
}

fn reference_odd_regions(grid: &Grid) -> u64 {
    let n = grid.n as usize;
    let mut region_of = vec![vec![usize::MAX; n]; n];
    let mut sizes = Vec::new();
    for (row, col) in grid.squares() {
        if grid.cells[row as usize][col as usize] != Cell::Empty
            || region_of[row as usize][col as usize] != usize::MAX
        {
            continue;
        }
        let id = sizes.len();
        let mut size = 0;
        let mut stack = vec![(row, col)];
        region_of[row as usize][col as usize] = id;
        while let Some((r, c)) = stack.pop() {
            size += 1;
            for (dr, dc) in ALL_DIRECTIONS {
                let (y, x) = (r + dr, c + dc);
                if grid.at(y, x) == Some(Cell::Empty)
                    && region_of[y as usize][x as usize] == usize::MAX
                {
                    region_of[y as usize][x as usize] = id;
                    stack.push((y, x));
                }
            }
        }
        sizes.push(size);
    }
    grid.bits(|r, c| {
        let id = region_of[r as usize][c as usize];
        id != usize::MAX && sizes[id] % 2 == 1
    })
}

fn reference_odd_quadrants(grid: &Grid) -> u64 {
    let half = grid.n / 2;
    let quadrant = |r: i32, c: i32| (r / half, c / half);
    grid.bits(|row, col| {
        let empties = grid
            .squares()
            .filter(|&(r, c)| quadrant(r, c) == quadrant(row, col))
            .filter(|&(r, c)| grid.cells[r as usize][c as usize] == Cell::Empty)
            .count();
        grid.cells[row as usize][col as usize] == Cell::Empty && empties % 2 == 1
    })
}

/// Positions of random games (every ply of them) and random boards (each square own,
/// the opponent's or empty at random, reachable or not), on every board size.
fn positions(seed: u64, games: usize) -> Vec<(u64, u64, BoardSize)> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for game in 0..games {
        let size = BoardSize::ALL[game % 3];
        let mut pos = Position::start(size, Variant::Standard);
        while !pos.is_game_over() {
            out.push((pos.player().0, pos.opponent().0, size));
            let moves = pos.legal_move_list();
            pos = pos
                .play(*rng.choose(&moves).expect("not over"))
                .expect("legal");
        }
        out.push((pos.player().0, pos.opponent().0, size));
        // A random board, with a random share of empties.
        let empty_share = rng.unit();
        let (mut own, mut opponent) = (0, 0);
        for sq in othello::Square::all(size) {
            if rng.unit() >= empty_share {
                if rng.below(2) == 0 {
                    own |= sq.bit();
                } else {
                    opponent |= sq.bit();
                }
            }
        }
        out.push((own, opponent, size));
    }
    out
}

#[test]
fn stable_discs_are_those_of_the_square_by_square_definition() {
    let mut cache = HashMap::new();
    let mut found = [0u32; 3];
    for (own, opponent, size) in positions(5, 300) {
        for (p, o) in [(own, opponent), (opponent, own)] {
            let want = reference_stable(&Grid::new(p, o, size), &mut cache);
            let got = stable_discs(p, o, size);
            assert_eq!(
                got,
                want,
                "{size}: own\n{}opponent\n{}",
                othello::Bitboard(p),
                othello::Bitboard(o)
            );
            found[size as usize] += got.count_ones();
        }
    }
    // The comparison means something only where there are stable discs to find.
    assert!(
        found.iter().all(|&f| f > 200),
        "stable discs found by size: {found:?}"
    );
}

#[test]
fn stable_discs_keep_their_colour_in_random_continuations() {
    let mut rng = Rng::new(23);
    let mut found = 0;
    for game in 0..300 {
        let size = BoardSize::ALL[game % 3];
        let mut pos = Position::start(size, Variant::Standard);
        for _ in 0..rng.below(size.squares() as usize) {
            let moves = pos.legal_move_list();
            let Some(mv) = rng.choose(&moves) else { break };
            pos = pos.play(*mv).expect("legal");
        }
        let (black, white) = (pos.black().0, pos.white().0);
        let black_stable = stable_discs(black, white, size);
        let white_stable = stable_discs(white, black, size);
        found += (black_stable | white_stable).count_ones();
        for _ in 0..4 {
            let mut next = pos;
            while !next.is_game_over() {
                let moves = next.legal_move_list();
                next = next
                    .play(*rng.choose(&moves).expect("not over"))
                    .expect("legal");
                assert_eq!(next.discs(Color::Black).0 & black_stable, black_stable);
                assert_eq!(next.discs(Color::White).0 & white_stable, white_stable);
            }
        }
    }
    assert!(found > 500, "only {found} stable discs seen");
}

#[test]
fn stable_discs_of_boards_one_can_check_by_eye() {
    let eight = BoardSize::Eight;
    // A full board: every disc is stable.
    let own = 0x0f0f_0f0f_0f0f_0f0f;
    assert_eq!(stable_discs(own, !own, eight), own);
    // A lone corner, and the discs along the edge from it.
    assert_eq!(stable_discs(0b111, 0b1000, eight), 0b111);
    // A run along the edge from a corner holds...
    assert_eq!(stable_discs(0xfe, 0, eight), 0xfe);
    // ... but not a run between the other side's corner and an empty corner: a disc
    // on h1 would flip it all.
    assert_eq!(stable_discs(0x7e, 0x01, eight), 0);
    assert_eq!(stable_discs(0x01, 0x7e, eight), 0x01);
    // On 6x6 the corners are a1, f1, a6 and f6.
    let six = BoardSize::Six;
    let corners = 1 | 1 << 5 | 1 << 40 | 1 << 45;
    assert_eq!(stable_discs(corners, 0, six), corners);
    // The whole 4x4 board filled with one side's discs and one of the other's.
    let four = BoardSize::Four.mask();
    assert_eq!(
        stable_discs(four & !(1 << 9), 1 << 9, BoardSize::Four),
        four & !(1 << 9)
    );
}

#[test]
fn frontier_and_parity_are_those_of_the_square_by_square_definitions() {
    for (own, opponent, size) in positions(9, 300) {
        let grid = Grid::new(own, opponent, size);
        let empty = size.mask() & !(own | opponent);
        assert_eq!(frontier(own, empty), reference_frontier(&grid, Cell::Own));
        assert_eq!(
            frontier(opponent, empty),
            reference_frontier(&grid, Cell::Opponent)
        );
        assert_eq!(
            odd_regions(empty),
            reference_odd_regions(&grid),
            "{size}: {own:#x} {opponent:#x}"
        );
        assert_eq!(odd_quadrants(empty, size), reference_odd_quadrants(&grid));
    }
}

#[test]
fn regions_touching_at_a_corner_are_one_region() {
    // a1 and b2 empty, a2 and b1 filled: one region of two, so no odd one.
    let empty = 1 | 1 << 9;
    assert_eq!(odd_regions(empty), 0);
    // a1 alone and c3 alone: two regions of one.
    let empty = 1 | 1 << 18;
    assert_eq!(odd_regions(empty), empty);
}
