//! The puzzle set's file, read with the book's care (`book/format.rs`): a header with a
//! version, fixed-size entries, and a CRC-32 of everything before it, so that a truncated
//! or damaged file is refused whole, each cause with its own message. Layout (all
//! little-endian), as docs/puzzles.md gives it:
//!
//! ```text
//! magic "OZPUZZL\n" | version u32 | board n u8 | variant u8 | 0u16 | puzzles u32
//! per puzzle: black u64 | white u64 | side u8 (0 Black, 1 White) | answer u8 (square)
//!             | kind u8 | themes u16 | margin i8 | runner-up i8 | rating u16
//! crc32 u32 of all the bytes before it
//! ```

use super::{Puzzle, PuzzleKind, PuzzleSet, Themes};
use othello::{Bitboard, BoardSize, Color, Move, Position, Square, Variant};
use thiserror::Error;

const MAGIC: &[u8; 8] = b"OZPUZZL\n";
/// The one version this build reads and writes.
pub const PUZZLE_FORMAT_VERSION: u32 = 1;
const HEADER_BYTES: usize = 8 + 4 + 1 + 1 + 2 + 4;
const ENTRY_BYTES: usize = 8 + 8 + 1 + 1 + 1 + 2 + 1 + 1 + 2;
/// Ratings outside this are no rating a puzzle can have.
const MAX_RATING: u16 = 4000;

/// Why a puzzle file cannot be used. Each says its cause once; the caller adds the name.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PuzzleFileError {
    #[error("not an Othello Zero puzzle file (it does not start with the puzzle header)")]
    NotPuzzles,
    #[error("puzzle format version {found}; this build reads version {supported}")]
    Version { found: u32, supported: u32 },
    #[error("truncated: the header promises {promised} puzzles, the file holds {found}")]
    Truncated { promised: usize, found: usize },
    #[error("corrupt: {0}")]
    Corrupt(String),
}

impl PuzzleSet {
    /// The file's bytes, puzzles in the set's order.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + self.puzzles.len() * ENTRY_BYTES + 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&PUZZLE_FORMAT_VERSION.to_le_bytes());
        out.push(self.size.n());
        out.push(match self.variant {
            Variant::Standard => 0,
            Variant::Reversed => 1,
        });
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&(self.puzzles.len() as u32).to_le_bytes());
        for p in &self.puzzles {
            out.extend_from_slice(&p.position.black().0.to_le_bytes());
            out.extend_from_slice(&p.position.white().0.to_le_bytes());
            out.push(p.position.side_to_move() as u8);
            out.push(p.answer.square().map_or(u8::MAX, Square::index));
            out.push(
                PuzzleKind::ALL
                    .iter()
                    .position(|k| *k == p.kind)
                    .unwrap_or(0) as u8,
            );
            out.extend_from_slice(&p.themes.bits().to_le_bytes());
            out.extend_from_slice(&p.margin.to_le_bytes());
            out.extend_from_slice(&p.runner_up.to_le_bytes());
            out.extend_from_slice(&p.rating.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a puzzle file's bytes, checking everything a damaged or foreign file could
    /// get wrong before any puzzle is used.
    pub fn from_bytes(bytes: &[u8]) -> Result<PuzzleSet, PuzzleFileError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(PuzzleFileError::NotPuzzles);
        }
        if bytes.len() < HEADER_BYTES {
            return Err(PuzzleFileError::Corrupt(
                "the file ends inside its header".into(),
            ));
        }
        let version = u32::from_le_bytes(array(&bytes[8..12]));
        if version != PUZZLE_FORMAT_VERSION {
            return Err(PuzzleFileError::Version {
                found: version,
                supported: PUZZLE_FORMAT_VERSION,
            });
        }
        let size = BoardSize::from_n(bytes[12]).ok_or_else(|| {
            PuzzleFileError::Corrupt(format!("board size {} is not 8, 6 or 4", bytes[12]))
        })?;
        let variant = match bytes[13] {
            0 => Variant::Standard,
            1 => Variant::Reversed,
            other => {
                return Err(PuzzleFileError::Corrupt(format!(
                    "unknown rules code {other}"
                )))
            }
        };
        let count = u32::from_le_bytes(array(&bytes[16..20])) as usize;
        let found = (bytes.len().saturating_sub(HEADER_BYTES + 4)) / ENTRY_BYTES;
        if found < count {
            return Err(PuzzleFileError::Truncated {
                promised: count,
                found,
            });
        }
        let expected = HEADER_BYTES + count * ENTRY_BYTES + 4;
        if bytes.len() != expected {
            return Err(PuzzleFileError::Corrupt(format!(
                "{} bytes after the last puzzle",
                bytes.len() - expected
            )));
        }
        let body = &bytes[..expected - 4];
        if crc32fast::hash(body) != u32::from_le_bytes(array(&bytes[expected - 4..])) {
            return Err(PuzzleFileError::Corrupt(
                "the checksum does not match the contents".into(),
            ));
        }
        let puzzles = body[HEADER_BYTES..]
            .chunks_exact(ENTRY_BYTES)
            .enumerate()
            .map(|(i, entry)| {
                read_puzzle(entry, size, variant).map_err(|why| {
                    PuzzleFileError::Corrupt(format!("puzzle {} of {count} {why}", i + 1))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PuzzleSet {
            size,
            variant,
            puzzles,
        })
    }
}

fn array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&bytes[..N]);
    out
}

/// One entry, or what is wrong with it (a checksum only says the bytes are the ones
/// written; this says they make a puzzle).
fn read_puzzle(entry: &[u8], size: BoardSize, variant: Variant) -> Result<Puzzle, String> {
    let black = Bitboard(u64::from_le_bytes(array(&entry[0..8])));
    let white = Bitboard(u64::from_le_bytes(array(&entry[8..16])));
    let side = match entry[16] {
        0 => Color::Black,
        1 => Color::White,
        other => return Err(format!("has an unknown side code {other}")),
    };
    let position = Position::from_bitboards(black, white, side, size, variant)
        .map_err(|e| format!("is not a position: {e}"))?;
    let answer = Square::from_index(entry[17])
        .filter(|sq| sq.is_on(size))
        .map(Move::Place)
        .ok_or_else(|| format!("has an answer off the board ({})", entry[17]))?;
    if !position.is_legal(answer) {
        return Err(format!("has the illegal answer {answer}"));
    }
    if position.legal_move_list().len() < 2 {
        return Err("leaves no choice".into());
    }
    let kind = *PuzzleKind::ALL
        .get(entry[18] as usize)
        .ok_or_else(|| format!("has an unknown kind code {}", entry[18]))?;
    let themes =
        Themes::from_bits(u16::from_le_bytes(array(&entry[19..21]))).ok_or("has unknown themes")?;
    let margin = entry[21] as i8;
    let runner_up = entry[22] as i8;
    if !kind.fits(margin, runner_up, size) {
        return Err(format!(
            "has margins {margin} and {runner_up}, which a {} puzzle cannot have",
            kind.name()
        ));
    }
    let rating = u16::from_le_bytes(array(&entry[23..25]));
    if rating > MAX_RATING {
        return Err(format!("has the rating {rating}"));
    }
    Ok(Puzzle {
        position,
        answer,
        kind,
        themes,
        margin,
        runner_up,
        rating,
    })
}
