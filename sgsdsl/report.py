"""What the CLI prints: `info`, `explain` and `simulate` output."""

from __future__ import annotations

import inspect
import sys

from .engine.ruleset import Ruleset
from .engine.tables import SkillDef

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
        "tests": len(rules.tests),
    }


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


def _skill_text(rules: Ruleset, s: SkillDef, source: bool) -> list[str]:
    out = [f"skill {s.name} {s.id}" + (f" [{', '.join(s.types)}]" if s.types else "") + f"  ‹{s.loc}›"]
    if s.text:
        out.append(f"  「{s.text}」")
    for t in s.triggers:
        names = "、".join(rules.windows[w].name for w in t.windows)
        how = "forced" if t.forced else "optional"
        lim = f", limit per {t.limit.scope}" if t.limit else ""
        out.append(f"  on {names} ({', '.join(t.windows)}): {how}{lim}  ‹{t.loc}›{_fn(t.run, source)}")
    for a in s.actives:
        lim = f", limit per {a.limit.scope}" if a.limit else ""
        out.append(f"  active in the play phase{lim}  ‹{a.loc}›{_fn(a.run, source)}")
    for v in s.viewas:
        name = rules.cards[v.card].name
        whence = f"{v.pile} pile " if v.pile else "hand " if v.hand_only else ""
        out.append(f"  viewas {name}: from {v.count} {whence}card(s)"
                   + (f", for {v.mode}" if v.mode else "") + f"  ‹{v.loc}›")
    for m in s.modifiers:
        q = rules.quantities[m.quantity]
        out.append(f"  modify {q.name} {m.quantity}({', '.join(m.pattern)}) {m.op} …  ‹{m.loc}›{_fn(m.value, source)}")
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
            out.append(f"  target: {c.target.kind}" + (", with a legal-target test" if c.target.where else ""))
        if c.limit is not None:
            out.append(f"  limit per {c.limit.scope}")
        for hook in ("effect", "before", "after"):
            fn = getattr(c, hook)
            if fn is not None:
                out.append(f"  {hook}: {fn.__name__}{_fn(fn, source)}")
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


# ---- simulate ------------------------------------------------------------------------------


def pct(x: float | None) -> str:
    return "" if x is None else f"{x:.1%}"


def ci(c: list | None) -> str:
    return "" if not c else f"{c[0]:.1%}–{c[1]:.1%}"


def delta_ci(c: list | None) -> str:
    return "" if not c else f"{c[0] * 100:+.1f} to {c[1] * 100:+.1f}"


PAIR_ROWS = 10  # the best and the worst pairs the table shows (the JSON has all)
PAIR_GAMES = 10  # games a pair needs to be ranked in the table


def print_pairs(pairs: list[dict], table, con) -> None:
    ranked = [p for p in pairs if p["games"] >= PAIR_GAMES]
    shown = ranked if len(ranked) <= 2 * PAIR_ROWS else ranked[:PAIR_ROWS] + ranked[-PAIR_ROWS:]
    title = (f"win rate per hero pair (main+deputy, either order; {len(ranked)} of {len(pairs)} pairs played "
             f"{PAIR_GAMES}+ times{'; the best and worst ' + str(PAIR_ROWS) if shown is not ranked else ''})")
    t = table(title, "pair", "games", "rate", "95% CI", "珠联璧合")
    for p in shown:
        t.add_row(p["name"], str(p["games"]), pct(p["rate"]), ci(p["ci95"]), "yes" if p["partners"] else "")
    con.print(t)


def print_summary(s: dict, con=None) -> None:
    from rich.console import Console
    from rich.table import Table

    def table(title: str, *cols: str) -> Table:
        t = Table(title=title)
        for i, col in enumerate(cols):
            t.add_column(col, justify="left" if i == 0 else "right")
        return t

    # piped into a file or a CI log, the tables keep their rows on one line
    con = con or Console(highlight=False, width=None if sys.stdout.isatty() else 120)
    extra = f" (+{s['control_games']} control games)" if s["control_games"] else ""
    con.print(f"{s['games']} games{extra} of {s['mode']}, {s['players']} players, {s['agent']} agents, "
              f"{s['pick']} hero picks, seed {s['seed']}: {s['games_per_second']} games/s")
    two = bool(s["pairs"])  # 国战: a side is not at every table, so also say how often its players won
    side = s.get("side", "identity")
    t = table(f"win rate per {side} (95% CI)", side, "wins", "rate", "95% CI",
              *(("players", "players' rate") if two else ()))
    for ident, r in s["identities"].items():
        per_seat = (str(r["players"]["games"]), pct(r["players"]["rate"])) if two else ()
        t.add_row(f"{r['name']} {ident}", str(r["wins"]), pct(r["rate"]), ci(r["ci95"]), *per_seat)
    t.add_row("draws (turn cap)", str(s["draws"]), pct(s["draw_rate"]), "", *(("", "") if two else ()))
    con.print(t)
    con.print(f"average turns: {s['avg_turns']:.1f}")
    for f in s["featured"]:
        base = "every pool hero in turn" if f["baseline"] == "pool" else f["baseline"]
        t = table(f"{f['name']} {f['hero']} against the control ({base} in the same seat, same seeds)",
                  side, "games", "featured", "control", "change (points)", "95% CI", "p", "verdict")
        for r in f["rows"]:
            t.add_row(r["name"], str(r["featured"]["games"]), pct(r["featured"]["rate"]), pct(r["control"]["rate"]),
                      "" if r["delta"] is None else f"{r['delta'] * 100:+.1f}", delta_ci(r["ci95"]),
                      "" if r["p_value"] is None else f"{r['p_value']:.2g}", r["verdict"].split(":")[0])
        con.print(t)
        overall = f["rows"][-1]
        con.print(f"{f['name']}: {overall['verdict']}")
    idents = list(s["identities"])[1:] if s["lords"] else list(s["identities"])
    t = table("win rate per hero outside the lord's seat" if s["lords"] else "win rate per hero", "hero", "games",
              "rate", "95% CI",
              *(s["identities"][i]["name"] for i in idents))
    for h in s["heroes"]:
        split = [f"{pct(h['identities'][i]['rate'])} ({h['identities'][i]['games']})" if i in h["identities"] else ""
                 for i in idents]
        t.add_row(f"{h['name']} {h['id']}", str(h["games"]), pct(h["rate"]), ci(h["ci95"]), *split)
    con.print(t)
    if s["lords"]:
        t = table("win rate per hero in the lord's seat", "hero", "games", "rate", "95% CI")
        for h in s["lords"]:
            t.add_row(f"{h['name']} {h['id']}", str(h["games"]), pct(h["rate"]), ci(h["ci95"]))
        con.print(t)
    if s["pairs"]:
        print_pairs(s["pairs"], table, con)
    effects = ("drawn", "gained", "damage", "prevented", "recovered", "kills")
    t = table("what each skill did: offered and used per game; effects per game / per use", "skill", "games",
              "offered", "used", "drawn", "gained", "damage", "prevent", "recover", "kills")
    t.columns[0].no_wrap = True
    for k in s["skills"]:
        def cell(key, k=k):
            return f"{k['per_game'][key]:.1f}/{k['per_use'][key]:.1f}" if k[key] else "·"
        name = f"{k['name']} {'、'.join(k['hero_names'])}"
        t.add_row(f"[bold]{name}[/bold]" if k["featured"] else name, str(k["games"]),
                  f"{k['per_game']['offered']:.1f}", f"{k['per_game']['used']:.1f}", *map(cell, effects))
    con.print(t)
    if s["errors"]:
        con.print(f"[red]{len(s['errors'])} game(s) broke:[/red]")
        for e in s["errors"][:10]:
            con.print(e, markup=False)
