"""The interpreter: the game's state, its seats and skills in play, and the mixins that run it.

The event stack opens windows and fires their triggers in seed 001's order (settlement.py), the turn
flow runs the phases (turns.py), agents make every decision (decisions.py), quantities are read
through their modifiers (quantities.py), cards move (zones.py) and the rules' primitives act
(primitives.py, play.py). It knows no card, skill or hero by name: everything it needs it reads from the
ruleset, and the few hooks it calls (the turn flow, the use flow …) are engine roles that the rules bind.
"""

from __future__ import annotations

import random

from .decisions import Decisions
from .history import History
from .inplay import Listener, SkillInst
from .log import GameLog
from .play import Play
from .primitives import Primitives
from .quantities import Quantities
from .relations import Relations
from .requests import GameOver
from .ruleset import RulesError, Ruleset
from .runaway import RunLimits
from .settlement import Frame, Settlement
from .state import Card, Lens, Player
from .tables import INF, ModeDef, SkillDef
from .turns import Turns
from .view import Desk
from .zones import Zones

__all__ = ["Game", "GameOver", "Listener", "SkillInst", "Frame"]


class _Every:
    """Contains every window."""

    def __contains__(self, wid) -> bool:
        return True


_EVERY = _Every()


def _self_params(m) -> tuple[int, ...]:
    """Where a modifier's pattern says `self`: the arguments that must be its owner."""
    return tuple(i for i, pat in enumerate(m.pattern) if pat == "self")


class Game(Settlement, Turns, Decisions, Quantities, Zones, Primitives, Play, History, Relations):
    def __init__(self, rules: Ruleset, *, players: int, seed: int, agents, mode: ModeDef | None = None,
                 log: GameLog | None = None, turn_cap: int = 200, invariants: bool = False,
                 hero_pool: list[str] | None = None, variant: int = 0, limits: RunLimits | None = None):
        self.rules = rules
        self.quantities = rules.quantities
        self.q_skill_valid = rules.role("skill_valid")
        self.skills_gated = False  # some modifier of skill_valid is in play (军令四)
        self.limits = limits or RunLimits()  # how far runaway rules may go before they are stopped
        self.limits.allow_recursion()
        self.seed = seed
        self.rng = random.Random(seed)  # the table: shuffles, draws, random heroes
        self.agent_rng = random.Random(seed * 7919 + 1)  # the agents' coin flips, kept apart
        self.mode = mode
        self.log = log
        self.turn_cap = turn_cap
        self.check_invariants = invariants
        self._init_table(players)
        self._init_agents(agents)
        self._init_settlement()
        self._init_turns()
        self._init_skills_in_play()
        self._init_setup(hero_pool, variant)
        self._init_outcome()
        self._bind_roles()
        self._history_init()
        # the packages' own rules hold at every table (a mode's join at its setup); a rule for some cards joins when
        # the first of them is made, so that a game without them does not open its windows (new_card)
        self.card_rules: dict[str, list] = {}
        self.card_rules_in: set[str] = set()
        for rule in rules.rules:
            if rule.for_cards:
                for cid in rule.for_cards:
                    self.card_rules.setdefault(cid, []).append(rule)
            else:
                self.add_rules(rule)

    # ---- the state, by kind -----------------------------------------------------------------
    def _init_table(self, players: int) -> None:
        """The seats and the card zones around them."""
        self.players = [Player(self, i) for i in range(players)]
        self.alive_changed()
        self.draw_pile: list[Card] = []  # the top is the end of the list
        self.discard_pile: list[Card] = []
        self.processing: list[Card] = []
        self.removed: list[Card] = []  # 移出游戏: out of play, owned by nobody
        self.all_cards: list[Card] = []
        self.uid = 0

    def _init_agents(self, agents) -> None:
        """Who decides, what each seat may know, and the public record bots infer allegiances from."""
        self.agents = agents
        self.views: dict[int, Desk] = {}  # each seat's side of the screen: what its agent may know
        self.track = any(getattr(a, "tracks", False) for a in agents)  # keep the record below
        self.harm: dict[tuple[int, int], float] = {}
        self.help: dict[tuple[int, int], float] = {}
        self.deeds = 0  # how often the record has grown: a bot's guesses from it hold until it grows again
        self._fmt = None  # formats interpolated prompts (text())

    def _init_settlement(self) -> None:
        """The event stack, the windows listened to and what waits for a settlement to end."""
        self.stack: list[Frame] = []
        self.next_eid = 0
        self.crash_stack: list[str] | None = None
        self.listeners: dict[str, list[Listener]] = {}
        # The windows generated code opens (`wid in g.watched`): those with triggers, or all when the log traces them.
        self.watched = _EVERY if self.log is not None and self.log.windows else self.listeners
        self.windows_open: list[str] = []
        self.later_fns: list = []  # `later` blocks waiting for the settlement under way to complete
        self.dead_asked: Player | None = None  # the dead player a 死亡时-style window is asking
        self.observer = None  # notified at a few points (sim/skillstats.py); None costs one test per point

    def _init_turns(self) -> None:
        """Whose turn, which phase, and what the turns so far have counted."""
        self.current: Player | None = None
        self.first: Player | None = None
        self.turn_event = None
        self.turn_no = 0
        self.phase: str | None = None
        self.phase_closing = False  # end_phase_later(): the phase offers no further action
        self.skipped: set[str] = set()
        self.start_phase: str | None = None
        self.extra_turns: list[Player] = []
        self.phase_bodies: dict = {}  # phase -> the turn flow's function for it (extra_phase runs it again)
        self.turns_of: dict[int, int] = {}  # seat -> turns begun
        self.turn_limit = 0  # a mode's time limit in turns (0: none); rules read turn_limit()
        self.loops = 0  # rounds of `while` and `repeat` this turn (runaway.py)

    def _init_skills_in_play(self) -> None:
        """What the skills in play add: shared actions and conversions, lent skills, modifiers, card filters."""
        self.shared_actives: list = []
        self.shared_viewas: list = []  # ownerless rules' conversions, open to every player (鏖战: 桃当杀或闪)
        self.shared_viewas_by: list = []  # (inst, viewas) of skills whose `by` lets others convert (天兵符)
        self.lent_skills: list = []
        # `has S while P` of the skills in play: [owner, the granting instance, GrantDef, the instances it attached]
        self.grants: list[list] = []
        self.mods: dict[str, list] = {}
        self.qmemo: dict | None = None
        # qid -> how to read it now, f(g, *args): its base when no modifier is on it and it has no floor (the
        # value is the base's), else _modified. Generated code calls g.qf[qid](g, …); kept up to date by add_mod.
        self.qf: dict = {}
        self._quantities_changed()
        self.lens = Lens(self)  # the card filters (视为) in play

    def _init_setup(self, hero_pool: list[str] | None, variant: int) -> None:
        """What the mode's setup deals from, and what a scenario test fixes in advance."""
        self.options: dict[str, object] = {}  # the mode's options this game changes (simulate --option)
        self.hero_pool: list[str] = list(hero_pool or [])
        self.variant = variant  # which row of the mode's identity table when it has variants
        self.used_heroes: set[str] = set()
        # A scenario test that runs the mode's setup fixes each seat's identity and hero (scenarios/runner.py).
        self.fixed_identities: list[str] | None = None
        self.fixed_heroes: dict[int, str] = {}
        self.deal_first: tuple[str, ...] = ()  # a scenario test's heroes, dealt before any drawn at random
        self.at_start_phase = None  # a scenario test's: run when its `start` phase begins

    def _init_outcome(self) -> None:
        self.deaths: list[tuple[int, Player]] = []
        self.winners: tuple[str, ...] | None = None
        self.won_seats: frozenset[int] | None = None  # who won, when not all of the winning identities did
        self.end_reason = ""
        self.over = False

    def _bind_roles(self) -> None:
        """The flows, windows, events and quantities the engine calls by role: the rules bind each
        (`bind turn 回合`); the engine knows no flow or quantity by name."""
        rules = self.rules
        self.flow_use = rules.role("use")
        self.flow_turn = rules.role("turn")
        if self.flow_use is None or self.flow_turn is None:
            raise RulesError("the rules bind no `turn` or `use` flow (core rules missing?)")
        self.flow_play = rules.role("play")
        self.flow_reveal = rules.role("reveal")
        self.flow_recast = rules.role("recast")
        self.flow_conduct = rules.role("conduct")
        self.win_moved = rules.role("moved")
        self.win_moving = rules.role("moving")
        self.win_need = rules.role("need_card")
        self.q_targetable = rules.role("targetable")
        self.q_usable = rules.role("usable")
        self.q_playable = rules.role("playable")
        self.q_discardable = rules.role("discardable")
        self.q_recastable = rules.role("recastable")
        self.q_as_hand = rules.role("as_hand")
        self.q_revealable = rules.role("revealable")
        self.q_sole_big = rules.role("sole_big")
        self.ev_use_cls = rules.events[self.flow_use.event].cls
        self.ev_turn_cls = rules.events[self.flow_turn.event].cls
        self.ev_move_cls = rules.events[self.win_moved.event].cls if self.win_moved else None
        self.ev_moving_cls = rules.events[self.win_moving.event].cls if self.win_moving else None
        self.ev_need_cls = rules.events[self.win_need.event].cls if self.win_need else None
        # events whose settlement the history records (engine roles; absent roles record nothing)
        role_event = {r: (rules.role(r).event if rules.role(r) is not None else None)
                      for r in ("damage", "recover", "die")}
        self.ev_damage, self.ev_recover, self.ev_death = role_event["damage"], role_event["recover"], role_event["die"]

    # ---- the public record of who harmed or helped whom (for agents) -------------------
    def actor(self):
        """The player acting in the innermost event that names one (its `source`), if any."""
        for f in reversed(self.stack):
            src = getattr(f.event, "source", None) if f.event is not None else None
            if isinstance(src, Player):
                return src
        return None

    def _record(self, target: Player, delta: float) -> None:
        a = self.actor()
        if a is None or a is target:
            return
        book = self.help if delta > 0 else self.harm
        key = (a.seat, target.seat)
        book[key] = book.get(key, 0.0) + abs(delta)
        self.deeds += 1

    # ---- skills -----------------------------------------------------------------------
    def is_lord(self, p: Player) -> bool:
        return self.mode is not None and self.mode.lord is not None and p.identity == self.mode.lord

    def current_lord(self) -> Player | None:
        """当前主公: the living player who holds the mode's `lord` identity, if any."""
        return next((p for p in self.players if p.alive and self.is_lord(p)), None)

    def attach(self, p: Player, skill: SkillDef, equip: bool = False, card=None, gained: bool = False,
               slot: int | None = None) -> None:
        if skill.lord and not gained and not self.is_lord(p):
            return  # a hero's lord skills exist only while its owner is the lord; one gained (若愚) is held
        inst = SkillInst(skill, p, equip, card, slot)
        p.skills.append(inst)
        for t in skill.triggers:
            for wid in t.windows:
                lst = Listener(p, skill, t, equip, inst)
                inst.listeners.append(lst)
                self.listeners.setdefault(wid, []).append(lst)
        for m in skill.modifiers:
            rec = (p, m, inst, _self_params(m))
            inst.mods.append(rec)
            self.add_mod(rec)
        for a in skill.actives:
            if a.by is not None:
                self.shared_actives.append((inst, a))
        for v in skill.viewas:
            if v.by is not None:
                self.shared_viewas_by.append((inst, v))
        for f in skill.filters:
            self.lens.filters.append((p, f, inst))
        if skill.grants:
            self.grants.extend([p, inst, gd, []] for gd in skill.grants)
            self.watched = _EVERY  # every window opens now: each is a moment to read the grants' conditions
            self.update_grants()

    def update_grants(self) -> None:
        """Attach or take away what each `has S while P` holds, as P reads now. Read at every timing window
        and whenever the play phase lists actions: a state between two of them is not looked at."""
        for entry in list(self.grants):
            p, inst, gd, held = entry
            if entry not in self.grants:
                continue  # taken away meanwhile, with the skill that granted it
            hold = p.alive and inst.live and bool(gd.when(self, p))
            if hold and not held:
                for sid in gd.skills:
                    if not self.has_skill(p, sid):  # one held already (张飞's own 咆哮) is not doubled, nor lost
                        self.attach(p, self.rules.skills[sid], gained=True)
                        held.append(p.skills[-1])
                if not held:
                    held.append(None)  # (held: every skill was there already)
            elif held and not hold:
                self._drop_granted(held)

    def _drop_granted(self, held: list) -> None:
        for g in [g for g in held if g is not None]:
            if g in g.owner.skills:
                g.owner.skills.remove(g)
                self._deactivate(g)
        held.clear()

    def detach(self, p: Player, skill: SkillDef, card=None) -> None:
        for inst in list(p.skills):
            if inst.skill is skill and (card is None or inst.card is card):
                p.skills.remove(inst)
                self._deactivate(inst)
                return

    def _deactivate(self, inst: SkillInst) -> None:
        for lst in inst.listeners:
            lst.active = False
            for wid in lst.trigger.windows:
                entries = self.listeners.get(wid)
                if entries and lst in entries:
                    entries.remove(lst)
        for rec in inst.mods:
            self.drop_mod(rec)
        self.shared_actives = [x for x in self.shared_actives if x[0] is not inst]
        if self.shared_viewas_by:
            self.shared_viewas_by = [x for x in self.shared_viewas_by if x[0] is not inst]
        if inst.skill.filters:
            self.lens.filters = [x for x in self.lens.filters if x[2] is not inst]
        if inst.skill.grants:
            for entry in [e for e in self.grants if e[1] is inst]:
                self.grants.remove(entry)
                self._drop_granted(entry[3])

    def has_skill(self, p: Player, skill: str) -> bool:
        return any(inst.skill.id == skill for inst in p.skills)

    def add_rules(self, skill: SkillDef) -> None:
        """A package's or a mode's ownerless rule: fires by itself, before any player's skill; its `active by` facets are
        actions the players it names may take in their play phase (国战's marks, 连横), and its `viewas` facets
        conversions every player may make (鏖战)."""
        inst = SkillInst(skill, None, False)
        for t in skill.triggers:
            for wid in t.windows:
                lst = self.listeners.setdefault(wid, [])
                ahead = sum(1 for L in lst if L.owner is None)  # mode rules first, in the order written
                lst.insert(ahead, Listener(None, skill, t, False, inst))
        for m in skill.modifiers:
            self.add_mod((None, m, None, _self_params(m)))
        for a in skill.actives:
            if a.by is not None:
                self.shared_actives.append((inst, a))
        if skill.viewas:
            self.shared_viewas.append(inst)

    # ---- seats ------------------------------------------------------------------------
    def next_alive(self, p: Player) -> Player:
        n = len(self.players)
        for i in range(1, n + 1):
            q = self.players[(p.seat + i) % n]
            if q.alive and not q.away:
                return q
        return p

    def prev_alive(self, p: Player) -> Player:
        n = len(self.players)
        for i in range(1, n + 1):
            q = self.players[(p.seat - i) % n]
            if q.alive and not q.away:
                return q
        return p

    def alive_changed(self) -> None:
        """A player died or came back: the seat orders and distances are read afresh (every change of
        `Player.alive` calls this)."""
        self._rings = {}
        self._alive = None

    def alive_from(self, p: Player) -> list[Player]:
        return list(self.ring(p))

    def ring(self, p: Player) -> tuple[Player, ...]:
        """The living players in seat order from p (p first when alive), as a tuple to read, not to change."""
        ring = self._rings.get(p.seat)
        if ring is None:
            n = len(self.players)
            ring = self._rings[p.seat] = tuple(q for i in range(n) if (q := self.players[(p.seat + i) % n]).alive)
        return ring

    def alive_from_current(self) -> list[Player]:
        """Seat order from the player whose turn it is; between turns, from the next one."""
        return list(self.ring_current())

    def ring_current(self) -> tuple[Player, ...]:
        start = self.current
        if start is None:
            start = self.next_alive(self.last_turn) if getattr(self, "last_turn", None) else self.players[0]
        return self.ring(start)

    def others(self, p: Player) -> list[Player]:
        return [q for q in self.alive_from(p) if q is not p]

    def seat_distance(self, a: Player, b: Player) -> int:
        if a is b:
            return 0
        alive = self._alive
        if alive is None:
            alive = self._alive = {p: i for i, p in enumerate(q for q in self.players if q.alive and not q.away)}
        i, j = alive.get(a), alive.get(b)
        if i is None or j is None:
            return INF
        d = abs(i - j)
        return min(d, len(alive) - d)

    def random_of(self, xs):
        return xs[self.rng.randrange(len(xs))] if xs else None

    def settling(self):
        """The event of the innermost flow being settled (None outside flows)."""
        for f in reversed(self.stack):
            if f.kind == "flow":
                return f.event
        return None

    def ongoing(self, event_type: str):
        for f in reversed(self.stack):
            if f.event is not None and getattr(f.event, "TYPE", None) == event_type:
                return f.event
        return None

    def option(self, oid: str):
        if oid in self.options:
            return self.options[oid]
        return next(d for i, _, d, _ in self.mode.options if i == oid)

    def seat_of(self, hero: str) -> Player:
        """The seat a hero plays in: in play, fallen, in reserve or replaced (a test names a 1v1 seat by any of them,
        and a 国战 seat by the hero card it was seated with)."""
        for p in self.players:
            if any(h.id == hero for h in p.heroes):
                return p
        for p in self.players:
            if hero in p.fallen or hero in p.reserve or hero in p.replaced or self.fixed_heroes.get(p.seat) == hero:
                return p
        raise RulesError(f"no seat plays {hero}")

    def player_name(self, p: Player) -> str:
        """The name the table knows: the face-up heroes (a log is public; face-down heroes stay hidden)."""
        names = [h.name for h, up in zip(p.heroes, p.shown) if up]
        return "/".join(names) if names else f"座位{p.seat + 1}"

    # ---- log -------------------------------------------------------------------------------
    def say(self, *parts, loc: str | None = None, choice: bool = False, secret: bool = False) -> None:
        """A log line; `choice`: a player's choice said aloud, which a seat's log keeps to itself when it names
        a face-down hero card (log.py); `secret`: a choice made in secret, which only the chooser's seat reads."""
        if self.log is not None:
            self.log.say(self, parts, loc, choice, secret)

    # ---- invariants -------------------------------------------------------------------------
    def verify(self) -> None:
        from .invariants import check

        check(self)
