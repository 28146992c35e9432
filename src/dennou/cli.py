"""The ``dennou`` command: list games, run matches, replay records, play in the terminal."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence
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

from dennou.arena.bots import available_bots, make_bot
from dennou.arena.human import HumanBot, QuitGame
from dennou.arena.match import mean_length, run_match, summarize
from dennou.arena.play import GameRun
from dennou.arena.seating import seat_players, split_specs
from dennou.core import record as records
from dennou.core.bot import Bot
from dennou.core.errors import ConfigError, DennouError
from dennou.core.game import Game
from dennou.core.options import option_info
from dennou.games import REGISTRY, get
from dennou.server.cli import bot_run, serve

app = typer.Typer(
    help="dennou (電脳): Japanese mind games — engines, bots, matches, replays.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
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
    """List the games: players, rules options (type, range, default) and each bot's options."""
    names = [name] if name else list(REGISTRY)
    for game_name in names:
        game = get(game_name)
        spec = game.spec
        default = game.default_players(game.make_rules())
        players = (
            str(spec.min_players)
            if spec.min_players == spec.max_players
            else f"{spec.min_players}-{spec.max_players} (default {default})"
        )
        table = Table(title=f"{spec.name} — {spec.title} — {players} players", title_justify="left")
        for col in ("option", "type", "range", "default", "meaning"):
            table.add_column(col)
        for opt in option_info(game.rules_type):
            shown = _value(opt.default)
            table.add_row(opt.name, opt.type, opt.range or "-", shown, opt.description)
        console.print(table)
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
                opt.description,
            )
    return table


@app.command("match")
def match_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game name")],
    bots: Annotated[
        str,
        typer.Option(
            help="comma-separated bot specs (name:key=value); seats beyond them are filled "
            "from the same bots in turn"
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
        make_bot(game, spec)  # fail early on a bad spec
    info = Console(stderr=True, width=console.width) if as_json else console
    note = "; bots rotate one seat each game" if rotate and len(set(specs)) > 1 else ""
    if seating.filled:
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


DEFAULTS_NOTE = (
    "defaults: moves the arena made for a bot (the rules' default) when it raised, moved illegally"
    " or ran over --time-limit"
)


def print_match(game: Game[Any, Any], played: Sequence[records.Record]) -> None:
    """Print the table of a match, and what its ``defaults`` column counts."""
    table = Table(
        title=f"{game.spec.name}: {len(played)} games, mean length {mean_length(played):.1f} steps",
        title_justify="left",
    )
    for col in ("bot", "seats", "W", "D", "L", "win rate [95% CI]", "score ± 95% CI"):
        table.add_column(col, justify="left" if col == "bot" else "right", no_wrap=True)
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
            f"{mean:.3f} ± {half:.3f}",
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
    name: Annotated[str, typer.Option(help="your name")] = "you",
    out: Annotated[
        Path | None, typer.Option(help="write the record here (also of a game you quit)")
    ] = None,
) -> None:
    """Play GAME in the terminal against bots (`help` at the prompt explains)."""
    game = get(game_name)
    config = parse_rules_args(game, rules)
    seating = seat_players(game, config, split_specs(vs), players, person=seat, person_name=name)
    human = HumanBot(game, read=_read_line, write=_write_plain)
    bots: list[Bot] = [human if s is None else make_bot(game, s) for s in seating.specs]
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
    _write_plain(game.render(game.view(final, seat)))
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


app.command("serve")(serve)
bot_app = typer.Typer(help="Run a bot against a dennou server.", no_args_is_help=True)
bot_app.command("run")(bot_run)
app.add_typer(bot_app, name="bot")


def main() -> None:
    """Entry point: run the app, turning dennou errors into clear messages (exit code 2)."""
    try:
        app()
    except DennouError as exc:
        console.print(f"[red]error:[/red] {exc.message}", highlight=False)
        sys.exit(2)
