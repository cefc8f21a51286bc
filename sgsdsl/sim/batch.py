"""Batches of bot games.

Game i of a batch with seed S is played with seed S*1_000_003 + i, whatever the
number of workers, so `--workers 2` gives the figures of one worker; the seed of
a game also names its index (seed % 1_000_003) and so its place in a rotation.

A featured hero (`--hero`) is seated in every game of its batch, in any mode, its identity and
seat rotated evenly (Rotation); its control game has the same seed, seat and identity with a
pool hero in that seat, the pool heroes taking turns evenly at any game count (see sim/seating.py).
"""

from __future__ import annotations

import functools
import random
import time
from pathlib import Path

import attrs

from ..bots.agents import FirstAgent, RandomAgent
from ..engine.log import GameLog
from ..engine.ruleset import RulesError, Ruleset, rules_location
from ..engine.runaway import RunawayError, RunLimits
from ..engine.tables import HeroDef
from .seating import PlannedGame, SeatPlan
from .skillstats import SkillStats

AGENTS = {"random": RandomAgent, "first": FirstAgent}
SEED_STRIDE = 1_000_003


def agent_class(name: str):
    if name == "heuristic":
        from ..bots.heuristic import HeuristicAgent

        return HeuristicAgent
    if name == "probe":
        from ..bots.probe import ProbeAgent

        return ProbeAgent
    return AGENTS[name]


def game_seed(seed: int, i: int) -> int:
    return seed * SEED_STRIDE + i


@functools.lru_cache(maxsize=64)
def _cycle(pool: tuple[str, ...], c: int) -> tuple[str, ...]:
    order = list(pool)
    random.Random(c).shuffle(order)  # the cycle's own order: a fixed seed, the same in every run
    return tuple(order)


def balanced(pool: tuple[str, ...], i: int, fits=lambda h: True) -> str:
    """The pool hero of game i: every cycle of len(pool) games takes each hero once, each cycle in an order of
    its own (so that a hero does not keep one identity and seat from cycle to cycle); so at any game count
    each hero has been used as often as any other, within one. A hero that may not take game i's place (a
    `never lord` hero in the lord's seat) gives it to the next of the cycle that may."""
    n = len(pool)
    order = _cycle(pool, i // n)
    return next(order[(i % n + k) % n] for k in range(n) if fits(order[(i % n + k) % n]))


@attrs.frozen
class Rotation:
    """Where a featured hero sits in game i, and who sits there instead in the control game.

    Game i plays the featured hero as identities[i % len(identities)] — the identities as the mode's table
    deals them, so that an identity two seats hold (2 of 5 seats are rebels) comes twice as often and the
    games of every identity together weigh them as a table does — at seat (i // len(identities)) % seats.
    A mode that deals no identities (国战) has one entry, None: its games rotate the seat alone, and the hero
    plays beside a partner of its kingdom (as main in even games, as deputy in odd ones)."""

    hero: str
    identities: tuple[str | None, ...]
    seats: int
    pool: tuple[str, ...]  # the heroes that take turns in the control games, balanced at any game count
    lord: str | None = None  # the lord's identity, which `never lord` heroes may not take
    never_lord: frozenset[str] = frozenset()
    partners: tuple[str, ...] = ()  # 国战: the heroes of its kingdom that it is paired with, in turn

    def plan(self, i: int, control: bool = False, hero: str | None = None) -> SeatPlan:
        """The seat plan of game i: the featured hero (or `hero` in its place: an ablated copy), or with
        `control` the pool hero of that game."""
        k = len(self.identities)
        ident = self.identities[i % k]
        seat = (i // k) % self.seats
        base = balanced(self.pool, i, lambda h: ident is None or ident != self.lord or h not in self.never_lord)
        partner = None
        if self.partners:
            others = tuple(h for h in self.partners if h != base)
            partner = others[(i // 2) % len(others)]
        me = base if control else (hero or self.hero)
        reserved = tuple(dict.fromkeys((self.hero, base) + ((hero,) if hero else ()) +
                                       ((partner,) if partner else ())))
        return SeatPlan(seat, ident, me, reserved, partner, deputy=bool(self.partners) and i % 2 == 1)

    def controls(self, games: int) -> dict[str, int]:
        """How often each pool hero took the seat in the control games of a batch of `games`."""
        out = dict.fromkeys(self.pool, 0)
        for i in range(games):
            out[self.plan(i, True).hero] += 1
        return {h: n for h, n in out.items() if n}


def rotation(rules: Ruleset, mode_id: str, players: int, variant: int, hero: str,
             baseline: str | None = None, pool: list[str] | None = None) -> Rotation:
    """The rotation of a featured hero in any mode; RulesError when the mode or the baseline cannot have it."""
    mode = rules.modes[mode_id]
    rows = dict(mode.table).get(players)
    never = frozenset(h for h in rules.heroes if rules.heroes[h].never_lord)
    # a lord card (`lord of`) is never dealt: it replaces its hero's card when the mode's rules say so
    pool = [h for h in (pool or rules.hero_pool(mode)) if h != hero and rules.heroes[h].lord_of is None]
    if not rows:
        if mode.table:
            raise RulesError(f"mode {mode_id} deals no identities to {players} players: a featured hero needs them")
        # no identities (国战): the featured hero's kingdom decides its partners and its control heroes
        kingdom, lone = rules.heroes[hero].kingdom, rules.lone_kingdom
        mates = [h for h in pool if rules.heroes[h].kingdom == kingdom] if kingdom != lone else \
            [h for h in pool if rules.heroes[h].kingdom != lone]
        if baseline is not None:
            mates = [h for h in mates if h != baseline]
        if len(mates) < (1 if baseline else 2):
            raise RulesError(f"{rules.heroes[hero].name} needs another hero of its kingdom to play beside, and "
                             f"one for its control seat: the pool has {len(mates)}")
        base = (baseline,) if baseline else tuple(mates)
        return Rotation(hero, (None,), players, base, partners=tuple(mates))
    seats = tuple(i for i in rows[variant % len(rows)] if hero not in never or i != mode.lord)
    if baseline is not None:
        pool = [baseline]
    if mode.lord in seats and all(h in never for h in pool):
        raise RulesError(f"no baseline hero may play {rules.enum_names.get(mode.lord, mode.lord)} "
                         f"(`never lord`): choose another --baseline")
    return Rotation(hero, seats, players, tuple(pool), mode.lord, never & frozenset(pool))


@attrs.frozen
class Setup:
    """What every game of a batch shares."""

    mode: str
    players: int
    agent: str
    turn_cap: int = 200
    invariants: bool = False
    decks: tuple[str, ...] = ()
    variant: int = 0
    pick: str | None = None  # how bots pick heroes (agents.HERO_PICKS); None: each agent's own way
    stats: bool = False  # count what each skill did (engine/skillstats.py)
    turn_limit: int = 0  # a mode's time limit in turns (turn_limit() in the rules)
    options: tuple[tuple[str, object], ...] = ()  # the mode's options this batch changes
    limits: RunLimits | None = None  # how far runaway rules may go (simulate --loop-limit/--depth-limit)
    heroes: tuple[str, ...] = ()  # the hero pool games deal from (simulate --pool); none: the mode's


@attrs.define
class GameResult:
    index: int
    seed: int
    winners: tuple[str, ...]
    reason: str
    turns: int
    seats: list[tuple[str, str | None, bool]]  # (hero id, identity, won)
    error: str | None = None
    featured: str | None = None  # the featured hero of this game's batch
    control: bool = False  # a control game: the featured hero's seat played by a baseline
    seat: int | None = None  # the planned seat
    hero: str | None = None  # who took the planned seat: the featured hero, its control's pool hero
    ablated: str | None = None  # an ablation game (--ablate): the featured hero without this skill
    skills: dict = attrs.Factory(dict)  # skill id -> counters (SkillStats.result)
    # every hero that entered play, once per game (a 1v1 seat plays several): (hero id, identity, won)
    played: list[tuple[str, str | None, bool]] = attrs.Factory(list)
    # 国战's two hero cards per seat: (main id, deputy id, identity, won)
    pairs: list[tuple[str, str, str | None, bool]] = attrs.Factory(list)


def new_game(rules: Ruleset, mode_id: str, players: int, seed: int, agent: str | list[str], log: GameLog | None = None,
             turn_cap: int = 200, invariants: bool = False, decks: list[str] | None = None,
             heroes: list[str] | None = None, variant: int = 0, plan: SeatPlan | None = None,
             pick: str | None = None, limits: RunLimits | None = None) -> PlannedGame:
    """A game ready to run. `decks` are added to the mode's own (e.g. the EX cards). `agent` names the
    agents of every seat, or is a list with one name per seat."""
    mode = rules.modes[mode_id]
    rules = rules.for_mode(mode)  # the mode's own versions of heroes and skills (国战's, 1v1's)
    names = [agent] * players if isinstance(agent, str) else list(agent)
    agents = [agent_class(a)() for a in names]
    for a in agents:
        a.pick = pick or a.pick
    g = PlannedGame(rules, players=players, seed=seed, agents=agents, mode=mode, log=log, turn_cap=turn_cap,
                    invariants=invariants, hero_pool=heroes or rules.hero_pool(mode), variant=variant,
                    limits=limits)
    g.plan = plan
    g.build_deck(list(mode.decks) + [d for d in decks or () if d not in mode.decks])
    return g


def pool_heroes(rules: Ruleset, mode_id: str, pools: tuple[str, ...]) -> tuple[str, ...]:
    """The heroes of the named pools (`pool` declarations, by id or Chinese name), in order, with every hero of a
    designer's files, as a mode's own pool has them; RulesError for a name that is no pool, or for a hero the mode
    cannot deal (not in its rules, or kept to other modes)."""
    out: list[str] = []
    for name in pools:
        p = rules.pools.get(name) or next((x for x in rules.pools.values() if x.name == name), None)
        if p is None:
            elsewhere = next((t.package for t in rules.all_tables for x in t.pools if name in (x.id, x.name)), None)
            if elsewhere is not None:
                raise RulesError(f"pool {name} is in package {elsewhere}, which mode {mode_id} does not play with "
                                 f"(--with {elsewhere})")
            known = ", ".join(f"{x.name} {x.id}" for x in rules.pools.values()) or "none"
            raise RulesError(f"no hero pool '{name}' (pools: {known})")
        bad = [h for h in p.heroes if h not in rules.heroes or (rules.heroes[h].modes and mode_id not in
                                                                 rules.heroes[h].modes)]
        if bad:
            raise RulesError(f"pool {p.name} has heroes that mode {mode_id} cannot deal: {', '.join(bad)} (its "
                             f"heroes are of another mode's rules: `{p.loc}`)")
        out += p.heroes
    out += [h for pkg in rules.designer for h in rules.package_heroes.get(pkg, ())]
    return tuple(dict.fromkeys(out))


def setup_game(rules: Ruleset, s: Setup, seed: int, plan: SeatPlan | None = None,
               log: GameLog | None = None) -> PlannedGame:
    g = new_game(rules, s.mode, s.players, seed, s.agent, log, s.turn_cap, s.invariants, list(s.decks),
                 list(s.heroes) or None, s.variant, plan, s.pick, s.limits)
    if s.stats:
        g.observer = SkillStats(rules)
    g.turn_limit = s.turn_limit
    g.options = dict(s.options)
    return g


def ablated(rules: Ruleset, hero: str, skill: str) -> HeroDef:
    """A copy of `hero` without `skill` (simulate --ablate), under an id of its own."""
    h = rules.heroes[hero]
    return attrs.evolve(h, id=f"{h.id}~{skill}", name=f"{h.name}（无{rules.skills[skill].name}）",
                        skills=tuple(k for k in h.skills if k != skill))


def play(rules: Ruleset, s: Setup, index: int, seed: int, rot: Rotation | None = None,
         control: bool = False, ablate: str | None = None) -> GameResult:
    g = None
    copy = None
    if ablate is not None:  # the featured hero's games again, with a copy of it that lacks one skill
        copy = ablated(rules, rot.hero, ablate)
        rules = rules.with_heroes((copy,))
    plan = rot.plan(index, control, copy.id if copy else None) if rot is not None else None
    tag = {"featured": rot.hero if rot else None, "control": control, "seat": plan.seat if plan else None,
           "hero": plan.hero if plan else None, "ablated": ablate}
    try:
        g = setup_game(rules, s, seed, plan)
        over = g.run()
        if plan is not None:
            tag["seat"] = g.planned().seat
        seats = [(p.heroes[0].id if p.heroes else "?", p.identity, over.won(p)) for p in g.players]
        played = [(h, p.identity, over.won(p)) for p in g.players
                  for h in dict.fromkeys(p.fallen + [x.id for x in p.heroes])]
        pairs = [(p.heroes[0].id, p.heroes[1].id, p.identity, over.won(p)) for p in g.players if len(p.heroes) == 2]
        skills = g.observer.result(g) if g.observer is not None else {}
        return GameResult(index, seed, over.winners, over.reason, g.turn_no, seats, skills=skills, played=played,
                          pairs=pairs, **tag)
    except RunawayError as e:  # its message names the rules, the window and the seed
        return GameResult(index, seed, (), "error", g.turn_no if g else 0, [], f"seed {seed}: {e}", **tag)
    except Exception as e:  # a rules bug no check caught: report it, the batch goes on
        loc = rules_location(e.__traceback__)
        stack = " > ".join(g.crash_stack or []) if g is not None else ""
        what = f"seed {seed}"
        if plan is not None:
            what += f" ({'control: ' + plan.hero + ' in' if control else rot.hero + ' in'} seat {plan.seat + 1})"
        msg = f"{what}: {e.__class__.__name__}: {e}"
        if loc:
            msg += f"\n  at {loc}"
        if stack:
            msg += f"\n  stack: {stack}"
        return GameResult(index, seed, (), "error", g.turn_no if g else 0, [], msg, **tag)


# ---- backends --------------------------------------------------------------------------
# Jobs are (Setup, index, seed, rotation, control) tuples; every backend plays them with play() and
# yields the results in job order, so a batch gives the same figures on any backend. The worker
# processes and Ray tasks, with what a lost worker and an interrupt do, are in pool.py.

BACKENDS = ("processes", "ray")


def stream_jobs(rules: Ruleset, jobs, workers: int = 1, paths: list[Path] | None = None, backend: str = "processes",
                ray_address: str | None = None):
    """Play jobs (an iterable: it is read a chunk at a time) and yield their results in job order."""
    if backend == "ray":
        from .pool import stream_ray

        yield from stream_ray(rules, jobs, paths, ray_address, play, lost)
    elif workers <= 1:
        from .pool import settle

        settle(rules)
        for job in jobs:
            yield play(rules, *job)
    else:
        from .pool import stream_processes

        yield from stream_processes(rules, jobs, workers, paths, play, lost)


def lost(job: tuple, why: str) -> GameResult:
    """A game no worker could play (its worker died while playing it, its Ray task was lost): reported as a
    broken game with its seed."""
    _, index, seed, rot, control, *rest = job
    plan = rot.plan(index, control) if rot is not None else None
    return GameResult(index, seed, (), "error", 0, [], f"seed {seed}: {why}", featured=rot.hero if rot else None,
                      control=control, seat=plan.seat if plan else None, hero=plan.hero if plan else None,
                      ablated=rest[0] if rest else None)


def run_jobs(rules: Ruleset, jobs: list[tuple], workers: int = 1, paths: list[Path] | None = None,
             progress=None, backend: str = "processes", ray_address: str | None = None
             ) -> tuple[list[GameResult], float]:
    """Play jobs (Setup, index, seed, rotation, control), in order, on `workers` processes (or Ray)."""
    start = time.perf_counter()
    results: list[GameResult] = []
    for r in stream_jobs(rules, jobs, workers, paths, backend, ray_address):
        results.append(r)
        if progress:
            progress()
    return results, time.perf_counter() - start


def iter_jobs(s: Setup, games: int, seed: int, rotations: list[Rotation] = (), control: bool = True,
              ablate: dict[str, tuple[str, ...]] | None = None):
    """The jobs of a batch, one at a time: plain games, or per featured hero its games, (with `control`)
    their controls, and (with `ablate`, featured hero -> skills) its games again without each skill."""
    if not rotations:
        return ((s, i, game_seed(seed, i), None, False) for i in range(games))
    ablate = ablate or {}
    return ((s, i, game_seed(seed, i), rot, ctl, skill) for rot in rotations
            for ctl, skill in [(False, None)] + ([(True, None)] if control else []) +
            [(False, k) for k in ablate.get(rot.hero, ())] for i in range(games))


def count_jobs(games: int, rotations: list[Rotation] = (), control: bool = True,
               ablate: dict[str, tuple[str, ...]] | None = None) -> int:
    if not rotations:
        return games
    ablate = ablate or {}
    return games * sum(1 + int(control) + len(ablate.get(rot.hero, ())) for rot in rotations)


def batch_jobs(s: Setup, games: int, seed: int, rotations: list[Rotation] = (), control: bool = True) -> list[tuple]:
    return list(iter_jobs(s, games, seed, rotations, control))


def run_batch(rules: Ruleset, *, mode: str, players: int, games: int, seed: int, agent: str, workers: int = 1,
              turn_cap: int = 200, invariants: bool = False, paths: list[Path] | None = None, decks=None,
              variant: int = 0, progress=None, pick: str | None = None, stats: bool = False,
              rotations: list[Rotation] = (), limits: RunLimits | None = None) -> tuple[list[GameResult], float]:
    s = Setup(mode, players, agent if isinstance(agent, str) else tuple(agent), turn_cap, invariants,
              tuple(decks or ()), variant, pick, stats, limits=limits)
    return run_jobs(rules, batch_jobs(s, games, seed, rotations), workers, paths, progress)
