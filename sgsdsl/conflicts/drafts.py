"""`sgsdsl check --scenario DIR`: one `.sgs` file of `test` blocks per finding where a table can
be built (modifiers, event writes, replacements, loops, pairs).

A scenario seats the heroes involved (an equipment card goes to the hero that shares the
conflict, or to a hero with no rule at that window), opens the window with a template chosen by
the window's event type (a 杀 for damage, aim and response windows, a 乐不思蜀 for judgments, a
桃 for recovery, the turn itself for turn windows) and scripts `yes` for every optional skill;
when one player has both skills, one test lets the first fire first and one the second.

Every draft is then run once on this engine, and the file records what happened: `expect log`
for a rule that fired, `expect nolog` for one that did not, the owners' hp and hand after the
turn, or the value of a modified quantity. So each file passes with `sgsdsl test`, and shows
which way the engine settled the conflict; where the two orders end differently, the two tests
show it side by side. The templates name standard cards (杀, 闪, 桃, 决斗, 乐不思蜀): where the
rules lack them, or an event has no template (game setup, death), no file is written.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..lang import ast
from ..lang.tree import walk
from .facts import Facts, Rule

# event type -> (template, card it uses)
TEMPLATES = {
    "damage": ("attack", "杀"), "aim": ("attack", "杀"), "response": ("attack", "杀"),
    "use": ("use", "杀"), "move": ("use", "杀"), "play": ("attack", "决斗"),
    "judge": ("judge", "乐不思蜀"), "recover": ("heal", "桃"), "turn": ("turn", None),
}
SCENARIO_CODES = ("SGS301", "SGS302", "SGS311", "SGS312", "SGS313", "SGS321", "SGS322", "SGS381", "SGS382", "SGS383",
                  "SGS384")
RICH_HAND = ["♥3 桃", "♦2 闪"]  # the second table: owners hold cards and are wounded
# The tables tried for each finding, in order: bare; owners with cards, wounded, carrying the marks the
# conditions read; the same at 1 HP (for conditions such as `event.amount >= self.hp`).
TABLES = (("", 0), ("with cards", -1), ("with cards, at 1 hp", -99))
LOOP_ROUNDS = 6  # optional answers scripted per rule of a loop


class Table:
    def __init__(self, facts: Facts):
        self.facts = facts
        self.seats: list[dict] = []

    def seat(self, hero: str) -> dict:
        for s in self.seats:
            if s["hero"] == hero:
                return s
        s = {"hero": hero, "hand": [], "equip": [], "judge": [], "hp": None, "decide": [], "identity": None,
             "owner": False, "marks": []}
        self.seats.append(s)
        return s

    def filler(self, kingdom: str | None = None, window=None) -> dict:
        """A seat for another hero: preferably of `kingdom` (skills often count on kingdom mates) and
        with no rule at `window` and no modifier, so that nothing else joins in."""
        m = self.facts.m
        taken = {s["hero"] for s in self.seats}
        wid = window.id.text if window is not None else None
        busy = {h.name.text for r in self.facts.rules if r.kind in ("trigger", "modify") for h in r.heroes}
        near = {h.name.text for r in self.facts.rules for h in r.heroes
                if r.kind == "modify" or (r.kind == "trigger" and any(w.id.text == wid for w in r.windows))}
        free = [h for h in m.unique(m.heroes) if h.name.text not in taken]
        kin = [h for h in free if kingdom is not None and h.kingdom is not None and h.kingdom.text == kingdom]
        for pool in ([h for h in kin if h.name.text not in busy], [h for h in kin if h.name.text not in near],
                     [h for h in free if h.name.text not in busy], [h for h in free if h.name.text not in near],
                     free):
            if pool:
                return self.seat(pool[0].name.text)
        raise LookupError("no hero left for a seat")


def _slot(facts: Facts, card: str):
    c = facts.m.cards.get(card)
    return c.slot if c is not None else None


def _owner_seats(table: Table, rules: tuple[Rule, ...], same: bool, window) -> list[dict] | None:
    """The seat of each rule's owner; None if a rule has no seat (a mode's rule)."""
    seats: list = [None] * len(rules)
    for i, r in enumerate(rules):
        if r.holder == "hero" and r.heroes:
            seats[i] = table.seat(r.heroes[0].name.text)
        elif r.holder != "equipment":
            return None
    for i, r in enumerate(rules):
        if r.holder == "equipment":
            host = next((s for s in seats if s is not None), None) if same else None
            if host is None or any(_slot(table.facts, c) == r.slot for c in host["equip"]):
                host = table.filler(None, window)
            host["equip"].append(r.name)
            seats[i] = host
    for s in seats:
        s["owner"] = True
    return seats


def _phase_of(facts: Facts, wid: str) -> str | None:
    turn = facts.m.role_target("turn")
    if not isinstance(turn, ast.FlowDecl):
        return None
    for n in walk(turn.body):
        if isinstance(n, ast.PhaseStmt):
            for x in walk(n.body):
                if isinstance(x, ast.Open) and facts.m.windows.get(x.window.text) is not None \
                        and facts.m.windows[x.window.text].id.text == wid:
                    return n.phase.text
    return None


def _kingdom(facts: Facts, hero: str) -> str | None:
    h = facts.m.heroes.get(hero)
    return h.kingdom.text if h is not None and h.kingdom is not None else None


def _dodge_needed(facts: Facts, w, card: str) -> bool:
    """Is the window opened by the card's own effect (after the target answered it)?"""
    for _, block in facts.m.cards[card].hooks:
        for n in walk(block):
            if isinstance(n, ast.Open) and facts.m.windows.get(n.window.text) is w:
                return True
    return False


def _adjacent(table: Table, a: dict, b: dict) -> None:
    """Seat b right after a, so that a 杀 without a weapon reaches b."""
    table.seats.remove(b)
    table.seats.insert(table.seats.index(a) + 1, b)


def _same(facts: Facts, f) -> bool:
    if f.extra.get("together") is not None:
        return f.extra["together"].same
    if "same" in f.extra:
        return bool(f.extra["same"])
    return all(a is b or facts.same_player(a, b) for a in f.rules for b in f.rules)


def build_table(facts: Facts, f, rich: bool = False, hp: int = -1) -> tuple[Table, dict] | None:
    """The table for a finding; None if none can be built."""
    rules, w, m = f.rules, f.window, facts.m
    if not rules or any(r.holder not in ("hero", "equipment") for r in rules):
        return None
    if any(c not in m.cards for c in ("杀", "闪", "桃")):
        return None
    table = Table(facts)
    seats = _owner_seats(table, rules, _same(facts, f), w)
    if seats is None:
        return None
    info = {"rules": rules, "seats": seats, "window": w}
    owner = seats[0]
    kingdom = _kingdom(facts, owner["hero"])
    if w is not None:
        template = TEMPLATES.get(w.event.text)
        if template is None:
            return None
        kind, card = template
        if card is not None and card not in m.cards:
            return None
        subject = w.subject.text if w.subject is not None else None
        if kind == "turn":
            info["start"] = (owner["hero"], _phase_of(facts, w.id.text))
        elif kind == "attack":
            if w.event.text == "response":
                pins = rules[0].constraints.get(("event", "pattern"), frozenset())
                if ("value", id(m.cards["杀"])) in pins and "决斗" in m.cards:
                    card = "决斗"
            if subject == "source":
                attacker, victim = owner, table.filler(kingdom, w)
            else:
                victim = owner
                attacker = next((s for s in table.seats if not s["owner"]), None) if subject is not None else \
                    next((s for s in table.seats if s is not owner), None)
                attacker = attacker or table.filler(kingdom, w)
            attacker["hand"].append(card)
            attacker["decide"] += [card, victim["hero"]]
            if _dodge_needed(facts, w, card):
                victim["hand"].append("闪")
                victim["decide"].append("闪?")
            info["start"] = (attacker["hero"], "出牌阶段")
            _adjacent(table, attacker, victim)
        elif kind == "use":
            target = table.filler(kingdom, w)
            owner["hand"].append(card)
            owner["decide"] += [card, target["hero"]]
            info["start"] = (owner["hero"], "出牌阶段")
            _adjacent(table, owner, target)
        elif kind == "judge":
            owner["judge"].append(card)
            info["start"] = (owner["hero"], "判定阶段")
        elif kind == "heal":
            owner["hand"].append(card)
            owner["hp"] = -1
            owner["decide"].insert(0, card)
            info["start"] = (owner["hero"], "出牌阶段")
    if len(table.seats) < 2:
        table.filler(kingdom, w)
    if rich:
        marks = sorted({x.split(":", 1)[1] for r in rules for x in r.when_state if x.startswith("mark:")})
        for s in table.seats:
            s["hand"] = s["hand"] + RICH_HAND
            s["marks"] = [f"{x} 1" for x in marks]
            if s["owner"]:
                s["hp"] = min(s["hp"] or hp, hp)
    lord = [r for r in rules if r.lord]
    if lord:
        mode = next((x for x in m.unique(m.modes) if x.lord is not None
                     and all(s["hero"] in facts.pools.get(x.id.text, ()) for s in table.seats)), None)
        if mode is None:
            return None
        info["mode"] = mode.name.text
        for r, s in zip(rules, seats):
            if r in lord:
                s["identity"] = mode.lord.text
    return table, info


def decision_orders(facts: Facts, f, info: dict) -> list[tuple[str, dict]]:
    """(label, hero -> answers to add): one per order when one player can choose it; for modifiers
    of two players, one per seating (the engine applies modifiers in the order they were gained)."""
    rules, seats = info["rules"], info["seats"]
    loop = f.code in ("SGS321", "SGS383")
    if info["window"] is None:
        if len(rules) == 2 and seats[0] is not seats[1]:
            return [(f"{seats[0]['hero']} seated first", {"#order": [0, 1]}),
                    (f"{seats[1]['hero']} seated first", {"#order": [1, 0]})]
        return [("", {})]
    base: dict[str, list] = {}
    for s, r in zip(seats, rules):
        if r.kind == "trigger" and not r.forced:
            base.setdefault(s["hero"], []).extend(["yes?"] * (LOOP_ROUNDS if loop else 1))
    out = [("", base)]
    if len(rules) == 2 and seats[0] is seats[1] and not loop:
        a, b = rules
        if a.holder == b.holder and a.kind == b.kind == "trigger" and not a.forced and not b.forced:
            hero = seats[0]["hero"]
            # Scripts for one order: both ready (pick one, confirm the other), the second ready only after
            # the first, or a third skill of the owner ready beside them (pick, pick again).
            out = [(f"{x.name} first", {hero: script})
                   for x, y in ((a, b), (b, a))
                   for script in ([f"{x.name}?", "yes?", "yes?"], [f"{x.name}?", f"{y.name}?", "yes?"],
                                  ["yes?", f"{y.name}?", "yes?"])]
            # and the owner answering as the requests come: x when offered, the other when x is not ready yet
            out += [(f"{x.name} first", {"#policy": x.name}) for x in (a, b)]
    return out


def _seat_line(facts: Facts, s: dict) -> str:
    out = f"  seat {s['hero']}"
    if s["hp"] is not None:
        h = facts.m.heroes[s["hero"]]
        out += f" hp {max(1, (h.hp_halves or 2) // 2 + s['hp'])}"
    for key in ("hand", "equip", "judge"):
        if s[key]:
            out += f" {key} [{', '.join(s[key])}]"
    if s["identity"]:
        out += f" identity {s['identity']}"
    for m in s["marks"]:
        out += f" mark {m}"
    return out


def test_text(facts: Facts, table: Table, info: dict, extra: dict, expects: list[str], title: str) -> str:
    lines = [f'test "{title}" {{']
    if "mode" in info:
        lines.append(f"  mode {info['mode']}")
    seats = list(table.seats)
    if "#order" in extra:  # the owners' seats in this order, the others after them
        owners = [info["seats"][i] for i in extra["#order"]]
        seats = list(dict.fromkeys(id(x) for x in owners + seats))
        seats = [next(x for x in table.seats if id(x) == k) for k in seats]
    lines += [_seat_line(facts, s) for s in seats]
    if "start" in info:
        who, phase = info["start"]
        lines.append(f"  start {who}" + (f" {phase}" if phase else ""))
    if info["window"] is None:
        lines.append("  turns 0")  # modifiers: the table itself, before any turn resets a mark
    for s in seats:
        if extra.get("#replace") and s["hero"] in extra:  # a script written down from a run: it is all of them
            answers = extra[s["hero"]]
        else:
            answers = s["decide"] + extra.get(s["hero"], [])
        if answers:
            lines.append(f"  decide {s['hero']}: {', '.join(answers)}")
    lines += [f"  {e}" for e in expects]
    lines.append("}")
    return "\n".join(lines) + "\n"


def _slug(text: str) -> str:
    return re.sub(r"[^\w]+", "-", text).strip("-")[:40]


def _header(f, paths: list[str], file: str) -> str:
    out = [f"# {f.span}: {f.code} {f.name}: {f.message}"]
    out += [f"#   {n.span}: {n.message}" for n in f.notes]
    if f.help:
        out.append(f"# why: {f.help}")
    if f.principle:
        out.append(f"# seed 001: {f.principle}")
    out.append(f"# run: sgsdsl test {' '.join(paths + [file])}")
    return "\n".join(out) + "\n"


def write(b, findings: list, out_dir: Path, paths: list[Path]) -> list[Path]:
    """Write the scenarios of the findings that have one; returns the files written."""
    from .facts import facts_of

    facts = facts_of(b)
    out_dir.mkdir(parents=True, exist_ok=True)
    drafts = []  # (finding, path, [variant])
    # A scenario runs on the default tables: findings only about modes that play with variant packages (国战's
    # heroes) were judged with other tables, and get no draft.
    varied = {x.name.text for x in b.model.unique(b.model.g_modes) if x.variants}
    for i, f in enumerate(findings, 1):
        if f.code not in SCENARIO_CODES or not getattr(f, "rules", ()) or (f.modes and varied.issuperset(f.modes)) \
                or any(getattr(b.model.packages.get(b.model.package_of(r.decl)), "variant", False) for r in f.rules):
            continue  # a variant's own rule (first_edition's 克己) is not in the default tables either
        variants = []
        base_title = f"{f.code} {f.name}: {'、'.join(dict.fromkeys(r.name for r in f.rules))}"
        for k, (kind, hp) in enumerate(TABLES):
            rich = bool(kind)
            try:
                got = build_table(facts, f, rich, hp)
            except LookupError:
                got = None
            if got is None:
                continue
            table, info = got
            orders = decision_orders(facts, f, info)
            if info["window"] is not None and not any(o[0].endswith("first") for o in orders):
                orders.append(("", {"#policy": ""}))  # the owners confirm the finding's skills only
            for label, extra in orders:
                label = ", ".join(x for x in (label, kind) if x)
                title = base_title + (f" ({label})" if label else "")
                variants.append({"table": table, "info": info, "extra": extra, "title": title, "kind": k,
                                 "label": label})
        if not variants:
            continue
        path = out_dir / f"{f.code}-{i:02d}-{_slug('-'.join(r.name for r in f.rules))}.sgs"
        drafts.append((f, path, variants))
    if not drafts:
        return []
    _observe(facts, drafts, paths)
    # a table run with the confirmations chosen as they came is run again with them written down, as the file
    # will have them: what that run does is what the file expects
    replays = [(f, path, [v for v in variants if v.get("script")]) for f, path, variants in drafts]
    for f, path, variants in replays:
        for v in variants:
            v["extra"] = v.pop("script")
            v.pop("expects", None)
    _observe(facts, [r for r in replays if r[2]], paths)
    shown = [str(p) for p in paths]
    written = []
    for f, path, variants in drafts:
        kept = _choose(variants)
        body = "".join(test_text(facts, v["table"], v["info"], v["extra"], v["expects"], v["title"]) for v in kept)
        path.write_text(_header(f, shown, str(path)) + body, encoding="utf-8")
        written.append(path)
    return written


def _choose(variants: list[dict]) -> list[dict]:
    """The variants that reach the most rules; both orders when they end differently."""
    ran = [v for v in variants if "expects" in v]
    if not ran:
        v = variants[0]
        v["expects"] = ["# the engine could not run this table; adjust it by hand"]
        return [v]
    best = max(v["fired"] for v in ran)
    kind = min(v["kind"] for v in ran if v["fired"] == best)  # the plainest table that reaches them
    same = []  # the best script of each label (the first that fires the most)
    for v in ran:
        if v["kind"] == kind and not any(x["label"] == v["label"] for x in same):
            same.append(max((x for x in ran if x["kind"] == kind and x["label"] == v["label"]),
                            key=lambda x: x["fired"]))
    orders = [v for v in same if "first" in v["label"] and "seated first" not in v["label"]]
    if len(orders) == 2 and orders[0]["state"] != orders[1]["state"]:
        return orders
    seatings = [v for v in same if "seated first" in v["label"]]
    if len(seatings) == 2 and seatings[0]["expects"] != seatings[1]["expects"]:
        return seatings
    return [v for v in same if v["fired"] == best][:1]


def _observe(facts: Facts, drafts, paths: list[Path]) -> None:
    """Run every variant once, as the file will have it (its title seeds the game); what the engine did
    becomes its expectations."""
    from ..engine.ruleset import Ruleset
    from ..lang import compiler

    starts: dict[tuple, dict] = {}
    for f, path, variants in drafts:
        text, line = "", 1
        for v in variants:
            starts[(str(path), line)] = v
            block = test_text(facts, v["table"], v["info"], v["extra"], [], v["title"])
            text += block
            line += block.count("\n")
        path.write_text(text, encoding="utf-8")
    b2 = compiler.build(extra=list(paths) + [path for _, path, _ in drafts])
    if b2.errors:
        return
    rules = Ruleset([mod.TABLES for mod in compiler.modules_in_memory(b2)])
    found = {}
    for t in rules.tests:
        file, line = t.loc.split(":")[:2]
        found[(file, int(line))] = t
    for f, path, variants in drafts:
        rel = b2.rel(str(path))
        for (p, line), v in starts.items():
            if p == str(path):
                t = found.get((rel, line)) or found.get((str(path), line))
                if t is not None:
                    _run(rules, t, f, v)


def _confirming(agents, seats, names: set[str], hero_of, first: str = "") -> dict:
    """Let the owners confirm the finding's skills and decline every other skill they are offered, as the
    requests come, picking `first` among several when it is ready (else another of the finding's); returns
    hero -> the answers given, the scripted ones and these, in order (the script a file needs to make the
    same choices: a bare `yes?` would go to the first skill offered)."""
    from ..scenarios.runner import show_decision

    scripts: dict[str, list] = {}
    for agent, hero in zip(agents, hero_of):
        if hero not in {s["hero"] for s in seats}:
            continue
        said = scripts.setdefault(hero, [])
        scripted = agent._answer

        def answer(g, req, scripted=scripted, agent=agent, said=said):
            skill = getattr(getattr(req, "context", None), "skill", None)
            if req.kind == "confirm" and skill is not None:
                yes = skill.name in names
                said.append("yes?" if yes else "no?")
                return yes, "脚本: " + ("yes?" if yes else "no?")
            if req.kind == "skill" and names & {o.skill.name for o in req.options}:
                pick = next((o for o in req.options if o.skill.name == first), None) or \
                    next(o for o in req.options if o.skill.name in names)
                said.append(f"{pick.skill.name}?")
                return pick, f"脚本: {pick.skill.name}?"
            before = len(agent.queue)
            got = scripted(g, req)
            if len(agent.queue) < before:
                said.append(show_decision(agent.queue_last))
            return got

        def popleft(q=agent.queue, agent=agent, pop=agent.queue.popleft):
            agent.queue_last = pop()
            return agent.queue_last

        agent.queue_last = None
        agent.queue = _Queue(agent.queue, popleft)
        agent._answer = answer
    return scripts


class _Queue:
    """A scripted agent's queue whose pops are seen (to write them down in order)."""

    def __init__(self, q, pop):
        self._q, self.popleft = q, pop

    def __len__(self):
        return len(self._q)

    def __getitem__(self, i):
        return self._q[i]

    def __bool__(self):
        return bool(self._q)

    def __iter__(self):
        return iter(self._q)


def _run(rules, t, f, v: dict) -> None:
    from ..engine.game import GameOver
    from ..engine.log import GameLog
    from ..scenarios.runner import setup

    info, seats = v["info"], v["info"]["seats"]
    log = GameLog()
    error = None
    g = None
    scripts = None
    try:
        g, agents = setup(rules, t, log)
        if "#policy" in v["extra"]:
            scripts = _confirming(agents, seats, {r.name for r in f.rules}, [rules.heroes[s.hero].name for s in t.seats],
                                  v["extra"]["#policy"])
        if info.get("window") is not None:
            p = g.first or g.players[0]
            try:
                for _ in range(t.turns):
                    g.play_turn(p)
                    p = g.extra_turns.pop(0) if g.extra_turns else g.next_alive(p)
            except GameOver:
                pass
    except RecursionError:
        error = "the chain of triggers went deeper than Python allows (RecursionError)"
    except Exception as e:  # noqa: BLE001 - the table broke: say so in the file
        error = f"{e.__class__.__name__}: {str(e)[:120]}"
    expects = [f"# the engine stopped this table: {error}"] if error else []
    text = "\n".join(log.lines)
    fired = 0
    if info.get("window") is None:
        if g is not None:
            got, fired = _quantity_expects(rules, g, f, info)
            expects += got
    else:
        for rule, seat in zip(f.rules, seats):
            line = f"{seat['hero']} 发动 【{rule.name}】"
            if line in text:
                fired += 1
                expects.append(f'expect log "{line}"')
            else:
                expects.append(f'expect nolog "{line}"')
    state = []
    if g is not None and error is None and info.get("window") is None:
        state = [e for e in expects if e.startswith("expect")]
    if g is not None and error is None and info.get("window") is not None:
        for s in dict.fromkeys(id(x) for x in seats):
            seat = next(x for x in seats if id(x) == s)
            p = g.seat_of(_hero_id(rules, seat["hero"]))
            if p.alive:
                state.append(f"expect {seat['hero']}.hp == {p.hp} and {seat['hero']}.hand_count == {len(p.hand)}")
            else:
                state.append(f"expect not {seat['hero']}.alive")
    if scripts is not None and error is None:
        v["script"] = {"#replace": True} | {hero: said for hero, said in scripts.items() if said}
    if error is None or g is not None:
        v["expects"] = list(dict.fromkeys(expects + state))
        v["fired"] = fired
        v["state"] = tuple(state)


def _quantity_expects(rules, g, f, info) -> tuple[list[str], int]:
    """The quantity's value on this table, and how many of the modifiers' conditions hold."""
    from ..engine.tables import INF

    q = f.extra.get("quantity")
    if q is None:
        return [], 0
    seats = info["seats"]
    names: list[str] = []
    for i, p in enumerate(q.params):
        if p.type.name.text != "player":
            return [f"# {q.name.text} takes a {p.type.name.text}: no value to check here"], 0
        owner = next((seats[j] for j, r in enumerate(f.rules) if r.facet.args[i].text == "self"), None)
        if owner is None:
            owner = next((s for s in seats if s["hero"] not in names), seats[-1])
        names.append(owner["hero"])
    try:
        args = [g.seat_of(_hero_id(rules, n)) for n in names]
        v = g.q(q.id.text, *args)
        held = 0
        for r, seat in zip(f.rules, seats):
            m = _modifier_def(rules, r, q.id.text)
            owner = g.seat_of(_hero_id(rules, seat["hero"]))
            if m is not None and (m.when is None or m.when(g, owner, *args)):
                held += 1
    except Exception as e:  # noqa: BLE001 - a table the engine refuses: say so in the file
        return [f"# the engine could not evaluate {q.name.text}: {e.__class__.__name__}"], 0
    shown = "inf" if v == INF else ("true" if v is True else "false" if v is False else str(v))
    out = [f"expect {q.name.text}({', '.join(names)}) == {shown}"]
    if held < len(f.rules):
        out.insert(0, "# not every modifier's condition holds on this table")
    return out, held


def _modifier_def(rules, r: Rule, qid: str):
    sd = rules.skills.get(r.decl.id.text)
    for m in sd.modifiers if sd is not None else ():
        if m.quantity == qid and m.loc.endswith(f":{r.span.line}"):
            return m
    return None


def _hero_id(rules, name: str) -> str:
    for h in rules.heroes.values():
        if h.name == name:
            return h.id
    return name
