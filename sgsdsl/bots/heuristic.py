"""A heuristic bot that plays like a sensible person who knows their own identity.

It knows no card or skill by name. What it knows of the game comes from the
rules: what the compiler derived each choice to mean for the chosen (the request's `intent`, from
lang/intent.py: good or bad for a chosen player, what an option is worth to the chooser and to the
others, what an active skill does to its targets), `hint` declarations as overrides (hostile / friendly
/ self / risky / keep / never, and a value; for 「选择一项」, hints on the options' texts), the mode's
`win` clauses (identities that win together are allies; the mode's lord is public), card kinds and
equipment slots, and the engine's public record of who harmed or helped whom. From that it decides:
rebels go for the lord, the lord's side hunts whoever harms the lord, the
renegade keeps the balance, nobody wastes a card on a friend or a heal on an
enemy, equipment gets worn.
"""

from __future__ import annotations

from ..engine.requests import Agent, Request
from ..engine.view import CardView
from .agents import pick_hero
from .allegiance import Allegiance, per_decision
from .herochoice import HeroChoice

MAX_ACTIONS = 40  # per play phase: a safety net against a bot that never stops
MAX_REPEATS = 30  # per turn and question: a safety net against a yes/no question the rules repeat without end


class HeuristicAgent(Allegiance, HeroChoice, Agent):
    name = "heuristic"
    tracks = True
    takes_forced = True
    unknown_lean = -0.25  # 国战: how a player whose kingdom is not known yet stands with me, before they act

    def __init__(self) -> None:
        self.actions = 0
        self.turn = -1
        self.memo: dict | None = None  # per_decision's, while a decision is being made
        self.asked_turn = -1
        self.asked: dict[str, int] = {}  # this turn's yes/no questions, by prompt: how often asked
        self.chosen: list[str] = []  # 国战: the hero cards this agent chose, the main first

    # ---- values ------------------------------------------------------------------------------
    def hint(self, g, ident: str) -> tuple[str, int]:
        h = g.rules.hints.get(ident)
        if h is None and ident in g.rules.cards:  # a kind of card (火杀) is played like what it is a kind of
            h = next((g.rules.hints[f] for f in g.rules.cards[ident].family if f in g.rules.hints), None)
        return h or ("self", 1)

    def value(self, g, me, c: CardView) -> float:
        if c.cdef is None:
            return 3.0  # a card this seat cannot see: worth an average card
        intent, v = self.hint(g, c.cdef.id)
        if c.cdef.kind == "equipment" and c.zone == "equip":
            v += 2  # worn equipment is worth more than the same card in hand
        if intent == "friendly" and me.wounded:
            v += 2
        same = self.hand_counts(g, me).get(c.cdef.id, 0)
        return v - 0.5 * max(0, same - 1)

    @per_decision
    def hand_counts(self, g, me) -> dict[str, int]:
        """How many cards of each name me holds (value() asks for every card it weighs)."""
        counts: dict[str, int] = {}
        for x in me.hand:
            k = x.cdef.id
            counts[k] = counts.get(k, 0) + 1
        return counts

    # ---- the dispatcher ----------------------------------------------------------------------
    def decide(self, g, req: Request):
        self.memo = {}
        try:
            return getattr(self, "on_" + req.kind)(g, req)
        finally:
            self.memo = None

    def on_hero(self, g, req):
        return pick_hero(self.pick or "uniform", g, req)

    def on_confirm(self, g, req):
        # a question the rules may ask without end ("再发动一次？" when another skill hands the card back):
        # a person stops after a while, and so does the bot
        key = (g.turn_no, req.prompt)
        if key[0] != self.asked_turn:
            self.asked_turn, self.asked = key[0], {}
        self.asked[req.prompt] = self.asked.get(req.prompt, 0) + 1
        if self.asked[req.prompt] > MAX_REPEATS:
            return False
        listener = req.context
        if listener is None:
            if self.two_heroes(g):  # 国战: a question that names one of my face-down heroes is whether to reveal it
                me = req.player
                named = [h for h, up in zip(me.heroes, me.shown) if not up and h is not None and h.name in req.prompt]
                if named:
                    return self.reveal(g, me, named[0])
        if listener is None:  # a question asked by a skill ("其可以…"): help its owner if an ally
            owner = self.asker(g)
            if owner is not None and owner is not req.player:
                return self.stance(g, req.player, owner) >= 0
        if listener is not None and hasattr(listener, "skill"):
            h = g.rules.hints.get(listener.skill.id)
            intent = h[0] if h is not None else None
            if intent == "never":
                return False
            if intent == "risky" and req.player.hp <= 2:
                return False
            derived = getattr(getattr(listener, "trigger", None), "intent", None)
            if intent is None and derived is not None and derived[0] == "bad" and derived[1] is None:
                return False  # all it does is cost its owner something (the rules say nothing it gains)
        return True

    def asker(self, g):
        """The owner of the innermost skill being settled (who is asking), if any."""
        for f in reversed(g.stack):
            if f.kind == "skill":
                return f.owner
        return None

    def derived(self, g, sid: str) -> tuple[str, int] | None:
        """What an active skill is for, from what its rules do (ActiveDef.intent), as a hint would say it."""
        sk = g.rules.skills.get(sid)
        for a in (sk.actives if sk is not None else ()):
            if a.intent is None:
                continue
            own, tgt = a.intent
            if tgt == "bad":
                return "hostile", 3
            if tgt == "good":
                return "friendly", 3
            if tgt is None and own == "good":
                return "self", 3
            if tgt is None and own == "bad":
                return "never", 0
        return None

    def on_skill(self, g, req):
        for L in req.options:
            if self.hint(g, L.skill.id)[0] != "never":
                return L
        return req.options[0] if req.lo else None

    def on_option(self, g, req):
        """「选择一项」: each option is worth what its hint says (`hint "text" INTENT VALUE`, see
        surface.OPTION_INTENTS) to this chooser now; unhinted options are worth 0; ties at random."""
        heroes = g.rules.heroes
        if req.options and all(isinstance(o, str) and o in heroes for o in req.options):
            if self.two_heroes(g):
                return self.pair_hero(g, req.options)
            if self.pick is not None:  # drafting (1v1's 选将) or choosing who enters play, as simulate --pick says
                return pick_hero(self.pick, g, req)
            return self.best_hero(g, req.options)
        me = req.player
        other = self.counterpart(g, me)

        derived = {}
        hinted = any(isinstance(o, str) and o in g.rules.option_hints for o in req.options)
        if req.intent is not None and isinstance(req.intent[1], tuple) and not hinted:  # hints override all
            # of a question's options, or none: a hint's VALUE and a derived worth are not on one scale
            derived = {t: (mine, theirs) for t, mine, theirs in req.intent[1]}

        def worth(o) -> float:
            intent, v = g.rules.option_hints.get(o, (None, 0)) if isinstance(o, str) else (None, 0)
            if intent is None and isinstance(o, str) and o in derived:  # what its branch does, as derived
                mine, theirs = derived[o]
                st = self.stance(g, me, other) if other is not None else 0.0
                sign = (st > 0) - (st < 0)
                return 4 * (mine + theirs * sign)
            if intent == "never":
                return -100.0
            if intent == "risky":
                return v if me.hp >= 3 else -v
            if intent in ("friendly", "hostile"):
                st = self.stance(g, me, other) if other is not None else 0.0
                sign = (st > 0) - (st < 0)
                return v * sign if intent == "friendly" else -v * sign
            return float(v)

        scores = [worth(o) for o in req.options]
        tied = [o for o, s in zip(req.options, scores) if s == max(scores)]
        return tied[g.agent_rng.randrange(len(tied))] if len(tied) > 1 else tied[0]

    def counterpart(self, g, me):
        """The other player of the innermost event that names one (who made me choose, or whom I hurt)."""
        for f in reversed(g.stack):
            ev = f.event
            for field in ("source", "target", "who", "player"):
                p = getattr(ev, field, None) if ev is not None else None
                if p is not None and hasattr(p, "hp") and p is not me:
                    return p
        return None

    # ---- play phase --------------------------------------------------------------------------
    def on_play(self, g, req):
        me = req.player
        if g.turn_no != self.turn:
            self.turn, self.actions = g.turn_no, 0
        self.actions += 1
        if self.actions > MAX_ACTIONS:
            return None
        best, best_score = None, 0.0
        for opt in req.options:
            score, _ = self.score(g, me, opt)
            if score > best_score:
                best, best_score = opt, score
        return best

    def score(self, g, me, opt) -> tuple[float, str | None]:
        kind, what = opt
        if kind == "card":
            return self.card_score(g, me, what)
        if kind == "recast":  # a card for a random one: when it has no better use, and is worth less than a draw
            return (0.5 if self.value(g, me, what) < 3.0 else 0.0), None
        if kind == "supply":
            s, intent = self.card_score(g, me, g.virtual(what[1]))
            return s - 1.0, intent  # others must give the card: worth a little less than one in hand
        if kind == "viewas":
            inst, v, src = what
            n = len(src) if v.all_cards else v.count
            probe = g.virtual(v.card, src[:n], inst.skill)
            s, intent = self.card_score(g, me, probe)
            mine = [c for c in src if c.owner is me]  # another's pile (天兵符) is not mine to spend
            cost = min(self.value(g, me, c) for c in mine) if mine else 0
            return s - 0.3 * cost - 0.5 * (n - 1), intent
        if kind != "active":  # an action offered to a person's client only (预亮): no bot weighs it
            return 0.0, None
        inst, a = what
        sid = inst.skill.id
        intent, v = g.rules.hints.get(sid) or self.derived(g, sid) or ("self", 1)
        if intent == "never":
            return 0.0, None
        if inst.owner is not None and inst.owner is not me and self.stance(g, me, inst.owner) <= 0:
            return 0.0, None  # another player's skill that lets me act (制霸): only for an ally
        if intent == "risky":
            return (v if me.hp >= 3 and len(me.hand) < me.hp + 2 else 0.0), intent
        if a.target is not None and a.target.kind == "some":
            cands = g.active_candidates(inst, a)
            good = self.enemies(g, me, cands) if intent == "hostile" else self.allies(g, me, cands)
            if not good:
                return 0.0, None
        if intent == "friendly" and a.target is not None and len(me.hand) <= me.hp and not me.wounded:
            return 0.0, None
        if intent == "self" and not me.cards:
            return 0.0, None
        return v * 0.8, intent

    def card_score(self, g, me, c: CardView) -> tuple[float, str | None]:
        intent, v = self.hint(g, c.cdef.id)
        cd = c.cdef
        if cd.kind == "equipment":
            old = me.equip.get(cd.slot)
            if old is None:
                return 6.0 + v, "self"
            if cd.slot == "weapon" and cd.range > old.cdef.range:
                return 2.0, "self"
            return 0.0, None
        if intent in ("keep", "never"):
            return 0.0, None
        if intent == "risky":
            return (0.5 if g.agent_rng.random() < 0.15 else 0.0), intent
        if intent not in ("hostile", "friendly"):
            return float(v), intent  # a card for its user: whom it could target does not matter
        cands = g.target_candidates(me, c)
        spec = cd.target
        if spec is not None and spec.kind == "all":
            others = [q for q in cands if q is not me]
            foes, friends = len(self.enemies(g, me, others)), len(self.allies(g, me, others))
            if intent == "hostile":
                return (v + foes - friends if foes > friends else 0.0), intent
            hurt = [q for q in cands if q.wounded]  # friendly
            good = len(self.allies(g, me, hurt)) - len(self.enemies(g, me, hurt))
            return (v + good if good > 0 else 0.0), intent
        if intent == "hostile":
            foes = self.enemies(g, me, cands)
            if not foes:
                return 0.0, None
            return v + 1.5 - 0.3 * min(q.hp for q in foes), intent
        if intent == "friendly":
            good = [q for q in self.allies(g, me, cands) if q.wounded]
            return (v + 2 if good else 0.0), intent
        return float(v), intent

    # ---- choosing players and cards ----------------------------------------------------------
    def on_options(self, g, req):
        """Several options at once (the skills to pre-show): all that are not hinted `never`."""
        good = [o for o in req.options if not (isinstance(o, str) and self.hint(g, o)[0] == "never")]
        good = good[: req.hi]
        return good if len(good) >= req.lo else list(req.options[: req.lo])

    def players_intent(self, g, req) -> str | None:
        """hostile / friendly for this choice of players: the hint of the card or skill asking, for its targets
        (a hint is an override); else what the compiler derived the choice to mean (Request.intent). Never
        read from a frame below: that is another rule's business (the 杀 that hurt 郭嘉 is not 遗计's)."""
        if req.intent is None:
            return None
        source, sense = req.intent[:2]
        h = g.rules.hints.get(source)
        if h is None and source in g.rules.cards:  # a kind of card (火杀) is played like what it is a kind of
            h = next((g.rules.hints[f] for f in g.rules.cards[source].family if f in g.rules.hints), None)
        derived = {"good": "friendly", "bad": "hostile"}.get(sense)
        if h is not None and h[0] in ("hostile", "friendly") and (len(req.intent) > 2 or derived is None):
            return h[0]  # a hint says whom the card or skill is for: its targets, and what it cannot derive
        return derived

    def on_players(self, g, req):
        me = req.player
        intent = self.players_intent(g, req)
        ranked = sorted(req.options, key=lambda q: (self.stance(g, me, q), q.hp, q.seat))
        if intent == "hostile":
            foes = [q for q in ranked if self.stance(g, me, q) < 0]
            pick = foes[: req.hi] if len(foes) >= req.lo else ranked[: max(req.lo, 1)]
        else:
            friends = sorted(req.options, key=lambda q: (-self.stance(g, me, q), q.hp - q.max_hp, q.seat))
            pick = friends[: max(req.lo, 1)]
        return pick[: req.hi] if len(pick) >= req.lo else ranked[: req.lo]

    def on_cards(self, g, req):
        me = req.player
        mine = [c for c in req.options if c.owner is me]
        theirs = [c for c in req.options if c.owner is not None and c.owner is not me]
        loose = [c for c in req.options if c.owner is None]
        n = req.lo
        if loose and not mine:  # cards on the table (五谷丰登, 遗计): the best ones
            return sorted(loose, key=lambda c: -self.value(g, me, c))[:max(n, 1)]
        if theirs and not mine:
            owner = theirs[0].owner
            friend = self.stance(g, me, owner) > 0
            def rank(c):
                if friend:  # take a friend's burden: their delayed tricks first
                    return (0 if c.zone == "judge" else 2 if c.zone == "hand" else 1, g.agent_rng.random())
                if c.zone == "hand":
                    return (1, g.agent_rng.random())  # hidden: any
                return (0 if c.zone == "equip" else 2, -self.value(g, me, c))
            return sorted(theirs, key=rank)[:max(n, 1)]
        # my own cards: give up the least valuable ones
        ranked = sorted(req.options, key=lambda c: self.value(g, me, c))  # ties: in the order offered
        if req.hi > req.lo:
            cheap = [c for c in ranked if self.value(g, me, c) <= 3]
            n = max(req.lo, min(req.hi, len(cheap)))
        return ranked[:max(n, req.lo)]

    # ---- responses -----------------------------------------------------------------------------
    def on_respond(self, g, req):
        me = req.player
        pattern = req.context
        intent, _ = self.hint(g, pattern)
        subject = self.subject(g) if intent == "keep" else None
        if subject is not None:
            card, target = subject
            cint, cval = self.hint(g, card.cdef.id) if isinstance(card, CardView) and card.seen else ("self", 1)
            if target is None:
                return None
            st = self.stance(g, me, target)
            harmful_to_friend = cint in ("hostile", "risky") and st > 0
            good_for_foe = cint in ("friendly", "self") and st < 0 and cval >= 5
            if not (harmful_to_friend or good_for_foe):
                return None
        if intent == "friendly":
            who = self.endangered(g)
            if who is not None and self.stance(g, me, who) <= 0:
                return None
        cards = [o for o in req.options if isinstance(o, CardView)]
        if cards:
            return min(cards, key=lambda c: self.value(g, me, c))  # ties: the first offered
        return req.options[0]

    def subject(self, g):
        """(card, target) of the innermost event that carries a card and a target."""
        for f in reversed(g.stack):
            ev = f.event
            if ev is not None and hasattr(ev, "card") and hasattr(ev, "target"):
                return ev.card, ev.target
        return None

    def endangered(self, g):
        for f in reversed(g.stack):
            ev = f.event
            for field in ("who", "target"):
                p = getattr(ev, field, None) if ev is not None else None
                if p is not None and hasattr(p, "hp") and p.hp < 1:
                    return p
        return None
