"""Batches stream: jobs are read a chunk at a time and results come back in job order, so a batch of
any size is played and summarized in bounded memory, with the figures of a list-at-once run."""

import itertools

from sgsdsl.sim import batch as sim
from sgsdsl.sim import pool
from sgsdsl.sim.batch import Setup, iter_jobs, run_batch, stream_jobs
from sgsdsl.sim.stats import Tally, summarize


def _jobs(setup, seen: list, n: int | None = None):
    """Jobs made one at a time (endless with n None); `seen` counts how many were taken."""
    for i in itertools.count() if n is None else range(n):
        seen.append(i)
        yield (setup, i, sim.game_seed(4, i), None, False)


def test_an_endless_batch_streams(rules):
    seen: list = []
    out = list(itertools.islice(stream_jobs(rules, _jobs(Setup("identity", 5, "random"), seen), workers=1), 10))
    assert [r.index for r in out] == list(range(10)) and len(seen) == 10


def test_two_workers_read_the_jobs_a_chunk_at_a_time_and_keep_their_order(rules, monkeypatch):
    monkeypatch.setattr(pool, "WINDOW", 4)  # several chunks in a few games
    setup = Setup("identity", 5, "random")
    seen: list = []
    stream = stream_jobs(rules, _jobs(setup, seen, 10), workers=2)
    first = next(stream)
    assert first.index == 0 and len(seen) <= 2 * pool.WINDOW  # the jobs beyond the next chunk are not read yet
    two = [first, *stream]
    one = list(stream_jobs(rules, _jobs(setup, [], 10), workers=1))
    assert [r.index for r in two] == list(range(10))
    assert [(r.seed, r.winners, r.turns, r.seats) for r in one] == [(r.seed, r.winners, r.turns, r.seats) for r in two]


def test_a_tally_of_streamed_results_is_the_summary_of_the_list(rules, monkeypatch):
    monkeypatch.setattr(pool, "WINDOW", 7)
    setup = Setup("identity", 5, "random", stats=True)
    listed, _ = run_batch(rules, mode="identity", players=5, games=20, seed=6, agent="random", stats=True)
    tally = Tally(rules, "identity")
    for r in stream_jobs(rules, iter_jobs(setup, 20, 6), workers=2):
        tally.add(r)
    a = tally.summary(seed=6, players=5, agent="random", seconds=1)
    b = summarize(rules, listed, seed=6, mode="identity", players=5, agent="random", seconds=1)
    assert a["games"] == 20 and a["identities"] and a["skills"] and a == b


def test_ray_options_that_cannot_apply_are_usage_errors(capsys):
    """Checked before Ray is needed: these hold with or without the ray extra."""
    from sgsdsl.sim.command import SimOptions, simulate_command

    assert simulate_command(SimOptions(games=2, ray_address="127.0.0.1:6379")) == 2
    assert "--backend ray" in capsys.readouterr().err
    assert simulate_command(SimOptions(games=2, backend="ray", workers=2)) == 2
    assert "drop --workers" in capsys.readouterr().err
