"""Talk stays out of the numeric observation; ``talk=True`` gives it to agents as text."""

from __future__ import annotations

import pytest

import dennou.rl as rl
from dennou.core.errors import IllegalActionError
from dennou.rl.pz import new_lines


def _to_room(env: rl.DennouAEC) -> str:
    """Play nominations and the trunk until the room opens; the smuggler's agent name."""
    for _ in range(10):
        table = env.table
        if table.state.phase == "room":
            smuggler: int = table.state.smuggler
            return table.players[smuggler]
        obs = env.observe(env.agent_selection)
        env.step(int(obs["action_mask"].nonzero()[0][0]))
    raise AssertionError("the room never opened")


def test_room_talk_is_text_in_infos_and_never_in_the_observation() -> None:
    env = rl.env("smuggling", team_size=1, small_games=2, talk=True)
    env.reset(seed=0)
    smuggler = _to_room(env)
    inspector = next(a for a in env.agents if a != smuggler)
    before = {a: env.observe(a)["observation"].tobytes() for a in env.agents}
    assert "room" in env.infos[smuggler]["channels"]
    env.say(smuggler, "room", "空っぽですよ。")
    after = {a: env.observe(a)["observation"].tobytes() for a in env.agents}
    assert before == after, "talk must not change the numeric observation"
    env.step(int(env.observe(env.agent_selection)["action_mask"].nonzero()[0][0]))
    heard = env.infos[inspector]["talk"]
    assert [line["text"] for line in heard] == ["空っぽですよ。"]
    assert heard[0]["channel"] == "room"


def test_talk_off_by_default_and_closed_channels_refused() -> None:
    env = rl.env("smuggling", team_size=1, small_games=2)
    env.reset(seed=0)
    assert "talk" not in env.infos["seat_0"]
    with pytest.raises(IllegalActionError):
        env.say("seat_0", "room", "hello")  # nobody is in the room yet


def test_new_lines_follow_a_sliding_window_of_recent_talk() -> None:
    seen = ["a", "b", "c"]
    assert new_lines(seen, ["b", "c", "d", "e"]) == ["d", "e"]  # the window slid by one
    assert new_lines(seen, ["a", "b", "c"]) == []
    assert new_lines([], ["x"]) == ["x"]
    assert new_lines(seen, ["x", "y"]) == ["x", "y"]  # no overlap: all new


def test_more_lines_than_a_view_keeps_are_each_heard_once() -> None:
    env = rl.env("pandemic", players=4, rounds=1, ticks=2, talk=True)
    env.reset(seed=0)
    for k in range(70):  # more than RECENT_TALK: the view's window slides
        env.say("seat_1", "public", f"line {k}")
    env.step(int(env.observe(env.agent_selection)["action_mask"].nonzero()[0][0]))
    env.say("seat_1", "public", "one more")
    env.step(int(env.observe(env.agent_selection)["action_mask"].nonzero()[0][0]))
    heard = env.infos["seat_2"]["talk"]
    assert [line["text"] for line in heard] == ["one more"]
