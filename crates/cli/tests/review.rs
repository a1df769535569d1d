//! `othello review`: the table, the annotated GGF and the errors, through the binary.

use engine::Solver;
use othello::{BoardSize, Color, Game, GgfGame, Move, Position, Variant};
use std::path::PathBuf;

mod common;

use common::{othello, stdout_of};

/// Runs a review that must fail: exit code 2 and one line on stderr (clap adds its hint to
/// a bad argument's), which is returned.
fn error_of(args: &[&str]) -> String {
    let out = othello().arg("review").args(args).output().expect("runs");
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8(out.stderr).expect("utf-8");
    let mut lines = stderr.lines();
    let line = lines.next().unwrap_or_default().to_owned();
    assert!(line.starts_with("error: "), "{stderr}");
    assert!(
        lines.all(|l| l.is_empty() || l == "For more information, try '--help'."),
        "{stderr}"
    );
    line
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("othello-review-{name}-{}.ggf", std::process::id()))
}

/// The table's rows: number, side, move, value, best, best value, loss, mark, then the best
/// line's moves.
fn rows(table: &str) -> Vec<Vec<String>> {
    table
        .lines()
        .filter(|line| line.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|line| line.split_whitespace().map(str::to_owned).collect())
        .collect()
}

#[test]
fn review_prints_a_row_for_each_move_and_each_sides_summary() {
    let out = stdout_of(&["review", "f5d6c3d3c4", "--player", "mcts:sims=20"]);
    assert!(
        out.contains("inaccuracy from 2, mistake from 4, blunder from 8"),
        "{out}"
    );
    assert!(
        out.contains("  #  side   move    value  best   best value   loss  mark        line\n"),
        "{out}"
    );
    let rows = rows(&out);
    let played = ["f5", "d6", "c3", "d3", "c4"];
    assert_eq!(rows.len(), played.len(), "{out}");
    for (i, (row, mv)) in rows.iter().zip(played).enumerate() {
        // The best line, the best move first, legal from the position.
        assert!(row.len() > 8 && row[8] == row[4], "{row:?}");
        let line: Vec<Move> = row[8..]
            .iter()
            .map(|m| Move::parse(m, BoardSize::Eight).expect("a move"))
            .collect();
        let mut pos = *Game::from_transcript(
            &played[..i].concat(),
            Position::start(BoardSize::Eight, Variant::Standard),
        )
        .expect("legal")
        .position();
        for step in line {
            pos = pos.play(step).expect("a legal line");
        }
        let side = if i % 2 == 0 { "Black" } else { "White" };
        assert_eq!(
            row[..3],
            [(i + 1).to_string(), side.to_owned(), mv.to_owned()]
        );
        let number = |text: &str| text.parse::<f64>().expect("a number");
        let (value, best, loss) = (number(&row[3]), number(&row[5]), number(&row[6]));
        assert!(
            (best - value - loss).abs() < 0.011 && loss >= 0.0,
            "{row:?}"
        );
        assert!(
            ["best", "inaccuracy", "mistake", "blunder"].contains(&row[7].as_str()),
            "{row:?}"
        );
    }
    for side in ["Black", "White"] {
        assert!(
            out.lines()
                .any(|l| l.starts_with(&format!("{side}: average loss "))
                    && l.contains(" with a choice (best ")),
            "{out}"
        );
    }
}

/// A whole game of first legal moves as a GGF file with its players' names.
fn finished_game_file(path: &PathBuf) -> Game {
    let mut game = Game::new(Position::start(BoardSize::Eight, Variant::Standard));
    while !game.position().is_game_over() {
        let mv = game.position().legal_move_list()[0];
        game.push(mv).expect("legal");
    }
    let mut record = GgfGame::new(game.clone());
    record.black = Some("Ann".to_owned());
    record.white = Some("Bob".to_owned());
    std::fs::write(path, record.to_string()).expect("written");
    game
}

/// `othello review GAME --ggf OUTPUT` at 4 simulations: the table, the written record's
/// text and the record read back from it.
fn reviewed_to_ggf(game: &str, output: &PathBuf) -> (String, String, GgfGame) {
    let out = stdout_of(&[
        "review",
        game,
        "--player",
        "mcts:sims=4",
        "--ggf",
        output.to_str().expect("utf-8"),
    ]);
    let written = std::fs::read_to_string(output).expect("the GGF is written");
    let record: GgfGame = written.trim().parse().expect("the reader takes it back");
    (out, written, record)
}

/// A GGF record's properties in order, as (tag, value): a tag is the capital letters
/// right before a `[`, so that `PB[...]` is not a move.
fn fields(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let tag: String = rest[..open]
            .chars()
            .rev()
            .take_while(char::is_ascii_uppercase)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let Some(close) = rest[open..].find(']') else {
            break;
        };
        out.push((tag, rest[open + 1..open + close].to_owned()));
        rest = &rest[open + close + 1..];
    }
    out
}

#[test]
fn the_annotated_ggf_reads_back_with_the_tables_values_exact_in_the_ending() {
    let (input, output) = (temp("in"), temp("out"));
    let game = finished_game_file(&input);
    let (out, written, record) = reviewed_to_ggf(input.to_str().expect("utf-8"), &output);
    assert_eq!(record.game(), &game);
    assert_eq!(record.black.as_deref(), Some("Ann"));
    assert_eq!(record.white.as_deref(), Some("Bob"));
    let original: GgfGame = std::fs::read_to_string(&input)
        .expect("the input")
        .trim()
        .parse()
        .expect("the input record");
    assert_eq!(
        record.result, original.result,
        "the record's own result stays"
    );
    let rows = rows(&out);
    assert_eq!(rows.len(), game.moves().len());
    for (i, (note, row)) in record.notes().iter().zip(&rows).enumerate() {
        let pos = &game.positions()[i];
        match row[3].as_str() {
            "-" => assert_eq!(note.eval, None, "move {}", i + 1),
            value => assert_eq!(note.eval, value.parse().ok(), "move {}: {row:?}", i + 1),
        }
        if pos.empty_count() <= 14 && pos.legal_move_list().len() > 1 {
            let after = pos.play(game.moves()[i]).expect("legal");
            let margin = -Solver::new().solve(&after).margin;
            assert_eq!(note.eval, Some(f64::from(margin)), "move {}", i + 1);
        }
    }
    assert!(
        written.contains(&format!("[{}/", game.moves()[0])),
        "{written}"
    );
    // The record's own text is kept but for the moves' evaluations, and an estimate keeps
    // its decimals where an exact value is whole, as the table writes them.
    let original = std::fs::read_to_string(&input).expect("the input");
    let (before, after) = (fields(&original), fields(&written));
    assert_eq!(before.len(), after.len(), "{written}");
    let mut evals = Vec::new();
    for ((tag, old), (new_tag, new)) in before.iter().zip(&after) {
        assert_eq!(tag, new_tag);
        if tag == "B" || tag == "W" {
            let (square, eval) = new.split_once('/').unwrap_or((new, ""));
            assert_eq!(square, old, "{written}");
            evals.push(eval.to_owned());
        } else {
            assert_eq!(old, new, "{written}");
        }
    }
    for (eval, row) in evals.iter().zip(&rows) {
        match row[3].as_str() {
            "-" => assert_eq!(eval, "", "{row:?}"),
            value => assert_eq!(
                eval.contains('.'),
                value.contains('.'),
                "{eval} written for {value}"
            ),
        }
    }
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&output);
}

#[test]
fn a_reviewed_transcript_is_written_whole_with_its_result_from_the_board() {
    let (scratch, output) = (temp("scratch"), temp("out-transcript"));
    let game = finished_game_file(&scratch);
    let transcript = game.transcript(true);
    let (_, written, record) = reviewed_to_ggf(&transcript, &output);
    assert_eq!(record.game(), &game);
    let outcome = game.position().outcome().expect("a finished game");
    let margin = record.result.as_ref().expect("a result").black_margin;
    assert_eq!(
        margin,
        f64::from(outcome.margin_for(Color::Black)),
        "{written}"
    );
    let _ = std::fs::remove_file(&scratch);
    let _ = std::fs::remove_file(&output);
}

#[test]
fn a_missing_file_a_broken_record_and_an_illegal_move_each_say_their_cause_once() {
    let err = error_of(&["no-such-game.ggf"]);
    assert!(
        err.contains("cannot read no-such-game.ggf: no such file"),
        "{err}"
    );
    let broken = temp("broken");
    std::fs::write(&broken, "(;GM[Othello]TY[8]B[f5]W[d6").expect("written");
    let err = error_of(&[broken.to_str().expect("utf-8")]);
    assert!(err.contains("W[ has no closing ]"), "{err}");
    std::fs::write(&broken, "(;GM[Othello]TY[8]B[f5]W[f5];)").expect("written");
    let err = error_of(&[broken.to_str().expect("utf-8")]);
    assert!(err.contains("move 2 W[f5]"), "{err}");
    assert_eq!(err.matches("the square is occupied").count(), 1, "{err}");
    let _ = std::fs::remove_file(&broken);
    let err = error_of(&["f5f5", "--player", "mcts:sims=4"]);
    assert_eq!(err.matches("the square is occupied").count(), 1, "{err}");
    assert!(err.contains("at move 2"), "{err}");
}

#[test]
fn a_bad_spec_a_player_without_values_and_nothing_to_review_are_refused() {
    let err = error_of(&["f5", "--player", "bogus"]);
    assert!(err.contains("unknown player 'bogus'"), "{err}");
    let err = error_of(&["f5d6", "--player", "greedy"]);
    assert!(err.contains("a review needs a search (mcts)"), "{err}");
    let err = error_of(&["f5", "--player", "mcts:model=no-such-model.onnx"]);
    assert!(err.contains("no-such-model.onnx"), "{err}");
    let start = Position::start(BoardSize::Eight, Variant::Standard).to_board_text();
    let err = error_of(&[&start, "--player", "mcts:sims=4"]);
    assert!(err.contains("no moves to review"), "{err}");
    let err = error_of(&[
        "f5",
        "--player",
        "mcts:sims=4",
        "--ggf",
        "no/such/folder/x.ggf",
    ]);
    assert!(err.contains("no folder no/such/folder"), "{err}");
}

#[test]
fn a_pass_in_the_game_is_a_forced_move_at_no_loss() {
    // A game with a pass: the shortest wipe-out has none, so find one by playing.
    let mut game = Game::new(Position::start(BoardSize::Eight, Variant::Standard));
    while !game.moves().contains(&Move::Pass) && !game.position().is_game_over() {
        let moves = game.position().legal_move_list();
        game.push(moves[moves.len() - 1]).expect("legal");
    }
    assert!(game.moves().contains(&Move::Pass), "the line has a pass");
    let transcript = game.transcript(true);
    let out = stdout_of(&["review", &transcript, "--player", "mcts:sims=4"]);
    let pass = rows(&out)
        .into_iter()
        .find(|row| row[2] == "pass")
        .expect("a pass row");
    // No line: nothing was searched.
    assert_eq!(pass[3..], ["-", "pass", "-", "0.00", "forced"]);
}
