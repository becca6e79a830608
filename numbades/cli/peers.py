"""The peers numbades is measured against: ``openssl speed`` and pycryptodome.

Each runner answers ``None`` when its peer is not installed, so a report
does not fail; :func:`missing` says which peers are absent, why, and how to
get them, so a report can print that instead of empty figures.  Used by ``numbades speed --compare`` and
``benchmarks/compare.py``.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from collections.abc import Callable

from .measure import IV, KEY8, KEY24

#: Ciphers as ``openssl speed -evp`` names them.
CIPHERS = ("des-ecb", "des-cbc", "des-ede3-cbc")


@functools.cache
def openssl_version() -> tuple[int, ...] | None:
    """Version of the ``openssl`` on PATH, e.g. (3, 0, 13); None if absent."""
    exe = shutil.which("openssl")
    if exe is None:
        return None
    try:
        out = subprocess.run(
            [exe, "version"], check=False, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"(\d+)\.(\d+)\.(\d+)", out.stdout)
    return tuple(int(g) for g in match.groups()) if match else None


def openssl_speed(
    cipher: str, nbytes: int, seconds: float, *, decrypt: bool = False
) -> float | None:
    """Bytes/s of ``openssl speed -evp cipher`` at one message size; None if unavailable.

    Single DES sits in OpenSSL 3's legacy provider, so it is asked for
    explicitly; ``-mr`` gives the machine-readable ``+F:`` result line.
    """
    version = openssl_version()
    if version is None:
        return None
    cmd = ["openssl", "speed"]
    if version >= (3,) and "ede3" not in cipher:
        cmd += ["-provider", "legacy", "-provider", "default"]
    secs = max(1, round(seconds))
    if decrypt:
        cmd.append("-decrypt")
    cmd += ["-evp", cipher, "-bytes", str(nbytes), "-seconds", str(secs), "-mr"]
    try:
        out = subprocess.run(
            cmd, check=False, capture_output=True, text=True, timeout=60 + 4 * secs
        )
    except (OSError, subprocess.SubprocessError):
        return None
    for line in out.stdout.splitlines():
        if line.startswith("+F:"):
            fields = line.split(":")
            try:
                return float(fields[-1])
            except ValueError:
                return None
    return None


#: Why a peer's figures are missing, and how to get it.
MISSING = {
    "openssl": "openssl not found on PATH: install your system's openssl package",
    "pycryptodome": "pycryptodome not installed: pip install numbades[bench]",
}


def pycryptodome_installed() -> bool:
    """Whether pycryptodome's DES can be imported."""
    try:
        from Crypto.Cipher import DES, DES3  # noqa: F401
    except ImportError:
        return False
    return True


def missing() -> dict[str, str]:
    """The peers this process cannot run, each with :data:`MISSING`'s reason."""
    present = {"openssl": openssl_version() is not None, "pycryptodome": pycryptodome_installed()}
    return {peer: MISSING[peer] for peer, ok in present.items() if not ok}


def pycryptodome_call(cipher: str, nbytes: int) -> Callable[[], object] | None:
    """A no-argument pycryptodome encrypt of one ``nbytes`` message, or None."""
    try:
        from Crypto.Cipher import DES, DES3
    except ImportError:
        return None
    data = bytes(nbytes)
    out = bytearray(nbytes)
    if cipher == "des-ecb":
        obj = DES.new(KEY8, DES.MODE_ECB)
    elif cipher == "des-cbc":
        obj = DES.new(KEY8, DES.MODE_CBC, iv=IV)
    else:
        obj = DES3.new(KEY24, DES3.MODE_CBC, iv=IV)
    return lambda: obj.encrypt(data, output=out)


def pycryptodome_small_call(cipher: str, nbytes: int) -> Callable[[], object] | None:
    """One ECB ``encrypt`` of ``nbytes`` of ``bytes`` on a reused pycryptodome object, or None."""
    try:
        from Crypto.Cipher import DES, DES3
    except ImportError:
        return None
    obj = DES3.new(KEY24, DES3.MODE_ECB) if cipher == "3des" else DES.new(KEY8, DES.MODE_ECB)
    data = bytes(nbytes)
    return lambda: obj.encrypt(data)


def pycryptodome_key_call() -> Callable[[], object] | None:
    """A no-argument pycryptodome DES key set-up (``DES.new``), or None."""
    try:
        from Crypto.Cipher import DES
    except ImportError:
        return None
    keys = [bytes([i]) * 8 for i in range(1, 255, 2)]
    it = iter(range(1 << 62))
    return lambda: DES.new(keys[next(it) % len(keys)], DES.MODE_ECB)
