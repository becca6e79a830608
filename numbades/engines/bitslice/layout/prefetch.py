"""Fetching the next pass's data while the rounds of this one run.

A pass of the bitslice engine reads ``BLOCKS`` words of its input and
writes as many of its output, then spends most of its time in the rounds,
which touch only the pass's own scratch.  On inputs larger than the caches
each pass would start by waiting for memory: its loads, and the
read-for-ownership of every output line.  So the rounds fetch the *next*
pass's lines as they go: each S-box of each round asks for two lines of the
input (to read) and two of the output (to write), 16 words, so the 128
S-box slots of 16 rounds cover the ``BLOCKS`` words of the next pass (with
48 rounds, 3DES, each line is asked for three times; the later requests
hit the cache).

What to fetch travels as one tuple of words, ``ahead``: the byte
addresses of the next pass's input and output and its word count (0:
nothing to fetch), then the addresses of any further inputs read word for
word alongside (a key per lane: the next pass's keys, ``with_inputs``),
so the shared round kernel compiles once whatever arrays its callers
stream.  The requests are hints: never past the next pass,
never a fault, and results cannot depend on them.

DES-ECB, 32 MiB into a separate output, one core of an AVX-512 host:
5.1 -> 4.1 ns/block (medians of 7, side by side; ``benchmarks/compare.py``).
"""

import numpy as np

from ...jit import always_inline, inline, prefetch
from ..cpu.vector_width import prefer_wide_vectors
from .transpose import BLOCKS

#: ``ahead`` with nothing to fetch, for calls of the round kernel from Python.
NOTHING_AHEAD: tuple = (np.uint64(0), np.uint64(0), np.uint64(0))

#: Words fetched per S-box slot: two 64-byte lines of each stream.
WORDS_PER_SLOT = 16
#: Words fetched per round (eight S-box slots).
WORDS_PER_ROUND = 8 * WORDS_PER_SLOT


@inline
def next_pass(src: np.ndarray, dst: np.ndarray, start: int) -> tuple:
    """``ahead`` for a pass whose successor starts at word ``start`` of src and dst (1-D).

    Nothing to fetch when there is no such pass: ``start`` at or past the end,
    or below 0 (the passes that run from the end of a stream down).
    """
    always_inline()
    prefer_wide_vectors()
    words = max(0, min(BLOCKS, src.shape[0] - start))
    if start < 0 or words == 0:
        return nothing_ahead()
    return (np.uint64(src.ctypes.data + 8 * start), np.uint64(dst.ctypes.data + 8 * start),
            np.uint64(words))


@inline
def nothing_ahead() -> tuple:
    """``ahead`` when there is no next pass to fetch."""
    always_inline()
    prefer_wide_vectors()
    return np.uint64(0), np.uint64(0), np.uint64(0)


@inline
def prefetch_slot(ahead: tuple, at: int) -> None:
    """Ask for words ``at`` .. ``at + 15`` of the next pass: input to read, output to write."""
    always_inline()
    prefer_wide_vectors()
    for word in (np.uint64(at), np.uint64(at + 8)):  # two 64-byte lines
        if word < ahead[2]:  # both unsigned (int against uint64 compares as float64)
            prefetch(ahead[0] + np.uint64(8) * word, False)
            prefetch(ahead[1] + np.uint64(8) * word, True)
            for i in range(3, len(ahead)):  # further inputs (a constant trip count: unrolled)
                prefetch(ahead[i] + np.uint64(8) * word, False)


@inline
def with_inputs(ahead: tuple, inputs: np.ndarray, start: int, sets: int) -> tuple:
    """``ahead`` and the next pass's words of three more inputs: rows ``0 .. sets - 1`` of the
    C-contiguous 2-D ``inputs``, from word ``start`` (row ``sets - 1`` again past the last).

    Three, so the kernel compiles once for single DES (one key set) and
    Triple-DES (three).  Nothing more to fetch where ``ahead`` has nothing.
    """
    always_inline()
    prefer_wide_vectors()
    # ``+``, not ``(*ahead, ...)``: Numba builds the latter as a tuple of int64.
    if ahead[2] == np.uint64(0):
        return ahead + (ahead[0], ahead[0], ahead[0])  # noqa: RUF005
    base = np.uint64(inputs.ctypes.data + 8 * start)
    row = np.uint64(8 * inputs.shape[1])
    last = np.uint64(sets - 1)
    return ahead + (base, base + row * min(np.uint64(1), last), base + row * last)  # noqa: RUF005


@inline
def round_slots(r: int) -> int:
    """The first word round ``r`` fetches (the pattern repeats every 16 rounds)."""
    always_inline()
    prefer_wide_vectors()
    return WORDS_PER_ROUND * (r % 16)
