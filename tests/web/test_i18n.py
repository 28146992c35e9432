"""Japanese and English: the same keys, the same placeholders, and every key the code uses exists.

Keys built at run time (``t(`daifugo.title.${title}`)``) are checked by
prefix here and, exactly, by the browser tests (the page records every missing key it asked for).
"""

from __future__ import annotations

import json
import re

from dennou.web.routes import STATIC

I18N = STATIC / "i18n"


def load(lang: str) -> dict[str, str]:
    return dict(json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")))


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def code() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in STATIC.rglob("*.js")}


def test_ja_and_en_have_the_same_keys_and_placeholders() -> None:
    en, ja = load("en"), load("ja")
    assert set(en) == set(ja), sorted(set(en) ^ set(ja))
    for key in en:
        assert en[key].strip() and ja[key].strip(), key
        assert placeholders(en[key]) == placeholders(ja[key]), key


def test_every_key_the_code_names_exists() -> None:
    en = load("en")
    namespaces = {k.split(".")[0] for k in en}
    names = "|".join(sorted(namespaces))
    literal = re.compile(r"""['"]((?:""" + names + r""")\.[A-Za-z0-9_.]+)['"]""")
    template = re.compile(r"`((?:" + names + r")\.[A-Za-z0-9_.]*)\$\{")
    used = 0
    for name, text in code().items():
        for key in literal.findall(text):
            if key.endswith(".js") or key.endswith(".json"):
                continue
            assert key in en, f"{name}: {key!r} is not in en.json"
            used += 1
        for prefix in template.findall(text):
            assert any(k.startswith(prefix) for k in en), f"{name}: no key starts {prefix!r}"
    assert used > 200


def test_games_have_names_and_descriptions_in_both_languages() -> None:
    from dennou.games import REGISTRY

    en, ja = load("en"), load("ja")
    for game in REGISTRY:
        assert f"game.{game}" in en and f"game.{game}.desc" in ja
    assert ja["game.daifugo"] == "大富豪" and ja["game.numeron"] == "ヌメロン"
    assert "スペ3返し" in ja["daifugo.spade3"] and "8切り" in ja["daifugo.eight_cut"]


def test_every_rules_option_has_a_label_a_description_and_named_choices_in_both_languages() -> None:
    """82 of 103 options showed the English description (and every label the bare name) in the
    Japanese form."""
    from dennou.core.game import rules_options
    from dennou.games import REGISTRY

    en, ja = load("en"), load("ja")
    for game, engine in REGISTRY.items():
        for name, kind, _, _ in rules_options(engine.rules_type):
            key = f"rules.{game}.{name}"
            for lang in (en, ja):
                assert key in lang and f"{key}.label" in lang, key
            assert ja[f"{key}.label"] != name, key
            choices = re.fullmatch(r"one of ([\w|]+)", kind)
            for value in choices.group(1).split("|") if choices else ():
                assert f"{key}.value.{value}" in en, f"{key}.value.{value}"
