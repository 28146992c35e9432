"""dennou (電脳): exact rule engines, bots, a host and tournaments for Japanese mind games."""

__version__ = "0.1.0"
"""The package version, kept here only (``pyproject.toml`` reads it from this line)."""
