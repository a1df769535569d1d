//! A pattern network's patterns as its card states them, checked, with every pattern's
//! instances (its images under the board's symmetries) and the game's stage buckets
//! (docs/model-contract.md, "Pattern networks").

use othello::{BoardSize, Position, Square, Symmetry};
use serde::{Deserialize, Serialize};

/// The most squares a pattern may have: 3^10 = 59,049 configurations a stage, as in
/// Egaroucid's and Edax's largest patterns.
pub const MAX_SQUARES: usize = 10;
/// The most patterns a card may list.
pub const MAX_PATTERNS: usize = 32;
/// The most stage buckets: one a move of an 8x8 game.
pub const MAX_STAGES: u32 = 60;

/// The global network's inputs, in the order it reads them (docs/model-contract.md, "The
/// global network"): the side to move's legal moves over [`MOBILITY_SCALE`], the
/// opponent's, the empties' parity (1 odd) and the stage input the patterns read.
pub const GLOBAL_FEATURES: [&str; 4] = ["mobility", "opponent_mobility", "parity", "stage"];

/// What a side's count of legal moves is divided by in the global network's input.
pub const MOBILITY_SCALE: f32 = 32.0;

/// The card's `global` section: a global network beside the patterns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GlobalDef {
    /// [`GLOBAL_FEATURES`], the only inputs a global network may have.
    pub features: Vec<String>,
    /// The trainer's layer sizes; the engine reads the network from the ONNX.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<Vec<u32>>,
}

/// One pattern as the card lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PatternDef {
    pub name: String,
    /// Its squares in the order its network reads them (`a1`, `b1`, ...).
    pub squares: Vec<String>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PatternError {
    #[error("a pattern network's card needs {0}")]
    Missing(&'static str),
    #[error("the card says {0} stages; a pattern network has 1 to {MAX_STAGES}")]
    Stages(u32),
    #[error("the card lists {0} patterns; a pattern network has 1 to {MAX_PATTERNS}")]
    PatternCount(usize),
    #[error("pattern '{name}' has {count} squares; a pattern has 1 to {MAX_SQUARES}")]
    SquareCount { name: String, count: usize },
    #[error("pattern '{name}': {message}")]
    Square { name: String, message: String },
    #[error("pattern '{name}' lists square {square} twice")]
    Repeated { name: String, square: String },
    #[error(
        "the card's global features are {0:?}; a global network reads {GLOBAL_FEATURES:?}, in that order"
    )]
    GlobalFeatures(Vec<String>),
}

/// A pattern's squares, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub name: String,
    /// In the card's order.
    pub squares: Vec<Square>,
}

impl Pattern {
    /// The bitboard of its squares.
    pub fn mask(&self) -> u64 {
        self.squares.iter().fold(0, |m, sq| m | sq.bit())
    }

    /// 3^squares: the configurations of its squares (empty, own, opponent).
    pub fn configurations(&self) -> usize {
        3usize.pow(self.squares.len() as u32)
    }
}

/// One place a pattern is read: the pattern's squares mapped by `symmetry`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The pattern's index in the card.
    pub pattern: usize,
    pub symmetry: Symmetry,
}

/// A card's patterns, stages and instances for one board size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternSet {
    pub size: BoardSize,
    pub stages: u32,
    pub patterns: Vec<Pattern>,
    /// Every pattern's distinct images, pattern by pattern, each in `Symmetry::ALL` order.
    pub instances: Vec<Instance>,
    /// Whether a global network is added to the patterns' sums ([`GLOBAL_FEATURES`]).
    pub global: bool,
}

impl PatternSet {
    pub fn new(
        size: BoardSize,
        stages: Option<u32>,
        defs: Option<&[PatternDef]>,
    ) -> Result<PatternSet, PatternError> {
        let stages = stages.ok_or(PatternError::Missing("'stages'"))?;
        if !(1..=MAX_STAGES).contains(&stages) {
            return Err(PatternError::Stages(stages));
        }
        let defs = defs.ok_or(PatternError::Missing("'patterns'"))?;
        if defs.is_empty() || defs.len() > MAX_PATTERNS {
            return Err(PatternError::PatternCount(defs.len()));
        }
        let patterns = defs
            .iter()
            .map(|def| parse_pattern(def, size))
            .collect::<Result<Vec<_>, _>>()?;
        let instances = patterns
            .iter()
            .enumerate()
            .flat_map(|(index, pattern)| instances_of(index, pattern, size))
            .collect();
        Ok(PatternSet {
            size,
            stages,
            patterns,
            instances,
            global: false,
        })
    }

    /// The set with the card's global network, where it has one; refuses features other
    /// than [`GLOBAL_FEATURES`].
    pub fn with_global(mut self, global: Option<&GlobalDef>) -> Result<Self, PatternError> {
        if let Some(def) = global {
            if def.features.iter().map(String::as_str).ne(GLOBAL_FEATURES) {
                return Err(PatternError::GlobalFeatures(def.features.clone()));
            }
            self.global = true;
        }
        Ok(self)
    }

    /// The global network's input for a side to move with `mobility` legal moves against
    /// an opponent with `opponent_mobility`, `empties` empty squares, in `stage`.
    pub fn global_row(
        &self,
        mobility: u32,
        opponent_mobility: u32,
        empties: u32,
        stage: usize,
    ) -> [f32; 4] {
        [
            mobility as f32 / MOBILITY_SCALE,
            opponent_mobility as f32 / MOBILITY_SCALE,
            (empties % 2) as f32,
            self.stage_input(stage),
        ]
    }

    /// [`PatternSet::global_row`] of a position: the slow, plain reading.
    pub fn global_row_of(&self, pos: &Position) -> [f32; 4] {
        let (own, other) = (pos.player().0, pos.opponent().0);
        let mask = self.size.mask();
        self.global_row(
            othello::raw::legal_moves(own, other, mask).count_ones(),
            othello::raw::legal_moves(other, own, mask).count_ones(),
            pos.empty_count(),
            self.stage(pos),
        )
    }

    /// The stage bucket of a position with `discs` discs on the board:
    /// `(discs - 4) * stages / (N*N - 3)`, rounded down.
    pub fn stage_of_discs(&self, discs: u32) -> usize {
        let squares = self.size.squares();
        let played = discs.clamp(4, squares) - 4;
        (played * self.stages / (squares - 3)) as usize
    }

    pub fn stage(&self, pos: &Position) -> usize {
        self.stage_of_discs(pos.size().squares() - pos.empty_count())
    }

    /// The stage input of the networks: `stage / (stages - 1)`, 0 with one stage.
    pub fn stage_input(&self, stage: usize) -> f32 {
        if self.stages <= 1 {
            0.0
        } else {
            stage as f32 / (self.stages - 1) as f32
        }
    }

    /// The squares instance `instance` reads, in its pattern's order.
    pub fn instance_squares(&self, instance: Instance) -> Vec<Square> {
        self.patterns[instance.pattern]
            .squares
            .iter()
            .map(|&sq| instance.symmetry.square(sq, self.size))
            .collect()
    }

    /// The network input of every instance of `pattern` in `pos`, row after row:
    /// `[own s][opponent s][stage]` (the contract's layout). The slow, plain reading
    /// the tables are checked against.
    pub fn instance_rows(&self, pos: &Position, pattern: usize) -> Vec<f32> {
        let (own, other) = (pos.player().0, pos.opponent().0);
        let stage = self.stage_input(self.stage(pos));
        let mut rows = Vec::new();
        for &instance in self.instances.iter().filter(|i| i.pattern == pattern) {
            let squares = self.instance_squares(instance);
            rows.extend(squares.iter().map(|sq| bit(own, *sq)));
            rows.extend(squares.iter().map(|sq| bit(other, *sq)));
            rows.push(stage);
        }
        rows
    }

    /// How many instances `pattern` has.
    pub fn instance_count(&self, pattern: usize) -> usize {
        self.instances
            .iter()
            .filter(|i| i.pattern == pattern)
            .count()
    }
}

fn bit(board: u64, sq: Square) -> f32 {
    if board & sq.bit() != 0 {
        1.0
    } else {
        0.0
    }
}

fn parse_pattern(def: &PatternDef, size: BoardSize) -> Result<Pattern, PatternError> {
    let count = def.squares.len();
    if count == 0 || count > MAX_SQUARES {
        return Err(PatternError::SquareCount {
            name: def.name.clone(),
            count,
        });
    }
    let mut squares = Vec::with_capacity(count);
    for text in &def.squares {
        let square = Square::parse(text, size).map_err(|e| PatternError::Square {
            name: def.name.clone(),
            message: format!("{e} on a {size} board"),
        })?;
        if squares.contains(&square) {
            return Err(PatternError::Repeated {
                name: def.name.clone(),
                square: square.to_string(),
            });
        }
        squares.push(square);
    }
    Ok(Pattern {
        name: def.name.clone(),
        squares,
    })
}

/// The pattern's images under the eight symmetries, dropping an image whose set of squares
/// an earlier one already covers.
fn instances_of(index: usize, pattern: &Pattern, size: BoardSize) -> Vec<Instance> {
    let mut seen: Vec<u64> = Vec::new();
    let mut instances = Vec::new();
    for symmetry in Symmetry::ALL {
        let mask = pattern
            .squares
            .iter()
            .fold(0u64, |m, &sq| m | symmetry.square(sq, size).bit());
        if !seen.contains(&mask) {
            seen.push(mask);
            instances.push(Instance {
                pattern: index,
                symmetry,
            });
        }
    }
    instances
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(name: &str, squares: &str) -> PatternDef {
        PatternDef {
            name: name.into(),
            squares: squares.split(' ').map(str::to_owned).collect(),
        }
    }

    #[test]
    fn each_pattern_counts_each_set_of_squares_once() {
        let defs = [
            def("corner3x3", "a1 b1 c1 a2 b2 c2 a3 b3 c3"),
            def("corner2x5", "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2"),
            def("diag8", "a1 b2 c3 d4 e5 f6 g7 h8"),
            def("line2", "a2 b2 c2 d2 e2 f2 g2 h2"),
        ];
        let set = PatternSet::new(BoardSize::Eight, Some(10), Some(&defs)).expect("valid");
        let counts: Vec<usize> = (0..4).map(|p| set.instance_count(p)).collect();
        assert_eq!(counts, [4, 8, 2, 4]);
        // Every instance of a pattern covers a set of squares no other instance covers.
        for (p, &count) in counts.iter().enumerate() {
            let mut masks: Vec<u64> = set
                .instances
                .iter()
                .filter(|i| i.pattern == p)
                .map(|&i| set.instance_squares(i).iter().fold(0, |m, s| m | s.bit()))
                .collect();
            masks.sort_unstable();
            masks.dedup();
            assert_eq!(masks.len(), count);
        }
    }

    #[test]
    fn stages_are_buckets_of_equal_width_from_the_start_to_the_full_board() {
        let defs = [def("corner", "a1 b1")];
        let set = PatternSet::new(BoardSize::Eight, Some(10), Some(&defs)).expect("valid");
        assert_eq!(set.stage_of_discs(4), 0);
        assert_eq!(set.stage_of_discs(64), 9);
        let buckets: Vec<usize> = (4..=64).map(|d| set.stage_of_discs(d)).collect();
        assert!(buckets.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        assert_eq!(set.stage_input(0), 0.0);
        assert_eq!(set.stage_input(9), 1.0);
        let one = PatternSet::new(BoardSize::Six, Some(1), Some(&defs)).expect("valid");
        assert_eq!((one.stage_of_discs(36), one.stage_input(0)), (0, 0.0));
    }

    #[test]
    fn a_bad_pattern_says_what_is_wrong() {
        let err = |stages, defs: &[PatternDef]| {
            PatternSet::new(BoardSize::Six, stages, Some(defs))
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(None, &[def("a", "a1")]),
            "a pattern network's card needs 'stages'"
        );
        assert_eq!(
            err(Some(0), &[def("a", "a1")]),
            "the card says 0 stages; a pattern network has 1 to 60"
        );
        assert_eq!(
            err(Some(4), &[def("edge", "a1 g1")]),
            "pattern 'edge': bad square 'g1' (expected a column a-f and a row 1-6) on a 6x6 board"
        );
        assert_eq!(
            err(Some(4), &[def("edge", "a1 b1 a1")]),
            "pattern 'edge' lists square a1 twice"
        );
        assert_eq!(
            err(Some(4), &[def("big", "a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2")]),
            "pattern 'big' has 11 squares; a pattern has 1 to 10"
        );
        assert_eq!(
            err(Some(4), &[]),
            "the card lists 0 patterns; a pattern network has 1 to 32"
        );
    }
}
