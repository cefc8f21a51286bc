"""What `sgsdsl simulate` prints: win rates per identity and per hero, the featured heroes against their
control, and what each skill did (rich tables)."""

from __future__ import annotations

import sys


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


def skill_name(k: dict) -> str:
    name = f"{k['name']} {'、'.join(k['hero_names'])}"
    return f"[bold]{name}[/bold]" if k["featured"] else name


def shares(by: dict, effects: tuple[str, ...]) -> str:
    """How the effects went to self/ally/foe, in percent of their sum ("·" for none)."""
    n = {r: sum(by.get(e, {}).get(r, 0) for e in effects) for r in ("self", "ally", "foe")}
    total = sum(n.values())
    return "/".join(f"{100 * v / total:.0f}" for v in n.values()) if total else "·"


def print_control(f: dict, con) -> None:
    """Who took the featured seat in the control games, whether each took it as often, and how many games a
    given precision needs."""
    if f["baseline"] == "pool" and f["controls"]:
        counts = [c["games"] for c in f["controls"]]
        even = "every pool hero equally often" if max(counts) - min(counts) <= 1 else "not evenly"
        shown = "、".join(f"{c['name']} {c['games']}" for c in f["controls"][:12])
        more = f" … ({len(f['controls'])} heroes)" if len(f["controls"]) > 12 else ""
        con.print(f"control heroes ({even}; {len(f['controls'])} of {f['pool']}; a control that has every pool hero "
                  f"needs a multiple of {f['pool']} games): {shown}{more}", markup=False)
    need = f["games_for"]
    if need.get("5") is not None:
        con.print("games needed (featured and control each) for a 95% interval of "
                  + ", ".join(f"±{n} points: {g:,}" for n, g in need.items()) + " at the win rates seen",
                  markup=False)


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
        print_control(f, con)
        if f["ablation"]:
            t = table(f"what each skill of {f['name']} is worth: its games against the same games without the "
                      "skill", "skill", "games", "with", "without", "change (points)", "95% CI", "p", "verdict")
            for a in f["ablation"]:
                t.add_row(a["name"], str(a["ablated"]["games"]), pct(a["featured"]["rate"]), pct(a["ablated"]["rate"]),
                          "" if a["delta"] is None else f"{a['delta'] * 100:+.1f}", delta_ci(a["ci95"]),
                          "" if a["p_value"] is None else f"{a['p_value']:.2g}", a["verdict"].split(":")[0])
            con.print(t)
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
        t.add_row(skill_name(k), str(k["games"]), f"{k['per_game']['offered']:.1f}", f"{k['per_game']['used']:.1f}",
                  *map(cell, effects))
    con.print(t)
    t = table("whom each skill helped (cards, recovery) and hurt (damage), in % to its owner/allies/foes as the "
              "game ended; what it cost its owner per use", "skill", "help to self/ally/foe",
              "damage to self/ally/foe", "HP lost", "cards lost")
    t.columns[0].no_wrap = True
    for k in s["skills"]:
        if k["by_recipient"] or k["hp_lost"] or k["cards_lost"]:
            t.add_row(skill_name(k), shares(k["by_recipient"], ("drawn", "gained", "recovered")),
                      shares(k["by_recipient"], ("damage",)),
                      *(f"{k['per_use'][c]:.2f}" if k[c] else "·" for c in ("hp_lost", "cards_lost")))
    con.print(t)
    if s["errors"]:
        con.print(f"[red]{len(s['errors'])} game(s) broke:[/red]")
        for e in s["errors"][:10]:
            con.print(e, markup=False)
