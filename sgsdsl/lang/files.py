"""The files a user names and the output a command writes, where the machine gets in the way.

A path may be a device (`/dev/zero` never ends), a FIFO (a read blocks until someone writes), a folder
or a name that is not UTF-8; standard output may be a full disk or a closed pipe. Each gets a one-line
error saying what is wrong, never a traceback, an unbounded read or a hang.
"""

from __future__ import annotations

import contextlib
import os
import sys


def quiet_stdout() -> None:
    """After standard output failed (a full disk, a closed pipe): what is still buffered for it goes to
    the null device, so that the end of the process does not fail on it again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
