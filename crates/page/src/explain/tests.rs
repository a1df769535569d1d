use super::*;
use crate::pool::PoolEvent;
use crate::state::{apply, Action};
use crate::view::ViewAction;
use engine::report::MoveInfo;
use othello::{Game, GgfGame, Position};
use protocol::{SearchStat, SolvedStat};

fn mv(text: &str) -> Move {
    Move::parse(text, BoardSize::Eight).expect("a move")
}

pub(super) fn merged(value: f32, simulations: u64, elapsed_ms: f64) -> Merged {
    Merged {
        search: SearchStat {
            engine: EngineKind::Network,
            pv: vec![mv("d6"), mv("c3")],
            value,
            score: Some(-4.0),
            simulations,
            elapsed_ms,
            solved: None,
            book: None,
            proof: None,
        },
        moves: vec![MoveInfo {
            mv: mv("d6"),
            visits: u32::try_from(simulations).expect("a test's count"),
            prior: 1.0,
            target: 1.0,
            q: value,
            proof: None,
            bounds: None,
            score: None,
        }],
        per_worker_rate: vec![1.0],
        chosen: None,
    }
}

pub(super) fn heat(game: &GameState, purpose: Purpose, merged: Merged) -> Heat {
    Heat {
        stopped: false,
        position: game.position().hash(),
        purpose,
        side: game.position().side_to_move(),
        merged,
        done: false,
    }
}

/// The panel's words for one search shown in `role`, with no fallback player.
pub(super) fn summary_of(
    view: &View,
    game: &GameState,
    heat: &Heat,
    role: Role,
) -> Option<Summary> {
    search_summary(view, game, Some((heat, role)), None, Default::default())
}

/// The Strong level's budget: a second a move.
const STRONG: WireBudget = WireBudget {
    simulations: None,
    millis: Some(1000),
};

fn start(seats: Seats) -> GameState {
    GameState::new(Position::start(BoardSize::Eight, Variant::Standard), seats)
}

#[test]
fn the_status_says_whose_turn_and_the_result() {
    let game = start(Seats::Human(Color::White));
    assert_eq!(status_line(&game, false), "Loading the network…");
    assert_eq!(status_line(&game, true), "Black (the agent) is thinking…");
    let game = start(Seats::Human(Color::Black));
    assert_eq!(status_line(&game, true), "Black to move: your turn");
    // The agent's reply is named (the sixteenth look found it only as a ring on the board).
    let played = apply(&game, Action::Play(mv("f5")));
    let reply = Action::AgentMove {
        position: played.position().hash(),
        mv: mv("d6"),
    };
    assert_eq!(status_line(&played, true), "White (the agent) is thinking…");
    let replied = apply(&played, reply);
    assert_eq!(
        status_line(&replied, true),
        "White (the agent) played d6. Black to move: your turn"
    );
    assert_eq!(
        status_line(&start(Seats::Analysis), true),
        "Analysis: Black to move"
    );
    let over = Position::from_board_text(&format!("{} X", "X".repeat(64)), Variant::Standard)
        .expect("a full board");
    let game = GameState::new(over, Seats::Human(Color::Black));
    assert!(status_line(&game, true).ends_with("You win!"));
}

#[test]
fn the_opening_is_named_as_the_moves_are_played_and_taken_back() {
    let mut game = start(Seats::Analysis);
    let mut lines = vec![opening_line(&game.game)];
    for text in ["f5", "d6", "c3", "d3", "c4"] {
        game = apply(&game, Action::Play(mv(text)));
        lines.push(opening_line(&game.game));
    }
    let perpendicular = Some("Opening: Perpendicular Opening".to_owned());
    assert_eq!(
        lines,
        [
            None,
            None,
            perpendicular.clone(),
            perpendicular.clone(),
            perpendicular.clone(),
            Some("Opening: Tiger".to_owned()),
        ]
    );
    assert!(may_name_opening(&game.game));
    let back = apply(&game, Action::Undo);
    assert_eq!(opening_line(&back.game), perpendicular);
    assert_eq!(opening_line(&apply(&game, Action::PlayFrom(0)).game), None);
    // Only standard 8x8 games have named openings.
    let mut reversed = GameState::new(
        Position::start(BoardSize::Eight, Variant::Reversed),
        Seats::Analysis,
    );
    for text in ["f5", "d6", "c3", "d3", "c4"] {
        reversed = apply(&reversed, Action::Play(mv(text)));
    }
    assert_eq!(reversed.game.moves().len(), 5);
    assert_eq!(opening_line(&reversed.game), None);
    assert!(!may_name_opening(&reversed.game));
    let six = GameState::new(
        Position::start(BoardSize::Six, Variant::Standard),
        Seats::Analysis,
    );
    assert!(!may_name_opening(&six.game));
}

#[test]
fn repeated_passes_are_one_sentence_a_side_with_a_count() {
    use Color::{Black, White};
    assert_eq!(
        pass_counts(&[Black, Black, White, Black]),
        vec![(Black, 3), (White, 1)]
    );
    assert_eq!(
        pass_sentence("Black (you)", 4),
        "Black (you) had no legal move and passed 4 times."
    );
    assert_eq!(
        pass_sentence("White", 2),
        "White had no legal move and passed twice."
    );
}

#[test]
fn the_persons_pass_is_announced_until_they_place_a_disc() {
    // Black has no move after these 18 moves (the browser tests load the same game).
    let transcript = "e6d6c4d3c7b5d2e2f2f1b3d7d8g2h2h3a6h1";
    let game = Game::from_transcript(
        transcript,
        Position::start(BoardSize::Eight, Variant::Standard),
    )
    .expect("legal");
    let state = GameState::from_game(game, Seats::Human(Color::Black));
    let notice = "Black (you) had no legal move and passed.";
    assert_eq!(pass_notice(&state).as_deref(), Some(notice));
    let reply = state.position().legal_move_list()[0];
    let state = apply(
        &state,
        Action::AgentMove {
            position: state.position().hash(),
            mv: reply,
        },
    );
    assert!(state.human_to_move());
    assert_eq!(pass_notice(&state).as_deref(), Some(notice));
    // The agent's move since is said after it, so that the pass is not read as a second.
    assert_eq!(
        after_pass(&state),
        Some(format!("White played {reply}: your turn."))
    );
    let own = state.position().legal_move_list()[0];
    let state = apply(&state, Action::Play(own));
    assert!(pass_notice(&state).is_none_or(|n| !n.contains("Black (you)")));
}

#[test]
fn estimates_are_for_the_persons_colour_whoever_is_to_move() {
    let game = apply(&start(Seats::Human(Color::Black)), Action::Play(mv("f5")));
    // White (the agent) to move thinks it stands at 75%, 4 discs down.
    let h = heat(&game, Purpose::Move, merged(0.5, 1200, 1000.0));
    let view = View::default();
    let s = summary_of(&view, &game, &h, Role::Thinking).expect("a summary");
    assert_eq!(
        s.verdict.as_deref(),
        // "≈": an estimate, in the page's one rule for numbers (issue 68; "+4" before).
        Some(
            "For Black (you): 25% chance to win, expected result ≈\u{202f}+4 discs; \
             chance and margin disagree, so both are weak here"
        )
    );
    assert_eq!(s.kind, "thinking");
    // The rate is the count over the time shown.
    assert_eq!(s.rate, 1200.0);
    assert_eq!(
        s.speed.as_deref(),
        Some("1,200 simulations in 1 s: 1,200 per second on 1 worker")
    );
    let mut solved = merged(1.0, 0, 30.0);
    solved.search.solved = Some(SolvedStat {
        best: mv("d6"),
        margin: 12,
        exact: true,
        nodes: 1000,
        micros: 30_000,
    });
    let h = heat(&game, Purpose::Move, solved);
    let s = summary_of(&view, &game, &h, Role::Thinking).expect("a summary");
    assert_eq!(
        s.verdict.as_deref(),
        Some("Proven loss by 12 for Black (you), solved exactly: that is the result after d6 by White, and no move of White's does better")
    );
    // Where the budget allowed only the result (a win for White, by at least 2).
    let mut proven = merged(1.0, 0, 30.0);
    proven.search.solved = Some(SolvedStat {
        best: mv("d6"),
        margin: 2,
        exact: false,
        nodes: 1000,
        micros: 30_000,
    });
    // A loss the root solve proved for White, who searches on.
    let mut lost = merged(1.0, 400, 30.0);
    lost.search.proof = Some(engine::report::Proof::Loss);
    let h = heat(&game, Purpose::Move, lost);
    let l = summary_of(&view, &game, &h, Role::Thinking).expect("a summary");
    assert_eq!(
        l.verdict.as_deref(),
        Some("Proven win for Black (you): White plays on for the best practical chance")
    );
    let h = heat(&game, Purpose::Move, proven);
    let p = summary_of(&view, &game, &h, Role::Thinking).expect("a summary");
    assert_eq!(
        p.verdict.as_deref(),
        Some("Proven loss by at least 2 for Black (you), not solved exactly: that is the result after d6 by White, but the best margin was not reached in the time, so d6 may not be White's best move")
    );
    // The solver's own work, not "0 simulations in 0 s: 0 per second".
    assert_eq!(
        s.speed.as_deref(),
        Some("The endgame solver: 1,000 positions in 30 ms: 33,333 per second")
    );
}

#[test]
fn a_search_too_short_to_time_gives_no_speed() {
    let game = apply(&start(Seats::Human(Color::Black)), Action::Play(mv("f5")));
    let view = View::default();
    // A game's last move, solved in a millisecond: no rate made of it (issue 68's fourth
    // look: "8 positions in 1 ms: 8,000,000 per second").
    let mut quick = merged(1.0, 0, 1.0);
    quick.search.solved = Some(SolvedStat {
        best: mv("d6"),
        margin: 12,
        exact: true,
        nodes: 8,
        micros: 1_000,
    });
    // A second and a bit: the rate is the count over the time shown, one form of it
    // (issue 68, eighth look: "6,000,033 positions in 1 s: 5,982,683 per second").
    let mut long = quick.clone();
    long.search.solved = long.search.solved.map(|s| SolvedStat {
        nodes: 6_000_033,
        micros: 1_003_000,
        ..s
    });
    let h = heat(&game, Purpose::Move, long);
    let l = summary_of(&view, &game, &h, Role::Past).expect("a summary");
    assert_eq!(
        l.speed.as_deref(),
        Some("The endgame solver: 6,000,033 positions in 1.00 s: 6,000,033 per second")
    );
    let h = heat(&game, Purpose::Move, quick);
    let q = summary_of(&view, &game, &h, Role::Past).expect("a summary");
    assert_eq!(
        q.speed.as_deref(),
        Some("The endgame solver: 8 positions in 1 ms: too short a solve to give a speed")
    );
    // A search of 100 simulations in 2 ms: no speed made of it (issue 62's fifth finding:
    // "62,500 per second"), and no guess at why it was fast: a fresh Club search runs at
    // 57,000 a second in a worker, so a rate cannot tell kept values from new ones.
    let h = heat(&game, Purpose::Move, merged(0.5, 100, 1.9));
    let s = summary_of(&view, &game, &h, Role::Past).expect("a summary");
    assert_eq!(
        s.speed.as_deref(),
        Some("100 simulations in 2 ms: too short a search to give a speed")
    );
    let h = heat(&game, Purpose::Move, merged(0.5, 100, 4.0));
    let s = summary_of(&view, &game, &h, Role::Past).expect("a summary");
    assert_eq!(
        s.speed.as_deref(),
        Some("100 simulations in 4 ms: too short a search to give a speed")
    );
    let h = heat(&game, Purpose::Move, merged(0.5, 100, 25.0));
    let s = summary_of(&view, &game, &h, Role::Past).expect("a summary");
    assert_eq!(
        s.speed.as_deref(),
        Some("100 simulations in 25 ms: 4,000 per second on 1 worker")
    );
}

#[test]
fn the_agents_past_search_names_the_move_it_played() {
    let game = apply(&start(Seats::Human(Color::Black)), Action::Play(mv("f5")));
    let h = heat(&game, Purpose::Move, merged(0.0, 100, 100.0));
    let answered = apply(
        &game,
        Action::AgentMove {
            position: game.position().hash(),
            mv: mv("d6"),
        },
    );
    let s = summary_of(&View::default(), &answered, &h, Role::Past).expect("a summary");
    assert_eq!(s.heading, "The agent's last search, before it played d6");
    assert_eq!(s.kind, "past");
    assert!(s.verdict.is_some());
    // A move played without a search (a single legal move) shows no estimate: the
    // network's prior of 50% is not one.
    let none = heat(&game, Purpose::Move, merged(0.0, 0, 0.0));
    let s = summary_of(&View::default(), &answered, &none, Role::Past).expect("a summary");
    assert_eq!(s.verdict, None);
    assert_eq!(s.pv, None);
    assert_eq!(
        s.speed.as_deref(),
        Some("No search: it was the only legal move.")
    );
    // Its heading names no search that chose it (issue 68, eighth look: "The agent's last
    // search, before it played b1" over "No search").
    assert_eq!(s.heading, "The agent played d6, the only legal move");
    // An analysis of it says so alone, no "finished (100 simulations; …)" above it.
    let mut analysed = heat(&answered, Purpose::Analysis, merged(0.0, 0, 0.0));
    analysed.done = true;
    let s = summary_of(&View::default(), &answered, &analysed, Role::Analysis).expect("a summary");
    assert_eq!(s.heading, format!("Analysis of {} to move", analysed.side));
    assert_eq!(
        s.speed.as_deref(),
        Some("No search: it was the only legal move.")
    );
}

#[test]
fn the_alpha_beta_fallback_says_what_plays_and_for_how_long() {
    let game = GameState::new(
        Position::start(BoardSize::Six, Variant::Reversed),
        Seats::Human(Color::White),
    );
    let view = View::default().apply(ViewAction::Started(
        Purpose::Move,
        game.position().hash(),
        Color::Black,
        0,
    ));
    let casual = Difficulty::Level("casual".into());
    let (line, strength) = opponent_lines(
        &view,
        game.seats,
        BoardSize::Six,
        Variant::Reversed,
        &casual,
    );
    // Before its network's load has started, a board with a network says it is coming
    // (issue 68: this said "the classic alpha-beta player ... (no network plays 6x6
    // reversed yet)", as the header did for the first moments of every visit).
    assert_eq!(line, "Loading the az-6x6-reversed network…");
    assert_eq!(strength, None);
    let player: PlayerSpec = "alphabeta".parse().expect("a spec");
    let s = search_summary(&view, &game, None, Some(&player), casual.budget()).expect("thinking");
    assert_eq!(s.heading, "Alpha-beta is thinking (up to 0.2 s per move)…");
    // The difficulty says it too, and a custom 250 ms budget reads as 0.25 s.
    assert_eq!(
        level_note(Some(&player), casual.budget()).as_deref(),
        Some("On this board the classic alpha-beta player plays instead, up to 0.2 s per move.")
    );
    let quarter = Difficulty::Millis(250).budget();
    assert_eq!(
        level_note(Some(&player), quarter).as_deref(),
        Some("On this board the classic alpha-beta player plays instead, up to 0.25 s per move.")
    );
    let network: PlayerSpec = "mcts:model=az-8x8".parse().expect("a spec");
    assert_eq!(level_note(Some(&network), casual.budget()), None);
}

#[test]
fn the_opponent_is_the_network_at_the_chosen_level_with_its_measured_strength() {
    let view = View::default()
        .apply(ViewAction::Pool(PoolEvent::ModelLoaded {
            name: "az-8x8".into(),
            size: BoardSize::Eight,
            variant: Variant::Standard,
        }))
        .apply(ViewAction::Strength(
            "az-8x8".into(),
            "Measured: strong.".into(),
        ));
    let (line, strength) = opponent_lines(
        &view,
        Seats::Human(Color::Black),
        BoardSize::Eight,
        Variant::Standard,
        &Difficulty::Level("club".into()),
    );
    assert_eq!(
        line,
        "Opponent: the az-8x8 network, Club: 400 simulations per move"
    );
    assert_eq!(
        strength.as_deref(),
        Some("Measured: strong. You play it now at Club, 400 simulations per move.")
    );
}

#[test]
fn a_record_has_the_players_the_result_and_the_moves() {
    let game = apply(&start(Seats::Human(Color::White)), Action::PlayFrom(0));
    let record = game_record(&game, "the az-8x8 network");
    assert!(
        record.contains("Players: White: you; Black: the az-8x8 network"),
        "{record}"
    );
    assert!(record.contains("Result: unfinished"), "{record}");
    assert!(
        record.starts_with("Othello Zero game, 8x8 standard"),
        "{record}"
    );
}

#[test]
fn the_network_without_search_says_what_it_chose_and_its_own_estimate() {
    let game = apply(&start(Seats::Human(Color::Black)), Action::Play(mv("f5")));
    let mut instinct = merged(0.2, 0, 3.0);
    instinct.search.engine = EngineKind::Instinct;
    instinct.chosen = Some(mv("d6"));
    // The network reports each of White's three legal moves.
    for other in ["f4", "f6"] {
        let mut info = instinct.moves[0].clone();
        (info.mv, info.prior) = (mv(other), 0.1);
        instinct.moves.push(info);
    }
    let only = {
        let mut only = instinct.clone();
        only.moves.truncate(1);
        only
    };
    let h = heat(&game, Purpose::Move, instinct);
    let s = summary_of(&View::default(), &game, &h, Role::Thinking).expect("a summary");
    assert_eq!(s.heading, "The network without search chooses d6");
    // A lone legal move is said as every level says it, with no estimate (the ninth look:
    // "chose b8 … ≈ −45 discs" for a forced last move whose result was fixed at −34).
    let h = heat(&game, Purpose::Move, only);
    let forced = summary_of(&View::default(), &game, &h, Role::Past).expect("a summary");
    assert_eq!(forced.heading, "The agent played d6, the only legal move");
    assert_eq!(forced.verdict, None);
    assert_eq!(
        forced.speed.as_deref(),
        Some("No search: it was the only legal move.")
    );
    // White's value of 0.2 is Black's 40%.
    assert_eq!(
        s.verdict.as_deref(),
        // "≈": an estimate, in the page's one rule for numbers (issue 68; "+4" before).
        Some(
            "For Black (you): 40% chance to win, expected result ≈\u{202f}+4 discs; \
             chance and margin disagree, so both are weak here"
        )
    );
    assert_eq!(
        s.speed.as_deref(),
        Some("No search: one look by the network.")
    );
}

#[test]
fn analysis_says_its_budget_and_when_it_has_finished() {
    let game = start(Seats::Analysis);
    let view = View::default();
    let strong = STRONG;
    let mut shown = heat(&game, Purpose::Analysis, merged(0.1, 800, 500.0));
    let running = search_summary(&view, &game, Some((&shown, Role::Analysis)), None, strong)
        .expect("a summary");
    assert_eq!(
        running.heading,
        "Analysis of Black to move: searching (1 s)…"
    );
    // Past its time, still running: the solver finishing a proof says so.
    let over = heat(&game, Purpose::Analysis, merged(0.1, 800, 4200.0));
    let over = search_summary(&view, &game, Some((&over, Role::Analysis)), None, strong)
        .expect("a summary");
    assert_eq!(
        over.heading,
        "Analysis of Black to move: proving the result exactly, past the 1 s asked (4.2 s so far)…"
    );
    shown.done = true;
    let done = search_summary(&view, &game, Some((&shown, Role::Analysis)), None, strong)
        .expect("a summary");
    // Half its time: the search stopped early (the solver settled it), and says so.
    assert_eq!(
        done.heading,
        "Analysis of Black to move: finished in 500 ms (of up to 1 s)"
    );
    let spent = heat(&game, Purpose::Analysis, merged(0.1, 800, 1000.0));
    let spent = Heat {
        done: true,
        ..spent
    };
    let heading = |budget| {
        search_summary(&view, &game, Some((&spent, Role::Analysis)), None, budget)
            .expect("a summary")
            .heading
    };
    assert_eq!(
        heading(strong),
        "Analysis of Black to move: finished (1 s; a higher level looks longer)"
    );
    // Strongest is the top level: no higher level to point to.
    let strongest = WireBudget {
        simulations: None,
        millis: Some(5000),
    };
    let early = Heat {
        done: true,
        ..heat(&game, Purpose::Analysis, merged(0.1, 800, 650.0))
    };
    let early = search_summary(
        &view,
        &game,
        Some((&early, Role::Analysis)),
        None,
        strongest,
    )
    .expect("a summary");
    assert_eq!(
        early.heading,
        "Analysis of Black to move: finished in 650 ms (of up to 5 s)"
    );
    let full = Heat {
        done: true,
        ..heat(&game, Purpose::Analysis, merged(0.1, 800, 5000.0))
    };
    let full = search_summary(&view, &game, Some((&full, Role::Analysis)), None, strongest)
        .expect("a summary");
    assert_eq!(full.heading, "Analysis of Black to move: finished (5 s)");
}

#[test]
fn an_analysis_the_solver_settled_names_no_budget() {
    let game = start(Seats::Analysis);
    let view = View::default();
    let strong = STRONG;
    // Solved exactly: no budget was spent on it, so none is named (the twelfth look:
    // "finished (100 simulations)" over a solve).
    let mut solved = merged(0.1, 0, 12.0);
    solved.search.solved = Some(SolvedStat {
        best: Move::Pass,
        margin: 4,
        exact: true,
        nodes: 1000,
        micros: 12_000,
    });
    let solved = Heat {
        done: true,
        ..heat(&game, Purpose::Analysis, solved)
    };
    let solved = search_summary(&view, &game, Some((&solved, Role::Analysis)), None, strong)
        .expect("a summary");
    assert_eq!(
        solved.heading,
        "Analysis of Black to move: finished: solved exactly in 12 ms"
    );
    // In the solver's own time, the one its speed line gives (the sixteenth look: 17 ms
    // over 15 ms).
    let mut later = merged(0.1, 0, 17.0);
    let stat = SolvedStat {
        best: Move::Pass,
        margin: 4,
        exact: true,
        nodes: 187_183,
        micros: 15_200,
    };
    later.search.solved = Some(stat);
    let heading = |m: Merged| {
        let h = Heat {
            done: true,
            ..heat(&game, Purpose::Analysis, m)
        };
        search_summary(&view, &game, Some((&h, Role::Analysis)), None, strong)
            .expect("a summary")
            .heading
    };
    assert!(heading(later.clone()).ends_with("solved exactly in 15 ms"));
    // A bound the solver proved with no simulation beside it is said as such, not as the
    // level's spent budget (the sixteenth look: "finished (400 simulations; a higher level
    // looks longer)" over 10,000,010 positions solved).
    later.search.solved = Some(SolvedStat {
        exact: false,
        micros: 1_440_000,
        ..stat
    });
    assert_eq!(
        heading(later.clone()),
        "Analysis of Black to move: finished: the endgame solver proved a bound in 1.44 s, \
         not the exact result"
    );
    // Beside a search, the search's budget is what was spent.
    later.search.simulations = 400;
    assert!(!heading(later).contains("bound"));
}

#[test]
fn an_analysis_the_person_stopped_says_so() {
    let game = start(Seats::Analysis);
    let view = View::default();
    let strongest = WireBudget {
        simulations: None,
        millis: Some(5000),
    };
    // Stopped by the person: said so, not "finished" (issue 68).
    let stopped = Heat {
        done: true,
        stopped: true,
        ..heat(&game, Purpose::Analysis, merged(0.1, 800, 1880.0))
    };
    let stopped = search_summary(
        &view,
        &game,
        Some((&stopped, Role::Analysis)),
        None,
        strongest,
    )
    .expect("a summary");
    assert_eq!(
        stopped.heading,
        "Analysis of Black to move: stopped after 1.88 s (of up to 5 s), with what it had found"
    );
}

#[test]
fn browsing_names_the_move_shown_and_where_the_game_is() {
    let mut game = start(Seats::Human(Color::Black));
    for (action, agent) in [("f5", false), ("d6", true), ("c3", false), ("d3", true)] {
        game = if agent {
            apply(
                &game,
                Action::AgentMove {
                    position: game.position().hash(),
                    mv: mv(action),
                },
            )
        } else {
            apply(&game, Action::Play(mv(action)))
        };
    }
    assert_eq!(
        browse_line(&game, 3).as_deref(),
        Some(
            "You are looking at an earlier position, after move 3, c3 by Black (you): the game \
             itself is at move 4."
        )
    );
    assert_eq!(
        browse_line(&game, 0).as_deref(),
        Some("You are looking at the start position: the game itself is at move 4.")
    );
    let back = apply(&game, Action::PlayFrom(2));
    assert_eq!(
        browse_line(&back, 3).as_deref(),
        Some(
            "You are looking at a later position, after move 3, c3 by Black (you): the game \
             itself is at move 2."
        )
    );
}

/// A random 60-move game that ends with Black passing six times while White plays its
/// last seven moves (the browser tests load it too).
pub(super) const ENDS_WITH_PASSES: &str = "f5f6d3c3e6f4g7c2e3d7d2d6g6h8c8c4c5h7f3e1c6f2g1c7g4g3d1c1b7h5f7a8b1a1b5e7f8a5a7b6b4a6h4b8e2g2h6b3b2g8a3d8h2e8g5a2f1h3a4h1";

#[test]
fn no_pass_is_announced_once_the_game_is_over() {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let mut game = Game::from_transcript(ENDS_WITH_PASSES, start).expect("legal");
    let over = GameState::from_game(game.clone(), Seats::Human(Color::Black));
    assert!(over.position().is_game_over());
    assert_eq!(pass_notice(&over), None);
    // One move earlier the passes are still news: White (the agent) is to play h1.
    game.pop();
    let before = GameState::from_game(game, Seats::Human(Color::Black));
    assert_eq!(
        pass_notice(&before).as_deref(),
        Some("Black (you) had no legal move and passed 6 times.")
    );
}

#[test]
fn the_opening_is_named_under_the_board_during_the_opening_only() {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let game = Game::from_transcript(ENDS_WITH_PASSES, start).expect("legal");
    let diagonal = Some("Opening: Diagonal Opening".to_owned());
    assert_eq!(opening_line(&game), diagonal, "the move list keeps it");
    assert_eq!(board_opening_line(&game), None, "at move 60");
    let mut early = game.clone();
    while early.moves().len() > OPENING_PLIES {
        early.pop();
    }
    assert!(board_opening_line(&early).is_some());
    assert_eq!(board_opening_line(&early), opening_line(&early));
}

#[test]
fn the_discard_question_counts_moves_in_words() {
    assert_eq!(
        set_aside_line(1, false),
        "The game in progress (1 move) was put aside for this one."
    );
    assert_eq!(
        set_aside_line(60, true),
        "The finished game (60 moves) was put aside for this one."
    );
    assert_eq!(
        discard_question(1),
        "Discard the game in progress (1 move)? It cannot be got back."
    );
    assert!(discard_question(12).starts_with("Discard the game in progress (12 moves)?"));
}

#[test]
fn a_paused_watch_game_says_so_and_how_to_go_on() {
    let watching = start(Seats::AgentVsAgent);
    assert_eq!(
        paused_line(&watching),
        "Paused: Black (the agent) is to move. Press Resume to go on."
    );
}

#[test]
fn a_book_move_is_headed_as_a_book_move_not_a_search() {
    let game = apply(&start(Seats::Human(Color::Black)), Action::Play(mv("f5")));
    let mut book = merged(0.0, 0, 0.0);
    book.search.book = Some(protocol::BookStat {
        best: mv("d6"),
        value: 0.0,
        moves: vec![],
    });
    let h = heat(&game, Purpose::Move, book);
    let answered = apply(
        &game,
        Action::AgentMove {
            position: game.position().hash(),
            mv: mv("d6"),
        },
    );
    let s = summary_of(&View::default(), &answered, &h, Role::Past).expect("a summary");
    assert_eq!(
        s.heading,
        "The agent's last move, d6, came from its opening book"
    );
}

#[test]
fn a_loaded_records_players_are_named_where_a_side_is_named() {
    let record: othello::GgfGame = "(;GM[Othello]PB[Saio1200]PW[Saio3000]TY[8]B[f5]W[d6];)"
        .parse()
        .expect("a record");
    let state = GameState::from_record(record, Seats::Analysis);
    assert_eq!(who(&state, Color::White), "White (Saio3000)");
    let text = game_record(&state, "the az-8x8 network");
    assert!(
        text.contains("Players: Black: Saio1200; White: Saio3000"),
        "{text}"
    );
    // Played on with another move, it is no longer their game: the side alone.
    let on = apply(&state, Action::Play(mv("c3")));
    assert_eq!(who(&on, Color::Black), "Black");
}

#[test]
fn a_move_that_is_not_the_lines_first_is_said_where_the_line_is_shown() {
    // The agent played f4 after f5, where the line shown starts d6 (issue 68: the panel
    // showed a line starting elsewhere than the move played, without a word).
    let game = apply(&start(Seats::Human(Color::Black)), Action::Play(mv("f5")));
    let h = heat(&game, Purpose::Move, merged(0.0, 100, 100.0));
    let played = |mv_text: &str| {
        apply(
            &game,
            Action::AgentMove {
                position: game.position().hash(),
                mv: mv(mv_text),
            },
        )
    };
    let s = summary_of(&View::default(), &played("f4"), &h, Role::Past).expect("a summary");
    assert_eq!(
        s.pv.as_deref(),
        Some(
            "Principal variation: d6 c3. It played f4, not this line's first move: this line \
             follows the search's most visited moves, which start with d6."
        )
    );
    // Several workers: the move is theirs together, the line one worker's.
    let mut several = merged(0.0, 100, 100.0);
    several.per_worker_rate = vec![1.0, 1.0];
    let note = line_note(&several, mv("f4"), true).expect("a note");
    assert!(note.contains("all 2 workers' visits added up"), "{note}");
    // The line's own first move needs no word.
    let s = summary_of(&View::default(), &played("d6"), &h, Role::Past).expect("a summary");
    assert_eq!(s.pv.as_deref(), Some("Principal variation: d6 c3"));
}

#[test]
fn a_search_that_went_on_from_a_kept_tree_says_so() {
    // Issue 68: an analysis after a hint read "400 simulations in 1 ms", the hint's 400
    // visits in its tree taken for its own work.
    let mut went_on = merged(0.1, 400, 1.0);
    went_on.moves[0].visits = 800;
    assert_eq!(
        kept_note(&went_on).as_deref(),
        Some(
            "Those simulations and the rate are this search's own: it went on from 400 \
             visits an earlier search left in its tree, 800 in all, which the chances and \
             visits above include"
        )
    );
    // The rate is the search's own simulations over its time, not the tree's visits.
    assert_eq!(
        went_on.simulations_per_second(),
        went_on.search.simulations as f64 * 1000.0 / went_on.search.elapsed_ms
    );
    // A search of its own, a root visit short of its count as a fresh tree is.
    let mut fresh = merged(0.1, 400, 1.0);
    fresh.moves[0].visits = 399;
    assert_eq!(kept_note(&fresh), None);
}

#[test]
fn an_analysis_speaks_for_the_side_to_move_as_its_squares_do() {
    // Issue 68: an analysis with White to move said "Proven win by 24 for Black" beside
    // squares reading "-24" under a legend "for White".
    let game = apply(&start(Seats::Analysis), Action::Play(mv("f5")));
    assert_eq!(game.position().side_to_move(), Color::White);
    let mut solved = merged(-1.0, 0, 30.0);
    solved.search.solved = Some(SolvedStat {
        best: mv("d6"),
        margin: -24,
        exact: true,
        nodes: 1000,
        micros: 30_000,
    });
    let h = heat(&game, Purpose::Analysis, solved);
    let s = summary_of(&View::default(), &game, &h, Role::Analysis).expect("a summary");
    assert_eq!(
        s.verdict.as_deref(),
        Some("Proven loss by 24 for White, solved exactly: that is the result after d6 by White, and no move of White's does better")
    );
    // An estimate too: White's view, as the squares' margins are.
    let h = heat(&game, Purpose::Analysis, merged(0.5, 1200, 1000.0));
    let s = summary_of(&View::default(), &game, &h, Role::Analysis).expect("a summary");
    assert!(
        s.verdict
            .as_deref()
            .is_some_and(|v| v.starts_with("For White: 75%")),
        "{:?}",
        s.verdict
    );
}

#[test]
fn the_header_names_the_reviews_budget_beside_the_level_played() {
    // Issue 68: "Analysis by: …, Instinct (policy): no search" beside "Judged at 100
    // simulations a position".
    let line = "Analysis by: the pattern-8x8 network, Instinct (policy): no search, the move \
                the network's first impression favours"
        .to_owned();
    let said = with_review(line.clone(), Some(100));
    assert!(
        said.ends_with("favours; this game's review at 100 simulations a position"),
        "{said}"
    );
    assert_eq!(said.matches(':').count(), 2, "{said}");
    assert_eq!(with_review(line.clone(), None), line);
    let loading = "Loading the pattern-8x8 network…".to_owned();
    assert_eq!(with_review(loading.clone(), Some(100)), loading);
}

#[test]
fn the_proving_note_goes_once_the_result_is_proven_and_says_the_search_slows() {
    // 20 empties, Black to move: within the solver's reach at a timed level.
    let pos = Position::from_board_text(
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
        Variant::Standard,
    )
    .expect("a position");
    let budget = STRONG;
    let searching = merged(0.9, 400, 100.0);
    let note = proving_note(&searching, &pos, budget).expect("within reach");
    assert!(
        note.contains("runs slower while the solver works"),
        "{note}"
    );
    // Proven a win, its margin unknown: no "until it does ... estimates" beneath it.
    let mut proven = merged(0.9, 400, 100.0);
    proven.search.proof = Some(Proof::Win);
    assert_eq!(proving_note(&proven, &pos, budget), None);
}

#[test]
fn a_finished_game_looked_back_at_says_it_looks_back_and_how_it_ended() {
    // Issue 68, eighth look: "Game over: draw 32-32." stood beside move 20's board.
    let over = Position::from_board_text(&format!("{} X", "X".repeat(64)), Variant::Standard)
        .expect("a full board");
    let game = GameState::new(over, Seats::Analysis);
    assert_eq!(
        looking_line(&game),
        "Looking back (read only): the game itself ended at move 0: Black wins 64-0 (margin 64)."
    );
    assert_eq!(
        looking_line(&start(Seats::Analysis)),
        "Looking back (read only): the game itself is at move 0, Black to move."
    );
}

#[test]
fn a_phone_gives_a_proofs_claim_without_its_reasons_and_any_other_verdict_whole() {
    let e4 = Move::parse("e4", othello::BoardSize::Eight).expect("a square");
    let bound = SolvedStat {
        best: e4,
        margin: 12,
        exact: false,
        nodes: 1,
        micros: 1,
    };
    let panel = proven_verdict(bound, Color::White, "Black (you)", -1);
    assert!(panel.len() > 140, "{panel}");
    assert_eq!(
        phone_copy(&panel),
        "Proven loss by at least 12 for Black (you), not solved exactly"
    );
    let exact = proven_verdict(
        SolvedStat {
            exact: true,
            ..bound
        },
        Color::White,
        "White",
        1,
    );
    assert_eq!(
        phone_copy(&exact),
        "Proven win by 12 for White, solved exactly"
    );
    let chance = "For Black (you): 42% chance to win, expected result ~-2 discs";
    assert_eq!(phone_copy(chance), chance);
}

#[test]
fn a_review_names_no_one_for_the_moves_a_loaded_game_brought() {
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let transcript = |t: &str| GgfGame::new(Game::from_transcript(t, start).expect("legal"));
    // Begun here: you and the agent.
    let here = GameState::new(start, Seats::Human(Color::Black));
    assert_eq!(
        review_names(&here),
        (
            "Black (you)".to_owned(),
            "White (the agent)".to_owned(),
            None
        )
    );
    // A pasted transcript, then played on here: its moves were nobody's here.
    let mut pasted = GameState::from_record(transcript("f5d6c3d3"), Seats::Human(Color::Black));
    let reply = pasted.position().legal_move_list()[0];
    pasted.play_human(reply).expect("Black to move");
    let (black, white, note) = review_names(&pasted);
    assert_eq!((black.as_str(), white.as_str()), ("Black", "White"));
    assert!(
        note.as_deref()
            .is_some_and(|n| n.starts_with("Moves 1 to 4 came with the loaded game")),
        "{note:?}"
    );
    // A record that names its players, still theirs: named.
    let mut named = transcript("f5d6c3");
    named.black = Some("Saio1200".to_owned());
    named.white = Some("Saio3000".to_owned());
    let record = GameState::from_record(named, Seats::Human(Color::Black));
    assert_eq!(review_names(&record).0, "Black (Saio1200)");
}

#[test]
fn the_pages_own_record_loads_back_as_the_same_game() {
    use crate::state::game_from_transcript;
    use othello::{BoardSize, Variant};
    // The eleventh look: the page refused its own "Download the record" file. A game whose
    // passes the transcript leaves implied, a game from an edited position, and a reversed
    // 6x6 game each come back with their start and moves.
    let passes = crate::test_support::game_ending_in_passes();
    let edited = Position::from_board_text(
        "--------------------------XXX-----OXO-----O--------------------- O",
        Variant::Standard,
    )
    .expect("a position");
    let mut from_edited = Game::new(edited);
    from_edited
        .push(edited.legal_move_list()[0])
        .expect("legal");
    let mut six = Game::new(Position::start(BoardSize::Six, Variant::Reversed));
    for _ in 0..3 {
        let first = six.position().legal_move_list()[0];
        six.push(first).expect("legal");
    }
    for game in [passes, from_edited, six] {
        let state = GameState::from_game(game.clone(), Seats::Human(Color::Black));
        let text = game_record(&state, "the az-8x8 network");
        // Loaded on any board: the record says its own.
        let back = game_from_transcript(&text, BoardSize::Eight, Variant::Standard)
            .unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(back.start(), game.start(), "{text}");
        assert_eq!(back.moves(), game.moves(), "{text}");
    }
    // A record spoiled on its way says what is wrong, once.
    let spoiled = "Othello Zero game, 8x8 standard\nStart: XXO X\nMoves: f5\n";
    assert_eq!(
        game_from_transcript(spoiled, BoardSize::Eight, Variant::Standard),
        Err(
            "this Othello Zero record cannot be read: its start position cannot be read: \
             board text has 3 squares; expected 64 (8x8), 36 (6x6) or 16 (4x4)"
                .to_owned()
        )
    );
    let no_moves = "Othello Zero game, 8x8 standard\nStart: ---------------------------OX------XO--------------------------- X\n";
    assert_eq!(
        game_from_transcript(no_moves, BoardSize::Eight, Variant::Standard),
        Err("this Othello Zero record cannot be read: it has no \"Moves:\" line".to_owned())
    );
}
