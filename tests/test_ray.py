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

