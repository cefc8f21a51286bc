"""The probe: an adversarial agent that looks as far as an agent author could (issue 30).

At every decision it walks everything reachable from its view and the request, the way a curious agent
would: every attribute (properties read), item and key; bound methods' __self__ and __func__; functions'
closures, defaults, __wrapped__ and __globals__ (the modules of sgsdsl and of the generated rules, whose
classes it walks too); properties' getters, partials' parts, objects' __dict__ and slots. It does not read
interpreter frames (sys._getframe, tracebacks, generators' frames) or the garbage collector: agents run
in-process, and code that does that can reach anything (docs/agents.md).

It fails (Leak, an InvariantError) when it finds:
- a raw engine object: the Game, a Player, a Card, a seat's Desk, a game log, a raw event, frame or skill;
- a hidden fact, as its referee (the harness's side of the table, given the game) says: another seat's
  unshown identity, a face-down hero card it has not seen (as a view's hero or as the hero's id or name
  anywhere in the snapshot), the name, suit or rank of a card it does not know (the deck order among them);
- a card identity that outlived the seat's sight: a handle once shown on a card the seat did not know,
  shown again;
- a question about an unseen card, a stale view or an object of its own making that was answered rather
  than refused.

Then it answers like the random agent (the same coin flips: a probe game is the random agent's game).
"""

from __future__ import annotations

import functools
import types

from ..engine.invariants import InvariantError
from ..engine.requests import Agent, Request, chosen
from ..engine.view import CardView, Data, PlayerView, SeatView, Unseen
from .agents import RandomAgent


class Leak(InvariantError):
    """The probe reached what its seat may not know."""


_PLAIN = frozenset({str, int, float, bool, bytes, complex, type(None), type(Ellipsis), type(NotImplemented)})
_OUT_OF_SCOPE = (types.FrameType, types.TracebackType, types.GeneratorType, types.CoroutineType,
                 types.AsyncGeneratorType, types.CodeType)
_CODE = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.WrapperDescriptorType,
         types.MethodDescriptorType, types.MemberDescriptorType, types.GetSetDescriptorType,
         types.ClassMethodDescriptorType, property, classmethod, staticmethod)


def _ours(name) -> bool:
    """A module (by name) whose objects the walk enters: the project's and the generated rules'."""
    return isinstance(name, str) and (name == "sgsdsl" or name.startswith(("sgsdsl.", "sgsdsl_generated")))


@functools.cache
def _raw_types() -> tuple[type, ...]:
    from ..engine.game import Game
    from ..engine.inplay import Listener, SkillInst
    from ..engine.log import GameLog
    from ..engine.settlement import Frame
    from ..engine.state import Card, Player
    from ..engine.tables import Event
    from ..engine.view import Desk

    return (Game, Player, Card, Desk, GameLog, Event, Frame, SkillInst, Listener)


@functools.cache
def _read_names(t: type) -> tuple[str, ...]:
    """The attributes of a view (or rules data) class an agent can read: its slots and properties."""
    names = []
    for k in t.__mro__:
        for n, d in vars(k).items():
            if n in ("__slots__", "__weakref__", "__dict__"):
                continue
            if isinstance(d, (property, types.MemberDescriptorType)) and n not in names:
                names.append(n)
    return tuple(names)


@functools.cache
def _kind(t: type) -> str:
    """How the walk treats objects of type t: plain, raw (a leak), out (out of scope), lasting (walked once
    per process: code, modules, classes, rules data) or fresh (the snapshot's: walked at every decision)."""
    if t in _PLAIN:
        return "plain"
    if issubclass(t, _raw_types()):
        return "raw"
    if issubclass(t, _OUT_OF_SCOPE):
        return "out"
    if issubclass(t, _CODE) or (hasattr(t, "__attrs_attrs__") and t.__module__.endswith("tables")) or \
            t.__name__ == "Ruleset":
        return "lasting"
    return "fresh"


class Walk:
    """One decision's walk. Long-lived objects (code, modules, classes, rules data) are walked once per
    process and remembered (held, so that their ids stay theirs); the snapshot's are walked every time."""

    def __init__(self, probe: ProbeAgent):
        self.probe = probe
        self.done = probe.done
        self.seen: set[int] = set()
        self.cards: list[CardView] = []
        self.players: list[PlayerView] = []
        self.strings: set[str] = set()  # strings of the snapshot (not of the rules or the code)

    def run(self, root) -> None:
        done, seen, strings = self.done, self.seen, self.strings
        todo = [(root, True, ("view", None))]
        while todo:
            x, fresh, path = todo.pop()
            key = id(x)
            if key in seen or key in done:
                continue
            kind = _kind(type(x))
            if kind == "raw":
                raise Leak(f"the probe reached a raw {type(x).__name__} through {_path(path)}")
            if kind == "out":
                continue
            if kind == "lasting":
                done[key] = x
                fresh = False
            else:
                seen.add(key)
            for name, y in self._parts(x):
                ty = type(y)
                if ty in _PLAIN:
                    if fresh and ty is str:
                        strings.add(y)
                    continue
                if id(y) not in done:
                    todo.append((y, fresh, (name, path)))

    def _parts(self, x):
        """(name, value) of everything one step from x."""
        t = type(x)
        if t in (list, tuple, set, frozenset):
            yield from (("[]", y) for y in x)
            return
        if t in (dict, types.MappingProxyType):
            for k, y in x.items():
                yield "key", k
                yield k, y
            return
        if isinstance(x, Data):
            if type(x) is CardView:
                self.cards.append(x)
            elif type(x) is PlayerView:
                self.players.append(x)
            for n in _read_names(t):
                try:
                    yield n, getattr(x, n)
                except AttributeError:
                    pass
            yield "__class__", t
            return
        if isinstance(x, types.ModuleType):
            if _ours(x.__name__):
                yield from x.__dict__.items()
            return
        if isinstance(x, type):
            if _ours(x.__module__):
                yield from vars(x).items()
                yield from (("__bases__", b) for b in x.__bases__)
            return
        if isinstance(x, types.FunctionType):
            for c in x.__closure__ or ():
                try:
                    yield "__closure__", c.cell_contents
                except ValueError:  # an empty cell
                    pass
            yield "__defaults__", x.__defaults__
            yield "__kwdefaults__", x.__kwdefaults__
            yield "__dict__", x.__dict__
            if _ours(x.__globals__.get("__name__")):
                yield "__globals__", x.__globals__
            return
        if isinstance(x, (types.MethodType, types.BuiltinMethodType, types.MethodWrapperType)):
            yield "__self__", getattr(x, "__self__", None)
            yield "__func__", getattr(x, "__func__", None)
            return
        if isinstance(x, (property,)):
            yield from (("fget", x.fget), ("fset", x.fset), ("fdel", x.fdel))
            return
        if isinstance(x, (classmethod, staticmethod)):
            yield "__func__", x.__func__
            return
        if isinstance(x, functools.partial):
            yield from (("func", x.func), ("args", x.args), ("keywords", x.keywords))
            return
        if isinstance(x, _CODE):
            return  # descriptors of built-in types
        wrapped = getattr(x, "__wrapped__", None) if not isinstance(x, Request) else None
        if wrapped is not None:
            yield "__wrapped__", wrapped
        d = getattr(x, "__dict__", None)
        if isinstance(d, dict):
            yield from d.items()
        for k in t.__mro__:
            for n in getattr(k, "__slots__", ()) if isinstance(getattr(k, "__slots__", ()), tuple) else ():
                try:
                    yield n, object.__getattribute__(x, n)
                except AttributeError:
                    pass
        if hasattr(t, "__attrs_attrs__"):
            for n in _read_names(t):
                if isinstance(vars(t).get(n), property):
                    try:
                        yield n, getattr(x, n)
                    except Exception:  # noqa: BLE001 - a derived attribute that does not apply
                        pass
        yield "__class__", t


def _path(path) -> str:
    names = []
    while path is not None:
        names.append(str(path[0]))
        path = path[1]
    return ".".join(reversed(names))[-400:]


class Referee:
    """The harness's side of the table for a probe: what the game knows, to check a probe's findings with.
    Trusted code, handed the game by the soak or a test; it is not part of what the probe receives."""

    def __init__(self, game):
        self.game = game

    def card(self, seat: int, cv: CardView):
        desk = self.game.views.get(seat)
        return desk.cards.get(cv.handle) if desk is not None else None

    def check(self, seat: int, walk: Walk) -> None:
        from ..engine.state import visible_to

        g = self.game
        for cv in walk.cards:
            c = self.card(seat, cv)
            if c is None:
                raise Leak(f"seat {seat + 1} holds a card view (handle {cv.handle}) its desk did not give out")
            if not visible_to(c, seat) and any(getattr(cv, a) is not None for a in ("name", "suit", "rank", "cdef",
                                                                                    "color", "kind")):
                raise Leak(f"seat {seat + 1} reads {c.label()} ({c.zone}), a card it does not know")
        secret_heroes = {}
        for p in g.players:
            if p.seat == seat:
                continue
            for i, (h, up) in enumerate(zip(p.heroes, p.shown)):
                if not up and (seat, i) not in p.hero_known:
                    secret_heroes[id(h)] = (p, h)
        for pv in walk.players:
            p = g.players[pv.seat]
            if p.seat == seat:
                continue
            if pv.identity is not None and not p.identity_shown:
                raise Leak(f"seat {seat + 1} reads the unshown identity of seat {p.seat + 1}")
            for i, h in enumerate(pv.heroes):
                if h is not None and id(h) in secret_heroes and secret_heroes[id(h)][0] is p:
                    raise Leak(f"seat {seat + 1} sees seat {p.seat + 1}'s face-down hero card {h.name}")
            if p.heroes and not any(p.shown) and ((pv.gender is not None and not p.removed) or (
                    pv.kingdom is not None and not any((seat, i) in p.hero_known for i in range(len(p.heroes))))):
                # a kingdom stays known once a card was seen face up (暗置 again): the card is known then
                raise Leak(f"seat {seat + 1} sees the kingdom or gender of seat {p.seat + 1}, all face down")
        for p, h in secret_heroes.values():
            found = {h.id, h.name} & walk.strings
            if found:
                raise Leak(f"seat {seat + 1}'s view names {found.pop()}, seat {p.seat + 1}'s face-down hero card")


# Long-lived objects walked already, in this process (the rules of a mode are one object for all its games),
# held so that their ids stay theirs.
_DONE: dict[int, object] = {}


class ProbeAgent(Agent):
    name = "probe"
    tracks = False

    def __init__(self, referee: Referee | None = None) -> None:
        self.referee = referee
        self.done = _DONE
        self.blind: set[int] = set()  # handles shown on cards the seat did not know, at earlier decisions
        self.last: SeatView | None = None
        self.decisions = 0

    def decide(self, view, req: Request):
        self.decisions += 1
        walk = Walk(self)
        walk.run((view, req))
        seat = view.seat
        for cv in walk.cards:
            if cv.handle in self.blind:
                raise Leak(f"seat {seat + 1} was shown handle {cv.handle} again, first given to a card it did not "
                           f"know: a card's identity outlived the seat's sight")
        if self.referee is not None:
            self.referee.check(seat, walk)
        self.refusals(view, walk)
        self.blind.update(cv.handle for cv in walk.cards if not cv.seen)
        self.last = view
        return chosen(req.options, req.kind,
                      RandomAgent.choose(self, view.agent_rng, req.kind, len(req.options), req.lo, req.hi))

    def refusals(self, view, walk: Walk) -> None:
        """Questions that must be refused: about a card the seat does not see, from a view of an earlier
        decision, with an argument of the agent's own making."""
        unseen = next((c for c in walk.cards if not c.seen and not c.virtual), None)
        asks = []
        if unseen is not None:
            card = next(iter(view.rules.cards))
            asks += [("target_candidates of an unseen card", lambda: view.target_candidates(view.me, unseen)),
                     ("a virtual card of an unseen card", lambda: view.virtual(card, [unseen])),
                     *((f"quantity {qd.id} of an unseen card", lambda qd=qd: view.q(qd.id, *[unseen] * len(qd.params)))
                       for qd in view.rules.quantities.values() if qd.params)]  # usable, effective, targetable …
        if self.last is not None and self.last is not view:
            old = self.last
            asks.append(("a question to a stale view", lambda: old.target_candidates(old.me, None)))
        asks.append(("a quantity of an object of the agent's making",
                     lambda: view.q(next(iter(view.rules.quantities)), object())))
        for what, ask in asks:
            try:
                ask()
            except Unseen:
                continue
            raise Leak(f"seat {view.seat + 1} asked {what} and was answered")


__all__ = ["Leak", "ProbeAgent", "Referee", "Walk"]
