"""UECda protocol 20070 both ways: UECda clients at dennou tables, dennou bots on UECda servers.

UECda (UEC コンピュータ大貧民大会) is the long-running Japanese computer-Daifugo contest; its
clients speak one binary protocol over TCP (docs/games/daifugo.md, "UECda"). Modules:

- :mod:`~dennou.uecda.wire`: the messages (tables of ``int32[8][15]``, single ints), exact reads
  with timeouts, and the conversions between tables and Daifugo cards, plays and views.
- :mod:`~dennou.uecda.seat`: a UECda socket as one more kind of seat connection of the host.
- :mod:`~dennou.uecda.listener`: the TCP listener: handshake, which table a client sits at.
- :mod:`~dennou.uecda.client`: any dennou bot playing on a UECda server.
- :mod:`~dennou.uecda.cli`: ``dennou uecda-serve`` and ``dennou uecda-client``.
"""

PROTOCOL = 20070
"""The protocol version a client announces in its profile table (``[0][0]``)."""

DEFAULT_PORT = 42485
"""The port UECda servers listen on."""
