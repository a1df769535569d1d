//! Writing a record as NBoard writes it.

use super::*;

/// Writes `tag[value]`, escaping what would end the value early.
fn property(f: &mut fmt::Formatter<'_>, tag: &str, value: &str) -> fmt::Result {
    f.write_str(tag)?;
    f.write_str("[")?;
    for c in value.chars() {
        if matches!(c, ']' | '\\') {
            f.write_str("\\")?;
        }
        write!(f, "{c}")?;
    }
    f.write_str("]")
}

fn board_text(pos: &Position) -> String {
    let symbol = |color: Color| match color {
        Color::Black => '*',
        Color::White => 'O',
    };
    let squares: String = Square::all(pos.size())
        .map(|sq| pos.color_at(sq).map_or('-', symbol))
        .collect();
    format!(
        "{} {squares} {}",
        pos.size().n(),
        symbol(pos.side_to_move())
    )
}

/// A reviewed move's evaluation as a record writes it: an exact margin whole (`-42`), an
/// estimate to hundredths (`-42.00`), so that a reader can tell them apart (an `f64`
/// written as Rust writes it drops the decimals of a whole estimate); never `-0`.
pub fn eval_text(discs: f64, exact: bool) -> String {
    let text = if exact {
        format!("{}", discs.round() as i64)
    } else {
        format!("{discs:.2}")
    };
    if text
        .trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        text.trim_start_matches('-').to_owned()
    } else {
        text
    }
}

/// A move as records write it: `f5`, `PA`, then `/eval/seconds` when there are any.
pub fn move_text(mv: Move, note: &MoveNote) -> String {
    let mut text = match mv {
        Move::Place(sq) => sq.to_string(),
        Move::Pass => "PA".to_owned(),
    };
    if note.eval.is_some() || note.seconds.is_some() {
        text.push('/');
        if let Some(eval) = note.eval {
            text.push_str(&eval.to_string());
        }
        if let Some(seconds) = note.seconds {
            text.push('/');
            text.push_str(&seconds.to_string());
        }
    }
    text
}

impl fmt::Display for GgfResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+}", self.black_margin)?;
        f.write_str(match self.ending {
            Ending::Normal => "",
            Ending::Resigned => ":r",
            Ending::Timeout => ":t",
            Ending::Agreed => ":s",
        })
    }
}

impl fmt::Display for GgfGame {
    /// The record on one line, as GGS and NBoard exchange games.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(;GM[Othello]")?;
        for (tag, value) in [
            ("PC", &self.place),
            ("DT", &self.date),
            ("PB", &self.black),
            ("PW", &self.white),
        ] {
            if let Some(value) = value {
                property(f, tag, value)?;
            }
        }
        for (tag, value) in &self.other {
            property(f, tag, value)?;
        }
        let start = self.game.start();
        let anti = if start.variant() == Variant::Reversed {
            "a"
        } else {
            ""
        };
        write!(f, "TY[{}{anti}]", start.size().n())?;
        match &self.result {
            Some(result) => write!(f, "RE[{result}]")?,
            None => f.write_str("RE[?]")?,
        }
        write!(f, "BO[{}]", board_text(start))?;
        let positions = self.game.positions();
        for (i, mv) in self.game.moves().iter().enumerate() {
            let tag = match positions[i].side_to_move() {
                Color::Black => "B",
                Color::White => "W",
            };
            let note = self.notes.get(i).copied().unwrap_or_default();
            property(f, tag, &move_text(*mv, &note))?;
        }
        f.write_str(";)")
    }
}
