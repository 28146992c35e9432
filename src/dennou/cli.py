"""The ``dennou`` command: list games, run matches, replay records, play in the terminal."""

from __future__ import annotations

import json
import random
import re
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from dennou.arena.bots import available_bots
from dennou.arena.entrants import make_entrant_bot
from dennou.arena.human import HumanBot, QuitGame
from dennou.arena.match import (
    is_team_match,
    mean_length,
    rotating_teams,
    run_match,
    summarize,
)
from dennou.arena.play import GameRun
from dennou.arena.seating import seat_players, split_specs
from dennou.core import record as records
from dennou.core.bot import Bot
from dennou.core.errors import ConfigError
from dennou.core.game import Game
from dennou.core.options import option_info
from dennou.games import REGISTRY, get
from dennou.server.cli import bot_run, click_command, command_line, run_command_line, serve
from dennou.uecda.cli import uecda_client, uecda_serve

app = command_line()
console = Console(width=None if sys.stdout.isatty() else 120)

RulesOpt = Annotated[
    list[str] | None,
    typer.Option("--rules", "-r", help="a rules option key=value (repeatable)"),
]


def parse_rules_args(game: Game[Any, Any], pairs: Sequence[str] | None) -> Any:
    """Build a game's rules from ``key=value`` strings.

    Raises:
        ConfigError: A pair without ``=``, an unknown option or a bad value.
    """
    options: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--rules wants key=value, got {pair!r}")
        options[key.strip()] = value.strip()
    return game.make_rules(options)


@app.command("games")
def games_command(
    name: Annotated[str | None, typer.Argument(help="show one game only")] = None,
) -> None:
    """List the games; with a NAME, its rules options (type, range, default) and bots' options."""
    if name is None:
        summary = Table(title="games", title_justify="left")
        for col in ("game", "title", "players", "bots"):
            summary.add_column(col)
        for game_name in REGISTRY:
            game = get(game_name)
            bots = ", ".join(available_bots(game)) if game.spec.decisions else "(no decisions)"
            summary.add_row(game_name, game.spec.title, _players(game), bots)
        console.print(summary)
        console.print(
            "`dennou games GAME` lists a game's rules options and its bots' options.",
            highlight=False,
            markup=False,
        )
        return
    # the host's clock rule, loaded here: the other commands start without the host's store
    from dennou.server.limits import Limits
    from dennou.server.lobby import HOST_CLOCK, game_clock, has_host_clock

    for game_name in [name]:
        game = get(game_name)
        spec = game.spec
        table = Table(
            title=f"{spec.name} — {spec.title} — {_players(game)} players", title_justify="left"
        )
        for col in ("option", "type", "range", "default", "meaning"):
            table.add_column(col)
        clocked = has_host_clock(game)
        for opt in option_info(game.rules_type):
            if clocked and opt.name == HOST_CLOCK:
                continue  # the clock is the table's option, not a rules one (below)
            shown = _value(opt.default)
            table.add_row(opt.name, opt.type, opt.range or "-", shown, _plain(opt.description))
        console.print(table)
        if clocked:
            console.print(
                f"  clock: not a rules option: the table's clock (options.time_limit on the host),"
                f" default {game_clock(game, Limits()):g} s per decision",
                highlight=False,
                markup=False,
                soft_wrap=True,
            )
        if not spec.decisions:
            console.print(
                f"  no decisions: in {spec.name} chance decides everything and the players only"
                f" watch, so bots make no difference. Watch a game with `dennou play {spec.name}"
                " --vs random`"
                + (
                    f", or see the odds with `dennou odds {spec.name} --players ...`."
                    if spec.name == "stud10"
                    else "."
                ),
                highlight=False,
                markup=False,
            )
        else:
            console.print(_bots_table(game))
        console.print()


def _players(game: Game[Any, Any]) -> str:
    """How many play a game: ``2``, or ``2-10 (default 5)``."""
    spec = game.spec
    if spec.min_players == spec.max_players:
        return str(spec.min_players)
    default = game.default_players(game.make_rules())
    return f"{spec.min_players}-{spec.max_players} (default {default})"


_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
_LITERAL = re.compile(r"``([^`]+)``")


def _plain(text: str) -> str:
    """A docstring's text for a terminal: ``code`` and :role:`Name` markup as plain words."""
    text = _ROLE.sub(lambda m: m.group(1).rsplit(".", 1)[-1], text)
    return _LITERAL.sub(r"\1", text)


def _value(value: Any) -> str:
    """A default as it is typed on the command line (``--rules key=value``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple | list):
        return ",".join(_value(v) for v in value)
    return str(value)


def _bots_table(game: Game[Any, Any]) -> Table:
    table = Table(
        title=f"{game.spec.name} bots (options: --bots name:key=value:key=value)",
        title_justify="left",
    )
    for col in ("bot", "option", "type", "range", "default", "meaning"):
        table.add_column(col)
    for bot, factory in available_bots(game).items():
        options = option_info(factory)
        if not options:
            table.add_row(bot, "(none)", "", "", "", "")
        for i, opt in enumerate(options):
            table.add_row(
                bot if i == 0 else "",
                opt.name,
                opt.type,
                opt.range or "-",
                _value(opt.default),
                _plain(opt.description),
            )
    return table


@app.command("match")
def match_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game name")],
    bots: Annotated[
        str,
        typer.Option(
            help="comma-separated bot specs (name:key=value, or cmd:./program args for a "
            "program over the engine bridge); seats beyond them are filled from the same bots "
            "in turn"
        ),
    ],
    players: Annotated[
        int | None,
        typer.Option(help="players per game (default: the game's default for its rules)"),
    ] = None,
    games: Annotated[int, typer.Option(min=1, help="number of games")] = 10,
    seed: Annotated[int, typer.Option(help="master seed (game i uses seed + i)")] = 0,
    rules: RulesOpt = None,
    out: Annotated[Path | None, typer.Option(help="write the records (JSON lines)")] = None,
    time_limit: Annotated[
        float | None, typer.Option(help="seconds per decision; slower = timeout")
    ] = None,
    rotate: Annotated[bool, typer.Option(help="rotate bots through the seats")] = True,
    as_json: Annotated[
        bool, typer.Option("--json", help="print the results as JSON (progress goes to stderr)")
    ] = False,
) -> None:
    """Play GAME between bots and print results with 95% confidence intervals.

    Seats: the bots named, then the same bots again in turn up to --players (or the game's
    default number of players); each bot is named <bot>#<seat>. Ctrl-C stops early and prints
    the results of the games finished.
    """
    game = get(game_name)
    config = parse_rules_args(game, rules)
    seating = seat_players(game, config, split_specs(bots), players)
    specs = [s for s in seating.specs if s is not None]
    for spec in dict.fromkeys(specs):
        make_entrant_bot(game, spec)  # fail early on a bad spec
    info = Console(stderr=True, width=console.width) if as_json else console
    teams = rotating_teams(game, config, len(specs))
    note = ""
    if rotate and len(set(specs)) > 1:
        note = "; whole teams rotate each game" if teams else "; bots rotate one seat each game"
    if seating.by_team:
        note += "; each bot named fills a team"
    elif seating.filled:
        note += (
            f"; {seating.filled} seats filled from the bots named, in turn"
            " (--players for another count)"
        )
    info.print(f"{seating.describe()}{note}", highlight=False, markup=False, soft_wrap=True)
    if out is not None:
        out.write_text("", encoding="utf-8")
    played: list[records.Record] = []
    interrupted = False
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=info,
        transient=True,
    ) as progress:
        task = progress.add_task(f"{game_name}", total=games)

        def done(i: int, rec: records.Record) -> None:
            # A Ctrl-C here would leave the file and the table disagreeing (or half a line).
            with interrupts_deferred():
                if out is not None:
                    records.write(out, [rec], append=True)
                played.append(rec)
            progress.advance(task)

        try:
            run_match(
                game,
                config,
                specs,
                games,
                seed,
                rotate=rotate,
                time_limit=time_limit,
                on_game=done,
            )
        except KeyboardInterrupt:
            interrupted = True
    if interrupted:
        info.print(f"interrupted: {len(played)} of {games} games finished", highlight=False)
    if as_json:
        print(json.dumps(match_json(game, played, games, interrupted), ensure_ascii=False))
    elif played:
        print_match(game, played)
    if out is not None:
        info.print(f"records written to {out}")
    if interrupted:
        raise typer.Exit(130)


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) back until the block is done, then raise it.

    Masking the signal would not do: the kernel may hand it to another thread (rich's refresh
    thread), and Python still raises it in the main thread at once.
    """
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield  # Ctrl-C ignored (run in the background) or handled by someone else
        return
    pending: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, _frame: pending.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if pending:
        raise KeyboardInterrupt


DEFAULTS_NOTE = (
    "defaults: moves the arena made for a bot (the rules' default) when it raised, moved illegally"
    " or ran over --time-limit"
)


TEAM_NOTE = "W/D/L: each seat's team's result (a team game); score: the seat's own"


def print_match(game: Game[Any, Any], played: Sequence[records.Record]) -> None:
    """Print the table of a match, and what its ``defaults`` column counts."""
    table = Table(
        title=f"{game.spec.name}: {_count(len(played), 'game')}, "
        f"mean length {mean_length(played):.1f} steps",
        title_justify="left",
    )
    # a long bot spec wraps in its own column rather than squeezing the numbers out
    table.add_column("bot", overflow="fold", ratio=1)
    for col in ("seats", "W", "D", "L", "win rate [95% CI]", "score ± 95% CI"):
        table.add_column(col, justify="right", no_wrap=True)
    for col in ("ms mean", "ms max", "defaults"):
        table.add_column(col, justify="right", no_wrap=True)
    stats = summarize(played)
    for st in stats:
        p, lo, hi = st.win_interval()
        mean, half = st.score_interval()
        ms = st.decision_ms
        table.add_row(
            st.spec,
            str(st.games),
            str(st.wins),
            str(st.draws),
            str(st.losses),
            f"{p:.3f} [{lo:.3f}, {hi:.3f}]",
            f"{mean:.3f} ± {half:.3f}" if len(st.scores) > 1 else f"{mean:.3f} ± -",
            f"{sum(ms) / len(ms):.2f}" if ms else "-",
            f"{max(ms):.1f}" if ms else "-",
            str(st.defaults),
        )
    console.print(table)
    reasons = [
        f"{st.spec}: " + ", ".join(f"{n} {why}" for why, n in sorted(st.default_reasons.items()))
        for st in stats
        if st.defaults
    ]
    console.print(DEFAULTS_NOTE + (f" ({'; '.join(reasons)})" if reasons else ""), highlight=False)
    if is_team_match(played):
        console.print(TEAM_NOTE, highlight=False)


def _count(n: int, noun: str) -> str:
    """``1 game``, ``2 games``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def match_json(
    game: Game[Any, Any], played: Sequence[records.Record], total: int, interrupted: bool
) -> dict[str, Any]:
    """The results of a match as JSON (what ``match --json`` prints)."""
    bots = []
    for st in summarize(played):
        p, lo, hi = st.win_interval()
        mean, half = st.score_interval()
        ms = st.decision_ms
        bots.append(
            {
                "bot": st.spec,
                "seats": st.games,
                "wins": st.wins,
                "draws": st.draws,
                "losses": st.losses,
                "win_rate": p,
                "win_rate_ci95": [lo, hi],
                "score_mean": mean,
                "score_ci95_half_width": half,
                "ms_mean": sum(ms) / len(ms) if ms else None,
                "ms_max": max(ms) if ms else None,
                "defaults": st.defaults,
                "default_reasons": dict(st.default_reasons),
            }
        )
    return {
        "game": game.spec.name,
        "games": len(played),
        "games_asked": total,
        "interrupted": interrupted,
        "mean_length": mean_length(played),
        "bots": bots,
        "defaults_note": DEFAULTS_NOTE,
        "team_results": is_team_match(played),
    }


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="a record file")],
    seat: Annotated[
        int | None, typer.Option(help="show what this seat saw (default: a spectator)")
    ] = None,
    index: Annotated[
        int | None, typer.Option("--game", help="only the record at this index (0-based)")
    ] = None,
    everything: Annotated[
        bool, typer.Option("--all", help="show every event, hidden ones included")
    ] = False,
) -> None:
    """Print a recorded game step by step as a seat (or a spectator) saw it."""
    recs = records.read(file)
    if index is not None:
        if not 0 <= index < len(recs):
            raise ConfigError(f"{file} holds {len(recs)} records; --game {index} is out of range")
        recs = [recs[index]]
    for rec in recs:
        game = get(rec.game)
        who = "everything" if everything else (f"seat {seat}" if seat is not None else "spectator")
        if seat is not None and not 0 <= seat < len(rec.players):
            raise ConfigError(f"--seat must be 0-{len(rec.players) - 1}")
        console.rule(f"{rec.game}: {', '.join(rec.players)} — as {who}")
        last = None
        for frame in records.replay(rec, game):
            last = frame.state
            for event in frame.events:
                if everything or event.visible_to(seat):
                    console.print(f"[dim]{frame.index:>4}[/dim] {event.text}", highlight=False)
        if last is not None and game.is_over(last):
            print_outcome(game, last, rec.players)


def print_outcome(game: Game[Any, Any], state: Any, players: Sequence[str]) -> None:
    """Print the scores and ranks of a finished game."""
    outcome = game.outcome(state)
    table = Table(title="result", title_justify="left")
    for col in ("rank", "player", "score"):
        table.add_column(col)
    for seat in sorted(range(len(players)), key=lambda s: outcome.ranks[s]):
        table.add_row(str(outcome.ranks[seat]), players[seat], f"{outcome.scores[seat]:g}")
    console.print(table)
    if outcome.teams:
        console.print("teams: " + ", ".join(f"{k}: {v:g}" for k, v in outcome.teams.items()))


@app.command("play")
def play_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game name")],
    vs: Annotated[
        str,
        typer.Option(
            help="comma-separated bots for the other seats; seats beyond them are filled from "
            "the same bots in turn"
        ),
    ] = "random",
    seat: Annotated[int, typer.Option(help="your seat (0-based)")] = 0,
    players: Annotated[
        int | None,
        typer.Option(help="players (default: the game's default for its rules)"),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="seed (default: random)")] = None,
    rules: RulesOpt = None,
    name: Annotated[
        str, typer.Option(help="your name (the game's texts say `NAME plays`...)")
    ] = "human",
    out: Annotated[
        Path | None, typer.Option(help="write the record here (also of a game you quit)")
    ] = None,
) -> None:
    """Play GAME in the terminal against bots (`help` at the prompt explains)."""
    game = get(game_name)
    config = parse_rules_args(game, rules)
    seating = seat_players(game, config, split_specs(vs), players, person=seat, person_name=name)
    human = HumanBot(game, read=_read_line, write=_write_plain)
    bots: list[Bot] = [human if s is None else make_entrant_bot(game, s) for s in seating.specs]
    seed = seed if seed is not None else random.randrange(2**31)
    console.print(
        f"{game.spec.title}: you are seat {seat} ({name}); seed {seed}. `help` for help.",
        highlight=False,
        markup=False,
    )
    console.print(seating.describe(), highlight=False, markup=False, soft_wrap=True)
    if not game.spec.decisions:
        console.print(f"{game.spec.name} has no decisions: you watch the game.", highlight=False)
    run = GameRun(game, config, bots, seed, players=seating.names, meta={"human_seat": seat})
    try:
        rec = run.play()
    except (QuitGame, KeyboardInterrupt):
        rec = run.record
        rec.meta["quit"] = True
        console.print(f"bye: you left after {len(rec.steps)} steps, before the end")
        if out is not None:
            records.write(out, [rec])
            console.print(f"the game so far is written to {out} (`dennou replay` shows it)")
        raise typer.Exit(0) from None
    final = records.final_state(rec, game)
    human.show(game.view(final, seat))
    print_outcome(game, final, rec.players)
    if out is not None:
        records.write(out, [rec])
        console.print(f"record written to {out}")


@app.command("odds")
def odds_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="stud10")],
    players: Annotated[
        str,
        typer.Option(help='face-up cards per player (5 to 10 each), "|" between players'),
    ],
    samples: Annotated[int, typer.Option(min=1, help="Monte Carlo deals if not exact")] = 100_000,
    seed: Annotated[int, typer.Option(help="Monte Carlo seed")] = 0,
) -> None:
    """Each player's chance of winning from the face-up cards alone (exact or Monte Carlo).

    e.g. dennou odds stud10 --players "As Kd Qh Jc 9s|7c 7d 2s 2h 3d"
    """
    if game_name != "stud10":
        raise ConfigError(f"odds are computed for stud10 only, not {game_name!r}")
    from dennou.games.stud10.odds import odds_command as compute

    try:
        text = compute(players, samples, seed)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    console.print(text, highlight=False)


def _read_line(prompt: str) -> str:
    console.print(prompt, end="", markup=False)
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line


def _write_plain(text: str) -> None:
    console.print(text, highlight=False, markup=False)


# --- tournaments and leaderboards ----------------------------------------------------------------
@app.command("tournament")
def tournament_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game name")],
    entrants: Annotated[
        str,
        typer.Option(
            help="comma-separated entrants: bot specs, module:Class, cmd:./program args "
            "(the engine bridge), name=spec, @account"
        ),
    ] = "",
    fmt: Annotated[str, typer.Option("--format", help="round-robin or swiss")] = "round-robin",
    games: Annotated[
        int | None, typer.Option(min=1, help="at least this many matches (whole rounds)")
    ] = None,
    rounds: Annotated[int | None, typer.Option(min=1, help="rounds (instead of --games)")] = None,
    seats: Annotated[int | None, typer.Option(min=1, help="players per match")] = None,
    duplicate: Annotated[
        bool, typer.Option("--duplicate", help="replay each deal with the seats rotated")
    ] = False,
    seed: Annotated[int, typer.Option(help="master seed")] = 0,
    rules: RulesOpt = None,
    time_limit: Annotated[
        float | None, typer.Option(help="seconds per decision; slower = timeout")
    ] = None,
    workers: Annotated[
        int | None, typer.Option(min=1, help="worker processes (default: every core)")
    ] = None,
    ray: Annotated[
        bool, typer.Option("--ray", help="run on Ray (RAY_ADDRESS, else a local Ray)")
    ] = False,
    out: Annotated[
        Path | None, typer.Option(help="tournament directory: records, standings; resumable")
    ] = None,
    server: Annotated[
        str | None, typer.Option(help="run it on a dennou host (http://host:port) instead")
    ] = None,
    token: Annotated[str, typer.Option(help="host: the owner's token", envvar="DENNOU_TOKEN")] = "",
    watch: Annotated[
        str | None, typer.Option(help="host: follow this tournament id instead of creating one")
    ] = None,
    tables: Annotated[int, typer.Option(min=1, max=64, help="host: tables at once")] = 2,
    absent_grace: Annotated[
        float, typer.Option(min=0, help="host: seconds a remote entrant may be away")
    ] = 10.0,
    start_in: Annotated[
        float | None,
        typer.Option(
            min=0,
            help="host: start this many seconds from now even if some invited entrants have not "
            "accepted (they play as absent); default: wait for all",
        ),
    ] = None,
) -> None:
    """Run a tournament between bots (or on a host, with remote programs too)."""
    from dennou.arena.entrants import parse_entrants
    from dennou.arena.runners import make_runner
    from dennou.arena.tournament import Progress as TourProgress
    from dennou.arena.tournament import Tournament, make_config

    game = get(game_name)
    if not entrants.strip() and not (server is not None and watch is not None):
        raise ConfigError("--entrants is needed (e.g. --entrants greedy,random,mc=montecarlo)")
    if server is not None:
        host_options = {"tables": tables, "absent_grace": absent_grace, "time_limit": time_limit}
        if start_in is not None:
            import time

            host_options["start_at"] = time.time() + start_in
        if seed != 0 or workers is not None or ray or out is not None:
            raise ConfigError(
                "on a host the server draws the seed and plays the games: drop --seed, "
                "--workers, --ray and --out"
            )
        body = {
            "game": game_name,
            "entrants": [e.strip() for e in entrants.split(",")],
            "rules": dict(r.split("=", 1) for r in rules or [] if "=" in r),
            "format": fmt,
            "seats": seats,
            "games": games,
            "rounds": rounds,
            "duplicate": duplicate,
            "options": host_options,
            "start": True,
        }
        host_tournament(server, token, body, watch)
        return
    config = make_config(
        game,
        parse_entrants(entrants),
        fmt=fmt,
        seats=seats,
        games=games,
        rounds=rounds,
        duplicate=duplicate,
        seed=seed,
        rules=parse_rules_args(game, rules),
        time_limit=time_limit,
    )
    with Tournament(config, out, game) as tour:
        if tour.results:
            console.print(f"resuming {out}: {len(tour.results)} of {tour.total} matches finished")
        with (
            make_runner(workers, ray=ray) as runner,
            tournament_progress() as progress,
        ):
            task = progress.add_task(
                f"{game_name} {config.format}", total=tour.total, leader="", completed=0
            )

            def show(p: TourProgress) -> None:
                lead = f"leader: {p.leader[0]} ({p.leader[1]:g})" if p.leader else ""
                progress.update(task, completed=p.done, leader=lead)

            summary = tour.run(runner, show)
    print_tournament(config.game, summary)
    if out is not None:
        console.print(f"records, standings (CSV, JSON) and ratings in {out}/")


def tournament_progress() -> Progress:
    """A progress bar of matches done, time, ETA and the live leader."""
    from rich.progress import TimeRemainingColumn

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[leader]}"),
        console=console,
        transient=True,
    )


def host_tournament(server: str, token: str, body: dict[str, Any], watch: str | None) -> None:
    """Create a tournament on a host (unless ``watch`` names one) and follow its standings."""
    from dennou.client.tournament import create_tournament, watch_tournament
    from dennou.client.urls import host_urls

    server = host_urls(server).http
    if watch is None:
        if not token:
            raise ConfigError("a host tournament needs its owner's token (--token or DENNOU_TOKEN)")
        info = create_tournament(server, token, body)
        tid = info["id"]
        console.print(f"tournament {tid} on {server}: {info['matches']} matches, {info['status']}")
        if any(e["spec"].startswith("@") for e in info["entrants"]):
            console.print(
                f"remote entrants accept and play with: dennou bot run BOT --tournament {tid} "
                f"--server {server.rstrip('/').replace('http', 'ws', 1)}/ws --token THEIR_TOKEN"
            )
        waiting = sorted(a for a, s in info.get("invitations", {}).items() if s != "accepted")
        if waiting:
            console.print(
                f"it starts when every invited entrant has accepted; waiting for: "
                f"{', '.join(waiting)}"
            )
    else:
        tid = watch
    with tournament_progress() as progress:
        task = progress.add_task(f"{tid}", total=None, leader="")

        def show(data: dict[str, Any]) -> None:
            top = data["standings"][0] if data["finished"] else None
            lead = f"leader: {top['name']} ({top['points']:g})" if top else ""
            waiting = sorted(a for a, s in data.get("invitations", {}).items() if s != "accepted")
            if data["status"] == "created" and waiting:
                lead = f"waiting for: {', '.join(waiting)}"
            progress.update(task, total=data["matches"], completed=data["finished"], leader=lead)

        summary = watch_tournament(server, tid, show)
    print_tournament(summary["game"], summary)
    console.print(f"{summary['status']}; seed {summary['seed']} (published by the host)")


def print_tournament(game_name: str, summary: dict[str, Any]) -> None:
    """Print a tournament's standings (and its pairwise table for a few entrants)."""
    swiss = summary["format"] == "swiss"
    table = Table(
        title=f"{game_name}: {summary['finished']} matches, {summary['format']}"
        + (", duplicate deals" if summary["duplicate"] else "")
        + f", seed {summary['seed']}",
        title_justify="left",
    )
    cols = ["#", "entrant", "games", "W", "D", "L", "points", "mean ± 95% CI"]
    cols += ["match pts"] if swiss else []
    cols += ["μ", "σ", "ordinal", "defaults"]
    for col in cols:
        table.add_column(col, justify="left" if col == "entrant" else "right", no_wrap=True)
    for row in summary["standings"]:
        cells = [str(row["rank"]), row["name"], str(row["games"]), str(row["wins"])]
        cells += [str(row["draws"]), str(row["losses"]), f"{row['points']:g}"]
        cells += [f"{row['mean']:.3f} ± {row['ci95']:.3f}"]
        cells += [f"{row['match_points']:g}"] if swiss else []
        cells += [f"{row['mu']:.2f}", f"{row['sigma']:.2f}", f"{row['ordinal']:.2f}"]
        cells += [str(row["defaults"])]
        table.add_row(*cells)
    console.print(table)
    names = [row["name"] for row in summary["standings"]]
    if 2 < len(names) <= 8:
        pair = Table(title="pairwise: W-D-L of the row against the column", title_justify="left")
        pair.add_column("")
        for name in names:
            pair.add_column(name, justify="right", no_wrap=True)
        cells_of = {(p["entrant"], p["opponent"]): p for p in summary["pairwise"]}
        for a in names:
            row_cells = [a]
            for b in names:
                p = cells_of.get((a, b))
                row_cells.append("" if p is None else f"{p['wins']}-{p['draws']}-{p['losses']}")
            pair.add_row(*row_cells)
        console.print(pair)


@app.command("leaderboard")
def leaderboard_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game name")],
    dirs: Annotated[
        list[Path] | None, typer.Argument(help="tournament directories to rate (local)")
    ] = None,
    server: Annotated[
        str | None, typer.Option(help="a dennou host (http://host:port): its leaderboard")
    ] = None,
    preset: Annotated[
        str | None, typer.Option(help="rules preset on the host (default: every preset)")
    ] = None,
) -> None:
    """Ratings of GAME: from a host (--server), or over local tournament directories."""
    from dennou.arena.leaderboard import local_leaderboard, server_leaderboard

    get(game_name)
    if server is not None:
        boards = server_leaderboard(server, game_name, preset)
    elif dirs:
        boards = local_leaderboard(game_name, dirs)
    else:
        raise ConfigError("give tournament directories, or --server URL for a host's leaderboard")
    for board in boards:
        table = Table(title=f"{game_name} leaderboard — {board['preset']}", title_justify="left")
        for col in ("#", "player", "ordinal", "μ", "σ", "games"):
            table.add_column(col, justify="left" if col == "player" else "right", no_wrap=True)
        for i, row in enumerate(board["ratings"], 1):
            table.add_row(
                str(i),
                row["name"],
                f"{row['ordinal']:.2f}",
                f"{row['mu']:.2f}",
                f"{row['sigma']:.2f}",
                str(row["games"]),
            )
        console.print(table)
    if not boards:
        console.print(f"no rated {game_name} games yet")


app.command("serve")(serve)


@app.command("warm")
def warm_command(
    names: Annotated[list[str] | None, typer.Argument(help="games (default: every game)")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="print nothing")] = False,
) -> None:
    """Compile every game's and bot's native code now, so no first decision waits for it."""
    from dennou.arena.warmup import warm

    try:
        games = [get(n) for n in names or sorted(REGISTRY)]
    except ConfigError as exc:
        raise typer.BadParameter(exc.message, param_hint="NAMES") from None

    def report(name: str, taken: dict[str, float]) -> None:
        if not quiet:
            parts = ", ".join(f"{k} {v:.2f} s" for k, v in taken.items())
            console.print(f"{name}: {parts}", highlight=False)

    warm(games, report)


app.command("uecda-serve")(uecda_serve)
app.command("uecda-client")(uecda_client)
bot_app = typer.Typer(help="Run a bot against a dennou server.", no_args_is_help=True)
bot_app.command("run")(bot_run)
app.add_typer(bot_app, name="bot")
cluster_app = typer.Typer(help="Many host processes, one site.", no_args_is_help=True)


@cluster_app.command("up")
def cluster_up_command(
    processes: Annotated[int, typer.Option(min=1, max=64, help="host processes")] = 3,
    host: Annotated[str, typer.Option(help="interface the host processes listen on")] = (
        "127.0.0.1"
    ),
    port: Annotated[
        int, typer.Option(min=1, max=65535, help="the first process's port (then +1, +2...)")
    ] = 8000,
    data_dir: Annotated[
        Path, typer.Option(help="logs, and the database and broker this command starts")
    ] = Path("./data/cluster"),
    db: Annotated[
        str | None, typer.Option(help="a running PostgreSQL (default: start one on loopback)")
    ] = None,
    broker: Annotated[
        str | None, typer.Option(help="a running Redis (default: start one on loopback)")
    ] = None,
    pg_port: Annotated[int, typer.Option(help="port of the PostgreSQL it starts")] = 55433,
    redis_port: Annotated[int, typer.Option(help="port of the Redis it starts")] = 56380,
    pg_dir: Annotated[
        Path | None,
        typer.Option(help="data of the PostgreSQL it starts (default: under --data-dir)"),
    ] = None,
    bot_processes: Annotated[
        int,
        typer.Option(
            min=0, max=64, help="bot processes (`cluster bots`): the hosts think no bot then"
        ),
    ] = 0,
    bot_workers: Annotated[
        int, typer.Option(min=1, max=256, help="worker processes of each bot process")
    ] = 2,
) -> None:
    """Run a site here: PostgreSQL, Redis and N `dennou serve` processes (Ctrl-C stops)."""
    from dennou.server.cluster.up import cluster_up

    cluster_up(
        processes,
        host=host,
        port=port,
        data_dir=data_dir,
        db=db,
        broker=broker,
        pg_port=pg_port,
        redis_port=redis_port,
        pg_dir=pg_dir,
        bot_processes=bot_processes,
        bot_workers=bot_workers,
    )


@cluster_app.command("bots")
def cluster_bots_command(
    broker: Annotated[
        str,
        typer.Option(help="the site's Redis (redis://host:port/0)", envvar="DENNOU_BROKER"),
    ],
    site: Annotated[
        str, typer.Option(help="the site's name (as its hosts' --site)", envvar="DENNOU_SITE")
    ] = "dennou",
    workers: Annotated[
        int, typer.Option(min=1, max=256, help="worker processes (decisions thought at once)")
    ] = 2,
    limit: Annotated[
        list[str] | None,
        typer.Option(help="bot_seconds_per_minute=S, bot_overrun_grace=S (as the hosts')"),
    ] = None,
) -> None:
    """Think the built-in bots of a site whose hosts run `serve --remote-bots` (Ctrl-C stops)."""
    import asyncio

    from dennou.server.cluster.bots import BotFarm
    from dennou.server.limits import parse_limits

    try:
        limits = parse_limits(list(limit or []))
    except ConfigError as exc:
        raise typer.BadParameter(exc.message, param_hint="--limit") from None

    def log(text: str) -> None:
        print(f"dennou: {text}", file=sys.stderr, flush=True)

    farm = BotFarm(
        broker,
        site,
        workers,
        log,
        seconds_per_minute=limits.bot_seconds_per_minute,
        overrun_grace=limits.bot_overrun_grace,
    )
    with suppress(KeyboardInterrupt):
        asyncio.run(farm.run())


app.add_typer(cluster_app, name="cluster")


def main() -> None:
    """Entry point: run the app; an error is one line on stderr (exit code 2), not a traceback."""
    run_command_line(app)


def command() -> Any:
    """The ``dennou`` command as click runs it (:func:`dennou.server.cli.click_command`)."""
    return click_command(app)
