"""Decisions: every choice the engine needs is a typed request to an agent; and the two
exceptions that unwind the rules code: Abort (a choice cannot be made) and GameOver."""

from __future__ import annotations

import attrs


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
