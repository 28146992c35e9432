"""A person at a terminal as a bot: ``dennou play`` reads their actions line by line.

Every refused line gets a reason and a new prompt. A refused action is explained with the
engine's own words (the rule it breaks: a repeated digit, a card not in the hand, an amount out of
range), found by applying it to a state consistent with the person's view: the legal actions
follow from the view alone, so any such state refuses it for the same reason.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any

from dennou.core.actions import Action, Concat, LazyActions, tag_of
from dennou.core.bot import Bot
from dennou.core.errors import GameError, InvalidActionError
from dennou.core.game import JSON, Event, Game, Seat

COMMANDS = ("help", "view", "legal", "say", "quit")
"""Words the prompt understands besides actions."""

HELP = """type an action in its text form (e.g. `call 0318`, `play 8s 8h`), its number when the
actions are listed with numbers ([0], [1], ...), or JSON ({"type": "call", "number": "0318"}).
`say TEXT` talks in your usual channel, `say @CHANNEL TEXT` in another; `view` shows the state
again; `legal` lists what you may do; `quit` stops (the game so far is kept with --out)."""

_NUMBERED = re.compile(r"\[(\d+)\]")


class QuitGame(BaseException):
    """The person asked to stop (not an error of a bot, so the arena does not catch it)."""


class HumanBot(Bot):
    """A person: shows the view and the legal actions, reads lines until one is a legal action.

    Args:
        game: The game.
        read: Reads one line after showing a prompt (raises ``EOFError`` at the end of input).
        write: Shows a line of text (plain text, never markup).
    """

    name = "human"

    def __init__(
        self,
        game: Game[Any, Any],
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
    ) -> None:
        self.game = game
        self.read = read
        self.write = write
        self.seat: Seat = 0
        self.channels: frozenset[str] = frozenset()
        self.view: JSON | None = None
        self.seen: set[str] = set()
        """The texts of the events shown so far (a view's text repeats its latest events)."""

    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:
        """Remember the seat."""
        self.seat = seat

    def observe(self, events: Sequence[Event]) -> None:
        """Show what this seat sees happen."""
        for event in events:
            self.seen.add(event.text)
            self.write(f"  · {event.text}")

    def show(self, view: JSON) -> None:
        """Show a view's text, less the lines that repeat events already shown as they happened.

        A game's text of a view ends or starts with its latest events (indented), for a reader
        who did not see them happen; here each was shown once already.
        """
        lines = self.game.render(view).splitlines()
        self.write("\n".join(line for line in lines if not self._repeats_event(line)))

    def _repeats_event(self, line: str) -> bool:
        if not line.startswith(" "):
            return False
        text = line.strip()
        return text.removeprefix("· ") in self.seen

    def chat(
        self, view: JSON, channels: frozenset[str], rng: random.Random
    ) -> Sequence[tuple[str, str]]:
        """Note the channels open now (the person talks with ``say`` at the prompt)."""
        self.channels = channels
        return ()

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Prompt until the person types a legal action."""
        try:
            return self._act(view, legal)
        finally:
            self.channels = frozenset()  # the arena tells us again before the next decision

    def _act(self, view: JSON, legal: Sequence[Action]) -> Action:
        self.view = view
        described = self.game.describe_legal(legal)
        numbered = {int(n) for n in _NUMBERED.findall(described) if int(n) < len(legal)}
        self.show(view)
        self.write("you may: " + described)
        if self.channels:
            self.write("talk: " + self._channels_text())
        while True:
            try:
                line = self.read("> ").strip()
            except EOFError:
                raise QuitGame from None
            if not line:
                continue
            word = line.split()[0].lower()
            if word in ("quit", "exit"):
                raise QuitGame
            if word in ("help", "?"):
                self.write(HELP)
            elif word == "view":
                self.write(self.game.render(view))
            elif word == "legal":
                self.write(described)
            elif word in ("say", "/say"):
                self.write(self._say(line.split(None, 1)[1] if " " in line else ""))
            elif line.isdigit():
                if int(line) in numbered:
                    return legal[int(line)]
                self.write("✗ " + self._bare_number(line, legal, numbered))
            else:
                action = self._parse(line, legal)
                if action is not None:
                    return action

    def _parse(self, line: str, legal: Sequence[Action]) -> Action | None:
        """The action a line names if it is legal; otherwise say why not and return None."""
        usable = action_tags(legal)
        word = line.split()[0].lower()
        if not line.startswith("{") and word not in self.game.codec.by_tag:
            self.write(
                f"✗ unknown word {word!r}; you may use: {', '.join(usable)} "
                f"(or {', '.join(COMMANDS)})"
            )
            return None
        try:
            action = self.game.parse_action(line)
        except InvalidActionError as exc:
            self.write(f"✗ {exc.message}  (type `help`)")
            return None
        if action in legal:
            return action
        self.write(f"✗ {self.why_not(action, legal)}")
        return None

    def why_not(self, action: Action, legal: Sequence[Action]) -> str:
        """Why ``action`` is not legal now, in the engine's words."""
        view = self.view
        reason = None
        if view is not None:
            try:
                state = self.game.determinize(view, self.seat, random.Random(0))
                self.game.apply(state, self.seat, action)
            except GameError as exc:
                reason = exc.message
            except Exception:  # a game without determinize: fall back to the list
                reason = None
        if reason is None:
            reason = f"`{action}` is not legal now"
        usable = action_tags(legal)
        if tag_of(type(action)) not in usable:
            reason += f"; you may use: {', '.join(usable)}"
        return reason

    def _bare_number(self, line: str, legal: Sequence[Action], numbered: set[int]) -> str:
        if numbered:
            return f"pick one of the numbers shown ({min(numbered)}-{max(numbered)})"
        hint = ""
        for tag in action_tags(legal):
            try:
                guess = self.game.parse_action(f"{tag} {line}")
            except GameError:
                continue
            if guess in legal:
                hint = f"; did you mean `{guess}`?"
                break
        return f"a bare number picks from a numbered list, and none is shown: type the action{hint}"

    def _channels_text(self) -> str:
        usual = self._usual_channel()
        names = ", ".join(sorted(self.channels))
        if usual is None:
            return f"say @CHANNEL TEXT (open to you: {names})"
        return f"say TEXT (in {usual}) or say @CHANNEL TEXT (open to you: {names})"

    def _usual_channel(self) -> str | None:
        if len(self.channels) == 1:
            return next(iter(self.channels))
        for preferred in ("room", "public"):
            if preferred in self.channels:
                return preferred
        return None

    def _say(self, rest: str) -> str:
        if self.say is None:
            return "✗ nobody is listening"
        channel = None
        if rest.startswith("@"):
            channel, _, rest = rest.partition(" ")
            channel = channel[1:]
        if not rest.strip():
            return "✗ say what? (`say TEXT` or `say @CHANNEL TEXT`)"
        if not self.channels:
            return "✗ no talk channel is open to you now"
        if channel is None:
            channel = self._usual_channel()
            if channel is None:
                return f"✗ say in which channel? {self._channels_text()}"
        error = self.say(channel, rest)
        if error is None:
            return f"(said in {channel})"
        return f"✗ {error} (open to you: {', '.join(sorted(self.channels))})"


def action_tags(legal: Sequence[Action]) -> list[str]:
    """The kinds of action (``call``, ``play``...) among ``legal``, in order of appearance.

    Big lazy spaces are not walked: each is taken to hold one kind (its first and last actions
    are looked at).
    """
    tags: dict[str, None] = {}

    def walk(actions: Sequence[Action]) -> None:
        if isinstance(actions, Concat):
            for part in actions.parts:
                walk(part)
        elif isinstance(actions, LazyActions):
            if len(actions):
                tags.setdefault(tag_of(type(actions[0])))
                tags.setdefault(tag_of(type(actions[len(actions) - 1])))
        else:
            for action in actions:
                tags.setdefault(tag_of(type(action)))

    walk(legal)
    return list(tags)
