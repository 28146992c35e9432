"""The server's minimum versions leave out every release with a known advisory."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

ADVISORIES = {
    # package: (first fixed version, advisories fixed by then)
    "starlette": ("0.49.1", "CVE-2024-47874 multipart DoS; CVE-2025-54121; CVE-2025-62727 Range"),
    "h11": ("0.16.0", "CVE-2025-43859 request smuggling (chunked trailers)"),
    "uvicorn": ("0.11.7", "CVE-2020-7694 log injection; CVE-2020-7695 header injection"),
    "websockets": ("9.1", "CVE-2021-33880 timing attack on basic auth"),
    "jinja2": ("3.1.6", "CVE-2024-56201, CVE-2024-56326, CVE-2025-27516 sandbox escapes"),
}


def test_minimum_versions_exclude_releases_with_known_advisories() -> None:
    data = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    requirements = {
        Requirement(r).name.lower(): Requirement(r)
        for r in data["project"]["optional-dependencies"]["server"]
    }
    for package, (fixed, why) in ADVISORIES.items():
        assert package in requirements, f"{package} must be pinned from below ({why})"
        lowest = min(
            (Version(s.version) for s in requirements[package].specifier if s.operator == ">="),
            default=None,
        )
        assert lowest is not None and lowest >= Version(fixed), f"{package} >= {fixed}: {why}"
