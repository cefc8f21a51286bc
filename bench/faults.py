"""Faults a user or the machine inflicts on a real `sgsdsl simulate` and `sgsdsl lsp`, with the strict
timings the test suite leaves out (tests/test_interrupts.py and tests/test_lsp.py assert the same with
generous timeouts):

    nice -n 10 python bench/faults.py            # every case; exit 1 if one fails
    python bench/faults.py --only sigint         # the cases whose name contains this

Each simulate case runs the command in a process group of its own and asserts the exit code, the seconds
from the signal to the exit (at most --within, 2 s), that no process of the group is left, and that the
partial figures are those of a run of only the games played (`--games K`, K the games the partial result
says were played). The worker case kills a worker with SIGKILL (what the out-of-memory killer sends) and
asserts the figures of a run without the kill. Ray cases run when the ray extra is installed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from test_interrupts import _children  # noqa: E402 - the process helpers of the tests
from test_interrupts import _group_left as _group  # noqa: E402

SIM = [sys.executable, "-m", "sgsdsl", "simulate", "--agent", "random", "--quiet", "--json", "--seed", "7"]
VOLATILE = ("seconds", "games_per_second", "command", "partial")


def _start(args):
    return subprocess.Popen(SIM + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _figures(s: dict) -> dict:
    return {k: v for k, v in s.items() if k not in VOLATILE}


def _reference(extra: list[str], games: int) -> dict:
    """The figures of a run of only the first `games` games."""
    p = subprocess.run(SIM + extra + ["--games", str(games)], capture_output=True, cwd=ROOT)
    return _figures(json.loads(p.stdout))


def _wait_started(p, workers: int, settle: float) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and p.poll() is None and len(_children(p.pid)) < workers:
        time.sleep(0.05)
    time.sleep(settle)


def interrupt(name: str, sig: int, to_group: bool, extra: list[str], within: float, settle: float = 1.5) -> list[str]:
    args = ["--games", "5000", *extra]
    workers = int(extra[extra.index("--workers") + 1]) if "--workers" in extra else 0
    p = _start(args)
    try:
        _wait_started(p, workers, settle)
        sent = time.perf_counter()
        (os.killpg if to_group else os.kill)(p.pid, sig)
        out, err = p.communicate(timeout=120)
        took = time.perf_counter() - sent
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    time.sleep(0.2)
    left = _group(p.pid)
    problems = []
    if p.returncode != 130:
        problems.append(f"exit {p.returncode}, not 130")
    if took > within:
        problems.append(f"{took:.2f} s to exit, more than {within} s")
    if left:
        problems.append(f"processes left: {left}")
    if b"Traceback" in err or b"BrokenPipe" in err:
        problems.append("a traceback: " + err.decode()[-300:])
    try:
        s = json.loads(out)
    except ValueError:
        return problems + ["no JSON on standard output"]
    played = s.get("partial", {}).get("played")
    if played is None:
        return problems + ["the JSON is not marked partial"]
    if not played:
        print(f"  {name}: no game had ended when the signal came (a loaded machine?): nothing to compare")
    elif _figures(s) != _reference(extra, played):
        problems.append(f"the figures of the {played} games played differ from `--games {played}`")
    print(f"  {name}: exit {p.returncode} {took:.2f} s after the signal, {played} games played, "
          f"{len(left)} processes left", flush=True)
    return problems


def killed_worker(within: float) -> list[str]:
    args = ["--games", "300", "--workers", "2"]
    ref = subprocess.run(SIM + args, capture_output=True, cwd=ROOT)
    p = _start(args)
    try:
        _wait_started(p, 2, 1.0)
        victims = _children(p.pid)
        os.kill(victims[-1], signal.SIGKILL)
        out, err = p.communicate(timeout=300)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    problems = []
    if p.returncode != 0:
        problems.append(f"exit {p.returncode}: {err.decode()[-300:]}")
    elif _figures(json.loads(out)) != _figures(json.loads(ref.stdout)):
        problems.append("the figures differ from a run where no worker was killed")
    if _group(p.pid):
        problems.append("processes left")
    print(f"  a worker killed with SIGKILL: exit {p.returncode}, figures "
          f"{'the same' if not problems else 'NOT the same'} as without the kill", flush=True)
    return problems


def lsp_frames(within: float) -> list[str]:
    """Bad frames to a real `sgsdsl lsp`: each answered, then a good request answered within `within` s."""
    from pygls.uris import from_fs_path
    from test_lsp import RawClient, _hover  # the raw client of the tests

    c = RawClient()
    problems = []
    try:
        c.request(1, "initialize", {"capabilities": {}, "processId": None, "rootUri": from_fs_path(str(ROOT))})
        c.answer(1)
        c.notify("initialized", {})
        uri = from_fs_path(str(ROOT / "examples" / "yanyan.sgs"))
        text = (ROOT / "examples" / "yanyan.sgs").read_text(encoding="utf-8")
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "sgs", "version": 1,
                                                           "text": text}})
        c.request(2, "textDocument/hover", _hover(uri))
        c.answer(2)
        for k, length in enumerate(["abc", "-5", "missing", "99999999999"]):
            c.request(10 + 2 * k, "textDocument/hover", _hover(uri), length=length)
            t = time.perf_counter()
            c.request(11 + 2 * k, "textDocument/hover", _hover(uri))
            c.answer(10 + 2 * k, timeout=60)
            c.answer(11 + 2 * k, timeout=60)
            took = time.perf_counter() - t
            print(f"  lsp, Content-Length {length!r}: answered, the next request {took:.2f} s later", flush=True)
            if took > within:
                problems.append(f"Content-Length {length!r}: the next answer took {took:.2f} s")
        big = "# " + "大" * 800_000 + "\n" + text  # 2.4 MB: the buffer of issue 31
        t = time.perf_counter()
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri + ".big", "languageId": "sgs", "version": 1,
                                                           "text": big}})
        c.request(30, "textDocument/hover", _hover(uri))
        c.answer(30, timeout=120)
        took = time.perf_counter() - t
        print(f"  lsp, a 2.4 MB buffer: the next request answered {took:.2f} s later", flush=True)
        if took > within:
            problems.append(f"the request after a 2.4 MB buffer took {took:.2f} s")
        c.request(40, "shutdown")
        c.answer(40)
        c.request(41, "textDocument/hover", _hover(uri))
        if c.answer(41, timeout=within).get("error", {}).get("code") != -32600:
            problems.append("a request after shutdown was not answered with InvalidRequest")
        c.notify("exit", None)
        if c.proc.wait(timeout=30) != 0:
            problems.append(f"exit code {c.proc.returncode} after shutdown and exit")
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--within", type=float, default=2.0, help="seconds a command may take to end after a signal")
    ap.add_argument("--only", default="", help="run only the cases whose name contains this")
    args = ap.parse_args(argv)
    if not sys.platform.startswith("linux"):
        print("bench/faults.py reads /proc: Linux only", file=sys.stderr)
        return 2
    import importlib.util

    ray = importlib.util.find_spec("ray") is not None
    cases = {
        "sigint to the group, 2 workers": lambda: interrupt("Ctrl-C (SIGINT to the group), 2 workers", signal.SIGINT,
                                                             True, ["--workers", "2"], args.within),
        "sigterm to the parent, 2 workers": lambda: interrupt("SIGTERM to the parent, 2 workers", signal.SIGTERM,
                                                               False, ["--workers", "2"], args.within),
        "sigint, one process": lambda: interrupt("Ctrl-C, one process", signal.SIGINT, True, [], args.within,
                                                  settle=6),
        "sigterm, one process": lambda: interrupt("SIGTERM, one process", signal.SIGTERM, False, [], args.within,
                                                   settle=6),
        "a killed worker": lambda: killed_worker(args.within),
        "lsp frames": lambda: lsp_frames(args.within),
    }
    if ray:
        cases["sigint, ray"] = lambda: interrupt("Ctrl-C (SIGINT to the group), Ray", signal.SIGINT, True,
                                                 ["--backend", "ray"], args.within + 1.0, settle=45)
        cases["sigterm, ray"] = lambda: interrupt("SIGTERM to the parent, Ray", signal.SIGTERM, False,
                                                  ["--backend", "ray"], args.within + 1.0, settle=45)
    print(f"bench/faults.py: {datetime.now(timezone.utc):%Y-%m-%d %H:%M UTC} on {platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}; "
          f"ray {'installed' if ray else 'not installed: its cases skipped'}", flush=True)
    failed = 0
    for name, case in cases.items():
        if args.only and args.only not in name:
            continue
        problems = case()
        for pr in problems:
            print(f"FAILED {name}: {pr}", flush=True)
        failed += bool(problems)
    print(f"{len(cases) - failed} passed, {failed} failed" if not args.only else f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
