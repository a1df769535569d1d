//! The page's own text record (`explain::game_record`, its "Download the record") read
//! back: its start and its moves. Below the modules that write it (`explain`) and load it
//! (`state`), depending on the rules crate alone.

/// How the page's own text record begins (`explain::game_record`, its "Download the
/// record"): "Othello Zero game, 8x8 standard".
pub const HEAD: &str = "Othello Zero game,";

/// The start and the moves of the page's own text record, to load it back (the eleventh
/// look: the page refused the file it had just written as "neither a transcript nor a GGF
/// record"); `None` for text that is no such record. The start is its "Start:" line's board
/// text (an XOT game's is the standard position, its moves the opening's first), the moves
/// its "Moves:" line, a transcript.
pub fn parts(text: &str) -> Option<Result<(othello::Position, &str), String>> {
    let rest = text.trim_start().strip_prefix(HEAD)?;
    let line = |name: &str| {
        rest.lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .map(str::trim)
            .ok_or(format!("it has no \"{name}\" line"))
    };
    let variant = rest
        .lines()
        .next()
        .and_then(|head| head.split_whitespace().nth(1))
        .and_then(|v| v.parse::<othello::Variant>().ok())
        .ok_or("its first line names no variant (standard or reversed)".to_owned());
    Some(variant.and_then(|variant| {
        // The board and the side to move; an XOT game's note follows them.
        let start = line("Start:")?;
        let board = start
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" ");
        let start = othello::Position::from_board_text(&board, variant)
            .map_err(|e| format!("its start position cannot be read: {e}"))?;
        Ok((start, line("Moves:")?))
    }))
}
