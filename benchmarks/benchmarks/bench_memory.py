"""Peak memory of one large call: the library should not copy a big input
more than it must.  asv's peakmem is the peak resident size of the benchmark
process; ``setup`` restarts that count when it is done (Linux), so the figure
is the interpreter with NumPy, Numba and the kernels loaded, plus the 64 MiB
input, plus what the call itself adds, not the compiler's transient use.
Like every figure of the suite, these run on one Numba thread: the parallel
ECB kernel (and its per-thread scratch) is not what they measure."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from . import IV, KEY8, library, one_numba_thread, require, reset_peak_rss, unsupported

NBYTES = 64 * 1024 * 1024
# Warm calls are this big so that ``auto`` compiles the engine the 64 MiB call
# uses (it picks by size): compiling inside the measured call would put LLVM's
# memory into the peak.
WARM = 64 * 1024
INPUTS = ("uint8 array", "bytes")


# Run in a child first, so that this process loads the kernels from Numba's
# on-disk cache instead of compiling them: compiling leaves the compiler's
# memory resident, which would swamp what the call adds (about 150 MB more on
# a cold cache, e.g. the first benchmark process after asv installs a commit).
CHILD_WARM = """
import sys, numba, numpy as np, numbades
numba.set_num_threads(1)
kind, mode = sys.argv[1], sys.argv[2]
buf = np.zeros(int(sys.argv[3]), dtype=np.uint8)
if kind == "uint8 array":
    data = buf
else:  # as _input(): bytes, or a bytearray for in-place work
    data = bytes(buf) if mode == "ecb" else bytearray(buf)
kwargs = {} if mode == "ecb" else {"mode": mode, "iv": bytes(8), "out": data}
numbades.DES(bytes.fromhex(sys.argv[4])).encrypt(data, **kwargs)
"""


def _fill_numba_cache(kind: str, mode: str) -> None:
    """The warm call, in a child; if it fails, the same call in ``setup`` says why."""
    subprocess.run(
        [sys.executable, "-c", CHILD_WARM, kind, mode, str(NBYTES), KEY8.hex()],
        check=False,
        capture_output=True,
        timeout=600,
    )


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

        one_numba_thread()
        self.cipher = numbades.DES(KEY8)
        _fill_numba_cache(kind, "ecb")
        self.cipher.encrypt(_input(kind, WARM))  # load the kernels before the big call
        self.data = _input(kind, NBYTES)
        reset_peak_rss()

    def peakmem_ecb_64MiB(self, kind: str) -> None:
        self.cipher.encrypt(self.data)


class PeakMemoryInPlace:
    """64 MiB CBC encrypted in place (``out=`` is the input): should add almost nothing."""

    params = (INPUTS,)
    param_names = ("input",)
    timeout = 300

    def setup(self, kind: str) -> None:
        numbades = library()

        one_numba_thread()
        self.cipher = numbades.DES(KEY8)
        _fill_numba_cache(kind, "cbc")
        warm = _input(kind, WARM, writable=True)
        try:
            self.cipher.encrypt(warm, mode="cbc", iv=IV, out=warm)
        except Exception as exc:
            if not unsupported(exc):
                raise
            require(False, f"CBC mode in place ({exc})")
        self.buf = _input(kind, NBYTES, writable=True)
        reset_peak_rss()

    def peakmem_cbc_64MiB_in_place(self, kind: str) -> None:
        self.cipher.encrypt(self.buf, mode="cbc", iv=IV, out=self.buf)
