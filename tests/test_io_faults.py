"""Files that are not files, and outputs that cannot be written: a device (`/dev/zero` never ends), a
FIFO (a read blocks), a folder, a file name that is not UTF-8, a full disk under standard output. Each
is one error line and exit 2 (a usage or I/O error), or a located SGS005 for a file found in a folder;
never a traceback, an unbounded read or a hang."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main
from sgsdsl.lang.files import NotReadable, read_bytes

ROOT = Path(__file__).resolve().parents[1]
posix = pytest.mark.skipif(os.name != "posix" or not Path("/dev/zero").exists(), reason="POSIX devices and FIFOs")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.sgs"
    os.mkfifo(path)
    return path


@posix
@pytest.mark.parametrize("command", [["check"], ["test"], ["fmt"], ["info"], ["explain", "杀"],
                                     ["simulate", "--games", "1"]])
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "fifo"])
def test_a_path_that_is_not_a_file_is_a_usage_error(command, device, fifo):
    r = run(*command, fifo if device == "fifo" else device)
    assert r.exit_code == 2, r.output
    assert ("a named pipe (FIFO), not a file" if device == "fifo" else "a character device, not a file") in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


@posix
@pytest.mark.parametrize("how", ["fifo", "device"])
def test_a_file_in_a_folder_that_is_not_a_file_is_located_and_never_read(tmp_path, how):
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "a.sgs").write_text((ROOT / "examples/yanyan.sgs").read_text(encoding="utf-8"), encoding="utf-8")
    bad = folder / "b.sgs"
    if how == "fifo":
        os.mkfifo(bad)
    else:
        bad.symlink_to("/dev/zero")
    r = run("check", folder)
    assert r.exit_code == 1, r.output
    assert "b.sgs:1:1: error[SGS005]: cannot read rules file: it is " in r.stderr, r.stderr


@posix
@pytest.mark.parametrize("device", ["/dev/zero", "fifo"])
def test_replay_and_report_read_only_files(tmp_path, device, fifo):
    path = fifo if device == "fifo" else device
    kind = "a named pipe (FIFO)" if device == "fifo" else "a character device"
    r = run("simulate", "--replay", path)
    assert r.exit_code == 2 and f"it is {kind}, not a game log" in r.stderr, r.output
    r = run("report", path, "-o", tmp_path / "r.html")
    assert r.exit_code == 2 and f"it is {kind}, not a results file" in r.stderr, r.output


def test_reads_are_bounded(tmp_path):
    big = tmp_path / "big.log"
    big.write_bytes(b"x" * 1001)
    with pytest.raises(NotReadable, match="1,001 bytes, more than the 1,000 a game log may have"):
        read_bytes(big, 1000, "game log")
    assert read_bytes(big, 1001) == b"x" * 1001


@pytest.mark.skipif(sys.platform != "linux", reason="a file name of bytes that are not UTF-8: Linux file systems")
def test_a_file_name_that_is_not_utf8(tmp_path):
    name = tmp_path / os.fsdecode(b"bad\xff.sgs")
    name.write_text((ROOT / "examples/yanyan.sgs").read_text(encoding="utf-8"), encoding="utf-8")
    for command in (["check"], ["test"], ["info"], ["simulate", "--games", "1"]):
        r = run(*command, name)
        assert r.exit_code == 2, r.output
        assert "is not UTF-8 text: rename the file" in r.output and "bad\ufffd.sgs" in r.output
    folder = tmp_path / "pack"
    folder.mkdir()
    name.rename(folder / name.name)
    r = run("check", folder)
    assert r.exit_code == 1 and "error[SGS005]: this file's name is not UTF-8 text" in r.stderr, r.output


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="a full disk: Linux's /dev/full")
@pytest.mark.parametrize("command", [["info", "--json"], ["check", "examples/yanyan.sgs"],
                                     ["simulate", "--games", "2", "--agent", "random", "--json"]])
def test_a_full_disk_under_standard_output_is_one_error(command, tmp_path):
    """Standard output is buffered: a full disk shows as late as the end of the process, where Python
    would print a traceback. The other outputs are written all the same."""
    extra = ["--html", str(tmp_path / "r.html")] if command[0] == "simulate" else []
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "sgsdsl", *command, *extra], stdout=full, stderr=subprocess.PIPE,
                           cwd=ROOT, timeout=300)
    err = p.stderr.decode()
    assert p.returncode == 2, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert [line for line in err.splitlines() if line.startswith("error: ")] == [
        line for line in err.splitlines() if "No space left on device" in line], err
    assert "No space left on device" in err
    if extra:
        assert (tmp_path / "r.html").stat().st_size > 0 and "wrote " in err
