"""``python -m dennou.server serve|bot-run ...`` (the same commands as ``dennou serve``)."""

from __future__ import annotations

import typer

from dennou.server.cli import bot_run, serve

app = typer.Typer(add_completion=False, help="dennou host")
app.command("serve")(serve)
app.command("bot-run")(bot_run)

if __name__ == "__main__":
    app()
