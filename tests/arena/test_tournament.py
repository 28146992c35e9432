"""Tournaments end to end: Daifugo set points, durable directories, resume, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from dennou.arena.entrants import parse_entrants
from dennou.arena.runners import InlineRunner
from dennou.arena.schedule import TournamentConfig
from dennou.arena.tournament import Tournament, make_config, read_results
from dennou.core import record as records
from dennou.core.errors import ConfigError
from dennou.games import get

# daifugo.md, "Titles and points": per game, and added on top in the last game of a set
POINTS = {"daifugo": 2, "fugo": 1, "heimin": 0, "hinmin": -1, "daihinmin": -2}
FINAL = {"daifugo": 10, "fugo": 5, "heimin": 0, "hinmin": -5, "daihinmin": -10}


def daifugo_config(games: int = 10, seed: int = 4, sets: int = 2) -> TournamentConfig:
    game = get("daifugo")
    return make_config(
        game,
        parse_entrants("greedy,random,g2=greedy,r2=random,r3=random"),
        games=games,
        seed=seed,
        rules=game.make_rules({"games": sets}),
    )


def test_daifugo_standings_count_every_title_and_the_last_games_bonus(tmp_path: Path) -> None:
    # rules (daifugo.md, "Titles and points"): +2 +1 0 -1 -2 per game, and +10 +5 0 -5 -10 on
    # top in the last game of a set; a tournament match is a whole set
    config = daifugo_config(games=10, sets=3)
    with Tournament(config, tmp_path / "t") as tour:
        summary = tour.run(InlineRunner())
    expected = dict.fromkeys(config.names, 0)
    bonus_seen = False
    played = records.read(tmp_path / "t" / "records.jsonl")
    assert len(played) == 10
    for rec in played:
        assert rec.outcome is not None
        games = rec.outcome["detail"]["games"]
        assert len(games) == 3, "a match is the whole set"
        entrants = rec.meta["tournament"]["entrants"]
        for g, result in enumerate(games):
            last = g == len(games) - 1
            for seat, title in enumerate(result["titles"]):
                expected[entrants[seat]] += POINTS[title] + (FINAL[title] if last else 0)
                bonus_seen |= last and title == "daifugo"
    assert bonus_seen
    got = {row["name"]: row["points"] for row in summary["standings"]}
    assert got == {name: float(p) for name, p in expected.items()}
    # all 5 titles occur with 5 players, and the points of a set sum to zero
    assert sum(got.values()) == 0


def test_a_tournament_directory_survives_torn_writes_and_finishes_the_same(
    tmp_path: Path,
) -> None:
    config = daifugo_config(games=15)
    with Tournament(config, tmp_path / "whole") as tour:
        tour.run(InlineRunner())
    whole = tmp_path / "whole"

    # a run cut short: some matches finished, then a record written without its result line
    # and a result line torn in the middle (what SIGKILL can leave)
    cut = tmp_path / "cut"
    with Tournament(config, cut) as tour:
        runner = InlineRunner()
        for i, done in enumerate(runner.run(tour._jobs(tour.pending()))):
            tour.record(done)
            if i == 5:
                break
    lines = (cut / "results.jsonl").read_bytes().splitlines(keepends=True)
    assert len(lines) == 6
    with (cut / "records.jsonl").open("ab") as fh:
        fh.write(b'{"type": "header", "game": "daifugo"}\n{"ty')
    (cut / "results.jsonl").write_bytes(b"".join(lines[:5]) + lines[5][:20])

    with Tournament(config, cut) as tour:
        assert len(tour.results) == 5, "the torn line does not count"
        tour.run(InlineRunner())
    for name in ("standings.json", "standings.csv", "ratings.json"):
        assert (cut / name).read_bytes() == (whole / name).read_bytes(), name
    results, _, _ = read_results(cut / "results.jsonl")
    assert sorted(r.match for r in results) == list(range(15)), "every match once"
    recs = records.read(cut / "records.jsonl")
    assert sorted(r.meta["tournament"]["match"] for r in recs) == list(range(15))


def test_another_configuration_in_the_same_directory_is_refused_and_changes_nothing(
    tmp_path: Path,
) -> None:
    out = tmp_path / "t"
    with Tournament(daifugo_config(games=5), out) as tour:
        tour.run(InlineRunner())
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(ConfigError, match=r"holds another tournament: .*seed was 4, now 5"):
        Tournament(daifugo_config(games=5, seed=5), out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


@pytest.mark.parametrize(
    ("game_name", "entrants", "options", "message"),
    [
        ("daifugo", "greedy,nonsense,random", {}, "unknown entrant 'nonsense'"),
        ("daifugo", "greedy,montecarlo:plays=3,random", {}, "no option 'plays'"),
        ("daifugo", "greedy,random,mymodule.nowhere:Bot", {}, "cannot import mymodule"),
        ("daifugo", "greedy,random,random,greedy,random", {"fmt": "swiss"}, "swiss pairs two"),
        ("daifugo", "greedy,random", {"fmt": "knockout"}, "unknown format 'knockout'"),
        ("stud10", "random,random,random", {}, "too few entrants: 3 for 5 seats"),
        ("daifugo", "greedy,random", {"seats": 4}, "too few entrants: 2 for 4 seats"),
        ("numeron", "solver", {}, "too few entrants: 1 for 2 seats"),
        ("numeron", "solver,@alice", {}, "remote account"),
        ("numeron", "solver,random", {"games": 3, "rounds": 2}, "not both"),
    ],
)
def test_bad_input_is_a_clear_error_before_anything_is_written(
    tmp_path: Path, game_name: str, entrants: str, options: dict[str, object], message: str
) -> None:
    game = get(game_name)
    with pytest.raises(ConfigError, match=message):
        make_config(game, parse_entrants(entrants), **options)  # type: ignore[arg-type]
    assert not list(tmp_path.iterdir())


def test_entrants_names_specs_and_python_classes() -> None:
    entrants = parse_entrants("greedy, mc=montecarlo:playouts=50 ,greedy,random")
    assert [(e.name, e.spec) for e in entrants] == [
        ("greedy", "greedy"),
        ("mc", "montecarlo:playouts=50"),
        ("greedy#2", "greedy"),
        ("random", "random"),
    ]
    game = get("numeron")
    config = make_config(game, parse_entrants("dennou.core.bot:RandomBot,solver"), seed=2)
    summary = Tournament(config, game=game).run(InlineRunner())
    assert {row["name"] for row in summary["standings"]} == {
        "dennou.core.bot:RandomBot",
        "solver",
    }
    with pytest.raises(ConfigError, match="empty"):
        parse_entrants("a,,b")


def test_summary_is_plain_json_with_standings_ratings_and_pairwise(tmp_path: Path) -> None:
    config = daifugo_config(games=5)
    with Tournament(config, tmp_path / "t") as tour:
        tour.run(InlineRunner())
    data = json.loads((tmp_path / "t" / "standings.json").read_text())
    assert data["complete"] and data["finished"] == data["matches"] == 5
    assert [row["rank"] for row in data["standings"]] == sorted(
        row["rank"] for row in data["standings"]
    )
    assert {r["name"] for r in data["ratings"]} == set(config.names)
    pairs = {(p["entrant"], p["opponent"]): p for p in data["pairwise"]}
    for (a, b), p in pairs.items():
        back = pairs[(b, a)]
        assert (p["wins"], p["draws"], p["losses"]) == (back["losses"], back["draws"], back["wins"])
    csv_lines = (tmp_path / "t" / "standings.csv").read_text().splitlines()
    assert csv_lines[0].startswith("rank,name,spec,games") and len(csv_lines) == 6
    stored = msgspec.json.decode((tmp_path / "t" / "tournament.json").read_bytes())
    assert stored["seed"] == 4 and stored["rounds"] == 1
