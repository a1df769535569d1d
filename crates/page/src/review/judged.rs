//! What the review panel says of the budgets: which rows were judged at which budget and
//! whether the last review ran to its end (`judged_line`), and why the budget menu's
//! numbers are this game's (`budget_note`).

use super::{Judging, Reviews};
use crate::format::{count, thousands};
use othello::{Game, Move};

/// The line over the review's table: what the last review judged with, and, where the
/// table holds more than its rows or it stopped before its end, how many rows are its own
/// and what judged the others. Issue 68: a cancelled Deep review's line said "Judged at
/// 1,600 simulations" over rows that were still Quick's, and nothing said it had stopped.
/// `running`: the review is under way (its progress bar says how far it has come).
pub fn judged_line(reviews: &Reviews, game: &Game, running: bool) -> Option<String> {
    let judged = reviews.judged()?;
    let Some(at) = reviews.judged_at() else {
        // A save from before the budgets were kept: its one line is all it knows.
        return Some(judged.to_owned());
    };
    let reviewed: Vec<(Move, Option<u64>)> = game
        .positions()
        .iter()
        .zip(game.moves())
        .filter(|(pos, &mv)| reviews.get(pos.hash(), mv).is_some())
        .map(|(pos, &mv)| (mv, reviews.budget_of(pos.hash(), mv)))
        .collect();
    let budgets: Vec<Option<u64>> = reviewed.iter().map(|&(_, b)| b).collect();
    let passes = reviewed.iter().filter(|&&(mv, _)| mv == Move::Pass).count();
    let rows = table_rows(budgets.len(), passes);
    let own = budgets.iter().filter(|b| **b == Some(at)).count();
    let every_row_own = own == budgets.len();
    let stopped = reviews.stopped() && !running;
    if every_row_own && !stopped {
        return Some(judged.to_owned());
    }
    // The last review's own words, said of it alone: "Judged at" over the whole table is
    // what read wrong.
    let its = judged.replacen("Judged at", "It judged at", 1);
    let head = match (every_row_own, stopped, running) {
        (true, true, _) => format!(
            "The last review was stopped before its end, after {}: the rest of the game has \
             no review.",
            count(own as u64, "move", "moves")
        ),
        (false, true, _) => format!(
            "{own} of the table's {rows} are from the last review, which was stopped \
             before its end."
        ),
        (_, false, true) => {
            format!("{own} of the table's {rows} are from the review under way so far.")
        }
        (_, false, false) => format!("{own} of the table's {rows} are from the last review."),
    };
    let mut text = format!("{head} {its}");
    if !every_row_own {
        text.push(' ');
        text.push_str(&others(&budgets, at));
    }
    Some(text)
}

/// "60 rows", or where passes have rows of their own, "60 rows (59 moves and a pass)": the
/// review's progress counts moves, the placed discs (the eleventh look read "Reviewed 37 of
/// 59 moves" beside "38 of the table's 60 rows").
fn table_rows(rows: usize, passes: usize) -> String {
    match passes {
        0 => format!("{rows} rows"),
        1 => format!(
            "{rows} rows ({} and a pass)",
            count((rows - 1) as u64, "move", "moves")
        ),
        n => format!(
            "{rows} rows ({} and {n} passes)",
            count((rows - n) as u64, "move", "moves")
        ),
    }
}

/// What judged the rows that are not the last review's: "The other 40 are from an earlier
/// review, at 100 simulations a position."
fn others(budgets: &[Option<u64>], at: u64) -> String {
    let mut groups: Vec<(Option<u64>, usize)> = Vec::new();
    for &b in budgets.iter().filter(|b| **b != Some(at)) {
        match groups.iter_mut().find(|(g, _)| *g == b) {
            Some((_, n)) => *n += 1,
            None => groups.push((b, 1)),
        }
    }
    groups.sort_by_key(|(b, _)| *b);
    let total: usize = groups.iter().map(|(_, n)| n).sum();
    let budget = |b: Option<u64>| match b {
        Some(n) => format!("at {} a position", count(n, "simulation", "simulations")),
        None => "at a budget this page did not record".to_owned(),
    };
    match groups.as_slice() {
        [(b, _)] => format!(
            "The other {total} are from an earlier review, {}.",
            budget(*b)
        ),
        _ => {
            let each: Vec<String> = groups
                .iter()
                .map(|(b, n)| format!("{n} {}", budget(*b)))
                .collect();
            format!(
                "The other {total} are from earlier reviews: {}.",
                each.join(", ")
            )
        }
    }
}

/// Why the budget menu's numbers are not the levels' own, where the game's agent raised
/// them ([`super::raised`]): issue 68 found them changing with the game's agent without a
/// word. `None` where they are the levels' own. `judgings`: every level's, in
/// [`super::ReviewLevel::ALL`]'s order. Where a position's time keeps some budgets at or
/// below the agent's own search, the note says which, rather than that a review looks
/// further (issue 68's fifth look: "a review looks further than the agent did" beside
/// 10,000 and 20,000 against a Strong agent's 25,000).
pub fn budget_note(judgings: &[Judging]) -> Option<String> {
    let why = judgings.first()?.why.as_ref()?;
    let levels: Vec<String> = super::ReviewLevel::ALL
        .iter()
        .map(|l| thousands(l.simulations()))
        .collect();
    let without = format!(
        "Without an agent they are {}, {} and {}.",
        levels[0], levels[1], levels[2]
    );
    let (below, above): (Vec<&Judging>, Vec<&Judging>) = judgings
        .iter()
        .partition(|j| j.simulations <= j.agent_simulations);
    if below.is_empty() {
        return Some(format!(
            "These budgets are this game's: {why}, and a review looks further than the \
             agent did, or it would only repeat its search. {without}"
        ));
    }
    let names = |js: &[&Judging]| -> String {
        let each: Vec<String> = js.iter().map(|j| thousands(j.simulations)).collect();
        match each.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        }
    };
    let further = match above.as_slice() {
        // Every budget at or below the agent's: a fresh look read "none looks further than
        // the agent did; 10,000, 20,000 and 40,000 no more than its own search may grade…".
        [] => {
            return Some(format!(
                "These budgets are this game's: {why}. Kept to a position's time, none of \
                 them looks further than the agent did: {} are each no more than its own \
                 search, so a review may grade its moves more kindly than they deserve. \
                 {without}",
                names(&below)
            ))
        }
        [_] => format!("only {} looks further than the agent did", names(&above)),
        _ => format!("{} look further than the agent did", names(&above)),
    };
    Some(format!(
        "These budgets are this game's: {why}. Kept to a position's time, {further}; {} \
         no more than its own search may grade its moves more kindly than they deserve. \
         {without}",
        names(&below)
    ))
}

/// The review level the menu starts at for this game, `judgings` being every level's in
/// [`super::ReviewLevel::ALL`]'s order: the default level where its budget looks further
/// than the game's agent did, else the smallest that does, else the largest (a fresh look
/// found a Strong game's review starting at 20,000 a position under a note that only
/// 40,000 looks further than the agent did). A person's own pick of a level stands.
pub fn default_level(judgings: &[Judging]) -> super::ReviewLevel {
    let levels = super::ReviewLevel::ALL;
    let from = levels
        .iter()
        .position(|l| *l == super::ReviewLevel::default())
        .unwrap_or(0);
    if judgings.len() != levels.len() {
        return super::ReviewLevel::default();
    }
    judgings
        .iter()
        .zip(levels)
        .skip(from)
        .find(|(j, _)| j.simulations > j.agent_simulations)
        .map_or(levels[levels.len() - 1], |(_, level)| level)
}

/// Whether the budget note's room is kept under the menu (`shown`: the note is there):
/// only where the note can still come with the agent's next move, in a game an agent plays
/// and that is not over, at a level whose search raises the budgets (`would_raise`: the
/// level set now would bring a note). Issue 68: four lines of room kept in every game,
/// analysis and Beginner included, took New game to 1,120 px at 1280x900.
pub fn budget_note_room(game: &othello::GameState, shown: bool, would_raise: bool) -> bool {
    shown
        || (game.seats != othello::Seats::Analysis
            && !game.position().is_game_over()
            && would_raise)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::ReviewState;
    use engine::review::{MoveReview, Value};
    use othello::{BoardSize, Color, Move, Position, Variant};
    use protocol::ReviewedMove;

    fn reviewed(side: Color, played: Move) -> ReviewedMove {
        ReviewedMove::from_engine(&MoveReview::new(
            side,
            (played, Value::estimate(0.0)),
            (played, Value::estimate(0.0)),
        ))
    }

    /// A review of `game` at `simulations`, answered for its first `answered` moves, then
    /// cancelled unless it answered them all.
    fn review(state: &mut ReviewState, id: u64, game: &Game, simulations: u64, answered: usize) {
        let judged = format!(
            "Judged at {} simulations a position.",
            thousands(simulations)
        );
        state.started(id, (0, game.clone()), (judged, simulations));
        let moves = game.positions().iter().zip(game.moves()).take(answered);
        for (pos, &mv) in moves {
            state.reviewed(id, pos.hash(), reviewed(pos.side_to_move(), mv));
        }
        if answered < game.moves().len() {
            state.cancelled();
        } else {
            state.ended(id, None);
        }
    }

    fn judging_at(simulations: u64, agent: u64) -> Judging {
        Judging {
            simulations,
            text: String::new(),
            why: Some(format!("the agent searched with {agent} simulations")),
            agent_simulations: agent,
        }
    }

    #[test]
    fn the_budget_note_names_the_budgets_no_larger_than_the_agents_search() {
        // Issue 68's fifth look: a Strong agent's 25,000 beside 10,000, 20,000 and 40,000,
        // under "a review looks further than the agent did".
        let judgings: Vec<Judging> = [10_000, 20_000, 40_000]
            .iter()
            .map(|&s| judging_at(s, 25_000))
            .collect();
        let note = budget_note(&judgings).expect("a note");
        assert!(!note.contains("a review looks further"), "{note}");
        assert!(
            note.contains("only 40,000 looks further than the agent did; 10,000 and 20,000 no more than its own search"),
            "{note}"
        );
        // Every budget above the agent's: the note as before.
        let club: Vec<Judging> = [1_600, 6_400, 25_600]
            .iter()
            .map(|&s| judging_at(s, 400))
            .collect();
        let note = budget_note(&club).expect("a note");
        assert!(
            note.contains("and a review looks further than the agent did"),
            "{note}"
        );
        // The agent's own search is what the judging keeps.
        let agents = [(
            "Club",
            protocol::WireBudget {
                simulations: Some(400),
                millis: None,
            },
        )];
        let quick = crate::review::judging(crate::review::ReviewLevel::Quick, &agents, 25_000);
        assert_eq!(quick.agent_simulations, 400);
    }

    #[test]
    fn the_budget_notes_room_is_kept_only_where_a_note_can_come() {
        use othello::{GameState, Seats};
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let playing = GameState::new(start, Seats::Human(Color::Black));
        assert!(
            budget_note_room(&playing, false, true),
            "Casual's first move brings it"
        );
        assert!(
            !budget_note_room(&playing, false, false),
            "Beginner's never does"
        );
        assert!(
            budget_note_room(&playing, true, false),
            "a note shown has its room"
        );
        let analysis = GameState::new(start, Seats::Analysis);
        assert!(
            !budget_note_room(&analysis, false, true),
            "no agent, no note"
        );
        let full = format!("{} X", "X".repeat(64));
        let over = Position::from_board_text(&full, Variant::Standard).expect("a full board");
        let over = GameState::new(over, Seats::Human(Color::Black));
        assert!(
            !budget_note_room(&over, false, true),
            "no move left to bring it"
        );
    }

    #[test]
    fn a_stopped_review_says_which_rows_are_its_own_and_what_judged_the_others() {
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        let game = Game::from_transcript("f5d6c3d3c4", start).expect("legal");
        let mut state = ReviewState::default();
        review(&mut state, 1, &game, 100, 5);
        assert_eq!(
            judged_line(state.of(0), &game, false).as_deref(),
            Some("Judged at 100 simulations a position.")
        );
        // Issue 68: a Deep review cancelled after two moves said "Judged at 1,600" over
        // rows that were still Quick's.
        review(&mut state, 2, &game, 1600, 2);
        assert_eq!(
            judged_line(state.of(0), &game, false).as_deref(),
            Some(
                "2 of the table's 5 rows are from the last review, which was stopped before \
                 its end. It judged at 1,600 simulations a position. The other 3 are from an \
                 earlier review, at 100 simulations a position."
            )
        );
        // A first review stopped: the rest of the game has none.
        let mut first = ReviewState::default();
        review(&mut first, 3, &game, 400, 1);
        assert_eq!(
            judged_line(first.of(0), &game, false).as_deref(),
            Some(
                "The last review was stopped before its end, after 1 move: the rest of the \
                 game has no review. It judged at 400 simulations a position."
            )
        );
        // Passes have rows, the progress counts moves: the rows say so (the eleventh look).
        assert_eq!(super::table_rows(60, 1), "60 rows (59 moves and a pass)");
        assert_eq!(super::table_rows(62, 2), "62 rows (60 moves and 2 passes)");
        assert_eq!(super::table_rows(5, 0), "5 rows");
        // A reload cuts a running review short: saved as stopped.
        let mut running = ReviewState::default();
        let judged = "Judged at 400 simulations a position.".to_owned();
        running.started(4, (0, game.clone()), (judged, 400));
        assert!(running.to_save(0).stopped() && !running.of(0).stopped());
    }

    #[test]
    fn the_review_starts_at_a_budget_that_looks_further_than_the_agent_did() {
        use crate::review::ReviewLevel;
        let at = |budgets: [u64; 3], agent: u64| -> Vec<Judging> {
            budgets.iter().map(|&s| judging_at(s, agent)).collect()
        };
        // A Strong game: only 40,000 looks further than the agent's 25,000.
        assert_eq!(
            default_level(&at([10_000, 20_000, 40_000], 25_000)),
            ReviewLevel::Deep
        );
        // A Club game: the default's 6,400 does already.
        assert_eq!(
            default_level(&at([1_600, 6_400, 25_600], 400)),
            ReviewLevel::Medium
        );
        // No agent: the default.
        assert_eq!(
            default_level(&at([100, 400, 1_600], 0)),
            ReviewLevel::Medium
        );
        // None looks further (Strongest): the largest, and a note in plain words.
        let none = at([10_000, 20_000, 40_000], 100_000);
        assert_eq!(default_level(&none), ReviewLevel::Deep);
        let note = budget_note(&none).expect("a note");
        assert!(
            note.contains(
                "none of them looks further than the agent did: 10,000, 20,000 and 40,000 are \
                 each no more than its own search, so a review may grade its moves more kindly"
            ),
            "{note}"
        );
    }
}
