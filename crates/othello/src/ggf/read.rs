//! Reading a record: the `(tag, value)` pairs off the text, then the fields they make.

use super::*;

impl GgfGame {
    /// One game off the front of `text`, and the text after it.
    pub(super) fn read(text: &str) -> Result<(GgfGame, &str), GgfError> {
        let mut props = Properties::open(text)?;
        // The record's own text starts at its "(;", after any game number.
        let opened = props.at - 2;
        let mut fields = Fields::default();
        while let Some((tag, value, _)) = props.next_property()? {
            fields.take(tag, value)?;
        }
        let mut game = fields.build()?;
        let rest = props.rest();
        game.source = Some(text[opened..text.len() - rest.len()].to_owned());
        Ok((game, rest))
    }
}

impl GgfGame {
    /// The text the record was read from ([`GgfGame::as_read`]) with the evaluation of
    /// each move `evals` gives one for (`evals[i]` for the `i`-th move of
    /// [`GgfGame::game`], passes included) written in place of the record's own, as
    /// given: every other byte stays as it came (its spacing, its result and times as
    /// written, `RE[+0.000]`, `B[d3//0.70]`). A move's time stays its own
    /// (`B[d3/-1.50/0.70]`). `None` where the record has no text of its own to keep.
    pub fn as_read_with_evals(&self, evals: &[Option<String>]) -> Option<String> {
        let text = self.as_read()?;
        let mut props = Properties::open(text).ok()?;
        let positions = self.game.positions();
        let moves = self.game.moves();
        let mut out = String::with_capacity(text.len() + 8 * evals.len());
        let mut copied = 0;
        let mut index = 0;
        while let Some((tag, _, range)) = props.next_property().ok()? {
            let color = match tag.as_str() {
                "B" => Color::Black,
                "W" => Color::White,
                _ => continue,
            };
            // A forced pass the record left out is the game's move, not the text's.
            while index < moves.len() && positions[index].side_to_move() != color {
                index += 1;
            }
            let eval = evals.get(index).and_then(Option::as_deref);
            index += 1;
            let raw = &text[range.clone()];
            let Some(eval) = eval.filter(|_| !raw.contains('\\')) else {
                continue;
            };
            let mut parts = raw.splitn(3, '/');
            let square = parts.next().unwrap_or_default();
            let _old_eval = parts.next();
            let mut value = format!("{square}/{eval}");
            if let Some(seconds) = parts.next() {
                value.push('/');
                value.push_str(seconds);
            }
            out.push_str(&text[copied..range.start]);
            out.push_str(&value);
            copied = range.end;
        }
        out.push_str(&text[copied..]);
        Some(out)
    }
}

impl GgfGame {
    /// [`GgfGame::as_read_with_evals`] for any record: one with no text of its own (a game
    /// played or typed here, not read) is written as `Display` writes it first, and its
    /// evaluations then put in the same way, so both kinds follow one rule.
    pub fn text_with_evals(&self, evals: &[Option<String>]) -> String {
        if let Some(text) = self.as_read_with_evals(evals) {
            return text;
        }
        let text = self.to_string();
        GgfGame::read(&text)
            .ok()
            .and_then(|(written, _)| written.as_read_with_evals(evals))
            .unwrap_or(text)
    }
}

/// The first few characters of `text`, for error messages.
pub(super) fn snippet(text: &str) -> String {
    text.chars().take(24).collect()
}

/// The `(tag, value)` pairs of one game, read off the text in order.
struct Properties<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Properties<'a> {
    /// Skips whitespace and GGS's game number, then the `(;` that opens a game.
    fn open(text: &'a str) -> Result<Properties<'a>, GgfError> {
        let body = text.trim_start();
        let body = body.trim_start_matches(|c: char| c.is_ascii_digit());
        let body = body.trim_start();
        let body = body.strip_prefix("(;").ok_or(GgfError::NoGame)?;
        Ok(Properties {
            at: text.len() - body.len(),
            text,
        })
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    /// The next property, with where its value's text lies in the text (between its
    /// brackets, as written), or `None` at the `;)` that closes the game.
    #[allow(clippy::type_complexity)]
    fn next_property(
        &mut self,
    ) -> Result<Option<(String, String, std::ops::Range<usize>)>, GgfError> {
        let rest = self.rest().trim_start();
        self.at = self.text.len() - rest.len();
        if rest.is_empty() {
            return Err(GgfError::Unterminated);
        }
        if let Some(after) = rest.strip_prefix(";)") {
            self.at = self.text.len() - after.len();
            return Ok(None);
        }
        let tag_len = rest
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        let tag = &rest[..tag_len];
        let Some(value_text) = rest[tag_len..].strip_prefix('[').filter(|_| tag_len > 0) else {
            return Err(GgfError::BadProperty {
                found: snippet(rest),
            });
        };
        let mut value = String::new();
        let mut chars = value_text.char_indices();
        let start = self.text.len() - value_text.len();
        while let Some((i, c)) = chars.next() {
            match c {
                ']' => {
                    self.at = start + i + 1;
                    return Ok(Some((tag.to_ascii_uppercase(), value, start..start + i)));
                }
                '\\' => match chars.next() {
                    Some((_, escaped)) => value.push(escaped),
                    None => break,
                },
                _ => value.push(c),
            }
        }
        Err(GgfError::UnclosedValue {
            tag: tag.to_owned(),
        })
    }
}

/// The properties of one game as read, before they are checked against each other.
#[derive(Default)]
struct Fields {
    black: Option<String>,
    white: Option<String>,
    date: Option<String>,
    place: Option<String>,
    game_type: Option<(BoardSize, Variant)>,
    board: Option<(String, BoardSize)>,
    result: Option<Option<GgfResult>>,
    moves: Vec<(char, String)>,
    other: Vec<(String, String)>,
    seen_gm: bool,
}

impl Fields {
    fn take(&mut self, tag: String, value: String) -> Result<(), GgfError> {
        fn once<T>(slot: &mut Option<T>, tag: &str, value: T) -> Result<(), GgfError> {
            if slot.is_some() {
                return Err(GgfError::Duplicate {
                    tag: tag.to_owned(),
                });
            }
            *slot = Some(value);
            Ok(())
        }
        match tag.as_str() {
            "GM" => {
                if !value.trim().eq_ignore_ascii_case("othello") {
                    return Err(GgfError::NotOthello(value));
                }
                if std::mem::replace(&mut self.seen_gm, true) {
                    return Err(GgfError::Duplicate { tag });
                }
            }
            "PB" => once(&mut self.black, &tag, value)?,
            "PW" => once(&mut self.white, &tag, value)?,
            "DT" => once(&mut self.date, &tag, value)?,
            "PC" => once(&mut self.place, &tag, value)?,
            "TY" => {
                let game_type = parse_type(&value)?;
                once(&mut self.game_type, &tag, game_type)?;
            }
            "BO" => {
                let size = board_size_of(&value)?;
                once(&mut self.board, &tag, (value, size))?;
            }
            "RE" => {
                let result = parse_result(&value)?;
                once(&mut self.result, &tag, result)?;
            }
            "B" => self.moves.push(('B', value)),
            "W" => self.moves.push(('W', value)),
            _ => self.other.push((tag, value)),
        }
        Ok(())
    }

    fn build(self) -> Result<GgfGame, GgfError> {
        let board_size = self.board.as_ref().map(|(_, size)| *size);
        let size = match (self.game_type, board_size) {
            (Some((ty, _)), Some(board)) if ty != board => {
                return Err(GgfError::SizeMismatch { ty, board })
            }
            (Some((size, _)), _) | (None, Some(size)) => size,
            (None, None) => BoardSize::Eight,
        };
        let variant = self.game_type.map_or(Variant::Standard, |(_, v)| v);
        let start = match &self.board {
            Some((text, _)) => parse_board(text, variant)?,
            None => Position::start(size, variant),
        };
        let mut record = GgfGame::new(Game::new(start));
        for (i, (tag, text)) in self.moves.into_iter().enumerate() {
            let number = i + 1;
            let (mv, note) = parse_move_text(&text, size).map_err(|cause| GgfError::BadMove {
                number,
                tag,
                text: text.clone(),
                cause,
            })?;
            let color = if tag == 'B' {
                Color::Black
            } else {
                Color::White
            };
            let pos = *record.game.position();
            if color != pos.side_to_move() {
                if !pos.must_pass() {
                    return Err(GgfError::WrongColor {
                        number,
                        tag,
                        text,
                        to_move: pos.side_to_move(),
                    });
                }
                // A forced pass the record left out.
                let _ = record.push(Move::Pass, MoveNote::default());
            }
            record.push(mv, note).map_err(|cause| GgfError::Illegal {
                number,
                tag,
                text,
                cause,
            })?;
        }
        record.black = self.black;
        record.white = self.white;
        record.date = self.date;
        record.place = self.place;
        record.result = self.result.flatten();
        record.other = self.other;
        Ok(record)
    }
}

/// `TY`: `[s]<size>` then any of `k`, `a`, `r<n>`, `b`, `w`.
fn parse_type(text: &str) -> Result<(BoardSize, Variant), GgfError> {
    let bad = |reason: String| GgfError::BadType {
        text: text.to_owned(),
        reason,
    };
    let lower = text.trim().to_ascii_lowercase();
    let body = lower.strip_prefix('s').unwrap_or(&lower);
    let digits = body
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(body.len());
    let size = board_size(&body[..digits]).map_err(|reason| bad(reason.to_owned()))?;
    let mut variant = Variant::Standard;
    let mut flags = body[digits..].chars().peekable();
    while let Some(flag) = flags.next() {
        match flag {
            'a' => variant = Variant::Reversed,
            'k' | 'b' | 'w' => {}
            'r' => {
                if flags.peek().is_none_or(|c| !c.is_ascii_digit()) {
                    return Err(bad("r needs its number of random discs, as in r20".into()));
                }
                while flags.next_if(char::is_ascii_digit).is_some() {}
            }
            other => return Err(bad(format!("unknown game type letter '{other}'"))),
        }
    }
    Ok((size, variant))
}

fn board_size(digits: &str) -> Result<BoardSize, &'static str> {
    match digits {
        "" => Err("no board size"),
        "4" => Ok(BoardSize::Four),
        "6" => Ok(BoardSize::Six),
        "8" => Ok(BoardSize::Eight),
        _ => Err("this engine plays 8x8, 6x6 and 4x4 boards only"),
    }
}

fn board_size_of(text: &str) -> Result<BoardSize, GgfError> {
    let first = text.split_whitespace().next().unwrap_or_default();
    board_size(first).map_err(|reason| GgfError::BadBoard {
        text: text.to_owned(),
        reason: reason.to_owned(),
    })
}

/// `BO`: the size, N*N squares (whitespace anywhere), then the side to move.
fn parse_board(text: &str, variant: Variant) -> Result<Position, GgfError> {
    let bad = |reason: String| GgfError::BadBoard {
        text: text.to_owned(),
        reason,
    };
    let trimmed = text.trim_start();
    let digits = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    let size = board_size(&trimmed[..digits]).map_err(|r| bad(r.to_owned()))?;
    let mut cells = trimmed[digits..].chars().filter(|c| !c.is_whitespace());
    let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for sq in Square::all(size) {
        match cells.next() {
            Some('*' | 'x' | 'X') => black = black.with(sq),
            Some('O' | 'o' | '0') => white = white.with(sq),
            Some('-' | '.') => {}
            Some(other) => {
                return Err(bad(format!(
                    "'{other}' at {sq}; expected * (black), O (white) or - (empty)"
                )))
            }
            None => {
                return Err(bad(format!(
                    "the board ends before {sq}; a {size} board has {} squares",
                    size.squares()
                )))
            }
        }
    }
    let side = match cells.next() {
        Some('*' | 'x' | 'X') => Color::Black,
        Some('O' | 'o' | '0') => Color::White,
        Some(other) => return Err(bad(format!("'{other}' is not a side to move (* or O)"))),
        None => return Err(bad("no side to move after the squares (* or O)".into())),
    };
    if let Some(extra) = cells.next() {
        return Err(bad(format!("'{extra}' after the side to move")));
    }
    // Each square was given one colour, on this board only.
    Position::from_bitboards(black, white, side, size, variant).map_err(|e| bad(e.to_string()))
}

/// `RE`: `?`, or Black's margin with an optional `:r`, `:t` or `:s`.
fn parse_result(text: &str) -> Result<Option<GgfResult>, GgfError> {
    let trimmed = text.trim();
    if trimmed == "?" {
        return Ok(None);
    }
    let bad = || GgfError::BadResult(text.to_owned());
    let (number, ending) = match trimmed.split_once(':') {
        None => (trimmed, Ending::Normal),
        Some((number, "r")) => (number, Ending::Resigned),
        Some((number, "t")) => (number, Ending::Timeout),
        Some((number, "s")) => (number, Ending::Agreed),
        Some(_) => return Err(bad()),
    };
    match number.trim().parse::<f64>() {
        Ok(margin) if margin.is_finite() => Ok(Some(GgfResult {
            black_margin: margin,
            ending,
        })),
        _ => Err(bad()),
    }
}
