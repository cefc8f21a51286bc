"""The long fuzz profile: at least 100,000 inputs through the compiler, each under a timeout.

    nice -n 10 python bench/fuzz.py                       # ~100,000 inputs on 2 workers
    python bench/fuzz.py --scale 0.02 --workers 1         # a quick look
    python bench/fuzz.py --save-failures fuzz-failures/   # keep every failing input as a file
    nice -n 10 python bench/fuzz.py --workers 2 --timeout 120 --readme   # and write the README's block

Sources (sgsdsl/tools/fuzz.py): the extremes set (size, depth, long lines, huge literals, NUL, invalid
UTF-8, BOM, CRLF, full-width punctuation …), grammar-aware hypothesis text (rules expanded from
grammar.lark, terminals from the shipped vocabulary), random token soups and declaration
skeletons, deep nesting, long numbers, and token and byte mutations of every shipped file
compiled as a designer's file beside the rest of the shipped rules. Every input goes through the
pipeline of `sgsdsl check` (parse, resolve, type-check, code generation and, when it compiles,
the conflict checks). Then the other inputs (sgsdsl/tools/fuzz_surfaces.py): results files read by
`report`, log headers read by `--replay`, `--option` texts, arguments of `new hero` and LSP frames.

Each worker process judges inputs under a signal timeout; the parent also watches the clock and
kills a worker that stops answering (a hang in C code), counts the input as a hang and starts a
new worker. The report gives the inputs tried per source, the verdicts, every failure and the
slowest inputs, with the date and the machine. Exit 1 when any input gave a traceback, a
malformed diagnostic, invalid Python or a hang.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing as mp
import os
import platform
import random
import shutil
import sys
import tempfile
import time
from datetime import datetime, timezone
from multiprocessing.connection import wait
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs"))

from figures import commit, write_block  # noqa: E402

from sgsdsl.tools import fuzz, fuzz_surfaces  # noqa: E402

# source -> inputs at --scale 1 (the extremes set is always whole)
PLAN = {"grammar": 30_000, "soup": 12_000, "deep": 2_000, "numbers": 1_000, "tokens": 30_000, "bytes": 25_000,
        # the other inputs (sgsdsl/tools/fuzz_surfaces.py): results files, log headers, --option, new hero, LSP frames
        "report": 1_000, "replay": 2_000, "options": 10_000, "scaffold": 5_000, "lsp": 10_000}
BATCH = 250  # inputs per job


# ---- the worker ------------------------------------------------------------------------------------


def _serve(conn, wid: int, sandboxes: dict[str, str], limit: float, checks: bool, tmp: str) -> None:
    fuzz.cache_shipped_parses()
    scratch = Path(tmp) / f"worker{wid}"
    scratch.mkdir(exist_ok=True)
    strategies = surfaces = None
    while True:
        job = conn.recv()
        if job is None:
            return
        source, seed, n, items = job

        def one(desc: str, data: bytes, rel: str | None) -> None:
            conn.send(("start", desc, len(data)))
            root = Path(sandboxes[rel]) if rel else fuzz.ROOT
            path = root / f"designer_w{wid}.sgs" if rel else scratch / "input.sgs"
            v = fuzz.judge(root, path, data, checks=checks, limit=limit)
            conn.send(("verdict", desc, v.kind, v.detail, v.seconds, data if not v.ok else b""))

        if items is not None:
            for desc, data, rel in items:
                one(desc, data, rel)
        elif source in fuzz_surfaces.JUDGES:
            surfaces = surfaces or fuzz_surfaces.Surfaces(scratch).prepare()
            rng = random.Random(seed)
            for k in range(n):
                desc = f"{source} {seed}/{k}"
                conn.send(("start", desc, 0))
                v = fuzz_surfaces.JUDGES[source](surfaces, rng)
                conn.send(("verdict", desc, v.kind, v.detail, v.seconds, b""))
        elif source in ("tokens", "bytes"):
            rng = random.Random(seed)
            rels = sorted(sandboxes)
            for k in range(n):
                rel = rng.choice(rels)
                text = fuzz.SOURCE_TEXT[rel]
                data = (fuzz.token_mutant(rng, text).encode("utf-8", "surrogatepass") if source == "tokens"
                        else fuzz.byte_mutant(rng, text.encode("utf-8")))
                one(f"{source} {seed}/{k} of {rel}", data, rel)
        else:
            strategies = strategies or fuzz.text_strategies()
            _generate(strategies[source], seed, n,
                      lambda k, text: one(f"{source} {seed}/{k}", text.encode("utf-8", "surrogatepass"), None))
        conn.send(("job done",))


def _generate(strategy, seed: int, n: int, each) -> None:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    count = [0]

    @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @hseed(seed)
    @given(strategy)
    def run(text):
        if count[0] < n:
            each(count[0], text)
            count[0] += 1

    run()


class Worker:
    def __init__(self, ctx, wid: int, args):
        self.ctx, self.wid, self.args = ctx, wid, args
        self.start()

    def start(self) -> None:
        self.conn, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_serve, args=(child, self.wid, *self.args), daemon=True)
        self.proc.start()
        self.job = None
        self.current = None  # (desc, size, started)
        self.heard = time.perf_counter()  # the last message

    def submit(self, job) -> None:
        self.job = job
        self.current = None
        self.heard = time.perf_counter()
        self.conn.send(job)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.join()
        self.start()


# ---- the parent ----------------------------------------------------------------------------------


def jobs(scale: float, seed: int):
    """(source, seed, count, explicit items or None) of every job."""
    extremes = [(f"extreme: {name}", data, None) for name, data in fuzz.extremes()]
    for k in range(0, len(extremes), 10):
        yield ("extremes", 0, 0, extremes[k:k + 10])
    for source, total in PLAN.items():
        n = max(1, int(total * scale))
        for k in range(0, n, BATCH):
            yield (source, seed * 100_003 + k, min(BATCH, n - k), None)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of the full plan (1 = about 100,000 inputs)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds after which one input counts as a hang")
    ap.add_argument("--no-checks", action="store_true", help="skip the conflict checks of inputs that compile")
    ap.add_argument("--save-failures", type=Path, help="write each failing input to this folder")
    ap.add_argument("--readme", action="store_true", help="write the report into README.md (the full profile only)")
    args = ap.parse_args(argv)
    if args.readme and args.scale != 1.0:
        ap.error("--readme quotes the full profile: drop --scale")

    tmp = Path(tempfile.mkdtemp(prefix="sgsdsl-fuzz-"))
    sandboxes = {rel: str(fuzz.sandbox(tmp, rel).root) for rel in sorted(fuzz.SOURCE_TEXT)}
    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    pending = list(jobs(args.scale, args.seed))
    pending.reverse()
    workers = [Worker(ctx, k, (sandboxes, args.timeout, not args.no_checks, str(tmp))) for k in range(args.workers)]
    tried: collections.Counter = collections.Counter()
    verdicts: collections.Counter = collections.Counter()
    failures: list[tuple[str, str, str, bytes]] = []
    slowest: list[tuple[float, str, str, int]] = []
    start = time.perf_counter()
    last_report = start
    busy = []
    for w in workers:
        if pending:
            w.submit(pending.pop())
            busy.append(w)
    while busy:
        ready = wait([w.conn for w in busy], timeout=1.0)
        now = time.perf_counter()
        for w in list(busy):
            if w.conn in ready:
                try:
                    msg = w.conn.recv()
                except EOFError:  # the worker died: the input it was on is a crash
                    desc = w.current[0] if w.current else f"{w.job[0]} job"
                    _count(tried, verdicts, failures, w.job[0], "traceback", desc, "the worker process died", b"",
                           args.save_failures)
                    w.kill()
                    _next(w, pending, busy)
                    continue
                w.heard = now
                if msg[0] == "start":
                    w.current = (msg[1], msg[2], now)
                elif msg[0] == "verdict":
                    _, desc, kind, detail, secs, data = msg
                    _count(tried, verdicts, failures, w.job[0], kind, desc, detail, data, args.save_failures)
                    slowest.append((secs, desc, kind, w.current[1] if w.current else 0))
                    if len(slowest) > 50:
                        slowest = sorted(slowest, reverse=True)[:10]
                    w.current = None
                else:  # job done
                    _next(w, pending, busy)
            elif (w.current is not None and now - w.current[2] > args.timeout + 10) or now - w.heard > 600:
                desc = w.current[0] if w.current else f"{w.job[0]} job (generating)"
                _count(tried, verdicts, failures, w.job[0], "hang", desc,
                       f"no answer after {now - w.heard:.0f} s (the worker was killed)", b"", args.save_failures)
                w.kill()
                _next(w, pending, busy)
        if now - last_report > 60:
            last_report = now
            print(f"… {sum(tried.values()):,} inputs, {dict(verdicts)}", file=sys.stderr, flush=True)
    for w in workers:
        w.conn.send(None)
        w.proc.join()
    shutil.rmtree(tmp, ignore_errors=True)
    seconds = time.perf_counter() - start
    lines = report(args, tried, verdicts, failures, sorted(slowest, reverse=True)[:5], seconds)
    print("\n".join(lines))
    if args.readme:
        flags = " ".join(a for a in (sys.argv[1:] if argv is None else argv) if a != "--readme")
        write_block("fuzz", "```\n$ nice -n 10 python bench/fuzz.py " + flags + "\n" + "\n".join(lines) + "\n```")
    bad = sum(v for k, v in verdicts.items() if k not in ("diagnosed", "accepted"))
    return 1 if bad else 0


def _next(w: Worker, pending: list, busy: list) -> None:
    if pending:
        w.submit(pending.pop())
    else:
        busy.remove(w)


def _count(tried, verdicts, failures, source, kind, desc, detail, data, save: Path | None) -> None:
    tried[source] += 1
    verdicts[kind] += 1
    if kind not in ("diagnosed", "accepted"):
        failures.append((kind, desc, detail, data))
        print(f"FAILED {kind}: {desc}: {detail}", file=sys.stderr, flush=True)
        if save is not None:  # as they come: a long run can be looked into before it ends
            save.mkdir(parents=True, exist_ok=True)
            stem = save / f"{len(failures):04d}-{kind}"
            stem.with_suffix(".sgs").write_bytes(data)
            stem.with_suffix(".txt").write_text(f"{desc}\n{detail}\n", encoding="utf-8")


def report(args, tried, verdicts, failures, slowest, seconds) -> list[str]:
    total = sum(tried.values())
    order = ("diagnosed", "accepted", "traceback", "malformed", "invalid-python", "hang")
    lines = [
        f"fuzz (long profile): {total:,} inputs in {seconds / 60:.1f} min, {args.workers} worker(s), seed {args.seed}, "
        f"timeout {args.timeout:g} s per input",
        f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M UTC} on {platform.machine()}, {mp.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f} at the end, commit {commit() or '?'}",
        "inputs: " + ", ".join(f"{k} {v:,}" for k, v in tried.items()),
        "verdicts: " + ", ".join(f"{k} {verdicts.get(k, 0):,}" for k in order),
        "slowest: " + "; ".join(f"{s:.1f} s {desc} ({kind}, {size:,} bytes)" for s, desc, kind, size in slowest)]
    lines += [f"FAILED {kind}: {desc}: {detail}" for kind, desc, detail, data in failures[:50]]
    if args.save_failures and failures:
        lines.append(f"{len(failures)} failing input(s) written to {args.save_failures}")
    return lines


if __name__ == "__main__":
    sys.exit(main())
