"""The summaries of flows and card hooks that body scans read: each flow and hook is summarised once (a
fixed point over calls, which rescans only the bodies that read a summary that grew), and again for a known
card (the 桃 the 濒死 flow asks for). A variant package's pass takes over the summaries of the default pass
when the variant redeclares none of the names they looked up (Summaries): nothing is kept between runs,
since the summaries hold the nodes of this process's trees."""

from __future__ import annotations

import attrs

from ..lang import ast
from ..lang.model import SCOPED, Model
from ..lang.tree import is_name
from .bodyfacts import BodyFacts, merge


class Summarising:
    """The part of the Analyzer (bodies.py) that summarises flows and card hooks; `scan` is the Analyzer's."""

    SKIP_UNCHANGED = True  # _summarise skips the bodies whose inputs did not change (off: every body, every round)

    def _start_summaries(self) -> None:
        self.flows: dict[str, BodyFacts] = {}
        self.hooks: dict[str, BodyFacts] = {}
        self._special: dict[tuple[str, str], BodyFacts] = {}  # (flow, card): its summary for that card
        # What a scan read, for _summarise to skip the bodies whose inputs did not change (see there).
        self._version: dict[tuple, int] = {}  # ("flow", id) or ("hook", card id) -> times its summary grew
        self._frames: list[tuple[dict, list]] = []  # per scan in progress: (summary key -> version read, specials)
        self._busy: set = set()  # special keys being computed
        self._special_deps: dict[tuple[str, str], dict] = {}
        self._latest: dict[tuple[str, str], tuple] = {}  # special key -> (its last value, what it read)

    def _summarise(self) -> None:
        """Rounds over every flow and card hook until no summary grows. A body is rescanned only when a
        summary it read has grown since its last scan: otherwise its scan would read the same values, give
        the same result and change nothing, so skipping it keeps every summary exactly as the full rounds
        make it. The specials (a flow's summary for a known card) are recomputed each round, from the
        summaries as they are when first asked for; a skipped body puts back the ones its scan would have
        computed (they read nothing that changed, so they are the same), so later bodies see what they
        would have seen."""
        flows = self.m.unique(self.m.flows)
        cards = self.m.unique(self.m.cards)
        for f in flows:
            self.flows[f.id.text] = BodyFacts()
            self._version[("flow", f.id.text)] = 0
        for c in cards:
            self.hooks[c.id.text] = BodyFacts()
            self._version[("hook", c.id.text)] = 0
        bodies = [(("flow", f.id.text), [f.body], f.event.text) for f in flows]
        for c in cards:
            hooks = self.card_hooks(c)
            if hooks:
                bodies.append((("hook", c.id.text), [b for _, b in hooks], None))
        last: dict[int, tuple] = {}  # body index -> (what its last scan read, the specials it used)
        for _ in range(30):  # monotone: stops as soon as nothing grows
            changed = False
            self._special.clear()  # recomputed from this round's summaries
            self._special_deps.clear()
            for i, (key, blocks, event) in enumerate(bodies):
                seen = last.get(i)
                if seen is not None and self.SKIP_UNCHANGED and all(self._version[k] == v for k, v in seen[0].items()):
                    for k in seen[1]:
                        if k not in self._special:
                            self._special[k], self._special_deps[k] = self._latest[k]
                    continue
                self._frames.append(({}, []))
                new = self.scan(blocks, own_event=event, owner=False)
                last[i] = self._frames.pop()
                into = self.flows[key[1]] if key[0] == "flow" else self.hooks[key[1]]
                if merge(into, new):
                    self._version[key] += 1
                    changed = True
            if not changed:
                break

    def _read(self, key: tuple) -> None:
        """Note that the scan in progress reads a summary (flows and hooks: their keys never change)."""
        if self._frames:
            deps = self._frames[-1][0]
            v = self._version[key]
            if deps.get(key, v) >= v:
                deps[key] = v

    def _reads(self, deps: dict) -> None:
        if self._frames:
            mine = self._frames[-1][0]
            for k, v in deps.items():
                if mine.get(k, v) >= v:
                    mine[k] = v

    def card_hooks(self, c: ast.CardDecl) -> tuple:
        """A card's hooks: its own, and for `is P` those of P it does not declare (火杀 settles as 杀)."""
        hooks, seen = list(c.hooks), {c.id.text}
        while c.parent is not None and (p := self.m.cards.get(c.parent.text)) is not None and p.id.text not in seen:
            seen.add(p.id.text)
            hooks += [h for h in p.hooks if h[0] not in {k for k, _ in hooks}]
            c = p
        return tuple(hooks)

    def flow_fields(self, fid: str, bound: set[str]) -> frozenset[str]:
        """Fields of a flow's own event that can be set when it is called binding `bound`."""
        f = self.m.flows[fid]
        ev = self.m.events.get(f.event.text)
        self._read(("flow", fid))
        out = set(bound) | {w[0] for w in self.flows[fid].writes}
        for fd in ev.fields if ev else ():
            if fd.default is not None and not is_name(fd.default, "none") and not is_name(fd.default, "false"):
                out.add(fd.name.text)
        return frozenset(out)

    def special(self, fid: str, card: str) -> BodyFacts:
        """A flow's summary when its event's card is known (a 桃 used in the 濒死 flow): the branches that
        test the card's kind or name another way (`if event.card.kind == trick`) are left out."""
        key = (fid, card)
        if not self._frames:  # not inside _summarise: nothing to note
            if key not in self._special:
                self._special[key] = self.flows[fid]  # while it is computed, a call of itself sees the general one
                f = self.m.flows[fid]
                self._special[key] = self.scan([f.body], own_event=f.event.text, owner=False, card=card)
            return self._special[key]
        if key not in self._special:
            self._read(("flow", fid))
            self._special[key] = self.flows[fid]
            f = self.m.flows[fid]
            self._busy.add(key)
            self._frames.append(({}, []))
            value = self.scan([f.body], own_event=f.event.text, owner=False, card=card)
            deps, used = self._frames.pop()
            self._busy.discard(key)
            self._special[key] = value
            self._special_deps[key] = deps
            self._latest[key] = (value, deps)
            self._reads(deps)
            self._frames[-1][1].extend(used)
            self._frames[-1][1].append(key)
        elif key in self._busy:
            self._read(("flow", fid))
        else:
            self._reads(self._special_deps.get(key, {}))
            self._frames[-1][1].append(key)
        return self._special[key]



@attrs.define
class Summaries:
    """The flows' and card hooks' summaries of one view of a build (`current`: the variant package, or
    None), with the names they looked up in the tables a variant package overlays (model.SCOPED). A
    variant's pass sees the same build with its own heroes and skills over the global ones: when none
    of those names was looked up (nor a whole table it adds to iterated), every scan reads exactly what
    it read here, so the summaries are the same and are not computed again."""

    current: str | None
    seen: _Lookups
    flows: dict
    hooks: dict
    special: dict

    def fits(self, model: Model) -> bool:
        if self.current is not None or model.current is None:
            return False
        over = model.overlays.get(model.current)
        if over is None:
            return False
        for table, names in over.items():
            if names and (table in self.seen.whole or not self.seen.names[table].isdisjoint(names)):
                return False
        return True

    @staticmethod
    def of(build) -> Summaries | None:
        """The default view's summaries of a build, once its default pass has made them."""
        return build.memo.get("summaries")


class _Lookups:
    """A model that notes every name read from its scoped tables (model.SCOPED), and which of those
    tables were read whole; everything else is the model's own."""

    def __init__(self, model: Model):
        self._model = model
        self.names: dict[str, set] = {t: set() for t in SCOPED}
        self.whole: set[str] = set()

    def __getattr__(self, name):
        return getattr(self._model, name)

    def _table(self, table: str):
        return _Noted(getattr(self._model, table), self.names[table], self.whole, table)

    values = property(lambda self: self._table("values"))
    cards = property(lambda self: self._table("cards"))
    heroes = property(lambda self: self._table("heroes"))
    skills = property(lambda self: self._table("skills"))
    decks = property(lambda self: self._table("decks"))
    modes = property(lambda self: self._table("modes"))


class _Noted:
    """A name table that notes what is read from it."""

    def __init__(self, table, names: set, whole: set, label: str):
        self._t, self._names, self._whole, self._label = table, names, whole, label

    def get(self, key, default=None):
        self._names.add(key)
        return self._t.get(key, default)

    def __getitem__(self, key):
        self._names.add(key)
        return self._t[key]

    def __contains__(self, key):
        self._names.add(key)
        return key in self._t

    def _all(self):
        self._whole.add(self._label)
        return self._t

    def __iter__(self):
        return iter(self._all())

    def __len__(self):
        return len(self._all())

    def keys(self):
        return self._all().keys()

    def values(self):
        return self._all().values()

    def items(self):
        return self._all().items()


