//! Reading the workspace's Rust sources as text, for the tests that check rules of the
//! code itself (`module_circles.rs`, `page_rules.rs`): the files of a folder, their code
//! with comments and literals blanked, and a brace group.

use std::path::{Path, PathBuf};

/// The `.rs` files under `dir`, with their text.
pub fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("lists a source folder") {
        let path = entry.expect("lists a source folder").path();
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("reads a source file");
            files.push((path, text));
        }
    }
    files
}

/// `text` with its comments blanked and its strings and character literals written as
/// `fill` (line breaks kept), so that what is left is the code's paths and braces. A blank
/// `fill` leaves a line holding only a comment or part of a string blank; another keeps a
/// string's lines as lines of code, as clippy counts them.
pub fn code_only(text: &str, fill: char) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Writes chars[from..end] as `with`, keeping line breaks; returns end.
    let blank = |out: &mut String, from: usize, end: usize, with: char| {
        for &c in &chars[from..end.min(chars.len())] {
            out.push(if c == '\n' { '\n' } else { with });
        }
        end.min(chars.len())
    };
    let find = |from: usize, pat: &str| {
        let pat: Vec<char> = pat.chars().collect();
        (from..chars.len())
            .find(|&j| chars[j..].starts_with(&pat))
            .map_or(chars.len(), |j| j + pat.len())
    };
    while i < chars.len() {
        let rest = &chars[i..];
        let after_ident = i > 0 && is_ident(chars[i - 1]);
        i = if rest.starts_with(&['/', '/']) {
            blank(&mut out, i, find(i, "\n") - 1, ' ')
        } else if rest.starts_with(&['/', '*']) {
            blank(&mut out, i, find(i + 2, "*/"), ' ')
        } else if !after_ident && (rest.starts_with(&['r', '#']) || rest.starts_with(&['r', '"'])) {
            let hashes = rest[1..].iter().take_while(|&&c| c == '#').count();
            let close = format!("\"{}", "#".repeat(hashes));
            blank(&mut out, i, find(i + 2 + hashes, &close), fill)
        } else if rest[0] == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1, fill)
        } else if rest[0] == '\'' && (rest.get(2) == Some(&'\'') || rest.get(1) == Some(&'\\')) {
            // A character literal ('{', '\''), not a lifetime ('a).
            blank(&mut out, i, find(i + 2, "'"), fill)
        } else {
            out.push(rest[0]);
            i + 1
        };
    }
    out
}

pub fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The text of the brace group that `text` opens (after blanks), without its braces.
pub fn group(text: &str) -> Option<&str> {
    let text = text.trim_start().strip_prefix('{')?;
    let mut depth = 1;
    for (at, c) in text.char_indices() {
        depth += match c {
            '{' => 1,
            '}' => -1,
            _ => 0,
        };
        if depth == 0 {
            return Some(&text[..at]);
        }
    }
    None
}
