"""Scenario tests: `test` blocks in rules files set a table, script decisions and state outcomes.

    test "奸雄获得造成伤害的牌" {
      seat 关羽 hand [♥7 杀]
      seat 曹操 hp 3
      start 关羽 出牌阶段
      decide 关羽: 杀, 曹操
      decide 曹操: yes
      expect 曹操.hp == 2 and 杀 in 曹操.hand
      expect log "曹操 发动 【奸雄】"
    }

Unscripted requests get the passive answer (decline, pass, or the first legal
choice). A scripted answer that does not fit the request waits for one it fits;
answers left over at the end fail the test, except those marked `?` (`杀?`):
a test can offer a move that the rules must refuse, and fail if it is taken.
"""

from __future__ import annotations

import zlib
from collections import deque

import attrs

from ..bots.agents import FirstAgent
from ..engine.game import Game, GameOver
from ..engine.invariants import InvariantError, hidden
from ..engine.log import GameLog
from ..engine.requests import Request
from ..engine.ruleset import RulesError, Ruleset, rules_location
from ..engine.state import SUIT_SYMBOL, Card, rank_text
from ..engine.tables import TestDef
from ..engine.view import Desk

NO = {"no", "pass", "否", "不", "none"}
YES = {"yes", "是", "ok"}
SYMBOL_SUIT = {v: k for k, v in SUIT_SYMBOL.items()}


@attrs.define
class TestResult:
    test: TestDef
    ok: bool
    failures: list[str]
    log: GameLog

    @property
    def name(self) -> str:
        return f"{self.test.title} ({self.test.loc})"


@attrs.define
class Asked:
    """One request a test's game made: whom, for which skills or cards, what it offered, and the log's line."""

    hero: str  # the seat's hero id
    subjects: tuple[str, ...]  # the skill or card asking, innermost first
    options: list
    line: str


@attrs.define
class Bound:
    """`decide 藏机: …` / `decide 刘备 八卦阵: …`: answers given only to that skill's or card's requests."""

    hero: str | None  # the seat, or None: any seat the skill asks
    subject: str  # as the test named it (a skill or card id)
    ids: frozenset  # the ids its requests carry (a card's own skill too)
    queue: deque
    misfits: list = attrs.Factory(list)  # requests of it that the next answer did not fit


class Script:
    """What the scripted seats of one test share: the bound answers and every request made."""

    def __init__(self, rules: Ruleset, bound=()):
        self.bound = [Bound(hero, subject, subject_ids(rules, subject), deque(ds)) for hero, subject, ds in bound]
        self.requests: list[Asked] = []

    def claims(self, hero: str, subjects: tuple[str, ...]) -> list[Bound]:
        """The bound answers that own a request: those of its innermost skill or card that has any."""
        for s in subjects:
            mine = [b for b in self.bound if s in b.ids and b.hero in (None, hero)]
            if mine:
                return mine
        return []


def subject_ids(rules: Ruleset, ident: str) -> frozenset:
    card = rules.cards.get(ident)
    return frozenset({ident} | ({card.skill.id} if card is not None and card.skill is not None else set()))


def request_subjects(g, req: Request) -> tuple[str, ...]:
    """The skills and cards a request answers, innermost first: the skill a yes/no question offers to fire, then
    the skills and card effects settling on the stack."""
    out = []
    ctx = req.context
    if hasattr(ctx, "skill") and hasattr(ctx, "trigger"):
        out.append(ctx.skill.id)
    out += [f.ident for f in reversed(g.stack) if f.kind in ("skill", "effect") and f.ident]
    return tuple(dict.fromkeys(out))


class ScriptedAgent(FirstAgent):
    name = "scripted"
    omniscient = True  # the test author scripts outcomes the table would leave to chance

    def __init__(self, decisions=(), asked: list | None = None, script: Script | None = None, hero: str = ""):
        self.queue = deque(decisions)
        self.asked = asked if asked is not None else []  # (hero id) of every request, shared by the seats
        self.script = script
        self.hero = hero
        self.failures: list[str] = []
        self.bot = None
        self.spent: list = []  # (answer, where it went, the log's line) of each unbound answer used

    def decide(self, g, req: Request):
        subjects = request_subjects(g, req)
        answer, how = self._answer(g, req)  # (g, req) only: check's scenario drafts (conflicts/drafts.py) wrap it
        p = req.player
        self.asked.append(p.heroes[0].id if p.heroes else g.fixed_heroes.get(p.seat, ""))
        line = f"? {req.player.name}「{req.prompt or req.kind}」{_options(g, req)} → {_label(g, answer)} ({how})"
        if g.log is not None:
            g.log.request(g, line)
        if self.script is not None:
            self.script.requests.append(Asked(self.hero, subjects, list(req.options),
                                              g.log.requests[-1] if g.log is not None else line))
        return answer

    def _answer(self, g, req: Request):
        subjects = request_subjects(g, req)
        claims = self.script.claims(self.hero, subjects) if self.script is not None else []
        if claims:  # a skill the test binds answers to is answered by those alone
            b = next((b for b in claims if b.queue), None)
            name = _option_name(g, claims[0].subject)
            if b is not None:
                d = b.queue[0]
                ok, answer = match(g, req, d[1] if d[0] == "bot" else d)
                if ok:
                    b.queue.popleft()
                    if d[0] == "bot":
                        return self.ask_bot(g, req, answer), f"机器人作答，须为 {show_decision(d[1])}"
                    return answer, f"脚本 【{name}】: {show_decision(d)}"
                b.misfits.append(len(self.script.requests))
            return super().decide(g, req), f"默认：【{name}】的请求只用绑定给它的答案"
        if self.queue:
            d = self.queue[0]
            ok, answer = match(g, req, d[1] if d[0] == "bot" else d)
            if ok:
                self.queue.popleft()
                if d[0] == "bot":
                    return self.ask_bot(g, req, answer), f"机器人作答，须为 {show_decision(d[1])}"
                # an answer not bound to a skill says which skill's request took it (`decide 藏机: …` binds one)
                named = _option_name(g, subjects[0]) if subjects else ""
                asker = f"，答【{named}】" if named and named not in (req.prompt or "") else ""
                self.spent.append((d, _asker(g, req, subjects), f"{req.player.name}「{req.prompt or req.kind}」"))
                return answer, f"脚本: {show_decision(d)}{asker}"
        default = super().decide(g, req)
        self._misbound(g, req, subjects, default)
        return default, "默认"

    def _misbound(self, g, req: Request, subjects, default) -> None:
        """A request left to the default that an unbound answer, spent earlier on another skill's or card's
        request, would have fitted: the answer may have gone to the wrong request (a `yes` meant for 藏机 taken
        by 八卦阵), so the test says so and asks for the answer to be bound."""
        if req.kind not in ("confirm", "respond", "skill"):
            return  # the play phase's default ends it, as a script's last answer means; a forced choice is no slip
        here = _asker(g, req, subjects)
        for d, there, line in self.spent:
            if there == here or None in (there[0], here[0]) or d[-1] == "optional":
                continue  # an answer can be bound to a skill or a card only: a mode's own question is no rival
            fits, answer = match(g, req, d)
            if fits and answer != default:  # a `no` the default would have given too went nowhere wrong
                binds = " or ".join(f"`decide {_option_name(g, s)}: {show_decision(d)}`" for s in (there[0], here[0]))
                self.failures.append(
                    f"the answer {show_decision(d)} went to {line}, and a later request of 【{_option_name(g, here[0])}】 "
                    f"that it also fits was left to the default: say which it answers ({binds})")
                self.spent.remove((d, there, line))
                return

    def ask_bot(self, g, req: Request, expected):
        """`decide X: bot …`: the heuristic bot decides, from X's seat view; the test states its answer."""
        from ..bots.heuristic import HeuristicAgent

        self.bot = self.bot or HeuristicAgent()
        desk = Desk(g, req.player.seat)
        # what the bot reads is held against what the seat may know, as in a simulated game with invariants on
        check = (lambda view, seen: hidden(g, desk, view, seen)) if g.check_invariants else None
        answer = desk.ask(self.bot, req, check)
        same = (len(answer) == len(expected) and all(a is b for a, b in zip(answer, expected))
                if isinstance(expected, list) and isinstance(answer, list) else answer is expected or answer == expected)
        if not same:
            show = g.log.show
            self.failures.append(f"the heuristic bot of {req.player.name} answered {show(g, answer)} to "
                                 f"「{req.prompt or req.kind}」, not {show(g, expected)}")
        return answer


def _asker(g, req: Request, subjects) -> tuple:
    """Which request an answer went to, as far as misbinding goes: the innermost skill or card asking (what a
    `decide` can be bound to; None for a mode's own question), and the request's kind."""
    s = subjects[0] if subjects else None
    return (s if s in g.rules.skills or s in g.rules.cards else None, req.kind)


def show_decision(d) -> str:
    """A scripted answer as the test wrote it (never a Python tuple)."""
    optional = "?" if d and d[-1] == "optional" else ""
    if d[0] == "many":
        return "[" + ", ".join(show_decision(x) for x in d[1]) + "]" + optional
    if d[0] == "text":
        return f'"{d[1]}"' + optional
    if d[0] == "bot":
        return "bot " + show_decision(d[1])
    _, suit, rank, text = d[:4]
    sr = f"{SUIT_SYMBOL.get(suit, '')}{rank_text(rank)} " if suit or rank else ""
    return f"{sr}{text}{optional}"


def _label(g, x) -> str:
    """A request's option or answer as the log would name it."""
    if isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) and x[0] in ("card", "recast", "viewas",
                                                                                    "active", "supply"):
        kind, what = x
        if kind == "card":
            return g.log.show(g, what)
        if kind == "recast":
            return "重铸 " + g.log.show(g, what)
        return f"【{what[0].skill.name}】" + (f"({g.rules.cards[what[1]].name})" if kind == "supply" else "")
    if hasattr(x, "skill") and hasattr(x, "trigger"):
        return f"【{x.skill.name}】"
    if isinstance(x, tuple):
        return "[" + "、".join(_label(g, y) for y in x) + "]"
    if isinstance(x, str):
        return _option_name(g, x)
    return g.log.show(g, x) if g.log is not None else str(x)


def _options(g, req: Request, most: int = 10) -> str:
    if req.kind == "confirm":
        return ""
    shown = "、".join(_label(g, o) for o in req.options[:most])
    return f" [{shown}{'…' if len(req.options) > most else ''}]"


def _names(obj) -> set[str]:
    if isinstance(obj, Card):
        return {obj.cdef.name, obj.cdef.id}
    if hasattr(obj, "heroes"):
        return {h.name for h in obj.heroes} | {h.id for h in obj.heroes}
    return set()


def _card_fits(c: Card, d) -> bool:
    _, suit, rank, text = d[:4]
    return text in _names(c) and (suit is None or c.suit == suit) and (rank is None or c.rank == rank)


def match(g, req: Request, d):  # noqa: C901 - one case per request kind
    """Does decision d answer request req? Returns (fits, answer)."""
    k = req.kind
    if d[0] == "many" and k == "option":  # a set of cards offered whole (a view-as skill's `together`)
        for o in req.options:
            if isinstance(o, tuple) and _set_fits(list(o), d[1]):
                return True, o
        return False, None
    if d[0] == "many" and k == "options":  # several options picked at once
        picked = []
        for item in d[1]:
            text = item[1] if item[0] == "text" else item[3]
            hit = next((o for o in req.options if o not in picked and text in (o, _option_name(g, o))), None)
            if hit is None:
                return False, None
            picked.append(hit)
        return (req.lo <= len(picked) <= req.hi), picked
    if d[0] == "many":
        if k not in ("cards", "players"):
            return False, None
        picked: list = []
        for item in d[1]:
            # each item takes the first option it fits that no earlier item took: [闪, 闪] means two 闪
            rest = Request(k, req.player, [o for o in req.options if o not in picked], 1, 1, req.prompt)
            ok, ans = match(g, rest, item)
            if not ok:
                return False, None
            picked.append(ans[0])
        return (req.lo <= len(picked) <= req.hi), picked
    if k in ("cards", "players") and req.lo > 1:
        return False, None  # one name cannot answer a request for several
    text = d[1] if d[0] == "text" else d[3]
    if k == "confirm":
        if text in YES:
            return True, True
        if text in NO:
            return True, False
        return False, None
    if text in NO and k in ("play", "respond", "skill") and req.lo == 0:
        return True, None
    if k == "play":
        for opt in req.options:
            kind, what = opt
            if kind == "card" and d[0] == "name" and _card_fits(what, d):
                return True, opt
            if kind == "recast" and d[0] == "text" and text.split()[:1] == ["重铸"] and \
                    (len(text.split()) == 1 or text.split()[1] in _names(what)):
                return True, opt  # `decide P: "重铸 铁索连环"`
            if kind in ("viewas", "active", "supply") and text in (what[0].skill.name, what[0].skill.id):
                return True, opt
            if kind == "viewas" and d[0] == "text" and len(text.split()) == 2 and \
                    text.split()[0] in (what[0].skill.name, what[0].skill.id) and \
                    text.split()[1] in (what[1].card, g.rules.cards[what[1].card].name):
                return True, opt  # `decide P: "奇策 南蛮入侵"`: which of a skill's conversions
        return False, None
    if k == "respond":
        for opt in req.options:
            if isinstance(opt, Card):
                if d[0] == "name" and _card_fits(opt, d):
                    return True, opt
            elif text in (opt[1][0].skill.name, opt[1][0].skill.id):
                return True, opt
        return False, None
    if k == "cards":
        for c in req.options:
            if d[0] == "name" and _card_fits(c, d):
                return True, [c]
        return False, None
    if k == "players":
        for p in req.options:
            if text in _names(p):
                return True, [p]
        return False, None
    if k == "skill":
        for L in req.options:
            if text in (L.skill.name, L.skill.id):
                return True, L
        return False, None
    if k == "hero":
        for h in req.options:
            if text in (h, g.rules.heroes[h].name):
                return True, h
        return False, None
    if k == "option":
        for o in req.options:
            shown = _option_name(g, o)
            if text in (o, shown) or SYMBOL_SUIT.get(text) == o:
                return True, o
        return False, None
    return False, None


def _set_fits(cards: list, items) -> bool:
    """Do the scripted card names name exactly these cards (in any order)?"""
    rest = list(cards)
    for item in items:
        hit = next((c for c in rest if item[0] == "name" and _card_fits(c, item)), None)
        if hit is None:
            return False
        rest.remove(hit)
    return not rest


def _option_name(g, o) -> str:
    """An option as a test may name it: a suit's symbol, or the Chinese name of a value or declaration."""
    if not isinstance(o, str):
        return str(o)
    r = g.rules
    for table in (r.skills, r.heroes, r.cards):
        if o in table:
            return table[o].name
    return SUIT_SYMBOL.get(o, r.enum_names.get(o, o))


def _pull(g: Game, spec) -> Card:
    """The card a test names: taken from the draw pile if the deck has it (with the sign it names, if any), else
    made for the test, bearing that sign."""
    suit, rank, cid, *sign = spec
    for c in reversed(g.draw_pile):
        if c.cdef.id == cid and (suit is None or c.suit == suit) and (rank is None or c.rank == rank) \
                and (not sign or sign[0] in c.signs):
            g.draw_pile.remove(c)
            c._zone = None
            return c
    if cid not in g.rules.cards:
        raise RulesError(f"unknown card {cid}")
    c = g.new_card(cid, suit or "spade", rank or 1)
    c.signs = tuple(sign)
    return c


def stack_deck(g: Game, t: TestDef) -> None:
    for spec in reversed(t.deck):  # the first listed ends on top
        g.move(_pull(g, spec), "draw")


def setup(rules: Ruleset, t: TestDef, log: GameLog) -> tuple[Game, list[ScriptedAgent]]:
    mode = rules.modes.get(t.mode) if t.mode else None
    agents = []
    asked: list[str] = []
    script = Script(rules, t.bound)
    for s in t.seats:
        decisions = [d for who, ds in t.decides if who == s.hero for d in ds]
        agents.append(ScriptedAgent(decisions, asked, script, s.hero))
    seed = zlib.crc32(t.title.encode("utf-8"))
    g = Game(rules, players=len(t.seats), seed=seed, agents=agents, mode=mode, log=log, invariants=False,
             turn_cap=max(t.turns, 1) + 1)
    g.turn_limit = t.turn_limit
    g.options = dict(t.options)
    g.hero_pool = list(t.heroes)  # the test's own hero pile: what draw_heroes may deal (变更, 嗜戮 …)
    # without a mode: every deck but those that belong to modes (1v1's 52 cards repeat the standard ones)
    g.build_deck(mode.decks if mode is not None else [d for d, dd in rules.decks.items() if not dd.modes])
    if t.setup:  # the mode sets the table up, with the seats' heroes and identities
        stack_deck(g, t)  # first, so that the mode's own draws (比点, starting hands) take the test's cards
        if t.heroes:  # the hero pile the test names
            g.hero_pool = list(t.heroes)
        else:  # a designer's heroes join the pool of the tests that seat them, not of every test in the run
            named = {h for s in t.seats for h in (s.hero, s.deputy, *s.reserve) if h}
            theirs = {h for pkg in rules.designer for h in rules.package_heroes.get(pkg, ())}
            g.hero_pool = [h for h in rules.hero_pool(mode) if h not in theirs or h in named]
        g.fixed_heroes = {i: s.hero for i, s in enumerate(t.seats)}
        g.deal_first = tuple(dict.fromkeys(h for s in t.seats for h in (s.hero, *s.reserve)))
        if all(s.identity is not None for s in t.seats):
            g.fixed_identities = [s.identity for s in t.seats]
        g.setup_mode()
    for p, s in zip(g.players, t.seats):
        if not t.setup:
            p.identity = s.identity
            if mode is not None and mode.lord is not None and s.identity == mode.lord:
                p.identity_shown = True
            if s.deputy is None:
                g.set_hero(p, s.hero)
            else:
                g.seat_two_heroes(p, s.hero, s.deputy, s.hidden, s.kingdom, s.armed)
        if s.max_hp is not None:
            p.max_hp = s.max_hp
        if s.hp is not None or not t.setup:
            p.hp = s.hp if s.hp is not None else p.max_hp
        p.flipped, p.chained = s.flipped, s.chained
        for spec in s.hand:
            g.move(_pull(g, spec), "hand", p)
        for spec in s.equip:
            g.move(_pull(g, spec), "equip", p)
        for spec in s.judge:
            g.move(_pull(g, spec), "judge", p)
        for mark, n in s.marks:
            g.set_mark(p, mark, n)
        for h in s.reserve if not t.setup else ():  # with `setup`, they are dealt in the mode's draw instead
            g.draft(p, h)
        p.fallen.extend(s.fallen)
        for pile, specs in s.piles:
            for spec in specs:
                g.move(_pull(g, spec), "pile:" + pile, p)
        if s.dead:  # a seat that starts dead: out of the game, holding nothing
            g.discard(None, p.all_cards)
            g.kill(p)
    if not t.setup:
        stack_deck(g, t)
    if mode is not None and not t.setup:
        for rule in mode.rules:
            g.add_rules(rule)
    if t.start is not None:
        who, phase = t.start
        g.first = g.seat_of(who)
        g.start_phase = phase
        if phase is not None and g.first.flipped:
            # the turn is already under way at that phase: the seat turned face down is not asked, at 回合开始前,
            # to skip it; it is face down again from the phase on
            first = g.first
            first.flipped = False

            def flip_back():
                first.flipped = True

            g.at_start_phase = flip_back
    g.check_invariants = True
    g.verify()
    return g, agents


def run_test(rules: Ruleset, t: TestDef, windows: bool = False, observer=None) -> TestResult:
    """Play a test; `observer` (e.g. engine/skillstats.SkillStats) watches the game from the first turn."""
    log = GameLog(windows=windows)
    failures: list[str] = []
    try:
        g, agents = setup(rules, t, log)
        g.observer = observer
        p = g.first or g.players[0]
        try:
            for _ in range(t.turns):
                g.play_turn(p)
                p = g.extra_turns.pop(0) if g.extra_turns else g.next_alive(p)
        except GameOver as over:
            g.over, g.winners, g.end_reason, g.won_seats = True, over.winners, over.reason, over.seats
            log.end(g, over)
        for fn, src, loc, *parts in t.expects:
            try:
                if not fn(g):
                    failures.append(f"{loc}: expected {src}" + _operand_values(g, parts[0] if parts else None))
            except Exception as e:  # a broken expectation is a failure, not a crash
                failures.append(f"{loc}: expected {src}: {e.__class__.__name__}: {e}"
                                + _operand_values(g, parts[0] if parts else None))
        for seat, fn, src, loc, *parts in t.views:
            seen = ViewOfTable(g, seat)
            who = f"座位{seat + 1}"
            try:
                if not fn(seen):
                    failures.append(f"{loc}: expected, as {who} sees it, {src}"
                                    + _operand_values(g, parts[0] if parts else None, seen))
            except Exception as e:  # a part of the table the seat's view has no word for
                failures.append(f"{loc}: expected, as {who} sees it, {src}: {e.__class__.__name__}: {e}")
        for present, texts, loc in t.logs:
            texts = (texts,) if isinstance(texts, str) else texts
            found = _in_order(texts, log.lines, lambda text, line: text in line)
            shown = " then ".join(f'"{x}"' for x in texts)
            if present and not found:
                failures.append(f"{loc}: the log has no line{'s' if len(texts) > 1 else ''} containing {shown}"
                                + (" in this order" if len(texts) > 1 else ""))
            if not present and found:
                failures.append(f"{loc}: the log has a line containing {shown}")
        for heroes, loc in t.asked:
            if not _in_order(heroes, agents[0].asked, lambda want, got: want == got):
                names = "、".join(rules.heroes[h].name if h in rules.heroes else h for h in heroes)
                failures.append(f"{loc}: the requests did not go to {names} in this order")
        script = agents[0].script
        for want in t.requests:
            failures.extend(_check_requests(g, rules, script, *want))
        for seat, a in zip(t.seats, agents):
            failures.extend(f"{t.loc}: {f}" for f in a.failures)
            left = [show_decision(d) for d in a.queue if d[-1] != "optional"]
            if left:
                name = _hero_name(rules, seat.hero)
                failures.append(f"{t.loc}: answers of {name} never asked for: {', '.join(left)}"
                                + _request_list(f"the requests to {name}", [r for r in script.requests
                                                                             if r.hero == seat.hero]))
        for b in script.bound:
            left = [show_decision(d) for d in b.queue if d[-1] != "optional"]
            if left:
                name = f"【{_option_name(g, b.subject)}】" + (f" of {_hero_name(rules, b.hero)}" if b.hero else "")
                mine = [r for r in script.requests if b.ids & set(r.subjects) and b.hero in (None, r.hero)]
                why = (f"; the next one did not fit {len(b.misfits)} of its requests" if b.misfits else
                       "" if mine else f"; {name} made no request")
                failures.append(f"{t.loc}: answers bound to {name} never used: {', '.join(left)}{why}"
                                + _request_list(f"the requests of {name}" if mine else "the requests",
                                                mine or script.requests))
    except (RulesError, InvariantError) as e:
        failures.append(f"{t.loc}: {e}")
    except Exception as e:  # the rules broke at run time: say where
        loc = rules_location(e.__traceback__)
        failures.append(f"{t.loc}: {e.__class__.__name__}: {e}" + (f" (at {loc})" if loc else ""))
    return TestResult(t, not failures, failures, log)


def _operand_values(g, parts, seen=None) -> str:
    """Each operand of a failed `expect` with its value, one a line (those that read as written left out)."""
    if parts is None:
        return ""
    out = []
    for src, thunk in parts(g if seen is None else seen):
        try:
            shown = show_value(g, thunk())
        except Exception as e:  # an operand that cannot be read says why, and the others are still shown
            shown = f"({e.__class__.__name__}: {e})"
        if shown != src:
            out.append(f"\n         {src} = {shown}")
    return "".join(out)


class ViewOfTable:
    """The table as `expect view SEAT: …` reads it: through SeatView, the view the seat's agent gets, so that
    a face-down hero reads `none` and an unknown card has no name. The expression's code asks for players by
    hero (`seat_of`) and for their hero ids; everything else is the view's own public attributes."""

    def __init__(self, g, seat: int):
        self._g = g
        self._view = Desk(g, seat).inspect()  # every part written: read after the decision it was made for

    def seat_of(self, hero: str):
        return _PlayerSeen(self._view.players[self._g.seat_of(hero).seat])

    def __getattr__(self, name):
        value = getattr(self._view, name)  # AttributeError: the view has no such thing
        return _seen(value)


class _PlayerSeen:
    """A PlayerView with the hero ids the generated code reads (`none` for a hero the seat cannot see)."""

    def __init__(self, pv):
        self._pv = pv

    hero_ids = property(lambda s: [h.id if h is not None else None for h in s._pv.heroes])
    hero_id = property(lambda s: s._pv.hero.id if s._pv.hero is not None else None)

    def __getattr__(self, name):
        return _seen(getattr(self._pv, name))

    def __eq__(self, other):
        return isinstance(other, _PlayerSeen) and other._pv is self._pv

    def __hash__(self):
        return hash(id(self._pv))

    def __repr__(self):
        return self._pv.name


def _seen(value):
    from ..engine.view import PlayerView

    if isinstance(value, PlayerView):
        return _PlayerSeen(value)
    if isinstance(value, (list, tuple)):
        return [_seen(x) for x in value]
    return value


def show_value(g, v) -> str:
    """A value as the language writes it: true/false/none, a list in brackets, names for players and ids."""
    if v is True or v is False:
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, (list, tuple, set, frozenset)) and not isinstance(v, str):
        return "[" + ", ".join(show_value(g, x) for x in v) + "]"
    return g.log.show(g, v) if g.log is not None else str(v)


def _hero_name(rules: Ruleset, hero: str | None) -> str:
    return rules.heroes[hero].name if hero in rules.heroes else str(hero)


def _request_list(title: str, asked: list[Asked], most: int = 20) -> str:
    """The requests a failure is about, as the log wrote them (the last `most`)."""
    if not asked:
        return f"\n       ({title}: none)"
    skipped = f"\n         … {len(asked) - most} earlier" if len(asked) > most else ""
    return f"\n       {title}:" + skipped + "".join(f"\n         {r.line}" for r in asked[-most:])


def _check_requests(g, rules: Ruleset, script: Script, hero, subject, offer, count, loc) -> list[str]:
    """`expect asked 刘备 [八卦阵]: [杀, 闪] [== N]` / `expect asked 刘备 [八卦阵] == N`."""
    ids = subject_ids(rules, subject) if subject is not None else None
    sel = [r for r in script.requests if (hero is None or r.hero == hero) and (ids is None or ids & set(r.subjects))]
    scope = sel
    if offer is not None:
        sel = [r for r in sel if len(r.options) == len(offer) and all(_option_fits(g, o, x)
                                                                         for o, x in zip(r.options, offer))]
    if (len(sel) == count) if count is not None else sel:
        return []
    who = " and ".join(x for x in ((_hero_name(rules, hero) if hero else ""),
                                   (f"【{_option_name(g, subject)}】" if subject else "")) if x)
    plural = "s" if count is not None and count != 1 else ""
    what = f"request{plural} {'to' if hero else 'of'} {who}"
    offered = f" offering exactly [{', '.join(show_decision(x) for x in offer)}]" if offer is not None else ""
    n = f"{count} " if count is not None else "a "
    return [f"{loc}: expected {n}{what}{offered}; there {'was' if len(sel) == 1 else 'were'} {len(sel)}"
            + _request_list(f"the requests {'to' if hero else 'of'} {who}", scope)]


def _option_fits(g, o, item) -> bool:  # noqa: C901 - one case per kind of option
    """Does a test's written option (as a `decide` answer is written) name this option of a request?"""
    if item[0] == "many":
        return isinstance(o, (tuple, list)) and not (len(o) == 2 and isinstance(o[0], str)) \
            and _set_fits(list(o), item[1])
    text = item[1] if item[0] == "text" else item[3]
    if isinstance(o, Card):
        return item[0] == "name" and _card_fits(o, item)
    if isinstance(o, tuple) and len(o) == 2 and isinstance(o[0], str) and o[0] in ("card", "recast", "viewas",
                                                                                  "active", "supply"):
        kind, what = o
        if kind == "card":
            return item[0] == "name" and _card_fits(what, item)
        if kind == "recast":
            return text.split()[:1] == ["重铸"] and (len(text.split()) == 1 or text.split()[1] in _names(what))
        return text in (what[0].skill.name, what[0].skill.id)
    if hasattr(o, "skill") and hasattr(o, "trigger"):
        return text in (o.skill.name, o.skill.id)
    if hasattr(o, "heroes"):
        return text in _names(o)
    if o is True or o is False:
        return text in (YES if o else NO)
    if isinstance(o, str):
        hero = g.rules.heroes.get(o)
        return text in (o, _option_name(g, o)) or SYMBOL_SUIT.get(text) == o or (hero is not None and text == hero.name)
    return False


def _in_order(wanted, got, fits) -> bool:
    """Is each wanted item found in `got`, one after the other (other items may come between)?"""
    i = 0
    for x in got:
        if i < len(wanted) and fits(wanted[i], x):
            i += 1
    return i == len(wanted)


def test_names(rules: Ruleset, t: TestDef) -> list[str]:
    """What `sgsdsl test -k` matches: the title, the skill's ascii id and Chinese name, and its heroes' names and ids."""
    names = [t.title]
    if t.owner:
        names.append(t.owner)
        skill = rules.skills.get(t.owner)
        if skill is not None:
            names.append(skill.name)
        for h in rules.heroes.values():
            if t.owner in h.skills:
                names += [h.name, h.id]
    return names


def scenario_jobs(tables) -> list[tuple[Ruleset, TestDef]]:
    """Every test with the ruleset it runs under: a variant package's tests with that variant selected, and a
    test with the variants it plays with (its mode's own versions of skills, its package's `use`)."""
    runs = [(Ruleset(tables), None)] + [(Ruleset(tables, (t.package,)), t.package) for t in tables if t.variant]
    jobs = []
    cache: dict[tuple, Ruleset] = {}
    for rules, variant in runs:
        for t in rules.tests:
            pkg = rules.test_package.get(id(t))
            if pkg == variant or (variant is None and pkg not in rules.variants):
                mode = rules.modes.get(t.mode) if t.mode else None
                wanted = tuple(t.variants) + (mode.variants if mode is not None else ())
                if any(v not in rules.variants for v in wanted):
                    key = tuple(sorted(set(rules.variants) | set(wanted)))
                    if key not in cache:
                        cache[key] = Ruleset(tables, key)
                    jobs.append((cache[key], _same_test(cache[key], t)))
                else:
                    jobs.append((rules, t))
    return jobs


def _same_test(rules: Ruleset, t: TestDef) -> TestDef:
    return next((x for x in rules.tests if x.loc == t.loc and x.title == t.title), t)
