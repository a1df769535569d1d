//! Three rules of the page crate (docs/architecture.md, "The page") that neither the compiler
//! nor clippy keeps, read from the source text:
//!
//! - **A part only draws.** The props of a component under `crates/page/src/components/` or
//!   `crates/page/src/app/` hold values and callbacks, never a reducer's or a state's
//!   handle (`UseReducerHandle`, `UseStateHandle`, ...) nor a `RefCell`: what a part may
//!   change it asks for through a callback, and the controllers (`crates/page/src/ctrl/`)
//!   own the state and its effects, as Lichess's puzzle page keeps its `ctrl` apart from
//!   its `view`.
//! - **No function is over the workspace's length.** Clippy's `too_many_lines` (threshold
//!   in `clippy.toml`) does not see inside a `#[function_component]`, whose body the macro
//!   moves; this counts every function of the page crate the way clippy counts, from the
//!   body's opening brace to its closing one, comments and blank lines left out.
//! - **The page's words speak to a player.** No string of the page or its worker cites the
//!   team's own history ("issue 68", "the fourteenth look"): the comments keep the why, the
//!   player reads what is true of the page (a level's note cited "the fourteenth look").

mod source;

use source::{code_only, group, is_ident, sources};
use std::path::{Path, PathBuf};

/// The types a props struct must not hold: the handles of Yew's state hooks, and the cell
/// of `use_mut_ref`.
const HANDLES: [&str; 6] = [
    "UseStateHandle",
    "UseStateSetter",
    "UseReducerHandle",
    "UseReducerDispatcher",
    "UseForceUpdateHandle",
    "RefCell",
];

fn page_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../page/src")
}

/// The most lines of code a function may have: clippy's threshold, from `clippy.toml`.
fn threshold() -> usize {
    let toml = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../clippy.toml");
    let text = std::fs::read_to_string(toml).expect("reads clippy.toml");
    text.lines()
        .find_map(|line| line.trim().strip_prefix("too-many-lines-threshold"))
        .and_then(|rest| rest.trim().trim_start_matches('=').trim().parse().ok())
        .expect("clippy.toml sets too-many-lines-threshold")
}

/// Where `word` stands in `code` as a whole identifier.
fn word_at<'a>(code: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    code.match_indices(word)
        .map(|(at, _)| at)
        .filter(move |&at| {
            !code[..at].ends_with(is_ident) && !code[at + word.len()..].starts_with(is_ident)
        })
}

/// Each props struct of `text` (one that derives `Properties`) holding a handle: the
/// struct's name and the handle.
fn props_with_handles(text: &str) -> Vec<(String, &'static str)> {
    let code = code_only(text, '_');
    let mut found = Vec::new();
    for at in word_at(&code, "Properties") {
        let Some(start) = code[..at].rfind("#[derive(") else {
            continue;
        };
        if code[start..at].contains(')') {
            continue; // `Properties` outside a derive list
        }
        let Some(head) = word_at(&code[at..], "struct").next().map(|s| at + s + 6) else {
            continue;
        };
        let rest = code[head..].trim_start();
        let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        let after = &rest[name.len()..];
        // A unit or tuple struct has no braced fields.
        let body = after
            .find(['{', ';', '('])
            .filter(|&b| after[b..].starts_with('{'))
            .and_then(|b| group(&after[b..]));
        for handle in HANDLES {
            if body.is_some_and(|body| word_at(body, handle).next().is_some()) {
                found.push((name.clone(), handle));
            }
        }
    }
    found
}

/// Each function of `text` with more than `limit` lines of code: its name, the line its
/// body opens on (1-based) and its count.
fn long_functions(text: &str, limit: usize) -> Vec<(String, usize, usize)> {
    let code = code_only(text, '_');
    let mut found = Vec::new();
    for at in word_at(&code, "fn") {
        let rest = &code[at + 2..];
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|&c| is_ident(c))
            .collect();
        // A function pointer's type (`fn(u8)`) has no name and no body.
        if name.is_empty() || !rest.starts_with(char::is_whitespace) {
            continue;
        }
        let Some(open) = body_start(rest).map(|b| at + 2 + b) else {
            continue;
        };
        let Some(body) = group(&code[open..]) else {
            continue;
        };
        // From the line of the opening brace to that of the closing one, as clippy counts.
        let lines = code[open..open + body.len() + 2]
            .lines()
            .filter(|line| !line.trim().is_empty())
            .count();
        if lines > limit {
            found.push((name, code[..open].lines().count(), lines));
        }
    }
    found
}

/// Where the body of the function whose signature `rest` starts opens: the first `{` outside
/// brackets, or `None` for a declaration without one (up to its `;`).
fn body_start(rest: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (at, c) in rest.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '{' if depth == 0 => return Some(at),
            ';' if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// The page's files, by their path under `src/`.
fn page_files() -> Vec<(String, String)> {
    let src = page_src();
    let mut files: Vec<(String, String)> = sources(&src)
        .into_iter()
        .map(|(path, text)| {
            let rel = path.strip_prefix(&src).expect("under src/");
            (rel.to_string_lossy().replace('\\', "/"), text)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn no_part_s_props_hold_a_reducer_or_a_state_handle() {
    let files = page_files();
    let parts: Vec<&(String, String)> = files
        .iter()
        .filter(|(rel, _)| {
            rel.starts_with("components/") || rel.starts_with("app/") || rel == "app.rs"
        })
        .collect();
    assert!(
        parts.len() > 10,
        "the page's parts are read: {}",
        parts.len()
    );
    let found: Vec<String> = parts
        .iter()
        .flat_map(|(rel, text)| {
            props_with_handles(text)
                .into_iter()
                .map(move |(name, handle)| format!("{rel}: {name} holds {handle}"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "a part's props hold state (pass values and callbacks; the controller keeps the \
         state): {found:#?}"
    );
}

#[test]
fn no_function_of_the_page_is_over_the_length_clippy_allows() {
    let limit = threshold();
    let files = page_files();
    assert!(
        files.iter().any(|(rel, _)| rel == "app.rs"),
        "{}",
        files.len()
    );
    let found: Vec<String> = files
        .iter()
        .flat_map(|(rel, text)| {
            long_functions(text, limit)
                .into_iter()
                .map(move |(name, line, n)| format!("{rel}:{line}: {name} has {n} lines"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "functions over {limit} lines of code (split them into parts named for what they \
         do): {found:#?}"
    );
}

#[test]
fn a_handle_in_a_part_s_props_is_found_and_named() {
    let text = "#[derive(Properties, PartialEq)]\n\
                pub struct RoomProps {\n    pub session: UseReducerHandle<Session>,\n    \
                pub on_play: Callback<Square>,\n}\n\
                #[derive(PartialEq, Properties)]\npub struct CellProps { pub linked: Rc<RefCell<u8>> }\n\
                // A comment naming UseStateHandle<u8> and a string do not count:\n\
                #[derive(Properties, PartialEq)]\npub struct Values { pub note: &'static str, pub s: u8 }\n\
                const S: &str = \"UseStateHandle\";\n\
                struct Kept { handle: UseStateHandle<u8> } // not props\n";
    assert_eq!(
        props_with_handles(text),
        vec![
            ("RoomProps".to_owned(), "UseReducerHandle"),
            ("CellProps".to_owned(), "RefCell"),
        ]
    );
}

#[test]
fn a_function_component_over_the_limit_is_found_comments_and_blank_lines_aside() {
    let body = |code: usize| {
        let lines: String = (0..code)
            .map(|i| format!("    let x{i} = \"{{\";\n    // a comment\n\n"))
            .collect();
        format!("#[function_component(Big)]\npub fn big(props: &P, _: [u8; 2]) -> Html {{\n{lines}    html! {{}}\n}}\n")
    };
    // The opening line, `code` lines, the last expression and the closing brace.
    let at_limit = body(77);
    let over = body(78);
    let declared = "trait T { fn f(&self); }\nfn g(f: fn(u8) -> u8) -> u8 { f(1) }\n";
    assert_eq!(long_functions(&at_limit, 80), vec![]);
    assert_eq!(
        long_functions(&format!("{declared}{over}"), 80),
        vec![("big".to_owned(), 4, 81)]
    );
}

/// The text of `text`'s string literals, each run joined to the next by a space, its line
/// continuations (a backslash, the line break and the next line's indent) one space.
fn string_text(text: &str) -> String {
    const MARK: char = '\u{1}';
    let mask = code_only(text, MARK);
    let mut out = String::new();
    let mut inside = false;
    for (c, m) in text.chars().zip(mask.chars()) {
        if m == MARK || (m == '\n' && inside && c == '\n') {
            out.push(c);
            inside = true;
        } else if inside {
            out.push(' ');
            inside = false;
        }
    }
    out.replace("\\\n", " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where `words` (the page's strings) cite the team's history: an issue by number, or a
/// look at the page by its ordinal.
fn history_cited(words: &str) -> Vec<String> {
    const ORDINALS: [&str; 17] = [
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "eleventh",
        "twelfth",
        "thirteenth",
        "fourteenth",
        "fifteenth",
        "sixteenth",
        "fresh",
    ];
    let lower = words.to_lowercase();
    let issues = lower.match_indices("issue ").filter_map(|(at, word)| {
        let number: String = lower[at + word.len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        (!number.is_empty()).then(|| (at, format!("{word}{number}")))
    });
    let looks = ORDINALS.iter().flat_map(|o| {
        let phrase = format!("{o} look");
        lower
            .match_indices(&phrase)
            .map(|(at, _)| (at, phrase.clone()))
            .collect::<Vec<_>>()
    });
    let mut found: Vec<(usize, String)> = issues.chain(looks).collect();
    found.sort();
    found.into_iter().map(|(_, phrase)| phrase).collect()
}

#[test]
fn no_word_the_page_shows_cites_the_team_s_history() {
    let worker = Path::new(env!("CARGO_MANIFEST_DIR")).join("../worker/src");
    let files: Vec<(PathBuf, String)> = sources(&page_src())
        .into_iter()
        .chain(sources(&worker))
        .collect();
    assert!(
        files.len() > 20,
        "the page and worker are read: {}",
        files.len()
    );
    let found: Vec<String> = files
        .iter()
        .flat_map(|(path, text)| {
            history_cited(&string_text(text))
                .into_iter()
                .map(move |at| format!("{}: \"{at}\"", path.display()))
        })
        .collect();
    assert!(
        found.is_empty(),
        "strings of the page cite the team's history (say it in a comment): {found:#?}"
    );
}

#[test]
fn a_string_citing_an_issue_or_a_look_is_found_and_a_comment_is_not() {
    let text = "// issue 68: the fourteenth look\n\
                let a = \"read 15% (the fourteenth \\\n     look read it)\";\n\
                let b = \"see issue 12\"; /* issue 13 */ let c = \"an issue, 7\";\n\
                let d = r#\"the \"fresh look\" \"#;\n";
    assert_eq!(
        history_cited(&string_text(text)),
        ["fourteenth look", "issue 12", "fresh look"].map(str::to_owned)
    );
}
