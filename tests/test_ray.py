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



@pytest.mark.parametrize("retries", [3, 0])
def test_a_lost_ray_task_is_run_again_or_reported_with_its_seeds(rules, monkeypatch, tmp_path, killing, retries):
    """A Ray worker that dies in the middle of a task (its game kills the process, once): Ray runs the task
    again (the results are those of local processes); with no retries left, the task's games are broken
    games that name their seeds. The game kills its own worker, so no race decides whether a task was
    still running when the test looked."""
    from sgsdsl.sim import batch, pool
    from sgsdsl.sim.batch import Setup, iter_jobs, stream_jobs

    monkeypatch.setattr(pool, "RAY_TASK", 8)
    monkeypatch.setattr(pool, "RAY_RETRIES", retries)
    setup = Setup("identity", 5, "random")
    local = list(stream_jobs(rules, iter_jobs(setup, 48, 9), workers=1))
    monkeypatch.setattr(batch, "play", killing({batch.game_seed(9, 20)}, tmp_path))
    try:
        got = list(stream_jobs(rules, iter_jobs(setup, 48, 9), backend="ray"))
    finally:
        ray.shutdown()
    assert [p.name for p in tmp_path.iterdir()] == [str(batch.game_seed(9, 20))]
    assert [r.index for r in got] == list(range(48))
    broken = [r for r in got if r.error is not None]
    if retries:
        assert not broken
    else:
        assert [r.index for r in broken] == list(range(16, 24)), [r.error for r in broken]
        for r in broken:
            assert r.error.startswith(f"seed {r.seed}: the Ray task playing seeds ") and "was lost" in r.error
    same = [(r.seed, r.winners, r.turns, r.seats) for r in got if r.error is None]
    assert same == [(r.seed, r.winners, r.turns, r.seats) for a, r in zip(got, local) if a.error is None]
