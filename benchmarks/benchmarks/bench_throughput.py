"""ECB speed of every engine at several batch sizes (ns per byte, one core)."""

from __future__ import annotations

import numpy as np

from . import KEY8, SIZES, data, library, ns_per_byte, one_numba_thread, require, variants


def _warm(cipher: object, src: np.ndarray, dst: np.ndarray) -> None:
    """Compile (or load from Numba's cache) what the timed calls run.

    The full-size call, both directions: ``auto`` and the bitslice engine pick
    their kernels by size, so a small warm call could leave the large path cold.
    """
    cipher.encrypt(src, out=dst)
    cipher.decrypt(src, out=dst)


class EcbThroughput:
    """DES-ECB into a preallocated buffer, per engine and batch size: ns per byte."""

    params = (tuple(variants()), tuple(SIZES))
    param_names = ("variant", "batch")
    timeout = 300

    def setup(self, variant: str, batch: str) -> None:
        numbades = library()

        one_numba_thread()
        self.nbytes = SIZES[batch]
        self.cipher = numbades.DES(KEY8, variant=variant)
        self.src = data(self.nbytes)
        self.dst = np.empty_like(self.src)
        _warm(self.cipher, self.src, self.dst)

    def track_ecb_encrypt(self, variant: str, batch: str) -> float:
        return ns_per_byte(lambda: self.cipher.encrypt(self.src, out=self.dst), self.nbytes)

    track_ecb_encrypt.unit = "ns/byte"

    def track_ecb_decrypt(self, variant: str, batch: str) -> float:
        return ns_per_byte(lambda: self.cipher.decrypt(self.src, out=self.dst), self.nbytes)

    track_ecb_decrypt.unit = "ns/byte"


class EcbTime:
    """The same 1 MiB ECB encryption as a ``time_`` benchmark (asv's own statistics).

    Processes 1 MiB (1,048,576 bytes) per call.
    """

    params = (tuple(variants()),)
    param_names = ("variant",)

    def setup(self, variant: str) -> None:
        numbades = library()

        one_numba_thread()
        self.cipher = numbades.DES(KEY8, variant=variant)
        self.src = data(SIZES["1 MiB"])
        self.dst = np.empty_like(self.src)
        _warm(self.cipher, self.src, self.dst)

    def time_ecb_encrypt_1MiB(self, variant: str) -> None:
        self.cipher.encrypt(self.src, out=self.dst)


class BitsliceThreads:
    """The bitslice engine's ECB at 1 MiB with 1 and 2 Numba threads: ns per byte."""

    params = ((1, 2),)
    param_names = ("threads",)
    timeout = 300

    def setup(self, threads: int) -> None:
        import numba

        numbades = library()

        require("bitslice" in variants(), "bitslice engine")
        require(threads <= numba.config.NUMBA_NUM_THREADS, f"{threads} Numba threads")
        numba.set_num_threads(threads)
        self.cipher = numbades.DES(KEY8, variant="bitslice")
        self.src = data(SIZES["1 MiB"])
        self.dst = np.empty_like(self.src)
        self.cipher.encrypt(self.src, out=self.dst)  # compiles the parallel path too

    def track_bitslice_ecb(self, threads: int) -> float:
        return ns_per_byte(lambda: self.cipher.encrypt(self.src, out=self.dst), SIZES["1 MiB"])

    track_bitslice_ecb.unit = "ns/byte"
