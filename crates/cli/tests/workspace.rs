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
