use super::*;
use protocol::{EngineKind, SearchStat};

fn merged(best: &str) -> Merged {
    let mv = Move::parse(best, BoardSize::Eight).expect("a move");
    Merged {
        search: SearchStat {
            engine: EngineKind::Network,
            pv: vec![mv],
            value: 0.2,
            score: None,
            simulations: 10,
            elapsed_ms: 5.0,
            solved: None,
            book: None,
            proof: None,
        },
        moves: vec![engine::report::MoveInfo {
            mv,
            visits: 10,
            prior: 1.0,
            target: 1.0,
            q: 0.2,
            proof: None,
            bounds: None,
            score: None,
        }],
        per_worker_rate: vec![2000.0],
        chosen: None,
    }
}

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
    let view = View::default().apply(ViewAction::Started(Purpose::Hint, 7, Color::Black));
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
        .apply(ViewAction::Started(Purpose::Hint, 7, Color::Black))
        .apply(ViewAction::Pool(PoolEvent::Done {
            purpose: Purpose::Hint,
            position: 7,
            merged: merged("a2"),
        }));
    assert!(hinted.hint.is_some());
    // An analysis of the same position says its own best move.
    let analysed = hinted.apply(ViewAction::Started(Purpose::Analysis, 7, Color::Black));
    assert_eq!(analysed.hint, None);
    assert_eq!(hinted.apply(ViewAction::ForgetHint).hint, None);
}

#[test]
fn the_agents_past_search_stays_in_the_panel_and_off_the_board() {
    use crate::state::{apply, Action};
    let f5 = after_f5();
    let searched = f5.position().hash();
    let view = View::default()
        .apply(ViewAction::Started(Purpose::Move, searched, Color::White))
        .apply(ViewAction::Pool(PoolEvent::Progress {
            purpose: Purpose::Move,
            position: searched,
            merged: merged("d6"),
        }));
    let (panel, board) = shown(&view, &f5, true);
    assert_eq!(panel.map(|(_, r)| r), Some(Role::Thinking));
    assert!(board.is_some());
    assert!(
        shown(&view, &f5, false).1.is_none(),
        "the toggle hides the board's tiles"
    );
    let answered = apply(
        &f5,
        Action::AgentMove {
            position: searched,
            mv: Move::parse("d6", BoardSize::Eight).expect("a move"),
        },
    );
    let (panel, board) = shown(&view, &answered, true);
    assert_eq!(panel.map(|(_, r)| r), Some(Role::Past));
    assert!(board.is_none(), "no tiles on the person's turn");
    let moved_on = apply(
        &answered,
        Action::Play(Move::parse("c3", BoardSize::Eight).expect("a move")),
    );
    assert_eq!(shown(&view, &moved_on, true), (None, None));
}

#[test]
fn a_search_without_simulations_of_its_own_draws_no_tiles() {
    let mut idle = merged("d3");
    idle.search.simulations = 0;
    let view = View::default()
        .apply(ViewAction::Started(Purpose::Analysis, 1, Color::Black))
        .apply(ViewAction::Pool(PoolEvent::Progress {
            purpose: Purpose::Analysis,
            position: 1,
            merged: idle,
        }));
    let heat = view.heat.clone().expect("shown in the panel");
    assert!(heat.merged.tiles().is_empty());
}

#[test]
fn a_solved_hint_is_drawn_on_the_board_without_simulations() {
    use crate::state::Seats;
    let start = othello::Position::start(BoardSize::Eight, Variant::Standard);
    let game = GameState::new(start, Seats::Human(Color::Black));
    let mut solved = merged("d3");
    solved.search.simulations = 0;
    solved.search.solved = Some(protocol::SolvedStat {
        best: Move::parse("d3", BoardSize::Eight).expect("a move"),
        margin: 4,
        exact: true,
        nodes: 100,
        micros: 10,
    });
    let here = start.hash();
    let view = View::default()
        .apply(ViewAction::Started(Purpose::Hint, here, Color::Black))
        .apply(ViewAction::Pool(PoolEvent::Done {
            purpose: Purpose::Hint,
            position: here,
            merged: solved,
        }));
    assert!(shown(&view, &game, true).1.is_some());
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
fn a_hints_strengths_are_spread_from_the_worst_move_to_the_best() {
    let tile = |strength: f32| crate::merge::Tile {
        mv: Move::Pass,
        strength,
        label: format!("{:.0}%", strength * 100.0),
        aria: String::new(),
    };
    let untried = crate::merge::Tile {
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
fn a_new_search_of_a_position_does_not_show_the_last_ones_figures() {
    let f5 = after_f5();
    let searched = f5.position().hash();
    let finished = View::default()
        .apply(ViewAction::Started(Purpose::Move, searched, Color::White))
        .apply(ViewAction::Pool(PoolEvent::Done {
            purpose: Purpose::Move,
            position: searched,
            merged: merged("d6"),
        }))
        .apply(ViewAction::Stopped);
    assert!(shown(&finished, &f5, true).0.is_some());
    // The same position searched again (f5 undone and played again): nothing shows until
    // the new search reports.
    let again = finished.apply(ViewAction::Started(Purpose::Move, searched, Color::White));
    assert_eq!(shown(&again, &f5, true), (None, None));
    // Another purpose's search elsewhere leaves the panel as it was.
    let other = finished.apply(ViewAction::Started(Purpose::Hint, 7, Color::Black));
    assert!(other.heat.is_some());
}

/// The 8x8 game after the person's f5, the agent (White) to move.
fn after_f5() -> GameState {
    use crate::state::{apply, Action, Seats};
    let start = othello::Position::start(BoardSize::Eight, Variant::Standard);
    let game = GameState::new(start, Seats::Human(Color::Black));
    apply(
        &game,
        Action::Play(Move::parse("f5", BoardSize::Eight).expect("a move")),
    )
}
