"""The host starts on what it needs: bot solvers, migrations and compilers load with their use."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dennou.arena.bots import available_bots, make_bot, resolve_bot
from dennou.games import get
from dennou.store import Store, database_url
from dennou.store.store import MIGRATIONS, newest_migration

ROOT = Path(__file__).resolve().parents[2]


def loaded(code: str, modules: tuple[str, ...]) -> list[str]:
    """Which of ``modules`` a new interpreter has imported after running ``code``."""
    probe = f"import sys\n{code}\nprint([m for m in {modules!r} if m in sys.modules])"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    return list(eval(out.stdout.strip().splitlines()[-1]))


def test_the_host_imports_no_bot_solver_migration_tool_or_compiler_before_it_runs() -> None:
    heavy = ("scipy", "alembic", "mako", "numba", "dennou.games.numeron")
    code = "import dennou.server.app, dennou.server.cli, dennou.server.hub, dennou.store"
    assert loaded(code, heavy) == []


def test_listing_every_games_bots_loads_none_of_the_bots_that_need_a_solver() -> None:
    # The lobby's game list (every game with its bots' names) loads the games, not their search
    # bots: the LP solver and Numeron's compiled solvers come with the first such bot (Numba,
    # which Daifugo's engine uses, imports SciPy's package but not its solvers).
    heavy = (
        "scipy.optimize",
        "dennou.games.numeron.solver",
        "dennou.games.numeron.race",
        "dennou.games.numeron.optimum",
    )
    code = (
        "from dennou.arena.bots import available_bots\n"
        "from dennou.games import REGISTRY\n"
        "names = {g: sorted(available_bots(REGISTRY[g])) for g in REGISTRY}\n"
        "assert 'optimal' in names['numeron'] and 'equilibrium' in names['smuggling'], names"
    )
    assert loaded(code, heavy) == []


def test_a_bot_listed_by_name_is_imported_and_built_when_asked_for() -> None:
    numeron = get("numeron")
    bots = available_bots(numeron)
    assert list(bots)[:2] == ["random", "policy"]
    assert {"solver", "optimal", "race"} <= set(bots)
    factory, options = resolve_bot(numeron, "solver")
    assert factory is bots["solver"] and options == {}
    assert type(make_bot(numeron, "optimal")).__name__ == "OptimalBot"
    assert type(make_bot(get("smuggling"), "equilibrium")).__name__ == "EquilibriumBot"


def test_building_a_built_in_bot_starts_no_program_machinery() -> None:
    # The engine bridge (subprocess, logging, shell quoting) is for `cmd:` bots only.
    code = (
        "from dennou.arena.bots import make_bot\n"
        "from dennou.games import get\n"
        "make_bot(get('hilo'), 'bayes')"
    )
    assert loaded(code, ("dennou.arena.bridge",)) == []


def test_reopening_a_store_at_the_newest_migration_imports_no_migration_tool(
    tmp_path: Path,
) -> None:
    url = database_url(None, tmp_path)
    Store(url).close()  # a new database: migrated when it opens
    code = f"from dennou.store import Store\nStore({url!r}).close()"
    assert loaded(code, ("alembic",)) == []


def test_the_newest_migration_read_from_the_files_is_alembics_head() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    assert newest_migration() == ScriptDirectory.from_config(cfg).get_current_head()
