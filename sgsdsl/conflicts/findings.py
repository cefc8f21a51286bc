"""Findings: a Diagnostic that also remembers the rules behind it (for `--scenario`), and the
settlement principles of seed 001 that a finding cites."""

from __future__ import annotations

import attrs

from ..lang.diagnostics import Diagnostic, Note
from .facts import Facts, Rule

WARNING, NOTE = "warning", "note"  # a note is settled by seed 001 and does not fail the check

# The settlement principles of seed 001 (2012新版三國殺游戲流程詳解, §2(1)).
INSERTED = "① (inserted events settle first)"
SEAT = "② (counter-clockwise from the current player)"
HERO_FIRST = "③ (hero skills before equipment skills)"
OWNER = "③ (a player orders their own simultaneous skills)"


@attrs.frozen
class Finding(Diagnostic):
    """A check finding. `rules` and `window` feed the scenario writer; they are not shown."""

    rules: tuple = attrs.field(default=(), eq=False, repr=False)
    window: object = attrs.field(default=None, eq=False, repr=False)
    heroes: tuple = attrs.field(default=(), eq=False, repr=False)
    extra: dict = attrs.field(factory=dict, eq=False, repr=False)
    # the names of the modes the message speaks of, as it lists them ("、"-joined): passes that judge modes
    # apart find the same thing in each, and run_checks joins them into one finding
    modes: tuple = attrs.field(default=(), eq=False, repr=False)


def finding(code: str, message: str, span, why: str, principle: str, notes=(), rules=(), window=None,
            heroes=(), severity: str = WARNING, modes=(), **extra) -> Finding:
    from .catalogue import CATALOGUE

    return Finding(code=code, message=message, span=span, help=why, severity=severity, notes=tuple(notes),
                   name=CATALOGUE[code][0], principle=principle, rules=tuple(rules), window=window,
                   heroes=tuple(heroes), extra=extra, modes=tuple(modes))


def note(rule: Rule, message: str) -> Note:
    return Note(rule.span, message)


def ordered(a: Rule, b: Rule) -> tuple[Rule, Rule]:
    """The designer's rule first (the finding points at it), else declaration order."""
    if b.designer and not a.designer:
        return b, a
    return a, b


@attrs.frozen
class Together:
    """How two rules can be in effect at one event: on one player, on two, or one is a mode's rule."""

    same: bool
    two: bool
    mode: bool = False

    def __bool__(self) -> bool:
        return self.same or self.two or self.mode


def together(facts: Facts, a: Rule, b: Rule, window=None) -> Together:
    if "mode" in (a.holder, b.holder):
        other = b if a.holder == "mode" else a
        return Together(False, False, mode=other.holder != "mode" or a is not b)
    subject_only = window is not None and window.subject is not None and not a.any and not b.any
    subject_only = subject_only or bool(a.pinned & b.pinned)  # both need `event.f == self`
    same = facts.same_player(a, b)
    two = facts.two_players(a, b) and not subject_only
    return Together(same, two)


def pair_heroes(facts: Facts, a: Rule, b: Rule, t: Together):
    """Two heroes when the conflict needs two different heroes at the table, or on one seat, else None."""
    if a.holder != "hero" or b.holder != "hero":
        return None
    if t.same:
        return facts.seat_heroes(a, b)
    return facts.meeting_heroes(a, b)


def source(facts: Facts, e) -> str:
    """The rules text of an expression (one line), as the designer wrote it."""
    text = facts.m.sources.get(e.span.file)
    if not text or e.span.line != e.span.end_line:
        return "…"
    line = text.split("\n")[e.span.line - 1]
    return line[e.span.col - 1:e.span.end_col - 1]


def meeting(facts: Facts, a: Rule, b: Rule, window):
    """(together, heroes) when rules a and b can be in play at one table at this window, else None:
    two heroes' rules meet only if the pool lets those two heroes sit at one table."""
    t = together(facts, a, b, window)
    if not t:
        return None
    heroes = pair_heroes(facts, a, b, t)
    if t.two and not t.same and a.holder == b.holder == "hero" and heroes is None:
        return None
    return t, heroes


def who(r: Rule) -> str:
    if r.holder == "hero" and r.heroes:
        return f"{r.name} ({'/'.join(r.hero_names)})"
    return r.name


def principle_at_window(a: Rule, b: Rule, t: Together, outcome) -> tuple[str, str]:
    """(which principle of seed 001 orders two rules that fire at one window, with the outcome of each
    order it allows; the severity). `outcome(first, second)` says what that order gives. A finding
    that seed 001 settles (② the seats, ③ hero before equipment or the owner's choice) is a note."""
    if t.mode:
        # Seed 001 does not place a mode's rule, but the engine's documented order does (mode rules first):
        # the outcome is fixed, so the finding is a note.
        m, other = (a, b) if a.holder == "mode" else (b, a)
        what = "a rule of its package" if m.package_rule else "a mode's rule"
        return (f"none: {m.name} is {what}, not a skill; seed 001 does not place it, and the engine "
                f"settles it before every player's skills: {outcome(m, other)}"), NOTE
    parts, settled = [], True
    both = f"{a.name} first: {outcome(a, b)}; {b.name} first: {outcome(b, a)}"
    if t.same:
        kinds = {a.holder, b.holder}
        if kinds == {"hero", "equipment"} or kinds == {"loose", "equipment"}:
            hero, equip = (a, b) if a.holder != "equipment" else (b, a)
            parts.append(f"{HERO_FIRST} settles it when one player has both: {hero.name} first, then {equip.name}: "
                         f"{outcome(hero, equip)}")
        elif kinds == {"equipment"}:
            settled = False
            parts.append(f"{OWNER} covers hero skills only; for two equipment skills the engine lets the "
                         f"player choose ({both})")
        else:
            parts.append(f"{OWNER} settles it when one player has both: the player chooses ({both})")
    if t.two:
        parts.append(f"{SEAT} settles it when two players have them: whoever sits first from the current "
                     f"player settles first ({both})")
    return ("; ".join(parts), NOTE if settled else WARNING) if parts else ("none", WARNING)


CONTINUOUS = ("none: seed 001 orders skills that fire at a timing, and §2(3) says locked status skills have no "
              "priority, so it leaves the order of continuous modifiers open; the engine applies every `=` in "
              "the order the skills were gained, then adds the `+=`/`-=` sums")
NO_PRINCIPLE_DATA = "none: seed 001 is about timing and settlement, not about the data of decks and modes"
NO_PRINCIPLE_DEAD = "none: seed 001 lists when each timing happens; a rule that never meets its timing is a " \
                    "rules bug, not a settlement question"
NO_PRINCIPLE_TEXT = "none: the official text and the rules must say the same thing; seed 001 §2(2) names the " \
                    "type and the timing among a skill's six elements"
