"""Per-player history and the per-game accounts (口座) hook, with a toy game that uses it."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx

from dennou.client import Client, run_bot
from dennou.core.actions import Action, ActionCodec
from dennou.core.bot import RandomBot
from dennou.core.errors import IllegalActionError, NotYourTurnError
from dennou.core.game import HOST_ACCOUNTS, JSON, Event, Game, GameSpec, Outcome, Rules, Seat
from dennou.core.registry import Registry
from dennou.server.testing import LiveServer


class Bet(Action, frozen=True, tag="bet"):
    amount: int


class PotRules(Rules, frozen=True):
    balances: tuple[int, ...] = (100, 100)


@dataclass(frozen=True)
class PotState:
    rules: PotRules
    players: tuple[str, ...]
    bets: tuple[int | None, ...] = (None, None)


class Pot(Game[PotState, PotRules]):
    """Both bet (sealed) up to their balance; the higher bet takes the lower one."""

    spec = GameSpec("pot", "Pot", 1, 2, 2, simultaneous=True)
    rules_type = PotRules
    codec = ActionCodec(Bet)

    def host_accounts_in(
        self, rules: dict[str, Any], accounts: Sequence[Mapping[str, Any] | None]
    ) -> dict[str, Any]:
        return {**rules, "balances": [(a or {}).get("balance", 100) for a in accounts]}

    def new(self, rules: PotRules, players: Sequence[str]) -> PotState:
        self.check_players(players)
        return PotState(rules, tuple(players))

    def to_act(self, state: PotState) -> frozenset[Seat]:
        return frozenset(i for i, b in enumerate(state.bets) if b is None)

    def legal_actions(self, state: PotState, seat: Seat) -> Sequence[Action]:
        if seat not in self.to_act(state):
            return []
        return [Bet(a) for a in range(0, state.rules.balances[seat] + 1, 10)]

    def apply(self, state: PotState, seat: Seat, action: Action) -> tuple[PotState, list[Event]]:
        if seat not in self.to_act(state):
            raise NotYourTurnError("not your turn")
        if action not in self.legal_actions(state, seat):
            raise IllegalActionError("bet a multiple of 10 up to your balance")
        assert isinstance(action, Bet)
        bets = list(state.bets)
        bets[seat] = action.amount
        return replace(state, bets=tuple(bets)), [
            Event("bet", f"seat {seat} bet", audience=frozenset({seat}))
        ]

    def apply_default(self, state: PotState, seat: Seat) -> tuple[PotState, list[Event]]:
        return self.apply(state, seat, Bet(0))

    def view(self, state: PotState, seat: Seat | None) -> JSON:
        over = not self.to_act(state)
        return {
            "game": "pot",
            "rules": {"balances": list(state.rules.balances)},
            "players": list(state.players),
            "seat": seat,
            "bets": [b if over or i == seat else None for i, b in enumerate(state.bets)],
        }

    def outcome(self, state: PotState) -> Outcome:
        a, b = state.bets
        assert a is not None and b is not None
        balances = list(state.rules.balances)
        if a != b:
            win, lose = (0, 1) if a > b else (1, 0)
            stake = min(a, b)
            balances[win] += stake
            balances[lose] -= stake
        return Outcome.from_scores(
            [float(x) for x in balances], detail={HOST_ACCOUNTS: [{"balance": x} for x in balances]}
        )


POT = Pot()


def test_accounts_persist_across_games_and_history_is_kept(tmp_path: Path) -> None:
    games = Registry({"numeron": "dennou.games.numeron:GAME", "pot": f"{__name__}:POT"})
    live = LiveServer(tmp_path / "data", games=games)
    try:
        tokens = [live.register("ann"), live.register("ben")]
        balances_seen = []
        for round_ in range(3):

            async def one(r: int = round_) -> list[Any]:
                async with await Client.open(live.ws_url, tokens[0]) as client:
                    info = await client.create_table("pot", ["open", "open"], rated=True)
                bots = [
                    run_bot(
                        RandomBot(),
                        live.ws_url,
                        tokens[i],
                        table=info["id"],
                        seed=r * 2 + i,
                        games=games,
                    )
                    for i in (0, 1)
                ]
                return list(await asyncio.gather(*bots))

            results = asyncio.run(one())
            table = httpx.get(f"{live.http}/api/tables/{results[0].table}").json()
            balances_seen.append(table["rules"]["balances"])
            # ann and ben race for the two open seats: each result says which seat its bot got
            scores = results[0].outcome["scores"]
            final = [scores[results[0].seat], scores[results[1].seat]]
            ann = httpx.get(f"{live.http}/api/accounts/ann").json()
            ben = httpx.get(f"{live.http}/api/accounts/ben").json()
            assert [ann["accounts"]["pot"]["balance"], ben["accounts"]["pot"]["balance"]] == final
            assert len(ann["history"]) == round_ + 1
        assert balances_seen[0] == [100, 100]
        for balances in balances_seen:
            assert sum(balances) == 200  # money moves between the accounts, never appears
    finally:
        live.stop()
