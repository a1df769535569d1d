//! The board editor: a position set up by clicking squares (each click cycles empty, black,
//! white), the side to move, clear and the start position, turned and mirrored by the
//! board's symmetries, copied as board text or GGF; and the check that refuses a position
//! no game can reach, in words. Plain data, tested without a browser; the page draws it on
//! the board and plays from it (`Action::Replace`, which puts a game in progress aside).

use othello::{
    Bitboard, BoardSize, BoardTextError, Color, Game, GgfGame, Position, Square, Symmetry, Variant,
};

/// A quarter turn clockwise as the board is drawn (a1 top left): a1 goes to h1.
pub const ROTATE: Symmetry = Symmetry::ALL[5];
/// Left and right swapped: a1 goes to h1, a8 to h8.
pub const MIRROR: Symmetry = Symmetry::ALL[4];
/// Top and bottom swapped: a1 goes to a8.
pub const FLIP: Symmetry = Symmetry::ALL[2];

/// What the person does in the editor.
#[derive(Clone, Debug, PartialEq)]
pub enum EditAction {
    /// Opens the editor on this position.
    Open(Position),
    Click(Square),
    Side(Color),
    /// Turns or mirrors the discs ([`ROTATE`], [`MIRROR`], [`FLIP`]); the side to move stays.
    Transform(Symmetry),
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
        EditAction::Transform(symmetry) => next.transform(symmetry),
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

    /// The discs moved by `symmetry`; the centre maps onto itself, so a position a game can
    /// reach stays one.
    pub fn transform(&mut self, symmetry: Symmetry) {
        self.black = symmetry.bitboard(self.black, self.size);
        self.white = symmetry.bitboard(self.white, self.size);
        self.error = None;
    }

    /// The position as board text, which "Analyse a position" reads back.
    pub fn board_text(&self) -> String {
        self.shown().to_board_text()
    }

    /// The position as a GGF record with no moves (its `BO[]` the position, `TY[]` the
    /// board and rules), which the page's record loader, NBoard and Edax read back.
    pub fn ggf_text(&self) -> String {
        GgfGame::new(Game::new(self.shown())).to_string()
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

/// What board text is, in a player's words, for the refusals that need it.
const BOARD_TEXT_IS: &str = "board text gives every square, a1 to h8 row by row, as X, O or - \
     (64 of them for 8x8, 36 for 6x6), then a space and the side to move, X or O";

/// Board text whose rows are written apart (separated by spaces or newlines, as a board
/// is drawn), joined into one: only when that reading is the only one, every row as wide
/// as the board has rows, and a side to move after them.
fn join_rows(text: &str) -> Option<String> {
    let text = text.split(';').next().unwrap_or_default();
    let words: Vec<&str> = text.split_whitespace().collect();
    let (side, rows) = words.split_last()?;
    let width = rows.len();
    let square = |c: char| matches!(c, 'X' | 'x' | '*' | 'O' | 'o' | '-' | '.');
    let rows_fit = (width == 8 || width == 6)
        && rows
            .iter()
            .all(|row| row.chars().count() == width && row.chars().all(square));
    rows_fit.then(|| format!("{} {side}", rows.concat()))
}

/// Parses board text (64 or 36 squares, a space, the side to move; the rows may be
/// written apart) into a game that starts there, or says once what is wrong, in the
/// page's words: the text that cannot be read, a board the page does not play, or a
/// position no game can reach (the editor's check, so that Analyse accepts what "Play
/// from here" accepts and nothing else).
pub fn game_from_board_text(text: &str, variant: Variant) -> Result<Game, String> {
    let joined = join_rows(text);
    let text = joined.as_deref().unwrap_or(text).trim();
    let pos = Position::from_board_text(text, variant).map_err(|e| match e {
        // Words counted as squares ("xyzzy": 5) would read as a board of the wrong size;
        // a board of the right length with a typo keeps the square that is wrong.
        BoardTextError::BadLength(_)
            if !text
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .chars()
                .all(|c| matches!(c, 'X' | 'x' | '*' | 'O' | 'o' | '-' | '.')) =>
        {
            format!("this is not board text: {BOARD_TEXT_IS}")
        }
        BoardTextError::BadLength(n) => format!(
            "the board part has {n} square{}, but a board has 64 (8x8) or 36 (6x6) squares: \
             {BOARD_TEXT_IS}",
            if n == 1 { "" } else { "s" }
        ),
        BoardTextError::Trailing(extra) => format!(
            "after the side to move comes '{extra}': give the squares, a space and X or O, \
             nothing more"
        ),
        other => other.to_string(),
    })?;
    if !matches!(pos.size(), BoardSize::Eight | BoardSize::Six) {
        return Err(format!(
            "the page plays 8x8 and 6x6 boards, not {}",
            pos.size()
        ));
    }
    Editor::from_position(&pos)
        .check()
        .map(Game::new)
        .map_err(
            |why| match why.strip_prefix("No game can reach this position: ") {
                Some(rest) => format!("no game can reach this position: {rest}"),
                None => why,
            },
        )
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

/// What "Analyse" analyses: the text the person put in the box, or, with the box empty,
/// the position on the board, whose text the form shows above it (issue 68: an empty box
/// beside that text was refused as "not board text").
pub fn text_to_analyse(typed: &str, board_text: &str) -> String {
    if typed.trim().is_empty() {
        board_text.to_owned()
    } else {
        typed.to_owned()
    }
}

/// The game "Analyse" sets up from `text`, with `shown` the position on the board: that
/// position, finished, has no move to analyse, so it is refused in one line and the game
/// on the board stays (a fresh look found Analyse with the box left empty on a finished
/// game replacing it with its bare final position). Another finished position typed in
/// is set up, to show its result.
pub fn game_to_analyse(text: &str, variant: Variant, shown: &Position) -> Result<Game, String> {
    let game = game_from_board_text(text, variant)?;
    if game.position().is_game_over() && game.position() == shown {
        return Err(crate::state::FINISHED_REFUSAL.to_owned());
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_finished_position_is_not_analysed() {
        use super::{game_to_analyse, Position, Variant};
        let full = format!("{} X", "X".repeat(64));
        let over = Position::from_board_text(&full, Variant::Standard).expect("full");
        let why = game_to_analyse(&full, Variant::Standard, &over).expect_err("finished");
        assert!(why.contains("no move to analyse"), "{why}");
        // Another finished position, typed in, is set up to show its result.
        let start = "---------------------------OX------XO--------------------------- X";
        let begun = Position::from_board_text(start, Variant::Standard).expect("start");
        assert!(game_to_analyse(&full, Variant::Standard, &begun).is_ok());
        assert!(game_to_analyse(start, Variant::Standard, &begun).is_ok());
    }

    #[test]
    fn an_empty_box_analyses_the_position_on_the_board() {
        use super::text_to_analyse;
        let board = "---------------------------OX------XO--------------------------- X";
        assert_eq!(text_to_analyse("", board), board);
        assert_eq!(text_to_analyse("  \n", board), board);
        assert_eq!(text_to_analyse("xyzzy", board), "xyzzy");
    }

    use super::*;

    fn sq(text: &str) -> Square {
        Square::parse(text, BoardSize::Eight).expect("a square")
    }

    fn editor() -> Editor {
        Editor::from_position(&Position::start(BoardSize::Eight, Variant::Standard))
    }

    #[test]
    fn board_text_rows_written_apart_are_joined_when_that_is_the_only_reading() {
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let rows = "-------- -------- -------- ---OX--- ---XO--- -------- -------- -------- X";
        let game = game_from_board_text(rows, Variant::Standard).expect("rows apart");
        assert_eq!(*game.position(), start);
        let lines = rows.replace(' ', "\n");
        assert!(game_from_board_text(&lines, Variant::Standard).is_ok());
        // Seven rows, or a row too long, are not a board.
        assert!(
            join_rows("-------- -------- -------- ---OX--- ---XO--- -------- -------- X").is_none()
        );
        assert!(join_rows(
            "--------- -------- -------- ---OX--- ---XO--- -------- -------- -------- X"
        )
        .is_none());
    }

    #[test]
    fn words_are_not_counted_as_squares() {
        for text in ["xyzzy", "hello world this is not a board"] {
            let why = game_from_board_text(text, Variant::Standard).expect_err("no board");
            assert!(why.starts_with("this is not board text: "), "{why}");
            assert!(!why.contains("board part has"), "{why}");
        }
        let typo = format!("a{}", &"-".repeat(64)[1..]) + " X";
        let why = game_from_board_text(&typo, Variant::Standard).expect_err("a typo");
        assert!(why.contains("'a' at square a1"), "{why}");
        let short = game_from_board_text("---", Variant::Standard).expect_err("short");
        assert!(
            short.starts_with("the board part has 3 squares, but"),
            "{short}"
        );
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
    fn rotate_and_mirror_reach_all_eight_symmetries_and_keep_the_side() {
        let mut e = editor();
        // An asymmetric position: each of its eight images differs.
        for s in ["c3", "c3", "f4", "e6", "e6", "f6"] {
            e.click(sq(s));
        }
        e.set_side(Color::White);
        let at = |e: &Editor, s: &str| e.shown().color_at(sq(s));
        let mut turned = e.clone();
        turned.transform(ROTATE);
        // c3 (white) is a quarter turn clockwise at f3; f4 (black) at e6.
        assert_eq!(at(&turned, "f3"), Some(Color::White));
        assert_eq!(at(&turned, "e6"), Some(Color::Black));
        assert_eq!(turned.to_move, Color::White);
        let mut mirrored = e.clone();
        mirrored.transform(MIRROR);
        assert_eq!(at(&mirrored, "f3"), Some(Color::White));
        let mut flipped = e.clone();
        flipped.transform(FLIP);
        assert_eq!(at(&flipped, "c6"), Some(Color::White));
        let mut seen = std::collections::HashSet::new();
        let mut walk = e.clone();
        for _ in 0..2 {
            for _ in 0..4 {
                walk.transform(ROTATE);
                seen.insert((walk.black, walk.white));
                assert!(walk.check().is_ok(), "{:?}", walk.check());
            }
            walk.transform(MIRROR);
        }
        assert_eq!(seen.len(), 8, "rotate and mirror reach every symmetry");
        assert_eq!(
            (walk.black, walk.white),
            (e.black, e.white),
            "and come back"
        );
    }

    #[test]
    fn the_copied_texts_load_back_to_the_same_position() {
        let mut e = editor();
        for s in ["c4", "c4", "f6", "d3"] {
            e.click(sq(s));
        }
        e.set_side(Color::White);
        let pos = e.shown();
        let from_text = game_from_board_text(&e.board_text(), Variant::Standard)
            .expect("board text reads back");
        assert_eq!(*from_text.position(), pos);
        let ggf = e.ggf_text();
        assert!(
            ggf.starts_with("(;GM[Othello]") && ggf.contains("BO[8 "),
            "{ggf}"
        );
        let from_ggf = crate::records::game_from_ggf(&ggf).expect("GGF reads back");
        assert_eq!(*from_ggf.position(), pos);
        assert!(from_ggf.moves().is_empty());
        // The reversed rules and the small board travel in the record.
        let small = Editor::from_position(&Position::start(BoardSize::Six, Variant::Reversed));
        let back = crate::records::game_from_ggf(&small.ggf_text()).expect("reads");
        assert_eq!(*back.position(), small.shown());
    }

    #[test]
    fn the_six_by_six_centre_is_its_own() {
        let mut e = Editor::from_position(&Position::start(BoardSize::Six, Variant::Standard));
        assert!(e.check().is_ok());
        // c3 starts white: one click empties it.
        e.click(sq("c3"));
        assert!(e.check().expect_err("c3 empty").contains("c3 is empty"));
    }

    #[test]
    fn board_text_loads_on_the_boards_the_page_plays() {
        let text = Position::start(BoardSize::Six, Variant::Standard).to_board_text();
        let game = game_from_board_text(&text, Variant::Standard).expect("valid");
        assert_eq!(game.position().size(), BoardSize::Six);
    }

    #[test]
    fn board_text_errors_are_said_once_in_the_pages_words() {
        let refused = |text: &str| game_from_board_text(text, Variant::Standard).expect_err(text);
        let start = Position::start(BoardSize::Eight, Variant::Standard).to_board_text();
        assert_eq!(
            refused(&format!("{start} extra")),
            "after the side to move comes 'extra': give the squares, a space and X or O, \
             nothing more"
        );
        assert_eq!(
            refused("-"),
            format!("the board part has 1 square, but a board has 64 (8x8) or 36 (6x6) squares: {BOARD_TEXT_IS}")
        );
        assert_eq!(
            refused("XO- X"),
            format!("the board part has 3 squares, but a board has 64 (8x8) or 36 (6x6) squares: {BOARD_TEXT_IS}")
        );
        assert_eq!(
            refused("-----OX--XO----- X"),
            "the page plays 8x8 and 6x6 boards, not 4x4"
        );
    }

    #[test]
    fn analysis_refuses_the_positions_the_editor_refuses() {
        let refused = |text: &str| game_from_board_text(text, Variant::Standard).expect_err(text);
        let empty = refused(&format!("{} X", "-".repeat(64)));
        assert!(
            empty.starts_with("no game can reach this position: d4, e4, d5, e5 are empty"),
            "{empty}"
        );
        let start = Position::start(BoardSize::Eight, Variant::Standard).to_board_text();
        let cut_off = refused(&format!("X{}", &start[1..]));
        assert!(cut_off.contains("a1 is cut off"), "{cut_off}");
        // A wipe-out on a full board is a position games reach (White flipped the last
        // black discs with the last move): it loads, as the editor plays it.
        let white = game_from_board_text(&format!("{} X", "O".repeat(64)), Variant::Standard)
            .expect("a full board of white discs");
        assert!(white.position().is_game_over());
    }
}
