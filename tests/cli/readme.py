"""README examples as tests: read the fenced blocks, run their commands, compare the output.

Conventions of the examples (what a reader sees is what runs):

- ``console`` blocks: ``$ `` starts a command (a line ending in ``\\`` continues it); the lines
  until the next ``$`` are its expected output. Expected lines must appear in the real output in
  that order (others may come between): numbers match any number (timings, ids, ports), runs of
  spaces and of table rules (``━``, ``─``) match runs of any length, ``...`` matches anything,
  and a word with ``…`` in it (``Zg…H6I``) is a value to copy: it matches one word, and later
  commands that use the same word get the real value (the token you would paste).
- Commands run in a temporary directory, with input at its end (``dennou play`` says bye), and
  the host that the README's own ``dennou serve`` started on a free port: ``localhost:8000``
  becomes that port, and ``DENNOU_SERVER`` names it.
- A block a test must not run carries ``<!-- readme-test: skip (why) -->`` just above it.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from tests.cli.run import environment

_FENCE = re.compile(r"^```(\w*)\s*$")
_SKIP = re.compile(r"<!--\s*readme-test:\s*skip\b(.*?)-->")
_TOKENS = re.compile(
    r"(?P<hole>[^\s\"/]*…[^\s\"/]*)"
    r"|(?P<any>\.\.\.)"
    r"|(?P<number>-?\d+(?:\.\d+)?)"
    r"|(?P<space>\s+)"
    r"|(?P<rule>[━─]+)"
    r"|(?P<char>.)"
)


@dataclass
class Block:
    """One fenced code block."""

    lang: str
    text: str
    line: int
    section: str
    skip: str | None = None


@dataclass
class Command:
    """One ``$`` command of a console block and the output shown after it."""

    text: str
    expected: list[str] = field(default_factory=list)


def blocks(path: Path) -> list[Block]:
    """Every fenced block of a Markdown file, with the heading it is under."""
    out: list[Block] = []
    section = ""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        fence = _FENCE.match(line)
        if fence is None:
            i += 1
            continue
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        skip = _SKIP.search(lines[start - 1]) if start else None
        reason = skip.group(1).strip() if skip else None
        out.append(Block(fence.group(1), "\n".join(body), start + 1, section, reason))
        i += 1
    return out


def commands(block: Block) -> list[Command]:
    """The commands of a block: ``$`` lines of a console block, every line of a shell block."""
    out: list[Command] = []
    pending = ""
    for line in block.text.splitlines():
        if block.lang in ("bash", "sh", "shell"):
            if line.strip():
                out.append(Command(line.strip()))
            continue
        if pending:
            pending += "\n" + line
            if not line.endswith("\\"):
                out.append(Command(pending))
                pending = ""
        elif line.startswith("$ "):
            text = line[2:]
            if text.endswith("\\"):
                pending = text
            else:
                out.append(Command(text))
        elif out and line.strip():
            out[-1].expected.append(line)
    assert not pending, f"unfinished command in the block at line {block.line}"
    return out


def pattern(expected: str) -> tuple[re.Pattern[str], list[str]]:
    """The regular expression of an expected line, and the values to copy it holds in order."""
    parts: list[str] = []
    holes: list[str] = []
    for match in _TOKENS.finditer(expected.rstrip()):
        kind, text = match.lastgroup, match.group()
        if kind == "hole":
            holes.append(text)
            parts.append(r"([^\s\"/]+)")
        elif kind == "any":
            parts.append(r".*?")
        elif kind == "number":
            parts.append(r"-?\d+(?:\.\d+)?")
        elif kind == "space":
            parts.append(r"\s+")
        elif kind == "rule":
            parts.append(r"[━─]+")
        else:
            parts.append(re.escape(text))
    return re.compile("".join(parts)), holes


def match_output(expected: list[str], actual: str) -> dict[str, str]:
    """Check that the expected lines appear in order in ``actual``; the values copied.

    Raises:
        AssertionError: A line was not found (the message shows both outputs).
    """
    lines = [line.rstrip() for line in actual.splitlines()]
    values: dict[str, str] = {}
    at = 0
    for want in expected:
        regex, holes = pattern(want)
        for i in range(at, len(lines)):
            found = regex.fullmatch(lines[i])
            if found:
                values.update(zip(holes, found.groups(), strict=True))
                at = i + 1
                break
        else:
            raise AssertionError(
                f"expected output line not found:\n  {want}\nin:\n{actual}\n"
                f"(after line {at} of the output)"
            )
    return values


class Shell:
    """Runs the commands of README blocks one after another, as a person at a terminal would.

    Args:
        cwd: The directory the commands run in.
        server: The host's HTTP base URL (``http://127.0.0.1:PORT``), if one runs.
    """

    def __init__(self, cwd: Path, server: str | None = None) -> None:
        self.cwd = cwd
        self.server = server
        self.values: dict[str, str] = {}
        extra = {}
        if server is not None:
            extra["DENNOU_SERVER"] = server.replace("http://", "ws://") + "/ws"
        self.env = environment(extra)

    def command_line(self, text: str) -> str:
        """The command with copied values and the test host's port filled in."""
        for hole, value in self.values.items():
            text = text.replace(hole, value)
        if self.server is not None:
            host = self.server.removeprefix("http://")
            text = text.replace("localhost:8000", host).replace("127.0.0.1:8000", host)
        return text

    def run(self, command: Command, timeout: float = 600) -> str:
        """Run one command; check its exit code and output; return the output."""
        line = self.command_line(command.text)
        if line.startswith("export "):
            done = self._export(line, timeout)
        else:
            done = subprocess.run(
                ["bash", "-c", line],
                cwd=self.cwd,
                env=self.env,
                input="",
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,  # as a terminal shows them: interleaved
                text=True,
                timeout=timeout,
                check=False,
            )
        output = done.stdout + (done.stderr or "")
        assert done.returncode == 0, f"`{line}` exited {done.returncode}:\n{output}"
        self.values.update(match_output(command.expected, output))
        return output

    def _export(self, line: str, timeout: float) -> subprocess.CompletedProcess[str]:
        """An ``export`` changes the environment of the commands after it."""
        done = subprocess.run(
            [
                "bash",
                "-c",
                f"set -e\n{line}\nenv -0",
            ],  # a new line: the command may end in a comment
            cwd=self.cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if done.returncode == 0:
            env = dict(item.split("=", 1) for item in done.stdout.split("\0") if "=" in item)
            assert "PATH" in env, f"`{line}` left no environment"
            self.env = env
            done.stdout = ""
        return done
