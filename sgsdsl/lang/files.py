"""The files a user names and the output a command writes, where the machine gets in the way.

A path may be a device (`/dev/zero` never ends), a FIFO (a read blocks until someone writes), a folder
or a name that is not UTF-8; standard output may be a full disk or a closed pipe. Each gets a one-line
error saying what is wrong, never a traceback, an unbounded read or a hang.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys


def quiet_stdout() -> None:
    """After standard output failed (a full disk, a closed pipe): what is still buffered for it goes to
    the null device, so that the end of the process does not fail on it again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


class NotReadable(OSError):
    """A path that cannot be read as a file: its message says why, in words (`str(e)`)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def shown(path) -> str:
    """A path as it can be printed anywhere: bytes of a name that are not UTF-8 show as U+FFFD."""
    try:
        raw = os.fsencode(path)
    except UnicodeEncodeError:  # a lone surrogate that no file system name decodes to
        raw = str(path).encode("utf-8", "surrogatepass")
    return raw.decode("utf-8", "replace")


def utf8_name(path) -> bool:
    try:
        str(path).encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"


def not_a_file(path) -> str | None:
    """Why `path` is not a regular file that can be read (a device never ends, a FIFO blocks), or None.
    Only the file's metadata is looked at: nothing is opened."""
    try:
        st = os.stat(path)
    except OSError as e:
        return e.strerror or str(e)
    return None if stat.S_ISREG(st.st_mode) else f"it is {_kind(st.st_mode)}, not a file"


def read_bytes(path, limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most `limit` bytes; NotReadable, saying why, for anything else
    (a device, a FIFO, a folder, a larger file, a missing one). Never blocks, never reads past the limit."""
    name = shown(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as e:
        raise NotReadable(f"cannot read {name}: {e.strerror or e}") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise NotReadable(f"cannot read {name}: it is {_kind(st.st_mode)}, not a {what}")
        if st.st_size > limit:
            raise NotReadable(f"cannot read {name}: it is {st.st_size:,} bytes, more than the {limit:,} a {what} "
                              "may have")
        try:
            data = f.read(limit + 1)
        except OSError as e:
            raise NotReadable(f"cannot read {name}: {e.strerror or e}") from None
    if len(data) > limit:  # it grew while it was read
        raise NotReadable(f"cannot read {name}: it is more than the {limit:,} bytes a {what} may have")
    return data


def universal_newlines(text: str) -> str:
    """As a text-mode read gives it: \\r\\n and a lone \\r are \\n."""
    return text.replace("\r\n", "\n").replace("\r", "\n")
