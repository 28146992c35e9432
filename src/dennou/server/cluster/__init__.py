"""Many host processes, one site: processes that share one PostgreSQL and one Redis.

``dennou serve --db postgresql://... --broker redis://...`` runs one process of a cluster
(``docs/architecture.md``, "Many processes, one site"). :class:`Cluster` is the part of a hub
that talks to the others: table leases in the database, client messages forwarded to a table's
owner and its messages back through Redis, limits counted in Redis.
"""

from __future__ import annotations

from dennou.server.cluster.node import Cluster, RemoteConnection

__all__ = ["Cluster", "RemoteConnection"]
