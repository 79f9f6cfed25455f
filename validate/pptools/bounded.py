"""Bounded, non-blocking reading of the files the tools take as input.

A path is opened with O_NONBLOCK and must be a regular file (fstat after open,
so a FIFO, a device such as /dev/zero or a folder is refused before a byte is
read) of at most `limit` bytes. Everything wrong is a BadInput: one line, which
the tools print with exit 2. The app and model lists (project.py) and the
result files (result.py) are read through it.
"""
import os
import stat

SMALL_LIMIT = 4 << 20     # plans, declarations, summaries, compile facts, lists


class BadInput(Exception):
    """An input the tools refuse: its one-line message says which and why."""


def read_bytes(path, what=None, limit=SMALL_LIMIT):
    """The bytes of a regular file of at most limit bytes, read without blocking."""
    name = f"{what} {path}" if what else str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise BadInput(f"{name}: cannot open: {e.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise BadInput(f"{name}: not a regular file")
        if st.st_size > limit:
            raise BadInput(f"{name}: {st.st_size} bytes, more than the {limit} this file may have")
        chunks, total = [], 0
        while True:  # a file that grows while read still stops at the limit
            b = os.read(fd, min(1 << 20, limit + 1 - total))
            if not b:
                break
            chunks.append(b)
            total += len(b)
            if total > limit:
                raise BadInput(f"{name}: more than the {limit} bytes this file may have")
        return b"".join(chunks)
    except OSError as e:
        raise BadInput(f"{name}: cannot read: {e.strerror}") from None
    finally:
        os.close(fd)


def read_text(path, what=None, limit=SMALL_LIMIT):
    """A regular file's text (UTF-8), read as read_bytes does."""
    try:
        return read_bytes(path, what, limit).decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadInput(f"{f'{what} ' if what else ''}{path}: not UTF-8 text (byte {e.start})") from None
