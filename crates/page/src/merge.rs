//! Root-parallel search: each worker grows its own tree; the page adds their root visits
//! move by move to choose the move and to draw the heat map.

use crate::format::{discs, signed_discs, with_discs, Sure};
use engine::report::{choose_move, value_of_discs, MoveInfo, Proof};
use othello::{BoardSize, Move};
use protocol::{BookStat, EngineKind, Report, SearchStat};

/// The search of all workers as one.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The workers' searches summed ([`merge`] says how each part adds up).
    pub search: SearchStat,
    /// Most visited first, each as the engine reports a move ([`MoveInfo`]) with the
    /// trees' visits added up, `target` the move's share of all of them (what the heat map
    /// shows), `q` and `score` their visit-weighted means, `proof` any tree's (a fact about
    /// the position), `bounds` the narrowest (every tree's are true) and `prior` the first
    /// tree's (the same network's in every tree).
    pub moves: Vec<MoveInfo>,
    /// Simulations per second of each worker that reported.
    pub per_worker_rate: Vec<f64>,
    /// The move a lone worker chose itself: a Gumbel root picks by prior and value, not
    /// by visits, so its choice cannot be read from the counts.
    pub chosen: Option<Move>,
}

impl Merged {
    /// Chance of winning for the side to move.
    pub fn win_probability(&self) -> f32 {
        (self.search.value.clamp(-1.0, 1.0) + 1.0) / 2.0
    }

    /// What the search says its position is worth for the side to move, the one figure the
    /// panel, the graph and the framed square show: its best move's value in [-1, 1] (a
    /// chance to win of `(v + 1) / 2`) and expected final margin, as a review values a position (`engine::review::position_value`);
    /// the root's, weighted over every move tried, where the best move was not searched.
    /// (The root's mean sits below the best move's own, and once said -21 beside the
    /// framed square's ~-20.)
    pub fn best_value(&self) -> (f32, Option<f32>) {
        let best = self.best_move();
        match self
            .moves
            .iter()
            .find(|m| Some(m.mv) == best && m.visits > 0)
        {
            Some(m) => (m.q.clamp(-1.0, 1.0), m.score.or(self.search.score)),
            None => (self.search.value.clamp(-1.0, 1.0), self.search.score),
        }
    }

    /// The solver's move when the root is solved; else the move the native agent's rule
    /// ([`choose_move`]) picks from the summed trees: the largest proven win, then the lone
    /// worker's own choice, then the most visited move that bounds do not rule out.
    pub fn best_move(&self) -> Option<Move> {
        if let Some(solved) = self.search.solved {
            return Some(solved.best);
        }
        if let Some(book) = &self.search.book {
            return Some(book.best);
        }
        choose_move(&self.moves, self.chosen)
    }

    /// The moves as the search ranks them, its choice first ([`Merged::best_move`]), then
    /// each next by the same rule ([`choose_move`]) over the moves left: proven wins by
    /// their margin, the most visited of the moves no bound rules out, proven losses last.
    /// Moves it knows nothing of (no visit, bound or proof) are left out. A hint's colours
    /// follow this order, so its framed move is always the greenest (issue 68: a reversed
    /// game's framed move, chosen by visits that follow the value head, was painted red
    /// by the score head's margins).
    pub fn search_order(&self) -> Vec<Move> {
        let mut left: Vec<MoveInfo> = self
            .moves
            .iter()
            .filter(|m| m.visits > 0 || m.bounds.is_some() || m.proof.is_some())
            .cloned()
            .collect();
        let mut order = Vec::with_capacity(left.len());
        let mut next = self.best_move();
        while let Some(mv) = next {
            order.push(mv);
            left.retain(|m| m.mv != mv);
            next = choose_move(&left, None);
        }
        order
    }

    /// A move the network's search settled without a simulation, the solver or the book:
    /// the only legal one (or a search not yet under way). Its value is the network's
    /// empty prior, no estimate. The network without search reports every legal move, so
    /// one alone is the only legal move: its look is no estimate either (the ninth look's
    /// graph drew Instinct's "-45" for a forced move beside the proven -34 that followed).
    pub fn settled_without_search(&self) -> bool {
        let unsearched = match self.search.engine {
            EngineKind::Network => self.search.simulations == 0,
            EngineKind::Instinct => self.moves.len() == 1,
            EngineKind::AlphaBeta => false,
        };
        unsearched && self.search.solved.is_none() && self.search.book.is_none()
    }

    /// All workers' simulations over the time they have searched (they search side by
    /// side), so the rate shown is always the count shown over the time shown.
    pub fn simulations_per_second(&self) -> f64 {
        if self.search.elapsed_ms > 0.0 {
            self.search.simulations as f64 * 1000.0 / self.search.elapsed_ms
        } else {
            0.0
        }
    }

    /// The heat map's tiles: each visited move's share of the visits. None before this
    /// search has run a simulation of its own: visits left in a reused tree, or a root the
    /// solver settled, are no heat map of this search.
    pub fn tiles(&self) -> Vec<(Move, f32)> {
        if self.search.simulations == 0 {
            return Vec::new();
        }
        self.moves
            .iter()
            .filter(|m| m.visits > 0)
            .map(|m| (m.mv, m.target))
            .collect()
    }
}

/// One tile of the board's overlay: how strongly to colour it, what it says, and what a
/// screen reader says.
#[derive(Clone, Debug, PartialEq)]
pub struct Tile {
    pub mv: Move,
    /// 0 to 1: the colour's strength.
    pub strength: f32,
    pub label: String,
    pub aria: String,
    /// What the label is, for the legend under the board (`overlay::legend`).
    pub kind: TileKind,
}

/// What a tile's number is: the board's legend says each kind present in its own words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TileKind {
    /// A share of the search's visits, in percent (not a chance to win).
    Share,
    /// The exact final margin, the solver's or the search's settled bounds.
    Exact,
    /// A proven win or draw whose margin is at least this (`≥+2`).
    Bound,
    /// A proven win, draw or loss without its margin.
    Proven,
    /// The network's estimate of the final margin (`≈ +4`).
    Estimate,
    /// The network's chance to win, in percent (a network without a score output).
    Chance,
    /// The opening book's value in discs (its own searches' estimate).
    Book,
    /// A move the search never tried (`?`).
    Unsearched,
    /// A reviewed move's value in discs: a whole number is exact, a decimal an estimate.
    Reviewed,
}

impl Merged {
    /// The agent's search drawn as a heat map: each move's share of the visits.
    pub fn heat_tiles(&self) -> Vec<Tile> {
        self.tiles()
            .into_iter()
            .map(|(mv, share)| {
                // A move the search visited is never "0%" (the ninth fresh look read 0% on
                // squares with visits as none): under half a percent is "<1%".
                let (label, said) = match (share * 100.0).round() {
                    p if p < 1.0 => ("<1%".to_owned(), "under 1%".to_owned()),
                    p => (format!("{p}%"), format!("{p}%")),
                };
                Tile {
                    mv,
                    strength: share.sqrt(),
                    aria: format!("{said} of the search's visits"),
                    label,
                    kind: TileKind::Share,
                }
            })
            .collect()
    }

    /// A hint as Othello players read one: every legal move with its evaluation for the
    /// person (their chance to win after it, or the solver's verdict), coloured by it. A
    /// move the search never tried says so rather than inventing a number.
    pub fn hint_tiles(&self, legal: &[Move], size: BoardSize) -> Vec<Tile> {
        if let Some(book) = &self.search.book {
            return book_tiles(book, size);
        }
        if self.search.simulations == 0 && self.search.solved.is_none() {
            return Vec::new();
        }
        legal
            .iter()
            .filter(|mv| **mv != Move::Pass)
            .map(|&mv| {
                let stat = self.moves.iter().find(|m| m.mv == mv && m.visits > 0);
                let solved = self.search.solved.filter(|s| s.best == mv);
                // A margin the solver did not finish is a bound, never shown as exact.
                let bound = solved.filter(|s| !s.exact).map(|s| s.margin);
                let solved = solved.filter(|s| s.exact).map(|s| s.margin);
                // A margin the search's bounds settled is as exact as the solver's, and so
                // is one the worker solved beside a solved hint's best move (a move no
                // simulation visited).
                let exact = self
                    .moves
                    .iter()
                    .find(|m| m.mv == mv)
                    .and_then(|m| m.bounds)
                    .filter(|(lower, upper)| lower == upper)
                    .map(|(margin, _)| margin);
                let (strength, label, aria, kind) =
                    match (solved.or(exact), bound, stat.and_then(|m| m.proof), stat) {
                        (Some(margin), _, _, _) => (
                            exact_strength(margin),
                            discs(margin as f32, Sure::Exact),
                            format!(
                                "exact: the side to move finishes {} with perfect play",
                                with_discs(&discs(margin as f32, Sure::Exact))
                            ),
                            TileKind::Exact,
                        ),
                        (None, Some(lower), _, _) => bound_tile(lower),
                        (None, None, Some(p), _) => {
                            let word = match p {
                                Proof::Win => "win",
                                Proof::Draw => "draw",
                                Proof::Loss => "loss",
                            };
                            (
                                (p.value() + 1.0) / 2.0,
                                word.to_owned(),
                                format!("a proven {word}"),
                                TileKind::Proven,
                            )
                        }
                        (None, None, None, Some(m)) => estimate_tile(m, size),
                        (None, None, None, None) => (
                            0.0,
                            "?".to_owned(),
                            "not searched".to_owned(),
                            TileKind::Unsearched,
                        ),
                    };
                Tile {
                    mv,
                    strength,
                    label,
                    aria,
                    kind,
                }
            })
            .collect()
    }
}

/// A proven result whose margin the solver did not finish: at least `margin` for the
/// side to move (a hint's person, or either side in an analysis, where the fifteenth look
/// read "for you"), with a proven result's colour (a win's, a draw's), never an exact margin's,
/// and "≥" before the number. (On the board the search's order colours it where it has
/// others to rank with: `overlay::rank_by`.)
fn bound_tile(margin: i32) -> (f32, String, String, TileKind) {
    let strength = if margin > 0 { 1.0 } else { 0.5 };
    let exact = discs(margin as f32, Sure::Exact);
    (
        strength,
        discs(margin as f32, Sure::AtLeast),
        format!(
            "a proven result of at least {} for the side to move; the best margin was not reached, so another move may be better",
            with_discs(&exact)
        ),
        TileKind::Bound,
    )
}

/// An exact margin's place on the hint's scale: a win above any estimate short of
/// certainty and a loss below, each ordered by its margin, so a solved hint's colours rank
/// +20 above +4.
fn exact_strength(margin: i32) -> f32 {
    let by_margin = margin as f32 / 640.0;
    match margin.signum() {
        1 => 0.9 + by_margin,
        -1 => 0.1 + by_margin,
        _ => 0.5,
    }
}

/// A searched move's tile (strength, label, words): discs where the network estimates
/// them (finding 9 of issue 35: at small budgets every chance reads 92-99%, which cannot
/// tell moves apart; a disc margin can), coloured by them as book tiles are, and said in
/// the same discs: the words once added the value head's chance, which can order two moves
/// the other way ("~-16 (11% chance to win)" beside "~-17 (16%)", a fresh look, issue 68),
/// so a square says one number; the chance in percent without a score head.
fn estimate_tile(m: &MoveInfo, size: BoardSize) -> (f32, String, String, TileKind) {
    let win = (m.q.clamp(-1.0, 1.0) + 1.0) / 2.0;
    match m.score {
        // "≈": an estimate, never to be read as the exact margin a whole number is.
        Some(score) => (
            (value_of_discs(score) + 1.0) / 2.0,
            discs(score, Sure::Estimate(size)),
            format!("about {} after it", with_discs(&signed_discs(score, 0))),
            TileKind::Estimate,
        ),
        None => (
            win,
            crate::format::chance(win),
            format!("{} chance to win after it", crate::format::chance(win)),
            TileKind::Chance,
        ),
    }
}

/// The book's moves as hint tiles: each with its book value in discs.
fn book_tiles(book: &BookStat, size: BoardSize) -> Vec<Tile> {
    book.moves
        .iter()
        .map(|&(mv, value)| {
            Tile {
                mv,
                // The value in discs drawn as a chance, as the engine's book report does.
                strength: (value_of_discs(value) + 1.0) / 2.0,
                label: discs(value, Sure::Estimate(size)),
                aria: format!(
                    "book: about {} after it",
                    with_discs(&signed_discs(value, 0))
                ),
                kind: TileKind::Book,
            }
        })
        .collect()
}

/// Merges the latest report of each worker; `None` when there is none.
pub fn merge<'a>(reports: impl IntoIterator<Item = &'a Report>) -> Option<Merged> {
    let reports: Vec<&Report> = reports.into_iter().collect();
    if reports.is_empty() {
        return None;
    }
    let moves = sum_moves(&reports);
    let chosen = match reports.as_slice() {
        [lone] => lone.best,
        _ => None,
    };
    // The PV of the tree that agrees with the merged choice.
    let best = chosen.or(moves.first().map(|m| m.mv));
    Some(Merged {
        search: sum_searches(&reports, best),
        moves,
        per_worker_rate: reports
            .iter()
            .filter(|r| r.search.elapsed_ms > 0.0)
            .map(|r| r.search.simulations as f64 * 1000.0 / r.search.elapsed_ms)
            .collect(),
        chosen,
    })
}

/// The root moves of all the trees, most visited first: visits added up, values and
/// scores averaged by visits, a proof from any tree (a fact about the position) and the
/// narrowest bounds (every tree's are true).
fn sum_moves(reports: &[&Report]) -> Vec<MoveInfo> {
    let mut moves: Vec<MoveInfo> = Vec::new();
    // Sums of q * visits, to turn into means at the end.
    let mut q_sums: Vec<f64> = Vec::new();
    // Sums of score * visits and of the visits behind them, over the trees with a score.
    let mut score_sums: Vec<(f64, f64)> = Vec::new();
    for stat in reports.iter().flat_map(|r| &r.moves) {
        let index = match moves.iter().position(|m| m.mv == stat.mv) {
            Some(i) => i,
            None => {
                moves.push(MoveInfo {
                    mv: stat.mv,
                    visits: 0,
                    prior: stat.prior,
                    q: 0.0,
                    proof: None,
                    bounds: None,
                    target: 0.0,
                    score: None,
                });
                q_sums.push(0.0);
                score_sums.push((0.0, 0.0));
                moves.len() - 1
            }
        };
        add_move(&mut moves[index], stat);
        q_sums[index] += stat.q as f64 * stat.visits as f64;
        if let (Some(score), true) = (stat.score, stat.visits > 0) {
            score_sums[index].0 += f64::from(score) * f64::from(stat.visits);
            score_sums[index].1 += f64::from(stat.visits);
        }
    }
    let total: u64 = moves.iter().map(|m| u64::from(m.visits)).sum();
    for ((m, q_sum), (score_sum, scored)) in moves.iter_mut().zip(&q_sums).zip(&score_sums) {
        if m.visits > 0 {
            m.q = (q_sum / m.visits as f64) as f32;
        }
        if *scored > 0.0 {
            m.score = Some((score_sum / scored) as f32);
        }
        m.target = if total > 0 {
            m.visits as f32 / total as f32
        } else {
            0.0
        };
    }
    moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.q.total_cmp(&a.q)));
    moves
}

/// One tree's visits, proof and bounds of a move added to the merged move.
fn add_move(merged: &mut MoveInfo, stat: &MoveInfo) {
    merged.visits = merged.visits.saturating_add(stat.visits);
    // A proof from any tree is a fact about the position.
    if stat.proof.is_some() {
        merged.proof = stat.proof;
    }
    if let Some((lower, upper)) = stat.bounds {
        let (known_lower, known_upper) = merged.bounds.unwrap_or((lower, upper));
        merged.bounds = Some((lower.max(known_lower), upper.min(known_upper)));
    }
}

/// The searches as one: the first worker's kind, the value weighted by each tree's root
/// visits, the score the solver's margin or else the weighted mean of the trees that have
/// one, the simulations added up over the longest time any worker searched, the principal
/// variation of the tree that agrees with `best` and searched it most, and the solver's,
/// the book's and a proof's verdict from any worker.
fn sum_searches(reports: &[&Report], best: Option<Move>) -> SearchStat {
    let weight = |r: &Report| r.root_visits().max(1) as f64;
    let weights: f64 = reports.iter().map(|r| weight(r)).sum();
    let value = reports
        .iter()
        .map(|r| r.search.value as f64 * weight(r))
        .sum::<f64>()
        / weights;
    // Every worker's solver finds the same margin; any of them names a best move.
    let solved = reports.iter().find_map(|r| r.search.solved);
    let scored: Vec<(f64, f64)> = reports
        .iter()
        .filter_map(|r| r.search.score.map(|s| (s as f64, weight(r))))
        .collect();
    let score = match solved {
        Some(s) => Some(s.margin as f32),
        None if scored.is_empty() => None,
        None => Some(
            (scored.iter().map(|(s, w)| s * w).sum::<f64>()
                / scored.iter().map(|(_, w)| w).sum::<f64>()) as f32,
        ),
    };
    let pv = reports
        .iter()
        .filter(|r| r.search.pv.first().copied() == best)
        .max_by_key(|r| r.root_visits())
        .or_else(|| reports.iter().max_by_key(|r| r.root_visits()))
        .map(|r| r.search.pv.clone())
        .unwrap_or_default();
    SearchStat {
        engine: reports[0].search.engine,
        pv,
        value: value as f32,
        score,
        simulations: reports.iter().map(|r| r.search.simulations).sum(),
        elapsed_ms: reports
            .iter()
            .map(|r| r.search.elapsed_ms)
            .fold(0.0, f64::max),
        solved,
        // The first worker's: with `book_random` each draws its own.
        book: reports.iter().find_map(|r| r.search.book.clone()),
        proof: reports.iter().find_map(|r| r.search.proof),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::Square;
    use protocol::SolvedStat;

    fn mv(text: &str) -> Move {
        Move::parse(text, BoardSize::Eight).expect("valid move")
    }

    fn stat(text: &str, visits: u32, q: f32) -> MoveInfo {
        MoveInfo {
            mv: mv(text),
            visits,
            prior: 0.25,
            q,
            proof: None,
            bounds: None,
            target: 0.0,
            score: None,
        }
    }

    fn report(moves: Vec<MoveInfo>, value: f32, pv: &[&str]) -> Report {
        let simulations = moves.iter().map(|m| m.visits as u64).sum();
        Report {
            search: SearchStat {
                engine: EngineKind::Network,
                pv: pv.iter().map(|t| mv(t)).collect(),
                value,
                score: None,
                simulations,
                elapsed_ms: 100.0,
                solved: None,
                book: None,
                proof: None,
            },
            best: moves.first().map(|m| m.mv),
            moves,
        }
    }

    #[test]
    fn visits_add_up_across_workers_and_shares_sum_to_one() {
        let a = report(vec![stat("d3", 30, 0.1), stat("c4", 10, 0.0)], 0.1, &["d3"]);
        let b = report(vec![stat("c4", 35, 0.2), stat("d3", 25, 0.3)], 0.2, &["c4"]);
        let merged = merge([&a, &b]).expect("two reports");
        assert_eq!(merged.moves[0].mv, mv("d3"));
        assert_eq!(merged.moves[0].visits, 55);
        assert_eq!(merged.moves[1].visits, 45);
        let total: f32 = merged.moves.iter().map(|m| m.target).sum();
        assert!((total - 1.0).abs() < 1e-6);
        let d3 = merged.tiles().into_iter().find(|(m, _)| *m == mv("d3"));
        assert!((d3.expect("searched").1 - 0.55).abs() < 1e-6);
        assert_eq!(merged.best_move(), Some(mv("d3")));
        // Visit-weighted q: (0.1*30 + 0.3*25) / 55.
        assert!((merged.moves[0].q - 10.5 / 55.0).abs() < 1e-6);
        // The PV comes from the tree whose first move is the merged choice.
        assert_eq!(merged.search.pv, vec![mv("d3")]);
        assert_eq!(merged.search.simulations, 100);
        assert_eq!(merged.per_worker_rate.len(), 2);
        // 100 simulations in the 100 ms both workers searched.
        assert!((merged.simulations_per_second() - 1000.0).abs() < 1e-6);
        assert_eq!(merged.tiles().len(), 2);
    }

    #[test]
    fn a_lone_workers_own_choice_wins_over_the_visit_counts_but_not_over_a_proof() {
        // A Gumbel root may play a move with fewer visits than another.
        let mut gumbel = report(vec![stat("d3", 12, 0.1), stat("c4", 8, 0.4)], 0.3, &["c4"]);
        gumbel.best = Some(mv("c4"));
        let merged = merge([&gumbel]).expect("one report");
        assert_eq!(merged.moves[0].mv, mv("d3"));
        assert_eq!(merged.best_move(), Some(mv("c4")));
        assert_eq!(merged.search.pv, vec![mv("c4")]);
        // A proven loss is never played, whoever chose it.
        gumbel.moves[1].proof = Some(Proof::Loss);
        assert_eq!(merge([&gumbel]).and_then(|m| m.best_move()), Some(mv("d3")));
        // With several trees the counts decide: each worker's choice is only its own.
        let mut other = gumbel.clone();
        other.moves[1].proof = None;
        gumbel.moves[1].proof = None;
        let merged = merge([&gumbel, &other]).expect("two reports");
        assert_eq!(merged.chosen, None);
        assert_eq!(merged.best_move(), Some(mv("d3")));
    }

    #[test]
    fn the_value_and_score_are_weighted_by_how_much_each_tree_searched() {
        let mut a = report(vec![stat("d3", 90, 0.0)], 0.5, &["d3"]);
        let mut b = report(vec![stat("d3", 10, 0.0)], -0.5, &["d3"]);
        let merged = merge([&a, &b]).expect("two reports");
        assert!((merged.search.value - 0.4).abs() < 1e-6);
        assert!((merged.win_probability() - 0.7).abs() < 1e-6);
        assert_eq!(merged.search.score, None);
        a.search.score = Some(10.0);
        b.search.score = Some(-10.0);
        let merged = merge([&a, &b]).expect("two reports");
        assert!((merged.search.score.expect("a score") - 8.0).abs() < 1e-5);
    }

    #[test]
    fn a_proven_win_beats_more_visits_and_a_proven_loss_is_avoided() {
        let mut win = stat("c4", 1, 1.0);
        win.proof = Some(Proof::Win);
        let merged = merge([&report(vec![stat("d3", 50, 0.0), win], 0.0, &[])]).expect("one");
        assert_eq!(merged.best_move(), Some(mv("c4")));

        let mut loss = stat("d3", 80, -1.0);
        loss.proof = Some(Proof::Loss);
        let merged = merge([&report(vec![loss, stat("c4", 5, 0.0)], 0.0, &[])]).expect("one");
        assert_eq!(merged.best_move(), Some(mv("c4")));
    }

    #[test]
    fn the_merge_plays_the_largest_proven_win_any_tree_found_as_the_agent_does() {
        // Each tree proved a different win; the bounds of one move come from both trees.
        let proven = |text: &str, visits: u32, bounds: (i32, i32)| {
            let mut m = stat(text, visits, 1.0);
            m.proof = Some(Proof::Win);
            m.bounds = Some(bounds);
            m
        };
        let mut open_a = stat("f5", 60, 0.8);
        open_a.bounds = Some((-4, 20));
        let mut open_b = stat("f5", 40, 0.8);
        open_b.bounds = Some((-10, 12));
        let a = report(vec![open_a, proven("d3", 30, (2, 2))], 1.0, &["f5"]);
        let b = report(vec![open_b, proven("c4", 3, (6, 6))], 1.0, &["f5"]);
        let merged = merge([&a, &b]).expect("two reports");
        assert_eq!(merged.best_move(), Some(mv("c4")));
        let f5 = merged.moves.iter().find(|m| m.mv == mv("f5"));
        assert_eq!(f5.and_then(|m| m.bounds), Some((-4, 12)));
    }

    #[test]
    fn a_solved_root_plays_the_solvers_move_whatever_the_visits() {
        let searched = report(vec![stat("d3", 90, 0.5), stat("c4", 10, 0.4)], 0.5, &["d3"]);
        let mut solved = report(vec![stat("c4", 0, 1.0)], 1.0, &["c4"]);
        solved.search.solved = Some(SolvedStat {
            best: mv("c4"),
            margin: 12,
            exact: true,
            nodes: 5000,
            micros: 900,
        });
        let merged = merge([&searched, &solved]).expect("two reports");
        assert_eq!(merged.best_move(), Some(mv("c4")));
        assert_eq!(merged.search.solved.map(|s| s.margin), Some(12));
    }

    #[test]
    fn a_margin_the_solver_did_not_finish_is_a_bound_on_the_hint_never_exact() {
        let mut solved = report(vec![stat("c1", 0, 1.0), stat("a2", 5, 0.9)], 1.0, &["c1"]);
        solved.search.solved = Some(SolvedStat {
            best: mv("c1"),
            margin: 30,
            exact: false,
            nodes: 5000,
            micros: 900,
        });
        let merged = merge([&solved]).expect("one report");
        let tiles = merged.hint_tiles(&[mv("c1"), mv("a2")], BoardSize::Eight);
        assert_eq!(tiles[0].label, "≥+30");
        assert!(!tiles[0].aria.contains("exact"), "{}", tiles[0].aria);
        assert!(tiles[0].aria.contains("another move may be better"));
        // Not an exact margin's colour, and the same move solved exactly is one.
        solved.search.solved = solved
            .search
            .solved
            .map(|s| SolvedStat { exact: true, ..s });
        let exact = merge([&solved])
            .expect("one report")
            .hint_tiles(&[mv("c1")], BoardSize::Eight);
        assert_eq!(exact[0].label, "+30");
        assert_ne!(exact[0].strength, tiles[0].strength);
    }

    #[test]
    fn a_book_move_is_played_whatever_the_visits_and_hints_show_the_book_values() {
        let searched = report(vec![stat("d3", 500, 0.1)], 0.1, &["d3"]);
        let mut booked = report(Vec::new(), 0.0, &["f5"]);
        booked.search.book = Some(BookStat {
            best: mv("f5"),
            value: -0.4,
            moves: vec![(mv("f5"), -0.4), (mv("d3"), -2.0)],
        });
        let merged = merge([&searched, &booked]).expect("two reports");
        assert_eq!(merged.best_move(), Some(mv("f5")));
        let tiles = merged.hint_tiles(&[mv("f5"), mv("d3"), mv("c4")], BoardSize::Eight);
        let labels: Vec<(String, String)> = tiles
            .iter()
            .map(|t| (t.mv.to_string(), t.label.clone()))
            .collect();
        assert_eq!(
            labels,
            [
                ("f5".into(), "≈\u{202f}0".into()),
                ("d3".into(), "≈\u{202f}\u{2212}2".into())
            ]
        );
        assert!(tiles[0].strength > tiles[1].strength);
    }

    #[test]
    fn a_hint_shows_the_networks_discs_merged_over_the_workers_when_it_has_them() {
        let scored = |text: &str, visits: u32, q: f32, discs: f32| MoveInfo {
            score: Some(discs),
            ..stat(text, visits, q)
        };
        // Nearly equal chances (96% and 95%) that the disc estimates tell apart.
        let a = report(
            vec![scored("d3", 30, 0.92, 6.0), scored("c4", 10, 0.90, 2.0)],
            0.9,
            &["d3"],
        );
        let b = report(
            vec![scored("d3", 10, 0.92, 10.0), stat("c4", 10, 0.90)],
            0.9,
            &["d3"],
        );
        let merged = merge([&a, &b]).expect("two reports");
        // Visit-weighted over the trees that estimate discs: (30*6 + 10*10) / 40 = 7; c4
        // only from the tree that has a score.
        assert_eq!(merged.moves[0].score, Some(7.0));
        assert_eq!(merged.moves[1].score, Some(2.0));
        let tiles = merged.hint_tiles(&[mv("d3"), mv("c4"), mv("f5")], BoardSize::Eight);
        let labels: Vec<&str> = tiles.iter().map(|t| t.label.as_str()).collect();
        // Estimates say so ("≈"), never read as the exact margins whole numbers are.
        assert_eq!(labels, ["≈\u{202f}+7", "≈\u{202f}+2", "?"]);
        assert!(tiles[0].strength > tiles[1].strength);
        // Issue 68: one rule writes every estimate in whole discs ("+7.0" before).
        // A square says one number: its discs, not the value head's chance beside them.
        assert_eq!(tiles[0].aria, "about +7 discs after it");
        // Without a score head the chance stays, and a disc estimate never rounds to "-0".
        let plain = merge([&report(vec![stat("d3", 30, 0.92)], 0.9, &["d3"])]).expect("one");
        assert_eq!(
            plain.hint_tiles(&[mv("d3")], BoardSize::Eight)[0].label,
            "96%"
        );
        let even = merge([&report(vec![scored("d3", 30, 0.0, -0.3)], 0.0, &["d3"])]).expect("one");
        assert_eq!(
            even.hint_tiles(&[mv("d3")], BoardSize::Eight)[0].label,
            "≈\u{202f}0"
        );
    }

    #[test]
    fn no_tiles_before_this_search_has_simulated() {
        let mut reused = report(vec![stat("d3", 30, 0.1), stat("c4", 0, 0.0)], 0.1, &["d3"]);
        reused.search.simulations = 0;
        let merged = merge([&reused]).expect("one report");
        assert!(merged.tiles().is_empty());
        assert_eq!(merged.simulations_per_second(), 0.0);
        reused.search.simulations = 1;
        let tiles = merge([&reused]).expect("one report").tiles();
        assert_eq!(tiles, vec![(mv("d3"), 1.0)]);
    }

    #[test]
    fn a_hint_evaluates_every_legal_move_and_says_which_it_never_tried() {
        let mut a = report(
            vec![stat("d3", 30, 0.2), stat("c4", 10, -0.5)],
            0.2,
            &["d3"],
        );
        a.moves[1].proof = Some(Proof::Loss);
        // A win whose margin the bounds settled shows it; one with a range says "win".
        let mut settled = stat("c5", 4, 1.0);
        (settled.proof, settled.bounds) = (Some(Proof::Win), Some((4, 4)));
        let mut unsettled = stat("e3", 4, 1.0);
        (unsettled.proof, unsettled.bounds) = (Some(Proof::Win), Some((2, 10)));
        a.moves.extend([settled, unsettled]);
        let merged = merge([&a]).expect("one report");
        let legal = [mv("d3"), mv("c4"), mv("f5"), mv("e6"), mv("c5"), mv("e3")];
        let tiles = merged.hint_tiles(&legal, BoardSize::Eight);
        let labels: Vec<(String, &str)> = tiles
            .iter()
            .map(|t| (t.mv.to_string(), t.label.as_str()))
            .collect();
        assert_eq!(
            labels,
            vec![
                ("d3".to_owned(), "60%"),
                ("c4".to_owned(), "loss"),
                ("f5".to_owned(), "?"),
                ("e6".to_owned(), "?"),
                ("c5".to_owned(), "+4"),
                ("e3".to_owned(), "win"),
            ]
        );
        assert_eq!(
            tiles[4].aria,
            "exact: the side to move finishes +4 discs with perfect play"
        );
        assert!((tiles[0].strength - 0.6).abs() < 1e-6);
        assert_eq!(tiles[2].aria, "not searched");
        // The heat map of the same search is the visits' shares.
        let heat = merged.heat_tiles();
        // 62.5% is 63%: half away from zero, the page's one rounding (issue 68; "62%",
        // half to even, before).
        assert_eq!(heat[0].label, "63%");
        // A visited move's small share is "<1%", never "0%".
        let mut few = merged.clone();
        few.moves[1].visits = 1;
        few.moves[1].target = 0.004;
        let heat = few.heat_tiles();
        let small = heat
            .iter()
            .find(|t| t.mv == few.moves[1].mv)
            .expect("a visited move's tile");
        assert_eq!(
            (small.label.as_str(), small.aria.as_str()),
            ("<1%", "under 1% of the search's visits")
        );
    }

    #[test]
    fn no_reports_merge_to_nothing() {
        assert!(merge(std::iter::empty::<&Report>()).is_none());
    }

    #[test]
    fn a_move_only_one_tree_tried_still_counts() {
        let a = report(vec![stat("d3", 10, 0.0)], 0.0, &["d3"]);
        let b = report(vec![stat("f5", 30, 0.0)], 0.0, &["f5"]);
        let merged = merge([&a, &b]).expect("two");
        assert_eq!(merged.moves.len(), 2);
        assert_eq!(merged.best_move(), Some(mv("f5")));
        assert_eq!(
            merged.moves[0].mv,
            Move::Place(Square::parse("f5", BoardSize::Eight).expect("valid"))
        );
    }
}
