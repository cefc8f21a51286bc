"""What `sgsdsl info` and `sgsdsl explain` print: a ruleset's contents, and a skill's, card's or window's
compiled trigger-table rows with their rules file:line."""

from __future__ import annotations

import inspect

from ..engine.ruleset import Ruleset
from ..engine.tables import SkillDef

# ---- info ------------------------------------------------------------------------------


def _skill_rows(s: SkillDef) -> dict:
    return {
        "triggers": [list(t.windows) for t in s.triggers],
        "actives": len(s.actives),
        "viewas": [v.card for v in s.viewas],
        "modifiers": [m.quantity for m in s.modifiers],
    }


def info_data(rules: Ruleset) -> dict:
    pkgs = {}
    for name, t in rules.packages.items():
        pkgs[name] = {
            "title": t.title, "uses": list(t.uses), "files": list(t.sources), "variant": t.variant,
            "heroes": len(t.heroes), "skills": len(t.skills), "cards": len(t.cards),
            "decks": {d.id: len(d.entries) for d in t.decks}, "windows": len(t.windows), "flows": len(t.flows),
            "modes": [m.id for m in t.modes], "tests": len(t.tests),
        }
    tables = rules.tables
    return {
        "packages": pkgs,
        "heroes": [{"id": h.id, "name": h.name, "package": t.package, "kingdom": h.kingdom,
                    "kingdom_name": rules.enum_names.get(h.kingdom, h.kingdom),
                    "hp": h.hp_halves / 2, "gender": h.gender, "skills": list(h.skills)}
                   for t in tables for h in t.heroes],
        "skills": [{"id": s.id, "name": s.name, "package": t.package, "types": list(s.types), **_skill_rows(s)}
                   for t in tables for s in t.skills],
        "cards": [{"id": c.id, "name": c.name, "kind": c.kind, "slot": c.slot, "range": c.range or None}
                  for c in rules.cards.values()],
        "decks": {d.id: {"name": d.name, "title": d.title, "size": len(d.entries)} for d in rules.decks.values()},
        "windows": [{"id": w.id, "name": w.name, "event": w.event, "for": w.subject} for w in rules.windows.values()],
        "flows": [{"id": f.id, "name": f.name, "event": f.event, "opens": list(f.opens)} for f in rules.flows.values()],
        "events": [{"id": e.id, "title": e.title, "fields": [f[0] for f in e.fields]} for e in rules.events.values()],
        "modes": [{"id": m.id, "name": m.name, "players": list(m.players), "decks": list(m.decks),
                   "deck_size": sum(len(rules.decks[d].entries) for d in m.decks),
                   "heroes": list(m.hero_packages), "pool": rules.hero_pool(m), "lord": m.lord,
                   "identities": {str(n): [list(v) for v in variants] for n, variants in m.table}}
                  for m in rules.modes.values()],
        "pools": {p.id: {"name": p.name, "title": p.title, "heroes": list(p.heroes), "package": t.package}
                  for t in tables for p in t.pools},
        "tests": len(rules.tests),
    }


def mode_info_data(rules: Ruleset, mode) -> dict:
    """What one mode plays with and what a run may choose (`info --mode`): its packages, decks, hero pool by
    kingdom, the hero pools and decks `--pool` and `--deck` can name, and its options."""
    rules = rules.for_mode(mode)
    pool = rules.hero_pool(mode)
    by_kingdom: dict[str, int] = {}
    lords = [h for h in pool if rules.heroes[h].lord_of is not None]  # `lord of`: set aside, never dealt
    for h in pool:
        if h in lords:
            continue
        k = rules.enum_names.get(rules.heroes[h].kingdom, rules.heroes[h].kingdom)
        by_kingdom[k] = by_kingdom.get(k, 0) + 1
    dealable = set(pool)
    return {
        "id": mode.id, "name": mode.name, "title": mode.title, "players": list(mode.players),
        "with": list(mode.variants), "hero_packages": list(mode.hero_packages),
        "decks": {d: len(rules.decks[d].entries) for d in mode.decks},
        "other_decks": {d.id: len(d.entries) for d in rules.decks.values()
                        if d.id not in mode.decks and (not d.modes or mode.id in d.modes)},
        "deck_names": {d.id: d.name for d in rules.decks.values()},
        "heroes": len(pool) - len(lords), "by_kingdom": by_kingdom, "lords": len(lords),
        "pools": [{"id": p.id, "name": p.name, "title": p.title, "heroes": len(p.heroes),
                   "in_mode_pool": sum(h in dealable for h in p.heroes)} for p in rules.pools.values()],
        "options": [{"id": i, "name": n, "default": d, "text": doc} for i, n, d, doc in mode.options],
    }


def mode_info_text(d: dict) -> str:
    out = [f"mode {d['name']} {d['id']}: {d['title'] or ''}", f"  players: {d['players'][0]}–{d['players'][1]}"]
    if d["with"]:
        out.append(f"  plays with: {', '.join(d['with'])}")
    names = d["deck_names"]
    out.append("  decks: " + ", ".join(f"{k} ({names[k]}, {v} cards)" for k, v in d["decks"].items()))
    if d["other_decks"]:
        out.append("  decks to add (--deck): " + ", ".join(f"{k} ({names[k]}, {v} cards)"
                                                         for k, v in d["other_decks"].items()))
    out.append(f"  hero pool: {d['heroes']} heroes (" + ", ".join(f"{k} {v}" for k, v in d["by_kingdom"].items())
               + ")" + (f", from {', '.join(d['hero_packages'])}" if d["hero_packages"] else "")
               + (f"; {d['lords']} 君主 hero cards set aside (`lord of`)" if d.get("lords") else ""))
    if d["pools"]:
        out.append("  hero pools to deal from instead (--pool, repeatable):")
        out += [f"    {p['name']} {p['id']}: {p['heroes']} heroes" + (f" — {p['title']}" if p["title"] else "")
                for p in d["pools"]]
    if d["options"]:
        out.append("  options (--option ID=VALUE):")
        out += [f"    {o['id']} ({o['name']}) = {o['default']!r}" + (f" — {o['text']}" if o["text"] else "")
                for o in d["options"]]
    return "\n".join(out)


def info_text(data: dict) -> str:
    out = []
    for name, p in data["packages"].items():
        decks = ", ".join(f"{k} ({v} cards)" for k, v in p["decks"].items())
        out.append(f"package {name}: {p['title'] or ''}")
        out.append(f"  {p['heroes']} heroes, {p['skills']} skills, {p['cards']} cards, {p['windows']} windows, "
                   f"{p['flows']} flows, {p['tests']} tests" + (f"; decks: {decks}" if decks else "")
                   + (f"; modes: {', '.join(p['modes'])}" if p["modes"] else ""))
    out.append("")
    for pkg in data["packages"]:
        heroes = [h for h in data["heroes"] if h["package"] == pkg]
        if heroes:
            out.append(f"heroes of {pkg}: " + " ".join(f"{h['name']}({h['kingdom_name']}{h['hp']:g})" for h in heroes))
    out.append("modes: " + ", ".join(f"{m['name']} {m['id']} {m['players'][0]}–{m['players'][1]} players, "
                                    f"{m['deck_size']} cards, {len(m['pool'])} heroes" for m in data["modes"]))
    if data["pools"]:
        out.append("hero pools (--pool): " + ", ".join(f"{p['name']} {k} ({len(p['heroes'])} heroes)"
                                                       for k, p in data["pools"].items()))
    out.append(f"windows: {len(data['windows'])}; flows: {', '.join(f['name'] for f in data['flows'])}")
    return "\n".join(out)


# ---- explain ------------------------------------------------------------------------------


def _fn(fn, source: bool) -> str:
    if fn is None or not source:
        return ""
    try:
        return "\n" + "".join("      " + line for line in inspect.getsource(fn).splitlines(True))
    except (OSError, TypeError):
        return ""


_SENSE = {"good": "good for the chosen", "bad": "bad for the chosen", "mixed": "as good as bad for the chosen",
          "mine": "goes to the chooser's hand", "given": "is given to another player", "lost": "is lost (discarded, put away)"}
_KIND = {"player": "a player", "target": "its targets", "card": "a card", "option": "an option"}


def _facet_intent(intent) -> str:
    if not intent:
        return ""
    own, tgt = intent
    parts = ([f"for its owner {own}"] if own else []) + ([f"for its targets {tgt}"] if tgt else [])
    return "; " + ", ".join(parts) if parts else ""


def choice_lines(choices) -> list[str]:
    """What `explain` says of each choice: the intent the compiler derived (SkillDef.choices)."""
    if not choices:
        return []
    out = ["  choices (what the bots read from the rules; a `hint` overrides):"]
    for loc, kind, prompt, sense, why in choices:
        head = f"    {_KIND.get(kind, kind)}" + (f" 「{prompt}」" if prompt else "")
        if kind == "option":
            worth = ", ".join(f"「{t}」 {m:+g} to the chooser, {o:+g} to others" for t, m, o in sense)
            out.append(f"{head}: {worth or 'not derived (no branch found)'}  ‹{loc}›")
            continue
        said = _SENSE.get(sense, "not derived: nothing that follows changes the chosen") if sense else \
            "not derived: nothing that follows changes the chosen"
        out.append(f"{head}: {said}" + (f" ({', '.join(why)})" if why else "") + f"  ‹{loc}›")
    return out


def _skill_text(rules: Ruleset, s: SkillDef, source: bool) -> list[str]:
    out = [f"skill {s.name} {s.id}" + (f" [{', '.join(s.types)}]" if s.types else "") + f"  ‹{s.loc}›"]
    if s.text:
        out.append(f"  「{s.text}」")
    for t in s.triggers:
        names = "、".join(rules.windows[w].name for w in t.windows)
        how = "forced" if t.forced else "optional"
        lim = f", limit per {t.limit.scope}" if t.limit else ""
        out.append(f"  on {names} ({', '.join(t.windows)}): {how}{lim}{_facet_intent(t.intent)}  ‹{t.loc}›"
                   f"{_fn(t.run, source)}")
    for a in s.actives:
        lim = f", limit per {a.limit.scope}" if a.limit else ""
        out.append(f"  active in the play phase{lim}{_facet_intent(a.intent)}  ‹{a.loc}›{_fn(a.run, source)}")
    for v in s.viewas:
        name = rules.cards[v.card].name
        whence = f"{v.pile} pile " if v.pile else "hand " if v.hand_only else ""
        out.append(f"  viewas {name}: from {v.count} {whence}card(s)"
                   + (", usable by the players its `by` names" if v.by is not None else "")
                   + (f", limit per {v.limit.scope}" if v.limit else "")
                   + (f", for {v.mode}" if v.mode else "") + f"  ‹{v.loc}›")
    for m in s.modifiers:
        q = rules.quantities[m.quantity]
        out.append(f"  modify {q.name} {m.quantity}({', '.join(m.pattern)}) {m.op} …  ‹{m.loc}›{_fn(m.value, source)}")
    out += choice_lines(s.choices)
    rows = [w for w, skills in rules.triggers.items() if s.id in skills]
    if rows:
        out.append("  trigger-table rows: " + ", ".join(f"{rules.windows[w].name} → {s.id}" for w in rows))
    return out


def explain_text(rules: Ruleset, name: str, source: bool = False) -> str | None:
    hit = rules.lookup(name)
    if hit is None:
        return None
    kind, ident = hit
    out: list[str] = []
    if kind == "skills":
        out += _skill_text(rules, rules.skills[ident], source)
        owners = [h.name for h in rules.heroes.values() if ident in h.skills]
        if owners:
            out.append(f"  heroes: {'、'.join(owners)}")
    elif kind == "cards":
        c = rules.cards[ident]
        slot = f" {c.slot}" + (f" range {c.range}" if c.slot == "weapon" else "") if c.slot else ""
        out.append(f"card {c.name} {c.id}: {c.kind}{slot}  ‹{c.loc}›")
        if c.text:
            out.append(f"  「{c.text}」")
        if c.target is not None:
            out.append(f"  target: {c.target.kind}" + (", with a legal-target test" if c.target.where else "")
                       + (f"; for its targets {c.intent}" if c.intent else ""))
        if c.limit is not None:
            out.append(f"  limit per {c.limit.scope}")
        for hook in ("effect", "before", "after"):
            fn = getattr(c, hook)
            if fn is not None:
                out.append(f"  {hook}: {fn.__name__}{_fn(fn, source)}")
        out += choice_lines(c.choices)
        for d in rules.decks.values():
            n = sum(1 for e in d.entries if e[2] == c.id)
            if n:
                out.append(f"  in deck {d.name}: {n}")
        if c.skill is not None:
            out += ["  " + line for line in _skill_text(rules, c.skill, source)]
    elif kind == "windows":
        w = rules.windows[ident]
        out.append(f"window {w.name} {w.id} ({w.event})" + (f" for {w.subject}" if w.subject else "") + f"  ‹{w.loc}›")
        if w.doc:
            out.append(f"  「{w.doc}」")
        opened = [f.name for f in rules.flows.values() if ident in f.opens]
        out.append(f"  opened by flows: {'、'.join(opened) or '(none: opened only with `open … with`)'}")
        skills = rules.triggers.get(ident, ())
        out.append(f"  trigger-table row: {ident} → {', '.join(skills) if skills else '(no skill listens)'}")
        for sid in skills:
            s = rules.skills[sid]
            for t in s.triggers:
                if ident in t.windows:
                    out.append(f"    {s.name} {sid}: {'forced' if t.forced else 'optional'}  ‹{t.loc}›")
    elif kind == "heroes":
        h = rules.heroes[ident]
        out.append(f"hero {h.name} {h.id}: {rules.enum_names.get(h.kingdom, h.kingdom)} {h.hp_halves / 2:g} "
                   f"{rules.enum_names.get(h.gender, h.gender)}  ‹{h.loc}›")
        for sid in h.skills:
            out += ["  " + line for line in _skill_text(rules, rules.skills[sid], source)]
    elif kind == "flows":
        f = rules.flows[ident]
        out.append(f"flow {f.name} {f.id} ({f.event})  ‹{f.loc}›")
        out.append("  opens: " + " → ".join(rules.windows[w].name for w in f.opens))
        out.append(_fn(f.fn, source))
    elif kind == "modes":
        m = rules.modes[ident]
        out.append(f"mode {m.name} {m.id}: {m.players[0]}–{m.players[1]} players, decks {', '.join(m.decks)}  ‹{m.loc}›")
        for n, variants in m.table:
            out.append(f"  {n}: " + " | ".join(" ".join(rules.enum_names.get(i, i) for i in v) for v in variants))
        for w in m.wins:
            out.append(f"  win {', '.join(rules.enum_names.get(i, i) for i in w.identities)}  ‹{w.loc}›")
        for r in m.rules:
            out += ["  " + line for line in _skill_text(rules, r, source)]
    else:
        d = getattr(rules, kind)[ident]
        out.append(f"{kind[:-1]} {d.name} {d.id}  ‹{d.loc}›")
    return "\n".join(line for line in out if line != "")


def explain_everywhere(rules: Ruleset, name: str, source: bool = False) -> str | None:
    """explain_text over every package that ships: the default rules, then each variant package not selected
    (国战's 藏机, the first edition's skills …), each variant's own version under a line naming it."""
    from ..engine.ruleset import Ruleset as _Ruleset

    out, seen = [], set()
    text = explain_text(rules, name, source)
    if text is not None:
        out.append(text)
        hit = rules.lookup(name)
        seen.add(getattr(getattr(rules, hit[0])[hit[1]], "loc", None))
    for t in rules.all_tables:
        if not t.variant or t.package in rules.variants:
            continue
        other = _Ruleset(rules.all_tables, rules.variants + (t.package,))
        hit = other.lookup(name)
        if hit is None:
            continue
        loc = getattr(getattr(other, hit[0])[hit[1]], "loc", None)
        if loc in seen:  # the variant does not redeclare it
            continue
        seen.add(loc)
        modes = [m.name for m in other.modes.values() if t.package in m.variants]
        how = f"mode {'、'.join(modes)} plays with it" if modes else f"`use {t.package}` selects it"
        out.append(f"in the variant package {t.package} ({how}):\n" + explain_text(other, name, source))
    return "\n\n".join(out) if out else None
