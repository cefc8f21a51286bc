"""The `sgsdsl` command.

Exit codes: 0 ok; 1 errors in the rules, findings, failed tests or games that
broke; 2 usage or I/O errors (bad options, missing files).
"""

from __future__ import annotations

import contextlib
import errno
import gc
import json
import os
import sys
from pathlib import Path

import click

from .engine.runaway import DEPTH_LIMIT, DEPTH_RANGE, LOOP_LIMIT, LOOP_RANGE
from .lang import compiler
from .lang.diagnostics import render_all
from .lang.files import quiet_stdout

EXIT_HELP = "Exit codes: 0 ok; 1 errors, findings or failures; 2 usage or I/O errors."


def _paths(paths) -> list[Path]:
    try:
        return compiler.rules_paths(paths)
    except FileNotFoundError as e:
        raise click.UsageError(str(e)) from None


def _codes(option: str, text: str) -> list[str]:
    """Finding codes of --select/--ignore; a code that names no finding is a usage error, not an empty filter."""
    from .conflicts import catalogue
    from .lang.diagnostics import CODES, suggest

    codes = [c.strip() for c in text.split(",") if c.strip()]
    known = list(CODES) + list(catalogue())
    for c in codes:
        if not any(k.startswith(c) for k in known):
            hint = suggest(c, known)
            raise click.UsageError(f"{option} {c}: no finding code starts with '{c}'" + (f"; {hint}" if hint else "")
                                   + " (docs/checks.md lists them)")
    return codes


def _rules(paths: list[Path], fresh: bool = True):
    """Rules for a command: compiled in memory from rules/ (and PATHS), or generated/ when `fresh` is off."""
    from .engine.ruleset import Ruleset
    from .lang.loader import shipped

    if not paths and not fresh:
        return shipped()
    b = compiler.build(extra=paths or None)
    if b.errors:
        click.echo(render_all(b.errors, b.sources), err=True)
        sys.exit(1)
    return Ruleset([m.TABLES for m in compiler.modules_in_memory(b)])


class _Entry(click.Group):
    """The group as a process's own command line (the `sgsdsl` script, `python -m sgsdsl`): a test's
    CliRunner calls `.main()` instead, so what __call__ does never touches a test process.

    Every command ends in an exit code and at most a line of error, whatever the machine does: Ctrl-C is
    exit 130; an OSError no command caught (a full disk under standard output, which is buffered and so
    fails as late as the process's end) is one line and exit 2."""

    def invoke(self, ctx):
        try:
            try:
                return super().invoke(ctx)
            finally:
                if not sys.stdout.closed:  # (the language server closes it when it is told to exit)
                    sys.stdout.flush()  # here, not at the process's end, where the error would be a traceback
        except KeyboardInterrupt:
            quiet_stdout()
            click.echo("interrupted", err=True)
            ctx.exit(130)
        except OSError as e:
            quiet_stdout()
            if e.errno == errno.EPIPE:  # the reader went away (`| head`): nothing to tell it
                ctx.exit(1)
            what = f"cannot write the output: {e.strerror or e}" if e.filename is None else \
                f"{e.filename}: {e.strerror or e}"
            click.echo(f"error: {what}", err=True)
            ctx.exit(2)

    def __call__(self, *args, **kwargs):
        global _IN_PROCESS_ENTRY
        _IN_PROCESS_ENTRY = True
        try:
            return self.main(*args, **kwargs)
        finally:
            # The process ends here: the collector's last pass over every object still alive (the syntax
            # trees, the checks' facts …) frees nothing that the end of the process does not, and takes
            # about as long as `check` spends on a designer's file. Frozen objects are not visited.
            gc.freeze()


_IN_PROCESS_ENTRY = False


@contextlib.contextmanager
def _no_collector():
    """A command that builds a large object graph once and drops it at the end (`check`): the cyclic
    collector would walk the graph again and again as it grows (a tenth of a second) and free almost
    nothing. Switched back on afterwards, unless the process ends right after (_Entry)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was and not _IN_PROCESS_ENTRY:
            gc.enable()


@click.group(cls=_Entry, epilog=EXIT_HELP)
@click.version_option(package_name="sgsdsl")
def main() -> None:
    """sgsdsl: write 三国杀 heroes, cards and modes as text, check them, and simulate them."""


@main.command(epilog=EXIT_HELP)
@click.option("--check", "check_only", is_flag=True, help="Fail if generated/ is stale instead of writing it.")
def compile(check_only: bool) -> None:
    """Compile rules/ into generated/ (one Python module per rules package)."""
    b = compiler.build()
    if b.errors:
        click.echo(render_all(b.errors, b.sources), err=True)
        sys.exit(1)
    gen = b.root / "generated"
    if not check_only and not (b.root / "rules").is_dir():
        raise click.UsageError("no rules/ folder here")
    try:
        changed, stale = compiler.write_generated(b, check_only=check_only)
    except OSError as e:
        click.echo(f"error: cannot write {gen}: {e}", err=True)
        sys.exit(2)
    if check_only:
        if stale:
            click.echo(f"generated/ is stale: {', '.join(stale)} (run `sgsdsl compile`)", err=True)
            sys.exit(1)
        click.echo(f"generated/ is fresh ({len(compiler.order(b.model))} packages)")
    else:
        click.echo(f"compiled {len(compiler.order(b.model))} packages; wrote {len(changed)} file(s)"
                   + (f": {', '.join(changed)}" if changed else ""))


@main.command(epilog=EXIT_HELP)
@click.argument("paths", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--select", default="", metavar="CODES", help="Only these finding codes (comma-separated, prefixes allowed).")
@click.option("--ignore", default="", metavar="CODES", help="Skip these finding codes (comma-separated, prefixes allowed).")
@click.option("--scenario", "scenario_dir", type=click.Path(file_okay=False),
              help="Write one .sgs file of `test` blocks per finding that has a scenario, runnable with `sgsdsl test`.")
def check(paths, fmt: str, select: str, ignore: str, scenario_dir: str | None) -> None:
    """Report errors and rule conflicts in the shipped rules, or in PATHS checked together with them.

    docs/checks.md describes every finding (SGS3nn)."""
    with _no_collector():
        _check(paths, fmt, select, ignore, scenario_dir)


def _check(paths, fmt: str, select: str, ignore: str, scenario_dir: str | None) -> None:
    from .conflicts.runner import diagnose

    files = _paths(paths)
    b, diags = diagnose(files, _codes("--select", select), _codes("--ignore", ignore))
    live = [d for d in diags if d.acknowledged is None and d.severity != "note"]  # notes never fail
    if scenario_dir is not None and not b.errors:
        from .conflicts.drafts import write

        try:
            written = write(b, diags, Path(scenario_dir), files)
        except OSError as e:
            click.echo(f"error: cannot write scenarios to {scenario_dir}: {e}", err=True)
            sys.exit(2)
        click.echo(f"wrote {len(written)} scenario file(s) to {scenario_dir}", err=True)
    if fmt == "json":
        click.echo(json.dumps({"diagnostics": [d.to_json() for d in diags],
                               "errors": sum(d.severity == "error" for d in live),
                               "warnings": sum(d.severity == "warning" for d in live),
                               "notes": sum(d.severity == "note" and d.acknowledged is None for d in diags),
                               "acknowledged": sum(d.acknowledged is not None for d in diags)},
                              ensure_ascii=False, indent=2))
    elif diags:
        click.echo(render_all(diags, b.sources), err=True)
    notes = sum(d.severity == "note" and d.acknowledged is None for d in diags)
    acknowledged = sum(d.acknowledged is not None for d in diags)
    extra = ", ".join(x for x in (f"{notes} note(s)" if notes else "",
                                  f"{acknowledged} acknowledged" if acknowledged else "") if x)
    if live:
        if fmt == "text":
            click.echo(f"{len(live)} problem(s)" + (f", {extra}" if extra else ""), err=True)
        sys.exit(1)
    if fmt == "text":
        click.echo("no problems" + (f" ({extra})" if extra else ""))


@main.command(epilog=EXIT_HELP)
@click.argument("paths", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--mode", help="Only this mode (id, Chinese name or alias): its decks, hero pool by kingdom, the hero "
              "pools and decks a run may choose, and its options.")
def info(paths, as_json: bool, mode: str | None) -> None:
    """What the ruleset holds: packages, heroes, skills, cards, decks, windows, flows, modes."""
    from .tools.explain import info_data, info_text, mode_info_data, mode_info_text

    rules = _rules(_paths(paths))
    from .engine.ruleset import Ruleset

    if mode is not None:
        m = rules.find_mode(mode)
        if m is None:
            raise click.BadParameter(f"no mode {mode} (modes: {', '.join(rules.modes)})", param_hint="--mode")
        data = mode_info_data(rules, m)
        click.echo(json.dumps(data, ensure_ascii=False, indent=2) if as_json else mode_info_text(data))
        return

    # every package, variants included: each lists its own heroes and skills
    data = info_data(Ruleset(rules.all_tables, tuple(t.package for t in rules.all_tables if t.variant)))
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo(info_text(data))


@main.command(epilog=EXIT_HELP)
@click.argument("name")
@click.argument("paths", nargs=-1)
@click.option("--source", is_flag=True, help="Also print the generated Python of each row.")
def explain(name: str, paths, source: bool) -> None:
    """Show the compiled trigger-table rows of a skill, card or window, with their rules file:line."""
    from .tools.explain import explain_everywhere

    rules = _rules(_paths(paths))
    text = explain_everywhere(rules, name, source)
    if text is None:
        from .lang.diagnostics import suggest

        hint = suggest(name, rules.names)
        click.echo(f"error: no skill, card, window, hero, mode or flow named '{name}'" + (f"; {hint}" if hint else ""),
                   err=True)
        sys.exit(2)
    click.echo(text)


@main.command(epilog=EXIT_HELP)
@click.argument("paths", nargs=-1)
@click.option("--mode", default="identity", show_default=True, help="Mode id or Chinese name.")
@click.option("--players", type=int, help="Players at the table (default: 5, or the mode's only count).")
@click.option("--games", type=int, default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--agent", type=click.Choice(["heuristic", "random", "first"]), default="heuristic", show_default=True)
@click.option("--workers", type=int, default=1, show_default=True, help="Processes; results equal one worker's.")
@click.option("--backend", type=click.Choice(["processes", "ray"]), default="processes", show_default=True,
              help="Where games run: local processes (--workers), or Ray tasks (pip install 'sgsdsl[ray]'); "
                   "the results are the same.")
@click.option("--ray-address", metavar="ADDRESS", help="With --backend ray: the cluster to join (default: a local Ray).")
@click.option("--turn-cap", type=int, default=200, show_default=True, help="Turns after which a game is a draw.")
@click.option("--turn-limit", type=int, default=0, show_default=True,
              help="A mode's time limit in turns; its rules say how it ends (1v1: 主公 turns, then the tiebreak).")
@click.option("--option", "options", multiple=True, metavar="ID=VALUE",
              help="Set one of the mode's options (e.g. --option hero_cards=5). Repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False),
              help="Write game logs as JSONL (game 0 unless --log-games or --log-where choose others).")
@click.option("--replay", "replay_file", type=click.Path(dir_okay=False),
              help="Replay a JSONL log: play its games again and say whether each is identical.")
@click.option("--check-invariants", is_flag=True, help="Verify the state invariants after every event.")
@click.option("--deck", "decks", multiple=True, help="Add a deck to the mode's (e.g. --deck ex for the EX cards).")
@click.option("--with", "variants", multiple=True, metavar="PACKAGE",
              help="Select a variant package (e.g. --with first_edition for seed 000's first-edition skills).")
@click.option("--pool", "pools", multiple=True, metavar="POOL",
              help="Deal heroes from this hero pool (an official expansion set, e.g. --pool 国战标准版 --pool "
                   "君临天下阵; `sgsdsl info --mode` lists them) instead of the mode's. Repeatable.")
@click.option("--variant", type=int, default=0, show_default=True,
              help="Which variant of the mode's identity table row (0 = the first).")
@click.option("--loop-limit", type=click.IntRange(*LOOP_RANGE), default=LOOP_LIMIT, show_default=True,
              help="Rounds of `while` and `repeat` in one turn after which the rules are stopped as a runaway loop.")
@click.option("--depth-limit", type=click.IntRange(*DEPTH_RANGE), default=DEPTH_LIMIT, show_default=True,
              help="Frames on the event stack (skills, flows re-entering) after which the rules are stopped as a "
                   "runaway loop.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--hero", "heroes", multiple=True,
              help="Feature a hero: seat it in every game (seats and identities in turn) and compare it with a "
                   "control run on the same seeds. Repeatable.")
@click.option("--baseline", help="The control's hero in the featured seat (default: every pool hero in turn).")
@click.option("--pick", type=click.Choice(["uniform", "strongest"]), default="uniform", show_default=True,
              help="How bots pick their hero from those offered.")
@click.option("--html", type=click.Path(dir_okay=False), help="Also write the report as one HTML page.")
@click.option("--log-games", help="With --log: the games to write, by number (e.g. 3,17).")
@click.option("--log-where", help="With --log: the games to write, by a filter (e.g. 'hero == 严颜').")
@click.option("--replay-seed", type=int, help="Play the game of this seed (from a broken game's report) and show "
              "its log.")
@click.option("--control", is_flag=True, help="With --replay-seed and --hero: the control game of that seed.")
@click.option("--ablate", is_flag=True, help="With --hero: also play its games without each of its skills in turn, "
              "and say what each skill is worth.")
def simulate(paths, mode, players, games, seed, agent, workers, backend, ray_address, turn_cap, turn_limit, options, as_json, log_file,
             replay_file, check_invariants, decks, variants, pools, variant, loop_limit, depth_limit, quiet, heroes, baseline,
             pick, html, log_games, log_where, replay_seed, control, ablate) -> None:
    """Play GAMES bot games and print win rates per identity (per side in 国战) and per hero, and what each skill did.

    PATHS are a designer's rules files, added to the shipped rules. With --hero, the hero plays
    in every game and its win rate per identity is compared with a control run.
    """
    from .sim.command import SimOptions, simulate_command

    sys.exit(simulate_command(SimOptions(
        paths=tuple(_paths(paths)), mode=mode, players=players, games=games, seed=seed, agent=agent, workers=workers,
        turn_cap=turn_cap, as_json=as_json, log_file=log_file, replay_file=replay_file,
        check_invariants=check_invariants, quiet=quiet, decks=tuple(decks), variant=variant, variants=tuple(variants),
        pools=tuple(pools),
        heroes=tuple(heroes), baseline=baseline, pick=pick, html=html, log_games=log_games, log_where=log_where,
        replay_seed=replay_seed, control=control, ablate=ablate, turn_limit=turn_limit, options=tuple(options),
        loop_limit=loop_limit, depth_limit=depth_limit, backend=backend, ray_address=ray_address)))


@main.command(epilog=EXIT_HELP)
@click.argument("results", type=click.Path(dir_okay=False))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="The HTML file to write.")
def report(results: str, output: str) -> None:
    """Write the HTML report of a `simulate --json` result file."""
    from .sim.htmlreport import report_command

    sys.exit(report_command(Path(results), Path(output)))


@main.command("test", epilog=EXIT_HELP)
@click.argument("paths", nargs=-1)
@click.option("-k", "keyword", default="", help="Only tests whose title, skill or hero (Chinese name or ascii id) "
              "contains this text.")
@click.option("--trace", is_flag=True, help="Print every test's log, windows included.")
@click.option("--shipped/--no-shipped", default=None, help="Also run the shipped rules' tests (default: only "
              "when no PATHS are given).")
def test_cmd(paths, keyword: str, trace: bool, shipped) -> None:
    """Run the scenario tests written in rules files (`test "…" { … }`)."""
    from .scenarios.runner import run_test, scenario_jobs, test_names

    files = _paths(paths)
    b = compiler.build(extra=files or None)
    if b.errors:
        click.echo(render_all(b.errors, b.sources), err=True)
        sys.exit(1)
    jobs = [(r, t) for r, t in scenario_jobs([m.TABLES for m in compiler.modules_in_memory(b)])
            if any(keyword in n for n in test_names(r, t))]
    if files and not shipped:
        jobs = [(r, t) for r, t in jobs if not t.loc.startswith("rules/")]
    if not jobs:
        where = f"in {', '.join(map(str, paths))}" if files and not shipped else "in the rules"
        click.echo(f"error: no test {where}" + (f" matches -k '{keyword}'" if keyword else ""), err=True)
        sys.exit(2)
    tests = [t for _, t in jobs]
    failed = 0
    for rules, t in jobs:
        r = run_test(rules, t, windows=trace)
        mark = "ok  " if r.ok else "FAIL"
        click.echo(f"{mark} {r.name}")
        if trace:
            click.echo(r.log.text())
        for f in r.failures:
            click.echo(f"     {f}")
        if not r.ok and not trace:
            click.echo("     log:\n" + "".join(f"       {line}\n" for line in r.log.lines[-25:]))
            if r.log.requests:
                click.echo("     requests and answers:\n" + "".join(f"       {line}\n" for line in r.log.requests[-15:]))
        failed += not r.ok
    click.echo(f"{len(tests) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


@main.command(epilog=EXIT_HELP)
@click.argument("paths", nargs=-1)
@click.option("--mode", default="identity", show_default=True, help="Mode id, Chinese name or alias (1v1).")
@click.option("--players", type=int, help="Players at the table (default: 5, or the mode's only count).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--seat", type=int, default=1, show_default=True, help="Your seat (1 = first).")
@click.option("--turn-limit", type=int, default=0, show_default=True,
              help="A mode's time limit in turns; its rules say how it ends (1v1: 主公 turns, then the tiebreak).")
@click.option("--option", "options", multiple=True, metavar="ID=VALUE",
              help="Set one of the mode's options (e.g. --option aozhan_mode=true). Repeatable.")
@click.option("--deck", "decks", multiple=True, help="Add a deck to the mode's (e.g. --deck ex for the EX cards).")
@click.option("--with", "variants", multiple=True, metavar="PACKAGE",
              help="Select a variant package (e.g. --with first_edition for seed 000's first-edition skills).")
@click.option("--match", type=click.IntRange(1, 99), default=1, show_default=True, metavar="N",
              help="Play a match of N games (1v1: 比点 decides the choice of identity in odd games, the other "
                   "seat has it in even ones) and report its result.")
@click.option("--timer", is_flag=True, help="Seed 003's time per action: 15 s in the play phase, 5 s elsewhere; a "
              "timeout passes.")
@click.option("--time-limit", type=click.FloatRange(0, 600), default=0, show_default=True, metavar="MINUTES",
              help="A game's time on the clock (1v1: 30); when it is up the mode's time rule ends the game.")
def play(paths, mode, players, seed, seat, turn_limit, options, decks, variants, match, timer, time_limit) -> None:
    """Play one game at the terminal against heuristic bots (what `simulate` can set, a person can play)."""
    from .bots.human import play_human
    from .engine.ruleset import RulesError, Ruleset
    from .sim.options import OptionError, from_command_line

    rules = _rules(_paths(paths))
    if variants:
        try:
            rules = Ruleset(rules.all_tables, tuple(variants))
        except RulesError as e:
            raise click.BadParameter(str(e), param_hint="--with") from None
    m = rules.find_mode(mode)
    if m is None:
        raise click.BadParameter(f"no mode {mode} (modes: {', '.join(rules.modes)})", param_hint="--mode")
    try:
        decks = rules.deck_ids(decks)
    except KeyError as e:
        raise click.BadParameter(f"unknown deck {e.args[0]} (decks: {rules.deck_list()})", param_hint="--deck") from None
    if turn_limit < 0:
        raise click.BadParameter("a number of turns, 0 for none", param_hint="--turn-limit")
    try:
        opts = dict(from_command_line(m, options))
    except OptionError as e:
        raise click.UsageError(str(e)) from None
    if match > 1 and any(o.startswith("identity_chooser") or o.startswith("身份选择权") for o in options):
        raise click.UsageError("--match sets who chooses the identity in each game: give no --option identity_chooser")
    sys.exit(play_human(rules, mode, players, seed, seat - 1, decks=tuple(decks), options=opts,
                        turn_limit=turn_limit, match=match, timer=(15.0, 5.0) if timer else None,
                        minutes=time_limit))


@main.command(epilog=EXIT_HELP)
@click.argument("log", type=click.Path(dir_okay=False))
@click.argument("paths", nargs=-1)
@click.option("--html", required=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="The page to write: the table at every step, the log beside it, ← / → to step.")
@click.option("--seat", default="all", show_default=True, metavar="N|all",
              help="Show the table as this seat may see it (1 = first), or everything.")
@click.option("--game", type=int, help="Which game of a log holding several (its game number).")
def replay(log, paths, html, seat, game) -> None:
    """Write a game of a `simulate --log` file as one HTML page to step through (PATHS: a designer's rules
    files the game was played with)."""
    from .sim.command import replay_page

    if seat == "all":
        n = None
    elif seat.isdigit() and int(seat) >= 1:
        n = int(seat) - 1
    else:
        raise click.BadParameter(f"'{seat}' is neither a seat number (1, 2 …) nor all", param_hint="--seat")
    sys.exit(replay_page(tuple(_paths(paths)), Path(log), Path(html), n, game))


@main.command(epilog=EXIT_HELP)
@click.option("--check", "check_only", is_flag=True, help="Fail if a generated file is stale instead of writing it.")
def docs(check_only: bool) -> None:
    """Regenerate docs/language.md's reference tables, README's Commands table and the TextMate grammar."""
    from .tools.docs import in_checkout, update_docs

    root = compiler.project_root()
    if not in_checkout(root):
        click.echo(f"error: no source checkout at {root}: `sgsdsl docs` regenerates docs/language.md and "
                   "README.md of a clone of the repository, and an installed package has none", err=True)
        sys.exit(2)
    status = update_docs(root, main, check_only)
    for rel, st in status.items():
        shown = "fresh" if check_only and st == "unchanged" else st
        click.echo(f"{rel}: {shown}" + (" (run `sgsdsl docs`)" if st == "stale" else ""), err=st == "stale")
    if "stale" in status.values():
        sys.exit(1)


@main.command(epilog=EXIT_HELP)
@click.argument("paths", nargs=-1, required=True)
@click.option("--check", "check_only", is_flag=True, help="Write nothing; fail if a file is not formatted.")
@click.option("--diff", is_flag=True, help="Write nothing; print what would change as a unified diff.")
def fmt(paths, check_only: bool, diff: bool) -> None:
    """Format rules files in place (PATHS are files or folders of .sgs files); lines never move."""
    import difflib

    from .lang.diagnostics import SourceCache
    from .tools.fmt import format_path

    files = sorted({f for p in _paths(paths) for f in (p.glob("**/*.sgs") if p.is_dir() else [p])})
    sources = SourceCache()
    results = [format_path(f, sources) for f in files]
    broken = [r for r in results if r.diagnostics]
    changed = [r for r in results if r.changed]
    for r in broken:
        click.echo(render_all(r.diagnostics, sources), err=True)
    for r in changed:
        if diff:
            click.echo("".join(difflib.unified_diff(r.old.splitlines(True), r.new.splitlines(True),
                                                    f"{r.path}", f"{r.path} (formatted)")), nl=False)
        elif check_only:
            click.echo(f"would reformat {r.path}", err=True)
        else:
            try:
                r.path.write_text(r.new, encoding="utf-8")
            except OSError as e:
                click.echo(f"error: cannot write {r.path}: {e}", err=True)
                sys.exit(2)
            click.echo(f"reformatted {r.path}")
    verb = "would reformat" if check_only or diff else "reformatted"
    click.echo(f"{verb} {len(changed)} file(s), {len(results) - len(changed) - len(broken)} already formatted"
               + (f", {len(broken)} with errors" if broken else ""), err=bool(broken or (changed and check_only)))
    if broken or (changed and (check_only or diff)):
        sys.exit(1)


@main.command(epilog=EXIT_HELP)
def lsp() -> None:
    """Run the language server on stdin/stdout (an editor starts it: editors/vscode/)."""
    try:
        from .tools.lsp import serve
    except ImportError as e:
        if (e.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        click.echo("error: the language server needs pygls: pip install 'sgsdsl[lsp]'", err=True)
        sys.exit(2)
    serve()


@main.command(epilog=EXIT_HELP)
@click.option("--build", is_flag=True, help="Compile the engine and the bots with Cython (the fast extra).")
@click.option("--clean", is_flag=True, help="Remove the compiled modules: everything runs from source again.")
@click.option("--jobs", type=click.IntRange(1, 64), default=2, show_default=True, help="Modules compiled at once.")
def native(build: bool, clean: bool, jobs: int) -> None:
    """Show, build or remove the native core (compiled modules beside their sources; same games, faster)."""
    from . import native as nat

    if build and clean:
        raise click.UsageError("--build and --clean exclude each other")
    if clean:
        n = nat.clean()
        if not n:
            click.echo("error: no compiled module to remove: the core already runs from source", err=True)
            sys.exit(2)
        click.echo(f"removed {n} compiled module(s): the core runs from source")
        return
    if build:
        try:
            nat.build(jobs, log=lambda s: click.echo(s, err=True))
        except ImportError as e:
            click.echo(f"error: the native build needs Cython and setuptools ({e.name} is missing): "
                       "pip install -e '.[fast]'", err=True)
            sys.exit(2)
        except Exception as e:  # the C compiler's own message is above; a half-built core is not left behind
            nat.clean()
            click.echo(f"error: the native build failed ({type(e).__name__}: {e}); the core runs from source",
                       err=True)
            sys.exit(1)
    st = nat.status()
    counts = {k: sum(v == k for v in st.values()) for k in ("native", "stale", "source")}
    for mod, s in st.items():
        click.echo(f"{s:>6}  sgsdsl.{mod}")
    pure = " (SGSDSL_PURE is set: this process runs them all from source)" if os.environ.get(nat.PURE_ENV) else ""
    click.echo(f"{counts['native']} native, {counts['stale']} stale (run from source), {counts['source']} "
               f"source{pure}", err=True)


@main.group(epilog=EXIT_HELP)
def new() -> None:
    """Start a new rules file from a commented skeleton."""


@new.command("hero", epilog=EXIT_HELP)
@click.argument("name")
@click.argument("ident", metavar="[ID]", required=False)
@click.option("--kingdom", default="魏", show_default=True, help="The hero's kingdom (势力).")
@click.option("--hp", type=int, default=4, show_default=True, metavar="N", help="Hit points (体力上限).")
@click.option("--gender", default="男", show_default=True, help="男 or 女.")
@click.option("-o", "--out", type=click.Path(dir_okay=False), metavar="FILE", help="Where to write (default: ID.sgs).")
def new_hero(name: str, ident: str | None, kingdom: str, hp: int, gender: str, out: str | None) -> None:
    """Write a hero with one skill and its tests (NAME is the Chinese name, ID the ascii id); it checks clean."""
    from .tools.lexicon import WORD
    from .tools.scaffold import ASCII_ID, hero_skeleton, problem

    if not WORD.match(name):
        raise click.UsageError(f"'{name}' cannot be a hero's name: a name is letters (汉字 too), digits and '_'")
    ident = ident or (name if ASCII_ID.match(name) else None)
    if ident is None:
        raise click.UsageError(f"give the hero an ascii id too (lower-case pinyin): `sgsdsl new hero {name} ID`")
    if not ASCII_ID.match(ident):
        raise click.UsageError(f"the ascii id '{ident}' must be lower-case letters, digits and '_'")
    path = Path(out or f"{ident}.sgs")
    wrong = problem(name, ident, kingdom, hp, gender, str(path))
    if wrong:
        raise click.UsageError(wrong)
    if path.exists():
        raise click.UsageError(f"{path} exists; `sgsdsl new` never overwrites a file (use -o)")
    try:
        path.write_text(hero_skeleton(name, ident, kingdom, hp, gender, file=str(path)), encoding="utf-8")
    except OSError as e:
        click.echo(f"error: cannot write {path}: {e}", err=True)
        sys.exit(2)
    click.echo(f"wrote {path}: hero {name} {ident} with one skill and two tests; next: sgsdsl check {path}")


if __name__ == "__main__":
    main()
