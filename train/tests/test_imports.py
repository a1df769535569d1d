"""No two modules of the trainer import each other, directly or round a longer circle.

The graph counts every import of a `train` module wherever it is written: at the top of
a file, inside a function (a lazy import), under `if TYPE_CHECKING:`, as `import train.x`,
`from train import x`, `from train.x import y` or a relative `from . import x`. A circle
is fixed by moving the piece both sides need down into a module they both import (as
`train.pools` and `train.report_stats` hold what `train.shards`/`train.cluster` and
`train.report`/`train.report_page` share)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "train"
ROOT = Path(__file__).resolve().parent.parent  # the package's folder


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(tree: ast.AST, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The package's modules that `module` imports anywhere in its source."""
    out: set[str] = set()
    # A relative import counts from the module's package (a package's __init__ is its own).
    here = module.split(".") if is_package else module.split(".")[:-1]

    def add(name: str) -> None:
        # `import train.a.b` also runs train.a; a name that is not a module (a function
        # imported from one) counts as its module.
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            out.add(name)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == PACKAGE or alias.name.startswith(PACKAGE + "."):
                    add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)] if node.level > 1 else here
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            if source != PACKAGE and not source.startswith(PACKAGE + "."):
                continue
            for alias in node.names:
                full = f"{source}.{alias.name}"
                add(full if full in known else source)
    return out


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, for every .py file under `root`."""
    files = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    known = set(files)
    return {
        name: imported(ast.parse(path.read_text(), str(path)), name, path.stem == "__init__", known)
        for name, path in files.items()
    }


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports (its modules in order, the first repeated at the end), or
    None: a depth-first search that meets a module still on its path has found one."""
    on_path: list[str] = []
    state: dict[str, int] = {}  # 1 on the path now, 2 done

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        on_path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*on_path[on_path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        on_path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_the_trainer_has_no_import_circle() -> None:
    graph = import_graph()
    # The graph is the real one: the modules are there and their imports are seen.
    assert "train.shards" in graph["train.cluster"]
    assert "train.report_stats" in graph["train.report_page"]
    assert "train.cluster" in graph["train.pools"]  # a lazy import counts
    circle = find_circle(graph)
    assert circle is None, "modules that import each other: " + " -> ".join(circle or [])


def test_find_circle_finds_one() -> None:
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_circle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert find_circle({"x": {"a"}, "a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_every_kind_of_import_is_an_edge(tmp_path: Path) -> None:
    pkg = tmp_path / PACKAGE
    (pkg / "sub").mkdir(parents=True)
    for name in ("__init__", "a", "b", "c", "d", "e", "f", "sub/__init__", "sub/g"):
        (pkg / f"{name}.py").write_text("")
    (pkg / "a.py").write_text(
        "import train.b\n"
        "from train import c\n"
        "from train.d import thing\n"
        "from . import e\n"
        "def lazy():\n"
        "    from .f import other\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from train.sub.g import T\n"
        "import os\n"
    )
    (pkg / "sub" / "g.py").write_text("from .. import a\n")
    graph = import_graph(pkg)
    assert graph["train.a"] == {
        "train.b", "train.c", "train.d", "train.e", "train.f", "train.sub.g"
    }  # fmt: skip
    assert graph["train.sub.g"] == {"train.a"}
    assert find_circle(graph) == ["train.a", "train.sub.g", "train.a"]
