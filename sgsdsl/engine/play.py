"""The play phase and the use of cards: legal actions, targets, view-as and supplied cards, responses."""

from __future__ import annotations

import contextlib
import itertools
from typing import TYPE_CHECKING

from .requests import Abort, Request
from .state import Card, Player

if TYPE_CHECKING:
    from .inplay import Listener, SkillInst


_USABLE = object()  # usable()'s entries in the play phase's memo of quantities
_TARGETS = object()  # and target_candidates()'s
VIEWAS_SETS = 2000  # combinations of cards a `together` condition is tried on before giving up


class Play:
    """Mixed into Game."""

    # ---- using cards -----------------------------------------------------------------------
    def targetable(self, user: Player, target: Player, card: Card) -> bool:
        return self.q_targetable is None or self.q(self.q_targetable.id, user, target, card)

    def target_candidates(self, p: Player, card: Card) -> list[Player]:
        memo = self.qmemo  # the play phase's listing: a bot weighing each card asks, then the use asks again
        if memo is None:
            return self._candidates(p, card, card.cdef)
        key = (_TARGETS, p, card)
        v = memo.get(key)
        if v is None:
            v = memo[key] = self._candidates(p, card, card.cdef)
        return list(v)

    def legal_target(self, user: Player, card: Card, target: Player) -> bool:
        """The rules' `legal_target`: could `user` use `card` on `target`, by the rules the play phase's listing
        reads (the card's own target rule, `targetable`)? How often the card may be used is no rule of whom, so a
        use limit is left out: a 杀 used through a skill (明策, 借刀杀人) does not count against it."""
        return target.alive and target in self._candidates(user, card, card.cdef, among=(target,), limited=False)

    def _candidates(self, p: Player, card: Card, cd, stop: int = 0, among=None, limited: bool = True) -> list[Player]:
        """The legal targets of `card` (whose definition, as read now, is `cd`), in seat order; only the first
        `stop` of them when `stop` > 0; only those `among` some players when given; with the card's limit per
        target unless not `limited`."""
        t = cd.target
        if t is None:
            return [p] if cd.kind == "equipment" else []
        where = t.where
        lim = cd.limit if limited and cd.limit is not None and cd.limit.per_target else None
        used = self.used(p, cd.limit_key, -1, lim.scope) if lim is not None else 0
        qt = self.q_targetable
        tq = self.qf[qt.id] if qt is not None else None  # (as q() reads it)
        out = []
        if t.kind == "self":
            ring = (p,) if among is None or p in among else ()
        else:
            ring = self.ring_current() if among is None else among
        for q in ring:
            if (where is None or where(self, p, card, q)) and \
                    (tq is None or tq(self, p, q, card)) and \
                    (lim is None or used < lim.count(self, p, card, q)):
                out.append(q)
                if len(out) == stop:
                    break
        return out

    def target_count(self, p: Player, card: Card) -> tuple[int, int]:
        t = card.cdef.target
        if t is None or t.kind != "some":
            return (1, 1)
        return t.count(self, p, card)

    def role_q(self, qd, default, p: Player, card: Card):
        """A player-and-card quantity an engine role names (usable, playable …), `default` when unbound; with no
        modifier on it now, its base written as a literal is not even called."""
        if qd is None:
            return default
        f = self.qf[qd.id]
        if qd.const is not None and f is qd.base:
            return qd.const
        return f(self, p, card)

    def hand_like(self, p: Player) -> list[Card]:
        """The cards p may use or play as from hand: the hand, and those of p's piles a skill lets p use as if
        they were in it (the `as_hand` role: 木牛流马's 辎). With no modifier on it, only the hand."""
        qd = self.q_as_hand
        if qd is None or (qd.const is False and self.plain(qd)):
            return p.hand
        f = self.qf[qd.id]
        return p.hand + [c for c in p.pile_cards if f(self, p, c)]

    def may_use(self, p: Player, card: Card) -> bool:
        return self.role_q(self.q_usable, True, p, card)

    def recastable(self, p: Player, card) -> bool:
        """Whether a skill lets p recast a card not declared `recast` (the `recastable` role)."""
        return self.role_q(self.q_recastable, False, p, card)

    def may_play(self, p: Player, card: Card) -> bool:
        return self.role_q(self.q_playable, True, p, card)

    def may_discard(self, p: Player, card: Card) -> bool:
        return self.role_q(self.q_discardable, True, p, card)

    def may_reveal(self, p: Player, slot: int) -> bool:
        """May p reveal this face-down hero card of their own accord (the `revealable` role; true when unbound)?"""
        qd = self.q_revealable
        if qd is None:
            return True
        f = self.qf[qd.id]
        if qd.const is not None and f is qd.base:
            return qd.const
        return bool(f(self, p, slot))

    def skill_valid(self, inst) -> bool:
        """Is this skill instance in effect for its owner (the `skill_valid` role; true when unbound)? Equipment
        skills and the ownerless rules are not hero skills: always in effect."""
        qd = self.q_skill_valid
        if qd is None or inst is None or inst.equip or inst.owner is None:
            return True
        f = self.qf[qd.id]
        if qd.const is not None and f is qd.base:
            return qd.const
        return bool(f(self, inst.owner, inst.skill.id))

    def may_give(self, p: Player, card: Card, how: str) -> bool:
        """May p use (or play) this card as an answer?"""
        return self.may_use(p, card) if how == "use" else self.may_play(p, card)

    def usable(self, p: Player, card: Card) -> bool:
        memo = self.qmemo  # the play phase's listing: what it found holds while targets are chosen
        if memo is None:
            return self._usable(p, card)
        key = (_USABLE, p, card)
        v = memo.get(key, memo)
        if v is memo:
            v = memo[key] = self._usable(p, card)
        return v

    def _usable(self, p: Player, card: Card) -> bool:
        cd = card.cdef
        qd = self.q_usable
        if qd is not None and not (qd.const is True and self.plain(qd)) and not self.qf[qd.id](self, p, card):
            return False
        if cd.kind == "equipment":
            return True
        if cd.target is None:
            return False
        lim = cd.limit
        if lim is not None and not lim.per_target and \
                self.used(p, cd.limit_key, -1, lim.scope) >= lim.count(self, p, card):
            return False  # (a limit per target is read for each candidate target instead)
        need = cd.target.count(self, p, card)[0] if cd.target.kind == "some" else 1
        if need <= 0:
            return True
        if self.qmemo is not None and not self.agents[p.seat].counting:
            # the play phase's listing, for an agent that weighs each card's targets: all of them, kept for its
            # questions and for the use (a counting agent asks nothing: the first `need` do)
            return len(self.target_candidates(p, card)) >= need
        return len(self._candidates(p, card, cd, need)) >= need  # the first `need` legal targets

    def viewas_of(self, p: Player, how: str | None = None, pattern: str | None = None):
        out = []
        for inst in (*p.skills, *self.shared_viewas):
            if not inst.skill.viewas or (not inst.live and not inst.usable_hidden) or \
                    (self.skills_gated and not self.skill_valid(inst)):
                continue
            for v in inst.skill.viewas:
                if v.by is None:  # (one with `by` is offered below, to each player it names)
                    self._viewas_offer(out, p, inst, v, how, pattern)
        for inst, v in self.shared_viewas_by:  # a skill that lets others convert (天兵符), the owner's own included
            owner = inst.owner
            if owner.alive and inst.live and v.by(self, owner, p):
                self._viewas_offer(out, p, inst, v, how, pattern)
        return out

    def _viewas_offer(self, out: list, p: Player, inst, v, how, pattern) -> None:
        if pattern is not None and not self.rules.cards[v.card].counts_as(pattern):
            return
        if how is not None and v.mode is not None and v.mode != how:
            return
        pre = self._viewas_args(inst, v, p)
        if v.limit is not None and self.used(self._viewas_holder(inst, v, p), self._viewas_key(inst, v, p), v.index,
                                             v.limit.scope) >= v.limit.count(self, *pre):
            return
        if v.when is not None and not v.when(self, *pre):
            return
        if v.pile is not None:  # a pile is the skill's own: its owner's, whoever converts its cards
            pool = (inst.owner if v.by is not None else p).pile(v.pile)
        else:
            pool = p.hand if v.hand_only else p.cards
        # from 0 cards nothing is converted: no card lends the result a suit, and none is chosen
        src = [] if v.count == 0 else [c for c in pool if v.where is None or v.where(self, *pre, c)]
        if self._viewas_first(p, v, src, inst) is not None:
            out.append((inst, v, src))

    @staticmethod
    def _viewas_args(inst, v, user: Player) -> tuple:
        """The players a view-as facet's functions take: the owner and the user for one `by` opens to others."""
        return (inst.owner, user) if v.by is not None else (user,)

    @staticmethod
    def _viewas_holder(inst, v, user: Player) -> Player:
        """Whose count a view-as skill's `limit` is: its owner's, whoever converts (the user of a rule's), or with
        `each` the user's."""
        return inst.owner if inst.owner is not None and not v.each else user

    def _viewas_key(self, inst, v, user: Player) -> str:
        # a user's own count of another's skill is kept apart for each owner, as an active skill's is
        return self._active_key(inst, user) if v.each else v.skill

    def _count_viewas(self, p: Player, inst, v, delta: int) -> None:
        if v.limit is not None:
            self._use_limit(self._viewas_holder(inst, v, p), self._viewas_key(inst, v, p), v.index, v.limit.scope,
                            delta)

    def _say_viewas(self, p: Player, inst, v) -> None:
        if inst.owner is None or inst.owner is p:
            self.say(p, " 发动 【", inst.skill.name, "】", loc=v.loc)
        else:
            self.say(p, " 发动 ", inst.owner, " 的【", inst.skill.name, "】", loc=v.loc)

    def _viewas_sets(self, p: Player, v, src, inst):
        """The sets of cards a view-as skill could convert now: all of them (奇策), or each combination that
        satisfies its `together` condition (checked up to VIEWAS_SETS combinations)."""
        pre = self._viewas_args(inst, v, p)
        if v.all_cards:
            if src and (v.together is None or v.together(self, *pre, list(src))):
                yield list(src)
            return
        if len(src) < v.count:
            return
        if v.together is None:
            yield list(src[:v.count])
            return
        for n, combo in enumerate(itertools.combinations(src, v.count)):
            if n >= VIEWAS_SETS:
                return
            if v.together(self, *pre, list(combo)):
                yield list(combo)

    def _viewas_first(self, p: Player, v, src, inst):
        return next(iter(self._viewas_sets(p, v, src, inst)), None)

    def viewas_cards(self, p: Player, inst, v, src) -> list[Card]:
        """Let p choose the cards a view-as skill converts (raises Abort if there are none)."""
        card = self.rules.cards.get(v.card)
        prompt = f"发动【{inst.skill.name}】：选择当【{card.name if card is not None else ''}】的牌"
        if v.all_cards:
            sets = list(self._viewas_sets(p, v, src, inst))
            if not sets:
                raise Abort("no cards to convert")
            return sets[0]
        if v.count == 0:
            return []
        if v.together is None:
            return self.choose_cards(p, src, v.count, v.count, prompt)
        sets = [tuple(s) for s in self._viewas_sets(p, v, src, inst)]
        if not sets:
            raise Abort("no set of cards to convert")
        return list(self.decide(Request("option", p, sets, prompt=prompt.replace("的牌", "的一组牌"))))

    def actions(self, p: Player) -> list:
        """Everything p may do now in the play phase, besides ending it."""
        acts = []
        for c in self.hand_like(p):
            if self.usable(p, c):
                acts.append(("card", c))
        if self.flow_recast is not None:
            qd = self.q_recastable
            if qd is None or (qd.const is False and self.plain(qd)):
                acts.extend(("recast", c) for c in p.hand if c.cdef.recast)  # no skill lets p recast others
            else:
                acts.extend(("recast", c) for c in p.hand if c.cdef.recast or self.recastable(p, c))
        for inst, v, src in self.viewas_of(p, "use"):
            probe = self.virtual(v.card, self._viewas_first(p, v, src, inst), inst.skill)
            if self.usable(p, probe):
                acts.append(("viewas", (inst, v, src)))
        for inst in p.skills:
            if not inst.live and not inst.usable_hidden:
                continue
            for a in inst.skill.actives:
                if a.by is None and self._active_ready(inst, a, p):
                    acts.append(("active", (inst, a)))
        for inst, a in self.shared_actives:  # others' skills (制霸) and the mode's own actions that let p act
            owner = inst.owner
            if (owner is None or (owner.alive and inst.live)) and a.by(self, owner, p) and \
                    self._active_ready(inst, a, p):
                acts.append(("active", (inst, a)))
        acts.extend(self._suppliable(p))
        if getattr(self.agents[p.seat], "preshows", False):
            # 预亮 changed during the game, for an agent that asks for it (a person's client): a skill of a
            # face-down hero, pre-shown or not; a bot's options stay as they were
            acts.extend(("preshow", inst) for inst in p.skills if inst.slot is not None and inst.slot < len(p.shown)
                        and not p.shown[inst.slot] and not inst.skill.locked)
        return acts

    @staticmethod
    def _active_key(inst, user) -> str:
        """Use limits are counted on the user: per skill, and per owner for someone else's skill."""
        if inst.owner is user:
            return inst.skill.id
        return f"{inst.skill.id}@{inst.owner.seat if inst.owner is not None else 'mode'}"

    def _active_ready(self, inst, a, user) -> bool:
        owner = inst.owner
        if self.skills_gated and not self.skill_valid(inst):
            return False
        if a.limit is not None and self.used(user, self._active_key(inst, user), a.index, a.limit.scope) >= \
                a.limit.count(self, owner, user):
            return False
        if a.when is not None and not a.when(self, owner, user):
            return False
        if a.target is not None and a.target.kind == "some":
            cands = [q for q in self.alive_from_current() if a.target.where is None
                     or a.target.where(self, owner, user, q)]
            if len(cands) < a.target.count(self, owner, user)[0]:
                return False
        return True

    def _suppliable(self, p: Player) -> list:
        """Cards p could use because a skill of theirs would supply one when asked (激将: 「当你需要使用一张
        【杀】时」): each such skill's `when` is probed with a hypothetical request, which has no effect."""
        if self.win_need is None:
            return []
        acts = []
        for L in self.listeners.get(self.win_need.id, ()):
            if L.owner is not p or not L.active:
                continue
            ev = self.ev_need_cls(who=p, pattern=None, how="use")  # one probe, asked about each card in turn
            for cd in self.rules.cards.values():
                if cd.target is None or cd.kind == "equipment":
                    continue
                ev.pattern = cd.id
                if self._ready(L, ev) and self.usable(p, self.virtual(cd.id)):
                    acts.append(("supply", (L, cd.id)))
        return acts

    @staticmethod
    def _action_key(act) -> tuple:
        kind, what = act
        if kind in ("card", "recast"):
            return (kind, what.uid)
        if kind == "supply":
            return (kind, what[0].skill.id, what[0].trigger.index, what[1])
        if kind == "viewas" and what[1].by is not None:  # several players may hold the skill that others use
            return (kind, what[0].skill.id, what[1].index, what[0].owner.seat)
        return (kind, what[0].skill.id, what[1].index)

    def play_phase(self, p: Player) -> None:
        refused: set[tuple] = set()  # actions that turned out unusable once chosen: not offered again
        while p.alive and not self.over and not self.phase_closing:
            # Listing the legal actions and letting the agent weigh them changes nothing: quantities
            # (distance, range, legal targets) are memoized until an action is carried out.
            if self.grants:
                self.update_grants()  # (before the memo: a skill gained now changes the quantities)
            memo = self.qmemo = {}
            try:
                acts = self.actions(p)
                if refused:
                    acts = [a for a in acts if self._action_key(a) not in refused]
                act = self.decide(Request("play", p, acts, lo=0, prompt="出牌阶段")) if acts else None
            finally:
                self.qmemo = None
            if act is None:
                return
            kind, what = act
            if kind == "preshow":  # a secret of the seat's: nothing is said
                p.armed ^= {what.skill.id}
            elif kind == "recast":
                self.call_flow(self.flow_recast.id, who=p, card=what)
            elif kind == "card":
                if not self.use_from_hand(p, what, memo):
                    refused.add(self._action_key(act))
            elif kind == "viewas":
                inst, v, src = what
                try:
                    sub = self.viewas_cards(p, inst, v, src)
                except Abort:
                    refused.add(self._action_key(act))
                    continue
                card = self.virtual(v.card, sub, inst.skill)
                with self.set_aside(sub):
                    ok = self.usable(p, card)
                if not ok:
                    refused.add(self._action_key(act))
                    continue
                if not inst.live:
                    self.reveal_for(inst)
                self._say_viewas(p, inst, v)
                self._count_viewas(p, inst, v, 1)
                if not self.use_from_hand(p, card):
                    self._count_viewas(p, inst, v, -1)
            elif kind == "supply":
                if not self.use_supplied(p, *what):
                    refused.add(self._action_key(act))
            else:
                inst, a = what
                self.activate(p, inst, a)
            if self.check_invariants:
                self.verify()

    def pick_targets(self, p: Player, card: Card):
        """The targets of a card about to be used in the play phase, or None if it is not usable."""
        if card.uid < 0 and card.subcards:
            with self.set_aside(card.subcards):
                # cards converted into this one already count as used: a horse or weapon turned into a 杀
                # no longer lends its distance or range while the targets are chosen
                return self._pick_targets(p, card)
        return self._pick_targets(p, card)

    def _pick_targets(self, p: Player, card: Card):
        if not self.usable(p, card):
            return None
        cd = card.cdef
        if cd.kind == "equipment":
            return [p]
        if cd.target.kind in ("self", "all"):
            return self.target_candidates(p, card)
        lo, hi = self.target_count(p, card)
        return self.choose_players(p, self.target_candidates(p, card), lo, hi, f"{cd.name}的目标",
                                   (cd.id, cd.intent if cd.intent in ("good", "bad") else None, "targets"))

    def as_read(self, c: Card) -> Card:
        """A card that a filter changes is used or played as it reads, as a virtual card of it
        (a ♥ hand card that 武神 reads as 杀 is a 杀 even once it has left the hand)."""
        if self.lens.filters and c.uid >= 0 and (c.cdef is not c._cdef or c.suit != c._suit):
            return self.virtual(c.cdef.id, [c])
        return c

    def use_from_hand(self, p: Player, card: Card, memo: dict | None = None) -> bool:
        """`memo`: the play phase's quantities, still true while the targets of a physical card are chosen
        (nothing has changed since the action was chosen; a converted card sets its cards aside first)."""
        card = self.as_read(card)
        self.qmemo = memo if card.uid >= 0 else None
        try:
            targets = self.pick_targets(p, card)
        finally:
            self.qmemo = None
        if targets is None:
            return False
        self._count_use(p, card)
        self.use_card(p, card, targets)
        return True

    def _count_use(self, p: Player, card: Card) -> None:
        if card.cdef.limit is not None:
            self._use_limit(p, card.cdef.limit_key, -1, card.cdef.limit.scope, 1)

    def use_supplied(self, p: Player, L: Listener, card_id: str) -> bool:
        """Declare the use, choose its targets, then let the skill try to supply the card."""
        targets = self.pick_targets(p, self.virtual(card_id))
        if targets is None:
            return False
        ev = self.ev_need_cls(who=p, pattern=card_id, how="use")
        self._fire(L, ev)
        if ev.card is None:
            self.say(p, " 未能得到【", self.rules.cards[card_id].name, "】")
            return False
        self._count_use(p, ev.card)
        self.use_card(p, ev.card, targets)
        return True

    @contextlib.contextmanager
    def set_aside(self, cards):
        """Equipment among `cards` stops counting (slot and modifiers) for the duration."""
        gone = []
        for c in cards:
            if c._zone == "equip" and c._owner is not None and c._owner.equip.get(c._cdef.slot) is c:
                owner = c._owner
                insts = [i for i in owner.skills if i.card is c]
                del owner.equip[c._cdef.slot]
                for inst in insts:
                    for rec in inst.mods:
                        self.drop_mod(rec)
                gone.append((c, owner, insts))
        try:
            yield
        finally:
            for c, owner, insts in reversed(gone):
                owner.equip[c._cdef.slot] = c
                for inst in insts:
                    for rec in inst.mods:
                        self.add_mod(rec)

    def use_card(self, p: Player, card: Card, targets) -> None:
        ev = self.ev_use_cls(source=p, card=card, targets=list(targets))
        self.run_flow(self.flow_use.id, ev)

    def activate(self, p: Player, inst: SkillInst, a) -> None:
        """p uses an active skill: their own, or another player's that its `by` lets them use."""
        key = self._active_key(inst, p)
        if inst.owner is p and not inst.live:
            self.reveal_for(inst)  # a face-down hero's skill: reveal the hero first
        if a.limit is not None:
            self._use_limit(p, key, a.index, a.limit.scope, 1)
        if inst.owner is p or inst.owner is None:
            self.say(p, " 发动 【", inst.skill.name, "】", loc=a.loc)
        else:
            self.say(p, " 发动 ", inst.owner, " 的【", inst.skill.name, "】", loc=a.loc)
        self.push("skill", inst.skill.name, None, a.loc, inst.skill.id, inst.owner)
        try:
            try:
                a.run(self, inst.owner, p)
            except Abort:
                if a.limit is not None:
                    self._use_limit(p, key, a.index, a.limit.scope, -1)
        except BaseException as e:
            self.frame_broke(e)
            raise
        self.stack.pop()
        if self.later_fns:
            self.run_later()

    def ask_card(self, p: Player, pattern: str, how: str = "use", prompt: str = ""):
        """Ask p for a card named `pattern` from hand or through a view-as skill; None if declined."""
        if not p.alive:
            return None
        cards = [c for c in self.hand_like(p) if (pattern == (cd := c.cdef).id or pattern in cd.family) and  # cd.counts_as
                 self.may_give(p, c, how)]
        views = self.viewas_of(p, how, pattern)
        if views and not self.may_give(p, self.virtual(pattern), how):
            views = []
        if not cards and not views:
            return None
        opts = cards + [("viewas", x) for x in views]
        choice = self.decide(Request("respond", p, opts, lo=0, prompt=prompt or self.rules.cards[pattern].name,
                                     context=pattern))
        if choice is None:
            return None
        if isinstance(choice, Card):
            return self.as_read(choice)
        inst, v, src = choice[1]
        try:
            sub = self.viewas_cards(p, inst, v, src)
        except Abort:
            return None
        if not inst.live:
            self.reveal_for(inst)
        self._say_viewas(p, inst, v)
        self._count_viewas(p, inst, v, 1)
        return self.virtual(v.card, sub, inst.skill)

    def ask_use(self, p: Player, cards, prompt: str = ""):
        """p may use one of `cards` (「你可以使用一张锦囊牌」), choosing its targets as in the play phase; the use
        is not counted against the card's limit. The card used, or None if p declines or none is usable."""
        if not p.alive:
            return None
        offer = [c for c in cards if self.usable(p, self.as_read(c))]
        if not offer:
            return None
        picked = self.decide(Request("cards", p, offer, lo=0, hi=1, prompt=prompt or "使用一张牌"))
        if not picked:
            return None
        card = self.as_read(picked[0])
        targets = self.pick_targets(p, card)
        if targets is None:
            return None
        self.use_card(p, card, targets)
        return card

    def card_effect(self, card: Card, aim) -> None:
        fn = card.cdef.effect
        if fn is not None:
            self.push("effect", card.cdef.name, aim, card.cdef.loc, card.cdef.id)
            try:
                fn(self, aim.source, aim, card)
            except Abort:
                pass  # a choice with nothing to choose from: the rest of the effect cannot happen
            except BaseException as e:
                self.frame_broke(e)
                raise
            self.stack.pop()

    def card_before(self, card: Card, use) -> None:
        if card.cdef.before is not None:
            card.cdef.before(self, use.source, use, card)

    def card_after(self, card: Card, use) -> None:
        if card.cdef.after is not None:
            card.cdef.after(self, use.source, use, card)
