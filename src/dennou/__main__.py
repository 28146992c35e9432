"""``python -m dennou`` runs the command line."""

from dennou.cli import main

main()
