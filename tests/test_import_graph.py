"""Imports run one way: no module of ``dennou`` reaches itself through imports, and every module
of every game and of the top layer is placed in an import contract (``pyproject.toml``).

The graph is grimp's (import-linter's engine) and counts every import in a module: module-level,
inside functions, and under ``TYPE_CHECKING``. A lazy import inside a function is fine as long as
it runs the same way as the layers do.
"""

from __future__ import annotations

import pkgutil
import tomllib
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest

import dennou.games

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("dennou", include_external_packages=False)


def _contracts() -> list[dict[str, object]]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, object]] = data["tool"]["importlinter"]["contracts"]
    return contracts


def _strongly_connected(graph: grimp.ImportGraph) -> list[list[str]]:
    """Tarjan's components with more than one module, or a module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph.modules):
        if start in index:
            continue
        # Iterative so a deep graph cannot hit the recursion limit.
        work: list[tuple[str, Iterator[str]]] = []
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        work.append((start, iter(sorted(graph.find_modules_directly_imported_by(start)))))
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph.find_modules_directly_imported_by(node):
                    found.append(sorted(component))
    return found


def _describe(graph: grimp.ImportGraph, component: list[str]) -> str:
    members = set(component)
    lines = []
    for importer in component:
        for imported in sorted(graph.find_modules_directly_imported_by(importer) & members):
            for detail in graph.get_import_details(importer=importer, imported=imported):
                lines.append(
                    f"  {importer}:{detail['line_number']} -> {imported}: {detail['line_contents']}"
                )
    return "\n".join(lines)


def test_no_module_reaches_itself_through_imports(graph: grimp.ImportGraph) -> None:
    circles = _strongly_connected(graph)
    report = "\n\n".join(_describe(graph, c) for c in circles)
    assert not circles, f"import circles (function-level and TYPE_CHECKING included):\n{report}"


def test_the_checker_finds_a_circle() -> None:
    graph = grimp.ImportGraph()
    for name in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        graph.add_module(name)
    graph.add_import(importer="pkg.a", imported="pkg.b", line_number=1, line_contents="x")
    graph.add_import(importer="pkg.b", imported="pkg.c", line_number=1, line_contents="x")
    assert _strongly_connected(graph) == []
    graph.add_import(importer="pkg.c", imported="pkg.a", line_number=3, line_contents="x")
    assert _strongly_connected(graph) == [["pkg.a", "pkg.b", "pkg.c"]]


def _layer_names(contract: dict[str, object]) -> set[str]:
    names: set[str] = set()
    layers = contract["layers"]
    assert isinstance(layers, list)
    for layer in layers:
        for part in str(layer).replace("|", ":").split(":"):
            names.add(part.strip().strip("()"))
    return names


def _games() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(dennou.games.__path__) if m.ispkg)


@pytest.mark.parametrize("game", _games())
def test_every_module_of_a_game_is_in_its_contract(game: str) -> None:
    container = f"dennou.games.{game}"
    contracts = [c for c in _contracts() if c.get("containers") == [container]]
    assert len(contracts) == 1, f"{container} needs one layers contract in pyproject.toml"
    named = _layer_names(contracts[0])
    package = Path(dennou.games.__path__[0]) / game
    modules = {m.name for m in pkgutil.iter_modules([str(package)])}
    assert modules - named == set(), f"{container}: modules in no layer"


def test_every_part_of_dennou_is_in_the_top_contract() -> None:
    contracts = [c for c in _contracts() if c.get("containers") == ["dennou"]]
    assert len(contracts) == 1
    named = _layer_names(contracts[0])
    parts = {m.name for m in pkgutil.iter_modules(dennou.__path__)} - {"__main__"}
    assert parts - named == set(), "parts of dennou in no layer"


def test_the_top_layer_has_no_parts_that_may_import_each_other() -> None:
    contracts = [c for c in _contracts() if c.get("containers") == ["dennou"]]
    layers = contracts[0]["layers"]
    assert isinstance(layers, list)
    assert not any(":" in str(layer) for layer in layers), (
        "a layer whose parts may import each other hides circles between them"
    )


def test_only_the_hosts_assembly_imports_upward() -> None:
    contracts = [c for c in _contracts() if c.get("containers") == ["dennou"]]
    ignored = contracts[0].get("ignore_imports", [])
    assert isinstance(ignored, list)
    importers = {str(rule).split(" -> ")[0] for rule in ignored}
    assert importers <= {"dennou.server.app", "dennou.server.cli"}, importers
