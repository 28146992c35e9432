"""docs/rl.md is current: its layout tables are the code's, and it covers every game."""

from __future__ import annotations

from pathlib import Path

import dennou.rl as rl
from dennou.rl.gym import gym_id
from dennou.rl.layout import all_markdown, current

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")


def test_layout_tables_are_generated_from_the_code() -> None:
    assert current(DOC) == all_markdown(), "run: python -m dennou.rl.layout --write"


def test_every_game_has_reference_tables_and_a_gymnasium_id_in_the_docs() -> None:
    for game in rl.games():
        assert f"#### `{game}`" in DOC
        assert gym_id(game) in DOC


def test_the_readme_points_to_the_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/rl.md" in readme
