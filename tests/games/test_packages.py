"""Every game package has the same shape, and bounds every option (docs/architecture.md).

A game is assembled in its package's ``__init__.py`` from its engine, its views and its bots;
every number among its rules options and its bots' options has a range, checked when the rules
or the bot are built, and its docs page gives each rules option's range.
"""

from __future__ import annotations

import importlib
import pickle
import re
from pathlib import Path

import pytest

from dennou.core.bot import Bot
from dennou.core.errors import ConfigError
from dennou.core.game import Game
from dennou.core.options import OptionInfo, option_info
from dennou.core.views import Views
from dennou.games import REGISTRY
from dennou.server.lobby import HOST_CLOCK, has_host_clock

GAMES = list(REGISTRY)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
BOARDS = Path(__file__).resolve().parents[2] / "src" / "dennou" / "web" / "static" / "boards"


def _numbers(options: list[OptionInfo]) -> list[OptionInfo]:
    return [o for o in options if re.match(r"(int|float)\b", o.type)]


@pytest.mark.parametrize("name", GAMES)
def test_the_game_is_assembled_in_its_package_from_engine_views_and_bots(name: str) -> None:
    package = importlib.import_module(f"dennou.games.{name}")
    engine = importlib.import_module(f"dennou.games.{name}.engine")
    game = package.GAME
    assert REGISTRY[name] is game and isinstance(game, Game)
    assert type(game).__module__ == engine.__name__
    # The engine holds the rules only: its views and bots come from their own modules.
    assert isinstance(game.views, Views) and type(game.views) is not Views
    assert type(game.views).__module__ == f"dennou.games.{name}.views"
    for method in ("view", "determinize", "render", "describe_legal", "bots"):
        assert getattr(type(game), method) is getattr(Game, method), method
    assert not hasattr(engine, "GAME")


@pytest.mark.parametrize("name", GAMES)
def test_every_number_among_the_rules_options_has_a_range(name: str) -> None:
    numbers = _numbers(option_info(REGISTRY[name].rules_type))
    unbounded = [o.name for o in numbers if o.minimum is None or o.maximum is None]
    assert numbers and not unbounded


@pytest.mark.parametrize("name", GAMES)
def test_the_docs_page_gives_every_rules_option_its_range(name: str) -> None:
    page = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    clocked = has_host_clock(REGISTRY[name])
    for option in option_info(REGISTRY[name].rules_type):
        if clocked and option.name == HOST_CLOCK:  # the table's clock: one line, not a row
            assert "the table's clock (`options.time_limit`" in page
            continue
        rows = [r for r in page.splitlines() if r.startswith("| `")]
        row = next((r for r in rows if f"`{option.name}`" in r.split(" | ")[0]), "")
        assert row, f"docs/games/{name}.md has no row for {option.name}"
        if option.range:
            assert option.range in row, f"{option.name}: {option.range} not in {row!r}"


@pytest.mark.parametrize("name", GAMES)
def test_every_number_among_the_bot_options_has_a_range_and_a_meaning(name: str) -> None:
    for bot, factory in REGISTRY[name].bots().items():
        options = option_info(factory)
        assert all(o.description for o in options), bot
        unbounded = [o.name for o in _numbers(options) if o.minimum is None or o.maximum is None]
        assert not unbounded, (bot, unbounded)


@pytest.mark.parametrize(
    ("name", "bot", "option"),
    [
        ("numeron", "solver", "lookahead"),
        ("hilo", "bayes", "patience"),
        ("smuggling", "equilibrium", "points"),
        ("pandemic", "belief", "cap"),
        ("chairs", "heuristic", "crowd_penalty"),
    ],
)
def test_a_bot_option_out_of_its_range_is_refused_on_construction(
    name: str, bot: str, option: str
) -> None:
    factory = REGISTRY[name].bots()[bot]
    info = next(o for o in option_info(factory) if o.name == option)
    assert info.maximum is not None
    with pytest.raises(ConfigError, match=option):
        factory(**{option: info.maximum * 10 + 1})
    largest = info.maximum - 0.5 if info.exclusive_maximum else info.maximum
    assert isinstance(factory(**{option: largest}), Bot)


@pytest.mark.parametrize("name", GAMES)
def test_every_rules_section_an_error_cites_is_on_the_game_s_page(name: str) -> None:
    """Errors cite ``— rules: <section>`` of docs/games/<game>.md, never a page outside it."""
    page = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    package = Path(importlib.import_module(f"dennou.games.{name}").__file__ or "").parent
    sources = "".join(p.read_text(encoding="utf-8") for p in package.glob("*.py"))
    assert "shared/rules" not in sources and "../" not in re.sub(r"#.*", "", sources)
    cited = set(re.findall(r'section="([^"]+)"', sources))
    assert cited
    for section in cited:
        heading = section.split(", ")[0]  # "Items, SHUFFLE": the section, then where in it
        assert heading in page, f"{name}: the section {heading!r} is not on docs/games/{name}.md"


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_game_and_its_bots_travel_to_worker_processes(name: str) -> None:
    """The host's bot workers and Ray runners receive the game and its bots' factories pickled."""
    game = REGISTRY[name]
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game)
    for factory in game.bots().values():
        pickle.loads(pickle.dumps(factory))


@pytest.mark.parametrize("name", GAMES)
def test_a_host_clock_is_declared_by_the_game_and_is_its_time_limit_rules_option(
    name: str,
) -> None:
    game = REGISTRY[name]
    options = {o.name: o for o in option_info(game.rules_type)}
    assert has_host_clock(game) == game.spec.host_clock
    if game.spec.host_clock:  # (a game's own time_limit may be something else: chairs' map time)
        assert options[HOST_CLOCK].type.startswith(("float", "int"))


@pytest.mark.parametrize("name", GAMES)
def test_the_board_the_game_names_is_a_module_of_the_web_page(name: str) -> None:
    board = REGISTRY[name].spec.board
    module = (BOARDS / f"{board}.js").read_text(encoding="utf-8")
    assert f"customElements.define('dennou-board-{board}'" in module
