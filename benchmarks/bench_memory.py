"""Peak memory of one large call: the library should not copy a big input
more than it must.  asv's peakmem is the peak resident size of the whole
benchmark process, so the 64 MiB input (built in setup) and the interpreter
with NumPy and Numba loaded are part of every figure; what varies is what the
call itself adds."""

from __future__ import annotations

import numpy as np

from . import IV, KEY8, library, require, unsupported

NBYTES = 64 * 1024 * 1024
# Warm calls are this big so that ``auto`` compiles the engine the 64 MiB call
# uses (it picks by size): compiling inside the measured call would put LLVM's
# memory into the peak.
WARM = 64 * 1024
INPUTS = ("uint8 array", "bytes")


def _input(kind: str, nbytes: int, writable: bool = False):
    array = np.zeros(nbytes, dtype=np.uint8)
    if kind == "uint8 array":
        return array
    return bytearray(array) if writable else array.tobytes()


class PeakMemory:
    """One 64 MiB ECB call that allocates its output."""

    params = (INPUTS,)
    param_names = ("input",)
    timeout = 300

    def setup(self, kind: str) -> None:
        numbades = library()

        self.cipher = numbades.DES(KEY8)
        self.cipher.encrypt(_input(kind, WARM))  # compile before the big call
        self.data = _input(kind, NBYTES)

    def peakmem_ecb_64MiB(self, kind: str) -> None:
        self.cipher.encrypt(self.data)


class PeakMemoryInPlace:
    """64 MiB CBC encrypted in place (``out=`` is the input): should add almost nothing."""

    params = (INPUTS,)
    param_names = ("input",)
    timeout = 300

    def setup(self, kind: str) -> None:
        numbades = library()

        self.cipher = numbades.DES(KEY8)
        warm = _input(kind, WARM, writable=True)
        try:
            self.cipher.encrypt(warm, mode="cbc", iv=IV, out=warm)
        except Exception as exc:
            if not unsupported(exc) and "out" not in str(exc):
                raise
            require(False, f"CBC mode in place ({exc})")
        self.buf = _input(kind, NBYTES, writable=True)

    def peakmem_cbc_64MiB_in_place(self, kind: str) -> None:
        self.cipher.encrypt(self.buf, mode="cbc", iv=IV, out=self.buf)
