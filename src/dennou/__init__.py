"""dennou (電脳): exact rule engines, bots, a host and tournaments for Japanese mind games."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("dennou")
    """The package version (kept in one place: ``pyproject.toml``)."""
except PackageNotFoundError:  # pragma: no cover - running from a source tree never installed
    __version__ = "0+unknown"
