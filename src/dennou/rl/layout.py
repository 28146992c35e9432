"""Each game's observation layout and action numbering as Markdown (the tables in docs/rl.md).

    python -m dennou.rl.layout            # print every game's tables
    python -m dennou.rl.layout --check    # exit 1 if docs/rl.md's tables are out of date

The tables are for each game's reference set-up (``GameSpec.learning``); sizes that depend on the
seat count or the rules (seats, chairs, digits) say so in their description.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dennou.rl.table import encoding_for, games, learning

BEGIN = "<!-- layout:begin -->"
END = "<!-- layout:end -->"


def markdown(name: str) -> str:
    """The Markdown tables of game ``name`` in its reference config."""
    reference = learning(name)
    players, rules = reference.players, reference.rules
    enc = encoding_for(name, rules, players)
    options = ", ".join(f"{k}={v}" for k, v in rules.items()) or "default rules"
    lines = [
        f"#### `{name}` ({players} seats, {options}): "
        f"{enc.size} observation values, {enc.num_actions} actions",
        "",
    ]
    if enc.abstraction:
        lines += [f"Abstraction: {enc.abstraction}.", ""]
    lines += ["| observation | index | size | range | meaning |", "|---|---|---|---|---|"]
    for f in enc.fields:
        span = f"{f.start}" if f.size == 1 else f"{f.start}-{f.start + f.size - 1}"
        lines.append(f"| `{f.name}` | {span} | {f.size} | {f.low:g}..{f.high:g} | {f.doc} |")
    lines += ["", "| actions | numbers | size | meaning |", "|---|---|---|---|"]
    for b in enc.blocks:
        span = f"{b.start}" if b.size == 1 else f"{b.start}-{b.start + b.size - 1}"
        lines.append(f"| `{b.name}` | {span} | {b.size} | {b.doc} |")
    return "\n".join(lines) + "\n"


def all_markdown() -> str:
    """Every game's tables, in registry order."""
    return "\n".join(markdown(name) for name in games())


def current(doc: str) -> str:
    """The generated part of a docs page (between the layout markers)."""
    start, end = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    return doc[start:end].strip("\n") + "\n"


def main() -> None:
    """Print the tables, or check docs/rl.md against them."""
    parser = argparse.ArgumentParser(description="observation layouts and action numberings")
    parser.add_argument("--check", type=Path, nargs="?", const=Path("docs/rl.md"))
    parser.add_argument("--write", type=Path, nargs="?", const=Path("docs/rl.md"))
    args = parser.parse_args()
    tables = all_markdown()
    if args.check is not None:
        if current(args.check.read_text(encoding="utf-8")) != tables:
            print(f"{args.check}: the layout tables are out of date (--write to update)")
            sys.exit(1)
        return
    if args.write is not None:
        doc = args.write.read_text(encoding="utf-8")
        start, end = doc.index(BEGIN) + len(BEGIN), doc.index(END)
        args.write.write_text(doc[:start] + "\n" + tables + doc[end:], encoding="utf-8")
        return
    print(tables)


if __name__ == "__main__":
    main()
