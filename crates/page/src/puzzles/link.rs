//! A link for every puzzle: `#puzzle=8x8-1234` (docs/web.md, "Links"). The same rules
//! as a game's link: the fragment is read once when the page opens, and an address that
//! names no puzzle is said so in one line and opens nothing.

use super::record::parse_shipped_id;

/// The fragment (with its `#`) that opens the puzzle `id`.
pub fn write(id: &str) -> String {
    format!("#puzzle={id}")
}

/// Reads a puzzle link's fragment: `None` when the fragment is no puzzle link (a game's
/// link, or none), else the puzzle's id, or why it names none.
pub fn read(fragment: &str) -> Option<Result<String, String>> {
    let fragment = fragment.trim_start_matches('#').trim();
    let id = fragment.strip_prefix("puzzle=")?;
    // A player's own puzzle (`mine-3`) opens in the browser that keeps it, as a reload of
    // it does; elsewhere the room says it is not there.
    let mine = id
        .strip_prefix("mine-")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if parse_shipped_id(id).is_some() || mine {
        return Some(Ok(id.to_owned()));
    }
    Some(Err(format!(
        "'{id}' is not a puzzle a link can name (they read like 8x8-1234)"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_link_reads_back_and_other_fragments_are_not_puzzle_links() {
        assert_eq!(read(&write("8x8-1234")), Some(Ok("8x8-1234".into())));
        assert_eq!(read("puzzle=6x6-0"), Some(Ok("6x6-0".into())));
        assert_eq!(read("#g=f5d6&s=b"), None);
        assert_eq!(read(""), None);
        // A player's own puzzle: the room looks for it in this browser's record.
        assert_eq!(read("#puzzle=mine-2"), Some(Ok("mine-2".into())));
        for bad in [
            "#puzzle=",
            "#puzzle=9x9-1",
            "#puzzle=8x8-x",
            "#puzzle=mine-",
            "#puzzle=mine-2x",
        ] {
            let error = read(bad)
                .expect("a puzzle link")
                .expect_err("names no puzzle");
            assert!(error.contains('\''), "{error}");
        }
    }
}
