"""A batch where the machine or the user gets in the way: a worker killed (SIGKILL, the out-of-memory
killer), Ctrl-C, SIGTERM. Never a hang: a dead worker's games are played again (seeded games give the
same results) or reported with their seeds; an interrupt ends the workers and summarises the games
played, marked partial, with exit 130. bench/faults.py runs the same against a real `sgsdsl simulate`
with the strict timings."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sgsdsl.sim import batch
from sgsdsl.sim.batch import Setup, iter_jobs, stream_jobs
from sgsdsl.sim.command import SimOptions, simulate_command

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "sgsdsl/sim/schemas/simulate.schema.json").read_text(encoding="utf-8"))
fork_only = pytest.mark.skipif("fork" not in mp.get_all_start_methods(),
                               reason="the games' replacement `play` reaches the workers by fork")
posix_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals and /proc: Linux")


def _facts(results):
    return [(r.index, r.seed, r.winners, r.turns, r.seats, r.error) for r in results]


def _one_worker(rules, setup, games, seed):
    return list(stream_jobs(rules, iter_jobs(setup, games, seed), workers=1))


@posix_only
def test_a_killed_worker_loses_no_game(rules):
    setup = Setup("identity", 5, "random")
    stream = stream_jobs(rules, iter_jobs(setup, 24, 8), workers=2)
    got = [next(stream)]
    victim = mp.active_children()[0]
    os.kill(victim.pid, signal.SIGKILL)
    got += list(stream)
    assert not victim.is_alive()
    assert _facts(got) == _facts(_one_worker(rules, setup, 24, 8))
    assert not mp.active_children()  # the pool ended its workers, the replacement too


@fork_only
@posix_only
def test_a_game_that_killed_its_worker_is_played_again(rules, monkeypatch, tmp_path, killing):
    setup = Setup("identity", 5, "random")
    expected = _one_worker(rules, setup, 12, 3)
    monkeypatch.setattr(batch, "play", killing({batch.game_seed(3, 2), batch.game_seed(3, 7)}, tmp_path))
    got = list(stream_jobs(rules, iter_jobs(setup, 12, 3), workers=2))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(str(batch.game_seed(3, i)) for i in (2, 7))
    assert _facts(got) == _facts(expected)


@fork_only
@posix_only
def test_a_game_that_kills_every_worker_is_reported_with_its_seed(rules, monkeypatch, killing):
    setup = Setup("identity", 5, "random")
    expected = _one_worker(rules, setup, 10, 4)
    bad = batch.game_seed(4, 5)
    monkeypatch.setattr(batch, "play", killing({bad}, None))
    got = list(stream_jobs(rules, iter_jobs(setup, 10, 4), workers=2))
    assert [r.index for r in got] == list(range(10))
    broken = got[5]
    assert broken.seed == bad and broken.reason == "error" and broken.error.startswith(f"seed {bad}: ")
    assert "died 2 times" in broken.error and "SIGKILL" in broken.error
    assert _facts(got[:5] + got[6:]) == _facts(expected[:5] + expected[6:])


def _without_timing(s: dict) -> dict:
    s = dict(s)
    for key in ("seconds", "games_per_second", "command", "partial"):
        s.pop(key, None)
    return s


def _interrupt_after(n: int, monkeypatch, sig: str = "SIGINT"):
    """simulate's stream of results, cut by an interrupt after n of them."""
    from sgsdsl.sim import command, pool

    real = command.stream_jobs

    def cut(*args, **kwargs):
        for k, r in enumerate(real(*args, **kwargs)):
            if k == n:
                raise KeyboardInterrupt if sig == "SIGINT" else pool.Interrupted(signal.SIGTERM)
            yield r

    monkeypatch.setattr(command, "stream_jobs", cut)


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_an_interrupt_summarises_the_games_played(capsys, monkeypatch, tmp_path, sig):
    jsonschema = pytest.importorskip("jsonschema")
    html = tmp_path / "r.html"
    o = SimOptions(games=12, seed=5, agent="random", quiet=True, as_json=True, html=str(html))
    _interrupt_after(7, monkeypatch, sig)
    assert simulate_command(o) == 130
    out = capsys.readouterr()
    partial = json.loads(out.out)
    jsonschema.validate(partial, SCHEMA)
    assert partial["games"] == 7
    assert partial["partial"] == {"signal": sig, "played": 7, "jobs": 12, "not_played": [
        {"first_seed": batch.game_seed(5, 7), "last_seed": batch.game_seed(5, 11), "featured": None, "control": False,
         "ablated": None}]}
    assert f"interrupted ({sig})" in out.err and "first 7 of 12 games" in out.err
    assert "interrupted" in html.read_text(encoding="utf-8")  # the other outputs are written, marked partial
    monkeypatch.undo()
    assert simulate_command(SimOptions(games=7, seed=5, agent="random", quiet=True, as_json=True)) == 0
    assert _without_timing(partial) == _without_timing(json.loads(capsys.readouterr().out))


def test_an_interrupt_of_a_featured_batch_names_the_seeds_of_each_group(capsys, monkeypatch):
    o = SimOptions(games=4, seed=2, agent="random", quiet=True, as_json=True, heroes=("guanyu",))
    _interrupt_after(6, monkeypatch)
    assert simulate_command(o) == 130
    s = json.loads(capsys.readouterr().out)
    assert s["games"] == 4 and s["control_games"] == 2
    assert s["partial"]["not_played"] == [{"first_seed": batch.game_seed(2, 2), "last_seed": batch.game_seed(2, 3),
                                           "featured": "guanyu", "control": True, "ablated": None}]


def _group_left(pgid: int) -> list[int]:
    left = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = (Path("/proc") / d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[2]) == pgid:
                left.append(int(d))
    return left


def _children(pid: int) -> list[int]:
    try:
        return [int(x) for x in (Path(f"/proc/{pid}/task/{pid}/children").read_text().split())]
    except OSError:
        return []


@posix_only
@pytest.mark.parametrize("how", ["SIGINT to the group", "SIGTERM to the parent"])
def test_a_signal_ends_simulate_and_its_workers(how):
    cmd = [sys.executable, "-m", "sgsdsl", "simulate", "--games", "5000", "--workers", "2", "--agent", "random",
           "--quiet", "--json"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        while len(_children(p.pid)) < 2 and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.05)
        time.sleep(0.5)
        if how.startswith("SIGINT"):
            os.killpg(p.pid, signal.SIGINT)
        else:
            os.kill(p.pid, signal.SIGTERM)
        out, err = p.communicate(timeout=60)  # generous: bench/faults.py holds it to two seconds
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, err.decode()
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err.decode()
    s = json.loads(out)
    assert s["partial"]["signal"] == how.split()[0] and s["games"] == s["partial"]["played"] < 5000
    assert _group_left(p.pid) == []
