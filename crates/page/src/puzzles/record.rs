//! What the player's puzzle play keeps across reloads: the rating, the streaks, the
//! rating's history, the ratings of the puzzles the player's first tries moved, which
//! puzzles were tried, the theme chosen and the player's own mistakes. It has a storage key
//! of its own, so that a record that cannot be read costs the puzzle rating and never the
//! game (`persist`).

use super::rating::{self, Glicko};
use engine::puzzles::{Puzzle, PuzzleKind, Theme, Themes};
use othello::{BoardSize, Move, Position, Variant};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::{BTreeMap, BTreeSet};

pub const PUZZLE_STORAGE_KEY: &str = "othello-zero/puzzles-v1";
const VERSION: u32 = 1;
/// Enough points for the chart to show a long run of play; a longer history would only
/// grow the saved text.
const MAX_HISTORY: usize = 500;
/// The mistakes kept to practise; the oldest make way, as a player has moved on from them.
const MAX_MISTAKES: usize = 200;
const MISTAKE_PREFIX: &str = "mine-";

/// The id of a shipped puzzle: its board and its index in the shipped file.
pub fn shipped_id(size: BoardSize, index: usize) -> String {
    let n = size.n();
    format!("{n}x{n}-{index}")
}

/// The board and index a shipped puzzle's id names, or `None` for any other id.
pub fn parse_shipped_id(id: &str) -> Option<(BoardSize, usize)> {
    let (board, index) = id.split_once('-')?;
    let (n, m) = board.split_once('x')?;
    let size = BoardSize::from_n(n.parse().ok()?)?;
    let index: usize = index.parse().ok()?;
    // Only the spelling `shipped_id` writes ("8x8-7", not "8x6-7" or "8x8-+07").
    (m == n && shipped_id(size, index) == id).then_some((size, index))
}

/// The puzzles a player chooses to be given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ThemeChoice {
    #[default]
    Mixed,
    Theme(Theme),
    Mistakes,
}

impl ThemeChoice {
    /// In the order a `<select>` lists them.
    pub fn all() -> Vec<ThemeChoice> {
        let themes = Theme::ALL.into_iter().map(ThemeChoice::Theme);
        std::iter::once(ThemeChoice::Mixed)
            .chain(themes)
            .chain(std::iter::once(ThemeChoice::Mistakes))
            .collect()
    }

    pub fn label(self) -> String {
        match self {
            ThemeChoice::Mixed => "Mixed".into(),
            ThemeChoice::Theme(theme) => {
                let words = theme.name().replace('-', " ");
                let mut chars = words.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_ascii_uppercase().to_string() + chars.as_str()
                })
            }
            ThemeChoice::Mistakes => "Mistakes from your reviewed games".into(),
        }
    }

    /// A stable name for a `<select>`'s values and the saved record.
    pub fn key(self) -> String {
        match self {
            ThemeChoice::Mixed => "mixed".into(),
            ThemeChoice::Theme(theme) => theme.name().into(),
            ThemeChoice::Mistakes => "mistakes".into(),
        }
    }

    pub fn from_key(key: &str) -> Option<ThemeChoice> {
        ThemeChoice::all().into_iter().find(|c| c.key() == key)
    }
}

/// Saved as its key, so the record reads as words and outlives the enum's layout.
impl Serialize for ThemeChoice {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.key())
    }
}

/// A theme this page no longer knows reads as Mixed: a choice is not worth the rating.
impl<'de> Deserialize<'de> for ThemeChoice {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ThemeChoice, D::Error> {
        let key = String::deserialize(deserializer)?;
        Ok(ThemeChoice::from_key(&key).unwrap_or_default())
    }
}

/// The player's rating after some number of first tries.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryPoint {
    pub tries: u32,
    pub rating: f64,
}

/// A puzzle from the player's own games, proven by the worker. Plain text fields, as the
/// saved game keeps its moves, so that a stored mistake is readable and checked on load.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredPuzzle {
    pub id: String,
    /// Board text with the side to move (`Position::to_board_text`).
    pub board: String,
    pub variant: Variant,
    pub answer: String,
    /// `PuzzleKind::name`.
    pub kind: String,
    /// `Theme::name`s.
    pub themes: Vec<String>,
    pub margin: i8,
    pub runner_up: i8,
    pub rating: u16,
    /// Which game and move it came from, in words.
    pub from: String,
}

impl StoredPuzzle {
    pub fn from_puzzle(id: String, p: &Puzzle, from: String) -> StoredPuzzle {
        StoredPuzzle {
            id,
            board: p.position.to_board_text(),
            variant: p.position.variant(),
            answer: p.answer.to_string(),
            kind: p.kind.name().into(),
            themes: p.themes.iter().map(|t| t.name().to_owned()).collect(),
            margin: p.margin,
            runner_up: p.runner_up,
            rating: p.rating,
            from,
        }
    }

    /// A puzzle a worker proved from `position` (its id is given when the record keeps
    /// it), checked as a stored one is on load; `None` when it is no puzzle.
    pub fn from_found(
        position: &Position,
        found: &protocol::FoundPuzzle,
        from: String,
    ) -> Option<StoredPuzzle> {
        let stored = StoredPuzzle {
            id: String::new(),
            board: position.to_board_text(),
            variant: position.variant(),
            answer: found.answer.to_string(),
            kind: found.kind.clone(),
            themes: found.themes.clone(),
            margin: found.margin,
            runner_up: found.runner_up,
            rating: found.rating,
            from,
        };
        stored.to_puzzle().ok().map(|_| stored)
    }

    /// The puzzle, with the checks the engine makes on a shipped file's entries.
    pub fn to_puzzle(&self) -> Result<Puzzle, RecordError> {
        let fail = |cause: String| RecordError::Mistake {
            id: self.id.clone(),
            cause,
        };
        let position = Position::from_board_text(&self.board, self.variant)
            .map_err(|e| fail(format!("its board does not read ({e})")))?;
        let answer = Move::parse(&self.answer, position.size())
            .ok()
            .filter(|mv| position.is_legal(*mv))
            .ok_or_else(|| fail(format!("its answer {} is not a legal move", self.answer)))?;
        if position.legal_move_list().len() < 2 {
            return Err(fail("it leaves no choice".into()));
        }
        let kind = PuzzleKind::from_name(&self.kind)
            .ok_or_else(|| fail(format!("its kind {} is unknown", self.kind)))?;
        let mut themes = Themes::default();
        for name in &self.themes {
            let theme = Theme::from_name(name)
                .ok_or_else(|| fail(format!("its theme {name} is unknown")))?;
            themes = themes.with(theme);
        }
        let (margin, runner_up) = (self.margin, self.runner_up);
        if !kind.fits(margin, runner_up, position.size()) {
            return Err(fail(format!(
                "its margins {margin} and {runner_up} do not fit its kind, {}",
                kind.name()
            )));
        }
        Ok(Puzzle {
            position,
            answer,
            kind,
            themes,
            margin,
            runner_up,
            rating: self.rating,
        })
    }
}

#[derive(Debug, PartialEq, thiserror::Error)]
pub enum RecordError {
    #[error("it is not a puzzle record: {0}")]
    Syntax(String),
    #[error("it has version {0}; this page reads version {VERSION}")]
    Version(u32),
    #[error("the rating of {whose} is out of range ({rating}, deviation {deviation}, volatility {volatility})")]
    Rating {
        whose: String,
        rating: f64,
        deviation: f64,
        volatility: f64,
    },
    #[error("the stored puzzle {id} is no puzzle: {cause}")]
    Mistake { id: String, cause: String },
}

/// What the page tells the player when their puzzle record could not be read. The parser's
/// detail means nothing to a player; a record from a newer page is worth naming.
pub fn fresh_start_notice(error: &RecordError) -> String {
    let why = match error {
        RecordError::Version(v) if *v > VERSION => "a newer version of this page saved it",
        RecordError::Syntax(_) | RecordError::Version(_) => "it is damaged",
        RecordError::Rating { .. } => "a rating in it is out of range",
        RecordError::Mistake { .. } => "one of your saved mistakes is not a puzzle",
    };
    format!(
        "Your puzzle rating could not be read ({why}), so it starts afresh at {:.0}. \
         Your game is untouched.",
        Glicko::player().rating
    )
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleRecord {
    version: u32,
    pub player: Glicko,
    pub streak: u32,
    pub best_streak: u32,
    pub history: Vec<HistoryPoint>,
    /// The ratings of the puzzles this player's first tries moved, by puzzle id; the others
    /// are at their shipped rating.
    pub puzzles: BTreeMap<String, Glicko>,
    /// Puzzles tried at least once: their first try, the one that is rated, is spent.
    pub tried: BTreeSet<String>,
    pub theme: ThemeChoice,
    pub mistakes: Vec<StoredPuzzle>,
    /// The number of the next mistake's id, so that an id removed is never given again
    /// (its rating and try may still be in `puzzles` and `tried`).
    #[serde(default)]
    next_mistake: u64,
}

impl Default for PuzzleRecord {
    fn default() -> PuzzleRecord {
        PuzzleRecord {
            version: VERSION,
            player: Glicko::player(),
            streak: 0,
            best_streak: 0,
            history: Vec::new(),
            puzzles: BTreeMap::new(),
            tried: BTreeSet::new(),
            theme: ThemeChoice::Mixed,
            mistakes: Vec::new(),
            next_mistake: 1,
        }
    }
}

/// The number of a player's mistake's id (`mine-<n>`).
fn mistake_number(id: &str) -> Option<u64> {
    id.strip_prefix(MISTAKE_PREFIX)?.parse().ok()
}

fn check_rating(whose: String, g: &Glicko) -> Result<(), RecordError> {
    if g.is_sane() {
        Ok(())
    } else {
        Err(RecordError::Rating {
            whose,
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        })
    }
}

/// The player's record and the last rating change a first try made (the puzzle's id, the
/// rating before and after), changed only by [`RecordAction`]s as one reducer's state, so
/// that answers arriving from the workers never act on a stale copy.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordModel {
    pub record: PuzzleRecord,
    pub last_change: Option<(String, f64, f64)>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum RecordAction {
    FirstTry {
        id: String,
        shipped: u16,
        solved: bool,
    },
    Theme(ThemeChoice),
    AddMistakes(Vec<StoredPuzzle>),
}

impl RecordModel {
    /// The model after `action` (the page's reducer applies it).
    pub fn apply(&self, action: RecordAction) -> RecordModel {
        let mut next = self.clone();
        match action {
            RecordAction::FirstTry {
                id,
                shipped,
                solved,
            } => {
                if let Some((before, after)) = next.record.first_try(&id, shipped, solved) {
                    next.last_change = Some((id, before, after));
                }
            }
            RecordAction::Theme(theme) => next.record.theme = theme,
            RecordAction::AddMistakes(found) => {
                next.record.add_mistakes(found);
            }
        }
        next
    }
}

impl PuzzleRecord {
    pub fn load(text: &str) -> Result<PuzzleRecord, RecordError> {
        // The version first, so that a newer page's record is named as such even where its
        // shape has changed.
        #[derive(Deserialize)]
        struct Versioned {
            version: u32,
        }
        let syntax = |e: serde_json::Error| RecordError::Syntax(e.to_string());
        let versioned: Versioned = serde_json::from_str(text).map_err(syntax)?;
        if versioned.version != VERSION {
            return Err(RecordError::Version(versioned.version));
        }
        let mut record: PuzzleRecord = serde_json::from_str(text).map_err(syntax)?;
        check_rating("you".into(), &record.player)?;
        for (id, g) in &record.puzzles {
            check_rating(format!("puzzle {id}"), g)?;
        }
        for point in &record.history {
            let g = Glicko {
                rating: point.rating,
                ..Glicko::player()
            };
            check_rating(format!("your history after {} tries", point.tries), &g)?;
        }
        for mistake in &record.mistakes {
            mistake.to_puzzle()?;
        }
        record.fix_up();
        Ok(record)
    }

    /// Mends what an edited record may hold without being wrong in substance: a streak
    /// above the best, a history or mistakes past their caps, a mistake counter behind the
    /// ids in use.
    fn fix_up(&mut self) {
        self.best_streak = self.best_streak.max(self.streak);
        let excess = self.history.len().saturating_sub(MAX_HISTORY);
        self.history.drain(..excess);
        let excess = self.mistakes.len().saturating_sub(MAX_MISTAKES);
        self.mistakes.drain(..excess);
        let ids = self.mistakes.iter().map(|m| m.id.as_str());
        let used = ids
            .chain(self.tried.iter().map(String::as_str))
            .chain(self.puzzles.keys().map(String::as_str))
            .filter_map(mistake_number)
            .max();
        if let Some(used) = used {
            self.next_mistake = self.next_mistake.max(used.saturating_add(1));
        }
    }

    pub fn to_json(&self) -> String {
        // Plain data: serialising cannot fail (`serde_json` writes a NaN as null, which
        // `load` then refuses rather than reading a rating that is no number).
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A puzzle's rating for this player: as their first tries left it, or as shipped.
    pub fn rating_of(&self, id: &str, shipped: u16) -> Glicko {
        self.puzzles
            .get(id)
            .copied()
            .unwrap_or_else(|| Glicko::puzzle(shipped))
    }

    /// Rates the player's first try at a puzzle and returns their rating before and after;
    /// `None`, and nothing changes, when the puzzle was tried before (as Lichess, only a
    /// first try is rated, so a puzzle cannot be farmed by solving it again).
    pub fn first_try(&mut self, id: &str, shipped: u16, solved: bool) -> Option<(f64, f64)> {
        if self.tried.contains(id) {
            return None;
        }
        let before = self.player.rating;
        let (player, puzzle) = rating::first_try(self.player, self.rating_of(id, shipped), solved);
        self.player = player;
        self.puzzles.insert(id.to_owned(), puzzle);
        self.tried.insert(id.to_owned());
        if solved {
            self.streak += 1;
            self.best_streak = self.best_streak.max(self.streak);
        } else {
            self.streak = 0;
        }
        let tries = self.history.last().map_or(0, |p| p.tries) + 1;
        self.history.push(HistoryPoint {
            tries,
            rating: player.rating,
        });
        let excess = self.history.len().saturating_sub(MAX_HISTORY);
        self.history.drain(..excess);
        Some((before, player.rating))
    }

    /// Keeps the player's new mistakes, each position once, under new ids; returns how many
    /// were new.
    pub fn add_mistakes(&mut self, found: Vec<StoredPuzzle>) -> usize {
        let mut added = 0;
        for mut mistake in found {
            let known = self
                .mistakes
                .iter()
                .any(|m| m.board == mistake.board && m.variant == mistake.variant);
            if known {
                continue;
            }
            mistake.id = format!("{MISTAKE_PREFIX}{}", self.next_mistake);
            self.next_mistake += 1;
            self.mistakes.push(mistake);
            added += 1;
        }
        let excess = self.mistakes.len().saturating_sub(MAX_MISTAKES);
        self.mistakes.drain(..excess);
        added
    }
}
