use super::*;
use crate::test_support::random_6x6_choice;
use crate::{Rng, RootRule, Solver};

fn parse(text: &str) -> PlayerSpec {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn specs_print_back_to_text_that_parses_to_the_same_spec() {
    for text in [
        "random",
        "greedy",
        "novice",
        "heuristic",
        "heuristic:seed=4",
        "alphabeta:depth=4",
        "alphabeta:time=100",
        "alphabeta:depth=6,time=250,seed=2",
        "mcts:sims=1000",
        "mcts:time=500",
        "mcts:sims=800,time=50,c=1.2,seed=9",
        "mcts:model=models/az-8x8.onnx,sims=800,solver=10",
        "mcts:model=net.onnx,time=100,c=2,solver=0,seed=1",
        "mcts:model=net.onnx,sims=10,exact=20",
        "mcts:model=net.onnx,time=250,prove=22",
        "mcts:sims=400,noise=0.3,playouts=1",
        "mcts:model=net.onnx,sims=32,gumbel=16,cscale=1",
        "uct:sims=1000,c=1.4",
        "policy:model=models/az-8x8.onnx",
        "value:model=net.onnx,seed=2",
    ] {
        let spec = parse(text);
        assert_eq!(spec.to_string(), text);
        assert_eq!(parse(&spec.to_string()), spec);
    }
}

#[test]
fn options_land_in_their_typed_fields() {
    let spec = parse("mcts:sims=800,time=50,c=0.7,seed=3");
    assert_eq!(spec.kind, PlayerKind::Mcts);
    assert_eq!(spec.sims, Some(800));
    assert_eq!(spec.time_ms, Some(50));
    assert_eq!(spec.c, Some(0.7));
    assert_eq!(spec.seed, Some(3));
    assert_eq!(
        spec.budget(),
        Budget {
            depth: None,
            simulations: Some(800),
            time: Some(Duration::from_millis(50)),
        }
    );
    assert_eq!(parse("alphabeta:depth=4").budget(), Budget::depth(4));
    assert!(parse("greedy").budget().is_unlimited());
}

#[test]
fn a_game_clock_and_the_early_stop_reach_the_search_settings() {
    let spec = parse("mcts:time_game=7.5,early_stop=0");
    let config = spec.mcts_config(1);
    assert_eq!(config.game_time, Some(Duration::from_millis(7_500)));
    assert!(!config.stops_early());
    // By default only a game's clock stops early: a time per move would lose what it saves.
    assert!(parse("mcts:time_game=7.5").mcts_config(1).stops_early());
    assert!(!parse("mcts:time=250").mcts_config(1).stops_early());
    assert!(parse("mcts:time=250,early_stop=1")
        .mcts_config(1)
        .stops_early());
    assert_eq!(parse("mcts").mcts_config(1).game_time, None);
    // Searching on when unsure follows the clock the same way, and has its own switch.
    assert!(parse("mcts:time_game=7.5")
        .mcts_config(1)
        .extends_when_unsure());
    assert!(!parse("mcts:time_game=7.5,extend=0")
        .mcts_config(1)
        .extends_when_unsure());
    assert!(!parse("mcts:time=250").mcts_config(1).extends_when_unsure());
    let extended = parse("mcts:time=250,extend=1");
    assert!(extended.mcts_config(1).extends_when_unsure());
    assert_eq!(extended.to_string(), "mcts:time=250,extend=1");
    // Without a time of its own a move may take up to the whole clock (the agent takes its
    // share); with one, that is the most a move takes.
    assert_eq!(spec.budget(), Budget::time(Duration::from_millis(7_500)));
    let capped = parse("mcts:time=400,time_game=7.5");
    assert_eq!(capped.budget(), Budget::time(Duration::from_millis(400)));
    assert_eq!(capped.to_string(), "mcts:time=400,time_game=7.5");
}

#[test]
fn an_option_without_a_colon_belongs_to_the_spec_before_it() {
    let specs = parse_player_list("random, mcts:sims=800,c=1.5,greedy,alphabeta,depth=3")
        .expect("valid list");
    let texts: Vec<String> = specs.iter().map(ToString::to_string).collect();
    assert_eq!(
        texts,
        [
            "random",
            "mcts:sims=800,c=1.5",
            "greedy",
            "alphabeta:depth=3"
        ]
    );
}

#[test]
fn unknown_players_are_refused_with_the_list_of_known_ones() {
    let error = parse_player_list("random,stockfish").expect_err("unknown");
    let message = error.to_string();
    assert!(message.contains("'stockfish'"), "{message}");
    assert!(
        message.contains("random, greedy, novice, heuristic, alphabeta, uct, mcts, policy, value")
    );
}

#[test]
fn an_option_the_player_does_not_take_is_refused() {
    let error = "greedy:depth=3"
        .parse::<PlayerSpec>()
        .expect_err("no depth");
    assert_eq!(
        error,
        SpecError::UnknownOption {
            player: "greedy".into(),
            option: "depth".into(),
            known: "seed".into(),
        }
    );
    assert!(matches!(
        "mcts:depth=3".parse::<PlayerSpec>(),
        Err(SpecError::UnknownOption { .. })
    ));
}

#[test]
fn bad_values_are_refused_with_the_reason() {
    for text in [
        "mcts:sims=0",
        "mcts:sims=lots",
        "mcts:c=-1",
        "mcts:c=nan",
        "mcts:noise=-0.3",
        "mcts:playouts=0",
        "mcts:exact=65",
        "alphabeta:depth=0",
        "alphabeta:depth=99",
        "alphabeta:time=1.5",
        "random:seed=-1",
        "mcts:time_game=0",
        "mcts:time_game=-5",
        "mcts:early_stop=2",
        "mcts:early_stop=yes",
        "mcts:extend=2",
    ] {
        let error = text.parse::<PlayerSpec>().expect_err(text);
        assert!(
            matches!(error, SpecError::BadValue { .. }),
            "{text}: {error}"
        );
    }
    let message = "mcts:sims=0"
        .parse::<PlayerSpec>()
        .expect_err("zero")
        .to_string();
    assert_eq!(
        message,
        "bad value '0' for option 'sims' of 'mcts': expected a whole number from 1 to 100000000"
    );
}

#[test]
fn malformed_lists_say_what_is_wrong() {
    assert_eq!(parse_player_list(" , "), Err(SpecError::Empty));
    assert!(matches!(
        parse_player_list("sims=3,random"),
        Err(SpecError::Orphan { .. })
    ));
    assert!(matches!(
        parse_player_list("mcts:sims"),
        Err(SpecError::Malformed { .. })
    ));
    assert!(matches!(
        parse_player_list("mcts:sims=3,sims=4"),
        Err(SpecError::Duplicate { .. })
    ));
    assert!(matches!(
        parse_player_list("random,greedy,random"),
        Err(SpecError::Repeated(_))
    ));
    assert!(parse_player_list("random:seed=1,random:seed=2").is_ok());
    assert_eq!(parse("mcts:"), parse("mcts"));
    assert!(matches!(
        parse_player_list("mcts:c=1,mcts:c=1.0"),
        Err(SpecError::Repeated(_))
    ));
}

#[test]
fn heuristic_and_alphabeta_build_with_their_budgets() {
    for (text, depth) in [("heuristic", None), ("alphabeta:depth=4", Some(4))] {
        let (_, budget) = parse(text).build(1, &NoModels).expect("builds");
        assert_eq!(budget.depth, depth);
    }
}

#[test]
fn a_model_the_source_does_not_have_is_named_and_playouts_need_no_model() {
    let spec = parse_player_list("mcts:model=/nonexistent/net.onnx,sims=5")
        .expect("parses")
        .remove(0);
    assert_eq!(spec.model.as_deref(), Some("/nonexistent/net.onnx"));
    assert_eq!(spec.sims, Some(5));
    let error = spec
        .check_game(BoardSize::Eight, Variant::Standard, &NoModels)
        .expect_err("no such network");
    assert_eq!(
        error.to_string(),
        "model /nonexistent/net.onnx: no network named '/nonexistent/net.onnx' is loaded"
    );
    assert!(matches!(
        "mcts:model=".parse::<PlayerSpec>(),
        Err(SpecError::BadValue { .. })
    ));
    assert_eq!(
        "mcts:model=a.onnx,playouts=2".parse::<PlayerSpec>(),
        Err(SpecError::PlayoutsWithModel)
    );
}

#[test]
fn mcts_settings_come_from_the_spec_and_the_seed_is_salted() {
    let spec = parse("mcts:c=2.5,solver=10,exact=14,prove=20,noise=0.3,seed=4");
    let config = spec.mcts_config(9);
    assert_eq!(config.c_puct, 2.5);
    assert_eq!(config.c_puct_log, 0.0);
    assert_eq!(parse("mcts:c_log=0.45").mcts_config(1).c_puct_log, 0.45);
    assert!("mcts:c_log=-1".parse::<PlayerSpec>().is_err());
    assert!("alphabeta:c_log=1".parse::<PlayerSpec>().is_err());
    assert_eq!(config.solver_empties, Some(10));
    assert_eq!(config.root_solve.exact_empties, Some(14));
    assert_eq!(config.root_solve.proof_empties, Some(20));
    assert_eq!(config.dirichlet_alpha, 0.3);
    assert_eq!(config.seed, spec.player_seed(9));
    assert_ne!(spec.player_seed(9), 9);
    assert_eq!(parse("mcts").mcts_config(9).seed, 9);
    assert_eq!(parse("mcts").mcts_config(9).dirichlet_alpha, 0.0);
    let gumbel = parse("mcts:gumbel=8,cscale=1").mcts_config(1).gumbel;
    assert_eq!(gumbel.map(|g| (g.considered, g.c_scale)), Some((8, 1.0)));
    assert_eq!(parse("mcts:gumbel=0").mcts_config(1).gumbel, None);
    assert_eq!(parse("mcts:model=m,sym=8").sym, Some(8));
    assert_eq!(
        parse("policy:model=m,sym=1").to_string(),
        "policy:model=m,sym=1"
    );
    assert!(matches!(
        "mcts:model=m,sym=9".parse::<PlayerSpec>(),
        Err(SpecError::BadValue { .. })
    ));
    assert!(matches!(
        "alphabeta:sym=2".parse::<PlayerSpec>(),
        Err(SpecError::UnknownOption { .. })
    ));
    assert_eq!(parse("mcts:utility=0").mcts_config(1).score_utility, 0.0);
    assert_eq!(parse("mcts:utility=1.5").mcts_config(1).score_utility, 1.5);
    let default = MctsConfig::default().score_utility;
    assert_eq!(parse("mcts").mcts_config(1).score_utility, default);
}

#[test]
fn the_network_players_need_a_model_and_take_no_budget() {
    for kind in ["policy", "value"] {
        assert_eq!(
            kind.parse::<PlayerSpec>(),
            Err(SpecError::NeedsModel(kind.into()))
        );
        assert!(matches!(
            format!("{kind}:model=a.onnx,sims=5").parse::<PlayerSpec>(),
            Err(SpecError::UnknownOption { .. })
        ));
        let spec = parse(&format!("{kind}:model=/nonexistent.onnx"));
        assert!(spec.budget().is_unlimited());
        let error = spec.build(1, &NoModels).expect_err("no such network");
        assert!(matches!(error, SpecError::Model { .. }), "{error}");
        let bare = PlayerSpec::new(spec.kind);
        assert!(matches!(
            bare.build(1, &NoModels),
            Err(SpecError::NeedsModel(_))
        ));
    }
    assert_eq!(
        SpecError::NeedsModel("value".into()).to_string(),
        "player 'value' is a network without search: give it one with model=PATH"
    );
}

#[test]
fn built_players_carry_the_spec_budget() {
    let (agent, budget) = parse("mcts:sims=50").build(7, &NoModels).expect("builds");
    assert!(
        agent.name().starts_with("mcts (random playouts"),
        "{}",
        agent.name()
    );
    assert_eq!(budget, Budget::simulations(50));
    let (agent, _) = parse("uct:sims=50").build(7, &NoModels).expect("builds");
    assert_eq!(agent.name(), "uct");
    let (agent, _) = parse("novice").build(7, &NoModels).expect("builds");
    assert_eq!(agent.name(), "novice");
}

#[test]
fn a_proof_part_sets_the_root_solve_s_share_and_must_be_below_the_parts() {
    let spec = parse("mcts:time=1000,prove_parts=3,prove_part=2");
    assert_eq!(
        spec.mcts_config(1).root_solve.part,
        Some(crate::mcts::ProofPart { index: 2, parts: 3 })
    );
    assert_eq!(parse(&spec.to_string()), spec);
    // One part is the whole root, as with no split at all.
    assert_eq!(
        parse("mcts:prove_parts=1").mcts_config(1).root_solve.part,
        None
    );
    assert_eq!(parse("mcts").mcts_config(1).root_solve.part, None);
    for text in ["mcts:prove_parts=3,prove_part=3", "mcts:prove_part=1"] {
        let error = text.parse::<PlayerSpec>().expect_err(text).to_string();
        assert!(
            error.contains("expected a part below prove_parts"),
            "{text}: {error}"
        );
    }
    assert!(matches!(
        "mcts:prove_parts=0".parse::<PlayerSpec>(),
        Err(SpecError::BadValue { .. })
    ));
}

/// An agent answers with its driver's rule, so a spec's `exact=` reaches every caller that
/// asks; players without the driver have no rule to give.
#[test]
fn an_mcts_agent_gives_its_spec_s_root_rule_and_other_players_none() {
    let mut rng = Rng::new(5);
    let pos = std::iter::repeat_with(|| random_6x6_choice(&mut rng, 14))
        .flatten()
        .next()
        .expect("a 6x6 position with a choice at 14 empties");
    let agent = |text: &str| {
        let spec: PlayerSpec = text.parse().expect("a spec");
        spec.build(1, &NoModels).expect("an agent").0
    };
    assert!(matches!(
        agent("mcts:sims=10").root_rule(&pos),
        Some(RootRule::Exact(_))
    ));
    assert!(matches!(
        agent("mcts:sims=10,exact=12").root_rule(&pos),
        Some(RootRule::Open)
    ));
    assert!(agent("alphabeta:depth=2").root_rule(&pos).is_none());
}

/// The agent's exact margins are its root solver's within the rule's reach, a position
/// with one legal move included (the book builder and NBoard list its margin too), and
/// none beyond it or from a player without the driver.
#[test]
fn an_mcts_agent_gives_exact_margins_within_its_reach_forced_moves_included() {
    let agent = |text: &str| {
        let spec: PlayerSpec = text.parse().expect("a spec");
        spec.build(1, &NoModels).expect("an agent").0
    };
    let mut rng = Rng::new(5);
    let pos = std::iter::repeat_with(|| random_6x6_choice(&mut rng, 14))
        .flatten()
        .next()
        .expect("a 6x6 position with a choice at 14 empties");
    let margins = agent("mcts:sims=10").exact_root_margins(&pos);
    assert_eq!(margins, Some(Solver::new().score_moves(&pos)));
    assert_eq!(
        agent("mcts:sims=10,exact=12").exact_root_margins(&pos),
        None
    );
    assert_eq!(agent("alphabeta:depth=2").exact_root_margins(&pos), None);

    let forced = std::iter::successors(Some(pos), |at| {
        let moves = at.legal_move_list();
        (!at.is_game_over()).then(|| at.play(moves[0]).expect("legal"))
    })
    .find(|at| at.legal_move_list().len() == 1)
    .expect("a forced move before the end");
    let margins = agent("mcts:sims=10").exact_root_margins(&forced);
    assert_eq!(margins.map(|m| m.len()), Some(1));
}
