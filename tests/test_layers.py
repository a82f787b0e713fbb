"""The layers of DESIGN.md hold: imports point down only, and no module imports itself back.

Read from the source with :mod:`ast` (nothing is imported), so a new arrow up or a new import
circle fails ``make test`` the moment it is written. Every ``import`` counts, including those
inside functions and under ``TYPE_CHECKING``: a late or type-only import still ties the two
modules together.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "oprlab"

#: Floors, bottom first; a module may import its own floor and those below it.
LAYERS: dict[str, int] = {
    "version": 0,
    "errors": 0,
    "rng": 0,
    "limits": 0,
    "memo": 0,  # the game memos every layer registers (emptied by game.play)
    "display": 0,
    "files": 0,
    "prob": 1,
    "mechanics": 2,
    "units": 3,
    "samples": 3,
    "rules": 4,
    "table": 5,
    "game": 6,
    "players": 7,
    "analysis": 8,
    "cli": 9,
    "web": 9,
    "commands": 9,  # the typer-free bodies of the commands that must start fast
    "__main__": 10,
}
#: The package's face (``oprlab/__init__.py``) sits on top: it gathers the library API.
TOP = 10


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _floor(module: str) -> int:
    parts = module.split(".")
    return TOP if len(parts) == 1 else LAYERS[parts[1]]


def _resolve(name: str) -> str | None:
    """The package module that ``name`` (a module, or a name inside one) lives in."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> Iterator[str]:
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES]
            names = subs if len(subs) == len(node.names) else [base, *subs]
        else:
            continue
        for name in names:
            target = _resolve(name) if name.startswith("oprlab") else None
            if target is not None and target != module:
                yield target


GRAPH: dict[str, set[str]] = defaultdict(set)
for _m in MODULES:
    GRAPH[_m].update(_imports(_m))


def _circles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(MODULES):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(GRAPH[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(GRAPH[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


#: Circles still being taken apart by the architecture change (issue #12); the list may only
#: shrink: a new circle fails, and so does an entry here that no longer exists.
KNOWN_CIRCLES: list[list[str]] = []


def test_every_package_module_has_a_floor() -> None:
    """A new top-level module or package must be given its place in the layers."""
    unplaced = sorted({m.split(".")[1] for m in MODULES if "." in m} - set(LAYERS))
    assert unplaced == []


def test_imports_point_down_only() -> None:
    """No module imports from a floor above its own (DESIGN.md "Layers")."""
    upward = sorted(
        f"{m} -> {t}" for m, targets in GRAPH.items() for t in targets if _floor(t) > _floor(m)
    )
    assert upward == []


def test_no_new_import_circles() -> None:
    """Modules that import each other, directly or round a loop, are one module in disguise."""
    assert _circles() == sorted(KNOWN_CIRCLES)


def test_the_checker_sees_a_circle_and_an_arrow_up() -> None:
    """The checks can fail: a made-up graph with a loop and an upward arrow is caught."""
    saved = dict(GRAPH)
    try:
        GRAPH["oprlab.prob.dist"] = GRAPH["oprlab.prob.dist"] | {"oprlab.game.play"}
        GRAPH["oprlab.game.play"] = GRAPH["oprlab.game.play"] | {"oprlab.prob.dist"}
        assert any({"oprlab.game.play", "oprlab.prob.dist"} <= set(c) for c in _circles())
        assert _floor("oprlab.game.play") > _floor("oprlab.prob.dist")
    finally:
        GRAPH.clear()
        GRAPH.update(saved)
