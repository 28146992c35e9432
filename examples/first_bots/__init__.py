"""A first bot for each game with decisions (docs/first-bot.md): a rule of a few lines each."""
