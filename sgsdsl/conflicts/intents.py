"""Family 9: choices whose meaning the bots cannot derive (SGS391, a note).

lang/intent.py derives, for each choice of a player, of the targets of a skill or of an option, what it
means for the chosen from the effects that follow it in the rules; the heuristic bot plays it that way.
A choice where nothing that follows changes the chosen, or where good and bad weigh the same, is played
by the bot without a sense of whom it is for: a `hint` on the skill (or on the options' texts) tells it.
Not a mistake, so a note; a skill whose hint already says whom its targets are for is not noted.
"""

from __future__ import annotations

from ..lang.intent import analyze
from .findings import NOTE, finding

_WHAT = {"player": "its choice of a player", "target": "its choice of targets", "option": "its 「选择一项」"}


def check(facts) -> list:
    m = facts.m
    if m.current is not None:  # the analysis reads every package at once: the default pass says it all
        return []
    # a skill or card hinted hostile or friendly: its hint says whom it is for (names or ids)
    hinted = {t.text for h in m.hints if not h.options and h.intent.text in ("hostile", "friendly") for t in h.targets}
    option_hints = {o.text for h in m.hints for o in h.options}
    out = []
    for c in analyze(m).values():
        if c.kind not in _WHAT or c.derived:
            continue
        if c.kind == "option" and (not c.options or any(t in option_hints for t, _, _ in c.options)):
            continue  # options that are not texts (heroes, suits) are the bot's own business
        if c.kind != "option" and (c.name in hinted or c.source in hinted):
            continue
        if c.kind == "option":
            why = "no branch of it changes anyone"
            fix = f'`hint "{c.options[0][0]}" self 2` (and one for each other option) says what each is worth'
        elif c.sense == "mixed":
            why = f"what follows is as good for the chosen as it is bad ({', '.join(c.why[:3])})"
            fix = f"`hint {c.name} hostile 3` (or friendly) says whom it is for"
        else:
            why = "nothing that follows changes the chosen"
            fix = f"`hint {c.name} hostile 3` (or friendly) says whom it is for"
        prompt = f" 「{c.prompt}」" if c.prompt else ""
        out.append(finding("SGS391", f"{c.name}: the bots cannot tell whom {_WHAT[c.kind]}{prompt} is for: {why}",
                           c.span, fix, "", severity=NOTE))
    return out
