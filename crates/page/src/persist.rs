//! What survives a page reload: the game (start position and moves in Othello notation,
//! so a saved game is readable and outlives changes to the structs) with the record it
//! came in (as GGF text, for the same reasons), the settings, and the evaluation graph's
//! estimates of the game's positions, and the game's review; and the game put aside
//! (`hooks::GameModel::set_aside`) with its own, so that "Bring it back" outlives a reload.

use crate::graph::{Estimate, Estimates};
use crate::levels::Difficulty;
use crate::review::{ReviewLevel, ReviewOrder, Reviews};
use crate::state::{at_ply, GameState, Seats};
use othello::{Game, GgfGame, Move, Position, Variant};
use protocol::ReviewedMove;
use serde::{Deserialize, Serialize};

pub const STORAGE_KEY: &str = "othello-zero/v1";
/// Where a saved game that cannot be read is kept, since the new game's first save
/// overwrites [`STORAGE_KEY`].
pub const UNREADABLE_KEY: &str = "othello-zero/v1-unreadable";
const VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub difficulty: Difficulty,
    /// Show the live heat map while the agent thinks.
    pub heat_map: bool,
    /// The agent plays its openings from the book (off: it searches every move, which
    /// shows its thinking from the first move on).
    #[serde(default = "book_on")]
    pub book: bool,
    /// The budget the last review was asked at (absent in older saves: Club).
    #[serde(default)]
    pub review_level: ReviewLevel,
    /// Whether the person picked `review_level` in the menu; until then the menu starts
    /// at the level that suits the game ([`crate::review::default_level`]; absent in older
    /// saves, whose level was the page's default: not picked).
    #[serde(default)]
    pub review_level_chosen: bool,
    /// The order of the last review (absent in older saves: from the first move).
    #[serde(default)]
    pub review_order: ReviewOrder,
}

fn book_on() -> bool {
    true
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            difficulty: Difficulty::default(),
            heat_map: true,
            book: true,
            review_level: ReviewLevel::default(),
            review_level_chosen: false,
            review_order: ReviewOrder::default(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Saved {
    version: u32,
    settings: Settings,
    /// The game on the board, its fields at the top level as in saves before the game put
    /// aside was kept.
    #[serde(flatten)]
    game: SavedGame,
    /// The game put aside by a pasted, opened or set-up game, to be brought back. Absent
    /// in older saves (issue 68: it was held in memory only, and a reload lost it and its
    /// "Bring it back" with it) and where none is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    aside: Option<SavedGame>,
    /// Games put aside before `aside`, oldest first, without their graphs and reviews:
    /// each comes back in turn after it (`hooks::GameModel::earlier_aside`). Absent in
    /// older saves and where there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    earlier: Vec<SavedGame>,
}

/// One game as saved: its line, seats and record, and what the page knows of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct SavedGame {
    /// Board text (OBF) of the start position.
    start: String,
    variant: Variant,
    /// The moves with passes written out, e.g. `f5d6c3`.
    moves: String,
    /// Moves taken back (for redo), in the order they would be replayed.
    redo: String,
    /// Who plays which colour (named `players` in saves since version 1).
    players: Seats,
    /// The graph's estimate of each position of the game and its redo moves, by ply (the
    /// start first), `null` where none was searched. Absent in older saves.
    #[serde(default)]
    graph: Vec<Option<Estimate>>,
    /// The review of each move of the game and its redo moves, `null` where it has none.
    /// Absent in older saves.
    #[serde(default)]
    review: Vec<Option<ReviewedMove>>,
    /// What the review judged with, in words ("Judged at 400 simulations a position...").
    /// Absent in older saves and where no review ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    judged: Option<String>,
    /// The simulations a position the last review judged at. Absent in older saves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    judged_at: Option<u64>,
    /// The simulations a position each move's review (as `review`) was judged at, `null`
    /// where it has none or it was not recorded. Absent in older saves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    review_budgets: Vec<Option<u64>>,
    /// Whether the last review ended before its last move (cancelled, failed, or cut short
    /// by the reload). Absent in older saves and where it ran to its end.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    review_stopped: bool,
    /// The record the game came in, as GGF ([`GameState::record`]). Absent in older saves
    /// and for a game begun here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    record: Option<String>,
}

/// The moves of the game and then its redo moves, in order.
fn line_moves(state: &GameState) -> Vec<Move> {
    let mut moves = state.game.moves().to_vec();
    moves.extend(state.undone.iter().rev());
    moves
}

/// The positions of the game with its redo moves replayed: the start, then after each move.
fn line(state: &GameState) -> Vec<othello::Position> {
    at_ply(state, state.game.moves().len() + state.undone.len())
        .game
        .positions()
        .to_vec()
}

pub fn save(
    state: &GameState,
    settings: &Settings,
    estimates: &Estimates,
    reviews: &Reviews,
) -> String {
    save_with_aside(state, settings, (estimates, reviews), None, &[])
}

/// [`save`], with the game put aside, its graph's estimates and its reviews (`aside`),
/// and the games put aside before it (`earlier`, oldest first).
pub fn save_with_aside(
    state: &GameState,
    settings: &Settings,
    (estimates, reviews): (&Estimates, &Reviews),
    aside: Option<(&GameState, &Estimates, &Reviews)>,
    earlier: &[GameState],
) -> String {
    let nothing = (Estimates::default(), Reviews::default());
    let saved = Saved {
        version: VERSION,
        game: saved_game(state, estimates, reviews),
        settings: settings.clone(),
        aside: aside.map(|(aside, estimates, reviews)| saved_game(aside, estimates, reviews)),
        earlier: earlier
            .iter()
            .map(|g| saved_game(g, &nothing.0, &nothing.1))
            .collect(),
    };
    // Plain data: serialising cannot fail.
    serde_json::to_string(&saved).unwrap_or_default()
}

fn saved_game(state: &GameState, estimates: &Estimates, reviews: &Reviews) -> SavedGame {
    let whole = line(state);
    SavedGame {
        start: state.game.start().to_board_text(),
        variant: state.game.start().variant(),
        moves: state.game.transcript(true),
        redo: state
            .undone
            .iter()
            .rev()
            .map(std::string::ToString::to_string)
            .collect(),
        players: state.seats,
        graph: whole.iter().map(|p| estimates.get(p.hash())).collect(),
        review: whole
            .iter()
            .zip(line_moves(state))
            .map(|(p, mv)| reviews.get(p.hash(), mv))
            .collect(),
        judged: reviews.judged().map(str::to_owned),
        judged_at: reviews.judged_at(),
        review_budgets: Some(
            whole
                .iter()
                .zip(line_moves(state))
                .map(|(p, mv)| reviews.budget_of(p.hash(), mv))
                .collect::<Vec<_>>(),
        )
        .filter(|b| b.iter().any(Option::is_some))
        .unwrap_or_default(),
        review_stopped: reviews.stopped(),
        // As it came, so that a reload still downloads it byte for byte.
        record: state
            .record
            .as_ref()
            .map(|r| r.as_read().map_or_else(|| r.to_string(), str::to_owned)),
    }
}

#[derive(Debug, PartialEq, thiserror::Error)]
pub enum LoadError {
    #[error("the saved game is not readable: {0}")]
    Syntax(String),
    #[error("the saved game has version {0}; this page reads version {VERSION}")]
    Version(u32),
    #[error("the saved game is not valid: {0}")]
    Invalid(String),
}

/// What the page tells the person when their saved game could not be read, in a player's
/// words: that a new game started, and where the saved text is kept (`kept`: the browser
/// stored it). The parser's detail ("missing field ... at line 1 column 2") means nothing
/// to a player; only a save from a newer page is worth naming.
pub fn unreadable_notice(error: &LoadError, kept: bool) -> String {
    let kept = if kept {
        format!(" It is kept aside in this browser's storage as \"{UNREADABLE_KEY}\".")
    } else {
        String::new()
    };
    let why = match error {
        LoadError::Version(_) => ": a newer version of this page saved it",
        LoadError::Syntax(_) | LoadError::Invalid(_) => "",
    };
    format!("Your saved game could not be read{why}, so a new game has started.{kept}")
}

/// A saved game: the game, the settings, the graph's estimates and the review.
pub type Restored = (GameState, Settings, Estimates, Reviews);

pub fn load(text: &str) -> Result<Restored, LoadError> {
    let saved: Saved = serde_json::from_str(text).map_err(|e| LoadError::Syntax(e.to_string()))?;
    if saved.version != VERSION {
        return Err(LoadError::Version(saved.version));
    }
    let mut estimates = Estimates::default();
    let (state, reviews) = restore_game(saved.game, &mut estimates)?;
    Ok((state, saved.settings, estimates, reviews))
}

/// The game put aside in a save, with what the page kept of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Aside {
    pub game: GameState,
    /// The graph's estimates of its positions and its reviews.
    pub kept: (Estimates, Reviews),
    /// The games put aside before it, oldest first; those that no longer read are left
    /// out.
    pub earlier: Vec<GameState>,
}

/// The game put aside in a save; `None` where there is none, or it no longer reads (a game
/// put aside is not worth losing the game on the board for).
pub fn load_aside(text: &str) -> Option<Aside> {
    let saved: Saved = serde_json::from_str(text).ok()?;
    let mut estimates = Estimates::default();
    let (game, reviews) = restore_game(saved.aside?, &mut estimates).ok()?;
    let earlier = saved
        .earlier
        .into_iter()
        .filter_map(|g| restore_game(g, &mut Estimates::default()).ok())
        .map(|(state, _)| state)
        .collect();
    Some(Aside {
        game,
        kept: (estimates, reviews),
        earlier,
    })
}

fn restore_game(
    saved: SavedGame,
    estimates: &mut Estimates,
) -> Result<(GameState, Reviews), LoadError> {
    let start = Position::from_board_text(&saved.start, saved.variant)
        .map_err(|e| LoadError::Invalid(e.to_string()))?;
    let game = Game::from_transcript(&saved.moves, start)
        .map_err(|e| LoadError::Invalid(e.to_string()))?;
    let mut undone = Vec::new();
    // Redo moves that no longer parse are dropped rather than losing the game.
    let redo_game = Game::from_transcript(&saved.redo, *game.position());
    if let Ok(redo) = redo_game {
        undone = redo.moves().iter().rev().copied().collect::<Vec<Move>>();
    }
    // A record that no longer reads, or is of another start, is dropped rather than
    // losing the game: the game is then credited as one begun here.
    let record = saved
        .record
        .and_then(|text| text.parse::<GgfGame>().ok())
        .filter(|record| record.game().start() == game.start());
    let state = GameState {
        game,
        seats: saved.players,
        undone,
        record,
    };
    let whole = line(&state);
    for (pos, estimate) in whole.iter().zip(saved.graph) {
        if let Some(estimate) = estimate {
            estimates.record(pos.hash(), estimate);
        }
    }
    let mut reviews = Reviews::default();
    let budgets = saved
        .review_budgets
        .into_iter()
        .chain(std::iter::repeat(None));
    for (((pos, mv), review), at) in whole
        .iter()
        .zip(line_moves(&state))
        .zip(saved.review)
        .zip(budgets)
    {
        // A review that names another move than the line's is not this game's.
        if let Some(review) = review.filter(|r| r.played == mv) {
            reviews.record_at(pos.hash(), review, at);
        }
    }
    reviews.set_judged(saved.judged);
    reviews.set_judged_at(saved.judged_at);
    reviews.set_stopped(saved.review_stopped);
    Ok((state, reviews))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{apply, Action};
    use othello::{BoardSize, Color};

    fn mv(text: &str, size: BoardSize) -> Action {
        Action::Play(Move::parse(text, size).expect("valid"))
    }

    fn new_game(size: BoardSize, variant: Variant, seats: Seats) -> GameState {
        GameState::new(Position::start(size, variant), seats)
    }

    /// An analysis of f5 d6 c3 with c3 taken back: a game with a move to redo.
    fn f5_d6_with_c3_to_redo() -> GameState {
        let mut s = new_game(BoardSize::Eight, Variant::Standard, Seats::Analysis);
        for action in [
            mv("f5", BoardSize::Eight),
            mv("d6", BoardSize::Eight),
            mv("c3", BoardSize::Eight),
            Action::Undo,
        ] {
            s = apply(&s, action);
        }
        s
    }

    #[test]
    fn a_game_with_redo_moves_and_settings_round_trips() {
        let s = f5_d6_with_c3_to_redo();
        let settings = Settings {
            difficulty: Difficulty::Millis(750),
            heat_map: false,
            book: true,
            review_level: ReviewLevel::Deep,
            review_level_chosen: true,
            review_order: ReviewOrder::NewestFirst,
        };
        let text = save(&s, &settings, &Estimates::default(), &Reviews::default());
        assert!(text.contains("\"moves\":\"f5d6\""), "{text}");
        let (back, back_settings, _, _) = load(&text).expect("loads");
        assert_eq!(back, s);
        assert_eq!(back_settings, settings);
        assert_eq!(apply(&back, Action::Redo).game.transcript(true), "f5d6c3");
    }

    #[test]
    fn a_reversed_game_from_a_set_up_position_round_trips() {
        let start = Position::start(BoardSize::Six, Variant::Reversed);
        let state = GameState::new(start, Seats::Human(Color::White));
        let saved = save(
            &state,
            &Settings::default(),
            &Estimates::default(),
            &Reviews::default(),
        );
        let (back, _, _, _) = load(&saved).expect("loads");
        assert_eq!(back, state);
        assert_eq!(back.position().variant(), Variant::Reversed);
    }

    #[test]
    fn broken_saves_are_rejected_with_a_reason() {
        assert!(matches!(load("{"), Err(LoadError::Syntax(_))));
        let told = unreadable_notice(&LoadError::Version(9), true);
        assert_eq!(
            told,
            "Your saved game could not be read: a newer version of this page saved it, so a \
             new game has started. It is kept aside in this browser's storage as \
             \"othello-zero/v1-unreadable\"."
        );
        let syntax = unreadable_notice(&LoadError::Syntax("key must be a string".into()), true);
        assert!(syntax.starts_with("Your saved game could not be read, so a new game"));
        assert!(!syntax.contains("key must") && !syntax.contains("readable:"));
        assert!(!unreadable_notice(&LoadError::Version(9), false).contains("kept"));
        let good = save(
            &new_game(BoardSize::Eight, Variant::Standard, Seats::AgentVsAgent),
            &Settings::default(),
            &Estimates::default(),
            &Reviews::default(),
        );
        let future = good.replace("\"version\":1", "\"version\":9");
        assert_eq!(load(&future), Err(LoadError::Version(9)));
        let illegal = good.replace("\"moves\":\"\"", "\"moves\":\"a1\"");
        assert!(matches!(load(&illegal), Err(LoadError::Invalid(_))));
    }

    #[test]
    fn the_graphs_estimates_of_the_game_and_its_redo_moves_survive() {
        let s = f5_d6_with_c3_to_redo();
        let whole = line(&s);
        assert_eq!(whole.len(), 4, "the start, then after f5, d6 and c3 (redo)");
        let guess = |black_win: f32| Estimate {
            black_win,
            black_discs: Some(2.0),
            exact: false,
            margin_at_least: false,
        };
        let mut estimates = Estimates::default();
        estimates.record(whole[0].hash(), guess(0.5));
        estimates.record(whole[3].hash(), guess(0.7));
        // A position of another game is not the graph's business.
        estimates.record(
            Position::start(BoardSize::Six, Variant::Standard).hash(),
            guess(0.1),
        );
        let (_, _, back, _) = load(&save(
            &s,
            &Settings::default(),
            &estimates,
            &Reviews::default(),
        ))
        .expect("loads");
        assert_eq!(back.get(whole[0].hash()), Some(guess(0.5)));
        assert_eq!(back.get(whole[1].hash()), None);
        assert_eq!(back.get(whole[3].hash()), Some(guess(0.7)));
        assert_eq!(
            back.get(Position::start(BoardSize::Six, Variant::Standard).hash()),
            None
        );
        // A save from before the graph was kept loads with an empty one.
        let old = save(
            &s,
            &Settings::default(),
            &Estimates::default(),
            &Reviews::default(),
        )
        .replace(",\"graph\":[null,null,null,null]", "");
        assert!(!old.contains("graph"), "{old}");
        assert_eq!(load(&old).expect("loads").2, Estimates::default());
    }

    #[test]
    fn the_review_of_the_game_and_its_redo_moves_survives() {
        let mut s = new_game(
            BoardSize::Eight,
            Variant::Standard,
            Seats::Human(Color::Black),
        );
        s = apply(&s, mv("f5", BoardSize::Eight));
        s = apply(&s, Action::SetSeats(Seats::Analysis));
        s = apply(&s, mv("d6", BoardSize::Eight));
        s = apply(&s, Action::Undo);
        let whole = line(&s);
        let review = |played: &str, loss: f32| ReviewedMove {
            side: Color::Black,
            played: Move::parse(played, BoardSize::Eight).expect("a move"),
            value: Some(-loss),
            value_exact: false,
            best: Move::parse("f5", BoardSize::Eight).expect("a move"),
            best_value: Some(0.0),
            best_exact: false,
            loss,
            line: vec![Move::parse("f5", BoardSize::Eight).expect("a move")],
            best_is_bound: false,
            loss_between_estimates: false,
            line_searched: false,
            line_from_window: false,
        };
        let mut reviews = Reviews::default();
        reviews.record(whole[0].hash(), review("f5", 0.0));
        reviews.record(whole[1].hash(), review("d6", 3.0));
        reviews.set_judged(Some("Judged at 400 simulations a position.".into()));
        let text = save(&s, &Settings::default(), &Estimates::default(), &reviews);
        let (_, _, _, back) = load(&text).expect("loads");
        assert_eq!(back, reviews);
        // A save from before reviews were kept loads without one.
        let old = text
            .split(",\"review\"")
            .next()
            .expect("a prefix")
            .to_owned()
            + "}";
        assert_eq!(load(&old).expect("loads").3, Reviews::default());
        // A review saved before the best line was kept loads with none.
        let mut json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        for review in json["review"].as_array_mut().expect("reviews") {
            review
                .as_object_mut()
                .and_then(|r| r.remove("line"))
                .expect("a line");
        }
        let back = load(&json.to_string()).expect("loads").3;
        let f5 = Move::parse("f5", BoardSize::Eight).expect("a move");
        assert_eq!(back.get(whole[0].hash(), f5).map(|r| r.line), Some(vec![]));
    }

    #[test]
    fn the_record_a_game_came_in_survives_and_older_saves_have_none() {
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let text = "(;GM[Othello]PB[Ann]PW[Bob]DT[2026.11.25]TI[05:00//02:00]TY[8]\
                    B[f5//1.23]W[d6/-2/0.5]B[c3];)";
        let record: GgfGame = text.parse().expect("a record");
        let s = apply(
            &new_game(BoardSize::Eight, Variant::Standard, Seats::Analysis),
            Action::Replace {
                record: record.clone(),
                seats: Seats::Analysis,
            },
        );
        let s = apply(&s, Action::Undo);
        let saved = save(
            &s,
            &Settings::default(),
            &Estimates::default(),
            &Reviews::default(),
        );
        let (back, _, _, _) = load(&saved).expect("loads");
        assert_eq!(back, s);
        assert_eq!(back.record, Some(record));
        let json = |state: &GameState| -> serde_json::Value {
            serde_json::from_str(&save(
                state,
                &Settings::default(),
                &Estimates::default(),
                &Reviews::default(),
            ))
            .expect("JSON")
        };
        // A game begun here saves none, and a save without one loads with none.
        let begun = GameState::new(start, Seats::Analysis);
        assert!(json(&begun).get("record").is_none());
        let mut old = json(&s);
        old.as_object_mut()
            .and_then(|o| o.remove("record"))
            .expect("a record");
        assert_eq!(load(&old.to_string()).expect("loads").0.record, None);
    }

    #[test]
    fn the_game_put_aside_survives_with_its_review_and_older_saves_have_none() {
        // Issue 68: a game put aside by a pasted one was lost, with "Bring it back", on a
        // reload.
        let aside = f5_d6_with_c3_to_redo();
        let whole = line(&aside);
        let review = ReviewedMove {
            side: Color::Black,
            played: Move::parse("f5", BoardSize::Eight).expect("a move"),
            value: Some(0.5),
            value_exact: false,
            best: Move::parse("f5", BoardSize::Eight).expect("a move"),
            best_value: Some(0.5),
            best_exact: false,
            loss: 0.0,
            line: vec![],
            best_is_bound: false,
            loss_between_estimates: false,
            line_searched: false,
            line_from_window: false,
        };
        let mut aside_reviews = Reviews::default();
        aside_reviews.record(whole[0].hash(), review);
        let mut estimates = Estimates::default();
        let guess = Estimate {
            black_win: 0.6,
            black_discs: Some(1.0),
            exact: false,
            margin_at_least: false,
        };
        estimates.record(whole[2].hash(), guess);
        let board = new_game(BoardSize::Six, Variant::Standard, Seats::Analysis);
        let text = save_with_aside(
            &board,
            &Settings::default(),
            (&Estimates::default(), &Reviews::default()),
            Some((&aside, &estimates, &aside_reviews)),
            &[],
        );
        let (back, _, back_estimates, back_reviews) = load(&text).expect("loads");
        assert_eq!(back, board);
        assert!(back_reviews.is_empty());
        // The graph is each game's own: the board's has none of the game put aside's.
        assert_eq!(back_estimates.get(whole[2].hash()), None);
        let back_aside = load_aside(&text).expect("the game put aside");
        let (aside_estimates, back_aside_reviews) = &back_aside.kept;
        assert_eq!(back_aside.game, aside);
        assert_eq!(*back_aside_reviews, aside_reviews);
        assert_eq!(aside_estimates.get(whole[2].hash()), Some(guess));
        // A save without one (older, or with none put aside) has none.
        let plain = save(
            &board,
            &Settings::default(),
            &estimates,
            &Reviews::default(),
        );
        assert!(!plain.contains("aside"), "{plain}");
        assert_eq!(load_aside(&plain), None);
        assert!(back_aside.earlier.is_empty());
        // The games put aside before it come back too, in their order (the tenth look lost
        // one when a second game was put aside).
        let earlier = [
            new_game(BoardSize::Eight, Variant::Standard, Seats::Analysis),
            aside.clone(),
        ];
        let all = save_with_aside(
            &board,
            &Settings::default(),
            (&Estimates::default(), &Reviews::default()),
            Some((&aside, &estimates, &aside_reviews)),
            &earlier,
        );
        let back = load_aside(&all).expect("the game put aside");
        assert_eq!(back.earlier, earlier);
        assert_eq!(back.game, aside);
    }
}
