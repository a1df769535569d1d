//! No crate of the workspace has a circle among its modules, at any level: neither its
//! top-level modules nor the children of any one module (the page's `app::play`,
//! `app::side`, `app::header`...) import one another in a circle. A module that needs
//! another's types while that one needs its own is one room split in two, or a shared piece
//! that belongs below both (docs/architecture.md).
//!
//! The same finder checks the JavaScript beside the Rust (the browser tests, the site's
//! scripts, the server's helpers) for circles among their local imports.
//!
//! It lives with the command-line tool because the CLI is the workspace's top: its tests
//! already span every crate (the page's worker included, `one_agent.rs`), and a check of all
//! the crates belongs to none of the lower ones. It reads every crate under `crates/` that
//! has a `src/` folder, so a crate added later is covered without a change here.
//!
//! The graph is read from the source text (no compiler pass needed). A file
//! `src/a/b.rs` or `src/a/b/mod.rs` is the module `a::b` (`lib.rs`, `main.rs` and the files
//! under `bin/` are a crate's root; a file a `#[path]` attribute names is the module its
//! `mod` declares), and an inline `mod name { ... }` is a module too. Every path a module's
//! code names is made absolute: from `crate::`, from `self::` or `super::` (each `super`
//! one step up from the module the path is written in), or from a name that the module
//! brings in by a `use` (the root's re-exports among them: `crate::Rng` is `rng`'s), by a
//! glob (`use super::*`), or as its child. The path belongs to the deepest module it
//! reaches, and where the writer and that module part under a common parent, the parent's
//! child on the writer's side imports its child on the other: `app/play.rs` naming
//! `super::side::Panel` or `crate::app::side::Panel` is `app::play -> app::side`, and
//! `crate::report` in `mcts/player.rs` is `mcts -> report`. Comments, strings and doc links
//! are not code and count for nothing.

mod source;

use source::{code_only, group, is_ident, sources};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

/// Each module (its path from the crate's root, `app::play`) with the siblings it imports.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// A module's path from the crate's root, one name a step (empty for the root).
type ModPath = Vec<String>;

/// How many steps one name's reading may take through `use`s and globs: more is a loop
/// (`use foo;` of another crate names itself).
const HOPS: usize = 8;

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

/// The identifier at the start of `text` (after blanks).
fn ident(text: &str) -> &str {
    let text = text.trim_start();
    &text[..text.find(|c: char| !is_ident(c)).unwrap_or(text.len())]
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

/// The paths that a use tree (or a path in code) at the start of `text` spells, each with
/// its alias if it has one (a glob's path ends in `*`), and how many bytes of `text` it spans.
fn tree(text: &str) -> (Vec<(ModPath, Option<String>)>, usize) {
    let mut segments = ModPath::new();
    let mut at = 0;
    loop {
        let rest = text[at..].trim_start();
        let blank = text.len() - at - rest.len();
        if let Some(inner) = group(rest) {
            let leaves = group_items(inner)
                .into_iter()
                .flat_map(|item| tree(item).0)
                .map(|(path, alias)| ([segments.clone(), path].concat(), alias))
                .collect();
            return (leaves, at + blank + inner.len() + 2);
        }
        if rest.starts_with('*') {
            segments.push("*".to_owned());
            return (vec![(segments, None)], at + blank + 1);
        }
        let name = ident(rest);
        if name.is_empty() {
            break;
        }
        segments.push(name.to_owned());
        at += blank + name.len();
        let after = &text[at..];
        if !after.trim_start().starts_with("::") {
            break;
        }
        at += after.len() - after.trim_start().len() + 2;
    }
    let after = text[at..].trim_start();
    let alias = after
        .strip_prefix("as")
        .filter(|rest| rest.starts_with(char::is_whitespace))
        .map(|rest| ident(rest).to_owned());
    (vec![(segments, alias)], at)
}

/// The paths of the use tree (or path in code) at the start of `text`, each with the name
/// it brings in (its alias or its last segment; `None` for a glob, whose path here leaves
/// out its `*`), and how many bytes of `text` it spans. `a::{self}` is the path `a`.
fn leaves(text: &str) -> (Vec<(ModPath, Option<String>)>, usize) {
    let (paths, span) = tree(text);
    let leaves = paths
        .into_iter()
        .map(|(mut path, alias)| {
            if path.last().is_some_and(|last| last == "*") {
                path.pop();
                return (path, None);
            }
            if path.len() > 1 && path.last().is_some_and(|last| last == "self") {
                path.pop();
            }
            let name = alias.or_else(|| path.last().cloned());
            (path, name)
        })
        .collect();
    (leaves, span)
}

/// The inline modules (`mod name { ... }`) of `code`: for each byte, the index of the
/// innermost one around it in the list that comes second (0, the file's own module, for
/// none), whose entries are each one's path below the file's module. A `super` inside one
/// names the module of the file, not its parent.
fn inline_modules(code: &str) -> (Vec<usize>, Vec<ModPath>) {
    let mut at_byte = vec![0; code.len() + 1];
    let mut paths = vec![ModPath::new()];
    let (mut braces, mut open): (usize, Vec<(usize, usize)>) = (0, Vec::new());
    for (at, c) in code.char_indices() {
        match c {
            '{' => {
                braces += 1;
                let before = code[..at].trim_end();
                let name_start = before.rfind(|c: char| !is_ident(c)).map_or(0, |i| i + 1);
                let name = &before[name_start..];
                let keyword = before[..name_start].trim_end();
                let is_mod = !name.is_empty()
                    && keyword
                        .strip_suffix("mod")
                        .is_some_and(|head| !head.ends_with(is_ident));
                if is_mod {
                    let parent = open.last().map_or(0, |&(_, index)| index);
                    let path = [paths[parent].clone(), vec![name.to_owned()]].concat();
                    open.push((braces, paths.len()));
                    paths.push(path);
                }
            }
            '}' => {
                if open.last().is_some_and(|&(depth, _)| depth == braces) {
                    open.pop();
                }
                braces = braces.saturating_sub(1);
            }
            _ => {}
        }
        let index = open.last().map_or(0, |&(_, index)| index);
        for slot in &mut at_byte[at..at + c.len_utf8()] {
            *slot = index;
        }
    }
    (at_byte, paths)
}

/// Where a path starts in `code`: a name followed by `::` that is not the tail of a longer
/// path (`a::super::`, `::std::`) nor of a longer name (`othello_crate::` is no `crate::`).
fn path_starts(code: &str) -> Vec<usize> {
    code.match_indices("::")
        .filter_map(|(at, _)| {
            let before = code[..at].trim_end();
            let start = before.rfind(|c: char| !is_ident(c)).map_or(0, |i| i + 1);
            let name = &before[start..];
            let head = code[..start].trim_end();
            let is_start = !name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && !head.ends_with("::");
            is_start.then_some(start)
        })
        .collect()
}

/// Where the keyword `word` stands in `code` (not inside a longer name).
fn keyword_at<'a>(code: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    code.match_indices(word)
        .map(|(at, _)| at)
        .filter(move |&at| {
            !code[..at].ends_with(is_ident) && !code[at + word.len()..].starts_with(is_ident)
        })
}

/// What a crate's code can name: its modules, the names each module's `use`s bring into it,
/// and the modules each glob-imports.
#[derive(Debug, Default)]
struct Names {
    modules: BTreeSet<ModPath>,
    /// `module::name` -> the path the `use` names, as written in `module`.
    uses: BTreeMap<ModPath, ModPath>,
    /// A module -> the paths it glob-imports (`use super::*`), as written there.
    globs: BTreeMap<ModPath, Vec<ModPath>>,
}

impl Names {
    /// The absolute path that `path`, written in `scope`, stands for; `None` for a path that
    /// leaves the crate (another crate's, the standard library's) or starts with a name
    /// `scope` does not bring in (a type's `Self::`, a local item's).
    fn absolute(&self, scope: &[String], path: &[String], hops: usize) -> Option<ModPath> {
        let (first, mut rest) = path.split_first()?;
        let mut base = match first.as_str() {
            "crate" => ModPath::new(),
            "self" => scope.to_vec(),
            "super" => scope.split_last()?.1.to_vec(),
            name => self.lookup(scope, name, hops)?,
        };
        while let Some((_, after)) = rest.split_first().filter(|(s, _)| *s == "super") {
            base.pop()?;
            rest = after;
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// What `name` stands for in `module`, as an absolute path: a child module, a name a
    /// `use` brought in, or a name of a module it glob-imports.
    fn lookup(&self, module: &[String], name: &str, hops: usize) -> Option<ModPath> {
        if hops > HOPS {
            return None;
        }
        let key = [module.to_vec(), vec![name.to_owned()]].concat();
        if self.modules.contains(&key) {
            return Some(key);
        }
        if let Some(path) = self.uses.get(&key) {
            return self.absolute(module, path, hops + 1);
        }
        self.globs
            .get(module)
            .into_iter()
            .flatten()
            .find_map(|glob| {
                let from = self.module_of(&self.absolute(module, glob, hops + 1)?, hops + 1);
                self.lookup(&from, name, hops + 1)
            })
    }

    /// The deepest module that the absolute `path` reaches, following the `use`s it passes
    /// through (`crate::Rng`, re-exported by the root from `rng`, reaches `rng`).
    fn module_of(&self, path: &[String], hops: usize) -> ModPath {
        let mut at = ModPath::new();
        for (i, segment) in path.iter().enumerate() {
            let next = [at.clone(), vec![segment.clone()]].concat();
            if self.modules.contains(&next) {
                at = next;
                continue;
            }
            if let Some(target) = self.lookup(&at, segment, hops + 1) {
                return self.module_of(&[target, path[i + 1..].to_vec()].concat(), hops + 1);
            }
            break;
        }
        at
    }
}

/// A source file as read: the module it is, and its code (comments and strings blanked).
#[derive(Debug)]
struct File {
    module: ModPath,
    code: String,
}

impl File {
    /// The module that the code at byte `at` is in, given the file's inline modules.
    fn scope(&self, inline: &(Vec<usize>, Vec<ModPath>), at: usize) -> ModPath {
        [self.module.clone(), inline.1[inline.0[at]].clone()].concat()
    }

    /// The modules the file holds: its own, those above it, and its inline ones.
    fn modules(&self) -> Vec<ModPath> {
        let (_, inline) = inline_modules(&self.code);
        let above = (0..self.module.len()).map(|n| self.module[..n].to_vec());
        let inside = inline
            .into_iter()
            .map(|path| [self.module.clone(), path].concat());
        above.chain(inside).collect()
    }

    /// Records in `names` what the file's `use`s bring into its modules.
    fn record_uses(&self, names: &mut Names) {
        let inline = inline_modules(&self.code);
        for at in keyword_at(&self.code, "use") {
            let rest = &self.code[at + "use".len()..];
            if rest.trim_start().starts_with("::") {
                continue;
            }
            let scope = self.scope(&inline, at);
            for (path, name) in leaves(rest).0 {
                match name {
                    Some(name) => {
                        let key = [scope.clone(), vec![name]].concat();
                        names.uses.insert(key, path);
                    }
                    None => names.globs.entry(scope.clone()).or_default().push(path),
                }
            }
        }
    }

    /// The paths the file's code names, each made absolute (those that leave the crate, or
    /// name its root, left out) with the module it is written in.
    fn named_paths(&self, names: &Names) -> Vec<(ModPath, ModPath)> {
        let inline = inline_modules(&self.code);
        let mut named = Vec::new();
        let mut read_to = 0;
        for at in path_starts(&self.code) {
            if at < read_to {
                continue; // inside a path already read, as `a::b` in `crate::{a::b}`
            }
            let (paths, span) = leaves(&self.code[at..]);
            read_to = at + span;
            let scope = self.scope(&inline, at);
            for (path, _) in paths {
                if let Some(absolute) = names.absolute(&scope, &path, 0) {
                    if !absolute.is_empty() {
                        named.push((scope.clone(), absolute));
                    }
                }
            }
        }
        named
    }
}

/// The module a file is by its place under `src/` (`a/b.rs` and `a/b/mod.rs` are `a::b`;
/// `lib.rs`, `main.rs` and a binary's files under `bin/` are a crate's root).
fn file_module(rel: &Path) -> ModPath {
    let mut parts: ModPath = rel
        .iter()
        .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if parts.first().is_some_and(|first| first == "bin") {
        return ModPath::new();
    }
    if parts.last().is_some_and(|last| last == "mod") {
        parts.pop();
    }
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        parts.clear();
    }
    parts
}

/// `path` with its `.` and `..` steps taken.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The files that `#[path = "..."]` attributes move into another module, each with the
/// module it becomes: the one the `mod` after the attribute declares, in the file naming it.
fn moved_files(files: &[(PathBuf, String)]) -> BTreeMap<PathBuf, ModPath> {
    let mut moved = BTreeMap::new();
    for (file, text) in files {
        for (at, _) in text.match_indices("#[path = \"") {
            let rest = &text[at + "#[path = \"".len()..];
            let named = &rest[..rest.find('"').unwrap_or(rest.len())];
            let declared = keyword_at(rest, "mod")
                .next()
                .map(|m| ident(&rest[m + 3..]));
            if let Some(name) = declared.filter(|name| !name.is_empty()) {
                let dir = file.parent().expect("in a folder");
                let module = [file_module(file), vec![name.to_owned()]].concat();
                moved.insert(lexical(&dir.join(named)), module);
            }
        }
    }
    moved
}

/// The edge that a path makes, from the module it is written in to the module it reaches:
/// under their deepest common parent, that parent's child on the writer's side imports its
/// child on the other (none where one module holds the other).
fn edge(from: &[String], to: &[String]) -> Option<(String, String)> {
    let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
    (common < from.len() && common < to.len())
        .then(|| (from[..=common].join("::"), to[..=common].join("::")))
}

/// The modules of a crate whose files (paths under `src/`, with their text) are `files`,
/// each with the siblings it imports.
fn graph_of(files: &[(PathBuf, String)]) -> Graph {
    let moved = moved_files(files);
    let read: Vec<File> = files
        .iter()
        .map(|(rel, text)| File {
            module: moved.get(rel).cloned().unwrap_or_else(|| file_module(rel)),
            code: code_only(text, ' '),
        })
        .collect();
    let mut names = Names::default();
    for file in &read {
        names.modules.extend(file.modules());
        file.record_uses(&mut names);
    }
    let mut graph = Graph::new();
    for module in names.modules.iter().filter(|module| !module.is_empty()) {
        graph.entry(module.join("::")).or_default();
    }
    for file in &read {
        for (scope, path) in file.named_paths(&names) {
            if let Some((from, to)) = edge(&scope, &names.module_of(&path, 0)) {
                graph.entry(from).or_default().insert(to);
            }
        }
    }
    graph
}

/// The modules of the crate whose sources are under `src`, each with the siblings it imports.
fn module_graph(src: &Path) -> Graph {
    let files: Vec<(PathBuf, String)> = sources(src)
        .into_iter()
        .map(|(file, text)| (file.strip_prefix(src).expect("under src/").to_owned(), text))
        .collect();
    graph_of(&files)
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

/// The circles of one crate's `graph`, each as the report names it
/// (`page: app::play -> app::side -> app::play`).
fn circles_named(crate_name: &str, graph: Graph) -> Vec<String> {
    circles_in(graph)
        .into_iter()
        .map(|found| format!("{crate_name}: {}", found.join(" -> ")))
        .collect()
}

/// The imports in `graph` between the children of a module below the root.
fn nested_edges(graph: &Graph) -> Vec<(&str, &str)> {
    graph
        .iter()
        .filter(|(from, _)| from.contains("::"))
        .flat_map(|(from, to)| to.iter().map(move |to| (from.as_str(), to.as_str())))
        .collect()
}

/// The graph of a crate made of `files` (paths under `src/`, with their text).
fn synthetic(files: &[(&str, &str)]) -> Graph {
    let files: Vec<(PathBuf, String)> = files
        .iter()
        .map(|&(path, text)| (PathBuf::from(path), text.to_owned()))
        .collect();
    graph_of(&files)
}

/// `graph` without its modules that import nothing, as `module -> a, b` lines.
fn edges(graph: &Graph) -> Vec<String> {
    graph
        .iter()
        .filter(|(_, to)| !to.is_empty())
        .map(|(from, to)| {
            format!(
                "{from} -> {}",
                to.iter().cloned().collect::<Vec<_>>().join(", ")
            )
        })
        .collect()
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
        circles.extend(circles_named(
            &crate_name(dir),
            module_graph(&dir.join("src")),
        ));
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
    let file = File {
        module: vec!["m".to_owned(), "n".to_owned()],
        code: code_only(text, ' '),
    };
    let named: Vec<(String, String)> = file
        .named_paths(&Names::default())
        .into_iter()
        .map(|(scope, path)| (scope.join("::"), path.join("::")))
        .collect();
    let paths: Vec<&str> = named.iter().map(|(_, path)| path.as_str()).collect();
    assert_eq!(
        paths,
        ["a::Thing", "b", "c::D", "c::E", "m::f::G", "h", "m::n", "m::n::i", "j"]
    );
    let roots: BTreeSet<&str> = paths
        .iter()
        .filter_map(|path| path.split("::").next())
        .filter(|&first| first != "m")
        .collect();
    assert_eq!(roots, ["a", "b", "c", "h", "j"].into());
    assert_eq!(named[8], ("m::n::tests".to_owned(), "j".to_owned()));
    let root = "pub use rng::Rng;\npub use spec::{Spec, Error as SpecError};\npub use othello;\n\
                mod rng;\nmod spec;\nmod user;\n";
    let user = "fn f(_: crate::Rng, _: crate::SpecError, _: crate::othello::Board) {}";
    let graph = synthetic(&[
        ("lib.rs", root),
        ("rng.rs", ""),
        ("spec.rs", ""),
        ("user.rs", user),
    ]);
    // `crate::Rng` is `rng`'s, `crate::SpecError` is `spec`'s; `othello` is another crate.
    assert_eq!(edges(&graph), ["user -> rng, spec"]);
}

#[test]
fn children_of_one_module_that_import_one_another_are_a_circle_named_in_full() {
    let graph = synthetic(&[
        ("lib.rs", "mod app;\nmod state;\n"),
        ("app.rs", "mod play;\nmod side;\nuse play::Board;\n"),
        (
            "app/play.rs",
            "use super::side::Panel;\npub struct Board;\n",
        ),
        ("app/side.rs", "pub struct Panel(super::play::Board);\n"),
        ("state.rs", ""),
    ]);
    assert_eq!(
        circles_named("page", graph),
        ["page: app::play -> app::side -> app::play"]
    );
}

#[test]
fn nested_imports_are_read_from_every_kind_of_path() {
    let graph = synthetic(&[
        (
            "app/mod.rs",
            "mod play;\nmod side;\nmod header;\nuse crate::state::State;\n",
        ),
        // `super::` from a child's own child, and `crate::app::...` reach `app`'s children.
        ("app/play.rs", "mod tiles;\n"),
        (
            "app/play/tiles.rs",
            "use super::super::side;\nfn f() -> crate::app::header::Title { todo!() }\n",
        ),
        // An inline module's `super::super` climbs from `app::side::inner`.
        (
            "app/side.rs",
            "mod inner {\n    use super::super::header::Title;\n}\n",
        ),
        // `super::State` is `app`'s import from `state`: `app` imports `state`, and
        // `header` imports nothing beside it.
        ("app/header.rs", "fn f(_: super::State) {}\n"),
        ("state.rs", ""),
        // A file that `#[path]` moves is the module its `mod` declares.
        ("lib.rs", "mod app;\nmod state;\nmod view;\n"),
        (
            "view.rs",
            "#[cfg(test)]\n#[path = \"view/checks.rs\"]\nmod tests;\n",
        ),
        ("view/checks.rs", "use super::super::app::Thing;\n"),
    ]);
    assert_eq!(
        edges(&graph),
        [
            "app -> state",
            "app::play -> app::header, app::side",
            "app::side -> app::header",
            "view -> app",
        ]
    );
    assert!(graph.contains_key("view::tests") && !graph.contains_key("view::checks"));
}

#[test]
fn the_real_graph_reads_nested_imports() {
    let mut nested = Vec::new();
    for dir in crate_dirs() {
        let graph = module_graph(&dir.join("src"));
        let name = crate_name(&dir);
        nested.extend(
            nested_edges(&graph)
                .into_iter()
                .map(|(from, to)| format!("{name}: {from} -> {to}")),
        );
    }
    eprintln!("{} nested imports: {nested:#?}", nested.len());
    // `use super::play_board::PlayBoard;` in the page's `app/play.rs`.
    assert!(
        nested.contains(&"page: app::play -> app::play_board".to_owned()),
        "{nested:#?}"
    );
    let tools = module_graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/src"));
    // `#[path = "stats_tests.rs"] mod tests;` in `arena/stats.rs`.
    assert!(tools.contains_key("arena::stats::tests"), "{tools:#?}");
    assert!(!tools.contains_key("arena::stats_tests"), "{tools:#?}");
}

/// The JavaScript beside the Rust: each file's local imports (`from "./x.mjs"`), for the
/// browser tests (`tests/e2e`), the site's scripts (`www`) and the server's helpers
/// (`scripts/serve`). Rust's and Python's modules have tests of their own
/// (above, and `train/tests/test_imports.py`): one finder for both.
fn script_imports() -> Graph {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut graph = Graph::new();
    for dir in ["tests/e2e", "www", "scripts/serve"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
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

#[test]
fn no_script_imports_another_in_a_circle() {
    let graph = script_imports();
    assert!(
        graph["tests/e2e/game.test.mjs"].contains("tests/e2e/lib.mjs"),
        "the reader sees the browser tests' imports"
    );
    if let Some(found) = circle(&graph) {
        panic!("scripts import in a circle: {}", found.join(" -> "));
    }
    let looped: Graph = [("a.mjs", "b.mjs"), ("b.mjs", "a.mjs")]
        .into_iter()
        .map(|(from, to)| (from.to_owned(), BTreeSet::from([to.to_owned()])))
        .collect();
    assert_eq!(
        circle(&looped).map(|c| c.join(" -> ")),
        Some("a.mjs -> b.mjs -> a.mjs".to_owned())
    );
}
