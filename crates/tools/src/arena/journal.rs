//! The match's journal: every finished game appended to `games.jsonl` as it ends, so that a
//! match that was killed resumes where it stopped, replaying no game and losing none.
//!
//! The first line names the match (its board, players, seed, openings, rules and test);
//! each further line is one game with its place in the schedule, and a match that ended
//! adds a last line saying so. A resumed match must name the same match, or the journal
//! is refused. A line cut short by a kill (the last one) is dropped, and its game is
//! played again. A new match may replace a journal only once its match has ended (its
//! games are then in the reports beside it): an unfinished one is never overwritten.

use super::GameRecord;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum JournalError {
    #[error("cannot {action} the match's journal {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0} holds the games of a match that did not finish: add --resume to go on with it, or choose another --out")]
    Unfinished(PathBuf),
    #[error("{path} holds another match ({detail}): resume it with the same arguments, or choose another --out")]
    Mismatch { path: PathBuf, detail: String },
    #[error("{path} line {line} is not a game of a match journal: {reason}")]
    Corrupt {
        path: PathBuf,
        line: usize,
        reason: String,
    },
}

/// The first line of a journal.
#[derive(Serialize, Deserialize, PartialEq)]
struct Header {
    arena_journal: u32,
    /// What makes two matches the same, as JSON.
    the_match: serde_json::Value,
}

/// The line a match that ended adds.
const FINISHED: &str = r#"{"finished":true}"#;

/// One game line.
#[derive(Serialize, Deserialize)]
struct Entry {
    job: usize,
    game: GameRecord,
}

/// An open journal, appended to from the match's threads.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
}

impl Journal {
    pub const FILE: &'static str = "games.jsonl";

    /// Opens `dir/games.jsonl` for the match described by `the_match`: a new journal, or
    /// with `resume` the games of the same match played before (by their place in the
    /// schedule). Without `resume`, an existing journal is refused rather than overwritten.
    pub fn open(
        dir: &Path,
        the_match: &serde_json::Value,
        resume: bool,
    ) -> Result<(Journal, Vec<(usize, GameRecord)>), JournalError> {
        let path = dir.join(Self::FILE);
        let io = |action, source| JournalError::Io {
            action,
            path: path.clone(),
            source,
        };
        let header = Header {
            arena_journal: 1,
            the_match: the_match.clone(),
        };
        let done = match path.is_file() {
            false => Vec::new(),
            true if resume => read_games(&path, Some(&header))?.0,
            true => match read_games(&path, None)? {
                // A finished match's games are in its reports: a new match may start.
                (_, true) => Vec::new(),
                (_, false) => return Err(JournalError::Unfinished(path)),
            },
        };
        // Written anew (the header and the whole games), so that a line a kill cut short
        // is gone rather than left in the middle of the file.
        let mut text = serde_json::to_string(&header).unwrap_or_default();
        text.push('\n');
        for (job, game) in &done {
            text.push_str(&entry_line(*job, game));
            text.push('\n');
        }
        let fresh = path.with_extension("jsonl.new");
        std::fs::write(&fresh, text).map_err(|e| io("write", e))?;
        std::fs::rename(&fresh, &path).map_err(|e| io("replace", e))?;
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| io("open", e))?;
        Ok((
            Journal {
                path,
                file: Mutex::new(file),
            },
            done,
        ))
    }

    /// Marks the match as ended: a new match may then replace this journal.
    pub fn finish(&self) -> Result<(), JournalError> {
        self.append(FINISHED)
    }

    /// Appends one finished game, flushed at once.
    pub fn record(&self, job: usize, game: &GameRecord) -> Result<(), JournalError> {
        self.append(&entry_line(job, game))
    }

    fn append(&self, line: &str) -> Result<(), JournalError> {
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        writeln!(file, "{line}")
            .and_then(|()| file.flush())
            .map_err(|source| JournalError::Io {
                action: "write",
                path: self.path.clone(),
                source,
            })
    }
}

fn entry_line(job: usize, game: &GameRecord) -> String {
    serde_json::to_string(&Entry {
        job,
        game: game.clone(),
    })
    .unwrap_or_default()
}

/// The games of a journal, checked against the match `header` names (when given), and
/// whether its match ended.
fn read_games(
    path: &Path,
    header: Option<&Header>,
) -> Result<(Vec<(usize, GameRecord)>, bool), JournalError> {
    let file = File::open(path).map_err(|source| JournalError::Io {
        action: "read",
        path: path.to_owned(),
        source,
    })?;
    let lines: Vec<String> = BufReader::new(file)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|source| JournalError::Io {
            action: "read",
            path: path.to_owned(),
            source,
        })?;
    let corrupt = |line: usize, reason: String| JournalError::Corrupt {
        path: path.to_owned(),
        line,
        reason,
    };
    let first = lines.first().map(String::as_str).unwrap_or_default();
    let found: Header = serde_json::from_str(first).map_err(|e| corrupt(1, e.to_string()))?;
    if let Some(header) = header.filter(|h| found != **h) {
        return Err(JournalError::Mismatch {
            path: path.to_owned(),
            detail: first_difference(&found.the_match, &header.the_match),
        });
    }
    let mut games = Vec::new();
    let mut finished = false;
    let last = lines.len();
    for (number, line) in lines.iter().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        if line.trim() == FINISHED {
            finished = true;
            continue;
        }
        match serde_json::from_str::<Entry>(line) {
            Ok(entry) => games.push((entry.job, entry.game)),
            // The last line may have been cut short by a kill: that game is played again.
            Err(_) if number + 1 == last => {}
            Err(e) => return Err(corrupt(number + 1, e.to_string())),
        }
    }
    Ok((games, finished))
}

/// Which setting differs between two matches, for the refusal.
fn first_difference(found: &serde_json::Value, wanted: &serde_json::Value) -> String {
    if let (Some(a), Some(b)) = (found.as_object(), wanted.as_object()) {
        for (key, value) in b {
            if a.get(key) != Some(value) {
                return format!("its {key} differs");
            }
        }
    }
    "its settings differ".to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(opening: usize) -> GameRecord {
        GameRecord {
            black: 0,
            white: 1,
            opening,
            black_margin: 4,
            transcript: "f5d6".into(),
            black_seconds: 0.1,
            white_seconds: 0.2,
            black_moves: 1,
            white_moves: 1,
            forfeit: None,
        }
    }

    #[test]
    fn games_come_back_and_a_cut_line_is_played_again() {
        let dir = std::env::temp_dir().join(format!("arena-journal-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let the_match = serde_json::json!({"seed": 1, "players": ["a", "b"]});
        let (journal, done) = Journal::open(&dir, &the_match, false).expect("new");
        assert!(done.is_empty());
        journal.record(0, &game(0)).expect("written");
        journal.record(3, &game(1)).expect("written");
        drop(journal);
        // A kill in the middle of a line.
        let path = dir.join(Journal::FILE);
        let mut text = std::fs::read_to_string(&path).expect("read");
        text.push_str("{\"job\":5,\"game\":{\"bla");
        std::fs::write(&path, text).expect("write");

        assert!(matches!(
            Journal::open(&dir, &the_match, false),
            Err(JournalError::Unfinished(_))
        ));
        let other = serde_json::json!({"seed": 2, "players": ["a", "b"]});
        let refused = Journal::open(&dir, &other, true).expect_err("another match");
        assert!(
            refused.to_string().contains("its seed differs"),
            "{refused}"
        );

        let (journal, done) = Journal::open(&dir, &the_match, true).expect("resumed");
        assert_eq!(done.iter().map(|(job, _)| *job).collect::<Vec<_>>(), [0, 3]);
        assert_eq!(done[1].1, game(1));
        journal.record(5, &game(2)).expect("written");
        drop(journal);
        let (journal, done) = Journal::open(&dir, &the_match, true).expect("resumed again");
        assert_eq!(
            done.iter().map(|(job, _)| *job).collect::<Vec<_>>(),
            [0, 3, 5]
        );
        // Once its match ended, a new match may take the folder.
        journal.finish().expect("written");
        drop(journal);
        let (journal, done) = Journal::open(&dir, &other, false).expect("a new match");
        assert!(done.is_empty());
        journal.record(5, &game(2)).expect("written");
        journal.record(6, &game(2)).expect("written");
        drop(journal);
        // Its match did not end: another new match may not take the folder.
        assert!(matches!(
            Journal::open(&dir, &the_match, false),
            Err(JournalError::Unfinished(_))
        ));

        // Garbage in the middle is refused with its line.
        let mut text = std::fs::read_to_string(&path).expect("read");
        text = text.replacen("{\"job\":5", "garbage{", 1);
        std::fs::write(&path, text).expect("write");
        let corrupt = Journal::open(&dir, &other, true).expect_err("corrupt");
        assert!(corrupt.to_string().contains("line 2"), "{corrupt}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
