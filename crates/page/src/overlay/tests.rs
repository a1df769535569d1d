use super::*;
use crate::merge::Merged;
use crate::pool::PoolEvent;
use crate::review::ReviewState;
use crate::state::{apply, Action, Seats};
use crate::test_support::{agent, merged};
use crate::view::ViewAction;
use engine::review::{MoveReview, Value};
use othello::{BoardSize, Color, Position, Variant};

fn mv(text: &str) -> Move {
    Move::parse(text, BoardSize::Eight).expect("a move")
}

fn sq(text: &str) -> Option<Square> {
    mv(text).square()
}

/// The view after a search of `position` for `purpose` reported `merged` (finished or
/// not).
fn searched(purpose: Purpose, position: u64, merged: Merged, done: bool) -> View {
    let view = View::default().apply(ViewAction::Started(purpose, position, Color::White, 0));
    let event = if done {
        PoolEvent::Done {
            purpose,
            position,
            merged,
        }
    } else {
        PoolEvent::Progress {
            purpose,
            position,
            merged,
        }
    };
    view.apply(ViewAction::Pool(event))
}

fn as_black() -> GameState {
    GameState::new(
        Position::start(BoardSize::Eight, Variant::Standard),
        Seats::Human(Color::Black),
    )
}

/// The 8x8 game after the person's f5, the agent (White) to move.
fn after_f5() -> GameState {
    apply(&as_black(), Action::Play(mv("f5")))
}

fn nothing_on(showing: Showing) -> BoardOverlay {
    BoardOverlay {
        showing,
        tiles: Tiles::None,
        marked: None,
        played: None,
    }
}

#[test]
fn the_live_search_draws_its_visit_shares_and_the_toggle_hides_them() {
    let f5 = after_f5();
    let view = searched(Purpose::Move, f5.position().hash(), merged("d6"), false);
    assert_eq!(
        panel_search(&view, &f5).map(|(_, r)| r),
        Some(Role::Thinking)
    );
    let overlay = board_overlay(&f5, None, &view, true);
    assert_eq!(overlay.showing, Showing::Game);
    assert_eq!(
        overlay.tiles,
        Tiles::Shares {
            tiles: view.heat.as_ref().expect("a report").merged.heat_tiles(),
            best: Some(mv("d6")),
        }
    );
    assert_eq!((overlay.marked, overlay.played), (None, None));
    assert_eq!(
        board_overlay(&f5, None, &view, false),
        nothing_on(Showing::Game),
        "the toggle hides the board's tiles"
    );
}

#[test]
fn the_agents_past_search_stays_in_the_panel_dimmed_and_off_the_board() {
    let f5 = after_f5();
    let view = searched(Purpose::Move, f5.position().hash(), merged("d6"), true);
    let answered = agent(&f5, "d6");
    assert_eq!(
        panel_search(&view, &answered).map(|(_, r)| r),
        Some(Role::Past)
    );
    assert_eq!(
        board_overlay(&answered, None, &view, true),
        nothing_on(Showing::Game),
        "no tiles on the person's turn"
    );
}

#[test]
fn a_new_move_or_a_new_game_leaves_the_last_search_behind() {
    let f5 = after_f5();
    let view = searched(Purpose::Move, f5.position().hash(), merged("d6"), true);
    let moved_on = apply(&agent(&f5, "d6"), Action::Play(mv("c3")));
    assert_eq!(panel_search(&view, &moved_on), None);
    assert_eq!(
        board_overlay(&moved_on, None, &view, true),
        nothing_on(Showing::Game)
    );
    let fresh = apply(
        &f5,
        Action::NewGame {
            size: BoardSize::Eight,
            variant: Variant::Standard,
            seats: Seats::Human(Color::Black),
        },
    );
    assert_eq!(panel_search(&view, &fresh), None);
    assert_eq!(
        board_overlay(&fresh, None, &view, true),
        nothing_on(Showing::Game)
    );
}

#[test]
fn the_heat_map_stays_after_the_agents_move_until_the_person_moves() {
    let s = after_f5();
    let searched = s.position().hash();
    assert!(heat_visible(&s, searched));
    let s = agent(&s, "d6");
    assert!(heat_visible(&s, searched));
    let s = apply(&s, Action::Play(mv("c3")));
    assert!(!heat_visible(&s, searched));
}

#[test]
fn a_stale_search_of_another_position_shows_nowhere() {
    let game = as_black();
    let view = searched(Purpose::Analysis, 7, merged("d3"), false);
    assert!(view.heat.is_some());
    assert_eq!(panel_search(&view, &game), None);
    assert_eq!(
        board_overlay(&game, None, &view, true),
        nothing_on(Showing::Game)
    );
    // Nor does a hint's marker for another position.
    let hinted = searched(Purpose::Hint, 7, merged("d3"), true);
    assert!(hinted.hint.is_some());
    assert_eq!(
        board_overlay(&game, None, &hinted, true),
        nothing_on(Showing::Game)
    );
}

#[test]
fn a_hint_ranks_every_legal_move_and_marks_its_best() {
    let game = as_black();
    let here = game.position().hash();
    let view = searched(Purpose::Hint, here, merged("d3"), true);
    assert_eq!(panel_search(&view, &game).map(|(_, r)| r), Some(Role::Hint));
    let overlay = board_overlay(&game, None, &view, true);
    let Tiles::Ranked { tiles, best } = &overlay.tiles else {
        panic!("a hint ranks its moves: {overlay:?}");
    };
    assert_eq!(*best, Some(mv("d3")));
    assert_eq!(tiles.len(), game.position().legal_move_list().len());
    // The only move searched is the search's choice, green, its number its chance; the
    // three it never tried are unranked.
    let d3 = tiles.iter().find(|t| t.mv == mv("d3")).expect("d3's tile");
    assert_eq!((d3.label.as_str(), d3.strength), ("60%", 1.0));
    assert_eq!(tiles.iter().filter(|t| t.strength < 0.0).count(), 3);
    assert_eq!(overlay.marked, sq("d3"));
    // Without the heat map the marker stays, alone.
    assert_eq!(
        board_overlay(&game, None, &view, false),
        BoardOverlay {
            marked: sq("d3"),
            ..nothing_on(Showing::Game)
        }
    );
}

#[test]
fn a_solved_hint_is_drawn_on_the_board_without_simulations() {
    let game = as_black();
    let mut solved = merged("d3");
    solved.search.simulations = 0;
    solved.search.solved = Some(protocol::SolvedStat {
        best: mv("d3"),
        margin: 4,
        exact: true,
        nodes: 100,
        micros: 10,
    });
    let view = searched(Purpose::Hint, game.position().hash(), solved, true);
    let overlay = board_overlay(&game, None, &view, true);
    assert!(
        matches!(&overlay.tiles, Tiles::Ranked { tiles, .. } if !tiles.is_empty()),
        "{overlay:?}"
    );
}

#[test]
fn a_search_without_simulations_of_its_own_draws_no_tiles() {
    let game = as_black();
    let mut idle = merged("d3");
    idle.search.simulations = 0;
    let view = searched(Purpose::Analysis, game.position().hash(), idle, false);
    assert_eq!(
        panel_search(&view, &game).map(|(_, r)| r),
        Some(Role::Analysis)
    );
    assert_eq!(
        board_overlay(&game, None, &view, true),
        nothing_on(Showing::Game)
    );
}

#[test]
fn a_reviewed_move_shows_its_position_with_the_played_and_best_moves() {
    let game = agent(&after_f5(), "d6");
    let review = protocol::ReviewedMove::from_engine(&MoveReview::new(
        Color::White,
        (mv("d6"), Value::estimate(-2.0)),
        (mv("f6"), Value::estimate(1.0)),
    ));
    let mut reviews = crate::review::Reviews::default();
    reviews.record(game.game.positions()[1].hash(), review.clone());
    let state = ReviewState::with(3, reviews);
    let view = View {
        review: state,
        ..searched(Purpose::Move, game.position().hash(), merged("c3"), false)
    }
    .apply(ViewAction::ReviewFocus(Some((3, 1))));
    assert_eq!(
        board_overlay(&game, None, &view, true),
        BoardOverlay {
            showing: Showing::Reviewed(1),
            tiles: Tiles::Ranked {
                tiles: focus_tiles(&review, game.position().size()),
                best: Some(mv("f6")),
            },
            marked: sq("f6"),
            played: sq("d6"),
        }
    );
    // A row of another game's move, or none, is no review on the board.
    let unfocused = view.apply(ViewAction::ReviewFocus(Some((3, 0))));
    assert_eq!(
        board_overlay(&game, None, &unfocused, true).showing,
        Showing::Game
    );
    // Nor is another game's review of the same move.
    let elsewhere = view.apply(ViewAction::ReviewFocus(Some((4, 1))));
    assert_eq!(
        board_overlay(&game, None, &elsewhere, true).showing,
        Showing::Game
    );
}

#[test]
fn a_browsed_move_and_the_editor_draw_nothing_over_their_positions() {
    let f5 = after_f5();
    let view = searched(Purpose::Move, f5.position().hash(), merged("d6"), false);
    assert_eq!(
        board_overlay(&f5, Some(0), &view, true),
        nothing_on(Showing::Browsed(0))
    );
    let editing = view.apply(ViewAction::Edit(crate::editor::EditAction::Open(
        *f5.position(),
    )));
    assert_eq!(
        board_overlay(&f5, None, &editing, true),
        nothing_on(Showing::Editor)
    );
}

#[test]
fn a_new_search_of_a_position_does_not_show_the_last_ones_figures() {
    let f5 = after_f5();
    let here = f5.position().hash();
    let finished = searched(Purpose::Move, here, merged("d6"), true).apply(ViewAction::Stopped);
    assert_eq!(
        panel_search(&finished, &agent(&f5, "d6")).map(|(_, r)| r),
        Some(Role::Past)
    );
    // f5 undone and played again: the agent is to move here once more, and until the new
    // search starts (the frames before the page sends it) the last one's figures do not
    // stand under the thinking heading, nor its tiles on the board.
    assert_eq!(panel_search(&finished, &f5), None);
    assert_eq!(
        board_overlay(&f5, None, &finished, true),
        nothing_on(Showing::Game)
    );
    // The same position searched again: nothing shows until the new search reports.
    let again = finished.apply(ViewAction::Started(Purpose::Move, here, Color::White, 0));
    assert_eq!(panel_search(&again, &f5), None);
    assert_eq!(
        board_overlay(&f5, None, &again, true),
        nothing_on(Showing::Game)
    );
    // Another purpose's search elsewhere leaves the panel as it was.
    let other = finished.apply(ViewAction::Started(Purpose::Hint, 7, Color::Black, 0));
    assert!(other.heat.is_some());
}

#[test]
fn a_hints_strengths_are_spread_from_the_worst_move_to_the_best() {
    let tile = |strength: f32| Tile {
        mv: Move::Pass,
        strength,
        label: format!("{:.0}%", strength * 100.0),
        aria: String::new(),
        kind: TileKind::Chance,
    };
    let untried = Tile {
        label: "?".to_owned(),
        ..tile(0.0)
    };
    let mut tiles = vec![tile(0.11), tile(0.19), untried, tile(0.15)];
    spread(&mut tiles);
    let strengths: Vec<f32> = tiles.iter().map(|t| t.strength).collect();
    assert_eq!(strengths[0], 0.0);
    assert_eq!(strengths[1], 1.0);
    assert!(
        strengths[2] < 0.0,
        "an untried move is not ranked: {strengths:?}"
    );
    assert!((strengths[3] - 0.5).abs() < 1e-5, "{strengths:?}");
    let mut even = vec![tile(0.5), tile(0.5)];
    spread(&mut even);
    assert_eq!(even[0].strength, 0.5);
    // Squares that read the same are drawn alike, whatever the search's fractions behind
    // them; the others still span the scale.
    let read = |label: &str, strength: f32| Tile {
        label: label.to_owned(),
        ..tile(strength)
    };
    let mut first = vec![
        read("≈\u{202f}+1", 0.51),
        read("≈\u{202f}+1", 0.54),
        read("≈\u{202f}+1", 0.52),
        read("≈\u{202f}+1", 0.53),
    ];
    spread(&mut first);
    assert!(
        first.windows(2).all(|w| w[0].strength == w[1].strength),
        "{:?}",
        first.iter().map(|t| t.strength).collect::<Vec<_>>()
    );
    let mut mixed = vec![
        read("≈\u{202f}0", 0.50),
        read("≈\u{202f}\u{2212}1", 0.47),
        read("≈\u{202f}0", 0.49),
    ];
    spread(&mut mixed);
    let strengths: Vec<f32> = mixed.iter().map(|t| t.strength).collect();
    assert_eq!(strengths, vec![1.0, 0.0, 1.0]);
}

fn tile_of(kind: TileKind, label: &str) -> Tile {
    Tile {
        mv: Move::Pass,
        strength: 0.5,
        label: label.to_owned(),
        aria: String::new(),
        kind,
    }
}

/// The squares while the agent thinks: shares of its visits.
fn agent_shares() -> Tiles {
    Tiles::Shares {
        tiles: vec![tile_of(TileKind::Share, "72%")],
        best: None,
    }
}

/// The squares of a hint: an exact margin, an estimate and a move not searched.
fn hint_margins() -> Tiles {
    Tiles::Ranked {
        tiles: vec![
            tile_of(TileKind::Exact, "+4"),
            tile_of(TileKind::Estimate, "≈\u{202f}+2"),
            tile_of(TileKind::Unsearched, "?"),
        ],
        best: None,
    }
}

#[test]
fn the_legend_says_what_the_numbers_on_the_squares_are_and_for_whom() {
    assert_eq!(legend(&Tiles::None, "Black (you)"), None);
    let shares = agent_shares();
    let said = legend(&shares, "Black (you)").expect("a legend");
    assert!(said.contains("share of the search"), "{said}");
    assert!(said.contains("not a chance to win"), "{said}");
    let hint = hint_margins();
    let said = legend(&hint, "Black (you)").expect("a legend");
    assert!(
        said.starts_with("On the squares: the final disc margin for Black (you) after each"),
        "{said}"
    );
    for part in [
        "a number alone is exact",
        "≈ before it: the search's estimate",
        "? not searched",
    ] {
        assert!(said.contains(part), "{part} in {said}");
    }
    assert!(!said.contains("at least"), "no bound on the board: {said}");
    // The colours are the search's order, not the numbers (the ninth look read "+34"
    // drawn red beside "+30" orange as one of them wrong).
    assert!(
        said.contains("coloured by the search's order, green its choice:"),
        "{said}"
    );
    // A book hint's tiles are the book's moves only, and the line says so.
    let book = Tiles::Ranked {
        tiles: vec![tile_of(TileKind::Book, "≈\u{202f}0")],
        best: None,
    };
    let said = legend(&book, "Black (you)").expect("a legend");
    assert!(said.contains("after each move it holds"), "{said}");
    // No longer than a search hint's line, which fits the two lines kept under the board
    // (a third moved the status and the buttons at a game's first hint).
    let searched = Tiles::Ranked {
        tiles: vec![tile_of(TileKind::Estimate, "≈\u{202f}−16")],
        best: None,
    };
    let search_said = legend(&searched, "Black (you)").expect("a legend");
    assert!(
        said.chars().count() <= search_said.chars().count(),
        "{said} | {search_said}"
    );
    let bound = Tiles::Ranked {
        tiles: vec![tile_of(TileKind::Bound, "≥+2")],
        best: None,
    };
    assert!(legend(&bound, "White")
        .expect("a legend")
        .contains("≥ before it: at least"));
}

#[test]
fn the_panel_waits_while_the_board_shows_another_position_than_the_games() {
    let game = as_black();
    let view = searched(
        Purpose::Analysis,
        game.position().hash(),
        merged("d3"),
        true,
    );
    assert_eq!(
        panel_beside(&view, &game, None).map(|(_, r)| r),
        Some(Role::Analysis)
    );
    // A move looked at: the analysis is of the game's position, not the board's.
    let played = apply(&game, Action::Play(mv("d3")));
    let view = searched(
        Purpose::Analysis,
        played.position().hash(),
        merged("c3"),
        true,
    );
    assert!(panel_beside(&view, &played, None).is_some());
    assert!(panel_beside(&view, &played, Some(0)).is_none());
}

/// A search whose two heads disagree, as a reversed network's can: d3, the most visited
/// (visits follow the value head), has the smaller margin (the score head's).
fn heads_disagree() -> Merged {
    let mut merged = merged("d3");
    let c4 = engine::report::MoveInfo {
        mv: mv("c4"),
        visits: 2,
        target: 0.2,
        q: 0.1,
        score: Some(6.0),
        ..merged.moves[0].clone()
    };
    merged.moves[0].score = Some(-3.0);
    merged.moves[0].target = 0.8;
    merged.moves.push(c4);
    merged
}

#[test]
fn a_hints_framed_move_is_its_greenest_square_whatever_the_margins_say() {
    let game = as_black();
    let view = searched(
        Purpose::Hint,
        game.position().hash(),
        heads_disagree(),
        true,
    );
    let Tiles::Ranked { tiles, best } = board_overlay(&game, None, &view, true).tiles else {
        panic!("a hint ranks its moves");
    };
    assert_eq!(best, Some(mv("d3")));
    let strength = |m: &str| tiles.iter().find(|t| t.mv == mv(m)).map(|t| t.strength);
    assert_eq!(strength("d3"), Some(1.0), "{tiles:?}");
    assert_eq!(strength("c4"), Some(0.0), "{tiles:?}");
    // The legend says what the colours rank: the search's order, not the margins.
    let said = legend(&Tiles::Ranked { tiles, best }, "Black (you)").expect("a legend");
    assert!(
        said.contains("the search's order, green its choice"),
        "{said}"
    );
}

#[test]
fn an_analysis_shows_margins_as_a_hint_does_and_never_says_so_far() {
    let game = as_black();
    let view = searched(
        Purpose::Analysis,
        game.position().hash(),
        heads_disagree(),
        true,
    );
    let overlay = board_overlay(&game, None, &view, true);
    let Tiles::Ranked { tiles, best } = &overlay.tiles else {
        panic!("an analysis ranks its moves as a hint does: {overlay:?}");
    };
    assert_eq!(*best, Some(mv("d3")));
    let labels: Vec<&str> = tiles.iter().map(|t| t.label.as_str()).collect();
    assert!(
        labels.contains(&"≈\u{202f}\u{2212}3") && labels.contains(&"≈\u{202f}+6"),
        "{labels:?}"
    );
    let said = legend(&overlay.tiles, "Black").expect("a legend");
    assert!(
        said.contains("final disc margin") && !said.contains("so far"),
        "{said}"
    );
    // The marker is a hint's alone.
    assert_eq!(overlay.marked, None);
}

#[test]
fn a_solved_positions_unsearched_squares_are_grey_and_its_one_exact_move_green() {
    // Issue 68: an analysis the solver settled showed its one exact move ("-24", the
    // search's choice) red among "?" squares, as if it were the worst.
    let game = GameState::new(
        Position::start(BoardSize::Eight, Variant::Standard),
        Seats::Analysis,
    );
    let mut solved = merged("d3");
    solved.moves.clear();
    solved.search.simulations = 0;
    solved.search.solved = Some(protocol::SolvedStat {
        best: mv("d3"),
        margin: -24,
        exact: true,
        nodes: 1000,
        micros: 1000,
    });
    let view = searched(Purpose::Analysis, game.position().hash(), solved, true);
    let Tiles::Ranked { tiles, best } = board_overlay(&game, None, &view, true).tiles else {
        panic!("an analysis ranks its moves");
    };
    assert_eq!(best, Some(mv("d3")));
    for tile in &tiles {
        if tile.mv == mv("d3") {
            assert_eq!((tile.label.as_str(), tile.strength), ("\u{2212}24", 1.0));
        } else {
            assert_eq!(tile.label, "?");
            assert!(tile.strength < 0.0, "a '?' square is grey: {tile:?}");
        }
    }
    assert_eq!(tiles.len(), 4);
}

#[test]
fn the_unit_badge_names_shares_or_discs() {
    // Issue 68: the squares switch from shares of visits to margins in discs with only a
    // caption's word to say so.
    let shares = agent_shares();
    assert_eq!(unit(&shares), Some("squares: % of visits"));
    let hint = hint_margins();
    assert_eq!(unit(&hint), Some("squares: discs"));
    let chances = Tiles::Ranked {
        tiles: vec![tile_of(TileKind::Chance, "62%")],
        best: None,
    };
    assert_eq!(unit(&chances), Some("squares: % chance to win"));
    assert_eq!(unit(&Tiles::None), None);
}
