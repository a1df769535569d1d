//! The book's file: a header with a version, the entries sorted by key, and a CRC-32 of
//! everything before it, so that a truncated or corrupted file is refused whole rather than
//! read in part. Layout (all little-endian), as docs/book.md gives it:
//!
//! ```text
//! magic "OZBOOK\r\n" | version u32 | board n u8 | variant u8 | 0u16 | entries u32
//! per entry: player u64 | opponent u64 | value f32 | budget u32 | games u32
//!            | flags u8 (bit 0 backed up, bit 1 solved) | estimates u8
//!            | per estimate: square u8 (64 = pass) | value f32
//! crc32 u32 of all the bytes before it
//! ```

use super::{Book, BookEntry, BookKey, Origin};
use othello::{BoardSize, Move, Square, Variant};
use thiserror::Error;

const MAGIC: &[u8; 8] = b"OZBOOK\r\n";
/// The one version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
const HEADER_BYTES: usize = 8 + 4 + 1 + 1 + 2 + 4;
const ENTRY_BYTES: usize = 8 + 8 + 4 + 4 + 4 + 1 + 1;
const ESTIMATE_BYTES: usize = 1 + 4;
const PASS_CODE: u8 = 64;
/// No final margin lies outside this, so no value may.
const MAX_VALUE: f32 = 64.0;

/// Why a book cannot be used. Each says its cause once; the caller adds the file's name.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BookError {
    #[error("cannot be read: {0}")]
    Unreadable(String),
    #[error("not an Othello Zero book (it does not start with the book header)")]
    NotABook,
    #[error("book format version {found}; this build reads version {supported}")]
    Version { found: u32, supported: u32 },
    #[error("truncated: {0}")]
    Truncated(String),
    #[error("corrupt: {0}")]
    Corrupt(String),
    #[error("the book is for {book}, the game is {game}")]
    WrongGame { book: String, game: String },
    #[error("book '{0}' is not loaded")]
    NotLoaded(String),
}

impl Book {
    /// The file's bytes: entries sorted by key, so equal books give equal files.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut keys: Vec<&BookKey> = self.entries.keys().collect();
        keys.sort_unstable();
        let mut out = Vec::with_capacity(HEADER_BYTES + keys.len() * (ENTRY_BYTES + 20) + 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(self.size.n());
        out.push(match self.variant {
            Variant::Standard => 0,
            Variant::Reversed => 1,
        });
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&(keys.len() as u32).to_le_bytes());
        for key in keys {
            let entry = &self.entries[key];
            out.extend_from_slice(&key.player.to_le_bytes());
            out.extend_from_slice(&key.opponent.to_le_bytes());
            out.extend_from_slice(&entry.value.to_le_bytes());
            out.extend_from_slice(&entry.budget.to_le_bytes());
            out.extend_from_slice(&entry.games.to_le_bytes());
            let solved = entry.origin == Origin::Solved;
            out.push(u8::from(entry.backed_up) | u8::from(solved) << 1);
            let estimates = &entry.estimates[..entry.estimates.len().min(u8::MAX as usize)];
            out.push(estimates.len() as u8);
            for (mv, value) in estimates {
                out.push(mv.square().map_or(PASS_CODE, Square::index));
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a book file's bytes, checking everything a damaged file could get wrong
    /// before any of it is used.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(BookError::NotABook);
        }
        let mut reader = Reader {
            bytes,
            at: MAGIC.len(),
        };
        let version = reader.u32("the header")?;
        if version != FORMAT_VERSION {
            return Err(BookError::Version {
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        let n = reader.u8("the header")?;
        let size = BoardSize::from_n(n)
            .ok_or_else(|| BookError::Corrupt(format!("board size {n} is not 8, 6 or 4")))?;
        let variant = match reader.u8("the header")? {
            0 => Variant::Standard,
            1 => Variant::Reversed,
            other => return Err(BookError::Corrupt(format!("unknown rules code {other}"))),
        };
        reader.u16("the header")?;
        let count = reader.u32("the header")? as usize;
        check_crc(bytes, count)?;
        let mut book = Book::new(size, variant);
        let mut previous: Option<BookKey> = None;
        for index in 0..count {
            let what = format!("entry {} of {count}", index + 1);
            let (key, entry) = read_entry(&mut reader, size, &what)?;
            if previous.is_some_and(|p| p >= key) {
                return Err(BookError::Corrupt(format!("{what} is out of order")));
            }
            previous = Some(key);
            book.entries.insert(key, entry);
        }
        if reader.at + 4 != bytes.len() {
            return Err(BookError::Corrupt(format!(
                "{} bytes after the last entry",
                bytes.len() - reader.at - 4
            )));
        }
        Ok(book)
    }
}

/// The CRC is checked before the entries are read, so that a flipped bit anywhere is
/// reported as what it is, not as whatever nonsense the bit made of an entry.
fn check_crc(bytes: &[u8], count: usize) -> Result<(), BookError> {
    let body_len = bytes.len().checked_sub(4).filter(|&n| n >= HEADER_BYTES);
    let Some(body_len) = body_len else {
        return Err(BookError::Truncated(
            "the file ends inside its header".into(),
        ));
    };
    let stored = u32::from_le_bytes([
        bytes[body_len],
        bytes[body_len + 1],
        bytes[body_len + 2],
        bytes[body_len + 3],
    ]);
    if crc32fast::hash(&bytes[..body_len]) == stored {
        return Ok(());
    }
    // A file cut short fails the checksum too; say which it is when the entries' own
    // lengths show it.
    if needed_len(bytes, count) > bytes.len() {
        return Err(BookError::Truncated(format!(
            "the header promises {count} entries; the file ends before them"
        )));
    }
    Err(BookError::Corrupt(
        "the checksum does not match the contents".into(),
    ))
}

/// The length a file of `count` entries would have, walking the entries' estimate counts
/// (`usize::MAX` when the walk runs off the end).
fn needed_len(bytes: &[u8], count: usize) -> usize {
    let mut at = HEADER_BYTES;
    for _ in 0..count {
        let Some(&estimates) = bytes.get(at + ENTRY_BYTES - 1) else {
            return usize::MAX;
        };
        at += ENTRY_BYTES + estimates as usize * ESTIMATE_BYTES;
    }
    at + 4
}

fn read_entry(
    reader: &mut Reader<'_>,
    size: BoardSize,
    what: &str,
) -> Result<(BookKey, BookEntry), BookError> {
    let key = BookKey {
        player: reader.u64(what)?,
        opponent: reader.u64(what)?,
    };
    let off_board = !size.mask();
    if key.player & key.opponent != 0 || (key.player | key.opponent) & off_board != 0 {
        return Err(BookError::Corrupt(format!("{what} is not a position")));
    }
    let value = checked_value(reader.f32(what)?, what)?;
    let budget = reader.u32(what)?;
    let games = reader.u32(what)?;
    let flags = reader.u8(what)?;
    if flags > 3 {
        return Err(BookError::Corrupt(format!(
            "{what} has unknown flags {flags}"
        )));
    }
    let count = reader.u8(what)?;
    let empty = size.mask() & !(key.player | key.opponent);
    let mut estimates = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let code = reader.u8(what)?;
        let mv = match code {
            PASS_CODE => Move::Pass,
            _ => match Square::from_index(code).filter(|sq| empty & sq.bit() != 0) {
                Some(sq) => Move::Place(sq),
                None => {
                    return Err(BookError::Corrupt(format!(
                        "{what} has a move onto square {code}, which is not empty"
                    )))
                }
            },
        };
        estimates.push((mv, checked_value(reader.f32(what)?, what)?));
    }
    let entry = BookEntry {
        value,
        backed_up: flags & 1 != 0,
        origin: if flags & 2 != 0 {
            Origin::Solved
        } else {
            Origin::Searched
        },
        budget,
        games,
        estimates,
    };
    Ok((key, entry))
}

fn checked_value(v: f32, what: &str) -> Result<f32, BookError> {
    if v.is_finite() && v.abs() <= MAX_VALUE {
        Ok(v)
    } else {
        Err(BookError::Corrupt(format!("{what} has the value {v}")))
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self, what: &str) -> Result<[u8; N], BookError> {
        // The last 4 bytes are the checksum, never part of an entry.
        let end = self.at + N;
        if end + 4 > self.bytes.len() {
            return Err(BookError::Truncated(format!("the file ends inside {what}")));
        }
        let mut out = [0u8; N];
        out.copy_from_slice(&self.bytes[self.at..end]);
        self.at = end;
        Ok(out)
    }

    fn u8(&mut self, what: &str) -> Result<u8, BookError> {
        Ok(self.take::<1>(what)?[0])
    }

    fn u16(&mut self, what: &str) -> Result<u16, BookError> {
        Ok(u16::from_le_bytes(self.take(what)?))
    }

    fn u32(&mut self, what: &str) -> Result<u32, BookError> {
        Ok(u32::from_le_bytes(self.take(what)?))
    }

    fn u64(&mut self, what: &str) -> Result<u64, BookError> {
        Ok(u64::from_le_bytes(self.take(what)?))
    }

    fn f32(&mut self, what: &str) -> Result<f32, BookError> {
        Ok(f32::from_le_bytes(self.take(what)?))
    }
}
