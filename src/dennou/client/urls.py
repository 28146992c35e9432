"""A host's address, as every command and client takes it (:mod:`dennou.core.urls`)."""

from __future__ import annotations

from dennou.core.urls import FORMS, HostURLs, host_urls

__all__ = ["FORMS", "HostURLs", "host_urls"]
