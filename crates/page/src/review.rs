//! A game's review on the page: every move of both sides valued in the workers by the
//! engine's reviewer (`engine::review`, the one `othello review` uses, so the page and the
//! CLI agree), the marks and each side's summary, the review's budgets, and the review
//! written into a GGF record. Plain data, tested without a browser.

mod judged;
mod schedule;

pub use judged::{budget_note, budget_note_room, default_level, judged_line};
pub use schedule::{ReviewOrder, Schedule, Silenced, SILENCES_BEFORE_STOP};

use crate::format::{count, discs_fine, thousands, with_discs};
use engine::review::{Mark, MoveReview, SideSummary};
pub use engine::review::{BLUNDER_DISCS, INACCURACY_DISCS, MISTAKE_DISCS};
use othello::{Color, Game, Move};
use protocol::ReviewedMove;
use serde::{Deserialize, Serialize};

/// A value as the page and the CLI's table write it: an exact margin whole, an estimate to
/// hundredths (`format::discs_fine`, the page's one rule for a margin where losses add up).
pub fn value_text(discs: Option<f32>, exact: bool) -> String {
    match discs {
        None => "-".to_owned(),
        Some(d) => crate::format::discs_fine(d, exact),
    }
}

/// The best move's value as the review writes it: the played move's own exact value where
/// it is the best move found (issue 68: a row read "a1 +58, best a1 ≥+58" for one move
/// and one exact value; that a better move may exist is its mark's, "uncertain"); "≥+30"
/// where it is only a proven lower bound (whole: a proof's margin); else as [`value_text`]
/// writes a value.
pub fn best_value_text(r: &ReviewedMove) -> String {
    if r.best == r.played && r.value_exact {
        return value_text(r.value, true);
    }
    match r.best_value {
        Some(_) if r.best_is_bound => bound_text(r),
        discs => value_text(discs, r.best_exact),
    }
}

/// What the proof says of the position where it proved only a bound: "≥+30".
fn bound_text(r: &ReviewedMove) -> String {
    let bound = r.best_value.unwrap_or_default();
    crate::format::discs(bound, crate::format::Sure::AtLeast)
}

/// Discs lost, as the review writes them: whole when both values are exact (a bound, a
/// proof's margin, is whole too), "≥" when the best value is only a bound, else to
/// hundredths.
pub fn loss_text(r: &ReviewedMove) -> String {
    let whole = r.value_exact && (r.best_exact || r.best_is_bound);
    let at_least = if r.best_is_bound { "≥" } else { "" };
    if whole {
        format!("{at_least}{}", r.loss.round() as i32)
    } else if r.loss_between_estimates {
        format!("{}{:.2}", crate::format::APPROX, r.loss)
    } else {
        format!("{at_least}{:.2}", r.loss)
    }
}

/// What a row says, in one sentence over its best, loss and mark columns, of a move that is
/// the best found where only a bound is proven for the position: issue 68 read "a2 +52,
/// best a2 +52, ≥0 uncertain", the move exact and the best found beside a loss of "at
/// least 0" and a mark that doubted it.
pub const UNPROVEN_BEST: &str = "no better move found; not proven best";

/// Whether the row is [`UNPROVEN_BEST`]'s case: the move played is the best the review
/// found, and the position's best margin was not proven, so a better move may exist.
pub fn unproven_best(r: &ReviewedMove) -> bool {
    r.best == r.played && r.played != Move::Pass && !r.is_forced() && r.grade_uncertain()
}

/// The texts of a row's best move, best value, loss and mark columns: empty where the move
/// was forced (its mark says so) or, in [`UNPROVEN_BEST`]'s case, where that one sentence,
/// in the mark's column, says it all.
pub fn judged_cells(r: &ReviewedMove) -> [String; 4] {
    if unproven_best(r) {
        return [
            String::new(),
            String::new(),
            String::new(),
            UNPROVEN_BEST.to_owned(),
        ];
    }
    let mark = mark_name(r).to_owned();
    if r.is_forced() {
        return [String::new(), best_value_text(r), String::new(), mark];
    }
    [r.best.to_string(), best_value_text(r), loss_text(r), mark]
}

/// The sentence that says where a loss between estimates comes from, for the row's title
/// and its description.
const BETWEEN_ESTIMATES: &str = "by the search's own estimates of both moves: one value \
     here is proven and the other estimated, and a proven margin less an estimate is neither";

/// The mark's name in the table: the engine's mark ("near-best" for a move within the
/// best's reach that is not the best found, "uncertain" for one within reach of a best that
/// is only a bound: `engine::review::Mark`), "forced" for a forced move, "pass" for a pass:
/// no disc placed, so no forced move, as each side's summary counts them (issue 68: the
/// table marked 5 forced where the summaries counted 4, the pass the one).
pub fn mark_name(r: &ReviewedMove) -> &'static str {
    if r.played == Move::Pass {
        return "pass";
    }
    r.mark().map_or("forced", Mark::name)
}

/// How hard the workers look at each position: the player picks one before reviewing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReviewLevel {
    /// 100 simulations a position.
    Quick,
    /// 400 simulations, the CLI's default. Named "Club" until issue 68 found one name for
    /// a playing level (400 simulations a move) and a review level (6,400 a position in a
    /// Club agent's game): a save of that time still reads.
    #[default]
    #[serde(alias = "Club")]
    Medium,
    /// 1,600 simulations.
    Deep,
}

impl ReviewLevel {
    pub const ALL: [ReviewLevel; 3] = [ReviewLevel::Quick, ReviewLevel::Medium, ReviewLevel::Deep];

    pub fn simulations(self) -> u64 {
        match self {
            ReviewLevel::Quick => 100,
            ReviewLevel::Medium => 400,
            ReviewLevel::Deep => 1600,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            ReviewLevel::Quick => "quick",
            ReviewLevel::Medium => "medium",
            ReviewLevel::Deep => "deep",
        }
    }

    pub fn from_key(key: &str) -> Option<ReviewLevel> {
        ReviewLevel::ALL.into_iter().find(|l| l.key() == key)
    }

    pub fn label(self) -> String {
        budget_label(self.simulations())
    }
}

/// The menu's words for a review level that judges the game on the board at
/// `simulations` a position (raised above the level's own where an agent played:
/// [`raised`]): its budget alone, no name. A level's budget is this game's, so a name
/// would mean two sizes (issue 68: "Deep review: 25,600" after a Club game beside "Deep's
/// 1,600" in the line under it, and Medium at 1,600 after a Casual game, Deep's own size);
/// a budget means one.
pub fn budget_label(simulations: u64) -> String {
    format!("{} simulations a position", thousands(simulations))
}

/// The levels the agent played `game` at, in the order first used: each of its moves'
/// level from `levels` (a position's hash, the level's name and budget, as the page
/// records them when the agent moves), `fallback` (the level set now) for a move with no
/// such record. The moves a loaded record or a pasted transcript brought were its
/// players', not the agent's, whichever seat the agent has now: a review of a loaded GGS
/// record once said it judged "more than Quick's 100 because the Casual agent searched
/// with 100 simulations" (issue 68's second fresh look).
pub fn agent_levels(
    game: &othello::GameState,
    levels: &[(u64, String, protocol::WireBudget)],
    fallback: (String, protocol::WireBudget),
) -> Vec<(String, protocol::WireBudget)> {
    let mut agents = Vec::new();
    if game.seats == othello::Seats::Analysis {
        return agents;
    }
    let brought = crate::state::brought_moves(game);
    let positions = game.game.positions();
    for (i, mv) in game.game.moves().iter().enumerate().skip(brought) {
        let pos = positions[i];
        if !game.agent_plays(pos.side_to_move()) || *mv == Move::Pass {
            continue;
        }
        let level = levels
            .iter()
            .find(|(h, _, _)| *h == pos.hash())
            .map_or_else(|| fallback.clone(), |(_, name, b)| (name.clone(), *b));
        if !agents.contains(&level) {
            agents.push(level);
        }
    }
    agents
}

/// A review judges a game's agent with at least this many times the simulations the
/// agent searched with, so that it does not repeat the agent's own search and grade it
/// flawless (a Quick review of a Casual game was "average loss 0.00").
pub const JUDGE_FACTOR: u64 = 4;

/// How long a review may spend on a position, in milliseconds of a worker on this
/// project's test machine: a move's review is one message to a worker, which the page
/// replaces when it is silent for 4 s; Deep's 1,600 simulations of `az-8x8` took 0.8 s a
/// move in Chromium there, so twice that leaves room for a device about twice slower.
const MAX_JUDGING_MILLIS: u64 = 1_600;

/// The most simulations a review spends on a position with a network searched at
/// `simulations_per_second` in a worker: [`MAX_JUDGING_MILLIS`] of it (3,200 for
/// `az-8x8`'s 2,000 a second).
pub fn max_judging_simulations(simulations_per_second: u64) -> u64 {
    simulations_per_second * MAX_JUDGING_MILLIS / 1000
}

/// The simulations `level` judges with where the game's strongest agent searched `own`:
/// every level is raised by the same factor, so that Quick judges at [`JUDGE_FACTOR`]
/// times the agent's search at least and Medium and Deep keep their 4 and 16 times Quick's;
/// and under the cap Deep may take all of [`max_judging_simulations`], Medium half of it and
/// Quick a quarter, so that a level is never another's price. Issue 68: the floor alone
/// lifted Quick and Medium to what Deep asked (a Club agent's game was judged at 1,600
/// simulations at every level, 4.1 s each for a 60-move game).
pub fn raised(level: ReviewLevel, own: u64, simulations_per_second: u64) -> u64 {
    let chosen = level.simulations();
    let quick = ReviewLevel::Quick.simulations();
    let wanted = own.saturating_mul(JUDGE_FACTOR);
    let lifted = chosen.saturating_mul(wanted.max(quick)) / quick;
    let share = match level {
        ReviewLevel::Quick => 4,
        ReviewLevel::Medium => 2,
        ReviewLevel::Deep => 1,
    };
    let cap = max_judging_simulations(simulations_per_second) / share;
    chosen.max(lifted.min(cap))
}

/// What a review judges with and why, in words the panel shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Judging {
    pub simulations: u64,
    pub text: String,
    /// Why the level's budget was raised ("the Club agent searched with 400
    /// simulations"), where it was.
    pub why: Option<String>,
    /// The simulations of the game's strongest agent's own search (0 without an agent).
    pub agent_simulations: u64,
}

/// The budget a review judges with: the chosen level's, raised to [`JUDGE_FACTOR`] times
/// the game's agent's own search (`agent`: its level's name and budget, `None` when no
/// agent played), up to [`max_judging_simulations`]; the text says what it used, and
/// where the cap left it below the agent's own search, that the agent may be graded more
/// kindly than it deserves. `simulations_per_second`: what the board's network searches
/// at in a worker (`BuiltinModel::worker_simulations_per_second`), for a timed agent's
/// simulations and the cap: the pattern network searches about twelve times as many as
/// `az-8x8`, and a review that took `az-8x8`'s figure told a Strong game's player the agent
/// had searched 2,000 simulations where it searched some 25,000.
pub fn judging(
    level: ReviewLevel,
    agents: &[(&str, protocol::WireBudget)],
    simulations_per_second: u64,
) -> Judging {
    let chosen = level.simulations();
    let own_of = |budget: protocol::WireBudget| match (budget.simulations, budget.millis) {
        // One simulation is the network's first choice: the level says "no search", and
        // so does the review (issue 68's second fresh look read "searched with 1
        // simulation" under a level that says it does not search).
        (Some(n), _) if n <= 1 => (n, "no search".to_owned()),
        (Some(n), _) => (n, count(n, "simulation", "simulations")),
        // A budget in time: its count varies from move to move and device to device, so
        // the words say the time first and the count as the speed measured on this
        // project's machine makes it (issue 68: "about 25,000 simulations" beside a panel's
        // 22,865 to 40,962). Short: the budget note's room under the menu is four lines.
        (None, Some(ms)) => (
            ms * simulations_per_second / 1000,
            format!(
                "{} a move (some {} simulations; a budget in time, so the count varies)",
                crate::format::seconds(ms as f64),
                thousands(ms * simulations_per_second / 1000),
            ),
        ),
        (None, None) => (0, "no search".to_owned()),
    };
    let Some(&(strongest, budget)) = agents.iter().max_by_key(|(_, b)| own_of(*b).0) else {
        return Judging {
            simulations: chosen,
            text: format!("Judged at {} simulations a position.", thousands(chosen)),
            why: None,
            agent_simulations: 0,
        };
    };
    let (own, own_text) = own_of(budget);
    // Every level the agent played the game at, not only the last (issue 68: a game played
    // at Casual and then Strong was said to be a Strong agent's).
    let agent = match agents {
        [_] if own <= 1 => {
            format!("the {strongest} agent played the network's first choice, with no search")
        }
        [_] => format!("the {strongest} agent searched with {own_text}"),
        _ => {
            let each: Vec<String> = agents
                .iter()
                .map(|(name, b)| format!("{name} ({})", own_of(*b).1))
                .collect();
            let (last, rest) = each
                .split_last()
                .map_or((String::new(), &[][..]), |(l, r)| (l.clone(), r));
            format!(
                "the agent played this game at {} and {last}, searching with up to {own_text}",
                rest.join(", ")
            )
        }
    };
    let simulations = raised(level, own, simulations_per_second);
    let mut text = format!(
        "Judged at {} simulations a position",
        thousands(simulations)
    );
    let kind = "so its moves may be graded more kindly than they deserve";
    if simulations > chosen {
        // The level by its budget without an agent, never by a name that means two sizes.
        text.push_str(&format!(
            ", not {} as in a game without an agent, because {agent}",
            thousands(chosen)
        ));
        // Raised but still short of the agent's own search, the reason is the level's
        // reach, not a repeat avoided (the ninth look read "would only repeat its
        // search" and then "no more than the agent's own search" one after the other).
        if simulations > own {
            text.push_str(": a review at its own budget would only repeat its search.");
        } else {
            text.push_str(&format!(
                "; raised as far as this level goes, that is still no more than the agent's \
                 own search, {kind}."
            ));
        }
    } else {
        text.push_str(&format!(" ({agent})."));
        if simulations <= own {
            text.push_str(&format!(
                " That is no more than the agent's own search, {kind}."
            ));
        }
    }
    let why = (simulations > chosen).then_some(agent);
    Judging {
        simulations,
        text,
        why,
        agent_simulations: own,
    }
}

/// The reviews the page holds, each by the position its move was played from and the
/// move: a review belongs to a move of a line, so undo, redo and browsing keep it, and a
/// new game's moves have none until they are reviewed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reviews {
    /// Each reviewed move: the position it was played from, its review, and the
    /// simulations a position it was judged at (`None`: a save from before they were kept).
    moves: Vec<(u64, ReviewedMove, Option<u64>)>,
    /// What the last review judged with, in words ([`judging`]).
    judged: Option<String>,
    /// The simulations a position the last review judged at.
    judged_at: Option<u64>,
    /// Whether the last review ended before its last move (cancelled, failed, or cut short
    /// by a reload): the table's other rows are then an earlier review's, or none (issue
    /// 68: a cancelled Deep review's line said "Judged at 1,600 simulations" over rows
    /// that were still Quick's).
    stopped: bool,
}

/// How many reviewed moves the page remembers (a few games' worth).
const REMEMBERED: usize = 600;

impl Reviews {
    /// A move's review, judged at the last review's budget.
    pub fn record(&mut self, position: u64, review: ReviewedMove) {
        let at = self.judged_at;
        self.record_at(position, review, at);
    }

    /// A move's review, judged at `at` simulations a position (`None`: not known).
    pub fn record_at(&mut self, position: u64, review: ReviewedMove, at: Option<u64>) {
        self.moves
            .retain(|(h, r, _)| !(*h == position && r.played == review.played));
        self.moves.push((position, review, at));
        if self.moves.len() > REMEMBERED {
            self.moves.remove(0);
        }
    }

    /// What the last review judged with, in words ([`judging`]): kept with the reviews, so
    /// that the table keeps its "Judged at ..." line after a reload.
    pub fn judged(&self) -> Option<&str> {
        self.judged.as_deref()
    }

    pub fn set_judged(&mut self, judged: Option<String>) {
        self.judged = judged;
    }

    /// The simulations a position the last review judged at.
    pub fn judged_at(&self) -> Option<u64> {
        self.judged_at
    }

    pub fn set_judged_at(&mut self, simulations: Option<u64>) {
        self.judged_at = simulations;
    }

    /// A review began, judging with `judged` (words) at `simulations` a position.
    pub fn began(&mut self, judged: String, simulations: u64) {
        self.judged = Some(judged);
        self.judged_at = Some(simulations);
        self.stopped = false;
    }

    /// Whether the last review ended before its last move.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    pub fn set_stopped(&mut self, stopped: bool) {
        self.stopped = stopped;
    }

    /// The simulations a position the review of `played` from `position` was judged at.
    pub fn budget_of(&self, position: u64, played: Move) -> Option<u64> {
        self.moves
            .iter()
            .find(|(h, r, _)| *h == position && r.played == played)
            .and_then(|(_, _, at)| *at)
    }

    pub fn get(&self, position: u64, played: Move) -> Option<ReviewedMove> {
        self.moves
            .iter()
            .find(|(h, r, _)| *h == position && r.played == played)
            .map(|(_, r, _)| r.clone())
    }

    /// How many reviewed moves are remembered (every game's, not only the one on the
    /// board): the browser tests watch it to see that nothing arrives after a cancel.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The review of each move of `game`, in order (`None` where it has none).
    pub fn of_game(&self, game: &Game) -> Vec<Option<ReviewedMove>> {
        game.positions()
            .iter()
            .zip(game.moves())
            .map(|(pos, &mv)| self.get(pos.hash(), mv))
            .collect()
    }

    /// Whether every move of `game` has its review.
    pub fn covers(&self, game: &Game) -> bool {
        !game.moves().is_empty() && self.of_game(game).iter().all(Option::is_some)
    }
}

/// No review: what a game nobody reviewed has.
static NO_REVIEWS: Reviews = Reviews {
    moves: Vec::new(),
    judged: None,
    judged_at: None,
    stopped: false,
};

/// How many games' reviews the page keeps at once: the game on the board, one put aside,
/// and a few before them.
const GAMES_REMEMBERED: usize = 8;

/// The review as the page holds it: the moves reviewed so far, each game's apart (a game
/// is the page's one game between a new game, a load or a game brought back: its id is
/// `GameModel::id`), the review running now and how far it has come, why the last one
/// stopped, and the move the person is looking at.
///
/// A review belongs to the game it was made for: another game through the same positions
/// (a record loaded after a review, with the same first moves) has none of it, on its
/// panel, its board or its download (issue 68, item 2).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReviewState {
    /// Each game's reviews, by the game's id, the latest game last.
    pub games: Vec<(u64, Reviews)>,
    /// The review under way: its id, the moves done and the moves in all, counting the
    /// discs placed (a pass is reviewed too, but is no move the person counts).
    pub running: Option<(u64, usize, usize)>,
    /// The game under review: its id, its start and the moves sent to the workers.
    pub subject: Option<(u64, Game)>,
    /// Why the last review stopped early, and of which game.
    pub error: Option<(u64, String)>,
    /// The move (its game's id, and its 0-based index in the game) shown on the board with
    /// its best move.
    pub focus: Option<(u64, usize)>,
}

impl ReviewState {
    /// The state with `reviews` as the reviews of the game `game`.
    pub fn with(game: u64, reviews: Reviews) -> ReviewState {
        ReviewState {
            games: vec![(game, reviews)],
            ..ReviewState::default()
        }
    }

    /// The reviews of the game `game` (none when nobody reviewed it).
    pub fn of(&self, game: u64) -> &Reviews {
        self.games
            .iter()
            .find(|(g, _)| *g == game)
            .map_or(&NO_REVIEWS, |(_, r)| r)
    }

    /// Why the last review of `game` stopped early, if it did.
    pub fn error_of(&self, game: u64) -> Option<&str> {
        self.error
            .as_ref()
            .filter(|(g, _)| *g == game)
            .map(|(_, e)| e.as_str())
    }

    /// How many reviewed moves are remembered, every game's: the browser tests watch it
    /// to see that nothing arrives after a cancel.
    pub fn len(&self) -> usize {
        self.games.iter().map(|(_, r)| r.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn of_mut(&mut self, game: u64) -> &mut Reviews {
        if let Some(at) = self.games.iter().position(|(g, _)| *g == game) {
            let entry = self.games.remove(at);
            self.games.push(entry);
        } else {
            self.games.push((game, Reviews::default()));
            if self.games.len() > GAMES_REMEMBERED {
                self.games.remove(0);
            }
        }
        let last = self.games.len() - 1;
        &mut self.games[last].1
    }

    /// A review of `game` (the page's id of the game on the board) started in the pool
    /// with this id, of `moves`.
    pub fn started(
        &mut self,
        id: u64,
        (game, moves): (u64, Game),
        (judged, simulations): (String, u64),
    ) {
        let placed = moves.moves().iter().filter(|m| **m != Move::Pass).count();
        self.running = Some((id, 0, placed));
        self.subject = Some((game, moves));
        self.error = None;
        self.of_mut(game).began(judged, simulations);
    }

    /// The reviews of `game` as a reload would find them: a review of it under way is cut
    /// short by the reload, so they are saved as stopped.
    pub fn to_save(&self, game: u64) -> Reviews {
        let mut reviews = self.of(game).clone();
        if self.running.is_some() && self.subject.as_ref().is_some_and(|(g, _)| *g == game) {
            reviews.set_stopped(true);
        }
        reviews
    }

    /// Whether the review under way is still of the game on the board: the same start,
    /// and its moves still the start of the game's line (played moves, then the redo
    /// list), so undo, redo, browsing and playing on keep it, while a new game, a loaded
    /// record, a position set up in the editor or another move after an undo end it.
    pub fn follows(&self, game: u64, state: &othello::GameState) -> bool {
        let Some((of, subject)) = self.subject.as_ref().filter(|_| self.running.is_some()) else {
            return true;
        };
        if *of != game || subject.start() != state.game.start() {
            return false;
        }
        let line = state.game.moves().iter().chain(state.undone.iter().rev());
        let reviewed = subject.moves();
        line.clone().count() >= reviewed.len() && line.zip(reviewed).all(|(a, b)| a == b)
    }

    pub fn cancelled(&mut self) {
        if let Some((game, _)) = self.subject.take().filter(|_| self.running.is_some()) {
            self.of_mut(game).set_stopped(true);
        }
        self.running = None;
    }

    /// A move reviewed by the review `id`; a cancelled review's answers are dropped.
    pub fn reviewed(&mut self, id: u64, position: u64, review: ReviewedMove) {
        let Some(game) = self.subject.as_ref().map(|(g, _)| *g) else {
            return;
        };
        if let Some(run) = self.running.as_mut().filter(|r| r.0 == id) {
            run.1 += usize::from(review.played != Move::Pass);
            self.of_mut(game).record(position, review);
        }
    }

    pub fn ended(&mut self, id: u64, error: Option<String>) {
        if self.running.is_some_and(|r| r.0 == id) {
            self.running = None;
            let game = self.subject.take().map(|(g, _)| g);
            if let (Some(game), Some(_)) = (game, error.as_ref()) {
                self.of_mut(game).set_stopped(true);
            }
            self.error = game.zip(error);
        }
    }
}

/// Where a review stopped and why, as the panel's first words of it: "The review stopped at
/// move 9 (f2, Black): the search gave no values for this position" (`index` 0-based in
/// `moves`; a pass, which has no number, by the move before it); without the move, only
/// why.
pub fn stopped_at(moves: &[Move], index: Option<usize>, side: Color, reason: &str) -> String {
    let numbers = crate::format::move_numbers(moves);
    let Some((index, mv)) = index.and_then(|i| Some((i, moves.get(i)?))) else {
        return format!("The review stopped: {reason}");
    };
    let which = match numbers[index] {
        Some(n) => format!("move {n} ({mv}, {side})"),
        None => {
            let before = moves[..index].iter().filter(|m| **m != Move::Pass).count();
            format!("{side}'s pass after move {before}")
        }
    };
    format!("The review stopped at {which}: {reason}")
}

/// What the panel says when a review stopped: where and why ([`stopped_at`]), that nothing
/// reviewed is lost, and what the player can do about it.
pub fn stop_sentence(stopped: &str, reviewed: usize) -> String {
    let again = if reviewed > 0 {
        "Review again"
    } else {
        "Review the game"
    };
    let kept = match reviewed {
        0 => String::new(),
        1 => " The move reviewed is kept.".to_owned(),
        n => format!(" The {n} moves reviewed are kept."),
    };
    format!(
        "{stopped}.{kept} Press \"{again}\" to try once more; if it stops there again, \
         choose another budget."
    )
}

/// `side`'s summary over the reviewed moves of a game: the engine's, as the CLI prints it,
/// over the discs it placed (a pass is no forced move a player made: it is left out).
pub fn summary(reviews: &[Option<ReviewedMove>], side: Color) -> SideSummary {
    let moves: Vec<MoveReview> = reviews
        .iter()
        .flatten()
        .filter(|r| r.played != Move::Pass)
        .map(ReviewedMove::to_engine)
        .collect();
    SideSummary::of(&moves, side)
}

/// `side`'s summary in words, as the CLI writes it: the engine counts near-best and
/// uncertain moves apart from the best, as the table marks them (issue 68: the page once
/// rewrote the engine's words to count the near-best apart, and counted uncertain as best).
pub fn summary_words(reviews: &[Option<ReviewedMove>], side: Color) -> String {
    summary(reviews, side).to_string()
}

/// How Black's result adds up from a whole game's review: the start's value (its best
/// move's, Black's side), less Black's discs lost, plus White's, plus what the search's
/// estimates changed by between one move and the next (`drift`, what is left: none where
/// every value is exact), equals the final margin. Issue 68: "discs lost in all" did not
/// add up to the result and a paragraph said so; now the line that shows it adds up.
#[derive(Clone, Debug, PartialEq)]
pub struct Balance {
    /// The final margin, Black's discs less White's.
    pub result: i32,
    /// The start's value for Black, and whether it is exact.
    pub start: f32,
    pub start_exact: bool,
    /// Each side's discs lost, its summary's `total_loss`.
    pub black_lost: f32,
    pub white_lost: f32,
    /// The rest: `result - (start - black_lost + white_lost)`.
    pub drift: f32,
    /// Moves whose loss is only a lower bound, both sides' (`SideSummary::bounded`): the
    /// totals are then floors and the drift holds what the bounds leave out.
    pub bounded: usize,
}

/// The balance of a finished game whose every move was reviewed; `None` otherwise (an
/// unfinished game has no result to add up to).
pub fn balance(game: &Game, reviews: &[Option<ReviewedMove>]) -> Option<Balance> {
    let outcome = game.position().outcome()?;
    if reviews.len() != game.moves().len() || reviews.iter().any(Option::is_none) {
        return None;
    }
    let first = reviews.first()?.as_ref()?;
    let (value, exact) = match first.best_value {
        Some(v) if !first.best_is_bound => (v, first.best_exact),
        _ => (first.value?, first.value_exact),
    };
    let start = if first.side == Color::Black {
        value
    } else {
        -value
    };
    let result = outcome.margin_for(Color::Black);
    // In hundredths of a disc, as the sentence writes each figure: what it says adds up
    // to the last digit (a fresh look found -1.15 - 112.00 + 80.02 + 19.12 = -14.01).
    let hundredths = |discs: f32| (discs * 100.0).round() as i64;
    let start = hundredths(start);
    let (black, white) = (
        summary(reviews, Color::Black),
        summary(reviews, Color::White),
    );
    let black_lost = hundredths(black.total_loss);
    let white_lost = hundredths(white.total_loss);
    let drift = i64::from(result) * 100 - (start - black_lost + white_lost);
    let discs = |h: i64| h as f32 / 100.0;
    Some(Balance {
        result,
        start: discs(start),
        start_exact: exact,
        black_lost: discs(black_lost),
        white_lost: discs(white_lost),
        drift: discs(drift),
        bounded: black.bounded + white.bounded,
    })
}

/// A drift at least this share of the discs both sides lost, or as large as a blunder, makes
/// the losses rough, and the balance says so: issue 68 read "less Black's 111.98 discs lost,
/// plus White's 80.03, plus +19.10" at 100 simulations as losses not to be trusted, with no
/// word of why or what to do.
const ROUGH_DRIFT_SHARE: f32 = 0.1;

impl Balance {
    /// The line under the summaries: "Black's result, +4 discs, adds up as the start's
    /// value for Black, ≈ +0.30, less Black's 35.00 discs lost, plus White's 39.68, plus
    /// -0.98 that the search's estimates changed by from one move to the next (…)."
    /// `deeper`: the simulations a position of the menu's deepest level in this game, where
    /// the review was judged at less, named where the drift is large (see [`Self::rough`]).
    pub fn sentence(&self, deeper: Option<u64>) -> String {
        let result = crate::format::discs(self.result as f32, crate::format::Sure::Exact);
        let drift = crate::format::signed_discs(self.drift, 2);
        let mut line = format!(
            "Black's result, {}, adds up as the start's value for Black, {}, less Black's \
             {:.2} discs lost, plus White's {:.2}, plus {drift} that the search's estimates \
             changed by from one move to the next (none where the solver gave exact values).",
            with_discs(&result),
            discs_fine(self.start, self.start_exact),
            self.black_lost,
            self.white_lost,
        );
        // The summaries say "at least" where a loss is a bound; so does the sum (the
        // fifteenth look read the totals here as exact).
        match self.bounded {
            0 => {}
            1 => line.push_str(
                " One move's loss in it is only a lower bound (≥), so the totals are at least \
                 that, and the estimates' share holds the rest.",
            ),
            n => line.push_str(&format!(
                " {n} moves' losses in it are only lower bounds (≥), so the totals are at \
                 least that, and the estimates' share holds the rest."
            )),
        }
        if self.rough() {
            line.push_str(
                " The search's estimates drifted that much at this budget, so each move's loss \
                 is rough",
            );
            match deeper {
                Some(n) => line.push_str(&format!(
                    ": a review at {} simulations a position gives steadier losses.",
                    thousands(n)
                )),
                None => line.push('.'),
            }
        }
        line
    }

    /// Whether the drift is large beside the losses: at least [`ROUGH_DRIFT_SHARE`] of
    /// both sides' discs lost together, or a blunder's size, enough to make or unmake a
    /// move's mark.
    pub fn rough(&self) -> bool {
        let drift = self.drift.abs();
        drift >= BLUNDER_DISCS
            || drift >= ROUGH_DRIFT_SHARE * (self.black_lost + self.white_lost).max(1.0)
    }
}

/// The thresholds in words, for the page's review panel (the CLI's table says the same).
pub fn marks_help() -> String {
    format!(
        "Values are the final disc margin for the side that moves, with best play after: \
         a number alone is exact (the solver's, in bold), one with ≈ before it the search's \
         estimate, to hundredths. The best move found, or one proven as good, is marked \
         best; another that loses less than {INACCURACY_DISCS} discs against it is \
         near-best; a move is an inaccuracy from {INACCURACY_DISCS} discs lost, a mistake from {MISTAKE_DISCS}, a blunder from \
         {BLUNDER_DISCS}. A best value written \"≥+30\" is only a proven lower bound (the \
         solver proved the result, not the margin): a move within reach of it is marked \
         uncertain, since a better move may exist. Forced moves (the only legal one) are not \
         marked; a pass places no disc and is no forced move, in the table as in the \
         summaries."
    )
}

/// What one reviewed move says: "23. c4 (White): -4 for White; best d3 +2: a mistake, 6 discs
/// lost", its values the mover's (said, since the graph beside it is Black's),
/// `number` the move's as Othello players count (`format::move_number`; a pass has none).
pub fn describe(number: Option<usize>, r: &ReviewedMove) -> String {
    let number = number.map_or(String::new(), |n| format!("{n}. "));
    if r.played == Move::Pass {
        return format!(
            "{number}{} passes: no legal move, so no disc placed and no forced move counted",
            r.side
        );
    }
    if r.is_forced() {
        return format!(
            "{number}{} ({}): forced, the only legal move",
            r.played, r.side
        );
    }
    // The review values a move for the side that played it; the graph it is read beside is
    // Black's, so whose value it is is said (issue 62, item 3).
    let value = format!("{} for {}", value_text(r.value, r.value_exact), r.side);
    let mark = r.mark().unwrap_or(Mark::Best);
    let near_best = Mark::NearBest.name();
    let (best, loss) = (best_value_text(r), loss_text(r));
    let uncertain = "a better move may exist, so its grade is uncertain";
    if r.best == r.played {
        return if r.grade_uncertain() {
            // Not "only ≥0 is proven" beside an exact +52: the played move's own value may
            // say more than the bound the proof stopped at.
            format!(
                "{number}{} ({}): {value}; {UNPROVEN_BEST}: the position's best margin was \
                 not proven, so {uncertain}",
                r.played, r.side
            )
        } else {
            format!(
                "{number}{} ({}): {value}, the best move found",
                r.played, r.side
            )
        };
    }
    let article = if mark == Mark::Inaccuracy { "an" } else { "a" };
    let judged = match mark {
        Mark::Uncertain => format!("{} apart; {uncertain}", with_discs(&loss)),
        Mark::Best => format!("as good as the best ({} apart)", with_discs(&loss)),
        Mark::NearBest if r.loss_between_estimates => {
            format!(
                "{near_best}, {} from the best {BETWEEN_ESTIMATES}",
                with_discs(&loss)
            )
        }
        Mark::NearBest => format!("{near_best}, {} from the best", with_discs(&loss)),
        _ if r.loss_between_estimates => {
            format!(
                "{article} {mark}, {} lost {BETWEEN_ESTIMATES}",
                with_discs(&loss)
            )
        }
        _ => format!("{article} {mark}, {} lost", with_discs(&loss)),
    };
    format!(
        "{number}{} ({}): {value}; best {} {best}: {judged}",
        r.played, r.side, r.best
    )
}

/// The board's marks for a reviewed move, shown in the position it was played from: the
/// played move's tile (red, with its value) and the best move's (green, with its value),
/// one tile when they are the same move.
pub fn focus_tiles(r: &ReviewedMove, size: othello::BoardSize) -> Vec<crate::merge::Tile> {
    let tile = |mv: Move, strength: f32, label: String, what: &str| crate::merge::Tile {
        mv,
        strength,
        aria: format!("{what}, {}", with_discs(&label)),
        label,
        kind: crate::merge::TileKind::Reviewed,
    };
    // A forced move has no value to show: the square says "forced", never a bare "-"
    // (issue 68: it read "-" and its label "- discs").
    if r.is_forced() {
        return vec![crate::merge::Tile {
            mv: r.played,
            strength: 1.0,
            label: "forced".to_owned(),
            aria: "played, forced: the only legal move".to_owned(),
            kind: crate::merge::TileKind::Reviewed,
        }];
    }
    if r.best == r.played {
        let what = if r.grade_uncertain() {
            "played, the best move found"
        } else {
            "played, the best move"
        };
        return vec![tile(
            r.played,
            1.0,
            board_text(r.value, r.value_exact, size),
            what,
        )];
    }
    let best = if r.best_is_bound && r.best_value.is_some() {
        bound_text(r)
    } else {
        board_text(r.best_value, r.best_exact, size)
    };
    vec![
        tile(
            r.played,
            0.0,
            board_text(r.value, r.value_exact, size),
            "played",
        ),
        tile(r.best, 1.0, best, "the best move"),
    ]
}

/// A reviewed value on a square, as every number on the board is written (docs/web.md,
/// "Every number on the page"): whole discs, "≈" before an estimate, an exact one alone.
/// Issue 68: the board showed the table's hundredths, a third unit under one switch.
fn board_text(discs: Option<f32>, exact: bool, size: othello::BoardSize) -> String {
    use crate::format::Sure;
    let sure = if exact {
        Sure::Exact
    } else {
        Sure::Estimate(size)
    };
    discs.map_or("-".to_owned(), |d| crate::format::discs(d, sure))
}

/// The best line as the page shows it beside a reviewed move: "Best line: d3 c3 c4 (the
/// search's most visited path)", or the solver's; `None` for a forced move.
pub fn line_sentence(r: &ReviewedMove) -> Option<String> {
    if r.line.is_empty() {
        return None;
    }
    // An exact row may carry the search's path where the solver's line did not fit its
    // budget: its first move is proven, the rest is not perfect play (the twelfth look).
    // A bound row's best move may be the one a null window proved to reach the bound
    // (the thirteenth look: the search's choice named where another move does better).
    if r.line_from_window {
        let text = r.line_text();
        return Some(if r.line.len() > 1 {
            format!("Best line: {text} (its first move proven to reach at least the bound, the rest the solver's perfect play).")
        } else {
            format!("Best line: {text} (proven to reach at least the bound; the line after it was not solved).")
        });
    }
    let whose = if r.best_exact && !r.line_searched {
        "the solver's, with perfect play"
    } else {
        "the search's most visited path"
    };
    Some(format!("Best line: {} ({whose}).", r.line_text()))
}

/// The line under the board while a reviewed move is shown.
pub fn focus_line(number: Option<usize>, r: &ReviewedMove) -> String {
    // One sentence for the board, another for the move: the colours' key once ran into
    // the move's own colons ("…(played: red; best: gold frame): 12. d3 (Black): …").
    let which = number.map_or("The pass".to_owned(), |n| format!("Move {n}"));
    // The marks named are the ones drawn: one gold frame where the move played was the
    // best or the only one (issue 68: a forced move's notice spoke of a white ring).
    let marks = if r.is_forced() {
        "its only legal move, forced, in the gold frame"
    } else if r.played == r.best {
        "the move played, also the best found, in the gold frame"
    } else {
        "the move ringed in white and the best in the gold frame"
    };
    format!(
        "{which} as it stood before it was played, {marks}. {}.",
        describe(number, r)
    )
}

/// Each reviewed move's value as its GGF evaluation, as GGS records carry them (discs
/// from the mover's side; `othello review --ggf` writes the same): an estimate to
/// hundredths, its decimals saying it is one (`B[f5/-42.00]`, never `-42`, which reads as
/// exact; GGF's evaluations are numbers with decimals), an exact value whole (`B[f5/-42]`),
/// never "-0". `None` for a move the review gave no value (a forced one, one not
/// reviewed): it keeps the record's own.
pub fn eval_texts(reviews: &[Option<ReviewedMove>]) -> Vec<Option<String>> {
    reviews
        .iter()
        .enumerate()
        .map(|(i, review)| {
            let r = review.as_ref()?;
            if let Some(value) = r.value {
                return Some(othello::ggf::eval_text(f64::from(value), r.value_exact));
            }
            // A forced move has no value of its own: the position after it is worth what
            // the next move's review found there (its best, turned to this side), else
            // nothing is written, never the record's own evaluation among the review's
            // (the tenth look: `W[b8/-1.90/5.60]` where the solver gives 0). Forced moves
            // and passes in a row share the value of the first move after them with one.
            let next = reviews[i + 1..]
                .iter()
                .map_while(Option::as_ref)
                .find(|n| n.best_value.is_some())
                .filter(|n| !n.best_is_bound);
            Some(
                match next.and_then(|n| Some((n.best_value?, n.best_exact, n.side))) {
                    Some((v, exact, side)) => {
                        let v = if side == r.side { v } else { -v };
                        othello::ggf::eval_text(f64::from(v), exact)
                    }
                    None => String::new(),
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests;
