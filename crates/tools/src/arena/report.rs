//! Arena reports for people and tools: a text table, CSV and an SVG heat map.

use super::{ArenaReport, Tally};
use std::fmt::Write;

/// The ratings and every pairing by colour, as fixed-width text.
pub fn format_table(report: &ArenaReport) -> String {
    let mut out = String::new();
    let width = report
        .players
        .iter()
        .map(String::len)
        .max()
        .unwrap_or(6)
        .max(6);
    let games = match report.sprt {
        Some(_) => format!(
            "a sequential match of at most {} games",
            report.games_per_pairing
        ),
        None => format!("{} games per pairing", report.games_per_pairing),
    };
    let _ = writeln!(
        out,
        "{n}x{n} {}, {games}, seed {}",
        report.variant,
        report.seed,
        n = report.board
    );
    let _ = writeln!(out, "Elo: {}", report.rating_note);
    let _ = writeln!(
        out,
        "\n  # {:<width$}  {:>6}  {:>15}  {:>6}  {:>5}  {:>8}",
        "player", "Elo", "95% interval", "score", "games", "ms/move"
    );
    let mut order: Vec<usize> = (0..report.ratings.len()).collect();
    order.sort_by(|&a, &b| report.ratings[b].elo.total_cmp(&report.ratings[a].elo));
    for (rank, &i) in order.iter().enumerate() {
        let r = &report.ratings[i];
        let interval = if r.stderr > 0.0 {
            format!("[{:.0}, {:.0}]", r.low, r.high)
        } else {
            "anchor".to_owned()
        };
        let _ = writeln!(
            out,
            "{:>3} {:<width$}  {:>6.0}  {:>15}  {:>5.1}%  {:>5}  {:>8.2}",
            rank + 1,
            r.player,
            r.elo,
            interval,
            100.0 * r.score,
            r.games,
            r.ms_per_move
        );
    }
    let _ = writeln!(
        out,
        "\nPairings, from the first player's side: wins-draws-losses, score, mean disc margin"
    );
    let _ = writeln!(
        out,
        "{:<width$}  {:<width$}  {:>24}  {:>24}  {:>24}",
        "player", "opponent", "total", "as Black", "as White"
    );
    for p in report.pairings.iter().filter(|p| p.player < p.opponent) {
        let _ = writeln!(
            out,
            "{:<width$}  {:<width$}  {:>24}  {:>24}  {:>24}",
            report.players[p.player],
            report.players[p.opponent],
            tally_text(&p.total),
            tally_text(&p.as_black),
            tally_text(&p.as_white)
        );
    }
    pairs_text(&mut out, report, width);
    out
}

/// The game pairs of every pairing, the sequential test, and the forfeits.
fn pairs_text(out: &mut String, report: &ArenaReport, width: usize) {
    let _ = writeln!(
        out,
        "\nGame pairs (an opening with both colours), from the first player's side: \
         lost both, a loss and a draw, even, a win and a draw, won both; \
         logistic Elo from the pairs with its 95% interval; LOS"
    );
    let _ = writeln!(
        out,
        "{:<width$}  {:<width$}  {:>5}  {:>26}  {:>22}  {:>6}",
        "player", "opponent", "pairs", "LL LD even WD WW", "Elo (95% interval)", "LOS"
    );
    for pairs in &report.pairs {
        let c = pairs.pentanomial.counts;
        let elo = pairs.elo.map_or_else(
            || ("-".to_owned(), "-".to_owned()),
            |e| {
                (
                    format!("{:+.0} [{:+.0}, {:+.0}]", e.elo, e.low, e.high),
                    format!("{:.1}%", 100.0 * e.los),
                )
            },
        );
        let _ = writeln!(
            out,
            "{:<width$}  {:<width$}  {:>5}  {:>26}  {:>22}  {:>6}",
            report.players[pairs.player],
            report.players[pairs.opponent],
            pairs.pentanomial.pairs(),
            format!("{} {} {} {} {}", c[0], c[1], c[2], c[3], c[4]),
            elo.0,
            elo.1
        );
    }
    if let Some(sprt) = &report.sprt {
        let verdict = match (sprt.verdict, sprt.pairs_at_verdict) {
            (Some(h), Some(pairs)) => {
                let (favoured, over) = match h {
                    super::Hypothesis::H1 => (sprt.test.elo1, sprt.test.elo0),
                    super::Hypothesis::H0 => (sprt.test.elo0, sprt.test.elo1),
                };
                format!(
                    "{h} accepted after {pairs} pairs: the games favour {favoured:+} Elo \
                     for the first player over {over:+}"
                )
            }
            _ => "no verdict: the games ran out first".to_owned(),
        };
        let _ = writeln!(
            out,
            "\nSPRT {} (logistic Elo, pentanomial): LLR {:.2} in [{:.2}, {:.2}]: {verdict}",
            sprt.test, sprt.llr, sprt.lower, sprt.upper
        );
    }
    let forfeits: Vec<_> = report
        .games
        .iter()
        .enumerate()
        .filter_map(|(i, g)| g.forfeit.as_ref().map(|f| (i, f)))
        .collect();
    if !forfeits.is_empty() {
        let _ = writeln!(out, "\nForfeits ({}):", forfeits.len());
        for (i, f) in forfeits {
            let _ = writeln!(out, "  game {}: {} lost: {}", i + 1, f.side, f.reason);
        }
    }
    if let Some(clock) = report.clock_seconds {
        let _ = writeln!(out, "\nClock: {clock} s a side a game");
    }
}

fn tally_text(t: &Tally) -> String {
    format!(
        "{}-{}-{} {:>5.1}% {:>+6.1}",
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score,
        t.mean_margin
    )
}

/// One row per player, opponent and colour (`all`, `black`, `white`).
pub fn csv(report: &ArenaReport) -> String {
    let mut out = String::from(
        "player,opponent,colour,games,wins,draws,losses,score,mean_margin,player_elo,player_elo_low,player_elo_high\n",
    );
    for p in &report.pairings {
        let r = &report.ratings[p.player];
        for (colour, t) in [
            ("all", &p.total),
            ("black", &p.as_black),
            ("white", &p.as_white),
        ] {
            let _ = writeln!(
                out,
                "{},{},{colour},{},{},{},{},{:.4},{:.3},{:.1},{:.1},{:.1}",
                csv_field(&report.players[p.player]),
                csv_field(&report.players[p.opponent]),
                t.games,
                t.wins,
                t.draws,
                t.losses,
                t.score,
                t.mean_margin,
                r.elo,
                r.low,
                r.high
            );
        }
    }
    out
}

/// Quotes a field that holds a comma or a quote (specs like `mcts:sims=800,c=1` do).
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// A whole percentage, except that a share near but not at 0 or 1 does not round to them:
/// 1 win in 400 reads `<1%`, not `0%`.
fn percent(share: f64) -> String {
    let p = 100.0 * share;
    if p > 0.0 && p < 0.5 {
        "&lt;1%".to_owned()
    } else if (99.5..100.0).contains(&p) {
        "&gt;99%".to_owned()
    } else {
        format!("{p:.0}%")
    }
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Red for a score share of 0 through white at 1/2 to green at 1.
fn share_colour(share: f64) -> String {
    let s = share.clamp(0.0, 1.0);
    let (r, g, b) = if s < 0.5 {
        let t = s / 0.5;
        (
            214.0 + (255.0 - 214.0) * t,
            69.0 + (255.0 - 69.0) * t,
            65.0 + (255.0 - 65.0) * t,
        )
    } else {
        let t = (s - 0.5) / 0.5;
        (
            255.0 + (26.0 - 255.0) * t,
            255.0 + (152.0 - 255.0) * t,
            255.0 + (80.0 - 255.0) * t,
        )
    };
    format!("#{:02x}{:02x}{:02x}", r as u8, g as u8, b as u8)
}

/// The win matrix: row player's score share against the column player, players ordered
/// by rating, the percentage written in each cell.
pub fn heat_map_svg(report: &ArenaReport) -> String {
    let n = report.players.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| report.ratings[b].elo.total_cmp(&report.ratings[a].elo));
    let cell = 64.0;
    let longest = report.players.iter().map(String::len).max().unwrap_or(6) as f64;
    // Roughly 7.5 px per character of 13 px sans-serif.
    let left = 20.0 + 7.5 * longest;
    let top = 60.0 + 7.5 * longest * std::f64::consts::FRAC_1_SQRT_2;
    // Column names lean right as they rise, past the last column; the title and the
    // note below need some 460 px whatever the players.
    let width = (left + cell * n as f64 + 20.0 + 7.5 * longest * std::f64::consts::FRAC_1_SQRT_2)
        .max(460.0);
    let height = top + cell * n as f64 + 40.0;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="10" y="22" font-size="15" font-weight="bold">Score of row player against column player</text>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="10" y="40">{n}x{n} {}, {} games per pairing, both colours</text>"#,
        xml_escape(&report.variant),
        report.games_per_pairing,
        n = report.board
    );
    for (col, &j) in order.iter().enumerate() {
        let x = left + cell * (col as f64 + 0.5);
        let _ = writeln!(
            svg,
            r#"<text x="{x:.1}" y="{:.1}" transform="rotate(-45 {x:.1} {:.1})">{}</text>"#,
            top - 8.0,
            top - 8.0,
            xml_escape(&report.players[j])
        );
    }
    for (row, &i) in order.iter().enumerate() {
        let y = top + cell * row as f64;
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end" dominant-baseline="middle">{}</text>"#,
            left - 8.0,
            y + cell / 2.0,
            xml_escape(&report.players[i])
        );
        for (col, &j) in order.iter().enumerate() {
            let x = left + cell * col as f64;
            let (fill, label) = match report.pairing(i, j) {
                Some(p) if i != j => (share_colour(p.total.score), percent(p.total.score)),
                _ => ("#dddddd".to_owned(), String::new()),
            };
            let _ = writeln!(
                svg,
                r##"<rect x="{x:.1}" y="{y:.1}" width="{cell}" height="{cell}" fill="{fill}" stroke="#ffffff"/>"##
            );
            if !label.is_empty() {
                let _ = writeln!(
                    svg,
                    r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" dominant-baseline="middle">{label}</text>"#,
                    x + cell / 2.0,
                    y + cell / 2.0
                );
            }
        }
    }
    let _ = writeln!(
        svg,
        r##"<text x="10" y="{:.0}" font-size="11" fill="#555555">Players ordered by Elo; red: row player scores less than half, green: more.</text>"##,
        height - 14.0
    );
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::super::*;

    fn report() -> ArenaReport {
        let config = ArenaConfig {
            size: othello::BoardSize::Four,
            variant: othello::Variant::Standard,
            players: ArenaPlayer::parse_list("random,greedy,mcts:sims=20,c=1", &[]).expect("valid"),
            games_per_pairing: 2,
            seed: 3,
            openings: Openings::Random,
            rules: MatchRules::default(),
            sprt: None,
        };
        let openings = generate_openings(config.size, config.variant, 1, 1).expect("openings");
        let games = config
            .schedule()
            .iter()
            .map(|job| play_game(&config, &openings, job, &engine::NoModels).expect("plays"))
            .collect();
        ArenaReport::new(&config, &openings, games).expect("report")
    }

    #[test]
    fn the_csv_has_a_row_per_player_opponent_and_colour_and_quotes_commas() {
        let report = report();
        let text = csv(&report);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + 3 * 2 * 3);
        assert!(text.contains("\"mcts:sims=20,c=1\",random,all,2,"));
        assert!(lines[0].starts_with("player,opponent,colour,games"));
    }

    #[test]
    fn the_heat_map_is_well_formed_svg_with_every_name_and_cell() {
        let report = report();
        let svg = heat_map_svg(&report);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        for name in &report.players {
            assert!(svg.contains(&format!(">{name}</text>")), "{name}");
        }
        assert_eq!(svg.matches("<rect").count(), 1 + 9);
        assert_eq!(
            svg.matches("%</text>").count(),
            6,
            "a score in every off-diagonal cell"
        );
        assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
    }

    #[test]
    fn near_perfect_scores_do_not_round_to_perfect() {
        assert_eq!(super::percent(0.0), "0%");
        assert_eq!(super::percent(0.0025), "&lt;1%");
        assert_eq!(super::percent(0.625), "62%");
        assert_eq!(super::percent(0.9975), "&gt;99%");
        assert_eq!(super::percent(1.0), "100%");
    }

    #[test]
    fn score_colours_run_from_red_through_white_to_green() {
        assert_eq!(super::share_colour(0.0), "#d64541");
        assert_eq!(super::share_colour(0.5), "#ffffff");
        assert_eq!(super::share_colour(1.0), "#1a9850");
    }

    #[test]
    fn the_table_lists_every_player_and_pairing() {
        let report = report();
        let table = format_table(&report);
        for name in &report.players {
            assert!(table.contains(name.as_str()));
        }
        assert!(table.contains("anchor"));
        let pairing_rows = table
            .lines()
            .skip_while(|l| !l.starts_with("Pairings"))
            .skip(2)
            .take_while(|l| !l.is_empty())
            .count();
        assert_eq!(pairing_rows, 3);
        // Each pairing played one opening with both colours: one pair, in the pairs table.
        let pair_rows: Vec<&str> = table
            .lines()
            .skip_while(|l| !l.starts_with("Game pairs"))
            .skip(2)
            .take_while(|l| !l.is_empty())
            .collect();
        assert_eq!(pair_rows.len(), 3, "{table}");
        assert!(pair_rows.iter().all(|row| row.contains("  1  ")), "{table}");
    }
}
