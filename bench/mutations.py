"""How many designers' mistakes `sgsdsl check` finds: a mutation harness over the shipped rules.

    python bench/mutations.py                 # 25 mutants per class, seed 1
    python bench/mutations.py --per-class 60 --seed 2 --misses

Each mutant is the shipped rules with one mistake of one class put into one skill or card:

  wrong-window        a trigger listens at another window of the same event type (受到伤害后 → 造成伤害后)
  missing-field       a rule reads an event field that its window's event does not carry
  misspelt-card       a card named in a rule or a deck is misspelt
  flipped-comparison  a comparison in a `when` is turned around (> ↔ <, >= ↔ <=, == ↔ !=)
  dropped-limit       a `limit … per …` clause is left out
  widened-target      a target or choice that excludes the owner (`it != self`, `others(self)`) no longer does
  text-disagrees      the official text beside the rules says another timing, limit or type
  skill-wrong-mode    a 国战 skill whose timing only 国战 has is given to a hero of another mode
  entry-off-mode      a 1v1 登场 skill (or another whose timing only 1v1 has) on a hero the mode never enters
  face-down-read      a 国战 skill reads a player's heroes face down too (`shown_heroes` → `heroes`)

A mutant is *detected* when `sgsdsl check` reports an error or a warning that the unmutated rules
do not have (notes, which never fail the check, are counted apart); the family that detects it is
the one its codes belong to (the compiler's SGS0nn–SGS2nn, the text family SGS36n, or a conflict
family). The sites of each class are every place in the shipped packages (rules/, all but core and
the modes' files) where the mistake can be made; a seeded sample of them is tried. Two classes are
found by construction (a field the event lacks, a name never declared: the compiler must reject
them) and are kept apart from the headline figure. The output ends with the date and the machine,
for the README.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from sgsdsl.conflicts import run_checks
from sgsdsl.lang import ast, compiler
from sgsdsl.lang.diagnostics import CompileError
from sgsdsl.lang.tree import walk

ROOT = Path(__file__).resolve().parent.parent
# every shipped package but the core (its flows are the engine's model) and the modes' own files
MUTATED = tuple(f"rules/{p.name}/" for p in sorted((ROOT / "rules").iterdir()) if p.is_dir() and p.name not in ("core", "modes"))
CLASSES = ("wrong-window", "missing-field", "misspelt-card", "flipped-comparison", "dropped-limit",
           "widened-target", "text-disagrees", "skill-wrong-mode", "entry-off-mode", "face-down-read")
BY_CONSTRUCTION = ("missing-field", "misspelt-card")  # the compiler rejects them whatever `check` does
# The family a code belongs to (by prefix, longest first): the compiler, the text family, the conflict families.
FAMILY_OF = {"SGS36": "text", "SGS30": "modifiers", "SGS31": "replacements", "SGS32": "loops", "SGS33": "dead",
             "SGS34": "fields", "SGS35": "data", "SGS381": "modifiers", "SGS382": "replacements",
             "SGS383": "loops", "SGS384": "loops", "SGS385": "pairs"}
FAMILIES = ("compiler", "text", "modifiers", "replacements", "loops", "dead", "fields", "data", "pairs")
# where a skill that only another mode can fire comes from -> the class of giving it to a standard hero
MODE_PACKAGES = {"rules/guozhan_heroes/": "skill-wrong-mode", "rules/guozhan/": "skill-wrong-mode",
                 "rules/duel/": "entry-off-mode", "rules/duel_skills/": "entry-off-mode"}
FLIP = {">": "<", "<": ">", ">=": "<=", "<=": ">=", "==": "!=", "!=": "=="}
# Text mistakes: a timing, a limit or a type said otherwise (old phrase -> new phrase).
TEXT_SWAPS = (("受到伤害后", "造成伤害后"), ("造成伤害后", "受到伤害后"), ("受到伤害时", "造成伤害时"),
              ("造成伤害时", "受到伤害时"), ("准备阶段", "结束阶段"), ("结束阶段", "准备阶段"),
              ("判定牌生效前", "判定牌生效后"), ("摸牌阶段", "弃牌阶段"), ("出牌阶段限一次，", "出牌阶段，"),
              ("锁定技，", ""))
MISSPELL = "沙闪桃乐杂刀弓马"  # characters a misspelt card name ends with


# ---- sites: where each mistake can be made ----------------------------------------------------


def _offset(text: str, line: int, col: int) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[:line - 1]) + col - 1


class Sites:
    """Every (file, start, end, replacement) edit of each class, read off the checked syntax tree."""

    def __init__(self, b):
        self.b, self.m = b, b.model
        # (the modes' files only for the mode classes: their `heroes` pools)
        self.texts = {f: t for f, t in b.sources.texts.items() if f.startswith(MUTATED + ("rules/modes/",))}
        self.out: dict[str, list] = {c: [] for c in CLASSES}
        decls = [d for pkg in self.m.packages.values() for d in pkg.decls if d.span.file.startswith(MUTATED)
                 and isinstance(d, (ast.SkillDecl, ast.CardDecl, ast.DeckDecl))]
        for d in decls:
            if isinstance(d, ast.DeckDecl):
                for e in d.entries:
                    self._misspell(e.card)
                continue
            self._decl(d)
        self._off_mode()

    def _off_mode(self) -> None:
        """A hero of a mode's package dealt in another mode (added to M's `heroes`), where a skill of it cannot
        work: one whose timing M never opens (a 1v1 登场 skill), or a 国战 skill that needs a seat of two heroes or
        a formation (its label says so)."""
        from sgsdsl.conflicts import dead
        from sgsdsl.conflicts.facts import facts_of

        facts = facts_of(self.b)
        modes = facts.judged_modes()  # the modes of the default tables (身份局 …)
        heroes = [d for p in self.m.packages.values() for d in p.decls if isinstance(d, ast.HeroDecl)]
        for h in {id(h): h for h in heroes}.values():
            cls = next((c for pkg, c in MODE_PACKAGES.items() if h.span.file.startswith(pkg)), None)
            if cls is None or not h.skills or getattr(h, "modes", None):
                continue
            for mode in modes:
                bad = False
                for name in h.skills:
                    s = self._skill(h, name.text)
                    if s is None:
                        continue
                    windows = {self.m.windows[w.text].id.text for f in s.facets if isinstance(f, ast.Trigger)
                               for w in f.windows if w.text in self.m.windows}
                    seated = cls == "skill-wrong-mode" and re.search(r"(阵法|主将|副将)技", "".join(s.texts))
                    if seated or (windows and not windows & dead.mode_reach(facts, mode)):
                        bad = True
                if bad and mode.heroes and mode.span.file in self.texts:
                    self.edit(cls, attrs_evolve_span(mode.heroes[-1].span), f", {h.name.text}",
                              f"{h.name.text} dealt in {mode.name.text}")

    def _skill(self, h, name: str):
        """The skill a hero names, from the hero's own package first (a variant's version)."""
        pkg = next((p for p in self.m.packages.values() if any(d is h for d in p.decls)), None)
        for d in pkg.decls if pkg is not None else ():
            if isinstance(d, ast.SkillDecl) and d.name.text == name:
                return d
        return self.m.skills.get(name)

    def edit(self, cls: str, span, new: str, what: str) -> None:
        text = self.texts[span.file]
        a, z = _offset(text, span.line, span.col), _offset(text, span.end_line, span.end_col)
        self.out[cls].append((span.file, a, z, new, f"{span}: {what}"))

    def _decl(self, d) -> None:
        events = {}
        for f in d.facets:
            if isinstance(f, ast.Trigger):
                ws = [self.m.windows[w.text] for w in f.windows if w.text in self.m.windows]
                if ws:
                    self._window(f.windows[0], ws[0])
                    events[id(f)] = ws[0].event.text
            if getattr(f, "limit", None) is not None:
                self.edit("dropped-limit", f.limit.span, "", "limit dropped")
            when = getattr(f, "when", None)
            for n in walk(when) if when is not None else ():
                if isinstance(n, ast.Compare) and n.op in FLIP:
                    self._flip(n)
            for n in walk(f):
                if isinstance(n, ast.Attr) and n.name.text in ("shown_heroes", "hidden_heroes") and d.span.file.startswith(
                        tuple(p for p, c in MODE_PACKAGES.items() if c == "skill-wrong-mode")):
                    self.edit("face-down-read", n.name.span, "heroes", f"`{n.name.text}` read as `heroes`")
                if isinstance(n, ast.Attr) and isinstance(n.obj, ast.NameRef) and n.obj.text == "event" \
                        and id(f) in events:
                    self._field(n, events[id(f)])
                elif isinstance(n, ast.Compare) and n.op == "!=" and {_name(n.left), _name(n.right)} == {"it", "self"}:
                    self.edit("widened-target", n.span, "true", "`it != self` dropped")
                elif isinstance(n, ast.Call) and _name(n.func) == "others" and n.args and _name(n.args[0].value) == "self":
                    self.edit("widened-target", n.span, "players", "`others(self)` became `players`")
                elif isinstance(n, ast.NameRef) and n.text in self.m.cards and self.m.values[n.text].kind == "card":
                    self._misspell(n)
        self._text(d)

    def _window(self, name: ast.Name, w) -> None:
        same = sorted({x.name.text for x in self.m.unique(self.m.windows)
                       if x.event.text == w.event.text and x is not w})
        for alt in same:
            self.edit("wrong-window", name.span, alt, f"{w.name.text} → {alt}")

    def _field(self, n: ast.Attr, event: str) -> None:
        have = {f.name.text for f in self.m.events[event].fields}
        for other in sorted({f.name.text for ev in self.m.unique(self.m.events) for f in ev.fields} - have)[:6]:
            self.edit("missing-field", n.name.span, other, f"event.{n.name.text} → event.{other} ({event} has none)")

    def _misspell(self, n) -> None:
        for ch in MISSPELL:
            new = n.text[:-1] + ch
            if new != n.text and new not in self.m.values:
                self.edit("misspelt-card", n.span, new, f"{n.text} → {new}")

    def _flip(self, c: ast.Compare) -> None:
        text = self.texts[c.span.file]
        a = _offset(text, c.left.span.end_line, c.left.span.end_col)
        z = _offset(text, c.right.span.line, c.right.span.col)
        gap = text[a:z]
        op = gap.strip()
        if op != c.op:
            return
        k = a + gap.index(op)
        self.out["flipped-comparison"].append((c.span.file, k, k + len(op), FLIP[op], f"{c.span}: {op} → {FLIP[op]}"))

    def _text(self, d) -> None:
        text = self.texts[d.span.file]
        a, z = _offset(text, d.span.line, d.span.col), _offset(text, d.span.end_line, d.span.end_col)
        for s in getattr(d, "texts", ()):
            k = text.find('"' + s + '"', a, z)
            if k < 0:
                continue
            for old, new in TEXT_SWAPS:
                for m in re.finditer(re.escape(old), s):
                    start = k + 1 + m.start()
                    self.out["text-disagrees"].append((d.span.file, start, start + len(old), new,
                                                      f"{d.span.file}:{d.span.line}: text {old} → {new or '(nothing)'}"))


def attrs_evolve_span(span):
    """An empty span just after `span` (an insertion there)."""
    import attrs

    return attrs.evolve(span, line=span.end_line, col=span.end_col)


def family_of(code: str) -> str:
    for prefix in sorted(FAMILY_OF, key=len, reverse=True):
        if code.startswith(prefix):
            return FAMILY_OF[prefix]
    return "compiler" if code[3] in "012" else "other"


def _name(e) -> str | None:
    return e.text if isinstance(e, ast.NameRef) else None


# ---- running mutants ----------------------------------------------------------------------------


def findings(root: Path) -> set:
    """(code, severity, message) of every unacknowledged error, warning and note."""
    try:
        b = compiler.build(root=root)
    except CompileError as e:
        return {(d.code, "error", d.message) for d in e.diagnostics}
    out = {(d.code, "error", d.message) for d in b.errors}
    if not b.errors:
        out |= {(d.code, d.severity, d.message) for d in run_checks(b) if d.acknowledged is None}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-class", type=int, default=25, help="mutants tried per class")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--misses", action="store_true", help="list the mutants that went undetected")
    ap.add_argument("--readme", action="store_true", help="write the table into README.md (figures:mutations)")
    args = ap.parse_args()

    # each unchanged file is parsed once: sgsdsl/lang/parsecache.py keeps the trees for the process
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(ROOT / "rules", root / "rules")
        base = findings(root)
        sites = Sites(compiler.build(root=root))
        rng = random.Random(args.seed)
        rows, missed = [], []
        for cls in CLASSES:
            pool = sites.out[cls]
            sample = rng.sample(pool, min(args.per_class, len(pool)))
            found = noted = 0
            codes: Counter = Counter()
            fams: Counter = Counter()
            for file, a, z, new, what in sample:
                path = root / file
                text = path.read_text(encoding="utf-8")
                path.write_text(text[:a] + new + text[z:], encoding="utf-8")
                try:
                    extra = findings(root) - base
                finally:
                    path.write_text(text, encoding="utf-8")
                failing = {x for x in extra if x[1] in ("error", "warning")}
                if failing:
                    found += 1
                    codes.update({x[0] for x in failing})
                    fams.update({family_of(x[0]) for x in failing})
                else:
                    noted += bool(extra)
                    missed.append((cls, what))
            rows.append((cls, len(pool), len(sample), found, noted, codes, fams))
    elapsed = time.perf_counter() - started

    table = [f"{'class':<20} {'sites':>6} {'tried':>6} {'found':>6} {'rate':>7}  {'notes only':>10}  found by (family×mutants)"]

    def line(cls, n_sites, tried, found, noted, fams):
        rate = f"{100 * found / tried:.0f}%" if tried else "-"
        by = ", ".join(f"{f}×{k}" for f, k in fams.most_common())
        return f"{cls:<20} {n_sites:>6} {tried:>6} {found:>6} {rate:>7}  {noted:>10}  {by}"

    head = [r for r in rows if r[0] not in BY_CONSTRUCTION]
    for cls, n_sites, tried, found, noted, _codes, fams in head:
        table.append(line(cls, n_sites, tried, found, noted, fams))
    tried_all, found_all = sum(r[2] for r in head), sum(r[3] for r in head)
    table.append(f"{'all (headline)':<20} {'':>6} {tried_all:>6} {found_all:>6} "
                 f"{100 * found_all / max(tried_all, 1):>6.0f}%")
    table.append("found by construction (the compiler rejects them; not in the headline):")
    for cls, n_sites, tried, found, noted, _codes, fams in rows:
        if cls in BY_CONSTRUCTION:
            table.append(line(cls, n_sites, tried, found, noted, fams))
    per = Counter()
    for r in head:
        per.update(r[6])
    table.append("per family, of the headline mutants it detects (a mutant may be found by several):")
    table.append("  " + ", ".join(f"{f} {100 * per[f] / max(tried_all, 1):.0f}%" for f in FAMILIES))
    print("\n".join(table))
    if args.misses:
        print("\nundetected:")
        for cls, what in missed:
            print(f"  {cls}: {what}")
    command = f"python bench/mutations.py --per-class {args.per_class} --seed {args.seed}"
    print(f"\n{datetime.date.today().isoformat()}, {platform.node() or 'unknown host'} "
          f"({platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}), "
          f"seed {args.seed}, {args.per_class} per class, {elapsed:.0f} s; command: {command}")
    if args.readme:
        sys.path.insert(0, str(ROOT / "docs"))
        from figures import commit, machine, write_block

        write_block("mutations", f"`{command}` printed ({datetime.date.today().isoformat()}, {machine()}, "
                    f"commit {commit() or '?'}, {elapsed:.0f} s):\n\n```\n" + "\n".join(table) + "\n```\n")


if __name__ == "__main__":
    sys.exit(main())
