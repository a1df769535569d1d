//! The evaluation graph's data: for each move of the game, the estimate for Black of the
//! search of the position that move was played from (the agent's search before its move, a
//! hint or analysis before the person's, or the game's review of it, which takes
//! precedence: it values every move alike), and a live point for the search running now.
//! Pure, so the points are tested without a browser; `components::graph` draws them.

use crate::format::Sure;
use crate::merge::Merged;
use crate::review::Reviews;
use engine::report::Proof;
use othello::{Color, Game, Move};
use protocol::ReviewedMove;

pub mod caption;

/// How many searched positions the page remembers (a few games' worth).
const REMEMBERED: usize = 600;

/// A search's estimate of a position, from Black's side.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Estimate {
    /// Black's chance to win, in [0, 1] (a draw counts half).
    pub black_win: f32,
    /// Black's expected final disc margin, where the network has a score output or the
    /// solver proved it.
    pub black_discs: Option<f32>,
    /// Proved by the exact solver (or a proven win, draw or loss in the tree), not
    /// estimated.
    pub exact: bool,
    /// The solver proved the result but not the margin: `black_discs` is the margin the
    /// winner is proven to reach at least. Absent in saves from before it (`persist`).
    #[serde(default)]
    pub margin_at_least: bool,
}

impl Estimate {
    /// What a report says of its position, when it says anything: a move played without a
    /// search (the only legal one) has no estimate, and drawing the network's empty 50%
    /// for it would drop the graph to even right after a proven result.
    pub fn of_report(merged: &Merged, side: Color) -> Option<Estimate> {
        (!merged.settled_without_search()).then(|| Estimate::of(merged, side))
    }

    /// A proven final margin for Black (`at_least`: the result is proven and the winner
    /// reaches at least this margin, [`Estimate::margin_at_least`]).
    pub fn proven(black_margin: f32, at_least: bool) -> Estimate {
        Estimate {
            black_win: (black_margin.signum() + 1.0) / 2.0,
            black_discs: Some(black_margin),
            exact: true,
            margin_at_least: at_least,
        }
    }

    /// A search of a position with `side` to move, turned to Black's side.
    pub fn of(merged: &Merged, side: Color) -> Estimate {
        let sign = if side == Color::Black { 1.0 } else { -1.0 };
        if let Some(solved) = merged.search.solved {
            return Estimate::proven(solved.margin as f32 * sign, !solved.exact);
        }
        // The root's own proof first: a proven loss leaves the move to the search, whose
        // best move carries no proof and whose value is the network's hope, yet the point
        // is as proven as a solved one.
        let best = merged.best_move();
        let proof = merged.search.proof.map(Proof::value).or_else(|| {
            merged
                .moves
                .iter()
                .find(|m| Some(m.mv) == best)
                .and_then(|m| m.proof)
                .map(Proof::value)
        });
        if let Some(proof) = proof {
            return Estimate {
                black_win: (proof * sign + 1.0) / 2.0,
                black_discs: None,
                exact: true,
                margin_at_least: false,
            };
        }
        // The best move's value, as the panel and the framed square give it; in discs
        // always, so that the graph has one scale whatever the network (issue 68: its
        // words were "Black wins" for one network and "Black +16" for another): a network
        // without a score output's chance is turned into discs as a review turns it,
        // `8 atanh(2p - 1)` (`engine::report::discs_of_value`).
        let (value, score) = merged.best_value();
        let score = score.unwrap_or_else(|| engine::report::discs_of_value(value));
        Estimate {
            black_win: (value * sign + 1.0) / 2.0,
            black_discs: Some(score * sign),
            exact: false,
            margin_at_least: false,
        }
    }

    /// The review's value of the position a move was played from (its best move's value,
    /// for the mover), turned to Black's side; `None` for a forced move, which has none.
    pub fn of_review(review: &ReviewedMove) -> Option<Estimate> {
        let best = review.best_value?;
        let sign = if review.side == Color::Black {
            1.0
        } else {
            -1.0
        };
        let discs = best * sign;
        // A proven win by at least this much for the mover is a proof, drawn and said as
        // one ("wins by at least 38"), not an estimate: the tenth look read "Black ≈ +38"
        // where the solver gives +52 and the review had proven 38. A bound on a loss or a
        // draw (the mover loses by at most so much) says nothing of the winner's margin,
        // and stays an estimate.
        let proven_win = review.best_is_bound && best > 0.0;
        let exact = review.best_exact || proven_win;
        // The page's link between discs and value: value = tanh(discs / 8), the inverse
        // of the engine's `discs_of_value`.
        let black_win = if exact {
            (discs.signum() + 1.0) / 2.0
        } else {
            ((discs / 8.0).tanh() + 1.0) / 2.0
        };
        Some(Estimate {
            black_win,
            black_discs: Some(discs),
            exact,
            margin_at_least: proven_win && !review.best_exact,
        })
    }
}

/// The latest estimate of every position searched, by position hash, oldest first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Estimates(Vec<(u64, Estimate)>);

impl Estimates {
    /// Keeps `estimate` as the last word on the position `hash`.
    pub fn record(&mut self, hash: u64, estimate: Estimate) {
        self.0.retain(|(h, _)| *h != hash);
        self.0.push((hash, estimate));
        if self.0.len() > REMEMBERED {
            self.0.remove(0);
        }
    }

    pub fn get(&self, hash: u64) -> Option<Estimate> {
        self.0.iter().find(|(h, _)| *h == hash).map(|(_, e)| *e)
    }
}

/// No estimates: what a game nobody searched has.
static NO_ESTIMATES: Estimates = Estimates(Vec::new());

/// How many games' estimates the page keeps at once, as many as their reviews
/// (`review::ReviewState`): the game on the board, one put aside, and a few before them.
const GAMES_REMEMBERED: usize = 8;

/// Each game's estimates apart, by the game's id on the page (`GameModel::id`), the
/// latest game last. A search belongs to the game it was made for: a record loaded after
/// it, through the same positions, shows none of it (issue 68: a loaded record's graph
/// read "2. c3 (White): Black 46% to win" where nobody had searched it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameEstimates(Vec<(u64, Estimates)>);

impl GameEstimates {
    /// `estimates` as the estimates of the game `game`.
    pub fn with(game: u64, estimates: Estimates) -> GameEstimates {
        GameEstimates(vec![(game, estimates)])
    }

    /// The estimates of the game `game` (none when nothing searched it).
    pub fn of(&self, game: u64) -> &Estimates {
        self.0
            .iter()
            .find(|(g, _)| *g == game)
            .map_or(&NO_ESTIMATES, |(_, e)| e)
    }

    /// Keeps `estimate` as the last word on the position `hash` in the game `game`.
    pub fn record(&mut self, game: u64, hash: u64, estimate: Estimate) {
        self.of_mut(game).record(hash, estimate);
    }

    /// `estimates` as the estimates of the game `game`, replacing any it had.
    pub fn set(&mut self, game: u64, estimates: Estimates) {
        *self.of_mut(game) = estimates;
    }

    fn of_mut(&mut self, game: u64) -> &mut Estimates {
        if let Some(at) = self.0.iter().position(|(g, _)| *g == game) {
            let entry = self.0.remove(at);
            self.0.push(entry);
        } else {
            self.0.push((game, Estimates::default()));
            if self.0.len() > GAMES_REMEMBERED {
                self.0.remove(0);
            }
        }
        let last = self.0.len() - 1;
        &mut self.0[last].1
    }
}

/// One point of the graph: move number `ply` (1-based), the move, the side that played
/// it, and the estimate of the search before it (`None` draws a gap).
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub ply: usize,
    /// The move's number as Othello players count it (`format::move_number`: the discs
    /// placed, a pass without one); the live point's is the next disc's.
    pub number: Option<usize>,
    /// `None` for the live point: the search of the position on the board, whose move is
    /// not played yet.
    pub mv: Option<Move>,
    pub mover: Color,
    /// The position the move was played from: the one the estimate is of, which a click
    /// shows and hovering draws.
    pub before: othello::Position,
    pub estimate: Option<Estimate>,
    /// The game's review of the move, when it has one.
    pub review: Option<ReviewedMove>,
    /// The game's end: the point after the last move, at the final result, exact
    /// ([`points`]); `None` for a move's point and the live one.
    pub end: Option<othello::Outcome>,
}

impl Point {
    /// The search running now, of the position on the board.
    pub fn is_live(&self) -> bool {
        self.mv.is_none() && self.end.is_none()
    }
}

/// The graph's points: one per move of the game, and a live one when `live` (the search of
/// the position on the board, running now) is given; a finished game's line ends on a
/// point of its own, after the last move, at the final result: exact, the board's
/// (issue 68: the last point read the last search's "Black 1% to win, ~-46 discs" of the
/// position before the last move, where the game's result was known).
pub fn points(
    game: &Game,
    estimates: &Estimates,
    reviews: &Reviews,
    live: Option<Estimate>,
) -> Vec<Point> {
    let positions = game.positions();
    let numbers = crate::format::move_numbers(game.moves());
    let mut out: Vec<Point> = game
        .moves()
        .iter()
        .enumerate()
        .map(|(i, mv)| {
            let review = reviews.get(positions[i].hash(), *mv);
            Point {
                ply: i + 1,
                number: numbers[i],
                mv: Some(*mv),
                mover: positions[i].side_to_move(),
                before: positions[i],
                estimate: review
                    .as_ref()
                    .and_then(Estimate::of_review)
                    .or_else(|| estimates.get(positions[i].hash())),
                review,
                end: None,
            }
        })
        .collect();
    if let Some(outcome) = game.position().outcome() {
        let margin = outcome.margin_for(Color::Black) as f32;
        out.push(Point {
            ply: game.moves().len() + 1,
            number: None,
            mv: None,
            mover: game.position().side_to_move(),
            before: *game.position(),
            estimate: Some(Estimate::proven(margin, false)),
            review: None,
            end: Some(outcome),
        });
        return out;
    }
    if let Some(estimate) = live {
        out.push(Point {
            ply: game.moves().len() + 1,
            number: Some(crate::state::placed(game) + 1),
            mv: None,
            mover: game.position().side_to_move(),
            before: *game.position(),
            estimate: Some(estimate),
            review: None,
            end: None,
        });
    }
    out
}

/// The graph's vertical scale: Black's final disc margin, whatever the network (one
/// without a score output has its chance turned into discs, [`Estimate::of`]), so its
/// words never change from game to game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// Up to this many discs either way.
    Discs(f32),
}

/// The scale for `points` on a board of `squares` squares: the widest estimate rounded up
/// to a multiple of 8 discs, so the axis labels stay whole, but never past the board's
/// most, a wipe-out's margin (64 on 8x8, 36 on 6x6): a network's chance near certainty
/// turned into discs can run past it, and the end labels read "Black +72", a margin no
/// game can have (issue 68). A point beyond it stands at the scale's end.
pub fn scale(points: &[Point], squares: u32) -> Scale {
    let most = squares as f32;
    let widest = points
        .iter()
        .filter_map(|p| p.estimate?.black_discs)
        .fold(8.0f32, |w, d| w.max(d.abs()));
    Scale::Discs(((widest / 8.0).ceil() * 8.0).min(most))
}

/// Where an estimate lies on the scale, from 0 (White's best) to 1 (Black's best).
pub fn height(estimate: &Estimate, scale: Scale) -> f32 {
    let Scale::Discs(range) = scale;
    match estimate.black_discs {
        Some(d) => ((d / range + 1.0) / 2.0).clamp(0.0, 1.0),
        // A proven result without its margin: at its end of the scale (a draw in the middle).
        None => estimate.black_win.clamp(0.0, 1.0),
    }
}

/// Which way a proven point's margin lies open, where the graph knows a bound of it and
/// not its value: `1.0` up (Black's win), `-1.0` down (White's); `None` for an estimate,
/// an exact margin or a draw. A proven win whose margin is unknown stands at the scale's
/// end, and a fresh look read a square there as an exact wipe-out: the graph draws such
/// a point as an arrow pointing past where it stands.
pub fn bound_towards(e: &Estimate) -> Option<f32> {
    if !e.exact {
        return None;
    }
    match e.black_discs {
        None if e.black_win > 0.5 => Some(1.0),
        None if e.black_win < 0.5 => Some(-1.0),
        Some(d) if e.margin_at_least && d != 0.0 => Some(d.signum()),
        _ => None,
    }
}

/// `side`'s discs lost so far over the reviewed moves among `points` up to the `played`
/// moves of the game (the moves to redo after them, which the summaries leave out, are left
/// out: the fifteenth look read "179.59 discs lost in all" above a chart ending on 275.59):
/// the ply of each of its reviewed moves with the running total after it (a forced move
/// adds nothing). Summed in the game's order, as each side's summary sums its total, so
/// the line ends on exactly the summary's figure.
pub fn cumulative_loss(points: &[Point], side: Color, played: usize) -> Vec<(usize, f32)> {
    let mut total = 0.0f32;
    points
        .iter()
        .filter(|p| p.ply <= played)
        .filter_map(|p| {
            let review = p.review.as_ref().filter(|r| r.side == side)?;
            if !review.is_forced() {
                total += engine::review::shown_loss(review.loss);
            }
            Some((p.ply, total))
        })
        .collect()
}

/// The words of a reviewed point's own value, `(discs, exact, at_least)` for Black: a
/// proven win's least margin, a bound on the mover's loss, or the value as the graph
/// draws it.
fn reviewed_point_words(point: &Point, review: &ReviewedMove, value: (f32, bool, bool)) -> String {
    let (d, exact, at_least) = value;
    if at_least {
        let winner = if d > 0.0 { "Black" } else { "White" };
        return format!(
            "The point: {winner} wins by at least {} before the move (proved by \
             the solver; its best move's value). ",
            crate::format::with_discs(&format!("{:.0}", d.abs()))
        );
    }
    // A bound on the mover's loss is the review's "≥" and is said as one: the
    // sixteenth look read "Black ≈ −54" beside the table's "≥−54".
    if review.best_is_bound && !review.best_exact {
        let (towards, own) = if review.side == Color::Black {
            ("≥", d)
        } else {
            ("≤", -d)
        };
        let [d, own] = [d, own].map(|v| crate::format::discs(v, Sure::Exact));
        return format!(
            "The point: Black {towards} {d} before the move (a bound the solver proved: \
             {side}'s best move makes at least {own} for {side}). ",
            side = review.side
        );
    }
    // Whole discs, as every number of the graph (docs/web.md).
    let sure = if exact {
        Sure::Exact
    } else {
        Sure::Estimate(point.before.size())
    };
    let d = crate::format::discs(d, sure);
    format!("The point: Black {d} before the move (its best move's value). ")
}

/// What hovering a point says: "12. d3 (White): Black 62% to win, +4 discs (exact)".
pub fn describe(point: &Point) -> String {
    // A reviewed move is read for its review: its value, the best move's, its mark.
    // The point stands at the position's value before the move (its best move's, Black's
    // side): said first, so the words match what the eye sees (issue 62, item 12).
    if let Some(review) = point.review.as_ref().filter(|r| !r.is_forced()) {
        let at = point
            .estimate
            .and_then(|e| e.black_discs.map(|d| (d, e.exact, e.margin_at_least)))
            .map_or(String::new(), |value| {
                reviewed_point_words(point, review, value)
            });
        return format!("{at}{}", crate::review::describe(point.number, review));
    }
    if let Some(outcome) = point.end {
        let margin = crate::format::discs(outcome.margin_for(Color::Black) as f32, Sure::Exact);
        return format!(
            "The end of the game: {outcome}. Black {}, the final result (exact)",
            crate::format::with_discs(&margin)
        );
    }
    let mv = point.mv.map_or("thinking now".to_owned(), |mv| {
        format!("{mv} ({})", point.mover)
    });
    let number = point.number.map_or(String::new(), |n| format!("{n}. "));
    let Some(e) = point.estimate else {
        return format!(
            "{number}{mv}: no search of this position (ask for a hint before moving to get one)"
        );
    };
    // A proof may say 100% (or 0%); an estimate never does.
    let chance = if e.exact {
        format!("{:.0}%", e.black_win * 100.0)
    } else {
        crate::format::chance(e.black_win)
    };
    // The estimate is of the position the move was played from, which a click shows.
    let whence = point.mv.map_or(String::new(), |_| {
        format!(" in the position {} played it from", point.mover)
    });
    let mut text = format!("{number}{mv}: Black {chance} to win");
    match e.black_discs {
        Some(d) if e.margin_at_least => {
            let winner = if d > 0.0 { "Black" } else { "White" };
            text.push_str(&format!(
                " (proved by the solver: {winner} wins by at least {})",
                crate::format::with_discs(&format!("{:.0}", d.abs()))
            ));
            return format!("{text}{whence}");
        }
        Some(d) => {
            let sure = if e.exact {
                Sure::Exact
            } else {
                Sure::Estimate(point.before.size())
            };
            text.push_str(&format!(
                ", {}",
                crate::format::with_discs(&crate::format::discs(d, sure))
            ));
        }
        None => {}
    }
    if e.exact {
        text.push_str(" (exact: proved by the solver)");
    }
    format!("{text}{whence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proven_point_whose_margin_is_unknown_or_a_bound_is_drawn_as_one() {
        let proven_win = Estimate {
            black_win: 1.0,
            black_discs: None,
            exact: true,
            margin_at_least: false,
        };
        assert_eq!(bound_towards(&proven_win), Some(1.0));
        assert_eq!(bound_towards(&Estimate::proven(-2.0, true)), Some(-1.0));
        assert_eq!(bound_towards(&Estimate::proven(10.0, false)), None);
        let draw = Estimate {
            black_win: 0.5,
            ..proven_win
        };
        assert_eq!(bound_towards(&draw), None);
        let estimate = Estimate {
            exact: false,
            ..proven_win
        };
        assert_eq!(bound_towards(&estimate), None);
    }
    use engine::report::MoveInfo;
    use othello::{BoardSize, Position, Variant};
    use protocol::{EngineKind, SearchStat, SolvedStat};

    fn merged(value: f32, score: Option<f32>) -> Merged {
        Merged {
            search: SearchStat {
                engine: EngineKind::Network,
                pv: vec![],
                value,
                score,
                simulations: 1,
                elapsed_ms: 1.0,
                solved: None,
                book: None,
                proof: None,
            },
            moves: vec![MoveInfo {
                mv: Move::Pass,
                visits: 1,
                prior: 1.0,
                target: 1.0,
                q: value,
                proof: None,
                bounds: None,
                score: None,
            }],
            per_worker_rate: vec![],
            chosen: None,
        }
    }

    fn game(transcript: &str) -> Game {
        let start = Position::start(BoardSize::Eight, Variant::Standard);
        Game::from_transcript(transcript, start).expect("legal")
    }

    #[test]
    fn a_move_played_without_a_search_has_no_estimate() {
        let mut forced = merged(0.0, None);
        forced.search.simulations = 0;
        assert_eq!(Estimate::of_report(&forced, Color::White), None);
        let searched = merged(0.4, Some(3.0));
        assert_eq!(
            Estimate::of_report(&searched, Color::White),
            Some(Estimate::of(&searched, Color::White))
        );
        let mut solved = forced.clone();
        solved.search.solved = Some(SolvedStat {
            best: Move::Pass,
            margin: 4,
            exact: true,
            nodes: 10,
            micros: 5,
        });
        assert!(Estimate::of_report(&solved, Color::White).is_some_and(|e| e.exact));
        // The network without search: one legal move is no estimate, two are.
        let mut instinct = merged(-0.9, Some(-45.0));
        instinct.search.engine = EngineKind::Instinct;
        instinct.search.simulations = 0;
        assert_eq!(Estimate::of_report(&instinct, Color::White), None);
        let mut choice = instinct.clone();
        choice.moves.push(choice.moves[0].clone());
        assert!(Estimate::of_report(&choice, Color::White).is_some());
    }

    #[test]
    fn a_root_proven_lost_is_a_proven_point_though_the_search_plays_on() {
        // White to move, proven lost; the search still hopes (its value +0.3 for White)
        // and its best move has no proof of its own.
        let mut lost = merged(0.3, Some(2.0));
        lost.search.proof = Some(Proof::Loss);
        let estimate = Estimate::of(&lost, Color::White);
        assert_eq!((estimate.black_win, estimate.black_discs), (1.0, None));
        assert!(estimate.exact && !estimate.margin_at_least);
        // The same for Black to move, and a proven draw is even.
        assert_eq!(Estimate::of(&lost, Color::Black).black_win, 0.0);
        lost.search.proof = Some(Proof::Draw);
        let drawn = Estimate::of(&lost, Color::Black);
        assert!(drawn.exact && drawn.black_win == 0.5);
        // Without the root's proof the network's estimate stands.
        lost.search.proof = None;
        assert!(!Estimate::of(&lost, Color::White).exact);
    }

    #[test]
    fn estimates_are_turned_to_blacks_side() {
        let white = Estimate::of(&merged(0.5, Some(6.0)), Color::White);
        assert_eq!(white.black_win, 0.25);
        assert_eq!(white.black_discs, Some(-6.0));
        assert!(!white.exact);
        let mut solved = merged(0.0, None);
        solved.search.solved = Some(SolvedStat {
            best: Move::Pass,
            margin: -10,
            exact: true,
            nodes: 1,
            micros: 1,
        });
        let exact = Estimate::of(&solved, Color::White);
        assert_eq!((exact.black_win, exact.black_discs), (1.0, Some(10.0)));
        assert!(exact.exact && !exact.margin_at_least);
        // Only White's win proven, by at least 2: a proven point whose discs are a bound.
        solved.search.solved = Some(SolvedStat {
            best: Move::Pass,
            margin: 2,
            exact: false,
            nodes: 1,
            micros: 1,
        });
        let proven = Estimate::of(&solved, Color::White);
        assert_eq!((proven.black_win, proven.black_discs), (0.0, Some(-2.0)));
        assert!(proven.exact && proven.margin_at_least);
        let point = Point {
            ply: 38,
            number: None,
            mv: Some(Move::Pass),
            mover: Color::White,
            before: Position::start(BoardSize::Eight, Variant::Standard),
            estimate: Some(proven),
            review: None,
            end: None,
        };
        assert_eq!(
            describe(&point),
            // The position the point is of, said (issue 68, item 4: the caption spoke of
            // the search before the move while a click showed the position after it).
            "pass (White): Black 0% to win (proved by the solver: White wins by at least 2 discs) in the position White played it from"
        );
    }

    #[test]
    fn each_move_gets_the_search_of_the_position_it_was_played_from() {
        let g = game("f5d6c3");
        let mut known = Estimates::default();
        // The agent's search before d6 (White to move after f5).
        known.record(
            g.positions()[1].hash(),
            Estimate::of(&merged(0.2, None), Color::White),
        );
        let pts = points(&g, &known, &Reviews::default(), None);
        assert_eq!(pts.len(), 3);
        assert_eq!(pts[0].estimate, None, "no search before f5: a gap");
        assert_eq!(pts[1].mv.map(|m| m.to_string()), Some("d6".into()));
        assert_eq!(pts[1].mover, Color::White);
        assert_eq!(pts[1].estimate.map(|e| e.black_win), Some(0.4));
        // One scale whatever the network, discs (issue 68: a network without a score output
        // drew Black's chance instead, and the graph's words changed with it).
        assert_eq!(scale(&pts, 64), Scale::Discs(8.0));
        // The search now running adds a live point after the last move.
        let live = Estimate::of(&merged(0.0, None), Color::White);
        let pts = points(&g, &known, &Reviews::default(), Some(live));
        assert_eq!(pts.len(), 4);
        assert_eq!((pts[3].ply, pts[3].mv), (4, None));
        assert!(describe(&pts[0]).contains("no search"));
        // In discs too, the graph's one scale, whatever the network, and of the position
        // the move was played from (issue 68; "2. d6 (White): Black 40% to win" before).
        assert_eq!(
            describe(&pts[1]),
            "2. d6 (White): Black 40% to win, ≈\u{202f}\u{2212}2 discs in the position White played it from"
        );
    }

    #[test]
    fn a_finished_games_last_point_is_its_exact_result() {
        // A game that ends on its last move, searched before it: the last search's
        // estimate of the position before the end was "~-46 discs" (issue 68).
        let g = game(
            "d3c3b3d2e1d6d7e3f2c6e6d1b6b2b4d8c4f1a1f6g6a3c2b1c1c5a5g7c8g3g8a4f4g4b5a6e8f5c7b7a7h7g5h8g2a2e7b8a8h3g1h4f3h6f7h5h1h2f8e2",
        );
        let outcome = g.position().outcome().expect("the game is over");
        let mut known = Estimates::default();
        let last = g.moves().len() - 1;
        known.record(
            g.positions()[last].hash(),
            Estimate::of(
                &merged(-0.98, Some(-46.0)),
                g.positions()[last].side_to_move(),
            ),
        );
        // A search still reported for the final position adds no live point after it.
        let live = Estimate::of(&merged(0.0, Some(3.0)), Color::Black);
        let pts = points(&g, &known, &Reviews::default(), Some(live));
        assert_eq!(pts.len(), g.moves().len() + 1);
        let end = pts.last().expect("a point");
        assert_eq!(end.ply, g.moves().len() + 1);
        assert_eq!(end.end, Some(outcome));
        assert!(!end.is_live());
        let e = end.estimate.expect("the result");
        let margin = outcome.margin_for(Color::Black) as f32;
        assert_eq!((e.black_discs, e.exact), (Some(margin), true));
        assert_eq!(
            describe(end),
            format!(
                "The end of the game: {outcome}. Black {}, the final result (exact)",
                crate::format::with_discs(&crate::format::discs(margin, Sure::Exact))
            )
        );
        // An unfinished game has no such point.
        let pts = points(&game("f5d6"), &known, &Reviews::default(), None);
        assert!(pts.iter().all(|p| p.end.is_none()));
    }

    #[test]
    fn a_later_search_of_a_position_replaces_the_earlier_one() {
        let mut known = Estimates::default();
        let side = Color::Black;
        known.record(1, Estimate::of(&merged(0.0, None), side));
        known.record(1, Estimate::of(&merged(1.0, None), side));
        assert_eq!(known.get(1).map(|e| e.black_win), Some(1.0));
        for h in 0..(REMEMBERED as u64 + 10) {
            known.record(h + 2, Estimate::of(&merged(0.0, None), side));
        }
        assert_eq!(known.get(1), None, "the oldest are forgotten");
    }

    #[test]
    fn a_reviewed_move_is_drawn_at_its_positions_reviewed_value() {
        let g = game("f5d6");
        let mut known = Estimates::default();
        known.record(
            g.positions()[1].hash(),
            Estimate::of(&merged(0.9, Some(20.0)), Color::White),
        );
        let d6 = g.moves()[1];
        let mut reviews = Reviews::default();
        reviews.record(
            g.positions()[1].hash(),
            ReviewedMove {
                side: Color::White,
                played: d6,
                value: Some(-6.0),
                value_exact: true,
                best: Move::parse("f6", BoardSize::Eight).expect("a move"),
                best_value: Some(2.0),
                best_exact: true,
                loss: 8.0,
                line: vec![],
                best_is_bound: false,
                loss_between_estimates: false,
                line_searched: false,
                line_from_window: false,
            },
        );
        let pts = points(&g, &known, &reviews, None);
        assert_eq!(pts[0].estimate, None, "f5 has neither review nor search");
        let e = pts[1].estimate.expect("reviewed");
        // White's best is worth +2 for White: -2 for Black, exact, and the review wins
        // over the search's estimate of the same position.
        assert_eq!(
            (e.black_discs, e.exact, e.black_win),
            (Some(-2.0), true, 0.0)
        );
        assert_eq!(
            describe(&pts[1]),
            "The point: Black \u{2212}2 before the move (its best move's value). 2. d6 (White): \
             \u{2212}6 for White; best f6 +2: a blunder, 8 discs lost"
        );
        // A best move proven to win by at least 38, no more known: a proof, said so.
        let mut bound = reviews
            .get(g.positions()[1].hash(), d6)
            .expect("kept")
            .clone();
        (bound.best_value, bound.best_exact, bound.best_is_bound) = (Some(38.0), false, true);
        let e = Estimate::of_review(&bound).expect("a value");
        assert_eq!(
            (e.exact, e.margin_at_least, e.black_discs),
            (true, true, Some(-38.0))
        );
        let mut point = pts[1].clone();
        point.estimate = Some(e);
        point.review = Some(bound.clone());
        assert!(
            describe(&point).starts_with(
                "The point: White wins by at least 38 discs before the move (proved by the solver"
            ),
            "{}",
            describe(&point)
        );
        // A bound on a loss stays an estimate: it says nothing of the winner's margin.
        (bound.best_value, bound.best_is_bound) = (Some(-10.0), true);
        let e = Estimate::of_review(&bound).expect("a value");
        assert!(!e.exact && !e.margin_at_least);
        // Its words say the bound, as the table's "≥" does (the sixteenth look read "≈ −54"
        // beside "≥−54"): White's best reaches at least −10 for White, so Black at most +10.
        point.estimate = Some(e);
        point.review = Some(bound);
        assert!(
            describe(&point).starts_with(
                "The point: Black \u{2264} +10 before the move (a bound the solver proved: \
                 White's best move makes at least \u{2212}10 for White)"
            ),
            "{}",
            describe(&point)
        );
    }

    #[test]
    fn each_sides_cumulative_loss_ends_on_its_summarys_total() {
        use crate::review::summary;
        use engine::review::{MoveReview, Value};
        let g = game("f5d6c3d3c4");
        let mut reviews = Reviews::default();
        // Every move but the last reviewed, with losses that do not add up exactly in f32.
        let losses = [0.1f32, 2.7, 0.3, 8.45];
        for (i, loss) in losses.iter().enumerate() {
            let pos = g.positions()[i];
            let mv = g.moves()[i];
            let review = MoveReview::new(
                pos.side_to_move(),
                (mv, Value::estimate(-loss)),
                (pos.legal_move_list()[0], Value::estimate(0.0)),
            );
            reviews.record(pos.hash(), ReviewedMove::from_engine(&review));
        }
        let pts = points(&g, &Estimates::default(), &reviews, None);
        let of_game = reviews.of_game(&g);
        for side in [Color::Black, Color::White] {
            let line = cumulative_loss(&pts, side, g.moves().len());
            let total = summary(&of_game, side).total_loss;
            assert_eq!(line.last().map(|&(_, t)| t), Some(total), "{side}");
        }
        // A point at each of the side's reviewed moves, never one for the other side's.
        let black: Vec<usize> = cumulative_loss(&pts, Color::Black, g.moves().len())
            .iter()
            .map(|&(ply, _)| ply)
            .collect();
        assert_eq!(black, [1, 3]);
        assert!(cumulative_loss(
            &points(&g, &Estimates::default(), &Reviews::default(), None),
            Color::White,
            g.moves().len()
        )
        .is_empty());
        // Moves to redo are not counted: back at move 2, Black's line ends on move 1's loss.
        assert_eq!(cumulative_loss(&pts, Color::Black, 2), [(1, 0.1)]);
    }

    #[test]
    fn discs_are_the_scale_when_every_estimate_has_them() {
        let g = game("f5d6");
        let mut known = Estimates::default();
        known.record(
            g.positions()[0].hash(),
            Estimate::of(&merged(0.1, Some(13.0)), Color::Black),
        );
        let pts = points(&g, &known, &Reviews::default(), None);
        assert_eq!(scale(&pts, 64), Scale::Discs(16.0));
        let e = pts[0].estimate.expect("searched");
        assert!((height(&e, Scale::Discs(16.0)) - (13.0 / 16.0 + 1.0) / 2.0).abs() < 1e-6);
        // An estimate past a wipe-out's margin: the scale ends at the board's most, 64 on
        // 8x8 and 36 on 6x6, never "Black +72" (issue 68), the point at its end.
        let mut wide = Estimates::default();
        wide.record(
            g.positions()[0].hash(),
            Estimate::of(&merged(0.99, Some(70.0)), Color::Black),
        );
        let far = points(&g, &wide, &Reviews::default(), None);
        assert_eq!(scale(&far, 64), Scale::Discs(64.0));
        assert_eq!(scale(&far, 36), Scale::Discs(36.0));
        let e = far[0].estimate.expect("searched");
        assert!((height(&e, Scale::Discs(64.0)) - 1.0).abs() < 1e-6);
        // An estimate says so ("≈"), and the caption names the position the point is of
        // (issue 68; "+13 discs" before).
        assert_eq!(
            describe(&pts[0]),
            "1. f5 (Black): Black 55% to win, ≈\u{202f}+13 discs in the position Black played it from"
        );
    }
}
