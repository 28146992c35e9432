"""Every dennou game as a learning environment: PettingZoo, Gymnasium and OpenSpiel.

Install with ``pip install 'dennou[rl]'``, then::

    import dennou.rl
    env = dennou.rl.env("numeron", digits=4)             # PettingZoo AEC, agents seat_0..
    par = dennou.rl.parallel_env("pandemic", players=6)  # PettingZoo Parallel
    import gymnasium
    gym = gymnasium.make("dennou/Smuggling-v0", opponents="greedy", seat=0, team_size=1)

See ``docs/rl.md`` for each game's observation layout and action numbering.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dennou.core.encoding import Block, Encoding, Field, NotEncodable
from dennou.rl.table import IllegalActionNumber, Table, encoding_for, games

if TYPE_CHECKING:
    from dennou.rl.gym import DennouGym
    from dennou.rl.pz import DennouAEC, DennouParallel

__all__ = [
    "Block",
    "DennouAEC",
    "DennouGym",
    "DennouParallel",
    "Encoding",
    "Field",
    "IllegalActionNumber",
    "NotEncodable",
    "Table",
    "encoding_for",
    "env",
    "games",
    "gym_id",
    "parallel_env",
    "raw_env",
]

_ENV_KEYS = ("players", "reward", "illegal", "max_cycles", "talk", "seed")


def __getattr__(name: str) -> Any:
    # PettingZoo and Gymnasium load on first use: a trained policy (dennou.rl.policy) plays
    # with NumPy alone.
    if name in ("DennouAEC", "DennouParallel"):
        from dennou.rl import pz

        return getattr(pz, name)
    if name in ("DennouGym", "gym_id"):
        from dennou.rl import gym

        return getattr(gym, name)
    raise AttributeError(name)


def _split(kwargs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    env_kw = {k: kwargs.pop(k) for k in _ENV_KEYS if k in kwargs}
    return env_kw, kwargs


def raw_env(name: str, render_mode: str | None = None, **kwargs: Any) -> DennouAEC:
    """The AEC environment of game ``name`` (see :func:`env`)."""
    from dennou.rl.pz import DennouAEC

    env_kw, rules = _split(dict(kwargs))
    return DennouAEC(name, render_mode=render_mode, rules=rules, **env_kw)


def env(name: str, render_mode: str | None = None, **kwargs: Any) -> DennouAEC:
    """Game ``name`` as a PettingZoo AEC environment.

    Args:
        name: The game (``numeron``, ``stud10``, ``hilo``, ``smuggling``, ``pandemic``,
            ``chairs``; :func:`games` lists them).
        render_mode: ``"ansi"``: ``render()`` returns the acting seat's view in words (as
            ``dennou play`` shows it); ``"human"``: each step prints it.
        **kwargs: The game's rules options (``games=1``, ``digits=4``), and the env's own:
            ``players`` (seats), ``reward`` (``score``/``rank``/``team``), ``illegal``
            (``default``/``raise``), ``max_cycles``, ``talk`` (talk lines in ``infos``),
            ``seed`` (for resets without a seed).
    """
    return raw_env(name, render_mode=render_mode, **kwargs)


def parallel_env(name: str, render_mode: str | None = None, **kwargs: Any) -> DennouParallel:
    """Game ``name`` as a PettingZoo Parallel environment (same arguments as :func:`env`).

    At each step every seat due to act sends an action number: all of them in a sealed
    simultaneous step (Numeron's setup, Smuggling's nominations and room, every Pandemic tick,
    Musical Chairs' free phase, go and vote), one in a turn-based step (the others' numbers are
    ignored; their action mask is all zeros). For turn-based games PettingZoo's own
    ``turn_based_aec_to_parallel(env(name))`` works as well.
    """
    from dennou.rl.pz import DennouParallel

    env_kw, rules = _split(dict(kwargs))
    return DennouParallel(name, render_mode=render_mode, rules=rules, **env_kw)


try:  # register the Gymnasium ids when Gymnasium is installed (the rl extra)
    from dennou.rl.gym import register_all
except ImportError:  # pragma: no cover - NumPy-only installs still run trained policies
    pass
else:
    register_all()
