//! Arena games as GGF records, for NBoard and other Othello software.

use super::{ArenaConfig, ArenaReport};
use othello::ggf::{Ending, GgfResult};
use othello::{Game, GgfGame, Position, TranscriptError};

/// Every game of `report` as one GGF record a line: the players' specs as their names, the
/// result (`:t` for a game lost on time, `:r` for one lost by a program's fault), the place
/// `othello arena`, and `GN` with the game's pairing and opening, and the forfeit's reason. The
/// games start from the initial position (the opening's moves are part of the game).
pub fn ggf(config: &ArenaConfig, report: &ArenaReport) -> Result<String, TranscriptError> {
    let start = Position::start(config.size, config.variant);
    let mut out = String::new();
    for (index, g) in report.games.iter().enumerate() {
        let game = Game::from_transcript(&g.transcript, start)?;
        let mut record = GgfGame::new(game);
        record.black = Some(report.players[g.black].clone());
        record.white = Some(report.players[g.white].clone());
        record.place = Some("othello arena".into());
        let mut name = format!(
            "{} seed {} opening {}",
            index + 1,
            report.seed,
            g.opening + 1
        );
        if let Some(forfeit) = &g.forfeit {
            name.push_str(&format!("; {} forfeits: {}", forfeit.side, forfeit.reason));
        }
        record.other.push(("GN".into(), name));
        match &g.forfeit {
            // The board was not played out: the record says who lost, and how.
            Some(forfeit) => {
                record.result = Some(GgfResult {
                    black_margin: f64::from(g.black_margin),
                    ending: if forfeit.on_time {
                        Ending::Timeout
                    } else {
                        Ending::Resigned
                    },
                });
            }
            None => record.set_result_from_board(),
        }
        out.push_str(&record.to_string());
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use othello::ggf::read_games;
    use othello::{Color, Variant};

    #[test]
    fn every_game_reads_back_with_its_players_moves_and_result() {
        let config = ArenaConfig {
            size: BoardSize::Six,
            variant: Variant::Standard,
            players: ArenaPlayer::parse_list("random,greedy", &[]).expect("valid"),
            games_per_pairing: 4,
            seed: 5,
            openings: Openings::Random,
            rules: MatchRules::default(),
            sprt: None,
        };
        let report = run_arena(&config, 1, &engine::NoModels, &|_, _| {}).expect("runs");
        let text = super::ggf(&config, &report).expect("records");
        assert_eq!(text.lines().count(), report.games.len());
        let records = read_games(&text).expect("our records read back");
        for (record, g) in records.iter().zip(&report.games) {
            assert_eq!(
                record.black.as_deref(),
                Some(report.players[g.black].as_str())
            );
            assert_eq!(
                record.white.as_deref(),
                Some(report.players[g.white].as_str())
            );
            assert_eq!(record.game().transcript(true), g.transcript);
            let result = record.result.expect("finished");
            assert_eq!(result.black_margin, f64::from(g.black_margin));
            let margin = record.game().position().count().margin_for(Color::Black);
            assert_eq!(margin, g.black_margin);
        }
    }
}
