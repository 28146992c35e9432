"""``python -m dennou`` runs the command line.

``serve`` is run from a command line holding only it, its options read without Pydantic where
their values are plain: the host then starts without importing every other command's modules
(engines, matches, the terminal player) or the validation library.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Run ``dennou`` (:func:`dennou.cli.main`), or ``dennou serve`` alone."""
    if sys.argv[1:2] == ["serve"]:
        from dennou.server.cli import run_command_line, serve_command_line

        run_command_line(serve_command_line(), plain=("serve",))
        return
    from dennou.cli import main as full

    full()


if __name__ == "__main__":
    main()
