"""What each choice of a rule means for the chosen, read from the effects that follow it (issue 23).

For every choice a skill or a card makes (a player, a card, an `option`, the targets of its `target`
clause), the analysis follows the chosen value through the body after it (lets, loops, indexes, a
player's cards) to the calls it reaches, and reads what each call does from the `Effect` declared beside
each primitive in surface.py — the player a `Moves.gainer` names gains cards, the owner of moved cards
loses them, `hp` moves by the sign of its amount, `toward` says the rest (翻面) — and from what the flows
of the rules (伤害, 回复, 翻面 …) do to their event's fields, derived the same way. The card a flow bound to
the `use` role is called with (`virtual(决斗)`) does to its targets what its `effect` block does to
`event.target`.

Each effect has a weight: one inside a condition, a loop or a nested flow counts half as much, so that
the 濒死 rescue inside a 伤害 does not make damage look good. A choice's sense is the sign of the sum:
"good" (the chosen draws, gains, recovers, is given cards), "bad" (damaged, discarded from, loses HP,
flipped, has cards taken), "mixed" (both, evenly), or None (nothing it leads to changes the chosen).
A chosen card's fate is where it goes: "mine" (to the chooser's hand), "given" (to another player),
"lost" (discarded, put away), or None. An option's worth is the weighted sum of its branch's effects on
the chooser and on the others.

The code generator passes the result with the request (`intent=(source, sense)`); `explain` prints it;
`check` notes a choice whose sense cannot be derived. Nothing here names a card or a skill.
"""

from __future__ import annotations

import attrs

from . import ast
from .surface import CONSTS, FUNCS, NOTHING
from .tree import walk_of

# a player's attributes that are cards the player holds (their loss is the player's)
CARD_ATTRS = frozenset({"hand", "cards", "equips", "judges", "all_cards", "pile_cards", "weapon", "armor",
                        "plus_horse", "minus_horse", "treasure"})
# pure functions whose result is (some of) their first argument
PASS_THROUGH = frozenset({"first", "last", "reverse", "distinct", "random"})
SELF = "self"
NEST = 0.5  # the weight of an effect one condition, loop or flow deeper


@attrs.frozen
class Choice:
    """One choice of a rule and what it was derived to mean."""

    node: object  # the ast.Choose, or the ast.TargetSpec of a `target` clause
    kind: str  # player | card | option | target
    source: str  # the id of the skill or card that makes it
    prompt: str
    span: object
    sense: str | None  # players: good | bad | mixed | None; cards: mine | given | lost | None
    why: tuple[str, ...] = ()  # what it leads to, in words ("draws", "damaged" …), most weighty first
    # options: ((text, worth to the chooser, worth to the others), …); None where a branch is not found
    options: tuple = ()
    name: str = ""  # the Chinese name of the skill or card

    @property
    def derived(self) -> bool:
        if self.kind == "option":
            return bool(self.options) and any(s or o for _, s, o in self.options)
        return self.sense is not None and self.sense != "mixed"

    def literal(self):
        """The value the generated code hands to the interpreter with the request."""
        if self.kind == "option":
            return (self.source, tuple((t, round(s, 3), round(o, 3)) for t, s, o in self.options))
        if self.kind == "target":  # the targets of the skill: its hint (hostile, friendly) is about them
            return (self.source, self.sense if self.derived else None, "targets")
        return (self.source, self.sense)


@attrs.define
class _Fx:
    subject: str
    sign: int  # +1 good for the subject, -1 bad
    weight: float
    what: str


class _Scope:
    def __init__(self, env=None):
        self.env: dict[str, frozenset] = dict(env or {})


def _sense(fx: list[_Fx]) -> tuple[str | None, tuple[str, ...]]:
    if not fx:
        return None, ()
    net = sum(f.sign * f.weight for f in fx)
    words: dict[str, float] = {}
    for f in fx:
        words[f.what] = words.get(f.what, 0) + f.weight
    why = tuple(sorted(words, key=lambda w: -words[w]))
    if abs(net) < 1e-9:
        return "mixed", why
    return ("good" if net > 0 else "bad"), why


class Analyzer:
    """Reads the choices of skills and cards; remembers what each flow does to its event's fields."""

    def __init__(self, model):
        self.m = model
        self.flow_memo: dict[str, dict[str, list]] = {}
        self.card_memo: dict[str, dict[str, list]] = {}
        self._chancy: set[str] | None = None

    # ---- entry points ------------------------------------------------------------------------
    def skill(self, d: ast.SkillDecl, source: str | None = None) -> tuple[list[Choice], dict]:
        """The choices of a skill's facets, and per facet index what it does to its owner and its targets:
        {index: (owner sense, targets sense)}."""
        source = source or d.id.text
        out: list[Choice] = []
        facets: dict[int, tuple] = {}
        for i, f in enumerate(d.facets):
            if isinstance(f, (ast.Trigger, ast.Active)):
                run = _Run(self, source, d.name.text)
                run.facet(f)
                out.extend(run.results())
                own = _sense(run.fx_of(SELF))[0]
                # a cost that buys something (a change to the event: prevented, redirected; anything done to
                # another player, a judgment's outcome) is a trade the analysis does not weigh: "mixed". Only
                # a skill whose every effect costs its owner is "bad" for it, and the bots leave it alone
                if own == "bad" and (run.writes_event or any(f.subject != SELF or f.sign > 0 for f in run.fx)
                                     or run.chance or run.opaque):
                    own = "mixed"
                tgt = _sense(run.fx_of("target:"))[0] if f.target is not None and f.target.kind == "some" else None
                facets[i] = (own, tgt)
        return out, facets

    def card(self, d: ast.CardDecl) -> tuple[list[Choice], str | None]:
        """The choices in a card's hooks, and what it does to each of its targets."""
        out: list[Choice] = []
        for _, block in d.hooks:
            run = _Run(self, d.id.text, d.name.text)
            run.block(block, _Scope({"self": frozenset({SELF})}))
            out.extend(run.results())
        return out, _sense(self.card_fx(d.id.text).get("target", []))[0]

    def chancy(self) -> set[str]:
        """The flows whose outcome is chance: they call a primitive declared `chance` (判定 reveals a card)."""
        if self._chancy is None:
            self._chancy = set()
            for d in self.m.unique(self.m.flows):
                calls = [n for n in walk_of(d.body, (ast.Call,)) if isinstance(n.func, ast.NameRef)]
                if any(FUNCS.get(c.func.text) is not None and FUNCS[c.func.text].effect is not None
                       and FUNCS[c.func.text].effect.chance for c in calls):
                    self._chancy.add(d.id.text)
        return self._chancy

    # ---- what flows and cards do ----------------------------------------------------------------
    def flow_fx(self, fid: str) -> dict[str, list]:
        if fid in self.flow_memo:
            return self.flow_memo[fid]
        self.flow_memo[fid] = {}  # a flow that calls itself (through others) adds nothing more the second time
        d = next((f for f in self.m.flows.values() if f.id.text == fid), None)
        if d is None:
            return {}
        run = _Run(self, fid)
        run.block(d.body, _Scope())
        self.flow_memo[fid] = run.by_field()
        return self.flow_memo[fid]

    def card_fx(self, cid: str) -> dict[str, list]:
        if cid in self.card_memo:
            return self.card_memo[cid]
        self.card_memo[cid] = {}
        d = next((c for c in self.m.cards.values() if c.id.text == cid), None)
        if d is None:
            return {}
        hooks = dict(d.hooks)
        if "effect" not in hooks and d.parent is not None:  # a kind of card (火杀) does what it is a kind of
            parent = self.m.cards.get(d.parent.text)
            if parent is not None:
                self.card_memo[cid] = self.card_fx(parent.id.text)
                return self.card_memo[cid]
        fx: dict[str, list] = {}
        if "effect" in hooks:
            run = _Run(self, cid)
            run.block(hooks["effect"], _Scope({"self": frozenset({SELF})}))
            fx = run.by_field()
            fx["@self"] = run.fx_of(SELF)
        self.card_memo[cid] = fx
        return fx


class _Run:
    """One walk of a body: the subjects each name may denote, the effects met, the choices made."""

    def __init__(self, an: Analyzer, source: str, name: str = ""):
        self.an = an
        self.m = an.m
        self.source = source
        self.name = name or source
        self.fx: list[_Fx] = []
        self.choices: list[tuple] = []  # (node, kind, prompt, span, chooser subjects)
        self.fates: dict[int, list] = {}  # card choice index -> [(dest kind, gainer subjects, weight)]
        self.options: dict[int, dict] = {}  # option choice index -> {text: [fx…]}
        self.option_texts: dict[int, tuple] = {}
        self.depth = 0
        self.collect: list[list] = []  # option branches being walked: their effects go there as well
        self.writes_event = False  # it sets a field of the event (cancels it, redirects it …)
        self.chance = False  # it calls a primitive whose outcome is chance (a judgment, cards revealed)
        self.opaque = False  # it changes something the analysis cannot weigh (skips a phase, gains a skill …)

    # ---- results ------------------------------------------------------------------------------
    def fx_of(self, subject: str) -> list[_Fx]:
        if subject.endswith(":"):
            return [f for f in self.fx if f.subject.startswith(subject)]
        return [f for f in self.fx if f.subject == subject]

    def by_field(self) -> dict[str, list]:
        out: dict[str, list] = {}
        for f in self.fx:
            if f.subject.startswith("event."):
                out.setdefault(f.subject[6:], []).append(f)
        return out

    def results(self) -> list[Choice]:
        out = []
        for n, (node, kind, prompt, span, chooser) in enumerate(self.choices):
            why: tuple = ()
            opts: tuple = ()
            if kind in ("player", "target"):
                sense, why = _sense(self.fx_of(f"choice:{n}"))
            elif kind == "card":
                sense = self.fate(n, chooser)
            else:
                sense = None
                branches = self.options.get(n, {})
                rows = []
                for text in self.option_texts.get(n, ()):
                    fx = branches.get(text)
                    if fx is None:
                        rows.append((text, 0.0, 0.0))
                        continue
                    mine = sum(f.sign * f.weight for f in fx if f.subject in chooser)
                    theirs = sum(f.sign * f.weight for f in fx if f.subject not in chooser)
                    rows.append((text, mine, theirs))
                opts = tuple(rows)
            out.append(Choice(node, kind, self.source, prompt, span, sense, why, opts, self.name))
        return out

    def fate(self, n: int, chooser: frozenset) -> str | None:
        ways = self.fates.get(n)
        if not ways:
            return None
        dest, gainer, _ = max(ways, key=lambda w: w[2])
        if dest == "hand":
            return "mine" if gainer and gainer <= chooser else "given"
        return "lost"

    # ---- effects ------------------------------------------------------------------------------
    def weight(self) -> float:
        return NEST ** self.depth

    def hit(self, subjects, sign: int, what: str, weight: float | None = None) -> None:
        w = self.weight() if weight is None else weight
        for s in subjects:
            if s.startswith("cardsof:"):
                s = s[len("cardsof:"):]
            elif s.startswith("cardchoice:"):
                continue
            f = _Fx(s, sign, w, what)
            self.fx.append(f)
            for c in self.collect:
                c.append(f)
            if s.startswith("choice:") and s[7:].isdigit():  # a player chosen by a target clause, for the skill
                node = self.choices[int(s[7:])]
                if node[1] == "target":
                    self.fx.append(_Fx("target:" + s[7:], sign, w, what))

    def lose_cards(self, cards, gainers, dest: str, what: str) -> None:
        """Cards move: their owners (but the gainer) lose them; a chosen card's fate is where it goes. Among
        several players chosen at once, one may gain another's cards (two hands exchanged): they lose them too."""
        for s in cards:
            if s.startswith("cardsof:") and (s[8:] not in gainers or self.plural(s[8:])):
                self.hit([s], -1, what)
            if s.startswith("cardchoice:"):
                n = int(s[len("cardchoice:"):])
                self.fates.setdefault(n, []).append((dest, frozenset(gainers), self.weight()))

    def plural(self, subject: str) -> bool:
        """Does the subject stand for several players chosen at once (a target clause for two or more)?"""
        if not (subject.startswith("choice:") and subject[7:].isdigit()):
            return False
        node = self.choices[int(subject[7:])][0]
        n = getattr(node, "hi", None) or getattr(node, "lo", None)
        return isinstance(n, ast.IntLit) and n.value > 1

    # ---- statements ---------------------------------------------------------------------------
    def facet(self, f) -> None:
        sc = _Scope({"self": frozenset({SELF}), "user": frozenset({SELF})})
        if f.cost is not None:
            self.block(f.cost, sc)
        if f.target is not None:
            t = f.target
            if t.kind == "self":
                sc.env["targets"] = sc.env["target"] = frozenset({SELF})
            elif t.kind == "some":
                n = self.choose(t, "target", "", t.span, frozenset({SELF}))
                sc.env["targets"] = sc.env["target"] = frozenset({f"choice:{n}"})
            else:
                sc.env["targets"] = sc.env["target"] = frozenset({"all"})
        self.block(f.do, sc)

    def choose(self, node, kind: str, prompt: str, span, chooser: frozenset) -> int:
        self.choices.append((node, kind, prompt, span, chooser))
        return len(self.choices) - 1

    def block(self, b: ast.Block | None, sc: _Scope) -> None:
        if b is None:
            return
        for s in b.stmts:
            self.stmt(s, sc)

    def nested(self, b, sc: _Scope) -> None:
        self.depth += 1
        try:
            self.block(b, sc)
        finally:
            self.depth -= 1

    def stmt(self, s, sc: _Scope) -> None:  # noqa: C901 - one case per statement kind
        match s:
            case ast.Let():
                sc.env[s.name.text] = self.ex(s.value, sc)
            case ast.Assign():
                v = self.ex(s.value, sc)
                if isinstance(s.target, ast.NameRef):
                    sc.env[s.target.text] = sc.env.get(s.target.text, frozenset()) | v
                else:
                    self.writes_event = True
                    self.ex(s.target, sc)
            case ast.ExprStmt():
                self.ex(s.expr, sc)
            case ast.If():
                self.ex(s.test, sc)
                self.branches(s, sc)
            case ast.For():
                sc.env[s.var.text] = self.ex(s.iter, sc)
                self.nested(s.body, sc)
            case ast.While():
                self.ex(s.test, sc)
                self.nested(s.body, sc)
            case ast.Repeat():
                self.ex(s.count, sc)
                self.nested(s.body, sc)
            case ast.PhaseStmt() | ast.Later():
                self.block(s.body, sc)
            case ast.Open():
                if s.event is not None:
                    self.ex(s.event, sc)
            case ast.Log():
                for p in s.parts:
                    if not isinstance(p, str):
                        self.ex(p, sc)

    def branches(self, s: ast.If, sc: _Scope) -> None:
        """An `if` on what an option choice chose (`if o == "摸两张牌"`): its branch is that option's."""
        n, text = self.option_test(s.test, sc)
        if n is None:
            self.nested(s.then, sc)
            if s.other is not None:
                self.nested(s.other, sc)
            return
        got = self.options.setdefault(n, {})
        mine: list = []
        self.collect.append(mine)
        self.nested(s.then, sc)
        self.collect.pop()
        got.setdefault(text, []).extend(mine)
        if s.other is not None:
            rest = [t for t in self.option_texts.get(n, ()) if t != text and t not in got]
            other: list = []
            self.collect.append(other)
            self.nested(s.other, sc)
            self.collect.pop()
            if len(rest) == 1:  # `else` of a two-option choice is the other option
                got.setdefault(rest[0], []).extend(other)

    def option_test(self, e, sc: _Scope) -> tuple[int | None, str | None]:
        if isinstance(e, ast.Compare) and e.op == "==":
            for a, b in ((e.left, e.right), (e.right, e.left)):
                if isinstance(b, ast.StrLit) and isinstance(a, ast.NameRef):
                    for s in sc.env.get(a.text, ()):
                        if s.startswith("option:"):
                            return int(s[7:]), b.value
        return None, None

    # ---- expressions: the subjects a value may denote -------------------------------------------
    def ex(self, e, sc: _Scope) -> frozenset:  # noqa: C901 - one case per expression kind
        none: frozenset = frozenset()
        match e:
            case ast.NameRef():
                if e.text in sc.env:
                    return sc.env[e.text]
                return none
            case ast.Attr():
                if isinstance(e.obj, ast.NameRef) and e.obj.text == "event" and "event" not in sc.env:
                    return frozenset({"event." + e.name.text})
                obj = self.ex(e.obj, sc)
                note = self.m.analysis.refs.get(e)
                if e.name.text in CARD_ATTRS or getattr(note, "kind", None) == "pile":
                    return frozenset("cardsof:" + s for s in obj if not s.startswith(("cardsof:", "cardchoice:")))
                if e.name.text == "owner":
                    return frozenset(s[8:] for s in obj if s.startswith("cardsof:"))
                return none
            case ast.Index():
                self.ex(e.index, sc)
                return self.ex(e.obj, sc)
            case ast.ListLit():
                return frozenset().union(*(self.ex(x, sc) for x in e.items))
            case ast.BinOp():
                return self.ex(e.left, sc) | self.ex(e.right, sc)
            case ast.Cond():
                self.ex(e.test, sc)
                return self.ex(e.then, sc) | self.ex(e.other, sc)
            case ast.Filter() | ast.Extreme():
                src = self.ex(e.source, sc)
                self.ex(e.pred if isinstance(e, ast.Filter) else e.key, sc)
                return src
            case ast.Compare():
                self.ex(e.left, sc)
                self.ex(e.right, sc)
                return none
            case ast.BoolOp():
                for x in e.items:
                    self.ex(x, sc)
                return none
            case ast.Not() | ast.Neg():
                self.ex(e.operand, sc)
                return none
            case ast.Choose():
                return self.choose_ex(e, sc)
            case ast.Ask():
                self.ex(e.who, sc)
                return none
            case ast.New():
                for a in e.args:
                    self.ex(a.value, sc)
                return none
            case ast.Call():
                return self.call(e, sc)
        return none

    def choose_ex(self, e: ast.Choose, sc: _Scope) -> frozenset:
        who = self.ex(e.who, sc)
        src = self.ex(e.source, sc) if e.source is not None else frozenset()
        if e.where is not None:
            self.ex(e.where, sc)
        prompt = e.prompt or ""
        if e.kind in ("option", "options"):
            n = self.choose(e, "option", prompt, e.span, who)
            if isinstance(e.source, ast.ListLit):
                self.option_texts[n] = tuple(x.value for x in e.source.items if isinstance(x, ast.StrLit))
            return frozenset({f"option:{n}"})
        if e.kind.startswith("card"):
            if e.source is None:  # from the chooser's hand
                src = frozenset("cardsof:" + s for s in who)
            n = self.choose(e, "card", prompt, e.span, who)
            return frozenset({f"cardchoice:{n}"}) | frozenset(s for s in src if s.startswith("cardsof:"))
        n = self.choose(e, "player", prompt, e.span, who)
        # the one chosen is one of those offered: what befalls it befalls a choice that offered them (离间's
        # victim is one of its two targets)
        return frozenset({f"choice:{n}"}) | frozenset(s for s in src if s.startswith("choice:"))

    def call(self, e: ast.Call, sc: _Scope) -> frozenset:
        note = self.m.analysis.refs.get(e)
        name = e.func.text if isinstance(e.func, ast.NameRef) else None
        kind = getattr(note, "kind", None)
        if kind == "flow":
            args = {f: self.ex(node, sc) for f, node in note.args}
            self.flow_call(note.target, args, dict(note.args))
            return frozenset()
        if kind == "func" and name in FUNCS:
            f = FUNCS[name]
            args = {}
            for p, node, _ in note.args:
                args[p] = (self.ex(node, sc) if node is not None else frozenset(), node)
            if f.kind == "primitive" and f.effect is not None:
                self.primitive(f, args)
                return frozenset()
            if name in PASS_THROUGH and note.args:
                return args[note.args[0][0]][0]
            return frozenset()
        for a in e.args:  # a quantity, a run of a flow: only the choices inside its arguments
            self.ex(a.value, sc)
        return frozenset()

    def primitive(self, f, args: dict) -> None:
        eff = f.effect
        self.chance = self.chance or eff.chance
        before = len(self.fx)
        self._primitive(f, eff, args)
        if len(self.fx) == before and eff != NOTHING:
            self.opaque = True

    def _primitive(self, f, eff, args: dict) -> None:
        players = [p for p, t, _ in f.params if t.rstrip("?") == "player"]

        def subj(p):
            return args.get(p, (frozenset(), None))[0] if p else frozenset()

        mv = eff.moves
        if mv is not None:
            cards = subj(mv.cards)
            gainer = subj(mv.gainer) | subj(mv.owner)
            dest = mv.to
            if dest.startswith("param:"):
                node = args.get(dest[6:], (None, None))[1]
                zone = CONSTS.get(node.text).py.strip("'") if isinstance(node, ast.NameRef) and node.text in CONSTS \
                    else None
                dest = zone or "?"
            if dest in ("hand", "equip") and gainer:
                self.hit(gainer, +1, "gains cards" if mv.cards else "draws")
                self.lose_cards(cards, gainer, "hand" if dest == "hand" else "equip", "has cards taken")
            elif dest == "?" and gainer:  # into a pile of the owner given: its own cards stay with it
                self.lose_cards(cards, gainer, "lost", "loses cards")
            else:
                self.lose_cards(cards, frozenset(), "lost", "discarded from" if dest == "discard" else "loses cards")
        for res, way in eff.deltas:
            if res not in ("hp", "alive") or not players:
                continue
            sign = self.way(way, args)
            if sign:
                what = ("recovers" if sign > 0 else "loses HP") if res == "hp" else "dies"
                self.hit(subj(players[0]), sign, what)
        for p, way in eff.toward:
            sign = self.way(way, args)
            if sign:
                self.hit(subj(p), sign, f"{f.doc.split(' ')[0]}")

    def way(self, way: str, args: dict) -> int:
        if way in ("+", "-"):
            return 1 if way == "+" else -1
        neg = way.startswith("-")
        if way.lstrip("-").startswith("sign:"):
            node = args.get(way.lstrip("-")[5:], (None, None))[1]
            s = _sign(node, self)
            return -s if neg else s
        return 0

    def flow_call(self, fid: str, args: dict, nodes: dict) -> None:
        self.chance = self.chance or fid in self.an.chancy()
        use = self.m.role_target("use")
        cid = _card_named(nodes.get("card"), self.m) if use is not None and use.id.text == fid else None
        if cid is not None:  # a known card used: it does to its targets what its effect does to event.target
            fx = self.an.card_fx(cid)
            for f in fx.get("target", []):
                self.hit(args.get("targets", ()), f.sign, f.what, self.weight() * f.weight)
            for f in fx.get("@self", []):
                self.hit(args.get("source", ()), f.sign, f.what, self.weight() * f.weight)
            if not fx.get("target"):
                sign = _hint_sign(self.m, cid)
                if sign:
                    self.hit(args.get("targets", ()), sign, "a card's hint", self.weight())
            return
        summary = self.an.flow_fx(fid)
        for field, fx in summary.items():
            for f in fx:
                self.hit(args.get(field, ()), f.sign, f.what, self.weight() * f.weight)


def _card_named(node, m) -> str | None:
    """The card a `virtual(NAME)` (or a card name) stands for."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.NameRef) and node.func.text == "virtual" and node.args:
        node = node.args[0].value
    if isinstance(node, ast.NameRef) and node.text in m.cards:
        return m.cards[node.text].id.text
    return None


def _hint_sign(m, cid: str) -> int:
    for h in m.hints:
        if any(t.text in m.cards and m.cards[t.text].id.text == cid for t in h.targets):
            return {"hostile": -1, "friendly": 1}.get(h.intent.text, 0)
    return 0


def _sign(node, run: _Run | None = None) -> int:  # noqa: C901
    """+1, -1 or 0 (unknown) for an amount. Counts and amounts read from the game are taken as positive
    (a field `amount`, a count): min/max take the sign of their first argument whose sign is known."""
    match node:
        case None:
            return 0
        case ast.IntLit():
            return (node.value > 0) - (node.value < 0)
        case ast.NameRef():
            if node.text in ("true", "false"):
                return 1 if node.text == "true" else -1
            return 1 if node.text not in ("none",) else 0
        case ast.Neg():
            return -_sign(node.operand, run)
        case ast.Attr():
            return 1
        case ast.BinOp():
            a, b = _sign(node.left, run), _sign(node.right, run)
            if node.op in ("+",) and a == b:
                return a
            if node.op in ("*", "/") and a and b:
                return a * b
            return 0
        case ast.Call():
            if isinstance(node.func, ast.NameRef) and node.func.text in ("min", "max", "len", "count"):
                for a in node.args:
                    s = _sign(a.value, run)
                    if s:
                        return s
            return 0
        case ast.Cond():
            a, b = _sign(node.then, run), _sign(node.other, run)
            return a if a == b else 0
    return 0


def analyze(model) -> dict[int, Choice]:
    """Every choice of every skill and card of the model, by id() of its node (made once, kept in the
    model's analysis)."""
    memo = model.analysis.choices
    if memo is not None:
        return memo
    an = Analyzer(model)
    out: dict[int, Choice] = {}
    facets: dict[int, tuple] = {}
    for d in _decls(model):
        if isinstance(d, ast.SkillDecl):
            cs, fs = an.skill(d)
            for i, v in fs.items():
                facets[id(d.facets[i])] = v
        else:
            cs, sense = an.card(d)
            facets[id(d)] = (None, sense)
            for i, f in enumerate(d.facets):
                if isinstance(f, (ast.Trigger, ast.Active)):
                    run = _Run(an, d.id.text, d.name.text)
                    run.facet(f)
                    cs = cs + run.results()
        for c in cs:
            out[id(c.node)] = c
    model.analysis.choices = out
    model.analysis.facets = facets
    return out


def facet_intents(model) -> dict[int, tuple]:
    """id(facet or card decl) -> (what it does to its owner, what it does to its targets)."""
    analyze(model)
    return model.analysis.facets


def _decls(model):
    seen = set()
    for pkg in model.packages.values():
        for d in pkg.decls:
            items = []
            if isinstance(d, ast.SkillDecl | ast.CardDecl):
                items = [d]
            elif isinstance(d, ast.RuleDecl):
                items = [d.rule]
            elif isinstance(d, ast.ModeDecl):
                items = list(d.rules)
            for x in items:
                if id(x) not in seen:
                    seen.add(id(x))
                    yield x


def choices_of(model, decl) -> list[Choice]:
    """The choices of one skill or card, in the order they are written."""
    got = analyze(model)
    nodes = [n for n in walk_of(decl, (ast.Choose, ast.TargetSpec)) if id(n) in got]
    return sorted((got[id(n)] for n in nodes), key=lambda c: (c.span.line, c.span.col))
