"""Table rows and functions of cards."""

from __future__ import annotations

from .. import ast
from ..intent import choices_of, facet_intents
from .names import _safe, _within


class Cards:
    """Mixed into ModuleWriter: cards."""

    def card(self, d: ast.CardDecl) -> None:
        cid = _safe(d.id.text)
        prefix = f"c_{cid}"
        doc = f"card {d.name.text}"
        target = self.target(d.target, prefix, "g, me, card", doc)
        limit = self.card_limit(d.limit, prefix, doc)
        hooks = {"effect": "None", "before": "None", "after": "None"}
        for hook, block in d.hooks:
            w = self.fn(f"{prefix}_{hook}", "g, me, ev, card", f"{doc} {hook}", block.span)
            w.block(block)
            hooks[hook] = self.add(w)
        skill = "None"
        if d.facets:
            fake = ast.SkillDecl(name=d.name, id=d.id, types=(), texts=d.texts, facets=d.facets, counters=(),
                                 tests=(), span=d.span)
            skill = self.skill(fake, owner=True, prefix=f"{prefix}_skill").replace("\n", "\n    ")
        extra = ""
        if d.parent is not None:
            extra += f"    parent={self.m.cards[d.parent.text].id.text!r},\n"
        if d.nature is not None:
            extra += f"    nature={self.m.values[d.nature.text].decl.id.text!r},\n"
        if d.recast:
            extra += "    recast=True,\n"
        sense = facet_intents(self.m).get(id(d), (None, None))[1]
        if sense is not None:
            extra += f"    intent={sense!r},\n"
        hooks_choices = [c for c in choices_of(self.m, d) if any(_within(c.span, b.span) for _, b in d.hooks)]
        rows = self.choice_rows(hooks_choices)
        if rows:
            extra += "    choices=(" + "".join(f"\n        {r}," for r in rows) + "\n    ),\n"
        self.tables["cards"].append(
            f"T.CardDef(\n    id={cid!r}, name={d.name.text!r}, kind={d.kind!r}, slot={d.slot!r}, "
            f"range={d.range or 0},\n    text={' '.join(d.texts)!r},\n    target={target}, limit={limit},\n"
            f"    effect={hooks['effect']}, before={hooks['before']}, after={hooks['after']},\n"
            f"    skill={skill},\n    loc={self.loc(d.span)!r},\n{extra})")
