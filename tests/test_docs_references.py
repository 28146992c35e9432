"""Every cross-reference resolves: docstrings' roles name real objects, docs' links real files.

A docstring's ``:mod:``, ``:func:``, ``:class:``, ``:meth:``, ``:attr:``, ``:data:`` and
``:exc:`` target is looked up as a reader would look it up: a dotted absolute name is imported; a
name starting with ``.`` is relative to the module's package (then to the module); a bare name is
one of the module's (or of the class the docstring is in, or of any class of the module), then a
module or an object of the standard library. An attribute set only on instances counts when its
class annotates it or assigns ``self.NAME``.

A relative Markdown link (``](path)`` or ``](path#anchor)``) in ``README.md``, ``docs/`` and the
examples' READMEs names a file or directory that exists.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = SRC / "dennou"

_ROLE = re.compile(r":(mod|func|class|meth|attr|data|exc|obj):`([^`]+)`")
_LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


@dataclass(frozen=True)
class Reference:
    """One role in one docstring."""

    path: Path
    line: int
    role: str
    target: str
    module: str
    classes: tuple[str, ...]  # the classes the docstring is inside, outermost first

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}: :{self.role}:`{self.target}`"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def docstring_references(path: Path) -> Iterator[Reference]:
    """The roles of every docstring of one source file, with where each docstring is."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = module_name(path)

    def visit(node: ast.AST, classes: tuple[str, ...]) -> Iterator[Reference]:
        body = getattr(node, "body", None)
        if isinstance(body, list) and body:
            first = body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                text = first.value.value
                for match in _ROLE.finditer(text):
                    line = first.lineno + text[: match.start()].count("\n")
                    yield Reference(path, line, match.group(1), match.group(2), name, classes)
            # a docstring after an assignment documents the name assigned (attribute docstrings)
            for before, after in itertools.pairwise(body):
                if (
                    isinstance(before, (ast.Assign, ast.AnnAssign))
                    and isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                ):
                    text = after.value.value
                    for match in _ROLE.finditer(text):
                        line = after.lineno + text[: match.start()].count("\n")
                        yield Reference(path, line, match.group(1), match.group(2), name, classes)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                yield from visit(child, (*classes, child.name))
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield from visit(child, classes)

    yield from visit(tree, ())


def _instance_attribute(cls: type, name: str) -> bool:
    """``name`` is an attribute of ``cls``'s instances: annotated, a slot or set on ``self``."""
    for klass in inspect.getmro(cls):
        if name in getattr(klass, "__annotations__", {}) or name in getattr(klass, "__slots__", ()):
            return True
        try:
            source = inspect.getsource(klass)
        except (OSError, TypeError):
            continue
        if re.search(rf"\bself\.{re.escape(name)}\s*(:[^=]*)?=", source):
            return True
    return False


def lookup(scope: object, dotted: str) -> bool:
    """``scope.a.b.c`` exists (a missing last part may be an instance attribute of a class)."""
    obj = scope
    parts = dotted.split(".")
    for i, part in enumerate(parts):
        if hasattr(obj, part):
            obj = getattr(obj, part)
            continue
        if isinstance(obj, ModuleType):
            try:  # a submodule not imported by its package
                obj = importlib.import_module(f"{obj.__name__}.{part}")
                continue
            except ImportError:
                return False
        return i == len(parts) - 1 and isinstance(obj, type) and _instance_attribute(obj, part)
    return True


def absolute(dotted: str) -> bool:
    """``dotted`` names an importable module or an object inside one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        return lookup(module, ".".join(parts[cut:])) if cut < len(parts) else True
    return False


def resolves(ref: Reference) -> bool:
    target = ref.target.strip().lstrip("~!")
    target = re.sub(r"\(\)$", "", target)
    module = importlib.import_module(ref.module)
    package = ref.module if ref.path.name == "__init__.py" else ref.module.rpartition(".")[0]
    if target.startswith("."):
        rest = target.lstrip(".")
        up = len(target) - len(rest) - 1
        base = package.split(".")
        base = base[: len(base) - up] if up else base
        return absolute(".".join([*base, rest])) or lookup(module, rest)
    scopes: list[object] = [module]
    owner: object = module
    for name in ref.classes:  # the enclosing classes, innermost first
        owner = getattr(owner, name, None)
        if owner is not None:
            scopes.insert(0, owner)
    scopes += [v for v in vars(module).values() if isinstance(v, type)]
    if any(lookup(scope, target) for scope in scopes):
        return True
    if package and absolute(f"{package}.{target}"):
        return True
    return lookup(builtins, target) or absolute(target)


def all_references() -> list[Reference]:
    return [ref for path in sorted(PACKAGE.rglob("*.py")) for ref in docstring_references(path)]


def test_every_docstring_reference_names_a_real_object() -> None:
    refs = all_references()
    assert len(refs) > 100, "the scan found (almost) no references"
    broken = [str(ref) for ref in refs if not resolves(ref)]
    assert not broken, "references to nothing:\n" + "\n".join(broken)


def markdown_files() -> list[Path]:
    docs = sorted((ROOT / "docs").rglob("*.md"))
    examples = sorted(
        p for p in (ROOT / "examples").rglob("README.md") if "node_modules" not in p.parts
    )
    return [ROOT / "README.md", *docs, *examples]


def relative_links(path: Path) -> Iterator[tuple[int, str]]:
    in_code = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        line = re.sub(r"`[^`]*`", "", line)  # code spans are not links
        for match in _LINK.finditer(line):
            target = match.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a URL (http:, mailto:) or an anchor in the same page
            yield number, target


def test_every_relative_link_in_the_docs_names_a_file() -> None:
    files = markdown_files()
    assert len(files) > 10
    broken = []
    for path in files:
        for number, target in relative_links(path):
            file = target.split("#", 1)[0]
            if not (path.parent / file).exists():
                broken.append(f"{path.relative_to(ROOT)}:{number}: {target}")
    assert not broken, "links to nothing:\n" + "\n".join(broken)


def test_the_reference_check_finds_a_broken_reference(tmp_path: Path) -> None:
    """The checks themselves: a name that does not exist is reported, real ones pass."""
    # a module that imports no Numba code: a compile on another thread while this one imports
    # can trip CPython 3.11's AST recursion-depth check (SystemError), which is not this test's
    here = PACKAGE / "core" / "record.py"

    def ref(target: str, role: str = "func", classes: tuple[str, ...] = ()) -> Reference:
        return Reference(here, 1, role, target, module_name(here), classes)

    assert not resolves(ref("solve_nothing_at_all"))
    assert not resolves(ref(".game.GAME", "data"))
    assert resolves(ref("~dennou.core.game.Game", "class"))
    assert resolves(ref(".game.Outcome", "class"))
    assert resolves(ref("asyncio", "mod"))


@pytest.mark.parametrize("target", ["docs/nowhere.md", "../README.md#set-up"])
def test_the_link_check_reads_relative_links(tmp_path: Path, target: str) -> None:
    page = tmp_path / "docs" / "page.md"
    page.parent.mkdir()
    page.write_text(f"See [x]({target}) and [y](https://example.org) and `[z](no.md)`.\n")
    (tmp_path / "README.md").write_text("")
    found = list(relative_links(page))
    assert found == [(1, target)]
    assert (page.parent / target.split("#")[0]).exists() == target.startswith("..")
