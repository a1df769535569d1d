//! What the page says to the person, in words: whose turn it is and who passed, who the
//! opponent is and how strong, what a search found, and the record of a game. Plain
//! functions of the game and the view, so every sentence is tested without a browser.

use crate::format::{count, discs, seconds, thousands, Sure};
use crate::levels::{alphabeta_millis, describe_budget, Difficulty};
use crate::merge::Merged;
use crate::overlay::Role;
use crate::pool::Purpose;
use crate::state::{viewpoint, GameState, Seats};
use crate::view::{Heat, ModelStatus, View};
use engine::report::Proof;
use engine::PlayerSpec;
use othello::{BoardSize, Color, Game, Move, Position, Variant};
use protocol::{EngineKind, SolvedStat, WireBudget};

/// A side as the page names it: "Black (Saio1200)" while the game is a record that
/// names its players (they played the moves on the board), else "Black (you)", "White
/// (the agent)", or just "Black".
pub fn who(game: &GameState, color: Color) -> String {
    if let Some(name) = crate::state::record_player(game, color) {
        return format!("{color} ({name})");
    }
    match game.seats {
        Seats::Human(c) if c == color => format!("{color} (you)"),
        Seats::Human(_) => format!("{color} (the agent)"),
        _ => color.name().to_owned(),
    }
}

/// The sides as the review's summaries name them, and a note when they cover moves
/// nobody played here: a game loaded from a record (or a pasted transcript) and played on
/// here is no longer the record's players' game, nor all "yours" and "the agent's"
/// (the tenth look: "White (the agent): … blunder 9", every one of them a move of the
/// record's, the agent's own all best). Then the sides are named by colour alone, and
/// the note says which moves came with the game.
pub fn review_names(game: &GameState) -> (String, String, Option<String>) {
    let brought = crate::state::brought_moves(game);
    let placed_brought = game.game.moves()[..brought]
        .iter()
        .filter(|m| **m != Move::Pass)
        .count();
    // A record in play that names its players: they played every move, and are named.
    let named = [Color::Black, Color::White]
        .into_iter()
        .any(|c| crate::state::record_player(game, c).is_some());
    if named || placed_brought == 0 {
        return (who(game, Color::Black), who(game, Color::White), None);
    }
    let note = format!(
        "Moves 1 to {placed_brought} came with the loaded game: nobody played them here, so each side's \
         summary counts every move of its colour, those included."
    );
    (
        Color::Black.name().to_owned(),
        Color::White.name().to_owned(),
        Some(note),
    )
}

/// The named opening the game has followed (`Opening: Tiger`), shown under the board and
/// in the move list; `None` before a named line is reached, and for games that are not
/// standard 8x8 from the standard start. A game that leaves the named lines keeps the last
/// name it had, as [`othello::named_opening`] says.
pub fn opening_line(game: &Game) -> Option<String> {
    othello::named_opening(game.positions()).map(|opening| format!("Opening: {}", opening.name))
}

/// How long the line under the board names the opening: 20 plies, past the longest named
/// line (18). After that the game is in its middle game, and the name stays in the move
/// list, with the game's record.
pub const OPENING_PLIES: usize = 20;

/// The named opening under the board: [`opening_line`] while the game is in its opening.
pub fn board_opening_line(game: &Game) -> Option<String> {
    opening_line(game).filter(|_| game.moves().len() <= OPENING_PLIES)
}

/// "Discard the game in progress (1 move)?": the question before a new game replaces one
/// with `placed` discs placed (passes are not moves a person counts).
pub fn discard_question(placed: usize) -> String {
    format!(
        "Discard the game in progress ({placed} move{})? It cannot be got back.",
        if placed == 1 { "" } else { "s" }
    )
}

/// Under the status after a pasted or opened game replaced one with `placed` discs
/// placed (`finished` when it had ended, which nobody was still playing): that it is
/// kept, and how to get it back.
pub fn set_aside_line(placed: usize, finished: bool) -> String {
    let which = if finished {
        "The finished game"
    } else {
        // Not "you were playing": the game put aside may itself have been loaded, and
        // nobody played it here (the ninth fresh look).
        "The game in progress"
    };
    format!(
        "{which} ({placed} move{}) was put aside for this one.",
        if placed == 1 { "" } else { "s" }
    )
}

/// After [`set_aside_line`]: how many games were put aside before that one, each brought
/// back in turn after it; empty where none was.
pub fn earlier_aside_line(earlier: usize) -> String {
    match earlier {
        0 => String::new(),
        1 => "One more game waits, put aside earlier: it comes back next. ".to_owned(),
        n => format!("{n} more games wait, put aside earlier: they come back next, one by one. "),
    }
}

/// Whether the game can have a named opening (standard 8x8 from the standard start). The
/// page keeps the opening's line under the board for such a game, empty until a name
/// comes, so that the name's arrival does not move the buttons below it.
pub fn may_name_opening(game: &Game) -> bool {
    *game.start() == Position::start(BoardSize::Eight, Variant::Standard)
}

/// The line under the board: whose turn, or the result.
pub fn status_line(game: &GameState, player_ready: bool) -> String {
    let pos = game.position();
    if let Some(outcome) = pos.outcome() {
        let you = match game.seats {
            Seats::Human(c) => Some(c),
            _ => None,
        };
        let verdict = match (outcome.winner(), you) {
            (Some(w), Some(y)) if w == y => " You win!",
            (Some(_), Some(_)) => " The agent wins.",
            _ => "",
        };
        return format!("Game over: {outcome}.{verdict}");
    }
    let mover = pos.side_to_move().name();
    if game.agent_to_move() && !player_ready {
        "Loading the network…".to_owned()
    } else if game.agent_to_move() {
        format!("{mover} (the agent) is thinking…")
    } else if game.seats == Seats::Analysis {
        format!("Analysis: {mover} to move")
    } else if game.can_redo() {
        // After "Play from here" or an undo: what became of the later moves (issue 68:
        // "Play from here" read as not having taken effect).
        format!(
            "{mover} to move: your turn. The later moves are kept: Redo replays them, a move \
             of yours replaces them."
        )
    } else {
        format!("{}{mover} to move: your turn", agent_moved(game))
    }
}

/// "White (the agent) played c4. " where the last move was the agent's in a game against
/// it, else nothing: the status said only "Black to move: your turn", and the agent's move
/// was a ring on the board to be found (the sixteenth look).
fn agent_moved(game: &GameState) -> String {
    match (last_placed(game), game.seats) {
        (Some((mover, mv)), Seats::Human(you)) if mover != you => {
            format!("{mover} (the agent) played {mv}. ")
        }
        _ => String::new(),
    }
}

/// The game's last move and who played it, where it placed a disc (not a pass).
fn last_placed(game: &GameState) -> Option<(Color, Move)> {
    let moves = game.game.moves();
    let last = *moves.last().filter(|m| **m != Move::Pass)?;
    Some((game.game.positions()[moves.len() - 1].side_to_move(), last))
}

/// The line under the board while the person looks at an earlier position: that it is
/// read only, and where the game is (issue 68: it said "your turn" beside the position
/// looked at).
pub fn looking_line(game: &GameState) -> String {
    let placed = game
        .game
        .moves()
        .iter()
        .filter(|m| **m != Move::Pass)
        .count();
    // A finished game looked back at says so too, its result kept in the words (issue 68,
    // eighth look: "Game over: draw 32-32." beside move 20's board and counts).
    if let Some(outcome) = game.position().outcome() {
        return format!(
            "Looking back (read only): the game itself ended at move {placed}: {outcome}."
        );
    }
    let mover = game.position().side_to_move();
    format!("Looking back (read only): the game itself is at move {placed}, {mover} to move.")
}

/// The line under the board while a reviewed move is shown on it: which move, and that
/// the board is the position before it, not the game's (issue 68: the status line still
/// said the game's end beside the reviewed position's board and counts).
pub fn reviewed_line(game: &GameState, index: usize) -> String {
    let moves = game.game.moves();
    let mover = game
        .game
        .positions()
        .get(index)
        .map_or_else(|| game.position().side_to_move(), Position::side_to_move);
    let which = match (
        crate::format::move_number(moves, index + 1),
        moves.get(index),
    ) {
        // "a3 by White (the agent)", not "(a3, White (the agent))": the eleventh look read
        // the brackets in brackets.
        (Some(n), Some(mv)) => format!("move {n} from the review: {mv} by {}", who(game, mover)),
        _ => format!("the pass by {} from the review", who(game, mover)),
    };
    format!("Looking at {which}, before it was played.")
}

/// The line under the board while a loaded game waits for the person before the agent
/// plays on (`state::held_after`).
pub fn held_line(game: &GameState) -> String {
    let mover = game.position().side_to_move();
    format!("{mover} (the agent) is to move: press \"Play on\" to let it, or analyse the game.")
}

/// The line under the board while a watched game is paused: nobody is thinking, and the
/// way on is Resume.
pub fn paused_line(game: &GameState) -> String {
    let mover = game.position().side_to_move().name();
    format!("Paused: {mover} (the agent) is to move. Press Resume to go on.")
}

/// The line above the board while the person looks at another position of the game than
/// its own (a click in the move list or on the graph): which move, whose, and where the
/// game itself is, which looking does not change.
pub fn browse_line(game: &GameState, ply: usize) -> Option<String> {
    let shown = crate::state::at_ply(game, ply);
    let played = game.game.moves().len();
    let at = if ply < played {
        "an earlier"
    } else {
        "a later"
    };
    // Moves by the discs placed, as the list, the graph and the review number them.
    let game_at = crate::state::placed(&game.game);
    let Some(index) = ply.checked_sub(1) else {
        return Some(format!(
            "You are looking at the start position: the game itself is at move {game_at}."
        ));
    };
    let mv = shown.game.moves().get(index)?;
    let mover = shown.game.positions().get(index)?.side_to_move();
    let which = match crate::format::move_number(shown.game.moves(), ply) {
        Some(n) => format!("move {n}, {mv}"),
        None => "a pass".to_owned(),
    };
    Some(format!(
        "You are looking at {at} position, after {which} by {}: the game itself is at move \
         {game_at}.",
        who(game, mover)
    ))
}

/// The passes since the person last placed a disc, announced until they act again; none
/// once the game is over, whose result is then the news.
pub fn pass_notice(game: &GameState) -> Option<String> {
    if game.position().is_game_over() {
        return None;
    }
    let passes = game.recent_passes();
    if passes.is_empty() {
        return None;
    }
    let sentences: Vec<String> = pass_counts(&passes)
        .into_iter()
        .map(|(c, n)| pass_sentence(&who(game, c), n))
        .collect();
    Some(sentences.join(" "))
}

/// The status beside the pass news on the person's turn in a game against the agent,
/// where a move has been played since the pass: "White played b4: your turn." in place of
/// [`status_line`]'s "Black to move: your turn" ("…passed. Black to move: your turn"
/// beside White's new disc read as a second pass: the tenth look). Short, so that news
/// and status keep a phone's two lines; `None` where the status line says more (the
/// later moves kept for redo) or no move follows the pass.
pub fn after_pass(game: &GameState) -> Option<String> {
    let (mover, last) = last_placed(game)?;
    let plain_turn = matches!(game.seats, Seats::Human(_)) && !game.can_redo();
    (plain_turn && game.human_to_move() && !game.recent_passes().is_empty())
        .then(|| format!("{mover} played {last}: your turn."))
}

/// How often each side passed, in the order they first did: one sentence a side, however
/// many times it had to pass while the other played on.
fn pass_counts(passes: &[Color]) -> Vec<(Color, usize)> {
    let mut counts: Vec<(Color, usize)> = Vec::new();
    for &color in passes {
        match counts.iter_mut().find(|(c, _)| *c == color) {
            Some((_, n)) => *n += 1,
            None => counts.push((color, 1)),
        }
    }
    counts
}

fn pass_sentence(who: &str, times: usize) -> String {
    match times {
        1 => format!("{who} had no legal move and passed."),
        2 => format!("{who} had no legal move and passed twice."),
        n => format!("{who} had no legal move and passed {n} times."),
    }
}

/// Who thinks for the agent on this board and how strong it is: a first line naming the
/// player and its budget, and the network's measured strength when its card has it.
pub fn opponent_lines(
    view: &View,
    seats: Seats,
    size: BoardSize,
    variant: Variant,
    difficulty: &Difficulty,
) -> (String, Option<String>) {
    let role = match seats {
        Seats::Human(_) => "Opponent",
        Seats::AgentVsAgent => "Both sides",
        Seats::Analysis => "Analysis by",
    };
    let budget = difficulty.budget();
    let alphabeta = |why: String| {
        format!(
            "{role}: the classic alpha-beta player, up to {} ({why})",
            describe_budget(WireBudget {
                simulations: None,
                millis: Some(alphabeta_millis(budget)),
            })
        )
    };
    match view.model(size, variant) {
        Some(ModelStatus::Loading(name)) => (
            match view.download_progress(name) {
                Some(progress) => format!("Loading the {name} network… {progress}"),
                None => format!("Loading the {name} network…"),
            },
            None,
        ),
        Some(ModelStatus::Ready(name)) => (
            format!(
                "{role}: the {name} network, {}: {}",
                difficulty.name(),
                difficulty.describe()
            ),
            // The level played now beside the level it was measured at (issue 68: a 1 s
            // figure stood beside whatever level was chosen).
            view.strength(name).map(|measured| {
                format!(
                    "{measured} You play it now at {}, {}.",
                    difficulty.name(),
                    difficulty.describe()
                )
            }),
        ),
        Some(ModelStatus::Failed(error)) => (
            alphabeta(format!("the network could not be used: {error}")),
            None,
        ),
        // Before the page has asked for the board's own network (the first moments of a
        // visit), it is the network that is coming, not alpha-beta (issue 68: the header
        // said "no network plays 8x8 standard yet" for 0.4 s at every load).
        None => match crate::models::builtin_for(size, variant) {
            Some(builtin) => (format!("Loading the {} network…", builtin.name()), None),
            None => (
                alphabeta(format!("no network plays {size} {variant} yet")),
                None,
            ),
        },
    }
}

/// The header's line with the budget the game's review was judged at, where it has one
/// (`judged_at`, the last review's): the level named before it plays and analyses, but the
/// review's values are the review's budget's. Issue 68: after a transcript loaded at
/// Instinct was reviewed, "Analysis by: …, Instinct (policy): no search" stood beside
/// "Judged at 100 simulations a position". No colon: the line keeps two at most.
pub fn with_review(line: String, judged_at: Option<u64>) -> String {
    match judged_at {
        Some(n) if !line.starts_with("Loading") => format!(
            "{line}; this game's review at {} a position",
            count(n, "simulation", "simulations")
        ),
        _ => line,
    }
}

/// Under the difficulty: what the level means on this board when the network does not
/// play it (the alpha-beta fallback knows time, not simulations).
pub fn level_note(player: Option<&PlayerSpec>, budget: WireBudget) -> Option<String> {
    let alphabeta = player.is_some_and(|p| EngineKind::of(p) == EngineKind::AlphaBeta);
    alphabeta.then(|| {
        format!(
            "On this board the classic alpha-beta player plays instead, up to {} per move.",
            seconds(alphabeta_millis(budget) as f64)
        )
    })
}

/// What the search panel shows: one heading that says whose search it is, and lines
/// whose figures agree with each other.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// "thinking", "past", "hint", "analysis" (for styling and the tests).
    pub kind: &'static str,
    pub heading: String,
    /// The estimate from one fixed viewpoint, or the exact solver's verdict.
    pub verdict: Option<String>,
    pub pv: Option<String>,
    pub speed: Option<String>,
    pub simulations: u64,
    pub rate: f64,
    pub elapsed_ms: f64,
    pub workers: usize,
    /// While the solver may still prove the position (it is within its reach at this
    /// level): that the figures are estimates until it does.
    pub proving: Option<String>,
}

/// The summary of the search the panel shows (`shown`, from
/// [`crate::overlay::panel_search`]), or of the alpha-beta player thinking, which reports
/// nothing until it has its move.
pub fn search_summary(
    view: &View,
    game: &GameState,
    shown: Option<(&Heat, Role)>,
    player: Option<&PlayerSpec>,
    budget: WireBudget,
) -> Option<Summary> {
    let alphabeta = player.is_some_and(|p| EngineKind::of(p) == EngineKind::AlphaBeta);
    let cap = seconds(alphabeta_millis(budget) as f64);
    let Some((heat, role)) = shown else {
        let thinking = view.searching.is_some_and(|(purpose, hash, _)| {
            purpose == Purpose::Move && hash == game.position().hash()
        });
        return (thinking && alphabeta).then(|| Summary {
            kind: "thinking",
            heading: format!("Alpha-beta is thinking (up to {cap} per move)…"),
            ..Summary::empty()
        });
    };
    let merged = &heat.merged;
    let (kind, heading) = search_heading(heat, role, game, budget, &cap);
    // The network without search: its choice and its own estimate, no simulations to count.
    let estimate = || verdict(merged, heat.side, panel_side(heat, role, game), game);
    if merged.search.engine == EngineKind::Instinct {
        let mut summary = instinct_summary(heat, role, kind, estimate());
        // The network's estimate beside the final score too (the sixteenth look: "1%
        // chance to win, expected result ≈ −31 discs" beside "White wins 44-20").
        if role == Role::Past {
            summary.verdict = summary.verdict.map(|v| before_the_end(v, game));
        }
        return Some(summary);
    }
    if merged.search.engine == EngineKind::AlphaBeta {
        return Some(Summary {
            kind,
            heading,
            ..Summary::empty()
        });
    }
    if merged.search.book.is_some() {
        return Some(Summary {
            kind,
            heading,
            verdict: Some(estimate()),
            ..Summary::empty()
        });
    }
    // No simulations and no exact result: a single legal move played at once, or a search
    // not yet under way. A prior's 50% would read as an estimate, so none is shown.
    if merged.settled_without_search() {
        let speed = match role {
            Role::Thinking => "Starting the search…",
            _ => ONLY_MOVE_SPEED,
        };
        // A finished analysis's heading would name a budget it never spent ("finished (100
        // simulations; …)" above "No search", a fresh look found): the line below says it.
        // Nothing searched, so nothing "suggests" or was "searched": the heading names
        // the move as the only one (issue 68, eighth look: "the search suggests f1" over
        // "No search").
        let heading = match (role, merged.best_move()) {
            (Role::Analysis, _) if heat.done => format!("Analysis of {} to move", heat.side),
            (_, Some(mv)) => only_move_heading(role, heat.side, mv).unwrap_or(heading),
            _ => heading,
        };
        return Some(Summary {
            kind,
            heading,
            speed: Some(speed.to_owned()),
            ..Summary::empty()
        });
    }
    let proving = (role != Role::Past && !heat.done)
        .then(|| proving_note(merged, game.position(), budget))
        .flatten();
    let again =
        matches!(role, Role::Hint | Role::Analysis) && view.asked_again == Some(heat.position);
    let mut summary = Summary {
        proving,
        ..searched_summary(merged, (kind, heading), estimate(), again)
    };
    // The move played (or the one the search names) is not always the line's first: say
    // so where the line is shown (issue 68).
    let moved = match role {
        Role::Past => played_after(game, heat.position),
        _ => merged.best_move(),
    };
    if let (Some(pv), Some(note)) = (
        summary.pv.as_mut(),
        moved.and_then(|mv| line_note(merged, mv, role == Role::Past)),
    ) {
        pv.push_str(&format!(". {note}"));
    }
    // Once the game is over its result is the board's: the last search's estimate of a
    // position before the end sat beside the final score and seemed to disagree with it
    // (issue 68: "1% chance to win, expected result ~-46 discs" beside "White wins
    // 52-12"), so it is said as what it was then. Dropped, it emptied the panel of the
    // game's last search at its end (issue 68 again). The solver's exact result is the
    // board's, and stays as it is: its panel once gave a speed line and no result line at
    // the game's last move (issue 68).
    if role == Role::Past && !solved_the_end(merged, heat.side, game) {
        summary.verdict = summary.verdict.map(|v| before_the_end(v, game));
    }
    Some(summary)
}

/// A past search's verdict once the game is over: said as what it was before the last
/// move, the final result being the board's.
fn before_the_end(verdict: String, game: &GameState) -> String {
    if game.position().is_game_over() {
        format!("Before that move: {verdict}. The final result is the board's.")
    } else {
        verdict
    }
}

/// The estimate line of the search the panel beside the board shows (its chance and
/// expected result, or the solver's verdict), for a phone's one-line copy of it above the
/// fold: its words do not depend on the player or the budget, which only the heading and
/// the speed line name.
pub fn panel_verdict(view: &View, game: &GameState, browsing: Option<usize>) -> Option<String> {
    let panel = crate::overlay::panel_beside(view, game, browsing);
    search_summary(view, game, panel, None, WireBudget::default())?.verdict
}

/// The panel's verdict as the phone's slot under the board gives it, within the slot's
/// three lines: a proof's claim without its reasons ("Proven win by at least 12 for Black
/// (you), not solved exactly", the panel going on with which move reaches it and why it
/// may not be the best), which ran to a fourth line and moved the buttons (the ninth
/// look); any other verdict whole.
pub fn phone_copy(verdict: &str) -> &str {
    if verdict.starts_with("Proven") {
        verdict.split_once(':').map_or(verdict, |(claim, _)| claim)
    } else {
        verdict
    }
}

/// The side the panel's estimate speaks for: the side to move of a search made for the
/// person (a hint's, an analysis's), whose squares hold margins for that side, so that the
/// panel and the squares say one thing (issue 68: "Proven win by 24 for Black" beside a
/// square's "-24" for White); the person's colour beside the agent's own search, whose
/// squares hold shares of visits and speak for nobody.
fn panel_side(heat: &Heat, role: Role, game: &GameState) -> Color {
    match role {
        Role::Hint | Role::Analysis => heat.side,
        Role::Thinking | Role::Past => viewpoint(game.seats),
    }
}

/// Whether the game is not over, or the search solved it exactly to the board's own final
/// margin (for `side`, the side the search moved for): then its verdict says the result
/// the board shows, and is no estimate beside it.
fn solved_the_end(merged: &Merged, side: Color, game: &GameState) -> bool {
    let Some(end) = game.position().outcome() else {
        return true;
    };
    merged
        .search
        .solved
        .is_some_and(|s| s.exact && s.margin == end.margin_for(side))
}

/// Where the move played (`past`) or named is not the first move of the line the panel
/// shows, why, in words: the panel once showed a line starting d3 beside the agent's c4
/// without a word (issue 68). With several workers the move is chosen from their visits
/// added up, and the line shown is the tree of one of them that started elsewhere; a lone
/// worker's line starts with its own choice (its Gumbel root's included), so there a
/// difference can only be the search's own rule, said as such.
pub fn line_note(merged: &Merged, mv: Move, past: bool) -> Option<String> {
    let first = *merged.search.pv.first()?;
    if first == mv {
        return None;
    }
    let verb = if past { "It played" } else { "It names" };
    let why = if merged.per_worker_rate.len() > 1 {
        format!(
            "the move is chosen from all {} workers' visits added up, and this line is the \
             tree of one worker, whose search went to {first} first",
            merged.per_worker_rate.len()
        )
    } else {
        format!("this line follows the search's most visited moves, which start with {first}")
    };
    Some(format!("{verb} {mv}, not this line's first move: {why}."))
}

/// While a search of `pos` runs within the solver's reach at the level's budget (a proof
/// is tried beside the search from 24 empties on 8x8 at a timed level, 20 otherwise), what
/// its figures are until the proof comes (issue 68: FFO #40 at Strong read "98% chance to
/// win, +27 discs" for a second before the solver's "at least 30"). None once the result
/// is proven, exactly or as a win, loss or draw: a fresh look found "Proven win for
/// Black" above "trying to prove this position ... the chance and the margin above are
/// the network's estimates" where neither was shown. The search slows sharply while the
/// solver works (about 1,300 simulations a second against 26,000), which the note says,
/// so that the slow count does not read as a fault.
pub(crate) fn proving_note(merged: &Merged, pos: &Position, budget: WireBudget) -> Option<String> {
    if merged.search.solved.is_some() || merged.search.proof.is_some() {
        return None;
    }
    let reach = engine::mcts::RootSolve::default().reach(pos.size());
    let within = if budget.millis.is_some() {
        reach.proved
    } else {
        reach.tried
    };
    let empties = pos.empty_count();
    (empties > reach.exact && empties <= within).then(|| {
        format!(
            "The solver is trying to prove this position ({empties} empties, within its reach \
             of {within}): until it does, the chance and the margin above are the network's \
             estimates (≈), and the search runs slower while the solver works."
        )
    })
}

/// Below this many simulations, or this many milliseconds, a search's rate is noise and
/// the page gives none.
const MIN_TIMED_SIMULATIONS: u64 = 50;
const MIN_TIMED_MS: f64 = 20.0;

/// The summary of a search that ran: its estimate, principal variation and speed (or the
/// solver's, when the solver settled it without a simulation).
fn searched_summary(
    merged: &Merged,
    (kind, heading): (&'static str, String),
    verdict: String,
    again: bool,
) -> Summary {
    let pv: Vec<String> = merged
        .search
        .pv
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    let rate = merged.simulations_per_second();
    let workers = merged.per_worker_rate.len().max(1);
    let speed = match merged.search.solved {
        Some(solved) if merged.search.simulations == 0 => solver_speed(solved),
        _ => {
            let notes = [kept_note(merged), again.then(|| ASKED_AGAIN.to_owned())];
            let mut speed = search_speed(merged, rate, workers);
            for note in notes.into_iter().flatten() {
                speed.push_str(&format!(". {note}"));
            }
            speed
        }
    };
    Summary {
        kind,
        heading,
        verdict: Some(verdict),
        pv: (!pv.is_empty()).then(|| format!("Principal variation: {}", pv.join(" "))),
        speed: Some(speed),
        simulations: merged.search.simulations,
        rate,
        elapsed_ms: merged.search.elapsed_ms,
        workers,
        proving: None,
    }
}

/// Visits a search found in its tree, left by an earlier search (the agent's, a hint's),
/// worth a word below this share of its own simulations.
const KEPT_SHARE: f64 = 0.1;

/// What the speed line adds where the search went on from a tree an earlier search left
/// (a hint's, then an analysis of the same position; the agent's, then a hint): the
/// visits it found there are not its own work, and the panel's figures are over both.
/// Issue 68: an analysis after a hint read "400 simulations in 1 ms", as if it had done
/// the hint's work again in a millisecond.
fn kept_note(merged: &Merged) -> Option<String> {
    let visits: u64 = merged.moves.iter().map(|m| u64::from(m.visits)).sum();
    let own = merged.search.simulations;
    let kept = visits.saturating_sub(own);
    // The count and the rate before this note are the search's own simulations (the
    // engine counts from zero at each search); a fresh look read "102,591 simulations ...
    // went on from 32,465 visits ..., which the figures above include" as a rate inflated
    // by visits the search did not do, so the note names the total apart.
    (kept as f64 > KEPT_SHARE * own.max(1) as f64 && kept >= 10).then(|| {
        format!(
            "Those simulations and the rate are this search's own: it went on from {} an \
             earlier search left in its tree, {} in all, which the chances and visits above \
             include",
            count(kept, "visit", "visits"),
            thousands(visits)
        )
    })
}

/// What the speed line adds to a hint or an analysis of a position the same search asked
/// about before on this page (`View::asked_again`): a question starts its tree afresh, so
/// its simulations are its own, but the searcher keeps the network's values of the
/// positions it has seen, and a second search of them runs on those at once. Issue 68:
/// "400 simulations in 1 ms" after a hint read as the hint's work counted again.
const ASKED_AGAIN: &str = "Its simulations are its own, but this position was searched the same \
     way before on this page, and the network's values of its positions were kept, so they \
     took almost no time";

/// The speed line of a search that ran simulations.
fn search_speed(merged: &Merged, rate: f64, workers: usize) -> String {
    match merged.search.solved {
        // The solver settled it without a simulation: its own count, not "0 simulations".
        Some(solved) if merged.search.simulations == 0 => solver_speed(solved),
        // A handful of simulations in a few milliseconds (a reused tree that had nearly
        // all its budget) times nothing: "62,500 per second" was such a figure.
        _ if merged.search.simulations < MIN_TIMED_SIMULATIONS
            || merged.search.elapsed_ms < MIN_TIMED_MS =>
        {
            format!(
                "{} in {}: too short a search to give a speed",
                count(merged.search.simulations, "simulation", "simulations"),
                elapsed_text(merged.search.elapsed_ms),
            )
        }
        _ => format!(
            "{} in {}: {} per second on {workers} worker{}",
            count(merged.search.simulations, "simulation", "simulations"),
            elapsed_text(merged.search.elapsed_ms),
            thousands(rate.round() as u64),
            if workers == 1 { "" } else { "s" }
        ),
    }
}

/// A search's time as the speed line says it: milliseconds under a second, where "0 s"
/// would make any rate look absurd (a search that reused its tree can take 2 ms).
fn elapsed_text(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{} ms", ms.round().max(1.0))
    } else {
        seconds(ms)
    }
}

/// The exact solver's work, for a move it settled alone. Under [`MIN_TIMED_MS`] its rate
/// is noise, as a short search's is (issue 68's fourth look: "8 positions in 1 ms:
/// 8,000,000 per second" at a game's last move).
fn solver_speed(solved: SolvedStat) -> String {
    // The time in the form the panel's result line gives it, and the rate over that time.
    let (time, shown_ms) = (
        crate::format::solve_time(solved.micros),
        crate::format::solve_time_ms(solved.micros),
    );
    if (solved.micros as f64 / 1000.0) < MIN_TIMED_MS {
        return format!(
            "The endgame solver: {} in {time}: too short a solve to give a speed",
            count(solved.nodes, "position", "positions"),
        );
    }
    let rate = solved.nodes as f64 / (shown_ms / 1000.0);
    format!(
        "The endgame solver: {} in {time}: {} per second",
        count(solved.nodes, "position", "positions"),
        thousands(rate.round() as u64)
    )
}

/// The heading of a search's summary, and its kind (the panel's style), by what the search
/// is for and which engine ran it.
fn search_heading(
    heat: &Heat,
    role: Role,
    game: &GameState,
    budget: WireBudget,
    cap: &str,
) -> (&'static str, String) {
    let merged = &heat.merged;
    match (role, merged.search.engine) {
        (_, EngineKind::AlphaBeta) => {
            let chose = merged
                .best_move()
                .map_or(String::new(), |m| format!(" chose {m}"));
            let verb = if role == Role::Thinking {
                " is thinking"
            } else {
                ""
            };
            (
                role_kind(role),
                format!(
                    "Alpha-beta{verb}{chose} in {} (up to {cap} per move)",
                    seconds(merged.search.elapsed_ms)
                ),
            )
        }
        (Role::Thinking, _) => (
            "thinking",
            format!("The agent is thinking ({})", describe_budget(budget)),
        ),
        // A book move had no search: the heading says where the move came from.
        (Role::Past, _) if merged.search.book.is_some() => {
            let played =
                played_after(game, heat.position).map_or(String::new(), |m| format!(", {m},"));
            (
                "past",
                format!("The agent's last move{played} came from its opening book"),
            )
        }
        (Role::Past, _) => {
            let played = played_after(game, heat.position)
                .map_or(String::new(), |m| format!(", before it played {m}"));
            ("past", format!("The agent's last search{played}"))
        }
        (Role::Hint, _) => (
            "hint",
            format!(
                "Hint for {}{}: the {} suggests {}",
                heat.side,
                if heat.done && heat.stopped {
                    format!(", stopped after {}", elapsed_text(merged.search.elapsed_ms))
                } else {
                    String::new()
                },
                if merged.search.book.is_some() {
                    "opening book"
                } else {
                    "search"
                },
                merged.best_move().map_or("—".to_owned(), |m| m.to_string())
            ),
        ),
        // The level's budget bounds analysis as it bounds a hint: say whether it is spent.
        (Role::Analysis, _) => {
            let state = if heat.done && heat.stopped {
                stopped_analysis(budget, merged.search.elapsed_ms)
            } else if heat.done {
                merged
                    .search
                    .solved
                    .as_ref()
                    .and_then(|solved| solved_analysis(solved, merged.search.simulations))
                    .unwrap_or_else(|| finished_analysis(budget, merged.search.elapsed_ms))
            } else {
                running_analysis(budget, merged.search.elapsed_ms)
            };
            (
                "analysis",
                format!("Analysis of {} to move: {state}", heat.side),
            )
        }
    }
}

/// How an analysis the endgame solver settled finished, in the solver's own time (the one
/// its speed line gives: the sixteenth look read "solved exactly in 17 ms" over "187,183
/// positions solved in 15 ms"): solved exactly, or, where no simulation ran beside it,
/// proven only to a bound (the sixteenth look read "finished (400 simulations; a higher
/// level looks longer)" over a solve that had spent its positions). `None` where a search
/// ran beside a bound: its budget is the news.
fn solved_analysis(solved: &SolvedStat, simulations: u64) -> Option<String> {
    let took = crate::format::solve_time(solved.micros);
    if solved.exact {
        // No budget was spent on it: "finished (100 simulations)" over a solve read as a
        // search that had counted its simulations (the twelfth look).
        Some(format!("finished: solved exactly in {took}"))
    } else {
        (simulations == 0).then(|| {
            format!("finished: the endgame solver proved a bound in {took}, not the exact result")
        })
    }
}

/// An analysis under way: its budget, or, once it has run past its time (the exact solver
/// finishing a proof, which no clock cuts short), that it is proving the result past the
/// time asked (issue 62's sixteenth finding: "1 s" that took 4-6 s without a word).
fn running_analysis(budget: WireBudget, elapsed_ms: f64) -> String {
    let described = describe_budget(budget);
    let described = described.trim_end_matches(" per move");
    match budget.millis {
        Some(ms) if elapsed_ms > ms as f64 + PAST_BUDGET_GRACE_MS => format!(
            "proving the result exactly, past the {described} asked ({} so far)…",
            elapsed_text(elapsed_ms)
        ),
        _ => format!("searching ({described})…"),
    }
}

/// A search's last report may come a slice (about 100 ms) after its time: only past this
/// is it running over.
const PAST_BUDGET_GRACE_MS: f64 = 250.0;

/// The most a preset level searches: Strongest's 5 s. Above it only a custom level looks
/// longer.
const TOP_LEVEL_MILLIS: u64 = 5000;

/// An analysis the person stopped (Stop) before its time: that it was stopped, not that it
/// finished (issue 68: "finished in 1.88 s (of up to 5 s)" read as the solver's doing).
fn stopped_analysis(budget: WireBudget, elapsed_ms: f64) -> String {
    let described = describe_budget(budget);
    let described = described.trim_end_matches(" per move");
    format!(
        "stopped after {} (of up to {described}), with what it had found",
        elapsed_text(elapsed_ms)
    )
}

/// How an analysis finished, as it did: a search stopped well inside its time (the solver
/// settled it) says how long it took of how much; one that spent its budget says which,
/// and that a higher level looks longer, where there is one.
fn finished_analysis(budget: WireBudget, elapsed_ms: f64) -> String {
    let described = describe_budget(budget);
    let described = described.trim_end_matches(" per move");
    match budget.millis {
        Some(ms) if budget.simulations.is_none() && elapsed_ms < 0.9 * ms as f64 => {
            format!(
                "finished in {} (of up to {described})",
                elapsed_text(elapsed_ms)
            )
        }
        Some(ms) if budget.simulations.is_none() && ms >= TOP_LEVEL_MILLIS => {
            format!("finished ({described})")
        }
        _ => format!("finished ({described}; a higher level looks longer)"),
    }
}

/// What the panel says of the speed where the only legal move was played unsearched.
const ONLY_MOVE_SPEED: &str = "No search: it was the only legal move.";

/// A hint's or the agent's move where it was the only legal move, in the words every level
/// uses (issue 68's eighth look: "the search suggests f1" over "No search"); `None` for
/// the other roles, which say it their own way.
fn only_move_heading(role: Role, side: Color, mv: Move) -> Option<String> {
    match role {
        Role::Hint => Some(format!("Hint for {side}: {mv}, the only legal move")),
        Role::Past => Some(format!("The agent played {mv}, the only legal move")),
        _ => None,
    }
}

/// The network without search: its choice and its own estimate, no simulations to count.
fn instinct_summary(heat: &Heat, role: Role, kind: &'static str, estimate: String) -> Summary {
    let merged = &heat.merged;
    let choice = merged
        .best_move()
        .map_or("no move".to_owned(), |m| m.to_string());
    // The network reports every legal move: one is the only legal move, said as every
    // other level says it, with no estimate (the ninth look: "The network without search
    // chose b8 … ≈ −45 discs" beside the game's end, where b8 was forced and the result
    // fixed at −34).
    if let [only] = merged.moves.as_slice() {
        let heading = only_move_heading(role, heat.side, only.mv).unwrap_or_else(|| {
            format!(
                "The network without search plays {}, the only legal move",
                only.mv
            )
        });
        return Summary {
            kind,
            heading,
            speed: Some(ONLY_MOVE_SPEED.to_owned()),
            ..Summary::empty()
        };
    }
    let heading = match role {
        Role::Hint => format!(
            "Hint for {}: the network without search suggests {choice}",
            heat.side
        ),
        Role::Past => format!("The network without search chose {choice}"),
        _ => format!("The network without search chooses {choice}"),
    };
    Summary {
        kind,
        heading,
        verdict: Some(estimate),
        speed: Some("No search: one look by the network.".to_owned()),
        elapsed_ms: merged.search.elapsed_ms,
        ..Summary::empty()
    }
}

fn role_kind(role: Role) -> &'static str {
    match role {
        Role::Thinking => "thinking",
        Role::Past => "past",
        Role::Hint => "hint",
        Role::Analysis => "analysis",
    }
}

impl Summary {
    fn empty() -> Summary {
        Summary {
            kind: "thinking",
            heading: String::new(),
            verdict: None,
            pv: None,
            speed: None,
            simulations: 0,
            rate: 0.0,
            elapsed_ms: 0.0,
            workers: 1,
            proving: None,
        }
    }
}

/// The move played from the position with this hash, if the game went through it.
fn played_after(game: &GameState, hash: u64) -> Option<Move> {
    let positions = game.game.positions();
    let moves = game.game.moves();
    (0..moves.len())
        .rev()
        .find(|&i| positions[i].hash() == hash)
        .map(|i| moves[i])
}

/// The estimate (or the exact result) for `view`, whichever side is to move, named once.
fn verdict(merged: &Merged, side: Color, view: Color, game: &GameState) -> String {
    let (seats, size) = (game.seats, game.position().size());
    let me = if seats == Seats::Human(view) {
        format!("{view} (you)")
    } else {
        view.name().to_owned()
    };
    let sign = if side == view { 1.0 } else { -1.0 };
    if let Some(book) = &merged.search.book {
        let value =
            crate::format::with_discs(&discs(book.value * sign as f32, Sure::Estimate(size)));
        return format!(
            "Book move {}, value {value} for {me}, from the opening book (no search)",
            book.best
        );
    }
    if let Some(solved) = merged.search.solved {
        return proven_verdict(solved, side, &me, sign as i32);
    }
    if let Some(proof) = merged.search.proof {
        let for_view = if side == view { proof } else { proof.flip() };
        let (result, whose) = match for_view {
            Proof::Win => ("win", format!(" for {me}")),
            Proof::Loss => ("loss", format!(" for {me}")),
            Proof::Draw => ("draw", String::new()),
        };
        // The root solve leaves a proven loss to the search, whose move is a swindle's.
        let why = if proof == Proof::Loss {
            format!(": {side} plays on for the best practical chance")
        } else {
            String::new()
        };
        return format!("Proven {result}{whose}{why}");
    }
    // The best move's value, as the framed square shows it, in the page's one rule.
    let (value, score) = merged.best_value();
    let win = (value * sign as f32 + 1.0) / 2.0;
    let mut text = format!("For {me}: {} chance to win", crate::format::chance(win));
    if let Some(score) = score {
        let expected = discs(score * sign as f32, Sure::Estimate(size));
        text.push_str(&format!(
            ", expected result {}",
            crate::format::with_discs(&expected)
        ));
        if heads::disagree(win, score * sign as f32) {
            text.push_str(heads::DISAGREE);
        }
    }
    text
}

/// The solver's verdict for `me` (`sign`: +1 when `me` is the side to move `side`):
/// "Proven win by 6", "Proven draw", or, where the budget allowed only the result, "Proven
/// win" and the move that keeps it.
fn proven_verdict(solved: SolvedStat, side: Color, me: &str, sign: i32) -> String {
    let margin = solved.margin * sign;
    let result = match margin.signum() {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    };
    if solved.exact {
        let by = if margin == 0 {
            String::new()
        } else {
            format!(" by {}", margin.abs())
        };
        let whose = if margin == 0 {
            String::new()
        } else {
            format!(" for {me}")
        };
        return format!(
            "Proven {result}{by}{whose}, solved exactly: that is the result after {} by {side}, and no move of {side}'s does better",
            solved.best
        );
    }
    // A bound: the move reaches it, and a better margin (and move) may exist.
    let at_least = solved.margin.abs();
    let what = match (margin.signum(), sign > 0) {
        (0, true) => "at least a draw".to_owned(),
        (0, false) => "at best a draw".to_owned(),
        (_, _) => format!("{result} by at least {at_least} for {me}"),
    };
    format!(
        "Proven {what}, not solved exactly: that is the result after {} by {side}, but the best margin was not reached in the time, so {} may not be {side}'s best move",
        solved.best, solved.best
    )
}

/// A game's record, to copy or download: the board, who played (a loaded record's
/// players while it is still that game, "not named" where it names none), the result and
/// the moves.
pub fn game_record(game: &GameState, opponent: &str) -> String {
    let start = game.game.start();
    let players = match (game.record_in_play(), game.seats) {
        (Some(record), _) => {
            let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "not named".to_owned());
            format!(
                "Black: {}; White: {}",
                name(&record.black),
                name(&record.white)
            )
        }
        (None, Seats::Human(c)) => format!("{c}: you; {}: {opponent}", c.opposite()),
        (None, Seats::AgentVsAgent) => format!("both sides: {opponent}"),
        (None, Seats::Analysis) => "analysis (one person for both sides)".to_owned(),
    };
    let result = game
        .position()
        .outcome()
        .map_or("unfinished".to_owned(), |o| o.to_string());
    // An XOT game's moves from the standard start, the opening's first, so that the line
    // loads back as a transcript (issue 68: it began after the opening, and did not).
    let moves = crate::openings::transcript_from_the_start(&game.game, true);
    let start = match crate::openings::xot_of(start) {
        Some((n, _)) => format!(
            "{} (the standard position: the game began from balanced opening {n} of the XOT \
             list, whose 8 moves begin the moves below)",
            othello::Position::start(start.size(), start.variant()).to_board_text()
        ),
        None => start.to_board_text(),
    };
    let board = game.game.start();
    format!(
        "{} {} {}\nStart: {start}\nPlayers: {players}\nResult: {result}\nMoves: {moves}\n",
        crate::text_record::HEAD,
        board.size(),
        board.variant(),
    )
}

pub mod heads;

#[cfg(test)]
mod end_tests;
#[cfg(test)]
mod tests;
