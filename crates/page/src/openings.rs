//! XOT-style start positions: the 200 balanced 8x8 openings the rules crate embeds
//! (`othello::xot_openings`, `crates/othello/data/xot-8x8.txt`), the same list
//! `othello arena --openings xot` plays, so the page needs no fetch.

use othello::{xot_openings, BoardSize, Game, Position, Variant};

/// An opening to start a game from: its number in the list (1-based), its moves, and
/// the game that starts at the position they reach.
#[derive(Clone, Debug, PartialEq)]
pub struct Xot {
    pub number: usize,
    pub transcript: &'static str,
    /// Starts after the opening's moves, not before them: the opening is the game's start
    /// position, as the arena's XOT games treat it, so Undo stops there instead of taking
    /// back moves nobody at the board played.
    pub game: Game,
}

/// The opening `seed` picks (any seed: it wraps around the list), played from the
/// standard 8x8 start. The list is for standard 8x8 Othello only: there is none for 6x6
/// or the reversed rules.
pub fn xot_game(seed: u64) -> Result<Xot, String> {
    let list = xot_openings();
    if list.is_empty() {
        return Err("the opening list is empty".to_owned());
    }
    let index = (seed % list.len() as u64) as usize;
    let start = Position::start(BoardSize::Eight, Variant::Standard);
    let played = Game::from_transcript(list[index], start)
        .map_err(|e| format!("opening {} is not legal: {e}", index + 1))?;
    Ok(Xot {
        number: index + 1,
        transcript: list[index],
        game: Game::new(*played.position()),
    })
}

/// The XOT opening whose moves reach `start` from the standard 8x8 position: its number
/// in the list (1-based) and its moves; `None` for any other start.
pub fn xot_of(start: &Position) -> Option<(usize, &'static str)> {
    if start.size() != BoardSize::Eight || start.variant() != Variant::Standard {
        return None;
    }
    let standard = Position::start(BoardSize::Eight, Variant::Standard);
    xot_openings()
        .into_iter()
        .enumerate()
        .find_map(|(i, moves)| {
            let reached = Game::from_transcript(moves, standard).ok()?;
            (reached.position() == start).then_some((i + 1, moves))
        })
}

/// The game's transcript as a player copies it, from the standard start: a game begun from
/// an XOT opening starts after the opening's moves, so its own transcript does not load
/// back (issue 68: "its move 1, c2, cannot be played there"); the opening's moves come
/// first. Any other game's is its own (`passes`: written out).
pub fn transcript_from_the_start(game: &Game, passes: bool) -> String {
    let own = game.transcript(passes);
    match xot_of(game.start()) {
        Some((_, opening)) => format!("{opening}{own}"),
        None => own,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_opening_starts_a_game_after_its_eight_plies_and_the_seed_picks_one() {
        let list = xot_openings();
        assert_eq!(list.len(), 200);
        for seed in 0..list.len() as u64 {
            let xot = xot_game(seed).expect("a legal opening");
            assert_eq!(xot.number, seed as usize + 1);
            // Nothing to take back: the opening is the start.
            assert!(xot.game.moves().is_empty());
            assert_eq!(xot.game.position().empty_count(), 60 - 8);
            assert!(!xot.game.position().is_game_over());
        }
        assert_eq!(xot_game(200).expect("wraps").number, 1);
        assert_eq!(xot_game(0).expect("first").transcript, "f5f4f3g4g3g6h4f2");
    }

    #[test]
    fn an_xot_games_transcript_from_the_start_loads_back_to_the_same_game() {
        let xot = xot_game(16).expect("a legal opening");
        assert_eq!(xot_of(xot.game.start()), Some((17, xot.transcript)));
        let mut game = xot.game.clone();
        for _ in 0..3 {
            let mv = game.position().legal_move_list()[0];
            game.push(mv).expect("legal");
        }
        let text = transcript_from_the_start(&game, false);
        assert!(text.starts_with(xot.transcript), "{text}");
        let standard = Position::start(BoardSize::Eight, Variant::Standard);
        // Its own transcript does not load from the standard start; this one does.
        assert!(Game::from_transcript(&game.transcript(false), standard).is_err());
        let back = Game::from_transcript(&text, standard).expect("loads back");
        assert_eq!(back.position(), game.position());
        // A game from the standard start is its own transcript.
        let plain = Game::from_transcript("f5d6c3", standard).expect("legal");
        assert_eq!(transcript_from_the_start(&plain, false), "f5d6c3");
        assert_eq!(xot_of(&standard), None);
    }
}
