//! The web crate's three rooms (docs/architecture.md, "The page"): the page (`src/page/`),
//! the search worker (`src/worker/`) and the protocol between them (`src/protocol.rs`,
//! `src/protocol/`). What may import what, read from the source:
//!
//! - the protocol imports neither room;
//! - the worker imports no page module, so the worker's build carries none of the page;
//! - the page names the worker only to spawn it (`crate::worker::SearchWorker`);
//! - the page's modules import one another without a circle.
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
