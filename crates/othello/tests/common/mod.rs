//! An obviously-correct reference implementation of the rules: a plain array of cells and
//! a walk in each of the eight directions. The bitboard code is checked against it.

#![allow(dead_code)]

use othello::{Color, Position, Square};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferenceBoard {
    pub n: usize,
    /// `cells[row][column]`: 1 black, -1 white, 0 empty.
    pub cells: Vec<Vec<i8>>,
    /// 1 when Black is to move, -1 for White.
    pub to_move: i8,
}

const DIRECTIONS: [(isize, isize); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

impl ReferenceBoard {
    pub fn from_position(pos: &Position) -> ReferenceBoard {
        let n = pos.size().n() as usize;
        let mut cells = vec![vec![0i8; n]; n];
        for (row, line) in cells.iter_mut().enumerate() {
            for (col, cell) in line.iter_mut().enumerate() {
                let sq = Square::new(col as u8, row as u8).expect("on the board");
                *cell = match pos.color_at(sq) {
                    Some(Color::Black) => 1,
                    Some(Color::White) => -1,
                    None => 0,
                };
            }
        }
        let to_move = if pos.side_to_move() == Color::Black {
            1
        } else {
            -1
        };
        ReferenceBoard { n, cells, to_move }
    }

    /// The discs flipped by the side to move placing at (col, row), walking each direction.
    pub fn flips(&self, col: usize, row: usize, side: i8) -> Vec<(usize, usize)> {
        if self.cells[row][col] != 0 {
            return Vec::new();
        }
        let mut all = Vec::new();
        for (dc, dr) in DIRECTIONS {
            let mut line = Vec::new();
            let (mut c, mut r) = (col as isize + dc, row as isize + dr);
            while c >= 0 && r >= 0 && (c as usize) < self.n && (r as usize) < self.n {
                let cell = self.cells[r as usize][c as usize];
                if cell == -side {
                    line.push((c as usize, r as usize));
                } else {
                    if cell == side {
                        all.extend(line.iter().copied());
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        all.sort();
        all
    }

    /// Legal placements of `side`, row by row.
    pub fn moves_of(&self, side: i8) -> Vec<(usize, usize)> {
        let mut moves = Vec::new();
        for row in 0..self.n {
            for col in 0..self.n {
                if !self.flips(col, row, side).is_empty() {
                    moves.push((col, row));
                }
            }
        }
        moves
    }

    pub fn moves(&self) -> Vec<(usize, usize)> {
        self.moves_of(self.to_move)
    }

    pub fn must_pass(&self) -> bool {
        self.moves().is_empty() && !self.moves_of(-self.to_move).is_empty()
    }

    pub fn game_over(&self) -> bool {
        self.moves().is_empty() && self.moves_of(-self.to_move).is_empty()
    }

    pub fn play(&mut self, col: usize, row: usize) {
        let side = self.to_move;
        for (c, r) in self.flips(col, row, side) {
            self.cells[r][c] = side;
        }
        self.cells[row][col] = side;
        self.to_move = -side;
    }

    pub fn pass(&mut self) {
        self.to_move = -self.to_move;
    }

    pub fn count(&self, side: i8) -> u32 {
        self.cells.iter().flatten().filter(|&&c| c == side).count() as u32
    }

    /// Final margin for Black in the standard variant, empties to the winner.
    pub fn black_margin(&self) -> i32 {
        let (b, w) = (self.count(1) as i32, self.count(-1) as i32);
        let empties = (self.n * self.n) as i32 - b - w;
        match b.cmp(&w) {
            std::cmp::Ordering::Greater => b - w + empties,
            std::cmp::Ordering::Less => b - w - empties,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// perft by plain recursion, with the same conventions as the library's.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.game_over() {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            let mut next = self.clone();
            next.pass();
            return next.perft(depth - 1);
        }
        moves
            .into_iter()
            .map(|(c, r)| {
                let mut next = self.clone();
                next.play(c, r);
                next.perft(depth - 1)
            })
            .sum()
    }
}
