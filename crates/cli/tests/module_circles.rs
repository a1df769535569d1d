//! No crate of the workspace has a circle among its top-level modules: a module that needs
//! another's types while that one needs its own is one room split in two, or a shared piece
//! that belongs below both (docs/architecture.md).
//!
//! It lives with the command-line tool because the CLI is the workspace's top: its tests
//! already span every crate (the page's worker included, `one_agent.rs`), and a check of all
//! the crates belongs to none of the lower ones. It reads every crate under `crates/` that
//! has a `src/` folder, so a crate added later is covered without a change here.
//!
//! The graph is read from the source text, as `tests/layout.rs` reads the page's: a file
//! `src/x.rs` or a folder `src/x/` is the module `x` (a file a `#[path]` attribute names
//! belongs to the module that names it), and `x` imports `y` where its code names
//! `crate::y` (one path, or an item of a `use crate::{...}` group), an item the crate's root
//! re-exports from `y` (`crate::Rng` is `rng`'s), or `super::y` from where `super` is the
//! crate's root. Comments, strings and doc links are not code and count for nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The workspace's crates: every folder under `crates/` with a `src/` folder.
fn crate_dirs() -> Vec<PathBuf> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&crates)
        .expect("lists crates/")
        .map(|entry| entry.expect("lists crates/").path())
        .filter(|dir| dir.join("src").is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// The `.rs` files under `dir`, with their text.
fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
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

/// `text` with its comments, strings and character literals blanked (line breaks kept), so
/// that what is left is the code's paths and braces.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Blanks chars[from..end], keeping line breaks; returns end.
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
        let after_ident = i > 0 && is_ident(chars[i - 1]);
        i = if rest.starts_with(&['/', '/']) {
            blank(&mut out, i, find(i, "\n") - 1)
        } else if rest.starts_with(&['/', '*']) {
            blank(&mut out, i, find(i + 2, "*/"))
        } else if !after_ident && (rest.starts_with(&['r', '#']) || rest.starts_with(&['r', '"'])) {
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

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The identifier at the start of `text` (after blanks).
fn ident(text: &str) -> &str {
    let text = text.trim_start();
    &text[..text.find(|c: char| !is_ident(c)).unwrap_or(text.len())]
}

/// The text of the brace group that `text` opens (after blanks), without its braces.
fn group(text: &str) -> Option<&str> {
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

/// The items of a `use` group, split at its own commas (not those of groups inside it).
fn group_items(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(group[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(group[start..].trim());
    items.retain(|item| !item.is_empty());
    items
}

/// The first segments of the paths that continue `rest` (the text after `crate::`, or after
/// a `super::` that reaches the crate's root): one name, or each item of a group.
fn first_segments(rest: &str) -> Vec<String> {
    match group(rest) {
        Some(items) => group_items(items)
            .into_iter()
            .map(|item| ident(item).to_owned())
            .collect(),
        None => vec![ident(rest).to_owned()],
    }
}

/// For each byte of `code`, how many inline modules (`mod name { ... }`) enclose it: a
/// `super` inside one names the module of the file, not its parent.
fn inline_depths(code: &str) -> Vec<usize> {
    let mut depths = vec![0; code.len() + 1];
    let (mut braces, mut open): (usize, Vec<usize>) = (0, Vec::new());
    for (at, c) in code.char_indices() {
        match c {
            '{' => {
                braces += 1;
                let before = code[..at].trim_end();
                let name_start = before.rfind(|c: char| !is_ident(c)).map_or(0, |i| i + 1);
                let is_mod = before[..name_start].trim_end().ends_with("mod")
                    && !before[name_start..].is_empty();
                if is_mod {
                    open.push(braces);
                }
            }
            '}' => {
                if open.last() == Some(&braces) {
                    open.pop();
                }
                braces = braces.saturating_sub(1);
            }
            _ => {}
        }
        for depth in &mut depths[at..at + c.len_utf8()] {
            *depth = open.len();
        }
    }
    depths
}

/// Where `needle` starts a path in `code`: not the tail of a longer name or path
/// (`othello_crate::`, `a::super::`).
fn path_starts<'a>(code: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    code.match_indices(needle)
        .map(|(at, _)| at)
        .filter(move |&at| {
            !code[..at].ends_with(is_ident) && !code[..at].trim_end().ends_with("::")
        })
}

/// The crate-root names that `code` refers to, from a file `depth` modules below the root
/// (`src/x.rs` is 1, `src/x/y.rs` 2): `crate::` paths, and `super::` paths that climb to
/// the root.
fn root_names(code: &str, depth: usize) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for at in path_starts(code, "crate::") {
        names.extend(first_segments(&code[at + "crate::".len()..]));
    }
    let inline = inline_depths(code);
    for at in path_starts(code, "super::") {
        let mut rest = &code[at..];
        let mut up = 0;
        while let Some(after) = rest.strip_prefix("super::") {
            up += 1;
            rest = after.trim_start();
        }
        if up == depth + inline[at] {
            names.extend(first_segments(rest));
        }
    }
    names.retain(|name| !name.is_empty() && name != "self");
    names
}

/// The names the crate's root re-exports, each with the module it comes from
/// (`pub use rng::Rng;` gives `Rng` from `rng`).
fn root_exports(root: &str, modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut exports = BTreeMap::new();
    for (at, _) in root.match_indices("pub use ") {
        let tree = &root[at + "pub use ".len()..];
        let tree = tree[..tree.find(';').unwrap_or(tree.len())].trim();
        let tree = tree
            .trim_start_matches("crate::")
            .trim_start_matches("self::");
        let module = ident(tree);
        if !modules.contains(module) {
            continue;
        }
        for leaf in tree.split([',', '{', '}']) {
            let leaf = leaf.trim();
            let name = match leaf.split_once(" as ") {
                Some((_, alias)) => alias.trim(),
                None => leaf.rsplit("::").next().unwrap_or(leaf),
            };
            if !name.is_empty() && name != module && name != "*" {
                exports.insert(name.to_owned(), module.to_owned());
            }
        }
    }
    exports
}

/// A source file's place in its crate: the top-level module it belongs to (`None` for the
/// crate's root) and how many modules below the root it is.
fn place(
    src: &Path,
    file: &Path,
    moved: &BTreeMap<PathBuf, (String, usize)>,
) -> (Option<String>, usize) {
    if let Some((module, depth)) = moved.get(file) {
        return (Some(module.clone()), *depth);
    }
    let rel = file.strip_prefix(src).expect("under src/");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if parts.last().is_some_and(|last| last == "mod") {
        parts.pop();
    }
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        return (None, 0);
    }
    let depth = parts.len();
    (Some(parts.swap_remove(0)), depth)
}

/// The files that `#[path = "..."]` attributes move into another module, each with the
/// top-level module and depth of the module it becomes (one below the file naming it).
fn moved_files(src: &Path, files: &[(PathBuf, String)]) -> BTreeMap<PathBuf, (String, usize)> {
    let mut moved = BTreeMap::new();
    for (file, text) in files {
        for (at, _) in text.match_indices("#[path = \"") {
            let rest = &text[at + "#[path = \"".len()..];
            let named = &rest[..rest.find('"').unwrap_or(rest.len())];
            let dir = file.parent().expect("in a folder");
            if let (Some(module), depth) = place(src, file, &BTreeMap::new()) {
                moved.insert(dir.join(named), (module, depth + 1));
            }
        }
    }
    moved
}

/// The crate's top-level modules, each with the others it imports.
fn module_graph(src: &Path) -> Graph {
    let files = sources(src);
    let moved = moved_files(src, &files);
    let placed: Vec<_> = files
        .iter()
        .map(|(file, text)| (place(src, file, &moved), code_only(text)))
        .collect();
    let modules: BTreeSet<String> = placed
        .iter()
        .filter_map(|((module, _), _)| module.clone())
        .collect();
    let mut exports = BTreeMap::new();
    for ((module, _), code) in &placed {
        if module.is_none() {
            exports.extend(root_exports(code, &modules));
        }
    }
    let mut graph = Graph::new();
    for ((module, depth), code) in &placed {
        let Some(module) = module else { continue };
        let imported = root_names(code, *depth).into_iter().filter_map(|name| {
            let target = if modules.contains(&name) {
                Some(name)
            } else {
                exports.get(&name).cloned()
            };
            target.filter(|target| target != module)
        });
        graph.entry(module.clone()).or_default().extend(imported);
    }
    graph
}

/// A circle in `graph` as the modules along it, the first again at the end.
fn circle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        graph: &Graph,
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

/// Circles of `graph`, one after another: each found circle's last step is set aside
/// before looking again, so that one report names every room to untangle.
fn circles_in(mut graph: Graph) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    while let Some(one) = circle(&graph) {
        let (from, to) = (&one[one.len() - 2], &one[one.len() - 1]);
        graph.get_mut(from).expect("on the circle").remove(to);
        found.push(one);
    }
    found
}

fn crate_name(dir: &Path) -> String {
    dir.file_name()
        .expect("a crate folder")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn no_crate_s_modules_import_one_another_in_a_circle() {
    let dirs = crate_dirs();
    let names: Vec<String> = dirs.iter().map(|dir| crate_name(dir)).collect();
    for expected in ["othello", "engine", "tools", "cli"] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} in {names:?}"
        );
    }
    let mut circles = Vec::new();
    for dir in &dirs {
        for found in circles_in(module_graph(&dir.join("src"))) {
            circles.push(format!("{}: {}", crate_name(dir), found.join(" -> ")));
        }
    }
    assert!(
        circles.is_empty(),
        "modules that import one another in a circle (move what both need below them): \
         {circles:#?}"
    );
}

#[test]
fn the_graph_sees_real_imports() {
    let engine = Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/src");
    let graph = module_graph(&engine);
    // `use crate::report::SearchInfo;` in `agent.rs`; `use super::search::Mcts;`-style
    // paths stay inside `mcts`.
    assert!(graph["agent"].contains("report"), "{graph:#?}");
    assert!(graph["mcts"].contains("agent"), "{graph:#?}");
    assert!(!graph["mcts"].contains("mcts"));
}

#[test]
fn a_circle_is_found_and_named() {
    let graph: Graph = [
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
    let without: Graph = [("view", vec!["state"]), ("state", vec![])]
        .into_iter()
        .map(|(m, to)| (m.to_owned(), to.into_iter().map(str::to_owned).collect()))
        .collect();
    assert_eq!(circle(&without), None);
}

#[test]
fn imports_are_read_from_paths_groups_and_a_super_that_reaches_the_root() {
    let text = "use crate::a::Thing;\n\
                use crate::{b, c::{D, E}, self};\n\
                use super::f::G;\n\
                use super::super::h;\n\
                // crate::not_a_comment\n\
                const S: &str = \"crate::not_a_string\";\n\
                pub(super) fn x() -> othello_crate::Y { todo!() }\n\
                mod tests {\n    use super::*;\n    use super::i;\n    use super::super::super::j;\n}\n";
    // From `src/m/n.rs` (two below the root): `super::super` and, in the inline module,
    // `super::super::super` reach the root; one `super` stays within `m`.
    let names: Vec<String> = root_names(&code_only(text), 2).into_iter().collect();
    assert_eq!(names, ["a", "b", "c", "h", "j"]);
    let exports = root_exports(
        "pub use rng::Rng;\npub use spec::{Spec, Error as SpecError};\npub use othello;\n",
        &["rng", "spec"].map(str::to_owned).into(),
    );
    assert_eq!(exports["Rng"], "rng");
    assert_eq!(exports["SpecError"], "spec");
    assert_eq!(exports.len(), 3, "{exports:?}");
}
