use super::*;
use crate::test_support::merged;

fn loaded(view: &View, name: &str) -> View {
    view.apply(ViewAction::Pool(PoolEvent::ModelLoaded {
        name: name.into(),
        size: BoardSize::Eight,
        variant: Variant::Standard,
    }))
}

#[test]
fn the_player_is_the_loaded_network_or_alpha_beta_and_none_while_loading() {
    let view = View::default();
    assert_eq!(view.player(BoardSize::Eight, Variant::Standard), None);
    assert_eq!(view.player(BoardSize::Eight, Variant::Reversed), None);
    // A board without a shipped network (4x4, which the page does not offer).
    assert_eq!(
        view.player(BoardSize::Four, Variant::Standard)
            .map(|p| p.to_string()),
        Some("alphabeta".to_owned())
    );
    let view = loaded(&view, "az-8x8");
    assert_eq!(
        view.player(BoardSize::Eight, Variant::Standard)
            .map(|p| p.to_string()),
        Some("mcts:model=az-8x8".to_owned())
    );
}

#[test]
fn a_failed_search_retires_the_network_for_its_board() {
    let view = loaded(&View::default(), "az-8x8").apply(ViewAction::Pool(PoolEvent::Failed {
        purpose: Purpose::Move,
        position: 1,
        size: BoardSize::Eight,
        variant: Variant::Standard,
        error: "broken".into(),
    }));
    assert_eq!(
        view.player(BoardSize::Eight, Variant::Standard)
            .map(|p| p.kind),
        Some(PlayerKind::AlphaBeta)
    );
    assert_eq!(view.message.as_deref(), Some("The search failed: broken"));
}

#[test]
fn reports_of_a_replaced_search_are_dropped_and_a_hint_is_kept() {
    let view = View::default().apply(ViewAction::Started(Purpose::Hint, 7, Color::Black, 0));
    let stale = view.apply(ViewAction::Pool(PoolEvent::Progress {
        purpose: Purpose::Hint,
        position: 8,
        merged: merged("d3"),
    }));
    assert_eq!(stale.heat, None);
    let done = view.apply(ViewAction::Pool(PoolEvent::Done {
        purpose: Purpose::Hint,
        position: 7,
        merged: merged("d3"),
    }));
    assert!(done.heat.as_ref().is_some_and(|h| h.done));
    assert_eq!(
        done.hint,
        Some((7, Move::parse("d3", BoardSize::Eight).expect("a move")))
    );
}

#[test]
fn a_new_search_or_a_changed_game_takes_the_hints_marker_away() {
    let hinted = View::default()
        .apply(ViewAction::Started(Purpose::Hint, 7, Color::Black, 0))
        .apply(ViewAction::Pool(PoolEvent::Done {
            purpose: Purpose::Hint,
            position: 7,
            merged: merged("a2"),
        }));
    assert!(hinted.hint.is_some());
    // An analysis of the same position says its own best move.
    let analysed = hinted.apply(ViewAction::Started(Purpose::Analysis, 7, Color::Black, 0));
    assert_eq!(analysed.hint, None);
    assert_eq!(hinted.apply(ViewAction::ForgetHint).hint, None);
}

#[test]
fn a_search_without_simulations_of_its_own_draws_no_tiles() {
    let mut idle = merged("d3");
    idle.search.simulations = 0;
    let view = View::default()
        .apply(ViewAction::Started(Purpose::Analysis, 1, Color::Black, 0))
        .apply(ViewAction::Pool(PoolEvent::Progress {
            purpose: Purpose::Analysis,
            position: 1,
            merged: idle,
        }));
    let heat = view.heat.clone().expect("shown in the panel");
    assert!(heat.merged.tiles().is_empty());
}

#[test]
fn a_rejected_builtin_network_leaves_its_board_to_alpha_beta_and_a_load_clears_it() {
    let view = View::default()
        .apply(ViewAction::Model(
            BoardSize::Eight,
            Variant::Standard,
            ModelStatus::Loading("az-8x8".into()),
        ))
        .apply(ViewAction::Pool(PoolEvent::ModelRejected {
            name: "az-8x8".into(),
            error: "not an ONNX file".into(),
        }));
    assert_eq!(
        view.player(BoardSize::Eight, Variant::Standard)
            .map(|p| p.kind),
        Some(PlayerKind::AlphaBeta)
    );
    assert!(view
        .message
        .as_ref()
        .is_some_and(|m| m.contains("not an ONNX file")));
    assert_eq!(loaded(&view, "az-8x8").message, None);
}

#[test]
fn a_note_is_news_until_a_problem_replaces_it() {
    let view = View::default().apply(ViewAction::Note("Started from opening 3".into()));
    assert!(view.message_is_note);
    let refused = view.apply(ViewAction::Pool(PoolEvent::ModelRejected {
        name: "mine".into(),
        error: "not an ONNX file".into(),
    }));
    assert!(!refused.message_is_note);
    let cleared = view.apply(ViewAction::Message(None));
    assert_eq!((cleared.message, cleared.message_is_note), (None, false));
}

#[test]
fn a_downloads_progress_is_said_while_its_network_loads() {
    let view = View::default()
        .apply(ViewAction::Model(
            BoardSize::Six,
            Variant::Standard,
            ModelStatus::Loading("az-6x6".into()),
        ))
        .apply(ViewAction::Downloading(Download {
            name: "az-6x6".into(),
            received: 120 * 1024,
            total: Some(330 * 1024 + 5),
        }));
    assert_eq!(
        view.download_progress("az-6x6").as_deref(),
        Some("120 KB of 331 KB")
    );
    assert_eq!(view.download_progress("az-8x8"), None);
    // Every byte in while the worker builds the network: not "331 KB of 331 KB".
    let downloaded = view.clone().apply(ViewAction::Downloading(Download {
        name: "az-6x6".into(),
        received: 330 * 1024 + 5,
        total: Some(330 * 1024 + 5),
    }));
    assert_eq!(
        downloaded.download_progress("az-6x6").as_deref(),
        Some("all 331 KB downloaded, getting it ready")
    );
    let compressed = view.apply(ViewAction::Downloading(Download {
        name: "az-6x6".into(),
        received: 1000,
        total: None,
    }));
    assert_eq!(
        compressed.download_progress("az-6x6").as_deref(),
        Some("1 KB so far")
    );
    let loaded = compressed.apply(ViewAction::Pool(PoolEvent::ModelLoaded {
        name: "az-6x6".into(),
        size: BoardSize::Six,
        variant: Variant::Standard,
    }));
    assert_eq!(loaded.download_progress("az-6x6"), None);
}

#[test]
fn a_question_the_same_searcher_asked_before_is_known_as_such() {
    // Issue 68: an analysis after a hint of the same position ran in 1 ms on the values the
    // hint's searcher kept, and its speed line did not say why.
    let ask = |view: View, purpose, spec: &str| {
        view.apply(ViewAction::Started(purpose, 7, Color::Black, 0))
            .apply(ViewAction::Asked(7, spec.to_owned()))
    };
    let hint = ask(View::default(), Purpose::Hint, "mcts sims=400");
    assert_eq!(hint.asked_again, None);
    let again = ask(hint.clone(), Purpose::Analysis, "mcts sims=400");
    assert_eq!(again.asked_again, Some(7));
    assert_eq!(
        ask(hint, Purpose::Analysis, "mcts sims=1600").asked_again,
        None
    );
    // The agent's move is no question: it ends the mark.
    let moved = again.apply(ViewAction::Started(Purpose::Move, 7, Color::Black, 0));
    assert_eq!(moved.asked_again, None);
}

#[test]
fn a_games_searches_are_its_own_and_another_game_through_the_same_position_has_none() {
    // Issue 68: a record loaded after a game's searches drew them on its graph ("2. c3
    // (White): Black 46% to win, ~-2 discs") where nobody had searched it.
    let searched = View::default()
        .apply(ViewAction::Started(Purpose::Move, 7, Color::Black, 3))
        .apply(ViewAction::Pool(PoolEvent::Done {
            purpose: Purpose::Move,
            position: 7,
            merged: merged("d3"),
        }));
    assert!(searched.estimates.of(3).get(7).is_some());
    assert_eq!(searched.estimates.of(4).get(7), None, "another game's");
    // The same position searched again for the other game is that game's, and the first
    // keeps its own.
    let again = searched
        .apply(ViewAction::Started(Purpose::Hint, 7, Color::Black, 4))
        .apply(ViewAction::Pool(PoolEvent::Progress {
            purpose: Purpose::Hint,
            position: 7,
            merged: merged("c4"),
        }));
    assert!(again.estimates.of(4).get(7).is_some());
    assert_eq!(again.estimates.of(3), searched.estimates.of(3));
}

#[test]
fn the_live_point_is_the_game_searched_for_alone() {
    let game = GameState::new(
        othello::Position::start(BoardSize::Eight, Variant::Standard),
        crate::state::Seats::Human(Color::White),
    );
    let here = game.position().hash();
    let view = View::default()
        .apply(ViewAction::Started(Purpose::Move, here, Color::Black, 1))
        .apply(ViewAction::Pool(PoolEvent::Progress {
            purpose: Purpose::Move,
            position: here,
            merged: merged("d3"),
        }));
    assert!(live_estimate(&view, &game, 1).is_some());
    assert_eq!(live_estimate(&view, &game, 2), None);
}
