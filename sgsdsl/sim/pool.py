"""Where the games of a batch are played: local worker processes or Ray tasks (batch.stream_jobs picks).

Every backend plays jobs (Setup, index, seed, rotation, control) with the `play` it is given (batch.play)
and yields the results in job order, so a batch gives the figures of one worker on any backend. This
module knows nothing of games: batch.py hands it `play` and `lost`. What can go wrong on the way:

- A worker process dies (SIGKILL, the kernel's out-of-memory killer, a crash in C code): it loses only
  the game it was playing, because a worker sends each result as its game ends. That game and the rest of
  its chunk go to a new worker; a seeded game gives the same result the second time. A game that kills
  its worker twice is reported as a broken game with its seed (`lost`), and the batch goes on.
- A Ray task is lost (its worker or node died): Ray runs it again, RAY_RETRIES times; after that its
  games are reported as broken games with their seeds.
- Ctrl-C or SIGTERM (interrupts()): KeyboardInterrupt reaches the stream wherever it waits, and the
  stream ends its workers (or cancels its Ray tasks) on the way out, so no process is left behind and
  the caller can summarise the results it has. Workers ignore SIGINT: a terminal sends Ctrl-C to the whole
  process group, and the parent, not each worker, decides what an interrupt does.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import itertools
import multiprocessing as mp
import signal
from multiprocessing.connection import wait
from pathlib import Path

WINDOW = 4096  # jobs read at a time: a batch of any size streams in bounded memory (two windows at most)
CHUNK = 64  # the most games a worker is given at once
RAY_TASK = 64  # games per Ray task: fewer, larger tasks keep the scheduling overhead small
RAY_RETRIES = 3  # how often Ray runs a lost task again before its games are reported lost
DEATHS = 2  # a game whose worker died this many times while playing it is reported, not played again
STOP_WAIT = 1.0  # seconds a worker is given to end on SIGTERM before it is killed

_WORKER: dict = {}
_SIGNALS = {signal.SIGINT, signal.SIGTERM}


class Interrupted(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C's KeyboardInterrupt, so that both end a batch the same way."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def signal_name(e: KeyboardInterrupt) -> str:
    return signal.Signals(e.signum).name if isinstance(e, Interrupted) else "SIGINT"


@contextlib.contextmanager
def interrupts():
    """SIGTERM raises Interrupted in the main thread while this holds (Ctrl-C raises KeyboardInterrupt
    anyway: Python's own handler is put back if something replaced it, unless SIGINT is ignored)."""

    def term(signum, frame):
        raise Interrupted(signum)

    old_term = signal.signal(signal.SIGTERM, term)
    old_int = signal.getsignal(signal.SIGINT)
    if old_int not in (signal.SIG_IGN, signal.default_int_handler):
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old_term)
        signal.signal(signal.SIGINT, old_int)


@contextlib.contextmanager
def _deferred_signals():
    """Ctrl-C and SIGTERM wait (blocked, not lost) while workers are started or ended: a second Ctrl-C
    cannot leave a worker behind, and a new worker never runs the parent's handlers."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        name = signal.Signals(-exitcode).name
        oom = " (the kernel's out-of-memory killer sends it too)" if -exitcode == signal.SIGKILL else ""
        return f"killed by {name}{oom}"
    return f"exit code {exitcode}"


# ---- local worker processes -------------------------------------------------------------------------

_PARENT_ENDS: list = []  # the parent's end of every worker's pipe (a forked worker closes its copies)


def settle(rules):
    """Before a batch: what is alive now (the rules, the loaded modules) lives as long as the process, so the
    cyclic collector is told to stop walking it. Every game makes thousands of short-lived objects, and
    each of the collector's full passes would walk the rules again and free nothing of them."""
    gc.freeze()
    return rules


def _init_worker(play, paths: list[str] | None, variants: tuple[str, ...] = ()) -> None:
    from ..lang.loader import load
    _WORKER["rules"] = settle(load([Path(p) for p in paths] if paths else None, variants=variants))
    _WORKER["play"] = play


def _work(job):
    return _WORKER["play"](_WORKER["rules"], *job)


def _serve(conn, init, initargs) -> None:
    """A worker: chunks of (number, job) in, one (number, result) out per game as it ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)
    for c in _PARENT_ENDS:  # copies of pipes that are not this worker's: the parent's death must close them
        c.close()
    try:
        if init is not None:
            init(*initargs)
        while True:
            chunk = conn.recv()
            if chunk is None:
                return
            for n, job in chunk:
                conn.send((n, _work(job)))
    except (EOFError, OSError):  # the parent is gone: nobody wants the results
        return


class _Worker:
    def __init__(self, ctx, init, initargs):
        with _deferred_signals():
            self.conn, child = ctx.Pipe()
            _PARENT_ENDS.append(self.conn)
            self.proc = ctx.Process(target=_serve, args=(child, init, initargs), daemon=True)
            self.proc.start()
            child.close()
        self.chunk: list | None = None  # the (number, job) pairs it plays, and how many came back
        self.done = 0

    def give(self, chunk: list) -> None:
        self.chunk, self.done = chunk, 0
        self.conn.send(chunk)

    def stop(self, kill: bool) -> None:
        if self.proc.is_alive():
            if kill:
                self.proc.terminate()
            else:
                with contextlib.suppress(OSError):
                    self.conn.send(None)

    def reap(self, wait_for: float) -> None:
        self.proc.join(wait_for)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()
        if self.conn in _PARENT_ENDS:
            _PARENT_ENDS.remove(self.conn)


class ProcessPool:
    """Worker processes that play chunks of games; see the module's text for what a lost worker does."""

    def __init__(self, rules, workers: int, paths: list[Path] | None, play, lost):
        method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
        self.ctx = mp.get_context(method)
        if method == "fork":  # the children inherit the loaded rules
            _WORKER.update(rules=rules, play=play)
            self.init, self.initargs = None, ()
        else:
            self.init, self.initargs = _init_worker, (play, [str(p) for p in paths] if paths else None,
                                                      rules.variants)
        self.lost = lost
        self.size = workers
        self.workers = [_Worker(self.ctx, self.init, self.initargs) for _ in range(workers)]
        self.deaths: collections.Counter = collections.Counter()  # job number -> workers that died playing it

    def pids(self) -> list[int]:
        return [w.proc.pid for w in self.workers]

    def stream(self, jobs):
        """The results of the jobs, in job order."""
        it = iter(jobs)
        todo: collections.deque = collections.deque()  # chunks not given out yet
        results: dict = {}
        read = out = 0  # jobs read, results yielded
        exhausted = False
        while True:
            while out in results:
                yield results.pop(out)
                out += 1
            if not todo and not exhausted and read - out < WINDOW:
                window = list(itertools.islice(it, WINDOW))
                exhausted = len(window) < WINDOW
                size = max(1, min(CHUNK, len(window) // (self.size * 8) or 1))
                for k in range(0, len(window), size):
                    todo.append([(read + k + j, job) for j, job in enumerate(window[k:k + size])])
                read += len(window)
            if exhausted and not todo and out == read:
                return
            for w in self.workers:
                if w.chunk is None and todo:
                    w.give(todo.popleft())
            busy = [w for w in self.workers if w.chunk is not None]
            ready = set(wait([w.conn for w in busy] + [w.proc.sentinel for w in busy]))
            for w in busy:
                if w.conn in ready or w.proc.sentinel in ready:
                    self._collect(w, results, todo)

    def _collect(self, w: _Worker, results: dict, todo: collections.deque) -> None:
        try:
            while w.chunk is not None and w.conn.poll():
                n, r = w.conn.recv()
                results[n] = r
                w.done += 1
                if w.done == len(w.chunk):
                    w.chunk = None
            if w.proc.is_alive():
                return
        except (EOFError, OSError):
            pass
        w.proc.join()
        left = w.chunk[w.done:] if w.chunk is not None else []
        if left:  # the first game left is the one it was playing
            n, job = left[0]
            self.deaths[n] += 1
            if self.deaths[n] >= DEATHS:
                results[n] = self.lost(job, f"the worker process playing this game died {DEATHS} times "
                                       f"({_death(w.proc.exitcode)}); the game is counted as broken")
                left = left[1:]
            if left:
                todo.appendleft(left)
        w.reap(0)
        self.workers[self.workers.index(w)] = _Worker(self.ctx, self.init, self.initargs)

    def close(self, interrupted: bool) -> None:
        """End every worker: asked to stop after a batch, terminated (then killed) after an interrupt."""
        with _deferred_signals():
            for w in self.workers:
                w.stop(kill=interrupted)
            for w in self.workers:
                w.reap(STOP_WAIT)


def stream_processes(rules, jobs, workers: int, paths: list[Path] | None, play, lost):
    pool = ProcessPool(rules, workers, paths, play, lost)
    ended = False
    try:
        yield from pool.stream(jobs)
        ended = True
    finally:
        pool.close(interrupted=not ended)


# ---- Ray -------------------------------------------------------------------------------------------


def _ray_task(play, paths: list[str] | None, variants: tuple[str, ...], jobs: list[tuple]) -> list:
    """One Ray task: a few dozen games, with the rules loaded once per worker process."""
    key = (tuple(paths or ()), tuple(variants))
    if _WORKER.get("key") != key:
        _init_worker(play, paths, variants)
        _WORKER["key"] = key
    return [_work(job) for job in jobs]


def _chunks(jobs, n: int):
    it = iter(jobs)
    while chunk := list(itertools.islice(it, n)):
        yield chunk


def _lost_task_errors(ray) -> tuple:
    """The exceptions of ray.get that mean a task's worker or node was lost, not that its code failed."""
    names = ("WorkerCrashedError", "NodeDiedError", "ObjectLostError", "OwnerDiedError", "OutOfMemoryError",
             "TaskUnschedulableError", "ActorDiedError", "LocalRayletDiedError")
    return tuple(getattr(ray.exceptions, n) for n in names if hasattr(ray.exceptions, n))


def _ray_results(ray, ref, chunk: list, lost_errors: tuple, lost) -> list:
    try:
        return ray.get(ref)
    except lost_errors as e:
        first, last = chunk[0][2], chunk[-1][2]
        why = (f"the Ray task playing seeds {first}–{last} was lost ({e.__class__.__name__}) and "
               f"{RAY_RETRIES} retries did not bring it back; the game is counted as broken")
        return [lost(job, why) for job in chunk]


def stream_ray(rules, jobs, paths: list[Path] | None, address: str | None, play, lost):
    """Ray tasks of RAY_TASK games, at most WINDOW games in flight; results in job order. Each task
    loads the rules from the same files (a cluster's nodes need sgsdsl and the designer's files at
    the same paths). An interrupt cancels the tasks in flight."""
    import ray

    if not ray.is_initialized():
        before = signal.getsignal(signal.SIGTERM)
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
        if callable(before):  # Ray puts its own SIGTERM handler in (it exits at once): interrupts() decides
            signal.signal(signal.SIGTERM, before)
    task = ray.remote(max_retries=RAY_RETRIES)(_ray_task)
    errors = _lost_task_errors(ray)
    args = (play, [str(p) for p in paths] if paths else None, tuple(rules.variants))
    pending: collections.deque = collections.deque()
    try:
        for chunk in _chunks(jobs, RAY_TASK):
            pending.append((task.remote(*args, chunk), chunk))
            if len(pending) * RAY_TASK >= WINDOW:
                yield from _ray_results(ray, *pending.popleft(), errors, lost)
        while pending:
            yield from _ray_results(ray, *pending.popleft(), errors, lost)
    finally:
        with _deferred_signals():
            for ref, _ in pending:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
