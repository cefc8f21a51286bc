"""`simulate --backend ray` gives the figures of `--workers` for the same seed. Needs the ray extra
(pip install 'sgsdsl[ray]'); CI installs it in a step of its own and runs `pytest -m ray`."""

import json

import pytest

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.ray


def _simulate(capsys, *args):
    from sgsdsl.sim.command import SimOptions, simulate_command

    code = simulate_command(SimOptions(quiet=True, as_json=True, seed=3, **dict(args)))
    out = json.loads(capsys.readouterr().out)
    for key in ("seconds", "games_per_second", "command", "options"):
        out.pop(key)
    return code, out


def test_ray_backend_gives_the_figures_of_workers(capsys):
    try:
        for kw in ({"games": 24, "agent": "random"}, {"games": 6, "agent": "heuristic", "heroes": ("guanyu",)}):
            code, local = _simulate(capsys, *kw.items(), ("workers", 2))
            rcode, remote = _simulate(capsys, *kw.items(), ("backend", "ray"))
            assert code == rcode == 0
            assert remote == local and remote["games"] == kw["games"]
    finally:
        ray.shutdown()



def _ray_tasks_running() -> list[int]:
    """The Ray worker processes playing a task now (Ray names them after the function they run)."""
    import os
    from pathlib import Path

    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if (Path("/proc") / d / "cmdline").read_bytes().startswith(b"ray::_ray_task"):
                    out.append(int(d))
            except OSError:
                pass
    return out


@pytest.mark.parametrize("retries", [3, 0])
def test_a_lost_ray_task_is_run_again_or_reported_with_its_seeds(rules, monkeypatch, retries):
    """A Ray worker killed in the middle of a task: Ray runs the task again (the results are those of
    local processes); with no retries left, the task's games are broken games that name their seeds."""
    import os
    import signal
    import sys
    import time

    from sgsdsl.sim import pool
    from sgsdsl.sim.batch import Setup, iter_jobs, stream_jobs

    if not sys.platform.startswith("linux"):
        pytest.skip("finds Ray's workers in /proc")
    monkeypatch.setattr(pool, "RAY_TASK", 8)
    monkeypatch.setattr(pool, "RAY_RETRIES", retries)
    setup = Setup("identity", 5, "random")
    local = list(stream_jobs(rules, iter_jobs(setup, 48, 9), workers=1))
    try:
        stream = stream_jobs(rules, iter_jobs(setup, 48, 9), backend="ray")
        got = [next(stream)]
        deadline = time.monotonic() + 60
        while not (victims := _ray_tasks_running()) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert victims, "no Ray task was running"
        os.kill(victims[0], signal.SIGKILL)
        got += list(stream)
    finally:
        ray.shutdown()
    assert [r.index for r in got] == list(range(48))
    broken = [(a, b) for a, b in zip(got, local) if a.error is not None]
    if retries:
        assert not broken
    else:
        assert len(broken) == 8, [r.error for r in got if r.error]
        for r, _ in broken:
            assert r.error.startswith(f"seed {r.seed}: the Ray task playing seeds ") and "was lost" in r.error
    same = [(r.seed, r.winners, r.turns, r.seats) for r, _ in zip(got, local) if r.error is None]
    assert same == [(r.seed, r.winners, r.turns, r.seats) for a, r in zip(got, local) if a.error is None]
    assert len(same) >= 40
