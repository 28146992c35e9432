"""Game-agnostic core: the game contract, actions, errors, events, records, registry, harness."""
