"""Smuggling Game views (what each seat may know), determinization, and terminal text.

Everyone sees every balance, every finished small game (trunk amount, verdict, transfers,
nomination tallies), who has acted, and public talk. The smuggler alone sees the
sealed trunk until the verdict; the inspector alone sees their sealed verdict until the room
settles; each seat sees its own pending nomination; a team sees its members' past nominations and
its team talk; the two representatives see their room talk (views carry the most recent lines a
seat may read: ``dennou.core.talk.RECENT_TALK``). Once the game is over everything is shown to
everyone (spectators included), as in a replay.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from dennou.core.actions import Action, Concat, LazyActions
from dennou.core.game import JSON, Seat
from dennou.core.immutable import Log
from dennou.core.jsondata import to_json
from dennou.core.talk import recent
from dennou.core.views import Views
from dennou.games.smuggling.actions import Doubt, Nominate, Pass, Ready, Trunk
from dennou.games.smuggling.engine import yen
from dennou.games.smuggling.rules import TEAMS, SmugglingRules
from dennou.games.smuggling.state import Ending, Result, SmugglingState, TalkEntry, Votes


class SmugglingViews(Views[SmugglingState]):
    """The Smuggling Game's views, determinization and terminal text (see the module docstring)."""

    def view(self, state: SmugglingState, seat: Seat | None) -> JSON:
        """The view of ``seat`` (``None``: a spectator)."""
        return view(self.header(state, seat), state, seat)

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> SmugglingState:
        """A state that gives ``view`` to ``seat``: see :func:`determinize`."""
        return determinize(view, seat, rng)

    def render(self, view: JSON) -> str:
        """The view as text for a terminal."""
        return render(view)

    def describe_legal(self, legal: Sequence[Action]) -> str:
        """How to type each kind of action now."""
        return describe_legal(legal)


def _sees(entry: TalkEntry, seat: Seat | None, over: bool) -> bool:
    return over or entry.audience is None or (seat is not None and seat in entry.audience)


def view(header: JSON, state: SmugglingState, seat: Seat | None) -> JSON:
    """The view of ``seat`` (``None``: a spectator), after the common ``header``."""
    over = state.phase == "over"
    team = state.team_of(seat) if seat is not None else None
    return {
        **header,
        "team": team,
        "teams": {t: list(state.members(t)) for t in TEAMS},
        "small_game": state.game,
        "smuggling_team": state.smuggling_team,
        "inspecting_team": state.inspecting_team,
        "home": list(state.home),
        "third": list(state.third),
        "represented": list(state.represented),
        "nominated": [n is not None for n in state.nominations],
        "my_nomination": None if seat is None else state.nominations[seat],
        "votes": to_json(state.votes),
        "smuggler": state.smuggler,
        "inspector": state.inspector,
        "trunk_packed": state.trunk is not None,
        "trunk": state.trunk if seat is not None and seat == state.smuggler else None,
        "ready": state.ready,
        "verdict_given": state.verdict is not None,
        "my_verdict": state.verdict if seat is not None and seat == state.inspector else None,
        "room_left": (
            state.rules.room_messages - state.room_said(seat)
            if seat is not None
            and state.phase == "room"
            and seat in (state.smuggler, state.inspector)
            else None
        ),
        "results": to_json(list(state.results)),
        "team_nominations": [
            {"game": g, "team": t, "nominations": list(b)}
            for g, t, b in state.team_nominations
            if over or t == team
        ],
        "talk": to_json(recent([t for t in state.talk if _sees(t, seat, over)])),
        "ending": to_json(state.ending) if state.ending is not None else None,
    }


def determinize(view: JSON, seat: Seat | None, rng: random.Random) -> SmugglingState:
    """A full state that gives ``view`` to ``seat``, hidden parts drawn uniformly.

    Hidden and drawn: other seats' pending nominations (a random teammate each), the trunk (any
    legal amount) for all but the smuggler, the sealed verdict (pass or any legal doubt) for all
    but the inspector, the other team's past nominations (rebuilt from the public tallies), and
    talk the seat may not read (left out: the seat cannot tell).
    """
    rules = msgspec.convert(view["rules"], SmugglingRules)
    n = rules.team_size
    unit = rules.unit
    home, third = tuple(view["home"]), tuple(view["third"])
    smuggler, inspector = view["smuggler"], view["inspector"]

    def team_members(s: int) -> range:
        return range(0, n) if s < n else range(n, 2 * n)

    nominations: list[int | None] = []
    for s, done in enumerate(view["nominated"]):
        if not done:
            nominations.append(None)
        elif s == seat:
            nominations.append(view["my_nomination"])
        else:
            nominations.append(rng.choice(team_members(s)))
    trunk = view["trunk"]
    if trunk is None and view["trunk_packed"]:
        hi = min(rules.trunk_max, home[smuggler])
        trunk = rng.randrange(hi // unit + 1) * unit
    verdict = view["my_verdict"]
    if verdict is None and view["verdict_given"]:
        hi = rules.doubt_factor * third[inspector] // unit
        verdict = rng.randrange(hi + 1) * unit
    results = msgspec.convert(view["results"], tuple[Result, ...])
    known = {(e["game"], e["team"]): tuple(e["nominations"]) for e in view["team_nominations"]}
    team_nominations = []
    for r in results:
        for t in TEAMS:
            if (r.game, t) in known:
                team_nominations.append((r.game, t, known[(r.game, t)]))
            elif r.votes is not None:
                ballots = tuple(s for s, c in r.votes.of(t) for _ in range(c))
                team_nominations.append((r.game, t, ballots))
    votes = None if view["votes"] is None else msgspec.convert(view["votes"], Votes)
    if votes is not None:  # the current small game's nominations resolved, not yet settled
        for t in TEAMS:
            g = view["small_game"]
            if (g, t) in known:
                team_nominations.append((g, t, known[(g, t)]))
            else:
                ballots = tuple(s for s, c in votes.of(t) for _ in range(c))
                team_nominations.append((g, t, ballots))
    ending = view["ending"]
    room_lines = [0] * (2 * n)
    if view["room_left"] is not None and seat is not None:
        room_lines[seat] = rules.room_messages - view["room_left"]
    return SmugglingState(
        rules=rules,
        players=tuple(view["players"]),
        game=view["small_game"],
        phase=view["phase"],
        home=home,
        third=third,
        represented=tuple(view["represented"]),
        nominations=tuple(nominations),
        smuggler=smuggler,
        inspector=inspector,
        trunk=trunk,
        ready=view["ready"],
        verdict=verdict,
        votes=votes,
        results=results,
        team_nominations=tuple(team_nominations),
        talk=Log(msgspec.convert(view["talk"], tuple[TalkEntry, ...])),
        room_lines=tuple(room_lines),
        ending=None if ending is None else msgspec.convert(ending, Ending),
    )


# --- terminal text ------------------------------------------------------------------------


def render(view: JSON) -> str:
    """A view as text for the terminal."""
    players: list[str] = view["players"]
    seat = view["seat"]
    lines: list[str] = []
    g, total = view["small_game"], view["rules"]["small_games"]
    lines.append(
        f"密輸ゲーム Smuggling Game — small game {g}/{total}: "
        f"{view['smuggling_team']} smuggles, {view['inspecting_team']} inspects"
    )
    width = max(len(p) for p in players)
    lines.append(f"  seat {'name':<{width}}  team   home (相手国)    third (第3国)  reps")
    for s, name in enumerate(players):
        mark = "*" if s == seat else " "
        role = ""
        if s == view["smuggler"]:
            role = " smuggler"
        elif s == view["inspector"]:
            role = " inspector"
        team = "N" if s in view["teams"]["north"] else "S"
        lines.append(
            f" {mark}{s:>3} {name:<{width}}  {team}    {yen(view['home'][s]):>14}  "
            f"{yen(view['third'][s]):>14}  {view['represented'][s]:>3}{role}"
        )
    totals = {t: sum(view["third"][s] for s in view["teams"][t]) for t in TEAMS}
    lines.append(
        f"  third-country totals: North {yen(totals['north'])}, South {yen(totals['south'])}"
    )
    for r in view["results"][-5:]:
        verdict = "pass" if r["verdict"] == "pass" else f"doubt {yen(r['doubt'])}"
        lines.append(
            f"  #{r['game']} {players[r['smuggler']]} -> {players[r['inspector']]}: trunk "
            f"{yen(r['amount'])}, {verdict}: {r['case']} (smuggler {r['to_smuggler']:+,}, "
            f"inspector {r['to_inspector']:+,})"
        )
    for t in view["talk"][-8:]:
        lines.append(f"  [{t['channel']}] {t['name']}: {t['text']}")
    phase = view["phase"]
    if phase == "nominate":
        waiting = sum(1 for d in view["nominated"] if not d)
        lines.append(f"phase: nominations ({waiting} still to nominate)")
        if view["my_nomination"] is not None:
            lines.append(f"you nominated {players[view['my_nomination']]}")
    elif phase in ("trunk", "room"):
        sm, ins = players[view["smuggler"]], players[view["inspector"]]
        where = "packing the trunk" if phase == "trunk" else "the inspection room"
        lines.append(f"phase: {where} — smuggler {sm} vs inspector {ins}")
        if view["trunk"] is not None:
            lines.append(f"your trunk holds {yen(view['trunk'])} yen (sealed)")
        if view["room_left"] is not None:
            lines.append(f"you may say {view['room_left']} more line(s) in the room: say <text>")
        if view["my_verdict"] is not None:
            v = view["my_verdict"]
            lines.append(f"your verdict: {'pass' if v == 0 else 'doubt ' + yen(v)} (sealed)")
    else:
        end = view["ending"]
        won = end["winner"] or "nobody (a draw)"
        totals = end["totals"]
        lines.append(
            f"final third-country totals: North {yen(totals['north'])}, "
            f"South {yen(totals['south'])}"
        )
        lines.append(f"game over — {won} wins the team result")
        for s, name in enumerate(players):
            money = end["final"][s]
            what = "debt" if money < 0 else "money"
            lines.append(f"  {name}: prize {yen(end['prizes'][s])}, final {what} {yen(abs(money))}")
    return "\n".join(lines)


def _parts(legal: Sequence[Action]) -> list[Sequence[Action]]:
    if isinstance(legal, Concat):
        return list(legal.parts)
    return [legal]


def describe_legal(legal: Sequence[Action]) -> str:
    """How to type each kind of legal action now (amounts are summarised, not listed)."""
    out: list[str] = []
    for part in _parts(legal):
        if not len(part):
            continue
        first = part[0]
        if isinstance(part, LazyActions):
            d: dict[str, Any] = part.description
            tag = "trunk" if isinstance(first, Trunk) else "doubt"
            out.append(
                f"{tag} <amount>: {yen(d['min'])} to {yen(d['max'])} yen in steps of "
                f"{yen(d['step'])} (e.g. {tag} 30000000, {tag} 3000万, {tag} 30M)"
            )
        elif isinstance(first, Nominate):
            out.append("nominate <seat>: " + ", ".join(str(a.seat) for a in part))  # type: ignore[attr-defined]
        elif isinstance(first, Ready):
            out.append("ready: you have said all you will say in the room (talk: say <text>)")
        elif isinstance(first, Pass):
            out.append("pass")
        elif isinstance(first, Doubt):
            out.append("  ".join(str(a) for a in part))
        else:
            out.append("  ".join(str(a) for a in part))
    return " | ".join(out)
