"""Words, not ids: every page and every board (the seven games, mid-game, at the end and in the
replay) in Japanese and English, checked for raw translation keys, JSON text, channel ids, and
rules options without a translated label or translated choices."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from dennou.server.testing import ServerProcess
from dennou.web.routes import STATIC

from .browser import (
    PHONE,
    Tab,
    create_table,
    open_tab,
    quick_rules,
    resign_unless_over,
    shot,
    sign_in,
    wait_until,
)
from .test_play import SETUPS

EN = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
NAMESPACES = sorted({key.split(".")[0] for key in EN})
RAW_KEY = re.compile(r"\b(?:" + "|".join(NAMESPACES) + r")\.[a-z0-9_]+(?:\.[a-z0-9_]+)*\b")
JSON_TEXT = re.compile(
    r"""[\[{]\s*"|"\s*:\s*[\[{"\d-]|\[(?:public|spectators|room|team:\w+|pair:[\d-]+)\]"""
)
ENGLISH_IN_JA = ("Gaya", "Teams:", "Revealed at the end", "— rules:")


def check(tab: Tab, lang: str, where: str) -> None:
    """No raw key, no JSON, nothing asked for that no language has, no known English in ja."""
    text = tab.page.inner_text("body")
    raw = RAW_KEY.search(text)
    assert raw is None, f"{where}: raw key {raw.group(0)!r}"
    shown = JSON_TEXT.search(text)
    near = text[max(0, shown.start() - 40) : shown.end() + 40] if shown else ""
    assert shown is None, f"{where}: JSON text near {near!r}"
    assert tab.missing_keys() == [], where
    if lang == "ja":
        for english in ENGLISH_IN_JA:
            assert english not in text, f"{where}: {english!r}"


def check_form(tab: Tab, lang: str) -> None:
    """Every rules option of every game has a translated label, and each choice a word."""
    page = tab.page
    for game in SETUPS:
        page.select_option("#create-game", game)
        labels = page.eval_on_selector_all(
            "#create-rules [data-testid=rule-label]",
            "els => els.map(e => [e.firstChild.textContent.trim(),"
            " e.querySelector('code').textContent])",
        )
        assert labels, game
        for label, name in labels:
            assert label and label != name, f"{game}.{name}: no label"
            if lang == "ja":
                assert re.search(r"[^\x00-\x7f]", label), f"{game}.{name}: {label!r}"
        choices = page.eval_on_selector_all(
            "#create-rules select option", "els => els.map(e => [e.value, e.textContent])"
        )
        for value, text in choices:
            assert text != value, f"{game}: the choice {value!r} is shown as its id"
        check(tab, lang, f"form {game}")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_page_and_board_says_words_not_ids(
    lang: str, shared_server: ServerProcess, browser: Any
) -> None:
    server = shared_server
    name = f"wordy_{lang}"
    tab = open_tab(browser, locale="ja-JP" if lang == "ja" else "en-US")
    sign_in(tab, server.http, name, lang=lang)
    page = tab.page
    check(tab, lang, "lobby")
    check_form(tab, lang)
    for game, (bots, extra, _) in SETUPS.items():
        page.goto(f"{server.http}/?lang={lang}")
        page.wait_for_selector("#create-form")
        table = create_table(tab, game, {**quick_rules(game), **extra}, ["me", *bots])
        page.wait_for_selector("#board:not([hidden]), [data-testid=results]", timeout=60_000)
        check(tab, lang, f"{game} mid-game")
        shot(page, f"{game}-{lang}-mid.png")
        resign_unless_over(page)
        check(tab, lang, f"{game} end")
        shot(page, f"{game}-{lang}-end.png")
        page.goto(f"{server.http}/games/{table}?lang={lang}#step=2&seat=0")
        wait_until(lambda: page.locator("[data-testid=replay-step]").count(), 30)
        check(tab, lang, f"{game} replay")
        page.click("#replay-last")
        wait_until(lambda: page.locator("#results-box [data-testid=results]").count(), 30)
        check(tab, lang, f"{game} replay end")
        shot(page, f"{game}-{lang}-replay.png")
    for path in ("/", "/leaderboard", f"/players/{name}", "/account", "/replay"):
        page.goto(f"{server.http}{path}?lang={lang}")
        page.wait_for_selector("main :is(h1, h2)")
        time.sleep(0.3)
        check(tab, lang, path)
    assert tab.errors == [], tab.errors
    tab.close()


def test_the_lobby_on_a_phone_says_words_not_ids(
    shared_server: ServerProcess, browser: Any
) -> None:
    tab = open_tab(browser, locale="ja-JP", viewport=PHONE)
    sign_in(tab, shared_server.http, "wordy_phone", lang="ja")
    check(tab, "ja", "lobby (phone)")
    assert tab.errors == []
    tab.close()
