"""An account in a real browser: sign up with a password, sign out, sign in again, make an API
token (shown once, and it works), revoke it (it stops working); Unicode names show as text."""

from __future__ import annotations

from typing import Any

import httpx

from dennou.server.testing import ServerProcess

from .browser import open_tab, shot, sign_in, wait_until


def test_a_person_signs_out_signs_in_again_and_makes_and_revokes_a_token(
    shared_server: ServerProcess, browser: Any
) -> None:
    base = shared_server.http
    tab = open_tab(browser)
    page = tab.page
    sign_in(tab, base, "ボブ", password="correct horse battery")
    assert page.locator("[data-testid=me]").inner_text() == "ボブ"

    # sign out: the lobby offers the sign-in form again, and the same name and password work
    page.click("header button.link")
    page.wait_for_selector("#signin-form")
    page.fill("#signin-name", "ボブ")
    page.fill("#signin-password", "wrong horse battery")
    page.click("#signin-form button[type=submit]")
    wait_until(lambda: page.locator("#signin-error").inner_text().strip(), 20)
    assert [e for e in tab.errors if "401" not in e] == []  # the refusal, and nothing else
    tab.errors.clear()
    page.fill("#signin-password", "correct horse battery")
    page.click("#signin-form button[type=submit]")
    page.wait_for_selector("#create-form")

    # the account page: make a token; it is shown once and plays as ボブ
    page.click("#nav-account")
    page.wait_for_selector("#token-make")
    assert "has a password" in page.locator("#password-status").inner_text()
    page.fill("#token-name", "my bot")
    page.click("#token-make button[type=submit]")
    token = page.locator("[data-testid=new-token]").inner_text().strip()
    wait_until(lambda: page.locator("#tokens tbody tr[data-token]").count() == 1, 20)
    assert "my bot" in page.locator("#tokens").inner_text()
    bearer = {"authorization": f"Bearer {token}"}
    assert httpx.get(f"{base}/api/me", headers=bearer, timeout=10).json()["name"] == "ボブ"
    shot(page, "account.png")

    # revoke it: gone from the list, and refused at once
    page.click("#tokens button.revoke")
    wait_until(lambda: page.locator("#tokens tbody tr[data-token]").count() == 0, 20)
    assert httpx.get(f"{base}/api/me", headers=bearer, timeout=10).status_code == 401
    assert not tab.errors, tab.errors
    assert not tab.missing_keys()
    tab.close()
