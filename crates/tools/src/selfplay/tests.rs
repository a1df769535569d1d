use super::*;
use engine::mcts::default_exact_root_empties;
use engine::{Evaluation, PlayoutEvaluator, Solver};
use othello::Game;

fn heuristic() -> Result<Box<dyn Evaluator>, EvalError> {
    Ok(Box::new(PlayoutEvaluator::new(1, 1)))
}

fn small(games: usize, threads: usize) -> SelfPlayConfig {
    let mut config = SelfPlayConfig::new(
        BoardSize::Six,
        Variant::Standard,
        games,
        24,
        MctsConfig::default(),
        3,
    );
    config.threads = threads;
    config.games_per_thread = 3;
    config
}

#[test]
fn self_play_games_are_legal_complete_and_carry_valid_targets() {
    let config = small(5, 2);
    let records = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
    assert_eq!(records.len(), 5);
    let indices: Vec<usize> = records.iter().map(|r| r.index).collect();
    assert_eq!(indices, [0, 1, 2, 3, 4]);
    self_play_records_are_legal(&records);
    for record in &records {
        assert!(!record.samples.is_empty());
        for sample in &record.samples {
            assert_eq!(sample.planes.len(), 4 * 36);
            assert!((sample.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
            // The target only puts weight on legal moves (plane 2), or the pass.
            for (i, p) in sample.policy.iter().enumerate().take(36) {
                if *p > 0.0 {
                    assert_eq!(sample.planes[2 * 36 + i], 1);
                }
            }
        }
    }
}

/// Positions of a game where the side to move had a choice: the ones that get a search.
fn decisions(record: &GameRecord) -> usize {
    let mut pos = record.start;
    let mut count = 0;
    for mv in &record.moves {
        count += usize::from(pos.legal_move_list().len() > 1);
        pos = pos.play(*mv).expect("legal");
    }
    count
}

#[test]
fn near_the_end_both_sides_play_the_exact_solver_s_moves() {
    let records = run_selfplay(&small(4, 2), &heuristic, None, &|_| {}).expect("plays");
    let exact = default_exact_root_empties(BoardSize::Six);
    let mut solver = Solver::new();
    for record in &records {
        let mut pos = record.start;
        let mut samples = record.samples.iter();
        let mut solved_margin = None;
        for mv in &record.moves {
            let choice = pos.legal_move_list().len() > 1;
            if choice && pos.empty_count() <= exact {
                // From here on the result is exact: the final margin is the solver's.
                solved_margin
                    .get_or_insert_with(|| (pos.side_to_move(), solver.solve(&pos).margin));
                let sample = samples.clone().next().expect("recorded");
                assert_eq!(sample.policy[mv.policy_index(pos.size())], 1.0);
            }
            if choice {
                samples.next();
            }
            pos = pos.play(*mv).expect("legal");
        }
        let (side, margin) = solved_margin.expect("every 6x6 game reaches 14 empties");
        assert_eq!(record.outcome.margin_for(side), margin);
    }
}

#[test]
fn label_empties_give_every_searched_position_the_solver_s_targets_and_keep_the_searched_moves() {
    let mut config = small(2, 2);
    // Above 18 empties: the search's own root solve (6x6) would play perfectly below.
    config.exact_empties = Some(14);
    config.label_empties = Some(20);
    // Fast searches' positions are labelled too: the solver makes their targets.
    config.fast_simulations = Some(4);
    config.full_search_share = 0.25;
    let records = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
    let mut reference = Solver::new();
    let (mut labelled, mut searched_mistakes) = (0, 0);
    for record in &records {
        let mut pos = record.start;
        for mv in &record.moves {
            let empties = pos.empty_count();
            let planes = Sample::new(&pos, &config.inputs, Vec::new(), None, (0.0, 0.0)).planes;
            let samples: Vec<&Sample> = record
                .samples
                .iter()
                .filter(|s| s.planes == planes)
                .collect();
            if pos.legal_move_list().len() > 1 && empties > 14 && empties <= 20 {
                let [sample] = samples[..] else {
                    panic!(
                        "one sample for every position to label, not {}",
                        samples.len()
                    );
                };
                let margins = reference.score_moves(&pos);
                let best = margins.iter().map(|(_, m)| *m).max().expect("moves");
                let target = margins
                    .iter()
                    .find(|(m, _)| sample.policy[m.policy_index(pos.size())] == 1.0)
                    .expect("a one-hot target");
                assert_eq!(target.1, best, "the target is an optimal move");
                assert_eq!(sample.searched, Some(((best as f32).signum(), best as f32)));
                assert_eq!(
                    Some(sample.search),
                    sample.searched,
                    "the solver's is the search"
                );
                let played = margins.iter().find(|(m, _)| m == mv).expect("legal");
                searched_mistakes += usize::from(played.1 < best);
                labelled += 1;
            } else if empties > 20 {
                assert!(
                    samples.iter().all(|s| s.searched.is_none()),
                    "the game's result labels it"
                );
                for sample in &samples {
                    let (value, margin) = sample.search;
                    assert!(
                        value.abs() <= 1.0 && margin.abs() <= 36.0,
                        "{value} {margin}"
                    );
                }
            }
            pos = pos.play(*mv).expect("legal");
        }
    }
    assert!(labelled >= 4, "{labelled}");
    // The playout search, not the solver, chose these moves: it does not always find the best.
    assert!(searched_mistakes > 0);
}

#[test]
fn with_a_gumbel_root_the_targets_are_improved_policies_over_every_legal_move() {
    let mut config = small(4, 2);
    config.mcts = MctsConfig {
        gumbel: Some(engine::mcts::GumbelRoot::new(4)),
        ..MctsConfig::default()
    }
    .with_self_play_noise(BoardSize::Six);
    assert_eq!(config.mcts.dirichlet_alpha, 0.0);
    let records = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
    let exact = default_exact_root_empties(BoardSize::Six);
    let mut searched = 0;
    for record in &records {
        let transcript: String = record
            .moves
            .iter()
            .map(std::string::ToString::to_string)
            .collect();
        let game = Game::from_transcript(&transcript, record.start).expect("legal");
        assert!(game.position().is_game_over());
        for sample in &record.samples {
            assert!((sample.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
            let legal = sample.planes[2 * 36..3 * 36]
                .iter()
                .filter(|&&p| p == 1)
                .count();
            let discs = sample.planes[..72].iter().filter(|&&p| p == 1).count() as u32;
            let empties = 36 - discs;
            if empties > exact {
                // Searched: every legal move keeps some weight, unlike visit counts.
                let weighted = sample.policy[..36].iter().filter(|&&p| p > 0.0).count();
                assert_eq!(weighted, legal, "{:?}", sample.policy);
                searched += 1;
            }
        }
    }
    assert!(searched > 20, "{searched}");
}

#[test]
fn ownership_targets_are_the_final_discs_from_the_sample_s_side() {
    let config = small(3, 1);
    let records = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
    let dir = std::env::temp_dir().join(format!("selfplay-owners-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = write_selfplay(&dir, "batch", &config, "none", &records).expect("writes");
    let mut npz = crate::arrays::NpzFile::open(&path).expect("opens");
    let ownership = npz.array::<i8>("ownership").expect("ownership");
    let score = npz.array::<f32>("score").expect("score");
    let samples: usize = records.iter().map(|r| r.samples.len()).sum();
    assert_eq!(ownership.shape(), [samples, 6, 6]);
    for (i, margin) in score.iter().enumerate() {
        let row = ownership.index_axis(ndarray::Axis(0), i);
        assert!(row.iter().all(|v| (-1..=1).contains(v)));
        // Standard rules: the disc difference, with the empties to the winner.
        let diff: i32 = row.iter().map(|&v| v as i32).sum();
        let empties = row.iter().filter(|&&v| v == 0).count() as i32;
        assert_eq!(*margin as i32, diff + diff.signum() * empties);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn samples_store_the_planes_of_the_configured_inputs_and_the_sidecar_names_them() {
    let mut config = small(2, 1);
    config.inputs = engine::network::InputPlanes::v2();
    let records = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
    let dir = std::env::temp_dir().join(format!("selfplay-planes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = write_selfplay(&dir, "batch", &config, "none", &records).expect("writes");
    let mut npz = crate::arrays::NpzFile::open(&path).expect("opens");
    let planes = npz.array::<u8>("planes").expect("planes");
    let samples: Vec<&Sample> = records.iter().flat_map(|r| &r.samples).collect();
    assert_eq!(planes.shape(), [samples.len(), 10, 6, 6]);
    let stored: Vec<u8> = planes.iter().copied().collect();
    let recorded: Vec<u8> = samples.iter().flat_map(|s| s.planes.clone()).collect();
    assert_eq!(stored, recorded);
    // Each row is the encoder's v2 planes of a position of the games.
    let mut positions = Vec::new();
    for record in &records {
        let mut pos = record.start;
        for mv in &record.moves {
            let mut row = Vec::new();
            config.inputs.encode(&pos, &mut row);
            positions.push(row);
            pos = pos.play(*mv).expect("legal");
        }
    }
    assert!(samples.iter().all(|s| positions.contains(&s.planes)));
    let sidecar: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path.with_extension("json")).expect("read"))
            .expect("json");
    let names: Vec<&str> = sidecar["plane_names"]
        .as_array()
        .expect("plane_names")
        .iter()
        .map(|n| n.as_str().expect("a name"))
        .collect();
    assert_eq!(names, config.inputs.names());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_searched_position_is_a_sample_without_playout_caps() {
    let records = run_selfplay(&small(4, 1), &heuristic, None, &|_| {}).expect("plays");
    for record in &records {
        assert_eq!(record.samples.len(), decisions(record));
    }
}

#[test]
fn games_start_from_the_opening_lines_and_record_only_what_follows() {
    let lines: Vec<Vec<Move>> =
        crate::arena::generate_openings(BoardSize::Six, Variant::Standard, 3, 9)
            .expect("openings")
            .into_iter()
            .map(|opening| opening.moves)
            .collect();
    let mut config = small(6, 2);
    config.openings = StartLines {
        name: "three".into(),
        lines: lines.clone(),
    };
    let records = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
    self_play_records_are_legal(&records);
    let mut used = std::collections::HashSet::new();
    for record in &records {
        let line = lines
            .iter()
            .position(|line| record.moves.starts_with(line))
            .expect("each game begins with one of the lines");
        used.insert(line);
        // The opening's plies are the game's, not searched: only what follows is recorded.
        let mut opened = record.clone();
        opened.start = lines[line]
            .iter()
            .fold(record.start, |pos, mv| pos.play(*mv).expect("legal"));
        opened.moves = record.moves[lines[line].len()..].to_vec();
        assert_eq!(record.samples.len(), decisions(&opened));
    }
    assert!(used.len() > 1, "the seed draws among the lines: {used:?}");
}

#[test]
fn with_playout_caps_only_the_full_searches_become_samples() {
    let mut config = small(8, 2);
    config.fast_simulations = Some(4);
    config.full_search_share = 0.25;
    let records = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
    let samples: usize = records.iter().map(|r| r.samples.len()).sum();
    let searched: usize = records.iter().map(decisions).sum();
    let share = samples as f64 / searched as f64;
    // About a quarter of some 150 decisions: far from both 0 and 1.
    assert!((0.12..0.40).contains(&share), "{samples} of {searched}");
    for record in &records {
        let transcript: String = record
            .moves
            .iter()
            .map(std::string::ToString::to_string)
            .collect();
        let game = Game::from_transcript(&transcript, record.start).expect("legal");
        assert!(game.position().is_game_over());
    }
}

/// Uniform priors, even values, and a count of the positions it was asked about.
struct Counting(std::sync::Arc<AtomicUsize>);

impl Evaluator for Counting {
    fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<Evaluation>, EvalError> {
        self.0.fetch_add(positions.len(), Ordering::Relaxed);
        Ok(positions
            .iter()
            .map(|p| {
                let n = p.legal_move_list().len();
                Evaluation {
                    priors: vec![1.0 / n as f32; n],
                    value: 0.0,
                    score: None,
                }
            })
            .collect())
    }

    fn describe(&self) -> String {
        "counting".into()
    }
}

#[test]
fn against_a_milestone_only_the_learner_s_moves_become_samples() {
    let learner_calls = std::sync::Arc::new(AtomicUsize::new(0));
    let opponent_calls = std::sync::Arc::new(AtomicUsize::new(0));
    let learner = |count: &std::sync::Arc<AtomicUsize>| {
        let count = count.clone();
        move || -> Result<Box<dyn Evaluator>, EvalError> { Ok(Box::new(Counting(count.clone()))) }
    };
    let make_learner = learner(&learner_calls);
    let make_opponent = learner(&opponent_calls);
    let mut config = small(4, 2);
    config.opponent = Some("older.onnx".into());
    let records =
        run_selfplay(&config, &make_learner, Some(&make_opponent), &|_| {}).expect("plays");
    assert_eq!(records.len(), 4);
    for record in &records {
        let learner = if record.index.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        assert!(!record.samples.is_empty());
        assert!(
            record.samples.iter().all(|s| s.side == learner),
            "game {}",
            record.index
        );
        let game = Game::from_transcript(
            &record
                .moves
                .iter()
                .map(std::string::ToString::to_string)
                .collect::<String>(),
            record.start,
        )
        .expect("legal");
        assert!(game.position().is_game_over());
    }
    assert!(learner_calls.load(Ordering::Relaxed) > 0);
    assert!(opponent_calls.load(Ordering::Relaxed) > 0);
}

#[test]
fn the_first_plies_vary_between_games() {
    let records = run_selfplay(&small(6, 1), &heuristic, None, &|_| {}).expect("plays");
    let openings: std::collections::HashSet<Vec<Move>> =
        records.iter().map(|r| r.moves[..4].to_vec()).collect();
    assert!(openings.len() > 1);
}

#[test]
fn explored_positions_add_samples_with_search_targets_and_no_ownership() {
    let plain = small(2, 1);
    let explored = SelfPlayConfig {
        explored_share: Some(0.2),
        ..plain.clone()
    };
    let before = run_selfplay(&plain, &heuristic, None, &|_| {}).expect("plays");
    let after = run_selfplay(&explored, &heuristic, None, &|_| {}).expect("plays");
    let mut added = 0;
    for (b, a) in before.iter().zip(&after) {
        // The same games: recording more positions changes no move.
        assert_eq!(a.moves, b.moves);
        let played: Vec<&Sample> = a.samples.iter().filter(|s| s.searched.is_none()).collect();
        assert_eq!(played.len(), b.samples.len());
        for (x, y) in played.iter().zip(&b.samples) {
            assert_eq!((&x.planes, &x.policy), (&y.planes, &y.policy));
        }
        added += a.samples.len() - played.len();
    }
    assert!(added > 0, "no position was explored enough");
    let dir = std::env::temp_dir().join(format!("selfplay-explored-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = write_selfplay(&dir, "batch", &explored, "none", &after).expect("writes");
    let mut npz = crate::arrays::NpzFile::open(&path).expect("opens");
    let has_ownership = npz.array::<u8>("has_ownership").expect("has_ownership");
    let search_value = npz.array::<f32>("search_value").expect("search_value");
    let search_score = npz.array::<f32>("search_score").expect("search_score");
    let searches: Vec<(f32, f32)> = after
        .iter()
        .flat_map(|r| r.samples.iter().map(|s| s.search))
        .collect();
    assert_eq!(search_value.len(), searches.len());
    for (i, &(value, margin)) in searches.iter().enumerate() {
        assert_eq!(
            (search_value[i], search_score[i]),
            (value.clamp(-1.0, 1.0), margin)
        );
    }
    let value = npz.array::<f32>("value").expect("value");
    let policy = npz.array::<f32>("policy").expect("policy");
    let planes = npz.array::<u8>("planes").expect("planes");
    let searched: Vec<bool> = after
        .iter()
        .flat_map(|r| r.samples.iter().map(|s| s.searched.is_some()))
        .collect();
    assert_eq!(has_ownership.len(), searched.len());
    for (i, &from_search) in searched.iter().enumerate() {
        assert_eq!(has_ownership[i], u8::from(!from_search));
        assert!(value[i].abs() <= 1.0);
        if from_search {
            // The policy target lies on the position's legal moves (plane 2) and
            // sums to one.
            let row = policy.index_axis(ndarray::Axis(0), i);
            let legal = planes.index_axis(ndarray::Axis(0), i);
            let legal: Vec<u8> = legal
                .index_axis(ndarray::Axis(0), 2)
                .iter()
                .copied()
                .collect();
            let any_legal = legal.contains(&1);
            for (square, p) in row.iter().take(36).enumerate() {
                assert!(*p == 0.0 || legal[square] == 1, "row {i} square {square}");
            }
            assert!(any_legal || row[36] > 0.0);
            assert!((row.sum() - 1.0).abs() < 1e-5);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_files_hold_one_row_per_sample_and_never_overwrite() {
    let config = small(2, 1);
    let records = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
    let dir = std::env::temp_dir().join(format!("selfplay-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = write_selfplay(&dir, "batch", &config, "none", &records).expect("writes");
    let samples: usize = records.iter().map(|r| r.samples.len()).sum();
    let text = std::fs::read_to_string(dir.join("batch.json")).expect("sidecar");
    let sidecar: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(sidecar["positions"], samples);
    assert_eq!(sidecar["games"], 2);
    let mut npz = crate::arrays::NpzFile::open(&path).expect("opens");
    assert_eq!(
        npz.array::<u8>("planes").expect("planes").shape(),
        [samples, 4, 6, 6]
    );
    assert_eq!(
        npz.array::<f32>("policy").expect("policy").shape(),
        [samples, 37]
    );
    for name in ["value", "score"] {
        assert_eq!(npz.array::<f32>(name).expect(name).shape(), [samples]);
    }
    let again = write_selfplay(&dir, "batch", &config, "none", &records);
    assert!(again.is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_evaluator_that_cannot_be_built_stops_self_play_with_its_error() {
    let broken =
        || -> Result<Box<dyn Evaluator>, EvalError> { Err(EvalError::Failed("no model".into())) };
    let err = run_selfplay(&small(2, 2), &broken, None, &|_| {}).expect_err("fails");
    assert!(err.to_string().contains("no model"));
}

/// For each searched position of each game (every move a full search, no labels): its
/// ply, its side to move, whether the played move had the largest target weight, the
/// sample, and the position's empties.
fn searched_moves(record: &GameRecord, exact: u32) -> Vec<(usize, Color, bool, Sample, u32)> {
    let mut out = Vec::new();
    let mut pos = record.start;
    let mut samples = record.samples.iter();
    for (ply, mv) in record.moves.iter().enumerate() {
        if pos.legal_move_list().len() > 1 {
            let sample = samples.next().expect("a sample for every choice");
            if pos.empty_count() > exact {
                let top = sample.policy.iter().copied().fold(0.0f32, f32::max);
                let searched = sample.policy[mv.policy_index(pos.size())] == top;
                out.push((
                    ply,
                    pos.side_to_move(),
                    searched,
                    sample.clone(),
                    pos.empty_count(),
                ));
            }
        }
        pos = pos.play(*mv).expect("legal");
    }
    assert!(samples.next().is_none());
    out
}

#[test]
fn random_moves_leave_the_weaker_side_s_searched_line_and_relabel_the_samples_before_them() {
    let exact = default_exact_root_empties(BoardSize::Six);
    let mut config = small(6, 2);
    let plain = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
    config.random_move_share = Some(1.0);
    let explored = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
    self_play_records_are_legal(&explored);

    // After the opening's temperature plies, (searched move played, moves) for the weaker
    // side and for the other.
    let opening = config.temperature_plies as usize;
    let after_opening = |records: &[GameRecord]| -> [(usize, usize); 2] {
        let mut counts = [(0, 0); 2];
        for record in records {
            for (ply, side, kept, ..) in searched_moves(record, exact) {
                if ply >= opening {
                    let count = &mut counts[usize::from(side == weaker_side(record.index))];
                    count.0 += usize::from(kept);
                    count.1 += 1;
                }
            }
        }
        counts
    };
    // Without random moves the searched move is played once the opening is over.
    for (kept, moves) in after_opening(&plain) {
        assert_eq!(kept, moves);
        assert!(moves > 5, "{moves}");
    }
    // With them the weaker side's mostly is not (a random pick of 2-10 legal moves); the
    // other side's still is.
    let [(strong_kept, strong), (weak_kept, weak)] = after_opening(&explored);
    assert_eq!(strong_kept, strong);
    assert!(weak > 5 && weak_kept * 2 < weak, "{weak_kept} of {weak}");

    for record in &plain {
        assert!(record.samples.iter().all(|s| s.searched.is_none()));
    }
    for record in &explored {
        let moves = searched_moves(record, exact);
        let last_random = moves
            .iter()
            .filter(|(_, side, ..)| *side == weaker_side(record.index))
            .map(|(ply, ..)| *ply)
            .max()
            .expect("the weaker side searched");
        for (ply, _, _, sample, _) in &moves {
            // Samples up to the last random move learn the search's value; the later
            // ones, and the solver's part of the game, keep the game's (exact) result.
            if *ply <= last_random {
                let (value, margin) = sample.searched.expect("the search's targets");
                assert!((-1.0..=1.0).contains(&value));
                assert!(margin.abs() <= 36.0);
            } else if *ply > last_random {
                assert!(sample.searched.is_none());
            }
        }
        assert!(record.samples.len() > moves.len());
        assert!(record.samples[moves.len()..]
            .iter()
            .all(|s| s.searched.is_none()));
    }
}

#[test]
fn random_moves_stop_at_their_floor_and_the_positions_below_keep_the_game_s_result() {
    let exact = default_exact_root_empties(BoardSize::Six);
    let floor = 24;
    let mut config = small(6, 2);
    // No opening temperature: every move not random is the search's top move.
    config.temperature_plies = 0;
    config.random_move_share = Some(1.0);
    config.random_move_floor = Some(floor);
    let records = run_selfplay(&config, &heuristic, None, &|_| {}).expect("plays");
    self_play_records_are_legal(&records);
    let (mut weak_above, mut weak_above_kept, mut below) = (0, 0, 0);
    for record in &records {
        let moves = searched_moves(record, exact);
        let last_random = moves
            .iter()
            .filter(|(_, side, .., empties)| *side == weaker_side(record.index) && *empties > floor)
            .map(|(ply, ..)| *ply)
            .max();
        for (ply, side, kept, sample, empties) in &moves {
            if *empties > floor {
                if *side == weaker_side(record.index) {
                    weak_above += 1;
                    weak_above_kept += usize::from(*kept);
                } else {
                    assert!(kept);
                }
            } else {
                // Below the floor the game is played as searched, and its result labels
                // the positions.
                assert!(kept, "a random move at {empties} empties");
                assert!(sample.searched.is_none());
                below += 1;
            }
            if last_random.is_some_and(|last| *ply <= last) {
                assert!(sample.searched.is_some());
            }
        }
    }
    assert!(
        weak_above > 5 && weak_above_kept * 2 < weak_above,
        "{weak_above_kept} of {weak_above}"
    );
    assert!(below > 5, "{below}");
}

fn self_play_records_are_legal(records: &[GameRecord]) {
    for record in records {
        let transcript: String = record
            .moves
            .iter()
            .map(std::string::ToString::to_string)
            .collect();
        let game = Game::from_transcript(&transcript, record.start).expect("legal");
        assert!(game.position().is_game_over());
        assert_eq!(game.position().count(), record.outcome);
    }
}

/// A player spec's `exact=` (in the search settings self-play is given) reaches the games'
/// searches when no `exact_empties` is set, and `exact_empties` wins when it is.
#[test]
fn a_spec_s_exact_reach_is_where_self_play_s_solver_takes_over() {
    let spec: engine::PlayerSpec = "mcts:exact=12".parse().expect("a spec");
    let mut config = small(1, 1);
    config.mcts = spec.mcts_config(3).with_self_play_noise(BoardSize::Six);
    let game = GameInProgress::new(0, &config, false, &ThreadPriors::default());
    assert_eq!(game.tree.config().root_solve.exact_empties, Some(12));
    let mut rng = Rng::new(2);
    let mut pos = Position::start(BoardSize::Six, Variant::Standard);
    while pos.empty_count() > 14 {
        let moves = pos.legal_move_list();
        pos = pos
            .play(*rng.choose(&moves).expect("a move"))
            .expect("legal");
    }
    assert!(
        !game.tree.solves_exactly(&pos),
        "14 empties is beyond exact=12"
    );

    config.exact_empties = Some(16);
    let game = GameInProgress::new(0, &config, false, &ThreadPriors::default());
    assert_eq!(game.tree.config().root_solve.exact_empties, Some(16));
    assert!(game.tree.solves_exactly(&pos));

    // Without either, the board's default.
    let game = GameInProgress::new(0, &small(1, 1), false, &ThreadPriors::default());
    assert_eq!(
        game.tree.exact_root_empties(&pos),
        default_exact_root_empties(BoardSize::Six)
    );
}
