"""`sgsdsl simulate`: options checked, the batch played, its figures printed, logs written, games replayed."""

from __future__ import annotations

import json
import re
import shlex
import sys
import time
from pathlib import Path

import attrs

from ..engine.ruleset import RulesError, Ruleset
from ..lang.files import quiet_stdout
from .batch import SEED_STRIDE, Rotation, Setup, count_jobs, iter_jobs, pool_heroes, rotation, setup_game, stream_jobs
from .pool import interrupts, signal_name

INTERRUPTED = 130  # the exit code after Ctrl-C or SIGTERM, as a shell's for Ctrl-C


@attrs.frozen
class SimOptions:
    paths: tuple[Path, ...] = ()
    mode: str = "identity"
    players: int | None = None  # None: 5, or the mode's only player count
    games: int = 100
    seed: int = 1
    agent: str = "heuristic"
    workers: int = 1
    turn_cap: int = 200
    as_json: bool = False
    log_file: str | None = None
    replay_file: str | None = None
    check_invariants: bool = False
    quiet: bool = False
    decks: tuple[str, ...] = ()
    pools: tuple[str, ...] = ()  # hero pools to deal from (`pool` declarations); none: the mode's own
    variant: int = 0
    variants: tuple[str, ...] = ()
    heroes: tuple[str, ...] = ()
    baseline: str | None = None
    pick: str = "uniform"
    html: str | None = None
    log_games: str | None = None
    log_where: str | None = None
    replay_seed: int | None = None
    control: bool = False
    ablate: bool = False  # also play each featured hero's games without each of its skills in turn
    turn_limit: int = 0
    options: tuple[str, ...] = ()  # ID=VALUE: the mode's options
    loop_limit: int | None = None  # runaway guards (engine/runaway.py); None: the defaults
    depth_limit: int | None = None
    backend: str = "processes"  # or "ray" (sim.BACKENDS)
    ray_address: str | None = None  # with backend ray: a cluster's address; None: a local Ray


class Usage(Exception):
    """A usage error: the message is printed, the exit code is 2."""


def command_line(o: SimOptions) -> str:
    """The command that reproduces a run (its options that differ from the defaults)."""
    words = ["sgsdsl", "simulate", *map(str, o.paths)]
    default = SimOptions()
    for flag, name in (("--mode", "mode"), ("--players", "players"), ("--games", "games"), ("--seed", "seed"),
                       ("--agent", "agent"), ("--pick", "pick"), ("--baseline", "baseline"),
                       ("--turn-cap", "turn_cap"), ("--turn-limit", "turn_limit"), ("--variant", "variant"),
                       ("--workers", "workers"), ("--backend", "backend")):
        v = getattr(o, name)
        if v != getattr(default, name) or name in ("games", "seed"):
            words += [flag, str(v)]
    for h in o.heroes:
        words += ["--hero", h]
    if o.ablate:
        words.append("--ablate")
    for d in o.decks:
        words += ["--deck", d]
    for p in o.pools:
        words += ["--pool", p]
    for v in o.variants:
        words += ["--with", v]
    for opt in o.options:
        words += ["--option", opt]
    return " ".join(w if re.fullmatch(r"[\w@%+=:,./-]+", w) else shlex.quote(w) for w in words)


def mode_options(mode, given) -> tuple[tuple[str, object], ...]:
    """`--option id=value` checked against the mode's options (sim/options.py)."""
    from .options import OptionError, from_command_line

    try:
        return from_command_line(mode, given)
    except OptionError as e:
        raise Usage(str(e)) from None


def _limits(o: SimOptions):
    from ..engine.runaway import RunLimits

    if o.loop_limit is None and o.depth_limit is None:
        return None
    d = RunLimits()
    return RunLimits(o.loop_limit or d.loop, o.depth_limit or d.depth)


def _mode_id(rules: Ruleset, mode: str) -> str | None:
    if mode in rules.modes:
        return mode
    return next((m.id for m in rules.modes.values() if m.named(mode)), None)


def _hero(rules: Ruleset, name: str, what: str) -> str:
    from ..lang.diagnostics import suggest

    hit = rules.lookup(name)
    if hit is None or hit[0] != "heroes":
        hint = suggest(name, [h.name for h in rules.heroes.values()])
        raise Usage(f"{what}: no hero named '{name}'" + (f"; {hint}" if hint else ""))
    return hit[1]


def _load(o: SimOptions):
    from ..lang.diagnostics import CompileError, SourceCache, render_all
    from ..lang.loader import load

    try:
        return load(list(o.paths) or None, variants=o.variants), 0
    except RulesError as e:
        print(f"error: {e}", file=sys.stderr)
        return None, 2
    except CompileError as e:
        from ..lang.compiler import build

        b = build(extra=list(o.paths))
        print(render_all(e.diagnostics, b.sources if b else SourceCache()), file=sys.stderr)
        return None, 1


def _deck_ids(rules: Ruleset, names) -> tuple[str, ...]:
    try:
        return rules.deck_ids(names)
    except KeyError as e:
        raise Usage(f"unknown deck {e.args[0]} (decks: {rules.deck_list()})") from None


def _check(o: SimOptions, rules: Ruleset) -> tuple[str, list[str], str | None, list[Rotation], tuple[str, ...]]:
    mid = _mode_id(rules, o.mode)
    if mid is None:
        raise Usage(f"unknown mode '{o.mode}' (modes: {', '.join(rules.modes)})")
    lo, hi = rules.modes[mid].players
    if not lo <= o.players <= hi:
        raise Usage(f"mode {mid} is for {lo}–{hi} players, not {o.players}")
    if o.games < 1 or o.workers < 1 or o.turn_cap < 1:
        raise Usage("--games, --workers and --turn-cap must be at least 1")
    rows = dict(rules.modes[mid].table).get(o.players, ((),))
    if not 0 <= o.variant < len(rows):
        raise Usage(f"{o.players} players have {len(rows)} identity variant(s) in {mid}; --variant is 0-based")
    if o.baseline and not o.heroes:
        raise Usage("--baseline is the control for a featured hero: give --hero too")
    if (o.log_games or o.log_where) and not o.log_file:
        raise Usage("--log-games and --log-where choose the games that --log FILE writes: give --log too")
    if o.ablate and not o.heroes:
        raise Usage("--ablate measures what each skill of a featured hero is worth: give --hero too")
    if o.control and o.replay_seed is None:
        raise Usage("--control replays a control game: give --replay-seed too")
    if o.ray_address and o.backend != "ray":
        raise Usage("--ray-address is where --backend ray sends its tasks: give --backend ray too")
    if o.backend == "ray":
        if o.workers != 1:
            raise Usage("--workers sets local processes; with --backend ray, Ray places the tasks: drop --workers")
        import importlib.util

        if importlib.util.find_spec("ray") is None:
            raise Usage("--backend ray needs Ray: pip install 'sgsdsl[ray]'")
    heroes = list(dict.fromkeys(_hero(rules, h, "--hero") for h in o.heroes))
    baseline = _hero(rules, o.baseline, "--baseline") if o.baseline else None
    if baseline is not None and baseline in heroes:
        raise Usage(f"--baseline {o.baseline} is also featured: compare it with another hero")
    if heroes:
        from .balance import require

        require()
    if o.html:
        from .htmlreport import require

        require()
    try:
        pool = pool_heroes(rules, mid, o.pools) if o.pools else ()
        rots = [rotation(rules, mid, o.players, o.variant, h, baseline, list(pool) or None) for h in heroes]
    except RulesError as e:
        raise Usage(str(e)) from None
    return mid, heroes, baseline, rots, pool


def simulate_command(o: SimOptions) -> int:
    with interrupts():  # SIGTERM as Ctrl-C from the start: before the batch, the command ends with exit 130 (cli.py)
        return _simulate(o)


def _simulate(o: SimOptions) -> int:
    from .balance import MissingExtra

    rules, code = _load(o)
    if rules is None:
        return code
    mid = _mode_id(rules, o.mode)
    if mid is not None and o.players is None:
        lo, hi = rules.modes[mid].players
        o = attrs.evolve(o, players=lo if lo == hi else (5 if lo <= 5 <= hi else lo))
    wanted = rules.modes[mid].variants if mid is not None else ()
    if any(v not in o.variants for v in wanted):  # the mode plays with its own versions of skills
        o = attrs.evolve(o, variants=tuple(dict.fromkeys(o.variants + wanted)))
        rules, code = _load(o)
        if rules is None:
            return code
    if o.replay_file:
        from ..lang.loader import load

        return replay(rules, Path(o.replay_file), lambda with_: load(list(o.paths) or None, variants=with_))
    try:
        o = attrs.evolve(o, decks=_deck_ids(rules, o.decks))
        mid, heroes, baseline, rots, pool = _check(o, rules)
        setup = Setup(mid, o.players, o.agent, o.turn_cap, o.check_invariants, o.decks, o.variant, o.pick, True,
                      o.turn_limit, mode_options(rules.modes[mid], o.options), _limits(o), pool)
        if o.replay_seed is not None:
            return replay_seed(rules, setup, o, rots)
        chosen = _log_selection(o, rules)
    except (Usage, MissingExtra) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    from .stats import Tally

    tally = Tally(rules, mid, heroes, {r.hero: len(r.pool) for r in rots})
    ablate = {r.hero: rules.heroes[r.hero].skills for r in rots} if o.ablate else None
    picked = []  # the games --log writes (kept: every other result is added up and let go)
    start = time.perf_counter()
    jobs = iter_jobs(setup, o.games, o.seed, rots, ablate=ablate)
    total = count_jobs(o.games, rots, ablate=ablate)
    played, stopped = 0, None
    stream = _run(rules, jobs, total, o)
    try:
        for r in stream:
            if r.error is not None:
                r.error += f"\n  replay: {command_line(o)} --replay-seed {r.seed}" + (" --control" if r.control
                                                                                     else "")
            tally.add(r)
            played += 1
            if o.log_file and not r.control and r.ablated is None and chosen(r):
                picked.append(r)
    except KeyboardInterrupt as e:  # Ctrl-C or SIGTERM: the workers are ended, the games played summarised
        stopped = signal_name(e)
    finally:
        stream.close()
    seconds = time.perf_counter() - start
    summary = tally.summary(seed=o.seed, players=o.players, agent=o.agent, seconds=seconds, pick=o.pick,
                            baseline=baseline, command=command_line(o),
                            options={"turn_cap": o.turn_cap, "variant": o.variant, "decks": list(o.decks),
                                     **({"pools": list(o.pools)} if o.pools else {}),
                                     "with": list(o.variants), "workers": o.workers, "backend": o.backend})
    if stopped is not None:
        summary["partial"] = {"signal": stopped, "played": played, "jobs": total,
                              "not_played": not_played(o, rots, played, ablate)}
    code = 2 if not _print_summary(summary, o) else 1 if summary["errors"] else 0
    if stopped is not None:
        print(partial_note(summary), file=sys.stderr)
    if o.html:
        from .htmlreport import write_html

        try:
            write_html(summary, Path(o.html))
        except OSError as e:
            print(f"error: cannot write {o.html}: {e}", file=sys.stderr)
            return 2
        print(f"wrote {o.html}", file=sys.stderr)
    if o.log_file:
        if not picked and stopped is not None:
            print(f"note: the batch was interrupted before a game --log writes was played: nothing written to "
                  f"{o.log_file}", file=sys.stderr)
            return INTERRUPTED
        if not picked:
            print(f"error: no game matches --log-where {o.log_where!r}: nothing written to {o.log_file}",
                  file=sys.stderr)
            return 2
        try:
            write_logs(rules, setup, picked, {r.hero: r for r in rots}, Path(o.log_file))
        except OSError as e:
            print(f"error: cannot write {o.log_file}: {e}", file=sys.stderr)
            return 2
        print(f"wrote the log of {len(picked)} game(s) to {o.log_file}", file=sys.stderr)
    return INTERRUPTED if stopped is not None else code


def _print_summary(summary: dict, o: SimOptions) -> bool:
    """The summary on standard output; False (and a one-line error) when it cannot be written, a full disk
    or a closed pipe: the other outputs (--html, --log) are written all the same."""
    try:
        if o.as_json:
            print(json.dumps(summary, ensure_ascii=False, indent=2))
        else:
            from .summary import print_summary

            print_summary(summary)
        sys.stdout.flush()
        return True
    except OSError as e:
        print(f"error: cannot write the summary to standard output: {e.strerror or e}", file=sys.stderr)
        quiet_stdout()
        return False


def not_played(o: SimOptions, rots: list[Rotation], played: int, ablate: dict | None = None) -> list[dict]:
    """The seeds a batch did not reach after `played` jobs, as ranges: the jobs run featured hero by featured
    hero (its games, their controls, then its games without each ablated skill), each group through games
    0 … games - 1 (batch.iter_jobs)."""
    groups = [(r.hero, ctl, skill) for r in rots
              for ctl, skill in [(False, None), (True, None)] + [(False, k) for k in (ablate or {}).get(r.hero, ())]]
    out = []
    for k, (hero, ctl, skill) in enumerate(groups or [(None, False, None)]):
        first = max(0, played - k * o.games)
        if first < o.games:
            out.append({"first_seed": SEED_STRIDE * o.seed + first, "last_seed": SEED_STRIDE * o.seed + o.games - 1,
                        "featured": hero, "control": ctl, "ablated": skill})
    return out


def partial_note(summary: dict) -> str:
    p = summary["partial"]
    ranges = ", ".join(f"{r['first_seed']}–{r['last_seed']}" + (
        f" ({r['featured']}{' control' if r['control'] else ''}{' without ' + r['ablated'] if r['ablated'] else ''})"
        if r["featured"] else "") for r in p["not_played"])
    return (f"interrupted ({p['signal']}): the figures are of the first {p['played']} of {p['jobs']} games, "
            f"in the batch's order" + (f"; seeds not played: {ranges}" if ranges else ""))


def _run(rules, jobs, total: int, o: SimOptions):
    """The results of the jobs, one at a time, in order, with a progress bar on a terminal."""
    progress = bar = None
    if not o.quiet and total >= 50 and sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import Progress

        bar = Progress(transient=True, console=Console(stderr=True))
        task = bar.add_task("simulating", total=total)
        bar.start()

        def progress():
            bar.advance(task)

    try:
        for r in stream_jobs(rules, jobs, o.workers, list(o.paths), o.backend, o.ray_address):
            if progress:
                progress()
            yield r
    finally:
        if bar is not None:
            bar.stop()


def _log_selection(o: SimOptions, rules):
    """Which games of the batch --log writes: a predicate on GameResult."""
    if o.log_where:
        from .logwhere import WhereError, matches, parse

        try:
            clauses = parse(o.log_where, rules)
        except WhereError as e:
            raise Usage(f"--log-where: {e}") from None
        return lambda r: matches(clauses, r)
    if o.log_games:
        try:
            wanted = {int(x) for x in o.log_games.split(",") if x.strip()}
        except ValueError:
            raise Usage(f"--log-games takes game numbers separated by commas, not {o.log_games!r}") from None
        bad = sorted(i for i in wanted if not 0 <= i < o.games)
        if bad or not wanted:
            raise Usage(f"--log-games: games are numbered 0–{o.games - 1}" + (f", not {bad[0]}" if bad else ""))
        return lambda r: r.index in wanted
    return lambda r: r.index == 0


# ---- logs and replays ------------------------------------------------------------------------


def _game_log(rules: Ruleset, setup: Setup, seed: int, plan, windows: bool = False, log=None):
    """Play one game with its log (a new GameLog, or the one given); returns (game, log, error or None)."""
    from ..engine.log import GameLog

    log = log if log is not None else GameLog(windows=windows)
    g = setup_game(rules, setup, seed, plan, log)
    try:
        g.run()
        return g, log, None
    except Exception as e:  # a broken game: its log up to the break is what the designer needs
        return g, log, e


def _header(rules: Ruleset, setup: Setup, seed: int, index: int, plan) -> dict:
    return {"kind": "header", "mode": setup.mode, "players": setup.players, "seed": seed, "game": index,
            "agent": setup.agent, "pick": setup.pick, "turn_cap": setup.turn_cap, "decks": list(setup.decks),
            "variant": setup.variant, "with": list(rules.variants), "packages": list(rules.packages),
            "plan": attrs.asdict(plan) if plan is not None else None, "turn_limit": setup.turn_limit,
            "options": dict(setup.options), **({"heroes": list(setup.heroes)} if setup.heroes else {})}


def _records(g, log) -> str:
    setup = {"kind": "seating", "seats": g.setup_seats or []}
    return json.dumps(setup, ensure_ascii=False, sort_keys=True) + "\n" + log.jsonl()


def write_logs(rules: Ruleset, setup: Setup, picked, rots: dict, path: Path) -> None:
    """Each chosen game played again with its log: a header, the setup, then its records."""
    out = []
    for r in picked:
        plan = rots[r.featured].plan(r.index, r.control) if r.featured else None
        g, log, _ = _game_log(rules, setup, r.seed, plan)
        out.append(json.dumps(_header(rules, setup, r.seed, r.index, plan), ensure_ascii=False, sort_keys=True)
                   + "\n" + _records(g, log))
    path.write_text("".join(out), encoding="utf-8")


def logged_games(rules: Ruleset, path: Path, reload) -> list:
    """Each game of a JSONL log with the rules that play it: (rules, header, records' text, seat plan).
    Raises BadLog for a file that is not such a log, or one these rules cannot play."""
    from .replay import BadLog, fits, read
    from .seating import SeatPlan

    games = read(path)
    plays = []
    for k, (header, lines) in enumerate(games):
        if tuple(header["with"]) != rules.variants:
            try:
                rules = reload(tuple(header["with"]))
            except RulesError as e:
                raise BadLog(f"the log was played with --with {' '.join(header['with'])}: {e}") from None
        try:
            fits(header, rules)
        except BadLog as e:
            which = f" (game {k + 1} of the {len(games)} in it)" if len(games) > 1 else ""
            raise BadLog(f"{path}{which}: {e}") from None
        plan = header["plan"]
        plan = SeatPlan(plan["seat"], plan["identity"], plan["hero"], tuple(plan["reserved"])) if plan else None
        plays.append((rules, header, lines, plan))
    return plays


def setup_of(header: dict) -> Setup:
    """The batch settings a logged game was played with."""
    return Setup(header["mode"], header["players"], header["agent"], header["turn_cap"], False,
                 tuple(header["decks"]), header["variant"], header["pick"], turn_limit=header["turn_limit"],
                 options=tuple(header["options"].items()), heroes=tuple(header.get("heroes", ())))


def replay(rules: Ruleset, path: Path, reload) -> int:
    """Play every game of a JSONL log again; say whether each is identical (exit 2 for a file that is not
    such a log, or one these rules cannot play: replay.py says what is wrong, header field by field). A game
    that breaks while it is replayed says so, and where, instead of differing. `reload(variants)` gives the
    same rules with other variant packages selected."""
    from ..engine.ruleset import rules_location
    from .replay import BadLog

    try:
        plays = logged_games(rules, path, reload)
    except BadLog as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    failed = 0
    for rules, header, lines, plan in plays:
        setup = setup_of(header)
        what = f"{path} (game {header['game']}, seed {header['seed']})"
        try:
            g, log, err = _game_log(rules, setup, header["seed"], plan)
        except Exception as e:  # noqa: BLE001 - the game could not even be set up: say so, never a traceback
            g, log, err = None, None, e
        if log is not None:
            print(log.text(), end="")
        ours = _records(g, log).splitlines() if g is not None else []
        theirs = "".join(lines).splitlines()
        same = g is not None and ours == theirs
        if err is not None:
            loc = rules_location(err.__traceback__)
            why = f"{err}" if isinstance(err, RulesError) else f"{err.__class__.__name__}: {err}"
            why += f" (at {loc})" if loc else ""
            if same:  # the logged game broke where it breaks now: its log is all there is
                print(f"identical to {what}; the game breaks there, as it did when it was logged: {why}",
                      file=sys.stderr)
            else:
                print(f"error: the game of {what} broke while it was replayed, after {len(ours)} of the log's "
                      f"{len(theirs)} records: {why}", file=sys.stderr)
                failed += 1
            continue
        failed += not same
        where = ""
        if not same:  # the line of the file (its header is line 1 of the game)
            n = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
            where = f": first at line {n + 2} of the log ({len(theirs)} records there, {len(ours)} now)"
        print(("identical to " if same else "DIFFERS from ") + what + where, file=sys.stderr)
    return 1 if failed else 0


def replay_seed(rules: Ruleset, setup: Setup, o: SimOptions, rots: list[Rotation]) -> int:
    """Play the game of one seed with its log on the screen: to see where a broken game breaks."""
    from ..engine.ruleset import rules_location

    if len(rots) > 1:
        raise Usage("--replay-seed replays one game: give at most one --hero")
    index = o.replay_seed % SEED_STRIDE
    plan = rots[0].plan(index, o.control) if rots else None
    g, log, err = _game_log(rules, setup, o.replay_seed, plan, windows=True)
    print(log.text(), end="")
    if o.log_file:
        Path(o.log_file).write_text(json.dumps(_header(rules, setup, o.replay_seed, index, plan), ensure_ascii=False,
                                               sort_keys=True) + "\n" + _records(g, log), encoding="utf-8")
    if o.replay_seed // SEED_STRIDE != o.seed:
        print(f"note: seed {o.replay_seed} is game {index} of a batch with --seed {o.replay_seed // SEED_STRIDE}",
              file=sys.stderr)
    if err is None:
        print(f"game of seed {o.replay_seed} ended: {g.end_reason}", file=sys.stderr)
        return 0
    loc = rules_location(err.__traceback__)
    print(f"seed {o.replay_seed}: {err.__class__.__name__}: {err}" + (f"\n  at {loc}" if loc else "")
          + (f"\n  stack: {' > '.join(g.crash_stack)}" if g.crash_stack else ""), file=sys.stderr)
    return 1


def replay_page(paths: tuple, log_path: Path, out: Path, seat: int | None, game: int | None) -> int:
    """`sgsdsl replay LOG --html FILE`: one logged game played again, and the table at each of its lines
    written as a page (htmlreplay.py). A log these rules play differently is refused: the page would show
    another game."""
    from ..lang.loader import load
    from .htmlreplay import TableLog, page_data, render
    from .replay import BadLog

    rules, code = _load(SimOptions(paths=paths))
    if rules is None:
        return code
    try:
        plays = logged_games(rules, log_path, lambda with_: load(list(paths) or None, variants=with_))
    except BadLog as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if game is None and len(plays) > 1:
        print(f"error: {log_path} holds {len(plays)} games (game numbers "
              f"{', '.join(str(h['game']) for _, h, _, _ in plays)}); choose one with --game", file=sys.stderr)
        return 2
    chosen = [p for p in plays if game is None or p[1]["game"] == game]
    if not chosen:
        print(f"error: {log_path} has no game {game} (games: {', '.join(str(h['game']) for _, h, _, _ in plays)})",
              file=sys.stderr)
        return 2
    rules, header, lines, plan = chosen[0]
    if seat is not None and not 0 <= seat < header["players"]:
        print(f"error: --seat {seat + 1}: the game has seats 1–{header['players']}", file=sys.stderr)
        return 2
    log = TableLog()
    try:
        g, log, err = _game_log(rules, setup_of(header), header["seed"], plan, log=log)
    except Exception as e:  # noqa: BLE001 - the game could not even be set up: say so, never a traceback
        print(f"error: the game of {log_path} cannot be set up again: {e.__class__.__name__}: {e}", file=sys.stderr)
        return 1
    if _records(g, log).splitlines() != "".join(lines).splitlines():
        print(f"error: these rules play the game of {log_path} (seed {header['seed']}) differently from its log; "
              "`sgsdsl simulate --replay` says where", file=sys.stderr)
        return 1
    from ..lang.compiler import project_root

    page, why = render(page_data(rules, project_root(), header, log, g, seat))
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as e:
        print(f"error: cannot write {out}: {e.strerror or e}", file=sys.stderr)
        return 2
    note = "" if why is None else f"; no font embedded: {why}, so Chinese text needs a CJK font where it is viewed"
    print(f"wrote {out}: {len(log.steps)} steps of game {header['game']} (seed {header['seed']})"
          + (f", broke: {err}" if err is not None else "") + note, file=sys.stderr)
    return 0
