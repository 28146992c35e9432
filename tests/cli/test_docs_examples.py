"""Every example in ``docs/`` runs as written, as the README's do (``tests/cli/readme.py``).

Each fenced block of ``docs/*.md`` and ``docs/games/*.md`` is one of:

- run here: ``python`` as a file in a temporary directory (a block marked
  ``<!-- readme-test: continues -->`` runs after the page's python block before it, as one
  script); ``console`` and ``bash`` commands as the README's are, output compared the same way;
- checked here: ``json`` parses, each line of ``jsonl`` parses; a block whose first line is
  ``# path/of/a/file.py`` is that file's text (the file holds it, verbatim);
- run by another test, named in :data:`ELSEWHERE` (which must exist);
- text (no language) that is no command: a diagram, a terminal screen, a message's shape;
- marked ``<!-- readme-test: skip (why) -->`` just above it, with the reason: it needs a host
  running for minutes, a second terminal, the network, or minutes of CPU.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.readme import Block, Shell, blocks, commands
from tests.cli.run import ROOT, environment

DOCS = sorted([*(ROOT / "docs").glob("*.md"), *(ROOT / "docs" / "games").glob("*.md")])
_CONTINUES = re.compile(r"<!--\s*readme-test:\s*continues\s*-->")
_QUOTES = re.compile(r"^# ((?:src|examples|tests)/\S+\.py)$")
_COMMAND = re.compile(r"^(\$ )?(dennou|python|pip|curl|node|npm) (?!\d)", re.M)

_AFTERNOON = "9. Writing a client in an afternoon (半日でクライアントを書く)"

ELSEWHERE: dict[tuple[str, str, str], str] = {
    # the example session of §8 is generated from a real run and compared message by message
    ("protocol.md", "8. A full example session", "jsonl"): (
        "tests/server/test_docs.py::test_the_example_session_is_what_the_server_sends"
    ),
    # §9's two clients are examples/afternoon/client.py and examples/js-client/afternoon.mjs,
    # verbatim; those files play Numeron and a Daifugo set against a real host
    ("protocol.md", _AFTERNOON, "python"): (
        "tests/server/test_docs.py::test_the_afternoon_clients_play_numeron_and_a_daifugo_set"
    ),
    ("protocol.md", _AFTERNOON, "javascript"): (
        "tests/server/test_docs.py::test_the_afternoon_clients_play_numeron_and_a_daifugo_set"
    ),
}
"""Blocks another test runs: (page, section, language) -> that test."""

RUN = ("python", "console", "bash", "sh")
CHECK = ("json", "jsonl")


def page_name(path: Path) -> str:
    return path.relative_to(ROOT / "docs").as_posix()


def every_block() -> list[tuple[Path, Block]]:
    return [(path, block) for path in DOCS for block in blocks(path)]


def continues(path: Path, block: Block) -> bool:
    lines = path.read_text(encoding="utf-8").splitlines()
    return block.line >= 2 and bool(_CONTINUES.search(lines[block.line - 2]))


def quoted_file(block: Block) -> Path | None:
    first = block.text.splitlines()[0] if block.text else ""
    found = _QUOTES.match(first)
    return ROOT / found.group(1) if found else None


def elsewhere(path: Path, block: Block) -> str | None:
    return ELSEWHERE.get((page_name(path), block.section, block.lang))


def kind(path: Path, block: Block) -> str:
    """What this file does with a block: run, check, quote, elsewhere, text or skip."""
    if block.skip is not None:
        return "skip"
    if elsewhere(path, block) is not None:
        return "elsewhere"
    if quoted_file(block) is not None:
        return "quote"
    if block.lang in RUN:
        return "run"
    if block.lang in CHECK:
        return "check"
    return "text"


def ids(items: list[tuple[Path, Block]]) -> list[str]:
    return [f"{page_name(path)}:{block.line}" for path, block in items]


RUNNABLE = [(p, b) for p, b in every_block() if kind(p, b) == "run" and b.lang != "python"]
SCRIPTS = [
    (p, b)
    for p, b in every_block()
    if kind(p, b) == "run" and b.lang == "python" and not continues(p, b)
]


def test_every_block_is_run_checked_or_says_why_not() -> None:
    found = every_block()
    assert len(found) > 40, "the pages have (almost) no blocks?"
    for path, block in found:
        where = f"{page_name(path)}:{block.line}"
        what = kind(path, block)
        if what == "skip":
            assert block.skip and block.skip.strip(" ()"), f"{where}: say why it is skipped"
        elif what == "elsewhere":
            test = elsewhere(path, block)
            assert test is not None
            file, name = test.split("::")
            assert f"def {name}(" in (ROOT / file).read_text(encoding="utf-8"), test
        elif what == "text":
            assert block.lang in ("", "text"), f"{where}: a `{block.lang}` block nothing runs"
            assert not _COMMAND.search(block.text), (
                f"{where}: commands in a text block: make it `console` (it runs) or mark it "
                "<!-- readme-test: skip (why) -->"
            )


@pytest.mark.parametrize(("path", "block"), SCRIPTS, ids=ids(SCRIPTS))
def test_python_example_runs(path: Path, block: Block, tmp_path: Path) -> None:
    code = block.text
    for later in blocks(path):  # the blocks that continue this one, in order
        if later.line > block.line and later.lang == "python" and continues(path, later):
            code += "\n\n" + later.text
        elif later.line > block.line and later.lang == "python":
            break
    script = tmp_path / "example.py"
    script.write_text(code + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=environment({"PYTHONWARNINGS": "error::DeprecationWarning:__main__"}),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"{page_name(path)}:{block.line}:\n{done.stdout}{done.stderr}"


@pytest.mark.parametrize(("path", "block"), RUNNABLE, ids=ids(RUNNABLE))
def test_console_example_runs(path: Path, block: Block, tmp_path: Path) -> None:
    shutil.copytree(
        ROOT / "examples", tmp_path / "examples", ignore=shutil.ignore_patterns("node_modules")
    )
    shell = Shell(tmp_path)
    for command in commands(block):
        shell.run(command, timeout=300)


def test_json_examples_parse() -> None:
    checked = 0
    for path, block in every_block():
        if kind(path, block) != "check":
            continue
        where = f"{page_name(path)}:{block.line}"
        lines = block.text.splitlines() if block.lang == "jsonl" else [block.text]
        for text in lines:
            try:
                json.loads(text)
            except ValueError as error:
                raise AssertionError(f"{where}: not JSON ({error}):\n{text}") from error
        checked += 1
    assert checked >= 8


def test_quoted_files_are_quoted_verbatim() -> None:
    for path, block in every_block():
        file = quoted_file(block)
        if file is None or block.skip is not None:
            continue
        body = "\n".join(block.text.splitlines()[1:])
        assert body in file.read_text(encoding="utf-8"), (
            f"{page_name(path)}:{block.line} no longer shows {file.relative_to(ROOT)} as it is"
        )
