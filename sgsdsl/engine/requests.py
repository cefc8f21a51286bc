"""Decisions: every choice the engine needs is a typed request to an agent (the Agent protocol below; the
agents themselves are sgsdsl/bots/); and the exceptions that unwind the rules code: Abort (a choice cannot
be made), Unwind (a phase or turn ends now) and GameOver; Resign is an agent's."""

from __future__ import annotations

import attrs


class Resign(Exception):
    """认输: an agent raises it from `decide` to resign; the game ends there, won by every other side."""


class Abort(Exception):
    """A choice that cannot be made (too few candidates): the skill or card is not used."""


class Unwind(Exception):
    """Ends something at once, abandoning whatever is still settling inside it."""


class PhaseEnd(Unwind):
    """`end_phase()`: the current phase ends now."""


class TurnEnd(Unwind):
    """`end_turn()`: the current turn ends now, with every settlement pending in it (翩仪)."""


class GameOver(Exception):
    def __init__(self, winners: tuple[str, ...], reason: str, seats: frozenset[int] | None = None):
        super().__init__(reason)
        self.winners = winners
        self.reason = reason
        self.seats = seats  # who won, when not everyone of the winning identities did (国战's careerist)

    def won(self, p) -> bool:
        return p.seat in self.seats if self.seats is not None else p.identity in self.winners


@attrs.define
class Request:
    """kind: play | cards | players | option | confirm | skill | respond | hero

    - play: options are actions ("card", card) / ("viewas", …) / ("active", …); answer one, or None to stop
    - cards / players: answer a list of lo..hi options
    - option / hero: answer one option
    - confirm: answer True or False
    - skill: answer one listener, or None (only when lo == 0)
    - respond: answer a card, a ("viewas", …) option, or None
    """

    kind: str
    player: object
    options: list
    lo: int = 1
    hi: int = 1
    prompt: str = ""
    context: object = None
    # what the choice means, as the compiler derived it from the rules (lang/intent.py): (source, sense) with
    # source the id of the skill or card asking and sense good | bad (for the chosen player), mine | given |
    # lost (for a chosen card); for an option, (source, ((text, worth to the chooser, worth to others), …))
    intent: tuple | None = None
    left_out: list = attrs.Factory(list)  # what `choose … where` did not offer: shown to a person, never chosen


class Agent:
    name = "agent"
    omniscient = False  # True only for a scenario test's script, which sees the real game
    pick: str | None = None  # how to pick a hero (HERO_PICKS); None: the agent's own way
    # An agent that decides by counting (`choose`) reads nothing of a request but its kind and how many options
    # it has: the interpreter asks it without making the seat's view of the options at all.
    counting = False
    # An agent that would answer a choice with only one answer as the rules force it (all the cards or players
    # offered, the one option) is not asked it: no view is made (a bot's; a person is still shown the choice).
    takes_forced = False

    def decide(self, g, req: Request):
        raise NotImplementedError

    def choose(self, rng, kind: str, n: int, lo: int, hi: int):
        """A counting agent's answer to a request of `kind` with n options (lo..hi of them for several): an
        index, a list of indices, None to decline, or a bool for a yes/no question."""
        raise NotImplementedError


MANY = ("cards", "players", "options")  # the kinds of request answered with several options


def forced(req: Request) -> list | object | None:
    """The one answer a request allows, or None if there is a choice: every option of a `cards`/`players`
    request that must take them all, or the only option where one must be taken."""
    n = len(req.options)
    if req.kind in MANY:
        return list(req.options) if req.lo == req.hi == n > 0 else None
    if n == 1 and req.lo >= 1 and req.kind in ("option", "skill", "hero"):
        return req.options[0]
    return None


def chosen(options, kind: str, c):
    """The options a counting agent's answer names."""
    if kind == "confirm" or c is None:
        return c
    return [options[i] for i in c] if kind in MANY else options[c]
