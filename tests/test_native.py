"""The native core (sgsdsl.native): which compiled module is used, and that the compiled core plays the very games
the source does. The comparison needs a build (`sgsdsl native --build`); CI makes one and sets
SGSDSL_EXPECT_NATIVE=1, so that there a missing or unused build fails instead of skipping."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from sgsdsl import native
from sgsdsl.cli import main

EXPECT = bool(os.environ.get("SGSDSL_EXPECT_NATIVE"))


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A package folder of one module, engine/play.py, for status() to judge."""
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "play.py").write_text("x = 1\n")
    monkeypatch.setattr(native, "PACKAGE", tmp_path)
    monkeypatch.setattr(native, "MANIFEST", tmp_path / "_native.json")
    monkeypatch.setattr(native, "MODULES", ("engine.play",))
    return tmp_path


def _build_record(pkg):
    suffix = native.importlib.machinery.EXTENSION_SUFFIXES[0]
    (pkg / "engine" / f"play{suffix}").write_bytes(b"")  # (status() never loads it)
    native.MANIFEST.write_text(json.dumps({"modules": {"engine.play": native.digest(pkg / "engine" / "play.py")}}))


def test_a_module_is_native_only_while_its_source_is_the_one_it_was_built_from(package):
    assert native.status() == {"engine.play": "source"}
    _build_record(package)
    assert native.status() == {"engine.play": "native"}
    (package / "engine" / "play.py").write_text("x = 2\n")  # an edit since the build
    assert native.status() == {"engine.play": "stale"}
    assert native.clean() == 1 and native.status() == {"engine.play": "source"}


def test_a_stale_module_is_imported_from_its_source():
    finder = native._FromSource({"sgsdsl.engine.play"})
    spec = finder.find_spec("sgsdsl.engine.play")
    assert spec.origin == str(native.source("engine.play")) and spec.origin.endswith(".py")
    assert finder.find_spec("sgsdsl.engine.zones") is None  # a module not listed is left to the usual finders


def test_clean_without_a_build_is_a_usage_error(package):
    r = CliRunner().invoke(main, ["native", "--clean"])
    assert r.exit_code == 2 and "no compiled module" in r.output


def test_build_and_clean_together_is_a_usage_error():
    r = CliRunner().invoke(main, ["native", "--build", "--clean"])
    assert r.exit_code == 2 and "exclude each other" in r.output


def test_status_lists_every_module(package):
    r = CliRunner().invoke(main, ["native"])
    assert r.exit_code == 0 and "source  sgsdsl.engine.play" in r.output


# ---- the compiled core against the source --------------------------------------------------------------------

built = "native" in native.status().values()
needs_build = pytest.mark.skipif(not built and not EXPECT, reason="no native build here (sgsdsl native --build)")


def _games(tmp_path, mode: str, agent: str, pure: bool) -> tuple[str, bool]:
    log = tmp_path / f"{mode}-{agent}-{'pure' if pure else 'native'}.jsonl"
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop(native.PURE_ENV, None)
    if pure:
        env[native.PURE_ENV] = "1"
    code = ("import sys; from sgsdsl import native; from sgsdsl.cli import main; print(native.active(), "
            "file=sys.stderr); main()")
    out = subprocess.run([sys.executable, "-c", code, "simulate", "--mode", mode, "--games", "6", "--seed", "11",
                          "--agent", agent, "--log", str(log), "--log-games", "0,1,2,3,4,5", "--check-invariants"],
                         env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    return log.read_text(encoding="utf-8"), out.stderr.splitlines()[0] == "True"


@needs_build
@pytest.mark.parametrize("mode", ["identity", "duel", "guozhan"])
@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_the_native_core_plays_the_games_the_source_plays(tmp_path, mode, agent):
    pure, ran_pure_native = _games(tmp_path, mode, agent, pure=True)
    compiled, ran_native = _games(tmp_path, mode, agent, pure=False)
    assert not ran_pure_native and ran_native, "SGSDSL_PURE=1 runs the source, and a fresh build the compiled core"
    assert compiled == pure
