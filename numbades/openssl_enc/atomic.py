"""Output that appears whole or not at all: a temporary file beside the target, then a rename.

The temporary file is created in the target's own directory (so the final
``os.replace`` is atomic and never crosses file systems) with the mode a new
file would get (``0o666`` less the umask), or the existing target's mode.
On success it is flushed, ``fsync``-ed and renamed over the target; on any
exception (bad password, truncated input, disk full, ``KeyboardInterrupt``)
it is removed and the target is left as it was.

Targets that are not regular files (``/dev/null``, a FIFO, a terminal) cannot
be replaced by a rename: they are written directly, as ``openssl`` does.
A symbolic link is followed: the file it points to is replaced.  A target
with other hard links is replaced by a new file (the other names keep the
old contents), unlike ``openssl``, which overwrites the shared file.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator
from typing import BinaryIO


def _is_special(path: str) -> bool:
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return False


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """Open ``path`` for writing; it is replaced only if the ``with`` block completes."""
    target = os.path.realpath(os.fspath(path))
    if _is_special(target):
        with open(target, "wb") as f:
            yield f
        return
    directory, name = os.path.split(target)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    for _ in range(100):
        tmp = os.path.join(directory, f".{name}.{secrets.token_hex(4)}.part")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    else:  # pragma: no cover - 100 collisions of 32 random bits
        raise FileExistsError(f"cannot create a temporary file beside {target}")
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
