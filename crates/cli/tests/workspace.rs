//! The workspace's layout as docs/architecture.md states it: each crate depends on the
//! workspace crates its row of the crates table names, and on no other (Cargo's graph, read
//! with `cargo metadata`). So the page and the worker stay apart because Cargo keeps them
//! apart, and the table stays true.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Each workspace crate with the workspace crates it depends on (normal dependencies; what
/// its tests link is the tests' business).
fn cargo_graph() -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo's JSON");
    let packages = meta["packages"].as_array().expect("packages");
    let names: BTreeSet<String> = packages
        .iter()
        .map(|p| p["name"].as_str().expect("a name").to_owned())
        .collect();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .filter(|d| d["kind"].is_null())
                .map(|d| d["name"].as_str().expect("a name").to_owned())
                .filter(|d| names.contains(d))
                .collect();
            (p["name"].as_str().expect("a name").to_owned(), deps)
        })
        .collect()
}

/// The crates table of docs/architecture.md: each row's crate with the workspace crates its
/// last column ("may depend on") names in backticks.
fn documented_graph(crates: &BTreeSet<String>) -> BTreeMap<String, BTreeSet<String>> {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).expect("the doc");
    doc.lines()
        .filter(|line| line.starts_with("| `"))
        .filter_map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split('|').collect();
            let name = cells.first()?.trim().trim_matches('`').to_owned();
            crates.contains(&name).then(|| {
                let deps = backticked(cells.last().expect("a cell"))
                    .filter(|d| crates.contains(*d) && *d != name)
                    .map(str::to_owned)
                    .collect();
                (name, deps)
            })
        })
        .collect()
}

fn backticked(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

#[test]
fn every_crate_depends_on_what_the_architecture_page_says() {
    let cargo = cargo_graph();
    let crates: BTreeSet<String> = cargo.keys().cloned().collect();
    let documented = documented_graph(&crates);
    assert_eq!(
        documented.keys().collect::<Vec<_>>(),
        cargo.keys().collect::<Vec<_>>(),
        "docs/architecture.md's crates table has a row for each workspace crate"
    );
    assert_eq!(
        documented, cargo,
        "docs/architecture.md against cargo metadata"
    );
}

#[test]
fn the_worker_and_the_page_do_not_depend_on_each_other() {
    let cargo = cargo_graph();
    assert!(cargo["worker"].contains("protocol") && cargo["page"].contains("protocol"));
    assert!(
        !cargo["worker"].contains("page"),
        "the worker must not name the page"
    );
    assert!(
        !cargo["page"].contains("worker"),
        "the page starts the worker by URL"
    );
}

#[test]
fn a_row_names_only_the_workspace_crates_in_its_last_column() {
    let crates: BTreeSet<String> = ["othello", "engine", "tools"].map(String::from).into();
    let rows = documented_graph(&crates);
    assert_eq!(
        rows["tools"],
        ["othello", "engine"].map(String::from).into()
    );
    assert!(rows["othello"].is_empty());
}

/// The JavaScript beside the Rust: each file's local imports (`from "./x.mjs"`), for the
/// browser tests (`tests/e2e`), the site's scripts (`www`) and the server's helpers
/// (`scripts/serve`). Rust's and Python's modules have tests of their own
/// (`module_circles.rs`, `train/tests/test_imports.py`).
fn script_imports() -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for dir in ["tests/e2e", "www", "scripts/serve"] {
        let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
            continue;
        };
        for path in entries.map(|e| e.expect("lists a folder").path()) {
            let is_script = path.extension().is_some_and(|e| e == "js" || e == "mjs");
            if !is_script {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("reads a script");
            let name = |file: &str| format!("{dir}/{}", file.trim_start_matches("./"));
            let own = name(&path.file_name().expect("a name").to_string_lossy());
            let imports = text
                .split("from \"./")
                .skip(1)
                .filter_map(|rest| rest.split('"').next())
                .map(name)
                .collect();
            graph.insert(own, imports);
        }
    }
    graph
}

/// A circle in `graph`, as the files along it with the first again at the end.
fn script_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        at: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|p| p == at) {
            let mut found = path[start..].to_vec();
            found.push(at.to_owned());
            return Some(found);
        }
        if !done.insert(at.to_owned()) {
            return None;
        }
        path.push(at.to_owned());
        for next in graph.get(at).into_iter().flatten() {
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
        .find_map(|file| visit(file, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_script_imports_another_in_a_circle() {
    let graph = script_imports();
    assert!(
        graph["tests/e2e/game.test.mjs"].contains("tests/e2e/lib.mjs"),
        "the reader sees the browser tests' imports"
    );
    if let Some(found) = script_circle(&graph) {
        panic!("scripts import in a circle: {}", found.join(" -> "));
    }
    let looped: BTreeMap<String, BTreeSet<String>> = [("a.mjs", "b.mjs"), ("b.mjs", "a.mjs")]
        .into_iter()
        .map(|(from, to)| (from.to_owned(), BTreeSet::from([to.to_owned()])))
        .collect();
    assert_eq!(
        script_circle(&looped).map(|c| c.join(" -> ")),
        Some("a.mjs -> b.mjs -> a.mjs".to_owned())
    );
}
