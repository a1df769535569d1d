//! The board editor: a position set up by clicking squares (each click cycles empty, black,
//! white), the side to move, clear and the start position; and the check that refuses a
//! position no game can reach, in words. Plain data, tested without a browser; the page
//! draws it on the board and plays from it (`Action::Load`).

use othello::{Bitboard, BoardSize, Color, Position, Square, Variant};

/// What the person does in the editor.
#[derive(Clone, Debug, PartialEq)]
pub enum EditAction {
    /// Opens the editor on this position.
    Open(Position),
    Click(Square),
    Side(Color),
    Clear,
    Reset,
    /// Playing from the position was refused, for this reason.
    Refused(String),
    Close,
}

/// The editor after `action` (`None`: closed).
pub fn edit(editor: Option<&Editor>, action: EditAction) -> Option<Editor> {
    let mut next = match (editor, &action) {
        (_, EditAction::Open(pos)) => return Some(Editor::from_position(pos)),
        (_, EditAction::Close) | (None, _) => return None,
        (Some(e), _) => e.clone(),
    };
    match action {
        EditAction::Click(sq) => next.click(sq),
        EditAction::Side(side) => next.set_side(side),
        EditAction::Clear => next.clear(),
        EditAction::Reset => next.reset(),
        EditAction::Refused(why) => next.error = Some(why),
        EditAction::Open(_) | EditAction::Close => {}
    }
    Some(next)
}

/// A position being set up.
#[derive(Clone, Debug, PartialEq)]
pub struct Editor {
    pub size: BoardSize,
    pub variant: Variant,
    pub black: Bitboard,
    pub white: Bitboard,
    pub to_move: Color,
    /// Why the last attempt to play from it was refused.
    pub error: Option<String>,
}

impl Editor {
    /// An editor that starts from `pos` (the position on the board).
    pub fn from_position(pos: &Position) -> Editor {
        Editor {
            size: pos.size(),
            variant: pos.variant(),
            black: pos.black(),
            white: pos.white(),
            to_move: pos.side_to_move(),
            error: None,
        }
    }

    /// Empty, then black, then white, then empty again.
    pub fn click(&mut self, sq: Square) {
        if !sq.is_on(self.size) {
            return;
        }
        let bit = Bitboard(sq.bit());
        if self.black.contains(sq) {
            self.black = Bitboard(self.black.0 & !bit.0);
            self.white = self.white.with(sq);
        } else if self.white.contains(sq) {
            self.white = Bitboard(self.white.0 & !bit.0);
        } else {
            self.black = self.black.with(sq);
        }
        self.error = None;
    }

    pub fn clear(&mut self) {
        self.black = Bitboard::EMPTY;
        self.white = Bitboard::EMPTY;
        self.error = None;
    }

    pub fn reset(&mut self) {
        *self = Editor::from_position(&Position::start(self.size, self.variant));
    }

    pub fn set_side(&mut self, side: Color) {
        self.to_move = side;
        self.error = None;
    }

    /// The position as set up, for the board to draw: the discs are never both colours
    /// (a click keeps them apart), so it always exists.
    pub fn shown(&self) -> Position {
        Position::from_bitboards(
            self.black,
            self.white,
            self.to_move,
            self.size,
            self.variant,
        )
        .unwrap_or_else(|_| Position::start(self.size, self.variant))
    }

    /// The position to play from, or why no game can reach it. Every game starts with the
    /// four centre squares filled and places each new disc next to one already on the
    /// board, and discs only change colour: so the centre is never empty and every disc is
    /// joined to it. A side with no discs is fine (a wipe-out), and so is a position where
    /// neither side can move: the game is then over, and played as finished.
    pub fn check(&self) -> Result<Position, String> {
        let discs = Bitboard(self.black.0 | self.white.0);
        let start = Position::start(self.size, self.variant);
        let centre = Bitboard(start.black().0 | start.white().0);
        let empty_centre: Vec<String> = centre
            .filter(|sq| !discs.contains(*sq))
            .map(|sq| sq.to_string())
            .collect();
        if !empty_centre.is_empty() {
            return Err(format!(
                "No game can reach this position: {} {} empty, but the four centre squares \
                 hold discs from the start and discs are never removed.",
                empty_centre.join(", "),
                if empty_centre.len() == 1 { "is" } else { "are" }
            ));
        }
        let reached = joined(discs, centre);
        let cut_off: Vec<String> = discs
            .filter(|sq| !reached.contains(*sq))
            .map(|sq| sq.to_string())
            .collect();
        if !cut_off.is_empty() {
            let shown: Vec<&str> = cut_off.iter().take(4).map(String::as_str).collect();
            return Err(format!(
                "No game can reach this position: {}{} {} cut off from the centre's discs, \
                 but every disc is placed next to one already on the board.",
                shown.join(", "),
                if cut_off.len() > 4 { ", ..." } else { "" },
                if cut_off.len() == 1 { "is" } else { "are" }
            ));
        }
        Ok(self.shown())
    }
}

/// The discs of `discs` joined to `from` through neighbouring discs (any of the eight
/// directions).
fn joined(discs: Bitboard, from: Bitboard) -> Bitboard {
    let mut reached = Bitboard(from.0 & discs.0);
    loop {
        let grown = Bitboard(neighbours(reached).0 & discs.0 | reached.0);
        if grown == reached {
            return reached;
        }
        reached = grown;
    }
}

/// The squares next to any of `set` (on the 8x8 grid of bits; the board's own mask is
/// applied by the caller through `discs`).
fn neighbours(set: Bitboard) -> Bitboard {
    let b = set.0;
    let not_a = 0xfefe_fefe_fefe_fefeu64;
    let not_h = 0x7f7f_7f7f_7f7f_7f7fu64;
    let east = (b << 1) & not_a;
    let west = (b >> 1) & not_h;
    let row = b | east | west;
    Bitboard(east | west | (row << 8) | (row >> 8))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        Square::parse(text, BoardSize::Eight).expect("a square")
    }

    fn editor() -> Editor {
        Editor::from_position(&Position::start(BoardSize::Eight, Variant::Standard))
    }

    #[test]
    fn a_click_cycles_empty_black_white() {
        let mut e = editor();
        e.click(sq("a1"));
        assert_eq!(e.shown().color_at(sq("a1")), Some(Color::Black));
        e.click(sq("a1"));
        assert_eq!(e.shown().color_at(sq("a1")), Some(Color::White));
        e.click(sq("a1"));
        assert_eq!(e.shown().color_at(sq("a1")), None);
        e.set_side(Color::White);
        assert_eq!(e.shown().side_to_move(), Color::White);
        e.clear();
        assert_eq!(e.shown().black().count() + e.shown().white().count(), 0);
        e.reset();
        assert_eq!(
            e.shown(),
            Position::start(BoardSize::Eight, Variant::Standard)
        );
    }

    #[test]
    fn the_start_and_a_wipe_out_are_possible() {
        assert!(editor().check().is_ok());
        let mut e = editor();
        // Every disc white: Black has none left, which a game can end with.
        for s in ["d5", "e4"] {
            e.click(sq(s));
        }
        let pos = e.check().expect("possible");
        assert_eq!(pos.black().count(), 0);
        assert!(
            pos.is_game_over(),
            "neither side can move: played as finished"
        );
    }

    #[test]
    fn an_impossible_position_is_refused_in_words() {
        let mut e = editor();
        e.clear();
        let why = e.check().expect_err("empty centre");
        assert!(
            why.contains("d4, e4, d5, e5 are empty, but the four centre squares"),
            "{why}"
        );
        let mut e = editor();
        e.click(sq("a1"));
        let why = e.check().expect_err("cut off");
        assert!(
            why.contains("a1 is cut off from the centre's discs"),
            "{why}"
        );
        // Joined through a chain of discs, diagonals included, it is fine.
        for s in ["b2", "c3"] {
            e.click(sq(s));
        }
        assert!(e.check().is_ok(), "{:?}", e.check());
    }

    #[test]
    fn the_six_by_six_centre_is_its_own() {
        let mut e = Editor::from_position(&Position::start(BoardSize::Six, Variant::Standard));
        assert!(e.check().is_ok());
        // c3 starts white: one click empties it.
        e.click(sq("c3"));
        assert!(e.check().expect_err("c3 empty").contains("c3 is empty"));
    }
}
