"""The `sgsdsl` command.

Exit codes: 0 ok; 1 errors in the rules, findings, failed tests or games that
broke; 2 usage or I/O errors (bad options, missing files).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from . import compiler
from .diagnostics import render_all
from .engine.runaway import DEPTH_LIMIT, DEPTH_RANGE, LOOP_LIMIT, LOOP_RANGE

EXIT_HELP = "Exit codes: 0 ok; 1 errors, findings or failures; 2 usage or I/O errors."


def _paths(paths) -> list[Path]:
    out = []
    for p in paths:
        path = Path(p)
        if not path.exists():
            raise click.UsageError(f"no such file or directory: {p}")
        out.append(path)
    return out



def _rules(paths: list[Path], fresh: bool = True):
    """Rules for a command: compiled in memory from rules/ (and PATHS), or generated/ when `fresh` is off."""
    from .engine.ruleset import Ruleset
    from .loader import shipped

    if not paths and not fresh:
        return shipped()
    b = compiler.build(extra=paths or None)
    if b.errors:
        click.echo(render_all(b.errors, b.sources), err=True)
        sys.exit(1)
    return Ruleset([m.TABLES for m in compiler.modules_in_memory(b)])


@click.group(epilog=EXIT_HELP)
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
@click.option("--select", default="", help="Only these finding codes (comma-separated, prefixes allowed).")
@click.option("--ignore", default="", help="Skip these finding codes (comma-separated, prefixes allowed).")
@click.option("--scenario", "scenario_dir", type=click.Path(file_okay=False),
              help="Write one .sgs file of `test` blocks per finding that has a scenario, runnable with `sgsdsl test`.")
def check(paths, fmt: str, select: str, ignore: str, scenario_dir: str | None) -> None:
    """Report errors and rule conflicts in the shipped rules, or in PATHS checked together with them.

    docs/checks.md describes every finding (SGS3nn)."""
    from .check import run_checks
    from .check.fields import explain

    files = _paths(paths)
    b = compiler.build(extra=files or None)
    diags = explain(b, list(b.diagnostics))
    if not b.errors:
        diags.extend(run_checks(b, only_designer=bool(files)))
    sel = [c.strip() for c in select.split(",") if c.strip()]
    ign = [c.strip() for c in ignore.split(",") if c.strip()]
    diags = [d for d in diags if (not sel or any(d.code.startswith(c) for c in sel))
             and not any(d.code.startswith(c) for c in ign)]
    live = [d for d in diags if d.acknowledged is None]
    if scenario_dir is not None and not b.errors:
        from .check.scenario import write

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
                               "acknowledged": sum(d.acknowledged is not None for d in diags)},
                              ensure_ascii=False, indent=2))
    elif diags:
        click.echo(render_all(diags, b.sources), err=True)
    if live:
        if fmt == "text":
            click.echo(f"{len(live)} problem(s)" + (f", {len(diags) - len(live)} acknowledged"
                                                   if len(diags) > len(live) else ""), err=True)
        sys.exit(1)
    if fmt == "text":
        click.echo("no problems" + (f" ({len(diags)} acknowledged)" if diags else ""))


@main.command(epilog=EXIT_HELP)
@click.argument("paths", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def info(paths, as_json: bool) -> None:
    """What the ruleset holds: packages, heroes, skills, cards, decks, windows, flows, modes."""
    from .report import info_data, info_text

    rules = _rules(_paths(paths))
    from .engine.ruleset import Ruleset

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
    from .report import explain_text

    rules = _rules(_paths(paths))
    text = explain_text(rules, name, source)
    if text is None:
        from .diagnostics import suggest

        hint = suggest(name, rules.names)
        click.echo(f"error: no skill, card, window, hero, mode or flow named '{name}'" + (f"; {hint}" if hint else ""),
                   err=True)
        sys.exit(2)
    click.echo(text)


@main.command(epilog=EXIT_HELP)
@click.argument("paths", nargs=-1)
@click.option("--mode", default="identity", show_default=True, help="Mode id or Chinese name.")
@click.option("--players", type=int, default=5, show_default=True)
@click.option("--games", type=int, default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--agent", type=click.Choice(["heuristic", "random", "first"]), default="heuristic", show_default=True)
@click.option("--workers", type=int, default=1, show_default=True, help="Processes; results equal one worker's.")
@click.option("--turn-cap", type=int, default=200, show_default=True, help="Turns after which a game is a draw.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False), help="Write game 0's log as JSONL.")
@click.option("--replay", "replay_file", type=click.Path(dir_okay=False),
              help="Replay a JSONL log: play it again and say whether it is identical.")
@click.option("--check-invariants", is_flag=True, help="Verify the state invariants after every event.")
@click.option("--deck", "decks", multiple=True, help="Add a deck to the mode's (e.g. --deck ex for the EX cards).")
@click.option("--with", "variants", multiple=True,
              help="Select a variant package (e.g. --with first_edition for seed 000's first-edition skills).")
@click.option("--variant", type=int, default=0, show_default=True,
              help="Which variant of the mode's identity table row (0 = the first).")
@click.option("--loop-limit", type=click.IntRange(*LOOP_RANGE), default=LOOP_LIMIT, show_default=True,
              help="Rounds of `while` and `repeat` in one turn after which the rules are stopped as a runaway loop.")
@click.option("--depth-limit", type=click.IntRange(*DEPTH_RANGE), default=DEPTH_LIMIT, show_default=True,
              help="Frames on the event stack (skills, flows re-entering) after which the rules are stopped as a "
                   "runaway loop.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def simulate(paths, mode, players, games, seed, agent, workers, turn_cap, as_json, log_file, replay_file,
             check_invariants, decks, variants, variant, loop_limit, depth_limit, quiet) -> None:
    """Play GAMES bot games and print win rates per identity and per hero.

    PATHS are a designer's rules files, added to the shipped rules.
    """
    from .engine.runaway import RunLimits
    from .report import simulate_command

    sys.exit(simulate_command(_paths(paths), mode, players, games, seed, agent, workers, turn_cap, as_json,
                              log_file, replay_file, check_invariants, quiet, list(decks), variant, tuple(variants),
                              RunLimits(loop_limit, depth_limit)))


@main.command("test", epilog=EXIT_HELP)
@click.argument("paths", nargs=-1)
@click.option("-k", "keyword", default="", help="Only tests whose title or skill contains this text.")
@click.option("--trace", is_flag=True, help="Print every test's log, windows included.")
@click.option("--shipped/--no-shipped", default=None, help="Also run the shipped rules' tests (default: only "
              "when no PATHS are given).")
def test_cmd(paths, keyword: str, trace: bool, shipped) -> None:
    """Run the scenario tests written in rules files (`test "…" { … }`)."""
    from .engine.scenario import run_test, scenario_jobs

    files = _paths(paths)
    b = compiler.build(extra=files or None)
    if b.errors:
        click.echo(render_all(b.errors, b.sources), err=True)
        sys.exit(1)
    jobs = [(r, t) for r, t in scenario_jobs([m.TABLES for m in compiler.modules_in_memory(b)])
            if keyword in t.title or keyword in (t.owner or "")]
    if files and not shipped:
        jobs = [(r, t) for r, t in jobs if not t.loc.startswith("rules/")]
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
        failed += not r.ok
    click.echo(f"{len(tests) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


@main.command(epilog=EXIT_HELP)
@click.argument("paths", nargs=-1)
@click.option("--mode", default="identity", show_default=True)
@click.option("--players", type=int, default=5, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--seat", type=int, default=1, show_default=True, help="Your seat (1 = first).")
def play(paths, mode, players, seed, seat) -> None:
    """Play one game at the terminal against heuristic bots."""
    from .engine.human import play_human

    sys.exit(play_human(_rules(_paths(paths)), mode, players, seed, seat - 1))


@main.command(epilog=EXIT_HELP)
@click.option("--check", "check_only", is_flag=True, help="Fail if docs/language.md is stale.")
def docs(check_only: bool) -> None:
    """Regenerate the reference tables of docs/language.md from the compiler's registry."""
    from .docs import update_docs

    root = compiler.project_root()
    ok = update_docs(root / "docs" / "language.md", check_only)
    if not ok:
        click.echo("docs/language.md is stale (run `sgsdsl docs`)", err=True)
        sys.exit(1)
    click.echo("docs/language.md is fresh" if check_only else "docs/language.md updated")


if __name__ == "__main__":
    main()
