"""Every game's engine version (``GameSpec.version``) has its entry in ``CHANGELOG.md``.

Records name the engine version that made them and replay refuses another, so a version bump
is news for everyone who keeps records: the changelog must say what changed. An entry is a line
naming the game and version as ``` `numeron` v2 ```.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dennou.games import REGISTRY

CHANGELOG = Path(__file__).resolve().parents[1] / "CHANGELOG.md"


@pytest.mark.parametrize("name", list(REGISTRY))
def test_the_engine_version_of_every_game_has_a_changelog_entry(name: str) -> None:
    version = REGISTRY[name].spec.version
    text = CHANGELOG.read_text(encoding="utf-8")
    assert re.search(rf"`{re.escape(name)}` v{version}\b", text), (
        f"GameSpec.version of {name} is {version}: add a CHANGELOG.md entry "
        f"'`{name}` v{version}: <what changed>' under the release that makes it"
    )


def test_the_package_version_is_the_installed_one() -> None:
    from importlib.metadata import version

    import dennou

    pyproject = (CHANGELOG.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert 'version = { attr = "dennou.__version__" }' in pyproject
    assert version("dennou") == dennou.__version__
