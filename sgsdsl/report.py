"""What the CLI prints: `info`, `explain` and `simulate` output."""

from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path

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
                   "heroes": list(m.hero_packages), "lord": m.lord,
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
                                    f"{m['deck_size']} cards" for m in data["modes"]))
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
        out.append(f"  viewas {name}: from {v.count} {'hand ' if v.hand_only else ''}card(s)"
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


def _mode_id(rules: Ruleset, mode: str) -> str | None:
    if mode in rules.modes:
        return mode
    for m in rules.modes.values():
        if m.name == mode:
            return m.id
    return None


def simulate_command(paths: list[Path], mode: str, players: int, games: int, seed: int, agent: str, workers: int,
                     turn_cap: int, as_json: bool, log_file, replay_file, check_invariants: bool,
                     quiet: bool, decks: list[str] | None = None, variant: int = 0, variants=(), limits=None) -> int:
    from .diagnostics import CompileError, SourceCache, render_all
    from .engine.ruleset import RulesError
    from .loader import load
    from .sim import run_batch, summarize

    try:
        rules = load(paths or None, variants=variants)
    except RulesError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except CompileError as e:
        from .compiler import build

        b = build(extra=paths)
        print(render_all(e.diagnostics, b.sources if b else SourceCache()), file=sys.stderr)
        return 1
    if replay_file:
        from .replay import replay

        return replay(rules, Path(replay_file), lambda with_: load(paths or None, variants=with_))
    mid = _mode_id(rules, mode)
    if mid is None:
        print(f"error: unknown mode '{mode}' (modes: {', '.join(rules.modes)})", file=sys.stderr)
        return 2
    lo, hi = rules.modes[mid].players
    if not lo <= players <= hi:
        print(f"error: mode {mid} is for {lo}–{hi} players, not {players}", file=sys.stderr)
        return 2
    if games < 1 or workers < 1 or turn_cap < 1:
        print("error: --games, --workers and --turn-cap must be at least 1", file=sys.stderr)
        return 2
    unknown = [d for d in decks or () if d not in rules.decks]
    if unknown:
        print(f"error: unknown deck {unknown[0]} (decks: {', '.join(rules.decks)})", file=sys.stderr)
        return 2
    rows = dict(rules.modes[mid].table).get(players, ((),))
    if not 0 <= variant < len(rows):
        print(f"error: {players} players have {len(rows)} identity variant(s) in {mid}; --variant is 0-based",
              file=sys.stderr)
        return 2
    if log_file:
        try:
            write_log(rules, mid, players, seed, agent, turn_cap, Path(log_file), decks, variant)
        except OSError as e:
            print(f"error: cannot write {log_file}: {e}", file=sys.stderr)
            return 2
    progress = None
    bar = None
    if not quiet and games >= 50 and sys.stderr.isatty():
        from rich.progress import Progress

        bar = Progress(transient=True, console=_stderr_console())
        task = bar.add_task("simulating", total=games)
        bar.start()

        def progress():
            bar.advance(task)

    try:
        results, seconds = run_batch(rules, mode=mid, players=players, games=games, seed=seed, agent=agent,
                                     workers=workers, turn_cap=turn_cap, invariants=check_invariants, paths=paths,
                                     decks=decks, variant=variant, progress=progress, limits=limits)
    finally:
        if bar is not None:
            bar.stop()
    summary = summarize(rules, results, seed=seed, mode=mid, players=players, agent=agent, seconds=seconds)
    if as_json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        print_summary(summary)
    return 1 if summary["errors"] else 0


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)


def print_summary(s: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console(highlight=False)
    con.print(f"{s['games']} games of {s['mode']}, {s['players']} players, {s['agent']} agents, seed {s['seed']}: "
              f"{s['games_per_second']} games/s")
    t = Table(title="win rate per identity (95% CI)")
    for col in ("identity", "wins", "rate", "95% CI"):
        t.add_column(col, justify="right" if col != "identity" else "left")
    for ident, r in s["identities"].items():
        t.add_row(f"{r['name']} {ident}", str(r["wins"]), f"{r['rate']:.1%}",
                  f"{r['ci95'][0]:.1%}–{r['ci95'][1]:.1%}")
    t.add_row("draws (turn cap)", str(s["draws"]), f"{s['draw_rate']:.1%}", "")
    con.print(t)
    con.print(f"average turns: {s['avg_turns']:.1f}")
    h = Table(title="win rate per hero")
    for col in ("hero", "games", "wins", "rate", "95% CI"):
        h.add_column(col, justify="right" if col != "hero" else "left")
    for hid, r in s["heroes"].items():
        h.add_row(f"{r['name']} {hid}", str(r["games"]), str(r["wins"]), f"{r['rate']:.1%}",
                  f"{r['ci95'][0]:.1%}–{r['ci95'][1]:.1%}")
    con.print(h)
    if s["errors"]:
        con.print(f"[red]{len(s['errors'])} game(s) broke:[/red]")
        for e in s["errors"][:10]:
            con.print(e, markup=False)


# ---- logs and replays ------------------------------------------------------------------------


def write_log(rules: Ruleset, mode: str, players: int, seed: int, agent: str, turn_cap: int, path: Path,
              decks=None, variant: int = 0) -> None:
    from .engine.log import GameLog
    from .sim import game_seed, new_game

    gs = game_seed(seed, 0)
    log = GameLog()
    g = new_game(rules, mode, players, gs, agent, log, turn_cap, decks=decks, variant=variant)
    g.run()
    header = {"kind": "header", "mode": mode, "players": players, "seed": gs, "agent": agent, "turn_cap": turn_cap,
              "decks": list(decks or ()), "variant": variant, "with": list(rules.variants),
              "packages": list(rules.packages)}
    path.write_text(json.dumps(header, ensure_ascii=False, sort_keys=True) + "\n" + log.jsonl(), encoding="utf-8")
