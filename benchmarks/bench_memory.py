"""Peak memory of one large call: the library should not copy a big input
more than it must.  asv's peakmem is the peak resident size of the whole
benchmark process, so the 64 MiB input (built in setup) and the interpreter
with NumPy and Numba loaded are part of every figure; what varies is what the
call itself adds."""

from __future__ import annotations

import numpy as np

from . import IV, KEY8, library, require

NBYTES = 64 * 1024 * 1024
INPUTS = ("uint8 array", "bytes")


class PeakMemory:
    """One 64 MiB ECB call that allocates its output."""

    params = (INPUTS,)
    param_names = ("input",)
    timeout = 300

    def setup(self, kind: str) -> None:
        numbades = library()

        self.cipher = numbades.DES(KEY8)
        self.cipher.encrypt(bytes(64))  # compile before the big call
        array = np.zeros(NBYTES, dtype=np.uint8)
        self.data = array if kind == "uint8 array" else array.tobytes()
        del array

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
        try:
            self.cipher.encrypt(bytes(64), mode="cbc", iv=IV)
        except (ValueError, TypeError, NotImplementedError):
            require(False, "CBC mode")
        self.buf = np.zeros(NBYTES, dtype=np.uint8) if kind == "uint8 array" else bytearray(NBYTES)

    def peakmem_cbc_64MiB_in_place(self, kind: str) -> None:
        self.cipher.encrypt(self.buf, mode="cbc", iv=IV, out=self.buf)
