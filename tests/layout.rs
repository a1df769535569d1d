//! The web crate's three rooms (docs/architecture.md, "The page"): the page (`src/page/`),
//! the search worker (`src/worker/`) and the protocol between them (`src/protocol.rs`,
//! `src/protocol/`). What may import what, read from the source:
//!
//! - the protocol imports neither room;
//! - the worker imports no page module, so the worker's build carries none of the page;
//! - the page names the worker only to spawn it (`crate::worker::SearchWorker`);
//! - the page's modules import one another without a circle;
//! - no function outside the tests is longer than 80 lines (a room of one job is made of
//!   parts with names that say what they do).
//!
//! A module names another of the crate by its path from `crate::`, one path at a time (no
//! `crate::{...}` groups, no `super::super`), so that this test can read every import.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The `.rs` files under `path` (a file or a folder), with their text.
fn sources(path: &Path) -> Vec<(PathBuf, String)> {
    if path.is_file() {
        let text = std::fs::read_to_string(path).expect("reads");
        return vec![(path.to_owned(), text)];
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).expect("lists") {
        let path = entry.expect("lists").path();
        if path.is_dir() || path.extension().is_some_and(|e| e == "rs") {
            files.extend(sources(&path));
        }
    }
    files
}

/// Every path that starts with `prefix` in `text`, from the segment after it on:
/// `crate::page::state::apply` gives `state::apply` for the prefix `crate::page::`.
fn paths_after<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.match_indices(prefix)
        .filter(|(at, _)| {
            // Not the tail of a longer name (`othello_crate::`).
            !text[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
        })
        .map(|(at, _)| {
            let rest = &text[at + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

/// The first segment of each path after `prefix`: the modules `text` names.
fn modules_named(text: &str, prefix: &str) -> BTreeSet<String> {
    paths_after(text, prefix)
        .into_iter()
        .map(|p| p.split("::").next().unwrap_or_default().to_owned())
        .collect()
}

fn shown(path: &Path) -> String {
    path.strip_prefix(src())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn every_import_of_the_crate_is_one_path_the_layout_can_read() {
    for (path, text) in sources(&src()) {
        for bad in ["crate::{", "super::super"] {
            assert!(
                !text.contains(bad),
                "{} writes `{bad}`: name each module by its own path from `crate::`",
                shown(&path)
            );
        }
    }
}

#[test]
fn the_protocol_imports_neither_the_page_nor_the_worker() {
    let mut files = sources(&src().join("protocol.rs"));
    files.extend(sources(&src().join("protocol")));
    for (path, text) in files {
        for room in ["page", "worker"] {
            assert!(
                !modules_named(&text, "crate::").contains(room),
                "{} imports crate::{room}: the protocol sits below both rooms",
                shown(&path)
            );
        }
    }
}

#[test]
fn the_worker_imports_no_page_module() {
    for (path, text) in sources(&src().join("worker")) {
        assert!(
            !modules_named(&text, "crate::").contains("page"),
            "{} imports crate::page: the worker's build must carry none of the page",
            shown(&path)
        );
    }
}

#[test]
fn the_page_names_the_worker_only_to_spawn_it() {
    for (path, text) in sources(&src().join("page")) {
        for used in paths_after(&text, "crate::worker::") {
            assert_eq!(
                used,
                "SearchWorker",
                "{} reaches into the worker: the page talks to it through the protocol",
                shown(&path)
            );
        }
    }
}

/// The page's modules (its files and folders), each with the page modules it names.
fn page_imports() -> BTreeMap<String, BTreeSet<String>> {
    let page = src().join("page");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in sources(&page) {
        let rel = path.strip_prefix(&page).expect("under the page");
        let first = rel.components().next().expect("a name");
        let first = first.as_os_str().to_string_lossy();
        let module = first.trim_end_matches(".rs").to_owned();
        if module == "mod" {
            continue;
        }
        let named = modules_named(&text, "crate::page::");
        graph
            .entry(module.clone())
            .or_default()
            .extend(named.into_iter().filter(|m| *m != module));
    }
    graph
}

/// A circle in `graph` as the modules along it, the first again at the end.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|m| m == module) {
            let mut found = path[at..].to_vec();
            found.push(module.to_owned());
            return Some(found);
        }
        if !done.insert(module.to_owned()) {
            return None;
        }
        path.push(module.to_owned());
        for next in graph.get(module).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| visit(m, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_page_modules_import_one_another_without_a_circle() {
    let graph = page_imports();
    assert!(graph.contains_key("state") && graph["view"].contains("state"));
    if let Some(found) = circle(&graph) {
        panic!(
            "the page's modules import in a circle: {}",
            found.join(" -> ")
        );
    }
}

#[test]
fn a_circle_is_found_and_named() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("state", vec!["records"]),
        ("records", vec!["review"]),
        ("review", vec!["state"]),
        ("view", vec!["state"]),
    ]
    .into_iter()
    .map(|(m, to)| (m.to_owned(), to.into_iter().map(str::to_owned).collect()))
    .collect();
    assert_eq!(
        circle(&graph).map(|c| c.join(" -> ")),
        Some("records -> review -> state -> records".to_owned())
    );
}

/// The longest a function of the crate may be, outside its tests, in lines from its `fn`
/// to its closing brace.
const MOST_LINES: usize = 80;

/// `text` with its comments, strings and character literals blanked (their line breaks
/// kept), so that the braces left are the code's.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Blanks chars[i..end], keeping line breaks; returns end.
    let blank = |out: &mut String, from: usize, end: usize| {
        for &c in &chars[from..end.min(chars.len())] {
            out.push(if c == '\n' { '\n' } else { ' ' });
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
        i = if rest.starts_with(&['/', '/']) {
            blank(&mut out, i, find(i, "\n") - 1)
        } else if rest.starts_with(&['/', '*']) {
            blank(&mut out, i, find(i + 2, "*/"))
        } else if rest.starts_with(&['r', '#']) || rest.starts_with(&['r', '"']) {
            let hashes = rest[1..].iter().take_while(|&&c| c == '#').count();
            let close = format!("\"{}", "#".repeat(hashes));
            blank(&mut out, i, find(i + 2 + hashes, &close))
        } else if rest[0] == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1)
        } else if rest[0] == '\'' && (rest.get(2) == Some(&'\'') || rest.get(1) == Some(&'\\')) {
            // A character literal ('{', '\''), not a lifetime ('a).
            blank(&mut out, i, find(i + 2, "'"))
        } else {
            out.push(rest[0]);
            i + 1
        };
    }
    out
}

/// The functions of `text` outside its test module, as (name, first line, lines).
fn function_lengths(text: &str) -> Vec<(String, usize, usize)> {
    let code = code_only(text);
    let lines: Vec<&str> = code.lines().collect();
    let end = (0..lines.len())
        .find(|&i| {
            lines[i].trim() == "#[cfg(test)]"
                && lines
                    .get(i + 1)
                    .is_some_and(|l| l.trim_start().starts_with("mod tests"))
        })
        .unwrap_or(lines.len());
    let mut found = Vec::new();
    for start in 0..end {
        let words: Vec<&str> = lines[start].split_whitespace().collect();
        let Some(at) = words.iter().position(|w| *w == "fn") else {
            continue;
        };
        let qualifiers = [
            "pub",
            "pub(crate)",
            "pub(super)",
            "async",
            "const",
            "unsafe",
        ];
        if !words[..at].iter().all(|w| qualifiers.contains(w)) {
            continue;
        }
        let name = words
            .get(at + 1)
            .map_or("", |w| w.split(['(', '<']).next().unwrap_or(""));
        let mut depth = 0i32;
        for (i, line) in lines.iter().enumerate().skip(start) {
            if depth == 0 && i > start && line.contains(';') && !line.contains('{') {
                break; // a declaration without a body
            }
            depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
            if depth == 0 && line.contains('}') {
                found.push((name.to_owned(), start + 1, i - start + 1));
                break;
            }
        }
    }
    found
}

#[test]
fn no_function_outside_the_tests_is_longer_than_80_lines() {
    let mut long = Vec::new();
    for (path, text) in sources(&src()) {
        if path.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        for (name, line, lines) in function_lengths(&text) {
            if lines > MOST_LINES {
                long.push(format!("{}:{line} {name} ({lines} lines)", shown(&path)));
            }
        }
    }
    assert!(long.is_empty(), "split these into named parts: {long:#?}");
}

#[test]
fn function_lengths_count_from_fn_to_its_closing_brace() {
    let text = "fn short() {\n    let s = \"}\";\n    let c = '{';\n    // }\n}\n\n\
                pub fn longer<'a>(x: &'a str) -> &'a str {\n    let r = r#\"{\"#;\n    if true {\n        x\n    } else {\n        r\n    }\n}\n\
                #[cfg(test)]\nmod tests {\n    fn not_counted() {\n    }\n}\n";
    assert_eq!(
        function_lengths(text),
        vec![("short".to_owned(), 1, 5), ("longer".to_owned(), 7, 8)]
    );
}
